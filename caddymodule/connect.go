package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/agentready/caddy-agentready/manifest"
)

// Bounds of what the content index reads from the site.
const (
	maxIndexedPage   = 4 << 20 // one page's Markdown
	maxSitemaps      = 20      // child sitemaps followed from a sitemapindex
	maxSitemapURLs   = 50000   // URLs read from all sitemaps together
	internalMaxRedir = 5
)

// contentStores holds the content index of every site that serves the
// built-in MCP endpoint, by origin. The entries outlive config reloads (a
// usage pool counts the configs that use each, as siteScans does), so a
// reloaded config answers from the last good index at once, refreshes it
// with the validators it holds, and keeps the retry backoff of an outage.
var contentStores = caddy.NewUsagePool()

// contentStore is one site's entry in contentStores.
type contentStore struct {
	site  string
	store *connect.Store
}

// Destruct implements caddy.Destructor: the last config using the site is
// gone.
func (c *contentStore) Destruct() error { return c.store.Close() }

// provisionConnect builds the built-in MCP endpoint and /ask when the YAML
// enables them. Its index fills in the background once the config starts,
// starting from the index a previous config of the site left.
func (ar *AgentReady) provisionConnect(ctx caddy.Context, srv *caddyhttp.Server, origin string) error {
	c := ar.site.Connect
	if !c.Enabled {
		return nil
	}
	if srv == nil {
		return nil // not inside an HTTP server: nothing to index through
	}
	opts := connect.Options{
		Origin:            origin,
		MCPPath:           c.MCPPath,
		AskPath:           c.AskPath,
		MaxPages:          c.MaxPages,
		MaxBytes:          c.MaxBytes,
		Refresh:           c.Refresh,
		RetryMin:          c.RetryMin,
		RequestsPerMinute: c.RateLimit,
		ServerName:        ar.site.Info.Name,
		ClientIP:          clientIP,
	}
	if c.Auth == manifest.ConnectOAuth {
		a := ar.site.Authentication
		scopes := map[string][]string{}
		for tool, scope := range c.ToolScopes {
			scopes[tool] = []string{scope}
		}
		opts.Auth = &connect.OAuth{
			Issuer:              a.AuthorizationServers[0],
			JWKSURL:             a.JWKSURI,
			Audience:            strings.TrimSuffix(origin, "/") + opts.MCPPath,
			ResourceMetadataURL: strings.TrimSuffix(origin, "/") + manifest.PathOAuthResource,
			Scopes:              scopes,
		}
		if opts.MCPPath == "" {
			opts.Auth.Audience = strings.TrimSuffix(origin, "/") + connect.DefaultMCPPath
		}
	}
	val, _, err := contentStores.LoadOrNew(origin, func() (caddy.Destructor, error) {
		st, err := connect.NewStore("")
		if err != nil {
			return nil, err
		}
		return &contentStore{site: origin, store: st}, nil
	})
	if err != nil {
		return fmt.Errorf("connect: %v", err)
	}
	opts.Store = val.(*contentStore).store
	src := &siteSource{origin: origin, client: internalClient(srv)}
	logger := slog.New(zapslog.NewHandler(ar.logger.Named("connect").Core()))
	server, err := connect.New(opts, src, logger)
	if err != nil {
		_, _ = contentStores.Delete(origin)
		return fmt.Errorf("connect: %v", err)
	}
	ar.connect, ar.connectSite = server, origin
	return nil
}

// cleanupConnect stops this config's MCP endpoint and releases its hold on
// the site's content index, which lives on while a newer config uses it.
func (ar *AgentReady) cleanupConnect() {
	if ar.connect == nil {
		return
	}
	metrics.index.remove(ar.connectSite, ar.connect)
	if err := ar.connect.Close(); err != nil {
		ar.logger.Warn("closing the content index", zap.Error(err))
	}
	if _, err := contentStores.Delete(ar.connectSite); err != nil {
		ar.logger.Warn("releasing the content index", zap.Error(err))
	}
}

// indexStatus is what the admin endpoint shows about a site's content index.
type indexStatus struct {
	Site        string    `json:"site"`
	State       string    `json:"state"`
	Pages       int       `json:"pages"`
	Bytes       int64     `json:"bytes"`
	Refreshing  bool      `json:"refreshing"`
	LastSuccess time.Time `json:"last_success,omitzero"`
	LastAttempt time.Time `json:"last_attempt,omitzero"`
	LastError   string    `json:"last_error,omitempty"`
	Failures    int       `json:"failures"`
	NextAttempt time.Time `json:"next_attempt,omitzero"`
}

