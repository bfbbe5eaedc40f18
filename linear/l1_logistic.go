package linear

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/greedytl/greedytl/inputcheck"
)

// L1-regularised logistic regression (L1R_LR, liblinear -s 6):
//
//	min_w ||w||₁ + Σ_i C_i log(1 + exp(−y_i wᵀx_i)),
//
// C_i = C·WeightPos for y_i = +1 and C·WeightNeg for y_i = −1, solved by
// newGLMNET (Yuan, Ho and Lin, "An improved GLMNET for L1-regularized
// logistic regression", JMLR 2012), the algorithm of liblinear's
// solve_l1r_lr: each outer (Newton) step minimises a quadratic model of the
// loss plus the exact L1 term by coordinate descent over a randomly permuted,
// shrinking working set, then backtracks along the resulting direction
// (Armijo rule). The bias feature (Problem.Bias > 0) is an ordinary column
// and is regularised, as in the installed liblinear 2.3; liblinear ≥ 2.40
// leaves it unregularised for -s 5 and 6 by default, so models of those
// versions differ.
//
// Stopping rule (liblinear's): stop when
//
//	Σ_j |∇^S_j F(w)| ≤ ε · max(min(#pos, #neg), 1)/l · Σ_j |∇^S_j F(0)|,
//
// ∇^S the minimum-norm subgradient, ε = Params.Eps (default 0.01). The
// reference is always the subgradient at w = 0, also under a warm start, so
// that the solution's accuracy does not depend on the starting point. The
// solver also stops, as converged, when the line search finds no decrease
// and the predicted one is at most 1e-12·(1 + F(w)) (the floating-point
// floor), and as not converged after Params.MaxIter Newton steps (default
// 100) or, as numerically stuck (Model.Stuck), when the line search fails
// otherwise, when ten Newton steps in a row move no coordinate (liblinear's rule, which
// calls it convergence: every step is then below 1e-12, an absolute floor
// that weights near 1e-150, of features near 1e150, never pass) or, at
// once, when a derivative at 0 may overflow float64 (atZero) or
// the reference does (finiteReference).
//
// Beware that the rule is relative to the subgradient at 0, which grows with
// C: on separable data with a large C the default ε can stop at several
// times the optimal objective (as liblinear does). ElasticNetLR with
// L1Ratio = 1 solves the same problem to a certified relative accuracy.

func init() {
	register(L1RLR, solveL1RLR)
}

// Constants of the newGLMNET-type solvers (liblinear's values, except
// lrResolution).
const (
	lrDefaultEps        = 0.01  // default stopping tolerance of L1R_LR
	lrDefaultMaxNewton  = 100   // default cap on outer (Newton) iterations
	lrMaxInner          = 1000  // cap on coordinate-descent sweeps per Newton step
	lrMaxLineSearch     = 20    // cap on step halvings per Newton step
	lrNu                = 1e-12 // added to the Hessian diagonal, keeps it positive
	lrSigma             = 0.01  // Armijo sufficient-decrease constant
	lrMinStep           = 1e-12 // coordinate moves smaller than this are skipped
	lrMaxStep           = 10.0  // a coordinate moves at most this far per update
	lrMaxQPNoChange     = 10    // stop after this many Newton steps without any coordinate move
	lrResolution        = 1e-12 // relative decrease of F (of 1 + F) at or below which a failed line search means convergence
	lrInnerEpsShrinkage = 0.25  // factor on the inner tolerance when one sweep suffices
)

// errLRNotFinite reports that the iterates of a logistic solver left the
// finite range (which happens only with absurdly large C or feature values).
var errLRNotFinite = errors.New("linear: logistic solver produced a non-finite weight; rescale the features or lower C")

// lrData is a binary logistic problem in column (CSC) form (lrColumns)
// with cost[i], the loss weight C_i of row i.
type lrData struct {
	stopped func() bool // the problem's (see Problem.ctx)
	lrColumns
	cost []float64
}

// lrColumns is the part of lrData that does not depend on the parameters:
// column j holds y_i·x_ij for the rows i with x_ij ≠ 0, so that the margin
// of row i is z_i = y_i wᵀx_i = Σ_j w_j·col_j[i]; the bias feature, if
// any, is the last column; pos and neg count the rows labelled +1 and −1.
type lrColumns struct {
	rows, cols int
	ptr        []int
	ind        []int
	val        []float64
	pos, neg   int
}

