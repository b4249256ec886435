package caddymodule

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/manifest"
)

// maxSitemapFind bounds one search for the origin's sitemap.
const maxSitemapFind = time.Minute

// findSitemap tells the documents where the site's sitemap answers, before
// the module offers its own: a sitemaps-only discovery (discover.Sitemaps:
// the Sitemap: lines of the origin's robots.txt, RFC 9309 §2.2.4, then the
// locations CMSs and generators use; no page fetched) through the site's
// own server. A sitemap counts only when it answers 200 with a urlset or
// sitemapindex itself: a redirect (WordPress answers /sitemap.xml with a
// 302 to /wp-sitemap.xml) or a 404 is never named as the site's sitemap.
// It runs once per config (see documents.Set.FindSitemap) and returns what
// it found, nil when robots.txt was unreachable or ctx ended.
func (ar *AgentReady) findSitemap(ctx context.Context, srv http.Handler, origin string) *discover.Result {
	ctx, cancel := context.WithTimeout(ctx, maxSitemapFind)
	defer cancel()
	opts := ar.discoverOptions(srv, origin)
	opts.PublicOrigin = origin // only the paths are kept
	res, err := discover.Sitemaps(ctx, opts)
	if err != nil {
		ar.logger.Warn("sitemap discovery", zap.Error(err))
		return nil
	}
	path := ""
	if direct := res.DirectSitemaps(); len(direct) > 0 {
		if u, err := url.Parse(direct[0]); err == nil {
			path = u.EscapedPath()
		}
	}
	none := sitemapNone(path, res.SitemapStatus(manifest.PathSitemap), ar.site.Documents.Sitemap != manifest.ServeOff)
	tried := make([]string, 0, len(res.Sitemaps))
	for _, s := range res.Sitemaps {
		if s.Error != "" {
			tried = append(tried, s.URL+": "+s.Error)
		}
	}
	ar.logger.Info("sitemap discovery",
		zap.String("origin", origin),
		zap.String("sitemap", path),
		zap.Bool("none", none),
		zap.Strings("tried", tried))
	ar.docs.SetSitemap(path, none)
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
