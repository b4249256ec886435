package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// agentsCard is the capability card of STANDARD §10.
type agentsCard struct {
	Version        string         `json:"version"`
	Name           string         `json:"name"`
	Description    string         `json:"description,omitempty"`
	URL            string         `json:"url"`
	Content        cardContent    `json:"content"`
	Interfaces     []cardIface    `json:"interfaces"`
	Agents         []cardAgent    `json:"agents"`
	Authentication cardAuth       `json:"authentication"`
	Contact        map[string]any `json:"contact,omitempty"`
	Policy         *cardPolicy    `json:"policy,omitempty"`
	Discovery      map[string]any `json:"discovery,omitempty"`
}

type cardContent struct {
	LLMs     string       `json:"llms,omitempty"`
	LLMsFull string       `json:"llmsFull,omitempty"`
	Sitemap  string       `json:"sitemap,omitempty"`
	Markdown cardMarkdown `json:"markdown"`
	Language string       `json:"language,omitempty"`
}

type cardMarkdown struct {
	ContentNegotiation bool   `json:"contentNegotiation"`
	Rule               string `json:"rule"`
	FallbackSuffix     string `json:"fallbackSuffix,omitempty"`
}

// MarkdownAcceptRule says, in llms.txt and agents.json, which Accept values
// get the Markdown form (STANDARD.md §6 and §10; negotiate.PrefersMarkdown
// decides it, and caddymodule's agent conformance test holds the two
// together).
const MarkdownAcceptRule = "any Accept that names text/markdown with q > 0 and does not rank it below text/html gets Markdown, a tie included, as in `text/markdown, text/html, */*`; `*/*` or `text/*` alone gets HTML"

