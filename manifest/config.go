package manifest

import "time"

// Site is one parsed and validated site configuration (the `config site.yaml`
// file of the Caddyfile). Every section is optional: an empty file, or
// Default(), still generates sensible documents from the Env given to
// Generate. Fields are documented in docs/configuration.md; the YAML keys are
// the snake_case names in the struct tags.
type Site struct {
	// Info describes the site and the organisation behind it (key `site`).
	Info SiteInfo `yaml:"site"`
	// Contacts names the humans an agent can hand off to (key `contacts`).
	Contacts Contacts `yaml:"contacts"`
	// LLMs shapes /llms.txt (key `llms`).
	LLMs LLMs `yaml:"llms"`
	// Interfaces lists the backend interfaces the service offers: MCP
	// endpoints, OpenAPI and GraphQL APIs, A2A agents, CLIs and SDKs.
	// Default: none.
	Interfaces []Interface `yaml:"interfaces"`
	// Authentication states who may use what (key `authentication`).
	// Default: type none, everything public.
	Authentication Authentication `yaml:"authentication"`
	// Policy is the usage policy for the three kinds of AI crawler
	// (key `policy`). Default: no policy stated.
	Policy Policy `yaml:"policy"`
	// ARD shapes /.well-known/ard.json (key `ard`).
	ARD ARDConfig `yaml:"ard"`
	// Skills are agent skill files served under /.well-known/agent-skills/
	// with their sha256 digests. Default: none.
	Skills []Skill `yaml:"skills"`
	// WebMCP annotates HTML forms as page tools (key `webmcp`).
	WebMCP WebMCP `yaml:"webmcp"`
	// Documents says which generated documents are served and whether the
	// origin's own copy wins (key `documents`).
	Documents Documents `yaml:"documents"`
	// Inject switches the HTML head injections (key `inject`).
	Inject Inject `yaml:"inject"`
	// Connect configures the built-in read-only MCP endpoint and NLWeb /ask
	// (key `connect`). Default: disabled.
	Connect Connect `yaml:"connect"`
	// Discovery bounds how the site's pages are found for the sitemap,
	// llms.txt, the content index and the self-scan (key `discovery`).
	Discovery Discovery `yaml:"discovery"`

	file     string         // file name for messages
	baseDir  string         // directory skill files are resolved against
	lines    map[string]int // field path -> line
	warnings []string
}

// SiteInfo describes the site (key `site`).
type SiteInfo struct {
	// Name is the site's name, used as the llms.txt title and in every card.
	// Default: the host name of the origin.
	Name string `yaml:"name"`
	// Origin is the canonical origin (scheme://host[:port], no path), used
	// for every absolute URL generated (documents, injected canonical, the
	// Markdown's canonical and links). Default: Env.Origin, the address the
	// site is served at.
	Origin string `yaml:"origin"`
	// Description is one or two sentences on what the site offers; it is the
	// llms.txt summary unless llms.summary is set. Default: none.
	Description string `yaml:"description"`
	// Language is the default content language as a BCP 47 tag, injected as
	// <html lang> where a page has none. Default: none (no injection).
	Language string `yaml:"language"`
	// Organization is the identity published as JSON-LD.
	Organization Organization `yaml:"organization"`
	// Pages are extra site paths listed in the generated sitemap, besides
	// the home page and the llms.txt links on the origin. Default: none.
	Pages []string `yaml:"pages"`
}

// Organization is the identity behind the site, published as schema.org JSON-LD.
type Organization struct {
	// Type is the schema.org type: Organization, Corporation, LocalBusiness,
	// NGO, Person… Default: Organization.
	Type string `yaml:"type"`
	// Name is the organisation's name. Default: site.name.
	Name string `yaml:"name"`
	// LegalName is the registered legal name. Default: none.
	LegalName string `yaml:"legal_name"`
	// URL is the organisation's home page. Default: the site origin.
	URL string `yaml:"url"`
	// Logo is the logo's URL, absolute or site-relative. Default: none.
	Logo string `yaml:"logo"`
	// SameAs lists absolute URLs of the organisation's other profiles
	// (social networks, Wikipedia, registries). Default: none.
	SameAs []string `yaml:"same_as"`
}

