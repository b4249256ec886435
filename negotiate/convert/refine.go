package convert

import (
	"net/url"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// newReadability returns a readability parser set up the way this package
// uses it.
func newReadability() readability.Parser {
	p := readability.NewParser()
	p.DisableJSONLD = true // front matter read it already
	// Readability's scoring is costly on huge pages; past this size the
	// whole body (or the whole landmark) is converted instead.
	p.MaxElemsToParse = maxReadabilityElems
	return p
}

// refine removes the chrome a landmark holds around an article (related and
// most-popular lists, media-player menus, buttons, bio cards): a landmark
// is a candidate, not a verdict. A landmark with no chrome at all (no block
// of mostly link text, no form control: measure) is kept whole without
// more work. Otherwise readability is the second opinion: when it judges
// the landmark to hold an article, or when the landmark is mostly link text
// and readability's article inside it is clean (a fifth or less link
// text), it runs on a copy of the landmark and serves as an oracle: a
// block of the landmark of whose text readability kept less than
// minKeptShare is removed (pruneUnkept), unless readability's article is
// one section of a page that is not an article (partOfPage), not a post
// of a thread: the landmark then stays whole. Readability's own output is not
// used, since it also rewrites what it keeps (h1 becomes h2; the byline
// and the headings it finds unlikely are dropped). Headings, tables, code,
// definition lists, quotes, inline elements, real forms, the article's
// header and kept elements are never removed (refine_rules.go), nor
// bylines and prose before the article's end (pruneUnkept), so a page
// that is not an article loses no content even when it passes the check.
func refine(lm content, base *url.URL, cl *cleaner) content {
	if len(lm.roots) != 1 {
		return lm
	}
	root := lm.roots[0]
	st := measure(root)
	if !st.chrome {
		// Nothing an oracle could find to remove: no link list, no form
		// control. The landmark is the content (a documentation page, a
		// pricing table, an article with no chrome around it).
		return lm
	}
	parser := newReadability()
	if countElements(root, maxReadabilityElems+1) > maxReadabilityElems || !readabilityAffordable(root) {
		return lm
	}
	// A landmark readability does not judge an article is still a
	// candidate when it is full of navigation (more link text than not,
	// readability's own bound for a block it removes): a short story inside
	// link lists is below readability's "readerable" bar, and the story is
	// all the page holds besides its links. So is a landmark on a page
	// that declares itself an article (og:type, declaredArticle): a post
	// of short paragraphs is below that bar too.
	article := parser.CheckDocument(root)
	if !article && !st.linkHeavy() && !cl.article {
		return lm
	}
	doc := &html.Node{Type: html.DocumentNode}
	htmlEl, bodyEl := element(atom.Html), element(atom.Body)
	doc.AppendChild(htmlEl)
	htmlEl.AppendChild(element(atom.Head))
	htmlEl.AppendChild(bodyEl)
	bodyEl.AppendChild(cloneForOracle(root))
	dropHeadingIDs(bodyEl)
	art, err := parser.ParseAndMutate(doc, base)
	if err != nil || art.Node == nil {
		return lm
	}
	if !article && !measure(art.Node).clean() {
		// readability's candidate is no cleaner than the landmark (a grid
		// of product cards, an index of links): the landmark stays whole.
		return lm
	}
	kept := map[string]bool{}
	collectTexts(art.Node, kept)
	if len(kept) == 0 {
		return lm
	}
	run := postRun(root, kept)
	if run == nil && partOfPage(art.Node, root, cl) {
		// readability's article is one section of a page that is not an
		// article (a service page's, a shop category's): the landmark
		// stays whole, as when readability does not judge it an article
		return lm
	}
	// one post of a thread kept: the oracle keeps the others too
	for _, p := range run {
		collectTexts(p, kept)
	}
	if pruneUnkept(root, kept, cl) {
		lm.how += "+pruned"
	}
	return lm
}

// stats are what measure finds in a subtree: its text and link text (in
// non-space bytes) and whether it holds chrome.
type stats struct {
	text, link int
	// chrome: a form control, or a block outside the protected elements
	// with two links or more whose text is mostly link text (a menu, a
	// "latest news" list, a row of teasers).
	chrome bool
}

// linkHeavy reports whether more of the text is link text than not: the
// link density above which readability removes a block of some weight
// (cleanConditionally's 0.5).
func (s stats) linkHeavy() bool { return 2*s.link > s.text }

// clean reports whether at most a fifth of the text is link text:
// readability's bound (0.2) for a block of little weight to stay, here
// what an article readability found must meet to replace a landmark it
// did not judge an article.
func (s stats) clean() bool { return s.text > 0 && 5*s.link <= s.text }

// linksOnly reports whether nine tenths of the text or more is link
// text: a panel behind a disclosure button that is a menu of links (an
// account's, a drop-down of a site's sections), not an answer or a detail
// (revealDisclosures).
func (s stats) linksOnly() bool { return s.text > 0 && 10*s.link >= 9*s.text }

// formControls are the elements that make a landmark hold chrome: widgets,
// not content.
var formControls = map[atom.Atom]bool{
	atom.Button: true, atom.Input: true, atom.Select: true, atom.Textarea: true, atom.Form: true,
}

// notChrome are the elements that are not counted as a link list however
// many links they hold: inline elements, a paragraph or a list item (a
// sentence that names two references is prose, and a list of links is its
// list). Nor is anything inside a <nav> or an <aside>, which the default
// prune rules remove anyway.
var notChrome = func() map[atom.Atom]bool {
	m := map[atom.Atom]bool{atom.P: true, atom.Li: true}
	for a := range inline {
		m[a] = true
	}
	return m
}()

// measure counts n's text and link text and looks for chrome, in one walk.
func measure(n *html.Node) stats { return measureWith(n, true) }

// measureWith is measure; with paragraphLinks false, the links of a
// paragraph or a heading do not count towards its ancestors' link text: a
// paragraph of links is a sentence ("See also git-rm(1), git-mv(1)"), and
// a heading that is a link (AsciiDoc's section titled with a URL) a
// title, not a menu; and a layout table (see layoutTable) is not
// protected as a data table is: its cells are the page's blocks, a
// sidebar of links among them.
func measureWith(n *html.Node, paragraphLinks bool) stats {
	var st stats
	var walk func(n *html.Node, inLink, inProtected bool) (text, link, links int)
	walk = func(n *html.Node, inLink, inProtected bool) (text, link, links int) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				l := textLen(c.Data)
				text += l
				if inLink {
					link += l
				}
			case html.ElementNode:
				a := c.DataAtom == atom.A
				prot := protected[c.DataAtom] && (paragraphLinks || c.DataAtom != atom.Table || !layoutTable(c))
				t, k, ls := walk(c, inLink || a, inProtected || prot || c.DataAtom == atom.Nav || c.DataAtom == atom.Aside)
				if a {
					ls++
				}
				if !inProtected && !prot && !st.chrome && !notChrome[c.DataAtom] &&
					(formControls[c.DataAtom] || ls >= 1 && 2*k > t) {
					st.chrome = true
				}
				if (c.DataAtom == atom.P || headingLevel(c) > 0) && !paragraphLinks {
					k, ls = 0, 0
				}
				text, link, links = text+t, link+k, links+ls
			}
		}
		return text, link, links
	}
	st.text, st.link, _ = walk(n, false, false)
	return st
}

