package linear

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/internal/typednil"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// Ridge regression (regularised least squares):
//
//	min_{w,b} Σ_i (y_i − wᵀx_i − b)² + λ||w||²,
//
// b = 0 without an intercept; with one, b is not penalised. FitRidge solves
// it in the primal, (XᵀX + λI)w = Xᵀy, when d < m and in the dual,
// α = (XXᵀ + λI)⁻¹y, w = Xᵀα, when m ≤ d (the small-sample regime of the
// transfer baselines: m ≤ 40 examples, thousands of features), with X and y
// centred when there is an intercept (the dual works on the centred data
// expressed in an orthonormal basis of the complement of the constant
// vector, so its Gram matrix stays non-singular).
//
// Both also give the exact leave-one-out (LOO) residuals in closed form:
// with the hat matrix H (ŷ = Hy, including the intercept's 11ᵀ/m),
// y_i − ŷ_{−i}(x_i) = (y_i − ŷ_i)/(1 − H_ii), which in the dual without
// intercept is α_i/A_ii, A = (XXᵀ + λI)⁻¹.

// ridgeMaxCond bounds the condition number of the regularised system
// (XᵀX + λI or XXᵀ + λI): beyond it the solution and the LOO residuals would
// carry relative errors above about 1e-4, and the fit is refused.
const ridgeMaxCond = 1e12

// ridgeMinOneMinusH bounds 1 − H_ii from below in the primal form, where it
// is computed by a subtraction: below √ε it is mostly rounding error.
const ridgeMinOneMinusH = 1.4901161193847656e-08

// RidgeModel is a fitted ridge regression (see FitRidge).
type RidgeModel struct {
	// W holds one weight per column of X.
	W []float64
	// B is the intercept; 0 when fitted without one.
	B float64
	// Lambda is the regularisation parameter λ the model was fitted with.
	Lambda float64
	// Intercept reports whether B was fitted.
	Intercept bool
	// Fitted holds the fitted values ŷ_i = wᵀx_i + b of the training rows.
	Fitted []float64
	// LOO holds the leave-one-out residuals y_i − ŷ_{−i}(x_i), ŷ_{−i} being
	// the model fitted without row i.
	LOO []float64
}

// RidgePathPoint holds the leave-one-out residuals of ridge regression for
// one λ (see RidgeLOOPath).
type RidgePathPoint struct {
	// Lambda is the regularisation parameter λ of this point.
	Lambda float64
	// LOO holds the residuals y_i − ŷ_{−i}(x_i), one per training row.
	LOO []float64
}

// ridgeForm selects the primal or the dual solution (for tests).
type ridgeForm int

const (
	ridgeAuto ridgeForm = iota
	ridgePrimal
	ridgeDual
)

// FitRidge fits ridge regression with parameter lambda > 0 to the m × d
// matrix X and the m targets y, with an unpenalised intercept when intercept
// is true, and computes the fitted values and the exact leave-one-out
// residuals. It costs O(m·d·min(m, d) + min(m, d)³).
//
// It returns an error when X or y hold NaN or ±Inf, when len(y) differs from
// m, when X is empty, when lambda is not a finite positive number, when
// intercept is true and m < 2 (no LOO fit is possible), and when the
// regularised system is too ill-conditioned to solve accurately (λ tiny
// relative to a singular XᵀX or XXᵀ) or a result (a weight, fitted value or
// leave-one-out residual) is beyond float64's range — results of the order
// of y are computed however large y/λ, and ctx's error when ctx is done
// before it has finished (it is checked between the phases of the fit and
// once more at its end, so that it never returns a model after ctx is
// done); it panics when ctx is nil. X and y are not modified.
func FitRidge(ctx context.Context, X mat.Matrix, y []float64, lambda float64, intercept bool) (*RidgeModel, error) {
	return fitRidge(ctx, X, y, lambda, intercept, ridgeAuto)
}

// ridgeCaller names the ridge fits in their context errors.
const ridgeCaller = "linear: ridge"

