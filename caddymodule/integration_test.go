package caddymodule

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/encode/gzip"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/encode/zstd"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/fileserver"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/headers"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/rewrite"
	_ "github.com/caddyserver/caddy/v2/modules/metrics"

	"github.com/agentready/caddy-agentready/caddymodule/internal/caddytest"
)

// caddyMu serialises tests that run Caddy in this process: Caddy has one
// running configuration per process.
var caddyMu sync.Mutex

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	return caddytest.FreePort(t)
}

// runCaddy adapts the Caddyfile (with {port} and {admin} replaced by free
// ports on 127.0.0.1) and runs it in this process until the test ends. It
// returns the site's base URL.
func runCaddy(t testing.TB, caddyfileText string) (base, admin string) {
	t.Helper()
	return runCaddyAt(t, freePort(t), caddyfileText)
}

// runCaddyAt is runCaddy on a port chosen by the caller (an application
// behind Caddy that must know its own address before Caddy starts).
func runCaddyAt(t testing.TB, port int, caddyfileText string) (base, admin string) {
	t.Helper()
	return runCaddyFile(t, port, caddyfileText, "Caddyfile")
}

// runCaddyFile is runCaddyAt for a Caddyfile adapted as read from
// filename (its relative config paths are filename's directory's).
func runCaddyFile(t testing.TB, port int, caddyfileText, filename string) (base, admin string) {
	t.Helper()
	caddyMu.Lock()
	t.Cleanup(caddyMu.Unlock)
	adminPort := freePort(t)
	text := strings.NewReplacer("{port}", fmt.Sprint(port), "{admin}", fmt.Sprint(adminPort)).Replace(caddyfileText)
	if !strings.Contains(text, "admin ") {
		text = fmt.Sprintf("{\n\tadmin 127.0.0.1:%d\n\tpersist_config off\n}\n", adminPort) + text
	}
	caddytest.Load(t, text, filename)
	base = fmt.Sprintf("http://127.0.0.1:%d", port)
	waitListening(t, fmt.Sprintf("127.0.0.1:%d", port))
	return base, fmt.Sprintf("http://127.0.0.1:%d", adminPort)
}

func waitListening(t testing.TB, addr string) {
	t.Helper()
	caddytest.WaitListening(t, addr)
}

// get performs a request with the given headers and returns the response
// with its body read.
func get(t testing.TB, method, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	client := &http.Client{
		Transport: &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body of %s: %v", url, err)
	}
	return resp, string(body)
}

// getUntil GETs url until its body holds want (for at most 20 s: a
// document built in the background) and returns the last body; the
// caller checks it.
func getUntil(t testing.TB, url, want string) string {
	t.Helper()
	var body string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, body = get(t, "GET", url); strings.Contains(body, want) {
			break
		}
	}
	return body
}

// origin serves the bundled demo site the way a real origin would: with
// validators, and gzip when the client accepts it.
func newOrigin(t testing.TB) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(originHandler())
	t.Cleanup(srv.Close)
	return srv
}

// originHandler is the handler of newOrigin.
func originHandler() http.Handler {
	files := http.FileServer(http.Dir(filepath.Join("..", "examples", "site")))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/gzipped":
			raw, _ := os.ReadFile(filepath.Join("..", "examples", "site", "pricing.html"))
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(raw)
			zw.Close()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("ETag", `"gz1"`)
			w.Write(buf.Bytes())
			return
		case r.URL.Path == "/with-cookie":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Set-Cookie", "session=secret; HttpOnly")
			w.Header().Set("Cache-Control", "public, max-age=600")
			io.WriteString(w, "<html><head><title>Account</title></head><body><main><h1>Your account</h1><p>Hello.</p></main></body></html>")
			return
		case r.URL.Path == "/broken-gzip":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Encoding", "gzip")
			io.WriteString(w, "\x1f\x8b\x08\x00garbage that is not deflate")
			return
		case r.URL.Path == "/api/data.json":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true}`)
			return
		}
		// Pages live in NAME.html, as the demo's try_files does.
		if r.URL.Path != "/" && filepath.Ext(r.URL.Path) == "" {
			r.URL.Path += ".html"
		}
		files.ServeHTTP(w, r)
	})
}

// originBody fetches a path from the origin directly.
func originBody(t testing.TB, origin, path string) string {
	t.Helper()
	_, body := get(t, http.MethodGet, origin+path)
	return body
}

func TestIntegrationNegotiation(t *testing.T) {
	origin := newOrigin(t)
	base, _ := runCaddy(t, `
