package linear

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/greedytl/greedytl/internal/fitctx"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// RidgeLOO is a ridge regression problem (see FitRidge) reduced once to
// tridiagonal form — of XᵀX when d < m (the primal), of the m × m Gram
// matrix when m ≤ d (the dual), as RidgeLOOPath does — from which, at any
// λ > 0, the leave-one-out residuals (Path), the weights (Weights) and the
// weights of the fit on a subset of the rows (SubsetWeights) cost a
// fraction of a fit from scratch. Building it costs
// O(m·d·min(m, d) + min(m, d)³) and holds O(m·d + min(m, d)²) numbers. Its
// methods may be called concurrently. Build it with NewRidgeLOO: a nil or
// zero RidgeLOO's methods return an error.
type RidgeLOO struct {
	r          *ridgeData // the validated problem (its ctx unused)
	primal     bool
	diag, off  []float64 // T
	smin, smax float64   // T's extreme eigenvalues, clamped at 0
	// p is P = X_cQ (m × d) in the primal, U = Q_bW (m × k) in the dual
	// (see pathDual), and c = pᵀy_c.
	p *mat.Dense
	c []float64
	// q is the primal's Q (d × d): X_cᵀX_c = Q T Qᵀ. nil in the dual.
	q *mat.Dense
	// gram is the dual's X_cX_cᵀ (m × m), for SubsetWeights. nil in the
	// primal.
	gram *mat.SymDense
}

// NewRidgeLOO validates the ridge problem of X (m × d) and y, with an
// unpenalised intercept when intercept is true, and reduces it for
// RidgeLOO's methods. Its errors are FitRidge's for the data (not those
// that depend on λ: the methods return those), an error when the
// eigenvalues of the tridiagonal form do not converge, and ctx's, which is
// checked between its phases. X and y are not modified (X is copied).
func NewRidgeLOO(ctx context.Context, X mat.Matrix, y []float64, intercept bool) (*RidgeLOO, error) {
	if err := fitctx.Start(ctx, ridgeCaller); err != nil {
		return nil, err
	}
	return newRidgeLOO(ctx, X, y, intercept, ridgeAuto)
}

// newRidgeLOO is NewRidgeLOO with a choice of form.
func newRidgeLOO(ctx context.Context, X mat.Matrix, y []float64, intercept bool, form ridgeForm) (*RidgeLOO, error) {
	r, err := newRidgeData(X, y, intercept)
	if err != nil {
		return nil, err
	}
	r.ctx = ctx
	defer func() { r.ctx = nil }()
	rl := &RidgeLOO{r: r, primal: r.primal(form)}
	// primal: X_cᵀX_c = Q T Qᵀ, P = X_cQ, c = Pᵀy_c.
	// dual: ZZᵀ = W T Wᵀ (Z = QᵀX, W orthogonal, T tridiagonal), U = QW,
	// c = Uᵀy.
	a, basis := r.x, (*mat.Dense)(nil)
	if !rl.primal {
		basis, a = r.basis(), r.reduced()
	}
	g, err := r.gram(a, rl.primal)
	if err != nil {
		return nil, err
	}
	var q *mat.Dense
	rl.diag, rl.off, q, rl.smin, rl.smax, err = ridgeTridiag(g)
	if err != nil {
		return nil, err
	}
	if err := r.interrupted(); err != nil {
		return nil, err
	}
	var p mat.Dense
	if rl.primal {
		p.Mul(r.x, q)
		rl.q = q
	} else {
		p.Mul(basis.T(), q)
		rl.gram = r.fullGram(g)
	}
	var c mat.VecDense
	c.MulVec(p.T(), mat.NewVecDense(r.m, r.y))
	rl.p, rl.c = &p, c.RawVector().Data
	if err := r.interrupted(); err != nil {
		return nil, err
	}
	return rl, nil
}

// built returns an error for a nil or zero RidgeLOO (one not built by
// NewRidgeLOO), which has no problem to work on: every method returns it.
func (rl *RidgeLOO) built() error {
	if rl == nil || rl.r == nil {
		return errors.New("linear: ridge: a RidgeLOO not built by NewRidgeLOO")
	}
	return nil
}