// countElements counts the elements under n, stopping at limit.
func countElements(n *html.Node, limit int) int {
	count := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && count < limit; c = c.NextSibling {
			if c.Type == html.ElementNode {
				count++
			}
			walk(c)
		}
	}
	walk(n)
	return count
}

// collectTexts adds the space-trimmed text of every text node under n to
// set.
func collectTexts(n *html.Node, set map[string]bool) {
	if n.Type == html.TextNode {
		if t := strings.TrimSpace(n.Data); t != "" {
			set[t] = true
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		collectTexts(c, set)
	}
}

// pruneUnkept removes the prunable elements under root that hold text but
// (almost) none of the kept text, and reports whether it removed any. A
// block that comes before the first kept text and holds the <h1>, or is
// short and holds a heading, is the article's header (title, byline, date,
// lead image): it stays, unless it is mostly links, less the link lists
// and form controls inside it of which readability kept nothing (a share
// bar, a "Back to blog" link: headerChrome) when it is small
// (maxHeaderChrome). After the last
// kept text, the blocks of which readability kept nothing also go when
// they hold prose or a byline (an author box with its bio), unless they
// hold maxTrailingShare of the kept text or more; and the prunable blocks
// there stay when they hold more than maxTailShare times the kept text
// (readability's article is then a category page's introduction, and the
// product grid after it the page), and those that are plain text
// (plainText) stay when a block that stays whatever readability kept (a
// heading, a table, prose) follows them: readability ended the article
// too early, and the text is still the article's. Whatever the shares, on
// a page declared an article, a block after the article's end of which
// readability kept nothing goes when it holds a form control (a contact
// or newsletter form, with what sits beside it). Nothing is removed when it would leave root
// with no text: the oracle then kept nothing of the landmark that it
// recognises (a listing page, a shop category), and the landmark stays
// whole.
func pruneUnkept(root *html.Node, kept map[string]bool, cl *cleaner) bool {
	return removeAll(root, unkept(root, kept, cl))
}

// unkept returns the elements pruneUnkept would remove, in document order
// (none holds another).
func unkept(root *html.Node, kept map[string]bool, cl *cleaner) []*html.Node {
	var victims []*html.Node
	started := false
	last := lastKept(root, kept)
	var trailingProse, trailingChrome []*html.Node
	proseLen, chromeLen := 0, 0
	// stays counts the trailing chrome blocks met before the last block
	// after the article's end that stays whatever readability kept
	// (protected, kept or not prunable): the article's real end
	stays := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		after := false
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode && !cl.keep[c] && !protected[c.DataAtom] {
				k, t := textKept(c, kept)
				has, any := k > 0 && float64(k) >= minKeptShare*float64(t), t > 0
				switch {
				case !has && any && !started && (t <= maxHeaderLen && findHeading(c, 6) || findHeading(c, 1)) && !linkList(c, t):
					// the article's header, less its link lists
					if t <= maxHeaderChrome {
						victims = headerChrome(c, kept, victims)
					}
				case !has && any && cl.keepPath[c]:
					walk(c) // prune around the kept element
				case after && k == 0 && any && cl.article && findAny(c, formControls):
					victims = append(victims, c)
				case !has && any && prunable(c):
					if after && k == 0 {
						trailingChrome = append(trailingChrome, c)
						chromeLen += t
					} else {
						victims = append(victims, c)
					}
				case after && k == 0 && any && trailingPrunable(c):
					trailingProse = append(trailingProse, c)
					proseLen += t
				case !has:
					// not prunable (inline, a byline, a real form, prose): whole
					if after && any {
						stays = len(trailingChrome)
					}
				case any:
					walk(c)
				}
				started = started || has
				after = after || last[c]
			} else if c.Type == html.ElementNode {
				if after && nodeHasText(c) {
					stays = len(trailingChrome)
				}
				after = after || last[c]
				k, _ := textKept(c, kept)
				started = started || k > 0
			}
			c = next
		}
	}
	walk(root)
	if len(trailingProse)+len(trailingChrome) == 0 {
		return victims
	}
	kl, _ := textKept(root, kept)
	if float64(proseLen) < maxTrailingShare*float64(kl) {
		victims = append(victims, trailingProse...)
	}
	if float64(chromeLen) <= maxTailShare*float64(kl) {
		for i, c := range trailingChrome {
			if i >= stays || !plainText(c) {
				victims = append(victims, c)
			}
		}
	}
	return victims
}

