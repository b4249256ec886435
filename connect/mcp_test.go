package connect

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/frontmatter"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"gopkg.in/yaml.v3"
)

func TestMCPSession(t *testing.T) {
	_, ts := newTestServer(t, Options{}, nil)
	cs := connectClient(t, ts, nil)
	ctx := context.Background()

	init := cs.InitializeResult()
	if init == nil || init.ServerInfo.Name != DefaultServerName {
		t.Fatalf("initialize result = %+v, want server %q", init, DefaultServerName)
	}
	if init.ProtocolVersion == "" {
		t.Error("no negotiated protocol version")
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("tool %s lacks readOnlyHint", tool.Name)
		}
		if tool.OutputSchema == nil {
			t.Errorf("tool %s has no output schema", tool.Name)
		}
	}
	for _, want := range []string{toolSearch, toolGet, toolList, toolAsk} {
		if !names[want] {
			t.Errorf("tools/list lacks %s", want)
		}
	}
	listed, _ := json.MarshalIndent(tools.Tools, "", "  ")
	golden(t, "tools_list.golden.json", append(listed, '\n'))
}

// callTool calls a tool and decodes its structured result into out.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	if out != nil && !res.IsError {
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("decoding %s result: %v", name, err)
		}
	}
	return res
}

func TestSearchSiteTool(t *testing.T) {
	_, ts := newTestServer(t, Options{}, nil)
	cs := connectClient(t, ts, nil)
	tests := []struct {
		name, query string
		limit       int
		wantFirst   string
		wantMax     int
	}{
		{name: "title match ranks first", query: "pricing", wantFirst: testOrigin + "/pricing"},
		{name: "body words", query: "glaze firing kiln", wantFirst: testOrigin + "/blog/kiln-day"},
		{name: "accented text", query: "émail cobalt", wantFirst: testOrigin + "/blog/tasse-bleue"},
		{name: "limit honoured", query: "the", limit: 2, wantMax: 2},
		{name: "no match", query: "zeppelin", wantMax: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := map[string]any{"query": tt.query}
			if tt.limit > 0 {
				args["limit"] = tt.limit
			}
			var out searchOutput
			res := callTool(t, cs, toolSearch, args, &out)
			if res.IsError {
				t.Fatalf("tool error: %v", res.Content)
			}
			if tt.wantFirst != "" && (len(out.Results) == 0 || out.Results[0].URL != tt.wantFirst) {
				t.Fatalf("first result = %+v, want %s", out.Results, tt.wantFirst)
			}
			if tt.wantFirst == "" && len(out.Results) > tt.wantMax {
				t.Fatalf("%d results, want at most %d", len(out.Results), tt.wantMax)
			}
			for _, r := range out.Results {
				if r.Title == "" || r.Snippet == "" || !strings.HasPrefix(r.URL, testOrigin+"/") {
					t.Errorf("incomplete result %+v", r)
				}
			}
		})
	}
}

func TestSearchSiteRefusesBadQueries(t *testing.T) {
	_, ts := newTestServer(t, Options{MaxQueryLength: 50}, nil)
	cs := connectClient(t, ts, nil)
	for name, args := range map[string]map[string]any{
		"too long":      {"query": strings.Repeat("a", 51)},
		"empty":         {"query": ""},
		"missing":       {},
		"limit too big": {"query": "pricing", "limit": 1000},
		"unknown field": {"query": "pricing", "evil": true},
	} {
		t.Run(name, func(t *testing.T) {
			if res := callTool(t, cs, toolSearch, args, nil); !res.IsError {
				t.Errorf("accepted %v", args)
			}
		})
	}
}

func TestGetPageTool(t *testing.T) {
	_, ts := newTestServer(t, Options{}, nil)
	cs := connectClient(t, ts, nil)
	tests := []struct {
		name, url, wantCanonical string
		wantErr                  bool
	}{
		{name: "absolute url", url: testOrigin + "/about", wantCanonical: testOrigin + "/about"},
		{name: "path", url: "/docs/api", wantCanonical: testOrigin + "/docs/api"},
		{name: "front matter kept from source", url: "/pricing", wantCanonical: testOrigin + "/pricing"},
		{name: "trailing slash toggled", url: "/docs", wantCanonical: testOrigin + "/docs/"},
		{name: "upper-case host and default port", url: "HTTPS://SHOP.EXAMPLE:443/contact#map", wantCanonical: testOrigin + "/contact"},
		{name: "foreign origin", url: "https://evil.example/about", wantErr: true},
		{name: "other scheme", url: "http://shop.example/about", wantErr: true},
		{name: "scheme-relative foreign host", url: "//evil.example/about", wantErr: true},
		{name: "dot-dot traversal", url: "/docs/../../etc/passwd", wantErr: true},
		{name: "encoded traversal", url: "/docs/%2e%2e/%2E%2E/etc/passwd", wantErr: true},
		{name: "backslash", url: "/docs\\..\\secret", wantErr: true},
		{name: "file scheme", url: "file:///etc/passwd", wantErr: true},
		{name: "relative path", url: "about", wantErr: true},
		{name: "not indexed", url: "/nowhere", wantErr: true},
		{name: "user info", url: "https://user@shop.example/about", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out getOutput
			res := callTool(t, cs, toolGet, map[string]any{"url": tt.url}, &out)
			if res.IsError != tt.wantErr {
				t.Fatalf("IsError = %v, want %v (%v)", res.IsError, tt.wantErr, res.Content)
			}
			if tt.wantErr {
				return
			}
			fm := parseFrontMatter(t, out.Markdown)
			if fm["canonical"] != tt.wantCanonical || out.URL != tt.wantCanonical {
				t.Errorf("canonical = %q / %q, want %q", fm["canonical"], out.URL, tt.wantCanonical)
			}
			for _, k := range []string{"title", "updated", "language"} {
				if fm[k] == "" {
					t.Errorf("front matter lacks %s:\n%s", k, out.Markdown)
				}
			}
			if text, ok := res.Content[0].(*mcp.TextContent); !ok || text.Text != out.Markdown {
				t.Errorf("text content is not the Markdown")
			}
		})
	}
}

