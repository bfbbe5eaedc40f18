package linear

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/kerneltest"
	"github.com/greedytl/greedytl/internal/parallel"
	"github.com/greedytl/greedytl/metric"
	"github.com/greedytl/greedytl/sparse"
)

// checkDealt reports how fold, the folds of the rows that classes
// partition, fails to be a stratified k-fold assignment: a row without a
// fold in 0 … k−1, a class whose counts in the folds differ by more than
// one, or fold sizes that do.
func checkDealt(classes [][]int, k int, fold []int) error {
	size := make([]int, k)
	for c, rows := range classes {
		count := make([]int, k)
		for _, i := range rows {
			f := fold[i]
			if f < 0 || f >= k {
				return fmt.Errorf("row %d of class %d: fold %d", i, c, f)
			}
			count[f]++
			size[f]++
		}
		if slices.Max(count)-slices.Min(count) > 1 {
			return fmt.Errorf("class %d: counts in the folds %v", c, count)
		}
	}
	if slices.Max(size)-slices.Min(size) > 1 {
		return fmt.Errorf("fold sizes %v", size)
	}
	return nil
}

// TestDealFolds checks DealFolds's properties over random partitions of
// random sizes into one to six classes (empty ones included, rows listed
// in any order) and fold counts (more folds than rows included): every row
// gets a fold, each class and the folds are spread evenly (checkDealt),
// the same rng state gives the same folds, FoldRows splits the rows by
// them, classes is left unchanged; and it panics on k < 1 and on classes that do not partition the rows.
func TestDealFolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 2000 {
		n := rng.IntN(70)
		classes := make([][]int, 1+rng.IntN(6))
		for _, i := range rng.Perm(n) {
			c := min(len(classes)-1, int(rng.ExpFloat64()*1.4))
			classes[c] = append(classes[c], i)
		}
		given := make([][]int, len(classes))
		for c := range classes {
			given[c] = slices.Clone(classes[c])
		}
		k := 1 + rng.IntN(n+3)
		seed := rng.Uint64()
		fold := DealFolds(classes, k, rand.New(rand.NewPCG(seed, 1)))
		if len(fold) != n {
			t.Fatalf("trial %d: %d folds for %d rows", trial, len(fold), n)
		}
		if err := checkDealt(classes, k, fold); err != nil {
			t.Fatalf("trial %d: classes %v, %d folds: %v (folds %v)", trial, classes, k, err, fold)
		}
		if again := DealFolds(classes, k, rand.New(rand.NewPCG(seed, 1))); !slices.Equal(again, fold) {
			t.Fatalf("trial %d: folds %v, then %v from the same seed", trial, fold, again)
		}
		// FoldRows splits the rows by fold, both parts in row order.
		for f := range k {
			in, out := FoldRows(fold, f)
			if !slices.IsSorted(in) || !slices.IsSorted(out) || len(in)+len(out) != n {
				t.Fatalf("trial %d: fold %d: rows %v and %v", trial, f, in, out)
			}
			for _, i := range out {
				if fold[i] != f {
					t.Fatalf("trial %d: FoldRows(fold, %d) gives row %d of fold %d", trial, f, i, fold[i])
				}
			}
			for _, i := range in {
				if fold[i] == f {
					t.Fatalf("trial %d: FoldRows(fold, %d) leaves out row %d of fold %d", trial, f, i, fold[i])
				}
			}
		}
		for c := range classes {
			if !slices.Equal(classes[c], given[c]) {
				t.Fatalf("trial %d: class %d changed from %v to %v", trial, c, given[c], classes[c])
			}
		}
	}
	for _, bad := range []struct {
		classes [][]int
		k       int
	}{
		{[][]int{{0, 1}, {2}}, 0},
		{[][]int{{0, 1}, {1}}, 2},
		{[][]int{{0, 3}, {1}}, 2},
		{[][]int{{0, -1}, {1}}, 2},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("DealFolds(%v, %d, rng) did not panic", bad.classes, bad.k)
				}
			}()
			DealFolds(bad.classes, bad.k, rand.New(rand.NewPCG(1, 1)))
		}()
	}
}

