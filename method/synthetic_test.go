package method

import (
	"math"
	"testing"

	"github.com/greedytl/greedytl/internal/kerneltest"
	"github.com/greedytl/greedytl/metric"
)

// syntheticTransfer draws a synthetic transfer sample of m examples (pos of
// them positive, first), d features and n sources: feature 0 and source 0
// carry the label (y·signal plus unit noise), the other columns are
// standard normal noise.
func syntheticTransfer(seed uint64, m, pos, d, n int, signal float64) Data {
	X, H, y := kerneltest.Synthetic(seed, m, pos, d, n, signal)
	d2 := Data{Y: y}
	if X != nil {
		d2.X = X
	}
	if H != nil {
		d2.H = H
	}
	return d2
}

// balancedAcc is (TPR + TNR)/2 of the signs of f (0 is negative), failing
// the test on a non-finite score.
func balancedAcc(t testing.TB, f, y []float64) float64 {
	t.Helper()
	for i, v := range f {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("score %d is %v", i, v)
		}
	}
	acc, err := metric.BalancedAccuracy(f, y)
	if err != nil {
		t.Fatal(err)
	}
	return acc
}

// near reports whether a and b agree to rel relative to max(1, scale).
func near(a, b, rel, scale float64) bool {
	return math.Abs(a-b) <= rel*math.Max(1, scale)
}
