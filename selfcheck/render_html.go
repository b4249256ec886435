package selfcheck

import (
	"bytes"
	"html/template"
	"math"
	"strings"
)

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
