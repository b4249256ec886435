package manifest

import (
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Env is what Generate knows about where the site is served.
type Env struct {
	// Origin is the address the site is served at, e.g. https://example.com;
	// used when site.origin is not set.
	Origin string
	// MarkdownSuffix is the quiet fallback suffix for Markdown ("/md"), or ""
	// when only content negotiation is offered.
	MarkdownSuffix string
	// Now is the generation time (Last-Modified, security.txt Expires).
	// Default: time.Now().
	Now time.Time
	// ConfigDir is where skill files are resolved. Default: the directory of
	// the configuration file.
	ConfigDir string
	// SitemapURLs are page URLs read from the origin's sitemap (see
	// ParseSitemap), listed in llms.txt when llms.auto_list is enabled and
	// Pages is empty.
	SitemapURLs []string
	// Pages are the site's pages as discovery found them (package
	// discover's Result.Pages, converted by the caller). When set, the
	// generated sitemap lists exactly these, with lastmod where known, and
	// llms.auto_list lists them with their titles and descriptions. Pages
	// off the origin are ignored. Default: none (the sitemap lists the pages
	// this file names).
	Pages []PageInfo
	// OriginSitemaps are the origin's own sitemaps that answered 200 at
	// their URL (discover's Result.DirectSitemaps). When set, the robots.txt
	// additions name them instead of the generated /sitemap.xml, so no
	// Sitemap line points at a redirect or a 404, and llms.txt and
	// agents.json name the first. Default: none.
	OriginSitemaps []string
	// NoSitemap says the caller looked and no sitemap answers at the
	// origin: none of OriginSitemaps, and the origin's /sitemap.xml
	// redirects or fails, so the generated one is never served there.
	// llms.txt, agents.json and robots.txt then name no sitemap. Default:
	// false.
	NoSitemap bool
}

// PageInfo is one page of the site, as discovery found it.
type PageInfo struct {
	// URL is the page's canonical absolute URL on the origin.
	URL string
	// Title is the page's title; Description its meta description.
	Title, Description string
	// Lastmod is when the page last changed, zero when unknown (then the
	// sitemap says nothing rather than guess).
	Lastmod time.Time
}

// Bundle is every document generated from one Site for one Env.
type Bundle struct {
	// Documents are the documents served from memory, sorted by path:
	// /llms.txt, /agents.json and the /.well-known/ documents and skill
	// files. /robots.txt and /sitemap.xml are handled apart.
	Documents []Document
	// Robots is what MergeRobots adds to the origin's robots.txt; nil when
	// documents.robots_txt is off.
	Robots *RobotsAdditions
	// Sitemap is served only when the origin answers 404 for /sitemap.xml;
	// nil when documents.sitemap_xml is off. Past one file's limits
	// (50,000 URLs or 50 MB) it is a sitemap index of SitemapParts.
	Sitemap *Document
	// SitemapParts are the child sitemaps a split Sitemap names
	// (/sitemap-1.xml, /sitemap-2.xml…), served under the same condition
	// and, like it, only when the origin has no file of that path. Empty
	// when one file holds every URL.
	SitemapParts []Document
	// Inject is what the HTML rewriter adds to pages lacking it.
	Inject Injection
	// ContentSignal is the Content-Signal header value, "" when no policy.
	ContentSignal string
}

// Document is one generated document.
type Document struct {
	// Path is the request path it answers, e.g. /.well-known/ard.json.
	Path string
	// ContentType is the Content-Type to send.
	ContentType string
	// Body is the exact bytes to send.
	Body []byte
	// CacheControl is the suggested Cache-Control.
	CacheControl string
	// OriginWins is true when the origin's own copy, if it answers 200,
	// must be served instead of this one.
	OriginWins bool
	// ModTime is the Last-Modified time (generation time, or the file's
	// modification time for skill files).
	ModTime time.Time
}

// Injection is the data the streaming HTML rewriter applies; each piece is
// skipped where the page already has its own.
type Injection struct {
	// Lang is the <html lang> value, "" for none.
	Lang string
	// JSONLD is the full <script type="application/ld+json"> element with
	// the Organization and WebSite nodes, "" for none.
	JSONLD string
	// ARDLink is the full <link rel="ard"> element, "" for none.
	ARDLink string
	// Canonical says whether to add <link rel="canonical"> (origin + path).
	Canonical bool
	// Origin is the canonical origin a page's canonical URL starts with.
	Origin string
	// Forms are the WebMCP annotations.
	Forms []FormAnnotation
}

// FormAnnotation is the WebMCP attributes for the forms matching Selector.
type FormAnnotation struct {
	// Selector is the CSS selector of the <form>.
	Selector string
	// ToolName is the toolname attribute.
	ToolName string
	// ToolDescription is the tooldescription attribute.
	ToolDescription string
	// Params maps a field's name attribute to its toolparamdescription.
	Params map[string]string
}

// Document returns the document served at path, or nil.
func (b *Bundle) Document(path string) *Document {
	i := sort.Search(len(b.Documents), func(i int) bool { return b.Documents[i].Path >= path })
	if i < len(b.Documents) && b.Documents[i].Path == path {
		return &b.Documents[i]
	}
	return nil
}

// Well-known paths of the generated documents.
const (
	PathLLMsTxt       = "/llms.txt"
	PathLLMsFullTxt   = "/llms-full.txt"
	PathAgentsJSON    = "/agents.json"
	PathWKAgentsJSON  = "/.well-known/agents.json"
	PathARD           = "/.well-known/ard.json"
	PathAPICatalog    = "/.well-known/api-catalog"
	PathSecurityTxt   = "/.well-known/security.txt"
	PathAgentCard     = "/.well-known/agent-card.json"
	PathMCPServerCard = "/.well-known/mcp/server-card.json"
	PathSkillsIndex   = "/.well-known/agent-skills/index.json"
	PathOAuthResource = "/.well-known/oauth-protected-resource"
	PathSitemap       = "/sitemap.xml"
	PathRobots        = "/robots.txt"
)

// resolved is a Site with every origin-dependent default filled in, and the
// decisions on which documents exist.
type resolved struct {
	s         *Site
	origin    string // scheme://host[:port]
	host      string // host name without port
	name      string
	now       time.Time
	mdSuffix  string
	configDir string
	sitemap   []string        // Env.SitemapURLs on the origin
	pages     []PageInfo      // Env.Pages on the origin
	sitemaps  []string        // Env.OriginSitemaps on the origin
	serve     map[string]bool // path -> published
	mcp       *Interface      // interface behind the generated server card
	a2a       *Interface      // interface behind the generated agent card
	// sitemapURL is the sitemap the documents name: the origin's first,
	// else the origin's /sitemap.xml; "" for none (Env.NoSitemap).
	sitemapURL string
}

// Generate produces every document for env. It fails when no origin is
// known, when a link points off the origin, or a skill file cannot be read.
func (s *Site) Generate(env Env) (*Bundle, error) {
	r, err := s.resolve(env)
	if err != nil {
		return nil, err
	}
	b := &Bundle{ContentSignal: r.contentSignal()}
	d := &s.Documents
	add := func(path, ctype string, body []byte, mode Serve) {
		b.Documents = append(b.Documents, Document{Path: path, ContentType: ctype, Body: body,
			CacheControl: d.CacheControl, OriginWins: mode == ServeOrigin, ModTime: r.now})
	}
	if r.serve[PathLLMsTxt] {
		add(PathLLMsTxt, "text/plain; charset=utf-8", r.llmsTxt(), d.LLMsTxt)
	}
	if r.serve[PathAgentsJSON] {
		body, err := r.agentsJSON()
		if err != nil {
			return nil, err
		}
		// STANDARD §5 rule 10: the twins are byte-identical.
		add(PathAgentsJSON, "application/json", body, d.AgentsJSON)
		add(PathWKAgentsJSON, "application/json", body, d.AgentsJSON)
	}
	gens := []struct {
		path, ctype string
		mode        Serve
		gen         func() ([]byte, error)
	}{
		{PathARD, "application/json", d.ARD, r.ardJSON},
		// RFC 9727 §4.1: the api-catalog is an RFC 9264 linkset.
		{PathAPICatalog, `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`, d.APICatalog, r.apiCatalog},
		// RFC 9116 §3: security.txt is text/plain; charset=utf-8.
		{PathSecurityTxt, "text/plain; charset=utf-8", d.SecurityTxt, r.securityTxt},
		{PathAgentCard, "application/json", d.AgentCard, r.agentCard},
		{PathMCPServerCard, "application/json", d.MCPServerCard, r.serverCard},
		// RFC 9728 §3.2: metadata is application/json.
		{PathOAuthResource, "application/json", d.OAuthResource, r.protectedResource},
	}
	for _, g := range gens {
		if !r.serve[g.path] {
			continue
		}
		body, err := g.gen()
		if err != nil {
			return nil, err
		}
		add(g.path, g.ctype, body, g.mode)
	}
	if r.serve[PathSkillsIndex] {
		docs, err := r.skills()
		if err != nil {
			return nil, err
		}
		b.Documents = append(b.Documents, docs...)
	}
	sort.Slice(b.Documents, func(i, j int) bool { return b.Documents[i].Path < b.Documents[j].Path })
	if d.Sitemap.enabled() {
		index, parts := r.sitemapXML()
		doc := func(path string, body []byte) Document {
			return Document{Path: path, ContentType: "application/xml; charset=utf-8", Body: body,
				CacheControl: d.CacheControl, OriginWins: true, ModTime: r.now}
		}
		sm := doc(PathSitemap, index)
		b.Sitemap = &sm
		for i, p := range parts {
			b.SitemapParts = append(b.SitemapParts, doc(sitemapPartPath(i), p))
		}
	}
	if d.Robots.enabled() {
		b.Robots = r.robotsAdditions()
	}
	b.Inject, err = r.injection()
	return b, err
}

// resolve fills the origin-dependent defaults and checks what can only be
// checked once the origin is known.
func (s *Site) resolve(env Env) (*resolved, error) {
	raw := s.Info.Origin
	if raw == "" {
		raw = env.Origin
	}
	if raw == "" {
		return nil, errors.New("generating site documents: no origin: set site.origin or pass Env.Origin")
	}
	o, err := parseOrigin(raw)
	if err != nil {
		return nil, fmt.Errorf("generating site documents: %w", err)
	}
	r := &resolved{s: s, origin: o.String(), host: o.Hostname(), name: s.Info.Name,
		now: env.Now, mdSuffix: env.MarkdownSuffix, configDir: env.ConfigDir}
	if r.name == "" {
		r.name = r.host
	}
	if r.now.IsZero() {
		r.now = time.Now()
	}
	r.now = r.now.UTC().Truncate(time.Second)
	if err := r.checkLinks(o); err != nil {
		return nil, err
	}
	onSite := func(u string) bool {
		p, err := url.Parse(u)
		return err == nil && sameOrigin(p, o) && p.Fragment == ""
	}
	for _, u := range env.SitemapURLs {
		if onSite(u) {
			r.sitemap = append(r.sitemap, u)
		}
	}
	for _, p := range env.Pages {
		if onSite(p.URL) {
			r.pages = append(r.pages, p)
		}
	}
	for _, u := range env.OriginSitemaps {
		if onSite(u) {
			r.sitemaps = append(r.sitemaps, u)
		}
	}
	switch {
	case len(r.sitemaps) > 0:
		r.sitemapURL = r.sitemaps[0]
	case !env.NoSitemap:
		r.sitemapURL = r.origin + PathSitemap
	}
	r.decide()
	return r, nil
}

// checkLinks rejects llms.txt links and sitemap pages off the origin (Parse
// checks them already when site.origin is set).
func (r *resolved) checkLinks(o *url.URL) error {
	var es Errors
	check := func(path, u string) {
		p, err := url.Parse(u)
		if err == nil && p.Host != "" && !sameOrigin(p, o) {
			es = append(es, &FieldError{File: r.s.file, Line: r.s.line(path), Field: path,
				Msg: fmt.Sprintf("%q is on another origin; list only pages of %s", u, r.origin)})
		}
	}
	for i, sec := range r.s.LLMs.Sections {
		for j, l := range sec.Links {
			check(fmt.Sprintf("llms.sections[%d].links[%d].url", i, j), l.URL)
		}
	}
	for j, l := range r.s.LLMs.Optional {
		check(fmt.Sprintf("llms.optional[%d].url", j), l.URL)
	}
	for i, p := range r.s.Info.Pages {
		check(fmt.Sprintf("site.pages[%d]", i), p)
	}
	if len(es) > 0 {
		return sortErrors(es)
	}
	return nil
}

// decide settles which documents are published, since the cards link to
// each other.
func (r *resolved) decide() {
	s, d := r.s, &r.s.Documents
	r.serve = map[string]bool{
		PathLLMsTxt:       d.LLMsTxt.enabled(),
		PathLLMsFullTxt:   d.LLMsFullTxt.enabled(),
		PathAgentsJSON:    d.AgentsJSON.enabled(),
		PathSecurityTxt:   d.SecurityTxt.enabled() && len(r.securityContacts()) > 0,
		PathSkillsIndex:   d.AgentSkills.enabled() && len(s.Skills) > 0,
		PathOAuthResource: d.OAuthResource.enabled() && s.Authentication.Type == AuthOAuth,
		PathSitemap:       d.Sitemap.enabled(),
	}
	for i := range s.Interfaces {
		it := &s.Interfaces[i]
		switch {
		case it.Type == TypeMCP && it.Card == "" && r.mcp == nil && !s.Connect.Enabled:
			r.mcp = it
		case it.Type == TypeA2A && it.Card == "" && r.a2a == nil:
			r.a2a = it
		}
	}
	r.serve[PathMCPServerCard] = d.MCPServerCard.enabled() && (s.Connect.Enabled || r.mcp != nil)
	r.serve[PathAgentCard] = d.AgentCard.enabled() && r.a2a != nil
	r.serve[PathAPICatalog] = d.APICatalog.enabled() && len(r.apis()) > 0
	r.serve[PathARD] = d.ARD.enabled() && len(r.ardEntries()) > 0
}

// url returns the absolute URL of a published document, "" when it is not.
func (r *resolved) url(path string) string {
	if !r.serve[path] {
		return ""
	}
	return r.origin + path
}

// connectMCP and connectAsk are the built-in endpoints' absolute URLs.
func (r *resolved) connectMCP() string { return r.origin + r.s.Connect.MCPPath }
func (r *resolved) connectAsk() string { return r.origin + r.s.Connect.AskPath }

// ifaceName is an interface's name, defaulting to the site name and type.
func (r *resolved) ifaceName(it *Interface) string {
	if it.Name != "" {
		return it.Name
	}
	return r.name + " " + map[InterfaceType]string{TypeMCP: "MCP server", TypeOpenAPI: "API",
		TypeGraphQL: "GraphQL API", TypeA2A: "agent", TypeCLI: "CLI", TypeSDK: "SDK"}[it.Type]
}

// ifaceDescription is an interface's description, defaulting to a sentence
// from its type.
func (r *resolved) ifaceDescription(it *Interface) string {
	if it.Description != "" {
		return it.Description
	}
	return map[InterfaceType]string{
		TypeMCP:     "MCP server of " + r.name + ".",
		TypeOpenAPI: "HTTP API of " + r.name + ", described by OpenAPI.",
		TypeGraphQL: "GraphQL API of " + r.name + ".",
		TypeA2A:     "A2A agent of " + r.name + ".",
		TypeCLI:     "Command-line tool for " + r.name + ".",
		TypeSDK:     "Client library for " + r.name + ".",
	}[it.Type]
}

// isPublic says whether a capability is usable without a token; the
// built-in endpoints follow connect.auth.
func (r *resolved) isPublic(id string) bool {
	if id == "connect" {
		return r.s.Connect.Auth == ConnectPublic
	}
	for _, p := range r.s.Authentication.Public {
		if p == "*" || p == id {
			return true
		}
	}
	return false
}

// ifacePublic applies an interface's own public switch over the
// authentication section.
func (r *resolved) ifacePublic(it *Interface) bool {
	if it.Public != nil {
		return *it.Public
	}
	// Installing a CLI or SDK needs no token; the API it calls states its own.
	return it.Type == TypeCLI || it.Type == TypeSDK || r.isPublic(it.ID)
}

// trimTo shortens s to at most n bytes at a word boundary, with an ellipsis.
func trimTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndex(s[:n-3], " ")
	if cut < n/2 {
		cut = n - 3
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,.;:") + "..."
}
