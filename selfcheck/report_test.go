package selfcheck

import (
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/agentready/caddy-agentready/selfcheck/internal/golden"
)

// scored builds a report from (id, verdict, fraction) rows and scores it.
func scored(rows ...CheckResult) *Report {
	r := &Report{}
	for _, row := range rows {
		c := checkInfo(row.ID)
		row.Section, row.Weight = c.Section, c.Weight
		r.Checks = append(r.Checks, row)
	}
	r.score()
	return r
}

// TestScoring asserts STANDARD.md §1 and §3: N/A leaves the denominator,
// COULD_NOT_CHECK keeps its weight and is listed, OPTIONAL and UNVERIFIED
// never score, PARTIAL earns its fraction.
func TestScoring(t *testing.T) {
	tests := []struct {
		name       string
		rows       []CheckResult
		score      float64
		applicable float64
		cnc        int
	}{
		{"all pass", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "llms_txt", Verdict: Pass}}, 100, 8, 0},
		{"fail halves", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "llms_txt", Verdict: Fail}}, 50, 8, 0},
		{"n/a leaves the denominator", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "mcp_transport", Verdict: NotApplicable}}, 100, 4, 0},
		{"could-not-check keeps its weight", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "llms_txt", Verdict: CouldNotCheck}}, 50, 8, 1},
		{"optional never scores", []CheckResult{{ID: "sitemap", Verdict: Fail}, {ID: "nlweb_ask", Verdict: Optional}}, 0, 4, 0},
		{"partial earns its fraction", []CheckResult{{ID: "sitemap", Verdict: Partial, Fraction: 0.5}}, 50, 4, 0},
		{"fraction ignored unless partial", []CheckResult{{ID: "sitemap", Verdict: Fail, Fraction: 0.9}}, 0, 4, 0},
		{"nothing applies", []CheckResult{{ID: "mcp_transport", Verdict: NotApplicable}}, 0, 0, 0},
		{"one decimal", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "llms_txt", Verdict: Fail}, {ID: "capability_manifest", Verdict: Fail}}, 30.8, 13, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := scored(tc.rows...)
			if r.Score != tc.score || r.Applicable != tc.applicable || len(r.CouldNotCheck) != tc.cnc {
				t.Errorf("score %v applicable %v cnc %v; want %v %v %v", r.Score, r.Applicable, r.CouldNotCheck, tc.score, tc.applicable, tc.cnc)
			}
			var earned float64
			for _, s := range r.Sections {
				earned += s.Earned
			}
			if round2(earned) != r.Earned {
				t.Errorf("sections earn %v, report %v", earned, r.Earned)
			}
		})
	}
}

func TestFromFraction(t *testing.T) {
	tests := []struct {
		in   float64
		v    Verdict
		frac float64
	}{{1, Pass, 1}, {1.5, Pass, 1}, {0, Fail, 0}, {-1, Fail, 0}, {0.5, Partial, 0.5}, {0.999, Partial, 0.99}, {0.001, Partial, 0.01}}
	for _, tc := range tests {
		o := fromFraction(tc.in, "x")
		if o.verdict != tc.v || o.fraction != tc.frac {
			t.Errorf("fromFraction(%v) = %s %v, want %s %v", tc.in, o.verdict, o.fraction, tc.v, tc.frac)
		}
	}
}

// TestPlan: the plan opens with the scored fixes, ranked by points per
// effort, numbered from 1, each with a change and a --check command; every
// site.yaml snippet is a valid YAML mapping.
func TestPlan(t *testing.T) {
	r, _ := goldenScan(t)
	if len(r.Plan) == 0 {
		t.Fatal("no plan")
	}
	prev := 1e9
	scoreDone := false
	for i, p := range r.Plan {
		if p.Rank != i+1 || p.Change == "" || !strings.Contains(p.Verify, "--check "+p.ID) {
			t.Errorf("item %d: %+v", i, p)
		}
		if p.Lens == "score" {
			if scoreDone {
				t.Errorf("score fix %s after other lenses", p.ID)
			}
			per := p.Points / float64(p.Effort)
			if per > prev+1e-9 {
				t.Errorf("%s (%.2f per effort) ranked after a smaller one (%.2f)", p.ID, per, prev)
			}
			prev = per
		} else {
			scoreDone = true
		}
	}
	for id, snippet := range FixSnippets() {
		var v map[string]any
		if err := yaml.Unmarshal([]byte(snippet), &v); err != nil || len(v) == 0 {
			t.Errorf("%s: snippet is not a YAML mapping: %v\n%s", id, err, snippet)
		}
		checkInfo(id)
	}
}

