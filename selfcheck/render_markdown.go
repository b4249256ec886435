package selfcheck

import (
	"bytes"
	"fmt"
	"strings"
)

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
