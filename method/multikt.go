package method

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// multiKT is MultiKT (Tommasi, Orabona and Caputo, "Learning categories from
// few examples with multi model knowledge transfer", TPAMI 2014) with a
// linear kernel, as DESIGN §5 specifies it. On the standardised columns zx (features)
// and zh (sources) of the m training examples it fits the class-balanced
// least-squares SVM
//
//	min_{w,b} ½||w||² + (C/2) Σ_i ζ_i (y_i − wᵀzx_i − b − βᵀzh_i)²,
//
// ζ_i = m/(2m₊) for the positives and m/(2m₋) for the negatives (so that
// each class carries half the loss). For fixed β the solution is linear in
// β: [α; b] = M⁻¹[y − Hβ; 0] with M = [[K + diag(1/(Cζ)), 1], [1ᵀ, 0]],
// K = ZxZxᵀ and w = Σ_i α_i zx_i, and the leave-one-out prediction of example
// i is ỹ_i(β) = y_i − α_i/(M⁻¹)_ii (the closed form keeps the weights ζ of the
// whole sample when example i is left out). ỹ is affine in β:
// ỹ(β) = c + Gβ with c = y − D⁻¹Ay and G = D⁻¹AH, A the top-left m × m block
// of M⁻¹ and D its diagonal, so M⁻¹ and G are computed once per C and each
// optimisation step costs O(m·n).
//
// β minimises the class-balanced LOO hinge loss
//
//	L(β) = (1/m) Σ_i ζ_i max(0, 1 − y_i ỹ_i(β))
//
// subject to ||β||₂ ≤ τ (multikt-l2) or ||β||₁ ≤ τ (multikt-l1) by projected
// subgradient descent with normalised steps of decreasing length
// r/√(t+1), t = 0, 1, …, exact projections (projectL2Ball, projectL1Ball)
// and the best iterate kept. The initial step r is min(τ, 3/s), s the root
// mean square norm of G's rows: moving β by 1/s along a row direction moves
// that example's LOO prediction by about 1, the scale of the hinge. The τ
// grid is swept in increasing order, each τ starting from the previous one's
// solution (which lies in the larger ball), so L at the chosen β never
// increases with τ. The descent stops after a fixed number of steps (1000)
// or as soon as it meets a zero subgradient (an optimum).
//
// C ∈ {1e-4, …, 1e4} and τ ∈ {1e-3, …, 1e3} are chosen by chooseByLOO on the
// LOO predictions ỹ(β) of each pair's β (a larger regularisation being a
// smaller C, then a smaller τ). Note that β was fitted to those same LOO
// predictions, as in MultiKT. The model predicts wᵀzx + b + βᵀzh: a Linear
// model whose source weights are β; its hyperparameters are "C" and "tau".
//
// Edge cases: with a single positive the weights ζ still balance the classes
// and the fit is defined. Duplicated columns are harmless (the LS-SVM is
// solved in the dual); constant columns standardise to zeros and get weight
// zero. With no sources (H absent or without columns) MultiKT is the
// class-balanced LS-SVM on X with C chosen by LOO, and "tau" is not reported;
// with no features (X absent) it is the LS-SVM on a bias plus the weighted
// sources.
type multiKT struct {
	name  string
	l1    bool // the L1 ball; the L2 ball otherwise
	steps int  // subgradient steps per (C, τ)
}

const (
	// multiKTSteps is the number of projected subgradient steps per (C, τ).
	multiKTSteps = 1000
	// multiKTStepScale is the first step's length in units of 1/s (see
	// looHinge.stepScale); 3 did best among 1, 3, 10, 30 and 100 against
	// exact (linear programming) optima of L1-constrained problems.
	multiKTStepScale = 3
)

func init() {
	Register(Registration{
		Name:        "multikt-l2",
		Description: "MultiKT: class-balanced LS-SVM with source weights β minimising the LOO hinge loss, ||β||₂ ≤ τ",
		New:         func() Method { return multiKT{name: "multikt-l2", steps: multiKTSteps} },
		Decode:      decodeLinear,
	})
	Register(Registration{
		Name:        "multikt-l1",
		Description: "MultiKT: class-balanced LS-SVM with source weights β minimising the LOO hinge loss, ||β||₁ ≤ τ",
		New:         func() Method { return multiKT{name: "multikt-l1", l1: true, steps: multiKTSteps} },
		Decode:      decodeLinear,
	})
}

