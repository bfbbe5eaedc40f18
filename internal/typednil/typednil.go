// Package typednil owns the test of an argument that is nil, or a nil
// pointer held in an interface (a typed nil, such as a nil *mat.Dense
// passed as a mat.Matrix), whose methods would dereference it: the one
// test of both, which the packages' argument checks use
// (standardize.Absent, linear's ridge, method's model writers).
package typednil

import (
	"reflect"

	"gonum.org/v1/gonum/mat"
)

// Is reports whether v is nil or holds a nil pointer, or is the transpose
// of one (a mat.Untransposer whose Untranspose is: the T() of a nil
// *mat.Dense, whose Dims dereferences it). Nil maps, slices, functions and
// channels are not: their methods, if any, do not dereference them.
func Is(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && rv.IsNil() {
		return true
	}
	// A transpose of a transpose …, at most a few deep: a caller's type
	// whose Untranspose returns itself (or another that returns it) is not
	// unwrapped for ever.
	for range maxUntranspose {
		t, ok := v.(mat.Untransposer)
		if !ok {
			return false
		}
		if v = t.Untranspose(); v == nil {
			return true
		}
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return true
		}
	}
	return false
}

// maxUntranspose bounds Is's unwrapping of transposes: gonum's are one
// deep.
const maxUntranspose = 8
