package score

// Result is the word-level agreement between an expected text and an output.
type Result struct {
	// Expected is the number of tokens in the expected text.
	Expected int `json:"expected_words"`
	// Output is the number of tokens in the output.
	Output int `json:"output_words"`
	// Common is the size of the multiset intersection of the two.
	Common int `json:"common_words"`
	// Recall is Common / Expected: the share of the expected words that the
	// output kept. It is 1 when nothing was expected.
	Recall float64 `json:"recall"`
	// Precision is Common / Output: the share of the output's words that were
	// expected. It is 1 when both are empty and 0 when only the output is.
	Precision float64 `json:"precision"`
	// F1 is the harmonic mean of Recall and Precision, 0 when both are 0.
	F1 float64 `json:"f1"`
}

// Compare scores output against expected on multisets of word tokens.
func Compare(expected, output Bag) Result {
	r := Result{Expected: expected.Size(), Output: output.Size()}
	small, large := expected, output
	if len(small) > len(large) {
		small, large = large, small
	}
	for w, c := range small {
		r.Common += min(c, large[w])
	}
	r.Recall = ratio(r.Common, r.Expected, 1)
	empty := 0.0
	if r.Expected == 0 {
		empty = 1
	}
	r.Precision = ratio(r.Common, r.Output, empty)
	if r.Recall+r.Precision > 0 {
		r.F1 = 2 * r.Recall * r.Precision / (r.Recall + r.Precision)
	}
	return r
}

// ratio returns num/den, or ifZero when den is 0.
func ratio(num, den int, ifZero float64) float64 {
	if den == 0 {
		return ifZero
	}
	return float64(num) / float64(den)
}
