package selfcheck

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// checkpointCase is one row of the checkpoint table: a site and the verdict
// one checkpoint must reach on it.
type checkpointCase struct {
	id, name string
	site     func(t testing.TB) http.Handler
	verdict  Verdict
}

// jsonAt serves a JSON document at path.
func jsonAt(path, body string) func(s *testSite) {
	return replace(path, &doc{ctype: "application/json", body: body})
}

// htmlAt serves an HTML page at path.
func htmlAt(path, body string) func(s *testSite) {
	return replace(path, &doc{ctype: "text/html; charset=utf-8", body: `<!doctype html><html lang="en"><head><title>t</title></head><body>` + body + `</body></html>`})
}

// strictMCP wraps fakeMCP("ok"): an unknown method answers HTTP 404 with a
// JSON-RPC error when strict, and tools/list names an MCP App when ui.
func strictMCP(strict, ui bool) *doc {
	inner := fakeMCP("ok").handler
	return &doc{handler: func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		var m struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		switch {
		case m.Method == "tools/call":
			panic("the scanner must never call a tool")
		case strict && m.Method == "agentready/no-such-method":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			return
		case ui && m.Method == "tools/list":
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"tools": []any{
				map[string]any{"name": "show", "inputSchema": map[string]any{"type": "object"}, "_meta": map[string]any{"ui": map[string]any{"resourceUri": "ui://show/app.html"}}}}}})
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		inner(w, r)
	}}
}

// An OpenAPI document with one public GET, as the live check wants it.
const publicAPI = `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"servers":[{"url":"/api"}],"paths":{
"/status":{"get":{"operationId":"status","description":"Service status.","responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}},"default":{"description":"error"}}}},
"/items/{id}":{"get":{"operationId":"item","summary":"One item.","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"string"}}],"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}}}},"404":{"description":"none"}}}}}}`

// apiStatus serves the public GET of publicAPI with the given media type
// and headers.
func apiStatus(ctype string, h http.Header) func(s *testSite) {
	return replace("/api/status", &doc{ctype: ctype, header: h, body: `{"ok":true}`})
}

// x402 builds a Payment-Required header value.
func x402(version int) string {
	b, _ := json.Marshal(map[string]any{"x402Version": version, "accepts": []any{map[string]any{"scheme": "exact", "network": "base"}}})
	return base64.StdEncoding.EncodeToString(b)
}

// productPage is a home page of a commerce site.
var productPage = htmlAt("/", `<h1>Widget</h1><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"W","offers":{"@type":"Offer","price":"1"}}</script>`)

// docsHome links /docs from the home page and serves a docs page.
func docsHome(docsBody string) func(s *testSite) {
	return func(s *testSite) {
		htmlAt("/", `<h1>Home</h1><a href="/docs">Docs</a>`)(s)
		htmlAt("/docs", docsBody)(s)
	}
}

// longText is enough words for a docs page.
var longText = "<p>" + strings.Repeat("This page explains how the widget API works. ", 12) + "</p>"

// withOpenAPI gives the bare site an OpenAPI document (a backend).
var withOpenAPI = jsonAt("/openapi.json", publicAPI)

