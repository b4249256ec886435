package convert

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// minTOCLinks is the least number of links a list must hold to be an
// in-page table of contents (dropTOC).
const minTOCLinks = 3

// tocLabel matches the label of an in-page table of contents.
var tocLabel = regexp.MustCompile(`(?i)^(?:table of contents?|contents|in this (?:article|post|guide|page)|on this page|jump to|skip to|what's inside|article contents|quick links)\s*:?$`)

// dropTOC removes the in-page tables of contents under root: a list whose
// every item is one link to a fragment of the page (href="#…"), at least
// minTOCLinks of them, with the label just before it ("Table of
// contents", "On this page"); on a page declared an article
// (cleaner.article), with no label too. They repeat the headings the
// Markdown has already, and an article's body does not hold them. On
// other pages an unlabelled list of fragment links stays: a
// documentation index can be its page's content.
func dropTOC(root *html.Node, cl *cleaner) {
	var lists []*html.Node
	for n := range root.Descendants() {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Ul || n.DataAtom == atom.Ol) && inPageTOC(n) {
			lists = append(lists, n)
		}
	}
	for _, l := range lists {
		if l.Parent == nil || cl.keep[l] || cl.keepPath[l] {
			continue
		}
		label := tocLabelOf(l)
		if label == nil && !cl.article || label != nil && cl.keep[label] {
			continue
		}
		if label != nil {
			label.Parent.RemoveChild(label)
		}
		l.Parent.RemoveChild(l)
	}
}

// inPageTOC reports whether list's items are all links to fragments of the
// page, nested lists of the same aside, with minTOCLinks links or more.
func inPageTOC(list *html.Node) bool {
	links := 0
	for n := range list.Descendants() {
		if n.Type == html.TextNode && strings.TrimSpace(n.Data) != "" && !inAnchor(n, list) {
			return false
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			if !strings.HasPrefix(attr(n, "href"), "#") || len(attr(n, "href")) < 2 {
				return false
			}
			links++
		}
	}
	return links >= minTOCLinks
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

// prevElement returns n's previous sibling element, or nil.
func prevElement(n *html.Node) *html.Node {
	for p := n.PrevSibling; p != nil; p = p.PrevSibling {
		if p.Type == html.ElementNode {
			return p
		}
		if p.Type == html.TextNode && strings.TrimSpace(p.Data) != "" {
			return nil
		}
	}
	return nil
}

// tocLabelOf returns the label of the table of contents list: the element
// just before it, or just before its parent when the list is its parent's
// first element, whose text tocLabel matches; or nil.
func tocLabelOf(list *html.Node) *html.Node {
	for n, up := list, 0; n != nil && up < 3; n, up = n.Parent, up+1 {
		if p := prevElement(n); p != nil {
			if tocLabel.MatchString(blockText(p)) {
				return p
			}
			return nil
		}
	}
	return nil
}
