//go:build !purego

package greedytl

import "golang.org/x/sys/cpu"

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

// scale4AVX is scale4's vector kernel (moments_amd64.s).
//
//go:noescape
func scale4AVX(rows *float64, stride, m int, mf *[8]float64, dst *float64)

// scale4 writes the four columns of the m×4 block whose row i starts at
// rows[i·stride], standardised with means mf[:4] and finite factors
// mf[4:], to dst column after column, as scale4Go does.
func scale4(rows *float64, stride, m int, mf *[8]float64, dst *float64) {
	if haveAVX {
		scale4AVX(rows, stride, m, mf, dst)
		return
	}
	scale4Go(rows, stride, m, mf, dst)
}