// Contacts names the people an agent can hand a user to (key `contacts`).
type Contacts struct {
	// Email is the human contact address (without "mailto:"). Default: none.
	Email string `yaml:"email"`
	// Page is the contact page, absolute on the origin or site-relative.
	// Default: none.
	Page string `yaml:"page"`
	// Phone is a phone number in international form. Default: none.
	Phone string `yaml:"phone"`
	// Security configures /.well-known/security.txt (RFC 9116).
	Security SecurityContact `yaml:"security"`
}

// SecurityContact configures /.well-known/security.txt (RFC 9116).
type SecurityContact struct {
	// Contact lists where to report vulnerabilities: mailto:, https: or tel:
	// URIs (RFC 9116 §2.5.3), a bare e-mail address becomes mailto:.
	// Default: mailto: of contacts.email. With neither, no security.txt.
	Contact []string `yaml:"contact"`
	// ExpiresDays sets Expires to the generation time plus this many days
	// (RFC 9116 §2.5.5 recommends less than a year). Default: 180.
	ExpiresDays int `yaml:"expires_days"`
	// Policy is the URL of the vulnerability disclosure policy. Default: none.
	Policy string `yaml:"policy"`
	// Encryption is the URL of the key to encrypt reports with. Default: none.
	Encryption string `yaml:"encryption"`
	// Acknowledgments is the URL of the hall of fame page. Default: none.
	Acknowledgments string `yaml:"acknowledgments"`
	// PreferredLanguages lists BCP 47 tags. Default: site.language.
	PreferredLanguages []string `yaml:"preferred_languages"`
}

// LLMs shapes /llms.txt, following the llms.txt proposal: an H1, a summary
// blockquote, plain text, then H2 sections of links, the last one `Optional`.
type LLMs struct {
	// Title is the H1. Default: site.name.
	Title string `yaml:"title"`
	// Summary is the blockquote under the H1. Default: site.description.
	Summary string `yaml:"summary"`
	// Instructions is extra plain text for agents, printed after the
	// generated instructions (how to get Markdown, where agents.json is, how
	// to reach a human). Default: none.
	Instructions string `yaml:"instructions"`
	// Sections are H2 lists of links. Default: none.
	Sections []LinkSection `yaml:"sections"`
	// Optional are the links of the `## Optional` section, which an agent may
	// skip when its context is short. Default: none.
	Optional []Link `yaml:"optional"`
	// AutoList appends pages read from the origin's sitemap.
	AutoList AutoList `yaml:"auto_list"`
	// FullMaxBytes bounds /llms-full.txt, the Markdown of every page
	// llms.txt lists then of the site's other discovered pages: pages past
	// it are left out, and the file says so. Between 4096 and 67108864
	// (64 MiB). Default: 4194304 (4 MiB).
	FullMaxBytes int64 `yaml:"full_max_bytes"`
}

// LinkSection is one H2 section of llms.txt.
type LinkSection struct {
	// Title is the H2 heading (required).
	Title string `yaml:"title"`
	// Links are the section's entries (at least one).
	Links []Link `yaml:"links"`
}

// Link is one llms.txt entry: "- [Title](URL): Note".
type Link struct {
	// Title is the link text (required).
	Title string `yaml:"title"`
	// URL is the page, site-relative ("/pricing") or absolute on the site
	// origin; llms.txt always prints the canonical absolute URL (required).
	URL string `yaml:"url"`
	// Note is a short description after the link. Default: none.
	Note string `yaml:"note"`
}

// AutoList lists pages from the origin's sitemap in llms.txt.
type AutoList struct {
	// Enabled turns the listing on. Default: false.
	Enabled bool `yaml:"enabled"`
	// Max caps how many sitemap pages are listed. Default: 50.
	Max int `yaml:"max"`
	// Section is the H2 title of the listing. Default: "Pages".
	Section string `yaml:"section"`
}

