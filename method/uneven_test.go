package method

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"

	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// unevenProblem draws a problem of K classes whose training counts are
// shots (one a class) and test rows test a class: each class a cluster of
// standard deviation 0.3 about its own corner 4·e_k of the first K of d
// feature columns, so that every class is clearly separable from the
// others (each row is nearer its own corner than any other by a wide
// margin); H, when n > 0, holds n columns of noise (sources that know
// nothing of these classes).
func unevenProblem(seed uint64, shots []int, test, d, n int) (train Data, y ClassLabels, testData Data, ytest []int) {
	rng := rand.New(rand.NewPCG(seed, 0x756e6576))
	K := len(shots)
	names := make([]string, K)
	for k := range names {
		names[k] = fmt.Sprintf("class%d", k)
	}
	draw := func(counts []int) (Data, []int) {
		var labels []int
		for k, c := range counts {
			for range c {
				labels = append(labels, k)
			}
		}
		m := len(labels)
		X := mat.NewDense(m, d, nil)
		for i, k := range labels {
			for j := range d {
				v := 0.3 * rng.NormFloat64()
				if j == k {
					v += 4
				}
				X.Set(i, j, v)
			}
		}
		data := Data{X: X}
		if n > 0 {
			H := mat.NewDense(m, n, nil)
			for i := range m {
				for j := range n {
					H.Set(i, j, rng.NormFloat64())
				}
			}
			data.H = H
		}
		return data, labels
	}
	train, trainY := draw(shots)
	tests := make([]int, K)
	for k := range tests {
		tests[k] = test
	}
	testData, ytest = draw(tests)
	return train, ClassLabels{Names: names, Y: trainY}, testData, ytest
}

// TestMultinomialFitsSeeEveryClassOfAnUnevenSample fits greedytl-nway and
// multinomial-logistic on clearly separable classes with uneven training
// counts — one class of one example beside four of ten, and one class of
// ten beside four of one — and requires every class to be predicted for
// some of its test rows (a recall above 0). A fit whose loss weighs each
// example alike lets the class frequencies, its intercepts, decide when C
// regularises the weights hard: greedytl-nway, on rows of unit norm with
// C = 1 (no cross-validation with a class of one example), predicted the
// larger classes for every test row of the smaller ones (recall 0 on
// COIL-100 colour histograms in 10 of 10 episodes). Class-balanced
// weights (classBalancedWeights) give every class the same say.
func TestMultinomialFitsSeeEveryClassOfAnUnevenSample(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shots []int
		n     int // source columns
	}{
		{"one-beside-tens", []int{1, 10, 10, 10, 10}, 0},
		{"one-beside-tens-with-sources", []int{1, 10, 10, 10, 10}, 3},
		{"ten-beside-ones", []int{10, 1, 1, 1, 1}, 0},
		{"ten-beside-ones-with-sources", []int{10, 1, 1, 1, 1}, 3},
	} {
		for _, name := range []string{"greedytl-nway", "multinomial-logistic"} {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				for seed := range uint64(3) {
					train, y, test, ytest := unevenProblem(seed, tc.shots, 20, 8, tc.n)
					m, err := NewMulti(name)
					if err != nil {
						t.Fatal(err)
					}
					model, err := m.FitMulti(context.Background(), train, y, Extra{Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					pred, err := model.Predict(test)
					if err != nil {
						t.Fatal(err)
					}
					hits := make([]int, len(tc.shots))
					for i, k := range ytest {
						if pred[i] == k {
							hits[k]++
						}
					}
					if slices.Contains(hits, 0) {
						t.Errorf("seed %d: test rows predicted right per class %v (of 20 each; training counts %v): a clearly separable class is never predicted", seed, hits, tc.shots)
					}
				}
			})
		}
	}
}

