package grid

import (
	"math"
	"strconv"
)

// Regularization returns the paper's grid of regularisation parameters,
// {1e-4, 1e-3, …, 1e4}, searched for ridge's λ and for the C of SVMs and
// logistic regression.
func Regularization() []float64 { return PowersOfTen(-4, 4) }

// Tau returns the paper's grid of MultiKT's radius τ, {1e-3, 1e-2, …, 1e3}.
func Tau() []float64 { return PowersOfTen(-3, 3) }

// PowersOfTen returns 10^lo, 10^(lo+1), …, 10^hi (empty when hi < lo), each
// the float64 nearest to the power, as the literal 1e<e> reads (0 below
// float64's range, +Inf above it). (math.Pow10 is not always the nearest:
// math.Pow10(-307) is one ulp above 1e-307.) Any lo ≤ hi works, hi =
// math.MaxInt included; a range of more powers than a slice can hold
// panics, and one that memory cannot hold ends the program, as make does.
func PowersOfTen(lo, hi int) []float64 {
	if hi < lo {
		return []float64{}
	}
	// hi − lo + 1 in uint, which does not overflow for hi − lo < MaxUint;
	// make refuses a count beyond int's range.
	n := uint(hi) - uint(lo) + 1
	if n == 0 || n > math.MaxInt {
		panic("grid: PowersOfTen(" + strconv.Itoa(lo) + ", " + strconv.Itoa(hi) + "): more powers than a slice can hold")
	}
	g := make([]float64, 0, int(n))
	for e := lo; ; e++ {
		// ParseFloat rounds correctly; its only error here is ErrRange,
		// beyond ±MaxFloat64, with the +Inf meant.
		v, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		g = append(g, v)
		if e == hi { // e++ would wrap at hi = math.MaxInt
			return g
		}
	}
}