// Interface is one backend interface the service offers.
type Interface struct {
	// ID names the interface in this file and in generated identifiers;
	// letters, digits, '.', '_' and '-', unique (required).
	ID string `yaml:"id"`
	// Type is one of mcp, openapi, graphql, a2a, cli, sdk (required).
	Type InterfaceType `yaml:"type"`
	// Name is the human name. Default: site.name plus the type.
	Name string `yaml:"name"`
	// Description says what it does. Default: generated from the type.
	Description string `yaml:"description"`
	// URL is the endpoint (mcp, graphql, a2a) or the API description
	// document (openapi); absolute or site-relative. Required except for
	// cli and sdk, where it is the project or package page.
	URL string `yaml:"url"`
	// Transport is the MCP transport: streamable-http or sse.
	// Default: streamable-http. Only for mcp.
	Transport Transport `yaml:"transport"`
	// Docs is the human documentation page. Default: none.
	Docs string `yaml:"docs"`
	// Card is the URL of a card the service already publishes itself (MCP
	// server card, A2A agent card); ARD then points there. Default: the card
	// is generated.
	Card string `yaml:"card"`
	// Install is the install command of a cli or sdk ("go install …").
	Install string `yaml:"install"`
	// Language is the programming language of an sdk. Default: none.
	Language string `yaml:"language"`
	// Version is the interface's version. Default: "1.0.0".
	Version string `yaml:"version"`
	// Identifier is the ARD identifier, urn:air:<host>:<namespace>:<name>.
	// Default: urn:air:<origin host>:<type>:<id>.
	Identifier string `yaml:"identifier"`
	// Queries are 2–5 representative natural-language queries for ARD.
	// Default: generated from the name and description.
	Queries []string `yaml:"queries"`
	// Capabilities are short tool or skill tokens for ARD. Default: none.
	Capabilities []string `yaml:"capabilities"`
	// Skills describe an A2A agent's skills. Only for a2a. Default: one
	// skill generated from the description.
	Skills []A2ASkill `yaml:"skills"`
	// Public says whether the interface is usable without a token.
	// Default: true under authentication type none, else listed in
	// authentication.public or false.
	Public *bool `yaml:"public"`
	// Scopes are the OAuth scopes the interface needs. Default: none.
	Scopes []string `yaml:"scopes"`
}

// A2ASkill is one skill of an A2A agent card.
type A2ASkill struct {
	// ID is the skill id, unique within the agent (required).
	ID string `yaml:"id"`
	// Name is the human name. Default: the id.
	Name string `yaml:"name"`
	// Description says what the skill does (required).
	Description string `yaml:"description"`
	// Tags are keywords. Default: the interface type and id.
	Tags []string `yaml:"tags"`
	// Examples are sample prompts. Default: none.
	Examples []string `yaml:"examples"`
}

// Authentication is the authentication posture (key `authentication`).
type Authentication struct {
	// Type is none (everything public) or oauth. Default: none.
	Type AuthType `yaml:"type"`
	// Note is one sentence stated in agents.json. Default under none:
	// "everything is public and read-only".
	Note string `yaml:"note"`
	// AuthorizationServers are the issuer URLs of the OAuth authorization
	// servers (absolute https). Required for oauth.
	AuthorizationServers []string `yaml:"authorization_servers"`
	// Scopes are the scopes a client may request. Default: none.
	Scopes []string `yaml:"scopes"`
	// AuthorizationEndpoint and TokenEndpoint are the authorization
	// server's endpoints (RFC 8414 §2), needed for the OAuth flow of an A2A
	// agent card. Default: none (the card then carries no security scheme).
	AuthorizationEndpoint string `yaml:"authorization_endpoint"`
	// JWKSURI is where the authorization server publishes the keys that
	// sign its access tokens (RFC 8414 `jwks_uri`); the built-in MCP
	// endpoint verifies tokens against it. Required when connect.auth is
	// oauth. Default: none.
	JWKSURI string `yaml:"jwks_uri"`
	// TokenEndpoint: see AuthorizationEndpoint. Default: none.
	TokenEndpoint string `yaml:"token_endpoint"`
	// Public lists the capabilities usable without a token: interface ids,
	// "content" (pages, Markdown, discovery documents), "connect" (the
	// built-in MCP and /ask), or "*" for all. Default: ["*"] under none,
	// ["content"] under oauth.
	Public []string `yaml:"public"`
	// Resource is the protected resource identifier of RFC 9728.
	// Default: the site origin.
	Resource string `yaml:"resource"`
	// Documentation is a page explaining how to obtain access. Default: none.
	Documentation string `yaml:"documentation"`
}

