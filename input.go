package greedytl

import (
	"fmt"

	"github.com/greedytl/greedytl/standardize"
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

// newInputs validates shapes and labels (but not the finiteness of X and
// H, which the engines check as they read).
func newInputs(X, H mat.Matrix, y []float64, gamma float64) (*inputs, error) {
	m := len(y)
	if m < 2 {
		return nil, fmt.Errorf("greedytl: need at least 2 training examples, got %d", m)
	}
	in := &inputs{m: m, gamma: gamma}
	for _, p := range []struct {
		name string
		a    mat.Matrix
		dst  *inputMatrix
		n    *int
	}{{"X", X, &in.x, &in.d}, {"H", H, &in.h, &in.n}} {
		if standardize.Absent(p.a) {
			*p.dst = inputMatrix{name: p.name, rows: m}
			continue
		}
		*p.dst = newInputMatrix(p.name, p.a)
		if p.dst.rows != m {
			return nil, fmt.Errorf("greedytl: %s has %d rows but y has %d labels", p.name, p.dst.rows, m)
		}
		*p.n = p.dst.cols
	}
	if in.d+in.n == 0 {
		return nil, fmt.Errorf("greedytl: no candidate columns: X and H are both absent")
	}
	var pos int
	for i, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
		default:
			return nil, fmt.Errorf("greedytl: y[%d] = %v: labels must be +1 or -1", i, v)
		}
	}
	if pos == 0 || pos == m {
		return nil, fmt.Errorf("greedytl: y holds one class only (%d examples, all %+d): need both +1 and -1", m, int(y[0]))
	}
	return in, nil
}
