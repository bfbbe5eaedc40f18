package linear

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fmt"
	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"github.com/greedytl/greedytl/sparse"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// randomProblem returns a seeded random ±1 problem of m rows and n columns
// with about density·m·n non-zeros, labelled by a noisy linear rule so that
// it is neither trivial nor separable.
func randomProblem(seed uint64, m, n int, density, bias float64) *Problem {
	rng := rand.New(rand.NewPCG(seed, seed))
	truth := make([]float64, n)
	for j := range truth {
		truth[j] = rng.NormFloat64()
	}
	x := &sparse.CSR{R: m, C: n, Ptr: make([]int, 1, m+1)}
	y := make([]float64, m)
	for i := range m {
		var s float64
		for j := range n {
			if rng.Float64() < density {
				v := rng.NormFloat64()
				x.Ind = append(x.Ind, j)
				x.Val = append(x.Val, v)
				s += truth[j] * v
			}
		}
		x.Ptr = append(x.Ptr, len(x.Ind))
		y[i] = 1
		if s+0.5*rng.NormFloat64() < 0.2 {
			y[i] = -1
		}
	}
	return &Problem{X: x, Y: y, Bias: bias}
}

// classifiers are the solvers this file's helpers implement (C2's solvers
// have their own tests).
var classifiers = []Solver{L2RLR, L2RL2LossSVCDual, L2RL2LossSVC, L2RL1LossSVCDual, L2RLRDual}

func TestParamsCheck(t *testing.T) {
	good := []Params{
		{Solver: L2RL2LossSVCDual},
		{Solver: L2RLR, C: 1e-4, Eps: 1e-3, MaxIter: 5, WeightPos: 2, WeightNeg: 0.5},
		{Solver: L2RL1LossSVCDual, L1Ratio: 1},
	}
	for _, p := range good {
		if err := p.Check(); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
	bad := []struct {
		p    Params
		want string
	}{
		{Params{Solver: Solver(4)}, "solver 4 is liblinear's MCSVM_CS, Crammer and Singer's multi-class SVM, which linear does not implement"},
		{Params{Solver: Solver(21)}, "ONECLASS_SVM"},
		{Params{Solver: Solver(9)}, "unknown solver 9"},
		{Params{Solver: L2RLR, C: -1}, "C ="},
		{Params{Solver: L2RLR, C: math.NaN()}, "C ="},
		{Params{Solver: L2RLR, C: math.Inf(1)}, "C ="},
		{Params{Solver: L2RLR, Eps: -1e-3}, "Eps ="},
		{Params{Solver: L2RLR, Eps: math.NaN()}, "Eps ="},
		{Params{Solver: L2RLR, L1Ratio: 1.5}, "L1Ratio"},
		{Params{Solver: L2RLR, L1Ratio: math.NaN()}, "L1Ratio"},
		{Params{Solver: L2RLR, MaxIter: -1}, "MaxIter"},
		{Params{Solver: L2RLR, WeightPos: -2}, "class weight"},
		{Params{Solver: L2RLR, WeightNeg: math.Inf(1)}, "class weight"},
		// Each finite, their product not: a row's cost C·weight is +Inf.
		{Params{Solver: L2RLR, C: 1e200, WeightPos: 1e200}, "C·weight"},
		{Params{Solver: L2RL2LossSVCDual, C: math.MaxFloat64, WeightNeg: 2}, "C·weight"},
	}
	for _, c := range bad {
		err := c.p.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one mentioning %q", c.p, err, c.want)
		}
		if _, lacked := liblinearOnly[c.p.Solver]; errors.Is(err, ErrNotImplemented) != lacked {
			t.Errorf("%+v: error %v matches ErrNotImplemented: %v, want %v", c.p, err, !lacked, lacked)
		}
	}
	// By name: liblinear's solvers that linear lacks are named as such.
	for s, o := range liblinearOnly {
		if _, err := ParseSolver(o.name); !errors.Is(err, ErrNotImplemented) || err.Error() != unsupported(s).Error() {
			t.Errorf("ParseSolver(%q): %v, want %v", o.name, err, unsupported(s))
		}
	}
	if _, err := ParseSolver("NOPE"); err == nil || errors.Is(err, ErrNotImplemented) {
		t.Errorf("ParseSolver(NOPE): %v", err)
	}
}