// FitRidgeWeights returns the weights and intercept of FitRidge(X, y,
// lambda, intercept) — the same numbers, computed the same way — without
// its fitted values and leave-one-out residuals, whose leverages cost
// O(m·d·min(m, d)) more. Its errors are FitRidge's.
func FitRidgeWeights(ctx context.Context, X mat.Matrix, y []float64, lambda float64, intercept bool) (w []float64, b float64, err error) {
	if err := fitctx.Start(ctx, ridgeCaller); err != nil {
		return nil, 0, err
	}
	if err := ridgeCheckLambda(lambda); err != nil {
		return nil, 0, err
	}
	r, err := newRidgeData(X, y, intercept)
	if err != nil {
		return nil, 0, err
	}
	r.ctx = ctx
	r.weightsOnly = true
	model, err := r.fit(lambda, ridgeAuto)
	if model, err = fitctx.Finish(ctx, model, err, ridgeCaller); err != nil {
		return nil, 0, err
	}
	return model.W, model.B, nil
}

// RidgeFromProducts returns the weights of ridge regression with
// parameter lambda > 0 from the cross-products of its problem, without its
// rows: the solution w of (A + λI)w = b, A = XᵀX (d × d) and b = Xᵀy — with
// an intercept, of the centred columns and labels, whose weights are then
// FitRidgeWeights's for the same problem up to rounding. It costs O(d³)
// whatever the number of rows. It returns an error when A and b disagree in
// size or hold NaN or ±Inf, when lambda is not a finite positive number,
// when A + λI is not positive definite or too ill-conditioned to solve
// accurately (FitRidge's bound), when a weight is beyond float64's range
// (the products are solved as given: no rescaling as in FitRidge), and
// ctx's. A and b are not modified.
func RidgeFromProducts(ctx context.Context, A mat.Symmetric, b []float64, lambda float64) ([]float64, error) {
	if err := fitctx.Start(ctx, ridgeCaller); err != nil {
		return nil, err
	}
	if err := ridgeCheckLambda(lambda); err != nil {
		return nil, err
	}
	if typednil.Matrix(A) {
		return nil, ridgeNil("cross-products", A)
	}
	d := A.SymmetricDim()
	if d == 0 || len(b) != d {
		return nil, fmt.Errorf("linear: ridge: %d cross-products with the labels for a %d × %d matrix", len(b), d, d)
	}
	a := mat.NewSymDense(d, nil)
	a.CopySym(A)
	if err := finiteRidge(a.RawSymmetric().Data, b); err != nil {
		return nil, errors.New("linear: ridge: the cross-products hold NaN or ±Inf")
	}
	chol, err := ridgeFactorize(a, lambda)
	if err != nil {
		return nil, err
	}
	var w mat.VecDense
	if err := chol.SolveVecTo(&w, mat.NewVecDense(d, b)); err != nil {
		return nil, fmt.Errorf("linear: ridge: %w", err)
	}
	if err := fitctx.Err(ctx, ridgeCaller); err != nil {
		return nil, err
	}
	out := w.RawVector().Data
	if err := finiteRidge(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Predict returns wᵀx + b for every row x of X. It returns an error when X
// has the wrong number of columns or holds NaN or ±Inf, when X is nil (an
// untyped or a typed nil, such as a nil *mat.Dense, as for FitRidge), and
// when m is nil or (built by hand) holds a non-finite weight or intercept.
func (m *RidgeModel) Predict(X mat.Matrix) ([]float64, error) {
	if m == nil {
		return nil, errors.New("linear: nil ridge model")
	}
	if typednil.Matrix(X) {
		return nil, ridgeNil("X", X)
	}
	if finiteRidge(m.W, []float64{m.B}) != nil {
		return nil, errors.New("linear: ridge model: a weight or the intercept is not finite")
	}
	r, c := X.Dims()
	if c != len(m.W) {
		return nil, fmt.Errorf("linear: ridge model has %d features, X has %d columns", len(m.W), c)
	}
	out := make([]float64, r)
	for i := range r {
		s := m.B
		for j, wj := range m.W {
			v := X.At(i, j)
			if !inputcheck.Finite(v) {
				return nil, fmt.Errorf("linear: %w", &inputcheck.NonFiniteError{Name: "X", Row: i, Col: j, Value: v})
			}
			s += wj * v
		}
		out[i] = s
	}
	return out, nil
}

// RidgeLOOPath returns the leave-one-out residuals of ridge regression of y
// on X (with an unpenalised intercept when intercept is true) for every λ in
// lambdas, in that order, from one reduction to tridiagonal form (Q T Qᵀ,
// orthogonal Q; no eigenvectors): of the m × m Gram matrix when m ≤ d, of
// XᵀX when d < m; each λ then costs a tridiagonal factorisation and O(n)
// a row. It costs
// O(m·d·min(m, d) + min(m, d)³ + len(lambdas)·m·min(m, d)); callers pick λ by
// their own error measure of the residuals and then call FitRidge or
// FitRidgeWeights (or keep the reduction with NewRidgeLOO, whose Weights
// and SubsetWeights reuse it).
//
// Its errors are FitRidge's, for any of the lambdas, and an empty lambdas;
// ctx is checked between its phases and for every λ. X, y and lambdas are
// not modified.
func RidgeLOOPath(ctx context.Context, X mat.Matrix, y, lambdas []float64, intercept bool) ([]RidgePathPoint, error) {
	return ridgeLOOPath(ctx, X, y, lambdas, intercept, ridgeAuto)
}

// ridgeData is a validated ridge problem: X copied, and centred along with y
// when there is an intercept (xMean, yMean are then the means, else zeros).
type ridgeData struct {
	ctx       context.Context // checked between the phases of a fit
	m, d      int
	intercept bool
	x         *mat.Dense // centred when intercept
	y         []float64  // centred when intercept
	yRaw      []float64
	xMean     []float64
	yMean     float64
	// weightsOnly makes fit compute W and B only (FitRidgeWeights).
	weightsOnly bool
}

// ridgeNil is the error of the nil argument what, v: "linear: ridge: nil
// X", and with a typed nil its type, "nil X (*mat.Dense)".
func ridgeNil(what string, v any) error {
	if v == nil {
		return fmt.Errorf("linear: ridge: nil %s", what)
	}
	return fmt.Errorf("linear: ridge: nil %s (%T)", what, v)
}

func newRidgeData(X mat.Matrix, y []float64, intercept bool) (*ridgeData, error) {
	if typednil.Matrix(X) {
		return nil, ridgeNil("X", X)
	}
	m, d := X.Dims()
	switch {
	case m == 0 || d == 0:
		return nil, fmt.Errorf("linear: ridge: X is %d × %d, want at least one row and one column", m, d)
	case len(y) != m:
		return nil, fmt.Errorf("linear: ridge: %d targets for %d rows", len(y), m)
	case intercept && m < 2:
		return nil, errors.New("linear: ridge: an intercept needs at least 2 rows")
	}
	r := &ridgeData{m: m, d: d, intercept: intercept, x: mat.DenseCopyOf(X), yRaw: y, xMean: make([]float64, d)}
	if err := inputcheck.CheckFinite("X", r.x); err != nil {
		return nil, fmt.Errorf("linear: ridge: %w", err)
	}
	if err := inputcheck.CheckFiniteVector("y", y); err != nil {
		return nil, fmt.Errorf("linear: ridge: %w", err)
	}
	if intercept {
		for i := range m {
			floats.Add(r.xMean, r.x.RawRowView(i))
		}
		floats.Scale(1/float64(m), r.xMean)
		for i := range m {
			floats.Sub(r.x.RawRowView(i), r.xMean)
		}
	}
	r.centreY()
	return r, nil
}

// centreY sets r.y to r.yRaw, centred (and r.yMean to its mean) when r has
// an intercept.
func (r *ridgeData) centreY() {
	r.y = append([]float64(nil), r.yRaw...)
	if r.intercept {
		r.yMean = floats.Sum(r.yRaw) / float64(r.m)
		for i := range r.y {
			r.y[i] -= r.yMean
		}
	}
}

// scaled returns a copy of r, sharing its X, whose targets are r.yRaw·2^e
// (centred anew: r.y may hold the overflows the scaling avoids).
func (r *ridgeData) scaled(e int) *ridgeData {
	s := *r
	s.yRaw = make([]float64, r.m)
	for i, v := range r.yRaw {
		s.yRaw[i] = math.Ldexp(v, e)
	}
	s.centreY()
	return &s
}

// interrupted returns the context's error once it is done.
func (r *ridgeData) interrupted() error { return fitctx.Err(r.ctx, ridgeCaller) }

func ridgeCheckLambda(lambda float64) error {
	if !inputcheck.PositiveFinite(lambda) {
		return fmt.Errorf("linear: ridge: λ = %v, want a finite λ > 0", lambda)
	}
	return nil
}

// primal reports whether form (auto: d < m) selects the primal solution.
func (r *ridgeData) primal(form ridgeForm) bool {
	return form == ridgePrimal || form == ridgeAuto && r.d < r.m
}

// basis returns Qᵀ, where the columns of Q are an orthonormal basis of the
// complement of the constant vector (intercept) or of all of R^m (identity).
// Q is the last m−1 columns of the Householder reflection that maps 1/√m to
// e_1, so QᵀX equals QᵀX_c for the centred X_c, and QQᵀ = I − 11ᵀ/m.
func (r *ridgeData) basis() *mat.Dense {
	m := r.m
	if !r.intercept {
		q := mat.NewDense(m, m, nil)
		for i := range m {
			q.Set(i, i, 1)
		}
		return q
	}
	v, beta := reflection(m)
	q := mat.NewDense(m-1, m, nil)
	for a := range m - 1 {
		row := q.RawRowView(a)
		for c := range m {
			row[c] = -v(a+1) * v(c) / beta
		}
		row[a+1]++
	}
	return q
}

// reflection returns the Householder reflection I − vvᵀ/β of R^m that maps
// 1/√m to e_1: v = 1/√m·1 − e_1 (v(i) its i-th entry) and β = vᵀv/2 =
// 1 − 1/√m.
func reflection(m int) (v func(i int) float64, beta float64) {
	s := 1 / math.Sqrt(float64(m))
	return func(i int) float64 {
		if i == 0 {
			return s - 1
		}
		return s
	}, 1 - s
}

// reduced returns Z = QᵀX (Q from basis) in O(m·d): X itself without an
// intercept; with one, since X is centred (Σ_r x_r = 0) and
// vᵀX_c = −x_c0, row a of Z is x_c(a+1) + (1/√m)/β·x_c0.
func (r *ridgeData) reduced() *mat.Dense {
	if !r.intercept {
		return r.x
	}
	s := 1 / math.Sqrt(float64(r.m))
	f := s / (1 - s)
	z := mat.DenseCopyOf(r.x.Slice(1, r.m, 0, r.d))
	x0 := r.x.RawRowView(0)
	for a := range r.m - 1 {
		floats.AddScaled(z.RawRowView(a), f, x0)
	}
	return z
}

// fitRidge is FitRidge with a choice of form.
func fitRidge(ctx context.Context, X mat.Matrix, y []float64, lambda float64, intercept bool, form ridgeForm) (*RidgeModel, error) {
	if err := fitctx.Start(ctx, ridgeCaller); err != nil {
		return nil, err
	}
	if err := ridgeCheckLambda(lambda); err != nil {
		return nil, err
	}
	r, err := newRidgeData(X, y, intercept)
	if err != nil {
		return nil, err
	}
	r.ctx = ctx
	model, err := r.fit(lambda, form)
	return fitctx.Finish(ctx, model, err, ridgeCaller)
}

// fit fits the model at lambda (checked) in the form chosen by form; with
// r.weightsOnly, only W and B. A fit whose result is not finite is fitted
// again with y scaled (ridgeExponent): the dual form's (K + λI)⁻¹y is of
// the order of y/λ along K's null space, which overflows for a large y at
// a tiny λ (y = 1e300, λ = 1e-300) although the weights, fitted values and
// residuals are of the order of y.
func (r *ridgeData) fit(lambda float64, form ridgeForm) (*RidgeModel, error) {
	model, err := r.fitOnce(lambda, form)
	if err != errRidgeNonFinite {
		return model, err // fitOnce's other errors come with no model
	}
	e := ridgeExponent(r.yRaw)
	model, err = r.scaled(-e).fitOnce(lambda, form)
	if err != nil {
		return nil, err
	}
	model.B = math.Ldexp(model.B, e)
	for _, v := range [][]float64{model.W, model.Fitted, model.LOO} {
		for i := range v {
			v[i] = math.Ldexp(v[i], e)
		}
	}
	if err := finiteRidge(model.W, model.Fitted, model.LOO, []float64{model.B}); err != nil {
		return nil, err // the results are beyond float64's range
	}
	return model, nil
}

// ridgeExponent returns the binary exponent e of the largest |y_i|
// (math.Frexp's: 2^(e−1) ≤ max|y_i| < 2^e), 0 when y is all zeros. Every
// ridge result is linear in y, and y·2^−e, whose entries are below 1 in
// magnitude, is exact — except an entry below 2^(e−1022) in magnitude,
// which becomes subnormal and keeps only the bits above 2^−1074 (at or
// below about 2^(e−1075) it becomes 0) — as is scaling a result back by
// 2^e (unless it overflows): a retry with y·2^−e computes y's results
// without their intermediate overflows.
func ridgeExponent(y []float64) int {
	var top float64
	for _, v := range y {
		top = max(top, math.Abs(v))
	}
	_, e := math.Frexp(top)
	return e
}

// fitOnce is fit without its retry.
func (r *ridgeData) fitOnce(lambda float64, form ridgeForm) (*RidgeModel, error) {
	intercept := r.intercept
	var err error
	model := &RidgeModel{Lambda: lambda, Intercept: intercept, W: make([]float64, r.d), Fitted: make([]float64, r.m), LOO: make([]float64, r.m)}
	if r.primal(form) {
		err = r.fitPrimal(lambda, model)
	} else {
		err = r.fitDual(lambda, model)
	}
	if err != nil {
		return nil, err
	}
	if intercept {
		model.B = r.yMean - floats.Dot(r.xMean, model.W)
	}
	if r.weightsOnly {
		return model, finiteRidge(model.W, []float64{model.B})
	}
	return model, finiteRidge(model.W, model.Fitted, model.LOO, []float64{model.B})
}

// errRidgeNonFinite is finiteRidge's error. The fits from the rows reach
// it for results that are themselves beyond float64's range: they retry
// an intermediate overflow with y scaled (fit, RidgeLOO.Path), and refuse
// an ill-conditioned system before solving it (ridgeFactorize,
// ridgeCheckCond). RidgeFromProducts, which does not rescale, may also
// reach it by an overflow of its Cholesky solve's intermediate values.
var errRidgeNonFinite = errors.New("linear: ridge: non-finite result: a weight, the intercept, a fitted value or a leave-one-out residual is beyond float64's range (about ±1.8e308)")

// finiteRidge returns errRidgeNonFinite if any value is NaN or ±Inf.
func finiteRidge(vs ...[]float64) error {
	for _, v := range vs {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return errRidgeNonFinite
			}
		}
	}
	return nil
}

