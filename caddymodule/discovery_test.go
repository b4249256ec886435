package caddymodule

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/agentready/caddy-agentready/discover"
)

// widgetSite is the site the discovery tests crawl: no sitemap, a
// robots.txt that keeps /private/ out, a noindex draft, guides two links
// deep. Each page has a description and, after its first paragraph, filler
// (when not empty) in a paragraph of its own.
func widgetSite(filler string) http.HandlerFunc {
	page := func(w http.ResponseWriter, title, extra string, links ...string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html lang=en><head><title>%s</title><meta name=description content=\"About %s.\">%s</head><body><main><h1>%s</h1><p>How to %s with widgets, explained step by step.</p>", title, strings.ToLower(title), extra, title, strings.ToLower(title))
		if filler != "" {
			fmt.Fprintf(w, "<p>%s</p>", filler)
		}
		for _, l := range links {
			fmt.Fprintf(w, "<a href=%q>%s</a> ", l, l)
		}
		io.WriteString(w, "</main></body></html>")
	}
	return func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		case "/":
			page(w, "Home", "", "/guides/", "/private/keys", "/drafts/next")
		case "/guides/":
			page(w, "Guides", "", "/guides/csv", "/guides/billing")
		case "/guides/csv":
			page(w, "Read and write CSV files", "")
		case "/guides/billing":
			page(w, "Billing", "", "/")
		case "/drafts/next":
			page(w, "Draft", `<meta name="robots" content="noindex">`)
		case "/private/keys":
			page(w, "Keys", "")
		default:
			http.NotFound(w, r)
		}
	}
}

// TestIntegrationDiscoveryWithoutSitemap: a site with no sitemap is
// discovered through Caddy by a crawl that obeys the origin's robots.txt
// and noindex; the generated sitemap and llms.txt list exactly the pages
// found (with their titles), and /ask answers with the public origin's
// URLs, never the address the module reaches the site at.
func TestIntegrationDiscoveryWithoutSitemap(t *testing.T) {
	origin := httptest.NewServer(widgetSite(""))
	t.Cleanup(origin.Close)
	base := runWithYAML(t, origin.URL, "site:\n  name: Widgets\n  origin: https://widgets.example\n"+
		"llms:\n  auto_list:\n    enabled: true\n    section: Everything\nconnect:\n  enabled: true\n")

	deadline := time.Now().Add(20 * time.Second) // for the sitemap and /ask together
	sitemap := getUntil(t, base+"/sitemap.xml", "/guides/csv")
	for _, want := range []string{"https://widgets.example/", "https://widgets.example/guides/", "https://widgets.example/guides/csv", "https://widgets.example/guides/billing"} {
		if !strings.Contains(sitemap, "<loc>"+want+"</loc>") {
			t.Errorf("the generated sitemap lacks %s:\n%s", want, sitemap)
		}
	}
	for _, not := range []string{"/private/keys", "/drafts/next", "127.0.0.1"} {
		if strings.Contains(sitemap, not) {
			t.Errorf("the generated sitemap lists %s (robots.txt, noindex or the internal address):\n%s", not, sitemap)
		}
	}
	_, llms := get(t, "GET", base+"/llms.txt")
	if !strings.Contains(llms, "[Read and write CSV files](https://widgets.example/guides/csv)") {
		t.Errorf("llms.txt does not list the discovered page with its title:\n%s", llms)
	}
	var answer string
	for time.Now().Before(deadline) {
		var resp *http.Response
		resp, answer = get(t, "GET", base+"/ask?query=read+and+write+CSV+files")
		if resp.StatusCode == 200 && strings.Contains(answer, "/guides/csv") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(answer, "https://widgets.example/guides/csv") || strings.Contains(answer, "127.0.0.1") {
		t.Errorf("/ask does not answer with the public URL of the page:\n%s", answer)
	}
}

// TestIntegrationDiscoveryZeroConfig: with no YAML at all, the generated
// sitemap lists the pages a crawl finds when the origin has no sitemap (the
// crawl starts on the first request for a generated document, the self-scan
// being off); an origin with its own sitemap is not crawled.
func TestIntegrationDiscoveryZeroConfig(t *testing.T) {
	for _, ownSitemap := range []bool{false, true} {
		t.Run(fmt.Sprintf("own sitemap %v", ownSitemap), func(t *testing.T) {
			var mu sync.Mutex
			seen := map[string]int{}
			origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen[r.URL.Path]++
				mu.Unlock()
				html := func(body string) {
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					io.WriteString(w, "<!doctype html><html><head><title>t</title></head><body><main>"+body+"</main></body></html>")
				}
				switch r.URL.Path {
				case "/sitemap.xml":
					if !ownSitemap {
						http.NotFound(w, r)
						return
					}
					w.Header().Set("Content-Type", "application/xml")
					fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://%s/</loc></url></urlset>`, r.Host)
				case "/":
					html(`<a href="/a">a</a> <a href="/b">b</a>`)
				case "/a":
					html(`<a href="/a/deep">deep</a>`)
				case "/b", "/a/deep":
					html("leaf")
				default:
					http.NotFound(w, r)
				}
			}))
			t.Cleanup(origin.Close)
			port := freePort(t)
			base, _ := runCaddyAt(t, port, `
http://127.0.0.1:{port} {
	agent_ready {
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}
`)
			get(t, "GET", base+"/llms.txt") // the first generated document: the finder runs
			if ownSitemap {
				_, sm := get(t, "GET", base+"/sitemap.xml")
				if !strings.Contains(sm, "<loc>http://127.0.0.1:") {
					t.Errorf("the origin's sitemap is not the one served:\n%s", sm)
				}
				time.Sleep(300 * time.Millisecond) // give a wrong crawl the time to show
				mu.Lock()
				defer mu.Unlock()
				if seen["/a"] != 0 || seen["/a/deep"] != 0 {
					t.Errorf("a site with its own sitemap was crawled: %v", seen)
				}
				return
			}
			sitemap := getUntil(t, base+"/sitemap.xml", "/a/deep<")
			for _, p := range []string{"/", "/a", "/b", "/a/deep"} {
				if !strings.Contains(sitemap, "<loc>"+base+p+"</loc>") {
					t.Errorf("the generated sitemap lacks %s:\n%s", p, sitemap)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for _, p := range []string{"/", "/a", "/b", "/a/deep"} {
				// Once by the crawl (never by the sitemap finder), at most
				// once more as Markdown for llms-full.txt.
				if seen[p] < 1 || seen[p] > 2 {
					t.Errorf("%s requested %d times: %v", p, seen[p], seen)
				}
			}
			// The crawl started from what the sitemap finder read (the
			// test's own GETs of /sitemap.xml reach the origin too).
			for _, p := range []string{"/robots.txt", "/wp-sitemap.xml", "/sitemap_index.xml"} {
				if seen[p] != 1 {
					t.Errorf("%s requested %d times, want once: %v", p, seen[p], seen)
				}
			}
		})
	}
}

