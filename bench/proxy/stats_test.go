package main

import (
	"testing"
	"time"

	"github.com/agentready/caddy-agentready/internal/procstatus"
)

func TestPercentile(t *testing.T) {
	ten := latencies{}
	for i := 10; i >= 1; i-- { // unsorted on purpose
		ten = append(ten, time.Duration(i)*time.Millisecond)
	}
	tests := []struct {
		name string
		l    latencies
		p    float64
		want time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one", latencies{7}, 99, 7},
		{"median of ten", ten, 50, 5 * time.Millisecond},
		{"p99 of ten", ten, 99, 10 * time.Millisecond},
		{"p10 of ten", ten, 10, 1 * time.Millisecond},
		{"max", ten, 100, 10 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.l.percentile(tt.p); got != tt.want {
				t.Errorf("percentile(%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
	if ten[0] != 10*time.Millisecond {
		t.Errorf("percentile sorted its receiver in place")
	}
}

func TestWeightedSlots(t *testing.T) {
	mix := []request{{Name: "a", Weight: 3}, {Name: "b"}, {Name: "c", Weight: 2}}
	slots := weightedSlots(mix)
	count := map[int]int{}
	for i, s := range slots {
		count[s]++
		if i > 0 && s == slots[i-1] && s != 0 {
			t.Errorf("kind %d twice in a row at %d: %v", s, i, slots)
		}
	}
	if len(slots) != 6 || count[0] != 3 || count[1] != 1 || count[2] != 2 {
		t.Errorf("slots %v: want 3×a, 1×b, 2×c", slots)
	}
}

func TestDrift(t *testing.T) {
	s := func(rss ...int64) []rssSample {
		var out []rssSample
		for i, r := range rss {
			out = append(out, rssSample{At: time.Duration(i) * time.Second, Memory: procstatus.Memory{RSS: r}})
		}
		return out
	}
	tests := []struct {
		name   string
		in     []rssSample
		lo, hi int64
	}{
		{"none", nil, 0, 0},
		{"idle only", s(5), 5, 5},
		{"idle left out", s(1, 9, 7, 8), 7, 9},
	}
	for _, tt := range tests {
		lo, hi := drift(tt.in)
		if lo != tt.lo || hi != tt.hi {
			t.Errorf("%s: drift = %d, %d, want %d, %d", tt.name, lo, hi, tt.lo, tt.hi)
		}
	}
}