// nonFiniteCase sets stored value k of p's features to v and expects the
// error naming its row and column.
func nonFiniteCase(name string, p *Problem, k int, v float64) struct {
	name string
	prob *Problem
	p    Params
	want string
} {
	p.X.Val[k] = v
	i := 0
	for p.X.Ptr[i+1] <= k {
		i++
	}
	return struct {
		name string
		prob *Problem
		p    Params
		want string
	}{name, p, Params{}, fmt.Sprintf("linear: X row %d column %d is %v", i, p.X.Ind[k], v)}
}

func TestTrainRejectsBadInput(t *testing.T) {
	ok := func() *Problem { return randomProblem(1, 10, 3, 1, 1) }
	cases := []struct {
		name string
		prob *Problem
		p    Params
		want string
	}{
		{"nil problem", nil, Params{}, "nil problem"},
		{"nil matrix", &Problem{Y: []float64{1}}, Params{}, "nil problem"},
		{"no rows", &Problem{X: &sparse.CSR{C: 2, Ptr: []int{0}}}, Params{}, "no rows"},
		{"label count", func() *Problem { p := ok(); p.Y = p.Y[1:]; return p }(), Params{}, "labels for"},
		nonFiniteCase("NaN feature", ok(), 3, math.NaN()),
		nonFiniteCase("Inf feature", ok(), 0, math.Inf(-1)),
		{"NaN bias", func() *Problem { p := ok(); p.Bias = math.NaN(); return p }(), Params{}, "bias"},
		{"NaN label", func() *Problem { p := ok(); p.Y[2] = math.NaN(); return p }(), Params{}, "label of row 2"},
		{"fractional label", func() *Problem { p := ok(); p.Y[4] = 0.5; return p }(), Params{}, "not a 32-bit integer"},
		{"three classes", func() *Problem { p := ok(); p.Y[5] = 2; return p }(), Params{}, "row 5: label 2 is a third class (the first two: -1 and 1): the problem must have two: make one binary problem per class (that class against the others)"},
		{"one class", func() *Problem {
			p := ok()
			for i := range p.Y {
				p.Y[i] = 1
			}
			return p
		}(), Params{}, "need two classes"},
		{"unsorted indices", func() *Problem { p := ok(); p.X.Ind[0], p.X.Ind[1] = p.X.Ind[1], p.X.Ind[0]; return p }(), Params{}, "out of order"},
		{"broken header", func() *Problem { p := ok(); p.X.Ptr = p.X.Ptr[:3]; return p }(), Params{}, "feature matrix"},
		{"bad params", ok(), Params{C: -1}, "C ="},
		{"former ridge solver 101", ok(), Params{Solver: 101}, "unknown solver 101"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Train(context.Background(), c.prob, c.p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Train = %v, %v; want an error mentioning %q", m, err, c.want)
			}
		})
	}
}

func TestBinaryLabels(t *testing.T) {
	cases := []struct {
		y      []float64
		labels []int
		signed []float64
	}{
		{[]float64{1, -1, 1}, []int{1, -1}, []float64{1, -1, 1}},
		// liblinear puts +1 first for −1/+1 labels whatever comes first.
		{[]float64{-1, 1, 1}, []int{1, -1}, []float64{-1, 1, 1}},
		// Otherwise: order of first appearance.
		{[]float64{2, 1, 1}, []int{2, 1}, []float64{1, -1, -1}},
		{[]float64{0, 1, 0}, []int{0, 1}, []float64{1, -1, 1}},
		{[]float64{-1, 0}, []int{-1, 0}, []float64{1, -1}},
		{[]float64{7, 3}, []int{7, 3}, []float64{1, -1}},
	}
	for _, c := range cases {
		labels, signed, err := binaryLabels(c.y)
		if err != nil || !slices.Equal(labels, c.labels) || !slices.Equal(signed, c.signed) {
			t.Errorf("binaryLabels(%v) = %v, %v, %v; want %v, %v", c.y, labels, signed, err, c.labels, c.signed)
		}
	}
}