:{port} {
	bind 127.0.0.1
	encode gzip
	agent_ready {
		config ../examples/site.yaml
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}`)

	t.Run("markdown with front matter", func(t *testing.T) {
		resp, body := get(t, "GET", base+"/pricing", "Accept", "text/markdown")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
			t.Fatalf("got %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !strings.HasPrefix(body, "---\ntitle: Pricing\n") || !strings.Contains(body, "canonical: "+base+"/pricing\n") {
			t.Fatalf("front matter missing or wrong:\n%.400s", body)
		}
		if !strings.Contains(body, "| Feature | Starter | Team | Business |") {
			t.Errorf("pricing table lost:\n%s", body)
		}
		if resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
			t.Errorf("Content-Length %q for %d bytes", resp.Header.Get("Content-Length"), len(body))
		}
		if n, err := strconv.Atoi(resp.Header.Get("X-Markdown-Tokens")); err != nil || n <= 0 {
			t.Errorf("x-markdown-tokens = %q", resp.Header.Get("X-Markdown-Tokens"))
		}
		assertVaryAccept(t, resp)
		assertLinks(t, resp, "/pricing/md")
	})

	t.Run("browser gets HTML with head annotations", func(t *testing.T) {
		resp, body := get(t, "GET", base+"/contact", "Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
		if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Fatalf("content type %q", ct)
		}
		for _, want := range []string{
			`<link rel="alternate" type="text/markdown" href="/contact/md">`,
			`<link rel="canonical" href="` + base + `/contact">`,
			`toolname="`,
			`<html lang="en"`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("HTML lacks %s", want)
			}
		}
		assertVaryAccept(t, resp)
		assertLinks(t, resp, "/contact/md")
	})

	t.Run("suffix fallback", func(t *testing.T) {
		resp, body := get(t, "GET", base+"/pricing/md")
		if resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
			t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
		}
		if !strings.Contains(body, "canonical: "+base+"/pricing\n") {
			t.Errorf("canonical must be the page URL, not the /md one:\n%.300s", body)
		}
	})

	t.Run("HEAD markdown", func(t *testing.T) {
		resp, body := get(t, "HEAD", base+"/pricing", "Accept", "text/markdown")
		if body != "" || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
			t.Fatalf("HEAD: body %q type %q", body, resp.Header.Get("Content-Type"))
		}
		// RFC 9110 §9.3.2: the fields GET gets, the Markdown's length too.
		getResp, md := get(t, "GET", base+"/pricing", "Accept", "text/markdown")
		if cl := resp.Header.Get("Content-Length"); cl != strconv.Itoa(len(md)) || cl != getResp.Header.Get("Content-Length") {
			t.Errorf("HEAD Content-Length %q, GET's Markdown is %d bytes", cl, len(md))
		}
		if resp.Header.Get("X-Markdown-Tokens") == "" || resp.Header.Get("X-Markdown-Tokens") != getResp.Header.Get("X-Markdown-Tokens") {
			t.Errorf("HEAD x-markdown-tokens %q, GET %q", resp.Header.Get("X-Markdown-Tokens"), getResp.Header.Get("X-Markdown-Tokens"))
		}
		assertVaryAccept(t, resp)
	})

	t.Run("gzip origin decoded, client gets gzip from encode", func(t *testing.T) {
		resp, body := get(t, "GET", base+"/gzipped", "Accept", "text/markdown", "Accept-Encoding", "gzip")
		if resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("encode should compress the Markdown; Content-Encoding %q", resp.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		md, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(md), "---\ntitle: Pricing") {
			t.Errorf("not the Markdown of the page:\n%.200s", md)
		}
		if etag := resp.Header.Get("ETag"); !strings.Contains(etag, "gz1-md") {
			t.Errorf("variant ETag %q", etag)
		}
	})

	t.Run("conditional markdown answers 304 with Vary", func(t *testing.T) {
		resp, _ := get(t, "GET", base+"/gzipped", "Accept", "text/markdown")
		etag := resp.Header.Get("ETag")
		resp, body := get(t, "GET", base+"/gzipped", "Accept", "text/markdown", "If-None-Match", etag)
		if resp.StatusCode != http.StatusNotModified || body != "" {
			t.Fatalf("got %d with %d bytes for If-None-Match %s", resp.StatusCode, len(body), etag)
		}
		assertVaryAccept(t, resp)
		// The HTML validator never validates the Markdown form.
		resp, _ = get(t, "GET", base+"/gzipped", "Accept", "text/markdown", "If-None-Match", `"gz1"`)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("HTML ETag validated the Markdown form: %d", resp.StatusCode)
		}
	})

	t.Run("cookie never cached publicly with the markdown", func(t *testing.T) {
		resp, _ := get(t, "GET", base+"/with-cookie", "Accept", "text/markdown")
		cc := resp.Header.Get("Cache-Control")
		if !strings.Contains(cc, "private") || strings.Contains(cc, "public") {
			t.Errorf("Cache-Control %q for a response with Set-Cookie", cc)
		}
	})

	t.Run("broken gzip fails open", func(t *testing.T) {
		// With Accept-Encoding sent, reverse_proxy passes the encoded bytes
		// through instead of decoding them itself.
		resp, body := get(t, "GET", base+"/broken-gzip", "Accept", "text/markdown", "Accept-Encoding", "gzip")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(body, "garbage") {
			t.Errorf("the original response must go out unchanged: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), body)
		}
	})

	t.Run("non-HTML untouched", func(t *testing.T) {
		resp, body := get(t, "GET", base+"/api/data.json", "Accept", "text/markdown")
		if body != `{"ok":true}` || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("got %q %q", resp.Header.Get("Content-Type"), body)
		}
	})

	t.Run("discovery documents", func(t *testing.T) {
		for path, ctype := range map[string]string{
			"/llms.txt":                         "text/plain; charset=utf-8",
			"/agents.json":                      "application/json",
			"/.well-known/agents.json":          "application/json",
			"/.well-known/ard.json":             "application/json",
			"/.well-known/security.txt":         "text/plain; charset=utf-8",
			"/.well-known/api-catalog":          "application/linkset+json",
			"/robots.txt":                       "text/plain; charset=utf-8",
			"/sitemap.xml":                      "application/xml; charset=utf-8",
			"/.well-known/mcp/server-card.json": "application/json",
		} {
			resp, body := get(t, "GET", base+path)
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), strings.Split(ctype, ";")[0]) || body == "" {
				t.Errorf("%s: %d %q (%d bytes)", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
				continue
			}
			etag := resp.Header.Get("ETag")
			if etag == "" || resp.Header.Get("Last-Modified") == "" {
				t.Errorf("%s: validators missing", path)
				continue
			}
			resp, body = get(t, "GET", base+path, "If-None-Match", etag)
			if resp.StatusCode != http.StatusNotModified || body != "" {
				t.Errorf("%s: If-None-Match gave %d", path, resp.StatusCode)
			}
		}
		_, well := get(t, "GET", base+"/.well-known/agents.json")
		_, plain := get(t, "GET", base+"/agents.json")
		if well != plain {
			t.Errorf("agents.json twins differ")
		}
		_, robots := get(t, "GET", base+"/robots.txt")
		if !strings.Contains(robots, "Disallow: /admin/") || !strings.Contains(robots, "Agentmap:") || !strings.Contains(robots, "Sitemap:") {
			t.Errorf("robots.txt not merged with the origin's:\n%s", robots)
		}
	})
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return fmt.Sprintf("at byte %d:\n got: %q\nwant: %q", i, a[lo:min(len(a), i+80)], b[lo:min(len(b), i+80)])
}