// ridgeFactorize returns the Cholesky factorisation of a + λI, refusing
// indefinite or ill-conditioned systems.
func ridgeFactorize(a *mat.SymDense, lambda float64) (*mat.Cholesky, error) {
	n := a.SymmetricDim()
	for i := range n {
		a.SetSym(i, i, a.At(i, i)+lambda)
	}
	var chol mat.Cholesky
	if ok := chol.Factorize(a); !ok {
		return nil, fmt.Errorf("linear: ridge: the regularised system is not positive definite (λ = %g too small)", lambda)
	}
	if c := chol.Cond(); c > ridgeMaxCond {
		return nil, fmt.Errorf("linear: ridge: the regularised system is ill-conditioned (condition number %.3g, λ = %g)", c, lambda)
	}
	return &chol, nil
}

// factorize is ridgeFactorize(g, lambda) followed by a check of the fit's
// context: the factorisation is O(n³) of work without one.
func (r *ridgeData) factorize(g *mat.SymDense, lambda float64) (*mat.Cholesky, error) {
	chol, err := ridgeFactorize(g, lambda)
	if err != nil {
		return nil, err
	}
	if err := r.interrupted(); err != nil {
		return nil, err
	}
	return chol, nil
}

// fitPrimal solves (X_cᵀX_c + λI)w = X_cᵀy_c and sets W and, unless
// r.weightsOnly, Fitted and LOO = (y − Fitted)/(1 − H_ii),
// H_ii = [1/m] + x_ciᵀ(X_cᵀX_c + λI)⁻¹x_ci.
func (r *ridgeData) fitPrimal(lambda float64, model *RidgeModel) error {
	g, err := r.gram(r.x, true)
	if err != nil {
		return err
	}
	chol, err := r.factorize(g, lambda)
	if err != nil {
		return err
	}
	var rhs, w mat.VecDense
	rhs.MulVec(r.x.T(), mat.NewVecDense(r.m, r.y))
	if err := chol.SolveVecTo(&w, &rhs); err != nil {
		return fmt.Errorf("linear: ridge: %w", err)
	}
	copy(model.W, w.RawVector().Data)
	if r.weightsOnly {
		return nil
	}
	fitted := mat.NewVecDense(r.m, model.Fitted)
	fitted.MulVec(r.x, &w)
	// Leverages: ||L⁻¹x_ci||² with G = LLᵀ = UᵀU.
	var u mat.TriDense
	chol.UTo(&u)
	var t mat.Dense
	if err := u.SolveTo(&t, true, r.x.T()); err != nil {
		return fmt.Errorf("linear: ridge: %w", err)
	}
	if err := r.interrupted(); err != nil {
		return err
	}
	for i := range r.m {
		model.Fitted[i] += r.yMean
		var s float64
		for k := range r.d {
			s += t.At(k, i) * t.At(k, i)
		}
		if r.intercept {
			s += 1 / float64(r.m)
		}
		oneMinusH := 1 - s
		if oneMinusH < ridgeMinOneMinusH {
			return fmt.Errorf("linear: ridge: row %d has leverage %.17g ≈ 1 (λ = %g too small for d < m); its leave-one-out residual is undefined", i, s, lambda)
		}
		model.LOO[i] = (r.yRaw[i] - model.Fitted[i]) / oneMinusH
	}
	return nil
}

