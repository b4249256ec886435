package caddymodule

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"gopkg.in/yaml.v3"

	"github.com/agentready/caddy-agentready/frontmatter"
)

// agentReadySite is a site block on {port} (loopback only) with agent_ready,
// its self-scan off and the given subdirectives, in front of handler (one
// or more Caddyfile lines).
func agentReadySite(handler string, subdirectives ...string) string {
	var b strings.Builder
	b.WriteString(":{port} {\n\tbind 127.0.0.1\n\tagent_ready {\n")
	for _, sub := range append(subdirectives, "self_scan off") {
		b.WriteString("\t\t" + sub + "\n")
	}
	b.WriteString("\t}\n\t" + handler + "\n}\n")
	return b.String()
}

// proxyTo is the reverse_proxy line for a test origin.
func proxyTo(originURL string) string {
	return "reverse_proxy " + strings.TrimPrefix(originURL, "http://")
}

// rawGet sends a request line and headers exactly as given (no client-side
// cleaning or escaping of target) and reads the response.
func rawGet(t *testing.T, base, target string, hdr ...string) (*http.Response, string, error) {
	t.Helper()
	addr := strings.TrimPrefix(base, "http://")
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", target, addr)
	for i := 0; i+1 < len(hdr); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", hdr[i], hdr[i+1])
	}
	b.WriteString("\r\n")
	if _, err := io.WriteString(conn, b.String()); err != nil {
		return nil, "", err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, string(body), err
}

// loadFails adapts and loads a configuration that must be refused, and
// returns why it was. A configuration that loads is stopped and reported.
func loadFails(t *testing.T, caddyfileText string) error {
	t.Helper()
	caddyMu.Lock()
	defer caddyMu.Unlock()
	cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(caddyfileText), map[string]any{"filename": "Caddyfile"})
	if err != nil {
		return err
	}
	if err := caddy.Load(cfg, true); err != nil {
		return err
	}
	caddy.Stop()
	t.Errorf("configuration loaded, want it refused:\n%s", caddyfileText)
	return nil
}

