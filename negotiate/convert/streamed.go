package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// revealStreamed puts the segments of a page React streamed where they
// belong, as React's own inline script ($RC) does in a browser: a server
// that streams (React 18's renderToPipeableStream, Next.js's app router)
// first sends a placeholder, <template id="B:n"> followed by the fallback
// (a spinner, "Loading..."), and later, at the end of the body, the
// segment itself in <div hidden id="S:n">; a segment rendered later still
// (a postponed one) takes the place of a <template id="P:n">, with no
// fallback. Without this, the page's text
// is hidden (the prune rules remove [hidden]) and the fallback stands in
// its place. A placeholder without its segment, or a segment without its
// placeholder, is left as it is.
func revealStreamed(doc *html.Node) {
	placeholders := map[string]*html.Node{}
	segments := map[string]*html.Node{}
	var order []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			id := attr(c, "id")
			switch {
			case c.DataAtom == atom.Template && (strings.HasPrefix(id, "B:") || strings.HasPrefix(id, "P:")):
				placeholders[id[2:]] = c
				order = append(order, id[2:])
				continue
			case c.DataAtom == atom.Div && strings.HasPrefix(id, "S:") && hasAttr(c, "hidden"):
				segments[id[2:]] = c
			}
			walk(c)
		}
	}
	walk(doc)
	for _, key := range order {
		ph, seg := placeholders[key], segments[key]
		if seg == nil || ph.Parent == nil || seg.Parent == nil || contains(seg, ph) {
			continue
		}
		if attr(ph, "id")[0] == 'B' {
			dropFallback(ph)
		}
		for c := seg.FirstChild; c != nil; c = seg.FirstChild {
			seg.RemoveChild(c)
			ph.Parent.InsertBefore(c, ph)
		}
		seg.Parent.RemoveChild(seg)
		ph.Parent.RemoveChild(ph)
	}
}

// dropFallback removes what follows a streaming placeholder up to the
// <!--/$--> comment that closes its Suspense boundary: the fallback React
// replaces. Nothing is removed when the boundary is not closed among the
// placeholder's siblings.
func dropFallback(ph *html.Node) {
	var fallback []*html.Node
	for c := ph.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.CommentNode && c.Data == "/$" {
			for _, f := range fallback {
				f.Parent.RemoveChild(f)
			}
			return
		}
		fallback = append(fallback, c)
	}
}
