package caddymodule

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/selfcheck"
)

// snippetOrigin is a small site with what the remaining fix snippets act
// on: a page with a labelled form (WebMCP annotation), no canonical link
// and no lang attribute (injection), a Last-Modified date (the front
// matter's updated comes from it, never invented), no MCP endpoint and no OpenAPI.
func snippetOrigin(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Last-Modified", "Tue, 01 Dec 2026 08:00:00 GMT")
		io.WriteString(w, `<!doctype html><html><head><title>Widgets</title>
<meta name="description" content="Widgets for every workshop."></head>
<body><main><h1>Widgets</h1><p>We make widgets for every workshop, in three sizes.</p>
<form action="/search" method="get"><label for="q">Search</label><input id="q" name="q" type="search"><button>Go</button></form>
</main></body></html>`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestFixSnippetsThroughCaddy completes manifest's
// TestFixSnippetsRescanToPass: the fix-first plan's snippets whose check
// needs a page the bundle test lacks (forms, injection into the origin's
// HTML) or a live server (connect) are applied to agent_ready in front of
// a real origin, and that one check is rescanned to PASS. The plan names a
// check only when it applies, so a check that is NOT_APPLICABLE without a
// backend (access_documented) is scanned with connect on beside its
// snippet.
func TestFixSnippetsThroughCaddy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Caddy once per snippet")
	}
	origin := snippetOrigin(t)
	snippets := selfcheck.FixSnippets()
	// The WebMCP snippet is built from the origin's own form: take it from
	// the plan of a scan of the bare origin, as a user would.
	bare, err := selfcheck.Scan(context.Background(), origin.URL, selfcheck.Options{Pages: -1, SameOriginOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range bare.Plan {
		if p.ID == "web_actions_declared" {
			for _, id := range []string{"web_actions_declared", "tool_form_quality", "surface_coverage"} {
				snippets[id] = p.SiteYAML
			}
		}
	}
	with := map[string]string{"access_documented": "connect:\n  enabled: true\n"}
	for _, id := range []string{
		"web_actions_declared", "tool_form_quality", "surface_coverage",
		"backend_interface_declared", "mcp_transport", "markdown_front_matter",
		"access_documented", "canonical_declared",
	} {
		t.Run(id, func(t *testing.T) {
			snippet, ok := snippets[id]
			if !ok {
				t.Fatalf("the plan has no site.yaml snippet for %s", id)
			}
			base := runWithYAML(t, origin.URL, snippet+with[id])
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			rep, err := selfcheck.Scan(ctx, base, selfcheck.Options{Pages: -1, SameOriginOnly: true, Only: id})
			if err != nil {
				t.Fatal(err)
			}
			if v := rep.VerdictOf(id); v != selfcheck.Pass {
				t.Errorf("%s after the snippet: %s\nsnippet:\n%s\n%s", id, v, snippet, rep.OneText(id))
			}
		})
	}
}

// TestIntegrationMarkdownOnPublicOrigin: with site.origin, the Markdown's
// canonical is on the public origin, as llms.txt and the injected
// canonical are, not on the address Caddy was reached at.
func TestIntegrationMarkdownOnPublicOrigin(t *testing.T) {
	base := runWithYAML(t, snippetOrigin(t).URL, "site:\n  origin: https://widgets.example\n")
	_, md := get(t, "GET", base+"/", "Accept", "text/markdown")
	if !strings.Contains(md, "canonical: https://widgets.example/\n") {
		t.Errorf("the Markdown's canonical is not on site.origin:\n%s", md)
	}
	_, llms := get(t, "GET", base+"/llms.txt")
	if strings.Contains(llms+md, "127.0.0.1") {
		t.Errorf("the in-process address leaks:\n%s\n%s", llms, md)
	}
}