// start begins Weights and SubsetWeights: ctx's error when it is done
// (panicking when it is nil), built's, and an error for an invalid lambda.
func (rl *RidgeLOO) start(ctx context.Context, lambda float64) error {
	if err := fitctx.Start(ctx, ridgeCaller); err != nil {
		return err
	}
	if err := rl.built(); err != nil {
		return err
	}
	return ridgeCheckLambda(lambda)
}

// fullGram returns X_cX_cᵀ (m × m) from the dual's reduced Gram matrix
// g = ZZᵀ, Z = QᵀX_c (see basis): g itself without an intercept; with one,
// X_c = QQᵀX_c (its columns sum to 0), so X_cX_cᵀ = Q g Qᵀ = H g̃ H, H =
// I − vvᵀ/β the reflection whose last m−1 columns are Q and g̃ the m × m
// matrix with g in its lower right block: O(m²).
func (r *ridgeData) fullGram(g *mat.SymDense) *mat.SymDense {
	if !r.intercept {
		return g
	}
	m := r.m
	v, beta := reflection(m)
	s := v(1) // v_b = 1/√m for b ≥ 1
	// a = g̃v: a_0 = 0, a_i = s·Σ_b g[i−1][b].
	a := make([]float64, m)
	var gamma float64 // vᵀg̃v
	for i := 1; i < m; i++ {
		var sum float64
		for b := range m - 1 {
			sum += g.At(i-1, b)
		}
		a[i] = s * sum
		gamma += v(i) * a[i]
	}
	full := mat.NewSymDense(m, nil)
	for i := range m {
		for j := i; j < m; j++ {
			var gt float64
			if i > 0 {
				gt = g.At(i-1, j-1)
			}
			full.SetSym(i, j, gt-(v(i)*a[j]+a[i]*v(j))/beta+gamma*v(i)*v(j)/(beta*beta))
		}
	}
	return full
}

// Path returns the leave-one-out residuals for every λ in lambdas, in that
// order, as RidgeLOOPath does (O(m·min(m, d)) a λ). Its errors are
// RidgeLOOPath's that depend on λ, for any of the lambdas, and ctx's,
// checked for every λ.
func (rl *RidgeLOO) Path(ctx context.Context, lambdas []float64) ([]RidgePathPoint, error) {
	if err := startPath(ctx, lambdas); err != nil {
		return nil, err
	}
	if err := rl.built(); err != nil {
		return nil, err
	}
	for _, l := range lambdas {
		if err := ridgeCheckCond(rl.smin, rl.smax, l); err != nil {
			return nil, err
		}
	}
	r := rl.r
	path, err := ridgeSweep(ctx, rl.p, rl.c, rl.diag, rl.off, lambdas, rl.loo(r.y))
	if err != nil {
		return nil, err
	}
	// The scaled problem of the retries, made at the first.
	var (
		e  int
		rs *ridgeData
		c  []float64
	)
	for _, p := range path {
		if finiteRidge(p.LOO) == nil {
			continue
		}
		// Again with y scaled, as fit does (ridgeExponent; the sums
		// of its centring may overflow too): the dual's
		// (T+λI)⁻¹c is of the order of y/λ along the Gram matrix's null
		// space, which overflows for a large y at a tiny λ although the
		// residuals are of the order of y.
		if rs == nil {
			e = ridgeExponent(r.yRaw)
			rs = r.scaled(-e)
			var cv mat.VecDense
			cv.MulVec(rl.p.T(), mat.NewVecDense(r.m, rs.y))
			c = cv.RawVector().Data
		}
		again, err := ridgeSweep(ctx, rl.p, c, rl.diag, rl.off, []float64{p.Lambda}, rl.loo(rs.y))
		if err != nil {
			return nil, err
		}
		for i, v := range again[0].LOO {
			p.LOO[i] = math.Ldexp(v, e)
		}
		if err := finiteRidge(p.LOO); err != nil {
			return nil, err
		}
	}
	return fitctx.Finish(ctx, path, nil, ridgeCaller)
}

