package frontmatter

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func mustParse(t testing.TB, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestExtractSources(t *testing.T) {
	page, _ := url.Parse("https://example.com/blog/post?x=1#frag")
	tests := []struct {
		name   string
		html   string
		header http.Header
		lang   string
		want   Meta
	}{
		{
			name: "nothing known",
			html: `<p>text`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "og title beats json-ld beats title beats h1",
			html: `<html lang="en"><head><title>T | Acme</title><meta property="og:title" content="OG">
<script type="application/ld+json">{"@type":"Article","headline":"LD"}</script></head><h1>H</h1>`,
			want: Meta{Title: "OG", Canonical: "https://example.com/blog/post?x=1", Language: "en"},
		},
		{
			name: "json-ld headline beats title",
			html: `<title>T</title><script type="application/ld+json">{"@type":"Article","headline":"LD"}</script>`,
			want: Meta{Title: "LD", Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "title minus known site name",
			html: `<title>Pricing | Acme</title><meta property="og:site_name" content="Acme">`,
			want: Meta{Title: "Pricing", SiteName: "Acme", Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "title minus leading site name",
			html: `<title>Acme — Pricing</title><meta name="application-name" content="Acme">`,
			want: Meta{Title: "Pricing", SiteName: "Acme", Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "title minus suffix when head is the h1",
			html: `<title>Pricing - Acme Corp</title><h1>Pricing</h1>`,
			want: Meta{Title: "Pricing", Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "title with separator kept whole when nothing confirms the cut",
			html: `<title>Cats - a history</title><h1>Something else</h1>`,
			want: Meta{Title: "Cats - a history", Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "h1 when no title; svg title ignored",
			html: `<svg><title>icon</title></svg><h1> Hello
  world </h1>`,
			want: Meta{Title: "Hello world", Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "description precedence",
			html: `<meta property="og:description" content="og"><meta name="description" content="meta">`,
			want: Meta{Description: "meta", Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "same-origin canonical, relative",
			html: `<link rel="canonical" href="/blog/post">`,
			want: Meta{Canonical: "https://example.com/blog/post"},
		},
		{
			name: "canonical against base href",
			html: `<base href="/docs/"><link rel="Canonical alternate" href="page">`,
			want: Meta{Canonical: "https://example.com/docs/page"},
		},
		{
			name: "cross-origin canonical ignored",
			html: `<link rel="canonical" href="https://other.example/post">`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "md canonical ignored",
			html: `<link rel="canonical" href="/blog/post/md">`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name:   "canonical from Link header",
			html:   `<p>x`,
			header: http.Header{"Link": {`</llms.txt>; rel="describedby", <https://example.com/c>; rel="canonical"`}},
			want:   Meta{Canonical: "https://example.com/c"},
		},
		{
			name: "updated: json-ld dateModified first, identity node ignored",
			html: `<script type="application/ld+json">{"@graph":[{"@type":"Organization","dateModified":"2020-01-01"},
{"@type":"BlogPosting","dateModified":"2026-09-15T10:00:00+02:00","datePublished":"2026-09-01"}]}</script>
<meta property="article:modified_time" content="2025-01-01">`,
			header: http.Header{"Last-Modified": {"Mon, 02 Jan 2006 15:04:05 GMT"}},
			want:   Meta{Canonical: "https://example.com/blog/post?x=1", Updated: "2026-09-15", Published: "2026-09-01"},
		},
		{
			name:   "updated: article:modified_time before time and Last-Modified",
			html:   `<meta property="article:modified_time" content="2025-03-04T05:06:07Z"><article><time datetime="2024-01-01">x</time></article>`,
			header: http.Header{"Last-Modified": {"Mon, 02 Jan 2006 15:04:05 GMT"}},
			want:   Meta{Canonical: "https://example.com/blog/post?x=1", Updated: "2025-03-04"},
		},
		{
			name:   "updated: time in the article before Last-Modified",
			html:   `<time datetime="2023-01-01">outside</time><article><p>x <time datetime="2024-02-03">Feb</time></article>`,
			header: http.Header{"Last-Modified": {"Mon, 02 Jan 2006 15:04:05 GMT"}},
			want:   Meta{Canonical: "https://example.com/blog/post?x=1", Updated: "2024-02-03", Published: "2024-02-03"},
		},
		{
			// WordPress 6.1, Twenty Twenty-Three: the post's date is a bare
			// <time> in the post-meta part inside <main>, no <article>; the
			// comment's date comes later and must not count.
			name: "dates: wordpress block theme single post, comment dates left out",
			html: `<header><nav><time datetime="2026-12-01">menu</time></nav></header><main class="wp-block-group">
<h1 class="wp-block-post-title">Post</h1><div class="entry-content wp-block-post-content"><p>Text</p></div>
<div class="wp-block-template-part"><div class="wp-block-group"><p>Posted</p><div class="wp-block-post-date"><time datetime="2024-05-14T09:30:00+00:00">May 14, 2024</time></div></div></div>
<section class="wp-block-template-part"><div class="wp-block-comments"><ol class="wp-block-comment-template"><li id="comment-2">
<div class="wp-block-comment-date"><time datetime="2024-05-15T08:00:00+00:00">May 15, 2024</time></div></li></ol></div></section></main>`,
			want: Meta{Title: "Post", Canonical: "https://example.com/blog/post?x=1", Updated: "2024-05-14", Published: "2024-05-14"},
		},
		{
			name: "dates: an archive is updated at its newest entry and published at none",
			html: `<main><ul class="wp-block-post-template"><li class="wp-block-post"><h2>A</h2><div class="wp-block-post-date"><time datetime="2024-04-02T14:00:00+00:00">x</time></div></li>
<li class="wp-block-post"><h2>B</h2><div class="wp-block-post-date"><time datetime="2024-05-14T09:30:00+00:00">x</time></div></li></ul></main>`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1", Updated: "2024-05-14"},
		},
		{
			name: "dates: articles before the rest of main, related posts and asides left out",
			html: `<div role="main"><article><time datetime="2024-01-02">x</time></article>
<time datetime="2025-06-01">sidebar-ish</time><div class="related-posts"><time datetime="2026-01-01">x</time></div></div>
<aside><article><time datetime="2026-02-02">x</time></article></aside>`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1", Updated: "2024-01-02", Published: "2024-01-02"},
		},
		{
			name: "dates: a container's class never makes its content chrome",
			html: `<body class="single comments-open"><main class="has-comments"><time datetime="2024-03-01">x</time></main></body>`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1", Updated: "2024-03-01", Published: "2024-03-01"},
		},
		{
			name: "dates: main without articles, role=main, same date twice is one date",
			html: `<div role="main"><p><time datetime="2024-03-01T10:00:00Z">x</time> and <time datetime="2024-03-01">again</time></p></div>`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1", Updated: "2024-03-01", Published: "2024-03-01"},
		},
		{
			name: "dates: the head's statements beat the content's times",
			html: `<meta property="article:published_time" content="2023-01-01"><main><time datetime="2024-03-01">x</time></main>`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1", Updated: "2024-03-01", Published: "2023-01-01"},
		},
		{
			name:   "updated: Last-Modified last",
			html:   `<p>x`,
			header: http.Header{"Last-Modified": {"Mon, 02 Jan 2006 15:04:05 GMT"}},
			want:   Meta{Canonical: "https://example.com/blog/post?x=1", Updated: "2006-01-02"},
		},
		{
			name: "updated: unparsable never invented",
			html: `<meta property="article:modified_time" content="last Tuesday">`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name:   "language: html lang beats header",
			html:   `<html lang="de-CH">`,
			header: http.Header{"Content-Language": {"fr"}},
			lang:   "en",
			want:   Meta{Canonical: "https://example.com/blog/post?x=1", Language: "de-CH"},
		},
		{
			name:   "language: header list, first tag",
			html:   `<html lang="not a tag!">`,
			header: http.Header{"Content-Language": {"fr-CA, en"}},
			lang:   "en",
			want:   Meta{Canonical: "https://example.com/blog/post?x=1", Language: "fr-CA"},
		},
		{
			name: "language: og:locale normalised, then default",
			html: `<meta property="og:locale" content="pt_BR">`,
			lang: "en",
			want: Meta{Canonical: "https://example.com/blog/post?x=1", Language: "pt-BR"},
		},
		{
			name: "language: default",
			html: `<p>x`,
			lang: "en",
			want: Meta{Canonical: "https://example.com/blog/post?x=1", Language: "en"},
		},
		{
			name: "author, image, site name from json-ld",
			html: `<script type="application/ld+json"><!--{"@context":"https://schema.org","@type":["NewsArticle"],
"author":[{"@type":"Person","name":"Ann"},"Bob","https://x.example/c"],"image":{"url":"/img/a.png"},
"publisher":{"@type":"Organization","name":"Daily"}}--></script>`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1", Author: "Ann, Bob", Image: "https://example.com/img/a.png", SiteName: "Daily"},
		},
		{
			name: "og image beats json-ld; data: image refused; meta author",
			html: `<meta property="og:image" content="data:image/png;base64,AAAA"><meta name="twitter:image" content="https://cdn.example/t.png">
<meta name="author" content="Carol">`,
			want: Meta{Canonical: "https://example.com/blog/post?x=1", Author: "Carol", Image: "https://cdn.example/t.png"},
		},
		{
			name: "invalid json-ld skipped",
			html: `<script type="application/ld+json">{"headline": "broken"</script><title>T</title>`,
			want: Meta{Title: "T", Canonical: "https://example.com/blog/post?x=1"},
		},
		{
			name: "first meta wins; script and template text ignored",
			html: `<meta name="description" content="one"><meta name="description" content="two"><template><h1>no</h1></template><script>document.title="no"</script>`,
			want: Meta{Description: "one", Canonical: "https://example.com/blog/post?x=1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.header
			if h == nil {
				h = http.Header{}
			}
			got := Extract(mustParse(t, tt.html), page, h, tt.lang)
			if got != tt.want {
				t.Errorf("Extract =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestExtractJSONLDBlocks(t *testing.T) {
	doc := mustParse(t, `<script type="application/ld+json">{"@type":"WebSite","name":"A"}</script>
<script type="Application/LD+JSON; charset=utf-8"><![CDATA[ [1,2] ]]></script>
<script type="application/ld+json">not json</script>`)
	_, blocks := ExtractWithJSONLD(doc, nil, nil, "")
	if len(blocks) != 2 || string(blocks[0]) != `{"@type":"WebSite","name":"A"}` || string(blocks[1]) != "[1,2]" {
		t.Errorf("blocks = %q", blocks)
	}
}

func TestPageAddress(t *testing.T) {
	tests := map[string]string{
		"https://u:p@example.com/pricing/md#x": "https://example.com/pricing",
		"https://example.com/md":               "https://example.com/",
		"https://example.com/a/b?q=1":          "https://example.com/a/b?q=1",
	}
	for in, want := range tests {
		u, _ := url.Parse(in)
		if got := pageAddress(u); got != want {
			t.Errorf("pageAddress(%q) = %q, want %q", in, got, want)
		}
	}
	if got := pageAddress(nil); got != "" {
		t.Errorf("pageAddress(nil) = %q", got)
	}
}

func TestDate(t *testing.T) {
	tests := map[string]string{
		"2026-09-15":                    "2026-09-15",
		"2026-09-15T23:30:00-05:00":     "2026-09-15",
		"2026-09-15T10:00:00.123Z":      "2026-09-15",
		"2026-09-15T10:00":              "2026-09-15",
		"2026-09-15 10:00:00":           "2026-09-15",
		"2026-09-15T10:00:00+0200":      "2026-09-15",
		"Tue, 15 Sep 2026 10:00:00 GMT": "2026-09-15",
		"yesterday":                     "",
		"":                              "",
		"2026-13-45":                    "",
		"0000-01-01":                    "",
	}
	for in, want := range tests {
		if got := Date(in); got != want {
			t.Errorf("Date(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzExtract(f *testing.F) {
	f.Add(`<html lang=en><title>T | S</title><meta property="og:site_name" content="S"><script type="application/ld+json">{"@graph":[[[{"headline":"x"}]]]}</script>`)
	f.Add(`<link rel=canonical href="//evil.example/x"><time datetime="2026-01-01">`)
	page, _ := url.Parse("https://example.com/p")
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := html.Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		m := Extract(doc, page, http.Header{"Last-Modified": {s}}, "en")
		if m.Canonical == "" || !strings.HasPrefix(m.Canonical, "https://example.com/") {
			t.Fatalf("canonical %q left the origin", m.Canonical)
		}
		if back, _, err := Parse(m.Marshal()); err != nil || back != m.Sanitized() {
			t.Fatalf("round trip of extracted %+v: %+v %v", m, back, err)
		}
	})
}
