package selfcheck

import (
	"context"
	"net/url"
	"strings"
	"sync"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
)

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
