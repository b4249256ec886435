package main

import (
	"math"
	"testing"
)

func TestQuantile(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		q    float64
		want float64
	}{
		{"median of odd count", []float64{3, 1, 2}, 0.5, 2},
		{"median of even count interpolates", []float64{4, 1, 3, 2}, 0.5, 2.5},
		{"p10 of eleven values", []float64{10, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 0.1, 1},
		{"minimum", []float64{5, 2, 9}, 0, 2},
		{"maximum", []float64{5, 2, 9}, 1, 9},
		{"single value", []float64{0.7}, 0.1, 0.7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quantile(tt.xs, tt.q); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("quantile(%v, %v) = %v, want %v", tt.xs, tt.q, got, tt.want)
			}
		})
	}
	if !math.IsNaN(quantile(nil, 0.5)) {
		t.Error("quantile of no values should be NaN")
	}
	xs := []float64{3, 1, 2}
	quantile(xs, 0.5)
	if xs[0] != 3 || xs[1] != 1 {
		t.Errorf("quantile sorted its input: %v", xs)
	}
}

func TestWorstDecileMean(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want float64
	}{
		{"twenty values: mean of lowest two", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.2, 0.4}, 0.3},
		{"fewer than ten: lowest one", []float64{0.9, 0.5, 0.8}, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := worstDecileMean(tt.xs); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("worstDecileMean = %v, want %v", got, tt.want)
			}
		})
	}
}
