package selfcheck

import (
	"context"
	"strings"
)

// mcpFindings is what the Connect checks read from the MCP probe.
type mcpFindings struct {
	endpoint     string
	source       string // "agents.json", "server card" or "/mcp probe"
	declared     bool   // named by the site, not guessed
	found        bool   // an MCP endpoint exists (declared, or the guess answered)
	unreachable  bool   // the probe got no usable answer (refused, timeout, 5xx)
	initialize   bool
	toolsList    bool
	negotiated   string
	authMode     string // "none", "oauth" or "unknown"
	needsToken   bool   // the endpoint answered 401/403 or announced OAuth
	oauthMeta    bool
	metadataURL  string
	pkce         []string
	listed       *int
	readOnlyHint *int
	errText      string
	details      any    // the probe's own result, for the receipt
	summary      string // the probe's findings in the lines of STANDARD.md §4
}

// mcpResult is the lazily computed MCP probe of a scan.
type mcpResult = mcpFindings

// mcp finds the site's MCP endpoint (agents.json interfaces, then the MCP
// server card's remotes, then a guess at /mcp) and probes it once: only
// initialize and tools/list, never a tool call (rule 1).
func (s *site) mcp(ctx context.Context) mcpResult {
	return s.mcpDoc.get(func() mcpResult {
		f := mcpFindings{source: "/mcp probe", endpoint: s.abs("/mcp")}
		for _, it := range s.manifest(ctx).interfaces() {
			if isMCP(it) && str(it, "url") != "" {
				f.endpoint, f.source, f.declared = resolve(s.origin, str(it, "url")), "agents.json", true
				break
			}
		}
		if !f.declared {
			if card := s.serverCard(ctx); card.doc != nil {
				remotes, _ := card.doc["remotes"].([]any)
				for _, r := range remotes {
					if o, ok := r.(map[string]any); ok && str(o, "url") != "" && !strings.Contains(str(o, "url"), "{") {
						f.endpoint, f.source, f.declared = resolve(s.origin, str(o, "url")), "server card", true
						break
					}
				}
			}
		}
		probeMCP(ctx, s.f.httpClient(), &f)
		f.found = f.declared || f.initialize || f.needsToken
		return f
	})
}

// isMCP reports an interface entry naming the MCP protocol.
func isMCP(it map[string]any) bool {
	for _, k := range []string{"type", "protocol"} {
		if strings.EqualFold(str(it, k), "mcp") {
			return true
		}
	}
	return false
}
