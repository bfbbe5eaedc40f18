package method_test

import (
	"context"
	"fmt"

	"github.com/greedytl/greedytl/method"
	"gonum.org/v1/gonum/mat"
)

// ExampleNewMulti fits the prototype classifier to three classes of two
// examples each (one feature, one source score) and predicts new rows.
func ExampleNewMulti() {
	X := mat.NewDense(6, 1, []float64{0, 0.2, 5, 5.2, 10, 10.2})
	H := mat.NewDense(6, 1, []float64{1, 1.1, 2, 2.1, 3, 3.1})
	y := method.ClassLabels{Names: []string{"small", "medium", "large"}, Y: []int{0, 0, 1, 1, 2, 2}}
	m, err := method.NewMulti("nearest-mean")
	if err != nil {
		panic(err)
	}
	model, err := m.FitMulti(context.Background(), method.Data{X: X, H: H}, y, method.Extra{})
	if err != nil {
		panic(err)
	}
	pred, err := model.Predict(method.Data{X: mat.NewDense(2, 1, []float64{9, 1}), H: mat.NewDense(2, 1, []float64{3, 1})})
	if err != nil {
		panic(err)
	}
	for _, k := range pred {
		fmt.Println(model.Classes()[k])
	}
	// Output:
	// large
	// small
}

// ExampleNew fits greedytl-auto, the method greedytl fit uses by default for
// two classes, to six labelled examples (two features, one source score)
// and scores two new rows: a positive score is the positive class (+1).
func ExampleNew() {
	X := mat.NewDense(6, 2, []float64{1, 0.2, 0.9, 0.1, 1.1, 0.3, 0, 0.2, 0.1, 0.3, -0.1, 0.1})
	H := mat.NewDense(6, 1, []float64{2, 1.5, 1.8, -1, -1.2, -0.8})
	y := []float64{1, 1, 1, -1, -1, -1}
	m, err := method.New("greedytl-auto")
	if err != nil {
		panic(err)
	}
	model, err := m.Fit(context.Background(), method.Data{X: X, H: H, Y: y}, method.Extra{})
	if err != nil {
		panic(err)
	}
	scores, err := model.Predict(method.Data{X: mat.NewDense(2, 2, []float64{1, 0.2, 0, 0.2}), H: mat.NewDense(2, 1, []float64{1.6, -1})})
	if err != nil {
		panic(err)
	}
	for _, s := range scores {
		fmt.Println(s > 0)
	}
	// Output:
	// true
	// false
}
