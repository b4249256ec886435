package selfcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// num formats points without trailing zeros (4, 2.5, 0.75).
func num(f float64) string {
	return strconv.FormatFloat(round2(f), 'f', -1, 64)
}

// receiptText renders a check's receipt as STANDARD.md §4 prints it. The
// Markdown and the HTML reports both show exactly this text.
func receiptText(c CheckResult) string {
	var b strings.Builder
	w := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	rc := c.Receipt
	w("check", c.ID)
	if rc.Request != nil {
		w("request", rc.Request.Method+" "+rc.Request.URL)
		writeHeaders(&b, rc.Request.Header)
	}
	w("expected", rc.Expected)
	if rc.Received != nil {
		w("received", rc.Received.summary())
		if rc.Received.URL != "" {
			w("  final url", rc.Received.URL)
		}
		if rc.Received.Excerpt != "" {
			w("  body", strconv.Quote(rc.Received.Excerpt))
		}
	}
	for _, a := range rc.Also {
		w("also", a.Request.Method+" "+a.Request.URL+" → "+a.Received.summary())
	}
	for _, r := range rc.Routes {
		line := string(r.Verdict)
		if r.Received != "" {
			line += " — " + r.Received
		}
		if r.Missing != "" && r.Verdict != Pass {
			line += " — missing: " + r.Missing
		}
		w("route "+pathOf(r.Route), line)
	}
	if rc.Details != nil {
		if d, err := json.MarshalIndent(rc.Details, "  ", "  "); err == nil {
			w("details", string(d))
		}
	}
	w("note", rc.Note)
	w("status", strings.ToLower(string(c.Verdict)))
	if c.Verdict == Partial {
		w("fraction", num(c.Fraction))
	}
	w("missing", c.Missing)
	if c.Found != nil {
		w("found", strconv.FormatBool(*c.Found))
	}
	if c.Weight > 0 {
		w("weight", num(c.Weight))
		w("earned", num(c.Earned))
	}
	w("scope", strings.Join(c.Scope, ", "))
	return b.String()
}

// writeHeaders writes request headers indented, in name order.
func writeHeaders(b *strings.Builder, h map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(h)) {
		fmt.Fprintf(b, "  %s: %s\n", k, h[k])
	}
}

// verdictIcon is the text symbol shown with each verdict, so that colour is
// never the only signal.
func verdictIcon(v Verdict) string {
	switch v {
	case Pass:
		return "✓"
	case Partial:
		return "◐"
	case Fail:
		return "✗"
	case CouldNotCheck:
		return "?"
	case NotApplicable:
		return "–"
	case Optional:
		return "○"
	case Unverified:
		return "⊘"
	}
	return ""
}

// sectionChecks returns the checks of a section, in catalogue order.
func (r *Report) sectionChecks(id Section) []CheckResult {
	var out []CheckResult
	for _, c := range r.Checks {
		if c.Section == id {
			out = append(out, c)
		}
	}
	return out
}

// checkByID returns the check with id, or nil.
func (r *Report) checkByID(id string) *CheckResult {
	for i := range r.Checks {
		if r.Checks[i].ID == id {
			return &r.Checks[i]
		}
	}
	return nil
}

// checkpointText renders a checkpoint's receipt like a check's, then its
// strength, fix and verification command.
func checkpointText(c CheckpointResult) string {
	t := receiptText(CheckResult{ID: c.ID, Verdict: c.Verdict, Missing: c.Missing, Scope: c.Scope, Receipt: c.Receipt})
	t += "strength: " + string(c.Strength) + "\n"
	if c.Agrees != "" {
		t += "agrees with: " + c.Agrees + "\n"
	}
	if c.Fix != "" {
		t += "fix: " + c.Fix + "\n"
	}
	return t + "verify: " + c.Verify + "\n"
}

