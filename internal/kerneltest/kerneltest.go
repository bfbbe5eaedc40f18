// Package kerneltest holds what the tests of the numerical kernels (lssvm,
// hinge) and of the methods built on them share: reference solvers — the
// normal equations and the bordered LS-SVM system, solved directly (O(m³)
// per left-out example) — and synthetic transfer samples.
package kerneltest

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// LSSVMDirect solves the LS-SVM system M[α; b] = [r; 0] of the examples
// rows (all when nil) directly, M = [[K + diag(1/(Cζ)), 1], [1ᵀ, 0]].
func LSSVMDirect(t testing.TB, gram *mat.SymDense, zeta []float64, c float64, r []float64, rows []int) (alpha []float64, b float64) {
	t.Helper()
	if rows == nil {
		rows = allRows(len(r))
	}
	k := len(rows)
	M := mat.NewDense(k+1, k+1, nil)
	rhs := mat.NewVecDense(k+1, nil)
	for a, i := range rows {
		for bb, j := range rows {
			M.Set(a, bb, gram.At(i, j))
		}
		M.Set(a, a, M.At(a, a)+1/(c*zeta[i]))
		M.Set(a, k, 1)
		M.Set(k, a, 1)
		rhs.SetVec(a, r[i])
	}
	return solveSplit(t, M, rhs)
}

// WeightedRidgeDirect solves min Σ_i ω_i (t_i − wᵀz_i − b)² + λ||w||² over
// the rows in rows (all when nil) from its normal equations.
func WeightedRidgeDirect(t testing.TB, z *mat.Dense, tgt, omega []float64, lambda float64, rows []int) (w []float64, b float64) {
	t.Helper()
	N, d := z.Dims()
	if rows == nil {
		rows = allRows(N)
	}
	A := mat.NewDense(d+1, d+1, nil)
	rhs := mat.NewVecDense(d+1, nil)
	for _, i := range rows {
		zi := append(append([]float64(nil), z.RawRowView(i)...), 1)
		for a := range d + 1 {
			for c := range d + 1 {
				A.Set(a, c, A.At(a, c)+omega[i]*zi[a]*zi[c])
			}
			rhs.SetVec(a, rhs.AtVec(a)+omega[i]*zi[a]*tgt[i])
		}
	}
	for a := range d {
		A.Set(a, a, A.At(a, a)+lambda)
	}
	return solveSplit(t, A, rhs)
}

// solveSplit solves A x = rhs and returns x without its last entry, and
// that entry (the intercept).
func solveSplit(t testing.TB, A mat.Matrix, rhs *mat.VecDense) ([]float64, float64) {
	t.Helper()
	var sol mat.VecDense
	if err := sol.SolveVec(A, rhs); err != nil {
		t.Fatal(err)
	}
	k := sol.Len() - 1
	x := make([]float64, k)
	for a := range x {
		x[a] = sol.AtVec(a)
	}
	return x, sol.AtVec(k)
}

// RandomProblem draws a weighted-ridge problem of m labelled rows (pos of
// them positive; y their ±1 labels) and u more rows: the rows of z (d
// columns, column j shifted by offset(j)) are standard normal, and the
// targets are normal plus half the first column.
func RandomProblem(rng *rand.Rand, m, pos, u, d int, offset func(j int) float64) (z *mat.Dense, tgt, y []float64) {
	N := m + u
	z = mat.NewDense(N, d, nil)
	tgt = make([]float64, N)
	for i := range N {
		for j := range d {
			z.Set(i, j, rng.NormFloat64()+offset(j))
		}
		tgt[i] = rng.NormFloat64() + 0.5*z.At(i, 0)
	}
	y = make([]float64, m)
	for i := range y {
		y[i] = -1
		if i < pos {
			y[i] = 1
		}
	}
	return z, tgt, y
}

// allRows returns 0, 1, …, n−1.
func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// WithoutRow returns the rows 0, …, n−1 but i.
func WithoutRow(n, i int) []int {
	rows := make([]int, 0, n-1)
	for j := range n {
		if j != i {
			rows = append(rows, j)
		}
	}
	return rows
}

// RefitPrediction returns the prediction of row i of z by the weighted
// ridge regression refitted without it (WeightedRidgeDirect): the exact
// leave-one-out prediction.
func RefitPrediction(t testing.TB, z *mat.Dense, tgt, omega []float64, lambda float64, i int) float64 {
	t.Helper()
	N, _ := z.Dims()
	w, b := WeightedRidgeDirect(t, z, tgt, omega, lambda, WithoutRow(N, i))
	f := b
	for j, v := range z.RawRowView(i) {
		f += w[j] * v
	}
	return f
}

// CheckLinear reports, through t, the weights and intercept that differ
// from the wanted ones by more than rel relative to max(1, |want|).
func CheckLinear(t testing.TB, w []float64, b float64, wantW []float64, wantB, rel float64) {
	t.Helper()
	near := func(a, want float64) bool { return math.Abs(a-want) <= rel*math.Max(1, math.Abs(want)) }
	for j := range w {
		if !near(w[j], wantW[j]) {
			t.Errorf("w[%d] = %.12g, direct %.12g", j, w[j], wantW[j])
		}
	}
	if !near(b, wantB) {
		t.Errorf("b = %.12g, direct %.12g", b, wantB)
	}
}

// Synthetic draws a synthetic transfer sample of m examples (pos of them
// positive, first), d features and n sources: feature 0 and source 0 carry
// the label (y·signal plus unit noise), the other columns are standard
// normal noise. X or H is nil when d or n is 0.
func Synthetic(seed uint64, m, pos, d, n int, signal float64) (X, H *mat.Dense, y []float64) {
	rng := rand.New(rand.NewPCG(seed, seed))
	y = make([]float64, m)
	for i := range y {
		y[i] = -1
		if i < pos {
			y[i] = 1
		}
	}
	// columns returns c standard normal columns, the first carrying the
	// label (nil when c = 0).
	columns := func(c int) *mat.Dense {
		if c == 0 {
			return nil
		}
		A := mat.NewDense(m, c, nil)
		for i := range m {
			for j := range c {
				A.Set(i, j, rng.NormFloat64())
			}
			A.Set(i, 0, A.At(i, 0)+signal*y[i])
		}
		return A
	}
	X = columns(d)
	return X, columns(n), y
}
