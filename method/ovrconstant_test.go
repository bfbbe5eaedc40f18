package method

import (
	"context"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestConstantClassesOneVsRestScoresOnce: ConstantClasses of a one-vs-rest
// model just fitted judges each class's model from the training scores
// its fit computed (it scored them to find the class's scale), without
// predicting the training rows again (it predicted them once a class);
// the judgement is ConstantModel's on those rows, spread and bound to the
// bit; and a model read from a file, which has no fit's scores, is judged
// by predicting them, with the same classes.
func TestConstantClassesOneVsRestScoresOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	X := mat.NewDense(30, 4, nil)
	y := ClassLabels{Names: []string{"a", "b", "c"}}
	for i := range 30 {
		for j := range 4 {
			X.Set(i, j, rng.NormFloat64())
		}
		y.Y = append(y.Y, i%3)
	}
	X.Set(0, 0, 5) // class a's rows apart from the rest's
	ridge, err := New("no-transfer")
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64 // the class models' Predict calls (countingMethod)
	multi, err := OneVsRest{Binary: countingMethod{ridge, &calls}}.FitMulti(context.Background(), Data{X: X}, y, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	o := multi.(*ovrModel)
	calls.Store(0)
	got, ok, err := ConstantClasses(context.Background(), o, Data{X: X})
	if err != nil || !ok {
		t.Fatalf("ok %v, %v", ok, err)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("ConstantClasses predicted the training rows %d times, want 0 (the fit's scores)", n)
	}
	for k, m := range o.models {
		want, wok := ConstantModel(m, Data{X: X})
		j := o.judged[k]
		if j.ok != wok || j.Constant != want.Constant || j.Rows != want.Rows || math.Float64bits(j.Spread) != math.Float64bits(want.Spread) || math.Float64bits(j.Bound) != math.Float64bits(want.Bound) {
			t.Errorf("class %d: the fit's judgement %+v (ok %v), ConstantModel's %+v (ok %v)", k, j.Constancy, j.ok, want, wok)
		}
	}
	read := *o
	read.judged = nil // as read from a file
	calls.Store(0)
	again, _, err := ConstantClasses(context.Background(), &read, Data{X: X})
	if n := calls.Load(); err != nil || len(again) != len(got) || n != int64(len(o.models)) {
		t.Errorf("without the fit's scores: %+v (%v), %d predictions; want %+v, one prediction a class", again, err, n, got)
	}
}
