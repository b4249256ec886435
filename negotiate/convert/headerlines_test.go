package convert

import (
	"strings"
	"testing"
)

func TestHeaderLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"January 17, 2025", true},
		{"Aug 04, 2025", true},
		{"FEBRUARY 12, 2024", true},
		{"14 March 2026", true},
		{"Published Jun 4, 2025", true},
		{"Updated: December 31, 2024", true},
		{"Last updated on 2025-06-25", true},
		{"Sunday, February 8, 2026", true},
		{"28/11/2025 at 7:07 pm", true},
		{"8 min read", true},
		{"3 MIN. READ", true},
		{"Reading time: 5 minutes", true},
		{"By Rebecca Norris", true},
		{"By Rebecca Norris Published: Jun 25, 2025", true},
		{"By Jane Doe · August 1, 2026", true},
		{"December 15, 2025 · 8 min read", true},
		{"Written by", true},
		{"Last updated", true},
		{"", false},
		{"By Oliveira Andreotti, the Decolonial Futures Collective", false},
		{"By the end of 2025, prices rose by a third.", false},
		{"In March 2024 the council met.", false},
		{"Share this post", false},
		{"Updated Dec. 23, 2024, 1:24 PM EST / Source: TODAY", false},
		{"8 minutes", false},
		{strings.Repeat("January 17, 2025 · ", 8) + "January 17, 2025", false},
	} {
		if got := headerLine(tc.line); got != tc.want {
			t.Errorf("headerLine(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestDropHeaderLines(t *testing.T) {
	story := "<p>" + strings.Repeat("The tide rose twice on Thursday evening. ", 10) + "</p>"
	for _, tc := range []struct {
		name, head, html, want string
	}{
		{
			name: "date, reading time and byline next to the title go",
			head: `<meta property="og:type" content="article"><meta property="article:published_time" content="2025-08-04T09:00:00Z"><meta property="article:modified_time" content="2024-03-01">`,
			html: `<p>March 1, 2024</p><h1>Title</h1><p class="dek">A standfirst of a few words.</p>` +
				`<div><time>Aug 04, 2025</time> · <span>8 min read</span></div><p>By <a href="/a">Jane Doe</a></p>` + story,
			want: "# Title\n\nA standfirst of a few words.\n\n" + strings.TrimSpace(strings.Repeat("The tide rose twice on Thursday evening. ", 10)) + "\n",
		},
		{
			name: "a label and the name after it go",
			head: `<meta property="og:type" content="article"><meta property="article:published_time" content="2025-08-04T09:00:00Z"><meta property="article:modified_time" content="2024-03-01">`,
			html: `<h1>Title</h1><p>Last updated</p><time>Aug 04, 2025</time><p>Written by</p><p>Edzel Tabing</p>` + story,
			want: "# Title\n\n" + strings.TrimSpace(strings.Repeat("The tide rose twice on Thursday evening. ", 10)) + "\n",
		},
		{
			name: "after the story has begun, dates stay",
			html: `<h1>Title</h1>` + story + `<p>January 17, 2025</p>`,
			want: "# Title\n\n" + strings.TrimSpace(strings.Repeat("The tide rose twice on Thursday evening. ", 10)) + "\n\nJanuary 17, 2025\n",
		},
		{
			name: "a date before a table stays",
			html: `<h1>Schedule</h1><div>Sunday, February 8, 2026</div><table><tr><th>Match</th></tr><tr><td>SEA v NE</td></tr></table>`,
			want: "# Schedule\n\nSunday, February 8, 2026\n\n| Match |\n|---|\n| SEA v NE |\n",
		},
		{
			name: "a thread's dates stay",
			html: `<h1>Topic</h1><p>Sharon</p><p>28/11/2025 at 7:07 pm</p><p>What would make you consider it?</p>` +
				`<p>Sam</p><p>29/11/2025 at 9:12 am</p><p>The pay.</p>`,
			want: "# Topic\n\nSharon\n\n28/11/2025 at 7:07 pm\n\nWhat would make you consider it?\n\nSam\n\n29/11/2025 at 9:12 am\n\nThe pay.\n",
		},
		{
			name: "a permalink date stays",
			html: `<h1>Topic</h1><ul><li><a href="/post/1">Jan 2, 2024</a></li></ul><p>First post.</p>`,
			want: "# Topic\n\n- [Jan 2, 2024](https://example.com/post/1)\n\nFirst post.\n",
		},
		{
			name: "a byline that is only a link to the author's page goes, other links stay",
			head: `<meta property="og:type" content="article"><meta property="article:published_time" content="2025-08-04T09:00:00Z"><meta property="article:modified_time" content="2024-03-01">`,
			html: `<h1>Title</h1><div><a href="https://substack.com/@jessica">Jessica Talisman</a></div>` +
				`<p><a href="/topics/tides">Tides</a></p><p><a href="/team/">Our whole team of tide watchers</a></p>` + story,
			want: "# Title\n\n[Tides](https://example.com/topics/tides)\n\n[Our whole team of tide watchers](https://example.com/team/)\n\n" +
				strings.TrimSpace(strings.Repeat("The tide rose twice on Thursday evening. ", 10)) + "\n",
		},
		{
			name: "on a page declared an article, the section links before the title go",
			head: `<meta property="og:type" content="article">`,
			html: `<p><a href="/blog/tips">Restaurant Tips</a></p><h1>Title</h1>` + story,
			want: "# Title\n\n" + strings.TrimSpace(strings.Repeat("The tide rose twice on Thursday evening. ", 10)) + "\n",
		},
		{
			name: "on other pages they stay (a product's brand)",
			html: `<p><a href="/brands/acme">Acme</a></p><h1>Anvil</h1>` + story,
			want: "[Acme](https://example.com/brands/acme)\n\n# Anvil\n\n" + strings.TrimSpace(strings.Repeat("The tide rose twice on Thursday evening. ", 10)) + "\n",
		},
		{
			name: "without an h1 nothing goes",
			html: `<h2>Notes</h2><p>January 17, 2025</p><p>8 min read</p>`,
			want: "## Notes\n\nJanuary 17, 2025\n\n8 min read\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := convertInMain(t, Settings{}, tc.head, tc.html); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestDropTOC(t *testing.T) {
	toc := `<ul><li><a href="#why">Why</a></li><li><a href="#how">How</a><ul><li><a href="#cost">Cost</a></li></ul></li></ul>`
	body := `<h2 id="why">Why</h2><p>Because.</p><h2 id="how">How</h2><p>So.</p><h3 id="cost">Cost</h3><p>Little.</p>`
	const text = "## Why\n\nBecause.\n\n## How\n\nSo.\n\n### Cost\n\nLittle.\n"
	for _, tc := range []struct {
		name, head, html, want string
	}{
		{
			name: "a labelled table of contents goes with its label",
			html: `<h1>T</h1><div class="toc"><p>Table of Contents</p>` + toc + `</div>` + body,
			want: "# T\n\n" + text,
		},
		{
			name: "a label before the list's wrapper counts",
			html: `<h1>T</h1><h2>On this page</h2><nav-list><div>` + toc + `</div></nav-list>` + body,
			want: "# T\n\n" + text,
		},
		{
			name: "an unlabelled one goes on a page declared an article",
			head: `<meta property="og:type" content="article">`,
			html: `<h1>T</h1>` + toc + body,
			want: "# T\n\n" + text,
		},
		{
			name: "an unlabelled one stays on other pages (a documentation index)",
			html: `<h1>T</h1>` + toc + body,
			want: "# T\n\n- [Why](https://example.com/section/page#why)\n- [How](https://example.com/section/page#how)\n\n  - [Cost](https://example.com/section/page#cost)\n\n" + text,
		},
		{
			name: "links to the page's own URL with a fragment count, in any block",
			html: `<h1>T</h1><p><strong>Table of Contents</strong></p><div><a href="https://example.com/section/page#why">Why</a>` +
				`<a href="/section/page#how">How</a><a href="page#cost">Cost</a></div>` + body,
			want: "# T\n\n" + text,
		},
		{
			name: "a list of links to other pages stays",
			html: `<h1>T</h1><p>Contents</p><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li><li><a href="/c">C</a></li></ul>`,
			want: "# T\n\nContents\n\n- [A](https://example.com/a)\n- [B](https://example.com/b)\n- [C](https://example.com/c)\n",
		},
		{
			name: "two links are no table of contents",
			html: `<h1>T</h1><p>Contents</p><ul><li><a href="#a">A</a></li><li><a href="#b">B</a></li></ul>`,
			want: "# T\n\nContents\n\n- [A](https://example.com/section/page#a)\n- [B](https://example.com/section/page#b)\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := convertInMain(t, Settings{}, tc.head, tc.html); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestDropCaptions(t *testing.T) {
	for _, tc := range []struct {
		name, html, want string
	}{
		{
			name: "a photo's credit goes, the photo stays",
			html: `<p>Text.</p><figure><img src="/a.jpg" alt="A harbour"><figcaption>Photo: J. Doe / Getty Images</figcaption></figure>` +
				`<figure><img src="/b.jpg" alt="A quay"><figcaption>Credit: Nikon</figcaption></figure>` +
				`<figure><img src="/c.jpg" alt="A pier"><figcaption>J. Doe/Getty Images</figcaption></figure>` +
				`<figure><img src="/d.jpg" alt="A dock"><figcaption>Win McNamee via Getty Images</figcaption></figure>`,
			want: "Text.\n\n![A harbour](https://example.com/a.jpg)\n\n![A quay](https://example.com/b.jpg)\n\n![A pier](https://example.com/c.jpg)\n\n![A dock](https://example.com/d.jpg)\n",
		},
		{
			name: "a caption that says what the picture shows stays",
			html: `<figure><img src="/a.jpg" alt="A harbour"><figcaption>The harbour at dusk, before the second surge.</figcaption></figure>`,
			want: "![A harbour](https://example.com/a.jpg)\n\n*The harbour at dusk, before the second surge.*\n",
		},
		{
			name: "a code listing's and a quote's credits stay",
			html: `<figure><pre>go run .</pre><figcaption>Source: the Go tour</figcaption></figure>` +
				`<figure><blockquote>Quoted.</blockquote><figcaption>Source: someone</figcaption></figure>`,
			want: "```\ngo run .\n```\n\n*Source: the Go tour*\n\n> Quoted.\n\n*Source: someone*\n",
		},
		{
			name: "a caption three pictures share is their items' label",
			html: strings.Repeat(`<figure><img src="/c.png" alt="Coupon"><figcaption>Photo: Acme</figcaption></figure>`, 3),
			want: strings.Repeat("![Coupon](https://example.com/c.png)\n\n*Photo: Acme*\n\n", 2) + "![Coupon](https://example.com/c.png)\n\n*Photo: Acme*\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mainBody(t, tc.html); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestDayOf(t *testing.T) {
	for _, tc := range []struct {
		date string
		want []string
	}{
		{"January 17, 2025", []string{"2025-01-17"}},
		{"Published Jun 4, 2025", []string{"2025-06-04"}},
		{"Sunday, February 8th, 2026 at 7:07 pm", []string{"2026-02-08"}},
		{"Updated: Sept. 3, 2025", []string{"2025-09-03"}},
		{"14 March 2026", []string{"2026-03-14"}},
		{"Last updated on 2025-06-25", []string{"2025-06-25"}},
		{"03/04/2026", []string{"2026-03-04", "2026-04-03"}},
		{"March 2026", []string{"2026-03"}},
		{"8 min read", nil},
	} {
		if got := dayOf(tc.date); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("dayOf(%q) = %v, want %v", tc.date, got, tc.want)
		}
	}
}

// convertInMain converts a page of head and, in its <main>, html, with
// settings and front matter (what it states may leave the body), and
// returns the Markdown after the front matter.
func convertInMain(t *testing.T, settings Settings, head, html string) string {
	t.Helper()
	res, err := mustNew(t, Options{Settings: settings, FrontMatter: true}).Convert([]byte("<head>"+head+"</head><main>"+html+"</main>"), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return afterFrontMatter(string(res.Markdown))
}

// afterFrontMatter returns md without its front matter.
func afterFrontMatter(md string) string {
	if rest, ok := strings.CutPrefix(md, "---\n"); ok {
		if _, body, ok := strings.Cut(rest, "\n---\n"); ok {
			return body
		}
	}
	return md
}
