package convert

import (
	"strings"
	"unicode"

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
	text, markup := "", ""
	flush := func() {
		if len(run) >= minTickerRun {
			for _, c := range run[1:] {
				n.RemoveChild(c)
			}
		}
		run, text, markup = run[:0], "", ""
	}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
			// space between the copies
		case c.Type != html.ElementNode || tableParts[c.DataAtom]:
			flush()
		default:
			t := tickerText(c)
			if len(run) > 0 && t == text && t != "" {
				// the same text: a copy when written alike (rendered
				// only then, so that a page's other elements cost a
				// bounded text walk)
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
			if t != "" {
				run, text = append(run, c), t
			}
			dropTickers(c)
		}
		c = next
	}
	flush()
}

// tickerText returns n's text, its runs of space made one, when it is
// short enough for a ticker's phrase (maxTickerBytes, maxTickerWords) and
// holds a letter; else "". The text is read at most maxTickerBytes deep,
// so that a walk over nested elements stays linear.
func tickerText(n *html.Node) string {
	var b strings.Builder
	if !tickerShort(n, &b) {
		return ""
	}
	words := strings.Fields(b.String())
	if len(words) == 0 || len(words) > maxTickerWords {
		return ""
	}
	t := strings.Join(words, " ")
	if strings.IndexFunc(t, unicode.IsLetter) < 0 {
		return ""
	}
	return t
}

// tickerMarkup returns n's markup, or "" when it cannot be written.
func tickerMarkup(n *html.Node) string {
	var b strings.Builder
	if html.Render(&b, n) != nil {
		return ""
	}
	return b.String()
}

// tickerShort writes the text under n to b and reports whether it stayed
// within maxTickerBytes, and the elements under n within maxTickerBytes
// too (it stops as soon as either is past).
func tickerShort(n *html.Node, b *strings.Builder) bool {
	elements := 0
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				b.WriteString(c.Data)
				b.WriteByte(' ')
			case html.ElementNode:
				elements++
				if elements > maxTickerBytes || !walk(c) {
					return false
				}
			}
			if b.Len() > maxTickerBytes {
				return false
			}
		}
		return true
	}
	return walk(n)
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
