// Package sparsecode learns sparse representations: orthogonal matching
// pursuit (OMP, batch form with an incrementally extended Cholesky factor)
// codes signals on a dictionary of unit-norm atoms, and K-SVD (Aharon, Elad
// and Bruckstein, 2006) learns the dictionary. They serve the dictionary
// learning baseline of package method (docs/design.md §5).
//
// Signals, atoms and codes are rows of gonum matrices.
package sparsecode
