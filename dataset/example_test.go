package dataset_test

import (
	"fmt"
	"strings"

	"github.com/greedytl/greedytl/dataset"
	"gonum.org/v1/gonum/mat"
)

func ExampleDecodeCSV() {
	csv := "# two points\nx,y\n1,2\n3,4.5\n"
	m, err := dataset.DecodeCSV(strings.NewReader(csv), "points.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mat.Formatted(m))

	_, err = dataset.DecodeCSV(strings.NewReader("1,2\n3\n"), "points.csv")
	fmt.Println(err)
	// Output:
	// ⎡  1    2⎤
	// ⎣  3  4.5⎦
	// points.csv:2: expected 2 values, got 1
}

func ExampleDecodeSVMLight() {
	text := "+1 1:0.5 3:2 # a comment\n-1 2:-1\n"
	x, y, err := dataset.DecodeSVMLight(strings.NewReader(text), "train.svm", 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y)
	fmt.Println(mat.Formatted(x.Dense()))

	_, _, err = dataset.DecodeSVMLight(strings.NewReader("+1 3:1 2:1\n"), "train.svm", 0)
	fmt.Println(err)
	// Output:
	// [1 -1]
	// ⎡0.5    0    2⎤
	// ⎣  0   -1    0⎦
	// train.svm:1: index 2 after 3: indices must be strictly increasing
}
