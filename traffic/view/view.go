// Package view renders a site's traffic (a traffic.Snapshot) as the
// Agents view: one self-contained HTML page, inline CSS and SVG, no script
// and no external asset. It is pure: the admin endpoint that serves it is
// Caddy glue (caddymodule), the page is made here and tested without Caddy.
package view

import (
	"bytes"
	"cmp"
	"fmt"
	"html"
	"html/template"
	"slices"
	"strings"
	"time"

	"github.com/agentready/caddy-agentready/traffic"
)

// purposeStyle is how a purpose is drawn: an Okabe-Ito colour and an SVG
// pattern, so that the charts read without colour too, and its legend text.
type purposeStyle struct {
	colour, pattern, text string
}

var purposeStyles = map[string]purposeStyle{
	"training": {"#D55E00", `<path d="M0,6 L6,0" stroke="#fff" stroke-width="1.5"/>`, "training crawlers"},
	"search":   {"#0072B2", `<circle cx="3" cy="3" r="1.3" fill="#fff"/>`, "AI search crawlers"},
	"user":     {"#009E73", `<path d="M0,3 H6" stroke="#fff" stroke-width="1.5"/>`, "user-triggered fetchers"},
	"agent":    {"#CC79A7", `<path d="M3,0 V6" stroke="#fff" stroke-width="1.5"/>`, "autonomous agents"},
	"bot":      {"#E69F00", `<path d="M0,0 L6,6 M6,0 L0,6" stroke="#fff" stroke-width="1"/>`, "other bots"},
	"tool":     {"#56B4E9", `<rect x="1" y="1" width="2" height="2" fill="#fff"/>`, "HTTP tools"},
	"headless": {"#000000", `<path d="M0,1 H6 M0,4 H6" stroke="#fff" stroke-width="0.8"/>`, "headless browsers"},
	"browser":  {"#BBBBBB", ``, "browsers"},
	"unknown":  {"#777777", `<path d="M0,6 L6,0" stroke="#fff" stroke-width="0.6"/>`, "unknown clients"},
}

var purposeOrder = []string{"training", "search", "user", "agent", "bot", "tool", "headless", "browser", "unknown"}

// svgDefs are the fill patterns of the purposes.
func svgDefs() string {
	var b strings.Builder
	b.WriteString(`<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>`)
	for _, p := range purposeOrder {
		s := purposeStyles[p]
		fmt.Fprintf(&b, `<pattern id="p-%s" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="%s"/>%s</pattern>`, p, s.colour, s.pattern)
	}
	b.WriteString(`</defs></svg>`)
	return b.String()
}

// swatch is a legend square in a purpose's pattern.
func swatch(p string) template.HTML {
	return template.HTML(fmt.Sprintf(`<svg width="14" height="14" aria-hidden="true"><rect width="14" height="14" fill="url(#p-%s)" stroke="#333" stroke-width=".5"/></svg>`, p))
}

