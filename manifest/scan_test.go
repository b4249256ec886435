package manifest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/agentready/caddy-agentready/selfcheck"
)

// serveBundle answers with the bundle as the module would: documents from
// memory, robots.txt merged with the origin's, the sitemap because this
// origin has none, and a home page carrying the head injections.
func serveBundle(t *testing.T, b **Bundle) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bundle := *b
		if d := bundle.Document(r.URL.Path); d != nil {
			w.Header().Set("Content-Type", d.ContentType)
			w.Header().Set("Cache-Control", d.CacheControl)
			_, _ = w.Write(d.Body)
			return
		}
		switch r.URL.Path {
		case PathRobots:
			merged, _, err := bundle.MergeRobots([]byte(demoRobots))
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write(merged)
		case PathSitemap:
			w.Header().Set("Content-Type", bundle.Sitemap.ContentType)
			_, _ = w.Write(bundle.Sitemap.Body)
		case "/":
			in := bundle.Inject
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(`<!doctype html><html lang="` + in.Lang + `"><head><title>Home</title>` +
				`<link rel="canonical" href="` + in.Origin + `/">` + in.JSONLD + in.ARDLink +
				`</head><body><main><h1>Home</h1><p>Welcome.</p></main></body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestScannerAcceptsGeneratedDocuments runs the project's own scanner over
// the generated documents: every discovery and trust check the manifest is
// responsible for passes, and the optional documents are found.
func TestScannerAcceptsGeneratedDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("scans over loopback HTTP")
	}
	full := fullForTestServer(t)
	for _, tc := range []struct {
		name, file string
		data       []byte
		pass       []string
		found      []string
	}{
		{name: "site", file: "../examples/site.yaml",
			pass:  []string{"sitemap", "llms_txt", "capability_manifest", "crawler_policy", "human_handoff", "access_policy_declared", "security_contact", "access_documented"},
			found: []string{"ard_manifest", "mcp_server_card", "api_catalog", "content_signals"}},
		{name: "full", file: "testdata/full.yaml", data: full,
			pass:  []string{"sitemap", "llms_txt", "capability_manifest", "crawler_policy", "human_handoff", "access_policy_declared", "security_contact", "access_documented"},
			found: []string{"ard_manifest", "mcp_server_card", "api_catalog", "content_signals", "agent_skills_index", "a2a_agent_card"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.data
			if data == nil {
				var err error
				if data, err = os.ReadFile(tc.file); err != nil {
					t.Fatal(err)
				}
			}
			rep := scanGenerated(t, data, tc.file, "")
			byID := map[string]selfcheck.CheckResult{}
			for _, c := range rep.Checks {
				byID[c.ID] = c
			}
			for _, id := range tc.pass {
				if c := byID[id]; c.Verdict != selfcheck.Pass {
					t.Errorf("%s: %s (%s) note: %s", id, c.Verdict, c.Missing, c.Receipt.Note)
				}
			}
			for _, id := range tc.found {
				if c := byID[id]; c.Found == nil || !*c.Found {
					t.Errorf("%s not found: %s", id, c.Receipt.Note)
				}
			}
		})
	}
}
