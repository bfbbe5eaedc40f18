package greedytl

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestScore4Kernels checks the vector scoring kernels (t4Vec, score4Vec,
// score4PrimalVec) against their Go definitions (t4Go, score4Go,
// score4PrimalGo) and the one-column scorer (score1, t1) bit for bit, in
// the dual and the primal form (with no row of U and with several), over numbers of examples that exercise the
// four-row blocks and their tail, on columns of mixed magnitudes and a
// symmetric Ĝ with entries of both signs; equal columns score equally.
func TestScore4Kernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 2000; trial++ {
		m := 1 + rng.IntN(45)
		G := make([]float64, m*m)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				v := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
				G[i*m+j], G[j*m+i] = v, v
			}
		}
		a := make([]float64, m)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		var z [4][]float64
		for q := range z {
			z[q] = make([]float64, m+rng.IntN(3))
			scale := math.Pow(10, float64(rng.IntN(7)-3))
			for i := range z[q] {
				z[q][i] = rng.NormFloat64() * scale
			}
		}
		if rng.IntN(4) == 0 {
			copy(z[3], z[1]) // equal columns in different lanes
		}
		sc := scorer{m: m, a: a}
		p := &path{m: m, G: G, a: a}
		var want [8]float64
		if trial%2 == 1 { // the primal form: Ĝ = I/λ − UᵀU
			k1 := rng.IntN(8)
			p.primal, p.lambda, p.U = true, math.Pow(10, float64(rng.IntN(7)-3)), make([]float64, k1*m)
			for i := range p.U {
				p.U[i] = rng.NormFloat64() * 0.1
			}
			sc.load(p)
			var up *float64
			if k1 > 0 {
				up = &p.U[0]
			}
			var c4 [4]float64
			score4PrimalGo(&z[0][0], &z[1][0], &z[2][0], &z[3][0], up, k1, m, 1/p.lambda, &c4)
			var t4 [4]float64
			t4Go(&z[0][0], &z[1][0], &z[2][0], &z[3][0], &a[0], m, &t4)
			copy(want[:4], c4[:])
			copy(want[4:], t4[:])
		} else {
			sc.load(p)
			score4Go(&z[0][0], &z[1][0], &z[2][0], &z[3][0], &sc.gp[0], &a[0], m, &want)
		}
		c, tt := sc.score4(z[0], z[1], z[2], z[3])
		t4 := sc.t4(z[0], z[1], z[2], z[3])
		var wantT [4]float64
		t4Go(&z[0][0], &z[1][0], &z[2][0], &z[3][0], &a[0], m, &wantT)
		for q := 0; q < 4; q++ {
			c1, t1 := sc.score1(z[q])
			for _, x := range []struct {
				name      string
				got, want float64
			}{
				{"score4 c", c[q], want[q]}, {"score4 t", tt[q], want[4+q]}, {"t4", t4[q], wantT[q]},
				{"score1 c", c1, want[q]}, {"score1 t", t1, want[4+q]}, {"t1", sc.t1(z[q]), wantT[q]},
			} {
				if math.Float64bits(x.got) != math.Float64bits(x.want) {
					t.Fatalf("trial %d (m=%d): %s of column %d = %v, the Go definition %v", trial, m, x.name, q, x.got, x.want)
				}
			}
		}
	}
}

// TestAbsDevSum checks absDevSum (the vector kernel where there is one)
// and absDevSumGo against the exact sum of the rounded terms |x_l − β|
// (math/big): a sum of n non-negative terms in any order is within
// (n − 1)·u of it, relatively, the bound pruneState.rho relies on.
func TestAbsDevSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := 0; trial < 3000; trial++ {
		n := rng.IntN(42)
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
		}
		beta := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2))
		exact := new(big.Float).SetPrec(2000)
		for _, v := range x {
			exact.Add(exact, new(big.Float).SetFloat64(math.Abs(v-beta)))
		}
		want, _ := exact.Float64()
		bound := float64(max(n-1, 0)) * 0x1p-53 * want * (1 + 1e-12)
		for name, got := range map[string]float64{"absDevSum": absDevSum(x, beta), "absDevSumGo": absDevSumGo(x, beta)} {
			if math.Abs(got-want) > bound {
				t.Fatalf("trial %d (n=%d): %s = %v, exact %v: error %.3g beyond (n−1)·u·sum = %.3g", trial, n, name, got, want, math.Abs(got-want), bound)
			}
		}
	}
}
