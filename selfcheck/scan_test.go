package selfcheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

func TestAgentReadySiteScoresFull(t *testing.T) {
	r := scanHandler(t, agentReadySite(t), Options{})
	if r.Score != 100 {
		for _, c := range r.Checks {
			t.Logf("%-30s %-15s %s", c.ID, c.Verdict, c.Missing)
		}
		t.Fatalf("agent-ready site scored %v, want 100", r.Score)
	}
	if len(r.Routes) != 2 || !strings.HasSuffix(r.Routes[1], "/pricing") {
		t.Errorf("routes = %v, want the home page and /pricing from the sitemap", r.Routes)
	}
	for _, c := range r.sectionChecks(SectionOptional) {
		if c.Verdict != Optional || c.Found == nil || !*c.Found {
			t.Errorf("optional %s: verdict %s found %v, want OPTIONAL found (%s)", c.ID, c.Verdict, c.Found, c.Receipt.Note)
		}
	}
	if len(r.Unverified) != 1 || r.Unverified[0].ID != "execution_tested" || r.Unverified[0].Verdict != Unverified {
		t.Errorf("unverified = %+v, want execution_tested UNVERIFIED", r.Unverified)
	}
}

// TestBareSiteScoresLowHonestly: a bare file_server site earns honest FAILs
// (404 is FAIL, never COULD_NOT_CHECK).
func TestBareSiteScoresLowHonestly(t *testing.T) {
	r := scanHandler(t, bareSite(), Options{})
	if r.Score > 15 {
		t.Errorf("bare site scored %v, want a low score", r.Score)
	}
	if len(r.CouldNotCheck) != 0 {
		t.Errorf("bare site: could_not_check = %v, want none (404 is an honest FAIL)", r.CouldNotCheck)
	}
	for _, id := range []string{"sitemap", "llms_txt", "capability_manifest", "markdown_representation", "security_contact", "human_handoff"} {
		if c := r.checkByID(id); c.Verdict != Fail {
			t.Errorf("bare site %s = %s, want FAIL", id, c.Verdict)
		}
	}
}

func TestScanPagesOption(t *testing.T) {
	s := agentReadySite(t)
	for _, tc := range []struct {
		pages int
		want  int
	}{{0, 2}, {-1, 1}, {1, 2}} {
		r := scanHandler(t, s, Options{Pages: tc.pages})
		if len(r.Routes) != tc.want {
			t.Errorf("Pages %d: %d routes %v, want %d", tc.pages, len(r.Routes), r.Routes, tc.want)
		}
	}
}

func TestScanBadTarget(t *testing.T) {
	for _, target := range []string{"", "ftp://x.test/", "/relative", "http://", "::bad"} {
		if r, err := Scan(context.Background(), target, Options{}); err == nil || r != nil {
			t.Errorf("Scan(%q) = %v, %v; want nil report and an error", target, r, err)
		}
	}
}

// TestScanProgress: Progress sees every check once, ending at the total.
func TestScanProgress(t *testing.T) {
	var mu sync.Mutex
	var calls, last int
	r := scanHandler(t, bareSite(), Options{Progress: func(d, total int) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if d > last {
			last = d
		}
		if total != 35 {
			t.Errorf("progress total %d, want 35", total)
		}
	}})
	if calls != len(r.Checks) || last != 35 {
		t.Errorf("progress called %d times up to %d, want 35", calls, last)
	}
}

// TestEveryResponseFetchedOnce: the fetch cache shares each answer (the
// MCP probe's POSTs are distinct JSON-RPC messages, not fetches).
func TestEveryResponseFetchedOnce(t *testing.T) {
	s := agentReadySite(t)
	scanHandler(t, s, Options{})
	if len(s.hits) < 20 {
		t.Fatalf("only %d distinct requests seen", len(s.hits))
	}
	for k, n := range s.hits {
		if n != 1 && !strings.HasPrefix(k, "POST ") {
			t.Errorf("%s fetched %d times, want once", k, n)
		}
	}
}

// TestUserAgentAndHeader: every request names the scanner and carries
// Options.Header; the header never reaches a receipt.
func TestUserAgentAndHeader(t *testing.T) {
	s := agentReadySite(t)
	var mu sync.Mutex
	var bad []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.UserAgent() != UserAgent || r.Header.Get("X-Self-Scan") != "secret-marker" {
			bad = append(bad, r.URL.Path)
		}
		s.ServeHTTP(w, r)
	})
	r := scanHandler(t, h, Options{Header: http.Header{"X-Self-Scan": {"secret-marker"}}, Redact: []string{"X-Self-Scan"}, Concurrency: 1})
	if len(bad) > 0 {
		t.Errorf("requests without the scanner's User-Agent or header: %v", bad)
	}
	j, _ := r.JSON()
	if strings.Contains(string(j), "secret-marker") {
		t.Error("Options.Header value leaked into the report")
	}
}

