package selfcheck

import "testing"

// scored builds a report from (id, verdict, fraction) rows and scores it.
func scored(rows ...CheckResult) *Report {
	r := &Report{}
	for _, row := range rows {
		c := checkInfo(row.ID)
		row.Section, row.Weight = c.Section, c.Weight
		r.Checks = append(r.Checks, row)
	}
	r.score()
	return r
}

// TestScoring asserts STANDARD.md §1 and §3: N/A leaves the denominator,
// COULD_NOT_CHECK keeps its weight and is listed, OPTIONAL and UNVERIFIED
// never score, PARTIAL earns its fraction.
func TestScoring(t *testing.T) {
	tests := []struct {
		name       string
		rows       []CheckResult
		score      float64
		applicable float64
		cnc        int
	}{
		{"all pass", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "llms_txt", Verdict: Pass}}, 100, 8, 0},
		{"fail halves", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "llms_txt", Verdict: Fail}}, 50, 8, 0},
		{"n/a leaves the denominator", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "mcp_transport", Verdict: NotApplicable}}, 100, 4, 0},
		{"could-not-check keeps its weight", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "llms_txt", Verdict: CouldNotCheck}}, 50, 8, 1},
		{"optional never scores", []CheckResult{{ID: "sitemap", Verdict: Fail}, {ID: "nlweb_ask", Verdict: Optional}}, 0, 4, 0},
		{"partial earns its fraction", []CheckResult{{ID: "sitemap", Verdict: Partial, Fraction: 0.5}}, 50, 4, 0},
		{"fraction ignored unless partial", []CheckResult{{ID: "sitemap", Verdict: Fail, Fraction: 0.9}}, 0, 4, 0},
		{"nothing applies", []CheckResult{{ID: "mcp_transport", Verdict: NotApplicable}}, 0, 0, 0},
		{"one decimal", []CheckResult{{ID: "sitemap", Verdict: Pass}, {ID: "llms_txt", Verdict: Fail}, {ID: "capability_manifest", Verdict: Fail}}, 30.8, 13, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := scored(tc.rows...)
			if r.Score != tc.score || r.Applicable != tc.applicable || len(r.CouldNotCheck) != tc.cnc {
				t.Errorf("score %v applicable %v cnc %v; want %v %v %v", r.Score, r.Applicable, r.CouldNotCheck, tc.score, tc.applicable, tc.cnc)
			}
			var earned float64
			for _, s := range r.Sections {
				earned += s.Earned
			}
			if round2(earned) != r.Earned {
				t.Errorf("sections earn %v, report %v", earned, r.Earned)
			}
		})
	}
}

func TestFromFraction(t *testing.T) {
	tests := []struct {
		in   float64
		v    Verdict
		frac float64
	}{{1, Pass, 1}, {1.5, Pass, 1}, {0, Fail, 0}, {-1, Fail, 0}, {0.5, Partial, 0.5}, {0.999, Partial, 0.99}, {0.001, Partial, 0.01}}
	for _, tc := range tests {
		o := fromFraction(tc.in, "x")
		if o.verdict != tc.v || o.fraction != tc.frac {
			t.Errorf("fromFraction(%v) = %s %v, want %s %v", tc.in, o.verdict, o.fraction, tc.v, tc.frac)
		}
	}
}
