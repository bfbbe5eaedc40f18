// Package ball computes Euclidean projections onto norm balls
// {x : ‖x‖ ≤ τ} of the L2 and L1 norms, the feasible sets of MultiKT's
// source weights β (docs/design.md §5): ProjectL2, ProjectL1 and
// L1Projector, which reuses its buffers and its last threshold across the
// calls of a projected descent.
//
// The vectors projected must be finite, as the callers' checked inputs make
// them (hinge.Minimise refuses a non-finite start, and its steps combine
// finite data): the kernels do not scan for NaN or ±Inf, and a vector
// holding one gives a result with NaN components — a NaN, not a projection
// — without an error.
package ball
