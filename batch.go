package greedytl

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// batchedScoring makes the sampled search score each step's candidates
// with one symmetric matrix product (bestOfBatched) instead of the scalar
// kernel (scorer). The openblas build sets it: with gonum's pure-Go BLAS
// the product is slower than the scalar kernel, which reads only half of
// Ĝ. The two select the same candidates (see bestOfBatched). Pruned
// scoring (prune.go), where it applies, comes first in either build.
var batchedScoring = false

// batchScorer scores many candidates at once: U = Z Ĝ by one symmetric
// matrix product (Z holds the candidates as rows; Ĝ is read as its upper
// triangle, as scorer reads it), then c = 1 + Σ_l z_l U_l, and t = Z a by
// one matrix–vector product.
//
// Its gains may differ from the scalar kernel's in the last bits, and the
// tie rule needs the scalar kernel's bits, so it does not return gains but
// an interval [lo, hi] that contains the gain fl(fl(t²)/c) that
// scorer.score1 computes for the same column. The bounds (checked by
// TestBatchBounds):
//
//   - Both c's approximate 1 + zᵀĜz within γ_{2m+2}·|z|ᵀ|Ĝ||z| + u·c
//     (u = 2⁻⁵³, γ_k = ku/(1 − ku); any summation order, with or without
//     fused multiply–adds), and |z|ᵀ|Ĝ||z| ≤ ‖Ĝ‖_F·‖z‖². So |c_b − c_s| ≤
//     Δ_0 + 2u·c with Δ_0 = 2γ_{2m+2}·‖Ĝ‖_F·‖z‖², and for c ≥ max(1/2,
//     4Δ_0) (c ≥ 1 in exact arithmetic) 1/c_s is within a relative ρ =
//     4Δ_0 + 16u of 1/c_b (rounding of t² and of the quotient included).
//   - Both t's approximate aᵀz within γ_m·‖a‖·‖z‖: |t_b − t_s| ≤ δ =
//     2γ_m·‖a‖·‖z‖, so |t_b² − t_s²| ≤ E = 2|t|δ + δ², and E/c ≤ 2E.
//   - Hence g_s ∈ [(g − 2E)(1 − ρ), (g + 2E)(1 + ρ)] for g = t²/c.
//
// The squared norm of a standardised column is m·γ² for features and m for
// sources, up to rounding, so ‖z‖² ≤ 2m·max(1, γ²) bounds it with room to
// spare, and the intervals use twice the bounds above. A candidate with
// c < max(1/2, 4Δ_0) or non-finite values gets [−Inf, +Inf]. Since
// ‖Ĝ‖_F ≤ √m/λ, the intervals' relative width is about 128·m^2.5·β·u/λ
// (β = max(1, γ²)): 1e-11 at m = 20 and λ = 1.
type batchScorer struct {
	z, u   []float64 // n×m: the candidates (rows) and Z Ĝ
	lo, hi []float64 // the gain intervals
}

// unitRoundoff is u = 2⁻⁵³, the unit roundoff of float64.
const unitRoundoff = 0x1p-53

// gammaK returns γ_k = ku/(1 − ku), the bound on the relative error of a
// sum of k rounded products.
func gammaK(k int) float64 {
	ku := float64(k) * unitRoundoff
	return ku / (1 - ku)
}