func assertVaryAccept(t testing.TB, resp *http.Response) {
	t.Helper()
	for _, v := range resp.Header.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), "Accept") {
				return
			}
		}
	}
	t.Errorf("Vary %q does not name Accept", resp.Header.Values("Vary"))
}

func assertLinks(t testing.TB, resp *http.Response, markdown string) {
	t.Helper()
	links := strings.Join(resp.Header.Values("Link"), ", ")
	for _, want := range []string{
		`</llms.txt>; rel="describedby"; type="text/plain"`,
		`</agents.json>; rel="alternate"; type="application/json"`,
		`<` + markdown + `>; rel="alternate"; type="text/markdown"`,
	} {
		if !strings.Contains(links, want) {
			t.Errorf("Link headers %q lack %s", links, want)
		}
	}
}

// TestIntegrationHTMLByteForByte: with the annotations off, a browser gets the
// origin's bytes exactly, whatever the page.
func TestIntegrationHTMLByteForByte(t *testing.T) {
	origin := newOrigin(t)
	base, _ := runCaddy(t, `
:{port} {
	bind 127.0.0.1
	agent_ready {
		config ../examples/site.yaml
		head_link off
		inject off
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}`)
	for _, page := range []string{"/", "/pricing", "/docs/getting-started", "/blog/why-agents-read-markdown", "/contact", "/styles.css", "/favicon.svg"} {
		want := originBody(t, origin.URL, page)
		for _, accept := range []string{"", "*/*", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8", "text/markdown;q=0.5, text/html"} {
			resp, body := get(t, "GET", base+page, "Accept", accept)
			if body != want {
				t.Errorf("%s with Accept %q: body differs from the origin's:\n%s", page, accept, firstDiff(body, want))
			}
			if resp.Header.Get("Content-Length") != strconv.Itoa(len(want)) {
				t.Errorf("%s: Content-Length %q, want %d", page, resp.Header.Get("Content-Length"), len(want))
			}
		}
	}
}

