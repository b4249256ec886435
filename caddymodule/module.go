// Package caddymodule is the Caddy glue of agent_ready: module registration,
// the agent_ready Caddyfile directive, ServeHTTP, the admin API and the
// `caddy agent-ready` subcommand. The work itself lives in the plain Go
// packages negotiate, negotiate/convert, frontmatter, manifest and selfcheck.
package caddymodule

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"
	"golang.org/x/sync/semaphore"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
	"github.com/agentready/caddy-agentready/selfcheck"
)

func init() {
	caddy.RegisterModule(AgentReady{})
}

// AgentReady is an HTTP middleware that makes the site behind it ready for
// AI agents. Requests that prefer Markdown (RFC 9110 content negotiation on
// `Accept`, or the `/md` suffix) get the page converted to Markdown with YAML
// front matter; browsers get the origin's HTML untouched, plus `Vary: Accept`
// and `Link` headers. Discovery documents (llms.txt, agents.json, ard.json,
// robots.txt additions, security.txt and the others) are generated from one
// YAML file and answered from memory.
//
// Place it in front of the handler that produces pages (reverse_proxy,
// file_server, …). In the Caddyfile it orders itself after `encode`.
type AgentReady struct {
	// Config is the path of the site's YAML file (see docs/configuration.md).
	// Relative paths are resolved against Caddy's working directory. When
	// empty, and SiteYAML is empty too, the documents are generated from
	// defaults derived from the request's origin.
	Config string `json:"config,omitempty"`

	// SiteYAML is the site's YAML configuration inlined as a string, for
	// JSON configs that do not want a separate file. Mutually exclusive with
	// Config.
	SiteYAML string `json:"site_yaml,omitempty"`

	// MaxSize is the largest origin body, in bytes, that is buffered for
	// conversion, before and after decompression. A larger page passes
	// through as HTML (still with `Vary: Accept`). Default: 2 MiB.
	MaxSize int64 `json:"max_size,omitempty"`

	// ConvertTimeout is the time budget of one conversion, counted from
	// the moment the page has been read. A conversion past it stops and
	// the page is sent as HTML (logged, and counted with reason
	// `budget_time`). A conversion also stops when its client goes away.
	// Default: 2s.
	ConvertTimeout caddy.Duration `json:"convert_timeout,omitempty"`

	// MaxMarkdownSize is the output budget of one conversion, in bytes: a
	// conversion whose Markdown grows past it stops and the page is sent
	// as HTML (logged, and counted with reason `budget_size`). Default:
	// 4 × MaxSize (8 MiB).
	MaxMarkdownSize int64 `json:"max_markdown_size,omitempty"`

	// MarkdownSuffix is the path suffix that serves a page's Markdown to
	// clients that cannot send headers: `GET /pricing/md` answers the
	// Markdown of `/pricing`. "-" disables it. Default: "/md".
	MarkdownSuffix string `json:"markdown_suffix,omitempty"`

	// LinkLLMS is the target of the `Link: <…>; rel="describedby"` header
	// pointing at llms.txt. "-" removes the header. Default: "/llms.txt".
	LinkLLMS string `json:"link_llms,omitempty"`

	// LinkAgents is the target of the `Link: <…>; rel="alternate";
	// type="application/json"` header pointing at agents.json. "-" removes
	// the header. Default: "/agents.json".
	LinkAgents string `json:"link_agents,omitempty"`

	// LinkMarkdown adds the `Link` header that offers the page's own
	// Markdown alternate. Default: true.
	LinkMarkdown *bool `json:"link_markdown,omitempty"`

	// HeadLink repeats the Markdown alternate in the HTML head as
	// `<link rel="alternate" type="text/markdown">`, inserted by the HTML
	// rewrite (see RewriteCache; pages of unknown or large size stream
	// through it). Default: true.
	HeadLink *bool `json:"head_link,omitempty"`

	// CacheControl is the `Cache-Control` of the Markdown form. Default: the
	// origin's value; `private` is added whenever the origin response sets a
	// cookie, so a shared cache never stores a cookie with the Markdown.
	CacheControl string `json:"cache_control,omitempty"`

	// ContentSignal is sent as the `Content-Signal` header on both forms,
	// e.g. `search=yes, ai-input=yes, ai-train=no`. Default: the usage
	// policy of the site's YAML, if any; otherwise no header.
	ContentSignal string `json:"content_signal,omitempty"`

	// TokensHeader adds `x-markdown-tokens` (an o200k BPE count) to the
	// Markdown form. Default: true.
	TokensHeader *bool `json:"tokens_header,omitempty"`

	// ContentSelectors are CSS selectors of the page's main content, tried
	// before the built-in landmarks (`main`, `[role=main]`, a single
	// `article`) and the readability fallback. Default: none.
	ContentSelectors []string `json:"content_selectors,omitempty"`

	// Prune are CSS selectors of elements removed from the page before
	// conversion, on top of the defaults (see PruneDefaults). Default: none.
	Prune []string `json:"prune,omitempty"`

	// PruneDefaults applies the built-in prune selectors: navigation,
	// footers, asides, cookie and consent banners, share widgets,
	// `[aria-hidden=true]` and `[hidden]`. Default: true.
	PruneDefaults *bool `json:"prune_defaults,omitempty"`

	// Keep are CSS selectors that always survive pruning. Default: none.
	Keep []string `json:"keep,omitempty"`

	// KeepImagesWithoutAlt keeps `<img>` elements that have no alt text
	// (as `![](src)`). Default: false (they are dropped).
	KeepImagesWithoutAlt bool `json:"keep_images_without_alt,omitempty"`

	// JSONLDBlock appends the page's own JSON-LD to the Markdown as a fenced
	// `json` block, so no structured fact is lost. Default: true.
	JSONLDBlock *bool `json:"jsonld_block,omitempty"`

	// DefaultLanguage is the front matter `language` when neither the page
	// (`<html lang>`) nor the origin (`Content-Language`) names one.
	// Default: the site's YAML default language, if any.
	DefaultLanguage string `json:"default_language,omitempty"`

	// ConversionCache bounds, in bytes, the cache of converted pages keyed
	// by the origin's validators (ETag/Last-Modified), URL and these
	// settings. -1 disables it. Default: 64 MiB.
	ConversionCache int64 `json:"conversion_cache,omitempty"`

	// RewriteCache bounds, in bytes, the rewrite plans: where the
	// annotations went into each HTML page rewritten whole (pages with a
	// Content-Length up to 256 KiB, which are then sent with their exact
	// length). The same page bytes with the same annotations are annotated
	// again by copying, without reading the page as HTML again. A plan is
	// found by a hash of the page and checked against it before use. -1
	// disables it. Default: 8 MiB.
	RewriteCache int64 `json:"rewrite_cache,omitempty"`

	// Inject applies the site's HTML annotations to the HTML form with a
	// streaming rewrite: `<html lang>` and `<link rel="canonical">` when
	// missing, the organisation JSON-LD, `<link rel="ard">` and WebMCP
	// attributes on configured forms. Default: true.
	Inject *bool `json:"inject,omitempty"`

	// SelfScan configures the self-score: the module scans its own site
	// through Caddy's server (every middleware and the real origin) shortly
	// after start, after every config reload, on a schedule and on demand,
	// and shows the report on the admin endpoint. Default: on.
	SelfScan *SelfScan `json:"self_scan,omitempty"`

	site     *manifest.Site
	scanKey  string
	docs     *documents
	conv     *convert.Converter
	cache    *convert.Cache
	optsHash string
	// inflight bounds the bytes of HTML being converted at once.
	inflight    *semaphore.Weighted
	inflightMax int64
	neg         *negotiate.Handler
	connect     *connect.Server
	// connectSite is the origin the content index is registered under.
	connectSite string
	logger      *zap.Logger
}

