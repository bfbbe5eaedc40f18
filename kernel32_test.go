package greedytl

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGemvT32 checks gemvT32 against the fused sum it defines, computed
// element by element in Go, bit for bit, over shapes that exercise the
// kernel's 16- and 4-column loops, the column tail and the row remainder,
// and that equal columns get equal results.
func TestGemvT32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []struct{ m, n int }{{1, 1}, {3, 5}, {4, 16}, {7, 37}, {20, 4995}, {9, 3}} {
		z := make([]float32, s.m*s.n)
		for i := range z {
			z[i] = float32(rng.NormFloat64())
		}
		if s.n > 4 {
			for l := 0; l < s.m; l++ {
				z[l*s.n+s.n-1] = z[l*s.n+1] // a tail column equal to a kernel one
			}
		}
		x := make([]float64, s.m)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		got := make([]float64, s.n)
		gemvT32(got, z, s.m, s.n, x)
		for i := range got {
			var want float64
			for l := 0; l < s.m; l++ {
				want = math.FMA(x[l], float64(z[l*s.n+i]), want)
			}
			if got[i] != want {
				t.Fatalf("m=%d n=%d: element %d = %v, want %v", s.m, s.n, i, got[i], want)
			}
		}
		if s.n > 4 && got[s.n-1] != got[1] {
			t.Errorf("m=%d n=%d: equal columns give %v and %v", s.m, s.n, got[1], got[s.n-1])
		}
	}
}
