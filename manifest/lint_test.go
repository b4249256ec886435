package manifest

import (
	"context"
	"os"
	"regexp"
	"sort"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/selfcheck"
)

// scanGenerated generates the documents of a YAML configuration, serves
// them, and scans them (only the id given, or everything).
func scanGenerated(t *testing.T, data []byte, file, only string) *selfcheck.Report {
	t.Helper()
	s, err := Parse(data, file)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var b *Bundle
	srv := serveBundle(t, &b)
	if b, err = s.Generate(Env{Origin: srv.URL, MarkdownSuffix: "/md", Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rep, err := selfcheck.Scan(ctx, srv.URL, selfcheck.Options{Pages: -1, SameOriginOnly: true, Only: only})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// fullForTestServer is testdata/full.yaml without its fixed origin, so
// that it describes the test server that serves its bundle.
func fullForTestServer(t *testing.T) []byte {
	t.Helper()
	full, err := os.ReadFile("testdata/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	full = regexp.MustCompile(`(?m)^  origin: .*\n`).ReplaceAll(full, nil)
	return regexp.MustCompile(`"https://acme.example(/pricing)"`).ReplaceAll(full, []byte("$1"))
}

// TestGeneratedDocumentsPassLint: the llms.txt and agents.json the module
// writes pass every agent-compatibility rule (STANDARD.md §12) for the
// capabilities the YAML declares — no-op/stop instruction, human review
// URL, fallbacks when live GET, MCP, sign-in or a tool is unavailable, no
// secret in an example URL.
func TestGeneratedDocumentsPassLint(t *testing.T) {
	if testing.Short() {
		t.Skip("scans a served bundle")
	}
	full := fullForTestServer(t)
	site, err := os.ReadFile("../examples/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		data       []byte
	}{{"empty", "empty.yaml", []byte("")}, {"site", "../examples/site.yaml", site}, {"full", "testdata/full.yaml", full}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := scanGenerated(t, tc.data, tc.file, "")
			applied := 0
			for _, l := range rep.Lint.Rules {
				switch l.Verdict {
				case selfcheck.Fail, selfcheck.CouldNotCheck:
					t.Errorf("%s %s: %+v", l.ID, l.Verdict, l.Findings)
				case selfcheck.Pass:
					applied++
				}
			}
			if applied == 0 {
				t.Error("no rule applied at all")
			}
			t.Logf("%s: %d rules pass, level %s", tc.name, applied, rep.Lint.LevelName)
		})
	}
}

// TestFixSnippetsRescanToPass applies each site.yaml snippet of the
// fix-first plan to an empty configuration and rescans that one check to
// PASS. Snippets whose check needs a page or a server the test bundle does
// not have (WebMCP forms, the connect endpoints) must parse here, and are
// rescanned to PASS through a real Caddy in front of a real origin by
// caddymodule's TestFixSnippetsThroughCaddy.
func TestFixSnippetsRescanToPass(t *testing.T) {
	if testing.Short() {
		t.Skip("scans a served bundle")
	}
	needsMore := map[string]bool{
		"web_actions_declared": true, "tool_form_quality": true, "surface_coverage": true,
		"backend_interface_declared": true, "mcp_transport": true, "markdown_front_matter": true,
		"access_documented": true, "canonical_declared": true,
	}
	snippets := selfcheck.FixSnippets()
	ids := make([]string, 0, len(snippets))
	for id := range snippets {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			if needsMore[id] {
				if _, err := Parse([]byte(snippets[id]), id+".yaml"); err != nil {
					t.Fatalf("snippet does not parse: %v\n%s", err, snippets[id])
				}
				return
			}
			rep := scanGenerated(t, []byte(snippets[id]), id+".yaml", id)
			if v := rep.VerdictOf(id); v != selfcheck.Pass {
				t.Errorf("%s after the snippet: %s\n%s", id, v, rep.OneText(id))
			}
		})
	}
}

// TestPlaceholderMatchesScanner: the placeholder validation rejects is the
// one the scanner's fix snippet writes and tool_form_quality FAILs.
func TestPlaceholderMatchesScanner(t *testing.T) {
	if PlaceholderToolDescription != selfcheck.PlaceholderToolDescription {
		t.Errorf("manifest %q != selfcheck %q", PlaceholderToolDescription, selfcheck.PlaceholderToolDescription)
	}
}