// newLRData validates prob and p for a logistic solver and builds the
// column form. Bad data (labels other than ±1, non-finite values, a malformed
// matrix) and bad parameters are errors. The column form of a solvers'
// own copy of a problem (Problem.kept) is built by its first solve and
// kept for the next (the next C), whose checks of prob it already passed.
func newLRData(prob *Problem, p Params) (*lrData, error) {
	var cols *lrColumns
	if prob != nil && prob.kept != nil {
		cols = prob.kept.lr
	}
	if cols == nil {
		if err := checkLRProblem(prob); err != nil {
			return nil, err
		}
	}
	if !inputcheck.PositiveFinite(p.C) {
		return nil, fmt.Errorf("linear: C = %v, want a finite C > 0", p.C)
	}
	wp, wn, err := lrClassWeights(p)
	if err != nil {
		return nil, err
	}
	if cols == nil {
		if cols, err = newLRColumns(prob); err != nil {
			return nil, err
		}
		if prob.kept != nil {
			prob.kept.lr = cols
		}
	}
	d := &lrData{stopped: prob.stopped, lrColumns: *cols, cost: make([]float64, cols.rows)}
	for i, y := range prob.Y {
		d.cost[i] = p.C * wn
		if y == 1 {
			d.cost[i] = p.C * wp
		}
	}
	return d, nil
}

// checkLRProblem checks the structure of prob for newLRData.
func checkLRProblem(prob *Problem) error {
	if prob == nil || prob.X == nil {
		return errors.New("linear: nil problem or feature matrix")
	}
	x := prob.X
	if err := x.Check(); err != nil {
		return fmt.Errorf("linear: %w", err)
	}
	if x.R == 0 {
		return errors.New("linear: problem has no rows")
	}
	if len(prob.Y) != x.R {
		return fmt.Errorf("linear: %d labels for %d rows", len(prob.Y), x.R)
	}
	if math.IsNaN(prob.Bias) || math.IsInf(prob.Bias, 0) {
		return fmt.Errorf("linear: bias %v is not finite", prob.Bias)
	}
	return nil
}

// newLRColumns checks the values and labels of prob (checkLRProblem's)
// and builds its column form, or returns errStopped once prob's context
// is done.
func newLRColumns(prob *Problem) (*lrColumns, error) {
	x := prob.X
	for i := range x.R {
		for k := x.Ptr[i]; k < x.Ptr[i+1]; k++ {
			if v := x.Val[k]; !inputcheck.Finite(v) {
				return nil, fmt.Errorf("linear: %w", &inputcheck.NonFiniteError{Name: "X", Row: i, Col: x.Ind[k], Value: v})
			}
		}
	}
	if prob.stopped() {
		return nil, errStopped
	}
	d := &lrColumns{rows: x.R, cols: x.C}
	for i, y := range prob.Y {
		switch y {
		case 1:
			d.pos++
		case -1:
			d.neg++
		default:
			return nil, fmt.Errorf("linear: label %v of row %d is not +1 or -1", y, i)
		}
	}
	t := x.TransposeUnless(prob.stopped)
	if t == nil {
		return nil, errStopped
	}
	d.ptr, d.ind, d.val = t.Ptr, t.Ind, t.Val
	for k, i := range d.ind {
		d.val[k] *= prob.Y[i]
	}
	if prob.stopped() {
		return nil, errStopped
	}
	if prob.Bias > 0 {
		d.cols++
		for i, y := range prob.Y {
			d.ind = append(d.ind, i)
			d.val = append(d.val, y*prob.Bias)
		}
		d.ptr = append(d.ptr, len(d.ind))
	}
	return d, nil
}

// errStopped is a solver's error when it stops because its problem's
// context is done before it could return weights (newLRData, building the
// column form); Train and trainWarm return the context's error instead.
var errStopped = errors.New("linear: stopped: the context is done")

// lrClassWeights returns the class cost multipliers (0 means 1).
func lrClassWeights(p Params) (pos, neg float64, err error) {
	pos, neg = p.WeightPos, p.WeightNeg
	if pos == 0 {
		pos = 1
	}
	if neg == 0 {
		neg = 1
	}
	if !inputcheck.PositiveFinite(pos) || !inputcheck.PositiveFinite(neg) {
		return 0, 0, fmt.Errorf("linear: class weights %v, %v must be finite and positive", p.WeightPos, p.WeightNeg)
	}
	return pos, neg, nil
}

