package method

import (
	"context"
	"fmt"
	"github.com/greedytl/greedytl/standardize"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkNWay fits the recommended multi-class method (greedytl-nway) on
// 20 classes of 10 and of 100 examples (m = 200 and 2,000 rows), 800
// features and 200 source scores (1,000 candidate columns). Targets: at
// most 1 s a fit on one core at m = 200 (issue 15's 20-way 10-shot fit),
// and ten times the rows cost at most 15 times the time (issue 16)
// (go test ./method -run '^$' -bench NWay -cpu 1; cpu-ms/op is the
// process's CPU time per fit, which a loaded machine does not inflate).
func BenchmarkNWay(b *testing.B) {
	for _, shots := range []int{10, 100} {
		train, y, _, _ := multiProblem(1, 20, shots, 1, 800, 200)
		b.Run(fmt.Sprintf("m=%d", 20*shots), func(b *testing.B) { benchFitMulti(b, RecommendedMulti, train, y) })
	}
	// With the sources' own statistics (Extra.SourceScales), as the N-way
	// protocol gives them from a sources directory that records them.
	train, y, _, _ := multiProblem(1, 20, 10, 1, 800, 200)
	own := standardize.Fit(train.H)
	b.Run("m=200/source-scales", func(b *testing.B) {
		benchFitMultiExtra(b, RecommendedMulti, train, y, Extra{Seed: 1, SourceScales: &own})
	})
}

// benchFitMulti times FitMulti of the multi-class method name on train and
// y with seed 1, reporting cpu-ms/op.
func benchFitMulti(b *testing.B, name string, train Data, y ClassLabels) {
	benchFitMultiExtra(b, name, train, y, Extra{Seed: 1})
}

// benchFitMultiExtra is benchFitMulti with extra.
func benchFitMultiExtra(b *testing.B, name string, train Data, y ClassLabels, extra Extra) {
	m, err := NewMulti(name)
	if err != nil {
		b.Fatal(err)
	}
	start := processCPU()
	for b.Loop() {
		if _, err := m.FitMulti(context.Background(), train, y, extra); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkNearestNeighbourScores scores one row and 20 rows with a
// nearest-neighbour model of 2,000 training rows of 1,000 columns (20
// classes of 100, 800 features and 200 source scores): the cost of a call
// beyond its distances (go test ./method -run '^$' -bench
// NearestNeighbourScores -cpu 1; cpu-ms/op as BenchmarkNWay's).
func BenchmarkNearestNeighbourScores(b *testing.B) {
	train, y, test, _ := multiProblem(1, 20, 100, 1, 800, 200)
	m, err := NewMulti("nearest-neighbour")
	if err != nil {
		b.Fatal(err)
	}
	model, err := m.FitMulti(context.Background(), train, y, Extra{})
	if err != nil {
		b.Fatal(err)
	}
	for _, rows := range []int{1, 20} {
		_, c := test.X.Dims()
		_, n := test.H.Dims()
		d := Data{X: test.X.(*mat.Dense).Slice(0, rows, 0, c), H: test.H.(*mat.Dense).Slice(0, rows, 0, n)}
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			start := processCPU()
			for b.Loop() {
				if _, err := model.Scores(d); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// BenchmarkL1LogisticOneVsRest fits l1-logistic one-vs-rest (scikit-learn's
// standard use, a fit per C of the grid for the sample and each
// leave-one-out fold) on 10 classes of 4 examples, 30 features and 10
// source scores (go test ./method -run '^$' -bench L1LogisticOneVsRest
// -cpu 1; cpu-ms/op as BenchmarkNWay's).
func BenchmarkL1LogisticOneVsRest(b *testing.B) {
	train, y, _, _ := multiProblem(1, 10, 4, 1, 30, 10)
	benchFitMulti(b, "l1-logistic", train, y)
}