// TestIntegrationHTMLAnnotatedWhole: through Caddy, a demo page gets the
// YAML's annotations, keeps every byte of the origin's in order, goes out
// with its exact Content-Length, and the second request of the same page
// is annotated from its rewrite plan into the same bytes.
func TestIntegrationHTMLAnnotatedWhole(t *testing.T) {
	origin := newOrigin(t)
	base, _ := runCaddy(t, agentReadySite(proxyTo(origin.URL), "config ../examples/site.yaml"))
	pages := map[string][]string{
		"/pricing": {`<link rel="alternate" type="text/markdown" href="/pricing/md">`, `toolname="search_acme"`},
		"/contact": {`<html lang="en"`, `toolname="contact_acme"`, `toolparamdescription="The sender&#39;s full name."`},
		"/":        {`<link rel="alternate" type="text/markdown" href="/md">`, `<link rel="ard"`},
	}
	plans := counterValue(t, metrics.rewrites.WithLabelValues("plan"))
	for round := range 2 {
		for page, want := range pages {
			resp, body := get(t, "GET", base+page, "Accept", acceptBrowser)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Fatalf("round %d %s: status %d, Content-Length %q for %d bytes", round, page, resp.StatusCode, resp.Header.Get("Content-Length"), len(body))
			}
			for _, w := range want {
				if !strings.Contains(body, w) {
					t.Errorf("round %d %s: no %s", round, page, w)
				}
			}
			if orig := originBody(t, origin.URL, page); !keepsInOrder(orig, body) {
				t.Errorf("round %d %s: a byte of the origin's page was changed or dropped", round, page)
			}
		}
	}
	if got := counterValue(t, metrics.rewrites.WithLabelValues("plan")) - plans; got < float64(len(pages)) {
		t.Errorf("%v pages annotated from their plan in the second round, want %d", got, len(pages))
	}
}

