package selfcheck

import (
	"encoding/json"
	"fmt"
	"maps"
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
