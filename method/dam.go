package method

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/lssvm"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// dam is DAM, the Domain Adaptation Machine (Duan, Tsang, Xu and Chua,
// "Domain adaptation from multiple sources via auxiliary classifiers", ICML
// 2009), in the least-squares linear form of docs/design.md §5. It is transductive:
// it needs the unlabelled target inputs (Extra.Unlabelled; in the protocol
// the test inputs), on which DAM's data-dependent regulariser asks the
// target classifier to agree with the sources' "virtual labels".
//
// On the standardised features zx it fits, with an unpenalised intercept b,
//
//	min_{w,b} Σ_{i∈L} ζ_i (y_i − wᵀzx_i − b)² + τ·(m/u)·Σ_{j∈U} (v_j − wᵀzx_j − b)² + λ||w||²,
//
// L the m labelled examples, U the u unlabelled ones. ζ_i = m/(2m₊) for the
// positives and m/(2m₋) for the negatives, MultiKT's class-balancing
// weights: each class carries half of the labelled loss, so the intercept
// does not pull the threshold towards the majority class (2 positives
// against 10 negatives). The weights sum to m, and the factor m/u makes
// τ = 1 give the two terms equal total weight.
//
// The virtual label of an unlabelled input is its mean standardised source
// score h̄_j (uniform source weights γ_s = 1/n) put on the label scale: h̄ is
// shifted and scaled so that on the labelled sample its class-balanced mean
// and standard deviation (each class weighing half) are those of the labels,
// 0 and 1. Like DAM's weights γ_s ≥ 0, this trusts the sources' orientation:
// the labels do not flip or shrink the average source (with 2 positives they
// cannot estimate that reliably). The sources enter through v only, not as
// features.
//
// τ ∈ {1e-3, …, 1e3} and λ ∈ {1e-4, …, 1e4} are chosen by chooseByLOO on the
// exact leave-one-out predictions of the labelled examples, in closed form:
// leaving labelled example i out of the weighted regression (the other rows
// keeping their weights, the virtual labels and the standardisation
// unchanged) changes its residual e_i to e_i/(1 − h_ii), h the weighted hat
// matrix with the intercept. One eigendecomposition of the unlabelled rows'
// Gram matrix serves every (τ, λ), each then costing O(m²·min(d, u) + m³)
// (see damSystem); a larger regularisation is a larger λ, then a smaller τ.
// The intercept matters for the leave-one-out estimate too: on
// standardised columns a left-out row is minus the sum of the others, and
// without an intercept a nearly interpolating fit (λ → 0, d ≥ m) would
// predict it from the others' labels alone.
//
// The model is a Linear model on the features: its source weights are zero
// (the sources shape w through the virtual labels but are not evaluated at
// prediction time, though H must still be given with n columns); its
// hyperparameters are "lambda" and "tau".
//
// Fallback: without virtual labels — no sources (H absent or without
// columns), no unlabelled rows, or a mean source score that is constant on
// the labelled sample —
// DAM is the class-balanced ridge regression on the labelled examples alone
// (balancedRidgeByLOO), with λ by LOO and "tau" reported as 0. A single
// positive, duplicated and constant columns need nothing special (constant
// columns standardise to zeros and get weight zero). DAM returns an error
// when the features X are absent and when Extra.Unlabelled is nil or does
// not have the training sample's columns.
type dam struct{}

func init() {
	Register(Registration{
		Name:        "dam",
		Description: "DAM (transductive): class-balanced ridge on X fitting the labels and, on the unlabelled inputs, the mean source score",
		New:         func() Method { return dam{} },
		Decode:      decodeLinear,
	})
}

// Name returns "dam".
func (dam) Name() string { return "dam" }

// Needs reports that DAM is transductive: it needs Extra.Unlabelled.
func (dam) Needs() Needs { return Needs{Unlabelled: true} }

