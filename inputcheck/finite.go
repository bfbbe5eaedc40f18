package inputcheck

import (
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// NonFiniteError reports a NaN or ±Inf element of an input: the module's one
// message for it, "X row 3 column 7 is NaN" (rows and columns count from 0,
// as Go and NumPy index them). Every package that checks its inputs for NaN
// and ±Inf returns it (CheckFinite, or its own fast scan building the
// error), behind its own package prefix.
type NonFiniteError struct {
	// Name is the input ("X", "H", "y"), or "" when the caller does not
	// name it.
	Name string
	// Row and Col locate the element (0-based); Col is −1 for a vector of
	// one value per row (y), whose message then names the row only, and
	// Row is −1 for a vector of other values (weights), whose message
	// names its index Col alone: "start weight 3 is NaN".
	Row, Col int
	// Value is the element: NaN, +Inf or −Inf.
	Value float64
}

// Error returns "X row 3 column 7 is NaN" ("y row 3 is +Inf" for a vector
// of rows, "start weight 3 is -Inf" for another; without the name when
// Name is "").
func (e *NonFiniteError) Error() string {
	var s string
	switch {
	case e.Row < 0:
		s = strconv.Itoa(e.Col)
	case e.Col < 0:
		s = "row " + strconv.Itoa(e.Row)
	default:
		s = "row " + strconv.Itoa(e.Row) + " column " + strconv.Itoa(e.Col)
	}
	if e.Name != "" {
		s = e.Name + " " + s
	}
	return s + " is " + describeNonFinite(e.Value)
}

// describeNonFinite names a non-finite value: "NaN", "+Inf" or "-Inf".
func describeNonFinite(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case v > 0:
		return "+Inf"
	default:
		return "-Inf"
	}
}

// Finite reports whether v is neither NaN nor ±Inf.
func Finite(v float64) bool { return v-v == 0 }

// PositiveFinite reports whether v is positive and finite (neither NaN,
// nor ±Inf, nor ≤ 0): the one test of a cost, weight, scale or tolerance
// that must be.
func PositiveFinite(v float64) bool { return v > 0 && v <= math.MaxFloat64 }

// CheckFinite returns a *NonFiniteError naming the first NaN or ±Inf element
// of A in row-major order (its Name is name), or nil when every element is
// finite. An absent A (see Absent) is finite. Row-major raw data
// (mat.RawMatrixer, such as *mat.Dense and its views) are scanned directly,
// other matrices through At.
func CheckFinite(name string, A mat.Matrix) error {
	if Absent(A) {
		return nil
	}
	if rm, ok := A.(mat.RawMatrixer); ok {
		raw := rm.RawMatrix()
		for i := range raw.Rows {
			for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
				if !Finite(v) {
					return &NonFiniteError{Name: name, Row: i, Col: j, Value: v}
				}
			}
		}
		return nil
	}
	r, c := A.Dims()
	for i := range r {
		for j := range c {
			if v := A.At(i, j); !Finite(v) {
				return &NonFiniteError{Name: name, Row: i, Col: j, Value: v}
			}
		}
	}
	return nil
}

// CheckFiniteVector returns a *NonFiniteError (Col −1) naming the first NaN
// or ±Inf element of v, a vector of one value per row ("y row 2 is -Inf"),
// or nil.
func CheckFiniteVector(name string, v []float64) error {
	if i := firstNonFinite(v); i >= 0 {
		return &NonFiniteError{Name: name, Row: i, Col: -1, Value: v[i]}
	}
	return nil
}

// CheckFiniteValues returns a *NonFiniteError (Row −1) naming the first NaN
// or ±Inf element of v, a vector of values that are not one per row (a
// weight per source), by its index alone ("start weight 0 is NaN"), or nil.
func CheckFiniteValues(name string, v []float64) error {
	if i := firstNonFinite(v); i >= 0 {
		return &NonFiniteError{Name: name, Row: -1, Col: i, Value: v[i]}
	}
	return nil
}

// firstNonFinite returns the index of v's first NaN or ±Inf element, or −1.
func firstNonFinite(v []float64) int {
	for i, x := range v {
		if !Finite(x) {
			return i
		}
	}
	return -1
}
