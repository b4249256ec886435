package caddymodule

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/agentready/caddy-agentready/internal/outsider"
)

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
