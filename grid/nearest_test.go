package grid

import (
	"math/big"
	"testing"
)

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
