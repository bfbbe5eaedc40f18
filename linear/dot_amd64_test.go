//go:build amd64 && !noasm && !gccgo && !safe

package linear

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestDotGemvOrder: Dot sums in the order of gonum's amd64 matrix–vector
// product (these are its assembly's build constraints) for rows in its
// kernels of 4 and 2 rows, with which Scores scored all the rows at once:
// the scores of those rows kept their bits.
func TestDotGemvOrder(t *testing.T) {
	for _, c := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 40, 41} {
		const r = 8 // two blocks of 4 rows: no row in the one-row kernel
		X, _ := ridgeRandom(uint64(c)+100, r, c, 0.5)
		w, _ := ridgeRandom(uint64(c)+200, 1, c, -0.25)
		raw, wv := X.RawMatrix(), w.RawRowView(0)
		y := make([]float64, r)
		gonum.Implementation{}.Dgemv(blas.NoTrans, r, c, 1, raw.Data, raw.Stride, wv, 1, 0, y, 1)
		for i := range r {
			if got := Dot(X.RawRowView(i), wv); math.Float64bits(got) != math.Float64bits(y[i]) {
				t.Errorf("%d columns, row %d: Dot %v, gonum's Dgemv %v", c, i, got, y[i])
			}
		}
		// Two rows: the kernel of 2 rows.
		gonum.Implementation{}.Dgemv(blas.NoTrans, 2, c, 1, raw.Data, raw.Stride, wv, 1, 0, y, 1)
		for i := range 2 {
			if got := Dot(X.RawRowView(i), wv); math.Float64bits(got) != math.Float64bits(y[i]) {
				t.Errorf("%d columns, row %d of 2: Dot %v, gonum's Dgemv %v", c, i, got, y[i])
			}
		}
	}
}
