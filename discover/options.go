package discover

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Mode says where the list of pages comes from.
type Mode string

// The modes.
const (
	// ModeAuto uses the origin's sitemaps when they list at least one page
	// and crawls otherwise. It is the default.
	ModeAuto Mode = "auto"
	// ModeSitemap uses only the sitemaps (and the seeds); with none, the
	// result lists the seeds that answer.
	ModeSitemap Mode = "sitemap"
	// ModeCrawl always crawls, starting from /, the seeds and every page the
	// sitemaps list.
	ModeCrawl Mode = "crawl"
)

// Defaults of Options.
const (
	DefaultMaxPages     = 10000
	DefaultMaxDepth     = 50
	DefaultMaxBytes     = 512 << 20
	DefaultMaxPageBytes = 5 << 20
	DefaultConcurrency  = 4
	DefaultTimeout      = 30 * time.Second
	DefaultMaxSitemaps  = 500
	// DefaultUserAgent is the User-Agent of every request; its product
	// token, Agent, is what robots.txt groups and <meta name> address.
	DefaultUserAgent = Agent + " (+https://github.com/agentready/caddy-agentready; site discovery)"
	// Agent is the robots.txt product token of the discovery crawler: a
	// "User-agent: agentready" group, or <meta name="agentready">, applies
	// to it besides the * group and <meta name="robots">.
	Agent = "agentready"
)

// Options configure one discovery run. The zero value of each limit means
// its default; Origin and Client are required.
type Options struct {
	// Origin is where requests are sent, scheme://host[:port] (no path): in
	// the Caddy module, the address Client reaches the site's own server at
	// in process. Required.
	Origin string
	// PublicOrigin is the origin every reported URL is written with (the
	// configured site.origin, else the host the site is served under), so
	// no in-process address ever leaks into a sitemap, llms.txt or the
	// content index. Links, canonicals and sitemap entries on either origin
	// (http or https) count as the site's own. Default: Origin.
	PublicOrigin string
	// Client makes every request. Redirects are never followed by it (a
	// copy with CheckRedirect returning http.ErrUseLastResponse is used):
	// the crawler follows same-site redirects itself and records that the
	// first URL redirected. The client must see the origin's own
	// robots.txt and sitemaps, not documents generated in front of it
	// (in Caddy: mark the requests so agent_ready passes them through).
	// Required.
	Client *http.Client
	// UserAgent is the User-Agent header sent. Default: DefaultUserAgent.
	// robots.txt is always matched for the product token Agent.
	UserAgent string
	// Mode is auto, sitemap or crawl. Default: auto.
	Mode Mode
	// Seeds are site paths or same-site URLs fetched besides / (in the
	// module: site.pages and the llms.txt links of the YAML). Default: none.
	Seeds []string
	// MaxPages caps the pages listed. It also bounds what a run keeps:
	// the sitemap entries (those past it are counted in
	// Skipped[SkipMaxPages], the sitemap files after it are not read), the
	// URLs known from links (8×MaxPages+1024) and the links kept on pages
	// for the next run's 304s (64×MaxPages). Default: 10000.
	MaxPages int
	// MaxDepth caps how many links from / or a seed the crawl follows.
	// Default: 50.
	MaxDepth int
	// MaxBytes caps the bytes read over the whole run (bodies of pages,
	// sitemaps and robots.txt), counted after decompression: a gzip
	// sitemap that inflates a thousandfold spends its inflated size, and a
	// sitemap is read no further than what is left. Pages in flight may
	// overshoot it by at most Concurrency×MaxPageBytes. Default: 512 MiB.
	MaxBytes int64
	// MaxPageBytes caps the bytes read of one page, counted after
	// decompression; links past it are not seen, the page is still
	// listed. Default: 5 MiB.
	MaxPageBytes int64
	// Concurrency caps the requests in flight at once. Default: 4.
	Concurrency int
	// Delay is the least time between the starts of two requests
	// (politeness). A robots.txt Crawl-delay for us, when longer, wins.
	// Default: 0.
	Delay time.Duration
	// Timeout bounds each request. Default: 30s.
	Timeout time.Duration
	// MaxSitemaps caps the sitemap files read (index children included).
	// Default: 500.
	MaxSitemaps int
	// Previous is the result of the last run: a page it lists is asked for
	// with If-None-Match / If-Modified-Since, and a 304 keeps its entry
	// (RFC 9110 §13.1). Default: none.
	Previous *Result
	// Start is the result of an earlier Sitemaps call for the same site
	// (the same Origin): Run begins from the robots.txt and the sitemaps
	// that call read, instead of asking for them again. A result of any
	// other call is ignored. Default: none.
	Start *Result
	// Progress, when set, is called after each request with the running
	// counts, from one goroutine at a time; it must return quickly.
	Progress func(Progress)

	// now is the clock, for tests.
	now func() time.Time
}

