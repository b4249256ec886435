package selfcheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// doc is one resource of a test site. Body and Markdown may hold
// "{{origin}}", replaced by the server's origin at request time.
type doc struct {
	status   int
	ctype    string
	header   http.Header
	body     string
	markdown string // served to Accept: text/markdown when set
	handler  http.HandlerFunc
}

// testSite is a mutable map of paths to documents served by httptest.
type testSite struct {
	mu       sync.Mutex
	docs     map[string]*doc
	fallback *doc           // served for unknown paths (nil: 404)
	hits     map[string]int // "METHOD path Accept" → count
}

// fixture reads a handwritten document from testdata/site.
func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "site", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fixedNow is the clock of every test scan.
var fixedNow = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// agentReadySite is a site that follows the standard in every point the
// scanner can see (handwritten documents in testdata/site).
func agentReadySite(t testing.TB) *testSite {
	pageHeader := func(md string) http.Header {
		return http.Header{
			"Vary": {"Accept"},
			"Link": {`</llms.txt>; rel="describedby"; type="text/plain"`, `</agents.json>; rel="alternate"; type="application/json"`, `<` + md + `>; rel="alternate"; type="text/markdown"`},
		}
	}
	skill := fixture(t, "skill.md")
	sum := sha256.Sum256([]byte(skill))
	agents := fixture(t, "agents.json")
	s := &testSite{docs: map[string]*doc{
		"/":                         {ctype: "text/html; charset=utf-8", header: pageHeader("/index.md"), body: fixture(t, "index.html"), markdown: fixture(t, "index.md")},
		"/pricing":                  {ctype: "text/html; charset=utf-8", header: pageHeader("/pricing.md"), body: fixture(t, "pricing.html"), markdown: fixture(t, "pricing.md")},
		"/robots.txt":               {ctype: "text/plain; charset=utf-8", body: fixture(t, "robots.txt")},
		"/sitemap.xml":              {ctype: "application/xml", body: fixture(t, "sitemap.xml")},
		"/llms.txt":                 {ctype: "text/plain; charset=utf-8", body: fixture(t, "llms.txt")},
		"/agents.json":              {ctype: "application/json", body: agents},
		"/.well-known/agents.json":  {ctype: "application/json", body: agents},
		"/openapi.json":             {ctype: "application/json", body: fixture(t, "openapi.json")},
		"/.well-known/security.txt": {ctype: "text/plain; charset=utf-8", body: fixture(t, "security.txt")},
		"/.well-known/oauth-authorization-server": {ctype: "application/json", body: fixture(t, "oauth-authorization-server.json")},
		"/.well-known/agent-card.json":            {ctype: "application/json", body: fixture(t, "agent-card.json")},
		"/.well-known/mcp/server-card.json":       {ctype: "application/json", body: fixture(t, "server-card.json")},
		"/.well-known/api-catalog":                {ctype: "application/linkset+json", body: fixture(t, "api-catalog.json")},
		"/.well-known/ard.json":                   {ctype: "application/json", body: fixture(t, "ard.json")},
		"/skills/search.md":                       {ctype: "text/markdown", body: skill},
		"/.well-known/agent-skills/index.json": {ctype: "application/json", body: `{"$schema":"https://schemas.agentskills.io/discovery/0.2.0/schema.json","skills":[` +
			`{"name":"search-widgets","type":"skill-md","description":"Search the widget catalogue.","url":"/skills/search.md","digest":"sha256:` + hex.EncodeToString(sum[:]) + `"}]}`},
		"/api/" + missingProbe: {status: 404, ctype: "application/problem+json", body: `{"title":"Not Found","status":404}`},
		"/ask":                 {ctype: "application/json", body: `{"query":"x","results":[{"@type":"Product","name":"W-1"}]}`},
	}}
	s.docs["/"].header.Set("X-Markdown-Tokens", "25")
	mcpHandler := newMCPHandler(3, 2, false)
	s.docs["/mcp"] = &doc{handler: mcpHandler.ServeHTTP}
	return s
}

// bareSite is a plain file_server site: an index page, nothing agent-ready.
func bareSite() *testSite {
	return &testSite{docs: map[string]*doc{
		"/": {ctype: "text/html; charset=utf-8", body: `<!doctype html><html><head><title>My site</title></head><body><h1>Welcome</h1><p>Hello.</p></body></html>`},
	}}
}

// set replaces (or with nil removes) the document at path.
func (s *testSite) set(path string, d *doc) *testSite {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d == nil {
		delete(s.docs, path)
	} else {
		s.docs[path] = d
	}
	return s
}

// edit changes the document at path in place.
func (s *testSite) edit(path string, fn func(d *doc)) *testSite {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.docs[path])
	return s
}