// TestWithLabelWeights: a label's weight goes to the class Train makes of
// it — WeightPos for Model.Labels[0] (binaryLabels), WeightNeg for the
// other — and weights that cannot apply are errors.
func TestWithLabelWeights(t *testing.T) {
	for _, c := range []struct {
		y        []float64
		weights  map[int]float64
		pos, neg float64
	}{
		{[]float64{-1, 1, 1}, map[int]float64{1: 5, -1: 2}, 5, 2},
		{[]float64{-1, 1}, map[int]float64{-1: 3}, 0.5, 3},
		{[]float64{4, 2, 2}, map[int]float64{2: 3}, 0.5, 3},
		{[]float64{2, 4, 2}, map[int]float64{2: 3, 4: 0.25}, 3, 0.25},
	} {
		p, err := Params{WeightPos: 0.5}.WithLabelWeights(c.y, c.weights)
		labels, _, _ := binaryLabels(c.y)
		if err != nil || p.WeightPos != c.pos || p.WeightNeg != c.neg {
			t.Errorf("labels %v, weights %v: WeightPos %v, WeightNeg %v, %v; want %v, %v", labels, c.weights, p.WeightPos, p.WeightNeg, err, c.pos, c.neg)
		}
	}
	for _, c := range []struct {
		y       []float64
		weights map[int]float64
		want    string
	}{
		{[]float64{1, -1}, map[int]float64{3: 2}, "a weight for class 3, which the data lack (their labels are 1 and -1)"},
		{[]float64{1, -1}, map[int]float64{1: 0}, "weight 0 for class 1"},
		{[]float64{1, -1}, map[int]float64{-1: math.Inf(1)}, "weight +Inf for class -1"},
		{[]float64{1, 1}, map[int]float64{1: 2}, "need two classes"},
		// No labels: an error, where labels[0] was out of range.
		{nil, map[int]float64{1: 2}, "no labels; need two classes"},
		{[]float64{}, nil, "no labels; need two classes"},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("labels %v, weights %v: panic %v", c.y, c.weights, r)
				}
			}()
			if _, err := (Params{}).WithLabelWeights(c.y, c.weights); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("labels %v, weights %v: %v, want an error containing %q", c.y, c.weights, err, c.want)
			}
		}()
	}
}

