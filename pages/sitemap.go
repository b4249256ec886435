package pages

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/manifest"
)

// MaxSitemapFind bounds one search for the origin's sitemap.
const MaxSitemapFind = time.Minute

// FindSitemap is the documents' sitemap finder (documents.Set.FindSitemap
// runs it once per config): it tells them where the site's sitemap
// answers, then discovers the pages when nothing else lists them (see
// AfterSitemap).
func (p *Pages) FindSitemap(ctx context.Context) { p.AfterSitemap(p.findSitemap(ctx)) }

// findSitemap tells the documents where the site's sitemap answers, before
// the module offers its own: a sitemaps-only discovery (discover.Sitemaps:
// the Sitemap: lines of the origin's robots.txt, RFC 9309 §2.2.4, then the
// locations CMSs and generators use; no page fetched). A sitemap counts
// only when it answers 200 with a urlset or sitemapindex itself: a redirect
// (WordPress answers /sitemap.xml with a 302 to /wp-sitemap.xml) or a 404
// is never named as the site's sitemap. It returns what it found, nil when
// robots.txt was unreachable or ctx ended.
func (p *Pages) findSitemap(ctx context.Context) *discover.Result {
	ctx, cancel := context.WithTimeout(ctx, MaxSitemapFind)
	defer cancel()
	opts := p.discoverOptions()
	opts.PublicOrigin = p.cfg.Origin // only the paths are kept
	res, err := discover.Sitemaps(ctx, opts)
	if err != nil {
		p.cfg.Logger.Warn("sitemap discovery", slog.Any("error", err))
		return nil
	}
	path := ""
	if direct := res.DirectSitemaps(); len(direct) > 0 {
		if u, err := url.Parse(direct[0]); err == nil {
			path = u.EscapedPath()
		}
	}
	none := sitemapNone(path, res.SitemapStatus(manifest.PathSitemap), p.cfg.Site.Documents.Sitemap != manifest.ServeOff)
	tried := make([]string, 0, len(res.Sitemaps))
	for _, s := range res.Sitemaps {
		if s.Error != "" {
			tried = append(tried, s.URL+": "+s.Error)
		}
	}
	p.cfg.Logger.Info("sitemap discovery",
		slog.String("origin", p.cfg.Origin),
		slog.String("sitemap", path),
		slog.Bool("none", none),
		slog.Any("tried", tried))
	p.cfg.Docs.SetSitemap(path, none)
	return res
}

// sitemapNone reports whether no sitemap answers on the site: the origin
// has none of its own (path ""), and its /sitemap.xml (which answered
// rootStatus) does not answer 404 either (a redirect, an error), so the
// generated one is never served there (or documents.sitemap_xml is off:
// oursServed false).
func sitemapNone(path string, rootStatus int, oursServed bool) bool {
	return path == "" && !(rootStatus == http.StatusNotFound && oursServed)
}
