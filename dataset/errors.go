package dataset

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// Error is the error every reader in this package returns for bad data: it
// names the file and, for line-based formats, the 1-based line.
//
// Its message is "file:line: problem" or, when Line is 0, "file: problem".
type Error struct {
	// File is the path as given by the caller ("<stdin>" for "-"), or
	// the name passed to a Decode function.
	File string
	// Line is the 1-based line number in a text file, or 0 when the problem
	// is not tied to a line (binary formats, whole-file problems).
	Line int
	// Err is the problem itself.
	Err error
}

// Error returns "file:line: problem", or "file: problem" when Line is 0.
func (e *Error) Error() string {
	if e.Line > 0 {
		return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Err.Error()
	}
	return e.File + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error for file and line with a formatted message.
func errorf(file string, line int, format string, args ...any) error {
	return &Error{File: file, Line: line, Err: fmt.Errorf(format, args...)}
}

// CheckFinite returns an *Error naming the first NaN or infinite element of m
// in row-major order, as "name: row i, column j: NaN" (0-based, like Go
// and NumPy indices), or nil when every element is finite.
func CheckFinite(name string, m mat.Matrix) error {
	if d, ok := m.(mat.RawMatrixer); ok {
		raw := d.RawMatrix()
		for i := 0; i < raw.Rows; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
			for j, v := range row {
				if !isFinite(v) {
					return nonFinite(name, i, j, v)
				}
			}
		}
		return nil
	}
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := m.At(i, j); !isFinite(v) {
				return nonFinite(name, i, j, v)
			}
		}
	}
	return nil
}

func nonFinite(name string, i, j int, v float64) error {
	return errorf(name, 0, "row %d, column %d: %s", i, j, describeNonFinite(v))
}

// isFinite reports whether v is neither NaN nor ±Inf.
func isFinite(v float64) bool { return v-v == 0 }

// describeNonFinite names a non-finite value the way messages show it.
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
