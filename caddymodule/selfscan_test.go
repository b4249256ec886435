package caddymodule

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/internal/outsider"
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

func newTestSiteScan(h http.Handler, timeout time.Duration) *siteScan {
	return &siteScan{
		key: "http://tiny.test/",
		scanner: &scanner{
			target:  "http://tiny.test/",
			handler: h,
			timeout: timeout,
			logger:  zap.NewNop(),
			opts:    selfcheck.Options{Pages: -1, RequestTimeout: timeout, SameOriginOnly: true},
		},
	}
}

func TestSiteScanRunsAndKeepsReport(t *testing.T) {
	s := newTestSiteScan(tinySite(nil), 20*time.Second)
	if err := s.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := s.status()
	if st.Score == nil || st.Finished.IsZero() || st.Running {
		t.Fatalf("status after a scan: %+v", st)
	}
	for _, f := range []string{"json", "md", "html"} {
		if len(s.rendered[f]) == 0 {
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
	go func() { first <- s.run(context.Background()) }()
	deadline := time.Now().Add(5 * time.Second)
	for !s.status().Running {
		if time.Now().After(deadline) {
			t.Fatal("first scan never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := s.run(context.Background()); !errors.Is(err, errScanRunning) {
		t.Fatalf("second scan: %v, want errScanRunning", err)
	}
	close(block)
	if err := <-first; err != nil {
		t.Fatalf("first scan: %v", err)
	}
	if s.status().Running {
		t.Error("still running after the scan returned")
	}
}

// A site that never answers: the scan ends within its timeout with a report
// (everything COULD_NOT_CHECK) or an error, and the previous report stays.
func TestSiteScanTimeout(t *testing.T) {
	s := newTestSiteScan(tinySite(nil), 20*time.Second)
	if err := s.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := s.status()

	hang := make(chan struct{}) // never closed
	s.scanner = newTestSiteScan(tinySite(hang), 300*time.Millisecond).scanner
	start := time.Now()
	err := s.run(context.Background())
	if took := time.Since(start); took > 15*time.Second {
		t.Fatalf("a scan with a 300ms timeout took %v", took)
	}
	after := s.status()
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
	go func() { done <- s.run(ctx) }()
	for !s.status().Running {
		time.Sleep(5 * time.Millisecond)
	}
	cancel() // App.Stop of the old config
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled scan did not end")
	}
	s.scanner = newTestSiteScan(tinySite(nil), 20*time.Second).scanner // the new config's Start
	if err := s.run(context.Background()); err != nil {
		t.Fatalf("scan after reload: %v", err)
	}
	if st := s.status(); st.Score == nil || st.Error != "" {
		t.Errorf("status after reload: %+v", st)
	}
}

func TestInProcessTransport(t *testing.T) {
	var mu sync.Mutex
	var seen *http.Request
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = r
		mu.Unlock()
		w.Header().Set("X-Test", "1")
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, "short and stout")
	})
	client := &http.Client{Transport: inProcessTransport{handler: h}}
	resp, err := client.Get("http://example.test/pot?x=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTeapot || string(body) != "short and stout" || resp.Header.Get("X-Test") != "1" {
		t.Fatalf("got %d %q %v", resp.StatusCode, body, resp.Header)
	}
	mu.Lock()
	if seen.Host != "example.test" || seen.RequestURI != "/pot?x=1" || seen.RemoteAddr != outsider.RemoteAddr || seen.TLS != nil {
		t.Errorf("the handler saw Host %q URI %q RemoteAddr %q TLS %v", seen.Host, seen.RequestURI, seen.RemoteAddr, seen.TLS)
	}
	mu.Unlock()

	// An https site behind a CDN: the handler sees an outside visitor over
	// TLS, at the host the site block answers, with nothing of the
	// caller's context or credentials.
	site := outsider.Site{TLS: true, Hosts: map[string]string{"www.public.test": "origin.test"}}
	req, _ := http.NewRequestWithContext(context.WithValue(context.Background(), caddyhttp.ServerCtxKey, "client's"),
		http.MethodGet, "https://www.public.test/a", nil)
	req.Header.Set("Authorization", "Bearer client")
	req.Header.Set("X-Forwarded-For", "127.0.0.1")
	resp, err = (&http.Client{Transport: backgroundTransport{originOnlyTransport{inProcessTransport{handler: h, site: site}}}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	if seen.TLS == nil || seen.Host != "origin.test" || seen.RemoteAddr != outsider.RemoteAddr ||
		seen.Header.Get("Authorization") != "" || seen.Header.Get("X-Forwarded-For") != "" ||
		seen.Context().Value(caddyhttp.ServerCtxKey) != nil {
		t.Errorf("the handler saw TLS %v, Host %q, RemoteAddr %q, headers %v, server %v",
			seen.TLS, seen.Host, seen.RemoteAddr, seen.Header, seen.Context().Value(caddyhttp.ServerCtxKey))
	}
	if !isInternal(seen) || !originOnly(seen) || !isBackground(seen.Context()) {
		t.Error("the module's own marks did not come along")
	}
	mu.Unlock()

	panicky := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })
	resp, err = (&http.Client{Transport: inProcessTransport{handler: panicky}}).Get("http://example.test/")
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Error("a panicking handler must surface as an error, not a clean response")
	}
}

// TestIsInternal: an own request is told by its mark and its address
// together; a visitor's, whatever its context, is not one.
func TestIsInternal(t *testing.T) {
	marked := context.WithValue(context.Background(), internalKey{}, true)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		addr string
		want bool
	}{
		{"own request", marked, outsider.RemoteAddr, true},
		{"mark from another address", marked, "203.0.113.9:4000", false},
		{"the address without the mark", context.Background(), outsider.RemoteAddr, false},
		{"a visitor", context.Background(), "203.0.113.9:4000", false},
	} {
		r := httptest.NewRequest("GET", "/", nil).WithContext(tc.ctx)
		r.RemoteAddr = tc.addr
		if got := isInternal(r); got != tc.want {
			t.Errorf("%s: isInternal = %v, want %v", tc.name, got, tc.want)
		}
	}
}
