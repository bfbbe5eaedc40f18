package validate

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSample: each bad sample gets its one message (the root package and
// package method put their prefix in front); a good one its sizes.
func TestSample(t *testing.T) {
	X := mat.NewDense(4, 3, nil)
	H := mat.NewDense(4, 2, nil)
	y := []float64{1, -1, 1, -1}
	for _, tc := range []struct {
		name string
		X, H mat.Matrix
		y    []float64
		want string
	}{
		{"no labels", X, H, nil, "need at least 2 training examples (one of each class), got 0"},
		{"one label", X, H, []float64{1}, "need at least 2 training examples (one of each class), got 1"},
		{"label 0", X, H, []float64{1, -1, 0, 1}, "y row 2 is 0: labels must be +1 or -1"},
		{"label NaN", X, H, []float64{1, -1, 1, math.NaN()}, "y row 3 is NaN: labels must be +1 or -1"},
		{"one class", X, H, []float64{-1, -1, -1, -1}, "y holds one class only (0 positive, 4 negative): both +1 and -1 are needed"},
		{"no columns", nil, (*mat.Dense)(nil), y, "no candidate columns: X and H are both absent"},
		{"X rows", mat.NewDense(3, 3, nil), H, y, "X has 3 rows but y has 4 labels"},
		{"H rows", X, mat.NewDense(5, 2, nil), y, "H has 5 rows but y has 4 labels"},
		{"H rows, X absent", nil, mat.NewDense(5, 2, nil), y, "H has 5 rows but y has 4 labels"},
		// A matrix of columns but no rows (not a mat.Dense: it cannot be
		// one) was read as absent, as one without columns is, and
		// Sample accepted it beside a good X.
		{"H no rows", X, zeroRows{2}, y, "H has 0 rows but y has 4 labels"},
		{"X no rows, H absent", zeroRows{3}, nil, y, "X has 0 rows but y has 4 labels"},
	} {
		_, _, _, err := Sample(tc.X, tc.H, tc.y)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct {
		X, H mat.Matrix
		d, n int
	}{{X, H, 3, 2}, {nil, H, 0, 2}, {X, &mat.Dense{}, 3, 0}} {
		m, d, n, err := Sample(tc.X, tc.H, y)
		if err != nil || m != 4 || d != tc.d || n != tc.n {
			t.Errorf("Sample(%d × %d features, %d sources) = %d, %d, %d, %v", 4, tc.d, tc.n, m, d, n, err)
		}
	}
	if pos, neg, err := Labels([]float64{1, 1, -1}); pos != 2 || neg != 1 || err != nil {
		t.Errorf("Labels = %d, %d, %v", pos, neg, err)
	}
	bad := mat.NewDense(4, 2, nil)
	bad.Set(2, 1, math.Inf(-1))
	if err := Finite(X, bad); err == nil || err.Error() != "H row 2 column 1 is -Inf" {
		t.Errorf("Finite = %v", err)
	}
}

// zeroRows is a matrix of c columns and no rows.
type zeroRows struct{ c int }

func (z zeroRows) Dims() (r, c int)    { return 0, z.c }
func (z zeroRows) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z zeroRows) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

// countingMatrix counts the calls of its Dims.
type countingMatrix struct {
	mat.Matrix
	dims *int
}

func (c countingMatrix) Dims() (int, int) { *c.dims++; return c.Matrix.Dims() }

// TestShapesLooksOnce: Shapes looks at each matrix once (inputcheck.Absent
// and its own Dims: two calls of Dims), not twice (Absent again through
// Dims: four), with the same verdicts.
func TestShapesLooksOnce(t *testing.T) {
	for _, tc := range []struct {
		x, h mat.Matrix
		m    int
		want string
	}{
		{mat.NewDense(3, 2, nil), mat.NewDense(3, 1, nil), 3, ""},
		{mat.NewDense(3, 2, nil), mat.NewDense(2, 1, nil), 3, "H has 2 rows but y has 3 labels"},
		{mat.NewDense(2, 2, nil), mat.NewDense(3, 1, nil), 3, "X has 2 rows but y has 3 labels"},
	} {
		var nx, nh int
		d, n, err := Shapes(countingMatrix{tc.x, &nx}, countingMatrix{tc.h, &nh}, tc.m)
		if got := errString(err); got != tc.want || (err == nil && (d != 2 || n != 1)) {
			t.Errorf("Shapes: d %d, n %d, err %q; want %q", d, n, got, tc.want)
		}
		if tc.want == "" && (nx != 2 || nh != 2) {
			t.Errorf("Shapes called Dims %d times on X and %d on H, want 2 each", nx, nh)
		}
	}
}

// errString is err's message, "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestDims pins Dims' rule against inputcheck.Dims': a matrix of no rows
// or no columns has (0, 0), as an absent one has (method reads either as
// "no columns").
func TestDims(t *testing.T) {
	for _, tc := range []struct {
		name string
		A    mat.Matrix
		r, c int
	}{
		{"nil", nil, 0, 0},
		{"3×0", mat.NewDense(3, 2, nil).Slice(0, 3, 1, 1), 0, 0},
		{"0×2", zeroRows{2}, 0, 0},
		{"3×2", mat.NewDense(3, 2, nil), 3, 2},
	} {
		if r, c := Dims(tc.A); r != tc.r || c != tc.c {
			t.Errorf("%s: Dims = (%d, %d), want (%d, %d)", tc.name, r, c, tc.r, tc.c)
		}
	}
}
