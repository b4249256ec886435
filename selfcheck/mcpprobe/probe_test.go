package mcpprobe

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestProbeSDKServer(t *testing.T) {
	tests := []struct {
		name        string
		serverOpts  *mcp.ServerOptions
		httpOpts    *mcp.StreamableHTTPOptions
		tools, ro   int
		contentType string
		session     bool
		version     string
		pages       int
	}{
		{"json response, session", nil, &mcp.StreamableHTTPOptions{JSONResponse: true}, 3, 2, "application/json", true, DefaultOfferedVersion, 1},
		{"sse response, session", nil, nil, 3, 1, "text/event-stream", true, DefaultOfferedVersion, 1},
		{"stateless", nil, &mcp.StreamableHTTPOptions{JSONResponse: true, Stateless: true}, 1, 0, "application/json", false, DefaultOfferedVersion, 1},
		{"paginated", &mcp.ServerOptions{PageSize: 2}, &mcp.StreamableHTTPOptions{JSONResponse: true}, 5, 3, "application/json", true, DefaultOfferedVersion, 3},
		{"pinned to 2025-03-26", &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-03-26"}}, nil, 2, 2, "text/event-stream", true, "2025-03-26", 1},
		{"no tools", nil, &mcp.StreamableHTTPOptions{JSONResponse: true}, 0, 0, "application/json", true, DefaultOfferedVersion, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := serveMCP(t, newServer(tt.tools, tt.ro, tt.serverOpts), tt.httpOpts)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res := Probe(ctx, srv.Client(), srv.URL+"/mcp")
			checkNeverCalled(t, rec)

			wantProto := Protocol{DefaultOfferedVersion, tt.version, tt.version}
			if res.Protocol != wantProto {
				t.Errorf("protocol = %+v, want %+v", res.Protocol, wantProto)
			}
			if !res.Initialize || res.Transport != TransportStreamableHTTP {
				t.Fatalf("initialize = %v, transport %q, err %q", res.Initialize, res.Transport, res.Err)
			}
			if res.ServerInfo != (ServerInfo{"probe-test", "1.2.3"}) {
				t.Errorf("serverInfo = %+v", res.ServerInfo)
			}
			if res.SessionAssigned != tt.session {
				t.Errorf("sessionAssigned = %v, want %v", res.SessionAssigned, tt.session)
			}
			if res.Exchanges[0].ContentType != tt.contentType {
				t.Errorf("initialize content type = %q, want %q", res.Exchanges[0].ContentType, tt.contentType)
			}
			if tt.tools == 0 {
				// The SDK declares no tools capability without tools.
				if res.ToolsList || !eqIntPtr(res.Tools.ListedWithoutToken, intp(0)) {
					t.Errorf("tools = %+v, toolsList %v", res.Tools, res.ToolsList)
				}
				return
			}
			if res.Err != "" {
				t.Errorf("err = %q", res.Err)
			}
			if !res.ToolsList || res.Pages != tt.pages {
				t.Errorf("toolsList = %v, pages = %d, want %d", res.ToolsList, res.Pages, tt.pages)
			}
			if !eqIntPtr(res.Tools.ListedWithoutToken, intp(tt.tools)) || !eqIntPtr(res.Tools.WithReadOnlyHint, intp(tt.ro)) ||
				res.Tools.Authenticated != nil || res.Tools.ExecutionTested {
				t.Errorf("tools = %+v", res.Tools)
			}
			if res.Auth.Mode != AuthNone {
				t.Errorf("auth mode = %q", res.Auth.Mode)
			}
			checkHeaders(t, rec.requests(), tt.version, tt.session)
		})
	}
}

// checkHeaders asserts what each request carried: Accept on every POST, no
// session or version header on initialize, the session after it, and the
// version header only for revisions that define it.
func checkHeaders(t *testing.T, reqs []seen, version string, session bool) {
	t.Helper()
	for i, r := range reqs {
		if r.httpMethod == "POST" && r.accept != "application/json, text/event-stream" {
			t.Errorf("request %d Accept = %q", i, r.accept)
		}
		if i == 0 {
			if r.rpcMethod != "initialize" || r.session != "" || r.protocolHeader != "" {
				t.Errorf("first request = %+v", r)
			}
			continue
		}
		if (r.session != "") != session {
			t.Errorf("request %d (%s %s) session sent = %v, want %v", i, r.httpMethod, r.rpcMethod, r.session != "", session)
		}
		wantHdr := version
		if version < "2025-06-18" {
			wantHdr = ""
		}
		if r.protocolHeader != wantHdr {
			t.Errorf("request %d MCP-Protocol-Version = %q, want %q", i, r.protocolHeader, wantHdr)
		}
	}
	last := reqs[len(reqs)-1]
	if session && last.httpMethod != "DELETE" {
		t.Errorf("last request = %+v, want the session DELETE", last)
	}
}

func TestProbePaginationCap(t *testing.T) {
	srv, _ := serveMCP(t, newServer(5, 0, &mcp.ServerOptions{PageSize: 2}), &mcp.StreamableHTTPOptions{JSONResponse: true})
	res := ProbeWith(context.Background(), srv.Client(), srv.URL+"/mcp", Options{MaxPages: 2})
	if res.Pages != 2 || !eqIntPtr(res.Tools.ListedWithoutToken, intp(4)) || !strings.Contains(res.Err, "more than 2 pages") {
		t.Errorf("pages = %d, tools = %+v, err = %q", res.Pages, res.Tools, res.Err)
	}
}
