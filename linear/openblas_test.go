//go:build openblas

package linear

import (
	"testing"

	"github.com/greedytl/greedytl/internal/openblas"
	"gonum.org/v1/gonum/blas/blas64"
)

// useOpenBLAS routes gonum's BLAS to OpenBLAS for the rest of t, as the
// greedytl command does in the openblas build, and back to the BLAS it
// replaced when t ends: the package's other tests keep gonum's (their
// pinned bits are gonum's). Tests that call it must not run in parallel.
func useOpenBLAS(t *testing.T) {
	prev := blas64.Implementation()
	openblas.Use()
	if !openblas.InUse() {
		t.Fatal("gonum's BLAS is not OpenBLAS")
	}
	t.Cleanup(func() { blas64.Use(prev) })
}
