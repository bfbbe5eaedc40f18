package linear

import (
	"math"
)

// Dual coordinate descent for the L2-regularised SVMs (liblinear -s 1 and
// -s 3; Hsieh, Chang, Lin, Keerthi and Sundararajan, "A dual coordinate
// descent method for large-scale linear SVM", ICML 2008). The dual is
//
//	min_α ½ αᵀ(Q + D)α − eᵀα  subject to 0 ≤ α_i ≤ U_i,
//
// Q_ij = y_i y_j x_iᵀx_j, with D_ii = 1/(2C_i), U_i = ∞ for the squared hinge
// loss and D_ii = 0, U_i = C_i for the hinge loss; w = Σ_i α_i y_i x_i is
// kept up to date, so the gradient of coordinate i is y_i wᵀx_i − 1 +
// D_ii α_i. Each outer iteration visits the active coordinates in a fresh
// random order, drops from the active set those at a bound whose gradient
// points out of the box by more than the previous iteration's extreme
// projected gradients (liblinear's shrinking), and stops when the spread of
// the projected gradients, max PG − min PG, is at most Eps (default 0.1);
// when the active set had shrunk, every coordinate is reactivated and
// checked once more before stopping.

func init() {
	for _, s := range []Solver{L2RL2LossSVCDual, L2RL1LossSVCDual} {
		register(s, dualSolver(dualSVM).solve)
		warmSolvers[s] = dualSolver(dualSVM).warm
	}
}

// Constants of the dual coordinate descent solvers (liblinear's values).
const (
	dualDefaultMaxIter = 1000
	dualMinPG          = 1e-12 // coordinates with |PG| at most this are not updated
)

// dualSVM runs dual coordinate descent on the ±1 problem prob from the dual
// point alpha0 (nil: α = 0), visiting the coordinates in orders drawn from
// rng. It returns w, the final α and why it stopped: converged when the
// stopping rule was met within MaxIter iterations; stuck, at its start,
// when a row's Q_ii = ‖x_i‖² overflows float64 (features beyond about
// 1e154), since its coordinate's Newton step g/Q_ii is then 0 whatever
// its gradient: α_i could never move, and from α = 0, with every row's
// projected gradient −1, the spread rule held at once with w = 0.
func dualSVM(prob *Problem, p Params, alpha0 []float64, rng shuffler) (w, alpha []float64, why stop) {
	p, maxIter, d, cost := dualStart(prob, p)
	eps, l, y := p.Eps, d.rows, prob.Y

	// Per coordinate: the diagonal D_ii of the dual Hessian's loss part,
	// the upper bound U_i and Q_ii + D_ii.
	diag := make([]float64, l)
	upper := make([]float64, l)
	qd := make([]float64, l)
	hinge := p.Solver == L2RL1LossSVCDual
	stuck := false // a row whose Q_ii overflows: no step is possible
	for i := range l {
		if hinge {
			upper[i] = cost[i]
		} else {
			diag[i] = 0.5 / cost[i]
			upper[i] = math.Inf(1)
		}
		qd[i] = diag[i] + d.norm2(i)
		stuck = stuck || math.IsInf(qd[i], 1)
	}

	alpha = make([]float64, l)
	w = make([]float64, d.n)
	if alpha0 != nil {
		for i, a := range alpha0 {
			a = min(max(a, 0), upper[i])
			alpha[i] = a
			if a != 0 {
				d.axpy(i, a*y[i], w)
			}
		}
	}

	if stuck {
		return w, alpha, stopStuck
	}

	index := make([]int, l)
	for i := range index {
		index[i] = i
	}
	active := l
	pgMaxOld, pgMinOld := math.Inf(1), math.Inf(-1)
	for iter := 0; iter < maxIter; iter++ {
		if prob.stopped() {
			break
		}
		pgMax, pgMin := math.Inf(-1), math.Inf(1)
		shuffle(rng, index[:active])
		for s := 0; s < active; s++ {
			i := index[s]
			yi := y[i]
			g := yi*d.dot(i, w) - 1 + alpha[i]*diag[i]
			ui := upper[i]

			var pg float64
			switch ai := alpha[i]; {
			case ai == 0:
				if g > pgMaxOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				pg = min(g, 0)
			case ai == ui:
				if g < pgMinOld {
					active--
					index[s], index[active] = index[active], index[s]
					s--
					continue
				}
				pg = max(g, 0)
			default:
				pg = g
			}
			pgMax = max(pgMax, pg)
			pgMin = min(pgMin, pg)

			if math.Abs(pg) > dualMinPG {
				old := alpha[i]
				a := min(max(old-g/qd[i], 0), ui)
				alpha[i] = a
				d.axpy(i, (a-old)*yi, w)
			}
		}

		if pgMax-pgMin <= eps {
			if active == l {
				return w, alpha, stopConverged
			}
			// Verify on all coordinates before stopping.
			active = l
			pgMaxOld, pgMinOld = math.Inf(1), math.Inf(-1)
			continue
		}
		pgMaxOld, pgMinOld = pgMax, pgMin
		if pgMaxOld <= 0 {
			pgMaxOld = math.Inf(1)
		}
		if pgMinOld >= 0 {
			pgMinOld = math.Inf(-1)
		}
	}
	return w, alpha, stopMaxIter
}
