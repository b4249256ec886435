package selfcheck

import (
	"regexp"
	"testing"
)

// TestCatalogueTotals: 35 checks, 27 scored and 8 optional; weights add up
// to each section's points and the sections to 100.
func TestCatalogueTotals(t *testing.T) {
	cat := Catalogue()
	if len(cat) != 35 {
		t.Fatalf("%d checks, want 35", len(cat))
	}
	scored, optional := 0, 0
	sum := map[Section]float64{}
	ids := map[string]bool{}
	idRe := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for _, c := range cat {
		if ids[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		ids[c.ID] = true
		if !idRe.MatchString(c.ID) {
			t.Errorf("id %q is not snake_case", c.ID)
		}
		if checkFuncs[c.ID] == nil {
			t.Errorf("check %s has no implementation", c.ID)
		}
		if c.Optional {
			optional++
			if c.Weight != 0 || c.Section != SectionOptional {
				t.Errorf("optional %s has weight %v in section %s", c.ID, c.Weight, c.Section)
			}
			continue
		}
		scored++
		if c.Weight <= 0 {
			t.Errorf("scored %s has weight %v", c.ID, c.Weight)
		}
		sum[c.Section] += c.Weight
	}
	if scored != 27 || optional != 8 {
		t.Errorf("%d scored and %d optional, want 27 and 8", scored, optional)
	}
	total := 0.0
	for _, s := range Sections() {
		if sum[s.ID] != s.Points {
			t.Errorf("section %s weights add up to %v, want %v", s.ID, sum[s.ID], s.Points)
		}
		total += s.Points
	}
	if total != 100 {
		t.Errorf("sections add up to %v, want 100", total)
	}
	if len(checkFuncs) != len(cat) {
		t.Errorf("%d implementations for %d checks", len(checkFuncs), len(cat))
	}
	// Each requirement R1..R10 is proven by at least one check.
	reqs := map[string]bool{}
	for _, c := range cat {
		reqs[c.Requirement] = true
	}
	for _, r := range []string{"R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10"} {
		if !reqs[r] {
			t.Errorf("requirement %s has no check", r)
		}
	}
}

// TestCatalogueIsACopy: callers cannot change the catalogue.
func TestCatalogueIsACopy(t *testing.T) {
	c := Catalogue()
	c[0].Weight = 99
	if Catalogue()[0].Weight == 99 {
		t.Error("Catalogue returned the package's own slice")
	}
}