// TestClassBalancedWeights checks the weights' definition: every class's
// total weight is m/K, they sum to m, and with equal counts there are none
// (nil), which leaves every fit as it was, bit for bit; and that explicit
// weights of 1 give fitMultinomial the same parameters, bit for bit, as
// no weights (1·v = v: the claim nil rests on).
func TestClassBalancedWeights(t *testing.T) {
	y := ClassLabels{Names: []string{"a", "b", "c"}, Y: []int{0, 1, 1, 2, 2, 2, 2, 1, 2}}
	w := classBalancedWeights(y)
	total := make([]float64, 3)
	var sum float64
	for i, c := range y.Y {
		total[c] += w[i]
		sum += w[i]
	}
	for c, v := range total {
		if d := v - 3; d > 1e-12 || d < -1e-12 {
			t.Errorf("class %d's total weight %g, want m/K = 3", c, v)
		}
	}
	if d := sum - 9; d > 1e-12 || d < -1e-12 {
		t.Errorf("the weights sum to %g, want m = 9", sum)
	}
	if w := classBalancedWeights(ClassLabels{Names: []string{"a", "b"}, Y: []int{1, 0, 0, 1}}); w != nil {
		t.Errorf("equal counts gave weights %v, want none", w)
	}

	train, yy, _, _ := multiProblem(3, 4, 3, 1, 30, 4)
	_, Z, err := fitMultiBlocks(train, standardize.Fit, standardize.Fit)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, len(yy.Y))
	ones := make([]float64, len(yy.Y))
	for i := range all {
		all[i], ones[i] = i, 1
	}
	plain, _, err := fitMultinomial(context.Background(), Z, yy.Y, nil, 4, all, 1, nil, 1e-7)
	if err != nil {
		t.Fatal(err)
	}
	weighted, _, err := fitMultinomial(context.Background(), Z, yy.Y, ones, 4, all, 1, nil, 1e-7)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plain, weighted) {
		t.Error("weights of 1 moved fitMultinomial's parameters")
	}
}

