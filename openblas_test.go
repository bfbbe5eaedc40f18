//go:build openblas

package greedytl

import (
	"os"
	"testing"

	"github.com/greedytl/greedytl/internal/openblas"
)

// libraryChangedBLAS records whether gonum's BLAS was OpenBLAS before
// TestMain routed it there: the package's own initialisation must not.
var libraryChangedBLAS bool

// TestMain runs the package's tests with gonum's BLAS routed to OpenBLAS,
// as the greedytl command does in the openblas build.
func TestMain(m *testing.M) {
	libraryChangedBLAS = openblas.InUse()
	openblas.Use()
	os.Exit(m.Run())
}

// The openblas build switches on batched scoring and leaves the program's
// BLAS alone; the tests run on OpenBLAS.
func TestOpenBLASBuild(t *testing.T) {
	if libraryChangedBLAS {
		t.Error("the package's initialisation replaced gonum's BLAS")
	}
	if !batchedScoring {
		t.Error("the openblas build did not switch on batched scoring")
	}
	if !openblas.InUse() {
		t.Error("the tests do not run on OpenBLAS")
	}
}