// adviceCase is one row of TestAdviceRescansToPass: an origin that fails a
// check for one cause, the cause the receipt must record, words the plan's
// advice must hold (and words it must not), and the origin after that
// advice is applied.
type adviceCase struct {
	name, check, cause string
	before             func(t testing.TB) http.Handler
	advice             []string // the plan item (change + site.yaml) holds each
	not                []string // and none of these
	after              func(t testing.TB) http.Handler
}

// setHeader sets a header on a page of the site (nil values remove it).
func setHeader(path, key string, values ...string) func(s *testSite) {
	return func(s *testSite) {
		s.edit(path, func(d *doc) {
			if values == nil {
				d.header.Del(key)
				return
			}
			d.header[http.CanonicalHeaderKey(key)] = values
		})
	}
}

// noMarkdown makes path answer Markdown requests with its HTML.
func noMarkdown(path string) func(s *testSite) {
	return func(s *testSite) { s.edit(path, func(d *doc) { d.markdown = "" }) }
}

const annotatedForm = `<form action="/search" toolname="search_catalog" tooldescription="Search the widget catalogue by keyword.">`

// TestAdviceRescansToPass: for each cause a check records, the plan gives
// that cause's advice (not the check's generic one), and the origin with
// the advice applied rescans that check to PASS.
func TestAdviceRescansToPass(t *testing.T) {
	cases := []adviceCase{
		{name: "canonical is a file:// URL", check: "canonical_declared", cause: CauseCanonicalOffOrigin,
			before: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, `<link rel="canonical" href="file:///home/me/site/_build/index.html">`)),
			advice: []string{"file://", "template", "make it http://127.0.0.1"}, not: []string{"inject:"},
			after: ready()},
		{name: "canonical on another host", check: "canonical_declared", cause: CauseCanonicalOffOrigin,
			before: ready(editBody("/", `href="{{origin}}/">`, `href="https://staging.example/">`)),
			advice: []string{"points off the site"}, after: ready()},
		{name: "canonical relative", check: "canonical_declared", cause: CauseCanonicalRelative,
			before: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, `<link rel="canonical" href="/">`)),
			advice: []string{"absolute"}, after: ready()},
		{name: "canonical missing", check: "canonical_declared", cause: CauseCanonicalMissing,
			before: ready(editBody("/", `<link rel="canonical" href="{{origin}}/">`, ``)),
			advice: []string{"injects", "canonical: true"}, after: ready()},
		{name: "lang malformed", check: "language_declared", cause: CauseLangMalformed,
			before: ready(editBody("/", `<html lang="en">`, `<html lang="english_US">`)),
			advice: []string{"never rewrites"}, not: []string{"site:"}, after: ready()},
		{name: "lang missing", check: "language_declared", cause: CauseLangMissing,
			before: ready(editBody("/", `<html lang="en">`, `<html>`)),
			advice: []string{"language: en"}, after: ready()},
		{name: "no negotiation at all", check: "markdown_representation", cause: CauseNoMarkdown,
			before: ready(noMarkdown("/"), setHeader("/", "Vary"), setHeader("/", "Link")),
			advice: []string{"put agent_ready in front"}, after: ready()},
		{name: "page over max_size", check: "markdown_representation", cause: CauseMarkdownTooLarge,
			before: ready(noMarkdown("/"), editBody("/", "</body>", "<!--"+strings.Repeat("x", 2_700_000)+"--></body>")),
			advice: []string{"max_size", "2.70 MB", "too_large"}, not: []string{"put agent_ready in front"},
			after: ready(editBody("/", "</body>", "<!--"+strings.Repeat("x", 2_700_000)+"--></body>"))},
		{name: "module in front sends HTML", check: "markdown_representation", cause: CauseMarkdownDeclined,
			before: ready(noMarkdown("/")),
			advice: []string{"failed open"}, not: []string{"put agent_ready in front"}, after: ready()},
		{name: "Vary missing", check: "vary_accept", cause: CauseVaryMissing,
			before: ready(setHeader("/", "Vary")), advice: []string{"Vary: Accept"}, after: ready()},
		{name: "alternate not advertised", check: "markdown_alternate_advertised", cause: CauseAlternateMissing,
			before: ready(setHeader("/", "Link", `</llms.txt>; rel="describedby"`), editBody("/", `<link rel="alternate" type="text/markdown" href="{{origin}}/index.md">`, "")),
			advice: []string{"Link:"}, after: ready()},
		{name: "front matter lacks updated", check: "markdown_front_matter", cause: "front_matter_no_updated",
			before: ready(editBody("/", "updated: 2026-09-15\n", "")),
			advice: []string{"Last-Modified"}, after: ready()},
		{name: "no main landmark", check: "content_in_initial_html", cause: CauseNoMain,
			before: ready(editBody("/", "<main>", "<div>"), editBody("/", "</main>", "</div>")),
			advice: []string{"<main>"}, after: ready()},
		{name: "form not annotated", check: "web_actions_declared", cause: CauseFormsUnannotated,
			before: ready(editBody("/", annotatedForm, `<form action="/search">`)),
			advice: []string{`selector: "form[action$=\"search\"]"`, "toolname: search_form", `tooldescription: "Acme Widgets: sends Keyword to /search."`, `q: "Keyword"`},
			not:    []string{PlaceholderToolDescription},
			after:  ready(editBody("/", annotatedForm, `<form action="/search" toolname="search_form" tooldescription="Acme Widgets: sends Keyword to /search.">`))},
		{name: "placeholder description", check: "tool_form_quality", cause: CausePlaceholderDescription,
			before: ready(editBody("/", `tooldescription="Search the widget catalogue by keyword."`, `tooldescription="`+PlaceholderToolDescription+`"`)),
			advice: []string{"placeholder", "toolname: search_catalog", "sends Keyword to /search"}, after: ready()},
		{name: "two forms, one toolname", check: "tool_form_quality", cause: CauseDuplicateToolName,
			before: ready(editBody("/", "</main>", `<form action="/quote" toolname="search_catalog" tooldescription="Ask for a price quote on a widget."><label for="m">Model</label><input id="m" name="model" toolparamdescription="The model to quote."></form></main>`)),
			advice: []string{"its own"},
			after:  ready(editBody("/", "</main>", `<form action="/quote" toolname="request_quote" tooldescription="Ask for a price quote on a widget."><label for="m">Model</label><input id="m" name="model" toolparamdescription="The model to quote."></form></main>`))},
		{name: "sitemap is an HTML page", check: "sitemap", cause: CauseSitemapInvalid,
			before: ready(replace("/sitemap.xml", &doc{ctype: "text/html", body: "<html><body>Site map</body></html>"})),
			advice: []string{"remove the file"}, after: ready()},
		{name: "sitemap locs on another host", check: "sitemap", cause: CauseSitemapForeign,
			before: ready(editBody("/sitemap.xml", "{{origin}}", "https://staging.example")),
			advice: []string{"base URL"}, after: ready()},
		{name: "agents.json does not parse", check: "capability_manifest", cause: CauseManifestInvalid,
			before: ready(replace("/.well-known/agents.json", &doc{ctype: "application/json", body: `{"name": "Acme",}`}), replace("/agents.json", &doc{ctype: "application/json", body: `{"name": "Acme",}`})),
			advice: []string{"does not parse"}, after: ready()},
		{name: "robots.txt blocks a user agent", check: "crawler_policy", cause: CauseRobotsBlocks,
			before: ready(replace("/robots.txt", &doc{ctype: "text/plain", body: "User-agent: ChatGPT-User\nDisallow: /\n"})),
			advice: []string{"Disallow"}, after: ready()},
		{name: "security.txt expired", check: "security_contact", cause: CauseSecurityTxtIncomplete,
			before: ready(replace("/.well-known/security.txt", &doc{ctype: "text/plain", body: "Contact: mailto:s@acme.test\nExpires: 2020-01-01T00:00:00Z\n"})),
			advice: []string{"Expires", "expires_days"}, after: ready()},
		{name: "tools disabled", check: "tools_permissions_policy", cause: CauseToolsDisabled,
			before: ready(setHeader("/", "Permissions-Policy", "tools=()")), advice: []string{"Permissions-Policy"}, after: ready()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := scanHandler(t, tc.before(t), Options{Pages: -1})
			c := r.checkByID(tc.check)
			if c.Verdict == Pass || c.Receipt.Cause != tc.cause {
				t.Fatalf("before: %s %s, cause %q, want cause %q\n%s", tc.check, c.Verdict, c.Receipt.Cause, tc.cause, receiptText(*c))
			}
			var item *PlanItem
			for i := range r.Plan {
				if r.Plan[i].ID == tc.check {
					item = &r.Plan[i]
				}
			}
			if item == nil {
				t.Fatalf("no plan item for %s", tc.check)
			}
			advice := item.Change + "\n" + item.SiteYAML
			for _, w := range tc.advice {
				if !strings.Contains(advice, w) {
					t.Errorf("advice lacks %q:\n%s", w, advice)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(advice, w) {
					t.Errorf("advice holds %q:\n%s", w, advice)
				}
			}
			after := scanHandler(t, tc.after(t), Options{Pages: -1, Only: tc.check})
			if c := after.checkByID(tc.check); c.Verdict != Pass {
				t.Errorf("after the advice: %s %s\n%s", tc.check, c.Verdict, receiptText(*c))
			}
		})
	}
}

