package pages

import (
	"context"
	"log/slog"
	"time"

	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/internal/answered"
	"github.com/agentready/caddy-agentready/manifest"
)

// AfterSitemap is what the sitemap finder does once it knows where the
// site's sitemap is (res nil: it could not tell): when nothing else
// discovers the pages and the origin has no sitemap of its own, and the
// generated one is served, it discovers them once, in the background.
func (p *Pages) AfterSitemap(res *discover.Result) {
	p.mu.Lock()
	p.sitemaps = res
	p.mu.Unlock()
	if !p.crawl {
		return
	}
	served := p.cfg.Site.Documents.Sitemap != manifest.ServeOff
	if res == nil && served {
		// robots.txt did not answer (refused, 502): the site may still be
		// starting; look again after a backoff rather than never.
		p.MarkReady()
		p.retryOnce.Do(func() { go p.retrySitemapFind() })
		return
	}
	if res == nil || len(res.DirectSitemaps()) > 0 || !served {
		p.MarkReady()
		return
	}
	p.runOnce.Do(func() {
		go func() {
			defer p.MarkReady()
			if prev, at := p.cfg.List.Last(); prev != nil && p.cfg.Clock.Now().Sub(at) < ListFresh {
				return // set at New already
			}
			// The crawl starts from the robots.txt and sitemaps the finder
			// just read, instead of asking for them again (about 5
			// requests); handed over only for a run that happens now.
			p.src.Discoverer.StartFrom(res)
			p.retryPages(p.MarkReady)
		}()
	})
}

// wait waits the backoff of the nth retry; false when the config stopped.
func (p *Pages) wait(n int) bool {
	select {
	case <-p.ctx.Done():
		return false
	case <-p.cfg.Clock.After(p.backoff(n)):
		return true
	}
}

// backoff is the wait before the nth retry.
func (p *Pages) backoff(n int) time.Duration {
	return answered.Backoff(n, p.cfg.RetryMin, ListFresh)
}

// retrySitemapFind runs the sitemap finder again, after a backoff, until
// robots.txt answers or the config stops; then the pages are discovered
// as after a first successful find.
func (p *Pages) retrySitemapFind() {
	for n := 1; ; n++ {
		p.cfg.Logger.Warn("the site's robots.txt did not answer; looking for its sitemap again",
			slog.String("origin", p.cfg.Origin), slog.Duration("retry_in", p.backoff(n)))
		if !p.wait(n) {
			return
		}
		if res := p.findSitemap(p.ctx); res != nil {
			p.AfterSitemap(res)
			return
		}
	}
}

// Retry discovers the site's pages, and again after a backoff for as long
// as the site does not answer: what llms.auto_list runs at start when no
// content index refreshes the list. Ready is closed after the first
// attempt.
func (p *Pages) Retry() { p.retryPages(p.MarkReady) }

// retryPages discovers the site's pages, and again after a backoff for as
// long as the site does not answer (refused, 502, Caddy's empty 200: see
// answered.Discovery), so that a site still starting, or a host no site
// block serves, is not published as a site without pages for an hour.
// first runs once the first attempt is over.
func (p *Pages) retryPages(first func()) {
	for n := 1; ; n++ {
		ctx, cancel := context.WithTimeout(p.ctx, MaxDiscovery)
		pages, err := p.src.Pages(ctx)
		cancel()
		if n == 1 {
			first()
		}
		if p.ctx.Err() != nil {
			return
		}
		res := p.src.Discoverer.Last()
		if err == nil {
			err = answered.Discovery(res)
		}
		if err == nil {
			p.cfg.Logger.Info("site discovery",
				slog.String("origin", p.cfg.Origin),
				slog.Int("pages", len(pages)),
				slog.String("source", res.Source),
				slog.Int("requests", res.Requests),
				slog.Int("skipped", res.SkippedTotal()),
				slog.String("limited", res.Limited),
				slog.Duration("duration", res.Duration))
			return
		}
		p.cfg.Logger.Warn("discovering the site's pages", slog.String("origin", p.cfg.Origin),
			slog.Any("error", err), slog.Duration("retry_in", p.backoff(n)))
		if !p.wait(n) {
			return
		}
	}
}

// First discovers the site's pages once, at start, for the content index
// and llms.auto_list (the index's refreshes discover them again); Ready is
// closed after it.
func (p *Pages) First(ctx context.Context) {
	defer p.MarkReady()
	ctx, cancel := context.WithTimeout(ctx, MaxDiscovery)
	defer cancel()
	if _, err := p.src.Pages(ctx); err != nil {
		p.cfg.Logger.Warn("discovering the site's pages", slog.Any("error", err))
	}
}
