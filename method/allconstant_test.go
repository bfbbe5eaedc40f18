package method

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAllConstantColumns: when every column is constant on the training
// sample nothing can be learned; every registered method must still return
// an error or a finite model, never NaN scores or hyperparameters.
func TestAllConstantColumns(t *testing.T) {
	const m = 12
	X := mat.NewDense(m, 3, nil)
	H := mat.NewDense(m, 2, nil)
	y := make([]float64, m)
	for i := range m {
		X.SetRow(i, []float64{1, -2, 0})
		H.SetRow(i, []float64{0.5, 7})
		y[i] = -1
		if i < 3 {
			y[i] = 1
		}
	}
	train := Data{X: X, H: H, Y: y}
	test := syntheticTransfer(81, 20, 10, 3, 2, 1)
	unl := Data{X: test.X, H: test.H}
	extra := Extra{Unlabelled: &unl, Oracle: &test, Seed: 1}
	for _, name := range Names() {
		meth, _ := New(name)
		model, err := meth.Fit(context.Background(), train, extra)
		if err != nil {
			t.Logf("%s: error %v", name, err)
			continue
		}
		f, err := model.Predict(test)
		if err != nil {
			t.Errorf("%s: predict: %v", name, err)
			continue
		}
		for i, v := range f {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: score %d is %v", name, i, v)
			}
		}
		for k, v := range model.Hyperparameters() {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: hyperparameter %s = %v", name, k, v)
			}
		}
		t.Logf("%s: finite model, %v", name, model.Hyperparameters())
	}
}
