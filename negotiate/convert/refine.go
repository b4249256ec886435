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
// most-popular lists, media-player menus, buttons, bio cards). When
// readability judges the landmark to hold an article, it runs on a copy of
// the landmark and serves as an oracle: a block of the landmark none of
// whose text readability kept is removed. Readability's own output is not
// used, since it also rewrites what it keeps (h1 becomes h2, the byline
// and headings it finds unlikely are dropped). Headings, tables, code,
// definition lists, inline elements and kept elements are never removed
// (see prunable), so a page that is not an article loses no content even
// when it passes the check.
func (c *Converter) refine(lm content, base *url.URL, cl *cleaner) content {
	if len(lm.roots) != 1 || b2Disable {
		return lm
	}
	root := lm.roots[0]
	parser := newReadability()
	if !parser.CheckDocument(root) {
		return lm
	}
	doc := &html.Node{Type: html.DocumentNode}
	htmlEl, bodyEl := element(atom.Html), element(atom.Body)
	doc.AppendChild(htmlEl)
	htmlEl.AppendChild(element(atom.Head))
	htmlEl.AppendChild(bodyEl)
	bodyEl.AppendChild(cloneTree(root))
	art, err := parser.ParseAndMutate(doc, base)
	if err != nil || art.Node == nil {
		return lm
	}
	kept := map[string]bool{}
	collectTexts(art.Node, kept)
	if len(kept) == 0 {
		return lm
	}
	if pruneUnkept(root, kept, cl) {
		lm.how += "+pruned"
	}
	return lm
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

// pruneUnkept removes the prunable elements under n that hold text but
// none of the kept text, and reports whether it removed any.
func pruneUnkept(n *html.Node, kept map[string]bool, cl *cleaner) bool {
	removed := false
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && !cl.keep[c] && !protected[c.DataAtom] {
			has, any := textKept(c, kept)
			switch {
			case !has && any && prunable(c) && !cl.keepPath[c]:
				n.RemoveChild(c)
				removed = true
			case any:
				removed = pruneUnkept(c, kept, cl) || removed
			}
		}
		c = next
	}
	return removed
}

// textKept reports whether any text under n is in kept, and whether n
// holds any text at all.
func textKept(n *html.Node, kept map[string]bool) (has, any bool) {
	if n.Type == html.TextNode {
		t := strings.TrimSpace(n.Data)
		return t != "" && kept[t], t != ""
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		h, a := textKept(c, kept)
		if h {
			return true, true
		}
		any = any || a
	}
	return false, any
}

// protected are the elements refine never removes nor looks into: headings
// (with the text that names a section), tables, code and definition lists
// are content whatever readability thinks of them.
var protected = map[atom.Atom]bool{
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Table: true, atom.Pre: true, atom.Code: true, atom.Dl: true, atom.Kbd: true, atom.Samp: true,
}

// inline are the phrasing elements refine leaves alone: removing one
// would cut a sentence (readability drops a byline's author link, for one).
var inline = map[atom.Atom]bool{
	atom.A: true, atom.Span: true, atom.Em: true, atom.Strong: true, atom.B: true, atom.I: true,
	atom.U: true, atom.S: true, atom.Time: true, atom.Abbr: true, atom.Small: true, atom.Sup: true,
	atom.Sub: true, atom.Mark: true, atom.Cite: true, atom.Q: true, atom.Del: true, atom.Ins: true,
	atom.Var: true, atom.Dfn: true, atom.Bdi: true, atom.Bdo: true, atom.Data: true, atom.Label: true,
	atom.Font: true, atom.Big: true, atom.Tt: true, atom.Br: true, atom.Wbr: true,
}

// prunable reports whether refine may remove n: a block-level element that
// is not a byline.
func prunable(n *html.Node) bool {
	return !inline[n.DataAtom] && !isByline(n)
}

// isByline reports whether n is a short author line, which readability
// moves to its metadata rather than keeping in the article.
func isByline(n *html.Node) bool {
	if strings.EqualFold(attr(n, "rel"), "author") || strings.Contains(strings.ToLower(attr(n, "itemprop")), "author") {
		return true
	}
	s := strings.ToLower(attr(n, "class") + " " + attr(n, "id"))
	return (strings.Contains(s, "byline") || strings.Contains(s, "author") || strings.Contains(s, "dateline")) &&
		textLen(textOf(n)) < 120
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

var b2Disable bool
