package convert

import (
	"net/url"
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dropped are the elements that never carry readable content: they are
// removed from the whole document before the content is chosen. A <select>
// inside a <form> is the exception: its options are what a visitor may
// choose from (see formControl).
var dropped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Canvas: true, atom.Iframe: true, atom.Object: true,
	atom.Embed: true, atom.Link: true, atom.Meta: true, atom.Select: true, atom.Head: true,
}

// strip removes the dropped elements and the comments from the document,
// once the segments a streaming server sent late are in place
// (revealStreamed).
// It reports whether the page had a <script>: a page that has no text of
// its own but has scripts is an application shell. When the body is such a
// shell and its <noscript> elements hold markup (a Discourse forum serves
// its whole topic that way), that markup is the page's content: it takes
// the place of its <noscript> (see promoteNoscript).
func strip(doc *html.Node) (scripts bool) {
	revealStreamed(doc)
	if body := findFirst(doc, atom.Body); body != nil {
		promoteNoscript(body)
	}
	return stripIn(doc, false)
}

// promoteNoscript replaces each <noscript> under body by the markup it
// holds, parsed, when body is an application shell: it holds no text
// outside its scripts, styles and <noscript> elements but a notice
// ("Loading...", "Something went wrong while trying to load the full
// version of this site", as Flarum serves a discussion), less than a
// noscriptShare of the markup's text.
// The parser reads a <noscript>'s content as raw text (scripting on, as a
// browser does); a fragment that would nest deeper than MaxDepth is left
// out.
func promoteNoscript(body *html.Node) {
	var found []*html.Node
	collectNoscript(body, &found)
	if len(found) == 0 {
		return
	}
	visible := textLen(visibleText(body))
	ctx := element(atom.Div)
	type fragment struct {
		at    *html.Node
		nodes []*html.Node
	}
	var frags []fragment
	text, heading := 0, false
	for _, ns := range found {
		var raw strings.Builder
		for c := ns.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				raw.WriteString(c.Data)
			}
		}
		nodes, err := html.ParseFragment(strings.NewReader(raw.String()), ctx)
		if err != nil {
			continue
		}
		room := MaxDepth - depthOf(ns)
		f := fragment{at: ns}
		for _, c := range nodes {
			if depthExceeds(c, room) {
				continue
			}
			f.nodes = append(f.nodes, c)
			text += textLen(visibleText(c))
			heading = heading || headingLevel(c) > 0 || findHeading(c, 6)
		}
		frags = append(frags, f)
	}
	// A sentence asking for JavaScript ("You need to enable JavaScript to
	// run this app.") is not the page's content: the markup must hold a
	// heading or more than a short notice.
	if !heading && text < minNoscriptText || float64(visible) > noscriptShare*float64(text) {
		return
	}
	for _, f := range frags {
		for _, c := range f.nodes {
			f.at.Parent.InsertBefore(c, f.at)
		}
	}
}

// minNoscriptText is the least text (non-space bytes) a shell's <noscript>
// markup without a heading must hold to be taken for the page's content:
// more than the notices that ask for JavaScript (38 to 90 bytes).
const minNoscriptText = 200

// visibleText is the text under n outside scripts, styles and <noscript>.
func visibleText(n *html.Node) string { return textUnder(n, true) }

// noscriptShare is the most text a shell may show outside its <noscript>
// elements, as a share of the text of their markup: its notices.
const noscriptShare = 0.2

// collectNoscript appends the <noscript> elements under n to found.
func collectNoscript(n *html.Node, found *[]*html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.DataAtom == atom.Noscript && c.Namespace == "" {
			*found = append(*found, c)
			continue
		}
		collectNoscript(c, found)
	}
}

// depthOf returns how many ancestors n has.
func depthOf(n *html.Node) int {
	d := 0
	for p := n.Parent; p != nil; p = p.Parent {
		d++
	}
	return d
}

// stripIn is strip for the children of n; inForm is true under a <form>.
func stripIn(n *html.Node, inForm bool) (scripts bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && (c.DataAtom == atom.Script || c.DataAtom == atom.Head && findFirst(c, atom.Script) != nil) {
			scripts = true
		}
		switch {
		case c.Type == html.CommentNode,
			c.Type == html.ElementNode && dropped[c.DataAtom] && c.Namespace == "" &&
				!(inForm && c.DataAtom == atom.Select):
			n.RemoveChild(c)
		case c.Type == html.ElementNode && c.Namespace != "":
			// <svg> and <math> content parsed in a foreign namespace.
			if c.Data == "svg" {
				n.RemoveChild(c)
			}
		default:
			if stripIn(c, inForm || c.Type == html.ElementNode && c.DataAtom == atom.Form) {
				scripts = true
			}
		}
		c = next
	}
	return scripts
}

// cleaner prunes the chosen content and rewrites what html-to-markdown would
// render badly. It is built per conversion.
type cleaner struct {
	prune    *selectorSet        // nil for none
	keep     map[*html.Node]bool // elements Keep matched
	keepList []*html.Node        // the same, in document order
	keepPath map[*html.Node]bool // their ancestors
	// thread are the comment threads that are the page (see
	// threadIsPage): the prune rules do not remove them.
	thread map[*html.Node]bool
	opts   *Options
	// article: the page declares itself an article (declaredArticle).
	article bool
	// base is the document's base URL (dropTOC tells links to the page's
	// own fragments by it); nil in tests that build a cleaner by hand.
	base *url.URL
	// days are the page's own dates (YYYY-MM-DD) its front matter states
	// (published, updated): a header date of another day stays.
	days []string
	// byAuthor: the page is an article or its metadata names an author,
	// so a byline next to its title may go (dropTitleLines).
	byAuthor bool
	// description is the page's description its front matter states, on
	// a page declared an article or with a published date (a shop's or a
	// service's tagline under its title is their content): a standfirst
	// that repeats it may go (dropStandfirst).
	description string
	// headerLines: dropHeaderLines runs, as part of the default pruning
	// (Settings.PruneDefaults).
	headerLines bool
}

