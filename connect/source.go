package connect

import (
	"context"
	"errors"

	"github.com/agentready/caddy-agentready/fulltext"
)

// ErrNotModified is returned by [Source.Fetch] when the validators the index
// holds for a page are still current (the origin answered 304, RFC 9110
// §15.4.5): the indexed copy is kept as it is.
var ErrNotModified = errors.New("connect: page not modified")

// Source lists and fetches the site's pages. Implementations must be safe for
// concurrent use and must bound what they read (time through the context,
// size through their own byte cap).
type Source interface {
	// Pages returns the absolute URLs of the site's pages (sitemap and
	// configured sections). URLs on another origin are ignored.
	Pages(ctx context.Context) ([]string, error)
	// Fetch returns the page at pageURL as Markdown. prev holds the
	// validators of the indexed copy (empty on first fetch); when they still
	// hold, Fetch returns ErrNotModified.
	Fetch(ctx context.Context, pageURL string, prev Validators) (*Page, error)
}

// RefreshEnder is a Source told when each refresh whose Pages call
// succeeded has fetched its pages, with the refresh's error (nil when it
// succeeded): a Source shared by several instances (package fleet) stores
// what it fetched and lets go of its lock then.
type RefreshEnder interface {
	RefreshEnded(err error)
}

// Validators are the HTTP validators of a fetched representation, sent back
// on the next fetch as If-None-Match and If-Modified-Since (RFC 9110 §13.1).
type Validators struct {
	// ETag is the entity tag the origin sent, quotes included.
	ETag string
	// LastModified is the origin's Last-Modified value, as sent.
	LastModified string
}

// Page is one fetched page.
type Page struct {
	// URL is the page's canonical URL. When empty or on another origin, the
	// URL it was fetched from is used.
	URL string
	// Title is the page title.
	Title string
	// Description is the page's meta description, used as the result
	// description when set.
	Description string
	// Language is the page's BCP 47 language tag.
	Language string
	// Markdown is the page in Markdown. It may start with YAML front matter
	// (as the negotiated text/markdown form does); when it does not, get_page
	// prepends front matter built from the fields of this Page.
	Markdown []byte
	// Validators are the validators to send on the next fetch.
	Validators Validators
	// Updated is the page's last-modified date (ISO 8601), when known.
	Updated string
	// Sections are the page's full text cut at its headings, what the
	// search reads (HTTPSource reads them from the page's HTML, definition
	// lists, tables and code included). When nil, the search reads the
	// Markdown's sections instead.
	Sections []fulltext.Section
}