// SelfScan configures the self-score of a site.
type SelfScan struct {
	// Disabled turns the self-scan off. Default: false.
	Disabled bool `json:"disabled,omitempty"`

	// Target is the URL the scan starts from; its host selects the site in
	// Caddy's routing. Default: the YAML's `site.origin`, else the first
	// host of the site block that holds agent_ready (a wildcard
	// `*.example.com` as www.example.com) on the server's scheme and port,
	// else `http://localhost:<port>` of the server's first listener. The
	// report says which address it scanned and why.
	Target string `json:"target,omitempty"`

	// Delay is how long after start (or reload) the first scan waits.
	// Default: 2s.
	Delay caddy.Duration `json:"delay,omitempty"`

	// Interval is the time between scheduled scans; a negative value scans
	// only at start, reload and on demand. Default: 6h.
	Interval caddy.Duration `json:"interval,omitempty"`

	// Timeout bounds one scan. Default: 60s.
	Timeout caddy.Duration `json:"timeout,omitempty"`

	// Pages is how many pages from the sitemap are scanned besides the home
	// page. Default: 5.
	Pages int `json:"pages,omitempty"`
}

// CaddyModule returns the Caddy module information.
func (AgentReady) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "http.handlers.agent_ready",
		New: func() caddy.Module { return new(AgentReady) },
	}
}

