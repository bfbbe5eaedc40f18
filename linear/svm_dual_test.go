package linear

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// dualSVMObjective returns the dual objective ½αᵀ(Q+D)α − eᵀα of -s 1 or
// -s 3 at alpha, given w = Σ α_i y_i x_i; at the optimum the primal
// objective is its negation.
func dualSVMObjective(prob *Problem, p Params, w, alpha []float64) float64 {
	p = p.withDefaults()
	cost := classCosts(prob.Y, p)
	v := floats.Dot(w, w)
	for i, a := range alpha {
		var di float64
		if p.Solver == L2RL2LossSVCDual {
			di = 0.5 / cost[i]
		}
		v += a * (a*di - 2)
	}
	return v / 2
}

// dualViolation returns liblinear's stopping measure over all coordinates:
// the largest minus the smallest projected gradient.
func dualViolation(prob *Problem, p Params, w, alpha []float64) float64 {
	p = p.withDefaults()
	d := newDesign(prob)
	cost := classCosts(prob.Y, p)
	pgMax, pgMin := math.Inf(-1), math.Inf(1)
	for i, a := range alpha {
		var di float64
		upper := cost[i]
		if p.Solver == L2RL2LossSVCDual {
			di, upper = 0.5/cost[i], math.Inf(1)
		}
		g := prob.Y[i]*d.dot(i, w) - 1 + a*di
		pg := g
		switch {
		case a == 0:
			pg = min(g, 0)
		case a == upper:
			pg = max(g, 0)
		}
		pgMax, pgMin = max(pgMax, pg), min(pgMin, pg)
	}
	return pgMax - pgMin
}

func TestDualSVM(t *testing.T) {
	for _, s := range []Solver{L2RL2LossSVCDual, L2RL1LossSVCDual} {
		for _, c := range []struct {
			c, wp, wn, bias, eps float64
		}{
			{1, 1, 1, 0, 0.1},
			{1, 1, 1, 1, 1e-3},
			{0.05, 3, 0.5, 1, 1e-6},
			{20, 1, 1, 2, 1e-6},
		} {
			prob := randomProblem(21, 300, 15, 0.4, c.bias)
			// Large C needs many more than liblinear's 1000 iterations on
			// this nearly separable problem (liblinear's too).
			p := Params{Solver: s, C: c.c, WeightPos: c.wp, WeightNeg: c.wn, Eps: c.eps, Seed: 3, MaxIter: 100000}.withDefaults()
			w, alpha, conv := dualSVM(prob, p, nil, newShuffler(p.Seed))
			if conv != stopConverged {
				t.Fatalf("%v %+v: not converged", s, c)
			}
			// w is Σ α_i y_i x_i.
			d := newDesign(prob)
			w2 := make([]float64, len(w))
			for i, a := range alpha {
				d.axpy(i, a*prob.Y[i], w2)
			}
			for j := range w {
				if math.Abs(w[j]-w2[j]) > 1e-9*(1+math.Abs(w2[j])) {
					t.Errorf("%v %+v: w_%d = %v, Σαyx gives %v", s, c, j, w[j], w2[j])
				}
			}
			// α is feasible.
			cost := classCosts(prob.Y, p)
			for i, a := range alpha {
				if a < 0 || (s == L2RL1LossSVCDual && a > cost[i]) {
					t.Errorf("%v %+v: α_%d = %v outside [0, %v]", s, c, i, a, cost[i])
				}
			}
			// liblinear's rule measures the projected gradients during the
			// last sweep, over every coordinate (shrunk ones reactivated),
			// while α still moves: at the returned point their spread may
			// exceed ε a little, but not by much (without the final
			// unshrunk sweep it can exceed it by orders of magnitude).
			if v := dualViolation(prob, p, w, alpha); v > 2*c.eps {
				t.Errorf("%v %+v: final violation %.3g > 2·eps", s, c, v)
			}
			// Weak duality always, and a small gap at a tight tolerance.
			primal := PrimalObjective(prob, p, w)
			dual := -dualSVMObjective(prob, p, w, alpha)
			if primal < dual-1e-9*primal {
				t.Errorf("%v %+v: primal %.12g below dual %.12g", s, c, primal, dual)
			}
			if c.eps <= 1e-6 && primal-dual > 1e-5*primal {
				t.Errorf("%v %+v: duality gap %.3g at eps %v", s, c, primal-dual, c.eps)
			}
		}
	}
}

// TestDualSVMWarmStart checks the warm start of the C path: from the
// scaled dual point of a smaller C the solver converges to the cold
// start's optimum.
func TestDualSVMWarmStart(t *testing.T) {
	prob := randomProblem(22, 250, 12, 0.5, 1)
	var why stop // why the last warm start stopped (warm does not say)
	solver := dualSolver(func(prob *Problem, p Params, alpha0 []float64, rng shuffler) (w, alpha []float64, s stop) {
		w, alpha, why = dualSVM(prob, p, alpha0, rng)
		return w, alpha, why
	})
	for _, s := range []Solver{L2RL2LossSVCDual, L2RL1LossSVCDual} {
		p := Params{Solver: s, C: 1, Eps: 1e-7}.withDefaults()
		q := p
		q.C = 0.1
		prev := solver.warm(prob, q, nil)
		warm := solver.warm(prob, p, prev)
		if why != stopConverged {
			t.Fatalf("%v: warm start: %v, want converged", s, why)
		}
		cold, _, _ := dualSVM(prob, p, nil, newShuffler(p.Seed))
		fw, fc := PrimalObjective(prob, p, warm.w), PrimalObjective(prob, p, cold)
		if math.Abs(fw-fc) > 1e-6*fc {
			t.Errorf("%v: objective warm %.10g, cold %.10g", s, fw, fc)
		}
	}
}
