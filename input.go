package greedytl

import (
	"fmt"

	"github.com/greedytl/greedytl/internal/validate"
	"gonum.org/v1/gonum/mat"
)

// inputs are the validated training inputs.
type inputs struct {
	m, d, n int
	x, h    inputMatrix // x.cols = d, h.cols = n; one with cols 0 is absent
	gamma   float64
}

// numCand returns N = d + n, the number of candidate columns.
func (in *inputs) numCand() int { return in.d + in.n }

// newInputs validates shapes and labels (validate.Sample, the check every
// method of package method applies too) but not the finiteness of X and H,
// which the engines check as they read. Its errors start with caller, the
// entry point that was given the sample ("greedytl.Fit").
func newInputs(caller string, X, H mat.Matrix, y []float64, gamma float64) (*inputs, error) {
	m, d, n, err := validate.Sample(X, H, y)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", caller, err)
	}
	in := &inputs{m: m, d: d, n: n, gamma: gamma, x: inputMatrix{name: "X", rows: m}, h: inputMatrix{name: "H", rows: m}}
	if d > 0 {
		in.x = newInputMatrix("X", X)
	}
	if n > 0 {
		in.h = newInputMatrix("H", H)
	}
	in.x.caller, in.h.caller = caller, caller
	return in, nil
}
