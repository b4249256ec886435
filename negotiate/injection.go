package negotiate

import (
	"html"
	"strings"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// The head injections of the HTML form are package htmlrewrite's; these
// names are the ones Handler.Inject and its callers use.
type (
	// Injection says what the HTML form of a page gains on its way
	// through; see htmlrewrite.Injection.
	Injection = htmlrewrite.Injection
	// HeadElement is a piece of markup to insert into the head of a page.
	HeadElement = htmlrewrite.HeadElement
	// TagMatch matches a start tag by name and attributes.
	TagMatch = htmlrewrite.TagMatch
	// FormAnnotation adds attributes to the forms a selector picks and to
	// their fields.
	FormAnnotation = htmlrewrite.FormAnnotation
)

// LinkWithKey returns a <link> element, open + href + `">`, for the head of
// a page, and key extended with mark + href, for Injection.Key: both are
// slices of one string, one allocation instead of two (the per-page links:
// the Markdown alternate, the canonical).
func LinkWithKey(open, href, key, mark string) (html, newKey string) {
	both := open + href + `">` + key + mark + href
	n := len(open) + len(href) + len(`">`)
	return both[:n], both[n:]
}

// LinkWithKeyOf is LinkWithKey(open, html.EscapeString(href), key, mark)
// for the href that is the join of its pieces, written from them:
// escaping is byte by byte, so the pieces escape as their join does, and
// the joined href is never made (one allocation instead of two).
func LinkWithKeyOf(open, key, mark string, href ...string) (link, newKey string) {
	var esc [6]string
	pieces := esc[:0]
	n := 0
	for _, p := range href {
		e := html.EscapeString(p)
		pieces = append(pieces, e)
		n += len(e)
	}
	var b strings.Builder
	b.Grow(len(open) + 2*n + len(`">`) + len(key) + len(mark))
	b.WriteString(open)
	for _, p := range pieces {
		b.WriteString(p)
	}
	b.WriteString(`">`)
	k := b.Len()
	b.WriteString(key)
	b.WriteString(mark)
	for _, p := range pieces {
		b.WriteString(p)
	}
	both := b.String()
	return both[:k], both[k:]
}
