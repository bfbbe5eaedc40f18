// Package lssvm solves least-squares SVMs — ridge regression with row
// weights and an unpenalised intercept, in the dual — with exact
// leave-one-out predictions, the kernels of the MultiKT and DAM baselines
// and of the dictionary baseline's classifier (docs/design.md §5).
//
// System is one LS-SVM, min_w ½‖w‖² + (C/2) Σ ζ_i (r_i − wᵀx_i − b)², in
// the block-inverse form of its bordered system: Solve gives the dual
// solution for any targets and LOO the leave-one-out predictions as an
// affine function of source weights. WeightedRidge solves
// min_{w,b} Σ ω_i (t_i − wᵀz_i − b)² + λ‖w‖² for every λ at once from one
// eigendecomposition. BalanceWeights gives the class-balancing weights
// ζ_i = m/(2m₊) or m/(2m₋).
package lssvm