// seriesChart draws a series as stacked bars by purpose, with the total of
// the busiest step and the time axis labelled.
func seriesChart(id, title string, s traffic.Series, points int) template.HTML {
	n := len(s.Markdown)
	if n == 0 {
		return ""
	}
	first := max(0, n-points)
	totals := make([]uint64, n)
	var peak uint64
	for i := first; i < n; i++ {
		for _, vs := range s.Requests {
			if i < len(vs) {
				totals[i] += vs[i]
			}
		}
		peak = max(peak, totals[i])
	}
	const w, h, left, bottom = 640.0, 180.0, 44.0, 22.0
	count := n - first
	bw := (w - left) / float64(count)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="%s" class="chart" viewBox="0 0 %g %g" role="img" aria-labelledby="%s-t"><title id="%s-t">%s</title>`, id, w, h+bottom, id, id, html.EscapeString(title))
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#333"/>`, left, h, w, h)
	fmt.Fprintf(&b, `<text x="%g" y="12" font-size="11" text-anchor="end">%d</text><text x="%g" y="%g" font-size="11" text-anchor="end">0</text>`, left-4, peak, left-4, h)
	step := time.Duration(s.StepSeconds) * time.Second
	if peak > 0 {
		for i := first; i < n; i++ {
			x := left + float64(i-first)*bw
			y := h
			at := s.Start.Add(time.Duration(i) * step)
			for _, p := range purposeOrder {
				vs := s.Requests[p]
				if i >= len(vs) || vs[i] == 0 {
					continue
				}
				bh := float64(vs[i]) / float64(peak) * (h - 16)
				y -= bh
				fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="url(#p-%s)" stroke="#fff" stroke-width=".3"><title>%s %s: %d requests</title></rect>`,
					x, y, max(bw-1, 0.5), bh, p, at.UTC().Format("Jan 2 15:04"), purposeStyles[p].text, vs[i])
			}
		}
	}
	for _, i := range []int{first, first + count/2, n - 1} {
		at := s.Start.Add(time.Duration(i) * step).UTC()
		anchor := "middle"
		if i == first {
			anchor = "start"
		} else if i == n-1 {
			anchor = "end"
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" font-size="11" text-anchor="%s">%s UTC</text>`, left+float64(i-first)*bw+bw/2, h+16, anchor, at.Format("Jan 2 15:04"))
	}
	if peak == 0 {
		fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="13" text-anchor="middle">no requests in this period</text>`, left+(w-left)/2, h/2)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// formRow is one purpose's requests by form, for the Markdown share chart.
type formRow struct {
	Purpose, Text                     string
	HTML, Markdown, Discovery, Others uint64
}

// formChart draws, per purpose, the share of each form as a horizontal
// bar: HTML, Markdown, discovery documents (each with its own pattern and
// its count written beside it).
func formChart(rows []formRow) template.HTML {
	if len(rows) == 0 {
		return ""
	}
	const w, rowH, left = 640.0, 26.0, 170.0
	h := rowH*float64(len(rows)) + 4
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="forms" class="chart" viewBox="0 0 %g %g" role="img" aria-labelledby="forms-t"><title id="forms-t">Form served, by kind of client</title>`, w, h)
	b.WriteString(`<defs><pattern id="f-md" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="#009E73"/><path d="M0,6 L6,0" stroke="#fff" stroke-width="1.5"/></pattern>` +
		`<pattern id="f-doc" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="#0072B2"/><circle cx="3" cy="3" r="1.3" fill="#fff"/></pattern></defs>`)
	for i, r := range rows {
		y := float64(i)*rowH + 2
		total := r.HTML + r.Markdown + r.Discovery + r.Others
		fmt.Fprintf(&b, `<text x="0" y="%.1f" font-size="12">%s</text>`, y+15, html.EscapeString(r.Text))
		x := left
		for _, seg := range []struct {
			n          uint64
			fill, name string
		}{{r.Markdown, "url(#f-md)", "Markdown"}, {r.HTML, "#BBBBBB", "HTML"}, {r.Discovery, "url(#f-doc)", "discovery documents"}, {r.Others, "#F0F0F0", "other"}} {
			if seg.n == 0 || total == 0 {
				continue
			}
			sw := float64(seg.n) / float64(total) * (w - left - 120)
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="18" fill="%s" stroke="#333" stroke-width=".4"><title>%s: %d %s</title></rect>`, x, y, sw, seg.fill, html.EscapeString(r.Text), seg.n, seg.name)
			x += sw
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="12">%s Markdown</text>`, x+6, y+14, percent(r.Markdown, r.Markdown+r.HTML))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// percent is a/b as a whole percentage, "–" when b is 0.
func percent(a, b uint64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

// agentRow is one client in the top agents table.
type agentRow struct {
	traffic.ClientStats
	PurposeText                string
	Swatch                     template.HTML
	HTML, Markdown             uint64
	Share                      string
	VerifiedIcon, VerifiedText string
	VerifiedClass              string
	Pages                      []traffic.PageCount
}

// pageRow is a page and how often agents read it.
type pageRow struct {
	Path    string
	Count   uint64
	Clients string
}

// agentsView is what the Agents template reads.
type agentsView struct {
	Site          string
	Others        []string
	Since         string
	Defs          template.HTML
	Totals        traffic.Counts
	AgentRequests uint64
	MarkdownShare string
	Spoofed       uint64
	Legend        []agentLegend
	Minutes       template.HTML
	Hours         template.HTML
	Forms         template.HTML
	FormRows      []formRow
	Agents        []agentRow
	Pages         []pageRow
	Spoofers      []agentRow
	Verifier      *traffic.VerifierStats
	Fleet         []traffic.InstanceCounts
}

type agentLegend struct {
	Swatch template.HTML
	Text   string
}

// agentPurpose reports whether a client row is an AI agent or a bot (not
// a browser, tool or unknown client).
func agentPurpose(p string) bool {
	switch p {
	case "training", "search", "user", "agent", "bot":
		return true
	}
	return false
}

// Render renders the Agents view of one site (others are the other sites
// that count traffic, linked by ?site=): one self-contained page, inline
// CSS and SVG, no script, no external asset. Stable hooks: #agents-summary,
// #requests-minutes, #requests-hours, #forms, #top-agents, #top-pages,
// #spoofers.
func Render(site string, snap traffic.Snapshot, others []string) []byte {
	v := agentsView{Site: site, Others: others, Since: snap.Since.UTC().Format("2006-01-02 15:04 UTC"),
		Defs: template.HTML(svgDefs()), Totals: snap.Totals, Verifier: snap.Verifier, Fleet: snap.Fleet}
	for _, p := range purposeOrder {
		v.Legend = append(v.Legend, agentLegend{swatch(p), purposeStyles[p].text})
	}
	v.Minutes = seriesChart("requests-minutes", "Requests per minute over the last hour, by kind of client", snap.Minutes, 60)
	v.Hours = seriesChart("requests-hours", "Requests per hour over the last three days, by kind of client", snap.Hours, 72)
	t := tally{forms: map[string]*formRow{}, pages: map[string]*pageRow{}}
	for _, c := range snap.Clients {
		row := t.add(c)
		v.Spoofed += row.Verification.Failed
		if agentPurpose(c.Purpose) {
			v.AgentRequests += c.Totals.Requests
		}
		if row.Verification.Failed > 0 {
			v.Spoofers = append(v.Spoofers, row)
		}
		v.Agents = append(v.Agents, row)
	}
	v.MarkdownShare = percent(t.markdown, t.markdownOrHTML)
	for _, p := range purposeOrder {
		if fr := t.forms[p]; fr != nil {
			v.FormRows = append(v.FormRows, *fr)
		}
	}
	v.Forms = formChart(v.FormRows)
	for _, p := range t.pages {
		v.Pages = append(v.Pages, *p)
	}
	slices.SortFunc(v.Pages, func(a, b pageRow) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Path, b.Path)) })
	v.Pages = v.Pages[:min(len(v.Pages), 20)]
	v.Agents = v.Agents[:min(len(v.Agents), 30)]
	var b bytes.Buffer
	if err := agentsTemplate.Execute(&b, v); err != nil {
		return []byte("<!doctype html><title>traffic view error</title><p>" + template.HTMLEscapeString(err.Error()))
	}
	return b.Bytes()
}