// TestSecurityConfigHeaderInjection: no value from the configuration can
// split a header. CR, LF or NUL in any value that becomes a header (raw in
// a quoted token, in a backquoted token or through an environment
// placeholder) makes the configuration fail to load.
func TestSecurityConfigHeaderInjection(t *testing.T) {
	t.Setenv("AGENT_READY_EVIL", "public\r\nSet-Cookie: stolen=1")
	for _, directive := range []string{"cache_control", "content_signal", "link_llms", "link_agents", "markdown_suffix"} {
		for name, value := range map[string]string{
			"LF in quotes":   "\"/x\nSet-Cookie: stolen=1\"",
			"CRLF in quotes": "\"/x\r\nSet-Cookie: stolen=1\"",
			"backquoted CR":  "`/x\rSet-Cookie: stolen=1`",
			"NUL":            "\"/x\x00\"",
			"env":            "{$AGENT_READY_EVIL}",
		} {
			t.Run(directive+" "+name, func(t *testing.T) {
				err := loadFails(t, fmt.Sprintf("{\n\tadmin off\n\tpersist_config off\n}\n:%d {\n\tbind 127.0.0.1\n\tagent_ready {\n\t\t%s %s\n\t\tself_scan off\n\t}\n\trespond ok\n}\n",
					freePort(t), directive, value))
				// The Caddyfile lexer splits an environment value at its line
				// breaks (a parse error); the other forms reach Provision,
				// which names the setting.
				if err != nil && name != "env" && !strings.Contains(err.Error(), directive) {
					t.Errorf("the error does not name %s: %v", directive, err)
				}
			})
		}
	}

	// The site's YAML is validated too: a usage policy that would become
	// a Content-Signal header with a control character is refused.
	for name, value := range map[string]string{"NUL": `search=yes\0`, "CRLF": `search=yes\r\nSet-Cookie: stolen=1`} {
		t.Run("YAML policy with "+name, func(t *testing.T) {
			yml := filepath.Join(t.TempDir(), "site.yaml")
			if err := os.WriteFile(yml, []byte("policy:\n  content_signal: \""+value+"\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// An absolute path as the directive's argument would be read as
			// a path matcher: the file is named with the config subdirective.
			loadFails(t, fmt.Sprintf("{\n\tadmin off\n}\n:%d {\n\tbind 127.0.0.1\n\tagent_ready {\n\t\tconfig %s\n\t\tself_scan off\n\t}\n\trespond ok\n}\n", freePort(t), yml))
		})
	}
}

// TestSecurityLinkTargetsEscaped: Link header targets, from the
// configuration or from the request, stay inside their angle brackets (RFC
// 8288 §3), and the head link's href stays inside its attribute.
func TestSecurityLinkTargetsEscaped(t *testing.T) {
	origin := newOrigin(t)
	base, _ := runCaddy(t, agentReadySite(proxyTo(origin.URL),
		"config ../examples/site.yaml",
		`link_llms "/llms.txt>; rel=\"preload\"; x=\"<//evil.example/a>"`,
		`link_agents "/agents json"`))
	linkValue := regexp.MustCompile(`^<[^<>\s"]*>(; [a-z]+="[^"]*")+$`)
	for _, target := range []string{
		`/pricing?q=a>b<c"d,<//evil.example/>;rel=preload`,
		`/pricing/md?q=a>b<c"d,<//evil.example/>;rel=preload`,
		`/pricing?%3E%22`,
	} {
		for _, accept := range []string{acceptMarkdown, acceptBrowser} {
			resp, body, err := rawGet(t, base, target, "Accept", accept)
			if err != nil {
				t.Fatalf("%s: %v", target, err)
			}
			if resp.StatusCode != 200 {
				t.Fatalf("%s: status %d", target, resp.StatusCode)
			}
			links := resp.Header.Values("Link")
			if len(links) < 3 {
				t.Errorf("%s: Link headers %q", target, links)
			}
			for _, l := range links {
				for _, v := range splitLinkLine(l) {
					if !linkValue.MatchString(v) {
						t.Errorf("%s, Accept %s: Link value %q is not one escaped target with quoted parameters", target, accept, v)
					}
					if strings.Contains(v, "<//evil.example") {
						t.Errorf("%s: a second target got into %q", target, v)
					}
				}
			}
			if !strings.Contains(strings.Join(links, ", "), `</llms.txt%3E;%20rel=%22preload%22;%20x=%22%3C//evil.example/a%3E>; rel="describedby"`) {
				t.Errorf("configured target not escaped in %q", links)
			}
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				for _, m := range regexp.MustCompile(`<link rel="alternate" type="text/markdown" href="([^"]*)">`).FindAllStringSubmatch(body, -1) {
					if strings.ContainsAny(m[1], `<>"`) {
						t.Errorf("%s: head link href %q not escaped", target, m[1])
					}
				}
				if strings.Contains(body, `c"d,<//evil.example/>`) {
					t.Errorf("%s: the raw query reached the HTML", target)
				}
			}
		}
	}
}

// splitLinkLine splits a Link field line into its values at the commas
// outside angle brackets and quoted strings.
func splitLinkLine(line string) []string {
	var out []string
	inAngle, inQuote, start := false, false, 0
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"' && !inAngle:
			inQuote = !inQuote
		case c == '<' && !inQuote:
			inAngle = true
		case c == '>' && !inQuote:
			inAngle = false
		case c == ',' && !inAngle && !inQuote:
			out = append(out, strings.TrimSpace(line[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(line[start:]))
}

// hostilePage has metadata that tries to end the front matter early, add
// YAML keys and split headers.
const hostilePage = "<!doctype html><html lang=\"en\"><head>" +
	"<title>Evil\r\n---\ninjected: title\n---\n# Owned</title>" +
	"<meta name=\"description\" content=\"one&#13;&#10;---&#10;injected: description&#10;...&#10;\">" +
	"<meta name=\"author\" content=\"a&#10;Set-Cookie: stolen=1\">" +
	"<meta property=\"og:site_name\" content=\"---\">" +
	"<link rel=\"canonical\" href=\"/hostile&#10;injected: canonical\">" +
	"<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Article\"," +
	"\"headline\":\"Evil\\n---\\ninjected: jsonld\",\"datePublished\":\"2024-01-01\\r\\nX-Evil: 1\"}</script>" +
	"</head><body><main><h1>Real heading</h1><p>Real text.</p></main></body></html>"

// TestSecurityPageMetadataInjection: a page title, description or JSON-LD
// with CR, LF and "---" lines stays a YAML string inside one front matter
// block, for a strict parser and a naive one alike, and never reaches a
// header.
func TestSecurityPageMetadataInjection(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, hostilePage)
	}))
	defer origin.Close()
	base, _ := runCaddy(t, agentReadySite(proxyTo(origin.URL)))
	for _, target := range []string{"/hostile", "/hostile/md"} {
		resp, body := get(t, "GET", base+target, "Accept", acceptMarkdown)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
			t.Fatalf("%s: %d %q", target, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		for k, vs := range resp.Header {
			for _, v := range vs {
				if strings.ContainsAny(v, "\r\n") || strings.Contains(v, "injected") || strings.Contains(v, "stolen") {
					t.Errorf("%s: page metadata reached header %s: %q", target, k, v)
				}
			}
		}
		if resp.Header.Get("X-Evil") != "" || len(resp.Header.Values("Set-Cookie")) > 0 {
			t.Errorf("%s: a header was split: %q", target, resp.Header)
		}

		// The strict reader: one block, the title kept whole.
		meta, rest, err := frontmatter.Parse([]byte(body))
		if err != nil {
			t.Fatalf("%s: %v\n%s", target, err, body)
		}
		if !strings.Contains(meta.Title, "Evil") || !strings.Contains(meta.Title, "injected: ") {
			t.Errorf("%s: title %q lost its text", target, meta.Title)
		}
		if !strings.Contains(string(rest), "Real heading") || strings.Contains(string(rest), "Owned") && !strings.Contains(string(rest), "Real heading") {
			t.Errorf("%s: content after the front matter:\n%s", target, rest)
		}

		// The naive reader: everything up to the first "\n---\n" is the
		// YAML, and it has no key the page smuggled in.
		block, _, ok := strings.Cut(strings.TrimPrefix(body, "---\n"), "\n---\n")
		if !ok {
			t.Fatalf("%s: no closing --- line:\n%s", target, body)
		}
		var keys map[string]any
		if err := yaml.Unmarshal([]byte(block), &keys); err != nil {
			t.Fatalf("%s: the front matter up to the first --- line is not YAML: %v\n%s", target, err, block)
		}
		for k := range keys {
			if strings.Contains(k, "injected") || strings.Contains(k, "Set-Cookie") || strings.Contains(k, "X-Evil") {
				t.Errorf("%s: smuggled key %q in\n%s", target, k, block)
			}
		}
		if title, _ := keys["title"].(string); title != meta.Title {
			t.Errorf("%s: naive title %q, strict title %q", target, title, meta.Title)
		}
	}
}

