package selfcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/selfcheck/internal/golden"
)

// goldenScan scans the agent-ready site with one change of each kind of
// verdict, and returns the report and the origin to normalise.
func goldenScan(t *testing.T) (*Report, string) {
	s := agentReadySite(t)
	// A PARTIAL, a FAIL, a COULD_NOT_CHECK and a NOT_APPLICABLE for the page.
	s.set("/.well-known/security.txt", &doc{ctype: "text/plain", body: "Contact: mailto:s@acme.test\nExpires: 2020-01-01T00:00:00Z\n"})
	s.set("/llms.txt", nil)
	s.set("/openapi.json", &doc{status: 503})
	authNone := func(d *doc) {
		d.body = regexp.MustCompile(`"authentication": \{.*\},`).ReplaceAllString(d.body, `"authentication": {},`)
	}
	s.edit("/agents.json", authNone)
	s.edit("/.well-known/agents.json", authNone)
	srv := s.serve(t)
	return scanURL(t, srv.URL, Options{}), srv.URL
}

// normalise replaces the test server's origin with a stable one.
func normalise(b []byte, origin string) []byte {
	b = bytes.ReplaceAll(b, []byte(origin), []byte("http://site.test"))
	return bytes.ReplaceAll(b, []byte(strings.TrimPrefix(origin, "http://")), []byte("site.test"))
}

func TestRenderGolden(t *testing.T) {
	r, origin := goldenScan(t)
	j, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string][]byte{"report.json": j, "report.md": r.Markdown(), "report.html": r.HTML()} {
		got := normalise(out, origin)
		golden.Check(t, filepath.Join("testdata", "golden", name), got)
	}
}

// TestRenderingsAgree renders one scan three ways: same score, same
// section totals, same verdict for every check (rule 2).
func TestRenderingsAgree(t *testing.T) {
	r, _ := goldenScan(t)
	j, _ := r.JSON()
	var back Report
	if err := json.Unmarshal(j, &back); err != nil {
		t.Fatal(err)
	}
	md, page := string(r.Markdown()), string(r.HTML())
	if back.Score != r.Score || len(back.Checks) != 35 || len(back.Sections) != 6 {
		t.Fatalf("JSON round trip: score %v, %d checks, %d sections", back.Score, len(back.Checks), len(back.Sections))
	}
	if !strings.Contains(md, fmt.Sprintf("**Score: %s / 100**", num(back.Score))) {
		t.Error("Markdown score differs from JSON")
	}
	if !strings.Contains(page, fmt.Sprintf(`id="score" x="60" y="66" text-anchor="middle" font-size="22" font-weight="700" data-score="%s"`, num(back.Score))) {
		t.Error("HTML #score differs from JSON")
	}
	for _, s := range back.Sections {
		row := fmt.Sprintf("| %s | %s | %s | %s |", s.Title, num(s.Earned), num(s.Applicable), num(s.Points))
		if !strings.Contains(md, row) {
			t.Errorf("Markdown lacks section row %q", row)
		}
		label := fmt.Sprintf(`id="section-%s" data-section="%s" width="210" height="16" role="img" aria-label="%s: %s / %s"`, s.ID, s.ID, s.Title, num(s.Earned), num(s.Applicable))
		if !strings.Contains(page, label) {
			t.Errorf("HTML lacks section bar %q", label)
		}
	}
	for _, c := range back.Checks {
		if !strings.Contains(md, fmt.Sprintf("%s %s — %s", verdictIcon(c.Verdict), c.ID, c.Verdict)) {
			t.Errorf("Markdown verdict of %s differs", c.ID)
		}
		if !strings.Contains(page, fmt.Sprintf(`id="check-%s" data-verdict="%s"`, c.ID, c.Verdict)) {
			t.Errorf("HTML verdict of %s differs", c.ID)
		}
	}
	seen := map[Verdict]bool{}
	for _, c := range back.Checks {
		seen[c.Verdict] = true
	}
	for _, v := range []Verdict{Pass, Partial, Fail, Optional, NotApplicable, CouldNotCheck} {
		if !seen[v] {
			t.Errorf("the golden scan shows no %s", v)
		}
	}
}

// TestHTMLHooksAndSelfContained: the hooks a browser test uses exist, the
// page loads nothing from elsewhere and needs no script, and every verdict
// shows as text next to its colour.
func TestHTMLHooksAndSelfContained(t *testing.T) {
	r, _ := goldenScan(t)
	page := string(r.HTML())
	counts := map[string]int{
		`id="score"`:            1,
		`class="section-bar"`:   6,
		`<details class="check`: 35,
	}
	for hook, want := range counts {
		if got := strings.Count(page, hook); got != want {
			t.Errorf("%s appears %d times, want %d", hook, got, want)
		}
	}
	for _, bad := range []string{"<script", " src=", `rel="stylesheet"`, "@import", "url(", "ZgotmplZ"} {
		if strings.Contains(page, bad) {
			t.Errorf("HTML contains %q", bad)
		}
	}
	for _, c := range r.Checks {
		re := regexp.MustCompile(`id="check-` + c.ID + `"[^>]*>\s*<summary><span class="icon" aria-hidden="true">` + regexp.QuoteMeta(verdictIcon(c.Verdict)) + `</span><span class="verdict">` + string(c.Verdict) + `</span>`)
		if !re.MatchString(page) {
			t.Errorf("check %s lacks its icon and text label", c.ID)
		}
	}
}

// TestMarkdownFenceSurvivesBackticks: an excerpt full of backticks cannot
// close its fenced block.
func TestMarkdownFenceSurvivesBackticks(t *testing.T) {
	if got := fenceFor("a ``` b ```` c"); got != "`````" {
		t.Errorf("fenceFor = %q, want five backticks", got)
	}
	s := bareSite()
	s.set("/llms.txt", &doc{ctype: "text/plain", body: "````\n# x\n````"})
	r := scanHandler(t, s, Options{})
	if !strings.Contains(string(r.Markdown()), "`````\ncheck: llms_txt") {
		t.Error("llms_txt receipt is not fenced with five backticks")
	}
}

// TestTargetNote: a report whose target was chosen by the program that ran
// the scan says why in every rendering; a report of a given URL says
// nothing more.
func TestTargetNote(t *testing.T) {
	r := scanHandler(t, bareSite(), Options{})
	for name, out := range map[string]string{"markdown": string(r.Markdown()), "html": string(r.HTML())} {
		if strings.Contains(out, "Address scanned") {
			t.Errorf("%s: a note without a TargetNote", name)
		}
	}
	r.TargetNote = "the host <of> the site block"
	js, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][2]string{
		"markdown": {string(r.Markdown()), "Address scanned: " + r.Target + " (the host <of> the site block)."},
		"html":     {string(r.HTML()), `<p id="target-note">Address scanned: ` + r.Target + ` (the host &lt;of&gt; the site block).</p>`},
		"json":     {string(js), `"target_note": "the host <of> the site block"`},
	} {
		if !strings.Contains(want[0], want[1]) {
			t.Errorf("%s lacks %s", name, want[1])
		}
	}
}
