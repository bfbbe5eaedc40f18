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