// ServeHTTP serves the documents, negotiating Markdown on Accept.
func (s *testSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.hits == nil {
		s.hits = map[string]int{}
	}
	s.hits[r.Method+" "+r.URL.Path+" "+r.Header.Get("Accept")]++
	d := s.docs[r.URL.Path]
	if d == nil {
		d = s.fallback
	}
	s.mu.Unlock()
	if d == nil {
		http.NotFound(w, r)
		return
	}
	if d.handler != nil {
		d.handler(w, r)
		return
	}
	origin := "http://" + r.Host
	if r.TLS != nil {
		origin = "https://" + r.Host
	}
	for k, vs := range d.header {
		for _, v := range vs {
			w.Header().Add(k, strings.ReplaceAll(v, "{{origin}}", origin))
		}
	}
	body, ctype := d.body, d.ctype
	if d.markdown != "" && strings.HasPrefix(r.Header.Get("Accept"), "text/markdown") {
		body, ctype = d.markdown, "text/markdown; charset=utf-8"
	}
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	if d.status != 0 {
		w.WriteHeader(d.status)
	}
	fmt.Fprint(w, strings.ReplaceAll(body, "{{origin}}", origin))
}

// serve starts the site on 127.0.0.1.
func (s *testSite) serve(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}

// scanHandler scans a handler served on 127.0.0.1 with test defaults.
func scanHandler(t testing.TB, h http.Handler, opts Options) *Report {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return scanURL(t, srv.URL, opts)
}

// scanURL scans url with test defaults (fixed clock, short timeouts).
func scanURL(t testing.TB, url string, opts Options) *Report {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return fixedNow }
	}
	if opts.RequestTimeout == 0 {
		opts.RequestTimeout = 5 * time.Second
	}
	r, err := Scan(context.Background(), url, opts)
	if err != nil {
		t.Fatalf("Scan(%s): %v", url, err)
	}
	return r
}

// verdictCase is one row of a check's table test: a site, the check, and
// the verdict (and, for PARTIAL, the fraction) it must reach.
type verdictCase struct {
	name     string
	site     func(t testing.TB) http.Handler
	verdict  Verdict
	fraction float64 // checked for PARTIAL only
	opts     Options
}

// runVerdictCases scans each case's site and asserts the check's verdict,
// its receipt's presence and, for PARTIAL, its fraction and missing part.
func runVerdictCases(t *testing.T, id string, cases []verdictCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := scanHandler(t, tc.site(t), tc.opts)
			c := r.checkByID(id)
			if c == nil {
				t.Fatalf("check %s missing from the report", id)
			}
			if c.Verdict != tc.verdict {
				t.Fatalf("%s verdict = %s, want %s\n%s", id, c.Verdict, tc.verdict, receiptText(*c))
			}
			if c.Receipt.Expected == "" {
				t.Errorf("%s: receipt states no expectation", id)
			}
			if tc.verdict == Partial {
				if c.Fraction != tc.fraction {
					t.Errorf("%s fraction = %v, want %v\n%s", id, c.Fraction, tc.fraction, receiptText(*c))
				}
				if c.Missing == "" {
					t.Errorf("%s: PARTIAL names no missing part", id)
				}
			}
			if (tc.verdict == Fail || tc.verdict == CouldNotCheck) && c.Missing == "" {
				t.Errorf("%s: %s without a reason", id, tc.verdict)
			}
		})
	}
}

// ready returns a case site: the agent-ready site changed by edits.
func ready(edits ...func(s *testSite)) func(t testing.TB) http.Handler {
	return func(t testing.TB) http.Handler {
		s := agentReadySite(t)
		for _, e := range edits {
			e(s)
		}
		return s
	}
}

// without removes paths from the site.
func without(paths ...string) func(s *testSite) {
	return func(s *testSite) {
		for _, p := range paths {
			s.set(p, nil)
		}
	}
}

// replace serves a document at path.
func replace(path string, d *doc) func(s *testSite) {
	return func(s *testSite) { s.set(path, d) }
}

// serverError makes paths answer 500.
func serverError(paths ...string) func(s *testSite) {
	return func(s *testSite) {
		for _, p := range paths {
			s.set(p, &doc{status: 500, ctype: "text/plain", body: "boom"})
		}
	}
}

// editBody rewrites the body (and Markdown) of path with old → new.
func editBody(path, old, new string) func(s *testSite) {
	return func(s *testSite) {
		s.edit(path, func(d *doc) {
			d.body = strings.ReplaceAll(d.body, old, new)
			d.markdown = strings.ReplaceAll(d.markdown, old, new)
		})
	}
}

// bare returns the bare site as a case site.
func bare(edits ...func(s *testSite)) func(t testing.TB) http.Handler {
	return func(t testing.TB) http.Handler {
		s := bareSite()
		for _, e := range edits {
			e(s)
		}
		return s
	}
}

// newMCPHandler serves a real MCP server built with the official SDK: n
// tools, the first readOnly annotated readOnlyHint. Calling a tool fails
// the test process: the scanner must never do it.
func newMCPHandler(n, readOnly int, jsonResponse bool) http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "acme-widgets", Version: "1.0.0"}, nil)
	for i := range n {
		tool := &mcp.Tool{Name: fmt.Sprintf("tool_%d", i), Description: "a widget tool", InputSchema: map[string]any{"type": "object"}}
		if i < readOnly {
			tool.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
		}
		srv.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			panic("the scanner must never call a tool")
		})
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
}
