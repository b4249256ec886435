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

// linkWithKeyOf is LinkWithKey(open, html.EscapeString(href), key, mark)
// for the href path+suffix+slash, with "?"+query when query is not
// empty, written from its pieces: escaping is byte by byte, so the pieces
// escape as their join does, and the joined href is never made (one
// allocation instead of two).
func linkWithKeyOf(open, key, mark, path, suffix, slash, query string) (link, newKey string) {
	p, sf, sl, q := html.EscapeString(path), html.EscapeString(suffix), html.EscapeString(slash), html.EscapeString(query)
	href := len(p) + len(sf) + len(sl)
	if query != "" {
		href += 1 + len(q)
	}
	var b strings.Builder
	b.Grow(len(open) + 2*href + len(`">`) + len(key) + len(mark))
	writeHref := func() {
		b.WriteString(p)
		b.WriteString(sf)
		b.WriteString(sl)
		if query != "" {
			b.WriteByte('?')
			b.WriteString(q)
		}
	}
	b.WriteString(open)
	writeHref()
	b.WriteString(`">`)
	n := b.Len()
	b.WriteString(key)
	b.WriteString(mark)
	writeHref()
	both := b.String()
	return both[:n], both[n:]
}