// parseFrontMatter parses the YAML front matter at the start of md.
func parseFrontMatter(t *testing.T, md string) map[string]string {
	t.Helper()
	block, _, ok := frontmatter.Split([]byte(md))
	if !ok {
		t.Fatalf("no front matter in:\n%s", md)
	}
	var fm map[string]string
	if err := yaml.Unmarshal(block, &fm); err != nil {
		t.Fatalf("front matter does not parse: %v\n%s", err, block)
	}
	return fm
}

func TestListPagesTool(t *testing.T) {
	src := newFakeSource()
	for i := range 130 {
		src.set(fmtPath("/archive/%03d", i), &Page{Title: fmtPath("Archive %d", i), Markdown: []byte("old news")})
	}
	_, ts := newTestServer(t, Options{}, src)
	cs := connectClient(t, ts, nil)

	var seen []string
	cursor := ""
	for calls := 0; ; calls++ {
		if calls > 5 {
			t.Fatal("pagination does not end")
		}
		args := map[string]any{}
		if cursor != "" {
			args["cursor"] = cursor
		}
		var out listOutput
		if res := callTool(t, cs, toolList, args, &out); res.IsError {
			t.Fatalf("list_pages: %v", res.Content)
		}
		if len(out.Pages) > listPageSize {
			t.Fatalf("%d pages in one call", len(out.Pages))
		}
		for _, p := range out.Pages {
			seen = append(seen, p.URL)
		}
		if cursor = out.NextCursor; cursor == "" {
			break
		}
	}
	if want := len(testPages) + 130; len(seen) != want {
		t.Fatalf("listed %d pages, want %d", len(seen), want)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i-1] >= seen[i] {
			t.Fatalf("not in URL order or repeated: %s then %s", seen[i-1], seen[i])
		}
	}

	var docs listOutput
	callTool(t, cs, toolList, map[string]any{"prefix": "/docs/"}, &docs)
	if len(docs.Pages) != 4 || docs.NextCursor != "" {
		t.Errorf("prefix /docs/ listed %+v, want the 4 docs pages", docs)
	}
	for _, bad := range []map[string]any{{"cursor": "!!not-base64"}, {"cursor": "aHR0cHM6Ly9ldmlsLmV4YW1wbGUv"}, {"prefix": "https://evil.example/"}} {
		if res := callTool(t, cs, toolList, bad, nil); !res.IsError {
			t.Errorf("list_pages accepted %v", bad)
		}
	}
}

func TestAskTool(t *testing.T) {
	_, ts := newTestServer(t, Options{}, nil)
	cs := connectClient(t, ts, nil)
	var out AskResponse
	if res := callTool(t, cs, toolAsk, map[string]any{"query": "shipping rates"}, &out); res.IsError {
		t.Fatalf("ask: %v", res.Content)
	}
	if out.Query != "shipping rates" || len(out.Results) == 0 || out.Results[0].Type != "WebPage" {
		t.Fatalf("ask answered %+v", out)
	}
}

func TestResources(t *testing.T) {
	_, ts := newTestServer(t, Options{}, nil)
	cs := connectClient(t, ts, nil)
	ctx := context.Background()

	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 {
		t.Fatalf("resources/templates/list = %v, %v", templates, err)
	}
	res, err := cs.ListResources(ctx, nil)
	if err != nil || len(res.Resources) != 1 || res.Resources[0].URI != testOrigin+"/llms.txt" {
		t.Fatalf("resources/list = %+v, %v; want llms.txt", res, err)
	}
	llms, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: testOrigin + "/llms.txt"})
	if err != nil || llms.Contents[0].Text != testLLMsTxt {
		t.Fatalf("reading llms.txt = %+v, %v", llms, err)
	}
	page, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: testOrigin + "/about"})
	if err != nil {
		t.Fatalf("reading a page: %v", err)
	}
	if c := page.Contents[0]; c.MIMEType != mimeMarkdown || !strings.HasPrefix(c.Text, "---\n") {
		t.Errorf("page resource = %+v", c)
	}
	for _, uri := range []string{testOrigin + "/nowhere", testOrigin + "/docs/../secret", "https://evil.example/about"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("read %s: want an error", uri)
		}
	}
}
