package method

import (
	"bytes"
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// countingMethod is a binary method whose models count their Predict
// calls in *n.
type countingMethod struct {
	Method
	n *atomic.Int64
}

func (c countingMethod) Fit(ctx context.Context, d Data, extra Extra) (Model, error) {
	m, err := c.Method.Fit(ctx, d, extra)
	if err != nil {
		return nil, err
	}
	return countingModel{m, c.n}, nil
}

// countingModel counts its Predict calls in *n.
type countingModel struct {
	Model
	n *atomic.Int64
}

func (c countingModel) Predict(d Data) ([]float64, error) {
	c.n.Add(1)
	return c.Model.Predict(d)
}

// TestOneClassOneVsRestPredictsOnce: a fitted one-vs-rest model answers
// OneClass from the training scores its fit computed, without predicting
// the training rows a second time (which cost K binary predictions), and
// says what Predict says: average-kt on a constant feature gives every
// class the sources' average, the same score, so every row goes to the
// first class; no-transfer on separated classes predicts several.
// A model read from its file knows no training rows: it predicts them,
// with the same answer.
func TestOneClassOneVsRestPredictsOnce(t *testing.T) {
	for _, tc := range []struct {
		method string
		x, h   []float64
		one    bool
	}{
		{"average-kt", []float64{1, 1, 1, 1, 1, 1}, []float64{0.3, -1, 2, 0.5, 1.5, -0.7}, true},
		{"no-transfer", []float64{0, 0.1, 5, 5.1, 10, 10.1}, []float64{1, 0, 1, 0, 1, 0}, false},
	} {
		train := Data{X: mat.NewDense(6, 1, tc.x), H: mat.NewDense(6, 1, tc.h)}
		y := ClassLabels{Names: []string{"a", "b", "c"}, Y: []int{0, 0, 1, 1, 2, 2}}
		inner, err := New(tc.method)
		if err != nil {
			t.Fatal(err)
		}
		var n atomic.Int64
		model, err := OneVsRest{Binary: countingMethod{inner, &n}}.FitMulti(context.Background(), train, y, Extra{})
		if err != nil {
			t.Fatal(err)
		}
		fitCalls := n.Load()
		k, one, err := OneClass(model, train)
		if err != nil {
			t.Fatal(err)
		}
		if calls := n.Load() - fitCalls; calls != 0 {
			t.Errorf("%v: OneClass called the binary models' Predict %d times after the fit (which called it %d times); want 0", tc.method, calls, fitCalls)
		}
		pred, err := model.Predict(train)
		if err != nil {
			t.Fatal(err)
		}
		predOne := !slices.ContainsFunc(pred, func(c int) bool { return c != pred[0] })
		if one != tc.one || one != predOne || one && k != pred[0] {
			t.Errorf("%v: OneClass %d %v, want %v (Predict %v)", tc.method, k, one, tc.one, pred)
		}
		// The same fit's file predicts the rows.
		plain, data := multiFile(t, tc.method, train, y)
		f, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if plain.(trainingPredictor).trainingClasses() == nil || f.Multi.(trainingPredictor).trainingClasses() != nil {
			t.Errorf("%v: the fitted model should know its training rows' classes, the file's not", tc.method)
		}
		k2, one2, err := OneClass(f.Multi, train)
		if err != nil || k2 != k || one2 != one {
			t.Errorf("%v: the file's model: OneClass %d %v %v, the fitted one's %d %v", tc.method, k2, one2, err, k, one)
		}
	}
}
