package method

import (
	"context"
	"math"
	"testing"

	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/sparse"
)

// TestLogisticLOO checks the leave-one-out decision values against the
// linear package's own leave-one-out (linear.LeaveOneOut, separate fold
// code) at every C of the grid.
func TestLogisticLOO(t *testing.T) {
	data := syntheticTransfer(71, 12, 3, 6, 4, 1.5)
	z, err := standardisedColumns(FitScaler(data.X), FitScaler(data.H), data)
	if err != nil {
		t.Fatal(err)
	}
	prob := &linear.Problem{X: sparse.FromDense(z), Y: data.Y, Bias: 1}
	for _, name := range []string{"l1-logistic", "elastic-net"} {
		meth, _ := New(name)
		l := meth.(logistic)
		pred, err := l.leaveOneOut(context.Background(), prob, z)
		if err != nil {
			t.Fatal(err)
		}
		for g, c := range cGrid {
			want, err := linear.LeaveOneOut(context.Background(), prob, l.params(c))
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if math.Abs(pred[g][i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
					t.Errorf("%s C=%g: LOO value %d = %g, linear.LeaveOneOut %g", name, c, i, pred[g][i], want[i])
				}
			}
		}
	}
}

// TestLogisticFit: the model is linear.Train's at the chosen C (same
// scores), it is above chance on a synthetic transfer problem, and the L1
// penalty zeroes most noise columns.
func TestLogisticFit(t *testing.T) {
	train, test := damSplit(72, 5, 30, 10, 2.5)
	for _, name := range []string{"l1-logistic", "elastic-net"} {
		meth, _ := New(name)
		model, err := meth.Fit(context.Background(), train, Extra{})
		if err != nil {
			t.Fatal(err)
		}
		hp := model.Hyperparameters()
		f, err := model.Predict(test)
		if err != nil {
			t.Fatal(err)
		}
		acc := balancedAcc(t, f, test.Y)
		lin := model.(*Linear)
		zeros := 0
		for _, w := range append(append([]float64(nil), lin.WX[1:]...), lin.WH[1:]...) {
			if w == 0 {
				zeros++
			}
		}
		t.Logf("%s: balanced accuracy %.3f, %v, %d of 38 noise weights zero", name, acc, hp, zeros)
		if acc < 0.8 {
			t.Errorf("%s: balanced accuracy %.3f, want ≥ 0.8", name, acc)
		}
		if zeros < 19 {
			t.Errorf("%s: only %d of 38 noise weights are zero", name, zeros)
		}
		// Same scores as the solver's model at the chosen C.
		l := meth.(logistic)
		zTrain, _ := standardisedColumns(lin.X, lin.H, train)
		ref, err := linear.Train(&linear.Problem{X: sparse.FromDense(zTrain), Y: train.Y, Bias: 1}, l.params(hp["C"]))
		if err != nil {
			t.Fatal(err)
		}
		zTest, _ := standardisedColumns(lin.X, lin.H, test)
		want := ref.Scores(zTest)
		for i := range f {
			if math.Abs(f[i]-want[i]) > 1e-10*(1+math.Abs(want[i])) {
				t.Fatalf("%s: score %d = %g, solver's model %g", name, i, f[i], want[i])
			}
		}
	}
}

// TestLogisticEdgeCases: a single positive (its fold has one class left:
// decision value 0), no sources, no features.
func TestLogisticEdgeCases(t *testing.T) {
	single := syntheticTransfer(73, 11, 1, 6, 4, 2)
	z, _ := standardisedColumns(FitScaler(single.X), FitScaler(single.H), single)
	prob := &linear.Problem{X: sparse.FromDense(z), Y: single.Y, Bias: 1}
	meth, _ := New("l1-logistic")
	pred, err := meth.(logistic).leaveOneOut(context.Background(), prob, z)
	if err != nil {
		t.Fatal(err)
	}
	for g := range cGrid {
		if pred[g][0] != 0 {
			t.Errorf("C=%g: the single positive's LOO value is %g, want 0", cGrid[g], pred[g][0])
		}
	}
	base := syntheticTransfer(74, 12, 2, 6, 4, 2)
	for _, tc := range []struct {
		name   string
		data   Data
		nx, nh int
	}{
		{"single positive", single, 6, 4},
		{"no sources", Data{X: base.X, Y: base.Y}, 6, 0},
		{"no features", Data{H: base.H, Y: base.Y}, 0, 4},
	} {
		for _, name := range []string{"l1-logistic", "elastic-net"} {
			meth, _ := New(name)
			model, err := meth.Fit(context.Background(), tc.data, Extra{})
			if err != nil {
				t.Errorf("%s %s: %v", name, tc.name, err)
				continue
			}
			lin := model.(*Linear)
			if len(lin.WX) != tc.nx || len(lin.WH) != tc.nh {
				t.Errorf("%s %s: %d feature and %d source weights", name, tc.name, len(lin.WX), len(lin.WH))
			}
			if _, err := model.Predict(tc.data); err != nil {
				t.Errorf("%s %s: %v", name, tc.name, err)
			}
		}
	}
	// A cancelled context stops the fit.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := meth.Fit(ctx, base, Extra{}); err == nil {
		t.Error("cancelled context: no error")
	}
}
