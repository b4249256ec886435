package selfcheck

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// interfaceCheckpoints are the checkpoints that apply only when a backend
// interface exists: where R9 is NOT_APPLICABLE, so are they.
var interfaceCheckpoints = []string{"ia.a2a-agent-card", "ia.mcp-server-card", "ia.mcp-live", "ia.mcp-apps", "ia.openapi", "ia.openapi-quality",
	"ia.openapi-live", "ia.api-errors", "ia.api-rate-limits", "ia.api-catalog", "ia.developer-docs-link", "ia.docs-answer", "ia.sdk-cli"}

// TestLensesAgree scans sites of every kind and holds the lenses together
// where they judge the same fact: a checkpoint's Agrees check, and R9's
// applicability.
func TestLensesAgree(t *testing.T) {
	sites := map[string]func(t testing.TB) http.Handler{
		"agent-ready":       ready(),
		"bare":              bare(),
		"OpenAPI only":      bare(withOpenAPI, apiStatus("application/json", nil)),
		"MCP only":          bare(replace("/mcp", fakeMCP("ok"))),
		"declared, missing": bare(card(`{"interfaces":[{"type":"openapi","url":"/api/openapi.json"}],"authentication":{}}`)),
		"forms":             bare(htmlAt("/", `<form tool-name="x"><input name="q"></form><form><input name="r"></form>`)),
	}
	for name, site := range sites {
		t.Run(name, func(t *testing.T) {
			r := scanHandler(t, site(t), Options{})
			for _, cpr := range r.Checkpoints {
				if cpr.Agrees == "" {
					continue
				}
				c := r.checkByID(cpr.Agrees)
				if !agree(*c, cpr) {
					t.Errorf("%s is %s (found %v) but %s is %s (%s)", c.ID, c.Verdict, foundOf(*c), cpr.ID, cpr.Verdict, cpr.Missing)
				}
			}
			if r9 := r.checkByID("backend_interface_declared"); r9.Verdict == NotApplicable {
				for _, id := range interfaceCheckpoints {
					if v := r.checkpointByID(id).Verdict; v != NotApplicable {
						t.Errorf("R9 is NOT_APPLICABLE but %s is %s", id, v)
					}
				}
				for _, id := range []string{"mcp_transport", "access_documented", "signin_discovery", "openapi_quality"} {
					if v := r.checkByID(id).Verdict; v != NotApplicable {
						t.Errorf("R9 is NOT_APPLICABLE but %s is %s", id, v)
					}
				}
			}
		})
	}
}

// foundOf reads an optional check's found flag.
func foundOf(c CheckResult) any {
	if c.Found == nil {
		return nil
	}
	return *c.Found
}

// agree reports whether a scored check and the checkpoint judging the
// same fact tell the same story.
func agree(c CheckResult, cpr CheckpointResult) bool {
	in := func(vs ...Verdict) bool { return slices.Contains(vs, cpr.Verdict) }
	if c.Verdict == CouldNotCheck {
		return in(CouldNotCheck, NotApplicable, Fail)
	}
	if c.Verdict == Optional {
		if c.Found != nil && !*c.Found {
			return in(Fail, NotApplicable, CouldNotCheck)
		}
		return true // found: the checkpoint judges its content
	}
	switch c.Verdict {
	case Pass:
		return in(Pass, Partial)
	case Partial:
		return in(Partial, Pass, Fail)
	case Fail:
		return in(Fail, Partial)
	case NotApplicable:
		return in(NotApplicable, Pass)
	}
	return false
}

// llms serves an llms.txt.
func llms(body string) func(s *testSite) {
	return replace("/llms.txt", &doc{ctype: "text/plain; charset=utf-8", body: body})
}

// postForm is a home page whose form writes.
var postForm = htmlAt("/", `<h1>Order</h1><form id="order" method="post" action="/order"><label>Qty <input name="qty"></label></form>`)

// lintCase is one row of the lint table.
type lintCase struct {
	id, name string
	site     func(t testing.TB) http.Handler
	verdict  Verdict
}

