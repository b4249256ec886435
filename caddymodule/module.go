// Package caddymodule is the Caddy glue of agent_ready: module registration,
// the agent_ready Caddyfile directive, ServeHTTP, the admin API and the
// `caddy agent-ready` subcommand. The work itself lives in the plain Go
// packages negotiate, negotiate/convert, frontmatter, manifest and selfcheck.
package caddymodule

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/documents"
	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/internal/admission"
	"github.com/agentready/caddy-agentready/internal/outsider"
	"github.com/agentready/caddy-agentready/internal/setting"
	"github.com/agentready/caddy-agentready/internal/siteaddr"
	"github.com/agentready/caddy-agentready/internal/telemetry"
	"github.com/agentready/caddy-agentready/manifest"
	"github.com/agentready/caddy-agentready/negotiate"
	"github.com/agentready/caddy-agentready/negotiate/convert"
	"github.com/agentready/caddy-agentready/pages"
	"github.com/agentready/caddy-agentready/selfscan"
	"github.com/agentready/caddy-agentready/traffic/sites"
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
	// Where the site's YAML comes from (config, config_sha256, site_yaml):
	// manifest's.
	manifest.Source

	// The negotiation settings (max_size, convert_timeout,
	// max_markdown_size, markdown_suffix, link_llms, link_agents,
	// link_markdown, head_link, cache_control, content_signal,
	// rewrite_cache, tokens_header): their defaults and checks are
	// negotiate's. content_signal defaults to the usage policy of the
	// site's YAML, if any.
	negotiate.Options

	// ConvertTimeout is the time budget of one conversion, counted from
	// the moment the page has been read and has its CPU slot (see
	// QueueTimeout). A conversion past it stops and
	// the page is sent as HTML (logged, and counted with reason
	// `budget_time`). A conversion also stops when its client goes away.
	// It takes Caddy's duration syntax ("1500ms", or nanoseconds) and is
	// negotiate.Options.ConvertTimeout. Default: 2s.
	ConvertTimeout setting.Duration `json:"convert_timeout,omitempty"`

	// The conversion queue's settings (queue_timeout,
	// conversions_per_client): admission's.
	admission.Queue

	// The conversion settings (content_selectors, prune, prune_defaults,
	// keep, keep_images_without_alt, jsonld_block, default_language,
	// conversion_cache): their defaults and checks are convert's.
	// default_language defaults to the site's YAML default language, if
	// any.
	convert.Settings

	// Inject applies the site's HTML annotations to the HTML form with a
	// streaming rewrite: `<html lang>` and `<link rel="canonical">` when
	// missing, the organisation JSON-LD, `<link rel="ard">` and WebMCP
	// attributes on configured forms. Default: true.
	Inject *bool `json:"inject,omitempty"`

	// SelfScan configures the self-score: the module scans its own site
	// through Caddy's server (every middleware and the real origin) shortly
	// after start, after every config reload, on a schedule and on demand,
	// and shows the report on the admin endpoint (see selfscan.Settings).
	// Default: on.
	SelfScan *SelfScan `json:"self_scan,omitempty"`

	// Traffic configures the traffic view: who reads the site, in which
	// form, claimed versus verified (see sites.Settings). Default: on.
	Traffic *Traffic `json:"traffic,omitempty"`

	// Fleet makes the instances that share Caddy's storage act as one
	// site (see fleet.Settings). Default: nil (off: each instance works
	// alone).
	Fleet *Fleet `json:"fleet,omitempty"`
	fleet *fleet.Fleet

	// traffic is this config's counting and enforcement; nil when off.
	traffic        *siteTraffic
	trafficSiteKey string

	site     *manifest.Site
	scanKey  string
	docs     *documents.Set
	conv     *convert.Converter
	cache    *convert.Cache
	optsHash string
	// gate admits conversions: per client, by bytes, by CPU slot.
	gate         *admission.Gate
	queueTimeout time.Duration
	neg          *negotiate.Handler
	connect      *connect.Server
	// connectSite is the origin the content index is registered under.
	connectSite string
	// pages discovers the site's pages for everything that lists them.
	pages *sitePages
	// own is how the module's own requests visit the site (see
	// inProcessTransport).
	own outsider.Site
	// reachWarning says why the own requests may not reach the site, ""
	// when they do (siteaddr.Reach); the admin status shows it.
	reachWarning string
	logger       *zap.Logger
}

// The settings of the self-score, the traffic view and the fleet, by
// their names in the handler.
type (
	SelfScan = selfscan.Settings
	Traffic  = sites.Settings
	Fleet    = fleet.Settings
)

// CaddyModule returns the Caddy module information.
func (AgentReady) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "http.handlers.agent_ready",
		New: func() caddy.Module { return new(AgentReady) },
	}
}