// Name returns "multikt-l2" or "multikt-l1".
func (k multiKT) Name() string { return k.name }

// Needs reports that MultiKT needs nothing beyond the labelled sample.
func (multiKT) Needs() Needs { return Needs{} }

// Fit trains MultiKT on train (see the type's comment). It returns an error
// for the inputs checkTrain rejects, when ctx is done, and when the LS-SVM
// system is numerically singular at every C (a C at which it is singular is
// skipped).
func (k multiKT) Fit(ctx context.Context, train Data, _ Extra) (Model, error) {
	m, _, n, err := checkTrain(train)
	if err != nil {
		return nil, err
	}
	sx, sh := FitScaler(train.X), FitScaler(train.H)
	zx, err := sx.Transform(train.X)
	if err != nil {
		return nil, err
	}
	zh, err := sh.Transform(train.H)
	if err != nil {
		return nil, err
	}
	y := train.Y
	zeta := balanceWeights(y)
	gram := gramMatrix(zx, m)

	type setting struct {
		c, tau float64
		beta   []float64
	}
	var (
		settings []setting
		cands    []looCandidate
		lastErr  error
	)
	for _, c := range cGrid {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sys, err := newLSSVM(gram, zeta, c)
		if err != nil {
			lastErr = err
			continue // numerically singular at this C: not a candidate
		}
		loo := sys.looMap(y, zeta, zh)
		if n == 0 {
			settings = append(settings, setting{c: c})
			cands = append(cands, looCandidate{Strength: 1 / c, Pred: loo.predict(nil, nil)})
			continue
		}
		beta := make([]float64, n)
		for _, tau := range tauGrid { // increasing: each τ warm-starts the next
			beta, _, _ = loo.minimise(beta, tau, k.l1, k.steps)
			settings = append(settings, setting{c: c, tau: tau, beta: beta})
			cands = append(cands, looCandidate{Strength: 1 / c, Pred: loo.predict(nil, beta)})
		}
	}
	if len(cands) == 0 {
		return nil, fmt.Errorf("method: %s: %w", k.name, lastErr)
	}
	best, err := chooseByLOO(y, cands, tieSquared)
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", k.name, err)
	}
	s := settings[best]
	sys, err := newLSSVM(gram, zeta, s.c)
	if err != nil {
		return nil, fmt.Errorf("method: %s: %w", k.name, err)
	}
	r := make([]float64, m)
	copy(r, y)
	if n > 0 {
		mat.NewVecDense(m, r).MulVec(zh, mat.NewVecDense(n, s.beta))
		for i := range r {
			r[i] = y[i] - r[i]
		}
	}
	alpha, b := sys.solve(r)
	model := &Linear{
		Name:  k.name,
		X:     sx,
		H:     sh,
		WX:    dualToPrimal(zx, alpha),
		WH:    s.beta,
		B:     b,
		Hyper: map[string]float64{"C": s.c},
	}
	if n > 0 {
		model.Hyper["tau"] = s.tau
	} else {
		model.WH = nil
	}
	if err := model.check(); err != nil {
		return nil, fmt.Errorf("method: %s: %w", k.name, err)
	}
	return model, nil
}

// balanceWeights returns MultiKT's class-balancing weights ζ_i: m/(2m₊) for
// the positives, m/(2m₋) for the negatives (both classes must be present).
func balanceWeights(y []float64) []float64 {
	var pos float64
	for _, v := range y {
		if v > 0 {
			pos++
		}
	}
	m := float64(len(y))
	zeta := make([]float64, len(y))
	for i, v := range y {
		if v > 0 {
			zeta[i] = m / (2 * pos)
		} else {
			zeta[i] = m / (2 * (m - pos))
		}
	}
	return zeta
}