// maxHeaderChrome is the most text (non-space bytes) an article's header
// may hold for refine to look inside it (headerChrome): a larger block
// holding the title holds the page's other parts too (a shop's filters).
const maxHeaderChrome = 2 * maxHeaderLen

// headerChrome appends to victims the blocks under an article's header
// of which readability kept nothing and that are link lists or hold a
// form control (a share bar, a "Back to blog" link, a newsletter button):
// not the title nor a block holding a heading, nor a byline (prunable).
func headerChrome(header *html.Node, kept map[string]bool, victims []*html.Node) []*html.Node {
	for c := header.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || protected[c.DataAtom] || inline[c.DataAtom] {
			continue
		}
		if findHeading(c, 6) {
			victims = headerChrome(c, kept, victims)
			continue
		}
		k, t := textKept(c, kept)
		if k == 0 && t > 0 && prunable(c) && (linkList(c, t) || findAny(c, formControls)) {
			victims = append(victims, c)
		}
	}
	return victims
}

// sectionBody reports whether n is all that a heading's section holds:
// the element before it a heading, the one after it another heading or
// none, and n text that is not a list of links. Removing it would leave
// the heading (which refine never removes) over nothing: on a manual's
// page, the first steps of which readability kept only the last
// ("Download The Code", "Create A New Database" of SQLite's quick start).
func sectionBody(n *html.Node) bool {
	prev, text := adjacentElement(n, prevSibling)
	if prev == nil || text || headingLevel(prev) == 0 {
		return false
	}
	next, text := adjacentElement(n, nextSibling)
	if text || next != nil && headingLevel(next) == 0 {
		return false
	}
	t := textLen(textOf(n))
	return t > 0 && !linkList(n, t)
}

// removeAll removes the victims from under root, unless that would leave
// root with no text, and reports whether it removed them.
func removeAll(root *html.Node, victims []*html.Node) bool {
	if len(victims) == 0 {
		return false
	}
	gone := make(map[*html.Node]bool, len(victims))
	for _, v := range victims {
		gone[v] = true
	}
	if !hasTextOutside(root, gone) {
		return false
	}
	for _, v := range victims {
		v.Parent.RemoveChild(v)
	}
	return true
}

