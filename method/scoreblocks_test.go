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
	defer func(v int) { scoreBlockFloats = v }(scoreBlockFloats)
	scoreBlockFloats = 1
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
