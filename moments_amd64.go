//go:build !purego

package greedytl

import (
	"math"

	"github.com/greedytl/greedytl/standardize"
	"golang.org/x/sys/cpu"
)

// haveAVX says whether the vector kernels of moments_amd64.s and
// score_amd64.s (AVX) run on this machine.
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

// standardize4AVX is standardize4's vector kernel (moments_amd64.s), for
// γ > 0.
//
//go:noescape
func standardize4AVX(rows *float64, stride, m int, invN, gamma float64, dst *float64, out *[12]float64) bool

// standardize4 computes the statistics of the four columns of the m×4
// block whose row i starts at rows[i·stride] (m ≥ 1) and, when all four
// take the plain route, writes them standardised to dst column after
// column, as standardize4Go does.
func standardize4(rows *float64, stride, m int, invN, gamma float64, dst *float64, out *[12]float64) bool {
	if haveAVX && gamma > 0 {
		return standardize4AVX(rows, stride, m, invN, gamma, dst, out)
	}
	return standardize4Go(rows, stride, m, invN, gamma, dst, out)
}

// standardize4Consts are standardize4AVX's constants: +Inf, the sum of
// squares below which standardize.Std rescales, standardize.ConstTol and 1.
var standardize4Consts = [4]float64{math.Inf(1), standardize.TinySumSquares, standardize.ConstTol, 1}
