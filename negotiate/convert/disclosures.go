package convert

import (
	"regexp"
	"strings"

	"github.com/JohannesKaufmann/dom"
	"github.com/andybalholm/cascadia"
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
//
// Not revealed: the panel of a button a reader cannot reach (hidden
// itself or inside a hidden element), of a popup button (aria-haspopup,
// role=combobox: an account menu, a language list) or a panel that is a
// list box or a menu; a panel an operator's own prune rule (own) matches,
// or whose hidden wrapper holds text beside it (a wrapper of dialogs
// hides them all). The work is bounded by revealBudget steps, so a page
// of thousands of deep controls costs no more than a walk of it.
func revealDisclosures(doc *html.Node, own cascadia.Matcher) {
	var order []string
	controllers := map[string]*html.Node{}
	ids := map[string]*html.Node{}
	var walk func(n *html.Node, hidden bool)
	walk = func(n *html.Node, hidden bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			h := hidden || hiddenByMarkup(c)
			if id := strings.TrimSpace(attr(c, "id")); id != "" && ids[id] == nil {
				ids[id] = c
			}
			if !h && opensPanel(c) {
				for _, id := range strings.Fields(attr(c, "aria-controls")) {
					if controllers[id] == nil {
						controllers[id] = c
						order = append(order, id)
					}
				}
			}
			walk(c, h)
		}
	}
	walk(doc, false)
	steps := revealBudget
	for _, id := range order {
		p := ids[id]
		if p == nil {
			continue
		}
		if r := strings.ToLower(strings.TrimSpace(attr(p, "role"))); r == "listbox" || r == "menu" || measure(p).linksOnly() {
			continue
		}
		if reveal(p, controllers[id], own, &steps); steps <= 0 {
			return
		}
	}
}

// revealBudget bounds the nodes revealDisclosures visits beyond its walk
// of the page (ancestors and a wrapper's other text), about a millisecond
// of work.
const revealBudget = 1 << 16

// opensPanel reports whether n is a disclosure button or a tab that opens
// a panel in the page: aria-expanded or role=tab, not a popup's button.
func opensPanel(n *html.Node) bool {
	role := strings.ToLower(strings.TrimSpace(attr(n, "role")))
	if !hasAttr(n, "aria-expanded") && role != "tab" {
		return false
	}
	if role == "combobox" {
		return false
	}
	pop, ok := dom.GetAttribute(n, "aria-haspopup")
	return !ok || strings.EqualFold(strings.TrimSpace(pop), "false")
}

// reveal unhides panel and its ancestors up to the first that holds
// button too: a collapsible wrapper hides the panel from outside (Chakra's
// accordion hides a div around the panel the button names), where an
// ancestor that hides the button as well hides the whole widget (a menu
// for another screen size), which stays hidden. Nothing is unhidden when
// one of them is matched by own (the operator's prune rules, which may
// read the hiding attributes) or is a hidden wrapper with other text
// beside the panel. steps is the budget left; each node visited spends
// one.
func reveal(panel, button *html.Node, own cascadia.Matcher, steps *int) {
	dp, db := depth(panel, steps), depth(button, steps)
	a, b := panel, button
	var path []*html.Node
	for ; dp > db; dp-- {
		path, a = append(path, a), a.Parent
	}
	for ; db > dp; db-- {
		b = b.Parent
	}
	for a != b {
		path, a, b = append(path, a), a.Parent, b.Parent
		*steps--
	}
	for i, n := range path {
		if *steps <= 0 || own != nil && own.Match(n) {
			return
		}
		if i > 0 && hiddenByMarkup(n) && textBesideChild(n, path[i-1], steps) {
			return
		}
	}
	for _, n := range path {
		if hiddenByMarkup(n) {
			unhide(n)
		}
	}
}

// depth is n's number of ancestors; it spends one step each.
func depth(n *html.Node, steps *int) int {
	d := 0
	for a := n.Parent; a != nil; a = a.Parent {
		d++
	}
	*steps -= d
	return d
}

// textBesideChild reports whether n holds text outside child; it spends a
// step for each node it looks at, and says true when the budget runs out.
func textBesideChild(n, child *html.Node, steps *int) bool {
	var has func(n *html.Node) bool
	has = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if *steps--; *steps <= 0 {
				return true
			}
			switch {
			case c == child:
			case c.Type == html.TextNode:
				if strings.TrimSpace(c.Data) != "" {
					return true
				}
			case c.Type == html.ElementNode && has(c):
				return true
			}
		}
		return false
	}
	return has(n)
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
//
// A page with no scripts cannot unhide anything, and a page that declares
// its text not free to read (schema.org isAccessibleForFree false: a
// paywall that hides the rest of the story) keeps it hidden: neither is
// revealed.
func revealHiddenPage(body *html.Node, scripts bool, jsonld [][]byte) {
	if body == nil || !scripts || declaresNotFree(jsonld) {
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

// declaresNotFree reports whether a JSON-LD block states
// isAccessibleForFree false (as a boolean or a string).
func declaresNotFree(blocks [][]byte) bool {
	for _, b := range blocks {
		if notFree.Match(b) {
			return true
		}
	}
	return false
}

var notFree = regexp.MustCompile(`"isAccessibleForFree"\s*:\s*"?(?i:false)"?`)

// hiddenPageShare is the least share of the body's text an element hidden
// by its markup must hold to be the page hidden until its scripts run.
const hiddenPageShare = 0.8
