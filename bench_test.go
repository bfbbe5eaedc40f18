package greedytl

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/greedytl/greedytl/modelfile"
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

// BenchmarkFitSample59Steps is BenchmarkFitSample59 stopped after 5, 15
// and 30 steps as well as 60: the fits that draw a small part of the
// columns, which the way the engine reads them must not slow down.
func BenchmarkFitSample59Steps(b *testing.B) {
	for _, k := range []int{5, 15, 30, 60} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) { benchFit(b, 20, 4995, k, 59) })
	}
}

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

// rowSizes are the shapes of BenchmarkFitRows: N ≈ 1,000 and 5,000
// candidates over m = 200 … 20,000 rows.
var rowSizes = []struct{ m, N int }{{200, 1000}, {2000, 1000}, {200, 5000}, {2000, 5000}, {20000, 5000}}

// BenchmarkFitRows runs exact GreedyTL and GreedyTL-59 for 60 steps over
// the number of rows m (the forms chosen automatically). The exact fit at
// m = 20,000, N = 5,000 reads an 800 MB matrix: it runs only with
// -benchtime 1x or more memory than that to spare.
func BenchmarkFitRows(b *testing.B) {
	for _, sample := range []int{0, 59} {
		for _, s := range rowSizes {
			b.Run(fmt.Sprintf("sample=%d/m=%d/N=%d", sample, s.m, s.N), func(b *testing.B) { benchFit(b, s.m, s.N, 60, sample) })
		}
	}
}

// BenchmarkFitRowsDual is BenchmarkFitRows up to m = 2,000 with every path
// in the dual form, the only form before the primal one was written: the
// "before" of the comparison.
func BenchmarkFitRowsDual(b *testing.B) {
	setForTest(b, &pathForm, formDual)
	for _, sample := range []int{0, 59} {
		for _, s := range rowSizes {
			if s.m > 2000 {
				continue
			}
			b.Run(fmt.Sprintf("sample=%d/m=%d/N=%d", sample, s.m, s.N), func(b *testing.B) { benchFit(b, s.m, s.N, 60, sample) })
		}
	}
}

// BenchmarkWriteManyFeatureNames writes a model with a million named
// features: what Write's header checks cost beside the writing.
func BenchmarkWriteManyFeatureNames(b *testing.B) {
	mod := jsonModel(b, 0)
	mod.NumFeatures = 1_000_000
	h := modelfile.NewHeader(mod.methodName(), nil, nil)
	h.FeatureNames = make([]string, mod.NumFeatures)
	for i := range h.FeatureNames {
		h.FeatureNames[i] = fmt.Sprintf("feature%d", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := mod.Write(io.Discard, h); err != nil {
			b.Fatal(err)
		}
	}
}
