package method

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/greedytl/greedytl/linear"
	"gonum.org/v1/gonum/mat"
)

// TestHeldOutAgainstFullProbabilities pins heldOutProbabilities' compact
// results against a brute-force computation on a small problem of three
// overlapping classes: for every C and every example, the fold's fit (the
// same warm-started chain of fits) gives the full matrix of probabilities
// of the held-out rows (mat.Mul, then a softmax), and right must be
// "argmax equals the label", logProb log p[y]. The problem has examples
// whose own class has a probability above 0.45 without being the argmax,
// so a "right" that also counts those fails.
func TestHeldOutAgainstFullProbabilities(t *testing.T) {
	const K, shots, r, k = 3, 30, 2, 3
	F, y := centredRows(rand.New(rand.NewPCG(3, 4)), K, shots, r, func(c, j int) float64 { return 0.7 * float64(c) * float64(j+1) })
	fold := multinomialFoldsOf(y, k, 1)
	cs := []float64{0.01, 1, 100}
	held, err := heldOutProbabilities(context.Background(), F, y, nil, fold, k, cs, multinomialCVTol, &solverRuns{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	near := 0 // examples with p[y] > 0.45 that are not the argmax
	for f := range k {
		in, out := linear.FoldRows(fold, f)
		var x []float64
		for g, c := range cs {
			if x, _, err = fitMultinomial(context.Background(), F, y.Y, nil, K, in, c, x, multinomialCVTol); err != nil {
				t.Fatal(err)
			}
			B := mat.NewDense(K, r, x[:K*r])
			var S mat.Dense
			S.Mul(rowsOf(F, out), B.T())
			for t2, i := range out {
				p := make([]float64, K)
				mx := math.Inf(-1)
				for c := range K {
					p[c] = S.At(t2, c) + x[K*r+c]
					mx = max(mx, p[c])
				}
				var s float64
				for c := range K {
					p[c] = math.Exp(p[c] - mx)
					s += p[c]
				}
				best := 0
				for c := range K {
					p[c] /= s
					if p[c] > p[best] {
						best = c
					}
				}
				yi := y.Y[i]
				if best != yi && p[yi] > 0.45 {
					near++
				}
				if got, want := held[g].right[i], best == yi; got != want {
					t.Errorf("C %g, example %d (fold %d): right %v, want %v (probabilities %v, label %d)", c, i, f, got, want, p, yi)
				}
				if got, want := held[g].logProb[i], math.Log(p[yi]); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
					t.Errorf("C %g, example %d (fold %d): logProb %v, want %v", c, i, f, got, want)
				}
			}
		}
	}
	if near == 0 {
		t.Fatal("no example has p[y] > 0.45 without being the argmax: the test cannot tell such a mutant")
	}
	t.Logf("%d (example, C) pairs with p[y] > 0.45 not the argmax", near)
}
