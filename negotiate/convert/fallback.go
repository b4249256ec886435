package convert

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// What the extractor does on a page with no landmark: readability's
// article, unless it cuts a reference page down to one of its sections,
// and else a cleaned body.

// readabilityBody returns readability's article art (readabilityArticle;
// how "readability"), or, when the article leaves out structure of the
// body (outside the chrome the prune rules remove): a code block, a
// definition list, or minDroppedHeadings headings with half the text, the
// body narrowed with
// readability as an oracle, as refine narrows a landmark (how
// "body+oracle"). A reference page (a man page, a chapter of a manual) is
// a row of sections of alike weight, and readability keeps the one that
// scores best (the option list of a man page) and drops the synopsis, the
// examples and the chapter's table of contents; as an oracle, it still
// removes the blocks of links and teasers around them. When the article
// is one post of a thread (postRun), the posts are the content (how
// "readability+posts"). ok is false when the article is a line out of a
// page of text (see minArticle).
func readabilityBody(art, body *html.Node, cl *cleaner) (picked content, ok bool) {
	if artLen := textLen(textOf(art)); artLen < minArticle && float64(textBeside(body, nil, cl)) > maxBodyToArticle*float64(artLen) {
		// A line (the title, a caption) out of a page of text: readability
		// found no article; the cleaned body is the better guess.
		return content{}, false
	}
	kept := map[string]bool{}
	collectTexts(art, kept)
	if run := postRun(body, kept); run != nil {
		// one post of a thread: the thread is the content
		return content{run, "readability+posts"}, true
	}
	if d := structureDropped(body, kept, cl); d.blocks > 0 || d.headings >= minDroppedHeadings {
		victims := unkept(body, kept, cl)
		gone := make(map[*html.Node]bool, len(victims))
		for _, v := range victims {
			gone[v] = true
		}
		// Headings alone are not enough: the narrowed body must also hold
		// minBodyGain times the article's text (a news page's "Related"
		// headings go with their blocks, and the article is what is left).
		if d.blocks > 0 || d.interior >= minDroppedHeadings || float64(textBeside(body, gone, cl)) > minBodyGain*float64(textLen(textOf(art))) {
			// a reference page: a section's only block stays under its
			// heading
			removeAll(body, slices.DeleteFunc(victims, sectionBody))
			return content{[]*html.Node{body}, "body+oracle"}, true
		}
	}
	fixAtoms(art)
	return content{[]*html.Node{art}, "readability"}, true
}

// partOfPage reports whether readability's article art is a part of a
// page that is not an article: the page does not declare itself one
// (declaredArticle), and root (the body, or a landmark) holds more than
// minPageToArticle times the article's text outside the chrome the prune
// rules remove. A service or product page is a row of sections (what the
// service is, its prices, how to book, the reviews), and readability
// keeps the one that scores best: the body, once cleaned of its chrome
// (cleanBody), is the page, and a landmark stays whole (refine).
func partOfPage(art, body *html.Node, cl *cleaner) bool {
	return !cl.article && float64(textBeside(body, nil, cl)) > minPageToArticle*float64(textLen(textOf(art)))
}

// minPageToArticle is how many times readability's article's text the
// body (or the landmark) of a page that is not an article must hold for
// the article to be a part of it (partOfPage). Chosen on the modern-web
// dev pages for the body: at 2 to 4, three to four service and product
// pages up (0302, a moving company's city page, 0.349 → 0.960) and none
// down; at 1.5, forum threads whose first post readability kept went to
// the cleaned body, with the thread's sidebar (0519 0.924 → 0.818, 0524
// 0.975 → 0.845), and at 1.25 seven articles fell by about 0.13 too. For
// a landmark, 3 moved 15 dev pages up and 6 down, 5 moved 9 up and 5
// down, 8 moved 3 up and 4 down.
const minPageToArticle = 3

// minArticle and maxBodyToArticle bound what readability may return as
// the article: less than minArticle non-space bytes of text, out of a body
// (outside the prune rules) holding maxBodyToArticle times as much, is not
// an article but a line readability mistook for one.
const (
	minArticle       = 500
	maxBodyToArticle = 10
)

// minDroppedHeadings is the fewest headings readability must leave out
// before its article is taken for a cut of a reference page: a news page's
// "Related" and "Most read" headings are fewer.
const minDroppedHeadings = 3

// minBodyGain is how much more text (outside chrome) the body narrowed by
// readability as an oracle must hold than readability's article for it to
// be taken when readability dropped only headings: twice as much. At 1.25
// the modern-web dev pages' median F1 fell from 0.923 to 0.916 and the
// readability test pages' p10 F1 from 0.971 to 0.950 (a blog's sidebar
// and a forum's other threads were kept); at 2, 0.923 and 0.968.
const minBodyGain = 2

// textBeside counts the non-space bytes of text under n outside the gone
// elements and the elements the prune rules remove.
func textBeside(n *html.Node, gone map[*html.Node]bool, cl *cleaner) int {
	l := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			l += textLen(c.Data)
		case c.Type != html.ElementNode, gone[c], cl.pruned(c) && !cl.keepPath[c] && !cl.keep[c]:
		default:
			l += textBeside(c, gone, cl)
		}
	}
	return l
}

