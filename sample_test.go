package greedytl

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDrawIsIntN checks that the sampled search's draw gives what
// rand.Rand.IntN gives on the same stream, draw after draw, for ranges
// that are powers of two (a mask), small, odd, and so large that the
// multiply-and-reject step rejects often (n just above 2⁶³), over several
// seeds: the same seed draws the same candidates as before draw existed.
// The large ranges are written from math.MaxInt (2⁶² + 1, 2⁶³ − 1 and
// 3·2⁶¹ where int has 64 bits) so that the test builds where it has 32.
func TestDrawIsIntN(t *testing.T) {
	ns := []int{1, 2, 3, 7, 64, 1000, 4995, 1 << 20, 1<<31 - 1, math.MaxInt/2 + 2, math.MaxInt, 3 * (math.MaxInt/4 + 1)}
	for _, seed := range []uint64{0, 1, 59, 1 << 40} {
		for _, n := range ns {
			e := &sampleEngine{seed: seed}
			e.pcg = rand.NewPCG(seed, seed)
			e.rng = rand.New(e.pcg)
			want := rand.New(rand.NewPCG(seed, seed))
			for i := 0; i < 5000; i++ {
				if got, w := e.draw(n), want.IntN(n); got != w {
					t.Fatalf("seed %d, n = %d: draw %d = %d, IntN %d", seed, n, i, got, w)
				}
			}
		}
	}
}
