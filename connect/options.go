package connect

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults applied by [New] to zero-valued [Options] fields. Those the
// site YAML also sets (connect: in package manifest) have the same values
// there; caddymodule's TestDefaultsAgree holds them together.
const (
	DefaultMCPPath           = "/mcp"
	DefaultAskPath           = "/ask"
	DefaultMaxPages          = 1000
	DefaultMaxBytes          = 64 << 20
	DefaultRefresh           = time.Hour
	DefaultRetryMin          = 2 * time.Second
	DefaultRetryMax          = 5 * time.Minute
	DefaultRequestsPerMinute = 60
	DefaultMaxQueryLength    = 512
	DefaultMaxResults        = 10
	DefaultMaxRequestBytes   = 64 << 10
	DefaultFetchTimeout      = 30 * time.Second
	DefaultRequestTimeout    = 15 * time.Second
	DefaultServerName        = "site-content"
	DefaultServerVersion     = "1.0.0"
)

// Fixed bounds that are not worth a knob.
const (
	// maxPageBytes caps one page's Markdown; a larger page is skipped.
	maxPageBytes = 4 << 20
	// hardMaxResults caps MaxResults whatever the configuration says.
	hardMaxResults = 100
	// listPageSize is the number of pages one list_pages call returns.
	listPageSize = 100
	// maxTrackedClients bounds the rate limiter's memory.
	maxTrackedClients = 10000
	// fetchWorkers is how many pages are fetched at once during a refresh.
	fetchWorkers = 4
	// maxURLLength refuses page URLs longer than this.
	maxURLLength = 2048
)

// Options configure a [Server]. The zero value of every field but Origin
// selects the default named on it.
type Options struct {
	// Origin is the site's origin ("https://example.com"): scheme, host and
	// optional port, no path. Required. Only pages on this origin are
	// indexed and served.
	Origin string
	// MCPPath is the path of the MCP endpoint. Default "/mcp".
	MCPPath string
	// AskPath is the path of the NLWeb endpoint. Default "/ask".
	AskPath string
	// MaxPages is the most pages the index holds; further URLs the Source
	// lists are skipped. Default 5000.
	MaxPages int
	// MaxBytes is the most Markdown bytes the index holds across all pages;
	// pages past the budget are skipped. Default 64 MiB.
	MaxBytes int64
	// Refresh is the interval between scheduled re-indexing runs. Default 1h;
	// negative disables the periodic runs: Start indexes once, retrying
	// until that succeeds (Refresh can still be called).
	Refresh time.Duration
	// RetryMin is the wait before the first retry of a failed refresh (see
	// [Stats.Failures] for what fails one). Each further failure doubles it,
	// up to RetryMax; every wait is jittered to between half and all of its
	// value, so instances that failed together do not retry in step. A
	// success returns to the Refresh schedule. Default 2s.
	RetryMin time.Duration
	// RetryMax caps the wait between retries, and is itself capped by
	// Refresh when the schedule is on. Default 5m.
	RetryMax time.Duration
	// RequestsPerMinute is each client's sustained request budget on the MCP
	// and ask endpoints together, with a burst of the same size. Default 120;
	// negative disables rate limiting.
	RequestsPerMinute int
	// SharedLimit, when set, counts the rate limit across the instances
	// of a fleet (package fleet): each allowed request is reported to it,
	// and what the other instances counted for the client over the last
	// minute is taken off its budget. Default: nil (this instance alone).
	SharedLimit SharedLimit
	// MaxQueryLength is the longest accepted query, in characters. Default 512.
	MaxQueryLength int
	// MaxResults caps the results of one search (search_site, ask, /ask).
	// Default 10, at most 100.
	MaxResults int
	// MaxRequestBytes caps a request body on the MCP endpoint; larger bodies
	// get 413. Default 64 KiB.
	MaxRequestBytes int64
	// FetchTimeout bounds one Source.Fetch call during indexing. Default 30s.
	FetchTimeout time.Duration
	// RequestTimeout bounds the handling of one request. Default 15s.
	RequestTimeout time.Duration
	// Language is the site's language, a BCP 47 tag: English, or "" (not
	// configured), indexes and searches with English stop words and
	// stemming; another language with its Snowball stemmer where Snowball
	// has one, else unstemmed (see fulltext.Build). Leave it empty when
	// Store is set (the Store's own applies). Default: "".
	Language string
	// Store, when set, is the index the server answers from and refreshes,
	// created with [NewStore] and typically taken over from the Server this
	// one replaces; the caller closes it. Default: a Store of the server's
	// own, closed by [Server.Close].
	Store *Store
	// ServerName is the MCP implementation name. Default "site-content".
	ServerName string
	// ServerVersion is the MCP implementation version. Default "1.0.0".
	ServerVersion string
	// Instructions are the MCP server instructions sent on initialize.
	// Default: a sentence naming the origin and the tools.
	Instructions string
	// ClientIP returns the client address used for rate limiting. Default:
	// the host part of the request's RemoteAddr.
	ClientIP func(*http.Request) string
	// Auth, when set, requires OAuth access tokens on both endpoints.
	// Default nil: public and read-only.
	Auth *OAuth
}

