package convert

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// pruneUnkeptTests are TestPruneUnkept's cases: a landmark's content, the
// text readability kept of it, a Keep selector (or ""), the space-joined
// text left and whether anything was removed.
var pruneUnkeptTests = []struct {
	name    string
	html    string // the landmark's content
	kept    []string
	keep    string // a Keep selector, or ""
	article bool   // the page declares itself an article
	want    string // space-joined text left
	removed bool
}{
	{
		name: "the header's share bar and back link go; its title, byline and picture stay",
		html: `<div><div><a href="/blog">Back to blog</a></div><h1>Title</h1><p class="byline">By Jane Doe</p>` +
			`<ul><li><a href="/share/x">Share on X</a></li><li><a href="/share/fb">Facebook</a></li></ul>` +
			`<figure><img src="/a.jpg" alt="a"><figcaption>The quay at dawn</figcaption></figure></div><p>story</p>`,
		kept:    []string{"story"},
		want:    "Title By Jane Doe The quay at dawn story",
		removed: true,
	},
	{
		name: "a large block holding the title is not looked into (a shop's filters beside it)",
		html: `<div><h1>Parts</h1><ul>` + strings.Repeat(`<li><a href="/c">Screens</a></li>`, 10) + `</ul>` +
			strings.Repeat(`<p>Screens and batteries in stock</p>`, 30) + `</div><p>story</p>`,
		kept: []string{"story"},
		want: "Parts" + strings.Repeat(" Screens", 10) + strings.Repeat(" Screens and batteries in stock", 30) + " story",
	},
	{
		name:    "unkept list goes",
		html:    `<p>story</p><ul><li><a href="/a">other one</a></li><li><a href="/b">other two</a></li></ul>`,
		kept:    []string{"story"},
		want:    "story",
		removed: true,
	},
	{
		name: "a list of teasers after the end that outweighs the article stays (a listing's front page)",
		html: `<p>story</p><div><h2>Latest News</h2>` +
			`<h3><a href="/a">Another story</a></h3><p>` + strings.Repeat("An excerpt of another story that runs on. ", 4) + `</p>` +
			`<h3><a href="/b">A third story</a></h3><p>` + strings.Repeat("An excerpt of a third story that runs on. ", 4) + `</p></div>`,
		kept: []string{"story"},
		want: "story Latest News Another story " + strings.TrimSpace(strings.Repeat("An excerpt of another story that runs on. ", 4)) +
			" A third story " + strings.TrimSpace(strings.Repeat("An excerpt of a third story that runs on. ", 4)),
	},
	{
		name: "a form after the end of a declared article goes with what is beside it",
		html: `<p>story</p><div><h3>Contact us</h3><p>` + strings.Repeat("Let us help: call us or fill out the form. ", 4) + `</p>` +
			`<form><input name="name"><input name="email"><textarea></textarea><button>Send</button></form></div>`,
		kept:    []string{"story"},
		article: true,
		want:    "story",
		removed: true,
	},
	{
		name: "a form after the end of a page not declared an article stays",
		html: `<p>story</p><div><h3>Contact us</h3><p>` + strings.Repeat("Let us help: call us or fill out the form. ", 4) + `</p>` +
			`<form><input name="name"><input name="email"><textarea></textarea><button>Send</button></form></div>`,
		kept: []string{"story"},
		want: "story Contact us " + strings.TrimSpace(strings.Repeat("Let us help: call us or fill out the form. ", 4)) + " Send",
	},
	{
		name: "nothing unkept",
		html: `<p>story</p><p>more</p>`,
		kept: []string{"story", "more"},
		want: "story more",
	},
	{
		name: "tables, code, definition lists and headings stay",
		html: `<p>story</p><table><tr><td>cell</td></tr></table><pre>code</pre><dl><dt>term</dt><dd>def</dd></dl>` +
			`<p><code>x</code></p><h2>section</h2>`,
		kept:    []string{"story"},
		want:    "story cell code term def section",
		removed: true, // the <p> around the <code>
	},
	{
		name: "a section before the story with its heading and paragraphs of its own stays",
		html: `<div><h2>Description</h2>` + strings.Repeat(`<p>The <code>frob</code> command sorts the rows of a table by its key and writes each page back in place, once.</p>`, 5) +
			`</div><p>story</p><div><h2>Options</h2><table><tr><td>cell</td></tr></table><p>a note</p></div><div><h2>Highlights</h2><p>a teaser</p></div>`,
		kept: []string{"story"},
		want: "Description" + strings.Repeat(" The frob command sorts the rows of a table by its key and writes each page back in place, once.", 5) +
			" story Options cell a note",
		removed: true, // the Highlights
	},
	{
		name: "an AsciiDoc section before the story, its paragraphs in <div>s, stays",
		html: `<div class="sect1"><h2>Summary</h2><div class="sectionbody">` + strings.Repeat(`<div class="paragraph"><p>This tutorial walks through a change to the tree, from the first commit to its review on the list.</p></div>`, 5) +
			`</div></div><p>story</p>`,
		kept: []string{"story"},
		want: "Summary" + strings.Repeat(" This tutorial walks through a change to the tree, from the first commit to its review on the list.", 5) + " story",
	},
	{
		name: "inline elements stay",
		html: `<p>By <a href="/me">Me</a> and <span>you</span></p>`,
		kept: []string{"By", "and"},
		want: "By Me and you",
	},
	{
		name:    "a block needs a tenth of its text kept",
		html:    `<p>story text</p><div><span>Photo</span><p>a long teaser about another story entirely, with a summary of it that runs on</p></div>`,
		kept:    []string{"story text", "Photo"},
		want:    "story text",
		removed: true,
	},
	{
		name: "the article's header before the story stays",
		html: `<div class="head"><h1>Title</h1><p>14 March</p></div><p>story</p><div><h2>Most popular</h2><p>teaser</p></div>`,
		kept: []string{"story"},
		want: "Title 14 March story",
		// the block after the story goes, heading and all
		removed: true,
	},
	{
		name:    "a long block before the story goes unless it holds the h1",
		html:    `<div><h2>Highlights</h2>` + strings.Repeat("<p>a teaser about another story</p>", 20) + `</div><p>story</p>`,
		kept:    []string{"story"},
		want:    "story",
		removed: true,
	},
	{
		name: "a long block before the story with the h1 stays",
		html: `<div><h1>Title</h1><p>` + strings.Repeat("caption ", 80) + `</p></div><p>story</p>`,
		kept: []string{"story"},
		want: "Title " + strings.TrimSpace(strings.Repeat("caption ", 80)) + " story",
	},
	{
		name: "prose and forms stay",
		html: `<p>story</p><div><p>` + strings.Repeat("words ", 80) + `</p></div><form><label>Email</label><input type="email"><textarea></textarea><button>Send</button></form>` +
			`<form><input type="search"><button>Search</button></form>`,
		kept:    []string{"story"},
		want:    "story " + strings.TrimSpace(strings.Repeat("words ", 80)) + " Email Send",
		removed: true, // the one-field search form
	},
	{
		name:    "bylines stay",
		html:    `<p>story</p><div class="author-byline">Jane Doe</div><div class="author-card">Jane writes about tides.</div>`,
		kept:    []string{"story"},
		want:    "story Jane Doe",
		removed: true, // the bio card
	},
	{
		name: "quotes stay with their attribution",
		html: `<p>story</p><blockquote><p>quoted</p><footer>— someone</footer></blockquote>`,
		kept: []string{"story", "quoted"},
		want: "story quoted — someone",
	},
	{
		name: "kept elements stay",
		html: `<p>story</p><div class="bio">about the author</div>`,
		kept: []string{"story"},
		keep: ".bio",
		want: "story about the author",
	},
	{
		name: "the path to a kept element stays",
		html: `<p>story</p><div class="card"><p>chrome</p><p class="bio">about the author</p></div>`,
		kept: []string{"story"},
		keep: ".bio",
		want: "story about the author",
		// the chrome paragraph beside it goes
		removed: true,
	},
	{
		// securityinfowatch.com, turbotax.intuit.com: an author box
		// after the story, its bio long enough to count as prose
		name: "after the story, unkept prose and bylines go",
		html: `<p>` + strings.Repeat("story ", 250) + `</p><div class="author-box"><h2>About the author</h2>` +
			`<p class="byline">Jane Doe</p><p>` + strings.Repeat("bio ", 150) + `</p></div>`,
		kept:    []string{strings.TrimSpace(strings.Repeat("story ", 250))},
		want:    strings.TrimSpace(strings.Repeat("story ", 250)), // heading and all
		removed: true,
	},
	{
		// a forum topic: readability took the first post; the replies
		// after it are the rest of the page
		name: "after the story, unkept prose of half the story's length stays",
		html: `<p>` + strings.Repeat("post ", 120) + `</p><div class="reply"><p>` + strings.Repeat("reply ", 100) + `</p></div>`,
		kept: []string{strings.TrimSpace(strings.Repeat("post ", 120))},
		want: strings.TrimSpace(strings.Repeat("post ", 120)) + " " + strings.TrimSpace(strings.Repeat("reply ", 100)),
	},
	{
		// upliftdesk.com's standing desks: readability took the
		// category's introduction; the product cards after it are the
		// page
		name: "after the story, unkept blocks of over six times its text stay",
		html: `<p>Desks that stand</p>` + strings.Repeat(`<div class="card"><a href="/d">Desk</a><span>from $599, in stock</span></div>`, 12),
		kept: []string{"Desks that stand"},
		want: "Desks that stand" + strings.Repeat(" Desk from $599, in stock", 12),
	},
	{
		// accreditedschoolsonline.org: readability ended the article
		// before a section's plain paragraphs; a heading and a table of
		// the article follow them
		name: "after readability's end, plain text before a heading or a table stays",
		html: `<p>` + strings.Repeat("story ", 120) + `</p><div class="intro"><p>Compare the three main types of certificate programs below, by the credits they use and what they cost.</p></div>` +
			`<h3>Undergraduate</h3><table><tr><td>credits</td></tr></table>` +
			`<div class="bio"><p>Jane Doe writes about schools and the cost of a degree for this site.</p></div>`,
		kept: []string{strings.TrimSpace(strings.Repeat("story ", 120))},
		want: strings.TrimSpace(strings.Repeat("story ", 120)) + " Compare the three main types of certificate programs below, by the credits they use and what they cost. Undergraduate credits",
		// the plain text after the last block that stays (the table) goes
		removed: true,
	},
	{
		name: "before the story's end, unkept prose stays",
		html: `<p>` + strings.Repeat("story ", 120) + `</p><div><p>` + strings.Repeat("aside ", 90) + `</p></div><p>end</p>`,
		kept: []string{strings.TrimSpace(strings.Repeat("story ", 120)), "end"},
		want: strings.TrimSpace(strings.Repeat("story ", 120)) + " " + strings.TrimSpace(strings.Repeat("aside ", 90)) + " end",
	},
	{
		// github.blog and a target.com category: readability's article
		// was none of the landmark's blocks; pruning them all emptied
		// the page ("page has no content")
		name: "nothing goes when everything would",
		html: `<div class="cards"><a href="/a">First post</a><a href="/b">Second post</a></div><div class="more"><a href="/c">Third post</a><a href="/d">Fourth</a></div>`,
		kept: []string{"an unrelated sentence"},
		want: "First post Second post Third post Fourth",
	},
}

