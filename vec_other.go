//go:build !amd64 || purego

package greedytl

// haveAVX says whether the vector kernels run here; they do not.
const haveAVX = false

// moments4 is moments4Go where there is no vector kernel.
func moments4(rows *float64, stride, m int, invN float64, out *[8]float64) {
	moments4Go(rows, stride, m, invN, out)
}

// t4Vec is t4Go where there is no vector kernel.
func t4Vec(z0, z1, z2, z3, a *float64, m int, out *[4]float64) {
	t4Go(z0, z1, z2, z3, a, m, out)
}

// t8Vec is t8Go where there is no vector kernel.
func t8Vec(zs *[8]*float64, a *float64, m int, out *[8]float64) {
	t8Go(zs, a, m, out)
}

// t16Vec is t16Go where there is no vector kernel.
func t16Vec(zs *[16]*float64, a *float64, m int, out *[16]float64) {
	t16Go(zs, a, m, out)
}

// score4Vec is score4Go where there is no vector kernel.
func score4Vec(z0, z1, z2, z3, gp, a *float64, m int, z4 *float64, out *[8]float64) {
	score4Go(z0, z1, z2, z3, gp, a, m, out)
}

// score4PrimalVec is score4PrimalGo and t4Go where there is no vector
// kernel.
func score4PrimalVec(z0, z1, z2, z3, u, a *float64, k1, m int, il float64, z4 *float64, out *[8]float64) {
	score4PrimalGo(z0, z1, z2, z3, u, k1, m, il, (*[4]float64)(out[:4]))
	t4Go(z0, z1, z2, z3, a, m, (*[4]float64)(out[4:]))
}

// standardizePair is standardizePairGo where there is no vector kernel.
func standardizePair(r0, r1 *float64, stride, m int, invN, gamma float64, d0, d1 *float64, out *[24]float64) int {
	return standardizePairGo(r0, r1, stride, m, invN, gamma, d0, d1, out)
}

// gatherColumns is gatherColumnsGo where there is no assembly.
func gatherColumns(data []float64, stride, m, cols int, js []int, block []float64, w int) {
	gatherColumnsGo(data, stride, m, cols, js, block, w)
}

// sumRows is sumRowsGo where there is no vector kernel.
func sumRows(rows *float64, stride, m, w int, acc *float64) {
	sumRowsGo(rows, stride, m, w, acc)
}

// sqDevRows is sqDevRowsGo where there is no vector kernel.
func sqDevRows(rows *float64, stride, m, w int, mean, acc *float64) {
	sqDevRowsGo(rows, stride, m, w, mean, acc)
}

// standardizeRowAVX is standardizeRowGo where there is no vector kernel
// (standardizeRow does not call it: haveAVX is false).
func standardizeRowAVX(n int, v, mean, f, dst *float64) { standardizeRowGo(n, v, mean, f, dst) }

// standardizeRow32AVX is standardizeRow32Go where there is no vector
// kernel (standardizeRow does not call it: haveAVX is false).
func standardizeRow32AVX(n int, v, mean, f *float64, dst *float32) {
	standardizeRow32Go(n, v, mean, f, dst)
}

// gerVec is gerGo where there is no vector kernel.
func gerVec(A []float64, m int, alpha float64, x, y []float64) { gerGo(A, m, alpha, x, y) }

// packG is packGGo where there is no vector kernel.
func packG(G []float64, m int, gp []float64) { packGGo(G, m, gp) }

// rowAbsDevs is rowAbsDevsGo where there is no vector kernel.
func rowAbsDevs(a []float64, m int, lambda, beta float64, out []float64) {
	rowAbsDevsGo(a, m, lambda, beta, out)
}