// col returns the rows and signed values of column j.
func (d *lrData) col(j int) ([]int, []float64) {
	lo, hi := d.ptr[j], d.ptr[j+1]
	return d.ind[lo:hi], d.val[lo:hi]
}

// start returns a copy of the warm start init, or zeros when init is nil.
func (d *lrData) start(init []float64) ([]float64, error) {
	w := make([]float64, d.cols)
	if init == nil {
		return w, nil
	}
	if len(init) != d.cols {
		return nil, fmt.Errorf("linear: warm start has %d weights, want %d", len(init), d.cols)
	}
	for j, v := range init {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("linear: warm start weight %d is %v", j, v)
		}
	}
	copy(w, init)
	return w, nil
}

// margins sets z to the margins y_i wᵀx_i.
func (d *lrData) margins(w, z []float64) {
	clear(z)
	for j, wj := range w {
		if wj == 0 {
			continue
		}
		ind, val := d.col(j)
		for k, i := range ind {
			z[i] += wj * val[k]
		}
	}
}

// weights sets, for the margins z and ℓ(z) = log(1+e^{−z}), the negated
// first derivatives tau_i = C_i σ(−z_i) and the second derivatives
// dd_i = C_i σ(z_i)σ(−z_i) of the loss terms C_i ℓ(z_i).
func (d *lrData) weights(z, tau, dd []float64) {
	for i, zi := range z {
		p := 1 / (1 + math.Exp(zi))  // σ(−z)
		q := 1 / (1 + math.Exp(-zi)) // σ(z)
		tau[i] = d.cost[i] * p
		dd[i] = d.cost[i] * p * q
	}
}

// lrLogLoss returns ℓ(z) = log(1 + exp(−z)) without overflow.
func lrLogLoss(z float64) float64 {
	if z >= 0 {
		return math.Log1p(math.Exp(-z))
	}
	return -z + math.Log1p(math.Exp(z))
}

// loss returns Σ_i C_i ℓ(z_i).
func (d *lrData) loss(z []float64) float64 {
	var s float64
	for i, zi := range z {
		s += d.cost[i] * lrLogLoss(zi)
	}
	return s
}

// lossChange returns Σ_i C_i (ℓ(z_i + t·dz_i) − ℓ(z_i)), each term by
// change: lrLogLossDiff or lrLogLossChange.
func (d *lrData) lossChange(z, dz []float64, t float64, change func(z, delta float64) float64) float64 {
	var s float64
	for i, zi := range z {
		if dz[i] == 0 {
			continue
		}
		s += d.cost[i] * change(zi, t*dz[i])
	}
	return s
}

// lrLogLossDiff returns ℓ(z + δ) − ℓ(z) as the difference of the losses,
// which rounds a change below ℓ(z)'s resolution to 0.
func lrLogLossDiff(z, delta float64) float64 { return lrLogLoss(z+delta) - lrLogLoss(z) }

// lrLogLossChange returns ℓ(z + δ) − ℓ(z) as log1p(σ(−z)·expm1(−δ)),
// σ(−z) = 1/(1 + exp(z)), which keeps a change far below ℓ(z)'s
// resolution, where lrLogLossDiff rounds a δ of 1e-19 at z = 0 to 0. It
// takes the difference where that cancels nothing and the formula would
// round: where expm1(−δ) or exp(z) overflows (δ below about −709, z above
// about 709: the ratio would be 0 or NaN), and where the ratio a is below
// −1/2 (a change of more than log 2, which log1p(a) loses as a nears −1:
// −Inf at z = −40, δ = 50, for a change of −40).
func lrLogLossChange(z, delta float64) float64 {
	e, ez := math.Expm1(-delta), math.Exp(z)
	a := e / (1 + ez)
	if math.IsInf(e, 0) || math.IsInf(ez, 0) || !(a >= -0.5) {
		return lrLogLossDiff(z, delta)
	}
	return math.Log1p(a)
}

// lrPenalty returns l1·||w||₁ + l2/2·||w||² (l1·||w||₁ exactly when
// l2 = 0, even if ||w||² overflows).
func lrPenalty(w []float64, l1, l2 float64) float64 {
	var a, b float64
	for _, v := range w {
		a += math.Abs(v)
		b += v * v
	}
	if l2 == 0 {
		return l1 * a
	}
	return l1*a + l2/2*b
}

