package convert

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoNoHarm holds the pages on which the header-line, contents-list and
// credit rules of convert/12 to convert/18 removed real content (the
// session 11 review): each text in keep must reach the Markdown.
func TestDoNoHarm(t *testing.T) {
	story := "<p>" + strings.Repeat("The tide rose twice on Thursday evening. ", 10) + "</p>"
	const article = `<meta property="og:type" content="article"><meta property="article:published_time" content="2026-03-01">`
	for _, tc := range []struct {
		name, head, html string
		settings         Settings
		keep             []string
	}{
		{
			name:     "1. keep protects the inside of a kept element",
			head:     article,
			settings: Settings{Keep: []string{".byline"}},
			html:     `<h1>Title</h1><div class="byline"><p>By Jane Doe</p><p>8 min read</p></div>` + story,
			keep:     []string{"By Jane Doe", "8 min read"},
		},
		{
			name: "2. a contact page's lines are no byline",
			html: `<h1>Contact us</h1><ul><li>By phone: 555-0100</li><li>By email: help@example.com</li><li>By post</li></ul>` + story,
			keep: []string{"555-0100", "help@example.com", "By post"},
		},
		{
			name: "3. a team page's links to its people stay",
			head: article,
			html: `<h1>Our team</h1><ul><li><a href="/team/alice">Alice Smith</a></li><li><a href="/team/bob">Bob Jones</a></li><li><a href="/team/carol">Carol White</a></li></ul>` + story,
			keep: []string{"Alice Smith", "Bob Jones", "Carol White"},
		},
		{
			name: "3. names as blocks side by side stay",
			head: article,
			html: `<h1>Our team</h1><div><a href="/people/alice">Alice Smith</a></div><div><a href="/people/bob">Bob Jones</a></div>` + story,
			keep: []string{"Alice Smith", "Bob Jones"},
		},
		{
			name: "4. an event's date stays",
			html: `<h1>Annual Gophers Conference</h1><p>March 12, 2026</p>` + story,
			keep: []string{"March 12, 2026"},
		},
		{
			name: "4. a release's date stays when the metadata has another day",
			head: `<meta property="article:published_time" content="2026-01-05">`,
			html: `<h1>Release 2.4</h1><p>Released on 2026-02-10</p><p>Updated: February 10, 2026</p>` + story,
			keep: []string{"February 10, 2026"},
		},
		{
			name: "4. a byline stays on a page that is no article and names no author",
			html: `<h1>Guest notes</h1><p>By Jane Doe</p>` + story,
			keep: []string{"By Jane Doe"},
		},
		{
			name: "4. a blog index's cards keep their authors and dates",
			head: article,
			html: `<h1>Blog</h1><h2>First post</h2><p>By Jane Doe · March 1, 2026</p><p>A teaser.</p>` +
				`<h2>Second post</h2><p>By Sam Roe · March 1, 2026</p><p>Another teaser.</p>`,
			keep: []string{"By Jane Doe", "By Sam Roe"},
		},
		{
			name: "5. captions that are no credit alone stay",
			html: `<p>Text.</p><figure><img src="/a.png" alt="a"><figcaption>Image: the new settings panel</figcaption></figure>` +
				`<figure><img src="/b.png" alt="b"><figcaption>Image bytes per pixel by format</figcaption></figure>` +
				`<figure><img src="/c.jpg" alt="c"><figcaption>Flooding in Valencia on Tuesday (Reuters)</figcaption></figure>` +
				`<figure><img src="/d.png" alt="d"><figcaption>Source: Bureau of Labor Statistics, 2025</figcaption></figure>` +
				`<figure><img src="/e.jpg" alt="e"><figcaption>The quay in 1950. Credit: Nikon</figcaption></figure>`,
			keep: []string{"the new settings panel", "Image bytes per pixel", "Flooding in Valencia", "Bureau of Labor Statistics", "The quay in 1950"},
		},
		{
			name:     "6. prune off keeps header lines, contents lists and credits",
			head:     article,
			settings: Settings{PruneDefaults: Bool(false)},
			html: `<h1>Title</h1><p>By Jane Doe</p><p>March 1, 2026</p><p>Contents</p><ul><li><a href="#a">A</a></li><li><a href="#b">B</a></li><li><a href="#c">C</a></li></ul>` +
				`<figure><img src="/a.jpg" alt="a"><figcaption>Photo: J. Doe</figcaption></figure>` + story,
			keep: []string{"By Jane Doe", "March 1, 2026", "Contents", "[B]", "Photo: J. Doe"},
		},
		{
			name: "7. a hash router's tabs stay",
			head: article,
			html: `<h1>Title</h1>` + story + `<ul><li><a href="#/overview">Overview</a></li><li><a href="#/pricing">Pricing</a></li><li><a href="#!/faq">FAQ</a></li></ul>`,
			keep: []string{"Overview", "Pricing", "FAQ"},
		},
		{
			name: "8. a reference page's summary that is its description stays (no article, no date)",
			head: `<meta name="description" content="Add file contents to the index and record them for the next commit">`,
			html: `<div class="sect1"><h1>git-add(1)</h1><p>Add file contents to the index and record them for the next commit</p></div>` + story,
			keep: []string{"Add file contents to the index"},
		},
		{
			name: "8. an article's lede that is its description stays",
			head: article + `<meta name="description" content="The tide rose twice on Thursday evening, and the quay went under.">`,
			html: `<h1>Floods</h1><p>The tide rose twice on Thursday evening, and the quay went under.</p>` + story,
			keep: []string{"and the quay went under"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := convertInMain(t, tc.settings, tc.head, tc.html)
			for _, k := range tc.keep {
				if !strings.Contains(md, k) {
					t.Errorf("%q lost:\n%s", k, md)
				}
			}
		})
	}
}