// TestCatalogueTotals: 35 checks, 27 scored and 8 optional; weights add up
// to each section's points and the sections to 100.
func TestCatalogueTotals(t *testing.T) {
	cat := Catalogue()
	if len(cat) != 35 {
		t.Fatalf("%d checks, want 35", len(cat))
	}
	scored, optional := 0, 0
	sum := map[Section]float64{}
	ids := map[string]bool{}
	idRe := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for _, c := range cat {
		if ids[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		ids[c.ID] = true
		if !idRe.MatchString(c.ID) {
			t.Errorf("id %q is not snake_case", c.ID)
		}
		if checkFuncs[c.ID] == nil {
			t.Errorf("check %s has no implementation", c.ID)
		}
		if c.Optional {
			optional++
			if c.Weight != 0 || c.Section != SectionOptional {
				t.Errorf("optional %s has weight %v in section %s", c.ID, c.Weight, c.Section)
			}
			continue
		}
		scored++
		if c.Weight <= 0 {
			t.Errorf("scored %s has weight %v", c.ID, c.Weight)
		}
		sum[c.Section] += c.Weight
	}
	if scored != 27 || optional != 8 {
		t.Errorf("%d scored and %d optional, want 27 and 8", scored, optional)
	}
	total := 0.0
	for _, s := range Sections() {
		if sum[s.ID] != s.Points {
			t.Errorf("section %s weights add up to %v, want %v", s.ID, sum[s.ID], s.Points)
		}
		total += s.Points
	}
	if total != 100 {
		t.Errorf("sections add up to %v, want 100", total)
	}
	if len(checkFuncs) != len(cat) {
		t.Errorf("%d implementations for %d checks", len(checkFuncs), len(cat))
	}
	// Each requirement R1..R10 is proven by at least one check.
	reqs := map[string]bool{}
	for _, c := range cat {
		reqs[c.Requirement] = true
	}
	for _, r := range []string{"R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10"} {
		if !reqs[r] {
			t.Errorf("requirement %s has no check", r)
		}
	}
}

// TestCatalogueIsACopy: callers cannot change the catalogue.
func TestCatalogueIsACopy(t *testing.T) {
	c := Catalogue()
	c[0].Weight = 99
	if Catalogue()[0].Weight == 99 {
		t.Error("Catalogue returned the package's own slice")
	}
}

// TestStandardDoc: docs/standard.md is what StandardDoc renders from the
// catalogues (so ids, weights, causes and advice cannot drift), every
// check has its verdict rule, and every cause a check names has advice of
// its own or the check's.
func TestStandardDoc(t *testing.T) {
	for _, c := range catalogue {
		if checkRules[c.ID] == "" {
			t.Errorf("%s has no verdict rule in checkRules", c.ID)
		}
	}
	for id := range checkCauses {
		checkInfo(id)
	}
	for key := range causeFixes {
		found := false
		for id, causes := range checkCauses {
			for _, c := range causes {
				found = found || id+"/"+c == key
			}
		}
		if !found {
			t.Errorf("advice for %s, a cause no check lists", key)
		}
	}
	if len(sortedCauses()) < 40 {
		t.Errorf("only %d causes listed", len(sortedCauses()))
	}
	golden.Check(t, filepath.Join("..", "docs", "standard.md"), []byte(StandardDoc()))
}
