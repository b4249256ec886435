package selfcheck

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
)

// Scan scans target and returns its report: it fetches the home page,
// follows its redirects to the site's origin, picks the routes (the home
// page and up to Options.Pages pages that represent the site, see
// sitemapRoutes), runs every lens over the one
// shared site, and scores the report.
//
// The error is non-nil only when nothing could be scanned: target is not an
// absolute http(s) URL, or the home page gave no HTTP answer at all
// (refused, timeout, TLS error, redirect loop, oversize). In the second case
// the report is returned too, every check COULD_NOT_CHECK with the home
// page's receipt.
func Scan(ctx context.Context, target string, opts Options) (*Report, error) {
	opts = opts.withDefaults()
	u, err := url.Parse(strings.TrimSpace(target))
	if err != nil {
		return nil, fmt.Errorf("parsing target %q: %v", target, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("target %q: want an absolute http or https URL", target)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	u.Fragment = ""
	started := opts.Now()
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()

	origin := &url.URL{Scheme: u.Scheme, Host: u.Host}
	f := newFetcher(origin, opts)
	defer f.close()
	s := newSite(f, origin, u.String(), opts)
	home := s.page(ctx, s.home)
	if home.resp.failed() {
		r := newReport(u.String(), started, []string{u.String()})
		for _, l := range lenses {
			l.unreachable(s, home.resp, r)
		}
		r.finish(opts.Now())
		return r, fmt.Errorf("scanning %s: home page: %s", redactURL(u.String()), home.resp.errText())
	}
	// Follow the home page's redirects to the site's real origin (an
	// http→https hop is common) unless requests must stay on the target's.
	if fu, err := url.Parse(home.resp.finalURL); err == nil && fu.Host != "" && !opts.SameOriginOnly {
		s.origin = &url.URL{Scheme: fu.Scheme, Host: fu.Host}
	}
	s.setRoutes(append([]string{u.String()}, s.sitemapRoutes(ctx, opts.Pages)...))
	r := newReport(u.String(), started, s.routes)
	for _, l := range lenses {
		l.run(ctx, s, r)
	}
	r.finish(opts.Now())
	return r, nil
}

// newReport starts a report.
func newReport(target string, started time.Time, routes []string) *Report {
	return &Report{
		SchemaVersion: SchemaVersion,
		Standard:      StandardRef{Name: StandardName, Revision: StandardRevision},
		Scanner:       ScannerRef{Name: "agentready-selfcheck", Version: Version},
		Target:        redactURL(target),
		Started:       started.UTC(),
		Routes:        redactAll(routes),
		Unverified: []UnverifiedLine{{
			ID: "execution_tested", Section: SectionConnect, Verdict: Unverified,
			Reason: "an authenticated tool call needs credentials the scanner never holds; it never signs in and never calls a tool (docs/standard.md#rule-1)",
		}},
	}
}

// finish computes the totals and the duration.
func (r *Report) finish(now time.Time) {
	r.DurationMS = now.Sub(r.Started).Milliseconds()
	if r.DurationMS < 0 {
		r.DurationMS = 0
	}
	r.score()
	r.CheckpointSummary = r.checkpointSummary()
	if r.Lint != nil {
		r.Lint.count()
	}
	r.Plan = r.plan()
}

// redactAll redacts a list of URLs.
func redactAll(urls []string) []string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = redactURL(u)
	}
	return out
}

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

// lazy computes a value once, on first use, and shares it between checks.
type lazy[T any] struct {
	once sync.Once
	v    T
}

// get returns the value, computing it with f on first use.
func (l *lazy[T]) get(f func() T) T {
	l.once.Do(func() { l.v = f() })
	return l.v
}