type cardIface struct {
	ID          string   `json:"id,omitempty"`
	Type        string   `json:"type"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	URL         string   `json:"url,omitempty"`
	Transport   string   `json:"transport,omitempty"`
	Card        string   `json:"card,omitempty"`
	Docs        string   `json:"docs,omitempty"`
	Install     string   `json:"install,omitempty"`
	Language    string   `json:"language,omitempty"`
	Public      bool     `json:"public"`
	ReadOnly    bool     `json:"readOnly,omitempty"`
	Scopes      []string `json:"scopes,omitempty"`
	// HighestSupportedPath and LowestSafeFallback name, for a route with an
	// address, the richest way in and the plainest safe way out (UAIX
	// highest_lowest_path_required, STANDARD.md §12).
	HighestSupportedPath string `json:"highestSupportedPath,omitempty"`
	LowestSafeFallback   string `json:"lowestSafeFallback,omitempty"`
}

type cardAgent struct {
	Name     string `json:"name"`
	URL      string `json:"url"`
	Protocol string `json:"protocol"`
}

type cardAuth struct {
	Type                 string            `json:"type"`
	Public               []string          `json:"public"`
	TokenRequired        []string          `json:"tokenRequired,omitempty"`
	Note                 string            `json:"note,omitempty"`
	AuthorizationServers []string          `json:"authorizationServers,omitempty"`
	ResourceMetadata     string            `json:"resourceMetadata,omitempty"`
	Scopes               []string          `json:"scopes,omitempty"`
	ToolScopes           map[string]string `json:"toolScopes,omitempty"`
	Documentation        string            `json:"documentation,omitempty"`
}

type cardPolicy struct {
	Training      string `json:"training,omitempty"`
	Search        string `json:"search,omitempty"`
	UserInitiated string `json:"userInitiated,omitempty"`
	ContentSignal string `json:"contentSignal,omitempty"`
	Note          string `json:"note,omitempty"`
	Enforce       string `json:"enforce,omitempty"`
}

// agentsJSON renders the capability card served at /agents.json and
// /.well-known/agents.json.
func (r *resolved) agentsJSON() ([]byte, error) {
	s := r.s
	card := agentsCard{
		Version:     "1.0",
		Name:        r.name,
		Description: s.Info.Description,
		URL:         r.origin,
		Content: cardContent{
			LLMs:     r.url(PathLLMsTxt),
			LLMsFull: r.url(PathLLMsFullTxt),
			Sitemap:  r.sitemapURL,
			Markdown: cardMarkdown{ContentNegotiation: true, Rule: MarkdownAcceptRule, FallbackSuffix: r.mdSuffix},
			Language: s.Info.Language,
		},
		Interfaces:     r.cardInterfaces(),
		Agents:         r.cardAgents(),
		Authentication: r.cardAuth(),
		Contact:        r.cardContact(),
		Policy:         r.cardPolicy(),
		Discovery:      r.cardDiscovery(),
	}
	return marshal(card)
}

func (r *resolved) cardInterfaces() []cardIface {
	out := []cardIface{}
	s := r.s
	if s.Connect.Enabled {
		public := s.Connect.Auth == ConnectPublic
		out = append(out,
			cardIface{ID: "connect", Type: "mcp", Name: r.name + " content (MCP)", URL: r.connectMCP(),
				Transport: string(TransportStreamableHTTP), Card: r.url(PathMCPServerCard), Public: public, ReadOnly: true},
			cardIface{ID: "ask", Type: "nlweb", Name: r.name + " ask (NLWeb)", URL: r.connectAsk(), Public: public, ReadOnly: true})
	}
	for i := range s.Interfaces {
		it := &s.Interfaces[i]
		ci := cardIface{ID: it.ID, Type: string(it.Type), Name: r.ifaceName(it), Description: it.Description,
			URL: r.abs(it.URL), Transport: string(it.Transport), Docs: r.abs(it.Docs), Install: it.Install,
			Language: it.Language, Public: r.ifacePublic(it), Scopes: it.Scopes}
		switch it.Type {
		case TypeMCP:
			ci.Card = r.serverCardURL(it)
		case TypeA2A:
			ci.Card = r.agentCardURL(it)
		}
		out = append(out, ci)
	}
	for i := range out {
		if out[i].URL != "" {
			out[i].HighestSupportedPath, out[i].LowestSafeFallback = out[i].URL, r.lowestSafeFallback()
		}
	}
	return out
}

// lowestSafeFallback is where an agent that cannot use an interface reads
// instead: llms.txt when served, else the home page.
func (r *resolved) lowestSafeFallback() string {
	if u := r.url(PathLLMsTxt); u != "" {
		return u
	}
	return r.origin + "/"
}

// cardAgents is the `agents` array other scanners read: name, url, protocol.
func (r *resolved) cardAgents() []cardAgent {
	out := []cardAgent{}
	if r.s.Connect.Enabled {
		out = append(out, cardAgent{Name: r.name + " content", URL: r.connectMCP(), Protocol: "mcp"})
	}
	for i := range r.s.Interfaces {
		it := &r.s.Interfaces[i]
		if it.Type == TypeMCP || it.Type == TypeA2A {
			out = append(out, cardAgent{Name: r.ifaceName(it), URL: r.abs(it.URL), Protocol: string(it.Type)})
		}
	}
	return out
}

func (r *resolved) cardAuth() cardAuth {
	a := &r.s.Authentication
	out := cardAuth{Type: string(a.Type), Note: a.Note, Documentation: r.abs(a.Documentation)}
	out.Public, out.TokenRequired = r.capabilities()
	if r.s.Connect.Enabled && r.s.Connect.Auth == ConnectOAuth {
		out.ToolScopes = r.s.Connect.ToolScopes
	}
	if a.Type == AuthOAuth {
		out.AuthorizationServers = a.AuthorizationServers
		out.ResourceMetadata = r.url(PathOAuthResource)
		out.Scopes = a.Scopes
	}
	return out
}

// capabilities says, capability by capability, what is usable without a
// token and what needs one (STANDARD §7 access_documented). With nothing
// needing a token and "*" configured, public is just ["*"].
func (r *resolved) capabilities() (public, tokenRequired []string) {
	public = []string{"content"}
	if r.s.Connect.Enabled {
		if r.s.Connect.Auth == ConnectPublic {
			public = append(public, "connect")
		} else {
			tokenRequired = append(tokenRequired, "connect")
		}
	}
	for i := range r.s.Interfaces {
		if it := &r.s.Interfaces[i]; r.ifacePublic(it) {
			public = append(public, it.ID)
		} else {
			tokenRequired = append(tokenRequired, it.ID)
		}
	}
	if len(tokenRequired) == 0 && slices.Contains(r.s.Authentication.Public, "*") {
		public = []string{"*"}
	}
	return public, tokenRequired
}

func (r *resolved) cardContact() map[string]any {
	c := &r.s.Contacts
	out := map[string]any{}
	if c.Email != "" {
		out["human"] = "mailto:" + c.Email
		out["email"] = c.Email
	}
	if c.Page != "" {
		out["page"] = r.abs(c.Page)
		if c.Email == "" {
			out["human"] = r.abs(c.Page)
		}
	}
	if c.Phone != "" {
		out["phone"] = c.Phone
	}
	if sec := r.securityContacts(); len(sec) > 0 {
		out["security"] = sec[0]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (r *resolved) cardPolicy() *cardPolicy {
	p := &r.s.Policy
	out := &cardPolicy{Training: string(p.Training), Search: string(p.Search), UserInitiated: string(p.User),
		ContentSignal: r.contentSignal(), Note: p.Note}
	if p.Enforce == EnforceClaimed || p.Enforce == EnforceVerified {
		out.Enforce = string(p.Enforce)
	}
	if *out == (cardPolicy{}) {
		return nil
	}
	return out
}

// cardDiscovery points at every other published discovery document.
func (r *resolved) cardDiscovery() map[string]any {
	out := map[string]any{}
	for key, path := range map[string]string{"ard": PathARD, "apiCatalog": PathAPICatalog,
		"agentCard": PathAgentCard, "mcpServerCard": PathMCPServerCard, "agentSkills": PathSkillsIndex,
		"oauthProtectedResource": PathOAuthResource, "securityTxt": PathSecurityTxt} {
		if u := r.url(path); u != "" {
			out[key] = u
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// marshal renders JSON with two-space indentation and a final newline,
// without HTML escaping (documents are served as JSON, not embedded in HTML).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding JSON document: %w", err)
	}
	return buf.Bytes(), nil
}
