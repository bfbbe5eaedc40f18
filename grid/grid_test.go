package grid

import (
	"math/big"
	"slices"
	"testing"
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

// TestPowersOfTenNearest: every power PowersOfTen returns, over float64's
// whole range (10^-330 … 10^310, 0 and +Inf past it), is the float64
// nearest to the exact power, which math/big rounds from the exact
// rational (math.Pow10(-307) is one ulp off it).
func TestPowersOfTenNearest(t *testing.T) {
	const lo, hi = -330, 310
	got := PowersOfTen(lo, hi)
	if len(got) != hi-lo+1 {
		t.Fatalf("PowersOfTen(%d, %d) has %d values, want %d", lo, hi, len(got), hi-lo+1)
	}
	ten := big.NewInt(10)
	for k, v := range got {
		e := lo + k
		p := new(big.Int).Exp(ten, big.NewInt(int64(max(e, -e))), nil)
		r := new(big.Rat).SetInt(p)
		if e < 0 {
			r.Inv(r)
		}
		want, _ := r.Float64() // nearest, ties to even; +Inf past MaxFloat64
		if v != want {
			t.Errorf("10^%d: got %v, want %v", e, v, want)
		}
	}
}
