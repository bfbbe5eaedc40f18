package greedytl_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl"
)

// Eight target examples with two features each, and the scores of three
// source hypotheses on them: source 1 agrees with the labels, the others
// are noise.
var (
	trainX = mat.NewDense(8, 2, []float64{
		0.2, 1.1,
		-0.4, 0.3,
		1.3, -0.7,
		0.5, 0.9,
		-1.2, 0.1,
		0.8, -1.5,
		-0.3, 0.6,
		0.1, -0.2,
	})
	trainH = mat.NewDense(8, 3, []float64{
		0.3, 2.1, -0.5,
		-1.1, 1.7, 0.4,
		0.8, 1.2, 1.0,
		0.2, 1.9, -0.8,
		0.5, -1.4, 0.3,
		-0.7, -0.9, -1.1,
		1.4, -1.8, 0.6,
		-0.2, -1.1, 0.2,
	})
	trainY = []float64{1, 1, 1, 1, -1, -1, -1, -1}
)

func ExampleFit() {
	model, err := greedytl.Fit(context.Background(), trainX, trainH, trainY, greedytl.DefaultOptions())
	if err != nil {
		log.Fatal(err)
	}
	for j, c := range model.Selected {
		s := model.Path[j]
		fmt.Printf("%-9v weight %+.3f  e(S)/m %.3f  LOO %.3f\n", c, model.Weights[j], s.RegError, s.LOOError)
	}
	// Output:
	// source 1  weight +0.781  e(S)/m 0.153  LOO 0.058
	// source 2  weight +0.169  e(S)/m 0.128  LOO 0.025
	// feature 0 weight +0.156  e(S)/m 0.123  LOO 0.046
	// feature 1 weight +0.148  e(S)/m 0.112  LOO 0.083
	// source 0  weight -0.032  e(S)/m 0.111  LOO 0.229
}

func ExampleModel_Predict() {
	opts := greedytl.DefaultOptions()
	opts.StopAtMinLOO = true // keep the prefix of the path with the lowest LOO error
	model, err := greedytl.Fit(context.Background(), trainX, trainH, trainY, opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("selected:", model.Selected)
	// Two new examples. Only the selected columns are read, so the
	// unselected sources need not be evaluated (NaN here).
	testX := mat.NewDense(2, 2, []float64{0.3, 0.2, -0.5, 0.4})
	testH := mat.NewDense(2, 3, []float64{0, 1.5, 0, 0, -0.6, 0})
	testH.Set(0, 0, math.NaN())
	testH.Set(1, 0, math.NaN())
	f, err := model.Predict(testX, testH)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("scores: %.3f\n", f)
	// Output:
	// selected: [source 1 source 2]
	// scores: [0.737 -0.470]
}

// GreedyTL-59 scores 59 random candidates per step instead of all of them;
// here 20 examples and 100000 sources, of which every thousandth is
// informative. The same Seed gives the same model.
func ExampleFit_sampled() {
	rng := rand.New(rand.NewPCG(1, 1))
	m, n := 20, 100000
	y := make([]float64, m)
	H := mat.NewDense(m, n, nil)
	for i := range m {
		y[i] = float64(2*(i%2) - 1)
		for j := range n {
			v := rng.NormFloat64()
			if j%1000 == 0 {
				v += 2 * y[i]
			}
			H.Set(i, j, v)
		}
	}
	opts := greedytl.DefaultOptions()
	opts.Sample, opts.Seed, opts.MaxK = 59, 7, 5
	model, err := greedytl.Fit(context.Background(), nil, H, y, opts)
	if err != nil {
		log.Fatal(err)
	}
	for j, c := range model.Selected {
		fmt.Printf("%-12v informative %-5v LOO %.3f\n", c, c.Index%1000 == 0, model.Path[j].LOOError)
	}
	// Output:
	// source 76424 informative false LOO 0.671
	// source 32000 informative true  LOO 0.195
	// source 96121 informative false LOO 0.162
	// source 13179 informative false LOO 0.108
	// source 62622 informative false LOO 0.099
}

// A Gram holds a sample's cross-products: fits on the sample and on
// subsets of its rows (here without example 7, a negative) select what Fit
// selects on the same rows, without reading the rows at every step.
func ExampleGram() {
	ctx := context.Background()
	g, err := greedytl.NewGram(ctx, trainX, trainH, trainY)
	if err != nil {
		log.Fatal(err)
	}
	sub, err := g.Subset(ctx, []int{0, 1, 2, 3, 4, 5, 6})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range []*greedytl.Gram{g, sub} {
		model, err := s.Fit(ctx, greedytl.DefaultOptions())
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v %.3f\n", model.Selected, model.Weights)
	}
	// Output:
	// [source 1 source 2 feature 0 feature 1 source 0] [0.781 0.169 0.156 0.148 -0.032]
	// [source 1 source 2 feature 0 feature 1 source 0] [0.692 0.215 0.221 0.210 -0.111]
}
