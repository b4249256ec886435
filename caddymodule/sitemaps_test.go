package caddymodule

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// sitemapOrigin serves robots.txt (with robotsSitemap as its Sitemap:
// line, "" for none), redirects for the paths in redirects, a sitemap at
// each path of sitemaps, and 404 for the rest.
func sitemapOrigin(t *testing.T, robotsSitemap string, redirects map[string]string, sitemaps ...string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		if to, ok := redirects[r.URL.Path]; ok {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		for _, p := range sitemaps {
			if r.URL.Path == p {
				w.Header().Set("Content-Type", "application/xml")
				fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet type="text/xsl" href="/wp-sitemap.xsl" ?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/wp-sitemap-posts-post-1.xml</loc></sitemap></sitemapindex>`, base)
				return
			}
		}
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprint(w, "User-agent: *\nDisallow: /wp-admin/\n")
			if robotsSitemap != "" {
				fmt.Fprintf(w, "\nSitemap: %s%s\n", base, robotsSitemap)
			}
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<!doctype html><title>Home</title><main><h1>Home</h1></main>")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestIntegrationSitemapDiscovery: the origin's own sitemap, named in its
// robots.txt or served where CMSs serve it, is the one robots.txt,
// llms.txt and agents.json name, before the module offers its own; a
// Sitemap: line that redirects or 404s is never added.
func TestIntegrationSitemapDiscovery(t *testing.T) {
	for _, tc := range []struct {
		name      string
		origin    func(t *testing.T) *httptest.Server
		want      string // the sitemap named, "" for none
		robotsOne bool   // robots.txt has exactly one Sitemap: line
	}{
		{"wordpress: robots names wp-sitemap.xml, /sitemap.xml redirects", func(t *testing.T) *httptest.Server {
			return sitemapOrigin(t, "/wp-sitemap.xml", map[string]string{"/sitemap.xml": "/wp-sitemap.xml"}, "/wp-sitemap.xml")
		}, "/wp-sitemap.xml", true},
		{"a cms location, robots silent", func(t *testing.T) *httptest.Server {
			return sitemapOrigin(t, "", map[string]string{"/sitemap.xml": "/sitemap_index.xml"}, "/sitemap_index.xml")
		}, "/sitemap_index.xml", true},
		{"wordpress core, robots silent", func(t *testing.T) *httptest.Server {
			return sitemapOrigin(t, "", map[string]string{"/sitemap.xml": "/wp-sitemap.xml"}, "/wp-sitemap.xml")
		}, "/wp-sitemap.xml", true},
		{"none: the module's own", func(t *testing.T) *httptest.Server {
			return sitemapOrigin(t, "", nil)
		}, "/sitemap.xml", true},
		{"only a redirect off the site: none named", func(t *testing.T) *httptest.Server {
			return sitemapOrigin(t, "", map[string]string{"/sitemap.xml": "https://elsewhere.example/sitemap.xml"})
		}, "", false},
		{"robots names one that 404s: the module's own", func(t *testing.T) *httptest.Server {
			return sitemapOrigin(t, "/gone.xml", nil)
		}, "/sitemap.xml", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			origin := tc.origin(t)
			port := freePort(t)
			base, _ := runCaddyAt(t, port, `
http://127.0.0.1:{port} {
	agent_ready {
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}
`)
			want := ""
			if tc.want != "" {
				want = base + tc.want
			}
			var llms, agents, robots string
			deadline := time.Now().Add(10 * time.Second)
			for {
				_, llms = get(t, "GET", base+"/llms.txt")
				_, agents = get(t, "GET", base+"/agents.json")
				_, robots = get(t, "GET", base+"/robots.txt")
				named := strings.Contains(llms, "- Find every page in "+want+".\n") && strings.Contains(agents, `"sitemap": "`+want+`"`)
				if want == "" {
					named = !strings.Contains(llms, "sitemap") && !strings.Contains(agents, `"sitemap"`)
				}
				if named || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if want != "" && !strings.Contains(llms, "- Find every page in "+want+".\n") {
				t.Errorf("llms.txt does not name %s:\n%s", want, llms)
			}
			if want == "" && strings.Contains(llms, "sitemap") {
				t.Errorf("llms.txt names a sitemap that does not answer:\n%s", llms)
			}
			if want != "" && !strings.Contains(agents, `"sitemap": "`+want+`"`) || want == "" && strings.Contains(agents, `"sitemap"`) {
				t.Errorf("agents.json sitemap, want %q:\n%s", want, agents)
			}
			lines := strings.Count(robots, "Sitemap:")
			if tc.robotsOne && (lines != 1 || !strings.Contains(robots, "Sitemap: "+want+"\n")) {
				t.Errorf("robots.txt, want one Sitemap: line for %s:\n%s", want, robots)
			}
			// Every Sitemap: line the module adds answers 200 itself (the
			// origin's own lines are the origin's, kept as they are).
			_, added, _ := strings.Cut(robots, "# Added by agent_ready")
			for _, line := range strings.Split(added, "\n") {
				if u, ok := strings.CutPrefix(line, "Sitemap: "); ok && strings.HasPrefix(u, base) {
					if resp, _ := get(t, "GET", u); resp.StatusCode != http.StatusOK {
						t.Errorf("robots.txt names %s, which answers %d", u, resp.StatusCode)
					}
				}
			}
		})
	}
}
