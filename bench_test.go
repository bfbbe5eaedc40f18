package greedytl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchProblem returns m×N Gaussian source scores and labels with m/2
// positives (seeded).
func benchProblem(m, N int) (*mat.Dense, []float64) {
	r := rand.New(rand.NewPCG(uint64(m), uint64(N)))
	data := make([]float64, m*N)
	for i := range data {
		data[i] = r.NormFloat64()
	}
	y := make([]float64, m)
	for i := range y {
		y[i] = 1
		if i >= m/2 {
			y[i] = -1
		}
	}
	return mat.NewDense(m, N, data), y
}

func benchFit(b *testing.B, m, N, steps, sample int) {
	H, y := benchProblem(m, N)
	o := DefaultOptions()
	o.Delta, o.MaxK, o.Sample, o.Seed = 0, steps, sample, 1
	ctx := context.Background()
	measureCPU(b, func() {
		mod, err := Fit(ctx, nil, H, y, o)
		if err != nil {
			b.Fatal(err)
		}
		if len(mod.Selected) != steps {
			b.Fatalf("selected %d columns, want %d", len(mod.Selected), steps)
		}
	})
}

// BenchmarkFitExact is the paper's largest timing cell (Imagenet DECAF7,
// 10+10 examples: m = 20, N = 4995) with 60 steps; the paper reports 13.4 s.
func BenchmarkFitExact(b *testing.B) { benchFit(b, 20, 4995, 60, 0) }

// BenchmarkFitSample59 is the same cell for GreedyTL-59 (paper: 0.198 s).
func BenchmarkFitSample59(b *testing.B) { benchFit(b, 20, 4995, 60, 59) }

// BenchmarkFitExactSizes runs exact GreedyTL for 60 steps at m = 20 over N.
func BenchmarkFitExactSizes(b *testing.B) {
	for _, N := range []int{1e3, 1e4, 1e5, 1e6} {
		b.Run(fmt.Sprintf("N=%d", N), func(b *testing.B) { benchFit(b, 20, N, 60, 0) })
	}
}

// BenchmarkFitSample59Sizes runs GreedyTL-59 for 60 steps at m = 20 over N.
func BenchmarkFitSample59Sizes(b *testing.B) {
	for _, N := range []int{1e3, 1e4, 1e5, 1e6} {
		b.Run(fmt.Sprintf("N=%d", N), func(b *testing.B) { benchFit(b, 20, N, 60, 59) })
	}
}
