package convert

import (
	"strings"

	"github.com/agentready/caddy-agentready/frontmatter"
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

// discussionTypes are the schema.org types of a page that is a forum
// thread (Invision and XenForo state it in JSON-LD or microdata): its
// comments are its content, not an appendix to it. QAPage is not one: a
// question page's answers are already the landmark's content on Stack
// Exchange, and on modern-web's dev pages the only QAPage with a
// #comments thread (2201) has the question alone as its content.
var discussionTypes = map[string]bool{"DiscussionForumPosting": true}

// declaredDiscussion reports whether the page declares itself a discussion
// (discussionTypes): the @type of a JSON-LD object in jsonld, as the front
// matter reads them, or the itemtype of a microdata item in doc.
func declaredDiscussion(doc *html.Node, jsonld [][]byte) bool {
	if frontmatter.DeclaresType(jsonld, discussionTypes) {
		return true
	}
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && hasAttr(n, "itemscope") {
			for _, t := range strings.Fields(attr(n, "itemtype")) {
				if discussionTypes[frontmatter.SchemaName(t)] {
					return true
				}
			}
		}
	}
	return false
}
