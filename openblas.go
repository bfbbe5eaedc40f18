//go:build openblas

package greedytl

// #cgo LDFLAGS: -lopenblas
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// init makes gonum's blas64 (and so lapack64 and mat, in the whole
// program) call OpenBLAS, and the sampled search score its candidates
// by one matrix product per step.
func init() {
	blas64.Use(netlib.Implementation{})
	batchedScoring = true
}
