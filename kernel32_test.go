package greedytl

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGemvT32 checks gemvT32 (and gemvT32x2) against the fused sum it defines, computed
// element by element in Go, bit for bit, over shapes that exercise the
// kernel's 16- and 4-column loops, the column tail and the row remainder,
// and that equal columns get equal results.
func TestGemvT32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []struct{ m, n int }{{1, 1}, {3, 5}, {4, 16}, {7, 37}, {20, 4995}, {9, 3}, {8, 30}, {12, 1000}, {2003, 23}} {
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
		// Two products in one pass are each the product alone.
		x2 := make([]float64, s.m)
		for i := range x2 {
			x2[i] = rng.NormFloat64()
		}
		want2 := make([]float64, s.n)
		gemvT32(want2, z, s.m, s.n, x2)
		got1, got2 := make([]float64, s.n), make([]float64, s.n)
		gemvT32x2(got1, got2, z, s.m, s.n, x, x2)
		for i := range got {
			if got1[i] != got[i] || got2[i] != want2[i] {
				t.Fatalf("m=%d n=%d: gemvT32x2 element %d = %v, %v, want %v, %v", s.m, s.n, i, got1[i], got2[i], got[i], want2[i])
			}
		}
		if s.n > 4 && got[s.n-1] != got[1] {
			t.Errorf("m=%d n=%d: equal columns give %v and %v", s.m, s.n, got[1], got[s.n-1])
		}
	}
}

// TestGemvT32Cols checks that the product of a window of columns,
// gemvT32Cols, and the products of a block's columns accumulated band by
// band and four rows at a time (axpy4Cols, as writeBlock computes them)
// are, bit for bit, the elements of gemvT32's, over windows that split the
// kernel's sixteen-column groups differently from the whole row's.
func TestGemvT32Cols(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 2))
	for trial := 0; trial < 300; trial++ {
		m, n := 1+rng.IntN(23), 1+rng.IntN(70)
		z := make([]float32, m*n)
		for i := range z {
			z[i] = float32(rng.NormFloat64())
		}
		x := make([]float64, m)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		want := make([]float64, n)
		gemvT32(want, z, m, n, x)
		c0 := rng.IntN(n)
		c1 := c0 + rng.IntN(n-c0+1)
		got := make([]float64, c1-c0)
		gemvT32Cols(got, z, m, n, c0, x)
		for k := range got {
			if math.Float64bits(got[k]) != math.Float64bits(want[c0+k]) {
				t.Fatalf("trial %d (m=%d, n=%d): gemvT32Cols column %d of [%d, %d) = %v, gemvT32 %v", trial, m, n, c0+k, c0, c1, got[k], want[c0+k])
			}
		}
		// Two bands, four rows at a time, interleaved.
		bands := make([]float64, n)
		for l := 0; l < m; l += 4 {
			axpy4Cols(bands[:c0], z, m, n, 0, l, x)
			axpy4Cols(bands[c0:], z, m, n, c0, l, x)
		}
		for k := range bands {
			if math.Float64bits(bands[k]) != math.Float64bits(want[k]) {
				t.Fatalf("trial %d (m=%d, n=%d): axpy4Cols by bands split at %d: column %d = %v, gemvT32 %v", trial, m, n, c0, k, bands[k], want[k])
			}
		}
	}
}

// TestAxpyRowsF32 checks axpyRowsF32 (the assembly kernel where there is
// one) against axpyRowsF32Go bit for bit, over every width modulo 16 and
// rows wider than the columns read (ld > n).
func TestAxpyRowsF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	for trial := 0; trial < 400; trial++ {
		n, rows := 1+rng.IntN(70), 4*rng.IntN(7)
		ld := n + rng.IntN(5)
		z := make([]float32, max(1, rows*ld))
		for i := range z {
			z[i] = float32(rng.NormFloat64())
		}
		x := make([]float64, max(1, rows))
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		y0 := make([]float64, n)
		for i := range y0 {
			y0[i] = rng.NormFloat64()
		}
		got, want := slices.Clone(y0), slices.Clone(y0)
		axpyRowsF32(n, rows, ld, &z[0], &x[0], &got[0])
		axpyRowsF32Go(n, rows, ld, &z[0], &x[0], &want[0])
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d (n=%d, rows=%d, ld=%d): element %d = %v, Go definition %v", trial, n, rows, ld, i, got[i], want[i])
			}
		}
	}
}

// TestGemvT32ColsShortX checks that gemvT32Cols refuses (panics on) an x
// shorter than the block's m rows rather than letting the kernel read past
// it: with m a multiple of four every row goes through the assembly, which
// checks no index.
func TestGemvT32ColsShortX(t *testing.T) {
	const m, n = 8, 16
	z := make([]float32, m*n)
	x := make([]float64, m-3)
	dst := make([]float64, n)
	defer func() {
		if recover() == nil {
			t.Fatalf("gemvT32Cols with len(x) = %d < m = %d did not panic", len(x), m)
		}
	}()
	gemvT32Cols(dst, z, m, n, 0, x)
}
