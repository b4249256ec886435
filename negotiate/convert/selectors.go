package convert

import (
	"fmt"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// namedSel is a compiled selector with its source text.
type namedSel struct {
	text string
	sel  cascadia.Sel
}

// compile compiles each selector; the error names the bad one and the option
// it came from.
func compile(option string, sels []string) ([]namedSel, error) {
	out := make([]namedSel, 0, len(sels))
	for _, s := range sels {
		sel, err := cascadia.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("convert: %s selector %q: %v", option, s, err)
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
// not inside another match, in document order.
func topMatches(root *html.Node, sel cascadia.Matcher) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if sel.Match(c) {
				out = append(out, c)
				continue
			}
			walk(c)
		}
	}
	walk(root)
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