// lrViolation returns the magnitude of the minimum-norm subgradient of
// g·w_j + l1·|w_j| at w_j, g being the derivative of the smooth part.
func lrViolation(wj, g, l1 float64) float64 {
	switch {
	case wj > 0:
		return math.Abs(g + l1)
	case wj < 0:
		return math.Abs(g - l1)
	case g+l1 < 0:
		return -(g + l1)
	case g-l1 > 0:
		return g - l1
	}
	return 0
}

// atZero returns ref = Σ_j |∇^S_j F(0)|, the L1 norm of the minimum-norm
// subgradient at w = 0 (where the L2 term has no gradient; l1 the weight
// of the L1 term), the reference of the stopping rules, and reports in the
// same pass whether a derivative of the loss at 0 may overflow float64
// (ref is then not computed). k is the magnitude of the loss's derivative
// at margin 0 per unit of C_i (½ for the logistic loss, 2 for the squared
// hinge): the derivative along coordinate j at 0 is −k·Σ_i C_i·x̃_ij.
//
// It may overflow when k·Σ_i C_i·|x̃_ij| does for some column j. That
// column sum bounds |∂L/∂w_j(0)| and every partial sum of it, so that when
// it is finite for every j no derivative at 0 is ±Inf or NaN (Inf − Inf,
// whose violation, every comparison false, reads as 0: w = 0 passed for
// optimal). The solvers report a run from w = 0 whose gradient may
// overflow stuck at its start. A gradient whose derivatives are finite but
// whose sum, the reference, overflows is told by finiteReference on the
// reference itself (summing every column's bound would refuse problems
// such as heart_scale at C = 1e305, whose reference is finite).
func (d *lrData) atZero(l1, k float64) (ref float64, overflows bool) {
	for j := range d.cols {
		ind, val := d.col(j)
		var g, bound float64
		for t, i := range ind {
			ck := k * d.cost[i]
			g -= ck * val[t]
			bound += ck * math.Abs(val[t])
		}
		if !finiteReference(bound) {
			return 0, true
		}
		ref += lrViolation(0, g, l1)
	}
	return ref, false
}

// finiteReference reports whether ref, the violation of the optimality
// conditions that a primal L1 solver's stopping rule is relative to (at
// w = 0, or over the first sweep), is finite. It is not when C or the
// features are so large that the loss gradient overflows float64; the rule
// would then hold at once (Inf ≤ ε·Inf) and the start, which violates the
// conditions, would pass for converged: the solvers report such a run
// stuck instead.
func finiteReference(ref float64) bool { return ref < math.Inf(1) }

// tolerance returns liblinear's stopping threshold for the primal L1
// solvers: eps·max(min(#pos, #neg), 1)/l times the reference violation.
func (d *lrData) tolerance(eps, ref float64) float64 {
	return eps * float64(max(min(d.pos, d.neg), 1)) / float64(d.rows) * ref
}

// lrSettings resolves Eps and MaxIter defaults and rejects bad values.
func lrSettings(p Params) (eps float64, maxIter int, err error) {
	eps, maxIter = p.Eps, p.maxIter()
	if eps == 0 {
		eps = lrDefaultEps
	}
	if !inputcheck.PositiveFinite(eps) {
		return 0, 0, fmt.Errorf("linear: Eps = %v, want a finite Eps ≥ 0", p.Eps)
	}
	if maxIter < 0 {
		return 0, 0, fmt.Errorf("linear: MaxIter = %d, want ≥ 0", p.MaxIter)
	}
	return eps, maxIter, nil
}

// lrFinite returns errLRNotFinite when w holds NaN or ±Inf.
func lrFinite(w []float64) error {
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errLRNotFinite
		}
	}
	return nil
}

// lrStartRule is what a primal L1 solver checks at w = 0 before its first
// step (lrSetup).
type lrStartRule struct {
	l1 float64 // the weight of the L1 term (atZero's l1)
	k  float64 // the loss's derivative at margin 0 per unit of C_i (atZero's k)
	// relative: the stopping rule is relative to the reference, which must
	// then be finite (finiteReference), else the run is stuck at its start.
	relative bool
	// exitAtZero: a reference of 0 means that w = 0 satisfies the
	// optimality conditions exactly; it is returned, converged, whatever
	// the start.
	exitAtZero bool
}

