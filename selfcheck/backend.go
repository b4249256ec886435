package selfcheck

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/internal/parse"
	"github.com/agentready/caddy-agentready/selfcheck/mcpprobe"
)

// declaredDoc is one backend interface the capability card names with an
// address, and what that address answered.
type declaredDoc struct {
	id, kind, url string
	resp          *response
	resolves      bool
}

// backendResult says whether the service offers a backend interface at all
// (R9 applies "when the service offers any", STANDARD.md §2), and how each
// declared interface document answered.
type backendResult struct {
	// offered is true when anything points at a backend: an interface
	// declared in agents.json or an MCP server card, an MCP endpoint, an
	// OpenAPI document or an A2A card found at the well-known paths, an
	// API the home page advertises with a link (apiRels), or a scanned
	// form that writes (method post and the like: something behind it
	// takes the data, issue #14's definition of "offers a backend").
	offered bool
	// why names the first evidence of a backend, for the receipt.
	why string
	// declared are the non-MCP interfaces named with an address.
	declared []declaredDoc
	// a2a is the A2A card lookup (/.well-known/agent-card.json, agent.json).
	a2a jsonResult
}

// missing returns the declared documents that do not resolve: they
// answered, and the answer was 404 or 410. One that gave no usable answer
// (timeout, 5xx) could not be checked and is not called missing.
func (b backendResult) missing() []declaredDoc {
	var out []declaredDoc
	for _, d := range b.declared {
		if !d.resolves && !d.resp.unreachable() {
			out = append(out, d)
		}
	}
	return out
}

// missingText names the declared documents that do not resolve.
func (b backendResult) missingText() string {
	var parts []string
	for _, d := range b.missing() {
		parts = append(parts, fmt.Sprintf("%s interface %q at %s answers %s", d.kind, d.id, redactURL(d.url), statusText(d.resp)))
	}
	return strings.Join(parts, "; ")
}

// statusText is a response's status, or why there was none.
func statusText(r *response) string {
	if r.failed() {
		return "nothing (" + r.errText() + ")"
	}
	return fmt.Sprint(r.status)
}

// a2aCard looks up the A2A agent card at its well-known addresses.
func (s *site) a2aCard(ctx context.Context) jsonResult {
	return s.jsonDoc(ctx, "/.well-known/agent-card.json", "/.well-known/agent.json")
}

// backend gathers the evidence of a backend interface once per scan.
func (s *site) backend(ctx context.Context) backendResult {
	return s.backendDoc.get(func() backendResult {
		var b backendResult
		note := func(why string) {
			if !b.offered {
				b.offered, b.why = true, why
			}
		}
		m := s.manifest(ctx)
		for _, it := range m.interfaces() {
			u := str(it, "url")
			if u == "" {
				continue
			}
			if mcpprobe.NamesMCP(it) {
				note("agents.json names an MCP interface")
				continue
			}
			kind := str(it, "type") + str(it, "protocol")
			if kind == "" {
				kind = "an"
			}
			d := declaredDoc{id: str(it, "id"), kind: kind, url: parse.Resolve(s.origin, u)}
			if d.id == "" {
				d.id = str(it, "name")
			}
			d.resp, d.resolves = s.interfaceAnswers(ctx, d.url)
			b.declared = append(b.declared, d)
			note("agents.json names a " + kind + " interface")
		}
		if mc := s.mcp(ctx); mc.found {
			note("an MCP endpoint (" + mc.source + ")")
		}
		if oa := s.openapi(ctx); oa.doc != nil {
			note("an OpenAPI document at " + redactURL(oa.resp.req.url))
		}
		b.a2a = s.a2aCard(ctx)
		if len(b.a2a.doc) > 0 {
			note("an A2A agent card at " + redactURL(b.a2a.resp.req.url))
		}
		if !b.offered {
			if l, ok := apiAdvertised(s.pageLinks(s.page(ctx, s.home))); ok {
				note(fmt.Sprintf("the home page advertises an API (Link rel=%q to %s)", l.rel, redactURL(l.target)))
			}
		}
		if !b.offered {
			for _, r := range s.routes {
				for _, f := range s.page(ctx, r).facts.Forms {
					if f.Writes() && !f.Hidden {
						note(fmt.Sprintf("a form that writes (method %s) on %s", f.Method, redactURL(r)))
						break
					}
				}
			}
		}
		return b
	})
}

// apiRels are the link relations by which a page says "there is an API
// here": RFC 8631's service-desc, service-doc and service-meta, RFC 9727's
// api-catalog, and the relation WordPress sends on every page for its REST
// API (https://developer.wordpress.org/rest-api/using-the-rest-api/discovery/).
var apiRels = []string{"service-desc", "service-doc", "service-meta", "api-catalog", "https://api.w.org/"}

// advertisedAPI is the first link that advertises an API.
type advertisedAPI struct{ rel, target string }

// apiAdvertised finds the first link whose relation is one of apiRels.
func apiAdvertised(links []parse.Link) (advertisedAPI, bool) {
	for _, l := range links {
		for _, rel := range apiRels {
			if l.HasRel(rel) {
				return advertisedAPI{rel, l.Target}, true
			}
		}
	}
	return advertisedAPI{}, false
}

// authStated reports an authentication statement with content: a
// non-empty object or a non-empty string. An empty object documents
// nothing.
func authStated(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		return len(t) > 0
	case string:
		return strings.TrimSpace(t) != ""
	case []any:
		return len(t) > 0
	case bool:
		return true
	}
	return false
}
