package mcpprobe

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Unreachable reports that the probe got no usable answer: the first
// exchange got no response or a 5xx (RFC 9110 §15.6: a server error says
// nothing about the endpoint), or the probe failed before any exchange.
func (r Result) Unreachable() bool {
	if len(r.Exchanges) > 0 {
		first := r.Exchanges[0]
		return first.Status == 0 || first.Status >= 500
	}
	return r.Err != ""
}

// NeedsToken reports that the endpoint asked for credentials: a JSON-RPC
// exchange answered 401 or 403 (RFC 9110 §15.5.2), or it announced OAuth.
func (r Result) NeedsToken() bool {
	for _, e := range r.Exchanges {
		if e.Method != "" && (e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden) {
			return true
		}
	}
	return r.Auth.Mode == AuthOAuth
}

// Summary renders the findings in the lines of STANDARD.md §4: a count
// nobody could take reads null, never zero.
func (r Result) Summary() string {
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

// orNone prints an empty value as "none".
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