// lintCases reach PASS, FAIL and (where the rule can be) NOT_APPLICABLE for
// each of the 20 rules: positive and negative fixtures as data.
var lintCases = []lintCase{
	{"get_action_fallback_required", "form page listed in llms.txt", bare(postForm, llms("# A\n\n- [Order](/)\n")), Pass},
	{"get_action_fallback_required", "POST-only form nobody names", bare(postForm), Fail},
	{"get_action_fallback_required", "no writing form", bare(), NotApplicable},
	{"get_action_idempotency_required", "nonce present", bare(llms("# A\n\nOrder: https://a.test/order/create?item=1&idempotency_key=UUID\n")), Pass},
	{"get_action_idempotency_required", "no key", bare(llms("# A\n\nOrder: https://a.test/order/create?item=1\n")), Fail},
	{"get_action_idempotency_required", "no GET action", bare(llms("# A\n\nRead the pages.\n")), NotApplicable},
	{"get_action_query_secret", "clean URLs", bare(llms("# A\n\nSee https://a.test/search?q=widgets\n")), Pass},
	{"get_action_query_secret", "token in a URL", bare(llms("# A\n\nUse https://a.test/api/items?api_key=abc123 to list.\n")), Fail},
	{"get_action_query_secret", "patient id in the card", bare(card(`{"docs":"https://a.test/records?patient_id=42"}`)), Fail},
	{"get_action_query_secret", "no URL", bare(llms("# A\n\nRead the pages.\n")), NotApplicable},
	{"get_action_js_only_discovery", "server-rendered", bare(), Pass},
	{"get_action_js_only_discovery", "app shell, nothing else", bare(htmlAt("/", `<div id="root"></div><script src="/app.js"></script>`)), Fail},
	{"get_action_js_only_discovery", "app shell with llms.txt", bare(htmlAt("/", `<div id="root"></div>`), llms("# A\n\nRead /docs.\n")), Pass},
	{"llms_minimal_instruction_required", "instructions", ready(), Pass},
	{"llms_minimal_instruction_required", "links to specs only", bare(llms("# A\n\n- [OpenAPI](/openapi.json)\n- [Tools](/tools.json)\n")), Fail},
	{"llms_minimal_instruction_required", "no llms.txt", bare(), NotApplicable},
	{"retry_loop_no_op_violation", "calm guidance", ready(), Pass},
	{"retry_loop_no_op_violation", "keep retrying", bare(llms("# A\n\nIf the API fails, keep retrying until it answers.\n")), Fail},
	{"retry_loop_no_op_violation", "guess the endpoint", bare(card(`{"note":"Otherwise guess the endpoint from the page name."}`)), Fail},
	{"retry_loop_no_op_violation", "no guidance", bare(), NotApplicable},

	{"post_equivalent_recommended", "OpenAPI has the POST", bare(llms("# A\n\nhttps://a.test/order/create?item=1\n"), jsonAt("/openapi.json", `{"openapi":"3.0.0","paths":{"/order":{"post":{"responses":{"201":{"description":"x"}}}}}}`)), Pass},
	{"post_equivalent_recommended", "GET action only", bare(llms("# A\n\nhttps://a.test/order/create?item=1\n")), Fail},
	{"post_equivalent_recommended", "no GET action", bare(), NotApplicable},
	{"get_action_security_order_warning", "limits first", bare(llms("# A\n\nNever order without the user's consent.\n\nExample: curl https://a.test/x\n")), Pass},
	{"get_action_security_order_warning", "example first", bare(llms("# A\n\nExample: curl https://a.test/x\n\nNever order without consent.\n")), Fail},
	{"get_action_security_order_warning", "no example", bare(llms("# A\n\nRead the pages.\n")), NotApplicable},
	{"side_effecting_get_discovery_warning", "a delete link in llms.txt", bare(llms("# A\n\n- [Remove](https://a.test/item/delete?id=1)\n")), Fail},
	{"side_effecting_get_discovery_warning", "read-only links", bare(llms("# A\n\n- [Docs](https://a.test/docs?lang=en)\n")), NotApplicable},
	{"side_effecting_get_discovery_warning", "read-only links, agent-ready site", ready(), NotApplicable},
	{"browser_form_fallback_required", "POST with a visible form", bare(postForm, llms("# A\n\nPOST /order with qty.\n")), Pass},
	{"browser_form_fallback_required", "POST with nothing to open", bare(llms("# A\n\nPOST JSON to /api/order with qty.\n")), Fail},
	{"browser_form_fallback_required", "no POST", bare(), NotApplicable},
	{"restore_readback_required", "read-back named", bare(llms("# A\n\nCreate a widget with POST /api/widgets; read back at GET /api/widgets/{id}.\n")), Pass},
	{"restore_readback_required", "create without read-back", bare(llms("# A\n\nCreate a widget with POST /api/widgets.\n")), Fail},
	{"restore_readback_required", "no create", bare(llms("# A\n\nRead the pages.\n")), NotApplicable},
	{"dashboard_default_path_warning", "dashboard as the default", bare(llms("# A\n\nGo to the dashboard to configure agents.\n")), Fail},
	{"dashboard_default_path_warning", "no dashboard", ready(), NotApplicable},
	{"dashboard_default_path_warning", "dashboard, but nothing generated", bare(htmlAt("/", `<p>Go to the dashboard.</p>`)), NotApplicable},
	{"highest_lowest_path_required", "both named", bare(card(`{"interfaces":[{"type":"mcp","url":"/mcp","highestSupportedPath":"/mcp","lowestSafeFallback":"/llms.txt"}]}`)), Pass},
	{"highest_lowest_path_required", "omitted", bare(card(`{"interfaces":[{"type":"mcp","url":"/mcp"}]}`)), Fail},
	{"highest_lowest_path_required", "no routes", bare(card(`{"interfaces":[]}`)), NotApplicable},
	{"post_blocked_fallback_required", "fallback stated", bare(llms("# A\n\nPOST /api/order. If you cannot send JSON POST, open /order in a browser.\n")), Pass},
	{"post_blocked_fallback_required", "no fallback", bare(llms("# A\n\nPOST /api/order.\n")), Fail},
	{"post_blocked_fallback_required", "no POST", bare(), NotApplicable},
	{"live_get_blocked_fallback_required", "index-only fallback", bare(llms("# A\n\nRequest any page with Accept: text/markdown. If you cannot make live requests, read the pages below from your index.\n")), Pass},
	{"live_get_blocked_fallback_required", "live GET only", bare(llms("# A\n\nRequest any page with Accept: text/markdown.\n")), Fail},
	{"live_get_blocked_fallback_required", "no live GET", bare(llms("# A\n\n- [Docs](/docs)\n")), NotApplicable},
	{"mcp_unavailable_fallback_required", "fallback", bare(llms("# A\n\nUse the MCP endpoint at /mcp. If MCP is unavailable, read the pages below.\n")), Pass},
	{"mcp_unavailable_fallback_required", "MCP, no fallback", bare(llms("# A\n\nUse the MCP endpoint at /mcp.\n")), Fail},
	{"mcp_unavailable_fallback_required", "no MCP", bare(), NotApplicable},
	{"auth_unavailable_fallback_required", "public review URL", bare(card(`{"authentication":{"type":"oauth2"},"contact":{"human":"mailto:a@a.test"}}`)), Pass},
	{"auth_unavailable_fallback_required", "token, no fallback", bare(card(`{"authentication":{"type":"oauth2"}}`)), Fail},
	{"auth_unavailable_fallback_required", "all public", bare(), NotApplicable},
	{"tool_unavailable_fallback_required", "fallback", bare(llms("# A\n\nThe search tool finds pages. If a tool is unavailable, open /search instead.\n")), Pass},
	{"tool_unavailable_fallback_required", "page tools, no fallback", ready(), Fail},
	{"tool_unavailable_fallback_required", "no tools", bare(), NotApplicable},
	{"human_review_url_required", "contact in the card", bare(postForm, card(`{"contact":{"human":"mailto:a@a.test"}}`)), Pass},
	{"human_review_url_required", "forms, no contact", bare(postForm), Fail},
	{"human_review_url_required", "nothing can block", bare(), NotApplicable},
	{"no_op_behavior_required", "stop safely", bare(llms("# A\n\nIf something is not supported, stop and do nothing.\n")), Pass},
	{"no_op_behavior_required", "silent", bare(llms("# A\n\nRead the pages.\n")), Fail},
	{"no_op_behavior_required", "no guidance", bare(), NotApplicable},
}

