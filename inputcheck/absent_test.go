package inputcheck

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAbsentNil: Absent is true for nil and for a typed nil matrix
// (typednil.Matrix), and for its transpose (which panicked).
func TestAbsentNil(t *testing.T) {
	for _, m := range []mat.Matrix{nil, (*mat.Dense)(nil), (*mat.SymDense)(nil), (*mat.Dense)(nil).T()} {
		if !Absent(m) {
			t.Errorf("Absent(%#v) = false", m)
		}
	}
}

// shape is a matrix of r rows and c columns holding zeros: a mat.Dense
// cannot have no rows or no columns and be non-empty.
type shape struct{ r, c int }

func (z shape) Dims() (r, c int)    { return z.r, z.c }
func (z shape) At(i, j int) float64 { return 0 }
func (z shape) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

// TestDims pins what Dims returns for each kind of matrix: (0, 0) for an
// absent one, the matrix's own dimensions otherwise, an r×0 and a 0×c one
// included (standardize reports "standardising 2 columns of no rows" for
// the latter, and reads the former as having no columns).
func TestDims(t *testing.T) {
	for _, tc := range []struct {
		name string
		A    mat.Matrix
		r, c int
	}{
		{"nil", nil, 0, 0},
		{"typed nil", (*mat.Dense)(nil), 0, 0},
		{"zero Dense", &mat.Dense{}, 0, 0},
		{"0×0", shape{0, 0}, 0, 0},
		{"3×0", shape{3, 0}, 3, 0},
		{"0×2", shape{0, 2}, 0, 2},
		{"3×2", mat.NewDense(3, 2, nil), 3, 2},
	} {
		if r, c := Dims(tc.A); r != tc.r || c != tc.c {
			t.Errorf("%s: Dims = (%d, %d), want (%d, %d)", tc.name, r, c, tc.r, tc.c)
		}
	}
}
