package convert

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// What refine may remove and what it must leave, whatever readability
// kept: the thresholds and the element rules.

// findHeading reports whether a heading of level 1 to maxLevel lies under
// n.
func findHeading(n *html.Node, maxLevel int) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (headingLevel(c) >= 1 && headingLevel(c) <= maxLevel || findHeading(c, maxLevel)) {
			return true
		}
	}
	return false
}

// headingLevel returns 1 to 6 for h1 to h6, else 0.
func headingLevel(n *html.Node) int {
	switch n.DataAtom {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// maxHeaderLen is the most text (non-space bytes) an article's header
// (title, byline, date) holds; a longer block before the article is a
// teaser list.
const maxHeaderLen = 400

// minKeptShare is the share of a block's text readability must have kept
// for the block to stay. It is not zero because short strings ("Photo",
// "By", "Share") occur both in the article and in the teasers around it.
const minKeptShare = 0.1

// maxTrailingShare bounds what refine removes after the article's end
// (after the last text readability kept): blocks of which readability kept
// nothing go there even when they hold prose or a byline (an author box,
// a sidebar column of a block theme), as long as together they hold less
// than this share of the kept text. More is not chrome around an article
// but the rest of the page: a forum topic's replies after the first post
// readability took for the article.
const maxTrailingShare = 0.5

// maxTailShare bounds, as a multiple of the kept text, the text of the
// prunable blocks after the article's end of which readability kept
// nothing that refine removes: more, and readability's article is a small
// part of the page (a category page's introduction above its product
// grid), not the page's content with chrome after it, and they stay.
const maxTailShare = 6

// protected are the elements refine never removes nor looks into: headings
// (with the text that names a section), tables, code, definition lists and
// quotes are content whatever readability thinks of them.
var protected = map[atom.Atom]bool{
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Table: true, atom.Pre: true, atom.Code: true, atom.Dl: true, atom.Kbd: true, atom.Samp: true,
	atom.Blockquote: true, // with its attribution, which readability drops
}

// inline are the phrasing elements refine leaves alone: removing one
// would cut a sentence (readability drops a byline's author link, for one).
var inline = map[atom.Atom]bool{
	atom.A: true, atom.Span: true, atom.Em: true, atom.Strong: true, atom.B: true, atom.I: true,
	atom.U: true, atom.S: true, atom.Time: true, atom.Abbr: true, atom.Small: true, atom.Sup: true,
	atom.Sub: true, atom.Mark: true, atom.Cite: true, atom.Q: true, atom.Del: true, atom.Ins: true,
	atom.Var: true, atom.Dfn: true, atom.Bdi: true, atom.Bdo: true, atom.Data: true, atom.Label: true,
	atom.Font: true, atom.Big: true, atom.Tt: true, atom.Br: true, atom.Wbr: true,
}

// prunable reports whether refine may remove n: a block-level element that
// is not a byline, not a real form (readability drops every form; a
// contact form can be what the page is for), holds no paragraph of prose
// and no code block (readability drops code in wrappers it finds
// unlikely, such as Sphinx's div.highlight) nor a definition list, and
// is not a section with a table or paragraphs of its own (headedSection).
func prunable(n *html.Node) bool {
	return !inline[n.DataAtom] && !isByline(n) && !hasProse(n, minProseLen) && !isRealForm(n) && !findAny(n, codeBlocks) &&
		!isAdmonition(n) && !isDocBookBox(n) && !(headedSection(n) && (findFirst(n, atom.Table) != nil || ownProse(n)))
}

// headedSection reports whether n is a section of the document: its first
// element is its heading, or DocBook's div.titlepage that holds it. Such a
// section that holds a table or paragraphs of its own (ownProse) is
// content: a manual's section whose text is a table of functions or
// operators, or a few paragraphs that each mention names in <code>, and
// that readability leaves out (the PostgreSQL manual's "Description" and
// "Notes" of CREATE TABLE, the "Syntax" of the cube module). A news
// page's "Related" section holds teasers in a list or cards, not
// paragraphs of its own.
func headedSection(n *html.Node) bool {
	first := firstElement(n)
	return first != nil && (headingLevel(first) > 0 || hasClass(first, "titlepage") && findHeading(first, 6))
}

// ownProse reports whether the paragraphs that are n's own (its children,
// or in <div>s only below it), each a
// sentence or more (minPlainLen outside links; not a list of one-line
// teasers), hold minProseLen non-space bytes of text outside links
// together.
func ownProse(n *html.Node) bool {
	l := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && l < minProseLen; c = c.NextSibling {
			switch {
			case c.Type != html.ElementNode:
			case c.DataAtom == atom.P:
				if pl := textOutsideLinks(c, minProseLen); pl >= minPlainLen {
					l += pl
				}
			case c.DataAtom == atom.Div:
				// AsciiDoc wraps a section's body and each paragraph in a
				// <div> (div.sectionbody, div.paragraph)
				walk(c)
			}
		}
	}
	walk(n)
	return l >= minProseLen
}

// docBookBoxes are the classes of DocBook's boxes beside the text (a
// sidebar, a note, a tip, a warning), as its XSL stylesheets write them:
// each with a div.titlepage or a title holding what kind of box it is
// ("TIP", "VOCABULARY"). Readability drops them ("sidebar" is one of its
// unlikely candidates), but they are the manual's text.
var docBookBoxes = []string{"sidebar", "note", "tip", "warning", "important", "caution"}

// isDocBookBox reports whether n is one of DocBook's boxes: a <div> of one
// of docBookBoxes whose first element (see firstElement) is its
// div.titlepage or its title (an <h1> to <h6> or a p.title).
func isDocBookBox(n *html.Node) bool {
	if n.DataAtom != atom.Div {
		return false
	}
	first := firstElement(n)
	if first == nil || !(hasClass(first, "titlepage") || hasClass(first, "title") || headingLevel(first) > 0) {
		return false
	}
	for _, c := range docBookBoxes {
		if hasClass(n, c) {
			return true
		}
	}
	return false
}

// firstElement returns n's first child element other than an empty
// anchor or span (DocBook puts an <a id> before a box's title, Sphinx a
// <span id> before a section's heading), or nil.
func firstElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !((c.DataAtom == atom.A || c.DataAtom == atom.Span) && c.FirstChild == nil) {
			return c
		}
	}
	return nil
}

