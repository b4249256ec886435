package selfcheck

import (
	"net/url"
	"testing"
)

func FuzzParseRobots(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /x*$\nAllow: /x/y\nSitemap: https://a.test/s.xml\n"))
	f.Add([]byte("user-agent:a\nuser-agent:b\ndisallow:/%zz\n#c\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := Robots(b)
		for _, a := range []string{"*", "GPTBot", "Claude-User"} {
			r.Allowed(a, "/some/path?q=1")
		}
	})
}

func FuzzParseSitemap(f *testing.F) {
	f.Add([]byte(`<urlset><url><loc>https://a.test/</loc></url></urlset>`))
	f.Add([]byte(`<sitemapindex><sitemap><loc>x</loc></sitemap></sitemapindex>`))
	f.Add([]byte(xmlBomb))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := Sitemap(b, 100)
		if len(d.Locs) > 100 {
			t.Fatalf("%d locs over the cap", len(d.Locs))
		}
	})
}

func FuzzParseLinkHeader(f *testing.F) {
	f.Add(`</a>; rel="alternate"; type="text/markdown", <b>; rel=describedby`)
	f.Add(`<x>; title="a\"b,c"; rel="a b c"`)
	base, _ := url.Parse("https://a.test/p/q")
	f.Fuzz(func(t *testing.T, s string) {
		if links := LinkHeader([]string{s}, base); len(links) > linkMaxValues {
			t.Fatalf("%d links over the cap", len(links))
		}
	})
}

func FuzzParseJSONLD(f *testing.F) {
	f.Add([]byte(`{"@graph":[{"@type":"Organization","name":"a"}]}`))
	f.Add([]byte(`[[[[{"@type":["A","B"]}]]]]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if d := JSONLD([][]byte{b, b}); len(d.Nodes) > jsonldMaxNodes {
			t.Fatalf("%d nodes over the cap", len(d.Nodes))
		}
	})
}

func FuzzParseHTMLFacts(f *testing.F) {
	f.Add([]byte(`<html lang="en"><head><link rel="canonical" href="/"></head><body><main><form toolname="a"><label for="i">x</label><input id="i" name="n"></form></main></body></html>`))
	f.Add([]byte(`<template><form><div hidden><input type=search></div></form></template><script>navigator.modelContext</script>`))
	base, _ := url.Parse("https://a.test/")
	f.Fuzz(func(t *testing.T, b []byte) {
		p := HTML(b, base)
		if len(p.Forms) > htmlMaxForms {
			t.Fatalf("%d forms over the cap", len(p.Forms))
		}
	})
}

func FuzzFrontMatter(f *testing.F) {
	f.Add([]byte("---\ntitle: x\ncanonical: https://a.test/\n---\n# x"))
	f.Fuzz(func(t *testing.T, b []byte) { frontMatter(b) })
}

func FuzzSecurityTxt(f *testing.F) {
	f.Add([]byte("Contact: mailto:a@b.test\nExpires: 2030-01-01T00:00:00Z\n"))
	f.Fuzz(func(t *testing.T, b []byte) { parseSecurityTxt(b) })
}

func FuzzRedactURL(f *testing.F) {
	f.Add("https://u:p@a.test/x?token=1&q=2#f")
	f.Fuzz(func(t *testing.T, s string) { redactURL(s) })
}
