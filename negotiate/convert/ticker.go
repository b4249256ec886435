package convert

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dropTickers writes a ticker once: a run of minTickerRun or more sibling
// elements written alike, markup and all, holding a short text
// (maxTickerWords words at most, with a letter), which a page repeats so
// that a marquee ("Book Now * Book Now * …", "Secure your spot - enrol
// now") scrolls without a gap. Cards that differ only in their image or
// link (a coupon's "Expires 01/01/26" under each offer) are not copies.
// A reader sees one phrase moving; the Markdown wrote it tens or hundreds
// of times. The first of the run stays. Table rows and cells are left
// alone (a row of "Yes" is a comparison's data).
func dropTickers(n *html.Node) {
	var run []*html.Node
	var key uint64
	markup := ""
	flush := func() {
		if len(run) >= minTickerRun {
			for _, c := range run[1:] {
				n.RemoveChild(c)
			}
		}
		run, key, markup = run[:0], 0, ""
	}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
			// space between the copies
		case c.Type != html.ElementNode || tableParts[c.DataAtom]:
			flush()
		default:
			k, ok := tickerKey(c)
			if len(run) > 0 && ok && k == key {
				// the same words: a copy when written alike (its markup
				// written out only then, so that a page's other
				// elements cost a bounded walk)
				if markup == "" {
					markup = tickerMarkup(run[0])
				}
				if m := tickerMarkup(c); m != "" && m == markup {
					run = append(run, c)
					dropTickers(c)
					break
				}
			}
			flush()
			if ok {
				run, key = append(run, c), k
			}
			dropTickers(c)
		}
		c = next
	}
	flush()
}

// tickerKey returns a hash of n's words (its text with runs of space made
// one) when the text is short enough for a ticker's phrase
// (maxTickerBytes of text and elements, maxTickerWords words) and holds a
// letter; ok is false otherwise. It allocates nothing and reads at most
// maxTickerBytes of text and elements under n, so that a walk over nested
// elements stays linear.
func tickerKey(n *html.Node) (key uint64, ok bool) {
	k := tickerHash{sum: 14695981039346656037}
	if !k.walk(n) || k.words == 0 || k.words > maxTickerWords || !k.letter {
		return 0, false
	}
	return k.sum, true
}

// tickerHash is tickerKey's state: an FNV-1a hash of the words seen, with
// one space between words.
type tickerHash struct {
	sum            uint64
	size, elements int
	words          int
	inWord, letter bool
}

// walk hashes the text under n and reports whether it stayed within the
// bounds.
func (k *tickerHash) walk(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			k.size += len(c.Data)
			if k.size > maxTickerBytes {
				return false
			}
			k.text(c.Data)
		case html.ElementNode:
			k.elements++
			if k.elements > maxTickerBytes || !k.walk(c) {
				return false
			}
		}
	}
	return true
}

// text hashes s, a run of text, word by word; a word runs on into the
// next text node when no space separates them (<b>Book</b>ed), as it
// reads.
func (k *tickerHash) text(s string) {
	for _, r := range s {
		if unicode.IsSpace(r) {
			k.inWord = false
			continue
		}
		if !k.inWord {
			if k.words > 0 {
				k.byte(' ')
			}
			k.words++
			k.inWord = true
		}
		if unicode.IsLetter(r) {
			k.letter = true
		}
		var buf [utf8.UTFMax]byte
		for _, b := range buf[:utf8.EncodeRune(buf[:], r)] {
			k.byte(b)
		}
	}
}

// byte adds b to the hash.
func (k *tickerHash) byte(b byte) {
	k.sum ^= uint64(b)
	k.sum *= 1099511628211
}

// tickerMarkup returns n's markup, or "" when it cannot be written.
func tickerMarkup(n *html.Node) string {
	var b strings.Builder
	if html.Render(&b, n) != nil {
		return ""
	}
	return b.String()
}

// tableParts are the elements whose runs dropTickers leaves alone.
var tableParts = map[atom.Atom]bool{atom.Tr: true, atom.Td: true, atom.Th: true, atom.Tbody: true, atom.Col: true}

const (
	// minTickerRun is the fewest copies in a row that make a ticker: the
	// marquees on modern-web's pages repeat their phrase 12 to 200 times.
	minTickerRun = 5
	// maxTickerWords is the most words a ticker's phrase holds, and
	// maxTickerBytes the most bytes of text (and elements) it may hold.
	maxTickerWords = 8
	maxTickerBytes = 200
)
