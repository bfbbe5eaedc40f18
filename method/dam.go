package method

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// dam is DAM, the Domain Adaptation Machine (Duan, Tsang, Xu and Chua,
// "Domain adaptation from multiple sources via auxiliary classifiers", ICML
// 2009), in the least-squares linear form of DESIGN §5. It is transductive:
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
// matrix with the intercept. One eigendecomposition of the weighted, centred
// Gram matrix of L ∪ U per τ serves every λ; a larger regularisation is a
// larger λ, then a smaller τ. The intercept matters for the leave-one-out
// estimate too: on standardised columns a left-out row is minus the sum of
// the others, and without an intercept a nearly interpolating fit (λ → 0,
// d ≥ m) would predict it from the others' labels alone.
//
// The model is a Linear model on the features: its source weights are zero
// (the sources shape w through the virtual labels but are not evaluated at
// prediction time, though H must still be given with n columns); its
// hyperparameters are "lambda" and "tau".
//
// Fallback: without virtual labels — no sources (H absent or without
// columns), or a mean source score that is constant on the labelled sample —
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
func (dam) Fit(ctx context.Context, train Data, extra Extra) (Model, error) {
	m, d, n, err := checkTrain(train)
	if err != nil {
		return nil, err
	}
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
	sx, sh := FitScaler(train.X), FitScaler(train.H)
	zx, err := sx.Transform(train.X)
	if err != nil {
		return nil, err
	}
	var virtual []float64
	if n > 0 {
		if virtual, err = virtualLabels(sh, train.H, extra.Unlabelled.H, train.Y); err != nil {
			return nil, err
		}
	}
	z := zx
	taus := tauGrid
	if virtual == nil {
		u, taus = 0, []float64{0}
	} else {
		zxu, err := sx.Transform(extra.Unlabelled.X)
		if err != nil {
			return nil, err
		}
		z = mat.NewDense(m+u, d, nil)
		z.Stack(zx, zxu)
	}
	targets := append(append([]float64(nil), train.Y...), virtual...)
	gram := gramMatrix(z, m+u)

	var cands []looCandidate
	type setting struct {
		tau, lambda float64
		fit         *weightedRidge
	}
	var settings []setting
	for _, tau := range taus {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		wr, err := newWeightedRidge(gram, targets, damWeights(train.Y, u, tau))
		if err != nil {
			return nil, fmt.Errorf("method: dam: %w", err)
		}
		for _, lambda := range lambdaGrid {
			settings = append(settings, setting{tau, lambda, wr})
			cands = append(cands, looCandidate{Strength: lambda, Pred: wr.looPredictions(m, lambda)})
		}
	}
	best, err := chooseByLOO(train.Y, cands, tieSquared)
	if err != nil {
		return nil, fmt.Errorf("method: dam: %w", err)
	}
	s := settings[best]
	w, b := s.fit.primal(z, s.lambda)
	model := &Linear{
		Name:  "dam",
		X:     sx,
		H:     sh,
		WX:    w,
		WH:    make([]float64, n),
		B:     b,
		Hyper: map[string]float64{"lambda": s.lambda, "tau": s.tau},
	}
	if n == 0 {
		model.WH = nil
	}
	if err := model.check(); err != nil {
		return nil, fmt.Errorf("method: dam: %w", err)
	}
	return model, nil
}

// damWeights returns the row weights of DAM's regression: the
// class-balancing weights ζ_i of the labelled rows (labels y), then tau·m/u
// for each of the u unlabelled rows.
func damWeights(y []float64, u int, tau float64) []float64 {
	m := len(y)
	w := append(balanceWeights(y), make([]float64, u)...)
	for j := m; j < m+u; j++ {
		w[j] = tau * float64(m) / float64(u)
	}
	return w
}

// virtualLabels returns DAM's virtual labels of the unlabelled rows hu: the
// mean standardised source score h̄, shifted and scaled so that on the
// labelled rows h it has the class-balanced mean (0) and standard deviation
// (1) of the labels y. It returns nil (no virtual labels) when h̄ is constant
// on the labelled rows.
func virtualLabels(sh Scaler, h, hu *mat.Dense, y []float64) ([]float64, error) {
	zh, err := sh.Transform(h)
	if err != nil {
		return nil, err
	}
	zhu, err := sh.Transform(hu)
	if err != nil {
		return nil, err
	}
	rowMeans := func(a *mat.Dense) []float64 {
		r, c := a.Dims()
		v := make([]float64, r)
		for i := range v {
			for _, x := range a.RawRowView(i) {
				v[i] += x
			}
			v[i] /= float64(c)
		}
		return v
	}
	hl := rowMeans(zh)
	zeta := balanceWeights(y)
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
	if !(sd > 1e-12) { // h̄ is standardised-scale: this is a constant
		return nil, nil
	}
	v := rowMeans(zhu)
	for j := range v {
		v[j] = (v[j] - mu) / sd
	}
	return v, nil
}

