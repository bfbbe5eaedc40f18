package greedytl

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFitScaleOverflow: a feature's divisor is its standard deviation over
// γ, and with γ < 1 it can overflow float64 — a subnormal γ on any data,
// or greedytl-sp's γ = 0.5 on a column whose standard deviation exceeds
// MaxFloat64/2. Fit returned such a column in a model with Scale +Inf,
// which its own Predict and WriteJSON refuse ("scale is +Inf"); it now
// returns an error naming γ and the column, as every route does (exact,
// sampled, Gram.Fit).
func TestFitScaleOverflow(t *testing.T) {
	y := []float64{1, 1, -1, 1, -1, -1}
	small := mat.NewDense(6, 2, []float64{0, 1, 1, 2, 3, 1, 1, 5, 2, 0, 7, 3})
	huge := mat.NewDense(6, 1, []float64{1.2e308, 1.1e308, -1.2e308, 1.2e308, -1.1e308, -1.2e308})
	for _, c := range []struct {
		name  string
		X     *mat.Dense
		gamma float64
		want  string
	}{
		{"subnormal γ", small, 1e-310, "FeatureFactor γ = 1e-310 is too small for feature 0"},
		{"γ = 0.5, a deviation beyond MaxFloat64/2", huge, 0.5, "FeatureFactor γ = 0.5 is too small for feature 0"},
	} {
		for _, sample := range []int{0, 2} {
			o := DefaultOptions()
			o.FeatureFactor, o.Delta, o.Sample = c.gamma, 0, sample
			fits := map[string]func() (*Model, error){
				"Fit": func() (*Model, error) { return Fit(context.Background(), c.X, nil, y, o) },
				"Gram.Fit": func() (*Model, error) {
					g, err := NewGram(context.Background(), c.X, nil, y)
					if err != nil {
						return nil, err
					}
					return g.Fit(context.Background(), o)
				},
			}
			for route, fit := range fits {
				mod, err := fit()
				switch {
				case err == nil:
					t.Errorf("%s, sample %d, %s: no error; the model's scales are %v", c.name, sample, route, mod.Scale)
				case !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "greedytl.Fit: "):
					t.Errorf("%s, sample %d, %s: %v, want greedytl.Fit: … %q", c.name, sample, route, err, c.want)
				case mod != nil:
					t.Errorf("%s, sample %d, %s: a model with the error", c.name, sample, route)
				}
			}
		}
	}
	// A γ whose divisors stay finite still fits, and the model is written.
	o := DefaultOptions()
	o.FeatureFactor, o.Delta = 1e-300, 0
	mod, err := Fit(context.Background(), small, nil, y, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := mod.WriteJSON(new(bytes.Buffer)); err != nil {
		t.Errorf("γ = 1e-300: %v", err)
	}
}

// TestFitNegativeRegError: e(S) = λ yᵀ(K_S + λI)⁻¹y is positive, but with
// λ = 1e-17 on two examples its computed value rounded to −1.1e-16, and
// Fit returned a model whose path held that negative error, which its own
// WriteJSON refuses ("negative error"). Such a λ is too small for the data,
// as the other breakdowns of the path say: Fit and Gram.Fit now return
// that error.
func TestFitNegativeRegError(t *testing.T) {
	X := mat.NewDense(2, 2, []float64{2, 1, 0.25000000256204635, 1})
	y := []float64{1, -1}
	o := DefaultOptions()
	o.Lambda = 1e-17
	g, err := NewGram(context.Background(), X, nil, y)
	if err != nil {
		t.Fatal(err)
	}
	for route, fit := range map[string]func() (*Model, error){
		"Fit":      func() (*Model, error) { return Fit(context.Background(), X, nil, y, o) },
		"Gram.Fit": func() (*Model, error) { return g.Fit(context.Background(), o) },
	} {
		mod, err := fit()
		if err == nil {
			t.Errorf("%s: no error; path %+v, WriteJSON: %v", route, mod.Path, mod.WriteJSON(new(bytes.Buffer)))
		} else if want := "greedytl.Fit: regularised error breaks down at step 1"; !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "λ = 1e-17 is too small for these data") {
			t.Errorf("%s: %v, want %q … λ = 1e-17 is too small for these data", route, err, want)
		}
	}
}
