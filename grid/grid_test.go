package grid

import (
	"math"
	"slices"
	"testing"
	"time"
)

func TestGrids(t *testing.T) {
	// The literals are the float64 nearest to each power, as Go's parser
	// (correctly rounded) reads them.
	for _, tc := range []struct {
		name      string
		got, want []float64
	}{
		{"Regularization", Regularization(), []float64{1e-4, 1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3, 1e4}},
		{"Tau", Tau(), []float64{1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3}},
		{"PowersOfTen(2, 1)", PowersOfTen(2, 1), []float64{}},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	// Fresh slices: changing one does not change the next.
	g := Regularization()
	g[0] = 7
	if Regularization()[0] != 1e-4 {
		t.Error("Regularization returns a shared slice")
	}
}

// TestPowersOfTenExtremes: the loop ended when its exponent passed hi,
// which never happens at hi = math.MaxInt (the exponent wraps to
// math.MinInt): PowersOfTen(math.MaxInt-1, math.MaxInt) never returned.
// Exponents at either end of int's range give +Inf and 0.
func TestPowersOfTenExtremes(t *testing.T) {
	for _, tc := range []struct {
		lo, hi int
		want   []float64
	}{
		{math.MaxInt - 1, math.MaxInt, []float64{math.Inf(1), math.Inf(1)}},
		{math.MaxInt, math.MaxInt, []float64{math.Inf(1)}},
		{math.MinInt, math.MinInt + 1, []float64{0, 0}},
		{math.MaxInt, math.MinInt, []float64{}},
	} {
		done := make(chan []float64, 1)
		go func() { done <- PowersOfTen(tc.lo, tc.hi) }()
		select {
		case got := <-done:
			if !slices.Equal(got, tc.want) {
				t.Errorf("PowersOfTen(%d, %d) = %v, want %v", tc.lo, tc.hi, got, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("PowersOfTen(%d, %d) has not returned in 10 s", tc.lo, tc.hi)
		}
	}
}