// checkpointCounts is the one-line summary of the checkpoint lens.
func (r *Report) checkpointCounts() string {
	cs := r.CheckpointSummary
	var parts []string
	for _, v := range []Verdict{Pass, Partial, Fail, NotApplicable, CouldNotCheck} {
		if n := cs.ByVerdict[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	line := fmt.Sprintf("%d checkpoints: %s", cs.Total, strings.Join(parts, ", "))
	if len(cs.MustFailing) > 0 {
		line += "; MUST failing: " + strings.Join(cs.MustFailing, ", ")
	}
	return line
}

// lintText renders one rule's outcome: verdict, findings, fix.
func lintText(l LintResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule: %s (%s)\nstatus: %s\n", l.ID, l.Kind, strings.ToLower(string(l.Verdict)))
	for _, f := range l.Findings {
		where := f.Document
		if f.Line > 0 {
			where += fmt.Sprintf(":%d", f.Line)
		}
		if f.Field != "" {
			where += " " + f.Field
		}
		fmt.Fprintf(&b, "finding: %s — %s", where, f.Message)
		if f.Excerpt != "" {
			fmt.Fprintf(&b, " — %s", strconv.Quote(f.Excerpt))
		}
		b.WriteString("\n")
	}
	if l.Note != "" {
		fmt.Fprintf(&b, "note: %s\n", l.Note)
	}
	if l.Fix != "" {
		fmt.Fprintf(&b, "fix: %s\n", l.Fix)
	}
	return b.String()
}

// lintLine is the one-line summary of the lint lens.
func (lr *LintReport) lintLine() string {
	return fmt.Sprintf("%d rules: %d failure(s), %d warning(s); highest executability level the guidance supports: %s (%s)",
		len(lr.Rules), lr.Failures, lr.Warnings, lr.LevelName, lr.LevelReason)
}

// JSON renders the report in the schema of docs/report-schema.md, indented,
// with a trailing newline.
func (r *Report) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Markdown renders the report as Markdown: the score, the section table,
// the could-not-check and unverified lists, then every check with its
// receipt in a fenced block (STANDARD.md §4).
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Agent-readiness report: %s\n\n", r.Target)
	if r.TargetNote != "" {
		fmt.Fprintf(&b, "Address scanned: %s (%s).\n\n", r.Target, r.TargetNote)
	}
	fmt.Fprintf(&b, "**Score: %s / 100** (%s of %s applicable points) under %s, revision %s.\n\n",
		num(r.Score), num(r.Earned), num(r.Applicable), r.Standard.Name, r.Standard.Revision)
	fmt.Fprintf(&b, "Scanned by %s %s on %s in %d ms. A diagnostic to act on, not a certificate.\n\n",
		r.Scanner.Name, r.Scanner.Version, r.Started.Format("2006-01-02 15:04:05 UTC"), r.DurationMS)
	r.markdownPlan(&b)
	b.WriteString("Routes read (page-level findings describe these and no others):\n\n")
	for _, rt := range r.Routes {
		fmt.Fprintf(&b, "- %s\n", rt)
	}
	b.WriteString("\n## Sections\n\n| Section | Earned | Applicable | Points |\n|---|---:|---:|---:|\n")
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", s.Title, num(s.Earned), num(s.Applicable), num(s.Points))
	}
	for _, s := range r.Sections {
		if len(s.Unverified) > 0 {
			fmt.Fprintf(&b, "\n%s is never a perfect score here: %s stays UNVERIFIED (docs/standard.md#rule-3); its points are not withheld.\n", s.Title, strings.Join(s.Unverified, ", "))
		}
	}
	b.WriteString("\n## Could not check\n\n")
	if len(r.CouldNotCheck) == 0 {
		b.WriteString("None.\n")
	}
	for _, id := range r.CouldNotCheck {
		c := r.checkByID(id)
		fmt.Fprintf(&b, "- `%s` (weight %s): %s\n", id, num(c.Weight), c.Missing)
	}
	b.WriteString("\n## Unverified\n\n")
	for _, u := range r.Unverified {
		fmt.Fprintf(&b, "- `%s`: %s — %s\n", u.ID, u.Verdict, u.Reason)
	}
	titles := map[Section]string{SectionOptional: "Optional (unscored)"}
	for _, s := range r.Sections {
		titles[s.ID] = fmt.Sprintf("%s (%s)", s.Title, s.label())
	}
	for _, sec := range append(sectionIDs(), SectionOptional) {
		fmt.Fprintf(&b, "\n## %s\n", titles[sec])
		for _, c := range r.sectionChecks(sec) {
			fmt.Fprintf(&b, "\n### %s %s — %s", verdictIcon(c.Verdict), c.ID, c.Verdict)
			if c.Weight > 0 {
				fmt.Fprintf(&b, " (%s / %s)", num(c.Earned), num(c.Weight))
			}
			b.WriteString("\n\n")
			text := receiptText(c)
			fence := fenceFor(text)
			fmt.Fprintf(&b, "%s\n%s%s\n", fence, text, fence)
		}
	}
	r.markdownCheckpoints(&b)
	r.markdownLint(&b)
	return b.Bytes()
}

