package convert

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// An article's standfirst (its deck, the sentence under the title that
// sums it up) is often the page's description word for word. The front
// matter states the description, and an article's body does not hold its
// standfirst, so dropStandfirst removes it; but only from the title's own
// header box: a first paragraph that the description repeats, inside the
// article's text, is the article's lede and stays.

// maxBoxOther is the most text (in non-space bytes) a header box may hold
// beside the title and the standfirst (a "Back to blog" link, a kicker)
// for the standfirst to go: a box holding more is the article itself.
const maxBoxOther = 160

// minStandfirstWords is the fewest words a standfirst must have for
// dropStandfirst to match it against a description it is a prefix of, or
// that is a prefix of it (a description cut at a length).
const minStandfirstWords = 8

// dropStandfirst removes the first text block after the content's first
// <h1>, within the header lines' reach (headerAfter blocks, headerWords
// words of other text), whose words are the page's description's
// (sameWords), when the smallest element holding both the title and that
// block holds little else (maxBoxOther). Kept elements stay.
func dropStandfirst(root *html.Node, cl *cleaner) {
	desc := standfirstWords(cl.description)
	if len(desc) == 0 {
		return
	}
	blocks, h := titleBlocks(root)
	if h < 0 {
		return
	}
	seen := 0
	for i := h + 1; i < len(blocks) && i <= h+headerAfter && seen < headerWords; i++ {
		b := blocks[i]
		if b.DataAtom == atom.Table {
			return
		}
		t := blockText(b)
		if sameWords(standfirstWords(t), desc) {
			if headerBox(blocks[h], b) {
				cl.remove([]*html.Node{b})
			}
			return
		}
		seen += len(strings.Fields(t))
	}
}

// headerBox reports whether the smallest element holding both title and
// b holds at most maxBoxOther bytes of other text.
func headerBox(title, b *html.Node) bool {
	box := commonAncestor(title, b)
	if box == nil {
		return false
	}
	other := textLen(blockText(box)) - textLen(blockText(title)) - textLen(blockText(b))
	return other <= maxBoxOther
}

// commonAncestor returns the smallest element holding both a and b, or
// nil.
func commonAncestor(a, b *html.Node) *html.Node {
	up := map[*html.Node]bool{}
	for p := a.Parent; p != nil; p = p.Parent {
		up[p] = true
	}
	for p := b.Parent; p != nil; p = p.Parent {
		if up[p] {
			return p
		}
	}
	return nil
}

// standfirstWords returns the lower-cased runs of letters and digits of s.
func standfirstWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// sameWords reports whether a block's words are a description's: the
// same, or one a prefix of the other of at least minStandfirstWords words
// (a description cut short at a length, its last word perhaps cut too),
// the block at most twice as long and a standfirst's length
// (headerWords at most: a description may be the whole text of a short
// page).
func sameWords(block, desc []string) bool {
	n := min(len(block), len(desc))
	if n == 0 || len(block) != len(desc) && n < minStandfirstWords || len(block) > 2*len(desc) || len(block) > headerWords {
		return false
	}
	for i := range n - 1 {
		if block[i] != desc[i] {
			return false
		}
	}
	last := block[n-1] == desc[n-1]
	if len(desc) < len(block) {
		last = strings.HasPrefix(block[n-1], desc[n-1])
	}
	return last
}
