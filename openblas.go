//go:build openblas

package greedytl

// init switches on the package's own use of the openblas build: the
// sampled search scores its candidates by one matrix product per step.
// It does not touch gonum's BLAS, which is the program's choice: the
// greedytl command routes it to OpenBLAS in this build (package
// internal/openblas), and the package's tests do in TestMain.
func init() {
	batchedScoring = true
}
