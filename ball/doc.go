// Package ball computes Euclidean projections onto norm balls
// {x : ‖x‖ ≤ τ} of the L2 and L1 norms, the feasible sets of MultiKT's
// source weights β (docs/design.md §5): ProjectL2, ProjectL1 and
// L1Projector, which reuses its buffers and its last threshold across the
// calls of a projected descent.
//
// The vectors projected must be finite, as the callers' checked inputs make
// them (hinge.Minimise refuses a non-finite start, and its steps combine
// finite data): the kernels do not scan for NaN or ±Inf, and a vector
// holding one gives, without an error, a result that is not its projection.
// For a finite τ > 0 (and for ProjectL2 with τ = 0 too) the result has
// NaN components, at least one; other components may be finite (an
// L1Projector's warm Newton steps skip a NaN: (3, 2, NaN) onto the ball of
// radius 1 gives (1, 0, NaN) after a finite projection, NaN everywhere
// from a cold start, whose threshold is NaN). ProjectL1
// with τ = 0 gives zeros, the ball's one point. With τ = +Inf a vector
// with ±Inf components and no NaN is returned as it is.
package ball