// loo returns the function of ridgeSweep that gives row i's leave-one-out
// residual at λ = l, for the targets y (r.y, or r.y scaled with c).
func (rl *RidgeLOO) loo(y []float64) func(i int, l, num, den float64) (float64, error) {
	if rl.primal {
		// H_ii = [1/m] + P_iᵀ(T+λI)⁻¹P_i; ŷ_c = P(T+λI)⁻¹c.
		base := 0.0
		if rl.r.intercept {
			base = 1 / float64(rl.r.m)
		}
		return func(i int, l, fit, h float64) (float64, error) {
			omh := 1 - base - h
			if omh < ridgeMinOneMinusH {
				return 0, fmt.Errorf("linear: ridge: row %d has leverage %.17g ≈ 1 (λ = %g too small for d < m); its leave-one-out residual is undefined", i, base+h, l)
			}
			return (y[i] - fit) / omh, nil
		}
	}
	// The LOO residual is U_iᵀ(T+λI)⁻¹c / U_iᵀ(T+λI)⁻¹U_i.
	return func(i int, _, num, den float64) (float64, error) {
		if !(den > 0) {
			return 0, fmt.Errorf("linear: ridge: row %d has leverage 1; its leave-one-out residual is undefined", i)
		}
		return num / den, nil
	}
}

// Weights returns the weights and intercept of FitRidgeWeights(X, y,
// lambda, intercept) — the same numbers up to rounding — from the
// tridiagonal form, in O(d·min(m, d) + m·d); when that solve overflows (a
// large y at a tiny λ: see Path) it calls FitRidgeWeights itself, at its
// cost. Its errors are FitRidgeWeights's that depend on λ, and ctx's.
func (rl *RidgeLOO) Weights(ctx context.Context, lambda float64) (w []float64, b float64, err error) {
	if err := rl.start(ctx, lambda); err != nil {
		return nil, 0, err
	}
	if err := ridgeCheckCond(rl.smin, rl.smax, lambda); err != nil {
		return nil, 0, err
	}
	r := rl.r
	t := newTridiagLDL(len(rl.diag))
	if err := t.factor(rl.diag, rl.off, lambda); err != nil {
		return nil, 0, err
	}
	g := make([]float64, len(rl.diag))
	t.solve(g, rl.c)
	wv := mat.NewVecDense(r.d, nil)
	if rl.primal {
		// w = Q(T+λI)⁻¹QᵀX_cᵀy_c.
		wv.MulVec(rl.q, mat.NewVecDense(len(g), g))
	} else {
		// w = Zᵀ(ZZᵀ+λI)⁻¹Qᵀy = X_cᵀQW(T+λI)⁻¹WᵀQᵀy = X_cᵀU(T+λI)⁻¹c.
		var ug mat.VecDense
		ug.MulVec(rl.p, mat.NewVecDense(len(g), g))
		wv.MulVec(r.x.T(), &ug)
	}
	w = wv.RawVector().Data
	if err := fitctx.Err(ctx, ridgeCaller); err != nil {
		return nil, 0, err
	}
	if r.intercept {
		b = r.yMean - floats.Dot(r.xMean, w)
	}
	if finiteRidge(w, []float64{b}) != nil {
		// (T+λI)⁻¹c overflowed (see Path): fit from scratch, which
		// scales y.
		all := make([]int, r.m)
		for i := range all {
			all[i] = i
		}
		return rl.subsetDirect(ctx, all, lambda)
	}
	return w, b, nil
}

