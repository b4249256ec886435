package ard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/caddy-agentready/selfcheck/internal/golden"
)

// renderResult writes a Result as the audit table's text, one finding a line.
func renderResult(r Result) string {
	var b strings.Builder
	for _, g := range []struct {
		sev string
		fs  []Finding
	}{{"error", r.Errors}, {"warning", r.Warnings}, {"info", r.Infos}} {
		for _, f := range g.fs {
			fmt.Fprintf(&b, "%s\t%s\t%s\n", g.sev, f.Element, f.Message)
		}
	}
	if b.Len() == 0 {
		return "clean\n"
	}
	return b.String()
}

// TestExamples validates the ARD spec's examples: they must have no errors,
// and their full findings are pinned by golden files.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "ard-examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	files = append(files, filepath.Join("testdata", "extension-media-types.json"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(raw)
			if !r.Passed() {
				t.Errorf("errors: %+v", r.Errors)
			}
			golden.Check(t, filepath.Join("testdata", "golden", name+".txt"), []byte(renderResult(r)))
		})
	}
}
