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
		if n.Type == html.ElementNode && n.DataAtom == atom.Figcaption && pictureFigure(n.Parent) && cl.removable(n) {
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

// creditLine matches a caption that is a picture's credit alone: a label
// then the credit ("Photo: J. Doe", "Image credit: NASA", "Courtesy of
// the artist"), a photographer ("Photo by J. Doe"), a copyright line, or
// an agency, alone or with a name ("J. Doe/Getty Images", "(Reuters)",
// "AP Photo/J. Doe", "Win McNamee via Getty Images"). A caption that says what the picture shows and
// names its credit too stays whole ("Flooding in Valencia (Reuters)"), as
// does a source ("Source: Bureau of Labor Statistics" under a chart: the
// data's provenance) and "Image: the new settings panel".
var creditLine = regexp.MustCompile(`(?i)^(?:(?:photo|image|picture|illustration|video)\s*)?(?:credits?\s*:|courtesy(?:\s+of\b|\s*:))|^photo\s*:|^(?:photo|image|picture|illustration)s?\s+by\b|^©|` +
	`^\(?(?:[\p{L}.' -]{1,40}?(?:\s*/\s*|\s+via\s+))?(?:` + agency + `)(?:\s*(?:/|via)\s*[\p{L}.' -]{1,40})?\)?$`)

// agency matches the name of a photo agency.
const agency = `getty images|shutterstock|unsplash|istock|adobe stock|reuters|ap photo|afp(?:\s+via\s+getty images)?|associated press`
