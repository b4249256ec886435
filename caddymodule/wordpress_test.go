//go:build linux

package caddymodule

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy/fastcgi"
)

// TestWordPress drives Caddy, agent_ready and php_fastcgi over a real
// WordPress (Debian's package, installed and seeded by the harness): the
// negotiation basics, then the seven points of issue #19, first with the set-up
// a WordPress owner writes first (a three-line YAML, nothing else), then
// with examples/wordpress.caddyfile.
//
//	go test ./caddymodule -run TestWordPress -v
//
// It needs Debian's wordpress, mariadb-server, php-fpm, php-mysql, php-xml
// and php-cli; without them it is skipped, unless CI is set.
func TestWordPress(t *testing.T) {
	tools := needWordPress(t)
	wp := startWordPress(t, tools)
	post, about, category := wp.path(t, "post"), wp.path(t, "about"), wp.path(t, "category")

	t.Run("first set-up", func(t *testing.T) {
		// A second site block serves the same WordPress without the module,
		// to compare bytes with: requests to it carry the site's Host.
		plainPort := freePort(t)
		base, admin := runCaddyAt(t, wp.port, wordpressCaddyfile(t, wp)+fmt.Sprintf(`
http://127.0.0.1:%d {
	root * %s
	php_fastcgi unix/%s
	file_server
}
`, plainPort, wp.root, wp.fpm))
		plain := func(path string, hdr ...string) (*http.Response, string) {
			return wpGet(t, nil, "GET", fmt.Sprintf("http://127.0.0.1:%d%s", plainPort, path), wp.base, hdr...)
		}
		md := func(path string) (*http.Response, string) {
			return wpGet(t, nil, "GET", base+path, "", "Accept", "text/markdown")
		}

		t.Run("basics: a browser gets WordPress's HTML byte for byte, plus the annotations", func(t *testing.T) {
			for _, p := range []string{"/", post, about, category, "/?s=caddy"} {
				resp, body := wpGet(t, nil, "GET", base+p, "", "Accept", browserAccept)
				_, orig := plain(p, "Accept", browserAccept)
				if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
					t.Fatalf("%s: %d %q", p, resp.StatusCode, resp.Header.Get("Content-Type"))
				}
				if got := stripAnnotations(body); got != orig {
					t.Errorf("%s: the HTML differs from WordPress's beyond the annotations (%d vs %d bytes)", p, len(got), len(orig))
				}
				if !strings.Contains(body, `<link rel="alternate" type="text/markdown" href="`) {
					t.Errorf("%s: no head link to the Markdown alternate", p)
				}
				assertVaryAccept(t, resp)
			}
		})

		t.Run("basics: Markdown of posts, pages, archives and search", func(t *testing.T) {
			resp, body := md(post)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
				t.Fatalf("post: %d %q\n%.300s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
			for _, want := range []string{
				"---\ntitle: Configuring the reverse proxy\n", "canonical: " + base + post + "\n",
				"# Configuring the reverse proxy\n", "## Before you start\n", "- php-fpm listening on a socket\n",
				"```\nphp_fastcgi unix//run/php/php8.2-fpm.sock\n```\n", "| Directive | Purpose |\n|---|---|\n",
				"![Request flow from Caddy to php-fpm](" + base + "/wp-content/uploads/2024/05/request-flow.png)",
			} {
				if !strings.Contains(body, want) {
					t.Errorf("post Markdown lacks %q:\n%s", want, body)
				}
			}
			if n, _ := strconv.Atoi(resp.Header.Get("X-Markdown-Tokens")); n <= 0 || resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("tokens %q, length %q for %d bytes", resp.Header.Get("X-Markdown-Tokens"), resp.Header.Get("Content-Length"), len(body))
			}
			for p, want := range map[string]string{
				about:       "# About\n\nThis site collects notes on running Caddy.",
				category:    "# Category: Guides\n",
				"/?s=caddy": "[Configuring the reverse proxy](" + base + post + ")",
				"/":         "[Caching pages at the edge](" + base + wp.path(t, "second") + ")",
			} {
				resp, body := md(p)
				if resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" || !strings.Contains(body, want) {
					t.Errorf("%s: %q, want %q in\n%s", p, resp.Header.Get("Content-Type"), want, body)
				}
			}
		})

		t.Run("basics: 404s, redirects, feeds and the REST API pass through", func(t *testing.T) {
			for _, tc := range []struct {
				path   string
				status int
				ctype  string
			}{
				{"/no-such-page/", 404, "text/html"},
				{"/?p=" + wp.Seeded["post_id"], 301, ""},
				{"/feed/", 200, "application/rss+xml"},
				{"/wp-json/", 200, "application/json"},
			} {
				for _, accept := range []string{browserAccept, "text/markdown"} {
					resp, body := wpGet(t, nil, "GET", base+tc.path, "", "Accept", accept)
					oresp, orig := plain(tc.path, "Accept", accept)
					if resp.StatusCode != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) {
						t.Errorf("%s (%s): %d %q, want %d %q", tc.path, accept, resp.StatusCode, resp.Header.Get("Content-Type"), tc.status, tc.ctype)
					}
					if tc.status == 301 && resp.Header.Get("Location") != oresp.Header.Get("Location") {
						t.Errorf("%s: Location %q, WordPress says %q", tc.path, resp.Header.Get("Location"), oresp.Header.Get("Location"))
					}
					if tc.status != 404 && body != orig { // a 404 page is HTML: it gains the annotations
						t.Errorf("%s (%s): the body differs from WordPress's", tc.path, accept)
					}
				}
			}
			_, robots := wpGet(t, nil, "GET", base+"/robots.txt", "")
			if !strings.Contains(robots, "Disallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n") {
				t.Errorf("WordPress's robots.txt lines lost:\n%s", robots)
			}
		})

		t.Run("1: every advertised /md URL answers the page's Markdown", func(t *testing.T) {
			for _, p := range []string{"/", post, about, category, "/?s=caddy"} {
				resp, _ := wpGet(t, nil, "GET", base+p, "", "Accept", browserAccept)
				href := markdownLink(resp)
				if href == "" {
					t.Errorf("%s: no Markdown alternate in Link", p)
					continue
				}
				mresp, body := wpGet(t, nil, "GET", base+href, "")
				if mresp.StatusCode != 200 || mresp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
					t.Errorf("%s advertises %s, which answers %d %q", p, href, mresp.StatusCode, mresp.Header.Get("Content-Type"))
					continue
				}
				if _, direct := md(p); body != direct {
					t.Errorf("%s: the suffix URL %s answers another Markdown than Accept does", p, href)
				}
			}
		})

		t.Run("2: the canonical is the page the client asked for, or none", func(t *testing.T) {
			for p, want := range map[string]string{
				"/":       base + "/",
				category:  base + category,
				post:      base + post, // WordPress's own
				"/?s=x":   "",          // a query: the public URL is unknown
				"/?p=999": "",
			} {
				_, body := wpGet(t, nil, "GET", base+p, "", "Accept", browserAccept)
				if strings.Contains(body, "index.php") {
					t.Errorf("%s: a path rewritten inside the server shows in the page", p)
				}
				got := regexp.MustCompile(`<link rel=['"]canonical['"] href=['"]([^'"]*)['"]`).FindAllStringSubmatch(body, -1)
				switch {
				case want == "" && len(got) != 0:
					t.Errorf("%s: canonical %q injected on a page whose public URL is unknown", p, got)
				case want != "" && (len(got) != 1 || got[0][1] != want):
					t.Errorf("%s: canonical %q, want one, %s", p, got, want)
				}
				if want != "" {
					if _, body := md(p); !strings.Contains(body, "canonical: "+want+"\n") {
						t.Errorf("%s: front matter canonical, want %s:\n%.300s", p, want, body)
					}
				}
			}
		})

		t.Run("3: the self-scan scans the site's own address and says why", func(t *testing.T) {
			st := waitReport(t, admin)
			if st.Target != base+"/" || !strings.Contains(st.Why, "host 127.0.0.1") {
				t.Errorf("self-scan target %q (%s), want %s/ from the site block's host", st.Target, st.Why, base)
			}
			// A site that read nothing scores far lower. R9 applies here
			// (every page advertises the REST API with Link
			// rel="https://api.w.org/", and the comment form writes) and no backend interface is declared
			// in the forms the standard reads, so its 10 points are honestly
			// lost: 67.8 with the default set-up.
			if st.Score == nil || *st.Score < 60 {
				t.Errorf("self-score %v: the scan did not read the site", st.Score)
			} else {
				t.Logf("self-score %.1f", *st.Score)
			}
			_, rep := wpGet(t, nil, "GET", admin+"/agent-ready/report.md", "")
			if !strings.Contains(rep, "Address scanned: "+base+"/ (") {
				t.Errorf("the report does not say which address it scanned:\n%.500s", rep)
			}
		})

		t.Run("4: no theme chrome in the Markdown", func(t *testing.T) {
			_, body := md(post)
			for _, chrome := range []string{"Posted", "Tags:", "[Guides](", "Comments", "Ada", "Worked the first time", "Leave a Reply", "Email", "Save my name"} {
				if strings.Contains(body, chrome) {
					t.Errorf("post Markdown keeps theme chrome %q:\n%s", chrome, body)
				}
			}
		})

		t.Run("5: updated and published from the post's <time>", func(t *testing.T) {
			_, body := md(post)
			if !strings.Contains(body, "\nupdated: 2024-05-14\npublished: 2024-05-14\n") {
				t.Errorf("post front matter lacks the dates:\n%.400s", body)
			}
			if _, body := md(category); !strings.Contains(body, "\nupdated: 2024-05-14\n") || strings.Contains(body, "published:") {
				t.Errorf("archive front matter: updated at its newest post, published at none:\n%.400s", body)
			}
		})

		t.Run("6: one sitemap, WordPress's, named everywhere", func(t *testing.T) {
			sitemap := base + "/wp-sitemap.xml"
			var llms, agents string
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				_, llms = wpGet(t, nil, "GET", base+"/llms.txt", "")
				_, agents = wpGet(t, nil, "GET", base+"/agents.json", "")
				if strings.Contains(llms, sitemap) || time.Now().After(deadline) {
					break
				}
			}
			_, robots := wpGet(t, nil, "GET", base+"/robots.txt", "")
			if n := strings.Count(robots, "Sitemap:"); n != 1 || !strings.Contains(robots, "Sitemap: "+sitemap+"\n") {
				t.Errorf("robots.txt has %d Sitemap: lines, want WordPress's only:\n%s", n, robots)
			}
			if !strings.Contains(llms, "- Find every page in "+sitemap+".\n") {
				t.Errorf("llms.txt does not name %s:\n%s", sitemap, llms)
			}
			if !strings.Contains(agents, `"sitemap": "`+sitemap+`"`) {
				t.Errorf("agents.json does not name %s:\n%s", sitemap, agents)
			}
			if resp, body := wpGet(t, nil, "GET", sitemap, ""); resp.StatusCode != 200 || !strings.Contains(body, "<sitemapindex") {
				t.Errorf("%s: %d", sitemap, resp.StatusCode)
			}
		})

		t.Run("7: HEAD for Markdown carries the length of GET", func(t *testing.T) {
			resp, body := wpGet(t, nil, "HEAD", base+post, "", "Accept", "text/markdown")
			_, get := md(post)
			if body != "" || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" || resp.Header.Get("Content-Length") != strconv.Itoa(len(get)) {
				t.Errorf("HEAD: %q, Content-Length %q, GET's Markdown is %d bytes", resp.Header.Get("Content-Type"), resp.Header.Get("Content-Length"), len(get))
			}
		})

		t.Run("7: signed in, an advertised /md URL of the admin works", func(t *testing.T) {
			jar := wpLogin(t, base, wp.pass)
			resp, _ := wpGet(t, jar, "GET", base+"/wp-admin/", "", "Accept", browserAccept)
			if resp.StatusCode != 200 {
				t.Fatalf("/wp-admin/ signed in: %d", resp.StatusCode)
			}
			if href := markdownLink(resp); href != "" {
				if mresp, _ := wpGet(t, jar, "GET", base+href, ""); mresp.StatusCode != 200 {
					t.Errorf("/wp-admin/ advertises %s, which answers %d", href, mresp.StatusCode)
				}
			}
		})
	})

	t.Run("examples/wordpress.caddyfile", func(t *testing.T) {
		base, _ := runCaddyAt(t, wp.port, exampleWordPressCaddyfile(t, wp))
		if _, body := wpGet(t, nil, "GET", base+post, "", "Accept", "text/markdown"); !strings.Contains(body, "# Configuring the reverse proxy\n") {
			t.Errorf("post Markdown:\n%.300s", body)
		}
		if resp, body := wpGet(t, nil, "GET", base+post+"md/", ""); resp.StatusCode != 200 || !strings.Contains(body, "# Configuring the reverse proxy\n") {
			t.Errorf("%smd/: %d\n%.300s", post, resp.StatusCode, body)
		}
		jar := wpLogin(t, base, wp.pass)
		for _, p := range []string{"/wp-admin/", "/wp-admin/edit.php"} {
			resp, body := wpGet(t, jar, "GET", base+p, "", "Accept", "text/markdown")
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				t.Errorf("%s signed in, asking for Markdown: %d %q, want WordPress's HTML", p, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if markdownLink(resp) != "" || strings.Contains(body, `type="text/markdown"`) {
				t.Errorf("%s advertises a Markdown alternate", p)
			}
		}
		if resp, _ := wpGet(t, nil, "GET", base+"/wp-login.php", "", "Accept", "text/markdown"); !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("/wp-login.php converted: %q", resp.Header.Get("Content-Type"))
		}
	})
}

