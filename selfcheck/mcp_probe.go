package selfcheck

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentready/caddy-agentready/selfcheck/mcpprobe"
)

// probeMCP runs the mcp_transport probe (selfcheck/mcpprobe) against
// f.endpoint through the scanner's client and fills f. The probe sends only
// initialize, notifications/initialized and tools/list, and reads OAuth
// metadata; it never calls a tool.
func probeMCP(ctx context.Context, client *http.Client, f *mcpFindings) {
	res := mcpprobe.Probe(ctx, client, f.endpoint)
	f.details = res
	f.summary = mcpSummary(res)
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

// mcpSummary renders the probe's findings in the lines of STANDARD.md §4:
// a verified count reads null, never zero, when nobody signed in.
func mcpSummary(r mcpprobe.Result) string {
	count := func(p *int) string {
		if p == nil {
			return "null"
		}
		return strconv.Itoa(*p)
	}
	return fmt.Sprintf("endpoint: %s\ntransport: %s\nprotocol: {offered: %s, returned: %s, negotiated: %s}\ninitialize: %t\ntoolsList: %t\n"+
		"auth: {mode: %s, oauthMetadata: %t, metadataUrl: %s, pkce: [%s], dynamicRegistration: %t}\n"+
		"tools: {listedWithoutToken: %s, authenticated: %s, withReadOnlyHint: %s, executionTested: %t}",
		r.Endpoint, orNone(r.Transport), r.Protocol.Offered, orNone(r.Protocol.Returned), orNone(r.Protocol.Negotiated), r.Initialize, r.ToolsList,
		r.Auth.Mode, r.Auth.OAuthMetadata, orNone(r.Auth.MetadataURL), strings.Join(r.Auth.PKCE, ", "), r.Auth.DynamicRegistration,
		count(r.Tools.ListedWithoutToken), count(r.Tools.Authenticated), count(r.Tools.WithReadOnlyHint), r.Tools.ExecutionTested)
}