// TestIntegrationSitemapParts: a site of more than 50,000 pages gets a
// generated sitemap index whose parts answer at /sitemap-N.xml through
// Caddy, with the XML content type, validators and 304. The page list is
// the one a previous config of the site left (pageLists), as after a
// reload, so no 50,001-page crawl is needed.
func TestIntegrationSitemapParts(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><title>Home</title><main>home</main>")
	}))
	t.Cleanup(origin.Close)
	port := freePort(t)
	key := fmt.Sprintf("http://127.0.0.1:%d", port)
	res := &discover.Result{Source: "crawl"}
	for i := range 50_001 {
		res.Pages = append(res.Pages, discover.Page{URL: fmt.Sprintf("%s/p/%d", key, i)})
	}
	val, _, err := pageLists.LoadOrNew(key, func() (caddy.Destructor, error) { return &pageList{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	val.(*pageList).set(res)
	t.Cleanup(func() { _, _ = pageLists.Delete(key) })
	base, _ := runCaddyAt(t, port, `
http://127.0.0.1:{port} {
	agent_ready {
		self_scan off
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}
`)
	_, index := get(t, "GET", base+"/sitemap.xml")
	if !strings.Contains(index, "<sitemapindex") || !strings.Contains(index, "<loc>"+base+"/sitemap-2.xml</loc>") {
		t.Fatalf("/sitemap.xml is not an index of the parts:\n%.500s", index)
	}
	resp, part := get(t, "GET", base+"/sitemap-2.xml")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/xml; charset=utf-8" ||
		!strings.Contains(part, "<loc>"+base+"/p/50000</loc>") {
		t.Fatalf("/sitemap-2.xml: %d %q\n%.500s", resp.StatusCode, resp.Header.Get("Content-Type"), part)
	}
	etag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if etag == "" || lm == "" {
		t.Fatalf("no validators: ETag %q, Last-Modified %q", etag, lm)
	}
	if resp, _ := get(t, "GET", base+"/sitemap-2.xml", "If-None-Match", etag); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d, want 304", resp.StatusCode)
	}
	if resp, _ := get(t, "GET", base+"/sitemap-2.xml", "If-Modified-Since", lm); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-Modified-Since: %d, want 304", resp.StatusCode)
	}
	if resp, _ := get(t, "GET", base+"/sitemap-3.xml"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/sitemap-3.xml: %d, want the origin's 404", resp.StatusCode)
	}
}

