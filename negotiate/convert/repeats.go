package convert

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dropRepeats removes, under root, an element whose words are, in the
// same order, those of an element just before it: the copies a page
// serves for each screen size and hides with its stylesheet (a site
// builder's desktop, tablet and phone variants of the whole article, a
// product's description in a tab and again in an accordion), which an
// agent would read twice. "Just before" is at most repeatGap of the
// copy's words of other text between the end of the first and the
// start of the copy: text a page repeats on purpose (the terms under
// each offer, a "Not valid with other offers" in each coupon) sits
// between texts of its own and stays. So does a copy of fewer than
// minRepeatWords words or minRepeatBlocks blocks, a code block and what
// holds one (a manual shows a command twice), a quotation and what it
// holds (a forum reply quotes the post above it), and a kept element.
func dropRepeats(root *html.Node, cl *cleaner) {
	sums := map[*html.Node]wordSum{}
	sumWords(root, sums)
	seen := map[[2]uint64]int{} // where the last copy of each text ended, in words
	pos := 0
	var gone []*html.Node
	var walk func(n *html.Node, quoted bool)
	walk = func(n *html.Node, quoted bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				pos += textSum(c.Data).words
			}
			if c.Type != html.ElementNode {
				continue
			}
			s := sums[c]
			key := [2]uint64{uint64(s.words), s.hash}
			quote := quoted || c.DataAtom == atom.Blockquote
			if end, ok := seen[key]; ok && s.words >= minRepeatWords && s.blocks >= minRepeatBlocks && !s.code && !quote &&
				float64(pos-end) <= repeatGap*float64(s.words) && cl.removable(c) {
				gone = append(gone, c)
				pos += s.words
				seen[key] = pos
				continue
			}
			walk(c, quote)
			if s.words >= minRepeatWords {
				seen[key] = pos
			}
		}
	}
	walk(root, false)
	cl.remove(gone)
}

// minRepeatWords is the fewest words an element must hold for a copy of
// it to go: shorter texts ("Add to cart", a price, a date) recur on a
// page by design.
const minRepeatWords = 8

// minRepeatBlocks is the fewest paragraphs, headings, list items or
// cells a copy must hold to go: a variant of a page's part for another
// screen has a structure, where a paragraph repeated on its own (the same
// filler paragraph five times in a template, readability's test pages)
// is the page's text as written, and stays.
const minRepeatBlocks = 2

// textBlock are the elements sumWords counts as blocks of text.
var textBlock = map[atom.Atom]bool{
	atom.P: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Li: true, atom.Dt: true, atom.Dd: true, atom.Td: true, atom.Th: true, atom.Figcaption: true,
}

// repeatGap is the most words of other text, as a share of a copy's
// words, that may sit between a text and its copy for the copy to go.
const repeatGap = 0.25

// wordSum stands for the words of an element: how many, a hash of their
// sequence, and whether the element holds code.
type wordSum struct {
	words int
	hash  uint64
	code  bool
	// blocks counts the paragraphs, headings, list items and table
	// cells with words under the element, itself included, that hold
	// no other
	blocks int
}

// repeatBase is the multiplier of the words' polynomial hash.
const repeatBase = 1099511628211

// sumWords records in sums the wordSum of n and of every element under
// it, and returns n's. An image's alt text is no word.
func sumWords(n *html.Node, sums map[*html.Node]wordSum) wordSum {
	var s wordSum
	switch n.Type {
	case html.TextNode:
		return textSum(n.Data)
	case html.ElementNode, html.DocumentNode:
	default:
		return s
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		cs := sumWords(c, sums)
		s.hash = s.hash*powBase(cs.words) + cs.hash
		s.words += cs.words
		s.code = s.code || cs.code
		s.blocks += cs.blocks
	}
	if textBlock[n.DataAtom] && s.words > 0 && s.blocks == 0 {
		s.blocks = 1 // a paragraph in a list item is one block
	}
	if n.DataAtom == atom.Pre {
		s.code = true
	}
	if n.Type == html.ElementNode {
		sums[n] = s
	}
	return s
}

// textSum is the wordSum of a text: its words are the runs of
// characters other than spaces, punctuation included (`a <= b` is not
// `a >= b`).
func textSum(text string) wordSum {
	var s wordSum
	var w uint64
	in := false
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if !unicode.IsSpace(r) {
			w = w*31 + uint64(r)
			in = true
			continue
		}
		if in {
			s.hash, s.words, w, in = s.hash*repeatBase+w, s.words+1, 0, false
		}
	}
	if in {
		s.hash, s.words = s.hash*repeatBase+w, s.words+1
	}
	return s
}

// powBase returns repeatBase to the power n (modulo 2^64).
func powBase(n int) uint64 {
	p, b := uint64(1), uint64(repeatBase)
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			p *= b
		}
		b *= b
	}
	return p
}