// site is the state of one scan shared by all checks: the fetcher, the
// routes, and documents parsed once.
type site struct {
	opts   Options
	f      *fetcher
	origin *url.URL // scheme://host[:port] of the site
	home   string   // the target URL, after redirects
	routes []string // home first, then the pages picked (sitemapRoutes)

	pagesMu sync.Mutex
	pages   map[string]*lazy[*page]

	robotsDoc   lazy[robotsResult]
	sitemapDoc  lazy[sitemapResult]
	manifestDoc lazy[manifestResult]
	llmsDoc     lazy[*response]
	openapiDoc  lazy[openapiResult]
	mcpDoc      lazy[mcpEndpoint]
	backendDoc  lazy[backendResult]

	jsonMu         sync.Mutex
	jsonDocs       map[string]*lazy[jsonResult]
	scoredOutcomes map[string]*lazy[outcome]
}

// page is one scanned route: its HTML answer and the facts read from it.
type page struct {
	url   string
	resp  *response
	facts *parse.Page
	ld    parse.LD
}

// newSite prepares the shared state of a scan.
func newSite(f *fetcher, origin *url.URL, home string, opts Options) *site {
	return &site{opts: opts, f: f, origin: origin, home: home, routes: []string{home}, pages: map[string]*lazy[*page]{}, jsonDocs: map[string]*lazy[jsonResult]{}, scoredOutcomes: map[string]*lazy[outcome]{}}
}

// setRoutes fixes the routes of the scan (before any check runs); their
// pages are fetched and parsed on first use.
func (s *site) setRoutes(routes []string) {
	s.routes = routes
}

// abs returns the absolute URL of path on the site's origin.
func (s *site) abs(path string) string {
	return s.origin.ResolveReference(&url.URL{Path: path}).String()
}

// page returns the HTML answer of route as a browser asks for it, parsed.
func (s *site) page(ctx context.Context, route string) *page {
	s.pagesMu.Lock()
	l := s.pages[route]
	if l == nil {
		l = &lazy[*page]{}
		s.pages[route] = l
	}
	s.pagesMu.Unlock()
	return l.get(func() *page {
		p := &page{url: route, resp: s.f.get(ctx, route, acceptBrowser)}
		base, _ := url.Parse(route)
		if p.resp.finalURL != "" {
			base, _ = url.Parse(p.resp.finalURL)
		}
		if p.resp.ok() && isHTMLish(p.resp) {
			p.facts = parse.HTML(p.resp.body, base)
			p.ld = parse.JSONLD(p.facts.JSONLD)
		} else {
			p.facts = &parse.Page{LabelFor: map[string]bool{}}
		}
		return p
	})
}

// isHTMLish reports whether a response is HTML, or has no type and looks
// like it (RFC 9110 §8.3: a missing type may be sniffed).
func isHTMLish(r *response) bool {
	mt := r.mediaType()
	if mt == "text/html" || mt == "application/xhtml+xml" {
		return true
	}
	if mt == "" {
		head := strings.ToLower(string(r.body[:min(len(r.body), 512)]))
		return strings.Contains(head, "<html") || strings.Contains(head, "<!doctype html")
	}
	return false
}

// receiptOf builds a receipt for one response and the expected answer.
func (s *site) receiptOf(resp *response, expected string, headers ...string) Receipt {
	return Receipt{
		Request:  recordRequest(resp.req, s.opts.Redact),
		Expected: expected,
		Received: recordResponse(resp, headers, s.opts.Redact),
	}
}

// also records a further exchange.
func (s *site) also(resp *response, headers ...string) Exchange {
	return exchange(resp, headers, s.opts.Redact)
}

// couldNotCheck is the outcome of a check whose evidence never came back.
func (s *site) couldNotCheck(resp *response, expected string, headers ...string) outcome {
	return outcome{verdict: CouldNotCheck, missing: resp.errText(), receipt: s.receiptOf(resp, expected, headers...)}
}

// pathOf returns the path (and query) of a URL for a compact scope line.
func pathOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Path == "" {
		return "/"
	}
	return u.RequestURI()
}
