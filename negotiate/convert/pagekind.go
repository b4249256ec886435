package convert

import (
	"encoding/json"
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

// discussionTypes are the schema.org types of a page that is a forum
// thread (Invision and XenForo state it in JSON-LD or microdata): its
// comments are its content, not an appendix to it. QAPage is not one: a
// question page's answers are already the landmark's content on Stack
// Exchange, and on modern-web's dev pages the only QAPage with a
// #comments thread (2201) has the question alone as its content.
var discussionTypes = map[string]bool{"DiscussionForumPosting": true}

// declaredDiscussion reports whether the page declares itself a discussion
// (discussionTypes): the @type of a top-level JSON-LD object (or one in a
// top-level @graph) in jsonld, or the itemtype of a microdata item in doc.
func declaredDiscussion(doc *html.Node, jsonld [][]byte) bool {
	for _, b := range jsonld {
		var v any
		if json.Unmarshal(b, &v) != nil {
			continue
		}
		if discussionLD(v, 0) {
			return true
		}
	}
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && hasAttr(n, "itemscope") {
			for _, t := range strings.Fields(attr(n, "itemtype")) {
				if discussionTypes[schemaName(t)] {
					return true
				}
			}
		}
	}
	return false
}

// discussionLD reports whether the JSON-LD value v is, or lists at its top
// level (an array, a @graph), an object of a discussion type.
func discussionLD(v any, depth int) bool {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			if depth < 2 && discussionLD(e, depth+1) {
				return true
			}
		}
	case map[string]any:
		switch ty := t["@type"].(type) {
		case string:
			if discussionTypes[schemaName(ty)] {
				return true
			}
		case []any:
			for _, e := range ty {
				if s, ok := e.(string); ok && discussionTypes[schemaName(s)] {
					return true
				}
			}
		}
		if g, ok := t["@graph"]; ok && depth < 2 {
			return discussionLD(g, depth+1)
		}
	}
	return false
}

// schemaName is a schema.org type less its URL prefix.
func schemaName(t string) string {
	t = strings.TrimSpace(t)
	for _, p := range []string{"https://schema.org/", "http://schema.org/"} {
		t = strings.TrimPrefix(t, p)
	}
	return t
}
