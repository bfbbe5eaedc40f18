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
// nothing but rounding error; a column of zeros included — or below
// MinStd, the smallest normal float64: such a column is too small to
// standardise, since dividing by its standard deviation overflows. The rule
// is scale-free above MinStd: multiplying a column by a non-zero factor does
// not change the decision.
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
// (s0 + s1) + (s2 + s3), squares are never fused into multiply–adds, and a
// sum of squares below 2⁻⁹⁰⁰ (which may have underflowed) is recomputed in
// units of the largest deviation.
package standardize