// closedForm1D is the optimum w of the one-feature problem x = ±1 with
// labels ±1, no bias, and per-class costs cp, cn: the objective is
// ½w² + (cp + cn)·ξ(w) for loss ξ.
func closedForm1D(s Solver, cp, cn float64) float64 {
	c := cp + cn
	switch s {
	case L2RL1LossSVCDual:
		return min(c, 1)
	case L2RL2LossSVCDual, L2RL2LossSVC:
		return 2 * c / (1 + 2*c)
	}
	// Logistic: w = c·σ(−w), by bisection on [0, c].
	lo, hi := 0.0, c
	for range 200 {
		mid := (lo + hi) / 2
		if mid-c/(1+math.Exp(mid)) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return (lo + hi) / 2
}

func TestTrainClosedForm(t *testing.T) {
	x := &sparse.CSR{R: 2, C: 1, Ptr: []int{0, 1, 2}, Ind: []int{0, 0}, Val: []float64{1, -1}}
	for _, s := range classifiers {
		for _, c := range []struct{ c, wp, wn float64 }{{0.1, 1, 1}, {0.25, 1, 1}, {1, 1, 1}, {3, 1, 1}, {0.2, 2, 0.5}} {
			for _, bias := range []float64{0, 1} {
				prob := &Problem{X: x, Y: []float64{1, -1}, Bias: bias}
				p := Params{Solver: s, C: c.c, WeightPos: c.wp, WeightNeg: c.wn, Eps: 1e-10}
				m, err := Train(context.Background(), prob, p)
				if err != nil {
					t.Fatal(err)
				}
				want := closedForm1D(s, c.c*c.wp, c.c*c.wn)
				if bias == 0 {
					if got := m.W[0]; math.Abs(got-want) > 1e-6 {
						t.Errorf("%v C=%v w+=%v w-=%v: w = %.9g, want %.9g", s, c.c, c.wp, c.wn, got, want)
					}
					continue
				}
				// With a bias feature of value 1 the two costs pull the bias
				// apart unless they are equal; check optimality instead:
				// no better point in a small neighbourhood.
				f := PrimalObjective(prob, p, m.W)
				for _, d := range [][2]float64{{1e-4, 0}, {-1e-4, 0}, {0, 1e-4}, {0, -1e-4}} {
					w := []float64{m.W[0] + d[0], m.W[1] + d[1]}
					if g := PrimalObjective(prob, p, w); g < f-1e-9 {
						t.Errorf("%v C=%v bias: objective %.12g at the solution, %.12g nearby", s, c.c, f, g)
					}
				}
				if c.wp == c.wn && math.Abs(m.W[1]) > 1e-6 {
					t.Errorf("%v C=%v: symmetric problem has bias weight %g", s, c.c, m.W[1])
				}
			}
		}
	}
}

// bruteObjective computes the primal objective from the dense matrix, with
// an explicit bias column, independently of PrimalObjective's code.
func bruteObjective(prob *Problem, s Solver, c, wp, wn, l1ratio float64, w []float64) float64 {
	dense := prob.X.Dense()
	var reg float64
	for _, v := range w {
		switch s {
		case L1RLR, L1RL2LossSVC:
			reg += math.Abs(v)
		case ElasticNetLR:
			reg += l1ratio*math.Abs(v) + (1-l1ratio)/2*v*v
		default:
			reg += v * v / 2
		}
	}
	var loss float64
	for i := 0; i < prob.X.R; i++ {
		var z float64
		for j := 0; j < prob.X.C; j++ {
			z += dense.At(i, j) * w[j]
		}
		if prob.Bias > 0 {
			z += prob.Bias * w[prob.X.C]
		}
		ci := c * wn
		if prob.Y[i] > 0 {
			ci = c * wp
		}
		m := prob.Y[i] * z
		switch s {
		case L2RLR, L2RLRDual, L1RLR, ElasticNetLR:
			loss += ci * math.Log(1+math.Exp(-m))
		case L2RL1LossSVCDual:
			loss += ci * math.Max(0, 1-m)
		default:
			loss += ci * math.Max(0, 1-m) * math.Max(0, 1-m)
		}
	}
	return reg + loss
}

func TestPrimalObjective(t *testing.T) {
	all := []Solver{L2RLR, L2RL2LossSVCDual, L2RL2LossSVC, L2RL1LossSVCDual, L1RL2LossSVC, L1RLR, L2RLRDual, ElasticNetLR}
	rng := rand.New(rand.NewPCG(3, 3))
	for _, bias := range []float64{0, 1, 2.5} {
		prob := randomProblem(4, 30, 6, 0.6, bias)
		w := make([]float64, weightLen(prob))
		for j := range w {
			w[j] = 0.5 * rng.NormFloat64()
		}
		for _, s := range all {
			p := Params{Solver: s, C: 0.7, WeightPos: 1.5, WeightNeg: 0.8, L1Ratio: 0.3}
			got := PrimalObjective(prob, p, w)
			want := bruteObjective(prob, s, 0.7, 1.5, 0.8, 0.3, w)
			if math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("%v bias %v: PrimalObjective = %.15g, brute force %.15g", s, bias, got, want)
			}
		}
	}
}

// TestPrimalObjectivePanics: PrimalObjective, which has no error result,
// panics as its doc comment says — with a message naming it, never a
// runtime error (a nil dereference, an index out of range) — on a nil or
// malformed problem, a w of the wrong length and a solver that is not a
// classifier.
func TestPrimalObjectivePanics(t *testing.T) {
	prob := randomProblem(1, 5, 3, 1, 1)
	shortY := *prob
	shortY.Y = prob.Y[:4]
	nan := *prob
	nan.X = sparse.FromDense(mat.NewDense(1, 3, []float64{1, math.NaN(), 0}))
	nan.Y = []float64{1}
	for _, c := range []struct {
		name string
		prob *Problem
		p    Params
		w    []float64
		want string
	}{
		{"short w", prob, Params{Solver: L2RLR}, make([]float64, 3), "3 weights for 4 features"},
		{"unknown solver", prob, Params{Solver: 101}, make([]float64, 4), "not a classifier"},
		{"nil problem", nil, Params{Solver: L2RLR}, make([]float64, 4), "nil problem"},
		{"no matrix", &Problem{Y: []float64{1}}, Params{Solver: L2RLR}, make([]float64, 4), "nil problem"},
		{"no rows", &Problem{X: &sparse.CSR{C: 3, Ptr: []int{0}}}, Params{Solver: L2RLR}, make([]float64, 3), "no rows"},
		{"short y", &shortY, Params{Solver: L2RLR}, make([]float64, 4), "4 labels for 5 rows"},
		{"NaN value", &nan, Params{Solver: L2RLR}, make([]float64, 4), "NaN"},
	} {
		errtest.Panics(t, c.name, "linear: PrimalObjective", c.want, func() { PrimalObjective(c.prob, c.p, c.w) })
	}
}

