package caddymodule

import (
	"context"
	"net/http"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	zapobserver "go.uber.org/zap/zaptest/observer"

	"github.com/agentready/caddy-agentready/manifest"
)

// TestCheckDeclared: a declared OpenAPI document and a docs page that answer
// 404 are each a warning naming the YAML field and its line; what answers
// (directly or after a redirect on the site), an endpoint that refuses GET,
// and URLs on other sites are not.
func TestCheckDeclared(t *testing.T) {
	site, err := manifest.Parse([]byte(`site:
  name: Shop
  origin: https://shop.example
  pages: [/about]
interfaces:
  - id: api
    type: openapi
    url: /api/openapi.json
    docs: /docs/api
  - id: mcp
    type: mcp
    url: /mcp
  - id: other
    type: openapi
    url: https://elsewhere.example/openapi.json
llms:
  sections:
    - title: Guides
      links:
        - {title: Old, url: /old}
`), "site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		switch r.URL.Path {
		case "/about", "/new":
			w.Write([]byte("ok"))
		case "/old":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		case "/mcp":
			w.WriteHeader(http.StatusMethodNotAllowed)
		default:
			http.NotFound(w, r)
		}
	})
	core, logs := zapobserver.New(zapcore.DebugLevel)
	ar := &AgentReady{site: site, logger: zap.New(core)}
	if n := ar.checkDeclared(context.Background(), srv, "http://127.0.0.1:9"); n != 2 {
		t.Errorf("missing = %d, want 2", n)
	}
	warned := map[string]int{}
	for _, e := range logs.FilterLevelExact(zapcore.WarnLevel).All() {
		f := e.ContextMap()
		warned[f["field"].(string)] = int(f["line"].(int64))
		if f["status"].(int64) != 404 {
			t.Errorf("%v: status %v", f["field"], f["status"])
		}
	}
	want := map[string]int{"interfaces[0].url": 8, "interfaces[0].docs": 9}
	if len(warned) != len(want) || warned["interfaces[0].url"] != 8 || warned["interfaces[0].docs"] != 9 {
		t.Errorf("warnings (field: line) = %v, want %v", warned, want)
	}
	for _, p := range asked {
		if p == "/openapi.json" {
			t.Errorf("a URL on another site was asked for in process")
		}
	}
}
