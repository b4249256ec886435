package main

import (
	"slices"
	"time"
)

// latencies collects response times of one kind of request.
type latencies []time.Duration

// percentile returns the p-th percentile (0 < p ≤ 100) by the nearest-rank
// method, or 0 when there is no sample.
func (l latencies) percentile(p float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	s := slices.Clone(l)
	slices.Sort(s)
	rank := int(p/100*float64(len(s))+0.999999) - 1
	return s[min(max(rank, 0), len(s)-1)]
}

// ms formats d in milliseconds with two decimals.
func ms(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
