package selfcheck

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
)

// SARIF renders the report as a SARIF 2.1.0 log (OASIS SARIF v2.1.0) for CI
// code-scanning: one rule per check, checkpoint and lint rule, and one
// result per failing or partial check, failing checkpoint and lint finding.
// Locations are the site's addresses (artifactLocation.uri), with the line
// where a lint finding has one.
func (r *Report) SARIF() ([]byte, error) {
	b := &sarifBuilder{r: r, index: map[string]int{}}
	b.addChecks()
	b.addCheckpoints()
	b.addLint()
	if b.results == nil {
		b.results = []sarifResult{}
	}
	log := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "agentready-selfcheck", "version": r.Scanner.Version, "semanticVersion": r.Scanner.Version,
				"informationUri": "https://github.com/agentready/caddy-agentready", "rules": b.rules,
			}},
			"results": b.results,
			"properties": map[string]any{
				"target": r.Target, "score": r.Score, "earned": r.Earned, "applicable": r.Applicable,
				"standard": r.Standard, "checkpointSummary": r.CheckpointSummary,
			},
		}},
	}
	return json.MarshalIndent(log, "", "  ")
}

// The SARIF 2.1.0 objects the report uses (§3.49 reportingDescriptor,
// §3.27 result, §3.28 location).
type (
	sarifMsg struct {
		Text string `json:"text"`
	}
	sarifRule struct {
		ID               string         `json:"id"`
		Name             string         `json:"name,omitempty"`
		ShortDescription sarifMsg       `json:"shortDescription"`
		Help             *sarifMsg      `json:"help,omitempty"`
		Properties       map[string]any `json:"properties,omitempty"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
	sarifPhysical struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *sarifRegion `json:"region,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifResult struct {
		RuleID     string          `json:"ruleId"`
		RuleIndex  int             `json:"ruleIndex"`
		Level      string          `json:"level"`
		Message    sarifMsg        `json:"message"`
		Locations  []sarifLocation `json:"locations,omitempty"`
		Properties map[string]any  `json:"properties,omitempty"`
	}
)

// sarifBuilder collects the rules (one per check, checkpoint and lint
// rule) and the results (one per failing one or lint finding).
type sarifBuilder struct {
	r       *Report
	rules   []sarifRule
	results []sarifResult
	index   map[string]int
}

func (b *sarifBuilder) addRule(id, title, help string, props map[string]any) {
	b.index[id] = len(b.rules)
	rl := sarifRule{ID: id, ShortDescription: sarifMsg{title}, Properties: props}
	if help != "" {
		rl.Help = &sarifMsg{help}
	}
	b.rules = append(b.rules, rl)
}

func (b *sarifBuilder) loc(addr string, line int) []sarifLocation {
	if addr == "" {
		return nil
	}
	var p sarifPhysical
	p.ArtifactLocation.URI = b.r.absolute(addr)
	if line > 0 {
		p.Region = &sarifRegion{StartLine: line}
	}
	return []sarifLocation{{p}}
}

// firstScope is the first address a verdict was reached on, "" for none.
func firstScope(scope []string) string {
	if len(scope) > 0 {
		return scope[0]
	}
	return ""
}

func (b *sarifBuilder) addChecks() {
	for _, c := range b.r.Checks {
		help := ""
		if f, ok := scoreFixes[c.ID]; ok {
			help = f.change
		}
		b.addRule(c.ID, c.Title, help, map[string]any{"lens": "score", "section": c.Section, "weight": c.Weight})
		if c.Verdict != Fail && c.Verdict != Partial {
			continue
		}
		level := "error"
		if c.Verdict == Partial {
			level = "warning"
		}
		b.results = append(b.results, sarifResult{RuleID: c.ID, RuleIndex: b.index[c.ID], Level: level,
			Message:    sarifMsg{fmt.Sprintf("%s %s (%s of %s points): %s", c.ID, c.Verdict, num(c.Earned), num(c.Weight), orNone(c.Missing))},
			Locations:  b.loc(firstScope(c.Scope), 0),
			Properties: map[string]any{"verdict": c.Verdict, "pointsLost": round2(c.Weight - c.Earned)}})
	}
}

