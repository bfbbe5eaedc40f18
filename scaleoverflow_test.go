package greedytl

import (
	"context"
	"errors"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestScaleOverflowError: a fit of γ = 0.5 that selects a feature of
// values ±0.9·10³⁰⁸ (its standard deviation over γ overflows) returns a
// *ScaleOverflowError naming that feature and γ, which a caller finds with
// errors.As (the CLI then names the file's column), and whose message says
// to rescale the feature.
func TestScaleOverflowError(t *testing.T) {
	const m = 10
	X, H := mat.NewDense(m, 2, nil), mat.NewDense(m, 1, nil)
	y := make([]float64, m)
	for i := range m {
		y[i] = []float64{1, -1}[i%2]
		X.Set(i, 0, float64(i%3))
		X.Set(i, 1, y[i]*0.9e308)
		H.Set(i, 0, float64(i%4))
	}
	o := DefaultOptions()
	o.FeatureFactor = 0.5
	_, err := Fit(context.Background(), X, H, y, o)
	var so *ScaleOverflowError
	if !errors.As(err, &so) || so.Column != (Column{Kind: Feature, Index: 1}) || so.FeatureFactor != 0.5 {
		t.Fatalf("error %v (%T), want a *ScaleOverflowError of feature 1 and γ = 0.5", err, err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "greedytl.Fit: FeatureFactor γ = 0.5 is too small for feature 1") || !strings.Contains(msg, "rescale the feature") {
		t.Errorf("message %q", msg)
	}
}

// TestPredictOverflowingDifference: a test value whose difference from
// its column's training mean overflows float64 while its standardised
// value is ordinary (−0.95e308 in a column of values near 0.9e308, about
// 50 standard deviations below its mean) gets its ordinary score, the
// weighted sum of the standardised values computed without an exponent
// limit (big.Float at float64's precision), not a ScoreOverflowError.
func TestPredictOverflowingDifference(t *testing.T) {
	const m = 12
	X := mat.NewDense(m, 2, nil)
	y := make([]float64, m)
	for i := range m {
		y[i] = float64(1 - 2*(i%2))
		X.Set(i, 0, (0.85+0.01*float64(i)+0.02*y[i])*1e308)
		X.Set(i, 1, float64(i%3)+y[i])
	}
	mod, err := Fit(context.Background(), X, nil, y, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(mod.Selected, Column{Feature, 0}) {
		t.Fatalf("selected %v, want feature 0 among them", mod.Selected)
	}
	row := []float64{-0.95e308, 1}
	var want float64
	for j, c := range mod.Selected {
		d := new(big.Float).SetPrec(53).Sub(big.NewFloat(row[c.Index]), big.NewFloat(mod.Mean[j]))
		z, _ := new(big.Float).SetPrec(53).Quo(d, big.NewFloat(mod.Scale[j])).Float64()
		want += mod.Weights[j] * z
	}
	f, err := mod.Predict(mat.NewDense(1, 2, row), nil)
	if err != nil || len(f) != 1 || f[0] != want || math.IsInf(want, 0) {
		t.Errorf("Predict(%v) = %v, %v; want [%v]", row, f, err, want)
	}
}
