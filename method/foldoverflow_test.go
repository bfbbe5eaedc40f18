package method

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLogisticFoldOverflowingDifference is the hunter's ovx7.csv: a column
// of values near 0.9e308 holding one value −9.5e307, whose difference from
// the mean of the other rows overflows float64 while its standardised value
// is about −52. The methods that choose C by cross-validation fit it (they
// refused it, naming "row 0" of the fold), and every model scores that
// value as an ordinary number.
func TestLogisticFoldOverflowingDifference(t *testing.T) {
	const m = 12
	X := mat.NewDense(m, 2, nil)
	y := make([]float64, m)
	for i := range m {
		y[i] = float64(1 - 2*(i%2))
		X.Set(i, 0, (8.5+0.1*float64(i))*1e307)
		X.Set(i, 1, float64((i*7)%4-1))
	}
	X.Set(7, 0, -9.5e307)
	for _, name := range []string{"l1-logistic", "elastic-net", "stacked-logistic"} {
		meth, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		mod, err := meth.Fit(context.Background(), Data{X: X, Y: y}, Extra{Seed: 1})
		if err != nil {
			t.Errorf("%s: fit: %v", name, err)
			continue
		}
		f, err := mod.Predict(Data{X: mat.NewDense(1, 2, []float64{-9.5e307, 1})})
		if err != nil || len(f) != 1 || math.IsNaN(f[0]) || math.IsInf(f[0], 0) {
			t.Errorf("%s: predict(-9.5e307) = %v, %v, want a finite score", name, f, err)
		}
	}
}

// TestLogisticFoldOverflowNamesTrainingRow: when a held-out value truly
// cannot be standardised with the statistics of the rows outside its fold
// (H column 1 is ±1e-300 but for 1e10 in one row: left out, the others'
// standard deviation is 1e-300, and 1e10 standardises to 1e310), the
// error names the input (H, not the column of [X, H]), its column and the
// caller's row of that value — with leave-one-out (12 rows) and with 5
// folds over rows the fit puts in content order (250 rows) — not the row
// within the fold.
func TestLogisticFoldOverflowNamesTrainingRow(t *testing.T) {
	for _, tc := range []struct {
		m, row int
		names  []string
	}{{12, 5, []string{"l1-logistic", "elastic-net", "stacked-logistic"}}, {250, 201, []string{"elastic-net"}}} {
		X, H := mat.NewDense(tc.m, 2, nil), mat.NewDense(tc.m, 2, nil)
		y := make([]float64, tc.m)
		for i := range tc.m {
			y[i] = float64(1 - 2*((i*5)%3%2))
			X.Set(i, 0, float64(i%5)+y[i])
			X.Set(i, 1, float64((i*7)%4))
			H.Set(i, 0, float64(i%3)-y[i])
			H.Set(i, 1, float64(1-2*(i%2))*1e-300)
		}
		H.Set(tc.row, 1, 1e10)
		want := fmt.Sprintf("H row %d column 1 = 1e+10 is too large to standardise", tc.row)
		for _, name := range tc.names {
			meth, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			_, err = meth.Fit(context.Background(), Data{X: X, H: H, Y: y}, Extra{Seed: 1})
			if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "method: "+name+": choosing C by cross-validation") {
				t.Errorf("%s, %d rows: error %v, want one naming %q", name, tc.m, err, want)
			}
		}
	}
}

// TestPredictOverflowingDifferenceEveryMethod: every method's model
// trained on a column of values near 0.9e308 scores a test value of
// −0.95e308 (about 50 standard deviations below the mean, its difference
// from the mean beyond float64) as an ordinary number; each refused it with
// a ScoreOverflowError, but l1-logistic, which gave the column no weight.
// The methods that need source scores (best-source, logme-source) are left
// out: the sample has none.
func TestPredictOverflowingDifferenceEveryMethod(t *testing.T) {
	const m = 12
	X := mat.NewDense(m, 2, nil)
	y := make([]float64, m)
	for i := range m {
		y[i] = float64(1 - 2*(i%2))
		X.Set(i, 0, (0.85+0.01*float64(i)+0.02*y[i])*1e308)
		X.Set(i, 1, float64(i%3)+y[i])
	}
	test := Data{X: mat.NewDense(1, 2, []float64{-0.95e308, 1})}
	for _, name := range Names() {
		meth, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		mod, err := meth.Fit(context.Background(), Data{X: X, Y: y}, Extra{Seed: 1, Unlabelled: &Data{X: X}})
		if err != nil && strings.HasSuffix(err.Error(), "needs source scores H") {
			continue
		}
		if err != nil {
			t.Errorf("%s: fit: %v", name, err)
			continue
		}
		if f, err := mod.Predict(test); err != nil || len(f) != 1 || math.IsNaN(f[0]) || math.IsInf(f[0], 0) {
			t.Errorf("%s: predict(-0.95e308) = %v, %v, want a finite score", name, f, err)
		}
	}
}
