package source

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/sparse"
)

// A score that overflowed float64 from finite inputs (±1.7e308) was said
// to be "non-finite input?": Scores and ScoresCSR now say it overflowed,
// naming the row from 0 as greedytl.ScoreOverflowError does; a NaN input
// is named where it is.
func TestScoresOverflowNamed(t *testing.T) {
	m := &linear.Model{Solver: linear.L2RL2LossSVCDual, NrFeature: 2, Bias: -1, Labels: []int{1, -1}, NrW: 1, W: []float64{1, -1}}
	s, err := NewSet([]string{"class00"}, []*linear.Model{m})
	if err != nil {
		t.Fatal(err)
	}
	X := mat.NewDense(5, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8, 1.7e308, -1.7e308})
	const want = `source "class00": the score of row 4 (from 0) overflows float64 (+Inf): its values are finite but too large for the model's weights`
	if _, err := s.Scores(X); err == nil || err.Error() != want {
		t.Errorf("Scores: %v; want %q", err, want)
	}
	if _, err := s.ScoresCSR(sparse.FromDense(X)); err == nil || err.Error() != want {
		t.Errorf("ScoresCSR: %v; want %q", err, want)
	}
	X.Set(4, 1, math.NaN())
	if _, err := s.Scores(X); err == nil || !strings.HasSuffix(err.Error(), "X row 4 column 1 is NaN") {
		t.Errorf("Scores with a NaN: %v", err)
	}
}
