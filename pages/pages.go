// Package pages keeps the list of a site's pages and what is built from it,
// for one config of the site: the sitemap finder, the discovery (package
// discover) and its retries while the site does not answer, the generated
// sitemap's and llms.auto_list's pages, /llms-full.txt, the content index's
// source and the check of the URLs the YAML declares. It reaches the site
// through an injected http.RoundTripper (in the Caddy module, the site's
// own server in process) and runs on an injected clock; it imports no Caddy.
//
// When the site's pages are discovered: with connect.enabled or
// llms.auto_list, at start and with every refresh of the content index;
// otherwise once per config, in the background, and only when the origin
// has no sitemap of its own (the sitemap finder found none): then the
// generated /sitemap.xml, and the self-scan's choice of pages read from it,
// list the pages discovery found rather than only / and the pages the YAML
// names. A site with its own sitemap is never crawled for this: its sitemap
// is the list. The crawl obeys the YAML's discovery limits, and the result
// outlives config reloads (see List): a reload within ListFresh of the last
// discovery reuses it, a later one revalidates each page conditionally.
package pages

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/internal/answered"
	"github.com/agentready/caddy-agentready/internal/inproc"
	"github.com/agentready/caddy-agentready/manifest"
)

const (
	// MaxDiscovery bounds one discovery of the site's pages.
	MaxDiscovery = 10 * time.Minute
	// ListFresh is how long a discovered page list is reused as it is by
	// the configs that follow (reloads), and the longest wait between two
	// retries.
	ListFresh = time.Hour
	// FetchTimeout bounds one page fetched by background work (the content
	// index's, llms-full.txt's): connect's FetchTimeout.
	FetchTimeout = 30 * time.Second
	// DefaultRetryMin is Config.RetryMin's default.
	DefaultRetryMin = 2 * time.Second
)

// OriginOnly marks, in a request's context, a request of the site's
// discovery (of its pages, or of its sitemap): the site hands it to the
// origin without answering it from the generated documents, so discovery
// reads the origin's own robots.txt and sitemaps (see inproc.Mark).
type OriginOnly struct{}

// Background marks, in a request's context, a request of background work
// that no client waits for: the content index's and llms-full.txt's page
// fetches (see inproc.Mark).
type Background struct{}

// Documents is what the generated documents learn of the site's pages
// (documents.Set satisfies it).
type Documents interface {
	// SetPages lists the pages discovery found.
	SetPages([]manifest.PageInfo)
	// SetSitemap names the origin's own sitemap ("" for none) and whether
	// no sitemap answers at all.
	SetSitemap(path string, none bool)
	// SetLLMsFull serves body as /llms-full.txt.
	SetLLMsFull(body []byte, modTime time.Time)
}

// Index is the content index llms-full.txt takes the pages' Markdown from
// (connect.Server satisfies it).
type Index interface {
	Stats() connect.Stats
	Page(url string) (connect.Page, bool)
}

// Clock is the time the retries and waits run on.
type Clock interface {
	Now() time.Time
	After(time.Duration) <-chan time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Config is one config's part in listing its site's pages.
type Config struct {
	// Origin is the address the module reaches the site at,
	// scheme://host[:port]: every request goes there. Required.
	Origin string
	// Transport carries the requests to the site. Required.
	Transport http.RoundTripper
	// Site is the site's YAML: its discovery section, named pages, llms
	// and documents settings, declared URLs. Required.
	Site *manifest.Site
	// Docs receives the pages, the sitemap and llms-full.txt. Required.
	Docs Documents
	// List is the site's last page list, shared by the configs of the
	// site (reloads). Required.
	List *List
	// Fleet is the fleet of instances the site's crawl and llms-full.txt
	// are shared with, once per refresh (connect.refresh). Default: none.
	Fleet *fleet.Fleet
	// Logger logs what is found and why a retry waits. Default: none.
	Logger *slog.Logger
	// Clock is the time. Default: the system's.
	Clock Clock
	// RetryMin is the wait before the first retry of work that met a site
	// that did not answer (see package answered); each further one waits
	// twice as long, at most ListFresh. Default: DefaultRetryMin.
	RetryMin time.Duration
}

// Pages is one config's discovery of its site's pages and what reads it.
type Pages struct {
	cfg    Config
	public string // the origin the pages are known under
	src    *connect.HTTPSource
	crawl  bool // nothing else discovers the pages: the sitemap finder does when needed
	ctx    context.Context
	stop   context.CancelFunc
	// ready is closed once the first page list is known, or none will come.
	ready     chan struct{}
	readyOnce sync.Once
	runOnce   sync.Once
	// retryOnce starts the one retry loop of the sitemap finder.
	retryOnce sync.Once
	changed   chan struct{} // a newer page list is known (cap 1), for llms-full.txt

	mu       sync.Mutex
	sitemaps *discover.Result // the sitemap finder's, nil before
}

// New builds the site's discovery; the documents list what it finds, and
// at once what the last config of the site found (cfg.List).
func New(cfg Config) (*Pages, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock = systemClock{}
	}
	if cfg.RetryMin <= 0 {
		cfg.RetryMin = DefaultRetryMin
	}
	p := &Pages{cfg: cfg, public: PublicOrigin(cfg.Site, cfg.Origin), ready: make(chan struct{}), changed: make(chan struct{}, 1),
		crawl: !cfg.Site.Connect.Enabled && !cfg.Site.LLMs.AutoList.Enabled}
	opts := p.discoverOptions()
	if prev, _ := cfg.List.Last(); prev != nil {
		opts.Previous = prev
		cfg.Docs.SetPages(pageInfos(prev))
	}
	disc, err := discover.New(opts)
	if err != nil {
		return nil, err
	}
	p.ctx, p.stop = context.WithCancel(context.Background())
	p.src = &connect.HTTPSource{Discoverer: disc, Client: sameSite(inproc.Mark[Background]{RoundTripper: cfg.Transport}),
		Origin: cfg.Origin, Found: p.Found}
	return p, nil
}

