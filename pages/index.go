package pages

import (
	"time"

	"github.com/agentready/caddy-agentready/connect"
	"github.com/agentready/caddy-agentready/fleet"
	"github.com/agentready/caddy-agentready/manifest"
)

// ConnectOptions are the options of the built-in MCP endpoint and /ask of
// site, reached at origin: the YAML's connect section, the OAuth
// protection it asks for, the pages known under the public origin. What
// only the server knows (the client's address, the store, the fleet's
// shared limit) is the caller's to add.
func ConnectOptions(site *manifest.Site, origin string) connect.Options {
	c, public := site.Connect, PublicOrigin(site, origin)
	opts := connect.Options{
		Origin:            public,
		MCPPath:           c.MCPPath,
		AskPath:           c.AskPath,
		MaxPages:          c.MaxPages,
		MaxBytes:          c.MaxBytes,
		Refresh:           c.Refresh,
		RetryMin:          c.RetryMin,
		RequestsPerMinute: c.RateLimit,
		ServerName:        site.Info.Name,
	}
	if c.Auth != manifest.ConnectOAuth {
		return opts
	}
	a := site.Authentication
	scopes := map[string][]string{}
	for tool, scope := range c.ToolScopes {
		scopes[tool] = []string{scope}
	}
	opts.Auth = &connect.OAuth{
		Issuer:              a.AuthorizationServers[0],
		JWKSURL:             a.JWKSURI,
		Audience:            public + opts.MCPPath,
		ResourceMetadataURL: public + manifest.PathOAuthResource,
		Scopes:              scopes,
	}
	if opts.MCPPath == "" {
		opts.Auth.Audience = public + connect.DefaultMCPPath
	}
	return opts
}

// IndexStatus is what the admin endpoint shows about a site's content
// index.
type IndexStatus struct {
	Site        string    `json:"site"`
	State       string    `json:"state"`
	Pages       int       `json:"pages"`
	Bytes       int64     `json:"bytes"`
	IndexBytes  int64     `json:"index_bytes"`
	Refreshing  bool      `json:"refreshing"`
	LastSuccess time.Time `json:"last_success,omitzero"`
	LastAttempt time.Time `json:"last_attempt,omitzero"`
	LastError   string    `json:"last_error,omitempty"`
	Failures    int       `json:"failures"`
	NextAttempt time.Time `json:"next_attempt,omitzero"`
	// Warning says why the module's own requests may not reach the site,
	// and how to fix it (see siteaddr.Reach).
	Warning string `json:"warning,omitempty"`
	// Fleet is the state of the fleet this instance shares the index with.
	Fleet *fleet.Status `json:"fleet,omitempty"`
}

// StatusOf is the status of site's content index: its store's stats, the
// reach warning (nil: none) and the fleet (nil: none).
func StatusOf(site string, st connect.Stats, warning *string, f *fleet.Fleet) IndexStatus {
	is := IndexStatus{
		Site: site, State: st.State, Pages: st.Pages, Bytes: st.Bytes, IndexBytes: st.IndexBytes, Refreshing: st.Refreshing,
		LastSuccess: st.LastSuccess, LastAttempt: st.LastStart, LastError: st.LastError,
		Failures: st.Failures, NextAttempt: st.NextAttempt,
	}
	if warning != nil {
		is.Warning = *warning
	}
	if f != nil {
		fs := f.Status()
		is.Fleet = &fs
	}
	return is
}