// markdownCheckpoints writes the second lens: a table, then each
// checkpoint's receipt, fix and verification command.
func (r *Report) markdownCheckpoints(b *bytes.Buffer) {
	if len(r.Checkpoints) == 0 {
		return
	}
	b.WriteString("\n## Agent-protocol checkpoints (docs/standard.md#checkpoints, not scored)\n\n")
	b.WriteString(r.checkpointCounts() + ".\n\n| Checkpoint | Legacy | Strength | Verdict | Missing |\n|---|---|---|---|---|\n")
	for _, c := range r.Checkpoints {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s %s | %s |\n", c.ID, c.Legacy, c.Strength, verdictIcon(c.Verdict), c.Verdict, mdCell(c.Missing))
	}
	for _, c := range r.Checkpoints {
		fmt.Fprintf(b, "\n### %s %s — %s (%s)\n\n", verdictIcon(c.Verdict), c.ID, c.Verdict, c.Strength)
		text := checkpointText(c)
		fence := fenceFor(text)
		fmt.Fprintf(b, "%s\n%s%s\n", fence, text, fence)
	}
}

// markdownPlan writes the fix-first plan and the three lenses' one-line
// summaries.
func (r *Report) markdownPlan(b *bytes.Buffer) {
	fmt.Fprintf(b, "Three lenses: **%s / 100**; %s; ", num(r.Score), r.checkpointCounts())
	if r.Lint != nil {
		b.WriteString(r.Lint.lintLine())
	}
	b.WriteString(".\n\n## Fix first\n\n")
	if len(r.Plan) == 0 {
		b.WriteString("Nothing to fix.\n\n")
		return
	}
	for _, p := range r.Plan {
		fmt.Fprintf(b, "%d. **%s** `%s` (%s", p.Rank, p.Lens, p.ID, p.Verdict)
		if p.Points > 0 {
			fmt.Fprintf(b, ", +%s points", num(p.Points))
		}
		fmt.Fprintf(b, ", effort %d): %s\n", p.Effort, strings.ReplaceAll(p.Change, "\n", " "))
		if p.SiteYAML != "" {
			fmt.Fprintf(b, "\n   Add to site.yaml:\n\n   ```yaml\n%s   ```\n\n", indent(p.SiteYAML, "   "))
		}
		fmt.Fprintf(b, "   Check again: `%s`\n", p.Verify)
	}
	b.WriteString("\n")
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	var out strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			out.WriteString(prefix + l)
		}
	}
	return out.String()
}

// markdownLint writes the third lens.
func (r *Report) markdownLint(b *bytes.Buffer) {
	if r.Lint == nil || len(r.Lint.Rules) == 0 {
		return
	}
	b.WriteString("\n## Agent-compatibility lint (docs/standard.md#lint, not scored)\n\n")
	b.WriteString(r.Lint.lintLine() + ".\n\n| Rule | Kind | Verdict | Where |\n|---|---|---|---|\n")
	for _, l := range r.Lint.Rules {
		where := ""
		if len(l.Findings) > 0 {
			f := l.Findings[0]
			where = f.Document
			if f.Line > 0 {
				where += fmt.Sprintf(":%d", f.Line)
			}
			if f.Field != "" {
				where += " " + f.Field
			}
		}
		fmt.Fprintf(b, "| `%s` | %s | %s %s | %s |\n", l.ID, l.Kind, verdictIcon(l.Verdict), l.Verdict, mdCell(where))
	}
	for _, l := range r.Lint.Rules {
		if l.Verdict != Fail {
			continue
		}
		text := lintText(l)
		fence := fenceFor(text)
		fmt.Fprintf(b, "\n### %s %s — %s\n\n%s\n%s%s\n", verdictIcon(l.Verdict), l.ID, l.Kind, fence, text, fence)
	}
}

