package source_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/source"
)

func ExampleSet_Scores() {
	// Two liblinear models: "wide" uses both features and a bias feature;
	// "narrow" uses only the first feature, and its labels [0 1] put the
	// decision value on the side of label 0, so its score is negated to
	// favour the greater label, 1.
	wide := &linear.Model{Solver: linear.L2RL2LossSVCDual, Labels: []int{1, -1}, NrFeature: 2, Bias: 1, W: []float64{1, -1, 0.5}, NrW: 1}
	narrow := &linear.Model{Solver: linear.L2RL2LossSVCDual, Labels: []int{0, 1}, NrFeature: 1, Bias: -1, W: []float64{2}, NrW: 1}
	set, err := source.NewSet([]string{"wide", "narrow"}, []*linear.Model{wide, narrow})
	if err != nil {
		fmt.Println(err)
		return
	}
	X := mat.NewDense(2, 3, []float64{
		1, 2, 100, // the third column is beyond both models' features: ignored
		3, 0, 100,
	})
	H, err := set.Scores(X)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(mat.Formatted(H))

	_, err = set.Scores(mat.NewDense(1, 1, []float64{1}))
	fmt.Println(err)
	// Output:
	// ⎡-0.5    -2⎤
	// ⎣ 3.5    -6⎦
	// source "wide": model has 2 features but the examples have 1
}
