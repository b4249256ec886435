package selfcheck

import (
	"strings"
	"testing"
)

// TestOptionalChecks: optional checks never score; they say found or not,
// and what was seen.
func TestOptionalChecks(t *testing.T) {
	cases := []struct {
		name  string
		site  func(t testing.TB) func(s *testSite)
		id    string
		found bool
		note  string
	}{
		{"a2a 1.0", nil, "a2a_agent_card", true, "A2A 1.0 card"},
		{"a2a 0.3", func(t testing.TB) func(s *testSite) {
			return replace("/.well-known/agent-card.json", &doc{ctype: "application/json", body: `{"name":"a","url":"https://a.test/a2a"}`})
		}, "a2a_agent_card", true, "0.3 card"},
		{"a2a missing", func(t testing.TB) func(s *testSite) { return without("/.well-known/agent-card.json") }, "a2a_agent_card", false, "not found (404)"},
		{"a2a empty object", func(t testing.TB) func(s *testSite) {
			return replace("/.well-known/agent-card.json", &doc{ctype: "application/json", body: `{}`})
		}, "a2a_agent_card", false, "empty {}"},
		{"server card valid", nil, "mcp_server_card", true, "valid v1 server card"},
		{"server card invalid name", func(t testing.TB) func(s *testSite) {
			return replace("/.well-known/mcp/server-card.json", &doc{ctype: "application/json", body: `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"no-slash","version":"1","description":"d"}`})
		}, "mcp_server_card", true, "invalid against the v1 schema"},
		{"server card plural form", func(t testing.TB) func(s *testSite) {
			return func(s *testSite) {
				s.set("/.well-known/mcp/server-card.json", nil)
				s.set("/.well-known/mcp/server-cards.json", &doc{ctype: "application/json", body: `[` + fixture(t, "server-card.json") + `]`})
			}
		}, "mcp_server_card", true, "valid v1 server card"},
		{"skills digest verified", nil, "agent_skills_index", true, "1 of 1 digest(s) verified"},
		{"skills digest mismatch", func(t testing.TB) func(s *testSite) { return editBody("/skills/search.md", "Search", "Find") }, "agent_skills_index", true, "does not match"},
		{"api catalog", nil, "api_catalog", true, "linkset with 1"},
		{"api catalog wrong type", func(t testing.TB) func(s *testSite) {
			return func(s *testSite) { s.edit("/.well-known/api-catalog", func(d *doc) { d.ctype = "application/json" }) }
		}, "api_catalog", true, "not application/linkset+json"},
		{"content signal", nil, "content_signals", true, "ai-train=no"},
		{"tokens", nil, "markdown_tokens", true, "x-markdown-tokens: 25; scanner's o200k_base count"},
		{"no tokens", func(t testing.TB) func(s *testSite) {
			return func(s *testSite) { s.edit("/", func(d *doc) { d.header.Del("X-Markdown-Tokens") }) }
		}, "markdown_tokens", false, "no x-markdown-tokens"},
		{"nlweb", nil, "nlweb_ask", true, "1 result"},
		{"nlweb html", func(t testing.TB) func(s *testSite) { return replace("/ask", htmlDoc("<html></html>")) }, "nlweb_ask", false, "does not answer JSON"},
		{"ard clean", nil, "ard_manifest", true, "audit score 1"},
		{"ard broken", func(t testing.TB) func(s *testSite) {
			return replace("/.well-known/ard.json", &doc{ctype: "application/json", body: `{"entries":[{"displayName":"x"}]}`})
		}, "ard_manifest", true, "audit score 0"},
		{"ard absent", func(t testing.TB) func(s *testSite) { return without("/.well-known/ard.json") }, "ard_manifest", false, "not applicable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := agentReadySite(t)
			if tc.site != nil {
				tc.site(t)(s)
			}
			r := scanHandler(t, s, Options{})
			c := r.checkByID(tc.id)
			if c.Verdict != Optional || c.Weight != 0 || c.Earned != 0 {
				t.Errorf("%s: verdict %s weight %v earned %v, want OPTIONAL and no points", tc.id, c.Verdict, c.Weight, c.Earned)
			}
			if c.Found == nil || *c.Found != tc.found {
				t.Errorf("%s found = %v, want %v (%s)", tc.id, c.Found, tc.found, c.Receipt.Note)
			}
			if !strings.Contains(c.Receipt.Note, tc.note) {
				t.Errorf("%s note %q does not mention %q", tc.id, c.Receipt.Note, tc.note)
			}
		})
	}
}

// TestOptionalNeverChangesTheScore: removing every optional document
// leaves the score untouched.
func TestOptionalNeverChangesTheScore(t *testing.T) {
	full := scanHandler(t, agentReadySite(t), Options{})
	s := agentReadySite(t)
	without("/.well-known/agent-card.json", "/.well-known/mcp/server-card.json", "/.well-known/agent-skills/index.json", "/.well-known/api-catalog", "/ask", "/.well-known/ard.json")(s)
	s.edit("/", func(d *doc) { d.header.Del("X-Markdown-Tokens") })
	stripped := scanHandler(t, s, Options{})
	if full.Score != stripped.Score || full.Applicable != stripped.Applicable {
		t.Errorf("score %v/%v with optional documents, %v/%v without", full.Score, full.Applicable, stripped.Score, stripped.Applicable)
	}
}
