package mcpprobe

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/selfcheck/internal/golden"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestReceiptGolden pins whole receipts (the JSON a report embeds), with the
// test server's address replaced by http://mcp.test.
func TestReceiptGolden(t *testing.T) {
	tests := []struct {
		name  string
		serve func(t *testing.T) *httptest.Server
	}{
		{"open-json", func(t *testing.T) *httptest.Server {
			srv, _ := serveMCP(t, newServer(3, 2, nil), &mcp.StreamableHTTPOptions{JSONResponse: true, Stateless: true})
			return srv
		}},
		{"oauth", func(t *testing.T) *httptest.Server {
			return oauthSite(t, `Bearer resource_metadata="{{base}}/meta/prm.json"`,
				map[string]string{"/meta/prm.json": prmDoc, "/.well-known/oauth-authorization-server/auth": asDoc}, all)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := tt.serve(t)
			res := Probe(context.Background(), srv.Client(), srv.URL+"/mcp")
			b, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(string(b), srv.URL, "http://mcp.test") + "\n"
			golden.Check(t, filepath.Join("testdata", tt.name+".receipt.json"), []byte(got))
		})
	}
}