// codeBlocks are the elements whose wrappers refine keeps: code, and
// definition lists (a reference page's options, a chapter's table of
// contents, which readability drops with their wrapper as link lists).
var codeBlocks = map[atom.Atom]bool{atom.Pre: true, atom.Dl: true}

// isRealForm reports whether n is a form with a text area or more than one
// field to fill (a contact or order form, which can be what the page is
// for), rather than a one-field newsletter, search or call-back widget.
func isRealForm(n *html.Node) bool {
	if n.DataAtom != atom.Form {
		return false
	}
	fields := 0
	var walk func(*html.Node) bool
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Textarea:
				return true
			case atom.Input:
				switch strings.ToLower(attr(c, "type")) {
				case "hidden", "submit", "button", "reset", "image":
				default:
					fields++
				}
			}
			if fields > 1 || walk(c) {
				return true
			}
		}
		return false
	}
	return walk(n)
}

// isByline reports whether n is a short author line, which readability
// moves to its metadata rather than keeping in the article.
func isByline(n *html.Node) bool {
	if strings.EqualFold(attr(n, "rel"), "author") || strings.Contains(strings.ToLower(attr(n, "itemprop")), "author") {
		return true
	}
	s := strings.ToLower(attr(n, "class") + " " + attr(n, "id"))
	return (strings.Contains(s, "byline") || strings.Contains(s, "dateline")) && textLen(textOf(n)) < 120
}

// minProseLen is the length (non-space bytes, outside links) of a text run
// that makes a block prose refine does not remove: about seventy words, a
// paragraph no teaser or menu holds.
const minProseLen = 400

// minPlainLen is the length (non-space bytes, outside links) of a text
// run that makes a block after readability's last kept text plain text
// (plainText): about fifteen words, a sentence.
const minPlainLen = 80

// hasProse reports whether a text node of at least min non-space bytes lies
// under n outside links.
func hasProse(n *html.Node, min int) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			if textLen(c.Data) >= min {
				return true
			}
		case c.Type == html.ElementNode && c.DataAtom != atom.A:
			if hasProse(c, min) {
				return true
			}
		}
	}
	return false
}

// textOutsideLinks counts the non-space bytes of text under n outside
// links, up to max.
func textOutsideLinks(n *html.Node, max int) int {
	l := 0
	for c := n.FirstChild; c != nil && l < max; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			l += textLen(c.Data)
		case c.Type == html.ElementNode && c.DataAtom != atom.A:
			l += textOutsideLinks(c, max-l)
		}
	}
	return l
}