// Policy is the usage policy for AI crawlers (key `policy`), published in
// robots.txt groups, the Content-Signal line and agents.json. Each kind is
// allow or disallow; unset kinds are not mentioned.
type Policy struct {
	// Training covers crawlers collecting model training data (GPTBot,
	// ClaudeBot, Google-Extended, CCBot…); Content-Signal ai-train.
	Training Permission `yaml:"training"`
	// Search covers AI search and citation crawlers (OAI-SearchBot,
	// Claude-SearchBot, PerplexityBot…); Content-Signal search.
	Search Permission `yaml:"search"`
	// User covers fetches a person asked an assistant to make (ChatGPT-User,
	// Claude-User, Perplexity-User…); Content-Signal ai-input.
	User Permission `yaml:"user"`
	// ContentSignal overrides the derived Content-Signal value
	// ("search=yes, ai-input=yes, ai-train=no"). Default: derived.
	ContentSignal string `yaml:"content_signal"`
	// Note is a sentence on the policy for agents.json and llms.txt. Default: none.
	Note string `yaml:"note"`
	// ExtraAgents adds user-agent tokens to each kind's built-in table.
	// Naming a user-initiated fetcher here is also what lets enforcement
	// block it.
	ExtraAgents CrawlerAgents `yaml:"extra_agents"`
	// Enforce turns the declared policy into 403 answers: off (declare
	// only), claimed (block clients whose User-Agent claims a disallowed
	// kind) or verified (block verified members of a disallowed kind and
	// clients that fail verification). User-initiated fetchers are blocked
	// only when named in extra_agents. Default: off.
	Enforce EnforceMode `yaml:"enforce"`
}

// CrawlerAgents lists user-agent tokens per crawler kind.
type CrawlerAgents struct {
	// Training lists training crawlers. Default: none.
	Training []string `yaml:"training"`
	// Search lists AI search crawlers. Default: none.
	Search []string `yaml:"search"`
	// User lists user-initiated fetchers. Default: none.
	User []string `yaml:"user"`
}

// ARDConfig shapes /.well-known/ard.json (key `ard`).
type ARDConfig struct {
	// Generate derives entries from interfaces, skills and connect.
	// Default: true.
	Generate *bool `yaml:"generate"`
	// Entries are extra entries published as written. Default: none.
	Entries []ARDEntry `yaml:"entries"`
}

// ARDEntry is one hand-written ARD entry.
type ARDEntry struct {
	// Identifier is urn:air:<publisher>:<namespace>:<name> (required).
	Identifier string `yaml:"identifier"`
	// DisplayName is the human name (required).
	DisplayName string `yaml:"display_name"`
	// Type is the artifact's media type, e.g. application/mcp-server-card+json (required).
	Type string `yaml:"type"`
	// URL is the artifact, absolute or site-relative (required).
	URL string `yaml:"url"`
	// Description is a short description. Default: none.
	Description string `yaml:"description"`
	// Queries are 2–5 representative queries (required).
	Queries []string `yaml:"queries"`
	// Capabilities are tool or skill tokens. Default: none.
	Capabilities []string `yaml:"capabilities"`
	// Tags are keywords. Default: none.
	Tags []string `yaml:"tags"`
}

