package source

import (
	"errors"
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

// TestScoresErrorTyped checks that Scores and ScoresCSR return their
// non-finite scores' errors as *ScoreError with the source, row, score and
// cause (an overflow, or the row's first non-finite value and its column),
// and that a row changed by a caller (a block's first row added) is the
// row the message names.
func TestScoresErrorTyped(t *testing.T) {
	m := &linear.Model{Solver: linear.L2RL2LossSVCDual, NrFeature: 2, Bias: -1, Labels: []int{1, -1}, NrW: 1, W: []float64{1, -1}}
	s, err := NewSet([]string{"class00"}, []*linear.Model{m})
	if err != nil {
		t.Fatal(err)
	}
	X := mat.NewDense(5, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8, 1.7e308, -1.7e308})
	for name, score := range map[string]func() error{
		"Scores":    func() error { _, err := s.Scores(X); return err },
		"ScoresCSR": func() error { _, err := s.ScoresCSR(sparse.FromDense(X)); return err },
	} {
		var e *ScoreError
		if err := score(); !errors.As(err, &e) {
			t.Fatalf("%s: %v (%T); want a *ScoreError", name, err, err)
		}
		if want := (ScoreError{Source: "class00", Row: 4, Score: math.Inf(1), Overflow: true}); *e != want {
			t.Errorf("%s: %+v; want %+v", name, *e, want)
		}
		e.Row += 16
		if want := `source "class00": the score of row 20 (from 0) overflows float64 (+Inf): its values are finite but too large for the model's weights`; e.Error() != want {
			t.Errorf("%s, row moved: %q; want %q", name, e.Error(), want)
		}
	}
	X.Set(3, 1, math.Inf(-1))
	var e *ScoreError
	if _, err := s.Scores(X); !errors.As(err, &e) {
		t.Fatalf("Scores with -Inf: %v (%T); want a *ScoreError", err, err)
	}
	if want := (ScoreError{Source: "class00", Row: 3, Score: math.Inf(1), Column: 1, Value: math.Inf(-1)}); *e != want {
		t.Errorf("Scores with -Inf: %+v; want %+v", *e, want)
	}
	if want := `source "class00": score of example 3 is +Inf: X row 3 column 1 is -Inf`; e.Error() != want {
		t.Errorf("Scores with -Inf: %q; want %q", e.Error(), want)
	}
}
