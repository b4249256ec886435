package negotiate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// conformanceCase is one named HTTP edge case, run through a real origin,
// the handler and a real client (in the manner of Caddy's
// encode_conformance_test.go).
type conformanceCase struct {
	name   string
	cfg    stackConfig
	method string // GET when empty
	path   string // /pricing when empty
	req    http.Header
	check  func(t *testing.T, s *stack, res *result)
}

const (
	agentAccept   = "text/markdown, text/html;q=0.9"
	browserAccept = acceptChrome
)

var conformanceCases = []conformanceCase{
	// The Markdown form.
	{
		name: "markdown for an agent",
		cfg: stackConfig{origin: htmlOrigin(testPage, "Etag", `"v1"`, "Last-Modified", "Sun, 15 Sep 2026 10:00:00 GMT",
			"Accept-Ranges", "bytes", "Cache-Control", "max-age=60", "Vary", "Accept-Encoding")},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 200)
			res.wantHeader(t, "Content-Type", "text/markdown; charset=utf-8")
			res.wantHeader(t, "Content-Length", fmt.Sprint(len(testMarkdown)))
			res.wantHeader(t, "Etag", `"v1-md"`)
			res.wantHeader(t, "Last-Modified", "Sun, 15 Sep 2026 10:00:00 GMT")
			res.wantHeader(t, "Accept-Ranges", "")
			res.wantHeader(t, "Cache-Control", "max-age=60")
			res.wantHeader(t, "Vary", "Accept-Encoding, Accept")
			res.wantHeader(t, "X-Markdown-Tokens", "7")
			res.wantLinks(t, discoveryLinks...)
			res.wantBody(t, testMarkdown)
			calls := wantConverted(t, s, 1)
			if len(calls) == 1 && (calls[0].html != testPage || !strings.HasSuffix(calls[0].url, "/pricing") || !strings.HasPrefix(calls[0].url, "http://127.0.0.1")) {
				t.Errorf("converter got %q for %q", calls[0].html, calls[0].url)
			}
			wantEvents(t, s, fmt.Sprintf("converted:%d:%d:7", len(testPage), len(testMarkdown)), "served:markdown")
		},
	},
	{
		name: "markdown suffix serves the page's markdown",
		cfg:  stackConfig{origin: htmlOrigin(testPage)},
		path: "/pricing/md?plan=pro",
		req:  hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			r := s.lastOriginRequest()
			if r.URL.Path != "/pricing" || r.URL.RawQuery != "plan=pro" || !PrefersMarkdown(r.Header.Get("Accept")) {
				t.Errorf("origin saw %s with Accept %q", r.URL, r.Header.Get("Accept"))
			}
			res.wantStatus(t, 200)
			res.wantHeader(t, "Content-Type", "text/markdown; charset=utf-8")
			res.wantBody(t, testMarkdown)
			res.wantLinks(t, discoveryLinks[0], discoveryLinks[1], `</pricing/md?plan=pro>; rel="alternate"; type="text/markdown"`)
			if calls := wantConverted(t, s, 1); len(calls) == 1 && !strings.HasSuffix(calls[0].url, "/pricing?plan=pro") {
				t.Errorf("canonical URL = %q, want the page URL", calls[0].url)
			}
		},
	},
	{
		name: "markdown suffix at the root",
		cfg:  stackConfig{origin: htmlOrigin(testPage)},
		path: "/md",
		check: func(t *testing.T, s *stack, res *result) {
			if r := s.lastOriginRequest(); r.URL.Path != "/" {
				t.Errorf("origin saw %q, want /", r.URL.Path)
			}
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "markdown suffix keeps the escaping of the page path",
		cfg:  stackConfig{origin: htmlOrigin(testPage)},
		path: "//a%2Fb%20c/md",
		check: func(t *testing.T, s *stack, res *result) {
			if r := s.lastOriginRequest(); r.URL.EscapedPath() != "//a%2Fb%20c" {
				t.Errorf("origin saw %q", r.URL.EscapedPath())
			}
			res.wantLinks(t, discoveryLinks[0], discoveryLinks[1], `<//a%2Fb%20c/md>; rel="alternate"; type="text/markdown"`)
			if calls := wantConverted(t, s, 1); len(calls) == 1 && !strings.HasSuffix(calls[0].url, "//a%2Fb%20c") {
				t.Errorf("page URL = %q", calls[0].url)
			}
		},
	},
	{
		name: "markdown suffix disabled passes the path on",
		cfg:  stackConfig{opts: Options{MarkdownSuffix: "-"}, origin: htmlOrigin(testPage)},
		path: "/pricing/md",
		req:  hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			if r := s.lastOriginRequest(); r.URL.Path != "/pricing/md" {
				t.Errorf("origin saw %q", r.URL.Path)
			}
			res.wantHeader(t, "Content-Type", "text/html; charset=utf-8")
			res.wantLinks(t, discoveryLinks[0], discoveryLinks[1], `</pricing/md>; rel="alternate"; type="text/markdown"`)
			wantConverted(t, s, 0)
		},
	},
	{
		name: "charset converted before conversion",
		cfg:  stackConfig{origin: typedOrigin("text/html; charset=iso-8859-1", "<p>caf\xe9</p>")},
		req:  hdr("Accept", "text/markdown"),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 200)
			if calls := wantConverted(t, s, 1); len(calls) == 1 && calls[0].html != "<p>café</p>" {
				t.Errorf("converter got %q", calls[0].html)
			}
		},
	},
	{
		name: "content type sniffed when the origin sets none",
		cfg: stackConfig{next: func(w http.ResponseWriter, r *http.Request) error {
			_, err := io.WriteString(w, testPage)
			return err
		}},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Content-Type", "text/markdown; charset=utf-8")
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "range and if-range are not applied to markdown",
		cfg:  stackConfig{origin: servedContent(`"v1"`, time.Time{})},
		req:  hdr("Accept", agentAccept, "Range", "bytes=0-9", "If-Range", `"v1"`),
		check: func(t *testing.T, s *stack, res *result) {
			if r := s.lastOriginRequest(); r.Header.Get("Range") != "" || r.Header.Get("If-Range") != "" {
				t.Errorf("origin saw Range %q If-Range %q", r.Header.Get("Range"), r.Header.Get("If-Range"))
			}
			res.wantStatus(t, 200)
			res.wantHeader(t, "Content-Range", "")
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "markdown etag answered 304 by a conditional origin",
		cfg:  stackConfig{origin: servedContent(`"v1"`, time.Time{})},
		req:  hdr("Accept", agentAccept, "If-None-Match", `"v1-md"`),
		check: func(t *testing.T, s *stack, res *result) {
			if r := s.lastOriginRequest(); r.Header.Get("If-None-Match") != `"v1"` {
				t.Errorf("origin saw If-None-Match %q, want %q", r.Header.Get("If-None-Match"), `"v1"`)
			}
			res.wantStatus(t, 304)
			res.wantHeader(t, "Etag", `"v1-md"`)
			res.wantVary(t, true)
			res.wantBody(t, "")
			wantConverted(t, s, 0)
		},
	},
	{
		name: "markdown etag answered 304 for an origin without conditionals",
		cfg:  stackConfig{origin: htmlOrigin(testPage, "Etag", `W/"v1"`, "Cache-Control", "max-age=5")},
		req:  hdr("Accept", agentAccept, "If-None-Match", `"v0-md", W/"v1-md"`),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 304)
			res.wantHeader(t, "Etag", `W/"v1-md"`)
			res.wantHeader(t, "Cache-Control", "max-age=5")
			res.wantHeader(t, "Content-Type", "")
			res.wantVary(t, true)
			res.wantBody(t, "")
			wantConverted(t, s, 0)
			wantEvents(t, s, "served:markdown")
		},
	},
	{
		name: "html etag never validates markdown",
		cfg:  stackConfig{origin: servedContent(`"v1"`, time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC))},
		req:  hdr("Accept", agentAccept, "If-None-Match", `"v1"`, "If-Modified-Since", "Tue, 01 Dec 2026 00:00:00 GMT"),
		check: func(t *testing.T, s *stack, res *result) {
			if r := s.lastOriginRequest(); r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
				t.Errorf("origin saw If-None-Match %q If-Modified-Since %q", r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since"))
			}
			res.wantStatus(t, 200)
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "markdown etag never validates html",
		cfg:  stackConfig{origin: servedContent(`"v1"`, time.Time{})},
		req:  hdr("Accept", browserAccept, "If-None-Match", `"v1-md", "v0"`),
		check: func(t *testing.T, s *stack, res *result) {
			if r := s.lastOriginRequest(); r.Header.Get("If-None-Match") != `"v0"` {
				t.Errorf("origin saw If-None-Match %q, want %q", r.Header.Get("If-None-Match"), `"v0"`)
			}
			res.wantStatus(t, 200)
			res.wantHeader(t, "Etag", `W/"v1"`) // weakened: the head link was injected
			res.wantHeader(t, "Content-Type", "text/html")
		},
	},
	{
		name: "html 304 carries vary",
		cfg:  stackConfig{origin: servedContent(`"v1"`, time.Time{})},
		req:  hdr("Accept", browserAccept, "If-None-Match", `"v1"`),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 304)
			res.wantHeader(t, "Etag", `"v1"`)
			res.wantVary(t, true)
			wantEvents(t, s, "served:passthrough")
		},
	},
	{
		name: "set-cookie makes markdown private",
		cfg:  stackConfig{origin: htmlOrigin(testPage, "Set-Cookie", "session=1", "Cache-Control", "public, max-age=60")},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Cache-Control", "max-age=60, private")
			res.wantHeader(t, "Set-Cookie", "session=1")
		},
	},
	{
		name: "configured public cache-control never widens a page that sets a cookie",
		cfg:  stackConfig{opts: Options{CacheControl: "public, max-age=300"}, origin: htmlOrigin(testPage, "Set-Cookie", "session=1")},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Cache-Control", "max-age=300, private")
			res.wantHeader(t, "Set-Cookie", "session=1")
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "configured public cache-control keeps an origin's private, no-store",
		cfg:  stackConfig{opts: Options{CacheControl: "public, max-age=300"}, origin: htmlOrigin(testPage, "Cache-Control", "private, no-store")},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Cache-Control", "private, no-store")
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "configured public cache-control is private for a request with credentials",
		cfg:  stackConfig{opts: Options{CacheControl: "public, max-age=300"}, origin: htmlOrigin(testPage)},
		req:  hdr("Accept", agentAccept, "Authorization", "Bearer x"),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Cache-Control", "max-age=300, private")
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "content-signal, tokens off, links removed",
		cfg: stackConfig{opts: Options{ContentSignal: "search=yes, ai-train=no", TokensHeader: Bool(false),
			LinkLLMS: "-", LinkAgents: "/.well-known/agents.json", LinkMarkdown: Bool(false)}, origin: htmlOrigin(testPage)},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Content-Signal", "search=yes, ai-train=no")
			res.wantHeader(t, "X-Markdown-Tokens", "")
			res.wantLinks(t, `</.well-known/agents.json>; rel="alternate"; type="application/json"`)
		},
	},
	{
		name: "content-signal on the html form",
		cfg:  stackConfig{opts: Options{ContentSignal: "ai-input=yes"}, origin: htmlOrigin(testPage)},
		req:  hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Content-Signal", "ai-input=yes")
		},
	},
	{
		// RFC 9110 §9.3.2: the header fields GET would get, the Markdown's
		// length and token count included, so the page is asked for with
		// GET and converted; no body.
		name:   "head for markdown: the headers of get, length included",
		cfg:    stackConfig{origin: htmlOrigin(testPage, "Etag", `"v1"`)},
		method: http.MethodHead,
		req:    hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			if r := s.lastOriginRequest(); r.Method != http.MethodGet {
				t.Errorf("origin saw %s", r.Method)
			}
			res.wantStatus(t, 200)
			res.wantHeader(t, "Content-Type", "text/markdown; charset=utf-8")
			res.wantHeader(t, "Etag", `"v1-md"`)
			res.wantHeader(t, "Content-Length", fmt.Sprint(len(testMarkdown)))
			res.wantHeader(t, "X-Markdown-Tokens", "7")
			res.wantBody(t, "")
			res.wantVary(t, true)
			res.wantLinks(t, discoveryLinks...)
			wantConverted(t, s, 1)
		},
	},
	{
		name:   "head for markdown of an image: its headers, no body",
		cfg:    stackConfig{origin: typedOrigin("image/png", "\x89PNG fake image bytes")},
		method: http.MethodHead,
		req:    hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 200)
			res.wantHeader(t, "Content-Type", "image/png")
			res.wantHeader(t, "Content-Length", fmt.Sprint(len("\x89PNG fake image bytes")))
			res.wantBody(t, "")
			wantConverted(t, s, 0)
		},
	},
	{
		name:   "head for markdown over the size cap is the html",
		cfg:    stackConfig{opts: Options{MaxSize: 10}, origin: htmlOrigin(testPage)},
		method: http.MethodHead,
		req:    hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Content-Type", "text/html; charset=utf-8")
			res.wantHeader(t, "Content-Length", fmt.Sprint(len(testPage)))
			res.wantVary(t, true)
		},
	},

	// The HTML form.
	{
		name: "html streams untouched with discovery headers",
		cfg:  stackConfig{opts: Options{HeadLink: Bool(false)}, origin: htmlOrigin(testPage, "Vary", "Accept-Encoding", "Etag", `"v1"`)},
		req:  hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 200)
			res.wantBody(t, testPage)
			res.wantHeader(t, "Content-Length", fmt.Sprint(len(testPage)))
			res.wantHeader(t, "Vary", "Accept-Encoding, Accept")
			res.wantHeader(t, "Etag", `"v1"`)
			res.wantLinks(t, discoveryLinks...)
			wantConverted(t, s, 0)
			wantEvents(t, s, "served:html")
		},
	},
	{
		name: "html gains the head link and loses its stale length, ranges and strong etag",
		cfg: stackConfig{origin: htmlOrigin(testPage, "Etag", `"v1"`, "Accept-Ranges", "bytes"), inject: func(r *http.Request) *Injection {
			return &Injection{Lang: "en"}
		}},
		req: hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			want := strings.Replace(testPage, "</head>", `<link rel="alternate" type="text/markdown" href="/pricing/md"></head>`, 1)
			want = strings.Replace(want, "<html>", `<html lang="en">`, 1)
			res.wantBody(t, want)
			res.wantHeader(t, "Content-Length", strconv.Itoa(len(want))) // rewritten whole: its exact length
			res.wantHeader(t, "Accept-Ranges", "")
			res.wantHeader(t, "Etag", `W/"v1"`)
			res.wantLinks(t, discoveryLinks...)
		},
	},
	{
		name: "html of unknown length streams through the rewriter, without a length",
		cfg: stackConfig{next: func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Etag", `"v1"`)
			w.WriteHeader(200)
			half := len(testPage) / 2
			io.WriteString(w, testPage[:half])
			w.(http.Flusher).Flush() // a streamed page: no length, even for net/http
			_, err := io.WriteString(w, testPage[half:])
			return err
		}},
		req: hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, strings.Replace(testPage, "</head>", `<link rel="alternate" type="text/markdown" href="/pricing/md"></head>`, 1))
			res.wantHeader(t, "Content-Length", "")
			res.wantHeader(t, "Etag", `W/"v1"`)
		},
	},
	{
		name:   "head for html has the headers of get",
		cfg:    stackConfig{origin: htmlOrigin(testPage, "Etag", `"v1"`)},
		method: http.MethodHead,
		req:    hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 200)
			res.wantHeader(t, "Content-Type", "text/html; charset=utf-8")
			res.wantHeader(t, "Content-Length", "") // known only once GET's body is rewritten
			res.wantVary(t, true)
			res.wantLinks(t, discoveryLinks...)
		},
	},
	{
		name: "utf-16 html is not rewritten",
		cfg:  stackConfig{origin: typedOrigin("text/html; charset=utf-16", "<\x00p\x00>\x00")},
		req:  hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, "<\x00p\x00>\x00")
			res.wantLinks(t, discoveryLinks...)
		},
	},
	{
		name: "request no-transform: html untouched, no conversion",
		cfg:  stackConfig{origin: htmlOrigin(testPage)},
		req:  hdr("Accept", agentAccept, "Cache-Control", "no-cache, no-transform"),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, testPage)
			res.wantHeader(t, "Content-Type", "text/html; charset=utf-8")
			wantConverted(t, s, 0)
		},
	},
	{
		name: "response no-transform: untouched",
		cfg:  stackConfig{origin: htmlOrigin(testPage, "Cache-Control", "max-age=60", "Cache-Control", "no-transform")},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, testPage)
			res.wantVary(t, false)
			res.wantLinks(t)
			wantConverted(t, s, 0)
			wantEvents(t, s, "served:passthrough")
		},
	},

	// Responses that are not negotiated.
	{
		name: "partial content untouched",
		cfg:  stackConfig{origin: servedContent("", time.Time{})},
		req:  hdr("Accept", browserAccept, "Range", "bytes=0-9"),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 206)
			res.wantHeader(t, "Content-Range", fmt.Sprintf("bytes 0-9/%d", len(testPage)))
			res.wantBody(t, testPage[:10])
			res.wantLinks(t)
		},
	},
	{
		name: "early hints pass through",
		cfg: stackConfig{origin: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Link", "</style.css>; rel=preload; as=style")
			w.WriteHeader(http.StatusEarlyHints)
			htmlOrigin(testPage)(w, r)
		}},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			if len(res.info) != 1 || res.info[0] != 103 {
				t.Errorf("1xx responses = %v, want [103]", res.info)
			}
			res.wantStatus(t, 200)
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "error status passes with vary",
		cfg: stackConfig{origin: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(404)
			io.WriteString(w, "<h1>Not found</h1>")
		}},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 404)
			res.wantBody(t, "<h1>Not found</h1>")
			res.wantVary(t, true)
			res.wantLinks(t)
			wantConverted(t, s, 0)
			wantEvents(t, s, "served:passthrough")
		},
	},
	{
		name: "non-html passes without vary",
		cfg:  stackConfig{origin: typedOrigin("image/png", "\x89PNG")},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, "\x89PNG")
			res.wantVary(t, false)
			res.wantLinks(t)
		},
	},
	{
		name: "the origin's own markdown passes with vary",
		cfg:  stackConfig{origin: typedOrigin("text/markdown", "# Origin's own")},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, "# Origin's own")
			res.wantVary(t, true)
			wantConverted(t, s, 0)
		},
	},
	{
		name:   "post untouched",
		cfg:    stackConfig{origin: htmlOrigin(testPage)},
		method: http.MethodPost,
		req:    hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, testPage)
			res.wantVary(t, false)
			res.wantLinks(t)
		},
	},
	{
		name: "vary star respected",
		cfg:  stackConfig{origin: htmlOrigin(testPage, "Vary", "*")},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Vary", "*")
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "accept split over two lines",
		cfg:  stackConfig{origin: htmlOrigin(testPage)},
		req:  http.Header{"Accept": {"text/html;q=0.5", "text/markdown"}},
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "the origin's own discovery link is not repeated",
		cfg:  stackConfig{origin: htmlOrigin(testPage, "Link", discoveryLinks[0]+`, </style.css>; rel="preload"`)},
		req:  hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantLinks(t, discoveryLinks[0]+`, </style.css>; rel="preload"`, discoveryLinks[1], discoveryLinks[2])
		},
	},
	{
		name: "malformed accept gets html",
		cfg:  stackConfig{origin: htmlOrigin(testPage)},
		req:  hdr("Accept", `text/markdown;q=x;;"", text/markdown;q=1.5, */*`),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Content-Type", "text/html; charset=utf-8")
			wantConverted(t, s, 0)
		},
	},

	// Size caps.
	{
		name: "body over the cap streams as html",
		cfg: stackConfig{opts: Options{MaxSize: 1000}, origin: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			for range 10 {
				io.WriteString(w, strings.Repeat("<p>x</p>", 50))
				w.(http.Flusher).Flush()
			}
		}},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, strings.Repeat("<p>x</p>", 500))
			res.wantVary(t, true)
			res.wantLinks(t, discoveryLinks...)
			wantConverted(t, s, 0)
			wantEvents(t, s, "failopen:too_large", "served:html")
		},
	},
	{
		name: "decoded body over the cap fails open",
		cfg:  stackConfig{opts: Options{MaxSize: 64 << 10}, origin: htmlOrigin(gzipString(strings.Repeat(" ", 1<<20)), "Content-Encoding", "gzip")},
		req:  hdr("Accept", agentAccept, "Accept-Encoding", "gzip"),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Content-Encoding", "gzip")
			res.wantBody(t, gzipString(strings.Repeat(" ", 1<<20)))
			wantEvents(t, s, "failopen:too_large", "served:html")
		},
	},
	{
		name: "50 MB page streams through",
		cfg: stackConfig{origin: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			chunk := []byte(strings.Repeat("<p>hello agents</p>\n", 1<<12))
			for sent := 0; sent < 50<<20; sent += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			if res.bodyErr != nil || len(res.body) < 50<<20 || !strings.HasPrefix(string(res.body), "<p>hello agents</p>") {
				t.Errorf("got %d bytes (%v)", len(res.body), res.bodyErr)
			}
			wantEvents(t, s, "failopen:too_large", "served:html")
		},
	},

	// Failing open.
	{
		name: "corrupt encoding fails open to the original bytes",
		cfg:  stackConfig{origin: htmlOrigin("not gzip at all", "Content-Encoding", "gzip")},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 200)
			res.wantHeader(t, "Content-Encoding", "gzip")
			res.wantHeader(t, "Content-Type", "text/html; charset=utf-8")
			res.wantHeader(t, "Content-Length", "15")
			res.wantBody(t, "not gzip at all")
			res.wantVary(t, true)
			wantEvents(t, s, "failopen:decode", "served:html")
		},
	},
	{
		name: "truncated brotli fails open to the original bytes",
		cfg:  stackConfig{origin: htmlOrigin(truncatedBrotli, "Content-Encoding", "br")},
		req:  hdr("Accept", agentAccept, "Accept-Encoding", "br"),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Content-Encoding", "br")
			res.wantBody(t, truncatedBrotli)
			wantEvents(t, s, "failopen:decode", "served:html")
		},
	},
	{
		name: "unknown charset fails open",
		cfg:  stackConfig{origin: typedOrigin("text/html; charset=klingon", testPage)},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, testPage)
			wantEvents(t, s, "failopen:charset", "served:html")
		},
	},
	{
		name: "conversion error fails open",
		cfg: stackConfig{origin: htmlOrigin(testPage, "Etag", `"v1"`), conv: func([]byte, Page) (*Converted, error) {
			return nil, errors.New("no main content")
		}},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 200)
			res.wantBody(t, testPage)
			res.wantHeader(t, "Etag", `"v1"`)
			res.wantHeader(t, "Content-Type", "text/html; charset=utf-8")
			wantEvents(t, s, "failopen:convert", "served:html")
		},
	},
	{
		name: "conversion returning nothing fails open",
		cfg:  stackConfig{origin: htmlOrigin(testPage), conv: func([]byte, Page) (*Converted, error) { return nil, nil }},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantBody(t, testPage)
			wantEvents(t, s, "failopen:convert", "served:html")
		},
	},
	{
		name: "conversion panic is recovered and fails open",
		cfg:  stackConfig{origin: htmlOrigin(testPage), conv: func([]byte, Page) (*Converted, error) { panic("converter bug") }},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 200)
			res.wantBody(t, testPage)
			wantEvents(t, s, "failopen:panic", "served:html")
		},
	},
	{
		name: "error from next before writing is returned untouched",
		cfg: stackConfig{next: func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(200)
			io.WriteString(w, "<p>half a page")
			return errBackend
		}},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			if err := <-s.nextErr; err != errBackend {
				t.Errorf("ServeHTTP returned %v, want the error of next itself", err)
			}
			res.wantStatus(t, 502)
			res.wantBody(t, "error handler: backend down\n")
		},
	},
	{
		name: "error from next after streaming is still returned",
		cfg: stackConfig{next: func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<p>half a page")
			return errBackend
		}},
		req: hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			if err := <-s.nextErr; err != errBackend {
				t.Errorf("ServeHTTP returned %v, want the error of next itself", err)
			}
			res.wantStatus(t, 200)
			if !strings.Contains(string(res.body), "<p>half a page") {
				t.Errorf("body = %q", res.body)
			}
		},
	},
	{
		name: "origin reset mid-body while buffering",
		cfg:  stackConfig{origin: resettingOrigin(100000)},
		req:  hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			if err := <-s.nextErr; err == nil {
				t.Error("ServeHTTP returned nil for a truncated origin body")
			}
			res.wantStatus(t, 502)
			wantConverted(t, s, 0)
		},
	},
	{
		name: "origin reset mid-body while streaming html",
		cfg:  stackConfig{origin: resettingOrigin(maxPlannedPage + 1)},
		req:  hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			if err := <-s.nextErr; err == nil {
				t.Error("ServeHTTP returned nil for a truncated origin body")
			}
			if !strings.HasPrefix(string(res.body), "<html><head>") {
				t.Errorf("body = %q", res.body)
			}
		},
	},
	{
		name: "origin reset mid-body of a page rewritten whole: the error handler answers",
		cfg:  stackConfig{origin: resettingOrigin(100000)},
		req:  hdr("Accept", browserAccept),
		check: func(t *testing.T, s *stack, res *result) {
			if err := <-s.nextErr; err == nil {
				t.Error("ServeHTTP returned nil for a truncated origin body")
			}
			if !strings.HasPrefix(string(res.body), "error handler:") {
				t.Errorf("body = %q", res.body)
			}
		},
	},

	// Flushing and the writer interfaces.
	{
		name: "flush before the decision does not commit the html headers",
		cfg: stackConfig{next: func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Content-Type", "text/html")
			w.(http.Flusher).Flush()
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			_, err := io.WriteString(w, testPage)
			w.(http.Flusher).Flush()
			return err
		}},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantHeader(t, "Content-Type", "text/markdown; charset=utf-8")
			res.wantBody(t, testMarkdown)
		},
	},
	{
		name: "response controller reaches the connection",
		cfg: stackConfig{next: func(w http.ResponseWriter, r *http.Request) error {
			if err := http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
				return err
			}
			w.Header().Set("Content-Type", "text/html")
			_, err := io.WriteString(w, testPage)
			return err
		}},
		req: hdr("Accept", agentAccept),
		check: func(t *testing.T, s *stack, res *result) {
			res.wantStatus(t, 200)
			res.wantBody(t, testMarkdown)
		},
	},
}