// Fit trains DAM (see the type's comment).
func (dam) Fit(ctx context.Context, train Data, extra Extra) (result Model, err error) {
	_, d, n, err := startFit(ctx, dam{}, train)
	if err != nil {
		return nil, err
	}
	defer endFit(ctx, dam{}, &result, &err)
	if d == 0 {
		return nil, errors.New("method: dam: no target features (X is absent or has no columns)")
	}
	if extra.Unlabelled == nil {
		return nil, errors.New("method: dam: transductive, needs the unlabelled target inputs (Extra.Unlabelled)")
	}
	u, err := checkInputs(*extra.Unlabelled, d, n)
	if err != nil {
		return nil, fmt.Errorf("method: dam: unlabelled inputs: %w", err)
	}
	sx, sh := standardize.Fit(train.X), standardize.Fit(train.H)
	zx, err := sx.TransformContext(ctx, train.X)
	if err != nil {
		return nil, fmt.Errorf("method: dam: X: %w", err)
	}
	var virtual []float64
	if n > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if virtual, err = virtualLabels(ctx, sh, dense(train.H), dense(extra.Unlabelled.H), train.Y); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if virtual == nil || u == 0 {
		lambda, wf, bf, err := balancedRidgeByLOO(ctx, zx, train.Y)
		if err != nil {
			return nil, fmt.Errorf("method: dam: %w", err)
		}
		return damModel(sx, sh, wf, bf, lambda, 0)
	}
	zxu, err := sx.TransformContext(ctx, extra.Unlabelled.X)
	if err != nil {
		return nil, fmt.Errorf("method: dam: unlabelled X: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sys, err := newDAMSystem(zx, zxu, train.Y, virtual)
	if err != nil {
		return nil, fmt.Errorf("method: dam: %w", err)
	}
	type setting struct {
		tau, lambda float64
		alpha       []float64
	}
	var (
		settings []setting
		cands    []looCandidate
	)
	for _, tau := range tauGrid {
		for _, lambda := range lambdaGrid {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			loo, alpha, err := sys.solve(ctx, tau, lambda)
			// Stopped, not singular: a failure once ctx is done is the
			// interruption's (endFit keeps a non-context error as it is).
			if err != nil && ctx.Err() != nil {
				return nil, fitctx.Stopped(ctx, err, fitCaller(dam{}))
			}
			if err != nil {
				continue // numerically singular: not a candidate
			}
			settings = append(settings, setting{tau, lambda, alpha})
			cands = append(cands, looCandidate{Strength: lambda, Pred: loo})
		}
	}
	if len(cands) == 0 {
		return nil, errors.New("method: dam: the regression is numerically singular at every (τ, λ)")
	}
	best, err := chooseByLOO(train.Y, cands, tieSquared)
	if err != nil {
		return nil, fmt.Errorf("method: dam: %w", err)
	}
	st := settings[best]
	w, b := sys.primal(st.tau, st.lambda, st.alpha)
	return damModel(sx, sh, w, b, st.lambda, st.tau)
}

// damModel returns DAM's Linear model: weights w and intercept b on the
// features standardised by sx, zero weights for the sources (sh), and the
// hyperparameters lambda and tau, after validating it.
func damModel(sx, sh standardize.Scaler, w []float64, b, lambda, tau float64) (Model, error) {
	model := &Linear{
		Name:  "dam",
		X:     sx,
		H:     sh,
		WX:    w,
		B:     b,
		Hyper: map[string]float64{"lambda": lambda, "tau": tau},
	}
	if n := sh.Len(); n > 0 {
		model.WH = make([]float64, n)
	}
	if err := model.check(); err != nil {
		return nil, fmt.Errorf("method: dam: %w", err)
	}
	return model, nil
}

// virtualLabels returns DAM's virtual labels of the unlabelled rows hu: the
// mean standardised source score h̄, shifted and scaled so that on the
// labelled rows h it has the class-balanced mean (0) and standard deviation
// (1) of the labels y. It returns nil (no virtual labels) when h̄ is constant
// on the labelled rows.
func virtualLabels(ctx context.Context, sh standardize.Scaler, h, hu *mat.Dense, y []float64) ([]float64, error) {
	zh, err := sh.TransformContext(ctx, h)
	if err != nil {
		return nil, fmt.Errorf("method: dam: H: %w", err)
	}
	zhu, err := sh.TransformContext(ctx, hu)
	if err != nil {
		return nil, fmt.Errorf("method: dam: unlabelled H: %w", err)
	}
	rowMeans := func(a *mat.Dense) []float64 {
		r, c := a.Dims()
		v := make([]float64, r)
		for i := range v {
			row := a.RawRowView(i)
			for _, x := range row {
				v[i] += x
			}
			if math.IsInf(v[i], 0) || math.IsNaN(v[i]) {
				// The finite values' sum overflowed: standardize's mean
				// of them (Mean's Σ x/c).
				v[i] = standardize.Mean(row, v[i])
			} else {
				v[i] /= float64(c)
			}
		}
		return v
	}
	hl := rowMeans(zh)
	zeta := lssvm.BalanceWeights(y)
	var mu, sd, sum float64
	for i, v := range hl {
		mu += zeta[i] * v
		sum += zeta[i]
	}
	mu /= sum
	for i, v := range hl {
		sd += zeta[i] * (v - mu) * (v - mu)
	}
	sd = math.Sqrt(sd / sum)
	if !(sd > standardize.StandardisedConstTol) { // h̄ is standardised-scale: this is a constant
		return nil, nil
	}
	v := rowMeans(zhu)
	for j, hbar := range v {
		if v[j] = standardize.Standardise(hbar, mu, sd); math.IsInf(v[j], 0) {
			return nil, fmt.Errorf("method: dam: unlabelled row %d: its mean standardised source score %v is too large for a virtual label (standardised with the labelled rows' class-balanced mean %v and standard deviation %v)", j, hbar, mu, sd)
		}
	}
	return v, nil
}

// balancedRidgeByLOO fits the class-balanced ridge regression with an
// unpenalised intercept of the labels y on the rows of z — DAM without
// unlabelled rows — with λ ∈ {1e-4, …, 1e4} chosen by chooseByLOO on the
// exact leave-one-out predictions, and returns λ, the weights and the
// intercept. It returns an error when the eigendecomposition fails or no λ
// gives finite leave-one-out predictions, and ctx's error (see fitctx.Err)
// when ctx is done, checked between its dense steps and between two λ.
func balancedRidgeByLOO(ctx context.Context, z *mat.Dense, y []float64) (lambda float64, w []float64, b float64, err error) {
	wr, cands, err := balancedRidgeCandidates(ctx, z, y)
	if err != nil {
		return 0, nil, 0, err
	}
	best, err := chooseByLOO(y, cands, tieSquared)
	if err != nil {
		return 0, nil, 0, err
	}
	w, b = wr.Primal(z, lambdaGrid[best])
	return lambdaGrid[best], w, b, nil
}

// balancedRidgeCandidates prepares the regression of balancedRidgeByLOO and
// returns it with the leave-one-out predictions of every λ of lambdaGrid
// (see balancedRidgeByLOO for ctx).
func balancedRidgeCandidates(ctx context.Context, z *mat.Dense, y []float64) (*lssvm.WeightedRidge, []looCandidate, error) {
	m := len(y)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	gram := lssvm.Gram(z, m)
	wr, err := lssvm.NewWeightedRidge(ctx, gram, y, lssvm.BalanceWeights(y))
	if err != nil {
		return nil, nil, err
	}
	cands := make([]looCandidate, len(lambdaGrid))
	for k, l := range lambdaGrid {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		cands[k] = looCandidate{Strength: l, Pred: wr.LOOPredictions(m, l)}
	}
	return wr, cands, nil
}

// damSystem is DAM's regression with virtual labels,
//
//	min_{w,b} Σ_{i∈L} ζ_i (y_i − wᵀx_i − b)² + μ Σ_{j∈U} (v_j − wᵀx_j − b)² + λ||w||²,
//
// μ = τ·m/u, prepared once for every (τ, λ) of the grids. The unlabelled
// rows enter through one eigendecomposition, and each (τ, λ) costs O(m²·r +
// m³), r = min(d, u), instead of an eigendecomposition of the (m+u)-row
// problem per τ. The derivation: centring the unlabelled rows, x̃_j = x_j −
// x̄_U, and writing the intercept as c = b + x̄_Uᵀw, the unlabelled part of
// the objective plus the penalty is the quadratic form of
// B = diag(λI + μX̃ᵀX̃, μu) in (w, c) minus the linear term rᵀ(w, c),
// r = (μX̃ᵀv, μΣv), and a labelled row reads â_i = (x_i − x̄_U, 1). With
// P = ÂB⁻¹Âᵀ and g = ÂB⁻¹r (m × m and m), the Woodbury identity gives the
// labelled residuals e = Z⁻¹M(y − g), Z = diag(ζ), M = (Z⁻¹ + P)⁻¹, and the
// weighted hat matrix's diagonal h_ii = 1 − M_ii/ζ_i, so that the
// leave-one-out residual of labelled example i is e_i/(1 − h_ii) =
// (M(y − g))_i / M_ii. Then B(w, c) = Âᵀα + r with α = M(y − g).
//
// P and g need R = (λI + μX̃ᵀX̃)⁻¹ between vectors of the labelled rows:
// with the eigendecomposition X̃ᵀX̃ = W diag(s) Wᵀ when d ≤ u,
// A R Aᵀ = Q diag(1/(λ + μs)) Qᵀ, Q = AW; with X̃X̃ᵀ = V diag(s) Vᵀ when
// d > u, A R Aᵀ = (AAᵀ − E diag(μ/(λ + μs)) Eᵀ)/λ, E = AX̃ᵀV (Woodbury
// again), A the labelled rows centred at x̄_U.
type damSystem struct {
	y, zeta    []float64 // the labels and their class-balancing weights
	m, u       int
	vMean      float64       // mean virtual label
	primalForm bool          // d ≤ u: eigenvectors of X̃ᵀX̃ (else of X̃X̃ᵀ)
	s          []float64     // the eigenvalues (clamped at 0)
	q          *mat.Dense    // primal form: AW (m × d); dual form: E = AX̃ᵀV (m × u)
	aat        *mat.SymDense // dual form: AAᵀ
	t          []float64     // primal form: WᵀX̃ᵀv; dual form: Vᵀv
	// For the weights of the chosen setting.
	a, xt, vecs *mat.Dense // A (m × d), X̃ (u × d), W or V
	xbar        []float64  // x̄_U
	v           []float64  // the virtual labels
}

// newDAMSystem prepares DAM's regression of the labels y on the labelled
// rows zl (m × d) and of the virtual labels v on the unlabelled rows zu
// (u × d, u ≥ 1). It returns an error when the eigendecomposition fails.
func newDAMSystem(zl, zu *mat.Dense, y, v []float64) (*damSystem, error) {
	m, d := zl.Dims()
	u, _ := zu.Dims()
	s := &damSystem{y: y, zeta: lssvm.BalanceWeights(y), m: m, u: u, v: v, primalForm: d <= u}
	for _, x := range v {
		s.vMean += x
	}
	s.vMean /= float64(u)
	s.xbar = make([]float64, d)
	for j := range u {
		floats.AddScaled(s.xbar, 1/float64(u), zu.RawRowView(j))
	}
	center := func(z *mat.Dense) *mat.Dense {
		r, _ := z.Dims()
		c := mat.NewDense(r, d, nil)
		for i := range r {
			row := c.RawRowView(i)
			copy(row, z.RawRowView(i))
			floats.AddScaled(row, -1, s.xbar)
		}
		return c
	}
	s.a, s.xt = center(zl), center(zu)
	var es mat.EigenSym
	var ok bool
	if s.primalForm {
		var c mat.SymDense
		c.SymOuterK(1, s.xt.T())
		ok = es.Factorize(&c, true)
	} else {
		var k mat.SymDense
		k.SymOuterK(1, s.xt)
		ok = es.Factorize(&k, true)
	}
	if !ok {
		return nil, errors.New("eigendecomposition of the unlabelled rows' Gram matrix failed")
	}
	s.s = es.Values(nil)
	for k, e := range s.s {
		s.s[k] = math.Max(e, 0) // rounding: the matrix is positive semidefinite
	}
	s.vecs = new(mat.Dense)
	es.VectorsTo(s.vecs)
	r := len(s.s)
	s.q = mat.NewDense(m, r, nil)
	s.t = make([]float64, r)
	if s.primalForm {
		s.q.Mul(s.a, s.vecs)
		xv := make([]float64, d)
		mat.NewVecDense(d, xv).MulVec(s.xt.T(), mat.NewVecDense(u, v))
		mat.NewVecDense(r, s.t).MulVec(s.vecs.T(), mat.NewVecDense(d, xv))
	} else {
		var cross mat.Dense
		cross.Mul(s.a, s.xt.T())
		s.q.Mul(&cross, s.vecs)
		s.aat = mat.NewSymDense(m, nil)
		s.aat.SymOuterK(1, s.a)
		mat.NewVecDense(r, s.t).MulVec(s.vecs.T(), mat.NewVecDense(u, v))
	}
	return s, nil
}

// solve returns the leave-one-out predictions of the labelled examples at
// (tau, lambda) and α = M(y − g), or an error when Z⁻¹ + P is numerically
// singular. It returns ctx's error when ctx is done, checked between its
// dense steps (the product, the factorisation, the inversion) and every
// fitctx.Rows rows of its O(m²) loop (fitctx.RowErr).
func (s *damSystem) solve(ctx context.Context, tau, lambda float64) (loo, alpha []float64, err error) {
	m := s.m
	mu := tau * float64(m) / float64(s.u)
	f := make([]float64, len(s.s)) // the diagonal of P's middle factor
	h := make([]float64, len(s.s)) // and of g's
	for k, e := range s.s {
		h[k] = mu / (lambda + mu*e)
		if s.primalForm {
			f[k] = 1 / (lambda + mu*e)
		} else {
			f[k] = -h[k] / lambda
		}
	}
	p := mat.NewSymDense(m, nil)
	if !s.primalForm {
		p.ScaleSym(1/lambda, s.aat)
	}
	// P += Q diag(f) Qᵀ, then the intercept's 1/(μu) and Z⁻¹.
	qf := mat.NewDense(m, len(f), nil)
	for i := range m {
		row, src := qf.RawRowView(i), s.q.RawRowView(i)
		for k, x := range src {
			row[k] = x * f[k]
		}
	}
	var qfq mat.Dense
	qfq.Mul(qf, s.q.T())
	c := 1 / (mu * float64(s.u))
	for i := range m {
		if err := fitctx.RowErr(ctx, i); err != nil {
			return nil, nil, err
		}
		for j := i; j < m; j++ {
			x := p.At(i, j) + (qfq.At(i, j)+qfq.At(j, i))/2 + c
			if i == j {
				x += 1 / s.zeta[i]
			}
			p.SetSym(i, j, x)
		}
	}
	// r = y − g, g = Q diag(h) t + v̄.
	r := make([]float64, m)
	for i := range m {
		var g float64
		for k, x := range s.q.RawRowView(i) {
			g += x * h[k] * s.t[k]
		}
		r[i] = s.y[i] - g - s.vMean
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var ch mat.Cholesky
	if !ch.Factorize(p) {
		return nil, nil, fmt.Errorf("DAM system at τ = %g, λ = %g is not positive definite", tau, lambda)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return nil, nil, fmt.Errorf("DAM system at τ = %g, λ = %g: %w", tau, lambda, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	alpha = make([]float64, m)
	mat.NewVecDense(m, alpha).MulVec(&inv, mat.NewVecDense(m, r))
	loo = make([]float64, m)
	for i := range m {
		mii := inv.At(i, i)
		if !(mii > 0) {
			return nil, nil, fmt.Errorf("DAM system at τ = %g, λ = %g: leave-one-out denominator %d is %g", tau, lambda, i, mii)
		}
		loo[i] = s.y[i] - alpha[i]/mii
	}
	return loo, alpha, nil
}

// primal returns the weights and intercept of the regression at (tau,
// lambda) from its α (see solve): w = R(Aᵀα + μX̃ᵀv), b = c − x̄_Uᵀw with
// c = (Σα + μΣv)/(μu).
func (s *damSystem) primal(tau, lambda float64, alpha []float64) (w []float64, b float64) {
	m, d := s.a.Dims()
	mu := tau * float64(m) / float64(s.u)
	x := make([]float64, d) // Aᵀα + μX̃ᵀv
	mat.NewVecDense(d, x).MulVec(s.a.T(), mat.NewVecDense(m, alpha))
	xv := make([]float64, d)
	mat.NewVecDense(d, xv).MulVec(s.xt.T(), mat.NewVecDense(s.u, s.v))
	floats.AddScaled(x, mu, xv)
	r := len(s.s)
	w = make([]float64, d)
	if s.primalForm {
		// R x = W diag(1/(λ + μs)) Wᵀx.
		c := make([]float64, r)
		mat.NewVecDense(r, c).MulVec(s.vecs.T(), mat.NewVecDense(d, x))
		for k, e := range s.s {
			c[k] /= lambda + mu*e
		}
		mat.NewVecDense(d, w).MulVec(s.vecs, mat.NewVecDense(r, c))
	} else {
		// R x = (x − X̃ᵀV diag(μ/(λ + μs)) VᵀX̃x)/λ.
		xx := make([]float64, s.u)
		mat.NewVecDense(s.u, xx).MulVec(s.xt, mat.NewVecDense(d, x))
		c := make([]float64, r)
		mat.NewVecDense(r, c).MulVec(s.vecs.T(), mat.NewVecDense(s.u, xx))
		for k, e := range s.s {
			c[k] *= mu / (lambda + mu*e)
		}
		mat.NewVecDense(s.u, xx).MulVec(s.vecs, mat.NewVecDense(r, c))
		mat.NewVecDense(d, w).MulVec(s.xt.T(), mat.NewVecDense(s.u, xx))
		for j := range w {
			w[j] = (x[j] - w[j]) / lambda
		}
	}
	var sa, sv float64
	for _, a := range alpha {
		sa += a
	}
	for _, v := range s.v {
		sv += v
	}
	b = (sa+mu*sv)/(mu*float64(s.u)) - floats.Dot(s.xbar, w)
	return w, b
}
