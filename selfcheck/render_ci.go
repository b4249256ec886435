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
	type msg struct {
		Text string `json:"text"`
	}
	type rule struct {
		ID               string         `json:"id"`
		Name             string         `json:"name,omitempty"`
		ShortDescription msg            `json:"shortDescription"`
		Help             *msg           `json:"help,omitempty"`
		Properties       map[string]any `json:"properties,omitempty"`
	}
	type region struct {
		StartLine int `json:"startLine"`
	}
	type physical struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *region `json:"region,omitempty"`
	}
	type location struct {
		PhysicalLocation physical `json:"physicalLocation"`
	}
	type result struct {
		RuleID     string         `json:"ruleId"`
		RuleIndex  int            `json:"ruleIndex"`
		Level      string         `json:"level"`
		Message    msg            `json:"message"`
		Locations  []location     `json:"locations,omitempty"`
		Properties map[string]any `json:"properties,omitempty"`
	}
	var rules []rule
	var results []result
	index := map[string]int{}
	addRule := func(id, title, help string, props map[string]any) {
		index[id] = len(rules)
		rl := rule{ID: id, ShortDescription: msg{title}, Properties: props}
		if help != "" {
			rl.Help = &msg{help}
		}
		rules = append(rules, rl)
	}
	loc := func(addr string, line int) []location {
		if addr == "" {
			return nil
		}
		var p physical
		p.ArtifactLocation.URI = r.absolute(addr)
		if line > 0 {
			p.Region = &region{StartLine: line}
		}
		return []location{{p}}
	}
	for _, c := range r.Checks {
		help := ""
		if f, ok := scoreFixes[c.ID]; ok {
			help = f.change
		}
		addRule(c.ID, c.Title, help, map[string]any{"lens": "score", "section": c.Section, "weight": c.Weight})
		if c.Verdict != Fail && c.Verdict != Partial {
			continue
		}
		level := "error"
		if c.Verdict == Partial {
			level = "warning"
		}
		addr := ""
		if len(c.Scope) > 0 {
			addr = c.Scope[0]
		}
		results = append(results, result{RuleID: c.ID, RuleIndex: index[c.ID], Level: level,
			Message:    msg{fmt.Sprintf("%s %s (%s of %s points): %s", c.ID, c.Verdict, num(c.Earned), num(c.Weight), orNone(c.Missing))},
			Locations:  loc(addr, 0),
			Properties: map[string]any{"verdict": c.Verdict, "pointsLost": round2(c.Weight - c.Earned)}})
	}
	for _, c := range r.Checkpoints {
		info := checkpointInfo(c.ID)
		addRule(c.ID, c.Title, info.Fix, map[string]any{"lens": "checkpoint", "strength": c.Strength, "legacy": c.Legacy, "verify": c.Verify})
		if c.Verdict != Fail && c.Verdict != Partial {
			continue
		}
		level := map[Strength]string{Must: "error", Should: "warning", May: "note"}[c.Strength]
		addr := ""
		if len(c.Scope) > 0 {
			addr = c.Scope[0]
		}
		results = append(results, result{RuleID: c.ID, RuleIndex: index[c.ID], Level: level,
			Message:   msg{fmt.Sprintf("%s %s (%s): %s", c.ID, c.Verdict, c.Strength, orNone(c.Missing))},
			Locations: loc(addr, 0), Properties: map[string]any{"verdict": c.Verdict}})
	}
	if r.Lint != nil {
		for _, l := range r.Lint.Rules {
			fix := ""
			for _, lr := range lintRules {
				if lr.ID == l.ID {
					fix = lr.Fix
				}
			}
			addRule(l.ID, l.Title, fix, map[string]any{"lens": "lint", "kind": l.Kind})
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
				results = append(results, result{RuleID: l.ID, RuleIndex: index[l.ID], Level: level, Message: msg{l.ID + ": " + m},
					Locations: loc(f.Document, f.Line)})
			}
		}
	}
	if results == nil {
		results = []result{}
	}
	log := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "agentready-selfcheck", "version": r.Scanner.Version, "semanticVersion": r.Scanner.Version,
				"informationUri": "https://github.com/agentready/caddy-agentready", "rules": rules,
			}},
			"results": results,
			"properties": map[string]any{
				"target": r.Target, "score": r.Score, "earned": r.Earned, "applicable": r.Applicable,
				"standard": r.Standard, "checkpointSummary": r.CheckpointSummary,
			},
		}},
	}
	return json.MarshalIndent(log, "", "  ")
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
	type failure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type skipped struct {
		Message string `xml:"message,attr"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Error     *failure `xml:"error,omitempty"`
		Skipped   *skipped `xml:"skipped,omitempty"`
		SystemOut string   `xml:"system-out,omitempty"`
	}
	type suite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Errors   int        `xml:"errors,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	type suites struct {
		XMLName  xml.Name `xml:"testsuites"`
		Name     string   `xml:"name,attr"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Suites   []suite  `xml:"testsuite"`
	}
	add := func(s *suite, name, class string, v Verdict, missing, text string) {
		tc := testcase{Name: name, Classname: class, SystemOut: text}
		switch v {
		case Fail, Partial:
			tc.Failure = &failure{Message: string(v) + ": " + missing, Type: string(v), Text: text}
			s.Failures++
		case CouldNotCheck:
			tc.Error = &failure{Message: "COULD_NOT_CHECK: " + missing, Type: string(v), Text: text}
			s.Errors++
		case NotApplicable, Optional, Unverified:
			tc.Skipped = &skipped{Message: string(v)}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	score := suite{Name: fmt.Sprintf("agent-readiness score %s / 100", num(r.Score))}
	for _, c := range r.Checks {
		add(&score, c.ID, "score."+string(c.Section), c.Verdict, c.Missing, receiptText(c))
	}
	for _, u := range r.Unverified {
		add(&score, u.ID, "score."+string(u.Section), u.Verdict, "", u.Reason)
	}
	cps := suite{Name: "agent-protocol checkpoints"}
	for _, c := range r.Checkpoints {
		add(&cps, c.ID, "checkpoint."+strings.ToLower(string(c.Strength)), c.Verdict, c.Missing, checkpointText(c))
	}
	lint := suite{Name: "agent-compatibility lint"}
	if r.Lint != nil {
		for _, l := range r.Lint.Rules {
			msg := ""
			if len(l.Findings) > 0 {
				msg = l.Findings[0].Message
			}
			add(&lint, l.ID, "lint."+string(l.Kind), l.Verdict, msg, lintText(l))
		}
	}
	all := suites{Name: "agent-ready " + r.Target}
	for _, s := range []suite{score, cps, lint} {
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