// pruned reports whether the prune rules remove n (kept elements aside).
func (cl *cleaner) pruned(n *html.Node) bool {
	return cl.prune != nil && cl.prune.Match(n) && !cl.thread[n]
}

// threadSel matches the comment threads the default prune rules remove.
var threadSel = cascadia.MustCompile("#comments, .comments-area, .comment-list, .commentlist, #disqus_thread, .wp-block-comments, .wp-block-post-comments")

// threadIsPage finds the comment threads under body that are the page
// rather than its appendix: a forum topic (Invision, phpBB themes) holds
// its posts, the first one included, in a #comments block, where a blog
// holds its article outside the thread. On a page that declares itself a
// discussion (declaredDiscussion) every thread is the page; elsewhere, a
// thread holding more than threadShare times the body's other text
// (outside the prune rules) is. Such threads stay.
func (cl *cleaner) threadIsPage(body *html.Node, discussion bool) {
	if cl.prune == nil || body == nil {
		return
	}
	for _, m := range topMatches(body, threadSel) {
		if !cl.prune.Match(m) {
			continue
		}
		if !discussion {
			inside := textLen(textOf(m))
			if outside := textBeside(body, map[*html.Node]bool{m: true}, cl); float64(inside) <= threadShare*float64(outside) {
				continue
			}
		}
		if cl.thread == nil {
			cl.thread = make(map[*html.Node]bool)
		}
		cl.thread[m] = true
	}
}

// threadShare is how many times the text outside it a comment thread must
// hold to be the page.
const threadShare = 2

// newCleaner matches the Keep selectors over doc once; discussion: the
// page declares itself a discussion (see threadIsPage).
func (c *Converter) newCleaner(doc *html.Node, discussion bool) *cleaner {
	cl := &cleaner{prune: c.pruneGroup, opts: &c.opts}
	defer cl.threadIsPage(findFirst(doc, atom.Body), discussion)
	if len(c.keepGroup) == 0 {
		return cl
	}
	cl.keep = make(map[*html.Node]bool)
	cl.keepPath = make(map[*html.Node]bool)
	for _, n := range queryAll(doc, c.keepGroup) {
		cl.keep[n] = true
		cl.keepList = append(cl.keepList, n)
		for p := n.Parent; p != nil && !cl.keepPath[p]; p = p.Parent {
			cl.keepPath[p] = true
		}
	}
	return cl
}

// visibleAfterPrune reports whether any text under n lies outside the
// elements the prune selectors match (kept elements count as outside). It
// stops at the first such text, so on a page with content it looks at a
// few elements only.
func (cl *cleaner) visibleAfterPrune(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return true
			}
		case html.ElementNode:
			if cl.keep[c] {
				if nodeHasText(c) {
					return true
				}
				continue
			}
			if c.DataAtom == atom.Img && attr(c, "alt") != "" {
				return true
			}
			if cl.pruned(c) && !cl.keepPath[c] {
				continue
			}
			if cl.visibleAfterPrune(c) {
				return true
			}
		}
	}
	return false
}

// clean walks the children of n, removing pruned elements (unless kept) and
// rewriting the rest. inKeep is true under a kept element.
func (cl *cleaner) clean(n *html.Node, inKeep bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			kept := inKeep || cl.keep[c]
			switch {
			case !kept && cl.pruned(c):
				if cl.keepPath[c] {
					cl.hollow(c)
				} else {
					n.RemoveChild(c)
				}
			case cl.rewrite(c):
				// c was replaced or removed
			default:
				cl.clean(c, kept)
			}
		}
		c = next
	}
}

// hollow empties a pruned element except for the kept elements inside it
// and the path to them.
func (cl *cleaner) hollow(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case cl.keep[c]:
			cl.clean(c, true)
		case cl.keepPath[c]:
			cl.hollow(c)
		default:
			n.RemoveChild(c)
		}
		c = next
	}
}

// rewrite applies the element-specific rewrites and reports whether n was
// replaced or removed (its children then need no further walk).
func (cl *cleaner) rewrite(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Img:
		return cl.image(n)
	case atom.A:
		return anchor(n)
	case atom.Pre:
		codeLanguage(n)
		verbatim(n)
		return true // code is rendered verbatim; nothing inside to prune
	case atom.Dl:
		definitionList(n)
	case atom.Table:
		sectionRows(n)
		if p := tableCaption(n); p != nil {
			cl.clean(p, false) // it now lies before the walk
		}
		blockTable(n)
	case atom.Figure:
		figure(n)
	case atom.Select, atom.Label:
		return formControl(n)
	case atom.Div, atom.Aside, atom.Section:
		if isAdmonition(n) {
			admonition(n)
		}
	case atom.B, atom.Strong, atom.I, atom.Em:
		separateMarks(n)
	case atom.Dialog:
		if !hasAttr(n, "open") {
			n.Parent.RemoveChild(n)
			return true
		}
	}
	return false
}

// replaceWithText puts a text node holding s (or nothing when s is empty)
// in n's place.
func replaceWithText(n *html.Node, s string) {
	if s = strings.TrimSpace(s); s != "" {
		n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: s}, n)
	}
	n.Parent.RemoveChild(n)
}
