package selfcheck

import (
	"context"
	"fmt"
	"strings"
)

// lintLens is the third lens (STANDARD.md §12): the UAIX UAI-1 agent-
// compatibility rules read what the site tells agents (llms.txt,
// agents.json and its interfaces, OpenAPI, forms) and report failures and
// warnings, each with the document, line or field that triggered it, plus
// the highest executability level (L0–L7) the guidance honestly supports.
// It never changes the score; llms_minimal_instruction_required is the very
// rule llms_txt applies, so the two agree.
type lintLens struct{}

// LintKind is "failure" or "warning".
type LintKind string

// The two kinds of UAIX rule.
const (
	LintFailure LintKind = "failure"
	LintWarning LintKind = "warning"
)

// LintRuleInfo is one rule of the catalogue.
type LintRuleInfo struct {
	// ID is the UAIX rule id.
	ID string `json:"id"`
	// Kind is failure or warning.
	Kind LintKind `json:"kind"`
	// Title says what the rule asks.
	Title string `json:"title"`
	// Fix is the change that satisfies it.
	Fix string `json:"fix"`
}

// LintFinding is what triggered a rule: a document and a line or field.
type LintFinding struct {
	// Document is the address read (a path on the site).
	Document string `json:"document"`
	// Line is the 1-based line in the document, 0 when a field is named.
	Line int `json:"line,omitempty"`
	// Field is the JSON field or HTML element, when no line applies.
	Field string `json:"field,omitempty"`
	// Excerpt is the offending text, redacted and clipped.
	Excerpt string `json:"excerpt,omitempty"`
	// Message says what is wrong.
	Message string `json:"message"`
}

// LintResult is one rule's outcome.
type LintResult struct {
	// ID, Kind and Title repeat the catalogue entry.
	ID    string   `json:"id"`
	Kind  LintKind `json:"kind"`
	Title string   `json:"title"`
	// Verdict is PASS, FAIL (a failure or a warning that fired),
	// NOT_APPLICABLE (nothing the rule reads is there) or COULD_NOT_CHECK.
	Verdict Verdict `json:"verdict"`
	// Findings are what triggered it (empty on PASS and N/A).
	Findings []LintFinding `json:"findings"`
	// Fix is the change that satisfies it (on FAIL only).
	Fix string `json:"fix,omitempty"`
	// Note says what was read.
	Note string `json:"note,omitempty"`
}

// LintReport is the third lens's part of the report.
type LintReport struct {
	// Rules holds the 20 rules in catalogue order.
	Rules []LintResult `json:"rules"`
	// Failures and Warnings count the rules that fired, by kind.
	Failures int `json:"failures"`
	Warnings int `json:"warnings"`
	// Level is the highest executability level (0–7) the guidance
	// honestly supports; -1 when not even L0 holds.
	Level int `json:"level"`
	// LevelName names it ("L1 manifest/schema discovery").
	LevelName string `json:"level_name"`
	// LevelReason says what stops the next level.
	LevelReason string `json:"level_reason"`
}

// lintFunc decides one rule over the shared guidance.
type lintFunc func(g *guidance) (Verdict, []LintFinding, string)

// lintFuncs maps rule ids to their implementations (lint_rules.go).
var lintFuncs = map[string]lintFunc{}

// LintRules returns a copy of the rule catalogue.
func LintRules() []LintRuleInfo { return append([]LintRuleInfo(nil), lintRules...) }

// run judges every rule and the ladder.
func (lintLens) run(ctx context.Context, s *site, r *Report) {
	g := s.guidance(ctx)
	lr := &LintReport{Rules: []LintResult{}}
	for _, rule := range lintRules {
		if s.opts.Only != "" && s.opts.Only != rule.ID {
			continue
		}
		lr.Rules = append(lr.Rules, runLint(g, rule))
	}
	lr.count()
	lr.Level, lr.LevelName, lr.LevelReason = ladder(g, lr)
	r.Lint = lr
}

// unreachable records every rule COULD_NOT_CHECK.
func (lintLens) unreachable(s *site, home *response, r *Report) {
	lr := &LintReport{Rules: []LintResult{}, Level: -1, LevelName: "none", LevelReason: "the home page gave no answer: " + home.errText()}
	for _, rule := range lintRules {
		if s.opts.Only != "" && s.opts.Only != rule.ID {
			continue
		}
		lr.Rules = append(lr.Rules, LintResult{ID: rule.ID, Kind: rule.Kind, Title: rule.Title, Verdict: CouldNotCheck, Findings: []LintFinding{}, Note: "the home page gave no answer"})
	}
	r.Lint = lr
}

// runLint runs one rule, turning a panic into COULD_NOT_CHECK.
func runLint(g *guidance, rule LintRuleInfo) (res LintResult) {
	res = LintResult{ID: rule.ID, Kind: rule.Kind, Title: rule.Title, Findings: []LintFinding{}}
	defer func() {
		if v := recover(); v != nil {
			res.Verdict, res.Note = CouldNotCheck, fmt.Sprintf("internal error: %v", v)
		}
	}()
	fn := lintFuncs[rule.ID]
	if fn == nil {
		res.Verdict, res.Note = CouldNotCheck, "rule not implemented"
		return res
	}
	v, fs, note := fn(g)
	res.Verdict, res.Note = v, redactText(note)
	for _, f := range fs {
		f.Excerpt, f.Message, f.Document = redactText(clipText(f.Excerpt, 160)), redactText(f.Message), redactURL(f.Document)
		res.Findings = append(res.Findings, f)
	}
	if v == Fail {
		res.Fix = rule.Fix
	}
	return res
}

// count fills the failure and warning totals.
func (lr *LintReport) count() {
	lr.Failures, lr.Warnings = 0, 0
	for _, r := range lr.Rules {
		if r.Verdict != Fail {
			continue
		}
		if r.Kind == LintFailure {
			lr.Failures++
		} else {
			lr.Warnings++
		}
	}
}

// lintByID returns the rule result with id, or nil.
func (lr *LintReport) lintByID(id string) *LintResult {
	if lr == nil {
		return nil
	}
	for i := range lr.Rules {
		if lr.Rules[i].ID == id {
			return &lr.Rules[i]
		}
	}
	return nil
}

// clipText shortens s to n bytes at a rune boundary.
func clipText(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + " …"
}

// isRuneStart reports a byte that starts a UTF-8 sequence.
func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
