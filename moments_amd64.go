//go:build !purego

package greedytl

import (
	"math"

	"github.com/greedytl/greedytl/standardize"
	"golang.org/x/sys/cpu"
)

// haveAVX says whether the package's AVX kernels (moments_amd64.s,
// score_amd64.s, gramdot_amd64.s) run on this machine.
var haveAVX = cpu.X86.HasAVX

// moments4AVX is moments4's vector kernel (moments_amd64.s).
//
//go:noescape
func moments4AVX(rows *float64, stride, m int, invN float64, out *[8]float64)

// moments4 sets out[q] to the mean (the sum times invN) and out[4+q] to the
// sum of squared deviations from that mean of column q < 4 of the m×4
// block whose row i starts at rows[i·stride] (m ≥ 1), as moments4Go does.
func moments4(rows *float64, stride, m int, invN float64, out *[8]float64) {
	if haveAVX {
		moments4AVX(rows, stride, m, invN, out)
		return
	}
	moments4Go(rows, stride, m, invN, out)
}

// standardizePairAVX is standardizePair's vector kernel
// (moments_amd64.s), for γ > 0.
//
//go:noescape
func standardizePairAVX(r0, r1 *float64, stride, m int, invN, gamma float64, d0, d1 *float64, out *[24]float64) int

// standardizePair computes the statistics of two groups of four columns,
// the m×4 blocks whose row i starts at r0[i·stride] and r1[i·stride] (m ≥
// 1), and writes each group that takes the plain route standardised to
// d0 or d1, column after column, as standardizePairGo does. The groups
// may be the same (r0 = r1, d0 = d1): one group alone.
func standardizePair(r0, r1 *float64, stride, m int, invN, gamma float64, d0, d1 *float64, out *[24]float64) int {
	if haveAVX && gamma > 0 {
		return standardizePairAVX(r0, r1, stride, m, invN, gamma, d0, d1, out)
	}
	return standardizePairGo(r0, r1, stride, m, invN, gamma, d0, d1, out)
}

// standardizeConsts are standardizePairAVX's constants: +Inf, the sum of
// squares below which standardize.Std rescales, standardize.ConstTol and 1.
var standardizeConsts = [4]float64{math.Inf(1), standardize.TinySumSquares, standardize.ConstTol, 1}

// gatherColumnsAsm is gatherColumns' kernel (moments_amd64.s).
//
//go:noescape
func gatherColumnsAsm(data *float64, stride, m int, js *int, nc int, block *float64, w int)

// gatherColumns sets block[i·w + k] = data[i·stride + js[k]] for i < m and
// k < len(js), as gatherColumnsGo does, and fails as it would (an index
// out of range) when a column is not in [0, cols) or a slice is too short.
func gatherColumns(data []float64, stride, m, cols int, js []int, block []float64, w int) {
	if m == 0 || len(js) == 0 {
		return
	}
	var hi uint
	for _, j := range js {
		hi = max(hi, uint(j)) // a negative j is huge
	}
	_ = data[(m-1)*stride : (m-1)*stride+cols][hi]
	_ = block[(m-1)*w : (m-1)*w+len(js)]
	gatherColumnsAsm(&data[0], stride, m, &js[0], len(js), &block[0], w)
}

// sumRowsAVX is sumRows' vector kernel (moments_amd64.s), for w a
// positive multiple of four.
//
//go:noescape
func sumRowsAVX(rows *float64, stride, m, w int, acc *float64)

// sqDevRowsAVX is sqDevRows' vector kernel (moments_amd64.s), for w a
// positive multiple of four.
//
//go:noescape
func sqDevRowsAVX(rows *float64, stride, m, w int, mean, acc *float64)

// sumRows adds row i < m (m ≥ 1) of the m×w block whose row i starts at
// rows[i·stride] to the accumulators of its phase, as sumRowsGo does.
func sumRows(rows *float64, stride, m, w int, acc *float64) {
	if haveAVX && w%4 == 0 && w > 0 {
		sumRowsAVX(rows, stride, m, w, acc)
		return
	}
	sumRowsGo(rows, stride, m, w, acc)
}

// sqDevRows adds the squared deviations from mean of row i < m (m ≥ 1)
// of the m×w block whose row i starts at rows[i·stride] to the
// accumulators of its phase, as sqDevRowsGo does.
func sqDevRows(rows *float64, stride, m, w int, mean, acc *float64) {
	if haveAVX && w%4 == 0 && w > 0 {
		sqDevRowsAVX(rows, stride, m, w, mean, acc)
		return
	}
	sqDevRowsGo(rows, stride, m, w, mean, acc)
}

// standardizeRowAVX is standardizeRowGo's vector kernel
// (moments_amd64.s), for n a positive multiple of four.
//
//go:noescape
func standardizeRowAVX(n int, v, mean, f, dst *float64)

// standardizeRow32AVX is standardizeRow32Go's vector kernel
// (moments_amd64.s), for n a positive multiple of four.
//
//go:noescape
func standardizeRow32AVX(n int, v, mean, f *float64, dst *float32)
