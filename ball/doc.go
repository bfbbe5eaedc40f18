// Package ball computes Euclidean projections onto norm balls
// {x : ‖x‖ ≤ τ} of the L2 and L1 norms, the feasible sets of MultiKT's
// source weights β (docs/design.md §5): ProjectL2, ProjectL1 and
// L1Projector, which reuses its buffers and its last threshold across the
// calls of a projected descent.
package ball
