package selfcheck

import "testing"

// page builds an HTML page document.
func htmlDoc(html string) *doc { return &doc{ctype: "text/html; charset=utf-8", body: html} }

func TestCheckLanguageDeclared(t *testing.T) {
	runVerdictCases(t, "language_declared", []verdictCase{
		{name: "en and en-GB", site: ready(), verdict: Pass},
		{name: "one route lacks lang", site: ready(editBody("/pricing", `<html lang="en-GB">`, `<html>`)), verdict: Partial, fraction: 0.5},
		{name: "malformed tag", site: ready(editBody("/", `<html lang="en">`, `<html lang="english_US!">`), editBody("/pricing", `<html lang="en-GB">`, `<html lang="">`)), verdict: Fail},
		{name: "bare", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestBCP47(t *testing.T) {
	for tag, ok := range map[string]bool{"en": true, "en-GB": true, "zh-Hant-TW": true, "sr-Latn-RS": true, "de-CH-1996": true, "x-private": true, "es-419": true,
		"": false, "english": true, "en_US": false, "e": false, "en-": false, "123": false} {
		if bcp47.MatchString(tag) != ok {
			t.Errorf("bcp47(%q) = %v, want %v", tag, !ok, ok)
		}
	}
}

func TestCheckCanonicalDeclared(t *testing.T) {
	runVerdictCases(t, "canonical_declared", []verdictCase{
		{name: "absolute on origin", site: ready(), verdict: Pass},
		{name: "Link header", site: bare(replace("/", &doc{ctype: "text/html", header: map[string][]string{"Link": {`<{{origin}}/>; rel="canonical"`}}, body: "<html></html>"})), verdict: Pass},
		{name: "relative", site: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, `<link rel="canonical" href="/">`), editBody("/pricing", `href="{{origin}}/pricing"`, `href="/pricing"`)), verdict: Partial, fraction: 0.5},
		{name: "foreign", site: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, `<link rel="canonical" href="https://elsewhere.test/">`)), verdict: Partial, fraction: 0.5},
		{name: "missing", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckStructuredIdentity(t *testing.T) {
	ld := func(json string) *doc {
		return htmlDoc(`<html lang="en"><head><script type="application/ld+json">` + json + `</script></head><body></body></html>`)
	}
	runVerdictCases(t, "structured_identity", []verdictCase{
		{name: "organization in a graph", site: ready(), verdict: Pass},
		{name: "person", site: bare(replace("/", ld(`{"@type":"Person","name":"Ada","url":"https://ada.test/"}`))), verdict: Pass},
		{name: "identity without url", site: bare(replace("/", ld(`{"@type":"Organization","name":"Acme"}`))), verdict: Partial, fraction: 0.5},
		{name: "no identity node", site: bare(replace("/", ld(`{"@type":"BreadcrumbList","itemListElement":[]}`))), verdict: Partial, fraction: 0.25},
		{name: "identity plus a broken block", site: ready(editBody("/pricing", `</head>`, `<script type="application/ld+json">{broken</script></head>`)), verdict: Partial, fraction: 0.75},
		{name: "only broken blocks", site: bare(replace("/", ld(`{"@type":`))), verdict: Fail},
		{name: "no JSON-LD", site: bare(), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}

func TestCheckStructuredFreshness(t *testing.T) {
	ld := func(json string) *doc {
		return htmlDoc(`<html><head><script type="application/ld+json">` + json + `</script></head></html>`)
	}
	runVerdictCases(t, "structured_freshness", []verdictCase{
		{name: "dated content nodes", site: ready(), verdict: Pass},
		{name: "organization alone is not asked (rule 8)", site: bare(replace("/", ld(`{"@type":"Organization","name":"A","url":"https://a.test"}`))), verdict: NotApplicable},
		{name: "one of two dated", site: bare(replace("/", ld(`[{"@type":"Article","dateModified":"2026-01-01"},{"@type":"WebPage"}]`))), verdict: Partial, fraction: 0.5},
		{name: "undated article", site: bare(replace("/", ld(`{"@type":"https://schema.org/BlogPosting","headline":"x"}`))), verdict: Fail},
		{name: "home 500", site: ready(serverError("/"), without("/sitemap.xml")), verdict: CouldNotCheck},
	})
}