// fitDual solves (ZZᵀ + λI)α = Qᵀy with Z = QᵀX (Q from basis) and sets
// W = Zᵀα and, unless r.weightsOnly, Fitted = y − λQα and
// LOO_i = (λQα)_i/(1 − H_ii) = (Qα)_i/s_i, where 1 − H_ii = λs_i and
// s_i = (Q(ZZᵀ+λI)⁻¹Qᵀ)_ii: defined for s_i > 0, even where λs_i
// underflows (X ~ 2^60, λ = 1e-300), as RidgeLOO.Path's dual form. The
// LOO residuals come from Qα itself, not through Fitted: y − Fitted would
// cancel y's digits, an error of about ε·|y|/(λs_i) (relative 1e-3 at
// λ = 1e-12 on N(0, 1) data, all of them when λQα is below half an ulp of
// y).
func (r *ridgeData) fitDual(lambda float64, model *RidgeModel) error {
	qt := r.basis()
	k, _ := qt.Dims()
	z := r.reduced()
	yt := mat.NewVecDense(k, nil)
	yt.MulVec(qt, mat.NewVecDense(r.m, r.y))
	g, err := r.gram(z, false)
	if err != nil {
		return err
	}
	chol, err := r.factorize(g, lambda)
	if err != nil {
		return err
	}
	var alpha mat.VecDense
	if err := chol.SolveVecTo(&alpha, yt); err != nil {
		return fmt.Errorf("linear: ridge: %w", err)
	}
	w := mat.NewVecDense(r.d, model.W)
	w.MulVec(z.T(), &alpha)
	if r.weightsOnly {
		return nil
	}
	qa := mat.NewVecDense(r.m, nil)
	qa.MulVec(qt.T(), &alpha) // Qα: the residuals are λQα
	var u mat.TriDense
	chol.UTo(&u)
	var t mat.Dense
	if err := u.SolveTo(&t, true, qt); err != nil {
		return fmt.Errorf("linear: ridge: %w", err)
	}
	if err := r.interrupted(); err != nil {
		return err
	}
	for i := range r.m {
		var s float64
		for a := range k {
			s += t.At(a, i) * t.At(a, i)
		}
		model.Fitted[i] = r.yRaw[i] - lambda*qa.AtVec(i)
		if !(s > 0) { // λ·s_i may underflow; the residual needs s_i > 0 only
			return fmt.Errorf("linear: ridge: row %d has leverage 1; its leave-one-out residual is undefined", i)
		}
		model.LOO[i] = qa.AtVec(i) / s
	}
	return nil
}

