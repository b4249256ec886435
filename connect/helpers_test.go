package connect

import (
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// newTestServer builds a Server over src (a fresh fake site when nil),
// indexes it once, and serves it on a loopback httptest server.
func newTestServer(t testing.TB, opts Options, src Source) (*Server, *httptest.Server) {
	t.Helper()
	s, ts := newUnindexedServer(t, opts, src)
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatalf("Refresh: %v", err)
	}
	return s, ts
}

// newUnindexedServer is newTestServer without the first refresh.
func newUnindexedServer(t testing.TB, opts Options, src Source) (*Server, *httptest.Server) {
	t.Helper()
	if src == nil {
		src = newFakeSource()
	}
	if opts.Origin == "" {
		opts.Origin = testOrigin
	}
	if opts.RequestsPerMinute == 0 {
		opts.RequestsPerMinute = -1
	}
	s, err := New(opts, src, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// connectClient opens an MCP client session to ts with the official SDK.
func connectClient(t testing.TB, ts *httptest.Server, client *http.Client) *mcp.ClientSession {
	t.Helper()
	if client == nil {
		client = ts.Client()
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "connect-test", Version: "1.0.0"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: ts.URL + DefaultMCPPath, HTTPClient: client, DisableStandaloneSSE: true, MaxRetries: -1,
	}, nil)
	if err != nil {
		t.Fatalf("connecting MCP client: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from golden file\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}
