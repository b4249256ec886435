package caddymodule

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestIntegrationDiscoveryWithoutSitemap: a site with no sitemap is
// discovered through Caddy by a crawl that obeys the origin's robots.txt
// and noindex; the generated sitemap and llms.txt list exactly the pages
// found (with their titles), and /ask answers with the public origin's
// URLs, never the address the module reaches the site at.
func TestIntegrationDiscoveryWithoutSitemap(t *testing.T) {
	page := func(w http.ResponseWriter, title, extra string, links ...string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html lang=en><head><title>%s</title><meta name=description content=\"About %s.\">%s</head><body><main><h1>%s</h1><p>How to %s with widgets, explained step by step.</p>", title, title, extra, title, strings.ToLower(title))
		for _, l := range links {
			fmt.Fprintf(w, "<a href=%q>%s</a> ", l, l)
		}
		io.WriteString(w, "</main></body></html>")
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	}))
	t.Cleanup(origin.Close)
	base := runWithYAML(t, origin.URL, "site:\n  name: Widgets\n  origin: https://widgets.example\n"+
		"llms:\n  auto_list:\n    enabled: true\n    section: Everything\nconnect:\n  enabled: true\n")

	var sitemap string
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		_, sitemap = get(t, "GET", base+"/sitemap.xml")
		if strings.Contains(sitemap, "/guides/csv") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
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
