// Package standardize owns the standardisation of candidate columns that
// every method of greedytl uses (docs/design.md §1): each column is centred
// on its training mean and divided by its training population standard
// deviation (divided by m, not m − 1), and test data are standardised with
// the training statistics.
//
// # Constant columns
//
// A column is constant (Constant) when its standard deviation is at most
// ConstTol times the magnitude of its mean — once centred it would hold
// nothing but rounding error; a column of zeros included. The rule is
// scale-free: multiplying a column by a non-zero factor does not change the
// decision, whatever the magnitude — a column of subnormal values (around
// 1e-320) is standardised like a column around 1, and one around 1e300
// too; so is a test value that lies as many standard deviations away.
//
// A constant column has scale 0 and standardises to exactly 0, on the
// training sample and at prediction time alike. It carries no information
// on the training sample, so no method gives it weight; standardising it to
// 0 everywhere (rather than to v − mean, with scale 1) means that its test
// values never reach a score, not even as ∞·0 = NaN when a test value is
// huge.
//
// # Arithmetic
//
// Sum, SumSquares and Std fix the order of the floating-point operations,
// so that every implementation — the root package's column-blocked
// kernels, Scaler — computes bitwise the same statistics for the same
// column: sums run over four interleaved accumulators combined as
// (s0 + s1) + (s2 + s3), squares are never fused into multiply–adds, a sum
// that overflows is recomputed as Σ v_i/n (Mean), and a sum of squares
// below 2⁻⁹⁰⁰ (which may have underflowed) or one that overflowed is
// recomputed in units of the largest deviation (Std, as LAPACK's dnrm2
// scales), so that the statistics do not depend on the magnitude of the
// values. Only a column whose deviations from its mean themselves overflow
// (values spanning more than the float64 range) cannot be standardised.
// A test value is standardised by Standardise, the one formula
// (v − mean)/scale, which gives an ordinary number whenever the
// standardised value is one, even when v − mean alone overflows (a value
// near −1e308 in a column whose training values lie near +1e308).
package standardize
