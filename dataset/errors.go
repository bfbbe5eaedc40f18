package dataset

import (
	"fmt"
	"strconv"

	"github.com/greedytl/greedytl/inputcheck"
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

// nonFinite returns the *Error for the non-finite element (i, j) of the
// matrix in file name: "name: row i column j is NaN" (0-based).
func nonFinite(name string, i, j int, v float64) error {
	return &Error{File: name, Err: &inputcheck.NonFiniteError{Row: i, Col: j, Value: v}}
}

// isFinite reports whether v is neither NaN nor ±Inf.
func isFinite(v float64) bool { return inputcheck.Finite(v) }
