package caddymodule

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentready/caddy-agentready/caddymodule/internal/caddytest"
)

// demoCaddyfile is caddytest.DemoCaddyfile, read from this directory.
func demoCaddyfile(originURL string) string {
	return caddytest.DemoCaddyfile(originURL, filepath.Join("..", "examples", "site.yaml"))
}

// waitReport polls the admin endpoint until a self-scan has completed.
func waitReport(t *testing.T, admin string) status {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for time.Now().Before(deadline) {
		resp, body := get(t, "GET", admin+"/agent-ready/status")
		if resp.StatusCode == 200 {
			var st struct{ Sites []status }
			if err := json.Unmarshal([]byte(body), &st); err != nil {
				t.Fatalf("status: %v\n%s", err, body)
			}
			if len(st.Sites) == 1 && !st.Sites[0].Finished.IsZero() {
				return st.Sites[0]
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no self-scan completed in time")
	return status{}
}

func TestIntegrationSelfScoreOnAdmin(t *testing.T) {
	origin := newOrigin(t)
	base, admin := runCaddy(t, demoCaddyfile(origin.URL))

	st := waitReport(t, admin)
	if st.Score == nil || *st.Score < 90 {
		t.Fatalf("the demo must self-score at least 90, got %+v", st)
	}
	if st.Target != base+"/" {
		t.Errorf("target %q, want %q", st.Target, base+"/")
	}

	resp, body := get(t, "GET", admin+"/agent-ready/report.json")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("report.json: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var rep struct {
		Score  float64
		Checks []struct {
			ID      string
			Verdict string
			Missing string
			Receipt json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(body), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Checks) != 35 {
		t.Errorf("%d checks, want 35", len(rep.Checks))
	}
	for _, c := range rep.Checks {
		if len(c.Receipt) < 10 {
			t.Errorf("%s: no receipt", c.ID)
		}
		if (c.Verdict == "PARTIAL" || c.Verdict == "FAIL") && c.Missing == "" {
			t.Errorf("%s: %s without naming what is missing", c.ID, c.Verdict)
		}
		if c.Verdict == "COULD_NOT_CHECK" {
			t.Errorf("%s: could not check on the demo: %s", c.ID, c.Missing)
		}
	}

	resp, body = get(t, "GET", admin+"/agent-ready/")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, "<svg") {
		t.Errorf("HTML report: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, body = get(t, "GET", admin+"/agent-ready/report.md")
	if resp.StatusCode != 200 || !strings.Contains(body, "check: markdown_representation") {
		t.Errorf("Markdown report: %d\n%.300s", resp.StatusCode, body)
	}

	for _, m := range []string{"PUT", "DELETE", "PATCH"} {
		if resp, _ := get(t, m, admin+"/agent-ready/"); resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d, want 405", m, resp.StatusCode)
		}
	}
	if resp, _ := get(t, "GET", admin+"/agent-ready/scan"); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET scan: %d, want 405", resp.StatusCode)
	}
	if resp, _ := get(t, "GET", admin+"/agent-ready/nope"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown resource: %d, want 404", resp.StatusCode)
	}
	if resp, _ := get(t, "GET", admin+"/agent-ready/?site=http://elsewhere/"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown site: %d, want 404", resp.StatusCode)
	}

	resp, body = get(t, "POST", admin+"/agent-ready/scan")
	if resp.StatusCode != 200 {
		t.Fatalf("POST scan: %d %s", resp.StatusCode, body)
	}
	var after status
	if err := json.Unmarshal([]byte(body), &after); err != nil || !after.Finished.After(st.Finished) {
		t.Errorf("POST scan did not produce a newer report: %s", body)
	}

	// The public site never serves the report.
	if resp, _ := get(t, "GET", base+"/agent-ready/"); resp.StatusCode == 200 && strings.Contains(resp.Header.Get("Content-Type"), "html") {
		_, b := get(t, "GET", base+"/agent-ready/")
		if strings.Contains(b, "Agent-readiness report") {
			t.Error("the self-score leaked onto the public site")
		}
	}
}

// TestIntegrationSelfScanOriginDown: with the origin down the scan still
// completes with honest verdicts, and the admin endpoint keeps answering.
func TestIntegrationSelfScanOriginDown(t *testing.T) {
	origin := newOrigin(t)
	url := origin.URL
	origin.Close()
	_, admin := runCaddy(t, demoCaddyfile(url))
	st := waitReport(t, admin)
	if st.Score == nil || *st.Score > 60 {
		t.Errorf("a site whose origin is down cannot score high: %+v", st)
	}
	resp, body := get(t, "GET", admin+"/agent-ready/report.json")
	if resp.StatusCode != 200 || !strings.Contains(body, `"content_in_initial_html"`) {
		t.Errorf("report.json: %d", resp.StatusCode)
	}
}

// TestIntegrationMCPThroughCaddy drives the built-in MCP endpoint with the
// official SDK client, through Caddy, over loopback.
func TestIntegrationMCPThroughCaddy(t *testing.T) {
	origin := newOrigin(t)
	base, admin := runCaddy(t, demoCaddyfile(origin.URL))
	waitReport(t, admin) // the index fills at start too; the scan shows the site is up

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "integration-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is not annotated readOnlyHint", tool.Name)
		}
	}
	for _, want := range []string{"search_site", "get_page", "list_pages", "ask"} {
		if !names[want] {
			t.Errorf("tool %s missing (have %v)", want, names)
		}
	}

	var text string
	for try := 0; try < 50; try++ { // the index builds in the background
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_site", Arguments: map[string]any{"query": "pricing plans", "limit": 3}})
		if err != nil {
			t.Fatal(err)
		}
		text = toolText(res)
		if strings.Contains(text, base+"/pricing") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(text, base+"/pricing") {
		t.Fatalf("search_site did not find the pricing page:\n%s", text)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_page", Arguments: map[string]any{"url": base + "/pricing"}})
	if err != nil {
		t.Fatal(err)
	}
	_, md := get(t, "GET", base+"/pricing", "Accept", "text/markdown")
	if got := toolText(res); !strings.Contains(got, "| Feature | Starter | Team | Business |") || !strings.Contains(got, "canonical: "+base+"/pricing") {
		t.Errorf("get_page is not the page's Markdown:\n%.500s\n--- negotiated:\n%.300s", got, md)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_page", Arguments: map[string]any{"url": "https://evil.example/pricing"}})
	if err == nil && !res.IsError {
		t.Errorf("get_page of a foreign origin must be refused: %s", toolText(res))
	}

	resp, body := get(t, "GET", base+"/ask?query=contact+a+person")
	if resp.StatusCode != 200 || !strings.Contains(body, `"results"`) || resp.Header.Get("RateLimit-Policy") == "" {
		t.Errorf("/ask: %d %q\n%.300s", resp.StatusCode, resp.Header.Get("RateLimit-Policy"), body)
	}
}

func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.StructuredContent != nil {
		js, _ := json.Marshal(res.StructuredContent)
		b.Write(js)
	}
	return b.String()
}

// TestIntegrationSeveralSites: two sites using agent_ready get a self-score
// each, listed by /agent-ready/status and picked with ?site=.
func TestIntegrationSeveralSites(t *testing.T) {
	origin := newOrigin(t)
	second := freePort(t)
	upstream := strings.TrimPrefix(origin.URL, "http://")
	base, admin := runCaddy(t, demoCaddyfile(origin.URL)+fmt.Sprintf(`

:%d {
	bind 127.0.0.1
	agent_ready {
		self_scan {
			delay 50ms
		}
	}
	reverse_proxy %s
}`, second, upstream))
	secondBase := fmt.Sprintf("http://127.0.0.1:%d", second)

	deadline := time.Now().Add(45 * time.Second)
	var sites []status
	for time.Now().Before(deadline) {
		_, body := get(t, "GET", admin+"/agent-ready/status")
		var st struct{ Sites []status }
		if err := json.Unmarshal([]byte(body), &st); err != nil {
			t.Fatal(err)
		}
		sites = st.Sites
		if len(sites) == 2 && !sites[0].Finished.IsZero() && !sites[1].Finished.IsZero() {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(sites) != 2 {
		t.Fatalf("status lists %d sites, want 2: %+v", len(sites), sites)
	}
	targets := map[string]bool{sites[0].Target: true, sites[1].Target: true}
	if !targets[base+"/"] || !targets[secondBase+"/"] {
		t.Errorf("targets %v, want %s/ and %s/", targets, base, secondBase)
	}
	for _, s := range sites {
		resp, body := get(t, "GET", admin+"/agent-ready/report.json?site="+url.QueryEscape(s.Site))
		if resp.StatusCode != 200 || !strings.Contains(body, `"target": "`+s.Target+`"`) {
			t.Errorf("report of %s: %d, target missing", s.Site, resp.StatusCode)
		}
	}
}

// TestIntegrationMetrics: the agent_ready metrics are on Caddy's /metrics,
// and the self-scan's own requests are not counted.
func TestIntegrationMetrics(t *testing.T) {
	origin := newOrigin(t)
	base, admin := runCaddy(t, demoCaddyfile(origin.URL))
	waitReport(t, admin)
	metric := func(name string) string {
		_, body := get(t, "GET", admin+"/metrics")
		for _, line := range strings.Split(body, "\n") {
			if strings.HasPrefix(line, name+" ") || strings.HasPrefix(line, name+"{") {
				return line
			}
		}
		return ""
	}
	before := metric(`caddy_agent_ready_responses_total{form="markdown"}`)
	get(t, "GET", base+"/pricing", "Accept", "text/markdown")
	after := metric(`caddy_agent_ready_responses_total{form="markdown"}`)
	if after == "" || after == before {
		t.Errorf("markdown responses not counted: before %q after %q", before, after)
	}
	for _, name := range []string{
		"caddy_agent_ready_conversion_duration_seconds_bucket",
		"caddy_agent_ready_markdown_tokens_total",
		`caddy_agent_ready_self_score{site="` + base + `/"}`,
		"caddy_agent_ready_index_pages",
	} {
		if metric(name) == "" {
			t.Errorf("metric %s missing from /metrics", name)
		}
	}
}