// PublicOrigin is the origin the site's pages are known under: site.origin,
// else origin, the address the module reaches the site at.
func PublicOrigin(site *manifest.Site, origin string) string {
	if site.Info.Origin != "" {
		origin = site.Info.Origin
	}
	return strings.TrimSuffix(origin, "/")
}

// discoverOptions are the discovery's: the YAML's discovery section, the
// named pages as seeds, through Transport at Origin with its requests
// marked OriginOnly, the pages' URLs on the public origin.
func (p *Pages) discoverOptions() discover.Options {
	d := p.cfg.Site.Discovery
	return discover.Options{
		Origin:       p.cfg.Origin,
		PublicOrigin: p.public,
		Client:       &http.Client{Transport: inproc.Mark[OriginOnly]{RoundTripper: p.cfg.Transport}},
		Mode:         discover.Mode(d.Mode),
		Seeds:        p.cfg.Site.NamedPages(),
		MaxPages:     d.MaxPages,
		MaxDepth:     d.MaxDepth,
		MaxBytes:     d.MaxBytes,
		MaxPageBytes: d.MaxPageBytes,
		Concurrency:  d.Concurrency,
		Delay:        d.Delay,
		Timeout:      d.Timeout,
	}
}

// Found is what a discovery's result does, here or adopted from another
// instance of a fleet: the generated sitemap and llms.auto_list list its
// pages, the next config starts from it, and llms-full.txt is built anew.
// A discovery that met a site that did not answer is never published as
// its pages (see retryPages).
func (p *Pages) Found(res *discover.Result) {
	if answered.Discovery(res) != nil {
		return
	}
	p.cfg.List.Set(res, p.cfg.Clock.Now())
	p.cfg.Docs.SetPages(pageInfos(res))
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// Last is the result of this config's last discovery, nil before.
func (p *Pages) Last() *discover.Result { return p.src.Discoverer.Last() }

// Crawl reports whether nothing else (the content index, llms.auto_list)
// discovers the site's pages: then the sitemap finder does when the origin
// has no sitemap.
func (p *Pages) Crawl() bool { return p.crawl }

// Ready is closed once the first page list is known, or none will come.
func (p *Pages) Ready() <-chan struct{} { return p.ready }

// MarkReady closes Ready.
func (p *Pages) MarkReady() { p.readyOnce.Do(func() { close(p.ready) }) }

// Close stops the background work of this config.
func (p *Pages) Close() { p.stop() }

// pageInfos are the pages of a discovery as the generated documents list
// them.
func pageInfos(res *discover.Result) []manifest.PageInfo {
	out := make([]manifest.PageInfo, 0, len(res.Pages))
	for _, p := range res.Pages {
		out = append(out, manifest.PageInfo{URL: p.URL, Title: p.Title, Description: p.Description, Lastmod: p.Lastmod})
	}
	return out
}

// List holds the last page list discovered of a site. It outlives config
// reloads, so a reload neither crawls the site again nor forgets it.
type List struct {
	mu  sync.Mutex
	res *discover.Result
	at  time.Time
}

// Set records res, discovered at at.
func (l *List) Set(res *discover.Result, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.res, l.at = res, at
}

// Last is the last result and when it was discovered; nil when there is
// none.
func (l *List) Last() (*discover.Result, time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.res, l.at
}
