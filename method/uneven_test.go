package method

import (
	"context"
	"fmt"
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
	_, Z, err := fitMultiBlocks(train, standardize.Fit)
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

// TestMultinomialLogisticUnevenMatchesSklearnBalanced fits
// multinomial-logistic on an uneven sample with a class of one example,
// where C is the default, 1, and compares its weights and intercepts on
// the standardised columns with scikit-learn's
// LogisticRegression(C=1, class_weight="balanced") on the same columns by
// the class-balanced objective (each example's loss weighted so that every
// class has the same total weight): ours must be no larger than the
// peer's minimiser's, to a relative 1e-9 (the fit stops at a gradient of
// multinomialTol).
func TestMultinomialLogisticUnevenMatchesSklearnBalanced(t *testing.T) {
	py := peertest.PythonWith(t, "numpy", "sklearn")
	train, y, _, _ := unevenProblem(5, []int{1, 4, 6, 3}, 1, 6, 2)
	mm, err := NewMulti("multinomial-logistic")
	if err != nil {
		t.Fatal(err)
	}
	model, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	l := model.(*LinearMulti)
	if c := l.hyper["C"]; c != multinomialDefaultC {
		t.Fatalf("C = %g with a class of one example, want the default %g", c, multinomialDefaultC)
	}
	_, Z, err := fitMultiBlocks(train, standardize.Fit)
	if err != nil {
		t.Fatal(err)
	}
	wantW, wantB := sklearnMultinomial(t, py, Z, y.Y, len(y.Names), 1, "balanced")
	weights := classBalancedWeights(y)
	got := multinomialObjective(Z, y.Y, weights, l.w, l.b, 1)
	peer := multinomialObjective(Z, y.Y, weights, wantW, wantB, 1)
	if got > peer*(1+1e-9) {
		t.Errorf("class-balanced objective %.17g, scikit-learn's %.17g: ours should be no larger", got, peer)
	}
	t.Logf("class-balanced objective %.17g, scikit-learn's %.17g", got, peer)
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
		_, Z, err := fitMultiBlocks(inOrder, standardize.Fit)
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
			c, err := chooseMultinomialC(ctx, Fcv, ycv, weights, tc.seed, &solverRuns{})
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