// TestScanLeavesNoGoroutines: a finished scan closes what it opened.
func TestScanLeavesNoGoroutines(t *testing.T) {
	srv := httptest.NewServer(bareSite())
	defer srv.Close()
	before := goleak.IgnoreCurrent()
	scanURL(t, srv.URL, Options{})
	// The server stays up: only the scan's own idle connections may go.
	goleak.VerifyNone(t, before)
}

// TestHomeRedirectRebasesTheOrigin: an http→https hop on the home page
// makes the https origin the site's (documents are asked there).
func TestHomeRedirectRebasesTheOrigin(t *testing.T) {
	tlsSrv := httptest.NewTLSServer(agentReadySite(t))
	defer tlsSrv.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, tlsSrv.URL+r.URL.Path, http.StatusMovedPermanently)
	}))
	defer plain.Close()
	r := scanURL(t, plain.URL, Options{Transport: tlsSrv.Client().Transport})
	if c := r.checkByID("llms_txt"); c.Verdict != Pass || !strings.HasPrefix(c.Receipt.Request.URL, tlsSrv.URL) {
		t.Errorf("llms_txt %s asked at %s, want PASS at %s", c.Verdict, c.Receipt.Request.URL, tlsSrv.URL)
	}
	if len(r.Routes) != 2 || !strings.HasPrefix(r.Routes[1], tlsSrv.URL) {
		t.Errorf("routes %v, want the sitemap page on the https origin", r.Routes)
	}
	// With SameOriginOnly the hop is refused: nothing can be scanned.
	if _, err := Scan(context.Background(), plain.URL, Options{Transport: tlsSrv.Client().Transport, SameOriginOnly: true}); err == nil || !strings.Contains(err.Error(), "origin") {
		t.Errorf("same-origin scan across a redirect: err = %v", err)
	}
}

// TestHostileSites: garbage, huge bodies, bombs, loops, slow bodies,
// refused connections and TLS errors each end in a verdict with a receipt,
// in bounded time, never a crash.
func TestHostileSites(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(s *testSite)
		id    string
		want  Verdict
		opts  Options
		error string // in the check's missing line
	}{
		{name: "10 MB llms.txt", edit: replace("/llms.txt", &doc{ctype: "text/plain", body: "# Big\n" + strings.Repeat("x", 10<<20)}), id: "llms_txt", want: CouldNotCheck, error: "size cap"},
		{name: "XML bomb in the sitemap", edit: replace("/sitemap.xml", &doc{ctype: "application/xml", body: xmlBomb}), id: "sitemap", want: Fail, error: "entity"},
		{name: "sitemap with a million URLs", edit: replace("/sitemap.xml", &doc{handler: millionURLs}), id: "sitemap", want: CouldNotCheck, error: "size cap"},
		{name: "sitemap with a million URLs under a larger cap", edit: replace("/sitemap.xml", &doc{handler: millionURLs}), id: "sitemap", want: Pass, opts: Options{MaxBodyBytes: 64 << 20, RequestTimeout: time.Minute, Timeout: 2 * time.Minute}},
		{name: "JSON nested 100000 deep", edit: replace("/.well-known/agents.json", &doc{ctype: "application/json", body: strings.Repeat("[", 100000) + strings.Repeat("]", 100000)}), id: "capability_manifest", want: Pass},
		{name: "JSON-LD nested 100000 deep", edit: editBody("/pricing", "</head>", `<script type="application/ld+json">`+strings.Repeat(`{"a":`, 100000)+"1"+strings.Repeat("}", 100000)+`</script></head>`), id: "structured_identity", want: Partial},
		{name: "infinite redirect", edit: replace("/llms.txt", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/llms.txt", http.StatusFound)
		}}), id: "llms_txt", want: CouldNotCheck, error: "redirect loop"},
		{name: "redirect chain that never lands", edit: replace("/llms.txt", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			http.Redirect(w, r, fmt.Sprintf("/llms.txt?n=%d", n+1), http.StatusFound)
		}}), id: "llms_txt", want: CouldNotCheck, error: "too many redirects"},
		{name: "slow-loris body", edit: replace("/llms.txt", &doc{handler: slowLoris}), id: "llms_txt", want: CouldNotCheck, error: "timeout", opts: Options{RequestTimeout: 300 * time.Millisecond}},
		{name: "garbage bytes", edit: replace("/.well-known/security.txt", &doc{ctype: "text/plain", body: "\x00\xff\xfe garbage \x1b[31m"}), id: "security_contact", want: Fail},
		{name: "garbage HTML", edit: replace("/", &doc{ctype: "text/html", body: "<html lang=\"en\"><<<>>><main><div<div" + strings.Repeat("<div>", 100000) + "\x00"}), id: "language_declared", want: Pass},
		{name: "garbage HTML has no main text", edit: replace("/", &doc{ctype: "text/html", body: "<html lang=\"en\"><<<>>><main><div<div" + strings.Repeat("<div>", 100000) + "\x00"}), id: "content_in_initial_html", want: Partial},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := agentReadySite(t)
			tc.edit(s)
			r := scanHandler(t, s, tc.opts)
			c := r.checkByID(tc.id)
			if c.Verdict != tc.want {
				t.Fatalf("%s = %s, want %s\n%s", tc.id, c.Verdict, tc.want, receiptText(*c))
			}
			if c.Receipt.Expected == "" {
				t.Error("no receipt")
			}
			if tc.error != "" && !strings.Contains(c.Missing, tc.error) {
				t.Errorf("missing %q does not say %q", c.Missing, tc.error)
			}
		})
	}
}