// SubsetWeights returns the weights and intercept of FitRidgeWeights on
// the rows rows of X and y (X[rows], y[rows], lambda, with an intercept
// when the problem has one) — the same numbers up to rounding — without
// forming that problem anew: in the dual from the Gram matrix's rows and
// columns rows (O(s³ + s·d) for s rows); in the primal, where the left-out
// rows F (and, with an intercept, the shift of the mean) change XᵀX by a
// matrix of rank |F| (+1), by the Sherman–Morrison–Woodbury identity in the
// tridiagonal basis with one step of iterative refinement
// (O(|F|²·d + d² + s·d)), or by a Cholesky factorisation of the d × d
// system when |F| is not small against d. When that system is too
// ill-conditioned for either, it fits the rows from scratch (FitRidgeWeights'
// cost), whose errors it then returns.
//
// rows must hold distinct indices in [0, m) — at least one, two with an
// intercept — in any order (the weights do not depend on it). It returns an
// error for other rows, FitRidgeWeights' errors, and ctx's.
func (rl *RidgeLOO) SubsetWeights(ctx context.Context, rows []int, lambda float64) (w []float64, b float64, err error) {
	if err := rl.start(ctx, lambda); err != nil {
		return nil, 0, err
	}
	r := rl.r
	in := make([]bool, r.m)
	for _, i := range rows {
		if i < 0 || i >= r.m {
			return nil, 0, fmt.Errorf("linear: ridge: subset row %d is outside the %d rows", i, r.m)
		}
		if in[i] {
			return nil, 0, fmt.Errorf("linear: ridge: subset row %d is given twice", i)
		}
		in[i] = true
	}
	switch {
	case len(rows) == 0:
		return nil, 0, errors.New("linear: ridge: an empty subset of rows")
	case r.intercept && len(rows) < 2:
		return nil, 0, errors.New("linear: ridge: an intercept needs at least 2 rows")
	}
	// mu: the rows' mean of X_c (of X without an intercept, unused).
	mu := make([]float64, r.d)
	for _, i := range rows {
		floats.Add(mu, r.x.RawRowView(i))
	}
	floats.Scale(1/float64(len(rows)), mu)
	var ok bool
	if rl.primal {
		w, ok = rl.subsetPrimal(rows, in, mu, lambda)
	} else {
		w, ok = rl.subsetDual(rows, mu, lambda)
	}
	if err := fitctx.Err(ctx, ridgeCaller); err != nil {
		return nil, 0, err
	}
	if !ok {
		return rl.subsetDirect(ctx, rows, lambda)
	}
	if r.intercept {
		var ys float64
		for _, i := range rows {
			ys += r.yRaw[i]
		}
		b = ys/float64(len(rows)) - floats.Dot(r.xMean, w) - floats.Dot(mu, w)
	}
	if finiteRidge(w, []float64{b}) != nil {
		// An overflow of the solves' y/λ (see Path): fit from scratch,
		// which scales y.
		return rl.subsetDirect(ctx, rows, lambda)
	}
	return w, b, nil
}

// subsetDirect fits the rows rows from scratch: FitRidgeWeights on r.x's
// rows (centred when there is an intercept, which shifts only the
// intercept, by xMean·w).
func (rl *RidgeLOO) subsetDirect(ctx context.Context, rows []int, lambda float64) ([]float64, float64, error) {
	r := rl.r
	sub := mat.NewDense(len(rows), r.d, nil)
	ys := make([]float64, len(rows))
	for k, i := range rows {
		sub.SetRow(k, r.x.RawRowView(i))
		ys[k] = r.yRaw[i]
	}
	w, b, err := FitRidgeWeights(ctx, sub, ys, lambda, r.intercept)
	if err != nil {
		return nil, 0, err
	}
	if r.intercept {
		b -= floats.Dot(r.xMean, w)
	}
	if err := finiteRidge(w, []float64{b}); err != nil {
		return nil, 0, err
	}
	return w, b, nil
}

