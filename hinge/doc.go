// Package hinge minimises a class-weighted hinge loss of affine predictions
// over a norm ball:
//
//	L(β) = (1/m) Σ_i ζ_i max(0, 1 − y_i (c_i + G_iβ)),  ‖β‖ ≤ τ (L1 or L2),
//
// by projected subgradient descent with normalised steps of decreasing
// length and exact projections (package ball), keeping the best iterate;
// where L is linear on the ball its exact minimiser is taken. It is
// MultiKT's search for its source weights β, whose leave-one-out
// predictions are affine in β (package lssvm; docs/design.md §5). The L1
// descent exploits the sparsity of β and of the subgradient, the L2 descent
// works with the m × m kernel GGᵀ.
package hinge
