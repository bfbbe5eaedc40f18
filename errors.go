package greedytl

import (
	"errors"
	"fmt"
)

// The errors both search engines and the Gram's search return, named by
// their caller ("greedytl.Fit", "greedytl.Gram.Fit").

// errNoCandidates: every candidate column is constant on the training
// sample, so nothing can be selected. A search returns it named by its
// caller (noCandidates); errors.Is finds it.
var errNoCandidates = errors.New("no candidate columns: every column of X and H is constant on the training set")

// noCandidates returns errNoCandidates named by caller.
func noCandidates(caller string) error { return fmt.Errorf("%s: %w", caller, errNoCandidates) }

// errSmallLambda reports, named by caller, a λ so small that a candidate's
// zᵀz/λ (maxq) makes the dual quantities unreliable. The feature factor γ of fs
// multiplies a feature's zᵀz by γ²: when it scales a candidate feature
// beyond the sources (fs.gammaNamed) the message names it too, since a γ
// too large for λ breaks down as a λ too small does.
func errSmallLambda(caller string, lambda float64, fs featureScale, maxq float64) error {
	note := ""
	if fs.gammaNamed() {
		note = "; γ multiplies a feature's zᵀz by γ²"
	}
	return fmt.Errorf("%s: %s (zᵀz/λ reaches %g%s)", caller, tooSmall(lambda, fs), maxq, note)
}

// tooSmall is the cause a numerical breakdown names: λ too small for the
// data, or, when fs.gammaNamed (γ > 1 scales a candidate feature beyond a
// source: β = γ²), also the feature factor γ too large, which breaks the
// search down as a λ too small does.
func tooSmall(lambda float64, fs featureScale) string {
	if fs.gammaNamed() {
		return fmt.Sprintf("λ = %g is too small for these data, or FeatureFactor γ = %g too large", lambda, fs.gamma)
	}
	return fmt.Sprintf("λ = %g is too small for these data", lambda)
}

// tooSmall is tooSmall for the path's λ and featureScale.
func (p *path) tooSmall() string { return tooSmall(p.lambda, p.featureScale) }

// errScaleOverflow reports a selected feature c whose divisor, its
// standard deviation over the feature factor γ < 1, overflows float64: a
// model cannot hold it (Predict and WriteJSON refuse a scale that is not
// finite).
func errScaleOverflow(gamma float64, c Column) error {
	return &ScaleOverflowError{FeatureFactor: gamma, Column: c}
}

// ScaleOverflowError is the error of a fit that selected a feature whose
// standard deviation over the feature factor γ < 1 — the divisor a model
// stores for it — overflows float64 (a standard deviation above
// γ·MaxFloat64): a model cannot hold the
// feature. Rescaling the feature (dividing it by a power of ten) mends it;
// so does a larger γ, where the caller chose γ. A caller that knows where
// the feature came from (the CLI: its file and column) finds the error
// with errors.As and says so.
type ScaleOverflowError struct {
	FeatureFactor float64 // γ
	Column        Column  // the feature
}

// Error names γ and the feature: "greedytl.Fit: FeatureFactor γ = 0.5 is
// too small for feature 1: … (raise γ, or rescale the feature)".
func (e *ScaleOverflowError) Error() string {
	return fmt.Sprintf("greedytl.Fit: FeatureFactor γ = %g is too small for %v: its standard deviation over γ, the divisor a model stores, overflows float64 (raise γ, or rescale the feature)", e.FeatureFactor, e.Column)
}
