package view

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/traffic"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixture is a snapshot with every kind of row the view draws: a verified
// crawler, a spoofer, a claimed agent, browsers, a tool, and a client
// whose name and page try to break out of the HTML.
func fixture() traffic.Snapshot {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	cell := func(form, verification string, n uint64) traffic.Cell {
		return traffic.Cell{Form: form, Status: "2xx", Verification: verification, Counts: traffic.Counts{Requests: n}}
	}
	return traffic.Snapshot{
		Version: 1, Since: start, Generated: start.Add(90 * time.Minute),
		Totals: traffic.Counts{Requests: 131, Bytes: 1 << 20, MarkdownTokens: 52000, TokensSaved: 120000, Blocked: 4},
		Clients: []traffic.ClientStats{
			{Client: "GPTBot", Purpose: "training", Operator: "OpenAI", Totals: traffic.Counts{Requests: 60, Blocked: 2},
				Verification: traffic.VerificationCounts{Verified: 58, Failed: 2},
				Cells:        []traffic.Cell{cell("markdown", "verified", 40), cell("html", "verified", 18), cell("discovery", "failed", 2)},
				TopPages:     []traffic.PageCount{{Path: "/pricing", Count: 30}, {Path: "/docs/", Count: 12}}},
			{Client: "browser", Purpose: "browser", Totals: traffic.Counts{Requests: 50},
				Cells: []traffic.Cell{cell("html", "unverified", 50)}},
			{Client: "Claude-User", Purpose: "user", Operator: "Anthropic", Totals: traffic.Counts{Requests: 12},
				Verification: traffic.VerificationCounts{Unverified: 12},
				Cells:        []traffic.Cell{cell("markdown", "unverified", 12)},
				TopPages:     []traffic.PageCount{{Path: "/pricing", Count: 7}}},
			{Client: `<script>alert("x")</script>`, Purpose: "agent", Totals: traffic.Counts{Requests: 5},
				Cells:    []traffic.Cell{cell("ask", "unverified", 5)},
				TopPages: []traffic.PageCount{{Path: `/"><img src=x onerror=alert(1)>`, Count: 5}}},
			{Client: "curl", Purpose: "tool", Totals: traffic.Counts{Requests: 4},
				Cells: []traffic.Cell{cell("html", "unverified", 4)}},
		},
		Minutes: traffic.Series{StepSeconds: 60, Start: start,
			Requests: map[string][]uint64{"training": {3, 0, 5}, "browser": {1, 2, 0}}, Markdown: []uint64{1, 0, 4}},
		Hours: traffic.Series{StepSeconds: 3600, Start: start,
			Requests: map[string][]uint64{"training": {60}, "browser": {50}}, Markdown: []uint64{52}},
		Verifier: &traffic.VerifierStats{Verified: 58, Failed: 2, Lookups: 3},
	}
}

// TestRenderGolden: the Agents view of the fixture, byte for byte
// (testdata/agents.html; go test -update rewrites it).
func TestRenderGolden(t *testing.T) {
	got := Render("acme.example", fixture(), []string{"docs.acme.example"})
	golden := filepath.Join("testdata", "agents.html")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the Agents view differs from %s (go test -update rewrites it)", golden)
	}
}

// TestRenderContent: what a reader of the page relies on.
func TestRenderContent(t *testing.T) {
	page := string(Render("acme.example", fixture(), nil))
	for _, want := range []string{
		`<div class="tile">From agents and bots<b>77</b></div>`, // 60 + 12 + 5: not the browser's 50 nor curl's 4
		`<div class="tile">Spoofed requests<b>2</b></div>`,
		`<div class="tile">Markdown share of pages read by agents<b>70%</b></div>`, // (40+12)/(40+18+12+4): every client but browsers
		`<td class="failed"><span class="icon" aria-hidden="true">✗</span>58 verified, 2 failed verification</td>`,
		`<span class="icon" aria-hidden="true">?</span>claimed, not verified`,
		`<tr><td><code>/pricing</code></td><td class="n">37</td><td>GPTBot, Claude-User</td></tr>`,
		`&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the view lacks %s", want)
		}
	}
	for _, bad := range []string{"<script", "<img src=x"} {
		if strings.Contains(page, bad) {
			t.Errorf("a client's name or page reached the HTML unescaped: %q", bad)
		}
	}
}

// TestRenderEmpty: a site with no requests yet still renders, saying so.
func TestRenderEmpty(t *testing.T) {
	page := string(Render("new.example", traffic.Snapshot{Since: time.Unix(0, 0)}, nil))
	for _, want := range []string{"No requests counted yet.", "No agent has read a page yet.", "No client failed verification."} {
		if !strings.Contains(page, want) {
			t.Errorf("the empty view lacks %q", want)
		}
	}
}

func TestWithNav(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<html><body><h1>Score</h1></body></html>", "<html><body>" + Nav + "<h1>Score</h1></body></html>"},
		{"no body here", "no body here"},
	} {
		if got := string(WithNav([]byte(tc.in))); got != tc.want {
			t.Errorf("WithNav(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestRenderFleet: a fleet's counts show each instance's part; a single
// instance's show no fleet section.
func TestRenderFleet(t *testing.T) {
	snap := fixture()
	if strings.Contains(string(Render("acme.example", snap, nil)), `id="fleet"`) {
		t.Error("a single instance's view has a fleet section")
	}
	snap.Fleet = []traffic.InstanceCounts{
		{Instance: "b7e1", Self: true, Totals: traffic.Counts{Requests: 70}},
		{Instance: "c9f2", Totals: traffic.Counts{Requests: 44}},
	}
	page := string(Render("acme.example", snap, nil))
	for _, want := range []string{`<h2>Fleet</h2>`, `<code>b7e1</code> (this one)</td><td class="n">70</td>`, `<code>c9f2</code></td><td class="n">44</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("fleet view lacks %q", want)
		}
	}
}
