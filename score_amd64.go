//go:build !purego

package greedytl

import (
	"unsafe"
)

// t4AVX computes t for four columns and, unless z4 is nil, interleaves
// them into z4 for q4AVX and q4PrimalAVX (score_amd64.s).
//
//go:noescape
func t4AVX(z0, z1, z2, z3, a *float64, m int, z4, out *[4]float64)

// t8AVX computes t for eight columns (score_amd64.s).
//
//go:noescape
func t8AVX(zs *[8]*float64, a *float64, m int, out *[8]float64)

// t16AVX computes t for sixteen columns (score_amd64.s).
//
//go:noescape
func t16AVX(zs *[16]*float64, a *float64, m int, out *[16]float64)

// t16Vec sets out[q] = aᵀz_q for the sixteen columns of m ≥ 1 values at
// zs[q], as t16Go sums them.
func t16Vec(zs *[16]*float64, a *float64, m int, out *[16]float64) {
	if haveAVX {
		t16AVX(zs, a, m, out)
		return
	}
	t16Go(zs, a, m, out)
}

// q4AVX computes the dual form's c for four interleaved columns
// (score_amd64.s).
//
//go:noescape
func q4AVX(gp *float64, z4 *[4]float64, m int, out *[4]float64)

// q4PrimalAVX computes the primal form's c for four interleaved columns
// (score_amd64.s).
//
//go:noescape
func q4PrimalAVX(z4 *[4]float64, u *float64, k1, m int, il float64, out *[4]float64)

// t4Vec sets out[q] = aᵀz_q for the four columns of m ≥ 1 values at
// z0, …, z3, as t4Go sums them.
func t4Vec(z0, z1, z2, z3, a *float64, m int, out *[4]float64) {
	if haveAVX {
		t4AVX(z0, z1, z2, z3, a, m, nil, out)
		return
	}
	t4Go(z0, z1, z2, z3, a, m, out)
}

// t8Vec sets out[q] = aᵀz_q for the eight columns of m ≥ 1 values at
// zs[q], as t8Go sums them.
func t8Vec(zs *[8]*float64, a *float64, m int, out *[8]float64) {
	if haveAVX {
		t8AVX(zs, a, m, out)
		return
	}
	t8Go(zs, a, m, out)
}

// score4Vec sets out[q] = c and out[4+q] = t for the four columns of m ≥ 1
// values at z0, …, z3 in the dual form (gp: scorer.gp), as score4Go
// computes them; z4 is scratch for 4m floats.
func score4Vec(z0, z1, z2, z3, gp, a *float64, m int, z4 *float64, out *[8]float64) {
	if haveAVX {
		zi := (*[4]float64)(unsafe.Pointer(z4))
		t4AVX(z0, z1, z2, z3, a, m, zi, (*[4]float64)(out[4:]))
		q4AVX(gp, zi, m, (*[4]float64)(out[:4]))
		return
	}
	score4Go(z0, z1, z2, z3, gp, a, m, out)
}

// score4PrimalVec sets out[q] = c and out[4+q] = t for the four columns of
// m ≥ 1 values at z0, …, z3 in the primal form (the k1 rows of U at u,
// il = 1/λ), as score4PrimalGo and t4Go compute them; z4 is scratch for 4m
// floats.
func score4PrimalVec(z0, z1, z2, z3, u, a *float64, k1, m int, il float64, z4 *float64, out *[8]float64) {
	if haveAVX {
		zi := (*[4]float64)(unsafe.Pointer(z4))
		t4AVX(z0, z1, z2, z3, a, m, zi, (*[4]float64)(out[4:]))
		q4PrimalAVX(zi, u, k1, m, il, (*[4]float64)(out[:4]))
		return
	}
	score4PrimalGo(z0, z1, z2, z3, u, k1, m, il, (*[4]float64)(out[:4]))
	t4Go(z0, z1, z2, z3, a, m, (*[4]float64)(out[4:]))
}

// gerAVX is ger's vector kernel (score_amd64.s).
//
//go:noescape
func gerAVX(a *float64, m int, alpha float64, x, y *float64)

// gerVec sets A += alpha·x yᵀ for the row-major m×m matrix A (m ≥ 1,
// alpha ≠ 0), as gonum's Dger does, bit for bit.
func gerVec(A []float64, m int, alpha float64, x, y []float64) {
	if haveAVX {
		_, _, _ = A[m*m-1], x[m-1], y[m-1]
		gerAVX(&A[0], m, alpha, &x[0], &y[0])
		return
	}
	gerGo(A, m, alpha, x, y)
}

// packGAVX is packG's vector kernel (score_amd64.s).
//
//go:noescape
func packGAVX(a *float64, m int, gp *float64)

// packG packs the upper triangle of the row-major m×m matrix G into gp
// (m(m+1)/2 values), as packGGo does.
func packG(G []float64, m int, gp []float64) {
	if haveAVX && m > 0 {
		_, _ = G[m*m-1], gp[m*(m+1)/2-1]
		packGAVX(&G[0], m, &gp[0])
		return
	}
	packGGo(G, m, gp)
}

// rowAbsDevsAVX is rowAbsDevs' vector kernel (score_amd64.s).
//
//go:noescape
func rowAbsDevsAVX(a *float64, m int, lambda, beta float64, out *float64)

// rowAbsDevs sets out[i] to Gershgorin's sum of row i of K_S from the
// row-major m×m K_S + λI + β11ᵀ in a, as rowAbsDevsGo does, bit for bit.
func rowAbsDevs(a []float64, m int, lambda, beta float64, out []float64) {
	if haveAVX && m > 0 {
		_, _ = a[m*m-1], out[m-1]
		rowAbsDevsAVX(&a[0], m, lambda, beta, &out[0])
		return
	}
	rowAbsDevsGo(a, m, lambda, beta, out)
}
