package selfcheck

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestPlan: the plan opens with the scored fixes, ranked by points per
// effort, numbered from 1, each with a change and a --check command; every
// site.yaml snippet is a valid YAML mapping.
func TestPlan(t *testing.T) {
	r, _ := goldenScan(t)
	if len(r.Plan) == 0 {
		t.Fatal("no plan")
	}
	prev := 1e9
	scoreDone := false
	for i, p := range r.Plan {
		if p.Rank != i+1 || p.Change == "" || !strings.Contains(p.Verify, "--check "+p.ID) {
			t.Errorf("item %d: %+v", i, p)
		}
		if p.Lens == "score" {
			if scoreDone {
				t.Errorf("score fix %s after other lenses", p.ID)
			}
			per := p.Points / float64(p.Effort)
			if per > prev+1e-9 {
				t.Errorf("%s (%.2f per effort) ranked after a smaller one (%.2f)", p.ID, per, prev)
			}
			prev = per
		} else {
			scoreDone = true
		}
	}
	for id, snippet := range FixSnippets() {
		var v map[string]any
		if err := yaml.Unmarshal([]byte(snippet), &v); err != nil || len(v) == 0 {
			t.Errorf("%s: snippet is not a YAML mapping: %v\n%s", id, err, snippet)
		}
		checkInfo(id)
	}
}
