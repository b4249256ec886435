package documents

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentready/caddy-agentready/manifest"
)

// appendOrigin writes originOf's answer for an ASCII host, and declines
// any other (strings.ToLower lowers more than ASCII letters).
func TestAppendOrigin(t *testing.T) {
	for _, tc := range []struct {
		host string
		tls  bool
		ok   bool
	}{
		{"example.com", false, true},
		{"Example.COM:8080", true, true},
		{"[::1]:443", true, true},
		{"", false, true},
		{"ÉXAMPLE.com", false, false},
	} {
		r := httptest.NewRequest(http.MethodGet, "http://x/", nil)
		r.Host = tc.host
		if tc.tls {
			r.TLS = &tls.ConnectionState{}
		}
		got, ok := appendOrigin(nil, r)
		if ok != tc.ok || ok && string(got) != originOf(r) {
			t.Errorf("%q: %q, %v; want %q, %v", tc.host, got, ok, originOf(r), tc.ok)
		}
	}
}

// TestBundleForRemembersHost: the bundle bundleFor remembers for the last
// host answers only that host, in the case the origin has it and over the
// same scheme, and never once the bundles change (new pages, a sitemap,
// more origins than are kept): every answer is the bundle the host's
// origin has at that moment, from several goroutines at once.
func TestBundleForRemembersHost(t *testing.T) {
	site, err := manifest.Parse([]byte("site:\n  name: Acme\n"), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(site, Options{})
	if err != nil {
		t.Fatal(err)
	}
	request := func(host string, secure bool) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "http://x/", nil)
		r.Host = host
		if secure {
			r.TLS = &tls.ConnectionState{}
		}
		return r
	}
	hosts := []string{"a.example", "A.example", "b.example:8080", "", "bücher.example"}
	for i := range maxOrigins + 3 {
		hosts = append(hosts, "h"+strconv.Itoa(i)+".example")
	}
	// While other requests generate and drop bundles, an answer is one
	// made for the request's own origin.
	check := func(r *http.Request) {
		got := s.bundleFor(r)
		if got == nil || got.host.host != strings.ToLower(r.Host) || got.host.tls != (r.TLS != nil) {
			t.Errorf("host %q, TLS %v: the bundle of another origin", r.Host, r.TLS != nil)
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 400 {
				r := request(hosts[(i*(g+1))%len(hosts)], (i+g)%3 == 0)
				check(r)
				check(r)
				if g == 0 && i%50 == 0 {
					s.SetPages(nil)
				}
			}
		}()
	}
	wg.Wait()
	// Quietly: the bundle the origin has now, remembered or not.
	for _, h := range hosts {
		for _, secure := range []bool{false, true} {
			r := request(h, secure)
			for range 2 {
				s.mu.RLock()
				want, ok := s.bundles[originOf(r)]
				s.mu.RUnlock()
				if got := s.bundleFor(r); ok && got != want {
					t.Errorf("host %q, TLS %v: not the bundle its origin has", h, secure)
				}
			}
		}
	}
	// The remembered host answers only for itself.
	a, b := request("a.example", false), request("b.example:8080", false)
	ba, bb := s.bundleFor(a), s.bundleFor(b)
	if s.bundleFor(a) != ba || s.bundleFor(request("A.example", false)) != ba || s.bundleFor(b) != bb || ba == bb {
		t.Error("two hosts answered with one bundle")
	}
	if s.bundleFor(request("b.example:8080", true)) == bb {
		t.Error("the bundle of http://b.example:8080 answered for https")
	}
	if s.bundleFor(b) != bb {
		t.Fatal("b.example:8080 answered with another bundle")
	}
	s.SetPages(nil) // b's bundle was the last found
	if s.bundleFor(b) == bb {
		t.Error("the bundle from before new pages answered")
	}
}
