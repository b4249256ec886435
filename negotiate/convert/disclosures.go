package convert

import (
	"strings"

	"golang.org/x/net/html"
)

// revealDisclosures makes visible, under doc, the panels a disclosure
// button opens: an element whose id a button with aria-expanded names in
// aria-controls (WAI-ARIA's disclosure and accordion patterns: an FAQ's
// answers, a product's details, a shop's filter groups), hidden until the
// reader opens it. Its text is the page's as much as the text shown; the
// prune rules other than the hidden ones still apply to it (a menu in a
// <nav> still goes). The hiding is removed: the hidden attribute,
// aria-hidden="true", and display:none or visibility:hidden in its inline
// style.
func revealDisclosures(doc *html.Node) {
	controlled := map[string]bool{}
	var panels []*html.Node
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if id := strings.TrimSpace(attr(n, "id")); id != "" && hiddenByMarkup(n) {
			panels = append(panels, n)
		}
		if !hasAttr(n, "aria-expanded") {
			continue
		}
		for _, id := range strings.Fields(attr(n, "aria-controls")) {
			controlled[id] = true
		}
	}
	for _, p := range panels {
		if controlled[strings.TrimSpace(attr(p, "id"))] {
			unhide(p)
		}
	}
}

// hiddenByMarkup reports whether n is hidden by one of the attributes the
// default prune rules read: hidden, aria-hidden="true", or display:none or
// visibility:hidden in its inline style.
func hiddenByMarkup(n *html.Node) bool {
	if hasAttr(n, "hidden") || attr(n, "aria-hidden") == "true" {
		return true
	}
	s := attr(n, "style")
	return strings.Contains(s, "display:none") || strings.Contains(s, "display: none") ||
		strings.Contains(s, "visibility:hidden") || strings.Contains(s, "visibility: hidden")
}

// unhide removes from n the attributes hiddenByMarkup reads.
func unhide(n *html.Node) {
	attrs := n.Attr[:0]
	for _, a := range n.Attr {
		switch {
		case a.Namespace != "":
		case a.Key == "hidden", a.Key == "aria-hidden" && a.Val == "true":
			continue
		case a.Key == "style":
			for _, h := range []string{"display:none", "display: none", "visibility:hidden", "visibility: hidden"} {
				a.Val = strings.ReplaceAll(a.Val, h, "")
			}
		}
		attrs = append(attrs, a)
	}
	n.Attr = attrs
}