// TestHarmStillRemoves holds what the rules are for: on an article whose
// metadata has the day, its header lines, contents list and credits go.
func TestHarmStillRemoves(t *testing.T) {
	story := "<p>" + strings.Repeat("The tide rose twice on Thursday evening. ", 10) + "</p>"
	page := `<head><meta property="og:type" content="article"><meta property="article:published_time" content="2026-03-01"></head><main>` +
		`<h1>Title</h1><p>By Jane Doe</p><p>March 1st, 2026</p><p>Updated: 03/01/2026</p><ul><li>8 min read</li></ul>` +
		`<p>Contents</p><ul><li><a href="#a">A</a></li><li><a href="#b">B</a></li><li><a href="#c">C</a></li></ul>` +
		`<figure><img src="/a.jpg" alt="a"><figcaption>Photo: J. Doe / Getty Images</figcaption></figure>` + story + `</main>`
	res, err := mustNew(t, Options{FrontMatter: true}).Convert([]byte(page), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := afterFrontMatter(string(res.Markdown))
	for _, gone := range []string{"Jane Doe", "March 1st", "03/01/2026", "8 min", "Contents", "[B]", "Getty"} {
		if strings.Contains(body, gone) {
			t.Errorf("%q stayed:\n%s", gone, res.Markdown)
		}
	}
}

// TestNoFrontMatterKeepsWhatItWouldState: without front matter, a header
// line on the page's day and a standfirst that repeats the description
// stay, since nothing else in the Markdown states them.
func TestNoFrontMatterKeepsWhatItWouldState(t *testing.T) {
	const desc = "How the harbour's tide tables were drawn before computers did it"
	page := `<head><meta property="og:type" content="article"><meta property="article:published_time" content="2026-03-01">` +
		`<meta name="description" content="` + desc + `"></head><main><header><h1>Title</h1><p>` + desc + `</p><p>March 1st, 2026</p></header>` +
		"<p>" + strings.Repeat("The tide rose twice on Thursday evening. ", 10) + "</p></main>"
	res, err := mustNew(t, Options{}).Convert([]byte(page), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{desc, "March 1st, 2026"} {
		if !strings.Contains(string(res.Markdown), k) {
			t.Errorf("%q lost:\n%s", k, res.Markdown)
		}
	}
	res, err = mustNew(t, Options{FrontMatter: true}).Convert([]byte(page), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if body := afterFrontMatter(string(res.Markdown)); strings.Contains(body, desc) || strings.Contains(body, "March 1st") {
		t.Errorf("with front matter, the standfirst and the date stayed in the body:\n%s", res.Markdown)
	}
}

// TestReferenceSectionsStay: on two reference pages of the PostgreSQL
// manual (DocBook XSL, no landmark; testdata/postgres, with their
// licence) and SQLite's quick start, readability keeps a part of the page
// and the body narrowed with it as an oracle must still keep every
// section that is content: a section of short paragraphs that name
// things in <code> (CREATE TABLE's Description and Notes), a section that
// is a table (cube's Syntax), a heading's only list (SQLite's steps), the
// headings of sections readability keeps the text of (SQLite's <h1>s).
func TestReferenceSectionsStay(t *testing.T) {
	for _, tc := range []struct {
		page string
		keep []string
	}{
		{"sql-createtable.html", []string{"## Description", "will create a new, initially empty table", "## Notes", "### Temporary Tables", "## Compatibility"}},
		// DocBook numbers a heading with a no-break space: "F.11.1.\u00a0Syntax"
		{"cube.html", []string{"### F.11.1.\u00a0Syntax", "Cube External Representations", "### F.11.3.\u00a0Usage"}},
		// SQLite's quick start (testdata/sqlite): readability keeps the
		// last of three steps; the first two keep their lists
		{"../sqlite/quickstart.html", []string{"## Download The Code", "prebuilt binaries", "## Create A New Database", "sqlite3 test.db"}},
		// SQLite's sections are <h1>s, which readability drops while it
		// keeps their text: the headings stay over their sections
		{"../sqlite/sharedcache.html", []string{"3. Thread Related Issues", "5. Enabling Shared-Cache Mode", "In SQLite versions 3.3.0 through 3.4.2"}},
	} {
		t.Run(tc.page, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", "postgres", tc.page))
			if err != nil {
				t.Fatal(err)
			}
			u, _ := url.Parse("https://www.postgresql.org/docs/15/" + tc.page)
			res, err := mustNew(t, Options{}).Convert(in, u, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range tc.keep {
				if !strings.Contains(string(res.Markdown), k) {
					t.Errorf("%q lost (extraction %s)", k, res.Extraction)
				}
			}
		})
	}
}

// TestDocBookSidebarStays: a DocBook sidebar (a "NOTE" box of the Debian
// handbook, div.sidebar with its div.titlepage), which readability drops
// as a sidebar whatever it holds, is a dropped block: the page is
// narrowed with readability as an oracle, which keeps the box.
func TestDocBookSidebarStays(t *testing.T) {
	prose := func(topic string) string {
		return "<p>" + strings.Repeat("The "+topic+" of a machine is set once at installation and kept by the system from then on. ", 6) + "</p>"
	}
	page := `<html><head><title>Other configurations</title></head><body>` +
		`<ul class="docnav"><li><a href="/prev.html">Prev</a></li><li><a href="/up.html">Up</a></li><li><a href="/">Home</a></li><li><a href="/next.html">Next</a></li></ul>` +
		`<div class="section"><div class="titlepage"><h2 class="title">8.9. Other configurations</h2></div>` +
		`<div class="section"><div class="titlepage"><h3 class="title">8.9.1. Timezone</h3></div>` + prose("timezone") +
		`<div class="sidebar"><div class="titlepage"><div><div><p class="title"><strong>NOTE System clock, hardware clock</strong></p></div></div></div>` +
		`<p>There are two time sources in a computer. A computer's motherboard has a hardware clock, called the CMOS clock. This clock is not very precise, and provides rather slow access times. The operating system kernel has its own, the software clock, which it keeps up to date with its own means.</p></div>` +
		prose("clock") + `</div><div class="section"><div class="titlepage"><h3 class="title">8.9.2. Rotating log files</h3></div>` + prose("log rotation") + `</div></div></body></html>`
	res, err := mustNew(t, Options{}).Convert([]byte(page), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"two time sources", "8.9.2. Rotating log files"} {
		if !strings.Contains(string(res.Markdown), k) {
			t.Errorf("%q lost (extraction %s):\n%s", k, res.Extraction, res.Markdown)
		}
	}
}

// TestLinkHeadingIsNotChrome: a section whose heading is a link (AsciiDoc
// writes a section titled with a URL as <div class="sect3"><h4><a>)
// is a title, not a menu, as a paragraph of links is a sentence: the page
// has no chrome and is its content whole. Judged a menu, it sent git-doc's
// ToolsForGit to readability, which kept two of its sections and dropped
// the Summary, its Author and the Table of contents.
func TestLinkHeadingIsNotChrome(t *testing.T) {
	para := func(s string) string { return `<div class="paragraph"><p>` + s + `</p></div>` }
	page := `<html><head><title>Tools for the project</title></head><body class="article">` +
		`<div id="header"><h1>Tools for the project</h1></div><div id="content">` +
		`<div class="sect1"><h2 id="summary">Summary</h2><div class="sectionbody">` +
		para("These notes collect scripts and settings that help people who work on the code base use their editor of choice.") +
		`<div class="sect2"><h3 id="author">Author</h3>` + para("The project's contributors.") + `</div></div></div>` +
		`<div class="sect1"><h2 id="toc">Table of contents</h2><div class="sectionbody">` +
		`<div class="ulist"><ul><li><p><a href="#editor">[editor]</a></p></li><li><p><a href="#shell">[shell]</a></p></li></ul></div>` +
		`<div class="sect2"><h3 id="editor">An editor</h3>` + para(strings.Repeat("A script in the contrib directory writes the settings that turn on the editor's checks; its README says how to run it and what it changes. ", 3)) + `</div>` +
		`<div class="sect2"><h3 id="shell">A shell</h3>` + para(strings.Repeat("The shell's settings follow the coding style of the project, which is close to the kernel's: tabs of eight columns and lines of eighty. ", 3)) +
		`<div class="listingblock"><div class="content"><pre><code>set tabstop=8
set textwidth=80</code></pre></div></div>` +
		`<div class="sect3"><h4 id="_style"><a href="https://example.org/coding-style.html#a-mess">https://example.org/coding-style.html#a-mess</a></h4></div>` +
		`</div></div></div></div><div id="footer"><div id="footer-text">Last updated 2024-05-31</div></div></body></html>`
	res, err := mustNew(t, Options{}).Convert([]byte(page), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"## Summary", "editor of choice", "### Author", "## Table of contents", "[\\[editor\\]](", "set tabstop=8", "#### [https://example.org/coding-style.html#a-mess]"} {
		if !strings.Contains(string(res.Markdown), k) {
			t.Errorf("%q lost (extraction %s):\n%s", k, res.Extraction, res.Markdown)
		}
	}
}

// TestAuthorAddressesStay: a manual's title page (the Debian handbook's
// index: DocBook's div.authorgroup, each author a heading over a mailto:
// link) is cleaned as a page without a landmark, and a block of e-mail
// addresses is not a list of links to other pages: the authors stay.
func TestAuthorAddressesStay(t *testing.T) {
	var toc strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&toc, `<dt><span class="chapter"><a href="chapter-%d.html">%d. Chapter %d of the book</a></span></dt>`, i, i, i)
	}
	page := `<html><head><title>The Administrator's Handbook</title></head><body>` +
		`<div id="banner"><a href="https://handbook.example/get/"><span class="text">Download the ebook</span></a></div>` +
		`<ul class="docnav top"><li class="home">The Administrator's Handbook</li><li class="next"><a href="preface.html"><strong>Next</strong></a></li></ul>` +
		`<div class="book"><div class="titlepage"><div><h1 class="title">The Administrator's Handbook</h1></div>` +
		`<div><h2 class="subtitle">From Discovery to Mastery</h2></div><p class="edition">Edition 1</p>` +
		`<div><div class="authorgroup"><div class="author"><h3 class="author"><span class="firstname">Ada</span> <span class="surname">Lovelace</span></h3>` +
		`<code class="email"><a class="email" href="mailto:ada@handbook.example">ada@handbook.example</a></code></div>` +
		`<div class="author"><h3 class="author"><span class="firstname">Alan</span> <span class="surname">Turing</span></h3>` +
		`<code class="email"><a class="email" href="MAILTO:alan@handbook.example">alan@handbook.example</a></code></div></div></div>` +
		`<div><p class="copyright">Copyright © 2003–2022 Ada Lovelace</p></div>` +
		`<div class="legalnotice"><h1 class="legalnotice">Legal Notice</h1><div class="para">This book is available under the terms of two licences compatible with the free software guidelines, and you may share it and change it under either of them.</div></div></div>` +
		`<div class="toc"><dl class="toc">` + toc.String() + `</dl></div></div></body></html>`
	res, err := mustNew(t, Options{}).Convert([]byte(page), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"### Ada Lovelace", "ada@handbook.example", "### Alan Turing", "# Legal Notice"} {
		if !strings.Contains(string(res.Markdown), k) {
			t.Errorf("%q lost (extraction %s):\n%s", k, res.Extraction, res.Markdown)
		}
	}
}

// TestLayoutTableSidebarGoes: an old blog laid out in a table (the post in
// one cell, a sidebar of links under headings in the next) has chrome:
// the cells of a layout table are the page's blocks, not a data table
// whose links are its data. Judged chrome-free, the page was converted
// whole, the sidebar's "Official links" with it.
func TestLayoutTableSidebarGoes(t *testing.T) {
	post := strings.Repeat("<p>The update adds new stone blocks with smooth versions, a slime block, an iron trapdoor and a monument under the ocean, guarded by new mobs that drop their own items.</p>", 6)
	page := `<html><head><title>The Bountiful Update</title></head><body><table><tbody><tr>` +
		`<td class="content" valign="top"><h1>Update News</h1><div class="post"><h3><a href="/post/1/the-bountiful-update">The Bountiful Update</a></h3>` + post + `</div>` +
		`<a href="/post/2" title="Newer Posts">Newer</a><a href="/post/0" title="Older Posts">Older</a></td>` +
		`<td class="sidebar" valign="top"><h2>Official links:</h2><a href="https://game.example/">Game site</a><br /><a href="https://game.example/realms">Realms</a><br />` +
		`<a href="https://social.example/game">Game on Social</a><br /><a href="https://shop.example/game">Merchandise</a><br /><br /><a href="https://bugs.example/">Bug tracker</a><br />` +
		`<a href="https://help.example">Account Support</a><br /><br /><b>Try our other games!</b><br /><h2>Community links:</h2><a href="https://forum.example/">Game Forums</a><br />` +
		`<a href="https://video.example/game">Game on Video</a><br /></td></tr></tbody></table></body></html>`
	res, err := mustNew(t, Options{}).Convert([]byte(page), testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	md := string(res.Markdown)
	if !strings.Contains(md, "iron trapdoor") {
		t.Errorf("the post was lost (extraction %s):\n%s", res.Extraction, md)
	}
	for _, k := range []string{"Official links", "Bug tracker", "Community links"} {
		if strings.Contains(md, k) {
			t.Errorf("%q stayed (extraction %s):\n%s", k, res.Extraction, md)
		}
	}
}
