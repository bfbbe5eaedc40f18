// Package inputcheck holds the module's checks of numeric inputs that
// every layer makes, from the dataset readers up to the fits: whether a
// value, vector or matrix is finite (Finite, PositiveFinite, CheckFinite,
// CheckFiniteVector, CheckFiniteValues), with the one error for a NaN or
// ±Inf element (NonFiniteError: "X row 3 column 7 is NaN"), and whether a
// matrix is given at all (Absent, Dims): nil, a typed nil pointer or an
// empty matrix stands for "no matrix" (no features, no sources).
//
// It is a leaf: it imports only gonum's mat and the module's typednil, so
// that a package checking its inputs (dataset, linear, hinge, …) need not
// import package standardize, which standardises columns.
package inputcheck