// traversalSite lays out a document root with a secret next to it, and
// returns the root.
func traversalSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "site")
	for name, body := range map[string]string{
		filepath.Join(dir, "secret.html"):    "<html><head><title>TOP-SECRET</title></head><body><main><p>TOP-SECRET</p></main></body></html>",
		filepath.Join(root, "index.html"):    "<html><head><title>Home</title></head><body><main><p>Home page.</p></main></body></html>",
		filepath.Join(root, "page.html"):     "<html><head><title>Page</title></head><body><main><p>A page.</p></main></body></html>",
		filepath.Join(root, "md/index.html"): "<html><head><title>Section md</title></head><body><main><p>The md section.</p></main></body></html>",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestSecurityPathTraversal: hostile paths with the Markdown suffix, served
// by file_server, never reach outside the root, never crash, and never give
// the Markdown of a page other than the one the path names without its
// suffix.
func TestSecurityPathTraversal(t *testing.T) {
	root := traversalSite(t)
	base, _ := runCaddy(t, agentReadySite("root * "+root+"\n\tfile_server"))
	title := regexp.MustCompile(`<title>([^<]*)</title>`)
	for _, target := range []string{
		"/..%2f..%2f..%2f..%2fetc/passwd/md",
		"/..%2fsecret.html/md",
		"/../secret.html/md",
		"/%2e%2e/secret.html/md",
		"/%2e%2e/md",
		"/%2e%2e%2f%2e%2e%2fetc%2fpasswd/md",
		"/..\\secret.html/md",
		"/%5c..%5csecret.html/md",
		"//md",
		"///md",
		"/md",
		"/md/md",
		"/md/md/md",
		"/page.html/md",
		"/page.html%2fmd",
		"/page.html%2Fmd",
		"/page.html/%6dd",
		"/page.html/m%64",
		"/page.html/md%00",
		"/page.html%00/md",
		"/%00/md",
		"/page.html/md/../../secret.html",
		"/page.html/md?/../../secret.html",
		"/.well-known/..%2fllms.txt",
		"/%2e%2e/llms.txt/md",
		"http://evil.example/page.html/md",
	} {
		t.Run(target, func(t *testing.T) {
			resp, body, err := rawGet(t, base, target)
			if err != nil {
				t.Fatalf("no response: %v", err)
			}
			if strings.Contains(body, "TOP-SECRET") || strings.Contains(body, "root:x:0:0") {
				t.Fatalf("%d: a file outside the root was served:\n%s", resp.StatusCode, body)
			}
			if resp.StatusCode >= 500 {
				t.Errorf("status %d: %s", resp.StatusCode, body)
			}
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
				return
			}
			// A Markdown answer needs the suffix (no Accept was sent) and
			// must be the Markdown of the page the rest of the path names.
			prefix, path := "", target
			if strings.HasPrefix(target, "http://") {
				// Absolute form (RFC 9112 §3.2.2): the authority is the Host.
				i := strings.Index(target[len("http://"):], "/") + len("http://")
				prefix, path = target[:i], target[i:]
			}
			path, query, hasQuery := strings.Cut(path, "?")
			page, ok := strings.CutSuffix(path, "/md")
			if !ok {
				t.Fatalf("Markdown for %s, which does not end in the suffix:\n%s", target, body)
			}
			if page == "" {
				page = "/"
			}
			if n := strings.Count(body, "\ntitle: "); !strings.HasPrefix(body, "---\n") || n != 1 {
				t.Errorf("not one Markdown document (%d titles):\n%s", n, body)
			}
			browser := []string{"Accept", acceptBrowser}
			if strings.HasSuffix(page, "/md") {
				// The page's own path is the suffix URL of another page
				// ("/md" names "/"): it has no negotiated form to compare,
				// and its HTML (a directory: /md/md is the Markdown of /md/)
				// is read with no-transform, which the handler leaves alone.
				browser = append(browser, "Cache-Control", "no-transform")
			} else {
				pageTarget := prefix + page
				if hasQuery {
					pageTarget += "?" + query
				}
				// The same page asked for by negotiation: the same Markdown.
				// (file_server redirects a path to its canonical form, "/.."
				// to "/", only when the request was not rewritten, so the
				// negotiated form may be that redirect instead.)
				negResp, negotiated, err := rawGet(t, base, pageTarget, "Accept", acceptMarkdown)
				if err != nil || negResp.StatusCode/100 != 3 && negotiated != body {
					t.Errorf("suffix form of %s differs from the negotiated form of %s (%v):\n%s\n---\n%s", target, pageTarget, err, body, negotiated)
				}
			}
			// And the page's HTML, after the file server's own redirect
			// (a directory path gets its canonical slash), has its title.
			htmlResp, html, err := rawGet(t, base, page, browser...)
			if err == nil && htmlResp.StatusCode/100 == 3 && strings.HasPrefix(htmlResp.Header.Get("Location"), "/") {
				htmlResp, html, err = rawGet(t, base, htmlResp.Header.Get("Location"), browser...)
			}
			if err != nil || htmlResp.StatusCode != 200 {
				t.Fatalf("Markdown for %s, but its page %s is not a page: %v %v", target, page, err, htmlResp)
			}
			m := title.FindStringSubmatch(html)
			meta, _, err := frontmatter.Parse([]byte(body))
			if err != nil || m == nil || meta.Title != m[1] {
				t.Errorf("Markdown titled %q for %s, whose page %s has title %v", meta.Title, target, page, m)
			}
		})
	}
	if resp, body := get(t, "GET", base+"/page.html/md"); !strings.Contains(body, "title: Page") {
		t.Errorf("the server stopped answering: %d %q", resp.StatusCode, body)
	}
}

