package linear

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// The L2-regularised primal solvers and the dual logistic solver.
//
// L2R_LR (-s 0) and L2R_L2LOSS_SVC (-s 2) minimise
//
//	f(w) = ½||w||² + Σ_i C_i ξ(y_i wᵀx_i),
//
// ξ(z) = log(1 + e^{−z}) and ξ(z) = max(0, 1 − z)² respectively, by
// liblinear's trust-region Newton method (TRON; Lin, Weng and Keerthi, JMLR
// 2008) with the diagonally preconditioned conjugate gradient of Hsia,
// Chiang and Lin (ACML 2018). They stop when
//
//	||∇f(w)||₂ ≤ ε · max(min(#pos, #neg), 1)/l · ||∇f(0)||₂,
//
// ε = Params.Eps (default 0.01), also under a warm start, or, converged to
// machine precision short of that (Model.Precision), when a step's actual
// and predicted decreases of f are both at most 1e-12·|f|. MaxIter
// (default 1000) caps the Newton iterations.
//
// L2R_LR_DUAL (-s 7) solves the dual of L2R_LR,
//
//	min_α ½αᵀQα + Σ_i α_i log α_i + (C_i − α_i) log(C_i − α_i),  0 < α_i < C_i,
//
// by coordinate descent with a Newton method on each one-variable
// sub-problem (Yu, Huang and Lin, Machine Learning 2011), and stops when the
// largest sub-problem gradient of an outer iteration is below ε (default
// 0.1); MaxIter (default 1000) caps the outer iterations.

func init() {
	register(L2RLR, solveTRON)
	register(L2RL2LossSVC, solveTRON)
	register(L2RLRDual, dualSolver(lrDual).solve)
	warmSolvers[L2RLR] = warmTRON
	warmSolvers[L2RL2LossSVC] = warmTRON
	warmSolvers[L2RLRDual] = dualSolver(lrDual).warm
}

// Constants of TRON (liblinear's values).
const (
	tronDefaultMaxIter = 1000
	tronEpsCG          = 0.1  // relative CG tolerance
	tronEpsCGWarm      = 0.5  // relative CG tolerance under a warm start
	tronAlphaPCG       = 0.01 // mixes the preconditioner with the identity
	// Step acceptance and trust-region update constants.
	tronEta0, tronEta1, tronEta2       = 1e-4, 0.25, 0.75
	tronSigma1, tronSigma2, tronSigma3 = 0.25, 0.5, 4
)

// tronObjective is a twice-differentiable function for TRON. grad uses the
// margins of the last fun call and fixes the curvature that hv and precond
// use, so a rejected trial point (fun without grad) leaves them at the
// current iterate.
type tronObjective interface {
	// fun returns f(w) and remembers what grad, hv and precond need.
	fun(w []float64) float64
	// grad sets g to ∇f(w) at the w of the last fun call.
	grad(w, g []float64)
	// hv sets hs to the (generalised) Hessian times s.
	hv(s, hs []float64)
	// precond sets m to the diagonal of the Hessian.
	precond(m []float64)
}

// solveTRON is the solveFunc of -s 0 and -s 2.
func solveTRON(prob *Problem, p Params, init []float64) ([]float64, stop, error) {
	w, why := tron(prob, p, init)
	return w, why, nil
}

// warmTRON continues from the previous weights, as liblinear's parameter
// search does.
func warmTRON(prob *Problem, p Params, prev *warmStart) *warmStart {
	var init []float64
	if prev != nil {
		init = prev.w
	}
	w, why := tron(prob, p, init)
	return &warmStart{c: p.C, w: w, why: why}
}

// newTRONObjective returns the primal objective of -s 0 or -s 2 on the ±1
// problem prob.
func newTRONObjective(prob *Problem, p Params) tronObjective {
	d := newDesign(prob)
	base := primalLoss{d: d, y: prob.Y, cost: classCosts(prob.Y, p), z: make([]float64, d.rows), h: make([]float64, d.rows)}
	if p.Solver == L2RL2LossSVC {
		return &sqHingeObjective{base}
	}
	return &logisticObjective{base}
}