// TestDealFoldsNilRNG: a nil rng is PCG(0, 0), StratifiedFolds' generator
// for seed 0, not a nil-pointer crash.
func TestDealFoldsNilRNG(t *testing.T) {
	classes := [][]int{{0, 2, 4, 6, 8}, {1, 3, 5, 7}, {9}}
	got := DealFolds(classes, 3, nil)
	if want := DealFolds(classes, 3, rand.New(rand.NewPCG(0, 0))); !slices.Equal(got, want) {
		t.Errorf("DealFolds(…, nil) = %v, want PCG(0, 0)'s %v", got, want)
	}
}

func TestStratifiedFolds(t *testing.T) {
	y := make([]float64, 53)
	var pos, neg []int
	for i := range y {
		y[i] = -1
		if i%4 == 0 {
			y[i] = 1
		}
		if y[i] == 1 {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	for _, k := range []int{2, 5, 10, 53} {
		fold := stratifiedFolds(y, k, 7)
		if err := checkDealt([][]int{pos, neg}, k, fold); err != nil {
			t.Errorf("k=%d: %v", k, err)
		}
		if !slices.Equal(fold, stratifiedFolds(y, k, 7)) {
			t.Errorf("k=%d: not deterministic", k)
		}
	}
	if slices.Equal(stratifiedFolds(y, 5, 7), stratifiedFolds(y, 5, 8)) {
		t.Error("seeds 7 and 8 give the same folds")
	}
}

// referenceStratifiedFolds is stratifiedFolds's definition written another
// way: the examples of the first example's class, then the others, each
// shuffled by rand.Shuffle from PCG(seed, seed), laid end to end; the
// example at position p of that order goes to fold p mod k.
func referenceStratifiedFolds(y []float64, k int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, seed))
	var order []int
	for _, first := range []bool{true, false} {
		var rows []int
		for i, v := range y {
			if (v == y[0]) == first {
				rows = append(rows, i)
			}
		}
		rng.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		order = append(order, rows...)
	}
	fold := make([]int, len(y))
	for p, i := range order {
		fold[i] = p % k
	}
	return fold
}

// TestStratifiedFoldsReference pins StratifiedFolds, whose folds choose C
// in CrossValidate, SelectC and stacked-logistic (and so the published
// results, source models and model files), to referenceStratifiedFolds over
// random label vectors (one class or two, any label values), fold counts
// and seeds.
func TestStratifiedFoldsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		y := make([]float64, 1+rng.IntN(80))
		labels := [2]float64{rng.NormFloat64(), rng.NormFloat64()}
		share := rng.Float64()
		for i := range y {
			y[i] = labels[0]
			if rng.Float64() < share {
				y[i] = labels[1]
			}
		}
		k := 1 + rng.IntN(len(y))
		seed := rng.Uint64()
		got, want := StratifiedFolds(y, k, seed), referenceStratifiedFolds(y, k, seed)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: labels %v, %d folds, seed %d: folds %v, want %v", trial, y, k, seed, got, want)
		}
	}
}

// TestCrossValidateBruteForce checks CrossValidate against its definition:
// each fold's decision values come from Train on the other folds.
func TestCrossValidateBruteForce(t *testing.T) {
	prob := randomProblem(51, 90, 8, 0.6, 1)
	for _, s := range classifiers {
		p := Params{Solver: s, C: 0.3, Seed: 9}
		for _, folds := range []int{3, 90} {
			got, err := CrossValidate(context.Background(), prob, p, folds, 4)
			if err != nil {
				t.Fatal(err)
			}
			fold := stratifiedFolds(prob.Y, folds, 4)
			for k := range folds {
				var train, test []int
				for i, f := range fold {
					if f == k {
						test = append(test, i)
					} else {
						train = append(train, i)
					}
				}
				x, y := subset(prob.X, prob.Y, train)
				m, err := Train(context.Background(), &Problem{X: x, Y: y, Bias: prob.Bias}, p)
				if err != nil {
					t.Fatal(err)
				}
				tx, _ := subset(prob.X, prob.Y, test)
				dec, _ := m.Predict(tx)
				for r, i := range test {
					// The solvers' dot product sums in another order
					// than Predict's.
					if math.Abs(got[i]-dec[r]) > 1e-12*(1+math.Abs(dec[r])) {
						t.Fatalf("%v folds=%d row %d: CrossValidate %v, Train on the other folds %v", s, folds, i, got[i], dec[r])
					}
				}
			}
		}
	}
}