// tally sums the clients of a snapshot by purpose and form (the Markdown
// share chart) and by page (the pages agents read).
type tally struct {
	forms                    map[string]*formRow
	pages                    map[string]*pageRow
	markdown, markdownOrHTML uint64 // requests of all but browsers
}

// add counts one client and returns its row of the top agents table.
func (t *tally) add(c traffic.ClientStats) agentRow {
	fr := t.forms[c.Purpose]
	if fr == nil {
		fr = &formRow{Purpose: c.Purpose, Text: purposeStyles[c.Purpose].text}
		t.forms[c.Purpose] = fr
	}
	row := agentRow{ClientStats: c, PurposeText: purposeStyles[c.Purpose].text, Swatch: swatch(c.Purpose), Pages: c.TopPages}
	for _, cell := range c.Cells {
		switch cell.Form {
		case "html":
			fr.HTML += cell.Requests
			row.HTML += cell.Requests
		case "markdown":
			fr.Markdown += cell.Requests
			row.Markdown += cell.Requests
		case "discovery":
			fr.Discovery += cell.Requests
		default:
			fr.Others += cell.Requests
		}
	}
	if c.Purpose != "browser" {
		t.markdown += row.Markdown
		t.markdownOrHTML += row.Markdown + row.HTML
	}
	row.Share = percent(row.Markdown, row.Markdown+row.HTML)
	row.VerifiedIcon, row.VerifiedClass, row.VerifiedText = verification(c)
	if agentPurpose(c.Purpose) {
		for _, p := range c.TopPages {
			pr := t.pages[p.Path]
			if pr == nil {
				pr = &pageRow{Path: p.Path}
				t.pages[p.Path] = pr
			}
			pr.Count += p.Count
			if pr.Clients != "" {
				pr.Clients += ", "
			}
			pr.Clients += c.Client
		}
	}
	return row
}

