package pages

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"testing"

	"github.com/agentready/caddy-agentready/internal/inproc"
)

// records keeps the warnings logged, each as its attributes.
type records struct {
	slog.Handler
	mu   *sync.Mutex
	warn *[]map[string]slog.Value
}

func (records) Enabled(context.Context, slog.Level) bool { return true }

func (r records) Handle(_ context.Context, rec slog.Record) error {
	if rec.Level != slog.LevelWarn {
		return nil
	}
	attrs := map[string]slog.Value{}
	rec.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value; return true })
	r.mu.Lock()
	*r.warn = append(*r.warn, attrs)
	r.mu.Unlock()
	return nil
}

// TestCheckDeclared: a declared OpenAPI document and a docs page that answer
// 404 are each a warning naming the YAML field and its line; what answers
// (directly or after a redirect on the site), an endpoint that refuses GET,
// and URLs on other sites are not.
func TestCheckDeclared(t *testing.T) {
	s := parseSite(t, `  origin: https://shop.example
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
`)
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
	var warned []map[string]slog.Value
	log := slog.New(records{Handler: slog.DiscardHandler, mu: new(sync.Mutex), warn: &warned})
	p, err := New(Config{Origin: "http://127.0.0.1:9", Transport: inproc.Transport{Handler: srv},
		Site: s, Docs: &fakeDocs{}, List: &List{}, Logger: log, Clock: &fakeClock{}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.CheckDeclaredAfter(context.Background(), 0)
	got := map[string]int64{}
	for _, w := range warned {
		got[w["field"].String()] = w["line"].Int64()
		if w["status"].Int64() != 404 {
			t.Errorf("%v: status %v", w["field"], w["status"])
		}
	}
	if len(got) != 2 || got["interfaces[0].url"] != 8 || got["interfaces[0].docs"] != 9 {
		t.Errorf("warnings (field: line) = %v, want interfaces[0].url: 8, interfaces[0].docs: 9", got)
	}
	for _, a := range asked {
		if a == "/openapi.json" {
			t.Errorf("a URL on another site was asked for in process")
		}
	}
	if n := p.CheckDeclared(context.Background()); n != 2 {
		t.Errorf("missing = %d, want 2", n)
	}
}