// lrRun is a primal L1 solver's run as lrSetup prepares it.
type lrRun struct {
	d       *lrData
	eps     float64   // the stopping tolerance (lrSettings)
	maxIter int       // the iteration cap (lrSettings)
	w       []float64 // the start (init, or zeros); the result when lrSetup is done
	ref     float64   // Σ_j |∇^S_j F(0)| (atZero)
}

// lrSetup validates and prepares a primal L1 solver's run: the column
// form of prob, the stopping tolerance and iteration cap of p (lrSettings),
// the starting point (init, or zeros) and the reference at w = 0 (atZero),
// and says whether the run ends before its first step, done with r.w and
// why its result: when prob or p is refused (err, r.w nil); stuck at the
// start when a derivative of the loss at 0 may overflow float64 (atZero)
// or, for a rule relative to the reference, the reference does; at w = 0,
// converged, when rule.exitAtZero and the reference is 0. It is the one
// owner of these tests for L1R_LR, L1R_L2LOSS_SVC and ElasticNetLR.
func lrSetup(prob *Problem, p Params, init []float64, rule lrStartRule) (r lrRun, why stop, done bool, err error) {
	if r.d, err = newLRData(prob, p); err != nil {
		return lrRun{}, stopStuck, true, err
	}
	if r.eps, r.maxIter, err = lrSettings(p); err != nil {
		return lrRun{}, stopStuck, true, err
	}
	if r.w, err = r.d.start(init); err != nil {
		return lrRun{}, stopStuck, true, err
	}
	ref, overflows := r.d.atZero(rule.l1, rule.k)
	r.ref = ref
	switch {
	case overflows || rule.relative && !finiteReference(ref):
		return r, stopStuck, true, nil
	case rule.exitAtZero && ref == 0:
		r.w = make([]float64, r.d.cols)
		return r, stopConverged, true, nil
	}
	return r, stopMaxIter, false, nil
}

// solveL1RLR trains L1R_LR by newGLMNET; see the comment at the top of the
// file for the objective and the stopping rule.
func solveL1RLR(prob *Problem, p Params, init []float64) ([]float64, stop, error) {
	r, why, done, err := lrSetup(prob, p, init, lrStartRule{l1: 1, k: 0.5, relative: true, exitAtZero: true})
	if done {
		return r.w, why, err
	}
	s := newL1LRSolver(r.d, r.w, p.Seed)
	why = s.run(r.d.tolerance(r.eps, r.ref), r.ref, r.maxIter)
	if err := lrFinite(s.w); err != nil {
		return nil, stopMaxIter, err
	}
	return s.w, why, nil
}

// lrNewton is the state the newGLMNET-type solvers (L1R_LR and
// ElasticNetLR) share for the objective L(w) + l1·||w||₁ + l2/2·||w||²:
// the iterate, the trial point of the quadratic model of L, and what the
// model is built from.
type lrNewton struct {
	d      *lrData
	l1, l2 float64
	w      []float64 // current iterate
	wpd    []float64 // w + d, the trial point of the quadratic model
	full   []float64 // wpd before the line search halves it (lineSearch's second pass)
	grad   []float64 // ∇L(w) (loss part)
	hdiag  []float64 // diagonal of ∇²L(w) + ν
	z      []float64 // margins at w
	tau    []float64 // C_i σ(−z_i)
	dd     []float64 // C_i σ(z_i)σ(−z_i), the working weights
	xTd    []float64 // margins' change X̃·(wpd − w)
}

func newLRNewton(d *lrData, w []float64, l1, l2 float64) lrNewton {
	s := lrNewton{
		d:     d,
		l1:    l1,
		l2:    l2,
		w:     w,
		wpd:   make([]float64, d.cols),
		full:  make([]float64, d.cols),
		grad:  make([]float64, d.cols),
		hdiag: make([]float64, d.cols),
		z:     make([]float64, d.rows),
		tau:   make([]float64, d.rows),
		dd:    make([]float64, d.rows),
		xTd:   make([]float64, d.rows),
	}
	d.margins(w, s.z)
	d.weights(s.z, s.tau, s.dd)
	return s
}