// subsetDual solves the dual system of the rows rows, (G_s + λI)α = y_s,
// G_s the rows' block of X_cX_cᵀ (centred on the rows when there is an
// intercept: the columns' mean over the rows, mu, is then removed), and
// returns w = (X_s − 1muᵀ)ᵀα; ok is false when the system is not positive
// definite or too ill-conditioned.
func (rl *RidgeLOO) subsetDual(rows []int, mu []float64, lambda float64) (w []float64, ok bool) {
	r := rl.r
	s := len(rows)
	a := mat.NewSymDense(s, nil)
	for i, ri := range rows {
		for j := i; j < s; j++ {
			a.SetSym(i, j, rl.gram.At(ri, rows[j]))
		}
	}
	if r.intercept {
		// C G_s C, C = I − 11ᵀ/s.
		rm := make([]float64, s)
		for i := range s {
			for j := range s {
				rm[i] += a.At(i, j)
			}
			rm[i] /= float64(s)
		}
		gm := floats.Sum(rm) / float64(s)
		for i := range s {
			for j := i; j < s; j++ {
				a.SetSym(i, j, a.At(i, j)-rm[i]-rm[j]+gm)
			}
		}
	}
	chol, err := ridgeFactorize(a, lambda)
	if err != nil {
		return nil, false
	}
	ys := make([]float64, s)
	for k, i := range rows {
		ys[k] = r.yRaw[i]
	}
	var alpha mat.VecDense
	if err := chol.SolveVecTo(&alpha, mat.NewVecDense(s, ys)); err != nil {
		return nil, false
	}
	w = make([]float64, r.d)
	var sum float64
	for k, i := range rows {
		floats.AddScaled(w, alpha.AtVec(k), r.x.RawRowView(i))
		sum += alpha.AtVec(k)
	}
	if r.intercept {
		floats.AddScaled(w, -sum, mu)
	}
	return w, true
}

// subsetPrimal solves the primal system of the rows rows, (X_sᵀX_s +
// λI)w = X_sᵀy_s, X_s the rows of X_c re-centred on them (their mean mu
// removed) when there is an intercept. In the basis Q the matrix is T −
// UUᵀ + λI, U's k columns the left-out rows of P = X_cQ (and, with an
// intercept, √s·ν, ν the rows' mean of P): the Woodbury identity or the
// Cholesky factorisation of that matrix solves it up to the cancellation
// of the downdate, which is large when the left-out rows hold most of some
// direction's variation. Iterative refinement with the residuals computed
// from the rows of X themselves (O(s·d + d²) a step; a column constant on
// the rows gives its weight's residual exactly) removes that error. ok is
// false when the system is not positive definite or the refinement does
// not converge.
func (rl *RidgeLOO) subsetPrimal(rows []int, in []bool, mu []float64, lambda float64) (w []float64, ok bool) {
	r := rl.r
	d, s := r.d, len(rows)
	var ut [][]float64 // Uᵀ, k × d
	for i := range r.m {
		if !in[i] {
			ut = append(ut, rl.p.RawRowView(i))
		}
	}
	if r.intercept {
		nu := make([]float64, d)
		for _, i := range rows {
			floats.Add(nu, rl.p.RawRowView(i))
		}
		floats.Scale(1/math.Sqrt(float64(s)), nu) // √s·ν
		ut = append(ut, nu)
	}
	var solve func(x, b []float64) bool
	if 2*len(ut) < d {
		solve = rl.woodbury(ut, lambda)
	} else {
		solve = rl.downdated(ut, lambda)
	}
	if solve == nil {
		return nil, false
	}
	if !r.intercept {
		mu = nil
	}
	// residual sets res = X_sᵀ(y_s − X_sw) − λw.
	res := make([]float64, d)
	residual := func(w []float64) {
		floats.ScaleTo(res, -lambda, w)
		var muw, tsum float64
		if mu != nil {
			muw = floats.Dot(mu, w)
		}
		for _, i := range rows {
			row := r.x.RawRowView(i)
			t := r.yRaw[i] - (floats.Dot(row, w) - muw)
			floats.AddScaled(res, t, row)
			tsum += t
		}
		if mu != nil {
			floats.AddScaled(res, -tsum, mu)
		}
	}
	w = make([]float64, d)
	rot, sol := mat.NewVecDense(d, nil), mat.NewVecDense(d, nil)
	du := mat.NewVecDense(d, nil)
	change := math.Inf(1) // the last step's relative change
	for range refineSteps {
		residual(w)
		rot.MulVec(rl.q.T(), mat.NewVecDense(d, res))
		if !solve(sol.RawVector().Data, rot.RawVector().Data) {
			return nil, false
		}
		du.MulVec(rl.q, sol)
		floats.Add(w, du.RawVector().Data)
		c := floats.Norm(du.RawVector().Data, math.Inf(1)) / floats.Norm(w, math.Inf(1))
		if c <= refineTol || c > change/2 {
			// Converged, or at the rounding floor of the system's
			// condition: the steps no longer shrink.
			change = min(change, c)
			break
		}
		change = c
	}
	if !(change <= refineAccept) {
		return nil, false
	}
	return w, true
}

