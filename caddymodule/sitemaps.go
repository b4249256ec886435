package caddymodule

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/manifest"
)

// wellKnownSitemaps are where sites serve their sitemap when their
// robots.txt does not say: the common default, then the locations CMSs
// and generators use (Yoast SEO and Rank Math, WordPress core since 5.5,
// Astro and others).
var wellKnownSitemaps = []string{"/sitemap.xml", "/sitemap_index.xml", "/wp-sitemap.xml", "/sitemap-index.xml"}

// maxRobotsSitemaps bounds the robots.txt Sitemap: lines tried.
const maxRobotsSitemaps = 5

// sitemapFound is what the discovery learnt about the origin's sitemap.
type sitemapFound struct {
	// path is the path of the origin's own sitemap, answering 200 with a
	// sitemaps.org document without a redirect; "" when none does.
	path string
	// defaultStatus is what the origin answered for /sitemap.xml.
	defaultStatus int
	// tried lists each candidate with its outcome, for the log.
	tried []string
}

// discoverSitemap finds the origin's own sitemap before the module offers
// its own: the Sitemap: lines of the origin's robots.txt that are on the
// site (RFC 9309 §2.2.4), then the well-known locations. A candidate counts
// only when it answers 200 with a urlset or sitemapindex itself: a
// redirect (WordPress answers /sitemap.xml with a 302 to /wp-sitemap.xml)
// or a 404 is never named as the site's sitemap.
func discoverSitemap(ctx context.Context, srv http.Handler, origin string) (sitemapFound, error) {
	var found sitemapFound
	base, err := url.Parse(origin)
	if err != nil || base.Host == "" {
		return found, fmt.Errorf("discovering the sitemap: bad origin %q", origin)
	}
	client := &http.Client{
		Transport:     inProcessTransport{handler: srv},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	ctx = context.WithValue(ctx, originOnlyKey{}, true)
	get := func(path string, limit int64) (int, []byte, error) {
		u := *base
		u.Path, u.RawPath = path, ""
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return 0, nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
		if err != nil {
			return resp.StatusCode, nil, err
		}
		if int64(len(body)) > limit {
			return resp.StatusCode, nil, fmt.Errorf("larger than %d bytes", limit)
		}
		return resp.StatusCode, body, nil
	}

	var candidates []string
	if status, body, err := get("/robots.txt", manifest.MaxRobotsBytes); err == nil && status == http.StatusOK {
		for _, sm := range robotsSitemaps(body) {
			u, err := base.Parse(sm)
			if err == nil && strings.EqualFold(u.Host, base.Host) && u.Path != "" && len(candidates) < maxRobotsSitemaps {
				candidates = append(candidates, u.EscapedPath())
			}
		}
	} else if err := ctx.Err(); err != nil {
		return found, fmt.Errorf("discovering the sitemap: %w", err)
	}
	candidates = append(candidates, wellKnownSitemaps...)

	seen := map[string]bool{}
	for _, p := range candidates {
		if seen[p] {
			continue
		}
		seen[p] = true
		status, body, err := get(p, manifest.MaxSitemapBytes)
		if p == manifest.PathSitemap {
			found.defaultStatus = status
		}
		switch {
		case err != nil:
			if cerr := ctx.Err(); cerr != nil {
				return found, fmt.Errorf("discovering the sitemap: %w", cerr)
			}
			found.tried = append(found.tried, fmt.Sprintf("%s: %v", p, err))
		case status != http.StatusOK:
			found.tried = append(found.tried, fmt.Sprintf("%s: %d", p, status))
		default:
			if _, perr := manifest.ParseSitemap(body, 1); perr != nil {
				found.tried = append(found.tried, fmt.Sprintf("%s: %v", p, perr))
				continue
			}
			found.path = p
			return found, nil
		}
	}
	return found, nil
}

// robotsSitemaps returns the values of a robots.txt's Sitemap: lines.
func robotsSitemaps(robots []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(robots))
	sc.Buffer(make([]byte, 0, 4096), manifest.MaxRobotsBytes)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		key, val, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(key), "sitemap") {
			if v := strings.TrimSpace(val); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// none reports whether no sitemap answers on the site after a discovery:
// the origin has none of its own, and its /sitemap.xml does not answer 404
// either (a redirect, an error), so the generated one is never served there
// (or documents.sitemap_xml is off: oursServed false).
func (f sitemapFound) none(oursServed bool) bool {
	return f.path == "" && !(f.defaultStatus == http.StatusNotFound && oursServed)
}

// findSitemap runs the sitemap discovery and tells the documents where the
// site's sitemap answers. It runs once per config, on the first request for
// a generated document (see documents.awaitSitemap), so a site nobody asks
// is not read. (Package discover finds the pages too; this reads only
// robots.txt and the candidate sitemaps.)
func (ar *AgentReady) findSitemap(ctx context.Context, srv *caddyhttp.Server, origin string) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	found, err := discoverSitemap(ctx, srv, origin)
	if err != nil {
		ar.logger.Warn("sitemap discovery", zap.Error(err))
		return
	}
	none := found.none(ar.site.Documents.Sitemap != manifest.ServeOff)
	ar.logger.Info("sitemap discovery",
		zap.String("origin", origin),
		zap.String("sitemap", found.path),
		zap.Bool("none", none),
		zap.Strings("tried", found.tried))
	ar.docs.SetSitemap(found.path, none)
}
