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