// TestSecurityPathToOrigin: removing the suffix keeps the client's escaping
// byte for byte; the origin judges the path exactly as the client sent it
// (an escaped slash never becomes a path separator on the way).
func TestSecurityPathToOrigin(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.RequestURI)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><head><title>T</title></head><body><main><p>x</p></main></body></html>")
	}))
	defer origin.Close()
	base, _ := runCaddy(t, agentReadySite(proxyTo(origin.URL)))
	for target, want := range map[string]string{
		"/..%2f..%2fetc/passwd/md": "/..%2f..%2fetc/passwd",
		"/%2e%2e/md":               "/%2e%2e",
		"/a%2fb/md":                "/a%2fb",
		"/a%2Fmd":                  "/a%2Fmd",
		"/a/%6dd":                  "/a/%6dd",
		"/a%00/md":                 "/a%00",
		"//md":                     "/",
		"/md/md":                   "/md",
		"/a/md?x=/../b":            "/a?x=/../b",
	} {
		mu.Lock()
		seen = nil
		mu.Unlock()
		resp, _, err := rawGet(t, base, target)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		mu.Lock()
		got := append([]string(nil), seen...)
		mu.Unlock()
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s (%d): the origin was asked for %q, want %q", target, resp.StatusCode, got, want)
		}
	}
}

