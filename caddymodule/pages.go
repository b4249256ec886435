package caddymodule

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/caddyserver/caddy/v2"
	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/documents"
	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/agentready/caddy-agentready/internal/answered"
	"github.com/agentready/caddy-agentready/manifest"
)

// When the site's pages are discovered.
//
// Everything that needs the list of the site's pages reads one discovery
// (package discover) through the site's own server:
//
//   - with connect.enabled or llms.auto_list, it runs at start and with
//     every refresh of the content index (see provisionPages);
//   - otherwise it runs once per config, in the background, and only when
//     the origin has no sitemap of its own (the sitemap finder found none):
//     then the generated /sitemap.xml, and the self-scan's choice of pages
//     read from it, list the pages discovery found rather than only / and
//     the pages the YAML names. It starts at start when the self-scan is on
//     (the self-scan reads the site anyway, and waits for the list, at most
//     its timeout), else on the first request for a generated document.
//
// A site with its own sitemap is never crawled for this: its sitemap is the
// list. The crawl obeys the YAML's discovery limits, whose defaults are
// polite (4 requests in flight, robots.txt and its Crawl-delay honoured,
// 10,000 pages, 512 MiB), and the result outlives config reloads (see
// pageLists): a reload within pageListFresh of the last discovery reuses
// it, a later one revalidates each page conditionally.
const (
	// maxPageDiscovery bounds one background discovery.
	maxPageDiscovery = 10 * time.Minute
	// pageListFresh is how long a discovered page list is reused as it is
	// by the configs that follow (reloads).
	pageListFresh = time.Hour
)

// pageLists holds the last page list discovered of every site, by origin.
// The entries outlive config reloads (a usage pool counts the configs that
// use each), so a reload neither crawls the site again nor forgets it.
var pageLists = caddy.NewUsagePool()

// pageList is one site's entry in pageLists.
type pageList struct {
	mu  sync.Mutex
	res *discover.Result
	at  time.Time
}

// Destruct implements caddy.Destructor: nothing to release but the entry.
func (p *pageList) Destruct() error { return nil }

func (p *pageList) set(res *discover.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.res, p.at = res, time.Now()
}

// last is the last result and its age; nil when there is none.
func (p *pageList) last() (*discover.Result, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.res, time.Since(p.at)
}

// sitePages is one config's part in discovering its site's pages.
type sitePages struct {
	src     *connect.HTTPSource
	list    *pageList
	key     string // in pageLists
	crawl   bool   // nothing else discovers the pages: the sitemap finder does when needed
	ctx     context.Context
	cancel  context.CancelFunc
	ready   chan struct{} // closed once the first page list is known, or none will come
	readyMu sync.Once
	runOnce sync.Once
	// retryOnce starts the one retry loop of the sitemap finder.
	retryOnce sync.Once
	srv       http.Handler  // the site's own server
	changed   chan struct{} // a newer page list is known (cap 1), for llms-full.txt

	mu       sync.Mutex
	sitemaps *discover.Result // the sitemap finder's, nil before
}

func (sp *sitePages) markReady() { sp.readyMu.Do(func() { close(sp.ready) }) }

// provisionSitePages builds the site's discovery and its entry in
// pageLists; the documents list what it finds.
func (ar *AgentReady) provisionSitePages(srv http.Handler, origin string) error {
	val, _, err := pageLists.LoadOrNew(origin, func() (caddy.Destructor, error) { return &pageList{}, nil })
	if err != nil {
		return err
	}
	list := val.(*pageList)
	sp := &sitePages{list: list, key: origin, srv: srv, ready: make(chan struct{}), changed: make(chan struct{}, 1),
		crawl: !ar.site.Connect.Enabled && !ar.site.LLMs.AutoList.Enabled}
	sp.ctx, sp.cancel = context.WithCancel(context.Background())
	ar.pages = sp // Cleanup releases the entry from here on
	opts := ar.discoverOptions(srv, origin)
	if prev, _ := list.last(); prev != nil {
		opts.Previous = prev
		ar.docs.SetPages(pageInfos(prev))
	}
	disc, err := discover.New(opts)
	if err != nil {
		return err
	}
	sp.src = &connect.HTTPSource{Discoverer: disc, Client: ar.backgroundClient(srv), Origin: origin}
	// The generated sitemap and llms.auto_list list what discovery finds,
	// each time it runs.
	sp.src.Found = func(res *discover.Result) {
		if answered.Discovery(res) != nil {
			return // the site did not answer: never published as its pages (see retryPages)
		}
		list.set(res)
		ar.docs.SetPages(pageInfos(res))
		select {
		case sp.changed <- struct{}{}:
		default:
		}
	}
	return nil
}

