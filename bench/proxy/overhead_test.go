package main

import (
	"math"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		v    []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{1.1, 0.9, 1.0, 5, 0.95, 1.02, 0.1, 1.0, 0.98}, 1.0},
	}
	for _, tt := range tests {
		if got := median(tt.v); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.v, got, tt.want)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Errorf("median(nil) is not NaN")
	}
}

// overheadTSV has three rounds of a control and a headers-only case on one
// page, a round of the headers case whose B run is missing, and an outlier
// round that a mean would follow and the median does not.
const overheadTSV = `# round size case role requests rps p50 p99 errors cpu load
1	1k	control	a	80000	10000	1.5	3.0	0	4.00	1.0
1	1k	control	b	80800	10100	1.5	3.0	0	4.04	1.0
1	1k	headers	a	80000	10000	1.5	3.0	0	4.00	1.0
1	1k	headers	b	78400	9800	1.5	3.06	0	4.08	1.0
2	1k	control	b	79200	9900	1.5	3.0	0	3.96	1.0
2	1k	control	a	80000	10000	1.5	3.0	0	4.00	1.0
2	1k	headers	b	39200	4900	1.5	9.0	2	2.00	9.0
2	1k	headers	a	80000	10000	1.5	3.0	0	4.00	1.0
3	1k	control	a	80000	10000	1.5	3.0	0	4.00	1.0
3	1k	control	b	80000	10000	1.5	3.0	0	4.00	1.0
3	1k	headers	a	80000	10000	1.5	3.0	0	4.00	1.0
3	1k	headers	b	79200	9900	1.5	3.03	0	4.00	1.0
4	1k	headers	a	80000	10000	1.5	3.0	0	4.00	1.0
`

func TestOverheadCases(t *testing.T) {
	runs, err := parseOverhead(strings.NewReader(overheadTSV))
	if err != nil {
		t.Fatal(err)
	}
	cases := overheadCases(runs)
	if len(cases) != 2 {
		t.Fatalf("%d cases, want 2", len(cases))
	}
	ctl, hdr := cases[0], cases[1]
	if ctl.Case != "control" || hdr.Case != "headers" || hdr.control != ctl {
		t.Fatalf("cases %q, %q; headers' control %p, want %p", ctl.Case, hdr.Case, hdr.control, ctl)
	}
	if hdr.Rounds != 3 || hdr.Errors != 2 {
		t.Errorf("headers: %d rounds, %d errors; want 3 (round 4 has no B run) and 2", hdr.Rounds, hdr.Errors)
	}
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("headers req/s ratio", median(hdr.RPS), 0.98)
	near("headers p99 ratio", median(hdr.P99), 1.02)
	near("headers CPU ratio", median(hdr.CPU), 2.0/39200/(4.0/80000)) // rounds: 1.041, 1.020, 1.010
	near("control req/s ratio", median(ctl.RPS), 1.0)
	if v := ctl.verdict(); v != "within ±3%" {
		t.Errorf("control verdict %q", v)
	}
	if v := hdr.verdict(); v != "missed" {
		t.Errorf("headers verdict %q, want missed (0.98 < 0.99)", v)
	}
	hdr.RPS = []float64{0.99, 0.995, 1.0}
	if v := hdr.verdict(); v != "met" {
		t.Errorf("headers verdict %q, want met (0.995 ≥ 0.99, 1.02 ≤ 1.02)", v)
	}
	// The same case against a control that moved by 5% cannot be read.
	ctl.RPS = []float64{1.05, 1.05, 1.05}
	if v := hdr.verdict(); v != "met (control noisy)" {
		t.Errorf("headers verdict with a noisy control %q", v)
	}
	hdr.RPS = []float64{0.9}
	if v := hdr.verdict(); v != "noisy" {
		t.Errorf("missed case with a noisy control: verdict %q, want noisy", v)
	}
	ctl.RPS = []float64{1}
	if v := hdr.verdict(); v != "missed" {
		t.Errorf("verdict %q, want missed", v)
	}
}

func TestOverheadReport(t *testing.T) {
	var out strings.Builder
	if err := runOverheadReport(nil, strings.NewReader(overheadTSV), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want a header, a rule and two rows:\n%s", len(lines), out.String())
	}
	for i, want := range []string{"| 1k | control: plain vs", "| 1k | headers only"} {
		if !strings.HasPrefix(lines[i+2], want) {
			t.Errorf("row %d: %q, want it to start with %q", i, lines[i+2], want)
		}
	}
	if !strings.Contains(lines[3], "**0.980** (0.49–0.99)") || !strings.Contains(lines[3], "≥ 0.99, ≤ 1.02: missed |") {
		t.Errorf("headers row %q: want the median 0.980 with its range, and missed against issue #28's 0.99", lines[3])
	}
	for _, bad := range []string{"1\t1k\tx\tc\t1\t1\t1\t1\t0\t1\t1", "1\t1k\tx\ta\t1\t1"} {
		if err := runOverheadReport(nil, strings.NewReader(bad), &out); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}