// checkpointCases reach every verdict each checkpoint can give.
var checkpointCases = []checkpointCase{
	{"ia.webmcp-declarative", "annotated forms", ready(), Pass},
	{"ia.webmcp-declarative", "hyphenated only", bare(htmlAt("/", `<form tool-name="x" tool-description="Search it all."><input name="q"></form>`)), Partial},
	{"ia.webmcp-declarative", "plain form", bare(htmlAt("/", `<form><input name="q"></form>`)), Fail},
	{"ia.webmcp-declarative", "no forms", bare(), NotApplicable},
	{"ia.webmcp-form-quality", "well described", ready(), Pass},
	{"ia.webmcp-form-quality", "short description", bare(htmlAt("/", `<form toolname="do_it" tooldescription="x"><label>Q <input name="q" toolparamdescription="d"></label></form>`)), Partial},
	{"ia.webmcp-form-quality", "nothing right", bare(htmlAt("/", `<form toolname="doIt" tooldescription="x"><input></form>`)), Fail},
	{"ia.webmcp-form-quality", "no annotated form", bare(), NotApplicable},
	{"ia.interactive-surface-coverage", "all annotated", ready(), Pass},
	{"ia.interactive-surface-coverage", "none annotated", bare(htmlAt("/", `<form><input name="q"></form><form><input name="r"></form>`)), Fail},
	{"ia.interactive-surface-coverage", "nothing interactive", bare(), NotApplicable},

	{"ia.a2a-agent-card", "1.0 card", ready(), Pass},
	{"ia.a2a-agent-card", "0.3 card", bare(jsonAt("/.well-known/agent-card.json", `{"name":"a","description":"d","version":"1","capabilities":{},"url":"https://x.test/a2a"}`)), Partial},
	{"ia.a2a-agent-card", "served as text/plain", bare(replace("/.well-known/agent-card.json", &doc{ctype: "text/plain", body: `{"name":"a","description":"d","version":"1","capabilities":{},"supportedInterfaces":[{"url":"/a2a"}]}`})), Partial},
	{"ia.a2a-agent-card", "empty card", bare(withOpenAPI, jsonAt("/.well-known/agent-card.json", `{}`)), Fail},
	{"ia.a2a-agent-card", "API but no card", bare(withOpenAPI), Fail},
	{"ia.a2a-agent-card", "content-only site", bare(), NotApplicable},
	{"ia.a2a-agent-card", "card 500", bare(withOpenAPI, serverError("/.well-known/agent-card.json", "/.well-known/agent.json")), CouldNotCheck},

	{"ia.mcp-discovery", "name", ready(), Pass},
	{"ia.mcp-discovery", "serverInfo.name", bare(jsonAt("/.well-known/mcp.json", `{"serverInfo":{"name":"x","version":"1"}}`)), Pass},
	{"ia.mcp-discovery", "legacy mcpServers map", bare(jsonAt("/.well-known/mcp.json", `{"mcpServers":{"widgets":{"url":"/mcp"}}}`)), Pass},
	{"ia.mcp-discovery", "served as text/html", bare(replace("/.well-known/mcp.json", &doc{ctype: "text/html", body: `{"name":"x"}`})), Partial},
	{"ia.mcp-discovery", "card without a name", bare(jsonAt("/.well-known/mcp.json", `{"version":"1"}`)), Fail},
	{"ia.mcp-discovery", "MCP endpoint but no card", bare(replace("/mcp", fakeMCP("ok"))), Fail},
	{"ia.mcp-discovery", "no MCP at all", bare(), NotApplicable},
	{"ia.mcp-discovery", "MCP endpoint, card 500", bare(replace("/mcp", fakeMCP("ok")), serverError("/.well-known/mcp/server-card.json", "/.well-known/mcp.json", "/.well-known/mcp/server-cards.json")), CouldNotCheck},

	{"ia.mcp-server-card", "complete", bare(jsonAt("/.well-known/mcp/server-card.json", `{"name":"a/b","version":"1","description":"d","capabilities":{"tools":{}},"remotes":[{"type":"streamable-http","url":"/mcp","headers":[{"name":"Authorization"}]}]}`)), Pass},
	{"ia.mcp-server-card", "identity only", ready(), Partial},
	{"ia.mcp-server-card", "name and nothing else", bare(jsonAt("/.well-known/mcp.json", `{"serverInfo":{"name":"x"}}`)), Fail},
	{"ia.mcp-server-card", "no card", bare(), NotApplicable},

	{"ia.mcp-live", "initialize, tools/list, unknown method 404", bare(replace("/mcp", strictMCP(true, false))), Pass},
	{"ia.mcp-live", "unknown method answered 200", bare(replace("/mcp", fakeMCP("ok"))), Partial},
	{"ia.mcp-live", "declared endpoint that does not speak MCP", bare(card(`{"interfaces":[{"type":"mcp","url":"/mcp"}]}`), replace("/mcp", fakeMCP("garbage"))), Fail},
	{"ia.mcp-live", "no MCP", bare(), NotApplicable},
	{"ia.mcp-live", "declared endpoint 500", bare(card(`{"interfaces":[{"type":"mcp","url":"/mcp"}]}`), serverError("/mcp")), CouldNotCheck},

	{"ia.mcp-apps", "a tool names a ui:// resource", bare(replace("/mcp", strictMCP(true, true))), Pass},
	{"ia.mcp-apps", "plain tools", bare(replace("/mcp", fakeMCP("ok"))), Fail},
	{"ia.mcp-apps", "no live MCP", bare(), NotApplicable},

	{"ia.openapi", "3.x", bare(withOpenAPI), Pass},
	{"ia.openapi", "Swagger 2.0", bare(jsonAt("/swagger.json", swagger2)), Partial},
	{"ia.openapi", "declared but 404", bare(card(`{"interfaces":[{"id":"rest","type":"openapi","url":"/api/openapi.json"}]}`)), Fail},
	{"ia.openapi", "MCP only, no OpenAPI", bare(replace("/mcp", fakeMCP("ok"))), Fail},
	{"ia.openapi", "content-only site", bare(), NotApplicable},
	{"ia.openapi", "candidate 500", bare(serverError("/openapi.json")), CouldNotCheck},

	{"ia.openapi-quality", "complete (description instead of summary)", bare(withOpenAPI), Pass},
	{"ia.openapi-quality", "some criteria", bare(jsonAt("/openapi.json", `{"openapi":"3.0.0","paths":{"/a":{"get":{"operationId":"a","responses":{"200":{"description":"x"}}}}}}`)), Partial},
	{"ia.openapi-quality", "no criteria met", bare(jsonAt("/openapi.json", `{"openapi":"3.0.0","paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query"}],"responses":{"302":{"description":"x"}}}}}}`)), Fail},
	{"ia.openapi-quality", "no OpenAPI", bare(), NotApplicable},

	{"ia.openapi-live", "documented status and type", bare(withOpenAPI, apiStatus("application/json", nil)), Pass},
	{"ia.openapi-live", "wrong media type", bare(withOpenAPI, apiStatus("text/html", nil)), Fail},
	{"ia.openapi-live", "404", bare(withOpenAPI), Fail},
	{"ia.openapi-live", "every GET needs auth", ready(), NotApplicable},
	{"ia.openapi-live", "no OpenAPI", bare(), NotApplicable},
	{"ia.openapi-live", "operation 500", bare(withOpenAPI, serverError("/api/status")), CouldNotCheck},

	{"ia.api-errors", "404 with a problem body", ready(), Pass},
	{"ia.api-errors", "404 without a JSON body", bare(withOpenAPI), Fail},
	{"ia.api-errors", "unknown path answers 200", bare(withOpenAPI, func(s *testSite) { s.fallback = &doc{ctype: "text/html", body: "<p>home</p>"} }), Fail},
	{"ia.api-errors", "no OpenAPI", bare(), NotApplicable},

	{"ia.api-rate-limits", "RateLimit headers", bare(withOpenAPI, apiStatus("application/json", http.Header{"Ratelimit": {"limit=60, remaining=59, reset=30"}, "Ratelimit-Policy": {"60;w=60"}})), Pass},
	{"ia.api-rate-limits", "X-RateLimit only", bare(withOpenAPI, apiStatus("application/json", http.Header{"X-Ratelimit-Limit": {"60"}})), Partial},
	{"ia.api-rate-limits", "none", bare(withOpenAPI, apiStatus("application/json", nil)), Fail},
	{"ia.api-rate-limits", "no API", bare(), NotApplicable},

	{"ia.api-catalog", "linkset", ready(), Pass},
	{"ia.api-catalog", "linkset served as application/json", bare(withOpenAPI, jsonAt("/.well-known/api-catalog", `{"linkset":[{"anchor":"/api","service-desc":[{"href":"/openapi.json"}]}]}`)), Partial},
	{"ia.api-catalog", "entry without a relation", bare(withOpenAPI, replace("/.well-known/api-catalog", &doc{ctype: "application/linkset+json", body: `{"linkset":[{"anchor":"/api"}]}`})), Fail},
	{"ia.api-catalog", "API but no catalog", bare(withOpenAPI), Fail},
	{"ia.api-catalog", "content-only site", bare(), NotApplicable},

	{"ia.ai-catalog", "well-known catalog", bare(jsonAt("/.well-known/ai-catalog.json", `{"specVersion":"1.0","entries":[{"mediaType":"application/json","url":"/openapi.json"},{"type":"text/plain","data":"hello"}]}`)), Pass},
	{"ia.ai-catalog", "Link relation", bare(htmlAt("/", `<link rel="ai-catalog" href="/cat.json"><p>x</p>`), jsonAt("/cat.json", `{"specVersion":"1.0","entries":[{"mediaType":"text/markdown","url":"/llms.txt"}]}`)), Pass},
	{"ia.ai-catalog", "no specVersion, foreign url", bare(jsonAt("/.well-known/ai-catalog.json", `{"entries":[{"mediaType":"application/json","url":"https://elsewhere.test/x"}]}`)), Fail},
	{"ia.ai-catalog", "API but no catalog", bare(withOpenAPI), Fail},
	{"ia.ai-catalog", "content-only site", bare(), NotApplicable},

	{"ia.agent-skills-index", "agent-skills index", ready(), Pass},
	{"ia.agent-skills-index", "skills/ fallback", bare(jsonAt("/.well-known/skills/index.json", `{"skills":[{"name":"a","type":"skill-md","description":"d","url":"/a.md","digest":"sha256:00"}]}`)), Pass},
	{"ia.agent-skills-index", "skill without a digest", bare(jsonAt("/.well-known/agent-skills/index.json", `{"skills":[{"name":"a","type":"skill-md","description":"d","url":"/a.md"}]}`)), Fail},
	{"ia.agent-skills-index", "none", bare(), Fail},

	{"ia.agents-json", "card", ready(), Pass},
	{"ia.agents-json", "served as text/plain", bare(replace("/.well-known/agents.json", &doc{ctype: "text/plain", body: `{"name":"x"}`})), Partial},
	{"ia.agents-json", "empty {}", bare(card(`{}`)), Fail},
	{"ia.agents-json", "none", bare(), Fail},
	{"ia.agents-json", "both 500", bare(serverError("/agents.json", "/.well-known/agents.json")), CouldNotCheck},

	{"ia.developer-docs-link", "home links /docs", bare(withOpenAPI, docsHome(longText)), Pass},
	{"ia.developer-docs-link", "Link rel=service-doc", bare(withOpenAPI, replace("/", &doc{ctype: "text/html", header: http.Header{"Link": {`</reference>; rel="service-doc"`}}, body: "<p>x</p>"})), Pass},
	{"ia.developer-docs-link", "API without docs link", bare(withOpenAPI), Fail},
	{"ia.developer-docs-link", "content-only site", bare(), NotApplicable},

	{"ia.docs-answer", "server-rendered docs with code", bare(withOpenAPI, docsHome(`<h1>Docs</h1>`+longText+`<pre><code class="language-sh">curl /api/status</code></pre>`)), Pass},
	{"ia.docs-answer", "one good page, one empty", bare(withOpenAPI, docsHome(`<h1>Docs</h1>`+longText+`<pre><code class="language-sh">x</code></pre>`), func(s *testSite) {
		htmlAt("/", `<a href="/docs">d</a><a href="/reference">r</a>`)(s)
		htmlAt("/reference", `<div id="app"></div>`)(s)
	}), Partial},
	{"ia.docs-answer", "JavaScript shell", bare(withOpenAPI, docsHome(`<div id="root"></div>`)), Fail},
	{"ia.docs-answer", "no docs link", bare(withOpenAPI), NotApplicable},
	{"ia.docs-answer", "docs 500", bare(withOpenAPI, docsHome(""), serverError("/docs")), CouldNotCheck},

	{"ia.sdk-cli", "install command in the docs", bare(withOpenAPI, docsHome(`<pre><code class="language-sh">npm install @acme/widgets</code></pre>`)), Pass},
	{"ia.sdk-cli", "cli interface in the card", bare(card(`{"interfaces":[{"type":"cli","name":"acme","install":"go install acme.test/cli@latest"},{"type":"openapi","url":"/openapi.json"}]}`), withOpenAPI), Pass},
	{"ia.sdk-cli", "API without SDK or CLI", bare(withOpenAPI), Fail},
	{"ia.sdk-cli", "content-only site", bare(), NotApplicable},

	{"ia.agent-task-access", "live MCP", ready(), Pass},
	{"ia.agent-task-access", "writing form and a CLI in llms.txt", bare(htmlAt("/", `<form method="post"><input name="x"></form>`), replace("/llms.txt", &doc{ctype: "text/plain", body: "# A\n\nInstall the CLI: `go install acme.test/cli@latest`\n"})), Pass},
	{"ia.agent-task-access", "a form that posts, no MCP or CLI", bare(htmlAt("/", `<form method="post" action="/order"><input name="x"></form>`)), Fail},
	{"ia.agent-task-access", "content-only site", bare(), NotApplicable},
	{"ia.agent-task-access", "declared MCP 500", bare(card(`{"interfaces":[{"type":"mcp","url":"/mcp"}]}`), serverError("/mcp")), CouldNotCheck},

	{"ia.nlweb-ask", "results with @type", ready(), Pass},
	{"ia.nlweb-ask", "result without @type", bare(jsonAt("/ask", `{"results":[{"name":"x"}]}`)), Fail},
	{"ia.nlweb-ask", "none", bare(), Fail},
	{"ia.nlweb-ask", "500", bare(serverError("/ask")), Fail},

	{"ia.x402", "402 with a v2 challenge", bare(productPage, replace("/api", &doc{status: 402, ctype: "application/json", header: http.Header{"Payment-Required": {x402(2)}}, body: "{}"})), Pass},
	{"ia.x402", "402 with a v1 challenge", bare(productPage, replace("/api", &doc{status: 402, ctype: "application/json", header: http.Header{"Payment-Required": {x402(1)}}, body: "{}"})), Fail},
	{"ia.x402", "commerce without 402", bare(productPage), Fail},
	{"ia.x402", "not commerce", bare(), NotApplicable},

	{"ia.mpp", "x-payment-info", bare(jsonAt("/openapi.json", `{"openapi":"3.0.0","paths":{"/buy":{"get":{"x-payment-info":{"price":"1.00","currency":"USD"},"responses":{"200":{"description":"x"}}}}}}`)), Pass},
	{"ia.mpp", "commerce API without it", bare(productPage, withOpenAPI), Fail},
	{"ia.mpp", "API, not commerce", bare(withOpenAPI), NotApplicable},
	{"ia.mpp", "no OpenAPI", bare(), NotApplicable},

	{"ia.ucp", "profile", bare(jsonAt("/.well-known/ucp", `{"version":"2026-01-11","capabilities":[{"name":"dev.ucp.shopping.checkout"}]}`)), Pass},
	{"ia.ucp", "no capabilities", bare(jsonAt("/.well-known/ucp", `{"version":"1"}`)), Fail},
	{"ia.ucp", "commerce without it", bare(productPage), Fail},
	{"ia.ucp", "not commerce", bare(), NotApplicable},
	{"ia.ucp", "commerce, 500", bare(productPage, serverError("/.well-known/ucp")), CouldNotCheck},

	{"ia.acp-manifest", "manifest", bare(jsonAt("/.well-known/acp.json", `{"flows":["checkout"],"capabilities":{"checkout_sessions":"/acp/checkout_sessions"}}`)), Pass},
	{"ia.acp-manifest", "no flows", bare(jsonAt("/.well-known/acp.json", `{"capabilities":{}}`)), Fail},
	{"ia.acp-manifest", "not commerce", bare(), NotApplicable},

	{"ia.ap2", "AP2 extension", bare(jsonAt("/.well-known/agent-card.json", `{"name":"a","supportedInterfaces":[{"url":"/a2a"}],"capabilities":{"extensions":[{"uri":"https://github.com/google-agentic-commerce/ap2/v1"}]}}`)), Pass},
	{"ia.ap2", "commerce card without it", bare(productPage, jsonAt("/.well-known/agent-card.json", `{"name":"a","supportedInterfaces":[{"url":"/a2a"}]}`)), Fail},
	{"ia.ap2", "card, not commerce", bare(jsonAt("/.well-known/agent-card.json", `{"name":"a","supportedInterfaces":[{"url":"/a2a"}]}`)), NotApplicable},
	{"ia.ap2", "no card", bare(), NotApplicable},

	{"ia.agent-checkout", "ACP checkout_sessions", bare(jsonAt("/.well-known/acp.json", `{"flows":["checkout"],"capabilities":{"checkout_sessions":"/acp/checkout_sessions"}}`)), Pass},
	{"ia.agent-checkout", "Stripe Link on the page", bare(htmlAt("/", `<script src="https://js.stripe.com/v3/"></script><p>Pay</p>`)), Pass},
	{"ia.agent-checkout", "commerce without markers", bare(productPage), Fail},
	{"ia.agent-checkout", "not commerce", bare(), NotApplicable},
}

