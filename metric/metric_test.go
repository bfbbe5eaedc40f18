package metric

import (
	"math"
	"testing"
)

func TestBalancedAccuracy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []float64
		y      []float64
		want   float64
	}{
		{"perfect", []float64{1, 2, -1, -3}, []float64{1, 1, -1, -1}, 1},
		{"all negative on 2+10", []float64{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
			[]float64{1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}, 0.5},
		{"zero is negative", []float64{0, 0}, []float64{1, -1}, 0.5},
		{"one of two positives", []float64{1, -1, -1, 1}, []float64{1, 1, -1, -1}, 0.5},
		{"imbalanced", []float64{1, -1, -1, -1, 1}, []float64{1, -1, -1, -1, -1}, (1 + 0.75) / 2},
		{"positives only", []float64{1, -1, 1}, []float64{1, 1, 1}, 2.0 / 3},
		{"NaN score is negative", []float64{math.NaN(), -1}, []float64{1, -1}, 0.5},
	} {
		got, err := BalancedAccuracy(tc.scores, tc.y)
		if err != nil || math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: got %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := BalancedAccuracy([]float64{1}, nil); err == nil {
		t.Error("length mismatch: want error")
	}
	if _, err := BalancedAccuracy(nil, nil); err == nil {
		t.Error("empty: want error")
	}
}