// linkList reports whether most of n's text (total non-space bytes) is
// link text: a "latest news" list or a section menu under a heading, not
// an article's header (whose title and date are not links).
func linkList(n *html.Node, total int) bool {
	return 2*linkTextLen(n) > total
}

// linkTextLen counts the non-space bytes of the text inside links under n.
func linkTextLen(n *html.Node) int {
	l := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.ElementNode && c.DataAtom == atom.A:
			l += textLen(textOf(c))
		case c.Type == html.ElementNode:
			l += linkTextLen(c)
		}
	}
	return l
}

// textKept returns how much of the text under n (in non-space bytes) is
// kept text, and how much text there is.
func textKept(n *html.Node, kept map[string]bool) (keptLen, total int) {
	if n.Type == html.TextNode {
		t := strings.TrimSpace(n.Data)
		if t == "" {
			return 0, 0
		}
		l := textLen(t)
		if kept[t] {
			return l, l
		}
		return 0, l
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		k, t := textKept(c, kept)
		keptLen, total = keptLen+k, total+t
	}
	return keptLen, total
}

// cloneForOracle is cloneTree for readability's copy of the landmark, with
// each <pre> reduced to one text node and each definition list to its text
// nodes: refine never removes a block that holds code nor a definition
// list, so readability need not score the code's highlighting spans nor
// the markup of an API reference's entries (thousands of elements on a
// documentation page, most of its work there). A definition list keeps
// its text nodes apart, so that the text readability keeps is still found
// in the landmark's.
func cloneForOracle(n *html.Node) *html.Node {
	m := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace}
	if len(n.Attr) > 0 {
		m.Attr = append([]html.Attribute(nil), n.Attr...)
	}
	if n.Type == html.ElementNode && n.DataAtom == atom.Pre {
		m.AppendChild(&html.Node{Type: html.TextNode, Data: textOf(n)})
		return m
	}
	if n.Type == html.ElementNode && n.DataAtom == atom.Dl {
		for t := range n.Descendants() {
			if t.Type == html.TextNode {
				m.AppendChild(&html.Node{Type: html.TextNode, Data: t.Data})
			}
		}
		return m
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		m.AppendChild(cloneForOracle(c))
	}
	return m
}

// cloneTree returns a deep copy of n: readability's preparation mutates
// the tree it is given, and the landmark must stay intact.
func cloneTree(n *html.Node) *html.Node {
	m := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace}
	if len(n.Attr) > 0 {
		m.Attr = append([]html.Attribute(nil), n.Attr...)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		m.AppendChild(cloneTree(c))
	}
	return m
}

// textLen counts the non-space bytes of s.
func textLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f':
		default:
			n++
		}
	}
	return n
}

// fixAtoms sets each element's DataAtom from its tag name: readability
// renames elements (div to p) without updating the atom.
func fixAtoms(n *html.Node) {
	if n.Type == html.ElementNode && n.Namespace == "" {
		n.DataAtom = atom.Lookup([]byte(n.Data))
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		fixAtoms(c)
	}
}

// lastKept returns the last text node under root that readability kept,
// with its ancestors up to root.
func lastKept(root *html.Node, kept map[string]bool) map[*html.Node]bool {
	path := map[*html.Node]bool{}
	for n := lastKeptText(root, kept); n != nil && n != root; n = n.Parent {
		path[n] = true
	}
	return path
}

// lastKeptText returns the last text node under n that readability kept,
// or nil: it walks n backwards, so it reads only what follows that text.
func lastKeptText(n *html.Node, kept map[string]bool) *html.Node {
	for c := n.LastChild; c != nil; c = c.PrevSibling {
		if c.Type == html.TextNode && kept[strings.TrimSpace(c.Data)] {
			return c
		}
		if t := lastKeptText(c, kept); t != nil {
			return t
		}
	}
	return nil
}

// trailingPrunable reports whether n, a block after the article's end of
// which readability kept nothing, may go: what prunable allows, and also
// prose and bylines (an author box's bio, its "Written by" line). Inline
// elements, real forms, code, definition lists, admonitions and DocBook
// boxes still stay.
func trailingPrunable(n *html.Node) bool {
	return !inline[n.DataAtom] && !isRealForm(n) && !findAny(n, codeBlocks) && !isAdmonition(n) && !isDocBookBox(n)
}

// plainText reports whether n is a section of plain text: text blocks with
// no heading, no chrome (measure) and at most a fifth link text, with a
// run of text of minPlainLen or more (a sentence, not a button's label).
func plainText(n *html.Node) bool {
	st := measure(n)
	return !st.chrome && st.clean() && !findHeading(n, 6) && hasProse(n, minPlainLen)
}
