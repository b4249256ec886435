package documents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
)

// errNotFound stands for a handler error that means 404 (in Caddy, a
// caddyhttp.HandlerError with status 404).
var errNotFound = errors.New("404 from the handler chain")

func newSet(t *testing.T, yaml string) *Set {
	t.Helper()
	site, err := manifest.Parse([]byte(yaml), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(site, Options{NotFound: func(err error) bool { return errors.Is(err, errNotFound) }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// origin answers every path with status and body, or with err.
func origin(status int, body string, err error) negotiate.Next {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err != nil {
			return err
		}
		if status == 0 {
			return nil // writes nothing
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Origin", "yes")
		w.WriteHeader(status)
		_, werr := io.WriteString(w, body)
		return werr
	}
}

const siteYAML = "site:\n  name: Acme\n  origin: https://acme.example\ndocuments:\n  llms_txt: origin\n"

// TestServe: what a request for each kind of path gets, with the origin
// answering in each way that matters.
func TestServe(t *testing.T) {
	s := newSet(t, siteYAML)
	for _, tc := range []struct {
		name, method, path string
		next               negotiate.Next
		handled            bool
		err                error
		status             int
		contentType        string
		body               string // a part of the body
		fromOrigin         bool
	}{
		{"not ours", "GET", "/pricing", origin(200, "page", nil), false, nil, 0, "", "", false},
		{"POST to a document", "POST", "/agents.json", origin(200, "", nil), false, nil, 0, "", "", false},
		{"generated", "GET", "/agents.json", origin(200, "theirs", nil), true, nil, 200, "application/json", `"name"`, false},
		{"HEAD", "HEAD", "/.well-known/agents.json", origin(200, "theirs", nil), true, nil, 200, "application/json", "", false},
		{"origin wins with its copy", "GET", "/llms.txt", origin(200, "# Theirs", nil), true, nil, 200, "text/plain; charset=utf-8", "# Theirs", true},
		{"origin has none (404)", "GET", "/llms.txt", origin(404, "not found", nil), true, nil, 200, "text/plain; charset=utf-8", "# Acme", false},
		{"origin has none (handler error)", "GET", "/llms.txt", origin(0, "", errNotFound), true, nil, 200, "text/plain; charset=utf-8", "# Acme", false},
		{"origin wrote nothing", "GET", "/llms.txt", origin(0, "", nil), true, nil, 200, "text/plain; charset=utf-8", "# Acme", false},
		{"origin fails", "GET", "/llms.txt", origin(0, "", io.ErrUnexpectedEOF), true, io.ErrUnexpectedEOF, 0, "", "", false},
		{"origin redirects", "GET", "/llms.txt", origin(302, "", nil), true, nil, 302, "text/plain; charset=utf-8", "", true},
		{"sitemap, origin has one", "GET", "/sitemap.xml", origin(200, "<urlset/>", nil), true, nil, 200, "text/plain; charset=utf-8", "<urlset/>", true},
		{"sitemap, origin has none", "GET", "/sitemap.xml", origin(404, "", nil), true, nil, 200, "application/xml", "https://acme.example/", false},
		{"robots merged", "GET", "/robots.txt", origin(200, "User-agent: *\nDisallow: /admin\n", nil), true, nil, 200, "text/plain; charset=utf-8", "Disallow: /admin", false},
		{"robots, origin has none", "GET", "/robots.txt", origin(404, "", nil), true, nil, 200, "text/plain; charset=utf-8", "Sitemap: https://acme.example/sitemap.xml", false},
		{"robots too large to merge", "GET", "/robots.txt", origin(200, strings.Repeat("# x\n", maxRobotsSize/4+1), nil), true, nil, 200, "text/plain; charset=utf-8", "# x", true},
		{"robots, origin fails", "GET", "/robots.txt", origin(0, "", io.ErrUnexpectedEOF), true, io.ErrUnexpectedEOF, 0, "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			handled, err := s.Serve(rec, httptest.NewRequest(tc.method, "http://acme.example"+tc.path, nil), tc.next)
			if handled != tc.handled || !errors.Is(err, tc.err) {
				t.Fatalf("handled %v, error %v; want %v, %v", handled, err, tc.handled, tc.err)
			}
			if !handled || tc.err != nil {
				return
			}
			res := rec.Result()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.status || !strings.HasPrefix(res.Header.Get("Content-Type"), tc.contentType) ||
				!strings.Contains(string(body), tc.body) {
				t.Errorf("got %d %q\n%.300s", res.StatusCode, res.Header.Get("Content-Type"), body)
			}
			if fromOrigin := res.Header.Get("X-Origin") != ""; fromOrigin != tc.fromOrigin {
				t.Errorf("the origin's response sent: %v, want %v (header %v)", fromOrigin, tc.fromOrigin, res.Header)
			}
			if !tc.fromOrigin && (res.Header.Get("ETag") == "" || res.Header.Get("Last-Modified") == "" ||
				res.Header.Get("X-Content-Type-Options") != "nosniff") {
				t.Errorf("a generated document without its validators: %v", res.Header)
			}
			if tc.method == "HEAD" && len(body) != 0 {
				t.Errorf("HEAD with a body of %d bytes", len(body))
			}
		})
	}
}

// TestServeConditional: a generated document answers 304 to its ETag and
// to If-Modified-Since (RFC 9110 §13.1), and the merged robots.txt too.
func TestServeConditional(t *testing.T) {
	s := newSet(t, siteYAML)
	for _, path := range []string{"/agents.json", "/robots.txt"} {
		first := httptest.NewRecorder()
		if _, err := s.Serve(first, httptest.NewRequest("GET", "http://acme.example"+path, nil), origin(404, "", nil)); err != nil {
			t.Fatal(err)
		}
		etag, lastMod := first.Header().Get("ETag"), first.Header().Get("Last-Modified")
		for name, h := range map[string][2]string{"etag": {"If-None-Match", etag}, "date": {"If-Modified-Since", lastMod}} {
			req := httptest.NewRequest("GET", "http://acme.example"+path, nil)
			req.Header.Set(h[0], h[1])
			rec := httptest.NewRecorder()
			if _, err := s.Serve(rec, req, origin(404, "", nil)); err != nil {
				t.Fatal(err)
			}
			if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
				t.Errorf("%s by %s: %d with %d bytes, want 304", path, name, rec.Code, rec.Body.Len())
			}
		}
	}
}

// TestServeRobotsAsksForThePlainFile: the origin's robots.txt is asked for
// whole and uncompressed, whatever the client sent.
func TestServeRobotsAsksForThePlainFile(t *testing.T) {
	s := newSet(t, siteYAML)
	req := httptest.NewRequest("HEAD", "http://acme.example/robots.txt", nil)
	for k, v := range map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=0-10", "If-None-Match": `"x"`, "If-Modified-Since": "Tue, 15 Sep 2026 08:00:00 GMT"} {
		req.Header.Set(k, v)
	}
	var asked *http.Request
	next := func(w http.ResponseWriter, r *http.Request) error {
		asked = r
		return origin(404, "", nil)(w, r)
	}
	if _, err := s.Serve(httptest.NewRecorder(), req, next); err != nil {
		t.Fatal(err)
	}
	if asked.Method != "GET" || len(asked.Header) != 0 {
		t.Errorf("asked the origin for %s with %v", asked.Method, asked.Header)
	}
}

// TestBundlesPerOrigin: without site.origin, each origin gets documents of
// its own, at most maxOrigins of them at once.
func TestBundlesPerOrigin(t *testing.T) {
	s := newSet(t, "site:\n  name: Any\n")
	for i := range maxOrigins + 4 {
		host := "h" + strings.Repeat("x", i) + ".example"
		rec := httptest.NewRecorder()
		if _, err := s.Serve(rec, httptest.NewRequest("GET", "http://"+host+"/llms.txt", nil), origin(404, "", nil)); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(rec.Body.String(), "http://"+host+"/") {
			t.Fatalf("llms.txt of %s does not name it:\n%s", host, rec.Body.String())
		}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.bundles) != maxOrigins || len(s.order) != maxOrigins {
		t.Errorf("%d bundles held, want at most %d", len(s.bundles), maxOrigins)
	}
}

// TestSetPages: the pages discovery found reach llms.txt (with their
// titles) and the generated sitemap (with lastmod only where known) at the
// next request.
func TestSetPages(t *testing.T) {
	s := newSet(t, "site:\n  name: Acme\n  origin: https://acme.example\nllms:\n  auto_list:\n    enabled: true\n")
	s.SetPages([]manifest.PageInfo{
		{URL: "https://acme.example/guides/billing", Title: "Billing guide", Lastmod: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)},
		{URL: "https://acme.example/guides/teams", Title: "Teams"},
	})
	rec := httptest.NewRecorder()
	if _, err := s.Serve(rec, httptest.NewRequest("GET", "http://acme.example/llms.txt", nil), origin(404, "", nil)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Body.String(), "[Billing guide](https://acme.example/guides/billing)") {
		t.Errorf("llms.txt does not list the discovered page with its title:\n%s", rec.Body.String())
	}
	rec = httptest.NewRecorder()
	if _, err := s.Serve(rec, httptest.NewRequest("GET", "http://acme.example/sitemap.xml", nil), origin(404, "", nil)); err != nil {
		t.Fatal(err)
	}
	body := rec.Body.String()
	if !strings.Contains(body, "<loc>https://acme.example/guides/teams</loc>") ||
		!strings.Contains(body, "<lastmod>2026-11-02") || strings.Count(body, "<lastmod>") != 1 {
		t.Errorf("generated sitemap does not list the discovered pages with only the known lastmod:\n%s", body)
	}
}

