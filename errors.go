package greedytl

import "fmt"

// The errors both search engines return.

// errNoCandidates: every candidate column is constant on the training
// sample, so nothing can be selected.
var errNoCandidates = fmt.Errorf("greedytl.Fit: no candidate columns: every column of X and H is constant on the training set")

// errSmallLambda reports a λ so small that a candidate's zᵀz/λ (maxq)
// makes the dual quantities unreliable. gamma is the feature factor γ,
// which multiplies a feature's zᵀz by γ²: when γ > 1 the message names it
// too, since a γ too large for λ breaks down as a λ too small does.
func errSmallLambda(lambda, gamma, maxq float64) error {
	if gamma > 1 {
		return fmt.Errorf("greedytl.Fit: %s (zᵀz/λ reaches %g; γ multiplies a feature's zᵀz by γ²)", tooSmall(lambda, gamma, true), maxq)
	}
	return fmt.Errorf("greedytl.Fit: %s (zᵀz/λ reaches %g)", tooSmall(lambda, gamma, false), maxq)
}

// tooSmall is the cause a numerical breakdown names: λ too small for the
// data, or, when gammaToo (γ > 1 scales a candidate feature beyond a
// source: β = γ²), also the feature factor γ too large, which breaks the
// search down as a λ too small does.
func tooSmall(lambda, gamma float64, gammaToo bool) string {
	if gammaToo {
		return fmt.Sprintf("λ = %g is too small for these data, or FeatureFactor γ = %g too large", lambda, gamma)
	}
	return fmt.Sprintf("λ = %g is too small for these data", lambda)
}

// tooSmall is tooSmall for the path's λ and γ: γ is named when it scales
// the candidate features beyond the sources (β > 1).
func (p *path) tooSmall() string { return tooSmall(p.lambda, p.gamma, p.beta > 1) }

// errScaleOverflow reports a selected feature c whose divisor, its
// standard deviation over the feature factor γ < 1, overflows float64: a
// model cannot hold it (Predict and WriteJSON refuse a scale that is not
// finite).
func errScaleOverflow(gamma float64, c Column) error {
	return fmt.Errorf("greedytl.Fit: FeatureFactor γ = %g is too small for %v: its standard deviation over γ, the divisor a model stores, overflows float64 (raise γ, or rescale the feature)", gamma, c)
}
