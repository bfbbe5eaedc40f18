package linear

import (
	"fmt"
	"math"
)

// Elastic-net logistic regression (ElasticNetLR):
//
//	min_w Σ_i C_i log(1 + exp(−y_i wᵀx_i)) + ρ·||w||₁ + (1−ρ)/2·||w||²,
//
// ρ = Params.L1Ratio ∈ [0, 1], C_i = C·WeightPos or C·WeightNeg as for the
// other solvers, the bias feature (Problem.Bias > 0) regularised like every
// other weight. ρ = 1 is L1R_LR's objective and ρ = 0 is L2R_LR's.
//
// This is scikit-learn's LogisticRegression(penalty="elasticnet", C=C,
// l1_ratio=ρ) objective exactly when scikit-learn is given the bias as an
// explicit constant column and fit_intercept=False (with fit_intercept=True
// scikit-learn leaves the intercept unpenalised). glmnet minimises
// (1/l)·Σ loss + λ·(α||w||₁ + (1−α)/2·||w||²) with an unpenalised intercept;
// dividing our objective by C·l shows α = ρ and λ = 1/(C·l).
//
// The solver is glmnet's scheme (Friedman, Hastie and Tibshirani, J. Stat.
// Softw. 2010) made globally convergent as in newGLMNET: each outer step forms
// the quadratic (IRLS) model of the loss with working weights
// C_i σ(z_i)σ(−z_i), minimises it plus the exact penalty by cyclic coordinate
// descent with soft-thresholding — a sweep over all coordinates, then sweeps
// over the non-zero ones only until they settle, then again a full sweep,
// until the model's subgradient norm falls to a tenth of the current
// objective's — and backtracks along the resulting direction (Armijo rule,
// step halving). It is deterministic (Params.Seed is unused).
//
// Stopping rule: the duality gap. With α_i = C_i σ(−y_i wᵀx_i) (the dual
// point that is optimal at the optimum), scaled where that helps so that the
// dual is finite (always for ρ = 1), the Fenchel dual value is
//
//	D(α) = Σ_i C_i H(α_i/C_i) − Σ_j max(|v_j| − ρ, 0)²/(2(1−ρ)), v = Σ_i α_i y_i x_i,
//
// H the binary entropy (for ρ = 1 the second term is 0 when ||v||∞ ≤ 1,
// else +∞), a lower bound on the optimum; the solver stops when
// F(w) − D(α) ≤ ε·F(w), ε = Params.Eps (default 1e-4), which guarantees
// that F(w) is within the fraction ε of the optimal value. Unlike L1R_LR's
// rule (relative to the subgradient at w = 0, which grows with C) this holds
// the same accuracy at every C: for large C on separable data liblinear's
// rule can stop at several times the optimal value. The solver also stops,
// as converged, when the line search finds no decrease and the predicted one
// is at most 1e-12·(1 + F(w)) (the floating-point floor), and as not converged after
// Params.MaxIter outer steps (default 100) or, as numerically stuck
// (Model.Stuck), when the line search fails otherwise or, at once, when
// a derivative of the loss at 0 may overflow float64 (atZero)
// or the objective does.

func init() {
	register(ElasticNetLR, solveElasticNet)
}

const (
	// enetForcing is the inexact-Newton forcing term: each quadratic model
	// is solved until its subgradient norm is this fraction of the
	// objective's.
	enetForcing = 0.1
	// enetDefaultEps is the default relative duality gap.
	enetDefaultEps = 1e-4
)

// solveElasticNet trains ElasticNetLR; see the comment at the top of the file.
func solveElasticNet(prob *Problem, p Params, init []float64) ([]float64, stop, error) {
	if !(p.L1Ratio >= 0 && p.L1Ratio <= 1) {
		return nil, stopMaxIter, fmt.Errorf("linear: L1Ratio = %v, want it in [0, 1]", p.L1Ratio)
	}
	if p.Eps == 0 {
		p.Eps = enetDefaultEps
	}
	l1, l2 := p.L1Ratio, 1-p.L1Ratio
	// The duality gap, not the reference, is the stopping rule's measure.
	r, why, done, err := lrSetup(prob, p, init, lrStartRule{l1: l1, k: 0.5, exitAtZero: true})
	if done {
		return r.w, why, err
	}
	s := newEnetSolver(r.d, r.w, l1, l2)
	why = s.run(r.eps, r.maxIter)
	if err := lrFinite(s.w); err != nil {
		return nil, stopMaxIter, err
	}
	return s.w, why, nil
}