// bounds sets b.lo[:n] and b.hi[:n] for the n candidates in b.z[:n*m],
// given Ĝ and a of p and the bound zz ≥ ‖z‖² of every candidate. It
// returns false, and computes nothing, when Ĝ or a is not finite or Ĝ is
// so large that the intervals would be meaningless.
func (b *batchScorer) bounds(p *path, n int, zz float64) bool {
	m := p.m
	// ‖Ĝ‖_F² as scorer reads Ĝ, and ‖a‖²; a NaN or overflow makes
	// the check below fail.
	var dg, off, aa float64
	for i := 0; i < m; i++ {
		row := p.G[i*m+i : i*m+m]
		dg += row[0] * row[0]
		off += dot(row[1:], row[1:])
	}
	a := p.a[:m]
	aa = dot(a, a)
	d0 := 2 * 2 * gammaK(2*m+2) * math.Sqrt(dg+2*off) * zz
	rho := 4*d0 + 16*unitRoundoff
	dt := 2 * 2 * gammaK(m) * math.Sqrt(aa*zz)
	if !(rho < 0.5) || !(dt <= math.MaxFloat64) {
		return false
	}
	cmin := max(0.5, 4*d0)

	b.u = grow(b.u, n*m)
	b.lo, b.hi = grow(b.lo, n), grow(b.hi, n)
	zs, us := b.z[:n*m], b.u[:n*m]
	lo, hi := b.lo[:n], b.hi[:n]
	Z := blas64.General{Rows: n, Cols: m, Stride: m, Data: zs}
	blas64.Symm(blas.Right, 1, blas64.Symmetric{Uplo: blas.Upper, N: m, Stride: m, Data: p.G},
		Z, 0, blas64.General{Rows: n, Cols: m, Stride: m, Data: us})
	// lo and hi hold q = zᵀĜz and t = aᵀz until they are replaced.
	quadForms(lo, zs, us, m)
	blas64.Gemv(blas.NoTrans, 1, Z, blas64.Vector{N: m, Inc: 1, Data: a}, 0, blas64.Vector{N: n, Inc: 1, Data: hi})
	for k, q := range lo {
		c, t := 1+q, hi[k]
		at := math.Abs(t)
		e := 2 * (2*at*dt + dt*dt)
		g := t * t / c
		l, h := (g-e)*(1-rho), (g+e)*(1+rho)
		if !(c >= cmin) || !(c <= math.MaxFloat64) || !(h <= math.MaxFloat64) {
			l, h = math.Inf(-1), math.Inf(1)
		}
		lo[k], hi[k] = l, h
	}
	return true
}

// quadForms sets q[k] = z_kᵀu_k for the rows z_k of zs and u_k of us (m
// columns each), four rows at a time.
func quadForms(q, zs, us []float64, m int) {
	k := 0
	for ; k+4 <= len(q); k += 4 {
		z0, z1, z2, z3 := zs[k*m:k*m+m], zs[(k+1)*m:(k+2)*m], zs[(k+2)*m:(k+3)*m], zs[(k+3)*m:(k+4)*m]
		u0, u1, u2, u3 := us[k*m:k*m+m], us[(k+1)*m:(k+2)*m], us[(k+2)*m:(k+3)*m], us[(k+3)*m:(k+4)*m]
		z1, z2, z3 = z1[:len(z0)], z2[:len(z0)], z3[:len(z0)]
		u0, u1, u2, u3 = u0[:len(z0)], u1[:len(z0)], u2[:len(z0)], u3[:len(z0)]
		var q0, q1, q2, q3 float64
		for l, v := range z0 {
			q0 += v * u0[l]
			q1 += z1[l] * u1[l]
			q2 += z2[l] * u2[l]
			q3 += z3[l] * u3[l]
		}
		q[k], q[k+1], q[k+2], q[k+3] = q0, q1, q2, q3
	}
	for ; k < len(q); k++ {
		q[k] = dot(zs[k*m:k*m+m], us[k*m:k*m+m])
	}
}

// bestOfBatched is bestOf by the batch scorer, and returns what bestOf
// returns. The scalar kernel's winner w has the largest scalar gain, so
// its interval reaches up to the largest lower end L of all intervals:
// only the candidates whose interval reaches L can be w. Usually there is
// one, the winner; otherwise (near ties, exact ties between equal columns,
// and candidates without a usable interval) those are scored again by the
// scalar kernel, and bestOf's rule picks among them.
func (e *sampleEngine) bestOfBatched(p *path, cand []int) (int, error) {
	m, n := e.m, len(cand)
	b := &e.batch
	b.z = grow(b.z, n*m)
	for k, s := range cand {
		copy(b.z[k*m:k*m+m], e.col(s))
	}
	if !b.bounds(p, n, 2*float64(m)*max(1, e.in.gamma*e.in.gamma)) {
		return e.bestOfScalar(p, cand)
	}
	L := math.Inf(-1)
	for _, l := range b.lo[:n] {
		L = max(L, l)
	}
	near := e.local[:0]
	for k, h := range b.hi[:n] {
		if h >= L {
			near = append(near, cand[k])
		}
	}
	e.local = near
	if len(near) == 1 && !math.IsInf(L, -1) {
		return near[0], nil
	}
	return e.bestOfScalar(p, near)
}
