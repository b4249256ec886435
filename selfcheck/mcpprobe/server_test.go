package mcpprobe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newServer builds a real MCP server with the official SDK: n tools, the
// first readOnly of them annotated readOnlyHint.
func newServer(n, readOnly int, opts *mcp.ServerOptions) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "probe-test", Version: "1.2.3"}, opts)
	for i := range n {
		t := &mcp.Tool{
			Name:        fmt.Sprintf("tool_%d", i),
			Description: "a test tool",
			InputSchema: map[string]any{"type": "object"},
		}
		if i < readOnly {
			t.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
		}
		s.AddTool(t, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			panic("the probe must never call a tool")
		})
	}
	return s
}

// seen is one request as the server saw it.
type seen struct {
	httpMethod, rpcMethod   string
	protocolHeader, session string
	accept                  string
}

// recorder wraps a handler and records every request.
type recorder struct {
	mu   sync.Mutex
	reqs []seen
	next http.Handler
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var m struct{ Method string }
	_ = json.Unmarshal(body, &m)
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, seen{r.Method, m.Method, r.Header.Get("MCP-Protocol-Version"),
		r.Header.Get("Mcp-Session-Id"), r.Header.Get("Accept")})
	rec.mu.Unlock()
	rec.next.ServeHTTP(w, r)
}

func (rec *recorder) requests() []seen {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]seen(nil), rec.reqs...)
}

// serveMCP serves an SDK server over Streamable HTTP on 127.0.0.1.
func serveMCP(t *testing.T, s *mcp.Server, opts *mcp.StreamableHTTPOptions) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts)}
	mux := http.NewServeMux()
	mux.Handle("/mcp", rec)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, rec
}

// checkNeverCalled fails when the probe sent anything but the allowed methods.
func checkNeverCalled(t *testing.T, rec *recorder) {
	t.Helper()
	for _, r := range rec.requests() {
		switch r.rpcMethod {
		// The read-only discovery requests; never tools/call.
		case "initialize", "notifications/initialized", "tools/list", "server/discover", "agentready/no-such-method", "":
		default:
			t.Errorf("probe sent %s %q", r.httpMethod, r.rpcMethod)
		}
	}
}

func intp(n int) *int { return &n }

func eqIntPtr(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