// verification is how a client's verification reads in the table: an
// icon, its CSS class and the words.
func verification(c traffic.ClientStats) (icon, class, text string) {
	vc := c.Verification
	switch {
	case vc.Failed > 0 && vc.Verified > 0:
		return "✗", "failed", fmt.Sprintf("%d verified, %d failed verification", vc.Verified, vc.Failed)
	case vc.Failed > 0:
		return "✗", "failed", fmt.Sprintf("failed verification (%d requests)", vc.Failed)
	case vc.Verified > 0 && vc.Unverified == 0:
		return "✓", "verified", "verified"
	case vc.Verified > 0:
		return "✓", "verified", fmt.Sprintf("verified (%d of %d requests)", vc.Verified, c.Totals.Requests)
	case c.Operator != "":
		return "?", "claimed", "claimed, not verified"
	}
	return "–", "none", "nothing to verify"
}

// Nav links the score and the Agents view, one beside the other.
const Nav = `<nav class="views" style="font:15px system-ui,sans-serif;margin:.5rem auto;max-width:60rem;padding:0 1rem"><a href="./">Score</a> · <a href="agents">Agents: who reads the site</a></nav>`

// WithNav puts Nav at the top of the score's page, after its <body>; a
// page without one is returned as it is.
func WithNav(page []byte) []byte {
	i := bytes.Index(page, []byte("<body>"))
	if i < 0 {
		return page
	}
	i += len("<body>")
	return slices.Concat(page[:i], []byte(Nav), page[i:])
}

