package method

import (
	"context"
	"math"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBlockScoresAreScores: for every native multi-class form (linear,
// with and without normalised rows, the greedytl-nway ensemble of two,
// nearest-neighbour, centroid-cosine), on 1,000 rows of 3 and of 70 classes
// in 8 and in 73 columns (more than a 64-column tile of gonum's matrix
// product), every block that predictByScores scores (scoreBlocks, here
// blocks of 256 rows and a last of 488) holds Scores' values of its rows
// bit for bit, and Predict is ArgmaxRows of Scores.
func TestBlockScoresAreScores(t *testing.T) {
	smallScoreBlocks(t)
	for _, shape := range []struct{ K, d, n int }{{3, 5, 3}, {70, 5, 3}, {3, 70, 3}, {70, 70, 3}} {
		testShots := 1000 / shape.K
		train, y, test, _ := multiProblem(5, shape.K, 3, testShots, shape.d, shape.n)
		for _, name := range []string{"nearest-mean", "multinomial-logistic", "greedytl-nway", "simpleshot", "nearest-neighbour"} {
			mm, _ := NewMulti(name)
			model, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			bs, ok := model.(blockScorer)
			if !ok {
				t.Fatalf("%s: %T is not a blockScorer", name, model)
			}
			whole, err := model.Scores(test)
			if err != nil {
				t.Fatal(err)
			}
			score, rows, err := bs.blockScores(test)
			if err != nil {
				t.Fatal(err)
			}
			blocks := 0
			for lo, hi := range scoreBlocks(rows, shape.K) {
				blocks++
				s, err := score(lo, hi)
				if err != nil {
					t.Fatal(err)
				}
				want := whole.Slice(lo, hi, 0, shape.K).(*mat.Dense)
				if !mat.Equal(s, want) || !sameBits(s, want) {
					t.Errorf("%s, %d classes, %d columns: rows [%d, %d) scored in a block differ from Scores'", name, shape.K, shape.d+shape.n, lo, hi)
				}
			}
			if blocks < 2 {
				t.Fatalf("%d rows in %d block: the test scores no blocks", rows, blocks)
			}
			pred, err := model.Predict(test)
			if err != nil || !slices.Equal(pred, argmaxOf(t, whole)) {
				t.Errorf("%s, %d classes, %d columns: Predict differs from the argmax of Scores (err %v)", name, shape.K, shape.d+shape.n, err)
			}
		}
	}
}

// sameBits reports whether a and b hold the same float64s bit for bit.
func sameBits(a, b *mat.Dense) bool {
	r, c := a.Dims()
	for i := range r {
		for j := range c {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// TestPredictHoldsABlockOfScores: predicting 8,000 rows of 1,000 classes
// with a nearest-mean model allocates less than a quarter of the rows ×
// classes scores (64 MB): a block of them at a time (8 MB). It held them
// all (Scores, then their argmax): fit's one-class check and predict took
// 1.6 GB for 20,000 rows of 10,000 classes.
func TestPredictHoldsABlockOfScores(t *testing.T) {
	const K, shots = 1000, 8
	train, y, _, _ := multiProblem(9, K, shots, 1, 6, 2)
	mm, _ := NewMulti("nearest-mean")
	model, err := mm.FitMulti(context.Background(), train, y, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	m := len(y.Y)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pred, err := model.Predict(train)
	runtime.ReadMemStats(&after)
	if err != nil || len(pred) != m {
		t.Fatalf("Predict: %d classes, err %v", len(pred), err)
	}
	if got, whole := after.TotalAlloc-before.TotalAlloc, uint64(m*K*8); got > whole/4 {
		t.Errorf("Predict of %d rows of %d classes allocated %d bytes; the whole scores are %d", m, K, got, whole)
	}
}

// TestLinearScoresOfARowAlone: a linear multi-class model (multinomial
// logistic, and the greedytl-nway ensemble of two) scores a row the same
// bits alone, among 9 rows and among 700 (where gonum's matrix product
// takes its serial and its parallel path, whose sums differ in the last bit
// beyond 64 columns), at 73 and 200 columns; so predict gives a row the
// same scores in a file read in blocks or whole, and in any BLAS build
// (rowDot). The scores equal gonum's parallel product's, the linear models'
// scores of a large input before rowDot.
func TestLinearScoresOfARowAlone(t *testing.T) {
	for _, d := range []int{70, 197} {
		train, y, test, _ := multiProblem(7, 5, 3, 140, d, 3)
		for _, name := range []string{"multinomial-logistic", "greedytl-nway"} {
			mm, _ := NewMulti(name)
			model, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			whole, err := model.Scores(test)
			if err != nil {
				t.Fatal(err)
			}
			rows, _ := whole.Dims()
			if rows < 700 {
				t.Fatalf("%d test rows: the test needs a product of 4 tiles or more", rows)
			}
			for _, set := range [][]int{{0}, {5}, {0, 1, 2, 3, 4, 5, 6, 7, 8}, {699}} {
				part, err := model.Scores(selectRows(test, set))
				if err != nil {
					t.Fatal(err)
				}
				for k, i := range set {
					got, want := part.RawRowView(k), whole.RawRowView(i)
					for c := range got {
						if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
							t.Fatalf("%s, %d columns: row %d scored among %d rows gives class %d %v, among %d rows %v", name, d+3, i, len(set), c, got[c], rows, want[c])
						}
					}
				}
			}
		}
	}
	// rowDot is the parallel product's order: a 700 × 5 product of 200
	// columns (11 tiles).
	Z, W := mat.NewDense(700, 200, nil), mat.NewDense(5, 200, nil)
	for i, a := range [][]float64{Z.RawMatrix().Data, W.RawMatrix().Data} {
		for j := range a {
			a[j] = math.Sin(float64(j*(i+3)) * 0.7)
		}
	}
	var P mat.Dense
	P.Mul(Z, W.T())
	for i := range 700 {
		for k := range 5 {
			if got, want := rowDot(Z.RawRowView(i), W.RawRowView(k)), P.At(i, k); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("rowDot of row %d, class %d: %v, gonum's product %v", i, k, got, want)
			}
		}
	}
}

// TestPredictRefusesOverflowingRowsInALaterBlock: a test row whose scores
// overflow, in a block after the first, makes Predict fail as Scores does,
// not return an argmax of non-finite scores. The row's features are as
// large as the model's scaler takes (a larger one fails before any block
// is scored): for nearest-neighbour 1e200 (its squared distances
// overflow), for nearest-mean 5e307 (its scores are ±Inf). The linear
// models' scores of such rows stay finite, so no block of theirs fails.
func TestPredictRefusesOverflowingRowsInALaterBlock(t *testing.T) {
	smallScoreBlocks(t)
	const K, d, n = 3, 5, 3
	train, y, test, _ := multiProblem(5, K, 3, 1000/K, d, n)
	rows := test.Rows()
	bad := rows - 1 // in the last block
	for _, c := range []struct {
		name string
		v    float64
	}{{"nearest-neighbour", 1e200}, {"nearest-mean", 5e307}} {
		X := mat.DenseCopyOf(test.X)
		for j := range d {
			X.Set(bad, j, c.v)
		}
		big := Data{X: X, H: test.H}
		mm, _ := NewMulti(c.name)
		model, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		score, r, err := model.(blockScorer).blockScores(big)
		if err != nil {
			t.Fatalf("%s: features of %g fail before any block is scored: %v", c.name, c.v, err)
		}
		var failed []int
		for lo, hi := range scoreBlocks(r, K) {
			if _, err := score(lo, hi); err != nil {
				failed = append(failed, lo)
			}
		}
		if len(failed) != 1 || failed[0] == 0 {
			t.Fatalf("%s: blocks starting at %v fail, not one later block: the test proves nothing", c.name, failed)
		}
		_, serr := model.Scores(big)
		pred, err := model.Predict(big)
		if err == nil || serr == nil || err.Error() != serr.Error() {
			t.Errorf("%s: Predict of a row of %gs (row %d of %d) gave %d predictions and error %v; Scores gave %v", c.name, c.v, bad, rows, len(pred), err, serr)
		}
	}
}

// smallScoreBlocks makes the blocks that predictByScores scores as small
// as they may be (minScoreBlockRows rows; a last of up to twice as many)
// until t ends.
func smallScoreBlocks(t *testing.T) {
	old := scoreBlockFloats
	scoreBlockFloats = 1
	t.Cleanup(func() { scoreBlockFloats = old })
}