// tron minimises the objective of p.Solver on the ±1 problem prob from init
// (nil: w = 0) and says why it stopped: the gradient test met, machine
// precision met short of it, the iteration cap, or numerically stuck.
func tron(prob *Problem, p Params, init []float64) ([]float64, stop) {
	p = p.withDefaults()
	eps, maxIter := p.Eps, p.maxIter()
	var pos int
	for _, v := range prob.Y {
		if v > 0 {
			pos++
		}
	}
	l := len(prob.Y)
	tol := eps * float64(max(min(pos, l-pos), 1)) / float64(l)
	epsCG := tronEpsCG
	if init != nil {
		epsCG = tronEpsCGWarm
	}
	obj := newTRONObjective(prob, p)
	n := weightLen(prob)
	w := make([]float64, n)
	g := make([]float64, n)

	obj.fun(w)
	obj.grad(w, g)
	gnorm0 := floats.Norm(g, 2)
	if init != nil {
		copy(w, init)
	}
	if !finiteReference(gnorm0) {
		// The gradient at 0 overflows (values whose products with the
		// labels' weights sum beyond float64): the stopping rule, relative
		// to it, can neither hold nor fail, and every step's model is NaN.
		return w, stopStuck
	}
	f := obj.fun(w)
	obj.grad(w, g)
	if floats.Norm(g, 2) <= tol*gnorm0 {
		return w, stopConverged
	}

	t := &trustRegion{obj: obj, epsCG: epsCG, s: make([]float64, n), r: make([]float64, n),
		m: make([]float64, n), d: make([]float64, n), hd: make([]float64, n), z: make([]float64, n)}
	t.setPrecond()
	delta := math.Sqrt(t.uMv(g, g))
	wNew := make([]float64, n)
	deltaAdjusted := false
	for iter := 1; iter <= maxIter; {
		if prob.stopped() {
			return w, stopMaxIter
		}
		reachBoundary := t.cg(delta, g)
		floats.AddTo(wNew, w, t.s)
		gs := floats.Dot(g, t.s)
		prered := -0.5 * (gs - floats.Dot(t.s, t.r))
		fNew := obj.fun(wNew)
		actred := f - fNew

		sMnorm := math.Sqrt(t.uMv(t.s, t.s))
		if iter == 1 && !deltaAdjusted {
			delta = min(delta, sMnorm)
			deltaAdjusted = true
		}
		var alpha float64
		if fNew-f-gs <= 0 {
			alpha = tronSigma3
		} else {
			alpha = max(tronSigma1, -0.5*(gs/(fNew-f-gs)))
		}
		switch {
		case actred < tronEta0*prered:
			delta = min(alpha*sMnorm, tronSigma2*delta)
		case actred < tronEta1*prered:
			delta = max(tronSigma1*delta, min(alpha*sMnorm, tronSigma2*delta))
		case actred < tronEta2*prered:
			delta = max(tronSigma1*delta, min(alpha*sMnorm, tronSigma3*delta))
		case reachBoundary:
			delta = tronSigma3 * delta
		default:
			delta = max(delta, min(alpha*sMnorm, tronSigma3*delta))
		}

		if actred > tronEta0*prered {
			iter++
			copy(w, wNew)
			f = fNew
			obj.grad(w, g)
			t.setPrecond()
			if floats.Norm(g, 2) <= tol*gnorm0 {
				return w, stopConverged
			}
		}
		if !(prered > 0) || math.IsNaN(actred) {
			// No model decrease is possible, or the model or the objective
			// is NaN (values whose squares overflow): numerically stuck.
			// liblinear's test, prered <= 0, is false for NaN, and so no
			// step is ever accepted and the iteration count never grows.
			return w, stopStuck
		}
		if math.Abs(actred) <= 1e-12*math.Abs(f) && math.Abs(prered) <= 1e-12*math.Abs(f) {
			// Converged to machine precision, short of the gradient test
			// (liblinear warns "actred and prered too small").
			return w, stopPrecision
		}
	}
	return w, stopMaxIter
}

// trustRegion holds TRON's work vectors for the preconditioned CG.
type trustRegion struct {
	obj   tronObjective
	epsCG float64
	s, r  []float64 // step and residual −(g + Hs)
	m     []float64 // preconditioner diagonal
	d, hd []float64 // CG direction and H times it
	z     []float64 // preconditioned residual
}

// setPrecond computes the preconditioner at the current point, mixed with
// the identity as liblinear does.
func (t *trustRegion) setPrecond() {
	t.obj.precond(t.m)
	for i, v := range t.m {
		t.m[i] = (1 - tronAlphaPCG) + tronAlphaPCG*v
	}
}

// uMv returns uᵀ diag(m) v.
func (t *trustRegion) uMv(u, v []float64) float64 {
	var s float64
	for i, x := range u {
		s += x * t.m[i] * v[i]
	}
	return s
}

