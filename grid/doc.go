// Package grid owns the hyperparameter grids of the paper, which the
// methods of package method, the root package's AutoLambda and the source
// training search (package source) share (docs/design.md §5): the
// regularisation grid λ, C ∈ {1e-4, 1e-3, …, 1e4} and the radius grid
// τ ∈ {1e-3, …, 1e3} of MultiKT and DAM.
//
// Each function returns a fresh slice, so callers may keep or modify it.
package grid
