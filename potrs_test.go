package greedytl

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// TestPotrs1 checks that potrs1 solves as lapack64.Potrs does, bit for
// bit, for Cholesky factors of orders 1 to 70 of random positive definite
// matrices (stride the order, and wider), some with exact zeros off the
// diagonal (which gonum's Dtrsm skips, as potrs1 must) and right-hand
// sides holding signed zeros, huge and tiny values.
func TestPotrs1(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	for n := 1; n <= 70; n++ {
		for _, pad := range []int{0, 3} {
			lda := n + pad
			A := make([]float64, n*lda)
			B := make([]float64, n*n)
			for i := range B {
				B[i] = rng.NormFloat64()
				if rng.IntN(5) == 0 {
					B[i] = 0
				}
			}
			for i := range n {
				for j := i; j < n; j++ {
					var s float64
					for l := range n {
						s += B[i*n+l] * B[j*n+l]
					}
					if i == j {
						s += 0.1
					}
					A[i*lda+j] = s
				}
			}
			tri, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: lda, Data: A})
			if !ok {
				t.Fatalf("n = %d: not positive definite", n)
			}
			if n > 2 {
				tri.Data[1] = 0 // a zero entry of R: skipped
			}
			want := make([]float64, n)
			for i := range want {
				want[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			}
			want[0] = math.Copysign(0, -1)
			got := append([]float64(nil), want...)
			lapack64.Potrs(tri, blas64.General{Rows: n, Cols: 1, Stride: 1, Data: want})
			potrs1(tri, got)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("n = %d, lda = %d: x[%d] = %v, Potrs %v", n, lda, i, got[i], want[i])
				}
			}
		}
	}
}

// TestGer checks that ger updates as gonum's Dger does, bit for bit, for
// orders 1 to 41 (the vector kernel's four columns a row and its tail),
// factors of every sign and magnitude, matrices holding signed zeros
// (which a zero product must leave as Dger leaves them), vectors holding
// zeros, huge and tiny values, x and y the same vector (the path's
// updates) or not, and α = 0, which changes nothing.
func TestGer(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 66))
	val := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return rng.NormFloat64() * 1e150
		case 3:
			return rng.NormFloat64() * 1e-160
		}
		return rng.NormFloat64()
	}
	for trial := 0; trial < 2000; trial++ {
		m := 1 + trial%41
		alpha := []float64{1, -1, 0, rng.NormFloat64(), -1 / (1 + rng.Float64()), 1e-300}[rng.IntN(6)]
		x, y := make([]float64, m), make([]float64, m)
		for i := range x {
			x[i], y[i] = val(), val()
		}
		if rng.IntN(2) == 0 {
			y = x
		}
		want := make([]float64, m*m)
		for i := range want {
			want[i] = val()
		}
		got := append([]float64(nil), want...)
		if alpha != 0 {
			gonum.Implementation{}.Dger(m, m, alpha, x, 1, y, 1, want, m)
		}
		ger(got, m, alpha, x, y)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d (m = %d, α = %v): entry %d = %v, Dger %v", trial, m, alpha, i, got[i], want[i])
			}
		}
	}
}

// TestPackG checks that packG packs Ĝ for the scorer as its definition
// packGGo does, bit for bit, for orders 1 to 41 (the vector kernel's four
// entries at a time and its tail), entries of every magnitude, signed
// zeros and infinities, and leaves the values after the packed triangle
// alone.
func TestPackG(t *testing.T) {
	rng := rand.New(rand.NewPCG(67, 68))
	for m := 1; m <= 41; m++ {
		G := make([]float64, m*m)
		for i := range G {
			G[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(600)-300))
			switch rng.IntN(10) {
			case 0:
				G[i] = math.Copysign(0, -1)
			case 1:
				G[i] = math.Inf(1 - 2*rng.IntN(2))
			}
		}
		n := m * (m + 1) / 2
		got, want := make([]float64, n+1), make([]float64, n+1)
		got[n], want[n] = 7, 7
		packG(G, m, got)
		packGGo(G, m, want)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("m = %d: packed entry %d = %v, packGGo %v", m, i, got[i], want[i])
			}
		}
	}
}
