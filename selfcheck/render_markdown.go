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
	b.WriteString("Routes read (page-level findings describe these and no others):\n\n")
	for _, rt := range r.Routes {
		fmt.Fprintf(&b, "- %s\n", rt)
	}
	b.WriteString("\n## Sections\n\n| Section | Earned | Applicable | Points |\n|---|---:|---:|---:|\n")
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", s.Title, num(s.Earned), num(s.Applicable), num(s.Points))
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
		titles[s.ID] = fmt.Sprintf("%s (%s / %s)", s.Title, num(s.Earned), num(s.Applicable))
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
	return b.Bytes()
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