// TestCheckpoints runs the checkpoint table, each case scanning only its
// checkpoint (Options.Only, as --check does).
func TestCheckpoints(t *testing.T) {
	for _, tc := range checkpointCases {
		t.Run(tc.id+"/"+tc.name, func(t *testing.T) {
			r := scanHandler(t, tc.site(t), Options{Only: tc.id})
			if len(r.Checkpoints) != 1 {
				t.Fatalf("%d checkpoints judged, want just %s", len(r.Checkpoints), tc.id)
			}
			c := r.Checkpoints[0]
			if c.Verdict != tc.verdict {
				t.Fatalf("%s = %s (%s), want %s\n%+v", tc.id, c.Verdict, c.Missing, tc.verdict, c.Receipt)
			}
			if c.Receipt.Expected == "" || c.Verify == "" || !strings.Contains(c.Verify, "curl") {
				t.Errorf("%s: receipt or verify command missing", tc.id)
			}
			if (c.Verdict == Fail || c.Verdict == Partial || c.Verdict == CouldNotCheck) && c.Missing == "" {
				t.Errorf("%s: %s without a reason", tc.id, c.Verdict)
			}
			if (c.Verdict == Fail || c.Verdict == Partial) && c.Fix == "" {
				t.Errorf("%s: %s without a fix", tc.id, c.Verdict)
			}
		})
	}
}

// TestCheckpointCoverage: all 28 checkpoints are implemented, and the
// table reaches a PASS and a non-PASS for each.
func TestCheckpointCoverage(t *testing.T) {
	if len(checkpoints) != 28 {
		t.Fatalf("%d checkpoints in the catalogue, want 28", len(checkpoints))
	}
	reached := map[string]map[Verdict]bool{}
	for _, tc := range checkpointCases {
		if reached[tc.id] == nil {
			reached[tc.id] = map[Verdict]bool{}
		}
		reached[tc.id][tc.verdict] = true
	}
	seen := map[string]bool{}
	for _, c := range checkpoints {
		if seen[c.ID] {
			t.Errorf("duplicate checkpoint id %s", c.ID)
		}
		seen[c.ID] = true
		if checkpointFuncs[c.ID] == nil {
			t.Errorf("%s not implemented", c.ID)
		}
		if c.Agrees != "" {
			checkInfo(c.Agrees) // panics on an unknown id
		}
		v := reached[c.ID]
		if !v[Pass] || len(v) < 2 {
			t.Errorf("%s: the table reaches %v; want a PASS and a non-PASS", c.ID, v)
		}
	}
}
