package caddymodule

import (
	"testing"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/discover"
	"github.com/agentready/caddy-agentready/manifest"
)

// TestDefaultsAgree: the YAML's defaults for the content index and for
// discovery (package manifest, what a site owner reads in
// docs/configuration.md) are the ones the packages apply to a zero option
// (connect, discover), so that a default is one number whichever layer
// fills it.
func TestDefaultsAgree(t *testing.T) {
	s, err := manifest.Parse(nil, "empty.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, d := s.Connect, s.Discovery
	for _, tc := range []struct {
		name      string
		yaml, pkg any
	}{
		{"connect.mcp_path", c.MCPPath, connect.DefaultMCPPath},
		{"connect.ask_path", c.AskPath, connect.DefaultAskPath},
		{"connect.max_pages", c.MaxPages, connect.DefaultMaxPages},
		{"connect.max_bytes", c.MaxBytes, int64(connect.DefaultMaxBytes)},
		{"connect.refresh", c.Refresh, connect.DefaultRefresh},
		{"connect.retry_min", c.RetryMin, connect.DefaultRetryMin},
		{"connect.rate_limit", c.RateLimit, connect.DefaultRequestsPerMinute},
		{"discovery.max_pages", d.MaxPages, discover.DefaultMaxPages},
		{"discovery.max_depth", d.MaxDepth, discover.DefaultMaxDepth},
		{"discovery.max_bytes", d.MaxBytes, int64(discover.DefaultMaxBytes)},
		{"discovery.max_page_bytes", d.MaxPageBytes, int64(discover.DefaultMaxPageBytes)},
		{"discovery.concurrency", d.Concurrency, discover.DefaultConcurrency},
		{"discovery.timeout", d.Timeout, discover.DefaultTimeout},
	} {
		if tc.yaml != tc.pkg {
			t.Errorf("%s: the YAML's default is %v (%T), the package's %v (%T)", tc.name, tc.yaml, tc.yaml, tc.pkg, tc.pkg)
		}
	}
}