// TestIntegrationLLMsFull: /llms-full.txt holds the Markdown of the pages
// llms.txt lists, then of the other pages discovery found (none that
// robots.txt or noindex keeps out), each under its title with its public
// URL; it answers with validators and 304, is declared in agents.json and
// linked from llms.txt, and says where the byte budget cut it.
func TestIntegrationLLMsFull(t *testing.T) {
	site := widgetSite(strings.Repeat("Widgets help. ", 100))
	var mu sync.Mutex
	seen := map[string]int{}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if strings.HasPrefix(r.Header.Get("Accept"), "text/markdown") {
			seen[r.URL.Path]++ // a fetch of the page as Markdown
		}
		mu.Unlock()
		site.ServeHTTP(w, r)
	}))
	t.Cleanup(origin.Close)
	for _, tc := range []struct {
		name    string
		max     int
		cut     bool
		connect bool
	}{{"from the content index", 0, false, true}, {"whole", 0, false, false}, {"cut", 4096, true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			clear(seen)
			mu.Unlock()
			yaml := "site:\n  name: Widgets\n  origin: https://widgets.example\n" +
				"llms:\n  sections:\n    - title: Guides\n      links:\n        - {title: Billing, url: /guides/billing}\n"
			if tc.max > 0 {
				yaml += fmt.Sprintf("  full_max_bytes: %d\n", tc.max)
			}
			if tc.connect {
				yaml += "connect:\n  enabled: true\n"
			}
			base := runWithYAML(t, origin.URL, yaml)
			var resp *http.Response
			var full string
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) {
				resp, full = get(t, "GET", base+"/llms-full.txt")
				if resp.StatusCode == http.StatusOK {
					break
				}
				if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
					t.Fatalf("while building: %d %v", resp.StatusCode, resp.Header)
				}
				time.Sleep(50 * time.Millisecond)
			}
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
				t.Fatalf("/llms-full.txt: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			home := strings.Index(full, "## Home\n\nSource: https://widgets.example/\n")
			billing := strings.Index(full, "## Billing\n\nSource: https://widgets.example/guides/billing\n\n> About billing.\n")
			csv := strings.Index(full, "## Read and write CSV files\n\nSource: https://widgets.example/guides/csv\n")
			if home < 0 || billing < home {
				t.Errorf("the home page then the page llms.txt lists do not come first:\n%s", full)
			}
			if tc.cut {
				if !strings.Contains(full, "This file was cut at 4096 bytes") || !strings.Contains(full, "[Cut here:") || len(full) > 4096 {
					t.Errorf("the cut is not said, or the file is over the budget (%d bytes):\n%s", len(full), full)
				}
			} else {
				if csv < billing || !strings.Contains(full, "How to read and write csv files with widgets") {
					t.Errorf("a discovered page is missing:\n%s", full)
				}
				if strings.Contains(full, "Cut") {
					t.Errorf("a whole file says it was cut:\n%s", full)
				}
			}
			for _, not := range []string{"Keys", "Draft", "127.0.0.1"} {
				if strings.Contains(full, not) {
					t.Errorf("llms-full.txt holds %q:\n%s", not, full)
				}
			}
			if resp, _ := get(t, "GET", base+"/llms-full.txt", "If-None-Match", resp.Header.Get("ETag")); resp.StatusCode != http.StatusNotModified {
				t.Errorf("If-None-Match: %d, want 304", resp.StatusCode)
			}
			if tc.connect {
				// Fetched as Markdown once, by the content index;
				// llms-full.txt takes the index's copy.
				mu.Lock()
				n := seen["/guides/csv"]
				mu.Unlock()
				if n != 1 {
					t.Errorf("/guides/csv fetched as Markdown %d times, want 1", n)
				}
			}
			_, agents := get(t, "GET", base+"/agents.json")
			_, llms := get(t, "GET", base+"/llms.txt")
			if !strings.Contains(agents, `"llmsFull": "https://widgets.example/llms-full.txt"`) || !strings.Contains(llms, "https://widgets.example/llms-full.txt") {
				t.Errorf("llms-full.txt not declared:\n%s\n%s", agents, llms)
			}
		})
	}
}

// TestIntegrationSelfScanChoosesDiscoveredPages: on a site with no sitemap
// and no configuration, the self-scan waits for the discovery started at
// start and scans pages it found (read from the generated sitemap), not only
// the home page.
func TestIntegrationSelfScanChoosesDiscoveredPages(t *testing.T) {
	var mu sync.Mutex
	scanned := map[string]bool{}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Header.Get("User-Agent"), "agentready-selfcheck/") {
			mu.Lock()
			scanned[r.URL.Path] = true
			mu.Unlock()
		}
		html := func(body string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<!doctype html><html lang=en><head><title>t</title></head><body><main>"+body+"</main></body></html>")
		}
		switch r.URL.Path {
		case "/":
			html(`<a href="/a">a</a>`)
		case "/a":
			html(`<a href="/a/deep">deep</a>`)
		case "/a/deep":
			html("leaf")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(origin.Close)
	port := freePort(t)
	runCaddyAt(t, port, `
http://127.0.0.1:{port} {
	agent_ready {
		self_scan {
			delay 10ms
		}
	}
	reverse_proxy `+strings.TrimPrefix(origin.URL, "http://")+`
}
`)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		done := scanned["/a/deep"]
		mu.Unlock()
		if done {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Errorf("the self-scan did not scan the discovered page /a/deep; it asked for %v", scanned)
}