func TestLeaveOneOut(t *testing.T) {
	prob := randomProblem(52, 25, 4, 1, 1)
	p := Params{Solver: L2RL2LossSVCDual, C: 1}
	loo, err := LeaveOneOut(context.Background(), prob, p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range prob.Y {
		x, y := subset(prob.X, prob.Y, kerneltest.WithoutRow(len(prob.Y), i))
		m, err := Train(context.Background(), &Problem{X: x, Y: y, Bias: 1}, p)
		if err != nil {
			t.Fatal(err)
		}
		ind, val := prob.X.Row(i)
		if want := m.Decision(ind, val); math.Abs(loo[i]-want) > 1e-12*(1+math.Abs(want)) {
			t.Errorf("row %d: leave-one-out %v, want %v", i, loo[i], want)
		}
	}
}

// TestCrossValidateOrientation checks that the decision values favour the
// greater label whatever label comes first.
func TestCrossValidateOrientation(t *testing.T) {
	prob := randomProblem(53, 60, 5, 0.8, 1)
	ref, err := CrossValidate(context.Background(), prob, Params{}, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, labels := range [][2]float64{{1, 0}, {0, 1}, {9, 4}} {
		// labels[0] stands for +1; the first row decides the order.
		q := &Problem{X: prob.X, Y: make([]float64, len(prob.Y)), Bias: prob.Bias}
		for i, v := range prob.Y {
			q.Y[i] = labels[1]
			if v > 0 {
				q.Y[i] = labels[0]
			}
		}
		got, err := CrossValidate(context.Background(), q, Params{}, 4, 1)
		if err != nil {
			t.Fatal(err)
		}
		sign := 1.0
		if labels[0] < labels[1] {
			sign = -1
		}
		for i := range got {
			if math.Abs(got[i]-sign*ref[i]) > 1e-12 {
				t.Fatalf("labels %v row %d: %v, want %v", labels, i, got[i], sign*ref[i])
			}
		}
	}
}

func TestCrossValidateParallelDeterministic(t *testing.T) {
	prob := randomProblem(54, 120, 10, 0.5, 1)
	p := Params{Solver: L2RL1LossSVCDual, Seed: 5}
	a, err := CrossValidate(context.Background(), prob, p, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	old := runtime.GOMAXPROCS(1)
	b, err := CrossValidate(context.Background(), prob, p, 5, 3)
	runtime.GOMAXPROCS(old)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Error("results depend on the number of workers")
	}
}

func TestCrossValidateErrors(t *testing.T) {
	prob := randomProblem(55, 10, 3, 1, 1)
	ctx := context.Background()
	cases := []struct {
		name string
		err  func() error
		want string
	}{
		{"one fold", func() error { _, err := CrossValidate(ctx, prob, Params{}, 1, 0); return err }, "folds"},
		{"too many folds", func() error { _, err := CrossValidate(ctx, prob, Params{}, 11, 0); return err }, "folds"},
		{"bad params", func() error { _, err := CrossValidate(ctx, prob, Params{Eps: -1}, 2, 0); return err }, "Eps"},
		{"nil problem", func() error { _, err := LeaveOneOut(ctx, nil, Params{}); return err }, "nil problem"},
		{"empty grid", func() error { _, _, err := SelectC(ctx, prob, Params{}, nil, 2, 0); return err }, "empty C grid"},
		{"zero in grid", func() error { _, _, err := SelectC(ctx, prob, Params{}, []float64{1, 0}, 2, 0); return err }, "C = 0"},
		{"NaN in grid", func() error { _, _, err := SelectC(ctx, prob, Params{}, []float64{math.NaN()}, 2, 0); return err }, "C = NaN"},
		{"nil metric", func() error { _, _, err := SelectCBy(ctx, prob, Params{}, []float64{1}, 2, 0, nil); return err }, "nil metric"},
		{"metric error", func() error {
			bad := func([]float64, []float64) (float64, error) { return 0, errors.New("boom") }
			_, _, err := SelectCBy(ctx, prob, Params{}, []float64{1}, 2, 0, bad)
			return err
		}, "boom"},
		{"NaN metric", func() error {
			nan := func([]float64, []float64) (float64, error) { return math.NaN(), nil }
			_, _, err := SelectCBy(ctx, prob, Params{}, []float64{1}, 2, 0, nan)
			return err
		}, "NaN"},
	}
	for _, c := range cases {
		if err := c.err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

func TestCrossValidateCancelled(t *testing.T) {
	prob := randomProblem(56, 50, 5, 1, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CrossValidate(ctx, prob, Params{}, 5, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("CrossValidate with a cancelled context: %v", err)
	}
	if _, _, err := SelectC(ctx, prob, Params{}, []float64{1, 2}, 5, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("SelectC with a cancelled context: %v", err)
	}
}

// A bad fold count is refused whatever the problem's size, before the
// solvers' copy of a Dense problem is converted (which checks ctx every
// 65,536 values): with a cancelled context, the fold error comes first.
func TestCVFoldCountBeforeConversion(t *testing.T) {
	const rows, cols = 300, 300 // more values than one block of the conversion
	x := make([]float64, rows*cols)
	y := make([]float64, rows)
	for i := range x {
		x[i] = float64(i%7) - 3
	}
	for i := range y {
		y[i] = float64(i%2*2 - 1)
	}
	d, err := NewDense64(x, cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	prob := &Problem{Dense: d, Y: y, Bias: 1}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, folds := range []int{1, rows + 1} {
		want := fmt.Sprintf("linear: %d folds for %d examples", folds, rows)
		if _, err := CrossValidate(ctx, prob, Params{Solver: L1RLR}, folds, 0); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("CrossValidate of %d folds with a cancelled context: %v; want %q first", folds, err, want)
		}
		if _, _, err := SelectC(ctx, prob, Params{Solver: L1RLR}, []float64{1, 2}, folds, 0); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("SelectC of %d folds with a cancelled context: %v; want %q first", folds, err, want)
		}
	}
}

// TestSelectCMatchesColdCV checks SelectC's scores against the accuracy of
// a cold-started CrossValidate at each C: the warm start along the grid
// must not change the solutions (tight tolerance), and the returned C must
// be the first best of the grid in ascending order.
func TestSelectCMatchesColdCV(t *testing.T) {
	prob := randomProblem(57, 100, 12, 0.5, 1)
	// Unsorted on purpose: scores follow the caller's order.
	grid := []float64{1, 1e-3, 100, 1e-2, 0.1, 10}
	for _, s := range classifiers {
		p := Params{Solver: s, Eps: 1e-8, MaxIter: 100000}
		for _, m := range []struct {
			name string
			f    Metric
		}{{"accuracy", Accuracy}, {"balanced", metric.BalancedAccuracy}} {
			best, scores, err := SelectCBy(context.Background(), prob, p, grid, 5, 11, m.f)
			if err != nil {
				t.Fatal(err)
			}
			for g, c := range grid {
				q := p
				q.C = c
				dec, err := CrossValidate(context.Background(), prob, q, 5, 11)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := m.f(dec, prob.Y)
				if scores[g] != want {
					t.Errorf("%v %s C=%v: SelectC score %v, cold cross-validation %v", s, m.name, c, scores[g], want)
				}
			}
			var wantBest float64
			bestScore := math.Inf(-1)
			for _, g := range []int{1, 3, 4, 0, 5, 2} { // ascending C
				if scores[g] > bestScore {
					bestScore, wantBest = scores[g], grid[g]
				}
			}
			if best != wantBest {
				t.Errorf("%v %s: best C %v, want %v (scores %v)", s, m.name, best, wantBest, scores)
			}
		}
	}
}

// TestSelectCTies checks that ties go to the smaller C: on well separated
// data every C classifies perfectly.
func TestSelectCTies(t *testing.T) {
	prob := randomProblem(58, 40, 3, 1, 1)
	for i := range prob.Y {
		_, val := prob.X.Row(i)
		val[0] = 10 * prob.Y[i]
	}
	best, scores, err := SelectC(context.Background(), prob, Params{}, []float64{10, 1, 100}, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(scores, []float64{1, 1, 1}) || best != 1 {
		t.Errorf("SelectC = %v, %v; want 1 and perfect scores", best, scores)
	}
}

func TestAccuracy(t *testing.T) {
	got, err := Accuracy([]float64{1, -2, 0, 3}, []float64{1, -1, 1, -1})
	if err != nil || got != 0.5 {
		t.Errorf("Accuracy = %v, %v; want 0.5", got, err)
	}
	if _, err := Accuracy([]float64{1}, []float64{1, 2}); err == nil {
		t.Error("length mismatch accepted")
	}
	if _, err := Accuracy(nil, nil); err == nil {
		t.Error("empty input accepted")
	}
	// A NaN score predicts −1, as the doc says (and as
	// metric.BalancedAccuracy counts it): right for the −1 label, wrong
	// for the +1 one.
	nan := math.NaN()
	if got, err := Accuracy([]float64{nan, nan, 1}, []float64{-1, 1, 1}); err != nil || got != 2.0/3 {
		t.Errorf("Accuracy with NaN scores = %v, %v; want 2/3", got, err)
	}
}

// TestCrossValidateStops: CrossValidateStops's values are CrossValidate's,
// and fold k's stop is that of Train on the other folds (Converged,
// Stuck), for every solver with its default cap and with a cap of 2
// iterations, at which some folds must stop short.
func TestCrossValidateStops(t *testing.T) {
	prob := randomProblem(51, 90, 8, 0.6, 1)
	const folds = 3
	fold := stratifiedFolds(prob.Y, folds, 4)
	short := 0
	for _, s := range classifiers {
		for _, maxIter := range []int{0, 2} {
			p := Params{Solver: s, C: 10, Eps: 1e-6, Seed: 9, MaxIter: maxIter}
			dec, stops, err := CrossValidateStops(context.Background(), prob, p, folds, 4)
			if err != nil {
				t.Fatal(err)
			}
			want, err := CrossValidate(context.Background(), prob, p, folds, 4)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dec, want) || len(stops) != folds {
				t.Fatalf("%v MaxIter %d: CrossValidateStops %v with %d stops, CrossValidate %v", s, maxIter, dec, len(stops), want)
			}
			for k := range folds {
				var train []int
				for i, f := range fold {
					if f != k {
						train = append(train, i)
					}
				}
				x, y := subset(prob.X, prob.Y, train)
				m, err := Train(context.Background(), &Problem{X: x, Y: y, Bias: prob.Bias}, p)
				if err != nil {
					t.Fatal(err)
				}
				if got := (FoldStop{Converged: m.Converged, Stuck: m.Stuck, Precision: m.Precision}); stops[k] != got {
					t.Errorf("%v MaxIter %d fold %d: stop %+v, Train on the other folds %+v", s, maxIter, k, stops[k], got)
				}
				if !stops[k].Converged {
					short++
				}
			}
		}
	}
	if short == 0 {
		t.Error("no fold stopped short: the test checks nothing")
	}
}

// TestCrossValidateOneClassFold compares the leave-one-out accuracy with
// liblinear-train -v N (N rows: its folds are then the rows, whatever its
// random permutation) on data in which a class has a single row, so that
// the fold of that row trains on one class. liblinear's model of one
// class predicts that class for every row; a ±1 model trained on one
// class predicted from the sign of its decision value instead, which
// gave 100 % or 50 % here where liblinear gives 0 %.
func TestCrossValidateOneClassFold(t *testing.T) {
	needLiblinear(t)
	sets := map[string]string{
		"opposite": "+1 1:1\n-1 1:-1\n",
		"disjoint": "+1 1:1\n-1 2:1\n",
		"same":     "+1 1:1\n-1 1:1\n",
		"four":     "+1 1:1 2:0.5\n+1 1:0.8\n+1 2:1\n-1 1:-1 2:-0.3\n",
		"labels":   "3 1:4\n7 1:-4 2:8\n7 1:-2 2:4\n",
	}
	for name, text := range sets {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		x, y, err := dataset.ReadSVMLight(path)
		if err != nil {
			t.Fatal(err)
		}
		prob := &Problem{X: x, Y: y}
		n := len(y)
		target := make([]float64, n)
		for i, v := range y {
			target[i] = -1
			if v == slices.Max(y) {
				target[i] = 1
			}
		}
		for _, s := range []Solver{L2RLR, L2RL2LossSVCDual, L2RL2LossSVC, L2RL1LossSVCDual, L1RL2LossSVC, L1RLR, L2RLRDual} {
			p := Params{Solver: s}
			out, err := exec.Command("liblinear-train", "-q", "-s", strconv.Itoa(int(s)), "-v", strconv.Itoa(n), path).CombinedOutput()
			if err != nil {
				t.Fatalf("liblinear-train: %v\n%s", err, out)
			}
			want := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "Cross Validation Accuracy = "))
			for _, pick := range []func() ([]float64, error){
				func() ([]float64, error) { return CrossValidate(context.Background(), prob, p, n, 1) },
				func() ([]float64, error) {
					dec, _, err := CrossValidateStops(context.Background(), prob, p, n, 1)
					return dec, err
				},
			} {
				dec, err := pick()
				if err != nil {
					t.Fatal(err)
				}
				acc, err := Accuracy(dec, target)
				if err != nil {
					t.Fatal(err)
				}
				if got := fmt.Sprintf("%.6g%%", 100*acc); got != want {
					t.Errorf("%s -s %d: leave-one-out accuracy %s, liblinear-train -v %d %s", name, s, got, n, want)
				}
			}
			if n > 2 {
				continue
			}
			// SelectC's folds follow the same rule: with two rows every
			// fold trains on one class, and every C scores alike.
			_, scores, err := SelectC(context.Background(), prob, p, []float64{0.1, 10}, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, sc := range scores {
				if got := fmt.Sprintf("%.6g%%", 100*sc); got != want {
					t.Errorf("%s -s %d: SelectC's leave-one-out accuracy %s, liblinear-train -v %d %s", name, s, got, n, want)
				}
			}
		}
	}
}

// TestSelectCCostOverflow: a grid C whose product with a class weight
// overflows is refused, naming it, as Check refuses such a C: a row's
// cost would be +Inf.
func TestSelectCCostOverflow(t *testing.T) {
	prob := randomProblem(5, 40, 4, 1, -1)
	p := Params{Solver: L2RLR, WeightPos: 1e10}
	_, _, err := SelectC(context.Background(), prob, p, []float64{1, 1e300}, 3, 1)
	if err == nil || !strings.Contains(err.Error(), "C·weight") || !strings.Contains(err.Error(), "1e+300") {
		t.Fatalf("SelectC with C·weight = +Inf in the grid: error %v, want one naming C = 1e+300 and C·weight", err)
	}
}

// TestCrossValidateErrorIsTheLowestFold: folds 0 and 1 both fail, on two
// workers (the problem has at least parallel.MinWork values), and fold 0
// fails after fold 1 in time (it waits for fold 1 to have failed, then a
// little, or until its context is done); CrossValidate's, CrossValidateStops'
// and SelectCBy's error is fold 0's every time, as the folds' order
// decides, not their timing (before, parallel.For gave fold 1's, the
// first in time).
func TestCrossValidateErrorIsTheLowestFold(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	prob := randomProblem(56, 1000, 100, 1, 1)
	if r, c := prob.dims(); r*c < parallel.MinWork {
		t.Fatalf("%d × %d values, below parallel.MinWork: the folds would run on one worker", r, c)
	}
	real := trainFoldFunc
	defer func() { trainFoldFunc = real }()
	var failed1 chan struct{}
	trainFoldFunc = func(ctx context.Context, k int, prob *Problem, p Params, prev *warmStart) (*warmStart, error) {
		switch k {
		case 0:
			<-failed1
			select {
			case <-ctx.Done():
			case <-time.After(2 * time.Millisecond):
			}
			return nil, errors.New("fold 0 failed")
		case 1:
			defer close(failed1)
			return nil, errors.New("fold 1 failed")
		}
		return real(ctx, k, prob, p, prev)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"CrossValidate", func() error { _, err := CrossValidate(ctx, prob, Params{}, 5, 1); return err }},
		{"CrossValidateStops", func() error { _, _, err := CrossValidateStops(ctx, prob, Params{}, 5, 1); return err }},
		{"SelectCBy", func() error { _, _, err := SelectC(ctx, prob, Params{}, []float64{1, 2}, 5, 1); return err }},
	} {
		for run := range 50 {
			failed1 = make(chan struct{})
			if err := tc.run(); err == nil || err.Error() != "fold 0 failed" {
				t.Fatalf("%s, run %d: error %v; want fold 0's", tc.name, run, err)
			}
		}
	}
}

// TestCrossValidateRefusesOverflowingHeldOutRows: a row of 1e300 in both
// columns beside rows of 1e-9 whose labels the sign of x₀ − x₁ decides,
// at C = 1e20: the fold holding the big row out has weights of about ±1e9,
// finite, and finite on its training rows (checkWeights), but the big
// row's decision value is 1e309 − 1e309, NaN. CrossValidate and
// CrossValidateStops refuse it naming the row, and SelectC, whose
// Accuracy would count the NaN as a −1, likewise; before, CrossValidate
// returned the NaN (L2R_LR and the L2-loss dual: [NaN 0 0 …]) and
// SelectC an accuracy of 0.45 with no error. Rows labelled by the sign of
// x₀ + x₁ give the big row ±Inf, refused too.
func TestCrossValidateRefusesOverflowingHeldOutRows(t *testing.T) {
	// "NaN": labels by the sign of x₀ − x₁ (weights of opposite signs,
	// +Inf − +Inf); "Inf": rows (a, a) of label 1 and (−a, −a) of label
	// −1 (weights of one sign: the big row's value overflows to ±Inf,
	// which a check for NaN alone passed).
	for _, tc := range []struct {
		name, value string
		odd         func(a float64) []float64
		even        func(a float64) []float64
	}{
		{"NaN", "NaN", func(a float64) []float64 { return []float64{0, a} }, func(a float64) []float64 { return []float64{a, 0} }},
		{"Inf", "Inf", func(a float64) []float64 { return []float64{-a, -a} }, func(a float64) []float64 { return []float64{a, a} }},
	} {
		rows := [][]float64{{1e300, 1e300}}
		y := []float64{1}
		for i := range 19 {
			a := float64(i%5+1) * 1e-9
			if i%2 == 0 {
				rows = append(rows, tc.even(a))
				y = append(y, 1)
			} else {
				rows = append(rows, tc.odd(a))
				y = append(y, -1)
			}
		}
		x := &sparse.CSR{R: len(rows), C: 2, Ptr: []int{0}}
		for _, r := range rows {
			for j, v := range r {
				if v != 0 {
					x.Ind = append(x.Ind, j)
					x.Val = append(x.Val, v)
				}
			}
			x.Ptr = append(x.Ptr, len(x.Ind))
		}
		prob := &Problem{X: x, Y: y}
		ctx := context.Background()
		const want = "linear: cross-validation: the decision value of held-out example 1 (counting from 1) is "
		ok := func(err error) bool {
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				return false
			}
			v, _, _ := strings.Cut(strings.TrimPrefix(err.Error(), want), ":")
			return strings.TrimLeft(v, "+-") == tc.value
		}
		for _, s := range []Solver{L2RLR, L2RL2LossSVCDual} {
			p := Params{Solver: s, C: 1e20}
			dec, err := CrossValidate(ctx, prob, p, 20, 1)
			if !ok(err) {
				t.Errorf("%s, %v: CrossValidate: %v (values %v), want %q%s…", tc.name, s, err, dec, want, tc.value)
			}
			if _, _, err := CrossValidateStops(ctx, prob, p, 20, 1); !ok(err) {
				t.Errorf("%s, %v: CrossValidateStops: %v, want %q%s…", tc.name, s, err, want, tc.value)
			}
			_, acc, err := SelectC(ctx, prob, p, []float64{1, 1e20}, 20, 1)
			if !ok(err) || !strings.HasSuffix(err.Error(), "(C = 1e+20)") {
				t.Errorf("%s, %v: SelectC: %v (accuracies %v), want %q%s… (C = 1e+20)", tc.name, s, err, acc, want, tc.value)
			}
		}
	}
}

// TestSelectCWarmStarts: SelectCBy trains each fold's C grid in increasing
// order from the previous C's weights (trainFoldFunc passes prev to
// trainWarm): every fold's result at a C after the first is trainWarm's
// from the previous result bit for bit, and for at least one it differs
// from a cold start's, so that a trainFoldFunc dropping prev fails.
func TestSelectCWarmStarts(t *testing.T) {
	prob := randomProblem(7, 200, 20, 0.5, 1)
	real := trainFoldFunc
	defer func() { trainFoldFunc = real }()
	var mu sync.Mutex
	var warm, differ int
	var bad []string
	trainFoldFunc = func(ctx context.Context, k int, fp *Problem, p Params, prev *warmStart) (*warmStart, error) {
		ws, err := real(ctx, k, fp, p, prev)
		if err != nil || prev == nil {
			return ws, err
		}
		want, werr := trainWarm(ctx, fp, p, prev)
		cold, cerr := trainWarm(ctx, fp, p, nil)
		mu.Lock()
		defer mu.Unlock()
		warm++
		if werr != nil || cerr != nil || !slices.Equal(ws.w, want.w) {
			bad = append(bad, fmt.Sprintf("fold %d, C = %v: %v %v, weights not the warm start's", k, p.C, werr, cerr))
		}
		if !slices.Equal(ws.w, cold.w) {
			differ++
		}
		return ws, err
	}
	for _, s := range []Solver{L2RLR, L2RL2LossSVCDual} {
		if _, _, err := SelectC(context.Background(), prob, Params{Solver: s, Eps: 0.1}, []float64{0.01, 0.1, 1, 10}, 5, 1); err != nil {
			t.Fatalf("%v: %v", s, err)
		}
	}
	for _, b := range bad {
		t.Error(b)
	}
	if warm == 0 || differ == 0 {
		t.Errorf("%d warm-started fits, %d differing from a cold start: the check is too weak", warm, differ)
	}
}

// TestSelectCFoldsKeepTheirColumnForm: SelectC's folds are solvers' own
// copies (withRows sets Problem.kept), so a primal L1 solver builds each
// fold's column form at the fold's first C and reuses it at every later
// one, and no two folds share one.
func TestSelectCFoldsKeepTheirColumnForm(t *testing.T) {
	prob := lrRandomProblem(7, 120, 15, 0.4, 1)
	grid := []float64{0.01, 0.1, 1, 10}
	real := trainFoldFunc
	defer func() { trainFoldFunc = real }()
	var mu sync.Mutex
	kept := map[int][]*lrColumns{}
	trainFoldFunc = func(ctx context.Context, k int, fp *Problem, p Params, prev *warmStart) (*warmStart, error) {
		ws, err := real(ctx, k, fp, p, prev)
		var cols *lrColumns
		if fp.kept != nil {
			cols = fp.kept.lr
		}
		mu.Lock()
		kept[k] = append(kept[k], cols)
		mu.Unlock()
		return ws, err
	}
	const folds = 4
	if _, _, err := SelectC(context.Background(), prob, Params{Solver: L1RLR}, grid, folds, 1); err != nil {
		t.Fatal(err)
	}
	if len(kept) != folds {
		t.Fatalf("%d folds trained, want %d", len(kept), folds)
	}
	seen := map[*lrColumns]int{}
	for k, cs := range kept {
		if len(cs) != len(grid) {
			t.Errorf("fold %d: trained at %d C values, want %d", k, len(cs), len(grid))
		}
		for i, c := range cs {
			if c == nil || c != cs[0] {
				t.Errorf("fold %d, C number %d: column form %p, want the first C's, %p (non-nil)", k, i, c, cs[0])
			}
		}
		if j, ok := seen[cs[0]]; ok && cs[0] != nil {
			t.Errorf("folds %d and %d share a column form", j, k)
		}
		seen[cs[0]] = k
	}
}