// derivatives sets grad[j] and hdiag[j], the first and (plus ν) second
// derivative of L along coordinate j at w, and returns grad[j].
func (s *lrNewton) derivatives(j int) float64 {
	ind, val := s.d.col(j)
	h, g := lrNu, 0.0
	for t, i := range ind {
		v := val[t]
		h += v * v * s.dd[i]
		g -= v * s.tau[i]
	}
	s.hdiag[j], s.grad[j] = h, g
	return g
}

// modelGrad returns the derivative along coordinate j of the quadratic
// model of L at wpd, plus extra (the derivative of a smooth penalty term).
func (s *lrNewton) modelGrad(j int, extra float64) float64 {
	ind, val := s.d.col(j)
	g := s.grad[j] + (s.wpd[j]-s.w[j])*lrNu + extra
	for t, i := range ind {
		g += val[t] * s.dd[i] * s.xTd[i]
	}
	return g
}

// move adds step to wpd[j], keeping xTd current.
func (s *lrNewton) move(j int, step float64) {
	s.wpd[j] += step
	ind, val := s.d.col(j)
	for t, i := range ind {
		s.xTd[i] += val[t] * step
	}
}

// lineSearch backtracks from wpd towards w until the Armijo condition
// F(w + t·d) − F(w) ≤ σ·t·(∇L(w)ᵀd + P(w+d) − P(w)) holds (P the penalty),
// then moves w there. It measures the loss change by the difference of
// the losses (lrLogLossDiff) and, only when no step passes so, backtracks
// again from wpd measuring it exactly (lrLogLossChange): the difference
// rounds the change of a step on features near 1e-20 with C near 1e21 to
// 0, so that no decrease showed where the step made one, and L1R_LR and
// ElasticNetLR stopped at w = 0 as converged (lrNoStep). Where the
// difference passes, the steps are those it always took.
func (s *lrNewton) lineSearch() lrStep {
	d := s.d
	var delta float64
	for j, wj := range s.w {
		delta += s.grad[j] * (s.wpd[j] - wj)
	}
	pw := lrPenalty(s.w, s.l1, s.l2)
	delta += lrPenalty(s.wpd, s.l1, s.l2) - pw
	copy(s.full, s.wpd)
	if s.backtrack(delta, pw, lrLogLossDiff) {
		return lrStepAccepted
	}
	copy(s.wpd, s.full)
	if s.backtrack(delta, pw, lrLogLossChange) {
		return lrStepAccepted
	}
	return lrNoStep(d, s.z, s.w, s.l1, s.l2, delta)
}

// backtrack halves the step from wpd towards w, at most lrMaxLineSearch
// times, until the Armijo condition holds by the loss change that change
// measures; then it moves w there and reports true.
func (s *lrNewton) backtrack(delta, pw float64, change func(z, delta float64) float64) bool {
	d := s.d
	t := 1.0
	for range lrMaxLineSearch {
		diff := lrPenalty(s.wpd, s.l1, s.l2) - pw + d.lossChange(s.z, s.xTd, t, change)
		if diff <= lrSigma*t*delta {
			copy(s.w, s.wpd)
			for i := range s.z {
				s.z[i] += t * s.xTd[i]
			}
			d.weights(s.z, s.tau, s.dd)
			return true
		}
		t /= 2
		for j, wj := range s.w {
			s.wpd[j] = wj + (s.wpd[j]-wj)/2
		}
	}
	return false
}

// l1lrSolver holds newGLMNET's state for one L1R_LR problem (l1 = 1,
// l2 = 0).
type l1lrSolver struct {
	lrNewton
	rng   *rand.Rand
	index []int // permutation of the columns; the working set is a prefix
}

func newL1LRSolver(d *lrData, w []float64, seed uint64) *l1lrSolver {
	s := &l1lrSolver{
		lrNewton: newLRNewton(d, w, 1, 0),
		rng:      rand.New(rand.NewPCG(seed, seed)),
		index:    make([]int, d.cols),
	}
	for j := range s.index {
		s.index[j] = j
	}
	return s
}