// browserAccept is what a browser sends.
const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

// wordpressCaddyfile is the set-up a WordPress owner writes first (issue
// #19): encode, agent_ready with a three-line YAML, php_fastcgi and
// file_server, on the address WordPress knows itself by.
func wordpressCaddyfile(t *testing.T, wp *wordpressSite) string {
	yaml := filepath.Join(t.TempDir(), "site.yaml")
	writeFile(t, yaml, "site:\n  name: Caddy Notes\n  description: Notes on running Caddy in front of WordPress.\n")
	return strings.NewReplacer("{root}", wp.root, "{fpm}", wp.fpm, "{yaml}", yaml).Replace(`
http://127.0.0.1:{port} {
	root * {root}
	encode gzip
	agent_ready {
		config {yaml}
		self_scan {
			delay 50ms
		}
	}
	php_fastcgi unix/{fpm}
	file_server
}
`)
}

// exampleWordPressCaddyfile is examples/wordpress.caddyfile on this
// machine's WordPress: its address, paths and socket replaced.
func exampleWordPressCaddyfile(t *testing.T, wp *wordpressSite) string {
	raw, err := os.ReadFile(filepath.Join("..", "examples", "wordpress.caddyfile"))
	if err != nil {
		t.Fatal(err)
	}
	yaml := filepath.Join(t.TempDir(), "site.yaml")
	writeFile(t, yaml, "site:\n  name: Caddy Notes\n")
	text := strings.NewReplacer(
		"example.com {", "http://127.0.0.1:{port} {",
		"/usr/share/wordpress", wp.root,
		"config site.yaml", "config "+yaml+"\n\t\tself_scan off",
		"unix//run/php/php8.2-fpm.sock", "unix/"+wp.fpm,
	).Replace(string(raw))
	for _, s := range []string{"example.com", "/etc/caddy", "/run/php"} {
		if strings.Contains(text, s) {
			t.Fatalf("examples/wordpress.caddyfile changed: %q left in\n%s", s, text)
		}
	}
	return text
}

