package selfcheck

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

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
		label := fmt.Sprintf(`id="section-%s" data-section="%s" width="210" height="16" role="img" aria-label="%s: %s"`, s.ID, s.ID, s.Title, s.label())
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

// sarifStructure is the part of the SARIF 2.1.0 schema (OASIS SARIF
// v2.1.0 §3.13–§3.33) a consumer relies on: the log's version and runs, a
// run's tool.driver with a name and rules with ids, results with a ruleId,
// a level from the spec's enum, a message text, and physical locations
// whose region lines start at 1.
const sarifStructure = `{
 "$schema": "https://json-schema.org/draft/2020-12/schema",
 "type": "object", "required": ["version", "runs"],
 "properties": {
  "version": {"const": "2.1.0"},
  "$schema": {"type": "string", "format": "uri"},
  "runs": {"type": "array", "minItems": 1, "items": {
   "type": "object", "required": ["tool", "results"],
   "properties": {
    "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
     "type": "object", "required": ["name"], "properties": {
      "name": {"type": "string", "minLength": 1}, "version": {"type": "string"}, "informationUri": {"type": "string", "format": "uri"},
      "rules": {"type": "array", "items": {"type": "object", "required": ["id"], "properties": {
       "id": {"type": "string", "minLength": 1},
       "shortDescription": {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}},
       "help": {"type": "object", "required": ["text"]},
       "properties": {"type": "object"}}}}}}}},
    "results": {"type": "array", "items": {
     "type": "object", "required": ["message", "ruleId"],
     "properties": {
      "ruleId": {"type": "string"}, "ruleIndex": {"type": "integer", "minimum": -1},
      "level": {"enum": ["none", "note", "warning", "error"]},
      "message": {"type": "object", "required": ["text"], "properties": {"text": {"type": "string", "minLength": 1}}},
      "locations": {"type": "array", "items": {"type": "object", "properties": {"physicalLocation": {
       "type": "object", "required": ["artifactLocation"], "properties": {
        "artifactLocation": {"type": "object", "required": ["uri"], "properties": {"uri": {"type": "string", "format": "uri-reference"}}},
        "region": {"type": "object", "properties": {"startLine": {"type": "integer", "minimum": 1}}}}}}}},
      "properties": {"type": "object"}}}},
    "properties": {"type": "object"}}}}}
}`

// TestSARIF validates the SARIF log of the golden scan against the
// structure above, and checks one result per failing check, checkpoint and
// lint finding, each rule index pointing at its rule.
func TestSARIF(t *testing.T) {
	r, _ := goldenScan(t)
	out, err := r.SARIF()
	if err != nil {
		t.Fatal(err)
	}
	var schemaDoc any
	if err := json.Unmarshal([]byte(sarifStructure), &schemaDoc); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("SARIF log invalid: %v", err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	want := 0
	for _, c := range r.Checks {
		if c.Verdict == Fail || c.Verdict == Partial {
			want++
		}
	}
	for _, c := range r.Checkpoints {
		if c.Verdict == Fail || c.Verdict == Partial {
			want++
		}
	}
	for _, l := range r.Lint.Rules {
		if l.Verdict == Fail {
			want += len(l.Findings)
		}
	}
	if len(run.Results) != want || want == 0 {
		t.Errorf("%d results, want %d", len(run.Results), want)
	}
	if len(run.Tool.Driver.Rules) != 35+28+20 {
		t.Errorf("%d rules, want 83", len(run.Tool.Driver.Rules))
	}
	for _, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s points at rule %d (%s)", res.RuleID, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
	}
}

// TestJUnit parses the JUnit XML: one test case per check, checkpoint and
// lint rule, failures counted as the verdicts say.
func TestJUnit(t *testing.T) {
	r, _ := goldenScan(t)
	out, err := r.JUnit()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	if len(doc.Suites) != 3 || doc.Tests != 35+1+28+20 {
		t.Fatalf("%d suites, %d tests; want 3 and 84", len(doc.Suites), doc.Tests)
	}
	failing := 0
	for _, c := range r.Checks {
		if c.Verdict == Fail || c.Verdict == Partial {
			failing++
		}
	}
	got := 0
	for _, tc := range doc.Suites[0].Cases {
		if tc.Failure != nil {
			got++
		}
	}
	if got != failing || !strings.HasPrefix(doc.Suites[0].Name, "agent-readiness score") {
		t.Errorf("score suite %q: %d failures, want %d", doc.Suites[0].Name, got, failing)
	}
}