func TestTrainDeterministicAndPure(t *testing.T) {
	for _, s := range classifiers {
		prob := randomProblem(5, 80, 10, 0.5, 1)
		x0, y0 := *prob.X, slices.Clone(prob.Y)
		ind0, val0 := slices.Clone(prob.X.Ind), slices.Clone(prob.X.Val)
		p := Params{Solver: s, C: 0.5, Seed: 42}
		a, err := Train(context.Background(), prob, p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Train(context.Background(), prob, p)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.W, b.W) {
			t.Errorf("%v: two fits with the same seed differ", s)
		}
		if !slices.Equal(prob.Y, y0) || !slices.Equal(prob.X.Ind, ind0) || !slices.Equal(prob.X.Val, val0) || prob.X.R != x0.R || prob.X.C != x0.C {
			t.Errorf("%v: Train modified its input", s)
		}
		if a.Solver != s || a.NrFeature != 10 || a.Bias != 1 || a.NrW != 1 || len(a.W) != 11 || !a.Converged {
			t.Errorf("%v: model header %+v", s, a)
		}
	}
}

// TestTrainRelabel checks that the label values only name the classes: any
// two integers give the weights of the ±1 problem in which the first
// label seen is +1.
func TestTrainRelabel(t *testing.T) {
	prob := randomProblem(6, 60, 5, 0.7, 1)
	first := prob.Y[0]
	relabelled := &Problem{X: prob.X, Y: make([]float64, len(prob.Y)), Bias: prob.Bias}
	signed := &Problem{X: prob.X, Y: make([]float64, len(prob.Y)), Bias: prob.Bias}
	for i, v := range prob.Y {
		relabelled.Y[i], signed.Y[i] = 3, -1
		if v == first {
			relabelled.Y[i], signed.Y[i] = 7, 1
		}
	}
	for _, s := range classifiers {
		p := Params{Solver: s, Seed: 1}
		a, err := Train(context.Background(), relabelled, p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Train(context.Background(), signed, p)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Labels, []int{7, 3}) || !slices.Equal(a.W, b.W) {
			t.Errorf("%v: labels %v, weights equal %v", s, a.Labels, slices.Equal(a.W, b.W))
		}
	}
}

func TestTrainMaxIter(t *testing.T) {
	prob := randomProblem(7, 200, 20, 0.5, 1)
	for _, s := range classifiers {
		m, err := Train(context.Background(), prob, Params{Solver: s, C: 10, Eps: 1e-12, MaxIter: 1})
		if err != nil {
			t.Fatal(err)
		}
		if m.Converged {
			t.Errorf("%v: Converged after one iteration at Eps 1e-12", s)
		}
		m, err = Train(context.Background(), prob, Params{Solver: s, C: 10})
		if err != nil {
			t.Fatal(err)
		}
		if !m.Converged {
			t.Errorf("%v: not converged at the default tolerance", s)
		}
	}
}

// TestTrainEmptyRows checks rows without features (and a problem without
// columns): the dual's Q_ii is then 0, or only the bias feature's.
func TestTrainEmptyRows(t *testing.T) {
	for _, bias := range []float64{0, 1} {
		for _, x := range []*sparse.CSR{
			{R: 3, C: 2, Ptr: []int{0, 1, 1, 2}, Ind: []int{0, 1}, Val: []float64{1, -1}},
			{R: 2, C: 0, Ptr: []int{0, 0, 0}},
		} {
			prob := &Problem{X: x, Y: []float64{1, -1, 1}[:x.R], Bias: bias}
			for _, s := range classifiers {
				m, err := Train(context.Background(), prob, Params{Solver: s})
				if err != nil {
					t.Fatalf("%v bias %v: %v", s, bias, err)
				}
				if len(m.W) != weightLen(prob) || !m.Converged {
					t.Errorf("%v bias %v: %d weights, converged %v", s, bias, len(m.W), m.Converged)
				}
			}
		}
	}
}