// TestPruneUnkept checks which blocks of a landmark go when readability
// kept only some of its text: blocks without kept text go, unless they are
// protected, inline, kept, a byline or the article's header; after the
// article's end, prose and bylines go too, unless they are much of the page.
func TestPruneUnkept(t *testing.T) {
	for _, tt := range pruneUnkeptTests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader("<main>" + tt.html + "</main>"))
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{}
			if tt.keep != "" {
				opts.Keep = []string{tt.keep}
			}
			cl := mustNew(t, opts).newCleaner(doc, false)
			cl.article = tt.article
			kept := map[string]bool{}
			for _, k := range tt.kept {
				kept[k] = true
			}
			main := findFirst(doc, atom.Main)
			removed := pruneUnkept(main, kept, cl)
			if got := strings.Join(texts(main), " "); got != tt.want {
				t.Errorf("text left = %q, want %q", got, tt.want)
			}
			if removed != tt.removed {
				t.Errorf("removed = %v, want %v", removed, tt.removed)
			}
		})
	}
}

// TestRefineRespectsKeep converts the article-in-main golden page with its
// author card kept: refine must leave it in place, once.
func TestRefineRespectsKeep(t *testing.T) {
	in, err := os.ReadFile("testdata/golden/article-in-main.html")
	if err != nil {
		t.Fatal(err)
	}
	c := mustNew(t, Options{Settings: Settings{Keep: []string{".author-card"}}})
	res, err := c.Convert(in, testURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	md := string(res.Markdown)
	if n := strings.Count(md, "covers the coast"); n != 1 {
		t.Errorf("kept author card appears %d times, want 1:\n%s", n, md)
	}
	for _, gone := range []string{"Most popular", "Save this story", "Captions off"} {
		if strings.Contains(md, gone) {
			t.Errorf("output still holds chrome %q", gone)
		}
	}
}

// TestRefineLeavesLandmarkIntact checks that readability, which prepares
// the tree it is given (it turns <br><br> runs into paragraphs, <font> into
// <span>), works on a copy: a landmark it judges an article but with
// nothing to prune is left byte for byte as it was.
func TestRefineLeavesLandmarkIntact(t *testing.T) {
	para := `<p>` + strings.Repeat("A sentence long enough to count as prose for the check. ", 6) + `</p>`
	page := `<main><h1>Title</h1>` + para + `<div>line one<br><br>line two <font>old</font></div>` + para + para + `</main>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	main := findFirst(doc, atom.Main)
	if p := newReadability(); !p.CheckDocument(main) {
		t.Fatal("readability does not judge the test landmark an article; the test checks nothing")
	}
	var before, after strings.Builder
	_ = html.Render(&before, main)
	c := mustNew(t, Options{})
	got := refine(content{[]*html.Node{main}, "landmark:main"}, testURL, c.newCleaner(doc, false))
	_ = html.Render(&after, main)
	if before.String() != after.String() {
		t.Errorf("landmark changed:\nbefore %s\nafter  %s", before.String(), after.String())
	}
	if got.how != "landmark:main" || len(got.roots) != 1 || got.roots[0] != main {
		t.Errorf("refine = %+v, want the landmark unchanged", got)
	}
}

func TestCountElements(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader(`<main><p>a <b>b</b></p><ul><li>c</li><li>d</li></ul></main>`))
	main := findFirst(doc, atom.Main)
	for _, tt := range []struct{ limit, want int }{{100, 5}, {5, 5}, {3, 3}, {0, 0}} {
		if got := countElements(main, tt.limit); got != tt.want {
			t.Errorf("countElements(limit %d) = %d, want %d", tt.limit, got, tt.want)
		}
	}
}

// TestCloneTree checks that the copy readability works on is deep and
// independent of the landmark.
func TestCloneTree(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader(`<main class="m"><p>one <b>two</b></p></main>`))
	main := findFirst(doc, atom.Main)
	cp := cloneTree(main)
	cp.FirstChild.AppendChild(&html.Node{Type: html.TextNode, Data: " three"})
	cp.Attr[0].Val = "changed"
	if got := textOf(main); got != "one two" {
		t.Errorf("original text = %q after changing the copy", got)
	}
	if attr(main, "class") != "m" {
		t.Errorf("original class = %q after changing the copy", attr(main, "class"))
	}
	if got := textOf(cp); got != "one two three" {
		t.Errorf("copy text = %q", got)
	}
}

// texts returns the space-trimmed text nodes under n, in document order.
func texts(n *html.Node) []string {
	var out []string
	if n.Type == html.TextNode {
		if t := strings.TrimSpace(n.Data); t != "" {
			out = append(out, t)
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, texts(c)...)
	}
	return out
}
