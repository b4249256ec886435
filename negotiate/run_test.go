package negotiate

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Run is asked once the page has been read, before it is converted, and
// the time budget starts when it returns; a refusal sends the origin's
// page (reason "busy"), and a client that went away while waiting gets
// nothing (reason "canceled").
func TestRunHook(t *testing.T) {
	var events []string
	var ranAt time.Time
	var refuse error
	page := "<html><body><main><p>hello</p></main></body></html>"
	obs := &recorder{}
	h := &Handler{
		Options:  Options{ConvertTimeout: time.Minute},
		Observer: obs,
		Convert: func(_ []byte, p Page) (*Converted, error) {
			if dl, ok := p.Context.Deadline(); !ok || dl.Before(ranAt.Add(time.Minute)) {
				t.Errorf("conversion deadline %v, want a minute after Run returned (%v)", dl, ranAt)
			}
			events = append(events, "convert")
			return &Converted{Markdown: []byte("# md\n")}, nil
		},
		Admit: func(context.Context, int64) (func(), error) {
			events = append(events, "admit")
			return func() { events = append(events, "release") }, nil
		},
		Run: func(ctx context.Context) (func(), error) {
			events = append(events, "run")
			if refuse != nil {
				return nil, refuse
			}
			ranAt = time.Now()
			return func() { events = append(events, "done") }, nil
		},
	}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	origin := func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		io.WriteString(w, page)
		events = append(events, "origin")
		return nil
	}
	do := func(ctx context.Context) *httptest.ResponseRecorder {
		events = nil
		rec := httptest.NewRecorder()
		req := httptest.NewRequestWithContext(ctx, "GET", "http://site.test/p", nil)
		req.Header.Set("Accept", "text/markdown")
		if err := h.ServeHTTP(rec, req, origin); err != nil {
			t.Fatal(err)
		}
		return rec
	}
	if rec := do(context.Background()); rec.Body.String() != "# md\n" ||
		strings.Join(events, " ") != "admit origin run convert done release" {
		t.Errorf("served %q, events %v", rec.Body.String(), events)
	}

	refuse = errors.New("no CPU slot in time")
	rec := do(context.Background())
	if rec.Body.String() != page || rec.Header().Get("Content-Length") != strconv.Itoa(len(page)) ||
		strings.Join(events, " ") != "admit origin run release" {
		t.Errorf("a refused run must send the origin's page: %q, events %v", rec.Body.String(), events)
	}
	if got := obs.list(); !slices.Contains(got, "failopen:busy") {
		t.Errorf("observer saw %v, want failopen:busy", got)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the client left while waiting
	refuse = ctx.Err()
	if rec := do(ctx); rec.Body.Len() != 0 || rec.Code != http.StatusOK || slices.Contains(events, "convert") {
		t.Errorf("a client gone while waiting: %d %q, events %v", rec.Code, rec.Body.String(), events)
	}
	if got := obs.list(); !slices.Contains(got, "failopen:canceled") {
		t.Errorf("observer saw %v, want failopen:canceled", got)
	}
}
