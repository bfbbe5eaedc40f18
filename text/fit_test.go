package text_test

import (
	"context"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/text"
	"gonum.org/v1/gonum/mat"
)

// TestTransformIntoFit: a Vectorizer's output is a mat.Matrix (sparse.CSR
// has T), so it goes into greedytl.Fit directly, and the model is the one
// fitted on its dense copy.
func TestTransformIntoFit(t *testing.T) {
	docs := []string{"cheap pills now", "meeting at noon", "cheap cheap offer", "lunch meeting today", "offer pills cheap", "noon lunch"}
	y := []float64{1, -1, 1, -1, 1, -1}
	v := text.Vectorizer{}
	X, err := v.FitTransform(docs)
	if err != nil {
		t.Fatal(err)
	}
	var x mat.Matrix = X
	if r, c := x.T().Dims(); r != X.C || c != X.R || x.T().At(0, 1) != X.At(1, 0) {
		t.Fatalf("T: %d×%d, want %d×%d", r, c, X.C, X.R)
	}
	ctx := context.Background()
	a, err := greedytl.Fit(ctx, x, nil, y, greedytl.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	b, err := greedytl.Fit(ctx, X.Dense(), nil, y, greedytl.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Selected) == 0 || len(a.Selected) != len(b.Selected) {
		t.Fatalf("sparse %v, dense %v", a.Selected, b.Selected)
	}
	for i := range a.Selected {
		if a.Selected[i] != b.Selected[i] || a.Weights[i] != b.Weights[i] {
			t.Fatalf("sparse %v %v, dense %v %v", a.Selected, a.Weights, b.Selected, b.Weights)
		}
	}
}
