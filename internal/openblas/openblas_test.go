//go:build openblas

package openblas

import (
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
)

// Importing the package changes nothing; Use routes blas64 to OpenBLAS,
// which then computes what gonum's BLAS computes.
func TestUse(t *testing.T) {
	if InUse() {
		t.Fatal("importing the package replaced gonum's BLAS")
	}
	x := blas64.Vector{N: 3, Inc: 1, Data: []float64{1, 2, 3}}
	y := blas64.Vector{N: 3, Inc: 1, Data: []float64{4, -5, 6}}
	want := blas64.Dot(x, y)
	Use()
	if !InUse() {
		t.Fatal("Use did not route blas64 to OpenBLAS")
	}
	if got := blas64.Dot(x, y); got != want || got != 12 {
		t.Errorf("OpenBLAS dot = %v, gonum's %v, want 12", got, want)
	}
}
