package negotiate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// writeLog is a ResponseWriter that records every call made to it.
type writeLog struct {
	header http.Header
	calls  []string
	body   strings.Builder
}

func (w *writeLog) Header() http.Header { return w.header }
func (w *writeLog) WriteHeader(code int) {
	w.calls = append(w.calls, "WriteHeader:"+strconv.Itoa(code))
}
func (w *writeLog) Write(p []byte) (int, error) {
	w.calls = append(w.calls, "Write")
	return w.body.Write(p)
}

// budgetHandler is a provisioned Handler whose converter is fn.
func budgetHandler(t *testing.T, opts Options, fn ConvertFunc) (*Handler, *recorder) {
	t.Helper()
	obs := &recorder{}
	h := &Handler{Options: opts, Convert: fn, Observer: obs}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	return h, obs
}

// budgetOrigin serves testPage (an HTML page with a Content-Length).
func budgetOrigin(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(testPage)))
	io.WriteString(w, testPage)
	return nil
}

func TestBudgetDefaults(t *testing.T) {
	h, _ := budgetHandler(t, Options{MaxSize: 1 << 20}, fixedConvert)
	if h.Options.ConvertTimeout != DefaultConvertTimeout || h.Options.MaxMarkdownSize != 4<<20 {
		t.Errorf("budget defaults: timeout %v, max markdown %d", h.Options.ConvertTimeout, h.Options.MaxMarkdownSize)
	}
	for _, o := range []Options{{ConvertTimeout: -time.Second}, {MaxMarkdownSize: -1}} {
		h := &Handler{Options: o, Convert: fixedConvert}
		err := h.Provision()
		if err == nil || !strings.Contains(err.Error(), "must not be negative") {
			t.Errorf("Provision(%+v) = %v, want a refusal", o, err)
		}
	}
}

// The converter's context is the request's with the time budget as its
// deadline.
func TestBudgetConvertContext(t *testing.T) {
	type key struct{}
	var got Page
	h, _ := budgetHandler(t, Options{ConvertTimeout: time.Hour}, func(_ []byte, p Page) (*Converted, error) {
		got = p
		return &Converted{Markdown: []byte("# x\n")}, nil
	})
	req := httptest.NewRequest("GET", "http://site.test/pricing", nil)
	req = req.WithContext(context.WithValue(req.Context(), key{}, "request"))
	req.Header.Set("Accept", "text/markdown")
	before := time.Now()
	if err := h.ServeHTTP(httptest.NewRecorder(), req, budgetOrigin); err != nil {
		t.Fatal(err)
	}
	deadline, ok := got.Context.Deadline()
	if !ok || deadline.Before(before.Add(time.Hour)) || deadline.After(time.Now().Add(time.Hour)) {
		t.Errorf("converter's deadline = %v (set %v), want an hour from the conversion", deadline, ok)
	}
	if got.Context.Value(key{}) != "request" {
		t.Error("the converter's context does not derive from the request's")
	}
	if got.Context.Err() == nil {
		t.Error("the converter's context is not released after the conversion")
	}
}

// A conversion over its budget fails open: the original HTML, byte for
// byte, with the reason counted.
func TestBudgetFailsOpen(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		fn     ConvertFunc
		reason string
	}{
		{"time", Options{ConvertTimeout: time.Millisecond}, func(_ []byte, p Page) (*Converted, error) {
			<-p.Context.Done() // a converter that checks its context
			return nil, fmt.Errorf("convert: stopped: %w", p.Context.Err())
		}, "budget_time"},
		{"time, result ignored", Options{ConvertTimeout: time.Millisecond}, func(_ []byte, p Page) (*Converted, error) {
			<-p.Context.Done()
			return nil, errors.New("some other failure after the deadline")
		}, "budget_time"},
		{"size reported by the converter", Options{}, func([]byte, Page) (*Converted, error) {
			return nil, fmt.Errorf("converting: %w", ErrMarkdownTooLarge)
		}, "budget_size"},
		{"size over max_markdown_size", Options{MaxMarkdownSize: 10}, func([]byte, Page) (*Converted, error) {
			return &Converted{Markdown: []byte(strings.Repeat("x", 11))}, nil
		}, "budget_size"},
		{"other errors", Options{}, func([]byte, Page) (*Converted, error) {
			return nil, errors.New("no content")
		}, "convert"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, obs := budgetHandler(t, tc.opts, tc.fn)
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "http://site.test/pricing", nil)
			req.Header.Set("Accept", "text/markdown")
			if err := h.ServeHTTP(rec, req, budgetOrigin); err != nil {
				t.Fatal(err)
			}
			if rec.Code != http.StatusOK || rec.Body.String() != testPage || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" ||
				rec.Header().Get("Content-Length") != strconv.Itoa(len(testPage)) {
				t.Errorf("got %d %q (%s, %s bytes), want the original page", rec.Code, rec.Body.String(),
					rec.Header().Get("Content-Type"), rec.Header().Get("Content-Length"))
			}
			if got, want := obs.list(), []string{"failopen:" + tc.reason, "served:html"}; strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("events = %q, want %q", got, want)
			}
		})
	}
}

// A client that goes away during the conversion stops it and is sent
// nothing; the conversion's context is done, so a converter that checks it
// returns at once.
func TestBudgetClientGone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	returned := make(chan error, 1)
	h, obs := budgetHandler(t, Options{ConvertTimeout: time.Hour}, func(_ []byte, p Page) (*Converted, error) {
		cancel() // the client leaves while the page is converted
		<-p.Context.Done()
		err := p.Context.Err()
		returned <- err
		return nil, err
	})
	w := &writeLog{header: http.Header{}}
	req := httptest.NewRequest("GET", "http://site.test/pricing", nil).WithContext(ctx)
	req.Header.Set("Accept", "text/markdown")
	if err := h.ServeHTTP(w, req, budgetOrigin); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-returned:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("converter's context ended with %v, want context.Canceled", err)
		}
	default:
		t.Fatal("the converter did not return before ServeHTTP did")
	}
	if len(w.calls) != 0 {
		t.Errorf("a client that left was written to: %q (%q)", w.calls, w.body.String())
	}
	if got := obs.list(); len(got) != 1 || got[0] != "failopen:canceled" {
		t.Errorf("events = %q, want [failopen:canceled]", got)
	}
}
