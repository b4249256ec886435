package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// revealDisclosures makes visible, under doc, the panels a disclosure
// button or a tab opens: an element whose id an element with
// aria-expanded, or with role="tab", names in aria-controls (WAI-ARIA's
// disclosure, accordion and tabs patterns: an FAQ's answers, a product's
// details, a shop's filter groups, a tab panel without a role of its own),
// hidden until the reader opens it. Its text is the page's as much as the
// text shown. The hiding is removed from the panel and from its ancestors
// up to the one that holds the button too (reveal); the prune rules other
// than the hidden ones still apply (a menu in a <nav> still goes). The
// hiding is the hidden attribute, aria-hidden="true", and display:none or
// visibility:hidden in an inline style.
func revealDisclosures(doc *html.Node) {
	controllers := map[string][]*html.Node{}
	ids := map[string]*html.Node{}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if id := strings.TrimSpace(attr(n, "id")); id != "" && ids[id] == nil {
			ids[id] = n
		}
		if !hasAttr(n, "aria-expanded") && !strings.EqualFold(strings.TrimSpace(attr(n, "role")), "tab") {
			continue
		}
		for _, id := range strings.Fields(attr(n, "aria-controls")) {
			controllers[id] = append(controllers[id], n)
		}
	}
	for id, cs := range controllers {
		if p := ids[id]; p != nil {
			reveal(p, cs[0])
		}
	}
}

// reveal unhides panel and its ancestors up to the first that holds
// button too: a collapsible wrapper hides the panel from outside (Chakra's
// accordion hides a div around the panel the button names), where an
// ancestor that hides the button as well hides the whole widget (a menu
// for another screen size), which stays hidden.
func reveal(panel, button *html.Node) {
	holds := map[*html.Node]bool{}
	for a := button; a != nil; a = a.Parent {
		holds[a] = true
	}
	for n := panel; n != nil && !holds[n]; n = n.Parent {
		if hiddenByMarkup(n) {
			unhide(n)
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

// revealHiddenPage unhides, under body, an element hidden by its markup
// that holds hiddenPageShare or more of the body's text: the page itself,
// hidden until its scripts run (an anti-flicker wrapper, a shop's age
// gate), beside a skip link or a notice. Readers see it once the scripts
// ran; without this, the prune rules keep the few words around it. The
// body's other hidden elements stay hidden, and so does an element that
// is aria-hidden: a page's content made inert behind an open dialog is
// marked so, and is converted whole when nothing else is left (the prune
// rules never empty a page).
func revealHiddenPage(body *html.Node) {
	if body == nil {
		return
	}
	type sized struct {
		n    *html.Node
		size int
	}
	var hidden []sized
	var walk func(n *html.Node) int
	walk = func(n *html.Node) int {
		t := 0
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				t += textLen(c.Data)
			case c.Type != html.ElementNode, c.DataAtom == atom.Script, c.DataAtom == atom.Style, c.DataAtom == atom.Noscript:
			default:
				s := walk(c)
				if hiddenByMarkup(c) && attr(c, "aria-hidden") != "true" {
					hidden = append(hidden, sized{c, s})
				}
				t += s
			}
		}
		return t
	}
	total := walk(body)
	for _, h := range hidden {
		if total > 0 && float64(h.size) >= hiddenPageShare*float64(total) {
			unhide(h.n)
		}
	}
}

// hiddenPageShare is the least share of the body's text an element hidden
// by its markup must hold to be the page hidden until its scripts run.
const hiddenPageShare = 0.8
