package manifest

// apiLink is one target of an RFC 9264 linkset context.
type apiLink struct {
	Href string `json:"href"`
	Type string `json:"type,omitempty"`
}

// apiContext is one context object of the linkset: an API and its links.
type apiContext struct {
	Anchor      string    `json:"anchor"`
	ServiceDesc []apiLink `json:"service-desc,omitempty"`
	ServiceDoc  []apiLink `json:"service-doc,omitempty"`
}

// apis lists the APIs of the catalog: the built-in endpoints, then every
// configured MCP, OpenAPI, GraphQL and A2A interface.
func (r *resolved) apis() []apiContext {
	var out []apiContext
	doc := func(u string) []apiLink {
		if u == "" {
			return nil
		}
		return []apiLink{{Href: u, Type: "text/html"}}
	}
	if r.s.Connect.Enabled {
		out = append(out,
			apiContext{Anchor: r.connectMCP(), ServiceDesc: r.jsonLink(r.url(PathMCPServerCard))},
			apiContext{Anchor: r.connectAsk(), ServiceDoc: r.fallbackDoc()})
	}
	for i := range r.s.Interfaces {
		it := &r.s.Interfaces[i]
		c := apiContext{Anchor: r.abs(it.URL), ServiceDoc: doc(r.abs(it.Docs))}
		switch it.Type {
		case TypeMCP:
			c.ServiceDesc = r.jsonLink(r.serverCardURL(it))
		case TypeA2A:
			c.ServiceDesc = r.jsonLink(r.agentCardURL(it))
		case TypeOpenAPI:
			e, _ := r.ifaceEntry(it)
			c.ServiceDesc = []apiLink{{Href: r.abs(it.URL), Type: e.Type}}
		case TypeGraphQL:
		default:
			continue
		}
		// RFC 9727 §4.1: every API carries at least one link; fall back to
		// the site's own documentation for agents.
		if len(c.ServiceDesc) == 0 && len(c.ServiceDoc) == 0 {
			c.ServiceDoc = r.fallbackDoc()
		}
		out = append(out, c)
	}
	return out
}

func (r *resolved) jsonLink(u string) []apiLink {
	if u == "" {
		return nil
	}
	return []apiLink{{Href: u, Type: "application/json"}}
}

// fallbackDoc points at llms.txt, or the capability card without it.
func (r *resolved) fallbackDoc() []apiLink {
	if u := r.url(PathLLMsTxt); u != "" {
		return []apiLink{{Href: u, Type: "text/plain"}}
	}
	return []apiLink{{Href: r.origin + PathWKAgentsJSON, Type: "application/json"}}
}

// apiCatalog renders /.well-known/api-catalog, an RFC 9264 JSON linkset
// (RFC 9727 §4).
func (r *resolved) apiCatalog() ([]byte, error) {
	return marshal(map[string]any{"linkset": r.apis()})
}