// keepsInOrder reports whether every byte of orig appears in out, in order.
func keepsInOrder(orig, out string) bool {
	i := 0
	for j := 0; i < len(orig) && j < len(out); j++ {
		if orig[i] == out[j] {
			i++
		}
	}
	return i == len(orig)
}

// TestIntegrationRobotsOriginWins: with documents.robots_txt: origin, the
// origin's file is served as it is, and ours only where the origin has none.
func TestIntegrationRobotsOriginWins(t *testing.T) {
	origin := newOrigin(t)
	base := runWithYAML(t, origin.URL, "documents:\n  robots_txt: origin\n")
	_, robots := get(t, "GET", base+"/robots.txt")
	if want := originBody(t, origin.URL, "/robots.txt"); robots != want {
		t.Errorf("robots.txt with origin wins:\n%s\nwant the origin's:\n%s", robots, want)
	}
}

// TestIntegrationBadYAMLFailsAtLoad: a mistake in the site's YAML stops
// Caddy from loading the config, with file, line and field in the error.
func TestIntegrationBadYAMLFailsAtLoad(t *testing.T) {
	caddyMu.Lock()
	defer caddyMu.Unlock()
	yamlPath := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(yamlPath, []byte("site:\n  name: Acme\n  orign: https://acme.example\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf("{\n\tadmin off\n\tpersist_config off\n}\n:%d {\n\tbind 127.0.0.1\n\tagent_ready {\n\t\tconfig %s\n\t}\n\trespond ok\n}\n", freePort(t), yamlPath)
	cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(text), map[string]any{"filename": "Caddyfile"})
	if err != nil {
		t.Fatal(err)
	}
	err = caddy.Load(cfg, true)
	if err == nil {
		caddy.Stop()
		t.Fatal("a config with an unknown YAML key loaded")
	}
	for _, want := range []string{yamlPath + ":3", "site.orign", `did you mean "origin"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("load error %q lacks %q", err, want)
		}
	}
}

// TestIntegrationLLMsAutoList: llms.auto_list lists the site's pages, as
// discovery finds them in the origin's sitemap, in llms.txt once the server
// runs; a sitemap entry that does not answer with a page is left out.
func TestIntegrationLLMsAutoList(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
				`<url><loc>http://`+r.Host+`/guides/first-steps</loc></url><url><loc>http://`+r.Host+`/guides/billing</loc></url>`+
				`<url><loc>http://`+r.Host+`/guides/gone</loc></url></urlset>`)
		case "/", "/guides/first-steps", "/guides/billing":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>Text.</p></main></body></html>")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(origin.Close)
	base := runWithYAML(t, origin.URL, "site:\n  name: Auto\n  pages: [/pricing, /contact]\nllms:\n  auto_list:\n    enabled: true\n    section: Everything\n")
	body := getUntil(t, base+"/llms.txt", "## Everything")
	if !strings.Contains(body, "## Everything") || !strings.Contains(body, base+"/guides/billing") {
		t.Fatalf("llms.txt does not list the sitemap's pages:\n%s", body)
	}
	if strings.Contains(body, "/guides/gone") {
		t.Errorf("llms.txt lists a sitemap entry that answers 404:\n%s", body)
	}
}

// runWithYAML runs agent_ready with the given site YAML (written to a temp
// file) in front of originURL, the self-scan off, and returns the base URL.
func runWithYAML(t *testing.T, originURL, yaml string) string {
	t.Helper()
	yamlPath := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(yamlPath, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := runCaddy(t, `
:{port} {
	bind 127.0.0.1
	agent_ready {
		config `+yamlPath+`
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(originURL, "http://")+`
}`)
	return base
}
