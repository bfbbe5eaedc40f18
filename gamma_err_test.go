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
// λ (it blamed λ alone), and one at γ = 1 names λ only. The breakdown is
// the final weights' fresh factorisation (path.weights), in both of its
// forms: the primal one while fewer columns than examples are selected
// (m = 12, 9 candidates), the dual one once as many are (m = 6), each
// recognised by the matrix its message names.
func TestBreakdownNamesGamma(t *testing.T) {
	for _, c := range []struct {
		form   string
		m      int
		matrix string // the matrix the form factorises, as its errors name it
	}{
		{"primal", 12, "Z_SᵀZ_S + λI"},
		{"dual", 6, "K_S + λI"},
	} {
		t.Run(c.form, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 5))
			X, H, y := gammaProblem(r, c.m, 3, 6, func(yi float64) float64 { return r.NormFloat64() + 0.05*yi })
			o := DefaultOptions()
			o.FeatureFactor, o.Delta = 1e20, 0
			_, err := Fit(context.Background(), X, H, y, o)
			if err == nil || !strings.Contains(err.Error(), c.matrix) || !strings.Contains(err.Error(), "λ = 1 is too small for these data, or FeatureFactor γ = 1e+20 too large") {
				t.Fatalf("γ = 1e20: error %v, want one of %s naming λ and γ", err, c.matrix)
			}
			o.FeatureFactor, o.Lambda = 1, 1e-300
			_, err = Fit(context.Background(), X, H, y, o)
			if err == nil || !strings.Contains(err.Error(), "λ = 1e-300 is too small for these data") || strings.Contains(err.Error(), "γ") {
				t.Fatalf("λ = 1e-300: error %v, want one naming λ only", err)
			}
		})
	}
}

// TestSmallLambdaNamesGammaOnlyForFeatureCandidates: the error of a λ too
// small names the feature factor γ by the rule a path's breakdown uses
// (β > 1: γ > 1 scales a candidate feature beyond the sources), so with
// every feature constant — no feature a candidate, β = 1 — a γ of 2 is not
// blamed, in the exact search, the sampled one and a Gram's. Before, the
// error named γ whenever γ > 1 ("λ = 1e-300 is too small for these data,
// or FeatureFactor γ = 2 too large") although γ scaled nothing.
func TestSmallLambdaNamesGammaOnlyForFeatureCandidates(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 7))
	m := 10
	X, H, y := gammaProblem(r, m, 2, 4, func(float64) float64 { return 3 }) // constant: no feature is a candidate
	ctx := context.Background()
	g, err := NewGram(ctx, X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, gamma := range []float64{2, 1e200} {
		for _, c := range []struct {
			name string
			fit  func(Options) (*Model, error)
			opts func(*Options)
		}{
			{"exact", func(o Options) (*Model, error) { return Fit(ctx, X, H, y, o) }, func(*Options) {}},
			{"sampled", func(o Options) (*Model, error) { return Fit(ctx, X, H, y, o) }, func(o *Options) { o.Sample = 2 }},
			{"Gram", func(o Options) (*Model, error) { return g.Fit(ctx, o) }, func(*Options) {}},
		} {
			o := DefaultOptions()
			o.FeatureFactor, o.Lambda = gamma, 1e-300
			c.opts(&o)
			_, err := c.fit(o)
			if err == nil || !strings.Contains(err.Error(), "λ = 1e-300 is too small for these data") || strings.Contains(err.Error(), "γ") {
				t.Errorf("%s, γ = %g, features constant: error %v, want one naming λ only", c.name, gamma, err)
			}
		}
	}
	// A feature that varies is a candidate: γ = 2 is named, in all three.
	for i := range m {
		X.Set(i, 0, r.NormFloat64())
	}
	if g, err = NewGram(ctx, X, H, y); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.FeatureFactor, o.Lambda = 2, 1e-300
	for name, fit := range map[string]func(Options) (*Model, error){
		"exact":   func(o Options) (*Model, error) { return Fit(ctx, X, H, y, o) },
		"sampled": func(o Options) (*Model, error) { o.Sample = 2; return Fit(ctx, X, H, y, o) },
		"Gram":    func(o Options) (*Model, error) { return g.Fit(ctx, o) },
	} {
		if _, err := fit(o); err == nil || !strings.Contains(err.Error(), "λ = 1e-300 is too small for these data, or FeatureFactor γ = 2 too large") {
			t.Errorf("%s, γ = 2, a feature varies: error %v, want one naming λ and γ", name, err)
		}
	}
}

// gammaProblem returns m examples of alternating labels y, d features
// drawn by x(yᵢ) in row order and n sources N(0.5·yᵢ, 1) from r.
func gammaProblem(r *rand.Rand, m, d, n int, x func(yi float64) float64) (X, H *mat.Dense, y []float64) {
	X, H = mat.NewDense(m, d, nil), mat.NewDense(m, n, nil)
	y = make([]float64, m)
	for i := range m {
		y[i] = float64(1 - 2*(i%2))
		for j := range d {
			X.Set(i, j, x(y[i]))
		}
		for j := range n {
			H.Set(i, j, r.NormFloat64()+0.5*y[i])
		}
	}
	return X, H, y
}