// path returns the path of a seeded permalink.
func (wp *wordpressSite) path(t *testing.T, name string) string {
	t.Helper()
	u, err := url.Parse(wp.Seeded[name])
	if err != nil || u.Path == "" {
		t.Fatalf("no seeded %s: %v", name, wp.Seeded)
	}
	return u.Path
}

// annotations are what agent_ready inserts into a page's head.
var annotations = regexp.MustCompile(`<link rel="alternate" type="text/markdown" href="[^"]*">|<link rel="canonical" href="[^"]*">|<script type="application/ld\+json">[^<]*</script>|<link rel="ard"[^>]*>`)

// stripAnnotations removes what agent_ready inserted, leaving the origin's
// bytes.
func stripAnnotations(body string) string {
	return annotations.ReplaceAllString(body, "")
}

// markdownLink returns the target of the response's Link to the Markdown
// alternate, "" for none.
func markdownLink(resp *http.Response) string {
	for _, v := range resp.Header.Values("Link") {
		for _, l := range strings.Split(v, ",") {
			if strings.Contains(l, `type="text/markdown"`) {
				target, _, _ := strings.Cut(strings.TrimSpace(l), ">")
				return strings.TrimPrefix(target, "<")
			}
		}
	}
	return ""
}

// wpGet is get with a cookie jar and an optional Host (for the block
// without the module, which must look like the site to WordPress).
func wpGet(t *testing.T, jar http.CookieJar, method, u, host string, hdr ...string) (*http.Response, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = strings.TrimPrefix(host, "http://")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	client := &http.Client{
		Jar:       jar,
		Transport: &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading %s: %v", u, err)
	}
	return resp, string(body)
}

// wpLogin signs in as the administrator and returns the cookies.
func wpLogin(t *testing.T, base, pass string) http.CookieJar {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(base)
	jar.SetCookies(u, []*http.Cookie{{Name: "wordpress_test_cookie", Value: "WP Cookie check"}})
	form := url.Values{"log": {"admin"}, "pwd": {pass}, "wp-submit": {"Log In"}, "redirect_to": {base + "/wp-admin/"}, "testcookie": {"1"}}
	req, _ := http.NewRequest("POST", base+"/wp-login.php", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("signing in: %d", resp.StatusCode)
	}
	return jar
}
