package connect

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/fulltext"
)

// newHTTPSite serves a small site over HTTP: a sitemap on the public origin
// testOrigin, pages as HTML or, asked for Markdown, as Markdown with front
// matter and an ETag.
func newHTTPSite(t *testing.T) (*httptest.Server, *asked) {
	t.Helper()
	var log asked
	pages := map[string]string{"/": "Home", "/pricing": "Pricing", "/docs": "Docs"}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r.Host + r.URL.Path)
		switch r.URL.Path {
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			io.WriteString(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
				`<url><loc>`+testOrigin+`/pricing</loc></url><url><loc>`+testOrigin+`/docs</loc></url></urlset>`)
			return
		case "/html-only":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<p>too large to convert</p>")
			return
		case "/huge":
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			io.WriteString(w, strings.Repeat("x", 2048))
			return
		}
		title, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		etag := `"` + strings.ToLower(title) + `-1"`
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		if strings.HasPrefix(r.Header.Get("Accept"), "text/markdown") {
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			io.WriteString(w, "---\ntitle: "+title+"\ncanonical: "+testOrigin+r.URL.Path+"\nlanguage: en\n---\n\n# "+title+"\n")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><head><title>"+title+"</title></head><body><h1>"+title+"</h1>"+
			"<dl><dt>--annual</dt><dd>billed once a year</dd></dl></body></html>")
	}))
	t.Cleanup(ts.Close)
	return ts, &log
}

// asked records the requests a test site answered, as host and path.
type asked struct {
	mu    sync.Mutex
	paths []string
}

func (a *asked) add(p string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.paths = append(a.paths, p)
}

// take returns the requests recorded since the last take.
func (a *asked) take() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.paths
	a.paths = nil
	return p
}

// TestHTTPSource: the pages are discovery's, on the public origin; each is
// fetched at its path on the origin it is served at, as Markdown, and as
// HTML for the text the search reads (a definition list the Markdown lacks
// included), and a page whose validators still hold is not modified.
func TestHTTPSource(t *testing.T) {
	ts, asked := newHTTPSite(t)
	disc, err := discover.New(discover.Options{Origin: ts.URL, PublicOrigin: testOrigin, Client: ts.Client()})
	if err != nil {
		t.Fatal(err)
	}
	src := &HTTPSource{Discoverer: disc, Client: ts.Client(), Origin: ts.URL, MaxPageMarkdown: 1024}
	urls, err := src.Pages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{testOrigin + "/", testOrigin + "/pricing", testOrigin + "/docs"} {
		if !slices.Contains(urls, want) {
			t.Errorf("Pages = %v, want %s among them", urls, want)
		}
	}

	asked.take()
	p, err := src.Fetch(context.Background(), testOrigin+"/pricing", Validators{})
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(ts.URL, "http://")
	if got := asked.take(); !slices.Equal(got, []string{host + "/pricing", host + "/pricing"}) {
		t.Errorf("asked for %v, want the page at the origin it is served at", got)
	}
	if p.Title != "Pricing" || p.URL != testOrigin+"/pricing" || p.Language != "en" ||
		p.Validators.ETag != `"pricing-1"` || !strings.Contains(string(p.Markdown), "# Pricing") {
		t.Errorf("page = %+v", p)
	}
	if want := []fulltext.Section{{Heading: "Pricing", Text: "--annual\nbilled once a year"}}; !reflect.DeepEqual(p.Sections, want) {
		t.Errorf("sections = %q, want %q", p.Sections, want)
	}
	if _, err := src.Fetch(context.Background(), testOrigin+"/pricing", p.Validators); !errors.Is(err, ErrNotModified) {
		t.Errorf("with current validators: %v, want ErrNotModified", err)
	}

	for _, tc := range []struct{ path, want string }{
		{"/html-only", "no Markdown form"},
		{"/huge", "larger than 1024 bytes"},
		{"/missing", "status 404"},
	} {
		if _, err := src.Fetch(context.Background(), testOrigin+tc.path, Validators{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.path, err, tc.want)
		}
	}
}

// convertingTransport stands for a converter serving the Markdown request
// in process: it hands the page's HTML to the request's PageText.
type convertingTransport struct {
	http.RoundTripper
	html string
}

func (c convertingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasPrefix(req.Header.Get("Accept"), "text/markdown") {
		PageTextFrom(req.Context()).Keep([]byte(c.html))
	}
	return c.RoundTripper.RoundTrip(req)
}

// TestHTTPSourceKeptText: when the converter of the Markdown hands back the
// HTML's text, Fetch asks for the page once, and the search reads that
// text (cut at MaxPageHTML); when it does not, Fetch asks for the HTML.
func TestHTTPSourceKeptText(t *testing.T) {
	ts, asked := newHTTPSite(t)
	host := strings.TrimPrefix(ts.URL, "http://")
	const page = "<title>Pricing</title><h1>Plans</h1><dl><dt>--monthly</dt><dd>billed each month</dd></dl>"
	for _, tc := range []struct {
		name    string
		client  *http.Client
		maxHTML int64
		asks    []string
		want    []fulltext.Section
	}{
		{"kept", &http.Client{Transport: convertingTransport{ts.Client().Transport, page}}, 0,
			[]string{host + "/pricing"}, []fulltext.Section{{Heading: "Plans", Text: "--monthly\nbilled each month"}}},
		{"kept, cut at MaxPageHTML", &http.Client{Transport: convertingTransport{ts.Client().Transport, page}}, int64(strings.Index(page, "<dl>")),
			[]string{host + "/pricing"}, []fulltext.Section{{Heading: "Plans"}}},
		{"not kept", ts.Client(), 0,
			[]string{host + "/pricing", host + "/pricing"}, []fulltext.Section{{Heading: "Pricing", Text: "--annual\nbilled once a year"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := &HTTPSource{Client: tc.client, Origin: ts.URL, MaxPageHTML: tc.maxHTML}
			asked.take()
			p, err := src.Fetch(context.Background(), testOrigin+"/pricing", Validators{})
			if err != nil {
				t.Fatal(err)
			}
			if got := asked.take(); !slices.Equal(got, tc.asks) {
				t.Errorf("asked for %v, want %v", got, tc.asks)
			}
			if !reflect.DeepEqual(p.Sections, tc.want) {
				t.Errorf("sections = %q, want %q", p.Sections, tc.want)
			}
		})
	}
}
