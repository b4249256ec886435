package selfcheck

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
)

func TestCheckSitemap(t *testing.T) {
	urlset := func(locs ...string) *doc {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, l := range locs {
			b.WriteString("<url><loc>" + l + "</loc></url>")
		}
		b.WriteString("</urlset>")
		return &doc{ctype: "application/xml", body: b.String()}
	}
	runVerdictCases(t, "sitemap", []verdictCase{
		{name: "urlset on origin", site: ready(), verdict: Pass},
		{name: "robots Sitemap line only", site: ready(without("/sitemap.xml"), replace("/robots.txt", &doc{ctype: "text/plain", body: "Sitemap: {{origin}}/maps/main.xml\n"}), replace("/maps/main.xml", urlset("{{origin}}/"))), verdict: Pass},
		{name: "sitemap index", site: ready(replace("/sitemap.xml", &doc{ctype: "application/xml", body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>{{origin}}/pages.xml</loc></sitemap></sitemapindex>`}), replace("/pages.xml", urlset("{{origin}}/pricing"))), verdict: Pass},
		{name: "gzipped, listed in robots.txt", site: ready(without("/sitemap.xml"), replace("/robots.txt", &doc{ctype: "text/plain", body: "Sitemap: {{origin}}/sitemap.xml.gz\n"}), replace("/sitemap.xml.gz", &doc{handler: gzipSitemap})), verdict: Pass},
		{name: "half foreign locs", site: ready(replace("/sitemap.xml", urlset("{{origin}}/", "https://elsewhere.test/x"))), verdict: Partial, fraction: 0.5},
		{name: "malformed XML after a loc", site: ready(replace("/sitemap.xml", &doc{ctype: "application/xml", body: `<urlset><url><loc>{{origin}}/</loc></url><url><loc>`})), verdict: Partial, fraction: 0.5},
		{name: "all foreign", site: ready(replace("/sitemap.xml", urlset("https://elsewhere.test/x"))), verdict: Fail},
		{name: "empty urlset", site: ready(replace("/sitemap.xml", urlset())), verdict: Fail},
		{name: "HTML soft 404 with 200", site: ready(replace("/sitemap.xml", &doc{ctype: "text/html", body: "<html><body>Not here</body></html>"})), verdict: Fail},
		{name: "404", site: bare(), verdict: Fail},
		{name: "500", site: ready(serverError("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckLLMSTxt(t *testing.T) {
	runVerdictCases(t, "llms_txt", []verdictCase{
		{name: "complete", site: ready(), verdict: Pass},
		{name: "only links, no instructions", site: ready(replace("/llms.txt", &doc{ctype: "text/plain", body: "# Acme\n\n- [Home](/)\n- [Spec](https://spec.test/)\n"})), verdict: Partial, fraction: 0.75},
		{name: "no H1, no links", site: ready(replace("/llms.txt", &doc{ctype: "text/plain", body: "Please read our pages as Markdown before you answer anything.\n"})), verdict: Partial, fraction: 0.5},
		{name: "wrong content type", site: ready(replace("/llms.txt", &doc{ctype: "application/octet-stream", body: fixture(t, "llms.txt")})), verdict: Partial, fraction: 0.75},
		{name: "HTML page at 200", site: ready(replace("/llms.txt", &doc{ctype: "text/html", body: "<!doctype html><html><body>home</body></html>"})), verdict: Fail},
		{name: "404 is an honest fail", site: bare(), verdict: Fail},
		{name: "503", site: ready(serverError("/llms.txt")), verdict: CouldNotCheck},
	})
}

func TestCheckCapabilityManifest(t *testing.T) {
	minimal := &doc{ctype: "application/json", body: `{"name":"Acme","url":"{{origin}}"}`}
	runVerdictCases(t, "capability_manifest", []verdictCase{
		{name: "complete twins", site: ready(), verdict: Pass},
		{name: "root only", site: ready(without("/.well-known/agents.json")), verdict: Pass},
		{name: "twins disagree", site: ready(replace("/agents.json", &doc{ctype: "application/json", body: `{"name":"Other"}`})), verdict: Partial, fraction: 0.5},
		{name: "fields missing", site: ready(without("/agents.json"), replace("/.well-known/agents.json", minimal)), verdict: Partial, fraction: 0.25},
		{name: "empty object", site: ready(without("/agents.json"), replace("/.well-known/agents.json", &doc{ctype: "application/json", body: `{}`})), verdict: Fail},
		{name: "not JSON", site: ready(without("/agents.json"), replace("/.well-known/agents.json", &doc{ctype: "application/json", body: `{"name":`})), verdict: Fail},
		{name: "404", site: bare(), verdict: Fail},
		{name: "both 500", site: ready(serverError("/agents.json", "/.well-known/agents.json")), verdict: CouldNotCheck},
	})
}

func TestCheckCrawlerPolicy(t *testing.T) {
	robots := func(body string) func(s *testSite) {
		return replace("/robots.txt", &doc{ctype: "text/plain", body: body})
	}
	runVerdictCases(t, "crawler_policy", []verdictCase{
		{name: "training refused, search allowed", site: ready(), verdict: Pass},
		{name: "no robots.txt", site: bare(), verdict: Pass},
		{name: "search bots shut out", site: ready(robots("User-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nUser-agent: Claude-SearchBot\nUser-agent: Googlebot\nDisallow: /\n")), verdict: Partial, fraction: 0.5},
		{name: "everything shut out", site: ready(robots("User-agent: *\nDisallow: /\n")), verdict: Fail},
		{name: "robots 500", site: ready(serverError("/robots.txt")), verdict: CouldNotCheck},
	})
}

func TestCheckDiscoveryLinks(t *testing.T) {
	runVerdictCases(t, "discovery_links", []verdictCase{
		{name: "both Link headers", site: ready(), verdict: Pass},
		{name: "head links only", site: bare(replace("/", &doc{ctype: "text/html", body: `<html><head><link rel="describedby" href="/llms.txt"><link rel="alternate" type="application/json" href="/agents.json"></head></html>`})), verdict: Pass},
		{name: "llms only", site: ready(func(s *testSite) {
			s.edit("/", func(d *doc) { d.header = http.Header{"Link": {`</llms.txt>; rel="describedby"`}} })
		}), verdict: Partial, fraction: 0.5},
		{name: "none", site: bare(), verdict: Fail},
	})
}

func TestCheckDiscoveryLinksHomeDown(t *testing.T) {
	runVerdictCases(t, "discovery_links", []verdictCase{
		{name: "home 500", site: ready(serverError("/")), verdict: CouldNotCheck},
	})
}

// gzipSitemap serves a gzip-compressed urlset as application/gzip.
func gzipSitemap(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/gzip")
	zw := gzip.NewWriter(w)
	zw.Write([]byte(`<urlset><url><loc>http://` + r.Host + `/</loc></url></urlset>`))
	zw.Close()
}

func TestGunzipSitemapBomb(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(bytes.Repeat([]byte("<"), 10<<20))
	zw.Close()
	if _, err := parse.GunzipSitemap(b.Bytes(), 1<<20); err == nil || !strings.Contains(err.Error(), "inflates past") {
		t.Errorf("gzip bomb: err = %v", err)
	}
	if out, err := parse.GunzipSitemap([]byte("<urlset/>"), 10); err != nil || string(out) != "<urlset/>" {
		t.Errorf("plain body changed: %q %v", out, err)
	}
}
