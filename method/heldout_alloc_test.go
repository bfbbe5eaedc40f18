package method

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// heldOutProblem returns K classes of shots rows each in r dimensions, the
// rows of class c drawn around a centre of their own, and their folds.
func heldOutProblem(K, shots, r, k int) (*mat.Dense, ClassLabels, []int) {
	rng := rand.New(rand.NewPCG(1, 2))
	centre := make([]float64, K*r)
	for j := range centre {
		centre[j] = 3 * rng.NormFloat64()
	}
	F, y := centredRows(rng, K, shots, r, func(c, j int) float64 { return centre[c*r+j] })
	return F, y, multinomialFoldsOf(y, k, 1)
}

// centredRows returns K classes ("c0", "c1", …) of shots rows each in r
// dimensions, row i of class i mod K, its value j centre(c, j) plus a
// standard normal draw of rng.
func centredRows(rng *rand.Rand, K, shots, r int, centre func(c, j int) float64) (*mat.Dense, ClassLabels) {
	m := K * shots
	F := mat.NewDense(m, r, nil)
	y := ClassLabels{Names: make([]string, K), Y: make([]int, m)}
	for c := range K {
		y.Names[c] = fmt.Sprint("c", c)
	}
	for i := range m {
		c := i % K
		y.Y[i] = c
		for j := range r {
			F.Set(i, j, centre(c, j)+rng.NormFloat64())
		}
	}
	return F, y
}

// TestHeldOutProbabilitiesAllocs checks that scoring the held-out rows
// allocates nothing a row and class: with K = 200 classes of 3 examples
// (m·K = 120,000 products a candidate C) the allocations are those of the
// fold fits alone. It scored each product by mat.Dot of two RowViews, two
// allocations a product, a sixth of the CPU of fit --method greedytl-nway on
// 1,000 classes of 3 examples.
func TestHeldOutProbabilitiesAllocs(t *testing.T) {
	const K, shots, r, k = 200, 3, 8, 3
	F, y, fold := heldOutProblem(K, shots, r, k)
	ctx := context.Background()
	cs := []float64{1}
	allocs := testing.AllocsPerRun(1, func() {
		if _, err := heldOutProbabilities(ctx, F, y, nil, fold, k, cs, multinomialCVTol, &solverRuns{}, nil); err != nil {
			t.Fatal(err)
		}
	})
	if m := K * shots; allocs >= float64(m*K)/2 {
		t.Errorf("heldOutProbabilities made %.0f allocations for %d rows of %d classes: it allocates per product", allocs, m, K)
	}
}

// BenchmarkHeldOutProbabilities measures the cross-validation of
// greedytl-nway's C on 200 classes of 3 examples, one candidate C.
func BenchmarkHeldOutProbabilities(b *testing.B) {
	const K, shots, r, k = 200, 3, 8, 3
	F, y, fold := heldOutProblem(K, shots, r, k)
	ctx := context.Background()
	cs := []float64{1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := heldOutProbabilities(ctx, F, y, nil, fold, k, cs, multinomialCVTol, &solverRuns{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
