package negotiate

import "github.com/agentready/caddy-agentready/negotiate/htmlrewrite"

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
