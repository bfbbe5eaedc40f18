package method

import (
	"context"
	"math"
	"testing"

	"github.com/greedytl/greedytl/internal/kerneltest"
	"github.com/greedytl/greedytl/lssvm"
	"gonum.org/v1/gonum/mat"
)

func TestMultiKTFit(t *testing.T) {
	for _, name := range []string{"multikt-l2", "multikt-l1"} {
		t.Run(name, func(t *testing.T) {
			meth, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			// 5 positives + 10 negatives for training, 200 test examples;
			// source 0 carries the label, the 9 others are noise, and the
			// features are weakly informative.
			all := syntheticTransfer(11, 215, 105, 30, 10, 2)
			var trainRows, testRows []int
			for i := range 215 {
				if i < 5 || (i >= 105 && i < 115) {
					trainRows = append(trainRows, i)
				} else {
					testRows = append(testRows, i)
				}
			}
			train, test := selectRows(all, trainRows), selectRows(all, testRows)
			model, err := meth.Fit(context.Background(), train, Extra{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			f, err := model.Predict(test)
			if err != nil {
				t.Fatal(err)
			}
			acc := balancedAcc(t, f, test.Y)
			hp := model.Hyperparameters()
			sw := model.SourceWeights()
			t.Logf("balanced accuracy %.3f, hyperparameters %v, β₀ = %.3g, |β|₁ = %.3g", acc, hp, sw[0], norm1(sw))
			if acc < 0.8 {
				t.Errorf("balanced accuracy %.3f, want ≥ 0.8", acc)
			}
			if len(sw) != 10 || sw[0] <= 0 {
				t.Errorf("source weights %v: want 10 with the informative source positive", sw)
			}
			for j := 1; j < len(sw); j++ {
				if math.Abs(sw[j]) >= sw[0] {
					t.Errorf("noise source %d has weight %g ≥ the informative source's %g", j, sw[j], sw[0])
				}
			}
			if _, ok := hp["C"]; !ok {
				t.Errorf("hyperparameters %v lack C", hp)
			}
			if _, ok := hp["tau"]; !ok {
				t.Errorf("hyperparameters %v lack tau", hp)
			}
		})
	}
}

// TestMultiKTPredictMatchesLSSVM checks the fitted model against the
// LS-SVM solution at its hyperparameters: on the training sample, the
// model's scores are y − α/(Cζ) (the LS-SVM's optimality conditions).
func TestMultiKTPredictMatchesLSSVM(t *testing.T) {
	train := syntheticTransfer(21, 15, 5, 12, 6, 1)
	meth, _ := New("multikt-l2")
	model, err := meth.Fit(context.Background(), train, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Predict(train)
	if err != nil {
		t.Fatal(err)
	}
	lin := model.(*Linear)
	c := lin.Hyper["C"]
	zeta := lssvm.BalanceWeights(train.Y)
	zx, _ := lin.X.Transform(train.X)
	zh, _ := lin.H.Transform(train.H)
	gram := lssvm.Gram(zx, 15)
	r := make([]float64, 15)
	mat.NewVecDense(15, r).MulVec(zh, mat.NewVecDense(6, lin.WH))
	for i := range r {
		r[i] = train.Y[i] - r[i]
	}
	alpha, _ := kerneltest.LSSVMDirect(t, gram, zeta, c, r, nil)
	for i := range f {
		want := train.Y[i] - alpha[i]/(c*zeta[i])
		if !near(f[i], want, 1e-8, math.Abs(want)) {
			t.Errorf("score %d = %g, LS-SVM optimality gives %g", i, f[i], want)
		}
	}
}

// TestMultiKTEdgeCases: no sources, no features, a single positive,
// duplicated and constant columns give finite models.
func TestMultiKTEdgeCases(t *testing.T) {
	base := syntheticTransfer(31, 12, 2, 10, 5, 1.5)
	dup := syntheticTransfer(31, 12, 2, 10, 5, 1.5)
	dense(dup.X).SetCol(1, mat.Col(nil, 0, dup.X))
	dense(dup.H).SetCol(1, mat.Col(nil, 0, dup.H))
	constant := syntheticTransfer(31, 12, 2, 10, 5, 1.5)
	dense(constant.X).SetCol(2, make([]float64, 12))
	dense(constant.H).SetCol(2, []float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	for _, tc := range []struct {
		name    string
		data    Data
		sources int
	}{
		{"no sources", Data{X: base.X, Y: base.Y}, 0},
		{"no features", Data{H: base.H, Y: base.Y}, 5},
		{"single positive", syntheticTransfer(32, 11, 1, 10, 5, 1.5), 5},
		{"duplicated columns", dup, 5},
		{"constant columns", constant, 5},
	} {
		for _, name := range []string{"multikt-l2", "multikt-l1"} {
			model := tryFit(t, name, tc.name, tc.data)
			if model == nil {
				continue
			}
			f, err := model.Predict(tc.data)
			if err != nil {
				t.Errorf("%s %s: predict: %v", name, tc.name, err)
				continue
			}
			if acc := balancedAcc(t, f, tc.data.Y); acc < 0.75 {
				t.Errorf("%s %s: training balanced accuracy %.3f", name, tc.name, acc)
			}
			if got := len(model.SourceWeights()); got != tc.sources {
				t.Errorf("%s %s: %d source weights, want %d", name, tc.name, got, tc.sources)
			}
			_, hasTau := model.Hyperparameters()["tau"]
			if hasTau != (tc.sources > 0) {
				t.Errorf("%s %s: hyperparameters %v", name, tc.name, model.Hyperparameters())
			}
			if tc.name == "constant columns" {
				lin := model.(*Linear)
				if lin.WX[2] != 0 || lin.WH[2] != 0 {
					t.Errorf("%s: constant columns have weights %g, %g", name, lin.WX[2], lin.WH[2])
				}
			}
		}
	}
}