// TestSecurityAdminEndpoint: the admin endpoint listens on localhost unless
// told otherwise, and Caddy's DNS-rebinding and cross-origin checks guard
// the self-score routes like every other admin route.
func TestSecurityAdminEndpoint(t *testing.T) {
	if _, set := os.LookupEnv("CADDY_ADMIN"); !set && caddy.DefaultAdminListen != "localhost:2019" {
		t.Errorf("default admin address %q", caddy.DefaultAdminListen)
	}
	cfg, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(":8080 {\n\tagent_ready\n}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cfg), `"admin"`) {
		t.Errorf("agent_ready changed the admin configuration: %s", cfg)
	}

	_, admin := runCaddy(t, agentReadySite("respond ok"))
	client := &http.Client{Timeout: 10 * time.Second}
	for _, tc := range []struct {
		name, method, host, origin string
	}{
		{"DNS rebinding", "GET", "evil.example", ""},
		{"cross-site scan", "POST", "", "http://evil.example"},
		{"cross-site report", "GET", "", "http://evil.example"},
		{"null origin", "POST", "", "null"},
	} {
		req, _ := http.NewRequest(tc.method, admin+"/agent-ready/status", nil)
		if tc.method == "POST" {
			req.URL.Path = "/agent-ready/scan"
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, want the admin endpoint to refuse it", tc.name, resp.StatusCode)
		}
	}
}

// TestSecurityReportHandler: agent_ready_report is read-only (it never
// starts a scan) and its answers are never stored by caches.
func TestSecurityReportHandler(t *testing.T) {
	base, _ := runCaddy(t, ":{port} {\n\tbind 127.0.0.1\n\tagent_ready_report\n\trespond \"other\"\n}\n")
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		for _, p := range []string{"/agent-ready/scan", "/agent-ready/", "/agent-ready/status"} {
			resp, _ := get(t, m, base+p)
			if resp.StatusCode < 400 {
				t.Errorf("%s %s: %d", m, p, resp.StatusCode)
			}
		}
	}
	resp, _ := get(t, "GET", base+"/agent-ready/report.json")
	if cc := resp.Header.Get("Cache-Control"); resp.StatusCode < 400 && cc != "no-store" {
		t.Errorf("report.json: %d with Cache-Control %q", resp.StatusCode, cc)
	}
	if _, body := get(t, "GET", base+"/elsewhere"); body != "other" {
		t.Errorf("other paths must pass on: %q", body)
	}
}