// cg approximately minimises the quadratic model gᵀs + ½sᵀHs within the
// trust region ||s||_M ≤ delta by preconditioned conjugate gradient, leaving
// the step in t.s and the residual in t.r. It reports whether the step
// reached the boundary.
func (t *trustRegion) cg(delta float64, g []float64) bool {
	n := len(g)
	for i := range n {
		t.s[i] = 0
		t.r[i] = -g[i]
		t.z[i] = t.r[i] / t.m[i]
		t.d[i] = t.z[i]
	}
	zTr := floats.Dot(t.z, t.r)
	cgtol := t.epsCG * math.Sqrt(zTr)
	maxCG := max(n, 5)
	for it := 0; it < maxCG && math.Sqrt(zTr) > cgtol; it++ {
		t.obj.hv(t.d, t.hd)
		alpha := zTr / floats.Dot(t.d, t.hd)
		floats.AddScaled(t.s, alpha, t.d)
		if math.Sqrt(t.uMv(t.s, t.s)) > delta {
			// Back up and move to the boundary along d.
			floats.AddScaled(t.s, -alpha, t.d)
			sMd := t.uMv(t.s, t.d)
			sMs := t.uMv(t.s, t.s)
			dMd := t.uMv(t.d, t.d)
			dsq := delta * delta
			rad := math.Sqrt(sMd*sMd + dMd*(dsq-sMs))
			if sMd >= 0 {
				alpha = (dsq - sMs) / (sMd + rad)
			} else {
				alpha = (rad - sMd) / dMd
			}
			floats.AddScaled(t.s, alpha, t.d)
			floats.AddScaled(t.r, -alpha, t.hd)
			return true
		}
		floats.AddScaled(t.r, -alpha, t.hd)
		for i := range n {
			t.z[i] = t.r[i] / t.m[i]
		}
		zTrNew := floats.Dot(t.z, t.r)
		beta := zTrNew / zTr
		for i := range n {
			t.d[i] = t.z[i] + beta*t.d[i]
		}
		zTr = zTrNew
	}
	return false
}

// primalLoss is the data part shared by the primal objectives: the rows,
// the ±1 labels, the costs C_i, the last margins z_i = wᵀx_i and a per-row
// curvature h_i of the loss at them.
type primalLoss struct {
	d    *design
	y    []float64
	cost []float64
	z    []float64
	h    []float64
}

// margins sets z to Xw and returns ½||w||².
func (pl *primalLoss) margins(w []float64) float64 {
	for i := range pl.z {
		pl.z[i] = pl.d.dot(i, w)
	}
	return 0.5 * floats.Dot(w, w)
}

// hv sets hs = s + Xᵀ diag(h) X s.
func (pl *primalLoss) hv(s, hs []float64) {
	copy(hs, s)
	for i, hi := range pl.h {
		if hi != 0 {
			pl.d.axpy(i, hi*pl.d.dot(i, s), hs)
		}
	}
}

// precond sets m to the diagonal of I + Xᵀ diag(h) X.
func (pl *primalLoss) precond(m []float64) {
	for j := range m {
		m[j] = 1
	}
	d := pl.d
	for i, hi := range pl.h {
		if hi == 0 {
			continue
		}
		d.addSquares(i, hi, m)
	}
}

// logisticObjective is ½||w||² + Σ C_i log(1 + exp(−y_i wᵀx_i)).
type logisticObjective struct{ primalLoss }

func (o *logisticObjective) fun(w []float64) float64 {
	f := o.margins(w)
	for i, z := range o.z {
		f += o.cost[i] * logOnePlusExpNeg(o.y[i]*z)
	}
	return f
}

func (o *logisticObjective) grad(w, g []float64) {
	copy(g, w)
	for i, z := range o.z {
		sigma := 1 / (1 + math.Exp(-o.y[i]*z)) // σ(y_i z_i)
		o.h[i] = o.cost[i] * sigma * (1 - sigma)
		o.d.axpy(i, o.cost[i]*(sigma-1)*o.y[i], g)
	}
}

// sqHingeObjective is ½||w||² + Σ C_i max(0, 1 − y_i wᵀx_i)².
type sqHingeObjective struct{ primalLoss }

func (o *sqHingeObjective) fun(w []float64) float64 {
	f := o.margins(w)
	for i, z := range o.z {
		if m := 1 - o.y[i]*z; m > 0 {
			f += o.cost[i] * m * m
		}
	}
	return f
}

func (o *sqHingeObjective) grad(w, g []float64) {
	copy(g, w)
	for i, z := range o.z {
		o.h[i] = 0
		if o.y[i]*z < 1 {
			o.h[i] = 2 * o.cost[i]
			o.d.axpy(i, 2*o.cost[i]*(z-o.y[i]), g)
		}
	}
}

