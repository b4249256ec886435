package pages

import (
	"context"
	"log/slog"
	"net/url"
	"time"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/documents"
	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/agentready/caddy-agentready/internal/answered"
)

// KeepLLMsFull builds /llms-full.txt once the site's pages are known, and
// again each time discovery finds them anew, until the config stops. The
// Markdown of each page is index's copy when it holds one (index may be
// nil), else fetched the way the content index fetches it
// (connect.HTTPSource.FetchMarkdown: Accept: text/markdown through
// Transport), one page at a time, until llms.full_max_bytes.
func (p *Pages) KeepLLMsFull(index Index) {
	ctx := p.ctx
	select {
	case <-p.ready:
	case <-ctx.Done():
		return
	}
	p.awaitIndex(ctx, index)
	for {
		select {
		case <-p.changed: // folded into this build
		default:
		}
		p.buildLLMsFull(ctx, index)
		select {
		case <-p.changed:
		case <-ctx.Done():
			return
		}
	}
}

// awaitIndex waits, when there is a content index, for its first refresh
// (at most MaxDiscovery, looking every second), so that llms-full.txt takes
// the pages' Markdown from it rather than fetching every page a second
// time.
func (p *Pages) awaitIndex(ctx context.Context, index Index) {
	if index == nil {
		return
	}
	deadline := p.cfg.Clock.Now().Add(MaxDiscovery)
	for p.cfg.Clock.Now().Before(deadline) {
		if st := index.Stats(); st.Ready() {
			return
		}
		select {
		case <-p.cfg.Clock.After(time.Second):
		case <-ctx.Done():
			return
		}
	}
}

// buildLLMsFull builds /llms-full.txt once.
func (p *Pages) buildLLMsFull(ctx context.Context, index Index) {
	start := p.cfg.Clock.Now()
	urls := p.fullURLs()
	title := p.title()
	build := func(ctx context.Context) ([]byte, error) {
		body, st := documents.BuildLLMsFull(ctx, title, urls, p.cfg.Site.LLMs.FullMaxBytes,
			func(ctx context.Context, u string) (*documents.FullPage, error) {
				pg, err := p.pageMarkdown(ctx, index, u)
				if err != nil {
					return nil, err
				}
				_, md, err := frontmatter.Parse(pg.Markdown)
				if err != nil {
					return nil, err
				}
				return &documents.FullPage{URL: u, Title: pg.Title, Description: pg.Description, Markdown: md}, nil
			})
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		p.cfg.Logger.Info("llms-full.txt built",
			slog.Int("pages", st.Included),
			slog.Int("listed", st.Listed),
			slog.Int("failed", st.Failed),
			slog.Bool("cut", st.Cut),
			slog.Int("bytes", st.Bytes),
			slog.Duration("duration", p.cfg.Clock.Now().Sub(start)))
		return body, nil
	}
	body, err := p.once(ctx, build)
	if err != nil || ctx.Err() != nil {
		return
	}
	p.cfg.Docs.SetLLMsFull(body, p.cfg.Clock.Now())
}

// once runs build once per refresh for the fleet: another instance's
// result of the last 9/10 of connect.refresh, else build's here, stored for
// the others; build's alone without a fleet.
func (p *Pages) once(ctx context.Context, build func(context.Context) ([]byte, error)) ([]byte, error) {
	if p.cfg.Fleet == nil {
		return build(ctx)
	}
	r, err := p.cfg.Fleet.Once(ctx, "llms-full", p.fresh(), build)
	return r.Data, err
}

// fresh is the age under which the fleet's crawl and llms-full.txt are
// taken from another instance: 9/10 of connect.refresh.
func (p *Pages) fresh() time.Duration { return p.cfg.Site.Connect.Refresh * 9 / 10 }

// title is llms-full.txt's title: llms.title, else site.name, else the
// public host (a title, not a claim of identity).
func (p *Pages) title() string {
	if t := p.cfg.Site.LLMs.Title; t != "" {
		return t
	}
	if t := p.cfg.Site.Info.Name; t != "" {
		return t
	}
	if u, err := url.Parse(p.public); err == nil {
		return u.Hostname()
	}
	return ""
}

// pageMarkdown is a page as Markdown with its front matter: index's copy
// when it holds one, else fetched the way the index fetches pages.
func (p *Pages) pageMarkdown(ctx context.Context, index Index, u string) (*connect.Page, error) {
	if index != nil {
		if pg, ok := index.Page(u); ok {
			return &pg, nil
		}
	}
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	return p.src.FetchMarkdown(ctx, u, connect.Validators{})
}

// fullURLs are the pages of llms-full.txt, each once, in order: the home
// page and the pages the YAML names (its llms.txt sections first), then
// the pages discovery found, else those the origin's sitemap lists, in
// documents.FullOrder (index and search pages out, shallowest first).
func (p *Pages) fullURLs() []string {
	base, err := url.Parse(p.public + "/")
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
	for _, pg := range p.cfg.Site.NamedPages() {
		add(pg)
	}
	res := p.src.Discoverer.Last()
	if res == nil {
		res, _ = p.cfg.List.Last() // a fleet's crawl, adopted
	}
	if res == nil {
		p.mu.Lock()
		res = p.sitemaps
		p.mu.Unlock()
	}
	for _, u := range documents.FullOrder(res.URLs()) {
		add(u)
	}
	return out
}

// Source is the content index's source: the site's discovery, each page
// fetched as Markdown through Transport. A discovery that met a site that
// did not answer (answered.Discovery: refused, 502, Caddy's empty 200) is
// a failed listing, which keeps the index as it is and is retried after
// connect's backoff, rather than an index of no pages until the next
// refresh.
//
// With a fleet, one instance crawls per refresh and the others load its
// crawl, whose discovery lists the pages here too (see Found).
func (p *Pages) Source() connect.Source {
	if f := p.cfg.Fleet; f != nil {
		return f.Crawl(answeredSource{p.src}, fleet.CrawlConfig{Fresh: p.fresh(), Result: p.Last, Adopt: p.Found})
	}
	return answeredSource{p.src}
}

type answeredSource struct {
	*connect.HTTPSource
}

// Pages implements connect.Source.
func (s answeredSource) Pages(ctx context.Context) ([]string, error) {
	urls, err := s.HTTPSource.Pages(ctx)
	if err != nil || len(urls) > 0 {
		return urls, err
	}
	if err := answered.Discovery(s.Discoverer.Last()); err != nil {
		return nil, err
	}
	return urls, nil
}
