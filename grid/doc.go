// Package grid owns the hyperparameter grids of the paper, which every
// method, the root package's AutoLambda and the source training search
// (docs/design.md §5): the regularisation grid λ, C ∈ {1e-4, 1e-3, …, 1e4}
// and MultiKT's radius grid τ ∈ {1e-3, …, 1e3}.
//
// Each function returns a fresh slice, so callers may keep or modify it.
package grid
