package negotiate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/agentready/caddy-agentready/negotiate/htmlrewrite"
)

// Next is the rest of the handler chain, in Caddy's shape.
type Next func(w http.ResponseWriter, r *http.Request) error

// ConvertFunc turns the UTF-8 HTML of a page into its Markdown form. It must
// be safe for concurrent use; a panic is recovered and fails open.
type ConvertFunc func(html []byte, page Page) (*Converted, error)

// Page is what a ConvertFunc knows about the page besides its HTML.
type Page struct {
	// URL is the absolute URL of the page (the Markdown suffix removed): the
	// canonical address of both forms.
	URL *url.URL
	// Header is the origin's response header; read it, do not change it.
	Header http.Header
	// Context is the conversion's context: the request's, with the time
	// budget (Options.ConvertTimeout) as its deadline. A converter checks
	// it between its stages and in its long loops and stops when it is
	// done: the client went away, or the budget ran out.
	Context context.Context
	// Request is the client's request header (read only): a converter that
	// caches across clients needs it to apply RFC 9111 §3.5 (responses to
	// requests with credentials are not shared).
	Request http.Header
}

// Converted is the result of a conversion.
type Converted struct {
	// Markdown is the body of the Markdown form.
	Markdown []byte
	// Tokens is the token count sent as x-markdown-tokens; 0 leaves the
	// header out.
	Tokens int
}

// Observer receives events for logs and metrics. Its methods are called on
// the request's goroutine and must not block.
type Observer interface {
	// Served reports the form a negotiable response went out as:
	// "markdown", "html" (a 200 HTML page, with its Link headers) or
	// "passthrough" (anything else, untouched apart from Vary).
	Served(r *http.Request, form string)
	// Converted reports a successful conversion: its duration, the decoded
	// HTML size, the Markdown size and the token count.
	Converted(r *http.Request, d time.Duration, in, out, tokens int)
	// FailOpen reports a Markdown request answered with the original HTML
	// (reason "too_large", "decode", "charset", "convert", "no_content"
	// (the page has no text in its HTML: an application shell), "panic",
	// "busy", or a conversion over its budget: "budget_time",
	// "budget_size"), a Markdown request whose client went away during the
	// conversion, which was stopped and nothing sent ("canceled"), an
	// HTML page in a content coding sent as the origin sent it, without
	// its annotations, because it did not decode ("rewrite_decode"), was
	// over 256 KiB encoded or over MaxSize decoded ("rewrite_size"), or,
	// annotated and encoded again in its coding, was larger than the
	// origin's bytes ("rewrite_larger"), or an HTML page streamed
	// through the plan of its last copy whose bytes were not that copy's
	// although its origin named them the same (strong ETag and length):
	// the rest went out unannotated and the length promised was made up
	// with trailing spaces ("plan_mismatch").
	FailOpen(r *http.Request, reason string, err error)
	// Rewrote reports an annotated HTML page: annotated from the rewrite
	// plan of an earlier identical page (fromPlan), or by reading it as
	// HTML (and recording its plan when plans are on).
	Rewrote(r *http.Request, fromPlan bool)
}

