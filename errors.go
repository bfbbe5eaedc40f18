package greedytl

import "fmt"

// The errors both search engines return.

// errNoCandidates: every candidate column is constant on the training
// sample, so nothing can be selected.
var errNoCandidates = fmt.Errorf("greedytl.Fit: no candidate columns: every column of X and H is constant on the training set")

// errSmallLambda reports a λ so small that a candidate's zᵀz/λ (maxq)
// makes the dual quantities unreliable.
func errSmallLambda(lambda, maxq float64) error {
	return fmt.Errorf("greedytl.Fit: λ = %g is too small for these data (zᵀz/λ reaches %g)", lambda, maxq)
}
