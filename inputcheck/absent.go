package inputcheck

import (
	"github.com/greedytl/greedytl/internal/typednil"
	"gonum.org/v1/gonum/mat"
)

// Absent reports whether A stands for "no matrix": nil, a typed nil
// pointer, or an empty (0×0) matrix such as the zero mat.Dense. The root
// package and package method read an absent X or H as "no features" or "no
// sources".
func Absent(A mat.Matrix) bool {
	if typednil.Matrix(A) {
		return true
	}
	if e, ok := A.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return true
	}
	r, c := A.Dims()
	return r == 0 && c == 0
}

// Dims returns the dimensions of A, or (0, 0) when A is absent. A matrix
// that is not absent keeps its dimensions, a 0×c one (columns but no rows)
// included, whose c a caller checking its columns against a model's needs
// ("standardising 2 columns of no rows"); internal/validate.Dims, the
// sample checks' variant, also reads such a matrix, and an r×0 one, as
// having no columns.
func Dims(A mat.Matrix) (r, c int) {
	if Absent(A) {
		return 0, 0
	}
	return A.Dims()
}
