package discover

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testPublic is the public origin every test reports URLs on.
const testPublic = "https://docs.example.com"

// fakeSite is an origin made of fixed responses, served on 127.0.0.1. It
// records every request path and can count requests in flight.
type fakeSite struct {
	mu       sync.Mutex
	routes   map[string]http.HandlerFunc
	requests []string
	inflight int
	peak     int
	before   func(r *http.Request) // run before each handler, outside the lock
}

func newFakeSite() *fakeSite { return &fakeSite{routes: map[string]http.HandlerFunc{}} }

// page serves an HTML page with the given head and body.
func (f *fakeSite) page(path, head, body string) *fakeSite {
	return f.handle(path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html><head>%s</head><body>%s</body></html>", head, body)
	})
}

// file serves a body with a content type.
func (f *fakeSite) file(path, ctype string, body []byte) *fakeSite {
	return f.handle(path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.Write(body)
	})
}

// redirect answers 301 to loc.
func (f *fakeSite) redirect(path, loc string) *fakeSite {
	return f.handle(path, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, loc, http.StatusMovedPermanently)
	})
}

func (f *fakeSite) handle(path string, h http.HandlerFunc) *fakeSite {
	f.routes[path] = h
	return f
}

func (f *fakeSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.URL.Path
	if r.URL.RawQuery != "" {
		key += "?" + r.URL.RawQuery
	}
	f.mu.Lock()
	f.requests = append(f.requests, key)
	f.inflight++
	f.peak = max(f.peak, f.inflight)
	h := f.routes[key]
	before := f.before
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.inflight--
		f.mu.Unlock()
	}()
	if before != nil {
		before(r)
	}
	if h == nil {
		http.NotFound(w, r)
		return
	}
	h(w, r)
}

// requested says whether path was ever requested.
func (f *fakeSite) requested(path string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Contains(f.requests, path)
}

// serve starts the site on a loopback port and returns options pointing
// at it, with the public origin set.
func (f *fakeSite) serve(t testing.TB) Options {
	t.Helper()
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	return Options{Origin: ts.URL, PublicOrigin: testPublic, Client: ts.Client()}
}

// run runs discovery and fails the test on an error.
func run(t testing.TB, opts Options) *Result {
	t.Helper()
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// paths returns the result's page URLs with the public origin cut, sorted.
func paths(res *Result) []string {
	var out []string
	for _, p := range res.Pages {
		out = append(out, strings.TrimPrefix(p.URL, testPublic))
	}
	sort.Strings(out)
	return out
}

// urlset renders a sitemaps.org urlset of the given locs.
func urlset(locs ...string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>", l)
	}
	b.WriteString("</urlset>")
	return b.Bytes()
}

// sitemapIndex renders a sitemap index of the given locs.
func sitemapIndex(locs ...string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>", l)
	}
	b.WriteString("</sitemapindex>")
	return b.Bytes()
}

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// links renders <a> elements to the given hrefs.
func links(hrefs ...string) string {
	var b strings.Builder
	for _, h := range hrefs {
		fmt.Fprintf(&b, `<a href="%s">%s</a> `, h, h)
	}
	return b.String()
}
