package manifest

import (
	"regexp"
	"strings"
)

// serverCardSchema is the $schema every MCP server card must name.
const serverCardSchema = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"

// mcpProtocolVersions are the MCP revisions the generated cards announce.
var mcpProtocolVersions = []string{"2025-03-26", "2025-06-18", "2025-11-25"}

// serverCard renders /.well-known/mcp/server-card.json for the built-in
// endpoint when connect is enabled, else for the first MCP interface
// without a card of its own.
func (r *resolved) serverCard() ([]byte, error) {
	if r.s.Connect.Enabled {
		return marshal(r.connectCard())
	}
	return marshal(r.mcpCard(r.mcp))
}

// connectCard is the server card of the built-in read-only MCP endpoint.
func (r *resolved) connectCard() map[string]any {
	return r.buildMCPCard("content", r.name+" content",
		"Search and read the pages of "+r.name+", read-only.", defaultVersion,
		r.connectMCP(), string(TransportStreamableHTTP), r.s.Connect.Auth == ConnectPublic)
}

// mcpCard is the server card of a configured MCP interface.
func (r *resolved) mcpCard(it *Interface) map[string]any {
	return r.buildMCPCard(it.ID, r.ifaceName(it), r.ifaceDescription(it), it.Version, r.abs(it.URL),
		string(it.Transport), r.ifacePublic(it))
}

func (r *resolved) buildMCPCard(id, title, desc, version, endpoint, transport string, public bool) map[string]any {
	remote := map[string]any{"type": transport, "url": endpoint, "supportedProtocolVersions": mcpProtocolVersions}
	if !public {
		remote["headers"] = []map[string]any{{
			"name":        "Authorization",
			"description": "OAuth 2.0 bearer token (RFC 6750); see the protected resource metadata.",
			"isRequired":  true,
			"isSecret":    true,
		}}
	}
	card := map[string]any{
		"$schema":     serverCardSchema,
		"name":        reverseDNS(r.host) + "/" + id,
		"title":       trimTo(title, 100),
		"description": trimTo(desc, 100),
		"version":     version,
		"websiteUrl":  r.origin,
		"remotes":     []any{remote},
	}
	if logo := r.abs(r.s.Info.Organization.Logo); logo != "" {
		card["icons"] = []map[string]string{{"src": logo}}
	}
	return card
}

// serverCardURL is where the card of an MCP interface lives, "" when it is
// carried inline in ard.json.
func (r *resolved) serverCardURL(it *Interface) string {
	if it.Card != "" {
		return r.abs(it.Card)
	}
	if it == r.mcp {
		return r.url(PathMCPServerCard)
	}
	return ""
}

// agentCardURL is where the card of an A2A agent lives, "" when it is
// carried inline in ard.json.
func (r *resolved) agentCardURL(it *Interface) string {
	if it.Card != "" {
		return r.abs(it.Card)
	}
	if it == r.a2a {
		return r.url(PathAgentCard)
	}
	return ""
}

// agentCard renders /.well-known/agent-card.json (A2A 1.0).
func (r *resolved) agentCard() ([]byte, error) {
	return marshal(r.a2aCard(r.a2a))
}

