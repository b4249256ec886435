package pages

import (
	"slices"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/connect"
)

// TestConnectOptions: the endpoint's options name the public origin, and
// with OAuth the audience is the MCP endpoint there (the default path when
// none is set) and each tool's scope is its own list.
func TestConnectOptions(t *testing.T) {
	const oauth = "authentication: {type: oauth, authorization_servers: [\"https://as.example\"], jwks_uri: \"https://as.example/jwks\", scopes: [read]}\n"
	for _, tc := range []struct {
		name, yaml, origin string
		wantOrigin         string
		wantAudience       string // "" for no OAuth
	}{
		{"public", "  origin: https://www.site.example/\nconnect:\n  enabled: true\n", "http://127.0.0.1:8080", "https://www.site.example", ""},
		{"reached at", "connect:\n  enabled: true\n", "http://127.0.0.1:8080/", "http://127.0.0.1:8080", ""},
		{"oauth, default path", oauth + "connect:\n  enabled: true\n  auth: oauth\n  tool_scopes:\n    get_page: read\n",
			"https://site.example", "https://site.example", "https://site.example" + connect.DefaultMCPPath},
		{"oauth, own path", oauth + "connect:\n  enabled: true\n  auth: oauth\n  mcp_path: /agents/mcp\n",
			"https://site.example", "https://site.example", "https://site.example/agents/mcp"},
	} {
		opts := ConnectOptions(parseSite(t, tc.yaml), tc.origin)
		if opts.Origin != tc.wantOrigin || opts.ServerName != "Site" {
			t.Errorf("%s: origin %q, name %q", tc.name, opts.Origin, opts.ServerName)
		}
		switch {
		case tc.wantAudience == "" && opts.Auth != nil:
			t.Errorf("%s: OAuth %+v, want none", tc.name, opts.Auth)
		case tc.wantAudience != "" && (opts.Auth == nil || opts.Auth.Audience != tc.wantAudience || opts.Auth.Issuer != "https://as.example"):
			t.Errorf("%s: OAuth %+v, want audience %q", tc.name, opts.Auth, tc.wantAudience)
		case tc.name == "oauth, default path" && !slices.Equal(opts.Auth.Scopes["get_page"], []string{"read"}):
			t.Errorf("%s: scopes %v", tc.name, opts.Auth.Scopes)
		}
	}
}

// TestStatusOf: the admin status carries the store's stats and the reach
// warning.
func TestStatusOf(t *testing.T) {
	at := time.Unix(100, 0)
	w := "the site block does not answer"
	got := StatusOf("http://a", connect.Stats{State: "ok", Pages: 3, LastStart: at, Failures: 1}, &w, nil)
	if got.Site != "http://a" || got.State != "ok" || got.Pages != 3 || !got.LastAttempt.Equal(at) || got.Failures != 1 || got.Warning != w || got.Fleet != nil {
		t.Errorf("status %+v", got)
	}
	if got := StatusOf("http://a", connect.Stats{}, nil, nil); got.Warning != "" {
		t.Errorf("warning %q without one", got.Warning)
	}
}
