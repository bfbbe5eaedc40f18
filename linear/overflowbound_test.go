package linear

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/sparse"
)

// TestCheckWeightsBound: checkWeights gives the same answer whether it
// may skip the decision values by cannotOverflow's bound or must compute
// them, and the bound skips them for ordinary data (the point of it) but
// not where it fails: a row of large features with a small weight on them
// (no overflow, the bound alone would refuse), an overflowing row. A
// problem built without the bound (the caller's, as a solver path that
// forgot to set it would pass) bounds nothing: its decision values are
// computed.
func TestCheckWeightsBound(t *testing.T) {
	small := &sparse.CSR{R: 3, C: 2, Ptr: []int{0, 1, 2, 4}, Ind: []int{0, 1, 0, 1}, Val: []float64{1, 1, -3, 0.5}}
	big := &sparse.CSR{R: 3, C: 2, Ptr: []int{0, 1, 2, 4}, Ind: []int{0, 1, 0, 1}, Val: []float64{1e300, 1, -3, 0.5}}
	for _, tc := range []struct {
		name     string
		prob     *Problem
		w        []float64
		skip, ok bool
	}{
		{"ordinary", randomProblem(3, 50, 8, 0.5, 1), []float64{1, -2, 3, 0.5, 0, 7, -1, 2, 0.25}, true, true},
		{"bias feature", &Problem{X: big, Y: []float64{1, -1, 1}, Bias: 1e300}, []float64{1e-300, 1e8, 1e-300}, false, true},
		{"large feature, small weight", &Problem{X: big, Y: []float64{1, -1, 1}, Bias: -1}, []float64{1e-300, 1e10}, false, true},
		{"the bound's edge", &Problem{X: big, Y: []float64{1, -1, 1}, Bias: -1}, []float64{math.MaxFloat64 / 4e300, 1}, true, true},
		{"an overflowing row", &Problem{X: big, Y: []float64{1, -1, 1}, Bias: -1}, []float64{1e10, 1}, false, false},
		{"an overflowing bias", &Problem{X: small, Y: []float64{1, -1, 1}, Bias: 1e300}, []float64{1, 1, 1e10}, false, false},
	} {
		rowL1, err := checkProblem(tc.prob)
		if err != nil {
			t.Fatal(err)
		}
		wMax := slices.Max(abs(tc.w))
		if got := cannotOverflow(wMax, tc.prob.Bias, rowL1); got != tc.skip {
			t.Errorf("%s: cannotOverflow %v, want %v", tc.name, got, tc.skip)
		}
		if cannotOverflow(wMax, tc.prob.Bias, math.Inf(1)) {
			t.Errorf("%s: cannotOverflow without a bound (+Inf)", tc.name)
		}
		bound, unknown := *tc.prob, *tc.prob
		bound.rowL1, unknown.rowL1 = knownL1(rowL1), knownL1(math.Inf(1))
		e1, e2, e3 := checkWeights(tc.w, &bound), checkWeights(tc.w, &unknown), checkWeights(tc.w, tc.prob)
		if (e1 == nil) != tc.ok || (e2 == nil) != tc.ok || e1 != nil && e1.Error() != e2.Error() {
			t.Errorf("%s: checkWeights %v with the bound, %v without; want ok %v", tc.name, e1, e2, tc.ok)
		}
		if fmt.Sprint(e3) != fmt.Sprint(e2) {
			t.Errorf("%s: checkWeights of a problem whose bound was never set: %v; want %v, as with no bound (+Inf)", tc.name, e3, e2)
		}
	}
}

func abs(w []float64) []float64 {
	a := make([]float64, len(w))
	for j, v := range w {
		a[j] = math.Abs(v)
	}
	return a
}

// TestTrainBoundFails: a Dense problem whose storage holds a row it does
// not select, of features whose ℓ1 norm overflows, records a bound that
// fails for any non-zero weights; Train and CrossValidate then compute the
// decision values and give, bit for bit, what the problem of the selected
// rows alone gives (whose bound holds).
func TestTrainBoundFails(t *testing.T) {
	src := randomProblem(5, 60, 6, 1, 1)
	dense := make([]float64, 0, 61*6)
	for i := range src.X.R {
		_, val := src.X.Row(i)
		dense = append(dense, val...)
	}
	rows := make([]int, 60)
	for i := range rows {
		rows[i] = i
	}
	plain, err := NewDense64(dense, 6, rows)
	if err != nil {
		t.Fatal(err)
	}
	withBig, err := NewDense64(append(slices.Clone(dense), math.MaxFloat64, math.MaxFloat64, 1, 1, 1, 1), 6, rows)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(withBig.rowL1, 1) || math.IsInf(plain.rowL1, 0) {
		t.Fatalf("row bounds %v and %v, want +Inf and finite", withBig.rowL1, plain.rowL1)
	}
	for _, s := range []Solver{L2RLR, L2RL2LossSVCDual, L1RLR} {
		p := Params{Solver: s, C: 2}
		a, err := Train(context.Background(), &Problem{Dense: plain, Y: src.Y, Bias: 1}, p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Train(context.Background(), &Problem{Dense: withBig, Y: src.Y, Bias: 1}, p)
		if err != nil {
			t.Fatalf("%v with a failing bound: %v", s, err)
		}
		ca, err := CrossValidate(context.Background(), &Problem{Dense: plain, Y: src.Y, Bias: 1}, p, 5, 1)
		if err != nil {
			t.Fatal(err)
		}
		cb, err := CrossValidate(context.Background(), &Problem{Dense: withBig, Y: src.Y, Bias: 1}, p, 5, 1)
		if err != nil {
			t.Fatalf("%v: CrossValidate with a failing bound: %v", s, err)
		}
		if !slices.Equal(a.W, b.W) || !slices.Equal(ca, cb) {
			t.Errorf("%v: weights equal %v, cross-validated values equal %v; want both", s, slices.Equal(a.W, b.W), slices.Equal(ca, cb))
		}
	}
}

// TestFoldBound: the bound the cross-validations pass to checkWeights for
// every fold, that of the whole problem, holds for each fold's rows (their
// own bound, checkProblem's, is no larger), for sparse rows and for Dense
// rows selected from a larger storage.
func TestFoldBound(t *testing.T) {
	src := randomProblem(9, 40, 5, 0.6, 1)
	dense := src.X.Dense().RawMatrix().Data
	index := make([]int, 30)
	for i := range index {
		index[i] = 39 - i
	}
	d, err := NewDense64(dense, 5, index)
	if err != nil {
		t.Fatal(err)
	}
	for _, prob := range []*Problem{src, {Dense: d, Y: src.Y[:30], Bias: 1}} {
		for _, s := range []Solver{L2RLR, L1RLR} {
			setup, err := newCVSetup(context.Background(), prob, Params{Solver: s}, 4, 1)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := checkProblem(prob)
			if err != nil || setup.prob.rowL1 != knownL1(whole) {
				t.Fatalf("%v: the setup's bound %v, the problem's %v (%v)", s, setup.prob.rowL1, whole, err)
			}
			for k := range 4 {
				train, _ := setup.split(k)
				own, err := checkProblem(train)
				if err != nil || !(own <= train.rowL1.value()) || own == 0 || train.rowL1 != knownL1(whole) {
					t.Errorf("%v: fold %d's rows have bound %v (%v), over the %v they carry (want the whole's %v)", s, k, own, err, train.rowL1, whole)
				}
			}
		}
	}
}
