package selfcheck

import (
	"net/http"
	"testing"
)

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
