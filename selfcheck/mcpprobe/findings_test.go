package mcpprobe

import (
	"strings"
	"testing"
)

func TestResultFindings(t *testing.T) {
	two := 2
	tests := []struct {
		name                   string
		res                    Result
		unreachable, needToken bool
		summaryHas             []string
	}{
		{name: "no exchange, no error", res: Result{Auth: Auth{Mode: AuthUnknown}},
			summaryHas: []string{"transport: none", "tools: {listedWithoutToken: null, authenticated: null"}},
		{name: "failed before any exchange", res: Result{Err: "endpoint is not an http(s) url"}, unreachable: true},
		{name: "no answer", res: Result{Exchanges: []Exchange{{Method: "initialize", Status: 0}}}, unreachable: true},
		{name: "server error first", res: Result{Exchanges: []Exchange{{Method: "initialize", Status: 503}}}, unreachable: true},
		{name: "server error later only", res: Result{Exchanges: []Exchange{{Method: "initialize", Status: 200}, {Method: "tools/list", Status: 500}}}},
		{name: "401 on initialize", res: Result{Exchanges: []Exchange{{Method: "initialize", Status: 401}}}, needToken: true},
		{name: "403 on tools/list", res: Result{Exchanges: []Exchange{{Method: "initialize", Status: 200}, {Method: "tools/list", Status: 403}}}, needToken: true},
		{name: "401 on a metadata fetch is not the endpoint's", res: Result{Exchanges: []Exchange{{Method: "initialize", Status: 200}, {Status: 401}}}},
		{name: "OAuth announced", res: Result{Auth: Auth{Mode: AuthOAuth, OAuthMetadata: true, PKCE: []string{"S256", "plain"}}, Exchanges: []Exchange{{Method: "initialize", Status: 200}}},
			needToken: true, summaryHas: []string{"auth: {mode: oauth, oauthMetadata: true, metadataUrl: none, pkce: [S256, plain]"}},
		{name: "open server", res: Result{Endpoint: "http://mcp.test/mcp", Transport: TransportStreamableHTTP, Initialize: true, ToolsList: true,
			Protocol: Protocol{Offered: "2025-11-25", Returned: "2025-06-18", Negotiated: "2025-06-18"}, Tools: Tools{ListedWithoutToken: &two},
			Exchanges: []Exchange{{Method: "initialize", Status: 200}}},
			summaryHas: []string{"endpoint: http://mcp.test/mcp\ntransport: streamable-http\n", "protocol: {offered: 2025-11-25, returned: 2025-06-18, negotiated: 2025-06-18}", "initialize: true\ntoolsList: true", "listedWithoutToken: 2,", "executionTested: false}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.res.Unreachable(); got != tt.unreachable {
				t.Errorf("Unreachable() = %v, want %v", got, tt.unreachable)
			}
			if got := tt.res.NeedsToken(); got != tt.needToken {
				t.Errorf("NeedsToken() = %v, want %v", got, tt.needToken)
			}
			sum := tt.res.Summary()
			if n := strings.Count(sum, "\n"); n != 6 {
				t.Errorf("summary has %d line breaks, want 6:\n%s", n, sum)
			}
			for _, want := range tt.summaryHas {
				if !strings.Contains(sum, want) {
					t.Errorf("summary lacks %q:\n%s", want, sum)
				}
			}
		})
	}
}