var errBackend = errors.New("backend down")

// servedContent is an origin that answers conditional and range requests for
// the test page, as http.ServeContent does.
func servedContent(etag string, modtime time.Time) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if etag != "" {
			w.Header().Set("Etag", etag)
		}
		http.ServeContent(w, r, "", modtime, strings.NewReader(testPage))
	}
}

// typedOrigin answers body with the given Content-Type.
func typedOrigin(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		io.WriteString(w, body)
	}
}

// truncatedBrotli is the first half of the brotli-compressed test page.
var truncatedBrotli = func() string {
	var buf bytes.Buffer
	bw := brotli.NewWriter(&buf)
	io.WriteString(bw, strings.Repeat(testPage, 20))
	bw.Close()
	return buf.String()[:buf.Len()/2]
}()

// resettingOrigin promises a long HTML page, sends part of it and drops the
// connection.
// resettingOrigin announces a page of length bytes and hangs up after its
// first few.
func resettingOrigin(length int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", strconv.Itoa(length))
		w.WriteHeader(200)
		io.WriteString(w, "<html><head><title>cut</title></head><body>")
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}
}

func TestHandlerConformance(t *testing.T) {
	for _, tc := range conformanceCases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStack(t, tc.cfg)
			method, path := tc.method, tc.path
			if method == "" {
				method = http.MethodGet
			}
			if path == "" {
				path = "/pricing"
			}
			res := s.do(method, path, tc.req)
			tc.check(t, s, res)
		})
	}
}
