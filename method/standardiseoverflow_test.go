package method

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl"
)

// TestPredictStandardiseOverflowNamesTheValue checks the error of a model
// that standardises its inputs when predicting (a dictionary model; a
// native multi-class model, blockScaler) on a value too far outside its
// column's training range for its standardised value to be finite: a
// *greedytl.ScoreOverflowError naming the input, row and column of the
// first such value of X, else of H (X is standardised first), with the
// value and the column's training mean and scale, behind "method:
// predict: ". The standardiser reports the value (standardize.OverflowError)
// where it finds it.
func TestPredictStandardiseOverflowNamesTheValue(t *testing.T) {
	train, test := damSplit(26, 5, 6, 4, 2)
	ctx := context.Background()
	dict, err := (func() (Model, error) { m, _ := New("dictionary"); return m.Fit(ctx, train, Extra{Seed: 3}) })()
	if err != nil {
		t.Fatal(err)
	}
	classes := ClassLabels{Names: []string{"a", "b", "c"}}
	for i := range train.Y {
		classes.Y = append(classes.Y, i%3)
	}
	mm, err := NewMulti("multinomial-logistic")
	if err != nil {
		t.Fatal(err)
	}
	native, err := mm.FitMulti(ctx, Data{X: train.X, H: train.H}, classes, Extra{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	nativeScaler := native.(*LinearMulti).s
	dx, dh := dict.(*dictionaryModel).x, dict.(*dictionaryModel).h
	// Hand-edited scales (as a model file may hold): a value of 1e10
	// standardises to +Inf in these columns.
	for _, s := range [][]float64{dx.Scale, nativeScaler.X.Scale} {
		s[4] = 1e-300
	}
	for _, s := range [][]float64{dh.Scale, nativeScaler.H.Scale} {
		s[0], s[1] = 1e-300, 1e-300
	}
	for _, tc := range []struct {
		name                   string
		xRow, xCol, hRow, hCol int // −1: no huge value there
		want                   greedytl.ScoreOverflowError
	}{
		{"H", -1, 0, 2, 1, greedytl.ScoreOverflowError{Input: "H", Row: 2, Col: 1, Value: 1e10}},
		{"X before H", 3, 4, 1, 0, greedytl.ScoreOverflowError{Input: "X", Row: 3, Col: 4, Value: -1e10}},
	} {
		X, H := mat.DenseCopyOf(test.X), mat.DenseCopyOf(test.H)
		if tc.xRow >= 0 {
			X.Set(tc.xRow, tc.xCol, -1e10)
		}
		H.Set(tc.hRow, tc.hCol, 1e10)
		check := func(model string, err error, mean, scale []float64) {
			t.Helper()
			want := tc.want
			want.Mean, want.Scale = mean[want.Col], scale[want.Col]
			if !math.IsInf((want.Value-want.Mean)/want.Scale, 0) {
				t.Fatalf("%s, %s: the value standardises to a finite number: no test", model, tc.name)
			}
			var e *greedytl.ScoreOverflowError
			if !errors.As(err, &e) || *e != want || err.Error() != "method: predict: "+want.Error() {
				t.Errorf("%s, %s: error %v, want method: predict: %v (%+v)", model, tc.name, err, &want, want)
			}
		}
		_, err := dict.Predict(Data{X: X, H: H})
		sx, sh := dx, dh
		if tc.want.Input == "X" {
			check("dictionary", err, sx.Mean, sx.Scale)
		} else {
			check("dictionary", err, sh.Mean, sh.Scale)
		}
		_, err = native.Scores(Data{X: X, H: H})
		if tc.want.Input == "X" {
			check("multinomial-logistic", err, nativeScaler.X.Mean, nativeScaler.X.Scale)
		} else {
			check("multinomial-logistic", err, nativeScaler.H.Mean, nativeScaler.H.Scale)
		}
	}
}