const (
	defaultMaxSize   = 2 << 20
	defaultCacheSize = 64 << 20
)

// Provision sets up the handler: it loads and validates the site's YAML,
// builds the converter once, fills in defaults and registers the site's
// self-scan and content index with the agent_ready app.
func (ar *AgentReady) Provision(ctx caddy.Context) error {
	ar.logger = ctx.Logger()
	if ar.Config != "" && ar.SiteYAML != "" {
		return fmt.Errorf("config and site_yaml are mutually exclusive")
	}
	// Header values from the config, checked before anything uses them
	// (and under the names the Caddyfile and JSON use).
	if err := ar.checkHeaderValues(); err != nil {
		return err
	}
	if ar.MaxSize == 0 {
		ar.MaxSize = defaultMaxSize
	}
	if ar.MaxMarkdownSize == 0 { // negative ones are refused by the negotiation
		ar.MaxMarkdownSize = 4 * ar.MaxSize
	}
	if ar.MarkdownSuffix == "" {
		ar.MarkdownSuffix = "/md"
	}
	if ar.ConversionCache == 0 {
		ar.ConversionCache = defaultCacheSize
	}

	site, err := ar.loadSite()
	if err != nil {
		return err
	}
	ar.site = site
	for _, w := range site.Warnings() {
		ar.logger.Warn("site configuration", zap.String("warning", w))
	}
	if ar.docs, err = newDocuments(site, ar.suffix(), ar.configDir()); err != nil {
		return err
	}
	if err := ar.provisionConverter(); err != nil {
		return err
	}
	if err := ar.provisionNegotiation(); err != nil {
		return err
	}
	if err := initMetrics(ctx.GetMetricsRegistry()); err != nil {
		return fmt.Errorf("registering metrics: %v", err)
	}
	return ar.provisionBackground(ctx)
}

// provisionConverter builds the one converter (and its cache) that every
// request uses.
func (ar *AgentReady) provisionConverter() error {
	copts := convert.Options{
		ContentSelectors:     ar.ContentSelectors,
		Prune:                pruneSelectors(ar.Prune, boolOr(ar.PruneDefaults, true)),
		Keep:                 ar.Keep,
		KeepImagesWithoutAlt: ar.KeepImagesWithoutAlt,
		JSONLD:               boolOr(ar.JSONLDBlock, true),
		FrontMatter:          true,
		DefaultLanguage:      ar.DefaultLanguage,
		MaxMarkdownSize:      ar.MaxMarkdownSize,
	}
	if copts.DefaultLanguage == "" {
		copts.DefaultLanguage = ar.site.Info.Language
	}
	conv, err := convert.New(copts)
	if err != nil {
		return fmt.Errorf("building converter: %v", err)
	}
	ar.conv = conv
	ar.optsHash = copts.Hash()
	// As many max_size pages in flight as there are cores to convert them
	// (conversions are CPU-bound): on 2 cores, 4 MiB of HTML, about 120 MB
	// of live heap at the worst.
	ar.inflightMax = int64(max(2, runtime.GOMAXPROCS(0))) * ar.MaxSize
	ar.inflight = semaphore.NewWeighted(ar.inflightMax)
	if ar.ConversionCache > 0 {
		ar.cache = convert.NewCache(ar.ConversionCache)
	}
	return nil
}