// Skill is one agent skill file served under /.well-known/agent-skills/.
type Skill struct {
	// Name is the skill name: lowercase letters, digits and hyphens (required, unique).
	Name string `yaml:"name"`
	// Description says what the skill teaches (required).
	Description string `yaml:"description"`
	// File is the skill file, relative to the configuration file's directory
	// (required, must exist, at most 8 MiB).
	File string `yaml:"file"`
	// Type is skill-md or archive. Default: skill-md for .md files, archive
	// for .zip, .tar.gz and .tgz.
	Type string `yaml:"type"`
}

// WebMCP annotates HTML forms as page tools (key `webmcp`).
type WebMCP struct {
	// Forms are the annotated forms. Default: none.
	Forms []FormTool `yaml:"forms"`
}

// FormTool annotates the forms matching a CSS selector.
type FormTool struct {
	// Selector is a CSS selector matching the <form> (required).
	Selector string `yaml:"selector"`
	// ToolName is the snake_case tool name (required).
	ToolName string `yaml:"toolname"`
	// ToolDescription says what submitting the form does, at least 10
	// characters (required).
	ToolDescription string `yaml:"tooldescription"`
	// Params maps a field's name attribute to its toolparamdescription.
	// Default: none.
	Params map[string]string `yaml:"params"`
}

// Documents says which documents are served (key `documents`). Each entry is
// generate (ours, always), origin (the origin's copy wins when it answers
// 200, ours otherwise) or off.
type Documents struct {
	// CacheControl is the suggested Cache-Control of generated documents.
	// Default: "public, max-age=3600".
	CacheControl string `yaml:"cache_control"`
	// LLMsTxt is /llms.txt. Default: generate.
	LLMsTxt Serve `yaml:"llms_txt"`
	// LLMsFullTxt is /llms-full.txt, the Markdown of the site's pages in
	// one file (see LLMs.FullMaxBytes). Default: generate.
	LLMsFullTxt Serve `yaml:"llms_full_txt"`
	// AgentsJSON is /agents.json and /.well-known/agents.json. Default: generate.
	AgentsJSON Serve `yaml:"agents_json"`
	// ARD is /.well-known/ard.json (served when it has entries). Default: generate.
	ARD Serve `yaml:"ard_json"`
	// Robots is the /robots.txt merge. Default: generate.
	Robots Serve `yaml:"robots_txt"`
	// Sitemap is /sitemap.xml, only ever served when the origin has none.
	// Default: generate.
	Sitemap Serve `yaml:"sitemap_xml"`
	// APICatalog is /.well-known/api-catalog (served when an API is
	// configured). Default: generate.
	APICatalog Serve `yaml:"api_catalog"`
	// SecurityTxt is /.well-known/security.txt (served when a contact is
	// known). Default: generate.
	SecurityTxt Serve `yaml:"security_txt"`
	// AgentCard is /.well-known/agent-card.json (served with an A2A agent).
	// Default: generate.
	AgentCard Serve `yaml:"agent_card"`
	// MCPServerCard is /.well-known/mcp/server-card.json (served with an MCP
	// endpoint). Default: generate.
	MCPServerCard Serve `yaml:"mcp_server_card"`
	// AgentSkills is /.well-known/agent-skills/ (served with skills). Default: generate.
	AgentSkills Serve `yaml:"agent_skills"`
	// OAuthResource is /.well-known/oauth-protected-resource (served under
	// oauth). Default: generate.
	OAuthResource Serve `yaml:"oauth_protected_resource"`
}

// Inject switches the HTML head injections; each applies only where the page
// has none of its own (key `inject`).
type Inject struct {
	// Lang adds <html lang> from site.language. Default: true.
	Lang *bool `yaml:"lang"`
	// Canonical adds <link rel="canonical"> (origin + path). Default: true.
	Canonical *bool `yaml:"canonical"`
	// JSONLD adds the Organization and WebSite JSON-LD, when the YAML names
	// the site or the organisation (site.name or site.organization.name):
	// an identity is never made up from the host name. Default: true.
	JSONLD *bool `yaml:"json_ld"`
	// ARDLink adds <link rel="ard"> when ard.json is served. Default: true.
	ARDLink *bool `yaml:"ard_link"`
	// WebMCP adds the webmcp.forms attributes. Default: true.
	WebMCP *bool `yaml:"webmcp"`
}

