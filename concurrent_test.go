package greedytl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestConcurrentFitsAndPredicts: fits run from 8 goroutines at once — the
// exact engine (its block in float64 and in float32) and the sampled one,
// on problems of several shapes, so that the engines' pooled buffers
// (exactPool, samplePool) pass from one fit to another of another shape —
// give the models of the same fits run one at a time, and a model shared
// by 8 goroutines predicts for each what it predicts for one (Model's
// documentation: Predict only reads the model). Run with -race, the race
// detector checks that no fit writes to memory another fit or a model
// still uses.
func TestConcurrentFitsAndPredicts(t *testing.T) {
	const goroutines = 8
	type problem struct {
		X, H *mat.Dense
		y    []float64
		opts Options
	}
	rng := rand.New(rand.NewPCG(19, 19))
	var problems []problem
	for k, shape := range []struct{ m, d, n, sample int }{
		{12, 30, 6, 0}, {40, 8, 3, 0}, {25, 60, 10, 5}, {60, 20, 0, 0}, {18, 0, 12, 4}, {50, 90, 9, 0},
	} {
		X, H := randDense(rng, shape.m, max(shape.d, 1)), randDense(rng, shape.m, shape.n)
		y := make([]float64, shape.m)
		for i := range y {
			y[i] = -1
			if i%3 == 0 || X.At(i, 0) > 0.8 {
				y[i] = 1
			}
		}
		opts := DefaultOptions()
		opts.Sample, opts.Seed = shape.sample, uint64(k)
		problems = append(problems, problem{X, H, y, opts})
	}
	for _, mode := range []int{block32Off, block32On} {
		t.Run(fmt.Sprintf("block32Mode=%d", mode), func(t *testing.T) {
			defer func(old int) { block32Mode = old }(block32Mode)
			block32Mode = mode
			fit := func(p problem) (*Model, error) {
				var H mat.Matrix
				if p.H != nil {
					H = p.H
				}
				return Fit(context.Background(), p.X, H, p.y, p.opts)
			}
			want := make([]*Model, len(problems))
			for k, p := range problems {
				var err error
				if want[k], err = fit(p); err != nil {
					t.Fatalf("problem %d: %v", k, err)
				}
				if len(want[k].Selected) < 2 {
					t.Fatalf("problem %d: %d columns selected; the test needs a path", k, len(want[k].Selected))
				}
			}
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Go(func() {
					for r := range 2 * len(problems) {
						k := (g + r) % len(problems)
						got, err := fit(problems[k])
						if err != nil {
							t.Errorf("goroutine %d, problem %d: %v", g, k, err)
							return
						}
						if !reflect.DeepEqual(got, want[k]) {
							t.Errorf("goroutine %d, problem %d: a concurrent fit differs from a fit alone", g, k)
						}
					}
				})
			}
			wg.Wait()
			for k, p := range problems {
				var H mat.Matrix
				if p.H != nil {
					H = p.H
				}
				pred, err := want[k].Predict(p.X, H)
				if err != nil {
					t.Fatal(err)
				}
				for g := range goroutines {
					wg.Go(func() {
						got, err := want[k].Predict(p.X, H)
						if err != nil || !slices.Equal(got, pred) {
							t.Errorf("goroutine %d, problem %d: concurrent Predict: %v", g, k, err)
						}
					})
				}
				wg.Wait()
			}
		})
	}
}
