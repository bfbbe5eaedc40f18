package linear

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/sparse"
)

// Runs that cannot make progress, because a quantity of the solver
// overflows float64 or its steps fall below an absolute floor, are reported
// stuck (Model.Stuck), never converged: the model at their start violates
// the optimality conditions.

// TestL1SolversStuckWhenTheLossGradientOverflows: with C = 1e308 the loss
// gradient at w = 0, ∂L/∂w_j(0) = −k·C·Σ_i y_i x_ij (k = ½ for the
// logistic loss, 2 for the squared hinge), overflows float64 on
// heart_scale, and so does the violation at the start that the primal L1
// solvers' stopping rules are relative to: the rules held at once
// (Inf ≤ ε·Inf) and train -s 5 or -s 6 -c 1e308 wrote w = 0 as converged,
// without a warning, though w = 0 violates the optimality condition
// |∂L/∂w_j(0)| ≤ 1. A model that does not meet it must not be reported
// converged; the solvers could make no progress, so stuck.
//
// With the features times 1e150 and C = 1e300 the terms C·y_i·x_ij
// themselves overflow, to +Inf and −Inf, whose sum is NaN: the violation of
// a NaN derivative read as 0, so the reference was 0 ("w = 0 is exactly
// optimal") or the first sweep's sum 0, and the three solvers, elastic net
// too, wrote w = 0 as converged.
func TestL1SolversStuckWhenTheLossGradientOverflows(t *testing.T) {
	x, y := readHeartScale(t)
	big := scaled(x, 1e150)
	for _, s := range []Solver{L1RLR, L1RL2LossSVC, ElasticNetLR} {
		checkStuckAtZero(t, &Problem{X: x, Y: y, Bias: 1}, Params{Solver: s, C: 1e308})
		checkStuckAtZero(t, &Problem{X: big, Y: y, Bias: 1}, Params{Solver: s, C: 1e300})
	}
}

// TestL1SolversAtAHugeCWhoseDerivativesAreFinite: on heart_scale at
// C = 1e305 every derivative of the loss at w = 0 is finite (each
// column's k·C·Σ_i |x_ij| is), though their bound summed over all columns
// overflows float64. The overflow check summed over every column, so
// train -s 5, -s 6 and -s 100 -c 1e305 wrote w = 0 "numerically stuck",
// where they had trained what they train at C = 1e304. At such a C the
// penalty is negligible beside the loss (heart_scale is not separable, so
// the loss has a finite minimiser, which both fits approach to O(1/C)): the
// fit must be the C = 1e304 one, not stuck, finite. (Elastic net's
// duality gap does not close at either C; at 1e305 it stops at MaxIter,
// as it did before the check.)
func TestL1SolversAtAHugeCWhoseDerivativesAreFinite(t *testing.T) {
	x, y := readHeartScale(t)
	const c = 1e305
	col := make([]float64, x.C) // Σ_i |x_ij|
	for k, j := range x.Ind {
		col[j] += math.Abs(x.Val[k])
	}
	var total float64 // Σ_j Σ_i C·|x_ij|, the bound the check summed
	for k := range x.Val {
		total += c * math.Abs(x.Val[k])
	}
	for _, s := range []Solver{L1RLR, L1RL2LossSVC, ElasticNetLR} {
		k := 0.5
		if s == L1RL2LossSVC {
			k = 2
		}
		if b := k * c * slices.Max(col); math.IsInf(b, 0) || !math.IsInf(k*total, 1) {
			t.Fatalf("%v: a column's bound %g, the sum over all %g: the test needs every column's finite and their sum not", s, b, k*total)
		}
		prob := &Problem{X: x, Y: y}
		ref, err := Train(context.Background(), prob, Params{Solver: s, C: c / 10})
		if err != nil {
			t.Fatalf("%v, C = %g: %v", s, c/10, err)
		}
		m, err := Train(context.Background(), prob, Params{Solver: s, C: c})
		if err != nil {
			t.Fatalf("%v, C = %g: %v", s, c, err)
		}
		if m.Stuck {
			t.Errorf("%v, C = %g: stuck; want it trained", s, c)
		}
		w, wRef := primalWeights(m, x.C), primalWeights(ref, x.C)
		scale := slices.Max(abs(wRef))
		for j := range w {
			if math.IsNaN(w[j]) || math.IsInf(w[j], 0) || !(math.Abs(w[j]-wRef[j]) <= 1e-9*scale) {
				t.Errorf("%v: w_%d = %v at C = %g, %v at C = %g; want them equal (to 1e-9 of max |w|)", s, j, w[j], c, wRef[j], c/10)
			}
		}
	}
	// Derivatives that are finite (−C each) but whose sum, L1R_LR's
	// reference, overflows, and so does the objective at 0, 3·C·log 2,
	// elastic net's: their rules would hold at once (Inf ≤ ε·Inf) at
	// w = 0, which violates the optimality conditions; stuck.
	two := &sparse.CSR{R: 3, C: 2, Ptr: []int{0, 2, 4, 4}, Ind: []int{0, 1, 0, 1}, Val: []float64{1, 1, 1, 1}}
	for _, s := range []Solver{L1RLR, ElasticNetLR} {
		checkStuckAtZero(t, &Problem{X: two, Y: []float64{1, 1, -1}}, Params{Solver: s, C: 1e308})
	}
}