// TestTrainCancelled: Train, like CrossValidate, returns the context's error
// when the context is done.
func TestTrainCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	prob := randomProblem(7, 50, 5, 0.5, 1)
	if _, err := Train(ctx, prob, Params{Solver: L2RL2LossSVCDual, C: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("Train with a cancelled context: error %v, want context.Canceled", err)
	}
}

// TestTrainStopsWhenDone: every solver checks Train's context between its
// outer iterations. Cancelled at its first check inside the solver, Train
// returns context.Canceled, not a model, after that one check (the
// solver stops at once); a context done before Train starts is the same
// error; and the cross-validations stop alike.
func TestTrainStopsWhenDone(t *testing.T) {
	prob := randomProblem(7, 100, 20, 0.5, 1)
	for s := range solvers {
		p := Params{Solver: s, C: 10, Eps: 1e-6, L1Ratio: 0.5}
		// Train checks once before the solver and once after it.
		all := fitctxtest.NewCountdown(math.MaxInt64)
		if _, err := Train(all, prob, p); err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		if all.Calls() < 4 {
			t.Fatalf("%v: %d checks: the solver never checks its context", s, all.Calls())
		}
		ctx := fitctxtest.NewCountdown(1)
		model, err := Train(ctx, prob, p)
		if !errors.Is(err, context.Canceled) || model != nil {
			t.Errorf("%v cancelled at its first iteration: err %v, model %v", s, err, model != nil)
		}
		if ctx.Calls() != 3 {
			t.Errorf("%v: %d checks after cancellation at the second, want 3 (the solver stops at once)", s, ctx.Calls())
		}
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	p := Params{Solver: L2RLR, C: 1}
	if _, err := Train(done, prob, p); !errors.Is(err, context.Canceled) {
		t.Errorf("Train with a done context: %v", err)
	}
	if _, err := CrossValidate(done, prob, p, 5, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("CrossValidate with a done context: %v", err)
	}
	if _, _, err := SelectC(done, prob, p, []float64{1, 10}, 5, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("SelectC with a done context: %v", err)
	}
}

// TestTrainStopsInConversion: the solvers that work on columns check
// Train's context while they convert a Dense problem to column form —
// the CSR copy of the rows and its transpose, each at least once every
// 65,536 values — L1R_L2LOSS_SVC every 32 columns of a sweep, and, cancelled at any of those checks, return the
// context's error and no model. Before the fix the conversion ran to its
// end unchecked (0.6–2.7 s at 20,000 × 500 on a loaded machine), and
// L1R_L2LOSS_SVC checked only between its sweeps over the columns (up to
// 0.2 s each there): Train checked 3 times in all with one iteration.
func TestTrainStopsInConversion(t *testing.T) {
	const rows, cols = 600, 500
	rng := rand.New(rand.NewPCG(5, 5))
	v := make([]float64, rows*cols)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	d, err := NewDense64(v, cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	y := make([]float64, rows)
	for i := range y {
		y[i] = float64(2*(i%2) - 1)
	}
	prob := &Problem{Dense: d, Y: y, Bias: 1}
	blocks := int64(rows * cols / (1 << 16)) // whole blocks of the copy, and of the transpose
	for _, s := range []Solver{L1RL2LossSVC, L1RLR, ElasticNetLR} {
		p := Params{Solver: s, C: 1, L1Ratio: 0.5, MaxIter: 1}
		all := fitctxtest.NewCountdown(math.MaxInt64)
		if _, err := Train(all, prob, p); err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		want := 2 * blocks
		if s == L1RL2LossSVC {
			want += cols / l1svcCheckEvery // and within its sweep over the columns
		}
		if all.Calls() < want {
			t.Errorf("%v: %d checks of the context in all, want at least %d (one per 65,536 values in the copy and in the transpose, and for L1R_L2LOSS_SVC one per 32 columns of a sweep)", s, all.Calls(), want)
		}
		for k := int64(1); k < all.Calls(); k++ {
			ctx := fitctxtest.NewCountdown(k)
			model, err := Train(ctx, prob, p)
			if !errors.Is(err, context.Canceled) || model != nil {
				t.Errorf("%v cancelled at check %d of %d: err %v, model %v", s, k+1, all.Calls(), err, model != nil)
			}
		}
	}
}

// TestTrainOverflowingScores: a model whose finite weights times the
// training features overflow float64 (L2R_LR_DUAL on features near 1e300
// left weights near 1e293, and every score of Model.Scores NaN) is an
// error of Train and of the cross-validations, naming the example
// (counting from 1, as the cross-validation's held-out one) and the
// overflow, not a model whose scores are NaN.
func TestTrainOverflowingScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const rows, cols = 40, 5
	v := make([]float64, rows*cols)
	y := make([]float64, rows)
	for i := range rows {
		y[i] = float64(2*(i%2) - 1)
		for j := range cols {
			v[i*cols+j] = 1e300 * (rng.NormFloat64() + 0.5*y[i])
		}
	}
	d, err := NewDense64(v, cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	prob := &Problem{Dense: d, Y: y, Bias: -1}
	p := Params{Solver: L2RLRDual, C: 1}
	model, err := Train(context.Background(), prob, p)
	if err == nil {
		t.Fatalf("Train: no error; largest |w| %g, scores %v", floats.Norm(model.W, math.Inf(1)), model.Scores(mat.NewDense(rows, cols, v))[:3])
	}
	// Numbered from 1, as the cross-validation's held-out example (it
	// was "training row 0").
	if want := "the decision value of training example 1 (counting from 1) is "; !strings.Contains(err.Error(), "overflow") || !strings.Contains(err.Error(), want) {
		t.Errorf("Train: %v, want an error naming the overflow and saying %q", err, want)
	}
	if _, err := CrossValidate(context.Background(), prob, p, 5, 1); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("CrossValidate: %v, want an error naming the overflow", err)
	}
}

// TestDefaultMaxIter: with MaxIter 0 every solver stops at the cap
// Solver.DefaultMaxIter names (what a not-converged report quotes): a fit
// that cannot meet its tolerance gives the same weights, bit for bit, as
// one with MaxIter set to that cap, and other weights with one iteration
// fewer. TRON (L2R_LR, L2R_L2LOSS_SVC), L1R_LR and ELASTICNET_LR meet any
// tolerance on these data (they stop when no step makes progress), so only
// DefaultMaxIter's value is checked for them.
func TestDefaultMaxIter(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every solver to its cap")
	}
	prob := randomProblem(7, 200, 20, 0.5, 1)
	for _, s := range []Solver{L2RLR, L2RL2LossSVC, ElasticNetLR, L2RL2LossSVCDual, L2RL1LossSVCDual, L2RLRDual, L1RL2LossSVC, L1RLR} {
		cap := s.DefaultMaxIter()
		if cap <= 0 {
			t.Errorf("%v: DefaultMaxIter %d", s, cap)
			continue
		}
		if s == L2RLR || s == L2RL2LossSVC || s == ElasticNetLR || s == L1RLR {
			continue
		}
		fit := func(maxIter int) *Model {
			m, err := Train(context.Background(), prob, Params{Solver: s, C: 1e4, Eps: 1e-300, MaxIter: maxIter})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		def, at, before := fit(0), fit(cap), fit(cap-1)
		if def.Converged || at.Converged {
			t.Errorf("%v: converged at Eps 1e-300: the cap is not reached", s)
		}
		if !slices.Equal(def.W, at.W) || slices.Equal(def.W, before.W) {
			t.Errorf("%v: MaxIter 0 gives the weights of MaxIter %d: %v; of MaxIter %d: %v; want the first only", s, cap, slices.Equal(def.W, at.W), cap-1, slices.Equal(def.W, before.W))
		}
	}
	for s, want := range map[Solver]int{L2RLR: 1000, L2RL2LossSVC: 1000, ElasticNetLR: 100, L1RLR: 100, L2RL2LossSVCDual: 1000, L2RL1LossSVCDual: 1000, L2RLRDual: 1000, L1RL2LossSVC: 1000} {
		if got := s.DefaultMaxIter(); got != want {
			t.Errorf("%v: DefaultMaxIter %d, want liblinear's %d", s, got, want)
		}
	}
	if got := Solver(4).DefaultMaxIter(); got != 0 {
		t.Errorf("an unimplemented solver's DefaultMaxIter is %d, want 0", got)
	}
}
