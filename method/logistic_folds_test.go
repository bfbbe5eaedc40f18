package method

import (
	"context"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// foldSample draws a synthetic transfer sample of m examples (a quarter
// positive) with 5 features and 3 sources and a weak signal, so that the
// held-out error differs between the C of the grid.
func foldSample(seed uint64, m int) Data {
	return syntheticTransfer(seed, m, m/4, 5, 3, 0.6)
}

// TestLogisticFolds: up to logisticLOOMaxRows examples the folds are one
// per example (leave-one-out, fold i = example i); above it there are
// logisticFoldCount folds, each class's counts in them differing by at
// most one; and Fit fits one fold model per fold — 200 at the threshold,
// 5 one example above it (before, it fitted 201: leave-one-out at every
// size).
func TestLogisticFolds(t *testing.T) {
	for _, m := range []int{logisticLOOMaxRows, logisticLOOMaxRows + 1} {
		data := foldSample(7, m)
		fold, k := logisticFolds(data.Y)
		if m <= logisticLOOMaxRows {
			if k != m {
				t.Fatalf("m = %d: %d folds, want %d (leave-one-out)", m, k, m)
			}
			for i, f := range fold {
				if f != i {
					t.Fatalf("m = %d: example %d in fold %d, want its own", m, i, f)
				}
			}
		} else {
			if k != logisticFoldCount {
				t.Fatalf("m = %d: %d folds, want %d", m, k, logisticFoldCount)
			}
			counts := make([][2]int, k)
			for i, f := range fold {
				c := 0
				if data.Y[i] < 0 {
					c = 1
				}
				counts[f][c]++
			}
			for c := range 2 {
				lo, hi := m, 0
				for f := range k {
					lo, hi = min(lo, counts[f][c]), max(hi, counts[f][c])
				}
				if hi-lo > 1 {
					t.Errorf("m = %d: class %d's counts in the folds %v differ by more than one", m, c, counts)
				}
			}
		}
		real := foldFunc
		var calls atomic.Int64
		foldFunc = func(l logistic, ctx context.Context, raw *mat.Dense, y []float64, fold []int, f int, full, pred [][]float64, runs *solverRuns) error {
			calls.Add(1)
			return real(l, ctx, raw, y, fold, f, full, pred, runs)
		}
		meth, err := New("elastic-net")
		if err != nil {
			t.Fatal(err)
		}
		_, err = meth.Fit(context.Background(), data, Extra{})
		foldFunc = real
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(k); calls.Load() != want {
			t.Errorf("m = %d: Fit fitted %d fold models, want %d", m, calls.Load(), want)
		}
	}
}

// TestLogisticKFoldAsBruteForce: above logisticLOOMaxRows the C that Fit
// chooses is the one a brute-force 5-fold cross-validation chooses by
// chooseByLOO's rule: the rows in content order, each class's dealt by
// linear.DealFolds (nil rng), and for every C and fold a model fitted from
// w = 0 on every column (no working set, no path, no hint) on the other
// folds standardised with their own statistics. elastic-net is solved to a
// relative duality gap of 1e-12 on both sides (tightLogistic), so the
// decision values agree to about 1e-5; l1-logistic's standard fit is
// liblinear's with the same seed on the same problem on both sides. Before
// the threshold, Fit chose C by leave-one-out at every size, which on this
// sample chooses otherwise.
func TestLogisticKFoldAsBruteForce(t *testing.T) {
	const m, seed = 240, 11
	data := foldSample(3, m)
	for _, name := range []string{"l1-logistic", "elastic-net"} {
		var l logistic
		if name == "elastic-net" {
			l = tightLogistic(name)
		} else {
			meth, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			l = meth.(logistic)
		}
		model, err := l.Fit(context.Background(), data, Extra{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		got := model.(*Linear).Hyper["C"]

		ord, _ := inContentOrder(data, data.Y)
		raw := concatColumns(dense(ord.X), dense(ord.H))
		pos, neg := classRows(ord.Y)
		fold := linear.DealFolds([][]int{pos, neg}, 5, nil)
		cands := make([]looCandidate, len(cGrid))
		for g, c := range cGrid {
			cands[g] = looCandidate{Strength: 1 / c, Pred: make([]float64, m)}
			params := linear.Params{Solver: linear.ElasticNetLR, C: c, L1Ratio: 0.5, Eps: 1e-12}
			if name == "l1-logistic" {
				params = standardL1Params(c, seed)
			}
			for f := range 5 {
				in, out := linear.FoldRows(fold, f)
				sc := standardize.Fit(rowsOf(raw, in))
				z, err := sc.Transform(rowsOf(raw, in))
				if err != nil {
					t.Fatal(err)
				}
				zo, err := sc.Transform(rowsOf(raw, out))
				if err != nil {
					t.Fatal(err)
				}
				yIn := make([]float64, len(in))
				for k, i := range in {
					yIn[k] = ord.Y[i]
				}
				w := trainAll(t, z, yIn, params)
				for k, i := range out {
					cands[g].Pred[i] = decision(zo.RawRowView(k), w)
				}
			}
		}
		best, err := chooseByLOO(ord.Y, cands, tieLogLoss)
		if err != nil {
			t.Fatal(err)
		}
		loo, err := leaveOneOutOf(l, context.Background(), raw, ord.Y, nil, &solverRuns{})
		if err != nil {
			t.Fatal(err)
		}
		for g := range cands {
			cands[g].Pred = loo[g]
		}
		looBest, err := chooseByLOO(ord.Y, cands, tieLogLoss)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: C = %g (brute-force 5-fold %g, leave-one-out %g)", name, got, cGrid[best], cGrid[looBest])
		if got != cGrid[best] {
			t.Errorf("%s: C = %g, brute-force 5-fold cross-validation chooses %g", name, got, cGrid[best])
		}
	}
}

// TestLogisticIgnoresRowOrderAboveThreshold: above logisticLOOMaxRows a
// permutation of the training rows gives the same model bit for bit (the
// fit reads them in content order, in which the folds are dealt). Before,
// the folds were leave-one-out's and the fits read the rows as given, so
// sums over them, and the model's last bits, followed the order.
func TestLogisticIgnoresRowOrderAboveThreshold(t *testing.T) {
	const m = 220 // above logisticLOOMaxRows (200)
	data := foldSample(5, m)
	perm := rand.New(rand.NewPCG(1, 2)).Perm(m)
	shuffled := selectRows(data, perm)
	for _, name := range []string{"l1-logistic", "elastic-net"} {
		meth, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := meth.Fit(context.Background(), data, Extra{Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		b, err := meth.Fit(context.Background(), shuffled, Extra{Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			la, lb := a.(*Linear), b.(*Linear)
			t.Errorf("%s: the permuted rows' model differs: C %g vs %g, bias %v vs %v, source weights %v vs %v", name, la.Hyper["C"], lb.Hyper["C"], la.B, lb.B, la.WH, lb.WH)
		}
	}
}
