package greedytl

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBreakdownNamesGamma: a path that breaks down because the feature
// factor γ scales the features far beyond the sources names γ as well as
// λ (it blamed λ alone), and one at γ = 1 names λ only.
func TestBreakdownNamesGamma(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 5))
	m, d, n := 12, 3, 6
	X, H := mat.NewDense(m, d, nil), mat.NewDense(m, n, nil)
	y := make([]float64, m)
	for i := range m {
		y[i] = float64(1 - 2*(i%2))
		for j := range d {
			X.Set(i, j, r.NormFloat64()+0.05*y[i])
		}
		for j := range n {
			H.Set(i, j, r.NormFloat64()+0.5*y[i])
		}
	}
	o := DefaultOptions()
	o.FeatureFactor, o.Delta = 1e20, 0
	_, err := Fit(context.Background(), X, H, y, o)
	if err == nil || !strings.Contains(err.Error(), "λ = 1 is too small for these data, or FeatureFactor γ = 1e+20 too large") {
		t.Fatalf("γ = 1e20: error %v, want one naming λ and γ", err)
	}
	o.FeatureFactor, o.Lambda = 1, 1e-300
	_, err = Fit(context.Background(), X, H, y, o)
	if err == nil || !strings.Contains(err.Error(), "λ = 1e-300 is too small for these data") || strings.Contains(err.Error(), "γ") {
		t.Fatalf("λ = 1e-300: error %v, want one naming λ only", err)
	}
}