func (b *sarifBuilder) addCheckpoints() {
	for _, c := range b.r.Checkpoints {
		info := checkpointInfo(c.ID)
		b.addRule(c.ID, c.Title, info.Fix, map[string]any{"lens": "checkpoint", "strength": c.Strength, "legacy": c.Legacy, "verify": c.Verify})
		if c.Verdict != Fail && c.Verdict != Partial {
			continue
		}
		level := map[Strength]string{Must: "error", Should: "warning", May: "note"}[c.Strength]
		b.results = append(b.results, sarifResult{RuleID: c.ID, RuleIndex: b.index[c.ID], Level: level,
			Message:   sarifMsg{fmt.Sprintf("%s %s (%s): %s", c.ID, c.Verdict, c.Strength, orNone(c.Missing))},
			Locations: b.loc(firstScope(c.Scope), 0), Properties: map[string]any{"verdict": c.Verdict}})
	}
}

func (b *sarifBuilder) addLint() {
	if b.r.Lint == nil {
		return
	}
	for _, l := range b.r.Lint.Rules {
		fix := ""
		for _, lr := range lintRules {
			if lr.ID == l.ID {
				fix = lr.Fix
			}
		}
		b.addRule(l.ID, l.Title, fix, map[string]any{"lens": "lint", "kind": l.Kind})
		if l.Verdict != Fail {
			continue
		}
		level := "error"
		if l.Kind == LintWarning {
			level = "warning"
		}
		for _, f := range l.Findings {
			m := f.Message
			if f.Field != "" {
				m = f.Field + ": " + m
			}
			b.results = append(b.results, sarifResult{RuleID: l.ID, RuleIndex: b.index[l.ID], Level: level,
				Message: sarifMsg{l.ID + ": " + m}, Locations: b.loc(f.Document, f.Line)})
		}
	}
}

// absolute turns a scope path into an absolute URL on the target's origin.
func (r *Report) absolute(addr string) string {
	if strings.Contains(addr, "://") {
		return addr
	}
	t := r.Target
	if i := strings.Index(t, "://"); i >= 0 {
		if j := strings.Index(t[i+3:], "/"); j >= 0 {
			t = t[:i+3+j]
		}
	}
	return t + addr
}

// checkpointInfo returns the catalogue entry of a checkpoint.
func checkpointInfo(id string) CheckpointInfo {
	for _, c := range checkpoints {
		if c.ID == id {
			return c
		}
	}
	return CheckpointInfo{ID: id}
}

// JUnit renders the report as JUnit XML: one test suite per lens, one test
// case per check, checkpoint and lint rule. FAIL and PARTIAL are failures
// (a PARTIAL names what is missing), COULD_NOT_CHECK is an error,
// NOT_APPLICABLE, OPTIONAL and UNVERIFIED are skipped.
func (r *Report) JUnit() ([]byte, error) {
	add := func(s *junitSuite, name, class string, v Verdict, missing, text string) {
		tc := junitCase{Name: name, Classname: class, SystemOut: text}
		switch v {
		case Fail, Partial:
			tc.Failure = &junitFailure{Message: string(v) + ": " + missing, Type: string(v), Text: text}
			s.Failures++
		case CouldNotCheck:
			tc.Error = &junitFailure{Message: "COULD_NOT_CHECK: " + missing, Type: string(v), Text: text}
			s.Errors++
		case NotApplicable, Optional, Unverified:
			tc.Skipped = &junitSkipped{Message: string(v)}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	score := junitSuite{Name: fmt.Sprintf("agent-readiness score %s / 100", num(r.Score))}
	for _, c := range r.Checks {
		add(&score, c.ID, "score."+string(c.Section), c.Verdict, c.Missing, receiptText(c))
	}
	for _, u := range r.Unverified {
		add(&score, u.ID, "score."+string(u.Section), u.Verdict, "", u.Reason)
	}
	cps := junitSuite{Name: "agent-protocol checkpoints"}
	for _, c := range r.Checkpoints {
		add(&cps, c.ID, "checkpoint."+strings.ToLower(string(c.Strength)), c.Verdict, c.Missing, checkpointText(c))
	}
	lint := junitSuite{Name: "agent-compatibility lint"}
	if r.Lint != nil {
		for _, l := range r.Lint.Rules {
			msg := ""
			if len(l.Findings) > 0 {
				msg = l.Findings[0].Message
			}
			add(&lint, l.ID, "lint."+string(l.Kind), l.Verdict, msg, lintText(l))
		}
	}
	all := junitSuites{Name: "agent-ready " + r.Target}
	for _, s := range []junitSuite{score, cps, lint} {
		if s.Tests == 0 {
			continue
		}
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Suites = append(all.Suites, s)
	}
	out, err := xml.MarshalIndent(all, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

// The JUnit XML elements the report uses (the schema CI servers read).
type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}
type junitSkipped struct {
	Message string `xml:"message,attr"`
}
type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}
type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}
