package selfcheck

import (
	"net/http"
	"time"
)

// Defaults applied by Scan to zero-valued Options fields.
const (
	DefaultPages          = 5
	DefaultTimeout        = 60 * time.Second
	DefaultRequestTimeout = 10 * time.Second
	DefaultMaxBodyBytes   = 5 << 20
	DefaultConcurrency    = 4
	DefaultMaxRedirects   = 10
)

// UserAgent is the User-Agent header every scanner request carries, naming
// the scanner and where to read about it.
const UserAgent = "agentready-selfcheck/" + Version + " (+https://github.com/agentready/caddy-agentready)"

// Options tunes a scan. The zero value is ready to use.
type Options struct {
	// Pages is how many pages are scanned besides the home page, picked to
	// represent the site: spread over its sections (first path segment)
	// and page kinds, a likely form page first, from the sitemap or, when
	// the site has none, from the home page's same-origin links. Default: 5
	// (when 0). A negative value scans the home page only.
	Pages int
	// Timeout bounds the whole scan. Default: 60s.
	Timeout time.Duration
	// RequestTimeout bounds each request, body read included (a slow-loris
	// response ends in COULD_NOT_CHECK). Default: 10s.
	RequestTimeout time.Duration
	// MaxBodyBytes caps every response body; a larger body makes the checks
	// that need it COULD_NOT_CHECK. Default: 5 MiB.
	MaxBodyBytes int64
	// Concurrency bounds the requests in flight at once, and the checks
	// running at once. Default: 4.
	Concurrency int
	// MaxRedirects is how many redirects a request follows before it is
	// judged a redirect that never lands. Default: 10.
	MaxRedirects int
	// Transport carries the requests. Default (nil): a transport like
	// http.DefaultTransport with dial and TLS handshake timeouts. The
	// module's self-scan passes an in-process transport into Caddy's server.
	Transport http.RoundTripper
	// Header is added to every request (the self-scan marks its requests with
	// it). Only headers that shape the answer are recorded in receipts, so
	// these never are; names listed in Redact are also redacted wherever
	// they would otherwise appear. Default: none.
	Header http.Header
	// Redact names further headers to redact in receipts, on top of the
	// built-in credential list (Authorization, Cookie, Set-Cookie, API keys,
	// *-Token, *-Secret…). Default: none.
	Redact []string
	// SameOriginOnly refuses requests and redirects that leave the target's
	// origin (RFC 6454 §4: scheme, host, port). The self-scan sets it.
	// Default: false.
	SameOriginOnly bool
	// Progress, when set, is called after each check with the number of
	// checks done and the total. It must be safe for concurrent use.
	// Default: nil.
	Progress func(done, total int)
	// Now returns the current time (injectable for tests). Default: time.Now.
	Now func() time.Time
	// Only, when set, judges just the check, checkpoint or lint rule with
	// this id (the CLI's --check): the others are left out of the report
	// and the score covers that one check. Default: "" (everything).
	Only string
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.Pages == 0 {
		o.Pages = DefaultPages
	}
	if o.Pages < 0 {
		o.Pages = 0
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}