// indexStatuses lists the content index of every site, sorted by site.
func indexStatuses() []indexStatus {
	out := []indexStatus{}
	contentStores.Range(func(_, v any) bool {
		c := v.(*contentStore)
		st := c.store.Stats()
		out = append(out, indexStatus{
			Site: c.site, State: st.State, Pages: st.Pages, Bytes: st.Bytes, Refreshing: st.Refreshing,
			LastSuccess: st.LastSuccess, LastAttempt: st.LastStart, LastError: st.LastError,
			Failures: st.Failures, NextAttempt: st.NextAttempt,
		})
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Site < out[j].Site })
	return out
}

// clientIP is the client address Caddy determined (trusted proxies
// honoured), for per-client rate limits.
func clientIP(r *http.Request) string {
	if ip, ok := caddyhttp.GetVar(r.Context(), caddyhttp.ClientIPVarKey).(string); ok && ip != "" {
		return ip
	}
	return r.RemoteAddr
}

// internalClient makes requests into the site's own server in process,
// marked as internal so metrics leave them out, and never leaves the site.
func internalClient(srv http.Handler) *http.Client {
	return &http.Client{
		Transport: inProcessTransport{handler: srv},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= internalMaxRedir {
				return errors.New("too many redirects")
			}
			if req.URL.Host != via[0].URL.Host {
				return fmt.Errorf("redirect leaves the site: %s", req.URL.Host)
			}
			return nil
		},
	}
}

// siteSource lists and fetches the site's pages through Caddy's handler
// chain, so the index sees exactly what an agent asking for Markdown gets.
type siteSource struct {
	origin string
	client *http.Client
}

// Pages reads the site's sitemap (the origin's, or the generated one),
// following one level of sitemap index.
func (s *siteSource) Pages(ctx context.Context) ([]string, error) {
	queue := []string{s.origin + "/sitemap.xml"}
	var pages []string
	for i := 0; i < len(queue) && i <= maxSitemaps && len(pages) < maxSitemapURLs; i++ {
		body, err := s.get(ctx, queue[i], "application/xml", manifest.MaxSitemapBytes)
		if err != nil {
			if i == 0 {
				return nil, fmt.Errorf("reading sitemap: %v", err)
			}
			continue
		}
		urls, err := manifest.ParseSitemap(body, maxSitemapURLs-len(pages))
		if err != nil {
			if i == 0 {
				return nil, fmt.Errorf("parsing sitemap: %v", err)
			}
			continue
		}
		for _, u := range urls {
			if i == 0 && strings.HasSuffix(strings.ToLower(u), ".xml") {
				queue = append(queue, u) // a child of a sitemap index
				continue
			}
			pages = append(pages, u)
		}
	}
	return pages, nil
}

// Fetch gets one page as Markdown, conditionally on its previous ETag.
func (s *siteSource) Fetch(ctx context.Context, pageURL string, prev connect.Validators) (*connect.Page, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.rewrite(pageURL), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/markdown, text/plain;q=0.5")
	if prev.ETag != "" {
		req.Header.Set("If-None-Match", prev.ETag)
	} else if prev.LastModified != "" {
		req.Header.Set("If-Modified-Since", prev.LastModified)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified:
		return nil, connect.ErrNotModified
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	case !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") &&
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain"): // llms.txt
		return nil, fmt.Errorf("no Markdown form (got %q): the page is too large or failed to convert", resp.Header.Get("Content-Type"))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxIndexedPage+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxIndexedPage {
		return nil, fmt.Errorf("markdown larger than %d bytes", maxIndexedPage)
	}
	meta, _, err := frontmatter.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("front matter: %v", err)
	}
	return &connect.Page{
		URL:         meta.Canonical,
		Title:       meta.Title,
		Description: meta.Description,
		Language:    meta.Language,
		Markdown:    body,
		Updated:     meta.Updated,
		Validators: connect.Validators{
			ETag:         resp.Header.Get("ETag"),
			LastModified: resp.Header.Get("Last-Modified"),
		},
	}, nil
}

// get reads a document of the site, bounded.
func (s *siteSource) get(ctx context.Context, u, accept string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.rewrite(u), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", accept)
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return body, nil
}

// rewrite keeps requests on the site: URLs of another origin are refused by
// connect already, so this only normalises the scheme and host to ours.
func (s *siteSource) rewrite(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return u
	}
	ou, err := url.Parse(s.origin)
	if err != nil {
		return u
	}
	pu.Scheme, pu.Host = ou.Scheme, ou.Host
	return pu.String()
}

// Interface guards
var (
	_ caddy.Destructor = (*contentStore)(nil)
	_ connect.Source   = (*siteSource)(nil)
)