// TestSecuritySuffixOfDirectoryIndex: the Markdown alternate a directory
// index `/docs/` advertises is the Markdown of `/docs/` itself, with its
// canonical and the base its relative links resolve against (`href="intro"`
// is /docs/intro, not /intro).
func TestSecuritySuffixOfDirectoryIndex(t *testing.T) {

	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	page := `<html><head><title>Docs</title></head><body><main><p>See <a href="intro">the intro</a>.</p></main></body></html>`
	if err := os.WriteFile(filepath.Join(root, "docs", "index.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := runCaddy(t, agentReadySite("root * "+root+"\n\tfile_server"))
	resp, negotiated := get(t, "GET", base+"/docs/", "Accept", acceptMarkdown)
	var alternate string
	for _, l := range resp.Header.Values("Link") {
		if strings.Contains(l, `type="text/markdown"`) {
			alternate = l[1:strings.IndexByte(l, '>')]
		}
	}
	if !strings.Contains(negotiated, "(http://127.0.0.1") || !strings.Contains(negotiated, "/docs/intro)") {
		t.Fatalf("negotiated form of /docs/:\n%s", negotiated)
	}
	resp, viaSuffix := get(t, "GET", base+alternate)
	if resp.StatusCode != 200 || viaSuffix != negotiated {
		t.Errorf("the advertised alternate %s is not the Markdown of /docs/ (%d):\n%s\n--- negotiated:\n%s", alternate, resp.StatusCode, viaSuffix, negotiated)
	}
}

// TestSecuritySelfScanMarker: the module's own requests are marked in
// their context only, so no header a client sends passes for them (and is
// still counted), nothing of the mark reaches the origin or the report,
// even when a page echoes its request headers; and the scan never leaves
// the site, whatever the pages redirect or link to.
func TestSecuritySelfScanMarker(t *testing.T) {
	for _, forged := range []string{"", "1", "true", "yes"} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Agent-Ready-Self-Scan", forged)
		r.Header.Set("Agent-Ready-Internal", forged)
		if isInternal(r) {
			t.Errorf("a header %q passes for the module's own requests", forged)
		}
	}

	var trapHits sync.Map
	trap := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		trapHits.Store(r.URL.String(), true)
	}))
	defer trap.Close()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><head><title>Echo</title></head><body><main><h1>Echo</h1><pre>")
			r.Header.Write(w) // a debug page that shows the request headers
			fmt.Fprintf(w, "</pre><a href=\"%s/linked\">elsewhere</a><a href=\"/away\">away</a></main></body></html>", trap.URL)
		case "/away":
			http.Redirect(w, r, trap.URL+"/redirected", http.StatusFound)
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/from-sitemap</loc></url><url><loc>/away</loc></url></urlset>`, trap.URL)
		case "/llms.txt", "/robots.txt":
			http.Redirect(w, r, trap.URL+r.URL.Path, http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer origin.Close()
	base, admin := runCaddy(t, `:{port} {
	bind 127.0.0.1
	agent_ready {
		self_scan {
			delay 10ms
			timeout 30s
			pages 3
		}
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}
`)

	before := counterValue(t, metrics.responses.WithLabelValues("html"))
	get(t, "GET", base+"/", "Agent-Ready-Self-Scan", "1")
	if got := counterValue(t, metrics.responses.WithLabelValues("html")) - before; got < 1 {
		t.Errorf("a request with a forged marker was left out of the metrics")
	}

	waitReport(t, admin)
	trapHits.Range(func(k, _ any) bool {
		t.Errorf("the self-scan left the site: %s", k)
		return true
	})
	t.Run("token not echoed into the report", func(t *testing.T) {
		for _, format := range []string{"report.json", "report.md", ""} {
			resp, body := get(t, "GET", admin+"/agent-ready/"+format)
			if resp.StatusCode != 200 {
				t.Fatalf("%s: %d", format, resp.StatusCode)
			}
			if strings.Contains(strings.ToLower(body), "agent-ready-self-scan") {
				t.Errorf("a marker header reached the origin: it is in the %q report", format)
			}
		}
	})
}

// TestSecurityMCPRateLimit: the built-in MCP and /ask endpoints limit each
// client, and a client cannot reset its budget with X-Forwarded-For (Caddy
// trusts no proxy unless trusted_proxies says so); writing methods are
// refused.
func TestSecurityMCPRateLimit(t *testing.T) {
	yml := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(yml, []byte("site:\n  name: Limits\nconnect:\n  enabled: true\n  rate_limit: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	origin := newOrigin(t)
	base, _ := runCaddy(t, agentReadySite(proxyTo(origin.URL), "config "+yml))
	// Writing methods are refused by the endpoint itself (each request
	// spends one of the 3 a minute).
	for _, m := range []string{"PUT", "PATCH"} {
		if resp, _ := get(t, m, base+"/mcp"); resp.StatusCode < 400 || resp.StatusCode == http.StatusTooManyRequests {
			t.Errorf("%s /mcp: %d", m, resp.StatusCode)
		}
	}
	limited := 0
	for i := range 6 {
		resp, _ := get(t, "GET", base+"/ask?query=pricing", "X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i+1))
		if resp.StatusCode == http.StatusTooManyRequests {
			limited++
			if resp.Header.Get("Retry-After") == "" {
				t.Errorf("429 without Retry-After")
			}
		}
	}
	if limited != 5 {
		t.Errorf("%d of 6 requests refused with 1 left of a budget of 3 a minute", limited)
	}
	// The MCP endpoint shares the budget: it is spent.
	resp, _ := get(t, "POST", base+"/mcp", "Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("/mcp after the budget is spent: %d", resp.StatusCode)
	}
}

// TestSecurityConversionCache: a conversion is reused only for a response
// that any user could have got. Personal responses (Cache-Control private,
// Set-Cookie, Vary on something else than Accept, a request with
// Authorization) are converted every time, even when the origin reuses the
// same validator for every user.
func TestSecurityConversionCache(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user := r.Header.Get("Cookie")
		if user == "" {
			user = r.Header.Get("Authorization")
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/private":
			h.Set("ETag", `"same"`)
			h.Set("Cache-Control", "private, max-age=60")
		case "/set-cookie":
			h.Set("ETag", `"same"`)
			h.Set("Set-Cookie", "seen=1")
		case "/vary-cookie":
			h.Set("ETag", `"same"`)
			h.Set("Vary", "Cookie")
		case "/authorization":
			// No Cache-Control at all: RFC 9111 §3.5 already keeps a shared
			// cache from reusing a response to a request with Authorization.
			h.Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		case "/public":
			h.Set("ETag", `"same"`)
			h.Set("Cache-Control", "public, max-age=60")
		}
		fmt.Fprintf(w, "<html><head><title>Account</title></head><body><main><h1>Account</h1><p>Signed in as %s.</p></main></body></html>", user)
	}))
	defer origin.Close()
	base, _ := runCaddy(t, agentReadySite(proxyTo(origin.URL)))
	for _, tc := range []struct {
		path, header string
		shared       bool // the conversion may be reused
	}{
		{"/private", "Cookie", false},
		{"/set-cookie", "Cookie", false},
		{"/vary-cookie", "Cookie", false},
		{"/authorization", "Authorization", false},
		// The control: one validator for every user and nothing personal
		// declared, so the conversion is reused (the origin says the two
		// answers are the same representation, RFC 9110 §8.8.3).
		{"/public", "Cookie", true},
	} {
		t.Run(tc.path, func(t *testing.T) {
			// Three users: the cache stores a conversion the second time
			// it is made (its doorkeeper), so the third is the one that
			// could be served another's.
			hits := counterValue(t, metrics.cache.WithLabelValues("hit"))
			get(t, "GET", base+tc.path, "Accept", acceptMarkdown, tc.header, "alice")
			get(t, "GET", base+tc.path, "Accept", acceptMarkdown, tc.header, "bob")
			_, carol := get(t, "GET", base+tc.path, "Accept", acceptMarkdown, tc.header, "carol")
			reused := counterValue(t, metrics.cache.WithLabelValues("hit")) - hits
			if tc.shared {
				if reused != 1 {
					t.Errorf("the control response was not reused (%v hits): the test cannot see reuse", reused)
				}
				return
			}
			if reused != 0 || !strings.Contains(carol, "Signed in as carol.") {
				t.Errorf("%v cache hits; carol got:\n%s", reused, carol)
			}
		})
	}
}

// FuzzUnmarshalCaddyfile: any agent_ready block parses or fails with an
// error, never a panic; and whatever parses, Validate refuses a header
// value with a control character in it.
func FuzzUnmarshalCaddyfile(f *testing.F) {
	files, _ := filepath.Glob("testdata/caddyfile_adapt/*.caddyfiletest")
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		in, _, _ := strings.Cut(string(raw), "\n----------\n")
		if i := strings.Index(in, "agent_ready"); i >= 0 {
			f.Add(in[i:])
		}
	}
	f.Add("agent_ready {\n\tcache_control \"a\nb\"\n\tlink_llms `x\ry`\n}")
	f.Add("agent_ready site.yaml {\n\tself_scan {\n\t\tdelay 1s\n\t\tpages -1\n\t}\n}")
	f.Fuzz(func(t *testing.T, input string) {
		tokens, err := caddyfile.Tokenize([]byte(input), "Caddyfile")
		if err != nil || len(tokens) == 0 {
			return
		}
		ar := new(AgentReady)
		if err := ar.UnmarshalCaddyfile(caddyfile.NewDispenser(tokens)); err != nil {
			return
		}
		for _, v := range []string{ar.CacheControl, ar.ContentSignal, ar.LinkLLMS, ar.LinkAgents, ar.MarkdownSuffix} {
			if strings.ContainsAny(v, "\r\n\x00") && ar.Validate() == nil {
				t.Fatalf("Validate accepted a header value with a control character: %q", v)
			}
		}
	})
}