// gramMatrix returns ZZᵀ (m × m), the zero matrix when Z is nil.
func gramMatrix(z *mat.Dense, m int) *mat.SymDense {
	g := mat.NewSymDense(m, nil)
	if z != nil {
		g.SymOuterK(1, z)
	}
	return g
}

// dualToPrimal returns Zᵀα, nil when Z is nil.
func dualToPrimal(z *mat.Dense, alpha []float64) []float64 {
	if z == nil {
		return nil
	}
	_, d := z.Dims()
	w := make([]float64, d)
	mat.NewVecDense(d, w).MulVec(z.T(), mat.NewVecDense(len(alpha), alpha))
	return w
}

// lssvm is the inverse of the LS-SVM system matrix
// M = [[K + diag(1/(Cζ)), 1], [1ᵀ, 0]] in blocks: with P = (K + diag(1/(Cζ)))⁻¹,
// u = P1 and s = 1ᵀu, M⁻¹ = [[P − uuᵀ/s, u/s], [uᵀ/s, −1/s]].
type lssvm struct {
	a *mat.SymDense // A = P − uuᵀ/s, the top-left block
	p []float64     // u/s, the last column without its last entry
}

// newLSSVM factorises the system of the class-weighted LS-SVM with kernel
// gram, weights zeta and cost c. It returns an error when the system is
// numerically singular.
func newLSSVM(gram *mat.SymDense, zeta []float64, c float64) (*lssvm, error) {
	m := gram.SymmetricDim()
	q := mat.NewSymDense(m, nil)
	q.CopySym(gram)
	for i := range m {
		q.SetSym(i, i, q.At(i, i)+1/(c*zeta[i]))
	}
	var ch mat.Cholesky
	if !ch.Factorize(q) {
		return nil, fmt.Errorf("LS-SVM system with C = %g is not positive definite", c)
	}
	if cond := ch.Cond(); cond > 1e14 || math.IsNaN(cond) {
		return nil, fmt.Errorf("LS-SVM system with C = %g is ill-conditioned (condition number %.3g)", c, cond)
	}
	var p mat.SymDense
	if err := ch.InverseTo(&p); err != nil {
		return nil, fmt.Errorf("LS-SVM system with C = %g: %w", c, err)
	}
	u := make([]float64, m)
	var s float64
	for i := range m {
		for j := range m {
			u[i] += p.At(i, j)
		}
		s += u[i]
	}
	if !(s > 0) {
		return nil, fmt.Errorf("LS-SVM system with C = %g: 1ᵀP1 = %g", c, s)
	}
	a := mat.NewSymDense(m, nil)
	a.CopySym(&p)
	a.SymRankOne(a, -1/s, mat.NewVecDense(m, u))
	pv := make([]float64, m)
	for i := range u {
		pv[i] = u[i] / s
	}
	for i := range m {
		if !(a.At(i, i) > 0) {
			return nil, fmt.Errorf("LS-SVM system with C = %g: leave-one-out denominator %d is %g", c, i, a.At(i, i))
		}
	}
	return &lssvm{a: a, p: pv}, nil
}

// solve returns the LS-SVM solution [α; b] = M⁻¹[r; 0] for the targets r.
func (s *lssvm) solve(r []float64) (alpha []float64, b float64) {
	m := len(r)
	alpha = make([]float64, m)
	mat.NewVecDense(m, alpha).MulVec(s.a, mat.NewVecDense(m, r))
	for i, v := range r {
		b += s.p[i] * v
	}
	return alpha, b
}

// looMap returns the affine map β ↦ ỹ(β) = c + Gβ of the LOO predictions
// with c = y − D⁻¹Ay and G = D⁻¹AH (H = zh, nil when there are no sources).
func (s *lssvm) looMap(y, zeta []float64, zh *mat.Dense) *looHinge {
	m := len(y)
	ay := make([]float64, m)
	mat.NewVecDense(m, ay).MulVec(s.a, mat.NewVecDense(m, y))
	c := make([]float64, m)
	for i := range c {
		c[i] = y[i] - ay[i]/s.a.At(i, i)
	}
	l := &looHinge{y: y, zeta: zeta, c: c}
	if zh != nil {
		_, n := zh.Dims()
		l.g = mat.NewDense(m, n, nil)
		l.g.Mul(s.a, zh)
		for i := range m {
			row := l.g.RawRowView(i)
			inv := 1 / s.a.At(i, i)
			for j := range row {
				row[j] *= inv
			}
		}
	}
	return l
}

