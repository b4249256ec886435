package manifest

import (
	"testing"

	"github.com/agentready/caddy-agentready/selfcheck/ard"
)

// TestARDValidatorScoresOne runs every generated ard.json through the
// scanner's ARD validator (the Lighthouse ard-schema rules): no errors and
// no warnings, which is a score of 1.
func TestARDValidatorScoresOne(t *testing.T) {
	n := 0
	for _, fx := range fixtures() {
		d := fx.bundle(t).Document(PathARD)
		if d == nil {
			continue
		}
		n++
		r := ard.Validate(d.Body)
		if len(r.Errors) > 0 || len(r.Warnings) > 0 {
			t.Errorf("%s: ard.json errors %v, warnings %v", fx.name, r.Errors, r.Warnings)
		}
	}
	if n < 2 {
		t.Errorf("only %d fixtures publish ard.json", n)
	}
}
