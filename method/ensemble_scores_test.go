package method

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestEnsembleUnequalWeights: an ensemble of two members of unequal
// weights (0.2 and 0.8) scores every row, whole (Scores) and in blocks
// (blockScores, several blocks), as the weighted mean of its members'
// softmaxed scores computed by hand: 0.2·softmax(s₀) + 0.8·softmax(s₁).
// greedytl-nway's own weights are equal, so a member's weight taken from
// the wrong index went unseen.
func TestEnsembleUnequalWeights(t *testing.T) {
	smallScoreBlocks(t)
	const K = 3
	train, y, test, _ := multiProblem(2, K, 3, 300, 5, 3)
	var members []MultiModel
	for _, name := range []string{"nearest-mean", "multinomial-logistic"} {
		mm, _ := NewMulti(name)
		m, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, m)
	}
	weights := []float64{0.2, 0.8}
	e := &ensembleModel{multiBase: multiBase{"ensemble", y.Names, map[string]float64{}}, members: members, weights: weights}
	rows := test.Rows()
	want := mat.NewDense(rows, K, nil)
	for i, m := range members {
		s, err := m.Scores(test)
		if err != nil {
			t.Fatal(err)
		}
		for r := range rows {
			mx := math.Inf(-1)
			for k := range K {
				mx = max(mx, s.At(r, k))
			}
			var sum float64
			for k := range K {
				sum += math.Exp(s.At(r, k) - mx)
			}
			for k := range K {
				want.Set(r, k, want.At(r, k)+weights[i]*math.Exp(s.At(r, k)-mx)/sum)
			}
		}
	}
	whole, err := e.Scores(test)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(whole, want, 1e-12) {
		t.Errorf("Scores differ from the weighted mean of the members' probabilities")
	}
	score, r, err := e.blockScores(test)
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for lo, hi := range scoreBlocks(r, K) {
		blocks++
		s, err := score(lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(s, want.Slice(lo, hi, 0, K), 1e-12) {
			t.Errorf("rows [%d, %d) scored in a block differ from the weighted mean of the members' probabilities", lo, hi)
		}
	}
	if blocks < 2 {
		t.Fatalf("%d rows in %d block: the test scores no blocks", r, blocks)
	}
}

// BenchmarkEnsembleScores measures greedytl-nway's Scores of 2,000 rows of
// 20 classes (an ensemble of two linear members). Before scaleInPlace its
// s.Scale(w, s) copied every member's rows × classes matrix (B/op).
func BenchmarkEnsembleScores(b *testing.B) {
	train, y, test, _ := multiProblem(1, 20, 3, 100, 16, 4)
	mm, err := NewMulti("greedytl-nway")
	if err != nil {
		b.Fatal(err)
	}
	model, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.Scores(test); err != nil {
			b.Fatal(err)
		}
	}
}
