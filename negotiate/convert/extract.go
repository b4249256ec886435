package convert

import (
	"net/url"
	"strings"
	"unicode"

	"github.com/JohannesKaufmann/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// content is the part of the page that will be converted.
type content struct {
	roots []*html.Node // top-level content elements, in document order
	how   string       // Result.Extraction
}

// maxReadabilityElems is the largest page, in elements, readability runs on.
const maxReadabilityElems = 50000

// maxReadabilityWork bounds what readability may cost on a page, in the
// units of readabilityWork (about 50 to 120 ns of CPU each: 8M is under a
// second). Readability walks the subtree of every candidate block, so its
// cost is the page's size times its depth: a page of 500-deep <div>s (320
// KB) costs it 25M units, a shallow 1 MB article 3M. A costlier page is not
// given to readability (its landmark or its body is converted whole).
const maxReadabilityWork = 8 << 20

// readabilityAffordable reports whether readability may run on the tree
// under n: whether the sum, over its nodes, of their depth below n (times
// the text's length, for text) stays within maxReadabilityWork.
func readabilityAffordable(n *html.Node) bool {
	work := 0
	var walk func(n *html.Node, depth int) bool
	walk = func(n *html.Node, depth int) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				work += depth * len(c.Data)
			} else {
				work += depth
				if c.FirstChild != nil && !walk(c, depth+1) {
					return false
				}
			}
			if work > maxReadabilityWork {
				return false
			}
		}
		return true
	}
	return walk(n, 1)
}

// selectContent picks the main content of doc in the order the package
// documentation gives: content selectors, landmarks (narrowed to the
// article they hold, see refine), readability, body. base is the document
// base URL readability resolves links against; cl knows the elements the
// Keep selectors matched.
func (c *Converter) selectContent(doc *html.Node, base *url.URL, cl *cleaner) content {
	for _, s := range c.content {
		if roots := topMatches(doc, s.sel); hasText(roots) {
			return content{roots, "selector:" + s.text}
		}
	}
	body := findFirst(doc, atom.Body)
	if body == nil {
		body = doc
	}
	r := landmark(doc)
	var art *html.Node // readability's article, once asked for
	if r.roots != nil {
		if !landmarkTooSmall(r.roots[0], body, cl) {
			return refine(r, base, cl)
		}
		if art = readabilityArticle(doc, base); art == nil || !articleOutside(art, r.roots[0]) {
			return refine(r, base, cl)
		}
	}
	if !measureWith(body, false).chrome && !findAny(body, formControls) {
		// A page with no landmark and no chrome at all (a man page, a
		// chapter of a manual: headings, prose, code, a "See also"
		// paragraph) is its content whole: readability would keep its
		// best-scoring section. measure does not look for form controls
		// inside tables and quotes: findAny does (a layout table holds the
		// whole of an old blog, its comment form included).
		return content{[]*html.Node{body}, "body"}
	}
	if art == nil {
		art = readabilityArticle(doc, base)
	}
	if art != nil {
		if picked, ok := readabilityBody(art, body, cl); ok {
			if picked.how == "readability" && partOfPage(art, body, cl) && cleanBody(body, cl) {
				return content{[]*html.Node{body}, "body+cleaned"}
			}
			return picked
		}
	}
	if cleanBody(body, cl) {
		return content{[]*html.Node{body}, "body+cleaned"}
	}
	return content{[]*html.Node{body}, "body"}
}

// landmark returns the page's main landmark: the first visible <main>, the
// first element with role="main", or the only top-level <article>. A main
// landmark inside a <header>, <footer>, <nav> or <aside> is not one: HTML
// allows only a "hierarchically correct" <main> (none of those among its
// ancestors), and a theme that wraps its mobile logo bar in <main> (a news
// site's <header><main>) would otherwise stand for the page.
func landmark(doc *html.Node) content {
	var main, roleMain *html.Node
	var articles []*html.Node
	var walk func(n *html.Node, inArticle, inChrome bool)
	walk = func(n *html.Node, inArticle, inChrome bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if hasAttr(c, "hidden") {
				continue
			}
			switch {
			case inChrome:
			case c.DataAtom == atom.Main && main == nil:
				main = c
			case roleMain == nil && strings.EqualFold(strings.TrimSpace(attr(c, "role")), "main"):
				roleMain = c
			case c.DataAtom == atom.Article && !inArticle:
				articles = append(articles, c)
				walk(c, true, false)
				continue
			}
			walk(c, inArticle, inChrome || landmarkChrome[c.DataAtom])
		}
	}
	walk(doc, false, false)
	switch {
	case main != nil && hasText([]*html.Node{main}):
		return content{[]*html.Node{main}, "landmark:main"}
	case roleMain != nil && hasText([]*html.Node{roleMain}):
		return content{[]*html.Node{roleMain}, "landmark:role-main"}
	case len(articles) == 1 && hasText(articles):
		return content{articles, "landmark:article"}
	}
	return content{}
}