// TestLintRules runs the lint table, each case judging only its rule.
func TestLintRules(t *testing.T) {
	for _, tc := range lintCases {
		t.Run(tc.id+"/"+tc.name, func(t *testing.T) {
			r := scanHandler(t, tc.site(t), Options{Only: tc.id})
			if r.Lint == nil || len(r.Lint.Rules) != 1 {
				t.Fatalf("lint report %+v, want just %s", r.Lint, tc.id)
			}
			got := r.Lint.Rules[0]
			if got.Verdict != tc.verdict {
				t.Fatalf("%s = %s, want %s\n%+v", tc.id, got.Verdict, tc.verdict, got)
			}
			if got.Verdict == Fail {
				if len(got.Findings) == 0 || got.Fix == "" {
					t.Fatalf("%s: FAIL without a finding or a fix", tc.id)
				}
				for _, f := range got.Findings {
					if f.Document == "" || (f.Line == 0 && f.Field == "" && f.Message == "") {
						t.Errorf("%s: finding names no document, line or field: %+v", tc.id, f)
					}
				}
			}
		})
	}
}

// TestLintCoverage: 20 rules (6 failures, 14 warnings), all implemented,
// each reaching PASS and FAIL in the table.
func TestLintCoverage(t *testing.T) {
	kinds := map[LintKind]int{}
	reached := map[string]map[Verdict]bool{}
	for _, tc := range lintCases {
		if reached[tc.id] == nil {
			reached[tc.id] = map[Verdict]bool{}
		}
		reached[tc.id][tc.verdict] = true
	}
	for _, r := range lintRules {
		kinds[r.Kind]++
		if lintFuncs[r.ID] == nil {
			t.Errorf("%s not implemented", r.ID)
		}
		if v := reached[r.ID]; !v[Fail] || (!v[Pass] && r.ID != "side_effecting_get_discovery_warning" && r.ID != "dashboard_default_path_warning") {
			t.Errorf("%s: the table reaches %v", r.ID, v)
		}
	}
	if kinds[LintFailure] != 6 || kinds[LintWarning] != 14 {
		t.Errorf("kinds %v, want 6 failures and 14 warnings", kinds)
	}
}

// TestLintAgreesWithLLMSTxt: the rule the 100-point llms_txt check uses
// gives the same answer in both lenses.
func TestLintAgreesWithLLMSTxt(t *testing.T) {
	for _, site := range []func(t testing.TB) http.Handler{ready(), bare(llms("# A\n\n- [OpenAPI](/openapi.json)\n"))} {
		r := scanHandler(t, site(t), Options{})
		lint := r.Lint.lintByID("llms_minimal_instruction_required")
		c := r.checkByID("llms_txt")
		if (lint.Verdict == Fail) != (c.Verdict != Pass && containsText(c.Missing, "instruction")) {
			t.Errorf("lint %s vs llms_txt %s (%s)", lint.Verdict, c.Verdict, c.Missing)
		}
	}
}

// containsText is strings.Contains, case-insensitive.
func containsText(s, sub string) bool {
	return len(s) >= len(sub) && (func() bool {
		for i := 0; i+len(sub) <= len(s); i++ {
			if equalFoldASCII(s[i:i+len(sub)], sub) {
				return true
			}
		}
		return false
	})()
}

// equalFoldASCII compares ASCII case-insensitively.
func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y {
			return false
		}
	}
	return true
}

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
