package linear

import "math"

// L1-regularised squared-hinge SVM (L1R_L2LOSS_SVC, liblinear -s 5):
//
//	min_w ||w||₁ + Σ_i C_i max(0, 1 − y_i wᵀx_i)²,
//
// C_i = C·WeightPos for y_i = +1 and C·WeightNeg for y_i = −1, solved by
// coordinate descent with a Newton direction and a line search per
// coordinate (Yuan, Chang, Hsieh and Lin, "A comparison of optimization
// methods and software for large-scale L1-regularized linear
// classification", JMLR 2010), the algorithm of liblinear's
// solve_l1r_l2_svc: the coordinates are visited in a random order each
// sweep, and those that sit at 0 well inside their optimality interval are
// set aside (shrinking) until the sweep's tolerance is met on the others,
// when every coordinate is checked again. The bias feature (Problem.Bias >
// 0) is an ordinary column and is regularised, as in the installed
// liblinear 2.3 (liblinear ≥ 2.40 leaves it unregularised by default).
//
// Stopping rule (liblinear's): stop when the sum over a sweep of the
// coordinates' minimum-norm subgradients is at most
// ε·max(min(#pos, #neg), 1)/l times that of the first sweep, ε = Params.Eps
// (default 0.01), with every coordinate active; or, as not converged, after
// Params.MaxIter sweeps (default 1000, liblinear's cap), or as numerically
// stuck (Model.Stuck) at once when the loss gradient at 0 may overflow
// float64 (atZero), or after the first sweep when its sum
// overflows (finiteReference: a warm start's gradient).

func init() {
	register(L1RL2LossSVC, solveL1RL2SVC)
}

// Constants of solve_l1r_l2_svc (liblinear's values).
const (
	l1svcMaxIter       = 1000  // default cap on sweeps
	l1svcMaxLineSearch = 20    // cap on step halvings per coordinate
	l1svcSigma         = 0.01  // sufficient-decrease constant of the line search
	l1svcMinHessian    = 1e-12 // floor of the coordinate's second derivative
	l1svcMinStep       = 1e-12 // coordinate moves smaller than this are skipped
)

// solveL1RL2SVC trains L1R_L2LOSS_SVC; see the comment at the top of the
// file.
func solveL1RL2SVC(prob *Problem, p Params, init []float64) ([]float64, stop, error) {
	// The rule is relative to the first sweep's violations (run), not to
	// the reference at 0.
	r, why, done, err := lrSetup(prob, p, init, lrStartRule{l1: 1, k: 2})
	if done {
		return r.w, why, err
	}
	d, w := r.d, r.w
	s := newL1SVC(d, w)
	why = s.run(d.tolerance(r.eps, 1), r.maxIter, newShuffler(p.Seed))
	if err := lrFinite(w); err != nil {
		return nil, stopMaxIter, err
	}
	return w, why, nil
}

// l1svc is the state of solve_l1r_l2_svc.
type l1svc struct {
	d     *lrData
	w     []float64
	b     []float64 // b_i = 1 − y_i wᵀx_i
	xjSq  []float64 // Σ_i C_i x̃_ij², the curvature bound of coordinate j
	index []int
}

func newL1SVC(d *lrData, w []float64) *l1svc {
	s := &l1svc{d: d, w: w, b: make([]float64, d.rows), xjSq: make([]float64, d.cols), index: make([]int, d.cols)}
	s.resetMargins()
	for j := range d.cols {
		s.index[j] = j
		ind, val := d.col(j)
		for k, i := range ind {
			s.xjSq[j] += d.cost[i] * val[k] * val[k]
		}
	}
	return s
}

// resetMargins recomputes b = 1 − X̃w from w.
func (s *l1svc) resetMargins() {
	for i := range s.b {
		s.b[i] = 1
	}
	for j, wj := range s.w {
		if wj == 0 {
			continue
		}
		ind, val := s.d.col(j)
		for k, i := range ind {
			s.b[i] -= wj * val[k]
		}
	}
}

// l1svcCheckEvery is the number of columns a sweep of run visits between
// two checks of the problem's context.
const l1svcCheckEvery = 32