// OAuth configures bearer-token protection (RFC 6750) with JWT access tokens
// (RFC 9068) verified against the authorization server's JWKS.
type OAuth struct {
	// Issuer is the required "iss" claim. Required.
	Issuer string
	// JWKSURL is where the authorization server publishes its signing keys
	// (RFC 7517). Required. The key set is cached and refetched when a token
	// names an unknown key.
	JWKSURL string
	// Audience is the required "aud" value, usually the MCP endpoint's URL
	// (RFC 8707 resource indicator). Required.
	Audience string
	// ResourceMetadataURL is the URL of the RFC 9728 protected-resource
	// metadata document, advertised in WWW-Authenticate. Required.
	ResourceMetadataURL string
	// Scopes lists the scopes each tool requires, by tool name ("ask" also
	// covers the /ask endpoint); the key "*" lists scopes every request
	// needs. Default: none beyond a valid token.
	Scopes map[string][]string
	// HTTPClient fetches the JWKS. Default: a client with a 10s timeout.
	HTTPClient *http.Client
}

// withDefaults returns a copy of o with defaults filled in, or an error
// naming the first invalid field.
func (o Options) withDefaults() (Options, error) {
	origin, err := parseOrigin(o.Origin)
	if err != nil {
		return o, err
	}
	o.Origin = origin
	setDefault(&o.MCPPath, DefaultMCPPath)
	setDefault(&o.AskPath, DefaultAskPath)
	for _, p := range []string{o.MCPPath, o.AskPath} {
		if !strings.HasPrefix(p, "/") {
			return o, fmt.Errorf("connect: endpoint path %q must start with /", p)
		}
	}
	if o.MCPPath == o.AskPath {
		return o, fmt.Errorf("connect: mcp and ask paths are both %q", o.MCPPath)
	}
	setDefault(&o.MaxPages, DefaultMaxPages)
	setDefault(&o.MaxBytes, DefaultMaxBytes)
	setDefault(&o.Refresh, DefaultRefresh)
	setDefault(&o.RetryMin, DefaultRetryMin)
	setDefault(&o.RetryMax, DefaultRetryMax)
	setDefault(&o.RequestsPerMinute, DefaultRequestsPerMinute)
	setDefault(&o.MaxQueryLength, DefaultMaxQueryLength)
	setDefault(&o.MaxResults, DefaultMaxResults)
	o.MaxResults = min(o.MaxResults, hardMaxResults)
	setDefault(&o.MaxRequestBytes, DefaultMaxRequestBytes)
	setDefault(&o.FetchTimeout, DefaultFetchTimeout)
	setDefault(&o.RequestTimeout, DefaultRequestTimeout)
	setDefault(&o.ServerName, DefaultServerName)
	setDefault(&o.ServerVersion, DefaultServerVersion)
	setDefault(&o.Instructions, "Read-only access to the pages of "+o.Origin+
		": search_site finds pages, get_page returns a page as Markdown, list_pages lists them, ask answers with schema.org results.")
	if o.ClientIP == nil {
		o.ClientIP = remoteIP
	}
	if o.MaxPages < 0 || o.MaxBytes < 0 || o.MaxQueryLength < 0 || o.MaxResults < 0 || o.MaxRequestBytes < 0 ||
		o.RetryMin < 0 || o.RetryMax < 0 {
		return o, fmt.Errorf("connect: negative limit in options")
	}
	if o.Auth != nil {
		if err := o.Auth.validate(); err != nil {
			return o, err
		}
	}
	return o, nil
}

func (a *OAuth) validate() error {
	for name, v := range map[string]string{
		"issuer": a.Issuer, "jwks_url": a.JWKSURL, "audience": a.Audience,
		"resource_metadata_url": a.ResourceMetadataURL,
	} {
		if v == "" {
			return fmt.Errorf("connect: oauth %s is required", name)
		}
	}
	if _, err := url.Parse(a.JWKSURL); err != nil {
		return fmt.Errorf("connect: oauth jwks_url: %v", err)
	}
	return nil
}

// setDefault sets *p to def when *p is the zero value.
func setDefault[T comparable](p *T, def T) {
	var zero T
	if *p == zero {
		*p = def
	}
}

// parseOrigin validates and normalises an origin (RFC 6454 §6.2 ASCII
// serialisation): lower-case scheme and host, default port dropped.
func parseOrigin(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("connect: origin is required")
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("connect: origin %q: %v", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("connect: origin %q must be an http or https URL with a host", s)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("connect: origin %q must not carry a path, query, fragment or user", s)
	}
	return strings.ToLower(u.Scheme) + "://" + canonicalHost(u), nil
}

// canonicalHost lower-cases the host and drops the scheme's default port.
func canonicalHost(u *url.URL) string {
	host := strings.ToLower(u.Host)
	scheme := strings.ToLower(u.Scheme)
	if h, port, err := net.SplitHostPort(host); err == nil {
		if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
			if strings.Contains(h, ":") {
				return "[" + h + "]"
			}
			return h
		}
	}
	return host
}

// remoteIP is the default client address: the host part of RemoteAddr.
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// SharedLimit shares the per-client request counts of the rate limit with
// other instances. Both methods are called on the request path and must
// not block on I/O.
type SharedLimit interface {
	// Seen counts one allowed request of key at this instance.
	Seen(key string)
	// Others is how many requests of key the other instances counted over
	// the last minute.
	Others(key string) int
}
