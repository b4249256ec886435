package selfcheck

// Verdict is the single outcome of a check (STANDARD.md §3); none is rounded
// into another.
type Verdict string

// The seven verdicts of STANDARD.md §3.
const (
	// Pass: what the rule expects came back; full weight.
	Pass Verdict = "PASS"
	// Partial: part is in place; a stated fraction of the weight, and the
	// receipt names the missing part.
	Partial Verdict = "PARTIAL"
	// Fail: asked for, nothing there; zero.
	Fail Verdict = "FAIL"
	// Optional: an unsettled rule, noted found or not found; no points.
	Optional Verdict = "OPTIONAL"
	// NotApplicable: the rule does not apply; leaves the denominator.
	NotApplicable Verdict = "NOT_APPLICABLE"
	// CouldNotCheck: refused, timeout, redirect loop, oversize, 5xx; keeps
	// its weight, earns zero, listed separately.
	CouldNotCheck Verdict = "COULD_NOT_CHECK"
	// Unverified: measurable only with credentials the scanner never holds.
	Unverified Verdict = "UNVERIFIED"
)

// outcome is what a check decides before it is weighed: a verdict, the
// fraction of the weight earned (1 for PASS, 0 for FAIL, strictly between for
// PARTIAL), what is missing, and the receipt.
type outcome struct {
	verdict  Verdict
	fraction float64
	missing  string
	found    *bool
	receipt  Receipt
	scope    []string
	cause    string // why it did not pass (Receipt.Cause)
	fix      string // a site.yaml snippet built from the site's own values
}

// because sets the outcome's cause and returns it.
func (o outcome) because(cause string) outcome {
	o.cause = cause
	return o
}

// fromFraction turns a fraction into PASS, PARTIAL or FAIL.
func fromFraction(f float64, missing string) outcome {
	switch {
	case f >= 1:
		return outcome{verdict: Pass, fraction: 1}
	case f <= 0:
		return outcome{verdict: Fail, missing: missing}
	default:
		// A PARTIAL never rounds into a PASS or a FAIL.
		return outcome{verdict: Partial, fraction: min(max(round2(f), 0.01), 0.99), missing: missing}
	}
}

// round2 rounds to two decimals so that fractions and points print stably.
func round2(f float64) float64 {
	if f < 0 {
		return -round2(-f)
	}
	return float64(int64(f*100+0.5)) / 100
}
