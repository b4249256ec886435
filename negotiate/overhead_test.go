package negotiate

import (
	"context"
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestPassThroughAllocations holds the fixed cost of the requests a
// browser makes to what the design allows (issue #15): a response that is
// not negotiable (a stylesheet) allocates nothing, and an HTML page whose
// head is left alone allocates the values of the headers it gains: one
// array for Vary, Link and Content-Signal, the page's Markdown address and
// its Link value.
func TestPassThroughAllocations(t *testing.T) {
	h := &Handler{Convert: fixedConvert, Options: Options{HeadLink: Bool(false), ContentSignal: "search=yes, ai-input=yes, ai-train=no"}}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	body := []byte(testPage)
	// Header values the origin's response has already (reverse_proxy
	// copies them in before it writes); shared, so the origin itself
	// allocates nothing here.
	htmlType, cssType := []string{"text/html; charset=utf-8"}, []string{"text/css"}
	for _, tc := range []struct {
		name   string
		ctype  []string
		accept string
		max    float64
	}{
		{"stylesheet", cssType, "text/css,*/*;q=0.1", 0},
		{"html, headers only", htmlType, acceptChrome, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := func(w http.ResponseWriter, r *http.Request) error {
				w.Header()["Content-Type"] = tc.ctype
				w.WriteHeader(http.StatusOK)
				_, err := w.Write(body)
				return err
			}
			r := httptest.NewRequest(http.MethodGet, "/pricing", nil)
			r.Header.Set("Accept", tc.accept)
			w := &discardWriter{h: http.Header{}}
			serve := func() {
				clear(w.h)
				if err := h.ServeHTTP(w, r, next); err != nil {
					t.Fatal(err)
				}
			}
			serve()
			if tc.ctype[0] == htmlType[0] && (w.h.Get("Vary") != "Accept" || len(w.h["Link"]) != 3 || w.h.Get("Content-Signal") == "") {
				t.Fatalf("headers %v: want Vary, three Links and Content-Signal", w.h)
			}
			if got := testing.AllocsPerRun(200, serve); got > tc.max {
				t.Errorf("%.1f allocations a request, want at most %.0f", got, tc.max)
			}
		})
	}
}

// TestCachedHitSkipsBuffering: a conversion cache hit is known from the
// headers, so the page is neither admitted (Admit, which may wait) nor
// held; its bytes are dropped and the Markdown sent once next returns. If
// next fails after the headers, nothing has been written and its error is
// returned, as for a page being buffered.
func TestCachedHitSkipsBuffering(t *testing.T) {
	admitted := 0
	h := &Handler{
		Convert: func([]byte, Page) (*Converted, error) { t.Error("converted on a cache hit"); return nil, nil },
		Cached:  func(Page) *Converted { return &Converted{Markdown: []byte("# cached\n"), Tokens: 2} },
		Admit: func(context.Context, int64) (func(), error) {
			admitted++
			return func() {}, nil
		},
	}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	errOrigin := errors.New("origin broke mid-body")
	for _, tc := range []struct {
		name    string
		fail    bool
		wantErr error
	}{
		{"hit", false, nil},
		{"hit, then next fails", true, errOrigin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := func(w http.ResponseWriter, r *http.Request) error {
				w.Header().Set("Content-Type", "text/html")
				w.Header().Set("ETag", `"v1"`)
				w.WriteHeader(http.StatusOK)
				io.WriteString(w, "<p>origin</p>")
				if tc.fail {
					return errOrigin
				}
				return nil
			}
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "http://site.test/p", nil)
			req.Header.Set("Accept", "text/markdown")
			err := h.ServeHTTP(rec, req, next)
			if err != tc.wantErr {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			want := "# cached\n"
			if tc.fail {
				want = ""
			}
			if rec.Body.String() != want || admitted != 0 {
				t.Errorf("body %q (want %q), admitted %d times (want 0)", rec.Body.String(), want, admitted)
			}
			if !tc.fail && (rec.Header().Get("Content-Length") != "9" || rec.Header().Get("Etag") != `"v1-md"`) {
				t.Errorf("headers %v: want the Markdown's length and entity tag", rec.Header())
			}
		})
	}
}

// markdownLinkValue is LinkValue with the Markdown alternate's relation
// and type, for any target.
func TestMarkdownLinkValue(t *testing.T) {
	for _, target := range []string{"/pricing/md", "/md", "/docs/md/?q=1&x=%20", "/a b>\r\n\"<x>", "/é/md", ""} {
		if got, want := markdownLinkValue(target), LinkValue(target, "alternate", "text/markdown"); got != want {
			t.Errorf("markdownLinkValue(%q) = %q, want %q", target, got, want)
		}
	}
}

