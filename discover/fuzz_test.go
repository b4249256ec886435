package discover

import (
	"bytes"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestExtractPage: what the tokenizer pass reads from a page.
func TestExtractPage(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want pageFacts
	}{
		{"links of a, area and link rel=next|prev",
			`<a href="/a">A</a><area href="/b"><link rel="next" href="/c"><link rel="Prev" href="/d"><link rel="stylesheet" href="/s.css"><a name="x">`,
			pageFacts{links: []string{"/a", "/b", "/c", "/d"}}},
		{"nofollow links left out", `<a rel="external nofollow" href="/x">x</a><a href=" /y ">y</a>`,
			pageFacts{links: []string{"/y"}}},
		{"canonical and base, first wins", `<base href="/b/"><base href="/c/"><link rel="canonical" href=" /one "><link rel=canonical href=/two>`,
			pageFacts{canonical: "/one", base: "/b/"}},
		{"robots meta", `<meta name="robots" content="noindex">`, pageFacts{noindex: true}},
		{"our meta", `<meta name="AgentReady" content="nofollow">`, pageFacts{nofollow: true}},
		{"another bot's meta ignored", `<meta name="googlebot" content="none">`, pageFacts{}},
		{"title entities and space", "<title>\n A &amp; B\t</title>", pageFacts{title: "A & B"}},
		{"svg title ignored", `<svg><title>icon</title></svg><title>Doc</title>`, pageFacts{title: "Doc"}},
		{"title in script ignored", `<script>var s = "<title>no</title>";</script><title>Yes</title>`, pageFacts{title: "Yes"}},
		{"description before og", `<meta property="og:description" content="og"><meta name="description" content="d">`, pageFacts{description: "d"}},
		{"og fallback", `<meta property="og:description" content="og">`, pageFacts{description: "og"}},
		{"links in comments ignored", `<!-- <a href="/hidden"> -->`, pageFacts{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := extractPage(strings.NewReader(tt.in), Agent)
			if got.title != tt.want.title || got.description != tt.want.description || got.canonical != tt.want.canonical ||
				got.base != tt.want.base || got.noindex != tt.want.noindex || got.nofollow != tt.want.nofollow ||
				!slices.Equal(got.links, tt.want.links) {
				t.Errorf("got %+v\nwant %+v", *got, tt.want)
			}
		})
	}
}

// FuzzExtractPage: any bytes give bounded facts, never a panic, and every
// link resolves or is refused without a panic.
func FuzzExtractPage(f *testing.F) {
	for _, s := range []string{
		`<html><head><title>T</title><base href="/x/"><link rel=canonical href="/c"></head><body><a href="a?b#c">a</a></body></html>`,
		`<a href="//evil.example/x">`, `<a href="http://[::1">`, `<svg><title>x</svg><title>y`,
		`<meta name=robots content="none">`, "<title>\xff\xfe</title>", `<a href="` + strings.Repeat("x", 5000) + `">`,
	} {
		f.Add([]byte(s))
	}
	s := &site{fetch: mustURL("http://127.0.0.1:8080"), public: testPublic,
		hosts: map[string]bool{"127.0.0.1:8080": true, "docs.example.com": true}}
	base := mustURL("http://127.0.0.1:8080/dir/page")
	f.Fuzz(func(t *testing.T, in []byte) {
		p := extractPage(bytes.NewReader(in), Agent)
		if len(p.links) > maxLinksPerPage || len(p.title) > maxTitleLen || len(p.description) > maxTitleLen {
			t.Fatalf("unbounded facts: %d links, title %d, description %d", len(p.links), len(p.title), len(p.description))
		}
		if utf8.ValidString(string(in)) && !utf8.ValidString(p.title) {
			t.Fatalf("title %q is not UTF-8", p.title)
		}
		for _, l := range p.links {
			k, kind := s.resolve(base, l)
			if kind == linkOnSite && !strings.HasPrefix(k, "/") {
				t.Fatalf("key %q of %q does not start with /", k, l)
			}
			if kind == linkOnSite {
				u, err := url.Parse(s.fetchURL(k))
				if err != nil || u.Host != "127.0.0.1:8080" {
					t.Fatalf("key %q of %q leaves the site: %v %v", k, l, u, err)
				}
			}
		}
	})
}

// FuzzParseSitemap: any bytes parse or fail, never panic, and the entry cap
// holds.
func FuzzParseSitemap(f *testing.F) {
	f.Add(urlset("https://a.example/1"))
	f.Add(sitemapIndex("https://a.example/s.xml"))
	f.Add(gzipped(urlset("/x")))
	f.Add([]byte(`<urlset><url><loc>/a</loc><lastmod>2024-01-02T03:04:05+01:00</lastmod></url></urlset>`))
	f.Add([]byte(`<!DOCTYPE x [<!ENTITY a "b">]><urlset><url><loc>&a;</loc></url></urlset>`))
	f.Fuzz(func(t *testing.T, in []byte) {
		doc, _, err := parseSitemap(bytes.NewReader(in), 1<<20, sitemapKeep{urls: 100, sitemaps: 10})
		if err != nil {
			return
		}
		if doc.kind != "urlset" && doc.kind != "sitemapindex" {
			t.Fatalf("kind %q without error", doc.kind)
		}
		for _, e := range doc.entries {
			if e.loc == "" || len(e.loc) > maxLocLen {
				t.Fatalf("loc of %d bytes", len(e.loc))
			}
		}
	})
}

// FuzzParseRobots: any robots.txt parses, and matching any path ends.
func FuzzParseRobots(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /*a*b*c$\nAllow: /a\nSitemap: /s.xml\n"), "/aaabbbccc")
	f.Add([]byte("User-agent: agentready\nCrawl-delay: 1e400\nDisallow: %zz\n"), "/%zz")
	f.Add([]byte("sitemap:#\nSitemap::\n\x00Sitemap: x"), "/")
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		r := parseRobots(body, Agent)
		_ = r.allowed(path)
		if r.delay < 0 || len(r.sitemaps) > maxSitemapLines {
			t.Fatalf("delay %v, %d sitemaps", r.delay, len(r.sitemaps))
		}
		for _, s := range r.sitemaps {
			if s == "" || s != strings.TrimSpace(s) || strings.ContainsAny(s, "#\n") {
				t.Errorf("sitemap %q from %q", s, body)
			}
		}
	})
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
