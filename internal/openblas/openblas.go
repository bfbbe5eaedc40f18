//go:build openblas

// Package openblas routes gonum's BLAS to OpenBLAS, in the openblas build
// (go build -tags openblas; cgo and OpenBLAS, Debian package
// libopenblas-dev). It links the program against OpenBLAS and holds the one
// call that replaces gonum's BLAS for the whole program — blas64, and so
// lapack64 and mat, everywhere — which only a main package (or a test's
// TestMain) should make: a library must not change its caller's BLAS.
// cmd/greedytl makes it in the openblas build; the root package's tests
// under -tags openblas make it so that they exercise OpenBLAS.
package openblas

// #cgo LDFLAGS: -lopenblas
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// Use makes gonum's blas64 call OpenBLAS in the whole program.
func Use() { blas64.Use(netlib.Implementation{}) }

// InUse reports whether gonum's blas64 calls OpenBLAS.
func InUse() bool {
	_, ok := blas64.Implementation().(netlib.Implementation)
	return ok
}