// Connect configures the built-in read-only MCP endpoint and the NLWeb /ask
// endpoint over the site's own pages (key `connect`).
type Connect struct {
	// Enabled turns both endpoints on. Default: false.
	Enabled bool `yaml:"enabled"`
	// MCPPath is the MCP endpoint's path. Default: /mcp.
	MCPPath string `yaml:"mcp_path"`
	// AskPath is the NLWeb endpoint's path. Default: /ask.
	AskPath string `yaml:"ask_path"`
	// MaxPages caps how many pages are indexed. Default: 1000.
	MaxPages int `yaml:"max_pages"`
	// MaxBytes caps the total bytes of indexed Markdown. Default: 67108864 (64 MiB).
	MaxBytes int64 `yaml:"max_bytes"`
	// Refresh is how often the index is rebuilt. Default: 1h.
	Refresh time.Duration `yaml:"refresh"`
	// RetryMin is the wait before the first retry of a failed index refresh
	// (the origin down at start, say); it doubles with each further failure
	// up to 5m or refresh, whichever is less, each wait jittered to between
	// half and all of it. Default: 2s.
	RetryMin time.Duration `yaml:"retry_min"`
	// RateLimit is the requests per minute allowed per client. Default: 60.
	RateLimit int `yaml:"rate_limit"`
	// Auth is public (no token) or oauth (the authentication section).
	// Default: public.
	Auth ConnectAuth `yaml:"auth"`
	// ToolScopes maps a tool name (one of ConnectTools) to the scope it
	// needs under oauth; scopes must be listed in authentication.scopes.
	// Default: none (any valid token).
	ToolScopes map[string]string `yaml:"tool_scopes"`
	// Queries are 2–5 representative queries for the ARD entry.
	// Default: generated from the site name.
	Queries []string `yaml:"queries"`
}

// ConnectTools are the tools of the built-in MCP endpoint (package connect).
var ConnectTools = []string{"search_site", "get_page", "list_pages", "ask"}

// Discovery says how the list of the site's pages is made (key
// `discovery`): from the origin's sitemaps when they list pages (robots.txt
// Sitemap lines, /sitemap.xml, /sitemap_index.xml, /wp-sitemap.xml), else by
// a crawl of the site through its own server, from / and the pages this file
// names. The defaults are those of package discover.
type Discovery struct {
	// Mode is auto (sitemaps when they list a page, else crawl), sitemap
	// (sitemaps only) or crawl (always crawl, sitemap entries as extra
	// starting points). Default: auto.
	Mode DiscoveryMode `yaml:"mode"`
	// MaxPages caps the pages listed. Default: 10000.
	MaxPages int `yaml:"max_pages"`
	// MaxDepth caps how many links away from / or a listed page the crawl
	// goes. Default: 50.
	MaxDepth int `yaml:"max_depth"`
	// MaxBytes caps the bytes read in one discovery run. Default: 536870912
	// (512 MiB).
	MaxBytes int64 `yaml:"max_bytes"`
	// MaxPageBytes caps the bytes read of one page; links past it are not
	// followed. Default: 5242880 (5 MiB).
	MaxPageBytes int64 `yaml:"max_page_bytes"`
	// Concurrency caps the requests to the origin in flight at once.
	// Default: 4.
	Concurrency int `yaml:"concurrency"`
	// Delay is the least time between the starts of two requests; a
	// robots.txt Crawl-delay for agentready (or *), when longer, wins.
	// Default: 0.
	Delay time.Duration `yaml:"delay"`
	// Timeout bounds each request. Default: 30s.
	Timeout time.Duration `yaml:"timeout"`
}

// PlaceholderToolDescription is the tooldescription the scanner's fix
// snippet carries when a page gives nothing to describe its form with;
// validation rejects it until it is edited. The scanner keeps the same
// text (selfcheck.PlaceholderToolDescription; the scanner shares no code
// with the proxy), and TestPlaceholderMatchesScanner holds the two equal.
const PlaceholderToolDescription = "Describe in a sentence what this form does."