// xmlBomb is the billion-laughs document: encoding/xml never expands
// custom entities, so it fails to parse instead of exploding.
const xmlBomb = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<urlset><url><loc>&lol3;</loc></url></urlset>`

// millionURLs streams a sitemap of a million locs (about 48 MB).
func millionURLs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/xml")
	io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	loc := "http://" + r.Host + "/p/"
	for i := range 1000000 {
		if _, err := fmt.Fprintf(w, "<url><loc>%s%d</loc></url>", loc, i); err != nil {
			return
		}
	}
	io.WriteString(w, "</urlset>")
}

// slowLoris sends headers then one byte every 100ms, forever (until the
// client gives up).
func slowLoris(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(200)
	for {
		if _, err := w.Write([]byte("x")); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestUnreachableHome: a refused connection, a TLS error, a redirect loop
// and a timeout on the home page end the scan with an error and a report of
// COULD_NOT_CHECK receipts.
func TestUnreachableHome(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/"
	ln.Close()
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	defer tlsSrv.Close()
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/", http.StatusFound) }))
	defer loop.Close()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hang.Close()
	tests := []struct{ name, url, kind string }{
		{"refused", refused, "connection refused"},
		{"TLS error", tlsSrv.URL, "TLS error"},
		{"redirect loop", loop.URL, "redirect loop"},
		{"hang", hang.URL, "timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Scan(context.Background(), tc.url, Options{RequestTimeout: 300 * time.Millisecond, Now: func() time.Time { return fixedNow }})
			if err == nil || !strings.Contains(err.Error(), tc.kind) {
				t.Fatalf("err = %v, want one naming %q", err, tc.kind)
			}
			if r == nil || len(r.Checks) != 35 || len(r.CouldNotCheck) != 27 || r.Score != 0 {
				t.Fatalf("report = %+v, want 35 checks, 27 could not check", r)
			}
			if !strings.Contains(r.Checks[0].Missing, tc.kind) || r.Checks[0].Receipt.Request == nil {
				t.Errorf("receipt %+v does not name %q", r.Checks[0].Receipt, tc.kind)
			}
		})
	}
}

// TestSameOriginOnly: requests and redirects leaving the origin are refused.
func TestSameOriginOnly(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request left the origin: %s", r.URL)
	}))
	defer other.Close()
	s := agentReadySite(t)
	s.set("/llms.txt", &doc{handler: func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/llms.txt", http.StatusFound)
	}})
	s.set("/sitemap.xml", &doc{ctype: "application/xml", body: `<urlset><url><loc>` + other.URL + `/x</loc></url></urlset>`})
	r := scanHandler(t, s, Options{SameOriginOnly: true})
	if c := r.checkByID("llms_txt"); c.Verdict != CouldNotCheck || !strings.Contains(c.Missing, "origin") {
		t.Errorf("llms_txt = %s (%s), want COULD_NOT_CHECK naming the origin", c.Verdict, c.Missing)
	}
	if len(r.Routes) != 1 {
		t.Errorf("routes %v include a foreign page", r.Routes)
	}
}

// TestScanTimeoutBoundsTheScan: a site that hangs on every resource but the
// home page is cut off by the scan timeout.
func TestScanTimeoutBoundsTheScan(t *testing.T) {
	s := bareSite()
	s.fallback = &doc{handler: func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }}
	start := time.Now()
	r := scanHandler(t, s, Options{Timeout: time.Second, RequestTimeout: time.Minute})
	if time.Since(start) > 30*time.Second {
		t.Errorf("scan took %v despite a 1s timeout", time.Since(start))
	}
	if c := r.checkByID("llms_txt"); c.Verdict != CouldNotCheck {
		t.Errorf("llms_txt = %s, want COULD_NOT_CHECK", c.Verdict)
	}
}

// TestHostileMemoryBounded: scanning a site full of oversized answers keeps
// the heap far below the sum of the bodies served.
func TestHostileMemoryBounded(t *testing.T) {
	big := &doc{handler: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		chunk := []byte(strings.Repeat("<div>", 1<<14))
		for range 1 << 10 { // 80 MiB
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}}
	s := bareSite()
	s.fallback = big
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	scanHandler(t, s, Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<20 {
		t.Errorf("heap grew %d MiB", grew>>20)
	}
}

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

// BenchmarkScan scans the agent-ready test site end to end (35 checks, two
// routes, the MCP probe) over loopback.
func BenchmarkScan(b *testing.B) {
	srv := agentReadySite(b).serve(b)
	opts := Options{Now: func() time.Time { return fixedNow }}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Scan(context.Background(), srv.URL, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRender renders one report three ways.
func BenchmarkRender(b *testing.B) {
	srv := agentReadySite(b).serve(b)
	r, err := Scan(context.Background(), srv.URL, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.JSON(); err != nil {
			b.Fatal(err)
		}
		r.Markdown()
		r.HTML()
	}
}

// TestPickRoutes: the pages read spread over the site's sections and page
// kinds, a likely form page first, instead of the first pages in sitemap
// order.
func TestPickRoutes(t *testing.T) {
	const d = "https://docs.example/"
	var python []string
	for _, p := range []string{"about.html", "bugs.html", "c-api/abstract.html", "c-api/index.html", "contents.html", "copyright.html",
		"glossary.html", "library/csv.html", "library/index.html", "library/json.html", "tutorial/appetite.html", "tutorial/index.html", "whatsnew/3.13.html"} {
		python = append(python, d+p)
	}
	for _, tc := range []struct {
		name string
		in   []string
		n    int
		want []string
	}{
		{"one page per section, content first", python, 5, []string{"about.html", "c-api/abstract.html", "library/csv.html", "tutorial/appetite.html", "whatsnew/3.13.html"}},
		{"then listings, then second pages", python, 9, []string{"about.html", "c-api/abstract.html", "library/csv.html", "tutorial/appetite.html", "whatsnew/3.13.html", "c-api/index.html", "library/index.html", "tutorial/index.html", "bugs.html"}},
		{"a form page first", []string{d + "a", d + "b", d + "blog/x", d + "contact/"}, 3, []string{"contact/", "a", "blog/x"}},
		{"fewer candidates than n", []string{d + "a"}, 5, []string{"a"}},
		{"none asked", python, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pickRoutes(tc.in, tc.n)
			for i := range got {
				got[i] = strings.TrimPrefix(got[i], d)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("pickRoutes = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNoSitemapFollowsHomeLinks: a site without a sitemap is scanned on
// the home page and its same-origin page links, so a form one link away
// is seen (web_actions_declared applies) and foreign links and files are
// not read.
func TestNoSitemapFollowsHomeLinks(t *testing.T) {
	s := bareSite()
	s.edit("/", func(d *doc) {
		d.body = `<!doctype html><html><head><title>My site</title></head><body><h1>Welcome</h1>
