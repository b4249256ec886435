package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// declaredArticle reports whether the page declares itself an article in
// its Open Graph metadata (<meta property="og:type" content="article">),
// read before strip removes the <head>. refine then asks readability for
// its article inside a landmark with chrome even where readability's
// readerable check fails (a post of short paragraphs, a thread's first
// post).
func declaredArticle(doc *html.Node) bool {
	head := findFirst(doc, atom.Head)
	if head == nil {
		return false
	}
	for n := range head.Descendants() {
		if n.Type == html.ElementNode && n.DataAtom == atom.Meta && strings.EqualFold(attr(n, "property"), "og:type") {
			return strings.EqualFold(strings.TrimSpace(attr(n, "content")), "article")
		}
	}
	return false
}