// TestSitemapFinder: the first request for a document that names the
// sitemap waits for the sitemap discovery, which runs once; the sitemap's
// own request does not start it.
func TestSitemapFinder(t *testing.T) {
	s := newSet(t, siteYAML)
	var calls atomic.Int32
	s.SetSitemapFinder(func(context.Context) {
		calls.Add(1)
		s.SetSitemap("/wp-sitemap.xml", false)
	})
	serve := func(path string) string {
		rec := httptest.NewRecorder()
		if _, err := s.Serve(rec, httptest.NewRequest("GET", "http://acme.example"+path, nil), origin(404, "", nil)); err != nil {
			t.Fatal(err)
		}
		return rec.Body.String()
	}
	serve("/sitemap.xml")
	if n := calls.Load(); n != 0 {
		t.Errorf("the sitemap's request ran the discovery %d times", n)
	}
	if body := serve("/robots.txt"); !strings.Contains(body, "Sitemap: https://acme.example/wp-sitemap.xml") {
		t.Errorf("robots.txt does not name the origin's sitemap found:\n%s", body)
	}
	serve("/llms.txt")
	if n := calls.Load(); n != 1 {
		t.Errorf("the discovery ran %d times, want once", n)
	}
}

// TestServeSitemapParts: past 50,000 pages the generated sitemap is an
// index whose parts answer at /sitemap-N.xml, with validators and 304, only
// when the origin has no file there; a part that does not exist is not ours.
func TestServeSitemapParts(t *testing.T) {
	s := newSet(t, siteYAML)
	pages := make([]manifest.PageInfo, 50_001)
	for i := range pages {
		pages[i] = manifest.PageInfo{URL: fmt.Sprintf("https://acme.example/p/%d", i)}
	}
	s.SetPages(pages)
	serve := func(path string, next negotiate.Next, hdr http.Header) (bool, *httptest.ResponseRecorder) {
		req := httptest.NewRequest("GET", "https://acme.example"+path, nil)
		maps.Copy(req.Header, hdr)
		rec := httptest.NewRecorder()
		handled, err := s.Serve(rec, req, next)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return handled, rec
	}
	_, idx := serve("/sitemap.xml", origin(404, "", nil), nil)
	for _, part := range []string{"https://acme.example/sitemap-1.xml", "https://acme.example/sitemap-2.xml"} {
		if !strings.Contains(idx.Body.String(), "<loc>"+part+"</loc>") {
			t.Errorf("the index does not name %s:\n%.300s", part, idx.Body.String())
		}
	}
	handled, p2 := serve("/sitemap-2.xml", origin(404, "", nil), nil)
	if !handled || p2.Code != 200 || p2.Header().Get("Content-Type") != "application/xml; charset=utf-8" ||
		!strings.Contains(p2.Body.String(), "<loc>https://acme.example/p/50000</loc>") || strings.Count(p2.Body.String(), "<url>") != 1 {
		t.Fatalf("/sitemap-2.xml: %v %d %q\n%.300s", handled, p2.Code, p2.Header().Get("Content-Type"), p2.Body.String())
	}
	_, p1 := serve("/sitemap-1.xml", origin(404, "", nil), nil)
	if n := strings.Count(p1.Body.String(), "<url>"); n != 50_000 {
		t.Errorf("/sitemap-1.xml lists %d URLs, want 50000", n)
	}
	etag, lm := p2.Header().Get("ETag"), p2.Header().Get("Last-Modified")
	if etag == "" || lm == "" {
		t.Fatalf("no validators: ETag %q, Last-Modified %q", etag, lm)
	}
	if _, nm := serve("/sitemap-2.xml", origin(404, "", nil), http.Header{"If-None-Match": {etag}}); nm.Code != http.StatusNotModified || nm.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d, %d bytes", nm.Code, nm.Body.Len())
	}
	if _, theirs := serve("/sitemap-2.xml", origin(200, "<urlset/>", nil), nil); theirs.Body.String() != "<urlset/>" {
		t.Errorf("the origin's own /sitemap-2.xml is not the one served: %q", theirs.Body.String())
	}
	for _, path := range []string{"/sitemap-3.xml", "/sitemap-0.xml", "/sitemap-01.xml", "/sitemap-x.xml"} {
		if handled, _ := serve(path, origin(404, "", nil), nil); handled {
			t.Errorf("%s handled", path)
		}
	}
}

func TestIsSitemapPart(t *testing.T) {
	for path, want := range map[string]bool{
		"/sitemap-1.xml": true, "/sitemap-20.xml": true, "/sitemap-0.xml": false, "/sitemap-01.xml": false,
		"/sitemap-.xml": false, "/sitemap-1.xml.gz": false, "/sitemap-1a.xml": false, "/sitemap.xml": false,
		"/a/sitemap-1.xml": false, "/sitemap-1234567.xml": false,
	} {
		if got := isSitemapPart(path); got != want {
			t.Errorf("isSitemapPart(%q) = %v, want %v", path, got, want)
		}
	}
}