<a href="/about">About</a> <a href="/contact">Contact</a> <a href="/logo.png">Logo</a> <a href="https://elsewhere.example/">Elsewhere</a></body></html>`
	})
	s.set("/about", &doc{ctype: "text/html", body: `<html><body><p>About us.</p></body></html>`})
	s.set("/contact", &doc{ctype: "text/html", body: `<html><body><form action="/send"><label for="m">Message</label><textarea id="m" name="message"></textarea></form></body></html>`})
	r := scanHandler(t, s, Options{})
	var paths []string
	for _, u := range r.Routes {
		paths = append(paths, pathOf(u))
	}
	if strings.Join(paths, " ") != "/ /contact /about" {
		t.Errorf("routes %v, want the home page, the form page, then /about", paths)
	}
	if c := r.checkByID("web_actions_declared"); c.Verdict != Fail {
		t.Errorf("web_actions_declared = %s, want FAIL (the contact form is unannotated)", c.Verdict)
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://a.test/x?token=abc&page=2", "https://a.test/x?token=[REDACTED]&page=2"},
		{"https://a.test/cb?code=xyz&state=s", "https://a.test/cb?code=[REDACTED]&state=s"},
		{"https://a.test/?access_token=1&api_key=2&key=3&sig=4&signature=5&password=6", "https://a.test/?access_token=[REDACTED]&api_key=[REDACTED]&key=[REDACTED]&sig=[REDACTED]&signature=[REDACTED]&password=[REDACTED]"},
		{"https://a.test/?X-Amz-Signature=1&my_secret=2&refresh_token=3", "https://a.test/?X-Amz-Signature=[REDACTED]&my_secret=[REDACTED]&refresh_token=[REDACTED]"},
		{"https://user:pass@a.test/", "https://REDACTED@a.test/"},
		{"https://a.test/plain?q=widgets", "https://a.test/plain?q=widgets"},
		{"https://a.test/%zz?token=1", "https://a.test/%zz?[REDACTED]"},
	}
	for _, tc := range tests {
		if got := redactURL(tc.in); got != tc.want {
			t.Errorf("redactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCredentialHeaders(t *testing.T) {
	for _, h := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "Api-Key", "X-Auth-Token", "X-Refresh-Token", "Client-Secret", "X-Client-Secret", "Mcp-Session-Id", "X-Custom"} {
		want := h != "X-Custom"
		if got := isCredentialHeader(h, nil); got != want {
			t.Errorf("isCredentialHeader(%q) = %v, want %v", h, got, want)
		}
	}
	if !isCredentialHeader("x-custom", []string{"X-Custom"}) {
		t.Error("Options.Redact names are not redacted")
	}
	for _, h := range []string{"X-Session-Id", "X-Access-Key", "X-Api_Key", "X-CSRF-Token", "X-Xsrf-Token", "X-Amz-Security-Token", "X-Goog-Signature"} {
		if !isCredentialHeader(h, nil) {
			t.Errorf("%s not treated as a credential", h)
		}
	}
	// Headers about credentials, whose names merely contain the words.
	for _, h := range []string{"Accept", "Content-Type", "Vary", "Link", "X-Markdown-Tokens", "Access-Control-Allow-Credentials",
		"Access-Control-Expose-Headers", "Sec-WebSocket-Key", "X-Keyboard", "X-Tokenizer", "Keep-Alive"} {
		if isCredentialHeader(h, nil) {
			t.Errorf("%s wrongly treated as a credential", h)
		}
	}
}

// TestReceiptsNeverRecordCredentials: a site that echoes credentials in
// headers and URLs leaves no trace of them in any rendering.
func TestReceiptsNeverRecordCredentials(t *testing.T) {
	const secret = "s3cr3t-value"
	s := agentReadySite(t)
	s.edit("/", func(d *doc) {
		d.header.Add("Set-Cookie", "session="+secret)
		d.header.Add("Authorization", "Bearer "+secret)
		d.header.Add("X-Api-Key", secret)
		d.header.Add("Link", `</llms.txt?token=`+secret+`>; rel="describedby"`)
	})
	s.set("/sitemap.xml", &doc{ctype: "application/xml", body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{{origin}}/pricing?access_token=` + secret + `</loc></url></urlset>`})
	s.set("/robots.txt", &doc{status: http.StatusNotFound})
	r := scanHandler(t, s, Options{Header: http.Header{"Authorization": {"Bearer " + secret}}})
	j, _ := r.JSON()
	for name, out := range map[string]string{"json": string(j), "markdown": string(r.Markdown()), "html": string(r.HTML())} {
		if strings.Contains(out, secret) {
			i := strings.Index(out, secret)
			t.Errorf("%s rendering leaks a credential: …%s…", name, out[max(0, i-120):i+20])
		}
	}
}

func FuzzRedactURL(f *testing.F) {
	f.Add("https://u:p@a.test/x?token=1&q=2#f")
	f.Fuzz(func(t *testing.T, s string) { redactURL(s) })
}