// Provision sets up the handler: it loads and validates the site's YAML,
// builds the converter once, fills in defaults and registers the site's
// self-scan and content index with the agent_ready app.
func (ar *AgentReady) Provision(ctx caddy.Context) error {
	ar.logger = ctx.Logger()
	if err := ar.provisionSettings(); err != nil {
		return err
	}
	site, err := ar.Source.Load()
	if err != nil {
		return err
	}
	ar.site = site
	for _, w := range site.Warnings() {
		ar.logger.Warn("site configuration", zap.String("warning", w))
	}
	if err := ar.provisionDocuments(site); err != nil {
		return err
	}
	if err := ar.provisionConverter(); err != nil {
		return err
	}
	if err := ar.provisionNegotiation(); err != nil {
		return err
	}
	if err := telemetry.Register(ctx.GetMetricsRegistry()); err != nil {
		return fmt.Errorf("registering metrics: %v", err)
	}
	if err := ar.provisionFleet(ctx, ar.trafficKey(ctx)); err != nil {
		return err
	}
	if err := ar.provisionTraffic(ctx); err != nil {
		return err
	}
	return ar.provisionBackground(ctx)
}

// provisionSettings fills in the defaults of the negotiation and
// conversion settings and checks them, each in the package that owns them;
// an error names the setting as the Caddyfile and JSON do.
func (ar *AgentReady) provisionSettings() error {
	ar.Options.ConvertTimeout = time.Duration(ar.ConvertTimeout)
	if err := ar.Queue.Provision(); err != nil {
		return err
	}
	ar.queueTimeout = ar.Queue.Timeout()
	if err := ar.Options.Provision(); err != nil {
		return fmt.Errorf("negotiation: %w", err)
	}
	if err := ar.Settings.Provision(); err != nil {
		return fmt.Errorf("conversion: %w", err)
	}
	return nil
}

// provisionConverter builds the one converter (and its cache) that every
// request uses.
func (ar *AgentReady) provisionConverter() error {
	s := ar.Settings
	if s.DefaultLanguage == "" {
		s.DefaultLanguage = ar.site.Info.Language
	}
	conv, err := newConverter(s, ar.MaxMarkdownSize)
	if err != nil {
		return fmt.Errorf("building converter: %v", err)
	}
	ar.conv = conv
	ar.optsHash = conv.Options().Hash()
	ar.gate = ar.Queue.Gate(ar.MaxSize)
	if ar.ConversionCache > 0 {
		ar.cache = convert.NewCache(ar.ConversionCache)
	}
	return nil
}

// newConverter builds the converter of the handler, and of `caddy
// agent-ready convert`, for s: front matter on, maxMarkdown the output
// budget (max_markdown_size).
func newConverter(s convert.Settings, maxMarkdown int64) (*convert.Converter, error) {
	return convert.New(convert.Options{Settings: s, FrontMatter: true, MaxMarkdownSize: maxMarkdown})
}

// provisionNegotiation sets up the negotiation middleware with the
// handler's settings.
func (ar *AgentReady) provisionNegotiation() error {
	opts := ar.Options
	if opts.ContentSignal == "" {
		opts.ContentSignal = ar.docs.ContentSignal()
	}
	ar.neg = &negotiate.Handler{
		Options:   opts,
		Convert:   ar.convertPage,
		Observer:  observer{logger: ar.logger},
		Reenter:   reenterServer,
		ClientURL: clientURL,
		Origin:    ar.site.Info.Origin,
	}
	if ar.cache != nil {
		ar.neg.Cached = ar.cachedPage
	}
	ar.neg.Admit, ar.neg.Run = ar.admit, ar.runConversion
	if ar.Inject == nil || *ar.Inject {
		// The URL the handler asked clientURL for, given along (InjectAt):
		// one walk of the request's context less a page.
		ar.neg.InjectAt = ar.docs.InjectionAt
	}
	if err := ar.neg.Provision(); err != nil {
		return fmt.Errorf("negotiation: %w", err)
	}
	return nil
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
	var reach siteaddr.Reach
	ar.own, reach = ownSite(srv, origin)
	ar.reachWarning = reach.Warning
	ar.logReach(origin, reach)
	if origin == "" {
		ar.logger.Warn("no origin known for the self-scan and the content index; set site.origin in the YAML or self_scan target")
		return nil
	}
	appAny, err := ctx.App("agent_ready")
	if err != nil {
		return fmt.Errorf("loading agent_ready app: %v", err)
	}
	app := appAny.(*App)
	if err := ar.provisionSitePages(srv, origin); err != nil {
		return fmt.Errorf("discovery: %v", err)
	}
	if err := ar.provisionPages(app, origin); err != nil {
		return err
	}
	ar.docs.SetSitemapFinder(ar.pages.FindSitemap)
	app.onStart(func(ctx context.Context) { go ar.pages.CheckDeclaredAfter(ctx, ar.SelfScan.FirstDelay()) })
	if ar.site.Documents.LLMsFullTxt != manifest.ServeOff {
		app.onStart(func(context.Context) { go ar.pages.KeepLLMsFull(ar.index()) })
	}
	if ar.connect != nil {
		app.onStart(ar.connect.Start)
		ar.connectSite = origin
		telemetry.M.Indexes.Add(origin, ar.connect)
	}
	return ar.provisionSelfScan(app, srv, origin, why)
}

