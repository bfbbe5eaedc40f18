package method

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
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
		k, one, err := OneClass(context.Background(), model, train)
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
		k2, one2, err := OneClass(context.Background(), f.Multi, train)
		if err != nil || k2 != k || one2 != one {
			t.Errorf("%v: the file's model: OneClass %d %v %v, the fitted one's %d %v", tc.method, k2, one2, err, k, one)
		}
	}
}

// infMethod is a binary method whose models' Predict puts +Inf on row 0.
type infMethod struct{ Method }

func (c infMethod) Fit(ctx context.Context, d Data, extra Extra) (Model, error) {
	m, err := c.Method.Fit(ctx, d, extra)
	if err != nil {
		return nil, err
	}
	return infModel{m}, nil
}

// infModel puts +Inf on row 0 of its model's predictions.
type infModel struct{ Model }

func (c infModel) Predict(d Data) ([]float64, error) {
	f, err := c.Model.Predict(d)
	if err == nil && len(f) > 0 {
		f[0] = math.Inf(1)
	}
	return f, err
}

// TestOneClassNonFiniteTrainingScores: a fitted one-vs-rest model whose
// training scores are not all finite gives OneClass Predict's error, as a
// model read from a file does, not the argmax of those scores (before:
// class 0 for every row, nil error, where Predict refuses row 0).
func TestOneClassNonFiniteTrainingScores(t *testing.T) {
	train := Data{X: mat.NewDense(6, 1, []float64{0, 0.1, 5, 5.1, 10, 10.1}), H: mat.NewDense(6, 1, []float64{1, 0, 1, 0, 1, 0})}
	y := ClassLabels{Names: []string{"a", "b", "c"}, Y: []int{0, 0, 1, 1, 2, 2}}
	inner, err := New("no-transfer")
	if err != nil {
		t.Fatal(err)
	}
	model, err := OneVsRest{Binary: infMethod{inner}}.FitMulti(context.Background(), train, y, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	_, perr := model.Predict(train)
	if perr == nil {
		t.Fatal("Predict accepted a non-finite score")
	}
	k, one, err := OneClass(context.Background(), model, train)
	if err == nil || err.Error() != perr.Error() {
		t.Errorf("OneClass: %d %v %v; want Predict's error %q", k, one, err, perr)
	}
}

// TestOneVsRestTrainingClassesArePredict: the classes a fitted one-vs-rest
// model keeps for its training rows are those Predict gives them, for
// several binary methods on random samples of unbalanced classes (whose
// scores' scales differ from class to class: the argmax of the unscaled
// scores differs).
func TestOneVsRestTrainingClassesArePredict(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	for _, name := range []string{"no-transfer", "rls-srcfeat", "average-kt", "greedytl", "l1-logistic"} {
		inner, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		for trial := range 4 {
			sizes := []int{2 + rng.IntN(3), 6 + rng.IntN(10), 3 + rng.IntN(5)}
			var y ClassLabels
			y.Names = []string{"a", "b", "c"}
			for k, s := range sizes {
				for range s {
					y.Y = append(y.Y, k)
				}
			}
			m := len(y.Y)
			x, h := make([]float64, m*3), make([]float64, m*2)
			for i, k := range y.Y {
				for j := range 3 {
					x[i*3+j] = rng.NormFloat64() + float64(k*(j+1))*0.7
				}
				for j := range 2 {
					h[i*2+j] = rng.NormFloat64() * float64(1+k*j)
				}
			}
			train := Data{X: mat.NewDense(m, 3, x), H: mat.NewDense(m, 2, h)}
			model, err := OneVsRest{Binary: inner}.FitMulti(context.Background(), train, y, Extra{})
			if err != nil {
				t.Fatalf("%s, trial %d: %v", name, trial, err)
			}
			pred, err := model.Predict(train)
			if err != nil {
				t.Fatalf("%s, trial %d: %v", name, trial, err)
			}
			if got := model.(trainingPredictor).trainingClasses(); !slices.Equal(got, pred) {
				t.Errorf("%s, trial %d (sizes %v): training classes %v, Predict %v", name, trial, sizes, got, pred)
			}
		}
	}
}