// balancedRidgeByLOO fits the class-balanced ridge regression with an
// unpenalised intercept of the labels y on the rows of z — DAM without
// unlabelled rows — with λ ∈ {1e-4, …, 1e4} chosen by chooseByLOO on the
// exact leave-one-out predictions, and returns λ, the weights and the
// intercept. It returns an error when the eigendecomposition fails or no λ
// gives finite leave-one-out predictions.
func balancedRidgeByLOO(z *mat.Dense, y []float64) (lambda float64, w []float64, b float64, err error) {
	m := len(y)
	wr, err := newWeightedRidge(gramMatrix(z, m), y, balanceWeights(y))
	if err != nil {
		return 0, nil, 0, err
	}
	cands := make([]looCandidate, len(lambdaGrid))
	for k, l := range lambdaGrid {
		cands[k] = looCandidate{Strength: l, Pred: wr.looPredictions(m, l)}
	}
	best, err := chooseByLOO(y, cands, tieSquared)
	if err != nil {
		return 0, nil, 0, err
	}
	w, b = wr.primal(z, lambdaGrid[best])
	return lambdaGrid[best], w, b, nil
}

// weightedRidge is ridge regression with row weights ω and an unpenalised
// intercept, min_{w,b} Σ_i ω_i (t_i − wᵀz_i − b)² + λ||w||², in the dual,
// for every λ at once. With p = ω/Σω, the rows √ω_i (z_i − Σ_k p_k z_k)
// form S, whose columns are orthogonal to q = √ω/||√ω||; on q⊥ (a
// Householder basis Q) SSᵀ = UΛUᵀ, U = QV with orthonormal columns. Then
// the scaled residuals are √ω∘e = U diag(λ/(Λ+λ)) Uᵀs, s = √ω∘(t − pᵀt),
// and the leverages (the intercept's included) satisfy
// 1 − h_ii = Σ_k U_ik² λ/(Λ_k+λ) — sums of positive terms, accurate even
// when λ is tiny. Leaving row i out changes its residual to e_i/(1 − h_ii)
// whatever its weight.
type weightedRidge struct {
	t     []float64 // targets
	sqrtW []float64
	p     []float64 // ω/Σω
	muT   float64   // pᵀt
	u     *mat.Dense
	eig   []float64
	ut    []float64 // Uᵀs
}

// newWeightedRidge prepares the regression of targets t (kept, not copied)
// with row weights omega (positive) on the rows whose Gram matrix is gram.
// It returns an error when the eigendecomposition fails.
func newWeightedRidge(gram *mat.SymDense, t, omega []float64) (*weightedRidge, error) {
	N := len(t)
	var sum float64
	for _, w := range omega {
		sum += w
	}
	wr := &weightedRidge{t: t, sqrtW: make([]float64, N), p: make([]float64, N)}
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
	g := make([]float64, N)
	mat.NewVecDense(N, g).MulVec(c, mat.NewVecDense(N, v))
	var vg float64
	for i := range N {
		vg += v[i] * g[i]
	}
	bs := mat.NewSymDense(N-1, nil)
	for i := 1; i < N; i++ {
		for j := i; j < N; j++ {
			bs.SetSym(i-1, j-1, c.At(i, j)-kappa*(v[i]*g[j]+g[i]*v[j])+kappa*kappa*vg*v[i]*v[j])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(bs, true) {
		return nil, errors.New("eigendecomposition of the Gram matrix failed")
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
	return wr, nil
}

// looPredictions returns the leave-one-out predictions of the first m rows
// at lambda: t_i − r_i/(1 − h_ii), r_i = (√ω∘e)_i/√ω_i the residual of row i.
func (wr *weightedRidge) looPredictions(m int, lambda float64) []float64 {
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

// primal returns the weights w = Σ_i √ω_i a_i (z_i − z̄),
// a = U diag(1/(Λ+λ)) Uᵀs, and the intercept b = pᵀt − z̄ᵀw of the
// regression at lambda, z̄ = Σ_i p_i z_i (z holds the rows z_i).
func (wr *weightedRidge) primal(z *mat.Dense, lambda float64) (w []float64, b float64) {
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
