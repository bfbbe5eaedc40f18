package typednil

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestIs: Is is true for nil and for a nil pointer in an interface (a
// typed nil), false for any other value, nil maps, slices and functions
// included, and a transpose of a typed nil (Matrix's business).
func TestIs(t *testing.T) {
	var nilMap map[string]int
	var nilFunc func()
	for _, tc := range []struct {
		v    any
		want bool
	}{
		{nil, true},
		{(*mat.Dense)(nil), true},
		{(*int)(nil), true},
		{mat.NewDense(1, 1, nil), false},
		{(*mat.Dense)(nil).T(), false},
		{&mat.Dense{}, false},
		{0, false},
		{"", false},
		{nilMap, false},
		{[]float64(nil), false},
		{nilFunc, false},
	} {
		if got := Is(tc.v); got != tc.want {
			t.Errorf("Is(%#v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// TestMatrix: Matrix is Is for a matrix, and also true for the transpose
// of a typed nil, which dereferences it as the nil does (Dims panicked).
func TestMatrix(t *testing.T) {
	for _, tc := range []struct {
		a    mat.Matrix
		want bool
	}{
		{nil, true},
		{(*mat.Dense)(nil), true},
		{mat.NewDense(1, 1, nil), false},
		{(*mat.Dense)(nil).T(), true},
		{mat.Transpose{Matrix: (*mat.VecDense)(nil)}, true},
		{mat.Transpose{Matrix: (*mat.Dense)(nil).T()}, true},
		{mat.Transpose{}, true},
		{mat.NewDense(1, 1, nil).T(), false},
		{mat.NewVecDense(2, nil).T(), false},
		{(&mat.Dense{}).T(), false},
		{&mat.Dense{}, false},
		// A caller's type whose Untranspose returns itself: not unwrapped
		// for ever (a stack overflow).
		{selfT{}, false},
	} {
		if got := Matrix(tc.a); got != tc.want {
			t.Errorf("Matrix(%#v) = %v, want %v", tc.a, got, tc.want)
		}
	}
}

// selfT is a caller's matrix type whose transpose, and untranspose, is
// itself.
type selfT struct{}

func (selfT) Dims() (int, int)          { return 1, 1 }
func (selfT) At(int, int) float64       { return 0 }
func (s selfT) T() mat.Matrix           { return s }
func (s selfT) Untranspose() mat.Matrix { return s }
