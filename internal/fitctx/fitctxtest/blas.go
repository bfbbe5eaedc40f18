package fitctxtest

import (
	"context"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// BLASCountdown is the program's BLAS (blas64's implementation, gonum's or
// OpenBLAS) with a countdown: it cancels a context at its at-th matrix
// operation (a call of Dgemm, Dsymm, Dsyrk, Dsyr2k, Dtrmm, Dtrsm, Dgemv,
// Dsymv, Dtrmv, Dtrsv, Dger, Dsyr or Dsyr2), before that operation runs.
// It stops a fit during each of its matrix products and solves in turn —
// the long stretches of work a fit cannot check its context inside — so a
// test can check that the fit notices the cancel after the operation, however
// late in the fit it comes. Calls counts the operations.
type BLASCountdown struct {
	blas.Float64
	calls  atomic.Int64
	at     int64
	cancel context.CancelFunc
}

// UseBLASCountdown installs a BLASCountdown over the program's BLAS that
// calls cancel at its at-th matrix operation (never when at ≤ 0) and
// returns it with a function that restores the BLAS it replaced. The BLAS
// serves the whole program: a test that installs it must not run in
// parallel with others that use BLAS.
func UseBLASCountdown(at int64, cancel context.CancelFunc) (b *BLASCountdown, restore func()) {
	prev := blas64.Implementation()
	b = &BLASCountdown{Float64: prev, at: at, cancel: cancel}
	blas64.Use(b)
	return b, func() { blas64.Use(prev) }
}

// Calls returns the number of matrix operations so far.
func (b *BLASCountdown) Calls() int64 { return b.calls.Load() }

func (b *BLASCountdown) tick() {
	if b.calls.Add(1) == b.at {
		b.cancel()
	}
}

// Dgemm counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, bb []float64, ldb int, beta float64, c []float64, ldc int) {
	b.tick()
	b.Float64.Dgemm(tA, tB, m, n, k, alpha, a, lda, bb, ldb, beta, c, ldc)
}

// Dsymm counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, bb []float64, ldb int, beta float64, c []float64, ldc int) {
	b.tick()
	b.Float64.Dsymm(s, ul, m, n, alpha, a, lda, bb, ldb, beta, c, ldc)
}

// Dsyrk counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	b.tick()
	b.Float64.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

// Dsyr2k counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, bb []float64, ldb int, beta float64, c []float64, ldc int) {
	b.tick()
	b.Float64.Dsyr2k(ul, t, n, k, alpha, a, lda, bb, ldb, beta, c, ldc)
}

// Dtrmm counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, bb []float64, ldb int) {
	b.tick()
	b.Float64.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, bb, ldb)
}

// Dtrsm counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, bb []float64, ldb int) {
	b.tick()
	b.Float64.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, bb, ldb)
}

// Dgemv counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	b.tick()
	b.Float64.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Dsymv counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	b.tick()
	b.Float64.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
}

// Dtrmv counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dtrmv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	b.tick()
	b.Float64.Dtrmv(ul, tA, d, n, a, lda, x, incX)
}

// Dtrsv counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dtrsv(ul blas.Uplo, tA blas.Transpose, d blas.Diag, n int, a []float64, lda int, x []float64, incX int) {
	b.tick()
	b.Float64.Dtrsv(ul, tA, d, n, a, lda, x, incX)
}

// Dger counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	b.tick()
	b.Float64.Dger(m, n, alpha, x, incX, y, incY, a, lda)
}

// Dsyr counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dsyr(ul blas.Uplo, n int, alpha float64, x []float64, incX int, a []float64, lda int) {
	b.tick()
	b.Float64.Dsyr(ul, n, alpha, x, incX, a, lda)
}

// Dsyr2 counts the call and runs the wrapped BLAS's.
func (b *BLASCountdown) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	b.tick()
	b.Float64.Dsyr2(ul, n, alpha, x, incX, y, incY, a, lda)
}
