package greedytl

import (
	"math"
	"unsafe"

	"github.com/greedytl/greedytl/standardize"
)

// The first two moments of four columns at once, one per lane of a vector
// register (moments_amd64.s), with standardize.Sum's and SumSquares'
// arithmetic for each: a column's values go to four accumulators by row
// (row i to accumulator i mod 4, rows from the tail m − m%4 on to the
// first), combined as (s0 + s1) + (s2 + s3), and squares are never fused
// into multiply–adds. The four columns are adjacent in a row-major block,
// so that a row of the four is one load. standardizePair goes on, for two
// such groups at once, to the standard deviations and writes the
// standardised columns, in one call that keeps the columns in the
// first-level cache.

// moments4Go is moments4 in Go: the definition the kernel must match bit
// for bit.
func moments4Go(rows *float64, stride, m int, invN float64, out *[8]float64) {
	v := unsafe.Slice(rows, (m-1)*stride+4)
	tail := m - m%4
	for q := 0; q < 4; q++ {
		var s [4]float64
		for i := 0; i < m; i++ {
			s[min(i, tail)%4] += v[i*stride+q]
		}
		mean := ((s[0] + s[1]) + (s[2] + s[3])) * invN
		s = [4]float64{}
		for i := 0; i < m; i++ {
			d := v[i*stride+q] - mean
			s[min(i, tail)%4] += float64(d * d)
		}
		out[q], out[4+q] = mean, (s[0]+s[1])+(s[2]+s[3])
	}
}

// scale4Go is standardize4Go's last part: column q < 4 of the m×4 block
// whose row i starts at rows[i·stride], standardised as standardizeColumn does with a
// finite factor, (v − mf[q])·mf[4+q], goes to dst[q·m : q·m+m].
func scale4Go(rows *float64, stride, m int, mf *[8]float64, dst *float64) {
	v := unsafe.Slice(rows, (m-1)*stride+4)
	d := unsafe.Slice(dst, 4*m)
	for q := 0; q < 4; q++ {
		for i := 0; i < m; i++ {
			d[q*m+i] = (v[i*stride+q] - mf[q]) * mf[4+q]
		}
	}
}

// standardize4Go is the definition of what standardizePair does for one
// group of four columns, bit for bit. It computes the four columns' moments (moments4Go),
// their standard deviations √(ss·invN) (standardize.Std) and scaleFactor's
// divisors and factors, writing the means to out[:4], the divisors to
// out[4:8] and the factors to out[8:12], and reports whether every column
// takes the plain route: γ > 0, a finite mean, a sum of squares that Std
// does not rescale, not constant (standardize.Constant), a non-zero
// divisor and a finite factor. Only then does it write the four columns,
// standardised (scale4Go), to dst; otherwise dst is left alone and out
// holds nothing the caller may use.
func standardize4Go(rows *float64, stride, m int, invN, gamma float64, dst *float64, out *[12]float64) bool {
	var mo [8]float64
	moments4Go(rows, stride, m, invN, &mo)
	ok := gamma > 0
	var mf [8]float64
	for q := 0; q < 4; q++ {
		mean, ss := mo[q], mo[4+q]
		std := math.Sqrt(ss * invN)
		scale, f := scaleFactor(std, gamma)
		out[q], out[4+q], out[8+q] = mean, scale, f
		mf[q], mf[4+q] = mean, f
		ok = ok && standardize.Finite(mean) && !standardize.Rescaled(ss) && !standardize.Constant(mean, std) && scale != 0 && !math.IsInf(f, 1)
	}
	if ok {
		scale4Go(rows, stride, m, &mf, dst)
	}
	return ok
}

// standardizePairGo is standardizePair in Go: standardize4Go for the
// group of four columns at r0 (into d0, out[:12]) and for the group at r1
// (into d1, out[12:]); bit g of the result says whether group g took the
// plain route (and was written).
func standardizePairGo(r0, r1 *float64, stride, m int, invN, gamma float64, d0, d1 *float64, out *[24]float64) int {
	plain := 0
	if standardize4Go(r0, stride, m, invN, gamma, d0, (*[12]float64)(out[:12])) {
		plain |= 1
	}
	if standardize4Go(r1, stride, m, invN, gamma, d1, (*[12]float64)(out[12:])) {
		plain |= 2
	}
	return plain
}
