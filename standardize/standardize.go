package standardize

import "math"

// ConstTol is the relative tolerance of Constant: a column whose standard
// deviation is at most ConstTol times the magnitude of its mean is constant.
const ConstTol = 1e-12

// StandardisedConstTol is the absolute tolerance below which a spread (a
// standard deviation or a weighted sum of squares) of a quantity already
// on the standardised scale — built from columns of mean 0 and standard
// deviation 1, such as DAM's mean standardised source score (package
// method's virtualLabels) or a standardised column's weighted line
// (weightedLine) — is that of a constant. It is absolute, not ConstTol's
// relative rule: such a quantity's mean is about 0, so a constant one is
// rounding noise about 0 whose spread is comparable to its mean, which
// Constant would take for variation (and standardise to unit spread).
const StandardisedConstTol = 1e-12

// TinySumSquares bounds a sum of squares below which squares may have
// underflowed (a value below 2^-511 squares to a subnormal or 0), and
// above which those that did weigh less than its rounding: below it Std
// recomputes the standard deviation in units of the largest deviation (and
// package ball a norm in units of the largest component).
const TinySumSquares = 0x1p-900

// Constant reports whether a column with the given mean and population
// standard deviation is constant (see the package documentation): its
// standard deviation is 0 or at most ConstTol times the magnitude of its
// mean, whatever the magnitude (subnormal columns included).
func Constant(mean, std float64) bool {
	return std <= ConstTol*math.Abs(mean)
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

// Mean returns the mean of v (n > 0 elements) given sum = Sum(v):
// sum·(1/n), or, when the sum overflowed though every value is finite
// (to ±Inf, or to NaN where Sum's partial sums overflowed to +Inf and −Inf),
// Σ v_i/n, so that the mean of large values does not depend on how many
// there are, held between the least and the greatest value (each term
// v_i/n is rounded, and near ±MaxFloat64 their sum may round past every
// value, even to ±Inf). It returns NaN when v holds a NaN or ±Inf value.
func Mean(v []float64, sum float64) float64 {
	if !math.IsInf(sum, 0) && !math.IsNaN(sum) {
		return sum * (1 / float64(len(v)))
	}
	n := float64(len(v))
	sum = 0
	lo, hi := v[0], v[0]
	for _, x := range v {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return math.NaN()
		}
		sum += x / n
		lo, hi = min(lo, x), max(hi, x)
	}
	return min(max(sum, lo), hi) // NaN stays NaN
}

// Rescaled reports whether Std recomputes the standard deviation from the
// values, given ss = SumSquares(v, mean): when ss is so small that the
// squares may have underflowed (below TinySumSquares), or when it
// overflowed. Otherwise Std is √(ss/n) and does not read v.
func Rescaled(ss float64) bool { return !(ss >= TinySumSquares) || math.IsInf(ss, 1) }

// Std returns the population standard deviation of v (its length n > 0)
// about mean, given ss = SumSquares(v, mean): √(ss/n), or, when Rescaled(ss)
// (the squares may have underflowed or overflowed), the value computed in
// units of the largest deviation, which neither underflows nor overflows
// unless the deviations themselves overflow (values spanning more than the
// float64 range; +Inf then). v is read only in that case.
func Std(v []float64, mean, ss float64) float64 {
	if !Rescaled(ss) {
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

// Moments returns the mean (Mean) and population standard deviation (Std)
// of v (n > 0 elements), in the package's order. ok is false when v holds
// a NaN or ±Inf value, or when the deviations overflow.
func Moments(v []float64) (mean, std float64, ok bool) {
	mean = Mean(v, Sum(v))
	if math.IsNaN(mean) {
		return mean, math.NaN(), false
	}
	std = Std(v, mean, SumSquares(v, mean))
	if math.IsNaN(std) || math.IsInf(std, 0) {
		return mean, std, false
	}
	return mean, std, true
}
