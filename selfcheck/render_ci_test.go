package selfcheck

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifStructure is the part of the SARIF 2.1.0 schema (OASIS SARIF
// v2.1.0 §3.13–§3.33) a consumer relies on: the log's version and runs, a
// run's tool.driver with a name and rules with ids, results with a ruleId,
// a level from the spec's enum, a message text, and physical locations
// whose region lines start at 1.
const sarifStructure = `{
 "$schema": "https://json-schema.org/draft/2020-12/schema",
 "type": "object", "required": ["version", "runs"],
 "properties": {
  "version": {"const": "2.1.0"},
  "$schema": {"type": "string", "format": "uri"},
  "runs": {"type": "array", "minItems": 1, "items": {
   "type": "object", "required": ["tool", "results"],
   "properties": {
    "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
     "type": "object", "required": ["name"], "properties": {
      "name": {"type": "string", "minLength": 1}, "version": {"type": "string"}, "informationUri": {"type": "string", "format": "uri"},
      "rules": {"type": "array", "items": {"type": "object", "required": ["id"], "properties": {
       "id": {"type": "string", "minLength": 1},
       "shortDescription": {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}},
       "help": {"type": "object", "required": ["text"]},
       "properties": {"type": "object"}}}}}}}},
    "results": {"type": "array", "items": {
     "type": "object", "required": ["message", "ruleId"],
     "properties": {
      "ruleId": {"type": "string"}, "ruleIndex": {"type": "integer", "minimum": -1},
      "level": {"enum": ["none", "note", "warning", "error"]},
      "message": {"type": "object", "required": ["text"], "properties": {"text": {"type": "string", "minLength": 1}}},
      "locations": {"type": "array", "items": {"type": "object", "properties": {"physicalLocation": {
       "type": "object", "required": ["artifactLocation"], "properties": {
        "artifactLocation": {"type": "object", "required": ["uri"], "properties": {"uri": {"type": "string", "format": "uri-reference"}}},
        "region": {"type": "object", "properties": {"startLine": {"type": "integer", "minimum": 1}}}}}}}},
      "properties": {"type": "object"}}}},
    "properties": {"type": "object"}}}}}
}`

// TestSARIF validates the SARIF log of the golden scan against the
// structure above, and checks one result per failing check, checkpoint and
// lint finding, each rule index pointing at its rule.
func TestSARIF(t *testing.T) {
	r, _ := goldenScan(t)
	out, err := r.SARIF()
	if err != nil {
		t.Fatal(err)
	}
	var schemaDoc any
	if err := json.Unmarshal([]byte(sarifStructure), &schemaDoc); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("SARIF log invalid: %v", err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	want := 0
	for _, c := range r.Checks {
		if c.Verdict == Fail || c.Verdict == Partial {
			want++
		}
	}
	for _, c := range r.Checkpoints {
		if c.Verdict == Fail || c.Verdict == Partial {
			want++
		}
	}
	for _, l := range r.Lint.Rules {
		if l.Verdict == Fail {
			want += len(l.Findings)
		}
	}
	if len(run.Results) != want || want == 0 {
		t.Errorf("%d results, want %d", len(run.Results), want)
	}
	if len(run.Tool.Driver.Rules) != 35+28+20 {
		t.Errorf("%d rules, want 83", len(run.Tool.Driver.Rules))
	}
	for _, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s points at rule %d (%s)", res.RuleID, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
	}
}

// TestJUnit parses the JUnit XML: one test case per check, checkpoint and
// lint rule, failures counted as the verdicts say.
func TestJUnit(t *testing.T) {
	r, _ := goldenScan(t)
	out, err := r.JUnit()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	if len(doc.Suites) != 3 || doc.Tests != 35+1+28+20 {
		t.Fatalf("%d suites, %d tests; want 3 and 84", len(doc.Suites), doc.Tests)
	}
	failing := 0
	for _, c := range r.Checks {
		if c.Verdict == Fail || c.Verdict == Partial {
			failing++
		}
	}
	got := 0
	for _, tc := range doc.Suites[0].Cases {
		if tc.Failure != nil {
			got++
		}
	}
	if got != failing || !strings.HasPrefix(doc.Suites[0].Name, "agent-readiness score") {
		t.Errorf("score suite %q: %d failures, want %d", doc.Suites[0].Name, got, failing)
	}
}