// mdCell makes text safe inside a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 160 {
		s = s[:160] + " …"
	}
	return s
}

// sectionIDs lists the scored sections in order.
func sectionIDs() []Section {
	var out []Section
	for _, s := range Sections() {
		out = append(out, s.ID)
	}
	return out
}

// fenceFor returns a backtick fence longer than any backtick run in text
// (CommonMark §4.5), so a hostile excerpt cannot close the block.
func fenceFor(text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// verdictColours are the Okabe-Ito palette's colours for each verdict;
// every verdict is also shown as text and an icon, never colour alone.
var verdictColours = map[Verdict]string{
	Pass:          "#009E73",
	Partial:       "#E69F00",
	Fail:          "#D55E00",
	CouldNotCheck: "#56B4E9",
	NotApplicable: "#999999",
	Optional:      "#0072B2",
	Unverified:    "#CC79A7",
}

// htmlCheck is a check as the HTML template shows it.
type htmlCheck struct {
	CheckResult
	Icon, Colour, Class, Text string
}

// htmlSection is a section as the HTML template shows it.
type htmlSection struct {
	ID, Title, Label string
	Width            float64 // filled bar width out of 200
	Checks           []htmlCheck
}

// htmlView is everything the template reads.
type htmlView struct {
	R                *Report
	Score            string
	Dash, Gap        float64
	GaugeColour      string
	Sections         []htmlSection
	Optional         []htmlCheck
	Legend           []htmlCheck
	CouldNotCheckIDs []htmlCheck
	Checkpoints      []htmlCheckpoint
	CheckpointLine   string
	Lint             []htmlLint
	LintLine         string
}

// htmlLint is a lint rule as the HTML template shows it.
type htmlLint struct {
	LintResult
	Icon, Colour, Class, Text string
}

// htmlCheckpoint is a checkpoint as the HTML template shows it.
type htmlCheckpoint struct {
	CheckpointResult
	Icon, Colour, Class, Text string
}

// HTML renders the report as one self-contained page: inline CSS and SVG, no
// external assets, no JavaScript. Stable hooks: #score, .section-bar (one
// per section), details.check (one per check, id "check-<id>").
func (r *Report) HTML() []byte {
	v := htmlView{R: r, Score: num(r.Score)}
	const circumference = 2 * math.Pi * 52
	v.Dash = round2(circumference * r.Score / 100)
	v.Gap = round2(circumference - v.Dash)
	switch {
	case r.Score >= 80:
		v.GaugeColour = verdictColours[Pass]
	case r.Score >= 50:
		v.GaugeColour = verdictColours[Partial]
	default:
		v.GaugeColour = verdictColours[Fail]
	}
	wrap := func(c CheckResult) htmlCheck {
		return htmlCheck{CheckResult: c, Icon: verdictIcon(c.Verdict), Colour: verdictColours[c.Verdict],
			Class: strings.ToLower(strings.ReplaceAll(string(c.Verdict), "_", "-")), Text: receiptText(c)}
	}
	for _, s := range r.Sections {
		hs := htmlSection{ID: string(s.ID), Title: s.Title, Label: s.label()}
		if s.Applicable > 0 {
			hs.Width = round2(200 * s.Earned / s.Applicable)
		} else {
			hs.Label = "not applicable"
		}
		for _, c := range r.sectionChecks(s.ID) {
			hs.Checks = append(hs.Checks, wrap(c))
		}
		v.Sections = append(v.Sections, hs)
	}
	for _, c := range r.sectionChecks(SectionOptional) {
		v.Optional = append(v.Optional, wrap(c))
	}
	for _, id := range r.CouldNotCheck {
		v.CouldNotCheckIDs = append(v.CouldNotCheckIDs, wrap(*r.checkByID(id)))
	}
	for _, c := range r.Checkpoints {
		v.Checkpoints = append(v.Checkpoints, htmlCheckpoint{CheckpointResult: c, Icon: verdictIcon(c.Verdict), Colour: verdictColours[c.Verdict],
			Class: strings.ToLower(strings.ReplaceAll(string(c.Verdict), "_", "-")), Text: checkpointText(c)})
	}
	v.CheckpointLine = r.checkpointCounts()
	if r.Lint != nil {
		v.LintLine = r.Lint.lintLine()
		for _, l := range r.Lint.Rules {
			v.Lint = append(v.Lint, htmlLint{LintResult: l, Icon: verdictIcon(l.Verdict), Colour: verdictColours[l.Verdict],
				Class: strings.ToLower(strings.ReplaceAll(string(l.Verdict), "_", "-")), Text: lintText(l)})
		}
	}
	for _, vd := range []Verdict{Pass, Partial, Fail, CouldNotCheck, NotApplicable, Optional, Unverified} {
		v.Legend = append(v.Legend, htmlCheck{CheckResult: CheckResult{Verdict: vd}, Icon: verdictIcon(vd), Colour: verdictColours[vd]})
	}
	var b bytes.Buffer
	if err := htmlTemplate.Execute(&b, v); err != nil {
		// The template is fixed and the view fully typed: an error here is a bug.
		return []byte("<!doctype html><title>report error</title><p>" + template.HTMLEscapeString(err.Error()))
	}
	return b.Bytes()
}

// htmlTemplate is the page. Colour pairs meet WCAG AA contrast on white.
var htmlTemplate = template.Must(template.New("report").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent-readiness report: {{.R.Target}}</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1a1a1a;background:#fff}
h1{font-size:1.4rem;word-break:break-all}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}
.summary{display:flex;gap:2rem;align-items:center;flex-wrap:wrap}
.bars{display:grid;grid-template-columns:8rem 210px auto;gap:.3rem .6rem;align-items:center}
details.check,details.cp{border:1px solid #ddd;border-left:6px solid var(--c);border-radius:4px;margin:.4rem 0;padding:.2rem .6rem}
details.check summary,details.cp summary{cursor:pointer;list-style-position:inside}
.verdict{display:inline-block;min-width:10.5rem;font-weight:600}
.icon{display:inline-block;width:1.3em;text-align:center;font-weight:700;color:var(--c)}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:.6rem;font-size:13px}
.legend span{margin-right:1rem;white-space:nowrap}
.muted{color:#555}
</style>
</head>
<body>
<h1>Agent-readiness report: {{.R.Target}}</h1>
{{if .R.TargetNote}}<p id="target-note">Address scanned: {{.R.Target}} ({{.R.TargetNote}}).</p>
{{end}}<p class="muted">Scored under {{.R.Standard.Name}}, revision {{.R.Standard.Revision}}, by {{.R.Scanner.Name}} {{.R.Scanner.Version}} on {{.R.Started.Format "2006-01-02 15:04:05 UTC"}} in {{.R.DurationMS}} ms. A diagnostic to act on, not a certificate.</p>
<div class="summary">
<svg id="score-gauge" width="140" height="140" viewBox="0 0 120 120" role="img" aria-labelledby="score">
<circle cx="60" cy="60" r="52" fill="none" stroke="#e5e5e5" stroke-width="12"/>
<circle cx="60" cy="60" r="52" fill="none" stroke="{{.GaugeColour}}" stroke-width="12" stroke-dasharray="{{.Dash}} {{.Gap}}" transform="rotate(-90 60 60)"/>
<text id="score" x="60" y="66" text-anchor="middle" font-size="22" font-weight="700" data-score="{{.Score}}">{{.Score}}</text>
<text x="60" y="84" text-anchor="middle" font-size="10">/ 100</text>
</svg>
<div class="bars">
{{range .Sections}}<span>{{.Title}}</span>
<svg class="section-bar" id="section-{{.ID}}" data-section="{{.ID}}" width="210" height="16" role="img" aria-label="{{.Title}}: {{.Label}}"><rect x="0" y="2" width="200" height="12" fill="#e5e5e5"/><rect x="0" y="2" width="{{.Width}}" height="12" fill="#0072B2"/></svg>
<span>{{.Label}}</span>
{{end}}</div>
</div>
<p id="lenses">Three lenses: <strong>{{.Score}} / 100</strong>; {{.CheckpointLine}}{{if .LintLine}}; {{.LintLine}}{{end}}.</p>
<h2 id="plan">Fix first</h2>
{{if .R.Plan}}<ol class="plan">{{range .R.Plan}}<li class="plan-item" data-id="{{.ID}}" data-lens="{{.Lens}}"><strong>{{.Lens}}</strong> <code>{{.ID}}</code> ({{.Verdict}}{{if gt .Points 0.0}}, +{{.Points}} points{{end}}, effort {{.Effort}}): {{.Change}}
{{if .SiteYAML}}<br>Add to site.yaml:<pre>{{.SiteYAML}}</pre>{{end}}<br>Check again: <code>{{.Verify}}</code></li>
{{end}}</ol>{{else}}<p>Nothing to fix.</p>{{end}}
<p>{{.R.Earned}} of {{.R.Applicable}} applicable points. Routes read (page-level findings describe these and no others):</p>
<ul id="routes">{{range .R.Routes}}<li>{{.}}</li>{{end}}</ul>
<p class="legend">{{range .Legend}}<span style="--c:{{.Colour}}"><span class="icon" aria-hidden="true">{{.Icon}}</span>{{.Verdict}}</span>{{end}}</p>
<h2 id="could-not-check">Could not check</h2>
{{if .CouldNotCheckIDs}}<ul>{{range .CouldNotCheckIDs}}<li><a href="#check-{{.ID}}">{{.ID}}</a> (weight {{.Weight}}): {{.Missing}}</li>{{end}}</ul>{{else}}<p>None.</p>{{end}}
<h2 id="unverified">Unverified</h2>
<ul>{{range .R.Unverified}}<li><strong>{{.ID}}</strong>: {{.Verdict}} — {{.Reason}}</li>{{end}}</ul>
{{range .Sections}}<h2 id="section-heading-{{.ID}}">{{.Title}} <span class="muted">({{.Label}})</span></h2>
{{range .Checks}}{{template "check" .}}{{end}}{{end}}
<h2 id="section-heading-optional">Optional (unscored)</h2>
{{range .Optional}}{{template "check" .}}{{end}}
{{if .Checkpoints}}<h2 id="checkpoints">Agent-protocol checkpoints <span class="muted">(docs/standard.md#checkpoints, not scored)</span></h2>
<p id="checkpoint-summary">{{.CheckpointLine}}</p>
{{range .Checkpoints}}<details class="cp {{.Class}}" id="checkpoint-{{.ID}}" data-verdict="{{.Verdict}}" style="--c:{{.Colour}}">
<summary><span class="icon" aria-hidden="true">{{.Icon}}</span><span class="verdict">{{.Verdict}}</span> <code>{{.ID}}</code> — {{.Title}} <span class="muted">({{.Strength}})</span></summary>
<pre>{{.Text}}</pre>
</details>
{{end}}{{end}}
{{if .Lint}}<h2 id="lint">Agent-compatibility lint <span class="muted">(docs/standard.md#lint, not scored)</span></h2>
<p id="lint-summary">{{.LintLine}}</p>
{{range .Lint}}<details class="cp lint {{.Class}}" id="lint-{{.ID}}" data-verdict="{{.Verdict}}" data-kind="{{.Kind}}" style="--c:{{.Colour}}">
<summary><span class="icon" aria-hidden="true">{{.Icon}}</span><span class="verdict">{{.Verdict}}</span> <code>{{.ID}}</code> — {{.Title}} <span class="muted">({{.Kind}})</span></summary>
<pre>{{.Text}}</pre>
</details>
{{end}}{{end}}</body>
</html>
{{define "check"}}<details class="check {{.Class}}" id="check-{{.ID}}" data-verdict="{{.Verdict}}" style="--c:{{.Colour}}">
<summary><span class="icon" aria-hidden="true">{{.Icon}}</span><span class="verdict">{{.Verdict}}</span> <code>{{.ID}}</code> — {{.Title}}{{if gt .Weight 0.0}} <span class="muted">({{.Earned}} / {{.Weight}})</span>{{end}}</summary>
<pre>{{.Text}}</pre>
</details>
{{end}}`))