// mentionsMarkdown finds "markdown" in any case and anywhere, and nothing
// else.
func TestMentionsMarkdown(t *testing.T) {
	for s, want := range map[string]bool{
		"text/markdown": true, "TEXT/MARKDOWN": true, "text/x-MarkDown;q=0.5": true,
		"markdown": true, "kkk markdown": true, "text/markdow": false, "arkdown": false,
		acceptChrome: false, "": false, "k": false, "markdownk": true, "mar kdown": false,
	} {
		if got := mentionsMarkdown(s); got != want {
			t.Errorf("mentionsMarkdown(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzMentionsMarkdown compares mentionsMarkdown with a byte-by-byte ASCII
// case fold.
func FuzzMentionsMarkdown(f *testing.F) {
	for _, s := range []string{acceptChrome, "text/MarkDown", "kk", "markdow"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lower := []byte(s)
		for i, c := range lower {
			if 'A' <= c && c <= 'Z' {
				lower[i] = c + 'a' - 'A'
			}
		}
		if got, want := mentionsMarkdown(s), strings.Contains(string(lower), "markdown"); got != want {
			t.Errorf("mentionsMarkdown(%q) = %v, want %v", s, got, want)
		}
	})
}

// caddyNext is a next handler as Caddy hands it to a middleware: an
// interface, whose method value (next.ServeHTTP) the caller passes on.
type caddyNext interface {
	ServeHTTP(w http.ResponseWriter, r *http.Request) error
}

// pageOrigin answers a page with its Content-Type, a value it shares
// between responses (reverse_proxy copies the origin's in), so that it
// allocates nothing itself.
type pageOrigin struct {
	ctype []string
	body  []byte
}

func (o pageOrigin) ServeHTTP(w http.ResponseWriter, _ *http.Request) error {
	w.Header()["Content-Type"] = o.ctype
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(o.body)
	return err
}

// TestCaddyNextAllocations: ServeHTTP keeps next no longer than its call,
// so the method value of Caddy's next handler needs no allocation, and the
// Markdown alternate's Link value is written from the address's pieces
// without the joined address: a headers-only HTML directory index with a
// query allocates the shared header array and the Link value, nothing
// else (four before: the method value and the joined address too).
func TestCaddyNextAllocations(t *testing.T) {
	h := &Handler{Convert: fixedConvert, Options: Options{HeadLink: Bool(false)}}
	if err := h.Provision(); err != nil {
		t.Fatal(err)
	}
	var next caddyNext = pageOrigin{ctype: []string{"text/html; charset=utf-8"}, body: []byte(testPage)}
	r := httptest.NewRequest(http.MethodGet, "/docs/?page=2", nil)
	r.Header.Set("Accept", acceptChrome)
	w := &discardWriter{h: http.Header{}}
	serve := func() {
		clear(w.h)
		if err := h.ServeHTTP(w, r, next.ServeHTTP); err != nil {
			t.Fatal(err)
		}
	}
	serve()
	if want := `</docs/md/?page=2>; rel="alternate"; type="text/markdown"`; !slices.Contains(w.h["Link"], want) {
		t.Fatalf("Link %q, want it to hold %q", w.h["Link"], want)
	}
	if got := testing.AllocsPerRun(200, serve); got > 2 {
		t.Errorf("%.1f allocations a request, want at most 2", got)
	}
}

// LinkWithKeyOf is LinkWithKey of the escaped join of its pieces, for
// pieces with and without characters to escape, with and without a query.
func TestLinkWithKeyOf(t *testing.T) {
	const open, key, mark = `<link href="`, "tKEY", "\x00md:"
	for _, tc := range [][4]string{
		{"/pricing", "/md", "", ""},
		{"/docs", "/md", "/", "q=1&x=%20"},
		{"/a'b&c", "/md", "", "a=<b>&c=\"d\""},
		{"/", "", "", ""},
		{"", "", "", "x"},
		{"/é", "/md", "", ""},
	} {
		path, suffix, slash, query := tc[0], tc[1], tc[2], tc[3]
		href := path + suffix + slash
		if query != "" {
			href += "?" + query
		}
		wantLink, wantKey := LinkWithKey(open, html.EscapeString(href), key, mark)
		pieces := []string{path, suffix, slash}
		if query != "" {
			pieces = append(pieces, "?", query)
		}
		link, newKey := LinkWithKeyOf(open, key, mark, pieces...)
		if link != wantLink || newKey != wantKey {
			t.Errorf("%q: got %q, %q; want %q, %q", tc, link, newKey, wantLink, wantKey)
		}
	}
}
