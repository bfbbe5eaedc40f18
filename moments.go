package greedytl

import (
	"math"
	"unsafe"

	"github.com/greedytl/greedytl/inputcheck"
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

// The same moments for a band of w adjacent columns (w a multiple of
// four), visiting the rows in order and each row's w values as one
// contiguous run, so that the block streams through the caches (and a
// page is entered once a pass) rather than being walked four columns at a
// time down all its rows: row i goes to the accumulators of phase
// r = min(i, m − m%4) mod 4, acc[r·w : r·w+w], one per column, so that
// each column's four accumulators receive its values in moments4Go's
// order, and momentsRows combines them as moments4Go does.

// sumRowsGo is sumRows in Go, its definition: it adds row i < m of the
// m×w block whose row i starts at rows[i·stride] to the accumulators of
// its phase, acc[r·w : r·w+w] (acc + v, in that order).
func sumRowsGo(rows *float64, stride, m, w int, acc *float64) {
	v := unsafe.Slice(rows, (m-1)*stride+w)
	a := unsafe.Slice(acc, 4*w)
	tail := m - m%4
	for i := 0; i < m; i++ {
		r := min(i, tail) % 4
		row, ar := v[i*stride:i*stride+w], a[r*w:r*w+w]
		for k, x := range row {
			ar[k] += x
		}
	}
}

// sqDevRowsGo is sqDevRows in Go, its definition: sumRowsGo of the squared
// deviations (v − mean[k])², each square rounded before its addition.
func sqDevRowsGo(rows *float64, stride, m, w int, mean, acc *float64) {
	v := unsafe.Slice(rows, (m-1)*stride+w)
	a := unsafe.Slice(acc, 4*w)
	mu := unsafe.Slice(mean, w)
	tail := m - m%4
	for i := 0; i < m; i++ {
		r := min(i, tail) % 4
		row, ar := v[i*stride:i*stride+w], a[r*w:r*w+w]
		for k, x := range row {
			d := x - mu[k]
			ar[k] += float64(d * d)
		}
	}
}

// momentsRows sets mean[k] and ss[k], k < w (a multiple of four), to what
// moments4Go computes for column k of the m×w block whose row i starts at
// rows[i·stride] (m ≥ 1): the mean and the sum of squared deviations from
// it, bit for bit. acc is scratch of at least 4·w floats.
func momentsRows(rows *float64, stride, m, w int, invN float64, acc, mean, ss []float64) {
	acc, mean, ss = acc[:4*w], mean[:w], ss[:w]
	a0, a1, a2, a3 := acc[:w], acc[w:2*w], acc[2*w:3*w], acc[3*w:]
	clear(acc)
	sumRows(rows, stride, m, w, &acc[0])
	for k := range mean {
		mean[k] = ((a0[k] + a1[k]) + (a2[k] + a3[k])) * invN
	}
	clear(acc)
	sqDevRows(rows, stride, m, w, &mean[0], &acc[0])
	for k := range ss {
		ss[k] = (a0[k] + a1[k]) + (a2[k] + a3[k])
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
		ok = ok && inputcheck.Finite(mean) && !standardize.Rescaled(ss) && !standardize.Constant(mean, std) && scale != 0 && !math.IsInf(f, 1)
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

// standardizeRowGo is standardizeRowAVX's definition: dst[k] = (v[k] −
// mean[k])·f[k] for k < n, writeBlock's arithmetic for a row of the block.
func standardizeRowGo(n int, v, mean, f, dst *float64) {
	vs, ms, fs, ds := unsafe.Slice(v, n), unsafe.Slice(mean, n), unsafe.Slice(f, n), unsafe.Slice(dst, n)
	for k := range ds {
		ds[k] = (vs[k] - ms[k]) * fs[k]
	}
}

// standardizeRow32Go is standardizeRow32AVX's definition: dst[k] =
// float32((v[k] − mean[k])·f[k]) for k < n, writeBlock's arithmetic for a
// row of the float32 block.
func standardizeRow32Go(n int, v, mean, f *float64, dst *float32) {
	vs, ms, fs, ds := unsafe.Slice(v, n), unsafe.Slice(mean, n), unsafe.Slice(f, n), unsafe.Slice(dst, n)
	for k := range ds {
		ds[k] = float32((vs[k] - ms[k]) * fs[k])
	}
}

// standardizeRow sets dst[k] = (v[k] − mean[k])·f[k], rounded to T, for
// k < len(dst) (v, mean and f at least as long), as standardizeRowGo and
// standardizeRow32Go do: the columns in multiples of four through the
// vector kernel where there is one, the rest here.
func standardizeRow[T float32 | float64](dst []T, v, mean, f []float64) {
	n := len(dst)
	if n == 0 {
		return
	}
	v, mean, f = v[:n], mean[:n], f[:n]
	n4 := 0
	if haveAVX {
		n4 = n &^ 3
	}
	switch d := any(dst).(type) {
	case []float64:
		if n4 > 0 {
			standardizeRowAVX(n4, &v[0], &mean[0], &f[0], &d[0])
		}
		if n4 < n {
			standardizeRowGo(n-n4, &v[n4], &mean[n4], &f[n4], &d[n4])
		}
	case []float32:
		if n4 > 0 {
			standardizeRow32AVX(n4, &v[0], &mean[0], &f[0], &d[0])
		}
		if n4 < n {
			standardizeRow32Go(n-n4, &v[n4], &mean[n4], &f[n4], &d[n4])
		}
	}
}