// afterSitemap is what the sitemap finder does once it knows where the
// site's sitemap is (res nil: it could not tell): when nothing else
// discovers the pages and the origin has no sitemap of its own, and the
// generated one is served, it discovers them once, in the background.
func (ar *AgentReady) afterSitemap(res *discover.Result) {
	sp := ar.pages
	if sp == nil {
		return
	}
	sp.mu.Lock()
	sp.sitemaps = res
	sp.mu.Unlock()
	if !sp.crawl {
		return
	}
	if res == nil && ar.site.Documents.Sitemap != manifest.ServeOff {
		// robots.txt did not answer (refused, 502): the site may still be
		// starting; look again after a backoff rather than never.
		sp.markReady()
		sp.retryOnce.Do(func() { go ar.retrySitemapFind(sp) })
		return
	}
	if res == nil || len(res.DirectSitemaps()) > 0 || ar.site.Documents.Sitemap == manifest.ServeOff {
		sp.markReady()
		return
	}
	sp.runOnce.Do(func() {
		go func() {
			defer sp.markReady()
			if prev, age := sp.list.last(); prev != nil && age < pageListFresh {
				return // set at provision already
			}
			// The crawl starts from the robots.txt and sitemaps the finder
			// just read, instead of asking for them again (about 5
			// requests); handed over only for a run that happens now.
			sp.src.Discoverer.StartFrom(res)
			ar.retryPages(sp, func() { sp.markReady() })
		}()
	})
}

// Retries of work that met a site that did not answer (see package
// answered): the first after pagesRetryMin, each further one twice as
// late, at most pageListFresh apart.
var pagesRetryMin = 2 * time.Second

// retrySitemapFind runs the sitemap finder again, after a backoff, until
// robots.txt answers or the config stops; then the pages are discovered
// as after a first successful find.
func (ar *AgentReady) retrySitemapFind(sp *sitePages) {
	for n := 1; ; n++ {
		wait := answered.Backoff(n, pagesRetryMin, pageListFresh)
		ar.logger.Warn("the site's robots.txt did not answer; looking for its sitemap again",
			zap.String("origin", sp.key), zap.Duration("retry_in", wait))
		select {
		case <-sp.ctx.Done():
			return
		case <-time.After(wait):
		}
		if res := ar.findSitemap(sp.ctx, sp.srv, sp.key); res != nil {
			ar.afterSitemap(res)
			return
		}
	}
}