// run sweeps until the stopping rule (relative tolerance eps) holds or
// maxIter sweeps are done, and says why it stopped: stuck after the first
// sweep when its sum of violations, which the rule is relative to,
// overflows float64 (a C or features so large that the loss gradient
// does: no rule could hold but by Inf ≤ ε·Inf).
func (s *l1svc) run(eps float64, maxIter int, rng shuffler) stop {
	d, w, b := s.d, s.w, s.b
	active := d.cols
	gmaxOld := math.Inf(1)
	gnorm1Init := -1.0
	for iter := 0; iter < maxIter; {
		if d.stopped() {
			return stopMaxIter
		}
		gmaxNew, gnorm1New := 0.0, 0.0
		shuffle(rng, s.index[:active])
		for k := 0; k < active; k++ {
			if k%l1svcCheckEvery == l1svcCheckEvery-1 && d.stopped() {
				return stopMaxIter // a sweep of a tall problem takes a tenth of a second
			}
			j := s.index[k]
			ind, val := d.col(j)
			var gLoss, h float64
			for t, i := range ind {
				if b[i] > 0 {
					tmp := d.cost[i] * val[t]
					gLoss -= tmp * b[i]
					h += tmp * val[t]
				}
			}
			gLoss *= 2
			g := gLoss
			h = math.Max(2*h, l1svcMinHessian)

			gp, gn := g+1, g-1
			violation := 0.0
			switch {
			case w[j] == 0:
				switch {
				case gp < 0:
					violation = -gp
				case gn > 0:
					violation = gn
				case gp > gmaxOld/float64(d.rows) && gn < -gmaxOld/float64(d.rows):
					active--
					s.index[k], s.index[active] = s.index[active], s.index[k]
					k--
					continue
				}
			case w[j] > 0:
				violation = math.Abs(gp)
			default:
				violation = math.Abs(gn)
			}
			gmaxNew = math.Max(gmaxNew, violation)
			gnorm1New += violation

			// The Newton direction of the coordinate's quadratic model
			// plus |w_j|.
			var dir float64
			switch {
			case gp < h*w[j]:
				dir = -gp / h
			case gn > h*w[j]:
				dir = -gn / h
			default:
				dir = -w[j]
			}
			if math.Abs(dir) < l1svcMinStep {
				continue
			}
			s.lineSearch(j, dir, g, gLoss)
		}
		if iter == 0 {
			gnorm1Init = gnorm1New
			if !finiteReference(gnorm1Init) {
				return stopStuck
			}
		}
		iter++
		if gnorm1New <= eps*gnorm1Init {
			if active == d.cols {
				return stopConverged
			}
			active = d.cols
			gmaxOld = math.Inf(1)
			continue
		}
		gmaxOld = gmaxNew
	}
	return stopMaxIter
}

// lineSearch moves coordinate j along dir, halving the step until the
// objective decreases enough (liblinear's rule, with its cheap upper bound
// tried first), and updates b.
func (s *l1svc) lineSearch(j int, dir, g, gLoss float64) {
	d, w, b := s.d, s.w, s.b
	ind, val := d.col(j)
	delta := math.Abs(w[j]+dir) - math.Abs(w[j]) + g*dir
	dOld := 0.0
	var lossOld, lossNew float64
	n := 0
	for ; n < l1svcMaxLineSearch; n++ {
		dDiff := dOld - dir
		cond := math.Abs(w[j]+dir) - math.Abs(w[j]) - l1svcSigma*delta
		if s.xjSq[j]*dir*dir+gLoss*dir+cond <= 0 {
			for t, i := range ind {
				b[i] += dDiff * val[t]
			}
			break
		}
		if n == 0 {
			lossOld, lossNew = 0, 0
			for t, i := range ind {
				if b[i] > 0 {
					lossOld += d.cost[i] * b[i] * b[i]
				}
				bNew := b[i] + dDiff*val[t]
				b[i] = bNew
				if bNew > 0 {
					lossNew += d.cost[i] * bNew * bNew
				}
			}
		} else {
			lossNew = 0
			for t, i := range ind {
				bNew := b[i] + dDiff*val[t]
				b[i] = bNew
				if bNew > 0 {
					lossNew += d.cost[i] * bNew * bNew
				}
			}
		}
		if cond+lossNew-lossOld <= 0 {
			break
		}
		dOld = dir
		dir *= 0.5
		delta *= 0.5
	}
	w[j] += dir
	if n >= l1svcMaxLineSearch {
		// Too many halvings: b has drifted; recompute it.
		s.resetMargins()
	}
}
