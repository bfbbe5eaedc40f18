package standardize_test

import (
	"fmt"

	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// ExampleFit computes each column's mean and population standard
// deviation; a constant column gets scale 0, which Transform maps to 0.
func ExampleFit() {
	A := mat.NewDense(2, 2, []float64{
		1, 5,
		3, 5,
	})
	s := standardize.Fit(A)
	fmt.Println(s.Mean, s.Scale)
	Z, err := s.Transform(A)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mat.Formatted(Z, mat.Squeeze()))
	// Output:
	// [2 5] [1 0]
	// ⎡-1  0⎤
	// ⎣ 1  0⎦
}
