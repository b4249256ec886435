package caddymodule

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/caddyauth"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy/forwardauth"
	_ "github.com/caddyserver/caddy/v2/modules/logging"
	"golang.org/x/crypto/bcrypt"
)

// TestSecuritySuffixThroughRouteChain: a page asked for through the
// Markdown suffix passes every handler a request for the page itself would
// pass, with the client's own credentials: basic_auth and forward_auth on
// the page's path, a remote_ip rule, a rewrite in front of the module; the
// origin sees the page's path and request URI, never the suffix. Only HTML
// pages have a suffix form. The page's add-a-slash redirect is followed
// through the chain too: a basic_auth on the exact path /private-dir/
// judges /private-dir/md.
func TestSecuritySuffixThroughRouteChain(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string // request URIs the origin saw
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.RequestURI)
		mu.Unlock()
		switch r.URL.Path {
		case "/favicon.svg":
			w.Header().Set("Content-Type", "image/svg+xml")
			fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg"/>`)
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "User-agent: *\nDisallow: /origin-only\n")
		case "/notes.md":
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			fmt.Fprint(w, "# Notes\n")
		case "/llms.txt":
			http.NotFound(w, r) // the module generates it
		case "/private-dir", "/open-dir":
			http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><html lang=en><head><title>Page %s</title></head><body><main><h1>Heading of %s</h1><p>Body text of the page %s, long enough to be kept.</p></main></body></html>", r.URL.Path, r.URL.Path, r.URL.Path)
		}
	}))
	defer origin.Close()
	// A forward_auth service that lets a request through only with the
	// right token, and never for /staff.html; it reports the URI it judged.
	var authMu sync.Mutex
	var judged []string
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uri := r.Header.Get("X-Forwarded-Uri")
		authMu.Lock()
		judged = append(judged, uri)
		authMu.Unlock()
		if r.Header.Get("X-Team-Token") != "good" || strings.HasPrefix(uri, "/staff.html") {
			http.Error(w, "denied", http.StatusForbidden)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer auth.Close()

	base, _ := runCaddy(t, `:{port} {
	bind 127.0.0.1
	@protected path /index.html /pricing.html
	basic_auth @protected {
		alice `+string(hash)+`
	}
	basic_auth /private-dir/ {
		alice `+string(hash)+`
	}
	@team path /team/* /staff.html
	forward_auth @team `+strings.TrimPrefix(auth.URL, "http://")+` {
		uri /check
	}
	rewrite /old.html /new.html
	route {
		@local {
			path /local-only.html
			remote_ip 127.0.0.1/8
		}
		respond @local "local clients may not read this" 403
		agent_ready {
			self_scan off
		}
		reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
	}
}
`)
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:s3cret"))
	md := "text/markdown"
	for _, tc := range []struct {
		name   string
		path   string
		hdr    []string
		status int
		body   string // a substring of the body, when the status is 200
		ctype  string
	}{
		{"basic_auth: negotiated, no credentials", "/index.html", []string{"Accept", md}, 401, "", ""},
		{"basic_auth: suffix, no credentials", "/index.html/md", nil, 401, "", ""},
		{"basic_auth: suffix, wrong password", "/pricing.html/md", []string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:nope"))}, 401, "", ""},
		{"basic_auth: suffix with the client's credentials", "/index.html/md", []string{"Authorization", basic}, 200, "# Heading of /index.html", md},
		{"forward_auth: suffix, no token", "/team/plan.html/md", nil, 403, "", ""},
		{"forward_auth: suffix with the client's token", "/team/plan.html/md", []string{"X-Team-Token", "good"}, 200, "# Heading of /team/plan.html", md},
		{"forward_auth: judged on the page's path", "/staff.html/md", []string{"X-Team-Token", "good"}, 403, "", ""},
		{"remote_ip: negotiated", "/local-only.html", []string{"Accept", md}, 403, "", ""},
		{"remote_ip: suffix", "/local-only.html/md", nil, 403, "", ""},
		{"rewrite in front applies to the page", "/old.html/md", nil, 200, "# Heading of /new.html", md},
		{"open page", "/about.html/md", nil, 200, "# Heading of /about.html", md},
		{"non-HTML: an image has no Markdown form", "/favicon.svg/md", nil, 404, "", ""},
		{"non-HTML: robots.txt has no Markdown form", "/robots.txt/md", nil, 404, "", ""},
		{"non-HTML: a generated document has none", "/llms.txt/md", nil, 404, "", ""},
		{"the origin's own Markdown goes through", "/notes.md/md", nil, 200, "# Notes", md},
		{"basic_auth on the slash: the page itself", "/private-dir/", []string{"Accept", md}, 401, "", ""},
		{"basic_auth on the slash: suffix, no credentials", "/private-dir/md", nil, 401, "", ""},
		{"basic_auth on the slash: suffix with credentials", "/private-dir/md", []string{"Authorization", basic}, 200, "# Heading of /private-dir/", md},
		{"the slash redirect followed", "/open-dir/md", nil, 200, "# Heading of /open-dir/", md},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, "GET", base+tc.path, tc.hdr...)
			if resp.StatusCode != tc.status {
				t.Fatalf("%s: %d, want %d\n%s", tc.path, resp.StatusCode, tc.status, body)
			}
			if tc.status != 200 {
				if strings.Contains(body, "Body text") {
					t.Errorf("%s: the page's content leaked in a %d:\n%s", tc.path, resp.StatusCode, body)
				}
				return
			}
			if !strings.Contains(body, tc.body) {
				t.Errorf("%s: body lacks %q:\n%s", tc.path, tc.body, body)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, tc.ctype) {
				t.Errorf("%s: Content-Type %q, want %s", tc.path, ct, tc.ctype)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	private := 0
	for _, uri := range seen {
		if strings.Contains(uri, "/md") {
			t.Errorf("the origin was asked for a suffix URI %q", uri)
		}
		if uri == "/private-dir/" {
			private++
		}
	}
	if private != 1 {
		t.Errorf("the origin served /private-dir/ %d times, want once (to the client with credentials): %q", private, seen)
	}
	// The client's request is judged as it came (/team/plan.html/md), then
	// the page's request as the page's (/team/plan.html, /staff.html).
	authMu.Lock()
	defer authMu.Unlock()
	got := strings.Join(judged, " ")
	for _, uri := range []string{"/team/plan.html", "/staff.html"} {
		if !strings.Contains(got+" ", uri+" ") {
			t.Errorf("forward_auth never judged the page %s: %q", uri, got)
		}
	}
}

// TestSecurityInternalRequestsNotLogged: neither the self-scan's requests
// nor the inner request of a suffix URL reach the access log (the client's
// own request does, once), and no log line names a marker.
func TestSecurityInternalRequestsNotLogged(t *testing.T) {
	dir := t.TempDir()
	accessLog := filepath.Join(dir, "access.log")
	origin := newOrigin(t)
	defer origin.Close()
	base, admin := runCaddy(t, `{
	admin 127.0.0.1:{admin}
	persist_config off
	log {
		output file `+filepath.Join(dir, "all.log")+`
		level DEBUG
	}
}
:{port} {
	bind 127.0.0.1
	log {
		output file `+accessLog+`
	}
	agent_ready {
		self_scan {
			delay 10ms
			timeout 30s
			pages 2
		}
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}
`)
	waitReport(t, admin)
	if resp, _ := get(t, "GET", base+"/pricing/md"); resp.StatusCode != 200 {
		t.Fatalf("/pricing/md: %d", resp.StatusCode)
	}
	if resp, _ := get(t, "GET", base+"/robots.txt/md"); resp.StatusCode != 404 {
		t.Fatalf("/robots.txt/md: %d", resp.StatusCode)
	}
	acc, err := os.ReadFile(accessLog)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, line := range strings.Split(strings.TrimSpace(string(acc)), "\n") {
		if i := strings.Index(line, `"uri":"`); i >= 0 {
			rest := line[i+len(`"uri":"`):]
			uris = append(uris, rest[:strings.IndexByte(rest, '"')])
		}
	}
	if strings.Join(uris, " ") != "/pricing/md /robots.txt/md" {
		t.Errorf("access log has %q, want exactly the two client requests", uris)
	}
	all, err := os.ReadFile(filepath.Join(dir, "all.log"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(string(all)+string(acc)), "agent-ready-self-scan") {
		t.Errorf("a marker header is in the logs")
	}
}

// TestSecurityCacheControlNeverWidens: a configured public cache_control
// never reaches the Markdown of a page the origin marked private or
// no-store, of a page that sets a cookie, or of a request with
// credentials; the HTML and Markdown forms agree on what is private.
func TestSecurityCacheControlNeverWidens(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/account":
			w.Header().Set("Cache-Control", "private, no-store")
			w.Header().Set("Set-Cookie", "session=u1; HttpOnly")
		case "/private":
			w.Header().Set("Cache-Control", "private, max-age=60")
		case "/cookie":
			w.Header().Set("Set-Cookie", "seen=1")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body><main><h1>%s</h1><p>Some text for %s.</p></main></body></html>", r.URL.Path, r.URL.Path, r.URL.Path)
	}))
	defer origin.Close()
	base, _ := runCaddy(t, `:{port} {
	bind 127.0.0.1
	agent_ready {
		cache_control "public, max-age=300"
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}
`)
	for _, tc := range []struct {
		path, cred, wantCC, wantCookie string
	}{
		{"/public", "", "public, max-age=300", ""},
		{"/account", "", "private, no-store", "session=u1; HttpOnly"},
		{"/private", "", "max-age=300, private", ""},
		{"/cookie", "", "max-age=300, private", "seen=1"},
		{"/public", "Authorization", "max-age=300, private", ""},
		{"/public", "Cookie", "max-age=300, private", ""},
	} {
		for _, suffix := range []string{"", "/md"} {
			hdr := []string{"Accept", "text/markdown"}
			if tc.cred != "" {
				hdr = append(hdr, tc.cred, "x")
			}
			resp, _ := get(t, "GET", base+tc.path+suffix, hdr...)
			name := tc.path + suffix + " " + tc.cred
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
				t.Fatalf("%s: %d %s", name, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if got := resp.Header.Get("Cache-Control"); got != tc.wantCC {
				t.Errorf("%s: Cache-Control %q, want %q", name, got, tc.wantCC)
			}
			if got := resp.Header.Get("Set-Cookie"); got != tc.wantCookie {
				t.Errorf("%s: Set-Cookie %q, want %q", name, got, tc.wantCookie)
			}
		}
	}
}