// TestL1RLRStuckWhenTheWeightsAreBelowItsSteps: with heart_scale's features
// times 1e150 the optimal feature weights of L1R_LR are about 1e-150, so
// every step of its inner descent on them is below lrMinStep (1e-12, an
// absolute floor, liblinear's): after ten Newton steps in which no
// coordinate moved (the bias's weight aside), liblinear's rule stopped the
// run as converged with the feature weights 0, which violates the
// optimality conditions by about 1e150 (train -s 6 wrote it without a
// warning). With its stopping rule unmet the run is stuck.
func TestL1RLRStuckWhenTheWeightsAreBelowItsSteps(t *testing.T) {
	x, y := readHeartScale(t)
	big := scaled(x, 1e150)
	prob := &Problem{X: big, Y: y, Bias: 1}
	p := Params{Solver: L1RLR, C: 1}
	m, err := Train(context.Background(), prob, p)
	if err != nil {
		t.Fatal(err)
	}
	w := primalWeights(m, x.C)
	g := lrRefGrad(prob, p, w)
	var worst float64
	for j, wj := range w {
		worst = max(worst, kktViolation(g[j], wj, 1, 0))
	}
	if worst <= 1 {
		t.Fatalf("worst KKT violation %g at w = %v: the test needs a run that stops far from the optimum", worst, w)
	}
	if m.Converged || !m.Stuck {
		t.Errorf("worst KKT violation %g, yet Converged %v, Stuck %v; want stuck", worst, m.Converged, m.Stuck)
	}
}

// checkStuckAtZero trains prob with p (an L1 solver: L1R_LR,
// L1R_L2LOSS_SVC or ElasticNetLR), where w = 0 violates the optimality
// condition |∂L/∂w_j(0)| ≤ 1 (≤ L1Ratio ≤ 1 for the elastic net), with
// ∂L/∂w_j(0) = −k·C·Σ_i y_i x_ij (k = ½ for the logistic loss, 2 for the
// squared hinge) overflowing float64, and checks that the solver stops
// at its start, w = 0, reported stuck, not converged.
func checkStuckAtZero(t *testing.T, prob *Problem, p Params) {
	t.Helper()
	x, y := prob.X, prob.Y
	g := make([]float64, x.C+1) // Σ_i y_i x_ij, the bias column last
	for i := range x.R {
		for k := x.Ptr[i]; k < x.Ptr[i+1]; k++ {
			g[x.Ind[k]] += y[i] * x.Val[k]
		}
		g[x.C] += y[i] * prob.Bias
	}
	k := 0.5
	if p.Solver == L1RL2LossSVC {
		k = 2
	}
	if worst := k * p.C * slices.Max(abs(g)); !(worst > 1) { // +Inf too
		t.Fatalf("%v: max |∂L/∂w_j(0)| = %g ≤ 1: w = 0 is optimal, the test needs a problem that makes it not", p.Solver, worst)
	}
	m, err := Train(context.Background(), prob, p)
	if err != nil {
		t.Fatalf("%v: %v", p.Solver, err)
	}
	if m.Converged || !m.Stuck {
		t.Errorf("%v, C = %g: w = 0 violates the optimality condition, yet Converged %v, Stuck %v; want stuck", p.Solver, p.C, m.Converged, m.Stuck)
	}
	if w := primalWeights(m, x.C); slices.ContainsFunc(w, func(v float64) bool { return v != 0 }) {
		t.Errorf("%v, C = %g: weights %v, want the start, 0, where the gradient overflows", p.Solver, p.C, w)
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
	big := scaled(x, 1e160)
	prob := &Problem{X: big, Y: y, Bias: 1}
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

// TestLRDualStuckWhenItsStartUnderflows: L2R_LR_DUAL's dual variables live
// in the open interval (0, C_i) and start at min(0.001·C_i, 1e-8)
// (liblinear's start). Below C ≈ 5e-321 that start underflows to 0, where
// the dual objective's log α_i is −Inf: train -s 7 -c 1e-322 failed with
// "weight 0 is NaN; rescale the features or lower C", advice that is
// wrong for a C this small. The solver cannot move from such a start;
// like the other solvers at this C (-s 0, -s 1 and -s 2 stop numerically
// stuck with w = 0), it stops stuck at its start. The optimal weights are
// below C·Σ_i ‖x_i‖₁, subnormal here, so w = 0 is as near as float64
// comes. With one class's weight, only that class's start underflows: the
// run is stuck all the same, its weights finite.
func TestLRDualStuckWhenItsStartUnderflows(t *testing.T) {
	x, y := readHeartScale(t)
	prob := &Problem{X: x, Y: y, Bias: 1}
	for _, p := range []Params{
		{Solver: L2RLRDual, C: 1e-322},
		{Solver: L2RLRDual, C: 1e-320, WeightPos: 0.1},
	} {
		c := p.C // the smallest C_i: C, or C·WeightPos (WeightPos < 1)
		if p.WeightPos > 0 {
			c *= p.WeightPos
		}
		if a := min(0.001*c, 1e-8); a != 0 || c == 0 {
			t.Fatalf("C_i = %g: the start 0.001·C_i = %g; the test needs it to underflow to 0 with C_i > 0", c, a)
		}
		m, err := Train(context.Background(), prob, p)
		if err != nil {
			t.Errorf("C = %g, WeightPos %g: %v; want a model", p.C, p.WeightPos, err)
			continue
		}
		if m.Converged || !m.Stuck {
			t.Errorf("C = %g, WeightPos %g: Converged %v, Stuck %v; want stuck at the start", p.C, p.WeightPos, m.Converged, m.Stuck)
		}
		w := primalWeights(m, x.C)
		for j, v := range w {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > c*1e4 {
				t.Errorf("C = %g, WeightPos %g: w_%d = %v; want it finite and of C's order at most", p.C, p.WeightPos, j, v)
			}
		}
		if p.WeightPos == 0 && slices.ContainsFunc(w, func(v float64) bool { return v != 0 }) {
			t.Errorf("C = %g: weights %v, want the start, 0", p.C, w)
		}
	}
}
