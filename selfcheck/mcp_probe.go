package selfcheck

import (
	"context"
	"net/http"

	"github.com/agentready/caddy-agentready/selfcheck/mcpprobe"
)

// probeMCP runs the mcp_transport probe (selfcheck/mcpprobe) against
// f.endpoint through the scanner's client and fills f. The probe sends only
// initialize, notifications/initialized and tools/list, and reads OAuth
// metadata; it never calls a tool.
func probeMCP(ctx context.Context, client *http.Client, f *mcpFindings) {
	res := mcpprobe.Probe(ctx, client, f.endpoint)
	f.details = res
	f.initialize, f.toolsList = res.Initialize, res.ToolsList
	f.negotiated = res.Protocol.Negotiated
	f.authMode = res.Auth.Mode
	f.oauthMeta, f.metadataURL, f.pkce = res.Auth.OAuthMetadata, res.Auth.MetadataURL, res.Auth.PKCE
	f.listed, f.readOnlyHint = res.Tools.ListedWithoutToken, res.Tools.WithReadOnlyHint
	f.errText = res.Err
	if len(res.Exchanges) > 0 {
		// RFC 9110 §15.6: a 5xx (or no answer) says nothing about the endpoint.
		if first := res.Exchanges[0]; first.Status == 0 || first.Status >= 500 {
			f.unreachable = true
		}
	} else if res.Err != "" {
		f.unreachable = true
	}
	for _, e := range res.Exchanges {
		// RFC 9110 §15.5.2: 401 means credentials are required.
		if e.Method != "" && (e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden) {
			f.needsToken = true
		}
	}
	if res.Auth.Mode == mcpprobe.AuthOAuth {
		f.needsToken = true
	}
}