// enetSolver holds the state of the elastic-net solver.
type enetSolver struct {
	lrNewton
	active []int // coordinates with wpd ≠ 0 after the last full sweep
}

func newEnetSolver(d *lrData, w []float64, l1, l2 float64) *enetSolver {
	return &enetSolver{lrNewton: newLRNewton(d, w, l1, l2), active: make([]int, 0, d.cols)}
}

// run performs outer steps until the relative duality gap is at most eps or
// maxIter steps are done, and says why it stopped.
func (s *enetSolver) run(eps float64, maxIter int) stop {
	d := s.d
	for range maxIter {
		if d.stopped() {
			return stopMaxIter
		}
		var gnorm1 float64
		for j := range d.cols {
			g := s.derivatives(j)
			gnorm1 += lrViolation(s.w[j], g+s.l2*s.w[j], s.l1)
		}
		f, gap := s.gap()
		if !finiteReference(f) {
			// The objective overflows (C·l·log 2 at w = 0 can): the gap
			// rule would hold as Inf ≤ ε·Inf.
			return stopStuck
		}
		if gap <= eps*f {
			return stopConverged
		}
		s.innerCD(enetForcing * gnorm1)
		switch s.lineSearch() {
		case lrStepFailed:
			return stopStuck
		case lrStepAtResolution:
			return stopConverged
		}
	}
	return stopMaxIter
}

// gap returns the objective F(w) and the duality gap F(w) − D(α) for the
// dual point α = tau (see the top of the file), with s.grad = −Σ_i α_i x̃_i
// current. It tries α and α scaled so that ||v||∞ ≤ ρ (v = −grad) and
// keeps the larger dual value.
func (s *enetSolver) gap() (f, gap float64) {
	d := s.d
	f = d.loss(s.z) + lrPenalty(s.w, s.l1, s.l2)
	var vmax float64
	for _, g := range s.grad {
		vmax = max(vmax, math.Abs(g))
	}
	dual := math.Inf(-1)
	scales := []float64{1}
	if vmax > s.l1 && s.l1 > 0 {
		scales = append(scales, s.l1/vmax)
	}
	for _, sc := range scales {
		var ent, conj float64
		for i, t := range s.tau {
			ent += d.cost[i] * binaryEntropy(sc*t/d.cost[i])
		}
		for _, g := range s.grad {
			if excess := sc*math.Abs(g) - s.l1; excess > 0 {
				if s.l2 == 0 {
					conj = math.Inf(1)
					break
				}
				conj += excess * excess / (2 * s.l2)
			}
		}
		dual = max(dual, ent-conj)
	}
	return f, f - dual
}

// binaryEntropy returns −p·log p − (1−p)·log(1−p) (nats), 0 at p ∈ {0, 1}.
func binaryEntropy(p float64) float64 {
	var h float64
	if p > 0 {
		h -= p * math.Log(p)
	}
	if p < 1 {
		h -= (1 - p) * math.Log1p(-p)
	}
	return h
}

// innerCD minimises the quadratic model plus the penalty over wpd, starting
// from wpd = w, by cyclic coordinate descent with active-set cycling, until
// a full sweep sees a subgradient norm of at most tol.
func (s *enetSolver) innerCD(tol float64) {
	copy(s.wpd, s.w)
	clear(s.xTd)
	for sweeps := 0; sweeps < lrMaxInner; {
		s.active = s.active[:0]
		var viol float64
		for j := range s.d.cols {
			viol += s.update(j)
			if s.wpd[j] != 0 {
				s.active = append(s.active, j)
			}
		}
		sweeps++
		if viol <= tol {
			return
		}
		for sweeps < lrMaxInner {
			var v float64
			for _, j := range s.active {
				v += s.update(j)
			}
			sweeps++
			if v <= tol {
				break
			}
		}
	}
}

// update minimises the model over coordinate j and returns the coordinate's
// subgradient violation before the move.
func (s *enetSolver) update(j int) float64 {
	wj := s.wpd[j]
	h := s.hdiag[j] + s.l2
	g := s.modelGrad(j, s.l2*wj)
	viol := lrViolation(wj, g, s.l1)
	// Minimise g·δ + h/2·δ² + l1·|wj + δ| over δ: soft-thresholding.
	u := h*wj - g
	var next float64
	switch {
	case u > s.l1:
		next = (u - s.l1) / h
	case u < -s.l1:
		next = (u + s.l1) / h
	}
	step := next - wj
	if math.Abs(step) < lrMinStep {
		return viol
	}
	step = min(max(step, -lrMaxStep), lrMaxStep)
	s.move(j, step)
	return viol
}
