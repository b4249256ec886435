package convert

import (
	"fmt"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// namedSel is a compiled selector with its source text.
type namedSel struct {
	text string
	sel  cascadia.Sel
}

// compile compiles each selector; the error names the setting it came from
// and the bad selector.
func compile(setting string, sels []string) ([]namedSel, error) {
	out := make([]namedSel, 0, len(sels))
	for _, s := range sels {
		sel, err := cascadia.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("%s: selector %q: %v", setting, s, err)
		}
		out = append(out, namedSel{s, sel})
	}
	return out, nil
}

// group merges compiled selectors into one group that matches when any does.
func group(sels []namedSel) cascadia.SelectorGroup {
	g := make(cascadia.SelectorGroup, len(sels))
	for i, s := range sels {
		g[i] = s.sel
	}
	return g
}

// topMatches returns the elements under root that sel matches and that are
// not inside another match, in document order: one walk that does not go
// into a match (asking each match for its matching ancestors instead costs
// the page's size times its depth).
func topMatches(root *html.Node, m cascadia.Matcher) []*html.Node {
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if m.Match(c) {
				out = append(out, c)
				continue
			}
			walk(c)
		}
	}
	walk(root)
	return out
}

// queryAll returns every element under root that sel matches, in document
// order.
func queryAll(root *html.Node, m cascadia.Matcher) []*html.Node {
	return goquery.NewDocumentFromNode(root).FindMatcher(matcher{m}).Nodes
}

// matcher adapts a compiled cascadia selector (or group) to goquery's
// Matcher, so goquery can run the queries.
type matcher struct{ cascadia.Matcher }

// MatchAll returns the descendants of n that match, in document order.
func (m matcher) MatchAll(n *html.Node) []*html.Node { return cascadia.QueryAll(n, m.Matcher) }

// Filter returns the nodes that match.
func (m matcher) Filter(nodes []*html.Node) []*html.Node {
	var out []*html.Node
	for _, n := range nodes {
		if m.Match(n) {
			out = append(out, n)
		}
	}
	return out
}

// contains reports whether n is root or lies under it.
func contains(root, n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == root {
			return true
		}
	}
	return false
}
