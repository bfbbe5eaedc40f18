package greedytl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// tieCase builds a sample whose candidates include columns equal once
// standardised: a one-hot pair (x and 1 − x), a measurement in two units
// (×10), a shifted and negated copy (3 − 2.5x) and a source three times
// another, among random columns. pairs lists each copy with its original.
func tieCase(seed uint64) (X, H *mat.Dense, y []float64, pairs [][2]Column) {
	r := rand.New(rand.NewPCG(seed, 11))
	m, d, n := 10+int(seed%9), 7, 3
	X, H = mat.NewDense(m, d, nil), mat.NewDense(m, n, nil)
	y = make([]float64, m)
	for i := range m {
		y[i] = float64(1 - 2*(i%2))
		ind := 0.0
		if r.Float64() < 0.5+0.3*y[i] {
			ind = 1
		}
		X.Set(i, 0, ind)
		X.Set(i, 1, 1-ind)
		for j := 2; j < 5; j++ {
			X.Set(i, j, r.NormFloat64()+0.7*y[i]*float64(j%2))
		}
		X.Set(i, 5, 10*X.At(i, 2))
		X.Set(i, 6, 3-2.5*X.At(i, 3))
		H.Set(i, 0, r.NormFloat64()+0.5*y[i])
		H.Set(i, 1, 3*H.At(i, 0))
		H.Set(i, 2, r.NormFloat64())
	}
	f, s := func(j int) Column { return Column{Feature, j} }, func(j int) Column { return Column{Source, j} }
	pairs = [][2]Column{{f(0), f(1)}, {f(2), f(5)}, {f(3), f(6)}, {s(0), s(1)}}
	return X, H, y, pairs
}

// TestTiesOfStandardisedColumns checks the tie rule for columns equal (or
// opposite) once standardised: Fit, Gram.Fit and the sampled search with
// r ≥ N select the same columns, and a copy is never selected before its
// lower-indexed original; with the block in float64 and in float32.
func TestTiesOfStandardisedColumns(t *testing.T) {
	ctx := context.Background()
	for _, mode := range []int{block32Off, block32On} {
		t.Run(fmt.Sprintf("block32Mode=%d", mode), func(t *testing.T) {
			setForTest(t, &block32Mode, mode)
			for seed := range uint64(120) {
				X, H, y, pairs := tieCase(seed)
				for _, lambda := range []float64{1e-3, 1} {
					o := DefaultOptions()
					o.Lambda = lambda
					a, err := Fit(ctx, X, H, y, o)
					if err != nil {
						t.Fatal(err)
					}
					g, err := NewGram(ctx, X, H, y)
					if err != nil {
						t.Fatal(err)
					}
					b, err := g.Fit(ctx, o)
					if err != nil {
						t.Fatal(err)
					}
					o.Sample, o.Seed = 10+int(seed%3), seed
					c, err := Fit(ctx, X, H, y, o)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(a.Selected, b.Selected) || !slices.Equal(a.Selected, c.Selected) {
						t.Fatalf("seed %d λ %g: Fit %v, Gram.Fit %v, sampled %v", seed, lambda, a.Selected, b.Selected, c.Selected)
					}
					for _, p := range pairs {
						i, j := slices.Index(a.Selected, p[0]), slices.Index(a.Selected, p[1])
						if j >= 0 && (i < 0 || j < i) {
							t.Fatalf("seed %d λ %g: %v selected before %v: %v", seed, lambda, p[1], p[0], a.Selected)
						}
					}
				}
			}
		})
	}
}
