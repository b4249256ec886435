package selfscan

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/selfcheck"
)

// tinySite is a minimal site for scanning: a home page and 404s.
func tinySite(block <-chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if block != nil {
			select {
			case <-block:
			case <-r.Context().Done():
				return
			}
		}
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html lang="en"><head><title>Tiny</title></head><body><main><h1>Tiny</h1><p>`+strings.Repeat("Words on a page. ", 40)+`</p></main></body></html>`)
	})
}

// handlerTransport answers each request with h, in process.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

func testScanner(h http.Handler, timeout time.Duration) *Scanner {
	return &Scanner{
		Target:    "http://tiny.test/",
		Transport: handlerTransport{h},
		Timeout:   timeout,
		Logger:    zap.NewNop(),
		Options:   selfcheck.Options{Pages: -1, RequestTimeout: timeout, SameOriginOnly: true},
	}
}

func newTestSiteScan(h http.Handler, timeout time.Duration) *Site {
	s := NewSite("http://tiny.test/")
	s.SetScanner(testScanner(h, timeout))
	return s
}

func TestSiteScanRunsAndKeepsReport(t *testing.T) {
	s := newTestSiteScan(tinySite(nil), 20*time.Second)
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := s.Status()
	if st.Score == nil || st.Finished.IsZero() || st.Running {
		t.Fatalf("status after a scan: %+v", st)
	}
	for _, f := range []string{"json", "md", "html"} {
		if len(s.Rendered()[f]) == 0 {
			t.Errorf("no %s rendering", f)
		}
	}
}

// Two scans asked for at once: one runs, the other is refused, and the
// first one's report stands.
func TestSiteScanNeverOverlaps(t *testing.T) {
	block := make(chan struct{})
	s := newTestSiteScan(tinySite(block), 20*time.Second)
	first := make(chan error, 1)
	go func() { first <- s.Run(context.Background()) }()
	deadline := time.Now().Add(5 * time.Second)
	for !s.Status().Running {
		if time.Now().After(deadline) {
			t.Fatal("first scan never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := s.Run(context.Background()); !errors.Is(err, ErrRunning) {
		t.Fatalf("second scan: %v, want ErrRunning", err)
	}
	close(block)
	if err := <-first; err != nil {
		t.Fatalf("first scan: %v", err)
	}
	if s.Status().Running {
		t.Error("still running after the scan returned")
	}
}

// A site that never answers: the scan ends within its timeout with a report
// (everything COULD_NOT_CHECK) or an error, and the previous report stays.
func TestSiteScanTimeout(t *testing.T) {
	s := newTestSiteScan(tinySite(nil), 20*time.Second)
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := s.Status()

	hang := make(chan struct{}) // never closed
	s.SetScanner(testScanner(tinySite(hang), 300*time.Millisecond))
	start := time.Now()
	err := s.Run(context.Background())
	if took := time.Since(start); took > 15*time.Second {
		t.Fatalf("a scan with a 300ms timeout took %v", took)
	}
	after := s.Status()
	if err != nil {
		if after.Error == "" || after.Score == nil || *after.Score != *before.Score {
			t.Errorf("a failed scan must keep the last report and say why: %+v", after)
		}
	} else if after.Score == nil || *after.Score >= *before.Score {
		t.Errorf("a site that hangs cannot score as well as one that answers: %v vs %v", after.Score, before.Score)
	}
}

// A reload cancels the old config's scan; the site keeps its last report
// and the new config's scan runs.
func TestSiteScanCancelledByReload(t *testing.T) {
	block := make(chan struct{})
	s := newTestSiteScan(tinySite(block), 20*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	for !s.Status().Running {
		time.Sleep(5 * time.Millisecond)
	}
	cancel() // App.Stop of the old config
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled scan did not end")
	}
	s.SetScanner(testScanner(tinySite(nil), 20*time.Second)) // the new config's Start
	if err := s.Run(context.Background()); err != nil {
		t.Fatalf("scan after reload: %v", err)
	}
	if st := s.Status(); st.Score == nil || st.Error != "" {
		t.Errorf("status after reload: %+v", st)
	}
}

// flaky answers 502 to the first n requests for the home page, then as
// tinySite.
func flaky(n int) (http.Handler, *atomic.Int64) {
	var homes atomic.Int64
	site := tinySite(nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" && homes.Add(1) <= int64(n) {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		site.ServeHTTP(w, r)
	}), &homes
}

// A site that answered keeps its report when a later scan meets a 502,
// and says why; the first scan of a site that never answered is shown.
func TestSiteScanKeepsAnsweredReport(t *testing.T) {
	s := newTestSiteScan(tinySite(nil), 20*time.Second)
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := s.Status()
	down, _ := flaky(1 << 30)
	s.SetScanner(testScanner(down, 20*time.Second))
	if err := s.Run(context.Background()); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("scan of a 502: %v, want ErrNotAnswered", err)
	}
	after := s.Status()
	if after.Score == nil || *after.Score != *before.Score || !after.Finished.Equal(before.Finished) ||
		!strings.Contains(after.Error, "did not answer the last scan") {
		t.Errorf("after a scan the site did not answer: %+v, before %+v", after, before)
	}

	fresh := newTestSiteScan(down, 20*time.Second)
	if err := fresh.Run(context.Background()); !errors.Is(err, ErrNotAnswered) {
		t.Fatalf("first scan of a 502: %v", err)
	}
	if st := fresh.Status(); st.Score == nil || !strings.Contains(st.Error, "the report judges that answer") {
		t.Errorf("first scan of a site that did not answer: %+v", st)
	}
}

// Schedule retries a site that did not answer, and stops after the scan
// that runs once succeeds.
func TestScheduleRetriesUntilAnswered(t *testing.T) {
	h, homes := flaky(2)
	s := newTestSiteScan(h, 20*time.Second)
	done := make(chan struct{})
	go func() {
		s.Schedule(context.Background(), 0, -1, time.Millisecond)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("Schedule never ended")
	}
	if st := s.Status(); st.Score == nil || st.Error != "" {
		t.Errorf("after the retries: %+v", st)
	}
	if n := homes.Load(); n < 3 {
		t.Errorf("home page asked %d times, want 3 (two 502s, then the answer)", n)
	}
}

// A fleet scans once per interval: the second instance shows the first's
// report, unless a scan is asked for now.
func TestFleetScanOnce(t *testing.T) {
	mem := new(fleet.Memory)
	scanner := func(instance string, h http.Handler) *Scanner {
		f, err := fleet.New(fleet.Config{Storage: mem, Site: "http://tiny.test", Instance: instance})
		if err != nil {
			t.Fatal(err)
		}
		sc := testScanner(h, 20*time.Second)
		sc.Fleet, sc.Fresh = f, time.Hour
		return sc
	}
	var asked atomic.Int64
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		tinySite(nil).ServeHTTP(w, r)
	})
	a, b := NewSite("http://tiny.test/"), NewSite("http://tiny.test/")
	a.SetScanner(scanner("a", tinySite(nil)))
	b.SetScanner(scanner("b", counted))
	for _, s := range []*Site{a, b} {
		if err := s.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if st := b.Status(); st.ScannedBy != "a" || st.Score == nil || asked.Load() != 0 {
		t.Errorf("b: %+v after %d requests of its own, want a's report", st, asked.Load())
	}
	if err := b.Run(Now(context.Background())); err != nil {
		t.Fatal(err)
	}
	if st := b.Status(); st.ScannedBy != "b" || asked.Load() == 0 {
		t.Errorf("b scanned now: %+v", st)
	}
}

func TestPendingMessage(t *testing.T) {
	for _, tc := range []struct {
		st   Status
		want []string
	}{
		{Status{Site: "https://a.test/"}, []string{"No self-scan has completed yet for https://a.test/."}},
		{Status{Site: "s", Running: true}, []string{"A scan is running"}},
		{Status{Site: "s", Error: "refused"}, []string{"The last attempt failed: refused"}},
	} {
		got := tc.st.PendingMessage()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%+v: %q, want %q in it", tc.st, got, w)
			}
		}
	}
}