// Handler is the negotiation middleware: it serves the Markdown form of HTML
// pages to clients that prefer it and adds the discovery headers and head
// injections to the HTML form. Set the exported fields, call Provision once,
// then ServeHTTP may be called concurrently.
type Handler struct {
	// Options are the settings; Provision fills in their defaults.
	Options Options
	// Convert produces the Markdown; required.
	Convert ConvertFunc
	// Admit, when set, is called before a page is buffered for conversion
	// with the bytes it may take (its Content-Length, else MaxSize); the
	// buffering waits until it returns. It bounds the memory that
	// concurrent conversions hold. An error (the client gave up, say) sends
	// the origin's response through instead, as a fail-open with reason
	// "busy". release is called once the response is done.
	Admit func(ctx context.Context, n int64) (release func(), err error)
	// Run, when set, is called once a page has been read for conversion,
	// before it is decoded and converted (the time budget,
	// Options.ConvertTimeout, starts when it returns); the conversion
	// waits until it returns. It bounds the conversions that use the CPU
	// at once. An error sends the origin's page instead, as a fail-open
	// with reason "busy" (nothing is sent when the client went away);
	// done is called once the conversion ends.
	Run func(ctx context.Context) (done func(), err error)
	// Cached, when set, is asked for the Markdown before the body is
	// decoded and converted; a non-nil answer is served as it is. The
	// page it is given is the handler's: it must not be kept (its URL is
	// reused).
	Cached func(page Page) *Converted
	// Inject, when set, returns what to inject into the HTML form of the
	// page r asks for (nil for nothing). The head link to the Markdown
	// alternate (Options.HeadLink) is added by the handler itself.
	Inject func(r *http.Request) *Injection
	// InjectAt, when set, is used instead of Inject: the same hook, also
	// given the URL ClientURL answered for r (nil when ClientURL is unset
	// or answered nil), which it would otherwise ask for again.
	InjectAt func(r *http.Request, client *url.URL) *Injection
	// Observer, when set, receives the events of each request.
	Observer Observer
	// Reenter, when set, serves a request that came through the Markdown
	// suffix (/pricing/md: the path the client asked for, ClientURL, ends
	// in it, whatever a rewrite in front made of it) by handing a request
	// for the page itself
	// (/pricing: path and RequestURI without the suffix, Accept:
	// text/markdown, the client's other headers and credentials kept) to
	// the start of the server's handler chain, so that every handler in
	// front of this one (authentication, IP filters, rate limits,
	// rewrites, a front controller that routes on the request URI) sees
	// exactly the request a client asking for the page with Accept would
	// send. The page's path and query are those the client asked for
	// (ClientURL), so a rewrite or a stripped prefix in front applies once,
	// in the same block. The request it is given is marked (see
	// SuffixRequest): when it comes back to this handler it is served as
	// the suffix form and is never handed back again. When the origin
	// answers it with a redirect that only adds a slash to the page's path
	// (/docs to /docs/), the page with the slash is handed to Reenter once
	// more, marked so that it follows nothing further. Reenter serves the
	// request before it returns, in the caller's goroutine (the mark is
	// known only while the call is under way: see SuffixRequest), and
	// reports false when it cannot serve the request (nothing was written
	// then).
	// Without Reenter, or when it cannot, the page is asked of next
	// directly, and only the handlers after this one see the page's path.
	Reenter func(w http.ResponseWriter, r *http.Request) bool
	// ClientURL, when set, returns the URL the client asked for, for a
	// server that may have rewritten the request's URL before this handler
	// runs (a front controller's rewrite to /index.php, a stripped path
	// prefix). The page's address (Page.URL, the front matter's canonical),
	// its Markdown alternate in the Link header and the head link are built
	// from its path and query, never from a path rewritten inside the
	// server. nil, or a nil answer: the request's URL as this handler
	// receives it.
	ClientURL func(r *http.Request) *url.URL
	// Origin is the site's public origin, scheme://host[:port] (the YAML's
	// site.origin). When set, the page's absolute URL (Page.URL: the front
	// matter's canonical, the Markdown's absolute links) is on it, as the
	// discovery documents and the injected canonical are: behind a proxy
	// that ends TLS, the request's own scheme and host are not the ones
	// the public uses. Empty: the request's scheme and Host.
	Origin string

	ready      bool
	origin     *url.URL               // Origin parsed; nil when unset
	plans      *htmlrewrite.PlanCache // nil when Options.RewriteCache is off
	encoded    *encodedCache          // likewise
	injections *injectionCache        // likewise
	links      *linkCache             // likewise
	suffix     string                 // "" when disabled
	staticLink []string               // llms.txt and agents.json Link values
}

var errNotProvisioned = errors.New("negotiate: handler used before Provision")

// Provision fills in the defaults of Options and validates them. Header
// values with control characters are rejected, so configuration can never
// inject a header.
func (h *Handler) Provision() error {
	if h.Convert == nil {
		return errors.New("negotiate: Convert function is required")
	}
	if err := h.Options.Provision(); err != nil {
		return err
	}
	if h.Observer == nil {
		h.Observer = nopObserver{}
	}
	o := &h.Options
	h.suffix = o.Suffix()
	h.staticLink = nil
	if o.LinkLLMS != disabled {
		h.staticLink = append(h.staticLink, LinkValue(o.LinkLLMS, "describedby", "text/plain"))
	}
	if o.LinkAgents != disabled {
		h.staticLink = append(h.staticLink, LinkValue(o.LinkAgents, "alternate", "application/json"))
	}
	h.origin = nil
	if h.Origin != "" {
		u, err := url.Parse(h.Origin)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("negotiate: origin %q: want scheme://host", h.Origin)
		}
		h.origin = u
	}
	h.plans, h.encoded, h.injections, h.links = nil, nil, nil, nil
	if o.RewriteCache > 0 {
		h.plans = htmlrewrite.NewPlanCache(o.RewriteCache)
		h.encoded = newEncodedCache(o.RewriteCache)
		h.injections = newInjectionCache(min(o.RewriteCache/8, maxInjectionCache))
		h.links = newLinkCache()
	}
	h.ready = true
	return nil
}

type nopObserver struct{}

func (nopObserver) Served(*http.Request, string)                          {}
func (nopObserver) Converted(*http.Request, time.Duration, int, int, int) {}
func (nopObserver) FailOpen(*http.Request, string, error)                 {}
func (nopObserver) Rewrote(*http.Request, bool)                           {}
