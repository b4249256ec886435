package caddymodule

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/caddyserver/caddy/v2/modules/filestorage"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/crypto/bcrypt"
)

// restrictedOrigin is a site whose home page links to an open page and to
// one restricted page behind each kind of rule the test puts in front: the
// body of each restricted page holds a word that must never be published.
func restrictedOrigin(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := func(title, text string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>%s</title></head><body><main><h1>%s</h1><p>%s</p>`+
				`<p><a href="/open">Open</a> <a href="/admin/keys">Admin</a> <a href="/internal/plan">Internal</a> `+
				`<a href="/lan/notes">LAN</a> <a href="/members/list">Members</a> <a href="/staff/pay">Staff</a></p></main></body></html>`,
				title, title, text)
		}
		switch r.URL.Path {
		case "/":
			page("Home", "The home page of a site with private corners.")
		case "/open":
			page("Open page", "Everyone may read about the opening hours of the shop.")
		case "/admin/keys":
			page("Admin keys", "restrictedword-admin the admin keys.")
		case "/internal/plan":
			page("Internal plan", "restrictedword-internal the plan.")
		case "/lan/notes":
			page("LAN notes", "restrictedword-lan the notes.")
		case "/members/list":
			page("Members list", "restrictedword-members the list.")
		case "/staff/pay":
			page("Staff pay", "restrictedword-staff the pay.")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestSecurityOwnRequestsAreOutsiders: the module's own requests (the
// crawl, the content index, llms-full.txt) are judged as an anonymous
// outside visitor's. Pages that answer 403 or 401 to a stranger, behind
// `remote_ip 127.0.0.1/32`, `remote_ip private_ranges`, `basic_auth` or a
// `forward_auth` service that trusts localhost, are never listed in
// /sitemap.xml, written into /llms-full.txt, answered by /ask or served by
// MCP get_page. (The test client itself runs on loopback, so it may read
// them: only the published documents are judged.)
func TestSecurityOwnRequestsAreOutsiders(t *testing.T) {
	origin := restrictedOrigin(t)
	hash, err := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	// An auth service that trusts localhost: it lets a request through
	// when the client address Caddy forwards is a loopback one.
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ip := net.ParseIP(r.Header.Get("X-Forwarded-For")); ip != nil && ip.IsLoopback() {
			w.WriteHeader(http.StatusOK)
			return
		}
		http.Error(w, "strangers may not", http.StatusForbidden)
	}))
	t.Cleanup(auth.Close)
	yml := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(yml, []byte("site:\n  name: Corners\nconnect:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base, admin := runCaddy(t, `:{port} {
	bind 127.0.0.1
	@private {
		path /admin/* /internal/*
		not remote_ip 127.0.0.1/32
	}
	respond @private "private" 403
	@lan {
		path /lan/*
		not remote_ip private_ranges
	}
	respond @lan "private" 403
	@members path /members/*
	basic_auth @members {
		alice `+string(hash)+`
	}
	@staff path /staff/*
	forward_auth @staff `+strings.TrimPrefix(auth.URL, "http://")+` {
		uri /check
	}
	agent_ready {
		config `+yml+`
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}`)
	restricted := []string{"/admin/keys", "/internal/plan", "/lan/notes", "/members/list", "/staff/pay"}
	// What the rules let a loopback client read, the module must not.
	if resp, body := get(t, "GET", base+"/admin/keys"); resp.StatusCode != 200 || !strings.Contains(body, "restrictedword") {
		t.Fatalf("the rule in front does not let loopback in (%d): the test proves nothing", resp.StatusCode)
	}
	idx := waitIndex(t, admin, func(s indexStatus) bool { return s.State == "ok" })
	if idx.Pages == 0 {
		t.Fatalf("nothing indexed: %+v", idx)
	}
	// The open pages link to the restricted ones, so their paths may
	// appear in the open pages' text; their titles and text may not.
	leaks := func(doc, body string) {
		t.Helper()
		for _, title := range []string{"Admin keys", "Internal plan", "LAN notes", "Members list", "Staff pay", "restrictedword"} {
			if strings.Contains(body, title) {
				t.Errorf("%s holds the restricted page %q:\n%.1500s", doc, title, body)
			}
		}
	}

	sitemap := getUntil(t, base+"/sitemap.xml", base+"/open")
	if !strings.Contains(sitemap, base+"/open") {
		t.Fatalf("the sitemap does not list the open page:\n%s", sitemap)
	}
	for _, p := range restricted {
		if strings.Contains(sitemap, "<loc>"+base+p+"</loc>") {
			t.Errorf("/sitemap.xml lists the restricted page %s:\n%s", p, sitemap)
		}
	}

	full := getUntil(t, base+"/llms-full.txt", "opening hours")
	if !strings.Contains(full, "opening hours") {
		t.Fatalf("llms-full.txt lacks the open page:\n%.1500s", full)
	}
	leaks("/llms-full.txt", full)

	for _, q := range []string{"restrictedword", "admin keys", "internal plan", "members list", "staff pay", "lan notes"} {
		_, body := get(t, "GET", base+"/ask?query="+strings.ReplaceAll(q, " ", "+"))
		_, results, found := strings.Cut(body, `"results"`) // the query is echoed before
		if !found {
			t.Fatalf("/ask?query=%s: no results:\n%s", q, body)
		}
		leaks("/ask?query="+q, results)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "outsider-test", Version: "1.0.0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("connecting to MCP: %v", err)
	}
	defer cs.Close()
	for _, p := range append(restricted, "/open") {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_page", Arguments: map[string]any{"url": base + p}})
		if p == "/open" {
			if err != nil || res.IsError || !strings.Contains(toolText(res), "opening hours") {
				t.Errorf("get_page %s: the open page is not served (%v)", p, err)
			}
			continue
		}
		if err == nil && !res.IsError {
			t.Errorf("get_page %s served a restricted page:\n%.500s", p, toolText(res))
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_pages", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	leaks("MCP list_pages", toolText(res))
}

// TestSecurityOwnRequestsOverTLS: on a site served over TLS, the own
// requests arrive as an outside https visitor's (with a TLS connection
// state), so a rule that redirects plain-http visitors to https does not
// send them round in a redirect loop, and the content index holds the
// site's pages.
func TestSecurityOwnRequestsOverTLS(t *testing.T) {
	origin := restrictedOrigin(t)
	dir := t.TempDir()
	yml := filepath.Join(dir, "site.yaml")
	if err := os.WriteFile(yml, []byte("site:\n  name: Secure\nconnect:\n  enabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, admin := runCaddy(t, `{
	admin 127.0.0.1:{admin}
	persist_config off
	storage file_system `+filepath.Join(dir, "storage")+`
	skip_install_trust
	local_certs
	auto_https disable_redirects
}
https://localhost:{port} {
	bind 127.0.0.1
	@plain expression {http.request.scheme} == "http"
	redir @plain https://{host}{uri} 308
	agent_ready {
		config `+yml+`
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}`)
	idx := waitIndex(t, admin, func(s indexStatus) bool { return s.State == "ok" || s.Failures > 0 })
	if idx.State != "ok" || idx.Pages < 2 {
		t.Errorf("the content index did not read the https site: %+v", idx)
	}
}