// site is the validated form of Options' two origins.
type site struct {
	fetch  *url.URL // where requests go
	public string   // scheme://host[:port] of reported URLs
	hosts  map[string]bool
}

// withDefaults returns a copy of o with every zero limit set and the
// origins checked.
func (o Options) withDefaults() (Options, *site, error) {
	if o.Client == nil {
		return o, nil, errors.New("discover: no client")
	}
	fetch, err := parseOrigin(o.Origin)
	if err != nil {
		return o, nil, fmt.Errorf("discover: origin: %v", err)
	}
	pub := fetch
	if o.PublicOrigin != "" {
		if pub, err = parseOrigin(o.PublicOrigin); err != nil {
			return o, nil, fmt.Errorf("discover: public origin: %v", err)
		}
	}
	s := &site{fetch: fetch, public: pub.Scheme + "://" + pub.Host,
		hosts: map[string]bool{fetch.Host: true, pub.Host: true}}
	switch o.Mode {
	case "":
		o.Mode = ModeAuto
	case ModeAuto, ModeSitemap, ModeCrawl:
	default:
		return o, nil, fmt.Errorf("discover: mode %q: want auto, sitemap or crawl", o.Mode)
	}
	for _, l := range []struct {
		name string
		bad  bool
	}{
		{"max_pages", o.MaxPages < 0}, {"max_depth", o.MaxDepth < 0}, {"max_bytes", o.MaxBytes < 0},
		{"max_page_bytes", o.MaxPageBytes < 0}, {"concurrency", o.Concurrency < 0}, {"delay", o.Delay < 0},
		{"timeout", o.Timeout < 0}, {"max_sitemaps", o.MaxSitemaps < 0},
	} {
		if l.bad {
			return o, nil, fmt.Errorf("discover: %s must not be negative", l.name)
		}
	}
	o.MaxPages = orInt(o.MaxPages, DefaultMaxPages)
	o.MaxDepth = orInt(o.MaxDepth, DefaultMaxDepth)
	o.MaxBytes = orInt(o.MaxBytes, DefaultMaxBytes)
	o.MaxPageBytes = orInt(o.MaxPageBytes, DefaultMaxPageBytes)
	o.Concurrency = orInt(o.Concurrency, DefaultConcurrency)
	o.Timeout = orInt(o.Timeout, DefaultTimeout)
	o.MaxSitemaps = orInt(o.MaxSitemaps, DefaultMaxSitemaps)
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.now == nil {
		o.now = time.Now
	}
	c := *o.Client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	o.Client = &c
	return o, s, nil
}

func orInt[T int | int64 | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// parseOrigin accepts scheme://host[:port] with an http or https scheme and
// no path, query or user info; the host is lower-cased and a default port
// dropped.
func parseOrigin(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSuffix(strings.TrimSpace(raw), "/"))
	if err != nil {
		return nil, err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("want scheme://host[:port], got %q", raw)
	}
	u.Host = hostKey(u.Scheme, u.Host)
	return u, nil
}

// hostKey lower-cases a host[:port] and drops the scheme's default port.
func hostKey(scheme, host string) string {
	host = strings.ToLower(host)
	switch {
	case scheme == "http" && strings.HasSuffix(host, ":80"):
		host = strings.TrimSuffix(host, ":80")
	case scheme == "https" && strings.HasSuffix(host, ":443"):
		host = strings.TrimSuffix(host, ":443")
	}
	return host
}
