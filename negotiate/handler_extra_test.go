package negotiate

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// A directory index behind a file server: /docs redirects to /docs/. The
// suffix URL of the index (/docs/md) must give its Markdown, not the
// redirect to the HTML; other redirects pass through.
func TestSuffixFollowsTrailingSlashRedirect(t *testing.T) {
	origin := func(w http.ResponseWriter, r *http.Request) error {
		switch r.URL.Path {
		case "/docs":
			http.Redirect(w, r, "/docs/", http.StatusMovedPermanently)
		case "/docs/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body><main><p>the docs index</p></main></body></html>")
		case "/old":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		case "/elsewhere":
			http.Redirect(w, r, "https://other.example/elsewhere/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
		return nil
	}
	var pages []string
	h := &Handler{Convert: func(html []byte, page Page) (*Converted, error) {
		pages = append(pages, page.URL.Path)
		return &Converted{Markdown: []byte("# " + page.URL.Path + "\n")}, nil
	}}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, wantStatus, wantBody, wantLocation string
	}{
		{"/docs/md", "200", "# /docs/\n", ""},
		{"/old/md", "301", "", "/new"},
		{"/elsewhere/md", "302", "", "https://other.example/elsewhere/"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "http://site.test"+tc.path, nil)
			if err := h.ServeHTTP(rec, req, origin); err != nil {
				t.Fatal(err)
			}
			if got := rec.Result().Status[:3]; got != tc.wantStatus {
				t.Fatalf("status %s, want %s", got, tc.wantStatus)
			}
			if tc.wantBody != "" && rec.Body.String() != tc.wantBody {
				t.Errorf("body %q, want %q", rec.Body.String(), tc.wantBody)
			}
			if loc := rec.Header().Get("Location"); loc != tc.wantLocation {
				t.Errorf("Location %q, want %q", loc, tc.wantLocation)
			}
			if tc.wantStatus == "200" && !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/markdown") {
				t.Errorf("content type %q", rec.Header().Get("Content-Type"))
			}
		})
	}
	if len(pages) != 1 || pages[0] != "/docs/" {
		t.Errorf("converted pages %v, want [/docs/]", pages)
	}
}

func TestPagePathAndSuffix(t *testing.T) {
	h := &Handler{Convert: func([]byte, Page) (*Converted, error) { return nil, nil }}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, page string
		suffix     bool
	}{
		{"/pricing/md", "/pricing", true},
		{"/docs/md/", "/docs/", true},
		{"/md", "/", true},
		{"/md/", "/", true},
		{"/docs/", "/docs/", false},
		{"/mdx", "/mdx", false},
		{"/amd", "/amd", false},
	} {
		page, ok := h.pagePath(tc.path)
		if page != tc.page || ok != tc.suffix {
			t.Errorf("pagePath(%q) = %q, %v; want %q, %v", tc.path, page, ok, tc.page, tc.suffix)
		}
	}
	// Every advertised alternate maps back to its page.
	for _, page := range []string{"/", "/pricing", "/docs/", "/a/b/c/", "/a/b.html"} {
		rw := h.newResponseWriter(httptest.NewRecorder(), httptest.NewRequest("GET", "http://x"+page, nil))
		href := rw.markdownHref()
		back, ok := h.pagePath(href)
		if !ok || back != page {
			t.Errorf("page %q advertises %q, which names %q", page, href, back)
		}
	}
}

// The Cached hook is asked before the body is decoded: a hit is served
// without decoding or converting.
func TestCachedBeforeDecode(t *testing.T) {
	converted := 0
	h := &Handler{
		Convert: func([]byte, Page) (*Converted, error) {
			converted++
			return &Converted{Markdown: []byte("# fresh\n")}, nil
		},
		Cached: func(p Page) *Converted {
			if p.URL.Path == "/hit" {
				return &Converted{Markdown: []byte("# cached\n"), Tokens: 3}
			}
			return nil
		},
	}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	origin := func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("ETag", `"v1"`)
		io.WriteString(w, "not gzip at all") // decoding it would fail open
		return nil
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "http://site.test/hit", nil)
	req.Header.Set("Accept", "text/markdown")
	if err := h.ServeHTTP(rec, req, origin); err != nil {
		t.Fatal(err)
	}
	if rec.Body.String() != "# cached\n" || converted != 0 || rec.Header().Get("X-Markdown-Tokens") != "3" {
		t.Errorf("hit: body %q, converted %d times, tokens %q", rec.Body.String(), converted, rec.Header().Get("X-Markdown-Tokens"))
	}
	rec = httptest.NewRecorder()
	req = httptest.NewRequest("GET", "http://site.test/miss", nil)
	req.Header.Set("Accept", "text/markdown")
	if err := h.ServeHTTP(rec, req, origin); err != nil {
		t.Fatal(err)
	}
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Body.String() != "not gzip at all" {
		t.Errorf("miss with a corrupt body must fail open: %q %q", rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
}

// Admit is asked before the page is buffered; a refusal sends the origin's
// response through, and what was granted is released once.
func TestAdmitHook(t *testing.T) {
	var admitted, released []int64
	refuse := false
	h := &Handler{
		Convert: func([]byte, Page) (*Converted, error) { return &Converted{Markdown: []byte("# md\n")}, nil },
		Admit: func(ctx context.Context, n int64) (func(), error) {
			if refuse {
				return nil, errors.New("busy")
			}
			admitted = append(admitted, n)
			return func() { released = append(released, n) }, nil
		},
	}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	page := "<html><body><main><p>hello</p></main></body></html>"
	origin := func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/sized" {
			w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		}
		io.WriteString(w, page)
		return nil
	}
	do := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "http://site.test"+path, nil)
		req.Header.Set("Accept", "text/markdown")
		if err := h.ServeHTTP(rec, req, origin); err != nil {
			t.Fatal(err)
		}
		return rec
	}
	if rec := do("/sized"); rec.Body.String() != "# md\n" {
		t.Fatalf("admitted page: %q", rec.Body.String())
	}
	do("/unsized")
	if len(admitted) != 2 || admitted[0] != int64(len(page)) || admitted[1] != DefaultMaxSize || len(released) != 2 {
		t.Errorf("admitted %v, released %v", admitted, released)
	}
	refuse = true
	if rec := do("/sized"); rec.Body.String() != page || rec.Header().Get("Content-Type") != "text/html" {
		t.Errorf("a refused admission must send the origin's page: %q", rec.Body.String())
	}
	if len(released) != 2 {
		t.Errorf("released %v after a refusal", released)
	}
}