// a2aCard is the A2A 1.0 agent card of an interface.
func (r *resolved) a2aCard(it *Interface) map[string]any {
	org := &r.s.Info.Organization
	card := map[string]any{
		"name":        r.ifaceName(it),
		"description": r.ifaceDescription(it),
		"version":     it.Version,
		"supportedInterfaces": []map[string]string{{
			"url": r.abs(it.URL), "protocolBinding": "JSONRPC", "protocolVersion": "1.0",
		}},
		"provider": map[string]string{
			"organization": orDefault(org.Name, r.name),
			"url":          orDefault(r.abs(org.URL), r.origin),
		},
		"capabilities":       map[string]bool{"streaming": false, "pushNotifications": false},
		"defaultInputModes":  []string{"text/plain"},
		"defaultOutputModes": []string{"text/plain", "application/json"},
		"skills":             r.a2aSkills(it),
	}
	if it.Docs != "" {
		card["documentationUrl"] = r.abs(it.Docs)
	}
	if logo := r.abs(org.Logo); logo != "" {
		card["iconUrl"] = logo
	}
	a := &r.s.Authentication
	if a.Type == AuthOAuth && !r.ifacePublic(it) && a.AuthorizationEndpoint != "" && a.TokenEndpoint != "" {
		// RFC 8414 §3: the metadata of an issuer without a path lives at
		// /.well-known/oauth-authorization-server on the issuer.
		scopes := map[string]string{}
		for _, sc := range orSlice(it.Scopes, a.Scopes) {
			scopes[sc] = sc
		}
		card["securitySchemes"] = map[string]any{"oauth2": map[string]any{"oauth2SecurityScheme": map[string]any{
			"description":       "OAuth 2.0 authorization code with PKCE",
			"oauth2MetadataUrl": strings.TrimSuffix(a.AuthorizationServers[0], "/") + "/.well-known/oauth-authorization-server",
			"flows": map[string]any{"authorizationCode": map[string]any{
				"authorizationUrl": a.AuthorizationEndpoint,
				"tokenUrl":         a.TokenEndpoint,
				"scopes":           scopes,
				"pkceRequired":     true,
			}},
		}}}
		card["securityRequirements"] = []map[string]any{{"schemes": map[string]any{"oauth2": map[string]any{"list": orSlice(it.Scopes, a.Scopes)}}}}
	}
	return card
}

func (r *resolved) a2aSkills(it *Interface) []map[string]any {
	skills := it.Skills
	if len(skills) == 0 {
		skills = []A2ASkill{{ID: it.ID, Name: r.ifaceName(it), Description: r.ifaceDescription(it)}}
	}
	out := make([]map[string]any, 0, len(skills))
	for _, sk := range skills {
		m := map[string]any{
			"id":          sk.ID,
			"name":        orDefault(sk.Name, sk.ID),
			"description": sk.Description,
			"tags":        orSlice(sk.Tags, []string{string(it.Type), it.ID}),
		}
		if len(sk.Examples) > 0 {
			m["examples"] = sk.Examples
		}
		out = append(out, m)
	}
	return out
}

// protectedResource renders RFC 9728 protected resource metadata.
func (r *resolved) protectedResource() ([]byte, error) {
	a := &r.s.Authentication
	// RFC 9728 §2: resource and authorization_servers identify the resource
	// and who issues its tokens; bearer_methods_supported says tokens travel
	// in the Authorization header (RFC 6750 §2.1).
	doc := map[string]any{
		"resource":                 orDefault(a.Resource, r.origin),
		"authorization_servers":    a.AuthorizationServers,
		"bearer_methods_supported": []string{"header"},
		"resource_name":            r.name,
	}
	if len(a.Scopes) > 0 {
		doc["scopes_supported"] = a.Scopes
	}
	if a.Documentation != "" {
		doc["resource_documentation"] = r.abs(a.Documentation)
	}
	return marshal(doc)
}

var dnsLabelBad = regexp.MustCompile(`[^a-zA-Z0-9-]+`)

// reverseDNS turns a host name into the reverse-DNS namespace of an MCP
// server name: shop.acme.example → example.acme.shop.
func reverseDNS(host string) string {
	labels := strings.Split(strings.Trim(host, "[]."), ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	for i, l := range labels {
		labels[i] = dnsLabelBad.ReplaceAllString(l, "-")
	}
	out := strings.Join(labels, ".")
	if len(out) < 2 {
		out = "site." + out
	}
	return out
}

// orSlice returns v, or def when v is empty.
func orSlice(v, def []string) []string {
	if len(v) == 0 {
		return def
	}
	return v
}