// provisionPages sets up what reads the site's pages when the YAML asks
// for it: the content index of the built-in MCP endpoint and
// llms.auto_list, both over the site's one discovery (ar.pages), run at
// start and with every refresh of the index.
func (ar *AgentReady) provisionPages(app *App, origin string) error {
	if ar.pages.Crawl() {
		return nil
	}
	if err := ar.provisionConnect(app, ar.pages.Source(), origin); err != nil {
		return err
	}
	switch {
	case ar.connect == nil:
		// llms.auto_list alone: nothing else retries a discovery that met
		// a site that did not answer.
		app.onStart(func(context.Context) { go ar.pages.Retry() })
	case ar.fleet != nil:
		// The index's first refresh discovers the pages, once for the fleet.
		app.onStart(func(context.Context) { ar.pages.MarkReady() })
	default:
		app.onStart(func(ctx context.Context) { go ar.pages.First(ctx) })
	}
	return nil
}

// index is the content index llms-full.txt reads, nil when there is none.
func (ar *AgentReady) index() pages.Index {
	if ar.connect == nil {
		return nil
	}
	return ar.connect
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
	if ar.pages.Crawl() {
		// The self-scan reads the site anyway: learn now whether the
		// origin has a sitemap, and discover its pages if not, so that
		// the first scan chooses among them (it waits for the list).
		app.onStart(func(ctx context.Context) { go ar.docs.FindSitemap(ctx) })
	}
	val, _, err := siteScans.LoadOrNew(target, func() (caddy.Destructor, error) {
		return selfscan.NewSite(target), nil
	})
	if err != nil {
		return err
	}
	ar.scanKey = target
	app.register(ss.Runner(val.(*selfscan.Site), selfscan.Scanner{
		Target:    target,
		Note:      why,
		Transport: inProcessTransport{handler: srv, site: ar.own},
		Warning:   ar.reachWarning,
		Logger:    ar.logger.Named("self_scan"),
		Pages:     ar.pages.Ready(),
		Fleet:     ar.fleet,
	}))
	return nil
}

// Cleanup releases the site's self-score entry and content index; each
// survives as long as another config (the one replacing this one on reload)
// still uses it.
func (ar *AgentReady) Cleanup() error {
	ar.cleanupConnect()
	ar.cleanupPages()
	terr := ar.cleanupTraffic()
	if ar.scanKey != "" {
		_, err := siteScans.Delete(ar.scanKey)
		return errors.Join(err, terr)
	}
	return terr
}

// Validate ensures the configuration is usable: negotiation settings that
// make sense and cannot corrupt a header, and a converter that converts
// (html-to-markdown reports plugin errors only on a first conversion, so
// one tiny page is converted here).
func (ar *AgentReady) Validate() error {
	if err := ar.Options.Validate(); err != nil {
		return fmt.Errorf("negotiation: %w", err)
	}
	if ar.conv != nil {
		if err := ar.conv.DryRun(); err != nil {
			return fmt.Errorf("converter dry run: %v", err)
		}
	}
	return nil
}

// ServeHTTP answers generated documents from memory and negotiates every
// other response of the next handler.
func (ar *AgentReady) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	if ar.traffic != nil && !isInternal(r) {
		return ar.serveTraffic(w, r, next) // counts, and enforces the crawler policy
	}
	return ar.serve(w, r, next)
}

// serve is ServeHTTP without the traffic counts.
func (ar *AgentReady) serve(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
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
	if !isInternal(r) || !originOnly(r) { // discovery reads the origin's own robots.txt and sitemaps
		if handled, err := ar.docs.Serve(w, r, next.ServeHTTP); handled {
			countDocument(r, r.URL.Path)
			return err
		}
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

// Interface guards
var (
	_ caddy.Provisioner           = (*AgentReady)(nil)
	_ caddy.Validator             = (*AgentReady)(nil)
	_ caddy.CleanerUpper          = (*AgentReady)(nil)
	_ caddyhttp.MiddlewareHandler = (*AgentReady)(nil)
	_ caddyfile.Unmarshaler       = (*AgentReady)(nil)
)
