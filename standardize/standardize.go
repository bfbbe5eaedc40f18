// Package standardize owns the standardisation of candidate columns that
// every method of greedytl uses (docs/design.md §1): each column is centred
// on its training mean and divided by its training population standard
// deviation (divided by m, not m − 1), and test data are standardised with
// the training statistics.
//
// # Constant columns
//
// A column is constant (Constant) when its standard deviation is at most
// ConstTol times the magnitude of its mean — once centred it would hold
// nothing but rounding error; a column of zeros included — or below
// MinStd, the smallest normal float64: such a column is too small to
// standardise, since dividing by its standard deviation overflows. The rule
// is scale-free above MinStd: multiplying a column by a non-zero factor does
// not change the decision.
//
// A constant column has scale 0 and standardises to exactly 0, on the
// training sample and at prediction time alike. It carries no information
// on the training sample, so no method gives it weight; standardising it to
// 0 everywhere (rather than to v − mean, with scale 1) means that its test
// values never reach a score, not even as ∞·0 = NaN when a test value is
// huge.
//
// # Arithmetic
//
// Sum, SumSquares and Std fix the order of the floating-point operations,
// so that every implementation — the root package's column-blocked
// kernels, Scaler — computes bitwise the same statistics for the same
// column: sums run over four interleaved accumulators combined as
// (s0 + s1) + (s2 + s3), squares are never fused into multiply–adds, and a
// sum of squares below 2⁻⁹⁰⁰ (which may have underflowed) is recomputed in
// units of the largest deviation.
package standardize

import "math"

// ConstTol is the relative tolerance of Constant: a column whose standard
// deviation is at most ConstTol times the magnitude of its mean is constant.
const ConstTol = 1e-12

// MinStd is the smallest standard deviation a column can be standardised
// with: the smallest normal float64, 2⁻¹⁰²². Below it 1/std overflows.
const MinStd = 0x1p-1022

// TinySumSquares is the sum of squared deviations below which Std
// recomputes the standard deviation in units of the largest deviation.
const TinySumSquares = 0x1p-900

// Constant reports whether a column with the given mean and population
// standard deviation is constant (see the package documentation).
func Constant(mean, std float64) bool {
	return std <= ConstTol*math.Abs(mean) || std < MinStd
}

// Sum returns the sum of v in the package's order: four interleaved
// accumulators (element i adds to accumulator i mod 4, the last len(v) mod 4
// elements to accumulator 0), combined as (s0 + s1) + (s2 + s3).
func Sum(v []float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(v); i += 4 {
		s0 += v[i]
		s1 += v[i+1]
		s2 += v[i+2]
		s3 += v[i+3]
	}
	for ; i < len(v); i++ {
		s0 += v[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// SumSquares returns Σ (v_i − mean)² in Sum's order, without fused
// multiply–adds.
func SumSquares(v []float64, mean float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(v); i += 4 {
		d0, d1, d2, d3 := v[i]-mean, v[i+1]-mean, v[i+2]-mean, v[i+3]-mean
		// The conversions forbid fused multiply–adds, which the compiler
		// would otherwise use with GOAMD64=v3 in some kernels and not in
		// others.
		s0 += float64(d0 * d0)
		s1 += float64(d1 * d1)
		s2 += float64(d2 * d2)
		s3 += float64(d3 * d3)
	}
	for ; i < len(v); i++ {
		d := v[i] - mean
		s0 += float64(d * d)
	}
	return (s0 + s1) + (s2 + s3)
}

// Std returns the population standard deviation of v (its length n > 0)
// about mean, given ss = SumSquares(v, mean): √(ss/n), or, when ss is so
// small that the squares may have underflowed (or ss overflowed), the value
// computed in units of the largest deviation. v is read only in that case.
func Std(v []float64, mean, ss float64) float64 {
	if ss >= TinySumSquares && !math.IsInf(ss, 1) {
		return math.Sqrt(ss * (1 / float64(len(v))))
	}
	var s float64
	for _, x := range v {
		s = max(s, math.Abs(x-mean))
	}
	if s == 0 || math.IsInf(s, 0) {
		return s
	}
	var u float64
	for _, x := range v {
		d := (x - mean) / s
		u += d * d
	}
	return s * math.Sqrt(u/float64(len(v)))
}

// Moments returns the mean and population standard deviation of v (n > 0
// elements), in the package's order. When the plain sum overflows for
// finite values it returns the mean of the values divided by n. ok is false
// when v holds a NaN or ±Inf value, or when the deviations overflow.
func Moments(v []float64) (mean, std float64, ok bool) {
	n := float64(len(v))
	sum := Sum(v)
	if math.IsNaN(sum) {
		return sum, math.NaN(), false
	}
	if math.IsInf(sum, 0) {
		sum = 0
		for _, x := range v {
			if math.IsInf(x, 0) {
				return math.NaN(), math.NaN(), false
			}
			sum += x / n
		}
		mean = sum
	} else {
		mean = sum * (1 / n)
	}
	std = Std(v, mean, SumSquares(v, mean))
	if math.IsNaN(std) || math.IsInf(std, 0) {
		return mean, std, false
	}
	return mean, std, true
}
