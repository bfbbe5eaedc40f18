//go:build amd64 && !noasm && !gccgo && !safe

package method

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestCodeScoreIsGonumsOrder: codeScore, a dictionary model's score of a
// row, is the bits of gonum's amd64 matrix–vector product (which scored
// all the rows at once) for every row but one: for an odd number of
// codes, the last of an odd number of rows, which the product's one-row
// kernel sums in another order. So scoring row by row moved no score of a
// whole input of an even number of rows, or of an even number of codes.
func TestCodeScoreIsGonumsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 27))
	moved := 0
	for n := 1; n <= 70; n++ {
		for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9} {
			a := make([]float64, m*n)
			for i := range a {
				a[i] = rng.NormFloat64() * math.Exp(4*rng.NormFloat64())
			}
			w := make([]float64, n)
			for i := range w {
				w[i] = rng.NormFloat64()
			}
			y := make([]float64, m)
			gonum.Implementation{}.Dgemv(blas.NoTrans, m, n, 1, a, n, w, 1, 0, y, 1)
			for i := range m {
				got := codeScore(a[i*n:(i+1)*n], w)
				same := math.Float64bits(got) == math.Float64bits(y[i])
				lastOdd := n%2 == 1 && m%2 == 1 && i == m-1
				if !same && !lastOdd {
					t.Errorf("%d rows of %d codes: row %d: codeScore %v, gonum's product %v", m, n, i, got, y[i])
				}
				if !same {
					moved++
				}
			}
		}
	}
	if moved == 0 {
		t.Error("no last row of an odd number of rows and codes moved: the one-row kernel's order is not told apart")
	}
}
