//go:build !openblas

package linear

import "testing"

// useOpenBLAS routes gonum's BLAS to OpenBLAS for the rest of t in the
// openblas build (openblas_test.go); this build has gonum's own.
func useOpenBLAS(*testing.T) {}