// minDroppedList is the least text (non-space bytes) of a definition list
// readability leaves out that counts as dropped structure: a table of
// contents or a list of options, not a forum post's "Joined, Messages"
// panel.
const minDroppedList = 200

// droppedStructure counts the structure readability left out of a page.
type droppedStructure struct {
	headings int // h1 to h6
	blocks   int // <pre>, and outermost <dl> and DocBook box of minDroppedList or more
	// interior are the headings left out over a block readability kept:
	// the section stays, its heading went (SQLite's pages put theirs in
	// <h1>s, which readability drops)
	interior int
}

// structureDropped counts the headings, <pre> blocks and outermost
// definition lists under n, outside the elements the prune rules remove,
// of whose text less than half was kept.
func structureDropped(n *html.Node, kept map[string]bool, cl *cleaner) droppedStructure {
	var d droppedStructure
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || cl.pruned(c) {
			continue
		}
		isHeading, isBlock := headingLevel(c) > 0, c.DataAtom == atom.Pre || c.DataAtom == atom.Dl || isDocBookBox(c)
		if !isHeading && !isBlock {
			sub := structureDropped(c, kept, cl)
			d.headings, d.blocks, d.interior = d.headings+sub.headings, d.blocks+sub.blocks, d.interior+sub.interior
			continue
		}
		// Less than half kept is left out: a shell session's prompt ("#",
		// "$") is a text of its own, kept wherever another session is.
		if k, t := textKept(c, kept); 2*k < t {
			switch {
			case isHeading:
				d.headings++
				if next := nextBlock(c); next != nil && headingLevel(next) == 0 {
					if k, t := textKept(next, kept); t > 0 && 2*k >= t {
						d.interior++
					}
				}
			case c.DataAtom == atom.Pre || t >= minDroppedList:
				// a code block, a list of options, or a manual's box (a
				// DocBook sidebar or note, which readability drops as
				// "sidebar" whatever it holds) of that much text
				d.blocks++
			}
		}
	}
	return d
}

// cleanBody removes the page's chrome from a body no extractor could
// narrow: <header> elements outside an article (but one that holds an
// <h1> and is not mostly links: the page's title), forms that are widgets
// (search, newsletter: not isRealForm), and blocks that are mostly link
// text with two links or more (menus, lists of other articles, tag
// clouds), as measure finds chrome. What refine never removes stays
// (headings, tables, code, definition lists, quotes, prose, bylines, kept
// elements). Nothing is removed when it would leave the body with no text.
// It reports whether it removed anything.
func cleanBody(body *html.Node, cl *cleaner) bool {
	var victims []*html.Node
	var walk func(n *html.Node, inArticle bool) (text, link, links int)
	walk = func(n *html.Node, inArticle bool) (text, link, links int) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				l := textLen(c.Data)
				text += l
				if n.DataAtom == atom.A {
					link += l
				}
			case html.ElementNode:
				if cl.keep[c] || protected[c.DataAtom] {
					t, k, ls := walk(c, inArticle)
					text, link, links = text+t, link+k, links+ls
					continue
				}
				switch {
				case c.DataAtom == atom.Header && !inArticle && !(findHeading(c, 1) && !linkList(c, textLen(textOf(c)))),
					c.DataAtom == atom.Form && !isRealForm(c):
					if !cl.keepPath[c] {
						victims = append(victims, c)
						continue
					}
				}
				t, k, ls := walk(c, inArticle || c.DataAtom == atom.Article)
				if c.DataAtom == atom.A {
					if mailto(c) {
						k = 0 // an address is text, not navigation
					} else {
						ls++
						k = t
					}
				}
				if !notChrome[c.DataAtom] && ls >= 2 && 2*k > t && !cl.keepPath[c] && prunable(c) {
					victims = append(victims, c)
					continue
				}
				text, link, links = text+t, link+k, links+ls
			}
		}
		return text, link, links
	}
	walk(body, false)
	if len(victims) == 0 {
		return false
	}
	gone := make(map[*html.Node]bool, len(victims))
	for _, v := range victims {
		gone[v] = true
	}
	// A body whose text is mostly in link lists is a listing (a shop
	// category, an index of posts): its links are its content.
	if rest := textBeside(body, gone, cl); rest == 0 || minCleanedShare*float64(textBeside(body, nil, cl)) > float64(rest) {
		return false
	}
	for _, v := range victims {
		v.Parent.RemoveChild(v)
	}
	return true
}

// minCleanedShare is the least share of a body's text (outside chrome the
// prune rules remove) cleanBody must leave for its cleaning to apply.
const minCleanedShare = 1.0 / 3

// mailto reports whether the link n is an e-mail address (href
// "mailto:…"): an author's or a contact's address, which a block of
// content gives, not a link to another page.
func mailto(n *html.Node) bool {
	h := strings.TrimSpace(attr(n, "href"))
	return len(h) >= 7 && strings.EqualFold(h[:7], "mailto:")
}