// provisionNegotiation sets up the negotiation middleware with the
// handler's settings.
func (ar *AgentReady) provisionNegotiation() error {
	contentSignal := ar.ContentSignal
	if contentSignal == "" {
		contentSignal = ar.docs.contentSignal
	}
	ar.neg = &negotiate.Handler{
		Options: negotiate.Options{
			MaxSize:        ar.MaxSize,
			MarkdownSuffix: ar.MarkdownSuffix,
			LLMSLink:       ar.LinkLLMS,
			AgentsLink:     ar.LinkAgents,
			MarkdownLink:   ar.LinkMarkdown,
			HeadLink:       ar.HeadLink,
			CacheControl:   ar.CacheControl,
			ContentSignal:  contentSignal,
			TokensHeader:   ar.TokensHeader,
			RewriteCache:   ar.RewriteCache,
		},
		Convert:   ar.convertPage,
		Observer:  observer{logger: ar.logger},
		Reenter:   reenterServer,
		ClientURL: clientURL,
	}
	// Each conversion's budget.
	ar.neg.Options.ConvertTimeout = time.Duration(ar.ConvertTimeout)
	ar.neg.Options.MaxMarkdownSize = ar.MaxMarkdownSize
	if ar.cache != nil {
		ar.neg.Cached = ar.cachedPage
	}
	ar.neg.Admit = ar.admit
	if boolOr(ar.Inject, true) {
		ar.neg.Inject = ar.injection
	}
	return ar.neg.Provision()
}

// provisionBackground registers what runs beside the requests once the
// config starts: llms.auto_list, the content index of the built-in MCP
// endpoint and the self-scan. They reach the site through the HTTP server
// this handler belongs to (absent in unit tests).
func (ar *AgentReady) provisionBackground(ctx caddy.Context) error {
	srv, _ := ctx.Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
	if srv == nil {
		return nil
	}
	origin, why, err := ar.ownOrigin(srv)
	if err != nil {
		return err
	}
	if origin == "" {
		ar.logger.Warn("no origin known for the self-scan and the content index; set site.origin in the YAML or self_scan target")
		return nil
	}
	appAny, err := ctx.App("agent_ready")
	if err != nil {
		return fmt.Errorf("loading agent_ready app: %v", err)
	}
	app := appAny.(*App)
	if err := ar.provisionConnect(ctx, srv, origin); err != nil {
		return err
	}
	ar.docs.findSitemap = func(ctx context.Context) { ar.findSitemap(ctx, srv, origin) }
	if ar.site.LLMs.AutoList.Enabled {
		// llms.auto_list: read the sitemap through the site itself once the
		// server runs (the origin's, or ours when it has none).
		src := &siteSource{origin: origin, client: internalClient(srv)}
		app.onStart(func(ctx context.Context) {
			go func() {
				ctx, cancel := context.WithTimeout(ctx, time.Minute)
				defer cancel()
				urls, err := src.Pages(ctx)
				if err != nil {
					ar.logger.Warn("llms.auto_list: reading the sitemap", zap.Error(err))
					return
				}
				ar.docs.setSitemapURLs(urls)
			}()
		})
	}
	if ar.connect != nil {
		app.onStart(ar.connect.Start)
		ar.connectSite = origin
		metrics.index.add(origin, ar.connect)
	}
	return ar.provisionSelfScan(app, srv, origin, why)
}

// provisionSelfScan registers the site's self-score with the agent_ready app,
// which starts scanning once the config runs.
func (ar *AgentReady) provisionSelfScan(app *App, srv *caddyhttp.Server, origin, why string) error {
	ss := ar.SelfScan
	if ss == nil {
		ss = new(SelfScan)
	}
	if ss.Disabled {
		return nil
	}
	target := ss.Target
	if target == "" {
		target = origin + "/"
	}
	ar.logger.Info("self-scan target", zap.String("target", target), zap.String("why", why))
	delay, interval, timeout := time.Duration(ss.Delay), time.Duration(ss.Interval), time.Duration(ss.Timeout)
	if delay == 0 {
		delay = 2 * time.Second
	}
	if interval == 0 {
		interval = 6 * time.Hour
	}
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	key := target
	val, _, err := siteScans.LoadOrNew(key, func() (caddy.Destructor, error) {
		return &siteScan{key: key}, nil
	})
	if err != nil {
		return err
	}
	ar.scanKey = key
	app.register(registration{
		site: val.(*siteScan),
		scanner: &scanner{
			target:  target,
			note:    why,
			handler: srv,
			timeout: timeout,
			logger:  ar.logger.Named("self_scan"),
			opts: selfcheck.Options{
				Pages:          ss.Pages,
				Timeout:        timeout,
				SameOriginOnly: true,
			},
		},
		delay:    delay,
		interval: interval,
	})
	return nil
}

