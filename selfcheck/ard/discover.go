package ard

import (
	"context"
	"net/http"
)

// Discovery sources, in the order ARD v0.91 §5.1 (and Lighthouse) tries them.
const (
	SourceRobotsTxtAgentmap    = "robotsTxtAgentmap"
	SourceHTMLLink             = "htmlLink"
	SourceHTTPHeaderLink       = "httpHeaderLink"
	SourceWellKnown            = "wellKnown"
	SourceLegacyHTMLLink       = "legacyHtmlLink"
	SourceLegacyHTTPHeaderLink = "legacyHttpHeaderLink"
	SourceLegacyWellKnown      = "legacyWellKnown"
)

// sourcePriority is the candidate order.
var sourcePriority = []string{
	SourceRobotsTxtAgentmap, SourceHTMLLink, SourceHTTPHeaderLink, SourceWellKnown,
	SourceLegacyHTMLLink, SourceLegacyHTTPHeaderLink, SourceLegacyWellKnown,
}

// advertised reports whether a source is one the site points at. The two
// well-known paths are probed by the scanner, so their failure is not the
// site's fault and is never recorded.
func advertised(source string) bool {
	return source != SourceWellKnown && source != SourceLegacyWellKnown
}

// Well-known paths (ARD §5.1; the legacy ai-catalog path is the predecessor).
const (
	WellKnownPath       = "/.well-known/ard.json"
	LegacyWellKnownPath = "/.well-known/ai-catalog.json"
)

// Response is what a Fetcher returns for one GET. Err is set when no HTTP
// response arrived (network error, timeout); Status is then 0.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	Err    error
}

// Fetcher GETs a URL. It must honour ctx and bound the body it reads.
type Fetcher func(ctx context.Context, url string) Response

// FailedSource is an advertised manifest location that did not load.
// Status is 0 when no HTTP response arrived (ErrorMessage then says why).
type FailedSource struct {
	Source       string `json:"source"`
	URL          string `json:"url"`
	Status       int    `json:"status"`
	ErrorMessage string `json:"errorMessage,omitempty"`
}

// Discovery is the outcome of manifest discovery (Lighthouse's
// AgentResourceDiscovery artifact).
type Discovery struct {
	// CatalogURL is the manifest that loaded; when none did, the first
	// advertised location that failed, else /.well-known/ard.json.
	CatalogURL string `json:"catalogUrl"`
	// Source names how CatalogURL was found (one of the Source constants).
	Source string `json:"discoverySource"`
	// Status is the HTTP status of CatalogURL's fetch, 0 when none arrived.
	Status int `json:"status"`
	// Header holds CatalogURL's response headers.
	Header http.Header `json:"-"`
	// Content is CatalogURL's body.
	Content []byte `json:"-"`
	// Signals maps each source to the URL it pointed at; sources that
	// pointed nowhere are absent.
	Signals map[string]string `json:"discoverySignals"`
	// FailedSources lists advertised locations tried before CatalogURL (or,
	// when nothing loaded, all of them) that did not answer 200 with a body.
	FailedSources []FailedSource `json:"failedSources"`
	// ErrorMessage is the network error of CatalogURL's fetch, if any.
	ErrorMessage string `json:"errorMessage,omitempty"`
}

// attempt is one fetched candidate that did not load.
type attempt struct {
	source, url string
	resp        Response
}

// Discover finds the site's ARD manifest. pageURL is the page's final URL;
// robotsTxt is the site's robots.txt body (nil when it has none); pageHTML
// and pageHeader are the page's body and response headers. Candidates are
// tried in order, each URL at most once; the first answering 200 with a
// non-empty body wins.
func Discover(ctx context.Context, fetch Fetcher, pageURL string, robotsTxt *string, pageHTML []byte, pageHeader http.Header) Discovery {
	signals := map[string]string{}
	if robotsTxt != nil {
		signals[SourceRobotsTxtAgentmap] = ParseAgentmap(*robotsTxt, pageURL)
	}
	signals[SourceHTMLLink], signals[SourceLegacyHTMLLink] = htmlLinks(pageHTML, pageURL)
	signals[SourceHTTPHeaderLink], signals[SourceLegacyHTTPHeaderLink] = ParseLinkHeader(pageHeader.Values("Link"), pageURL)
	signals[SourceWellKnown] = resolveURL(WellKnownPath, pageURL)
	signals[SourceLegacyWellKnown] = resolveURL(LegacyWellKnownPath, pageURL)
	for k, v := range signals {
		if v == "" {
			delete(signals, k)
		}
	}

	d := Discovery{Signals: signals, FailedSources: []FailedSource{}}
	var attempts []attempt
	for _, source := range sourcePriority {
		u := signals[source]
		if u == "" || tried(attempts, u) {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		resp := fetch(ctx, u)
		if resp.Status == http.StatusOK && len(resp.Body) > 0 {
			d.FailedSources = failedSources(attempts)
			d.fill(source, u, resp)
			return d
		}
		attempts = append(attempts, attempt{source, u, resp})
	}
	d.FailedSources = failedSources(attempts)
	for _, a := range attempts {
		if advertised(a.source) {
			d.fill(a.source, a.url, a.resp)
			return d
		}
	}
	for _, a := range attempts {
		if a.source == SourceWellKnown {
			d.fill(a.source, a.url, a.resp)
			return d
		}
	}
	d.ErrorMessage = "ard discovery attempted no candidates"
	if err := ctx.Err(); err != nil {
		d.ErrorMessage = "ard discovery: " + err.Error()
	}
	return d
}

// fill records the chosen candidate.
func (d *Discovery) fill(source, u string, r Response) {
	d.Source, d.CatalogURL = source, u
	d.Status, d.Header, d.Content = r.Status, r.Header, r.Body
	if r.Err != nil {
		d.Status, d.ErrorMessage = 0, r.Err.Error()
	}
}

func tried(attempts []attempt, u string) bool {
	for _, a := range attempts {
		if a.url == u {
			return true
		}
	}
	return false
}

func failedSources(attempts []attempt) []FailedSource {
	out := []FailedSource{}
	for _, a := range attempts {
		if !advertised(a.source) {
			continue
		}
		f := FailedSource{Source: a.source, URL: a.url, Status: a.resp.Status}
		if a.resp.Err != nil {
			f.Status, f.ErrorMessage = 0, a.resp.Err.Error()
		}
		out = append(out, f)
	}
	return out
}