// run performs Newton steps until the violation is at most tol (ref is the
// violation at w = 0, scaling the inner tolerance) or maxNewton steps are
// done, and says why it stopped.
func (s *l1lrSolver) run(tol, ref float64, maxNewton int) stop {
	d := s.d
	l := float64(d.rows)
	gmaxOld := math.Inf(1)
	innerEps := 1.0
	qpNoChange := 0
	for newton := 0; newton < maxNewton; newton++ {
		if d.stopped() {
			return stopMaxIter
		}
		// Gradient, Hessian diagonal and violation; outer shrinking drops
		// zero weights that sit well inside their optimality interval.
		var gmax, gnorm1 float64
		active := d.cols
		for k := 0; k < active; k++ {
			j := s.index[k]
			g := s.derivatives(j)
			if s.w[j] == 0 && g+1 > gmaxOld/l && g-1 < -gmaxOld/l {
				active--
				s.index[k], s.index[active] = s.index[active], s.index[k]
				k--
				continue
			}
			v := lrViolation(s.w[j], g, 1)
			gmax = max(gmax, v)
			gnorm1 += v
		}
		if gnorm1 <= tol {
			return stopConverged
		}
		if qpNoChange >= lrMaxQPNoChange {
			// liblinear's rule takes this for convergence; but every
			// step was below lrMinStep, an absolute floor, with the
			// stopping rule unmet: weights that small (features near
			// 1e150) the solver cannot reach.
			return stopStuck
		}
		qpNoChange++

		sweeps, moved := s.innerCD(active, innerEps*ref)
		if moved {
			qpNoChange = 0
		}
		if sweeps == 1 {
			innerEps *= lrInnerEpsShrinkage
		}
		switch s.lineSearch() {
		case lrStepFailed:
			return stopStuck
		case lrStepAtResolution:
			return stopConverged
		}
		gmaxOld = gmax
	}
	return stopMaxIter
}

// innerCD minimises the quadratic model over wpd by randomly permuted
// coordinate descent with inner shrinking, starting from wpd = w. It returns
// the number of sweeps and whether any coordinate moved.
func (s *l1lrSolver) innerCD(active int, tol float64) (sweeps int, moved bool) {
	d := s.d
	l := float64(d.rows)
	copy(s.wpd, s.w)
	clear(s.xTd)
	qpActive := active
	qpGmaxOld := math.Inf(1)
	for sweeps < lrMaxInner {
		var qpGmax, qpGnorm1 float64
		for k := 0; k < qpActive; k++ {
			r := k + s.rng.IntN(qpActive-k)
			s.index[k], s.index[r] = s.index[r], s.index[k]
		}
		for k := 0; k < qpActive; k++ {
			j := s.index[k]
			h := s.hdiag[j]
			g := s.modelGrad(j, 0)
			wj := s.wpd[j]
			if wj == 0 && g+1 > qpGmaxOld/l && g-1 < -qpGmaxOld/l {
				qpActive--
				s.index[k], s.index[qpActive] = s.index[qpActive], s.index[k]
				k--
				continue
			}
			viol := lrViolation(wj, g, 1)
			// Minimise g·δ + h/2·δ² + |wj + δ| over δ.
			var step float64
			switch {
			case g+1 < h*wj:
				step = -(g + 1) / h
			case g-1 > h*wj:
				step = -(g - 1) / h
			default:
				step = -wj
			}
			if math.Abs(step) < lrMinStep {
				continue
			}
			step = min(max(step, -lrMaxStep), lrMaxStep)
			moved = true
			qpGmax = max(qpGmax, viol)
			qpGnorm1 += viol
			s.move(j, step)
		}
		sweeps++
		if qpGnorm1 <= tol {
			if qpActive == active {
				break
			}
			// Reactivate the inner working set and verify.
			qpActive = active
			qpGmaxOld = math.Inf(1)
			continue
		}
		qpGmaxOld = qpGmax
	}
	return sweeps, moved
}

// lrStep is the outcome of a line search.
type lrStep int

const (
	lrStepAccepted     lrStep = iota // a step was taken
	lrStepAtResolution               // no step: the predicted decrease is below F's floating-point resolution
	lrStepFailed                     // no step although a decrease was predicted
)

// lrNoStep classifies a failed line search: when the predicted decrease
// −delta is at most lrResolution·(1 + F(w)) the iterate is optimal to
// machine precision (the Armijo test only sees rounding noise).
func lrNoStep(d *lrData, z, w []float64, l1, l2, delta float64) lrStep {
	if -delta <= lrResolution*(1+d.loss(z)+lrPenalty(w, l1, l2)) {
		return lrStepAtResolution
	}
	return lrStepFailed
}
