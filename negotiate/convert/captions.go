package convert

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dropCaptions removes the credits of pictures under root: a
// <figcaption> of maxCreditWords words at most that creditLine matches
// ("Photo: J. Doe / Getty Images", "… Credit: Nikon"), of a <figure> that
// holds an image or a video and no code, table or quote. A credit is not
// the article's text (schema.org's articleBody leaves it out). A longer
// caption, that says what the picture shows, stays whole, as do the
// captions of a code listing, a table or a quote, and a caption that
// minItemLabels pictures share (a list's item labels).
func dropCaptions(root *html.Node, cl *cleaner) {
	var gone []*html.Node
	seen := map[string]int{}
	for n := range root.Descendants() {
		if n.Type == html.ElementNode && n.DataAtom == atom.Figcaption && pictureFigure(n.Parent) && !cl.keep[n] && !cl.keepPath[n] {
			gone = append(gone, n)
			seen[blockText(n)]++
		}
	}
	for _, n := range gone {
		if t := blockText(n); seen[t] < minItemLabels && len(strings.Fields(t)) <= maxCreditWords && creditLine.MatchString(t) {
			n.Parent.RemoveChild(n)
		}
	}
}

// maxCreditWords is the most words of a caption that is only a credit;
// a longer one says what the picture shows too, and stays whole.
const maxCreditWords = 8

// minItemLabels is how many pictures must share a caption for it to be
// the label of a list's items ("Expires 01/01/26" under each coupon),
// which stays.
const minItemLabels = 3

// pictureFigure reports whether fig is a <figure> holding an image or a
// video and no code, table or quote.
func pictureFigure(fig *html.Node) bool {
	if fig == nil || fig.Type != html.ElementNode || fig.DataAtom != atom.Figure {
		return false
	}
	picture := false
	for d := range fig.Descendants() {
		if d.Type != html.ElementNode {
			continue
		}
		switch d.DataAtom {
		case atom.Img, atom.Picture, atom.Video:
			picture = true
		case atom.Pre, atom.Code, atom.Table, atom.Blockquote:
			return false
		}
	}
	return picture
}

// creditLine matches a caption that is a picture's credit or source.
var creditLine = regexp.MustCompile(`(?i)^(?:photo|image|picture|illustration|video)?\s*(?:credits?|source|courtesy)\s*:|^(?:photo|image|picture)\s*(?:by|:)|\b(?:credits?|source)\s*:\s*[^.]{1,60}$|^©|\b(?:getty images|shutterstock|unsplash|istock|adobe stock|reuters|ap photo)\b`)
