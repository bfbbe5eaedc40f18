//go:build openblas

package main

import "github.com/greedytl/greedytl/internal/openblas"

// In the openblas build the command routes gonum's BLAS (and so LAPACK and
// mat, in every package) to OpenBLAS: a program-wide choice, made here in
// main like the collector's setting (gc.go), not by a library.
func init() { openblas.Use() }
