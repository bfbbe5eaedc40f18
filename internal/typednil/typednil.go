// Package typednil owns the test of an argument that is nil, or a nil
// pointer held in an interface (a typed nil, such as a nil *mat.Dense
// passed as a mat.Matrix), whose methods would dereference it: Is, for any
// value (method's model writers), and Matrix, for a matrix, which also
// sees through gonum's transposes (inputcheck.Absent, linear's scores and
// ridge, sparse.FromDense).
package typednil

import (
	"reflect"

	"gonum.org/v1/gonum/mat"
)

// Is reports whether v is nil or holds a nil pointer. Nil maps, slices,
// functions and channels are not: their methods, if any, do not
// dereference them.
func Is(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// Matrix reports whether a is nil or holds a nil pointer (Is), or is the
// transpose of one (a mat.Untransposer whose Untranspose is: the T() of
// a nil *mat.Dense, whose Dims dereferences it).
func Matrix(a mat.Matrix) bool {
	// A transpose of a transpose …, at most a few deep: a caller's type
	// whose Untranspose returns itself (or another that returns it) is not
	// unwrapped for ever.
	for range maxUntranspose {
		if Is(a) {
			return true
		}
		t, ok := a.(mat.Untransposer)
		if !ok {
			return false
		}
		a = t.Untranspose()
	}
	return Is(a)
}

// maxUntranspose bounds Matrix's unwrapping of transposes: gonum's are one
// deep.
const maxUntranspose = 8
