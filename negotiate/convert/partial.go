package convert

import "golang.org/x/net/html"

// articleIsPart reports whether readability's article art is one part of
// a page made of parts rather than the page's article: it holds less than
// maxPartShare of the body's text (outside the elements the prune rules
// remove), and the page does not declare itself an article. A service or
// product page is a row of sections of alike weight (what the company
// does, its prices, its reviews, its questions), and readability keeps the
// one that scores best; on such a page the cleaned body (cleanBody: the
// body less its header, its widget forms and its link lists) is the
// content, when cleaning it leaves enough (minCleanedShare). A page that
// declares an article (og:type, JSON-LD) keeps readability's article:
// there, what lies around it is the site's other stories.
func articleIsPart(art, body *html.Node, cl *cleaner) bool {
	return !cl.article && float64(textLen(textOf(art))) < maxPartShare*float64(textBeside(body, nil, cl))
}

// maxPartShare is the share of a body's text below which readability's
// article is taken for one part of the page (articleIsPart). On the
// modern-web dev split, shares of 0.2 to 0.5 lift the same service and
// product pages, and 0.6 costs forum threads whose first post is the
// truth (the cleaned body keeps every reply); a half costs go-readability's
// webmd-1 (a news story without og:type, 0.41 of its body), so a third.
const maxPartShare = 1.0 / 3

// keptIsPart reports whether the text readability kept of a landmark root
// is one part of a landmark made of parts: less than maxKeptPartShare of
// the landmark's text (outside the elements the prune rules remove), on a
// page that does not declare itself an article. A service page's <main>
// is a row of sections (what the company does, its prices, its
// questions), and readability keeps the one that scores best; the oracle
// would remove the others.
func keptIsPart(root *html.Node, kept map[string]bool, cl *cleaner) bool {
	if cl.article {
		return false
	}
	k, _ := textKept(root, kept)
	return float64(k) < maxKeptPartShare*float64(textBeside(root, nil, cl))
}

// maxKeptPartShare is the share of a landmark's text below which what
// readability kept of it is one part of it (keptIsPart). Chosen on the
// modern-web dev split: at a fifth, service pages gain (0719 0.429 →
// 0.832) and no page loses more than 0.003; at 0.3, a shop's collection
// page whose truth is the part readability kept loses (0636).
const maxKeptPartShare = 0.2

// chromeOnly returns the victims of the oracle (unkept) that are chrome
// whatever readability kept: blocks of mostly link text (linkList) and
// blocks holding a form control. The others, sections readability left
// out, stay.
func chromeOnly(victims []*html.Node) []*html.Node {
	var out []*html.Node
	for _, v := range victims {
		if linkList(v, textLen(textOf(v))) || findAny(v, formControls) {
			out = append(out, v)
		}
	}
	return out
}
