package linear

import (
	"context"
	"math"
	"slices"
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
// scaled dual point of a smaller C the solver reaches the cold start's
// optimum.
func TestDualSVMWarmStart(t *testing.T) {
	prob := randomProblem(22, 250, 12, 0.5, 1)
	for _, s := range []Solver{L2RL2LossSVCDual, L2RL1LossSVCDual} {
		p := Params{Solver: s, C: 1, Eps: 1e-7}.withDefaults()
		q := p
		q.C = 0.1
		prev, _, err := dualSolver(dualSVM).warm(prob, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		warm, conv, err := dualSolver(dualSVM).warm(prob, p, prev)
		if err != nil || !conv {
			t.Fatalf("%v: warm start: converged %v, %v", s, conv, err)
		}
		cold, _, _ := dualSVM(prob, p, nil, newShuffler(p.Seed))
		fw, fc := PrimalObjective(prob, p, warm.w), PrimalObjective(prob, p, cold)
		if math.Abs(fw-fc) > 1e-6*fc {
			t.Errorf("%v: objective warm %.10g, cold %.10g", s, fw, fc)
		}
	}
}

// TestDualSVMStuckWhenARowNormOverflows: with heart_scale's features times
// 1e160 every row's Q_ii = ‖x_i‖² overflows float64, so no coordinate's
// Newton step g/Q_ii can move α_i from 0; every projected gradient stays
// y_i wᵀx_i − 1 = −1, their spread 0, and train -s 1 or -s 3 wrote w = 0
// as converged without a warning, though α = 0 violates the dual's
// optimality condition (α_i = 0 needs a gradient ≥ 0; checked here from
// the definition, in units where the features are heart_scale's). The run
// must be reported stuck.
func TestDualSVMStuckWhenARowNormOverflows(t *testing.T) {
	x, y := readHeartScale(t)
	big := *x
	big.Val = slices.Clone(x.Val)
	for k := range big.Val {
		big.Val[k] *= 1e160
	}
	prob := &Problem{X: &big, Y: y, Bias: 1}
	for _, s := range []Solver{L2RL2LossSVCDual, L2RL1LossSVCDual} {
		m, err := Train(context.Background(), prob, Params{Solver: s, C: 1})
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		w := primalWeights(m, x.C)
		if slices.ContainsFunc(w, func(v float64) bool { return v != 0 }) {
			t.Fatalf("%v: weights %v, the test expects the solver's start, 0", s, w)
		}
		// At α = 0 (w = 0) the dual gradient of every row is y_i·0 − 1 = −1
		// < 0: not optimal. The overflow itself, from the definition:
		for i := range x.R {
			var ss float64
			for k := x.Ptr[i]; k < x.Ptr[i+1]; k++ {
				ss += big.Val[k] * big.Val[k]
			}
			if !math.IsInf(ss, 1) {
				t.Fatalf("row %d: ‖x_i‖² = %g, the test needs every row's to overflow", i, ss)
			}
		}
		if m.Converged || !m.Stuck {
			t.Errorf("%v: w = 0 is not optimal, yet Converged %v, Stuck %v; want stuck", s, m.Converged, m.Stuck)
		}
	}
}
