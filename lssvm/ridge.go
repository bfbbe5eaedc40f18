package lssvm

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/internal/plural"
	"gonum.org/v1/gonum/mat"
)

// WeightedRidge is ridge regression with row weights ω and an unpenalised
// intercept, min_{w,b} Σ_i ω_i (t_i − wᵀz_i − b)² + λ||w||², in the dual,
// for every λ at once. With p = ω/Σω, the rows √ω_i (z_i − Σ_k p_k z_k)
// form S, whose columns are orthogonal to q = √ω/||√ω||; on q⊥ (a
// Householder basis Q) SSᵀ = UΛUᵀ, U = QV with orthonormal columns. Then
// the scaled residuals are √ω∘e = U diag(λ/(Λ+λ)) Uᵀs, s = √ω∘(t − pᵀt),
// and the leverages (the intercept's included) satisfy
// 1 − h_ii = Σ_k U_ik² λ/(Λ_k+λ) — sums of positive terms, accurate even
// when λ is tiny. Leaving row i out changes its residual to e_i/(1 − h_ii)
// whatever its weight.
type WeightedRidge struct {
	t     []float64 // targets
	sqrtW []float64
	p     []float64 // ω/Σω
	muT   float64   // pᵀt
	u     *mat.Dense
	eig   []float64
	ut    []float64 // Uᵀs
}

