package method

import (
	"context"
	"testing"
)

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