// Cleanup releases the site's self-score entry and content index; each
// survives as long as another config (the one replacing this one on reload)
// still uses it.
func (ar *AgentReady) Cleanup() error {
	ar.cleanupConnect()
	if ar.scanKey != "" {
		_, err := siteScans.Delete(ar.scanKey)
		return err
	}
	return nil
}

// Validate ensures the configuration is usable: a size that makes sense
// and a converter that converts (html-to-markdown reports plugin errors only
// on a first conversion, so one tiny page is converted here).
func (ar *AgentReady) Validate() error {
	if err := ar.checkHeaderValues(); err != nil {
		return err
	}
	if ar.MaxSize < 0 {
		return fmt.Errorf("max_size: must be positive, got %d", ar.MaxSize)
	}
	if ar.conv != nil {
		if _, err := ar.conv.Convert([]byte("<html><head><title>t</title></head><body><main><p>ok</p></main></body></html>"), mustURL("http://localhost/"), http.Header{}); err != nil {
			return fmt.Errorf("converter dry run: %v", err)
		}
	}
	return nil
}

// ServeHTTP answers generated documents from memory and negotiates every
// other response of the next handler.
func (ar *AgentReady) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	if isInternal(r) {
		// Leave the module's own requests out of the access log, as the
		// log_skip directive would.
		caddyhttp.SetVar(r.Context(), caddyhttp.LogSkipVar, true)
	}
	if negotiate.SuffixRequest(r) {
		// A page asked for through the Markdown suffix, back from the top of
		// the route chain: the client's request (/page/md) is the one logged,
		// and only the origin's HTML pages have a Markdown form (no generated
		// document, no MCP endpoint).
		caddyhttp.SetVar(r.Context(), caddyhttp.LogSkipVar, true)
		return ar.neg.ServeHTTP(w, r, next.ServeHTTP)
	}
	if ar.connect != nil && ar.connect.Handles(r.URL.Path) {
		ar.connect.ServeHTTP(w, r)
		return nil
	}
	if handled, err := ar.docs.serve(w, r, next, ar.logger); handled {
		return err
	}
	return ar.neg.ServeHTTP(w, r, next.ServeHTTP)
}

// reenterServer serves r, a request for the page a Markdown suffix URL
// names, from the top of the site's route chain, so that every handler in
// front of agent_ready (basic_auth, remote_ip matchers, rate limits,
// rewrites, php_fastcgi reading the request URI) sees the request for the
// page itself. The context of r still holds the client's connection; the
// server sets up a fresh replacer, variables and original request for it.
func reenterServer(w http.ResponseWriter, r *http.Request) bool {
	srv, ok := r.Context().Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
	if !ok {
		return false // not under a Caddy server: a unit test
	}
	srv.ServeHTTP(w, r)
	return true
}

func (ar *AgentReady) suffix() string {
	if ar.MarkdownSuffix == "-" {
		return ""
	}
	return ar.MarkdownSuffix
}

// checkHeaderValues refuses configured values that end up in response
// headers when they hold CR, LF or NUL (response splitting).
func (ar *AgentReady) checkHeaderValues() error {
	for _, f := range []struct{ name, v string }{
		{"cache_control", ar.CacheControl},
		{"content_signal", ar.ContentSignal},
		{"link_llms", ar.LinkLLMS},
		{"link_agents", ar.LinkAgents},
		{"markdown_suffix", ar.MarkdownSuffix},
	} {
		if strings.ContainsAny(f.v, "\r\n\x00") {
			return fmt.Errorf("%s: control characters are not allowed in header values", f.name)
		}
	}
	return nil
}

// pruneSelectors is the converter's prune list: the defaults, when on, plus
// the configured selectors; never nil, so "no defaults" really prunes only
// what is configured.
func pruneSelectors(extra []string, defaults bool) []string {
	out := []string{}
	if defaults {
		out = append(out, convert.DefaultPrune()...)
	}
	return append(out, extra...)
}

func boolOr(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// Interface guards
var (
	_ caddy.Provisioner           = (*AgentReady)(nil)
	_ caddy.Validator             = (*AgentReady)(nil)
	_ caddy.CleanerUpper          = (*AgentReady)(nil)
	_ caddyhttp.MiddlewareHandler = (*AgentReady)(nil)
	_ caddyfile.Unmarshaler       = (*AgentReady)(nil)
)
