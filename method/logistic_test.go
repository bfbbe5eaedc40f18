package method

import (
	"bytes"
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/greedytl/greedytl/internal/kerneltest"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/lssvm"
	"github.com/greedytl/greedytl/sparse"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// tightLogistic returns the named logistic method with the solver's
// relative duality gap tightened to 1e-12, so that solutions reached by
// different routes have objective values within 1e-12·F of the optimum.
// For the elastic net (strong convexity 1 − ρ = ½) that bounds each
// solution's distance to the minimiser by √(2·1e-12·F/½) ≈ 1e-5 for the
// objectives F ≲ 30 of the tests, so weights and decision values agree to
// about 1e-5 (the L1 solutions, unique on generic data, behave alike).
// For l1-logistic it is the exact solver (l1-logistic:exact=1).
func tightLogistic(name string) logistic {
	meth, _ := New(name)
	l := meth.(logistic)
	l.eps = 1e-12
	l.standard = false
	return l
}

// trainAll fits the solver on every column of z (no working set) and
// returns the weights favouring +1 (the bias last).
func trainAll(t *testing.T, z *mat.Dense, y []float64, p linear.Params) []float64 {
	t.Helper()
	fit, err := linear.Train(context.Background(), &linear.Problem{X: sparse.FromDense(z), Y: y, Bias: 1}, p)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Labels[0] != 1 {
		t.Fatalf("labels %v, want [1 -1]", fit.Labels)
	}
	return fit.W
}

// TestWorkingSetSolver: along the C grid the working-set path — every
// solve from 0, or warm-started (logistic.warm) from the previous C's
// weights or from a hint — reaches the
// optimal objective value of linear.ElasticNetLR trained on every column,
// and (the objectives being strictly convex or the solution unique on
// generic data) the same weights; below the threshold it returns w = 0,
// as the solver does.
func TestWorkingSetSolver(t *testing.T) {
	noisy := syntheticTransfer(75, 14, 4, 40, 25, 1.5)
	z := concatColumns(dense(noisy.X), dense(noisy.H))
	z, _ = standardize.Fit(z).Transform(z)
	dup := mat.NewDense(14, 67, nil) // duplicated and constant columns
	dup.Augment(z, z.Slice(0, 14, 0, 2))
	for _, tc := range []struct {
		name string
		z    *mat.Dense
		y    []float64
	}{
		{"more columns than examples", z, noisy.Y},
		{"duplicated and zero columns", dup, noisy.Y},
	} {
		for _, name := range []string{"l1-logistic", "elastic-net"} {
			// Cold: every solve from 0 (up to logisticLOOMaxRows
			// examples); warm: from the previous C's weights, and with a
			// hint (a held-out fold's: here the path of the sample
			// without its last 3 examples), from the hint (above).
			for _, start := range []string{"cold", "warm", "warm from a hint"} {
				l := tightLogistic(name)
				var hint [][]float64
				if start != "cold" {
					l.warm = true
				}
				if start == "warm from a hint" {
					m, p := tc.z.Dims()
					var err error
					hint, _, err = l.path(context.Background(), mat.DenseCopyOf(tc.z.Slice(0, m-3, 0, p)), tc.y[:m-3], nil)
					if err != nil {
						t.Fatal(err)
					}
				}
				path, _, err := l.path(context.Background(), tc.z, tc.y, hint)
				if err != nil {
					t.Fatal(err)
				}
				prob := &linear.Problem{X: sparse.FromDense(tc.z), Y: tc.y, Bias: 1}
				for g, c := range cGrid {
					want := trainAll(t, tc.z, tc.y, l.params(c))
					fw, fwant := linear.PrimalObjective(prob, l.params(c), path[g]), linear.PrimalObjective(prob, l.params(c), want)
					if math.Abs(fw-fwant) > 1e-9*fwant {
						t.Errorf("%s, %s, %s, C=%g: objective %.12g, solver on every column %.12g", tc.name, name, start, c, fw, fwant)
					}
					if tc.name != "more columns than examples" && l.l1Ratio == 1 {
						continue // duplicated columns: the L1 solution is not unique
					}
					for j := range want {
						if math.Abs(path[g][j]-want[j]) > 1e-5*(1+math.Abs(want[j])) {
							t.Errorf("%s, %s, %s, C=%g: w[%d] = %g, solver on every column %g", tc.name, name, start, c, j, path[g][j], want[j])
							break
						}
					}
				}
			}
		}
	}
	// The threshold: w = 0 is optimal iff C·max_j |Σ_i y_i z_ij|/2 ≤ ρ.
	l := tightLogistic("elastic-net")
	s := newWorkingSetSolver(z, noisy.Y, l.l1Ratio)
	c0 := l.l1Ratio / s.zero
	prev := make([]float64, 66)
	for _, c := range []float64{c0 * 0.999, c0 * 1.01} {
		w, _, err := s.solve(context.Background(), l.params(c), prev, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := trainAll(t, z, noisy.Y, l.params(c))
		var nz, nzWant int
		for j := range w {
			if w[j] != 0 {
				nz++
			}
			if want[j] != 0 {
				nzWant++
			}
		}
		if (nz == 0) != (nzWant == 0) || (nz == 0) != (c < c0) {
			t.Errorf("C = %g·C₀: %d non-zero weights, the solver %d", c/c0, nz, nzWant)
		}
	}
}

// TestLogisticLOO checks the leave-one-out decision values against their
// definition: the whole procedure — standardisation with the other
// examples' statistics, then the solver on every column — refitted without
// each example, at every C of the grid.
func TestLogisticLOO(t *testing.T) {
	data := syntheticTransfer(71, 12, 3, 6, 4, 1.5)
	raw := concatColumns(dense(data.X), dense(data.H))
	standard, _ := New("l1-logistic")
	std := standard.(logistic)
	std.seed = 7
	for _, name := range []string{"l1-logistic", "elastic-net", "standard"} {
		l := std
		params := func(c float64) linear.Params { return standardL1Params(c, 7) }
		tol := 1e-12 // the same deterministic solver on the same columns
		if name != "standard" {
			l = tightLogistic(name)
			params, tol = l.params, 1e-4
		}
		pred, err := leaveOneOutOf(l, context.Background(), raw, data.Y, nil, &solverRuns{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range data.Y {
			rest := selectRows(data, kerneltest.WithoutRow(len(data.Y), i))
			sx, sh := standardize.Fit(rest.X), standardize.Fit(rest.H)
			z, _ := standardisedColumns(sx, sh, rest)
			zi, _ := standardisedColumns(sx, sh, selectRows(data, []int{i}))
			for g, c := range cGrid {
				w := trainAll(t, z, rest.Y, params(c))
				want := w[len(w)-1]
				for j, v := range zi.RawRowView(0) {
					want += w[j] * v
				}
				if math.Abs(pred[g][i]-want) > tol*(1+math.Abs(want)) {
					t.Errorf("%s C=%g: LOO value %d = %.10g, refit %.10g", name, c, i, pred[g][i], want)
				}
			}
		}
	}
}

// TestLOOHonestOnNoise would have caught the leave-one-out artefact of
// standardising with the whole sample: on pure noise (the labels carry no
// information) with balanced classes, 10 positives and 10 negatives, and
// more columns than examples, the class-balanced LOO error of every
// hyperparameter setting must stay near chance (1/2). Centring with the
// left-out row makes it minus the sum of the others, and a nearly
// interpolating fit then "predicts" it from the others' labels with the
// right sign: the error of the large C (logistic) or small λ (ridge without
// intercept) fell to 0, and those settings won every fit with 10 positives
// on COIL-100. The LOO producers of every baseline here are checked: the
// logistic models' refits, the dictionary's codes with its class-balanced
// ridge (with intercept; also DAM's fallback), DAM's regression with
// unlabelled rows, and MultiKT's LS-SVM (β = 0).
func TestLOOHonestOnNoise(t *testing.T) {
	const (
		seeds = 6
		pos   = 10
		m     = 2 * pos
		p     = 300
	)
	type producer struct {
		name string
		// loo returns the LOO predictions of every setting on the raw
		// columns raw (m × p) with labels y.
		loo func(t *testing.T, raw *mat.Dense, y []float64, seed uint64) [][]float64
	}
	standardised := func(raw *mat.Dense) *mat.Dense {
		z, err := standardize.Fit(raw).Transform(raw)
		if err != nil {
			t.Fatal(err)
		}
		return z
	}
	// logisticLOO is the leave-one-out of the logistic method name.
	logisticLOO := func(name string) func(*testing.T, *mat.Dense, []float64, uint64) [][]float64 {
		return func(t *testing.T, raw *mat.Dense, y []float64, _ uint64) [][]float64 {
			meth, _ := New(name)
			pred, err := leaveOneOutOf(meth.(logistic), context.Background(), raw, y, nil, &solverRuns{})
			if err != nil {
				t.Fatal(err)
			}
			return pred
		}
	}
	// ridgeLOO is the leave-one-out of every candidate of balanced ridge on z.
	ridgeLOO := func(t *testing.T, z *mat.Dense, y []float64) [][]float64 {
		_, cands, err := balancedRidgeCandidates(context.Background(), z, y)
		if err != nil {
			t.Fatal(err)
		}
		var pred [][]float64
		for _, c := range cands {
			pred = append(pred, c.Pred)
		}
		return pred
	}
	producers := []producer{
		{"l1-logistic", logisticLOO("l1-logistic")},
		{"elastic-net", logisticLOO("elastic-net")},
		{"dictionary", func(t *testing.T, raw *mat.Dense, y []float64, seed uint64) [][]float64 {
			data := Data{X: mat.DenseCopyOf(raw.Slice(0, m, 0, p/2)), H: mat.DenseCopyOf(raw.Slice(0, m, p/2, p)), Y: y}
			meth, _ := New("dictionary")
			_, zc, err := meth.(dictionary).represent(context.Background(), data, seed)
			if err != nil {
				t.Fatal(err)
			}
			return ridgeLOO(t, zc, y)
		}},
		{"balanced ridge (dam without virtual labels)", func(t *testing.T, raw *mat.Dense, y []float64, _ uint64) [][]float64 {
			return ridgeLOO(t, standardised(raw), y)
		}},
		{"dam", func(t *testing.T, raw *mat.Dense, y []float64, seed uint64) [][]float64 {
			// 30 unlabelled noise rows with noise virtual labels.
			u := noiseSample(seed+100, 15, p)
			sc := standardize.Fit(raw)
			zl, _ := sc.Transform(raw)
			zu, _ := sc.Transform(u.X)
			sys, err := newDAMSystem(zl, zu, y, u.Y)
			if err != nil {
				t.Fatal(err)
			}
			var pred [][]float64
			for _, tau := range tauGrid {
				for _, l := range lambdaGrid {
					loo, _, err := sys.solve(context.Background(), tau, l)
					if err != nil {
						t.Fatal(err)
					}
					pred = append(pred, loo)
				}
			}
			return pred
		}},
		{"multikt LS-SVM", func(t *testing.T, raw *mat.Dense, y []float64, _ uint64) [][]float64 {
			zeta := lssvm.BalanceWeights(y)
			gram := lssvm.Gram(standardised(raw), m)
			var pred [][]float64
			for _, c := range cGrid {
				sys, err := lssvm.NewSystem(context.Background(), gram, zeta, c)
				if err != nil {
					continue // singular at this C: not a candidate in MultiKT either
				}
				loo, err := newLOOHinge(context.Background(), sys, y, zeta, nil)
				if err != nil {
					t.Fatal(err)
				}
				pred = append(pred, loo.Predict(nil, nil))
			}
			return pred
		}},
	}
	for _, pr := range producers {
		t.Run(pr.name, func(t *testing.T) {
			var mean []float64
			for seed := range uint64(seeds) {
				s := noiseSample(seed, pos, p)
				pred := pr.loo(t, dense(s.X), s.Y, seed)
				if mean == nil {
					mean = make([]float64, len(pred))
				}
				for k, f := range pred {
					e01, _, ok := looLosses(s.Y, f, pos, pos, tieSquared)
					if !ok {
						t.Fatalf("setting %d: non-finite LOO predictions", k)
					}
					mean[k] += e01 / seeds
				}
			}
			for k, e := range mean {
				// Chance is 1/2; the mean of 6 × 20 LOO decisions has a
				// standard deviation of about 0.05 at chance.
				if e < 0.3 {
					t.Errorf("setting %d: mean class-balanced LOO error %.3f on noise, want ≥ 0.3 (chance 0.5)", k, e)
				}
			}
			t.Logf("mean LOO error per setting: %.2f", mean)
		})
	}
}

// noiseSample draws pos positives and pos negatives with p standard normal
// columns of different means and scales that carry no information about
// the labels.
func noiseSample(seed uint64, pos, p int) Data {
	s := syntheticTransfer(seed, 2*pos, pos, p, 0, 0)
	for i := range 2 * pos {
		row := dense(s.X).RawRowView(i)
		for j := range row {
			row[j] = float64(j%5+1)*row[j] + float64(j%3)
		}
	}
	return s
}

// TestLogisticFit: the model is the solver's at the chosen C (for the
// exact solvers its objective is optimal; for l1-logistic it is liblinear's
// -s 6 fit with scikit-learn's settings and the fit's seed), it is above
// chance on a synthetic transfer problem, and the L1 penalty zeroes most
// noise columns.
func TestLogisticFit(t *testing.T) {
	train, test := damSplit(72, 5, 30, 10, 2.5)
	const seed = 5
	for _, name := range []string{"l1-logistic", "l1-logistic:exact=1", "elastic-net"} {
		meth, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		model, err := meth.Fit(context.Background(), train, Extra{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		hp := model.Hyperparameters()
		f, err := model.Predict(test)
		if err != nil {
			t.Fatal(err)
		}
		acc := balancedAcc(t, f, test.Y)
		lin := model.(*Linear)
		// The model is named by the spec and its file reads back.
		if lin.Name != name {
			t.Errorf("%s: model named %q", name, lin.Name)
		}
		var buf bytes.Buffer
		if err := WriteModel(&buf, model); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := ReadModel(&buf)
		if err != nil {
			t.Fatalf("%s: reading its model file: %v", name, err)
		}
		if g, _ := back.Predict(test); !slices.Equal(g, f) {
			t.Errorf("%s: the model read back predicts differently", name)
		}
		zeros := 0
		for _, w := range append(append([]float64(nil), lin.WX[1:]...), lin.WH[1:]...) {
			if w == 0 {
				zeros++
			}
		}
		t.Logf("%s: balanced accuracy %.3f, %v, %d of 38 noise weights zero", name, acc, hp, zeros)
		if acc < 0.8 {
			t.Errorf("%s: balanced accuracy %.3f, want ≥ 0.8", name, acc)
		}
		if zeros < 19 {
			t.Errorf("%s: only %d of 38 noise weights are zero", name, zeros)
		}
		l := meth.(logistic)
		zTrain, _ := standardisedColumns(lin.X, lin.H, train)
		w := append(append(append([]float64(nil), lin.WX...), lin.WH...), lin.B)
		if l.standard {
			// liblinear's fit with scikit-learn's settings at the chosen C,
			// on every column, from zero, with the fit's seed.
			ref := trainAll(t, zTrain, train.Y, standardL1Params(hp["C"], seed))
			for j := range w {
				if w[j] != ref[j] {
					t.Errorf("%s: weight %d = %.10g, liblinear -s 6 %.10g", name, j, w[j], ref[j])
				}
			}
			continue
		}
		// The solver's optimum at the chosen C: both are within the
		// solver's relative duality gap (1e-4) of the optimal value.
		prob := &linear.Problem{X: sparse.FromDense(zTrain), Y: train.Y, Bias: 1}
		ref := trainAll(t, zTrain, train.Y, l.params(hp["C"]))
		got, want := linear.PrimalObjective(prob, l.params(hp["C"]), w), linear.PrimalObjective(prob, l.params(hp["C"]), ref)
		if math.Abs(got-want) > 1e-4*want {
			t.Errorf("%s: objective %.10g, solver %.10g", name, got, want)
		}
	}
}

// TestLogisticEdgeCases: a single positive (its fold has one class left:
// decision value 0), no sources, no features.
func TestLogisticEdgeCases(t *testing.T) {
	single := syntheticTransfer(73, 11, 1, 6, 4, 2)
	pred, err := leaveOneOutOf(tightLogistic("l1-logistic"), context.Background(), concatColumns(dense(single.X), dense(single.H)), single.Y, nil, &solverRuns{})
	if err != nil {
		t.Fatal(err)
	}
	for g := range cGrid {
		if pred[g][0] != 0 {
			t.Errorf("C=%g: the single positive's LOO value is %g, want 0", cGrid[g], pred[g][0])
		}
	}
	base := syntheticTransfer(74, 12, 2, 6, 4, 2)
	for _, tc := range []struct {
		name   string
		data   Data
		nx, nh int
	}{
		{"single positive", single, 6, 4},
		{"no sources", Data{X: base.X, Y: base.Y}, 6, 0},
		{"no features", Data{H: base.H, Y: base.Y}, 0, 4},
	} {
		for _, name := range []string{"l1-logistic", "elastic-net"} {
			model := tryFit(t, name, tc.name, tc.data)
			if model == nil {
				continue
			}
			lin := model.(*Linear)
			if len(lin.WX) != tc.nx || len(lin.WH) != tc.nh {
				t.Errorf("%s %s: %d feature and %d source weights", name, tc.name, len(lin.WX), len(lin.WH))
			}
			if _, err := model.Predict(tc.data); err != nil {
				t.Errorf("%s %s: %v", name, tc.name, err)
			}
		}
	}
	// A cancelled context stops the fit.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	meth, _ := New("l1-logistic")
	if _, err := meth.Fit(ctx, base, Extra{}); err == nil {
		t.Error("cancelled context: no error")
	}
}

// TestL1LogisticSpec: l1-logistic's one setting, exact (0 or 1), selects
// the solver and names the method; other keys and values are rejected.
func TestL1LogisticSpec(t *testing.T) {
	for _, tc := range []struct {
		spec, name string
		standard   bool
		bad        bool
	}{
		{"l1-logistic", "l1-logistic", true, false},
		{"l1-logistic:exact=0", "l1-logistic", true, false},
		{"l1-logistic:exact=1", "l1-logistic:exact=1", false, false},
		{"l1-logistic:exact=2", "", false, true},
		{"l1-logistic:tol=1", "", false, true},
	} {
		meth, err := New(tc.spec)
		if tc.bad {
			if err == nil {
				t.Errorf("%s: no error", tc.spec)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		l := meth.(logistic)
		if l.Name() != tc.name || l.standard != tc.standard {
			t.Errorf("%s: name %q standard %v, want %q %v", tc.spec, l.Name(), l.standard, tc.name, tc.standard)
		}
	}
}

// looFailingFolds returns 12 examples, labels alternating ±1, whose
// leave-one-out folds 0, …, k−1 fail standardising: column j < k holds
// j+1 plus i·1e-10 in example i, but 1e300 in example j, which, left out,
// standardises to about 3e309 with the others' statistics (every other
// fold keeps it and standardises); a last column holds sin(i).
func looFailingFolds(k int) (*mat.Dense, []float64) {
	const m = 12
	raw := mat.NewDense(m, k+1, nil)
	y := make([]float64, m)
	for i := range m {
		for j := range k {
			raw.Set(i, j, float64(j+1)+float64(i)*1e-10)
		}
		raw.Set(i, k, math.Sin(float64(i)))
		y[i] = float64(1 - 2*(i%2))
	}
	for j := range k {
		raw.Set(j, j, 1e300)
	}
	return raw, y
}

// TestLogisticLOOStopsAtFailingFold: the first leave-one-out fold that
// fails stops the others. Example 0's feature is 1e300 where the others'
// are 1 apart by 1e-10: without it the column's standard deviation is
// about 3e-10, so example 0 standardises to about 3e309 and its fold
// fails; every other fold keeps it and standardises. On one worker, fold 0
// runs first and no other fold solves (before, the 11 others ran: 99
// solves, 9 C each).
func TestLogisticLOOStopsAtFailingFold(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	raw, y := looFailingFolds(1)
	for _, name := range []string{"l1-logistic", "elastic-net"} {
		meth, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		var runs solverRuns
		if _, err := leaveOneOutOf(meth.(logistic), context.Background(), raw, y, nil, &runs); err == nil || !strings.Contains(err.Error(), "too large to standardise") {
			t.Fatalf("%s: error %v; want fold 0's error (too large to standardise)", name, err)
		}
		if n := runs.runs.Load(); n != 0 {
			t.Errorf("%s: %d solves after fold 0 failed; want 0", name, n)
		}
	}
}

// TestLogisticLOOErrorIsTheLowestFold: folds 0 and 1 both fail (examples
// 0 and 1 are too large for the others' statistics, in columns 0 and 1),
// on two workers, and fold 0 fails after fold 1 in time (it waits for
// fold 1 to have failed, then a little, or until its context is done);
// Fit's error is fold 0's every time, as the folds' order decides, not
// their timing (before, parallel.For gave fold 1's, the first in time).
func TestLogisticLOOErrorIsTheLowestFold(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	raw, y := looFailingFolds(2)
	real := foldFunc
	defer func() { foldFunc = real }()
	var failed1 chan struct{}
	foldFunc = func(l logistic, ctx context.Context, raw *mat.Dense, y []float64, fold []int, f int, full, pred [][]float64, runs *solverRuns) error {
		switch f {
		case 0:
			<-failed1
			select {
			case <-ctx.Done():
			case <-time.After(2 * time.Millisecond):
			}
		case 1:
			defer close(failed1)
		}
		return real(l, ctx, raw, y, fold, f, full, pred, runs)
	}
	for _, name := range []string{"l1-logistic", "elastic-net"} {
		meth, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		for run := range 200 {
			failed1 = make(chan struct{})
			_, err := meth.Fit(context.Background(), Data{X: raw, Y: y}, Extra{})
			if err == nil || !strings.Contains(err.Error(), "row 0 column 0 = 1e+300 is too large") {
				t.Fatalf("%s, run %d: error %v; want fold 0's (its example, row 0 of the held-out row, too large in column 0; fold 1's is column 1)", name, run, err)
			}
		}
	}
}

// leaveOneOutOf returns l's leave-one-out decision values on raw and y
// (heldOut with one fold per example, as Fit folds at most
// logisticLOOMaxRows examples).
func leaveOneOutOf(l logistic, ctx context.Context, raw *mat.Dense, y []float64, full [][]float64, runs *solverRuns) ([][]float64, error) {
	fold := make([]int, len(y))
	for i := range fold {
		fold[i] = i
	}
	return l.heldOut(ctx, raw, y, fold, len(y), full, runs)
}