// ridgeLOOPath is RidgeLOOPath with a choice of form.
func ridgeLOOPath(ctx context.Context, X mat.Matrix, y, lambdas []float64, intercept bool, form ridgeForm) ([]RidgePathPoint, error) {
	if err := startPath(ctx, lambdas); err != nil {
		return nil, err
	}
	rl, err := newRidgeLOO(ctx, X, y, intercept, form)
	if err != nil {
		return nil, err
	}
	return rl.Path(ctx, lambdas)
}

// startPath starts a fit of a path over lambdas: ctx's error, or an error
// for no λ or a λ that is not a finite positive number.
func startPath(ctx context.Context, lambdas []float64) error {
	if err := fitctx.Start(ctx, ridgeCaller); err != nil {
		return err
	}
	if len(lambdas) == 0 {
		return errors.New("linear: ridge: no λ values")
	}
	for _, l := range lambdas {
		if err := ridgeCheckLambda(l); err != nil {
			return err
		}
	}
	return nil
}

// ridgeTridiag reduces the symmetric a to tridiagonal form, a = Q T Qᵀ
// (LAPACK's dsytrd and dorgtr: O(n³), without the eigenvectors' QR
// iterations, which cost several times more), and returns T's diagonal and
// off-diagonal, Q, and the smallest and largest of T's eigenvalues (clamped
// at 0; dsterf, O(n²)), which bound the condition of T + λI.
func ridgeTridiag(a *mat.SymDense) (diag, off []float64, q *mat.Dense, smin, smax float64, err error) {
	n := a.SymmetricDim()
	raw := a.RawSymmetric()
	q = mat.NewDense(n, n, nil)
	qr := q.RawMatrix()
	for i := range n {
		copy(qr.Data[i*qr.Stride+i:i*qr.Stride+n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
	}
	diag, off = make([]float64, n), make([]float64, max(n-1, 0))
	tau := make([]float64, max(n-1, 1))
	var impl gonumlapack.Implementation
	work := []float64{0}
	impl.Dsytrd(blas.Upper, n, qr.Data, qr.Stride, diag, off, tau, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	impl.Dsytrd(blas.Upper, n, qr.Data, qr.Stride, diag, off, tau, work, len(work))
	impl.Dorgtr(blas.Upper, n, qr.Data, qr.Stride, tau, work, -1)
	if need := int(work[0]); need > len(work) {
		work = make([]float64, need)
	}
	impl.Dorgtr(blas.Upper, n, qr.Data, qr.Stride, tau, work, len(work))
	s := slices.Clone(diag)
	if !impl.Dsterf(n, s, slices.Clone(off)) {
		return nil, nil, nil, 0, 0, errors.New("linear: ridge: eigenvalues of the tridiagonal form did not converge")
	}
	for k := range s {
		s[k] = max(s[k], 0)
	}
	return diag, off, q, slices.Min(s), slices.Max(s), nil
}

// ridgeCheckCond returns an error when T + λI, T of eigenvalues in
// [smin, smax], is too ill-conditioned to solve accurately.
func ridgeCheckCond(smin, smax, lambda float64) error {
	if c := (smax + lambda) / (smin + lambda); c > ridgeMaxCond {
		return fmt.Errorf("linear: ridge: the regularised system is ill-conditioned (condition number %.3g, λ = %g)", c, lambda)
	}
	return nil
}

// ridgeSweep returns the LOO path over lambdas from the tridiagonal form
// of a path method: for each λ and row i, loo(i, λ, num_i, den_i) gives
// row i's LOO residual from num_i = P_iᵀ(T+λI)⁻¹c and
// den_i = P_iᵀ(T+λI)⁻¹P_i, T being the symmetric tridiagonal matrix of
// diagonal diag and off-diagonal off, P having one column per row of T.
// With T + λI = LDLᵀ (L unit lower bidiagonal), den_i = vᵀD⁻¹v for
// v = L⁻¹P_i: O(n) a row. It returns loo's first error, and ctx's (checked for every
// λ).
func ridgeSweep(ctx context.Context, p *mat.Dense, c, diag, off, lambdas []float64, loo func(i int, l, num, den float64) (float64, error)) ([]RidgePathPoint, error) {
	m, n := p.Dims()
	path := make([]RidgePathPoint, len(lambdas))
	t := newTridiagLDL(n)
	g := make([]float64, n)
	for li, l := range lambdas {
		if err := fitctx.Err(ctx, ridgeCaller); err != nil {
			return nil, err
		}
		if err := t.factor(diag, off, l); err != nil {
			return nil, err
		}
		t.solve(g, c)
		piv, low := t.piv, t.low
		res := make([]float64, m)
		for i := range m {
			row := p.RawRowView(i)
			var num, den, v float64
			for k, pik := range row {
				num += pik * g[k]
				v = pik - low[k]*v // low[0] = 0
				den += v * v / piv[k]
			}
			var err error
			if res[i], err = loo(i, l, num, den); err != nil {
				return nil, err
			}
		}
		path[li] = RidgePathPoint{Lambda: l, LOO: res}
	}
	return path, nil
}

// tridiagLDL is the factorisation T + λI = LDLᵀ of a symmetric tridiagonal
// T, L unit lower bidiagonal: D is piv, L's sub-diagonal low (low[k] =
// L[k][k−1], low[0] = 0).
type tridiagLDL struct {
	piv, low []float64
}

func newTridiagLDL(n int) *tridiagLDL {
	return &tridiagLDL{piv: make([]float64, n), low: make([]float64, n)}
}

// factor factorises T + λI, T of diagonal diag and off-diagonal off; it
// returns an error when a pivot is not positive.
func (t *tridiagLDL) factor(diag, off []float64, lambda float64) error {
	piv, low := t.piv, t.low
	for k := range piv {
		piv[k] = diag[k] + lambda
		if k > 0 {
			low[k] = off[k-1] / piv[k-1]
			piv[k] -= low[k] * off[k-1]
		}
		if !(piv[k] > 0) {
			return fmt.Errorf("linear: ridge: the regularised system is not positive definite (λ = %g too small)", lambda)
		}
	}
	return nil
}

// solve sets g = (T+λI)⁻¹c: forward, diagonal, backward; g and c may be
// the same slice.
func (t *tridiagLDL) solve(g, c []float64) {
	piv, low := t.piv, t.low
	n := len(piv)
	for k := range n {
		g[k] = c[k]
		if k > 0 {
			g[k] -= low[k] * g[k-1]
		}
	}
	for k := range n {
		g[k] /= piv[k]
	}
	for k := n - 2; k >= 0; k-- {
		g[k] -= low[k+1] * g[k+1]
	}
}

// gramBlock is the number of rows of a transposed Gram matrix (AᵀA) that
// gram sums in one sweep over A: 32 rows of 1,000 columns are 256 KB.
const gramBlock = 32

// gramCheckWork is about how many multiply-adds gram does between two
// checks of the context: a few milliseconds of work.
const gramCheckWork = 1 << 20

// gram returns AᵀA (trans) or AAᵀ (not trans), as SymOuterK(1, Aᵀ) or
// SymOuterK(1, A) would, but checking r's context after every block of rows
// of the result that costs about gramCheckWork multiply-adds (a Gram matrix
// of many columns is the longest single phase of a ridge fit). Each entry
// of its upper triangle is summed as gonum's Dsyrk sums it — a dot product
// of two rows of A, or, transposed, a sum over A's rows in order that skips
// zero factors — so the result is SymOuterK's bit for bit.
func (r *ridgeData) gram(a *mat.Dense, trans bool) (*mat.SymDense, error) {
	rows, cols := a.Dims()
	n, k := rows, cols
	if trans {
		n, k = cols, rows
	}
	g := mat.NewSymDense(n, nil)
	raw := g.RawSymmetric()
	ar := a.RawMatrix()
	work := 0
	// Transposed, the rows of the result are summed gramBlock at a time,
	// each sweep over A's rows serving the whole block (one sweep a row
	// would read all of A for every row of the result); each entry still
	// adds A's rows in order, as Dsyrk does.
	block := 1
	if trans {
		block = gramBlock
	}
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		if trans {
			for l := range k {
				arow := ar.Data[l*ar.Stride : l*ar.Stride+n]
				for i := i0; i < i1; i++ {
					if v := arow[i]; v != 0 {
						blas64.Axpy(v, blas64.Vector{N: n - i, Data: arow[i:n], Inc: 1},
							blas64.Vector{N: n - i, Data: raw.Data[i*raw.Stride+i : i*raw.Stride+n], Inc: 1})
					}
				}
			}
		} else {
			c := raw.Data[i0*raw.Stride+i0 : i0*raw.Stride+n]
			x := blas64.Vector{N: k, Data: ar.Data[i0*ar.Stride : i0*ar.Stride+k], Inc: 1}
			for jc := range c {
				j := i0 + jc
				c[jc] = blas64.Dot(x, blas64.Vector{N: k, Data: ar.Data[j*ar.Stride : j*ar.Stride+k], Inc: 1})
			}
		}
		for i := i0; i < i1; i++ {
			work += (n - i) * k
		}
		if work >= gramCheckWork {
			work = 0
			if err := r.interrupted(); err != nil {
				return nil, err
			}
		}
	}
	if err := r.interrupted(); err != nil {
		return nil, err
	}
	if err := gramFinite(g, trans); err != nil {
		return nil, err
	}
	return g, nil
}

// gramFinite returns an error naming the Gram matrix g (XᵀX when trans,
// else XXᵀ) and its first entry that overflowed to ±Inf (or is NaN), so
// that an overflow is not reported as the ill-conditioning of a matrix of
// infinite condition number.
func gramFinite(g *mat.SymDense, trans bool) error {
	name := "XXᵀ"
	if trans {
		name = "XᵀX"
	}
	raw := g.RawSymmetric()
	for i := range raw.N {
		for j := i; j < raw.N; j++ {
			if v := raw.Data[i*raw.Stride+j]; math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("linear: ridge: the Gram matrix %s overflowed (entry %d, %d is %v): the features are too large for float64 products; rescale them", name, i, j, v)
			}
		}
	}
	return nil
}
