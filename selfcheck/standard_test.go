package selfcheck

import (
	"path/filepath"
	"testing"

	"github.com/agentready/caddy-agentready/selfcheck/internal/golden"
)

// TestStandardDoc: docs/standard.md is what StandardDoc renders from the
// catalogues (so ids, weights, causes and advice cannot drift), every
// check has its verdict rule, and every cause a check names has advice of
// its own or the check's.
func TestStandardDoc(t *testing.T) {
	for _, c := range catalogue {
		if checkRules[c.ID] == "" {
			t.Errorf("%s has no verdict rule in checkRules", c.ID)
		}
	}
	for id := range checkCauses {
		checkInfo(id)
	}
	for key := range causeFixes {
		found := false
		for id, causes := range checkCauses {
			for _, c := range causes {
				found = found || id+"/"+c == key
			}
		}
		if !found {
			t.Errorf("advice for %s, a cause no check lists", key)
		}
	}
	if len(sortedCauses()) < 40 {
		t.Errorf("only %d causes listed", len(sortedCauses()))
	}
	golden.Check(t, filepath.Join("..", "docs", "standard.md"), []byte(StandardDoc()))
}
