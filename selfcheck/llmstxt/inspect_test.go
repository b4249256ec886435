package llmstxt

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/inspect")

// TestInspectGolden pins Inspect's facts for each testdata/inspect/*.txt in
// the matching .golden.json.
func TestInspectGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "inspect", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range files {
		t.Run(filepath.Base(in), func(t *testing.T) {
			raw, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(Inspect(raw), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(in, ".txt") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("reading golden (run with -update): %v", err)
			}
			if string(got) != string(want) {
				t.Errorf("facts differ from %s:\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

func TestIsInstruction(t *testing.T) {
	tests := []struct {
		text     string
		guidance bool
		want     bool
	}{
		{"Use the search API to find products", false, true},
		{"Agents should cite the canonical URL", false, true},
		{"Do not scrape the checkout pages", false, true},
		{"API reference for all endpoints", false, false},
		{"Acme sells widgets in Europe", false, false},
		{"Use it", false, false},
		{"Prices include VAT", true, true},
		{"Prices", true, false},
	}
	for _, tt := range tests {
		if got := isInstruction(tt.text, tt.guidance); got != tt.want {
			t.Errorf("isInstruction(%q, %v) = %v, want %v", tt.text, tt.guidance, got, tt.want)
		}
	}
}

func TestEvaluate(t *testing.T) {
	complete, err := os.ReadFile(filepath.Join("testdata", "inspect", "complete.txt"))
	if err != nil {
		t.Fatal(err)
	}
	linksOnly, err := os.ReadFile(filepath.Join("testdata", "inspect", "links-only.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		status      int
		contentType string
		body        []byte
		verdict     string
		missing     []string
	}{
		{"complete", 200, "text/plain; charset=utf-8", complete, VerdictPass, nil},
		{"markdown type", 200, "text/markdown", complete, VerdictPass, nil},
		{"only links to specs", 200, "text/plain", linksOnly, VerdictPartial, []string{RuleInstructions}},
		{"wrong type", 200, "application/octet-stream", complete, VerdictPartial, []string{RuleTextType}},
		{"no type", 200, "", complete, VerdictPartial, []string{RuleTextType}},
		{"bare text", 200, "text/plain", []byte("hello"), VerdictPartial,
			[]string{RuleH1, RuleMarkdownLink, RuleInstructions}},
		{"missing", 404, "text/plain", []byte("not found"), VerdictFail, []string{RuleStatus200}},
		{"empty", 200, "text/plain", []byte(" \n"), VerdictFail, []string{RuleNotEmpty}},
		{"SPA fallback", 200, "text/html; charset=utf-8", []byte("<!doctype html><html></html>"), VerdictFail, []string{RuleNotHTML}},
		{"HTML as text", 200, "text/plain", []byte("\n<HTML><body># x</body></html>"), VerdictFail, []string{RuleNotHTML}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Evaluate(tt.status, tt.contentType, tt.body)
			if e.Verdict != tt.verdict || strings.Join(e.Missing, ",") != strings.Join(tt.missing, ",") {
				t.Errorf("Evaluate = %s %v, want %s %v", e.Verdict, e.Missing, tt.verdict, tt.missing)
			}
		})
	}
}
