package ard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDiscoverHTTP runs discovery and the audit end to end over loopback
// HTTP with HTTPFetcher.
func TestDiscoverHTTP(t *testing.T) {
	manifest := `{"entries":[{"identifier":"urn:air:example.com:tools:search","displayName":"Search",` +
		`"type":"application/mcp-server-card+json","url":"https://example.com/mcp.json",` +
		`"representativeQueries":["find pages","search the site"]}]}`
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/ard.json", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != "application/json" {
			t.Errorf("Accept = %q", r.Header.Get("Accept"))
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(manifest))
	})
	mux.HandleFunc("/huge.json", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(strings.Repeat(" ", 4096)))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	robots := "Agentmap: /huge.json\n"
	page := []byte(`<link rel="ard" href="/missing.json">`)
	d := Discover(context.Background(), HTTPFetcher(srv.Client(), 1024), srv.URL+"/", &robots, page, nil)
	if d.Source != SourceWellKnown || d.Status != 200 {
		t.Fatalf("discovery = %+v", d)
	}
	if len(d.FailedSources) != 2 || d.FailedSources[0].Status != 0 ||
		!strings.Contains(d.FailedSources[0].ErrorMessage, "exceeds 1024 bytes") || d.FailedSources[1].Status != 404 {
		t.Errorf("failedSources = %+v", d.FailedSources)
	}
	res := Audit(d)
	if res.Score != 0.9 || len(res.Rows) != 2 {
		t.Errorf("audit = %+v", res)
	}
	if res.Rows[0].Message != msgSourceFetchFailed {
		t.Errorf("row 0 = %+v", res.Rows[0])
	}
}

// TestDiscoverCancelled stops trying candidates once the context is done.
func TestDiscoverCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	fetch := func(ctx context.Context, _ string) Response {
		calls++
		cancel()
		return Response{Err: ctx.Err()}
	}
	robots := "Agentmap: /a.json"
	d := Discover(ctx, fetch, pageURL, &robots, nil, nil)
	if calls != 1 {
		t.Errorf("fetches = %d, want 1", calls)
	}
	if d.Source != SourceRobotsTxtAgentmap || d.Status != 0 || d.ErrorMessage == "" {
		t.Errorf("discovery = %+v", d)
	}
	if res := Audit(d); res.Score != 0 || res.NotApplicable {
		t.Errorf("audit = %+v", res)
	}
}

// TestDiscoverBadPageURL never fetches when no candidate resolves.
func TestDiscoverBadPageURL(t *testing.T) {
	fetch := func(context.Context, string) Response {
		t.Error("fetch called")
		return Response{}
	}
	d := Discover(context.Background(), fetch, "::", nil, nil, nil)
	if d.ErrorMessage == "" || d.CatalogURL != "" {
		t.Errorf("discovery = %+v", d)
	}
}
