package linear

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// spreadValue returns a random value of a random magnitude (2^-20 to
// 2^20), so that sums in different orders differ in their last bits.
func spreadValue(rng *rand.Rand) float64 {
	return math.Ldexp(rng.NormFloat64(), rng.IntN(41)-20)
}

// TestScoresMatchDotByRow pins every row's score, in blocks of 1–9 rows
// (Scores's blocks of 4, 2 and 1 rows, and their mixes) × 1–9, 40 and 41
// columns, to Dot of that row and the weights bit for bit, on a view into
// a wider matrix (a stride beyond the columns) as on a matrix of its own.
func TestScoresMatchDotByRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	for _, c := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 40, 41} {
		for r := 1; r <= 9; r++ {
			w := make([]float64, c)
			for j := range w {
				w[j] = spreadValue(rng)
			}
			m := &Model{Labels: []int{1, -1}, NrFeature: c, Bias: -1, NrW: 1, W: w}
			wide := mat.NewDense(r, c+3, nil)
			for i := range r {
				for j := range c + 3 {
					wide.Set(i, j, spreadValue(rng))
				}
			}
			view := wide.Slice(0, r, 0, c)
			own := mat.DenseCopyOf(view)
			for name, X := range map[string]mat.Matrix{"view": view, "own": own} {
				got := m.Scores(X)
				for i := range r {
					want := Dot(own.RawRowView(i), w)
					if math.Float64bits(got[i]) != math.Float64bits(want) {
						t.Errorf("%s, %d×%d, row %d: score %v, Dot %v", name, r, c, i, got[i], want)
					}
				}
			}
		}
	}
}

// BenchmarkModelScores times Scores on dense rows of 801 columns (an odd
// number of rows and of columns: every block of rows and the odd last
// column): 500 rows (3.2 MB, beyond the caches: memory-bound) and 41 rows
// (263 kB, in L2: the arithmetic's cost).
func BenchmarkModelScores(b *testing.B) {
	for _, r := range []int{500, 41} {
		b.Run(fmt.Sprintf("%dx801", r), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(29, 3))
			const c = 801
			w := make([]float64, c)
			for j := range w {
				w[j] = rng.NormFloat64()
			}
			m := &Model{Labels: []int{1, -1}, NrFeature: c, Bias: 1, NrW: 1, W: append(w, 0.5)}
			data := make([]float64, r*c)
			for i := range data {
				data[i] = rng.NormFloat64()
			}
			X := mat.NewDense(r, c, data)
			b.ResetTimer()
			for range b.N {
				m.Scores(X)
			}
		})
	}
}