// TestMultinomialLogisticUnevenMatchesSklearnBalanced compares the
// class-balanced multinomial fit's weights and intercepts directly with
// scikit-learn's LogisticRegression(multi_class="multinomial",
// solver="newton-cg", class_weight="balanced") — the peer's own weights,
// not ours, so that a wrong weight formula shows — on the same columns:
//
//   - fitMultinomial with classBalancedWeights, to a gradient of 1e-8, on
//     four uneven problems of overlapping classes (unevenOverlapProblem)
//     at C = 1, 0.1, 10, 1;
//   - multinomial-logistic's model (FitMulti, its final fit to
//     multinomialTol) on the standardised columns of an uneven sample with
//     a class of one example, where C is the default 1.
//
// The tolerance follows from the solvers': ours stops at a gradient of
// infinity norm g (so of 2-norm at most √(K(p+1))·g) on the objective
// divided by C·m, whose curvature is at least 1/(C·m) along W and, along
// the unpenalised intercepts, that of the weighted loss, taken as at least
// 1/10; so the parameters are within √(K(p+1))·g·max(C·m, 10) of the
// minimiser (8.1e-6 at C = 10, m = 19, K = 3, p = 5; 8.4e-6 for FitMulti's
// model). newton-cg stops at 1e-12 on the objective divided by C, or
// where one more iteration no longer moves it (sklearnMultinomialScript),
// orders below. The bound is orders below the fits' difference from the
// unweighted ones, which the test checks (so that it tells the weighting
// from none). (A tighter g is not reached: below about 1e-9 the objective's
// decrease is lost in its rounding, and L-BFGS reports no convergence.)
func TestMultinomialLogisticUnevenMatchesSklearnBalanced(t *testing.T) {
	py := peertest.PythonWith(t, "numpy", "sklearn")
	ctx := context.Background()
	const gradTol = 1e-8
	compare := func(what string, Z *mat.Dense, y ClassLabels, C float64, W *mat.Dense, b []float64, unW *mat.Dense, unB []float64, tol float64) {
		t.Helper()
		wantW, wantB := sklearnMultinomial(t, py, Z, y.Y, len(y.Names), C, "newton-cg", "balanced")
		worst, worstUn := maxAbsDiff(W, b, wantW, wantB), maxAbsDiff(unW, unB, wantW, wantB)
		t.Logf("%s: largest difference from scikit-learn's class_weight=\"balanced\" %.2g; the unweighted fit's %.2g", what, worst, worstUn)
		if worst > tol {
			t.Errorf("%s: weights and intercepts differ from scikit-learn's class_weight=\"balanced\" by up to %g, want ≤ %g", what, worst, tol)
		}
		if worstUn <= 100*tol {
			t.Errorf("%s: the unweighted fit is within %g of scikit-learn's balanced one: the problem does not tell the weighting from none", what, worstUn)
		}
	}
	for _, tc := range []struct {
		seed  uint64
		shots []int
		d     int
		C     float64
	}{
		{1, []int{2, 7, 4}, 3, 1},
		{2, []int{1, 9, 5, 3}, 4, 0.1},
		{3, []int{6, 2, 11}, 5, 10},
		{4, []int{3, 3, 8, 1, 5}, 4, 1},
	} {
		Z, y := unevenOverlapProblem(tc.seed, tc.shots, tc.d)
		fit := func(weights []float64) (*mat.Dense, []float64) {
			all := make([]int, len(y.Y))
			for i := range all {
				all[i] = i
			}
			x, converged, err := fitMultinomial(ctx, Z, y.Y, weights, len(tc.shots), all, tc.C, nil, gradTol)
			if err != nil {
				t.Fatal(err)
			}
			if !converged {
				t.Fatalf("seed %d: L-BFGS did not reach its tolerance", tc.seed)
			}
			_, p := Z.Dims()
			K := len(tc.shots)
			return mat.NewDense(K, p, slices.Clone(x[:K*p])), centred(x[K*p:])
		}
		W, b := fit(classBalancedWeights(y))
		unW, unB := fit(nil)
		compare(fmt.Sprintf("counts %v, C = %g", tc.shots, tc.C), Z, y, tc.C, W, b, unW, unB, parameterBound(Z, len(tc.shots), tc.C, gradTol))
	}

	train, y, _, _ := unevenProblem(5, []int{1, 4, 6, 3}, 1, 6, 2)
	mm, err := NewMulti("multinomial-logistic")
	if err != nil {
		t.Fatal(err)
	}
	model, err := mm.FitMulti(ctx, train, y, Extra{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	l := model.(*LinearMulti)
	if c := l.hyper["C"]; c != multinomialDefaultC {
		t.Fatalf("C = %g with a class of one example, want the default %g", c, multinomialDefaultC)
	}
	_, Z, err := fitMultiBlocks(train, standardize.Fit, standardize.Fit)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, len(y.Y))
	for i := range all {
		all[i] = i
	}
	x, _, err := fitMultinomial(ctx, Z, y.Y, nil, len(y.Names), all, multinomialDefaultC, nil, multinomialTol)
	if err != nil {
		t.Fatal(err)
	}
	K, p := l.w.Dims()
	compare("multinomial-logistic's model", Z, y, multinomialDefaultC, l.w, l.b, mat.NewDense(K, p, x[:K*p]), centred(x[K*p:]), parameterBound(Z, K, multinomialDefaultC, multinomialTol))
}

// parameterBound returns √(K(p+1))·g·max(C·m, 10), the distance from the
// minimiser within which a fit of K classes on the m × p matrix Z at C,
// stopped at a gradient of infinity norm g, lies (see
// TestMultinomialLogisticUnevenMatchesSklearnBalanced).
func parameterBound(Z *mat.Dense, K int, C, g float64) float64 {
	m, p := Z.Dims()
	return math.Sqrt(float64(K*(p+1))) * g * max(C*float64(m), 10)
}

// unevenOverlapProblem draws K = len(shots) classes of shots[k] examples
// each, in d columns of standard normal noise, class k's shifted by 0.8 in
// the columns j with j mod K = k: overlapping classes, on which the
// class-balanced fit and the unweighted one differ at every C.
func unevenOverlapProblem(seed uint64, shots []int, d int) (*mat.Dense, ClassLabels) {
	rng := rand.New(rand.NewPCG(seed, 56))
	names := make([]string, len(shots))
	var y []int
	for k, c := range shots {
		names[k] = fmt.Sprintf("class%d", k)
		for range c {
			y = append(y, k)
		}
	}
	Z := mat.NewDense(len(y), d, nil)
	for i, k := range y {
		for j := range d {
			v := rng.NormFloat64()
			if j%len(shots) == k {
				v += 0.8
			}
			Z.Set(i, j, v)
		}
	}
	return Z, ClassLabels{Names: names, Y: y}
}

// centred returns a copy of b less its mean (the intercepts as the models
// report them, Σ_k b_k = 0).
func centred(b []float64) []float64 {
	var mean float64
	for _, v := range b {
		mean += v / float64(len(b))
	}
	out := make([]float64, len(b))
	for k, v := range b {
		out[k] = v - mean
	}
	return out
}

// maxAbsDiff returns the largest absolute difference between the weights
// W and V and between the intercepts b and c.
func maxAbsDiff(W *mat.Dense, b []float64, V *mat.Dense, c []float64) float64 {
	var worst float64
	K, p := W.Dims()
	for k := range K {
		for j := range p {
			worst = max(worst, math.Abs(W.At(k, j)-V.At(k, j)))
		}
		worst = max(worst, math.Abs(b[k]-c[k]))
	}
	return worst
}

// TestMultinomialCVWeightsAreTheCVSamples checks the wiring of the
// class-balanced weights into multinomial-logistic's choice of C: FitMulti's
// C is chooseMultinomialC's on the rows it reads (content order, as
// fitMultiScaled reads them; the standardised columns, in their row span)
// with classBalancedWeights of the cross-validation's own sample — all the
// rows, or, with a class of more than multinomialCVPerClass examples, the
// sub-sample cvSubsample draws. The problems are uneven and blurred (noise
// of standard deviation 4 on clusters 4 apart) so that C matters, and each
// was picked because the choice tells the wirings apart: unweighted
// (nil) weights choose another C on each, and, on the two with a class
// of 25, so do the whole sample's weights, which a sub-sample's rows
// would read by the wrong index. The test checks that it still tells them
// apart, so that it cannot pass for a reason other than the wiring.
func TestMultinomialCVWeightsAreTheCVSamples(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		shots []int
		seed  uint64
	}{
		{[]int{2, 9, 3}, 0},
		{[]int{3, 10, 2, 6}, 1},
		{[]int{2, 25, 6}, 1},
		{[]int{4, 25, 3, 9}, 0},
	} {
		train, y, _, _ := unevenProblem(tc.seed, tc.shots, 1, 6, 0)
		r, c := train.X.Dims()
		rng := rand.New(rand.NewPCG(tc.seed, 3))
		for i := range r {
			for j := range c {
				train.X.(*mat.Dense).Set(i, j, train.X.At(i, j)+4*rng.NormFloat64())
			}
		}
		inOrder, order := inContentOrder(train, y.Y)
		yc := y.rows(order)
		_, Z, err := fitMultiBlocks(inOrder, standardize.Fit, standardize.Fit)
		if err != nil {
			t.Fatal(err)
		}
		Fcv, ycv := Z, yc
		rows := cvSubsample(yc, tc.seed)
		if rows != nil {
			Fcv, ycv = rowsOf(Z, rows), yc.rows(rows)
		}
		if Fcv, _, err = reduceRows(ctx, Fcv); err != nil {
			t.Fatal(err)
		}
		choose := func(weights []float64) float64 {
			c, err := chooseMultinomialC(ctx, Fcv, ycv, weights, tc.seed, &solverRuns{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		want := choose(classBalancedWeights(ycv))
		if u := choose(nil); u == want {
			t.Fatalf("%v seed %d: the unweighted search chooses C = %g too: the problem no longer tells the wirings apart", tc.shots, tc.seed, u)
		}
		if sub := slices.Max(tc.shots) > multinomialCVPerClass; sub != (rows != nil) {
			t.Fatalf("%v: cvSubsample returned %d rows", tc.shots, len(rows))
		} else if sub {
			if whole := choose(classBalancedWeights(yc)); whole == want {
				t.Fatalf("%v seed %d: the whole sample's weights choose C = %g too: the problem no longer tells the wirings apart", tc.shots, tc.seed, whole)
			}
		}
		mm, err := NewMulti("multinomial-logistic")
		if err != nil {
			t.Fatal(err)
		}
		model, err := mm.FitMulti(ctx, train, y, Extra{Seed: tc.seed})
		if err != nil {
			t.Fatal(err)
		}
		if got := model.Hyperparameters()["C"]; got != want {
			t.Errorf("%v seed %d: FitMulti chose C = %g, the cross-validation weighted by its own sample's classes %g", tc.shots, tc.seed, got, want)
		}
	}
}