// NewWeightedRidge prepares the regression of targets t (kept, not copied)
// with row weights omega on the rows whose Gram matrix is gram. It returns
// an error when gram is nil or has fewer than two rows, when t and omega do
// not have one element per row of gram, when a weight is not positive and
// finite, when t or gram holds a NaN or ±Inf value, and when the
// eigendecomposition fails. It checks ctx before and between its dense
// steps (the products, the eigendecomposition), every fitctx.Rows rows of
// its O(m²) loops and at its end, and returns ctx's error (see fitctx.Err),
// not a regression, when ctx is done; it panics when ctx is nil.
func NewWeightedRidge(ctx context.Context, gram *mat.SymDense, t, omega []float64) (*WeightedRidge, error) {
	if err := fitctx.Start(ctx, "lssvm"); err != nil {
		return nil, err
	}
	if gram == nil {
		return nil, errors.New("weighted ridge: no Gram matrix (nil)")
	}
	N := len(t)
	if n := gram.SymmetricDim(); n < 2 {
		return nil, fmt.Errorf("weighted ridge: %s: want at least 2 (the intercept fits one row exactly, and leaving it out leaves nothing)", plural.Count(n, "row", "rows"))
	} else if N != n {
		return nil, fmt.Errorf("weighted ridge: %d targets for %d rows", N, n)
	}
	if err := checkWeights("omega", omega, N); err != nil {
		return nil, err
	}
	if err := inputcheck.CheckFiniteVector("target", t); err != nil {
		return nil, fmt.Errorf("weighted ridge: %w", err)
	}
	if err := inputcheck.CheckFinite("Gram matrix", gram); err != nil {
		return nil, fmt.Errorf("weighted ridge: %w", err)
	}
	var sum float64
	for _, w := range omega {
		sum += w
	}
	wr := &WeightedRidge{t: t, sqrtW: make([]float64, N), p: make([]float64, N)}
	for i, w := range omega {
		wr.sqrtW[i] = math.Sqrt(w)
		wr.p[i] = w / sum
		wr.muT += wr.p[i] * t[i]
	}
	// SSᵀ from the Gram matrix: √ω_i √ω_j (G_ij − (Gp)_i − (Gp)_j + pᵀGp).
	gp := make([]float64, N)
	mat.NewVecDense(N, gp).MulVec(gram, mat.NewVecDense(N, wr.p))
	var pgp float64
	for i := range N {
		pgp += wr.p[i] * gp[i]
	}
	c := mat.NewSymDense(N, nil)
	for i := range N {
		if err := checkRow(ctx, i); err != nil {
			return nil, err
		}
		for j := i; j < N; j++ {
			c.SetSym(i, j, wr.sqrtW[i]*wr.sqrtW[j]*(gram.At(i, j)-gp[i]-gp[j]+pgp))
		}
	}
	// The Householder reflection P = I − 2vvᵀ/vᵀv maps q to −e₀ (q > 0);
	// its columns 1..N−1 are an orthonormal basis Q of q⊥, and QᵀCQ is
	// PCP without its first row and column:
	// PCP = C − κ(vgᵀ + gvᵀ) + κ²(vᵀg)vvᵀ with g = Cv, κ = 2/vᵀv.
	v := make([]float64, N)
	norm := math.Sqrt(sum)
	for i := range v {
		v[i] = wr.sqrtW[i] / norm
	}
	v[0]++
	var vv float64
	for _, x := range v {
		vv += x * x
	}
	kappa := 2 / vv
	if err := fitctx.Err(ctx, "lssvm"); err != nil {
		return nil, err
	}
	g := make([]float64, N)
	mat.NewVecDense(N, g).MulVec(c, mat.NewVecDense(N, v))
	var vg float64
	for i := range N {
		vg += v[i] * g[i]
	}
	bs := mat.NewSymDense(N-1, nil)
	for i := 1; i < N; i++ {
		if err := checkRow(ctx, i); err != nil {
			return nil, err
		}
		for j := i; j < N; j++ {
			bs.SetSym(i-1, j-1, c.At(i, j)-kappa*(v[i]*g[j]+g[i]*v[j])+kappa*kappa*vg*v[i]*v[j])
		}
	}
	if err := fitctx.Err(ctx, "lssvm"); err != nil {
		return nil, err
	}
	var es mat.EigenSym
	if !es.Factorize(bs, true) {
		return nil, errors.New("eigendecomposition of the Gram matrix failed")
	}
	if err := fitctx.Err(ctx, "lssvm"); err != nil {
		return nil, err
	}
	wr.eig = es.Values(nil)
	for k, e := range wr.eig {
		if e < 0 {
			wr.eig[k] = 0 // rounding: the matrix is positive semidefinite
		}
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	// U = QV = P[0 ; V] = [0 ; V] − κ v (v₁:ᵀV).
	wr.u = mat.NewDense(N, N-1, nil)
	wr.u.Slice(1, N, 0, N-1).(*mat.Dense).Copy(&vecs)
	vtv := make([]float64, N-1)
	mat.NewVecDense(N-1, vtv).MulVec(vecs.T(), mat.NewVecDense(N-1, v[1:]))
	for i := range N {
		if err := checkRow(ctx, i); err != nil {
			return nil, err
		}
		row := wr.u.RawRowView(i)
		for k := range row {
			row[k] -= kappa * v[i] * vtv[k]
		}
	}
	s := make([]float64, N)
	for i := range s {
		s[i] = wr.sqrtW[i] * (t[i] - wr.muT)
	}
	wr.ut = make([]float64, N-1)
	mat.NewVecDense(N-1, wr.ut).MulVec(wr.u.T(), mat.NewVecDense(N, s))
	if err := fitctx.Err(ctx, "lssvm"); err != nil {
		return nil, err
	}
	return wr, nil
}

// LOOPredictions returns the leave-one-out predictions of the first m rows
// at lambda: t_i − r_i/(1 − h_ii), r_i = (√ω∘e)_i/√ω_i the residual of row i.
// It panics (a programmer error) when lambda is not positive and finite,
// which would give NaN, m is negative or exceeds the number of rows, or wr
// was not built by NewWeightedRidge.
func (wr *WeightedRidge) LOOPredictions(m int, lambda float64) []float64 {
	wr.check("LOOPredictions", lambda)
	if m < 0 || m > len(wr.t) {
		panic(fmt.Sprintf("lssvm: LOOPredictions of %d rows of %d", m, len(wr.t)))
	}
	shrink := make([]float64, len(wr.eig))
	for k, e := range wr.eig {
		shrink[k] = lambda / (e + lambda)
	}
	pred := make([]float64, m)
	for i := range m {
		var e, oneMinusH float64
		for k, uik := range wr.u.RawRowView(i) {
			e += uik * shrink[k] * wr.ut[k]
			oneMinusH += uik * uik * shrink[k]
		}
		pred[i] = wr.t[i] - e/wr.sqrtW[i]/oneMinusH
	}
	return pred
}

// Primal returns the weights w = Σ_i √ω_i a_i (z_i − z̄),
// a = U diag(1/(Λ+λ)) Uᵀs, and the intercept b = pᵀt − z̄ᵀw of the
// regression at lambda, z̄ = Σ_i p_i z_i (z holds the rows z_i). It panics
// (a programmer error) when lambda is not positive and finite, z is nil
// or does not have one row per row of the regression, or wr was not built
// by NewWeightedRidge.
func (wr *WeightedRidge) Primal(z *mat.Dense, lambda float64) (w []float64, b float64) {
	wr.check("Primal", lambda)
	if z == nil {
		panic("lssvm: WeightedRidge.Primal of a nil z")
	}
	N, d := z.Dims()
	coef := make([]float64, len(wr.eig))
	for k, e := range wr.eig {
		coef[k] = wr.ut[k] / (e + lambda)
	}
	a := make([]float64, N)
	mat.NewVecDense(N, a).MulVec(wr.u, mat.NewVecDense(len(coef), coef))
	var sa float64
	for i := range a {
		a[i] *= wr.sqrtW[i]
		sa += a[i]
	}
	zbar := make([]float64, d)
	mat.NewVecDense(d, zbar).MulVec(z.T(), mat.NewVecDense(N, wr.p))
	w = make([]float64, d)
	mat.NewVecDense(d, w).MulVec(z.T(), mat.NewVecDense(N, a))
	b = wr.muT
	for j := range w {
		w[j] -= sa * zbar[j]
		b -= zbar[j] * w[j]
	}
	return w, b
}

// check panics, naming fn, unless wr was built by NewWeightedRidge and
// lambda is positive and finite.
func (wr *WeightedRidge) check(fn string, lambda float64) {
	if wr == nil || wr.u == nil {
		panic("lssvm: WeightedRidge." + fn + " of a WeightedRidge not built by NewWeightedRidge")
	}
	if !inputcheck.PositiveFinite(lambda) {
		panic(fmt.Sprintf("lssvm: WeightedRidge.%s at λ = %v: want a positive, finite λ", fn, lambda))
	}
}

// checkRow returns ctx's error as fitctx.Err wraps it when ctx is done and
// row i of an O(m²) loop is due a check (fitctx.RowErr), and nil otherwise.
func checkRow(ctx context.Context, i int) error {
	if fitctx.RowErr(ctx, i) == nil {
		return nil
	}
	return fitctx.Err(ctx, "lssvm")
}
