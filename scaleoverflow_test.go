package greedytl

import (
	"context"
	"errors"
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
