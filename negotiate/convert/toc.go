package convert

import (
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// minTOCLinks is the least number of links a block must hold to be an
// in-page table of contents (dropTOC).
const minTOCLinks = 3

// maxTOCLabel is the longest text (non-space bytes) of a label dropTOC
// reads.
const maxTOCLabel = 40

// shortText reports whether the text under n is max non-space bytes or
// shorter, reading no more of it than that.
func shortText(n *html.Node, max int) bool {
	l := 0
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			if l += textLen(d.Data); l > max {
				return false
			}
		}
	}
	return true
}

// tocLabel matches the label of an in-page table of contents.
var tocLabel = regexp.MustCompile(`(?i)^(?:table of contents?|contents|in this (?:article|post|guide|page)|on this page|jump to|skip to|what's inside|article contents|quick links)\s*:?$`)

// dropTOC removes the in-page tables of contents under root: a block made
// of links only, at least minTOCLinks of them, each to a fragment of the
// page (href="#…", or the page's own URL with a fragment), with the label
// just before it ("Table of contents", "On this page"); on a page
// declared an article (cleaner.article), a list of such links with no
// label too. They repeat the headings the Markdown has already, and an
// article's body does not hold them. On other pages an unlabelled list of
// fragment links stays: a documentation index can be its page's content.
func dropTOC(root *html.Node, cl *cleaner) {
	var gone []*html.Node
	for _, label := range textBlocks(root, nil) {
		if label.Type != html.ElementNode || !shortText(label, maxTOCLabel) || !tocLabel.MatchString(blockText(label)) {
			continue
		}
		if toc := nextBlock(label); toc != nil && inPageTOC(toc, cl.base) {
			gone = append(gone, label, toc)
		}
	}
	if cl.article {
		for n := range root.Descendants() {
			if n.Type == html.ElementNode && (n.DataAtom == atom.Ul || n.DataAtom == atom.Ol) && inPageTOC(n, cl.base) {
				gone = append(gone, n)
				if label := tocLabelOf(n); label != nil {
					gone = append(gone, label)
				}
			}
		}
	}
	cl.remove(gone)
}

// nextBlock returns the element after n, or after its parent when n is
// its parent's last element (a label in a header <div>), up to two levels.
func nextBlock(n *html.Node) *html.Node {
	for up := 0; n != nil && up < 3; n, up = n.Parent, up+1 {
		if s, text := adjacentElement(n, nextSibling); s != nil || text {
			return s
		}
	}
	return nil
}

// inPageTOC reports whether all of n's text lies in links, minTOCLinks of
// them or more, each to a fragment of the page (selfFragment).
func inPageTOC(n *html.Node, base *url.URL) bool {
	links := 0
	for d := range n.Descendants() {
		if d.Type == html.TextNode && strings.TrimSpace(d.Data) != "" && !inAnchor(d, n) {
			return false
		}
		if d.Type == html.ElementNode && d.DataAtom == atom.A {
			if !selfFragment(attr(d, "href"), base) {
				return false
			}
			links++
		}
	}
	return links >= minTOCLinks
}

// selfFragment reports whether href points to a fragment of the page:
// "#name", or the page's own URL (base) with a fragment. A hash router's
// route ("#/settings", "#!/tab") is another view, not a fragment.
func selfFragment(href string, base *url.URL) bool {
	href = strings.TrimSpace(href)
	if i := strings.IndexByte(href, '#'); i >= 0 && (strings.HasPrefix(href[i:], "#/") || strings.HasPrefix(href[i:], "#!")) {
		return false
	}
	if strings.HasPrefix(href, "#") {
		return len(href) > 1
	}
	if base == nil || !strings.Contains(href, "#") {
		return false
	}
	u, err := base.Parse(href)
	return err == nil && u.Fragment != "" && u.Host == base.Host && strings.TrimSuffix(u.Path, "/") == strings.TrimSuffix(base.Path, "/")
}

// inAnchor reports whether n lies inside an <a> below top.
func inAnchor(n, top *html.Node) bool {
	for p := n.Parent; p != nil && p != top; p = p.Parent {
		if p.Type == html.ElementNode && p.DataAtom == atom.A {
			return true
		}
	}
	return false
}

// tocLabelOf returns the label of a table of contents: the element just
// before it, or before its parent when it is its parent's first element
// (up to two levels), when tocLabel matches that element's text; or nil.
func tocLabelOf(toc *html.Node) *html.Node {
	for n, up := toc, 0; n != nil && up < 3; n, up = n.Parent, up+1 {
		if p := prevElement(n); p != nil {
			if tocLabel.MatchString(blockText(p)) {
				return p
			}
			return nil
		}
	}
	return nil
}

// prevElement returns the element before n, or nil when text comes
// between them.
func prevElement(n *html.Node) *html.Node {
	p, _ := adjacentElement(n, prevSibling)
	return p
}

// adjacentElement walks from n by step (nextSibling or prevSibling) to the
// first element, and reports instead whether text came first (el nil,
// text true) or nothing did (both zero).
func adjacentElement(n *html.Node, step func(*html.Node) *html.Node) (el *html.Node, text bool) {
	for s := step(n); s != nil; s = step(s) {
		if s.Type == html.ElementNode {
			return s, false
		}
		if s.Type == html.TextNode && strings.TrimSpace(s.Data) != "" {
			return nil, true
		}
	}
	return nil, false
}

func nextSibling(n *html.Node) *html.Node { return n.NextSibling }
func prevSibling(n *html.Node) *html.Node { return n.PrevSibling }