// The refinement of subsetPrimal (whose first step is the solve itself)
// stops once a step changes the solution by at most refineTol relative to
// it, or by more than half the step before (the rounding floor of the
// system's condition), after refineSteps steps at most. With a solver of relative error e a step multiplies the error by
// about e; when the steps are still above refineAccept at the end, the
// solver is too inaccurate for the system (the downdate cancelled most of
// it), and SubsetWeights fits the rows from scratch.
const (
	refineSteps  = 8
	refineTol    = 1e-13
	refineAccept = 1e-9
)

// downdated returns a solver of (T + λI − UUᵀ)x = b (ut = Uᵀ) by a
// Cholesky factorisation of the d × d matrix (O(k·d² + d³), then O(d²) a
// solve), or nil when it is not positive definite or too ill-conditioned.
func (rl *RidgeLOO) downdated(ut [][]float64, lambda float64) func(x, b []float64) bool {
	d := len(rl.diag)
	a := mat.NewSymDense(d, nil)
	if len(ut) > 0 {
		uT := mat.NewDense(len(ut), d, nil)
		for k, row := range ut {
			uT.SetRow(k, row)
		}
		a.SymRankK(a, -1, uT.T())
	}
	for k := range d {
		a.SetSym(k, k, a.At(k, k)+rl.diag[k])
		if k > 0 {
			a.SetSym(k-1, k, a.At(k-1, k)+rl.off[k-1])
		}
	}
	chol, err := ridgeFactorize(a, lambda)
	if err != nil {
		return nil
	}
	return func(x, b []float64) bool { // x and b distinct
		return chol.SolveVecTo(mat.NewVecDense(d, x), mat.NewVecDense(d, b)) == nil
	}
}

// woodbury returns a solver of (A − UUᵀ)x = b, A = T + λI (ut = Uᵀ,
// k × d), by the Sherman–Morrison–Woodbury identity (A − UUᵀ)⁻¹ = A⁻¹ +
// Y S⁻¹ Yᵀ, Y = A⁻¹U, S = I − UᵀA⁻¹U (O(k²·d), then O(k·d) a solve), or
// nil when S is not positive definite.
func (rl *RidgeLOO) woodbury(ut [][]float64, lambda float64) func(x, b []float64) bool {
	d, k := len(rl.diag), len(ut)
	t := newTridiagLDL(d)
	if t.factor(rl.diag, rl.off, lambda) != nil {
		return nil
	}
	y := make([][]float64, k)
	for j, col := range ut {
		y[j] = make([]float64, d)
		t.solve(y[j], col)
	}
	var chol mat.Cholesky
	if k > 0 {
		sm := mat.NewSymDense(k, nil)
		for i := range k {
			for j := i; j < k; j++ {
				v := -floats.Dot(ut[i], y[j])
				if i == j {
					v++
				}
				sm.SetSym(i, j, v)
			}
		}
		if !chol.Factorize(sm) {
			return nil
		}
	}
	coef := mat.NewVecDense(max(k, 1), nil)
	return func(x, b []float64) bool { // x and b distinct
		t.solve(x, b)
		if k == 0 {
			return true
		}
		for j := range k {
			coef.SetVec(j, floats.Dot(ut[j], x))
		}
		if err := chol.SolveVecTo(coef, coef); err != nil {
			return false
		}
		for j := range k {
			floats.AddScaled(x, coef.AtVec(j), y[j])
		}
		return true
	}
}