// retryPages discovers the site's pages, and again after a backoff for as
// long as the site does not answer (refused, 502, Caddy's empty 200: see
// answered.Discovery), so that a site still starting, or a host no site
// block serves, is not published as a site without pages for an hour.
// first runs once the first attempt is over.
func (ar *AgentReady) retryPages(sp *sitePages, first func()) {
	for n := 1; ; n++ {
		ctx, cancel := context.WithTimeout(sp.ctx, maxPageDiscovery)
		pages, err := sp.src.Pages(ctx)
		cancel()
		if n == 1 {
			first()
		}
		if sp.ctx.Err() != nil {
			return
		}
		res := sp.src.Discoverer.Last()
		if err == nil {
			err = answered.Discovery(res)
		}
		if err == nil {
			ar.logger.Info("site discovery",
				zap.String("origin", sp.key),
				zap.Int("pages", len(pages)),
				zap.String("source", res.Source),
				zap.Int("requests", res.Requests),
				zap.Int("skipped", res.SkippedTotal()),
				zap.String("limited", res.Limited),
				zap.Duration("duration", res.Duration))
			return
		}
		wait := answered.Backoff(n, pagesRetryMin, pageListFresh)
		ar.logger.Warn("discovering the site's pages", zap.String("origin", sp.key), zap.Error(err), zap.Duration("retry_in", wait))
		select {
		case <-sp.ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// cleanupPages stops a background discovery of this config and releases
// its hold on the site's page list.
func (ar *AgentReady) cleanupPages() {
	if ar.pages == nil {
		return
	}
	ar.pages.cancel()
	if _, err := pageLists.Delete(ar.pages.key); err != nil {
		ar.logger.Warn("releasing the page list", zap.Error(err))
	}
}

// Interface guards
var (
	_ caddy.Destructor = (*pageList)(nil)
)

// keepLLMsFull builds /llms-full.txt once the site's pages are known, and
// again each time discovery finds them anew, until the config stops. The
// Markdown of each page is fetched the way the content index fetches it
// (connect.HTTPSource.Fetch: Accept: text/markdown through the site's own
// server), one page at a time, until llms.full_max_bytes.
func (ar *AgentReady) keepLLMsFull(ctx context.Context, origin string) {
	sp := ar.pages
	select {
	case <-sp.ready:
	case <-ctx.Done():
		return
	}
	ar.awaitIndex(ctx)
	for {
		select {
		case <-sp.changed: // folded into this build
		default:
		}
		ar.buildLLMsFull(ctx, origin)
		select {
		case <-sp.changed:
		case <-ctx.Done():
			return
		}
	}
}

// awaitIndex waits, when the content index is on, for its first refresh
// (at most maxPageDiscovery), so that llms-full.txt takes the pages' Markdown
// from it rather than fetching every page a second time.
func (ar *AgentReady) awaitIndex(ctx context.Context) {
	if ar.connect == nil {
		return
	}
	deadline := time.Now().Add(maxPageDiscovery)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for time.Now().Before(deadline) {
		if st := ar.connect.Stats(); st.Ready() {
			return
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}

// buildLLMsFull builds /llms-full.txt once.
func (ar *AgentReady) buildLLMsFull(ctx context.Context, origin string) {
	start := time.Now()
	public := ar.publicOrigin(origin)
	urls := ar.fullURLs(public)
	title := ar.site.LLMs.Title
	if title == "" {
		title = ar.site.Info.Name
	}
	if title == "" {
		if u, err := url.Parse(public); err == nil {
			title = u.Hostname() // a title, not a claim of identity
		}
	}
	build := func(ctx context.Context) ([]byte, error) {
		body, st := documents.BuildLLMsFull(ctx, title, urls, ar.site.LLMs.FullMaxBytes,
			func(ctx context.Context, u string) (*documents.FullPage, error) {
				p, err := ar.pageMarkdown(ctx, u)
				if err != nil {
					return nil, err
				}
				_, md, err := frontmatter.Parse(p.Markdown)
				if err != nil {
					return nil, err
				}
				return &documents.FullPage{URL: u, Title: p.Title, Description: p.Description, Markdown: md}, nil
			})
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ar.logger.Info("llms-full.txt built",
			zap.Int("pages", st.Included),
			zap.Int("listed", st.Listed),
			zap.Int("failed", st.Failed),
			zap.Bool("cut", st.Cut),
			zap.Int("bytes", st.Bytes),
			zap.Duration("duration", time.Since(start)))
		return body, nil
	}
	body, err := ar.fleetOnce(ctx, "llms-full", build)
	if err != nil || ctx.Err() != nil {
		return
	}
	ar.docs.SetLLMsFull(body, time.Now())
}

// pageMarkdown is a page as Markdown with its front matter: the content
// index's copy when it holds one, else fetched the way the index fetches
// pages (through the site's own server, Accept: text/markdown).
func (ar *AgentReady) pageMarkdown(ctx context.Context, u string) (*connect.Page, error) {
	if ar.connect != nil {
		if p, ok := ar.connect.Page(u); ok {
			return &p, nil
		}
	}
	ctx, cancel := context.WithTimeout(ctx, backgroundConvertTimeout)
	defer cancel()
	return ar.pages.src.FetchMarkdown(ctx, u, connect.Validators{})
}

// fullURLs are the pages of llms-full.txt, each once, in order: the home
// page and the pages the YAML names (its llms.txt sections first), then
// the pages discovery found, else those the origin's sitemap lists, in
// documents.FullOrder (index and search pages out, shallowest first).
func (ar *AgentReady) fullURLs(public string) []string {
	base, err := url.Parse(public + "/")
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(raw string) {
		u, err := base.Parse(raw)
		if err != nil || u.Host != base.Host {
			return
		}
		u.Fragment = ""
		if s := u.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	add("/")
	for _, p := range ar.site.NamedPages() {
		add(p)
	}
	res := ar.pages.src.Discoverer.Last()
	if res == nil {
		res, _ = ar.pages.list.last() // a fleet's crawl, adopted
	}
	if res == nil {
		ar.pages.mu.Lock()
		res = ar.pages.sitemaps
		ar.pages.mu.Unlock()
	}
	for _, u := range documents.FullOrder(res.URLs()) {
		add(u)
	}
	return out
}