// logOnePlusExpNeg returns log(1 + e^{−t}) without overflow.
func logOnePlusExpNeg(t float64) float64 {
	if t >= 0 {
		return math.Log1p(math.Exp(-t))
	}
	return -t + math.Log1p(math.Exp(t))
}

// Constants of the dual logistic solver (liblinear's values).
const (
	lrDualDefaultMaxIter = 1000
	lrDualMaxInner       = 100  // Newton steps per sub-problem
	lrDualInnerEps       = 1e-2 // initial sub-problem tolerance
	lrDualEta            = 0.1  // shrink factor when a Newton step leaves (0, C)
)

// lrDual runs the dual coordinate descent of -s 7 from alpha0 (nil: α_i =
// min(0.001·C_i, 1e-8), liblinear's start), visiting the coordinates in
// orders drawn from rng. It returns w, α and why it stopped: converged
// when the stopping rule was met within MaxIter outer iterations; stuck, at
// its start, when a start min(0.001·C_i, 1e-8) underflows to 0 (C_i below
// about 5e-321): α_i must stay inside (0, C_i), and at 0 the objective's
// log α_i is −Inf, which made the weights NaN; and, at its start too, when
// a row's squared norm x_iᵀx_i overflows (features near 1e155): the
// sub-problem's derivative a·(z − z₀) is then Inf·0, NaN, no step is
// taken, and the NaN violation hid the stop as the iteration cap
// (liblinear's weights are NaN there), as the dual SVM solvers do.
func lrDual(prob *Problem, p Params, alpha0 []float64, rng shuffler) (w, alpha []float64, why stop) {
	p, maxIter, d, cost := dualStart(prob, p)
	eps, l, y := p.Eps, d.rows, prob.Y
	innerEpsMin := min(1e-8, eps)
	innerEps := lrDualInnerEps

	// alpha[i] is α_i; its complement C_i − α_i is kept separately in beta
	// so that both stay accurate near the bounds.
	alpha = make([]float64, l)
	beta := make([]float64, l)
	xx := make([]float64, l)
	w = make([]float64, d.n)
	stuck := false // a start that underflows to 0, or an Inf x_iᵀx_i: no step is possible
	for i := range l {
		a := min(0.001*cost[i], 1e-8)
		if alpha0 != nil && alpha0[i] > 0 && alpha0[i] < cost[i] {
			a = alpha0[i]
		}
		alpha[i], beta[i] = a, cost[i]-a
		xx[i] = d.norm2(i)
		stuck = stuck || a == 0 && cost[i] > 0 || math.IsInf(xx[i], 1)
		d.axpy(i, y[i]*a, w)
	}
	if stuck {
		return w, alpha, stopStuck
	}
	index := make([]int, l)
	for i := range index {
		index[i] = i
	}
	for iter := 0; iter < maxIter; iter++ {
		if prob.stopped() {
			break
		}
		shuffle(rng, index)
		newtonIter := 0
		var gMax float64
		for _, i := range index {
			yi, c := y[i], cost[i]
			a, b := xx[i], yi*d.dot(i, w)
			// Minimise over z = α_i (sign = 1) or z = C_i − α_i
			// (sign = −1), whichever is the smaller side:
			// g(z) = z log z + (C−z) log(C−z) + ½a(z−z₀)² + sign·b(z−z₀).
			zOld, sign := alpha[i], 1.0
			if 0.5*a*(beta[i]-alpha[i])+b < 0 {
				zOld, sign = beta[i], -1
			}
			z := zOld
			if c-z < 0.5*c {
				z *= 0.1
			}
			gp := a*(z-zOld) + sign*b + math.Log(z/(c-z))
			gMax = max(gMax, math.Abs(gp))
			inner := 0
			for ; inner <= lrDualMaxInner && math.Abs(gp) >= innerEps; inner++ {
				gpp := a + c/(c-z)/z
				if tmp := z - gp/gpp; tmp <= 0 {
					z *= lrDualEta
				} else {
					z = tmp
				}
				gp = a*(z-zOld) + sign*b + math.Log(z/(c-z))
				newtonIter++
			}
			if inner > 0 {
				if sign > 0 {
					alpha[i], beta[i] = z, c-z
				} else {
					alpha[i], beta[i] = c-z, z
				}
				d.axpy(i, sign*(z-zOld)*yi, w)
			}
		}
		if gMax < eps {
			return w, alpha, stopConverged
		}
		if newtonIter <= l/10 {
			innerEps = max(innerEpsMin, 0.1*innerEps)
		}
	}
	return w, alpha, stopMaxIter
}
