//go:build openblas

package main

import (
	"testing"

	"github.com/greedytl/greedytl/internal/openblas"
)

// The openblas build of the command runs on OpenBLAS.
func TestOpenBLASInUse(t *testing.T) {
	if !openblas.InUse() {
		t.Error("the openblas build of greedytl does not route gonum's BLAS to OpenBLAS")
	}
}