// looHinge is MultiKT's objective L(β) = (1/m) Σ_i ζ_i max(0, 1 − y_i ỹ_i(β))
// with the LOO predictions ỹ(β) = c + Gβ.
type looHinge struct {
	y, zeta, c []float64
	g          *mat.Dense // m × n; nil when there are no sources
}

// predict writes ỹ(β) into dst (allocated when nil) and returns it.
func (l *looHinge) predict(dst, beta []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(l.c))
	}
	copy(dst, l.c)
	if l.g != nil && len(beta) > 0 {
		g := l.g.RawMatrix()
		blas64.Gemv(blas.NoTrans, 1, g, blas64.Vector{N: len(beta), Inc: 1, Data: beta},
			1, blas64.Vector{N: len(dst), Inc: 1, Data: dst})
	}
	return dst
}

// value returns L at the LOO predictions pred.
func (l *looHinge) value(pred []float64) float64 {
	var s float64
	for i, f := range pred {
		if h := 1 - l.y[i]*f; h > 0 {
			s += l.zeta[i] * h
		}
	}
	return s / float64(len(pred))
}

// subgradient writes into grad a subgradient of L at the LOO predictions
// pred: −(1/m) Σ_{i: y_i ỹ_i < 1} ζ_i y_i G_i.
func (l *looHinge) subgradient(grad, pred []float64, v []float64) {
	m := float64(len(pred))
	for i, f := range pred {
		v[i] = 0
		if l.y[i]*f < 1 {
			v[i] = -l.zeta[i] * l.y[i] / m
		}
	}
	blas64.Gemv(blas.Trans, 1, l.g.RawMatrix(), blas64.Vector{N: len(v), Inc: 1, Data: v},
		0, blas64.Vector{N: len(grad), Inc: 1, Data: grad})
}

// stepScale returns the length r of the first step of minimise over the
// ball of radius tau: min(tau, multiKTStepScale/s), s the root mean square
// norm of G's rows (tau when G is zero).
func (l *looHinge) stepScale(tau float64) float64 {
	m, _ := l.g.Dims()
	var ss float64
	for _, x := range l.g.RawMatrix().Data {
		ss += x * x
	}
	if rms := math.Sqrt(ss / float64(m)); rms > 0 {
		return math.Min(tau, multiKTStepScale/rms)
	}
	return tau
}

// minimise runs steps projected subgradient steps on L over the ball
// ||β|| ≤ tau (L1 when l1, else L2) from the projection of beta0, and
// returns the best iterate, its objective and the objective of every iterate
// (trace[0] is the start's). beta0 is not modified.
func (l *looHinge) minimise(beta0 []float64, tau float64, l1 bool, steps int) (best []float64, bestVal float64, trace []float64) {
	project := projectL2Ball
	if l1 {
		project = projectL1Ball
	}
	m, n := l.g.Dims()
	beta := make([]float64, n)
	project(beta, beta0, tau)
	pred := make([]float64, m)
	grad := make([]float64, n)
	v := make([]float64, m)

	r := l.stepScale(tau)
	best = make([]float64, n)
	copy(best, beta)
	bestVal = math.Inf(1)
	trace = make([]float64, 0, steps+1)
	for t := 0; ; t++ {
		val := l.value(l.predict(pred, beta))
		trace = append(trace, val)
		if val < bestVal {
			bestVal = val
			copy(best, beta)
		}
		if t == steps || val == 0 {
			break
		}
		l.subgradient(grad, pred, v)
		gn := blas64.Nrm2(blas64.Vector{N: n, Inc: 1, Data: grad})
		if gn == 0 {
			break // a zero subgradient: β is optimal
		}
		step := r / (gn * math.Sqrt(float64(t+1)))
		for j := range beta {
			beta[j] -= step * grad[j]
		}
		project(beta, beta, tau)
	}
	return best, bestVal, trace
}
