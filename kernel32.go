package greedytl

import (
	"math"
	"unsafe"
)

// The product of the exact search's float32 block with a vector
// (exact32.go): dst = Zᵀx for the row-major m×n block z, in float64
// arithmetic, every element of dst with the same sequence of fused
// multiply–adds (so that equal columns give bitwise equal results, as the
// tie rule needs), four rows at a time: dst_i = fma(x_{l+3}, z_{l+3,i},
// fma(x_{l+2}, …, fma(x_l, z_{l,i}, dst_i))).

// gemvT32 sets dst = Zᵀx for the row-major m×n float32 block z.
func gemvT32(dst []float64, z []float32, m, n int, x []float64) {
	gemvT32x2(dst, nil, z, m, n, x, nil)
}

// gemvT32x2 sets dst = Zᵀx and, unless dst2 is nil, dst2 = Zᵀx2, in one
// pass over z (each band of rows, rows32 float32 values, serves both while it is in the
// cache), each product computed as gemvT32 computes it. The whole groups
// of four rows go through axpyRowsF32, a band a call; a last group of
// fewer than four rows through axpy4Rows.
func gemvT32x2(dst, dst2 []float64, z []float32, m, n int, x, x2 []float64) {
	dst = dst[:n]
	clear(dst)
	if dst2 != nil {
		dst2 = dst2[:n]
		clear(dst2)
		x2 = x2[:m]
	}
	if n == 0 {
		return
	}
	z = z[:m*n]
	x = x[:m]
	m4 := m &^ 3
	band := m4
	if dst2 != nil {
		band = max(4, rows32/n&^3)
	}
	for l := 0; l < m4; l += band {
		r := min(band, m4-l)
		axpyRowsF32(n, r, n, &z[l*n], &x[l], &dst[0])
		if dst2 != nil {
			axpyRowsF32(n, r, n, &z[l*n], &x2[l], &dst2[0])
		}
	}
	if m4 < m {
		axpy4Rows(dst, z, m, n, m4, x)
		if dst2 != nil {
			axpy4Rows(dst2, z, m, n, m4, x2)
		}
	}
}

// rows32 is the number of float32 values in a band of rows that
// gemvT32x2 reads for both products before moving on (64 KB: it stays in
// the first- or second-level cache between the two).
const rows32 = 16 << 10

// gemvT32Cols sets dst = Zᵀx for the columns c0, …, c0+len(dst)−1 of the
// row-major m×n float32 block z, each element as gemvT32 computes it: the
// whole groups of four rows in one call of axpyRowsF32 (rows n apart, from
// column c0), a last group of fewer than four rows through axpy4Cols.
func gemvT32Cols(dst []float64, z []float32, m, n, c0 int, x []float64) {
	x = x[:m] // the kernel reads x[0], …, x[m4−1] unchecked
	clear(dst)
	if len(dst) == 0 {
		return
	}
	m4 := m &^ 3
	if m4 > 0 {
		_ = z[(m4-1)*n+c0+len(dst)-1] // the kernel reads no further
		axpyRowsF32(len(dst), m4, n, &z[c0], &x[0], &dst[0])
	}
	if m4 < m {
		axpy4Cols(dst, z, m, n, c0, m4, x)
	}
}

// axpy4Rows adds rows l, …, l+3 of z (those below m), weighted by x, to
// dst.
func axpy4Rows(dst []float64, z []float32, m, n, l int, x []float64) {
	axpy4Cols(dst[:n], z, m, n, 0, l, x)
}

// axpy4Cols adds the columns c0, …, c0+len(dst)−1 of rows l, …, l+3 of z
// (those below m), weighted by x, to dst, each element with the same
// fused multiply–adds whichever columns are taken together (the kernel's
// and the loop's are the same operations).
func axpy4Cols(dst []float64, z []float32, m, n, c0, l int, x []float64) {
	n16 := len(dst) &^ 15 // the kernel's columns; the others here
	// Rows past the last one repeat it with weight 0: fma(0, v, d) = d.
	var r [4]int
	var xs [4]float64
	for q := range r {
		r[q] = min(l+q, m-1)
		if l+q < m {
			xs[q] = x[l+q]
		}
	}
	if len(dst) == 0 {
		return
	}
	_ = z[r[3]*n+c0+len(dst)-1] // the kernel reads no further
	if n16 > 0 {
		axpy4F32(n16, &z[r[0]*n+c0], &z[r[1]*n+c0], &z[r[2]*n+c0], &z[r[3]*n+c0], &xs, &dst[0])
	}
	for i := n16; i < len(dst); i++ {
		d := dst[i]
		for q := range r {
			d = math.FMA(xs[q], float64(z[r[q]*n+c0+i]), d)
		}
		dst[i] = d
	}
}

// axpy4F32Go is axpy4F32 in Go.
func axpy4F32Go(n int, a0, a1, a2, a3 *float32, x *[4]float64, y *float64) {
	as := [4][]float32{unsafe.Slice(a0, n), unsafe.Slice(a1, n), unsafe.Slice(a2, n), unsafe.Slice(a3, n)}
	ys := unsafe.Slice(y, n)
	for i := range ys {
		d := ys[i]
		for q := range as {
			d = math.FMA(x[q], float64(as[q][i]), d)
		}
		ys[i] = d
	}
}

// axpyRowsF32Go is axpyRowsF32 in Go.
func axpyRowsF32Go(n, rows, ld int, z *float32, x *float64, y *float64) {
	if rows == 0 {
		return
	}
	zs := unsafe.Slice(z, (rows-1)*ld+n)
	xs := unsafe.Slice(x, rows)
	for l := 0; l < rows; l += 4 {
		axpy4F32Go(n, &zs[l*ld], &zs[(l+1)*ld], &zs[(l+2)*ld], &zs[(l+3)*ld], (*[4]float64)(xs[l:l+4]), y)
	}
}