// landmarkTooSmall reports whether a landmark holds less than
// minLandmarkShare of the body's text outside the elements the prune rules
// remove: a role="main" that wraps only the breadcrumbs, an <article> that
// is one teaser of a service page. Readability then gives a second opinion
// (selectContent): when its article lies outside the landmark, it wins.
func landmarkTooSmall(lm, body *html.Node, cl *cleaner) bool {
	in := textBeside(lm, nil, cl)
	return float64(in) < minLandmarkShare*float64(textBeside(body, nil, cl))
}

// minLandmarkShare is the least share of the body's text a landmark must
// hold to be taken without a second opinion.
const minLandmarkShare = 0.2

// readabilityArticle runs readability on a copy of doc and returns its
// article, or nil when the page is too costly for it
// (readabilityAffordable), is not one it judges an article, or yields an
// article with no text.
func readabilityArticle(doc *html.Node, base *url.URL) *html.Node {
	parser := newReadability()
	if !readabilityAffordable(doc) || !parser.CheckDocument(doc) {
		return nil
	}
	copied := cloneTree(doc)
	dropHeadingIDs(copied)
	art, err := parser.ParseAndMutate(copied, base)
	if err != nil || art.Node == nil || !hasText([]*html.Node{art.Node}) {
		return nil
	}
	return art.Node
}

// articleOutside reports whether the landmark lm holds less than half the
// text of readability's article art: the landmark missed the page's
// content.
func articleOutside(art, lm *html.Node) bool {
	kept := map[string]bool{}
	collectTexts(art, kept)
	in, _ := textKept(lm, kept)
	return 2*in < textLen(textOf(art))
}

// landmarkChrome are the elements no main landmark may sit in.
var landmarkChrome = map[atom.Atom]bool{atom.Header: true, atom.Footer: true, atom.Nav: true, atom.Aside: true}

// hasText reports whether any of the nodes holds non-space text.
func hasText(nodes []*html.Node) bool {
	for _, n := range nodes {
		if nodeHasText(n) {
			return true
		}
	}
	return false
}

// nodeHasText reports whether n holds non-space text or an image with alt
// text.
func nodeHasText(n *html.Node) bool { return hasTextOutside(n, nil) }

// hasTextOutside is nodeHasText leaving out the elements of gone (those a
// prune is about to remove).
func hasTextOutside(n *html.Node, gone map[*html.Node]bool) bool {
	switch {
	case gone[n]:
		return false
	case n.Type == html.TextNode:
		return strings.TrimSpace(n.Data) != ""
	case n.Type == html.ElementNode && n.DataAtom == atom.Img && attr(n, "alt") != "":
		return true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if hasTextOutside(c, gone) {
			return true
		}
	}
	return false
}

// findFirst returns the first element with the given tag, in document order.
func findFirst(n *html.Node, a atom.Atom) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := findFirst(c, a); f != nil {
			return f
		}
	}
	return nil
}

// attr returns the value of n's attribute key, or "".
func attr(n *html.Node, key string) string { return dom.GetAttributeOr(n, key, "") }

// hasAttr reports whether n carries attribute key.
func hasAttr(n *html.Node, key string) bool {
	_, ok := dom.GetAttribute(n, key)
	return ok
}

// setAttr sets n's attribute key to val.
func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}

// delAttr removes n's attribute key.
func delAttr(n *html.Node, key string) {
	for i, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			n.Attr = append(n.Attr[:i], n.Attr[i+1:]...)
			return
		}
	}
}

// dropHeadingIDs removes, on readability's copy of a page, the ids that
// are the anchors of a heading: a heading's own id, or a section's whose
// first element is its heading, when the id is the heading's text made a
// slug ("comments" for "2.1.3. Comments", Sphinx and mdBook write them).
// Readability reads ids as it reads classes, and drops the heading or the
// section whose id says "comment", "footer", "share" or "sidebar": the
// text of a heading is no sign of chrome.
func dropHeadingIDs(root *html.Node) {
	for n := range root.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		id := attr(n, "id")
		if id == "" {
			continue
		}
		h := n
		if headingLevel(n) == 0 {
			if h = firstElement(n); h == nil || headingLevel(h) == 0 {
				continue
			}
		}
		if slug := slugOf(textOf(h)); slug != "" && strings.HasSuffix("-"+slug, "-"+slugOf(id)) {
			delAttr(n, "id")
		}
	}
}

// slugOf is s lower-cased, each run of characters other than letters and
// digits one "-", trimmed of "-".
func slugOf(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}