var agentsTemplate = template.Must(template.New("agents").Funcs(template.FuncMap{
	"num": func(n uint64) string {
		s := fmt.Sprint(n)
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		return s
	},
}).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Who reads {{.Site}}: agent traffic</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1a1a1a;background:#fff}
h1{font-size:1.4rem;word-break:break-all}h3{font-size:1rem;margin:.8rem 0 0}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}
nav.views a{margin-right:.3rem}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.6rem}
.tile{border:1px solid #ddd;border-radius:4px;padding:.4rem .6rem}.tile b{display:block;font-size:1.3rem}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1rem;font-size:13px}.legend span{display:inline-flex;gap:.3rem;align-items:center}
svg.chart{width:100%;height:auto;max-width:640px;display:block;margin:.4rem 0}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:.25rem .4rem;border-bottom:1px solid #eee;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.verified{color:#00684A}.failed{color:#B03A00;font-weight:600}.claimed{color:#555}
.icon{display:inline-block;width:1.2em;font-weight:700}
code{word-break:break-all}
</style>
</head>
<body>
<nav class="views"><a href="./">Score</a> · <strong>Agents: who reads the site</strong></nav>
<h1>Who reads {{.Site}}</h1>
<p>Counted since {{.Since}}. No client addresses or query strings are kept. {{if .Others}}Other sites: {{range .Others}}<a href="agents?site={{.}}">{{.}}</a> {{end}}{{end}}</p>
{{.Defs}}
<div class="tiles" id="agents-summary">
<div class="tile">Requests<b>{{num .Totals.Requests}}</b></div>
<div class="tile">From agents and bots<b>{{num .AgentRequests}}</b></div>
<div class="tile">Markdown share of pages read by agents<b>{{.MarkdownShare}}</b></div>
<div class="tile">Markdown tokens served<b>{{num .Totals.MarkdownTokens}}</b></div>
<div class="tile">Tokens saved against the HTML<b>{{num .Totals.TokensSaved}}</b></div>
<div class="tile">Blocked by the policy<b>{{num .Totals.Blocked}}</b></div>
<div class="tile">Spoofed requests<b>{{num .Spoofed}}</b></div>
</div>
<h2>Requests over time</h2>
<div class="legend">{{range .Legend}}<span>{{.Swatch}}{{.Text}}</span>{{end}}</div>
<h3>Per minute, the last hour</h3>
{{.Minutes}}
<h3>Per hour, the last three days</h3>
{{.Hours}}
<h2>Markdown share</h2>
<p>The form each kind of client was served: Markdown (hatched), HTML (grey), discovery documents (dotted).</p>
{{.Forms}}
<table>
<thead><tr><th>Kind of client</th><th class="n">HTML</th><th class="n">Markdown</th><th class="n">Discovery</th><th class="n">Other</th></tr></thead>
<tbody>{{range .FormRows}}<tr><td>{{.Text}}</td><td class="n">{{num .HTML}}</td><td class="n">{{num .Markdown}}</td><td class="n">{{num .Discovery}}</td><td class="n">{{num .Others}}</td></tr>{{end}}</tbody>
</table>
<h2>Top agents</h2>
<table id="top-agents">
<thead><tr><th>Client</th><th>Kind</th><th>Verification</th><th class="n">Requests</th><th class="n">Markdown</th><th class="n">Tokens served</th><th class="n">Tokens saved</th><th class="n">Blocked</th></tr></thead>
<tbody>{{range .Agents}}<tr><td><strong>{{.Client}}</strong>{{if .Operator}}<br><small>{{.Operator}}</small>{{end}}</td><td>{{.Swatch}} {{.PurposeText}}</td><td class="{{.VerifiedClass}}"><span class="icon" aria-hidden="true">{{.VerifiedIcon}}</span>{{.VerifiedText}}</td><td class="n">{{num .Totals.Requests}}</td><td class="n">{{.Share}}</td><td class="n">{{num .Totals.MarkdownTokens}}</td><td class="n">{{num .Totals.TokensSaved}}</td><td class="n">{{num .Totals.Blocked}}</td></tr>{{else}}<tr><td colspan="8">No requests counted yet.</td></tr>{{end}}</tbody>
</table>
<h2>Top pages read by agents</h2>
<table id="top-pages">
<thead><tr><th>Page</th><th class="n">Requests</th><th>Read by</th></tr></thead>
<tbody>{{range .Pages}}<tr><td><code>{{.Path}}</code></td><td class="n">{{num .Count}}</td><td>{{.Clients}}</td></tr>{{else}}<tr><td colspan="3">No agent has read a page yet.</td></tr>{{end}}</tbody>
</table>
<h2>Spoofers</h2>
<div id="spoofers">
{{if .Spoofers}}<p>Clients that claimed to be a known agent from an address its operator does not publish for it.</p>
<table><thead><tr><th>Claimed</th><th>Operator</th><th class="n">Failed requests</th><th class="n">Blocked</th></tr></thead>
<tbody>{{range .Spoofers}}<tr><td class="failed"><span class="icon" aria-hidden="true">✗</span>{{.Client}}</td><td>{{.Operator}}</td><td class="n">{{num .Verification.Failed}}</td><td class="n">{{num .Totals.Blocked}}</td></tr>{{end}}</tbody></table>
{{else}}<p><span class="icon" aria-hidden="true">✓</span>No client failed verification.</p>{{end}}
</div>
{{if .Fleet}}<h2>Fleet</h2>
<p>These counts are the sums over the instances that share the site's storage; each instance's part, as it last saved it:</p>
<table id="fleet"><thead><tr><th>Instance</th><th class="n">Requests</th><th>Saved</th></tr></thead>
<tbody>{{range .Fleet}}<tr><td><code>{{.Instance}}</code>{{if .Self}} (this one){{end}}</td><td class="n">{{num .Totals.Requests}}</td><td>{{.Saved.UTC.Format "2006-01-02 15:04:05 UTC"}}</td></tr>{{end}}</tbody></table>
{{end}}{{with .Verifier}}<p><small>Verifier: {{.Verified}} verified, {{.Failed}} failed, {{.Lookups}} reverse-DNS lookups, {{.Dropped}} dropped, {{.RangeLists}} range lists loaded.</small></p>{{end}}
<p><small>The same counts as JSON: <a href="traffic.json">traffic.json</a>.</small></p>
</body>
</html>
`))
