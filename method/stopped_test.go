package method

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// choleskyFailBLAS is the program's BLAS with a hook into gonum's Cholesky
// factorisation (mat.Cholesky.Factorize, upper triangle): gonum's Dpotf2
// computes the second diagonal entry of a block of two rows or more with
// Ddot(1, a[1:], lda, a[1:], lda), once a factorisation for the test's
// m ≤ 64 (one block). It numbers the factorisations begun, makes those
// that fail says fail (NaN for that entry: "not positive definite") and
// calls cancel, when set, in the factorisation numbered cancelAt: a
// context that ends during a factorisation that then fails, the case of a
// non-context error once the context is done.
type choleskyFailBLAS struct {
	blas.Float64
	started  int
	fail     func(k int) bool
	cancelAt int
	cancel   context.CancelFunc
}

// Ddot counts and hooks the second diagonal entry of a factorisation (see
// choleskyFailBLAS) and runs the wrapped BLAS's Ddot otherwise.
func (b *choleskyFailBLAS) Ddot(n int, x []float64, incX int, y []float64, incY int) float64 {
	if n == 1 && incX > 1 && incX == incY && len(x) > 0 && len(y) > 0 && &x[0] == &y[0] {
		b.started++
		if b.started == b.cancelAt && b.cancel != nil {
			b.cancel()
		}
		if b.fail != nil && b.fail(b.started) {
			return math.NaN()
		}
	}
	return b.Float64.Ddot(n, x, incX, y, incY)
}

// useCholeskyFail installs b over the program's BLAS and returns the
// function that restores it.
func useCholeskyFail(b *choleskyFailBLAS) (restore func()) {
	prev := blas64.Implementation()
	b.Float64 = prev
	blas64.Use(b)
	return func() { blas64.Use(prev) }
}

// TestStoppedDuringFailingFactorisation: a factorisation that fails (a
// numerically singular system: a non-context error) while the context ends
// makes dam and multikt return the interruption, "method: <name>: fit
// interrupted: context canceled", not the singular system's error. endFit
// (fitctx.Finish) returns a non-context error unchanged whatever the
// context, so this is the work of the methods' own fitctx.Stopped patches
// (dam.go's grid loop, multikt.go's loop over C and its refit at the chosen
// C): with any of them removed its case returns "…: the regression is
// numerically singular at every (τ, λ)" (dam), "…: LS-SVM system with C =
// 10000 is not positive definite" (multikt's loop) or "…: LS-SVM system with
// C = … is not positive definite" (the refit). The fits without a cancel
// show the hook makes those errors.
func TestStoppedDuringFailingFactorisation(t *testing.T) {
	c := newConformanceCase(11, 40, 20, 5, 4)
	// The factorisations of a whole fit, unhooked.
	count := func(name string) int {
		b := &choleskyFailBLAS{}
		restore := useCholeskyFail(b)
		defer restore()
		if _, err := newConformanceMethod(t, name).Fit(context.Background(), c.train, c.extra); err != nil {
			t.Fatal(err)
		}
		return b.started
	}
	damAll, ktAll := count("dam"), count("multikt-l2")
	damGrid := len(tauGrid) * len(lambdaGrid)
	if damAll < damGrid || ktAll != len(cGrid)+1 {
		t.Fatalf("%d factorisations in dam (grid of %d), %d in multikt-l2 (want %d: one a C and the refit)", damAll, damGrid, ktAll, len(cGrid)+1)
	}
	cases := []struct {
		name, method string
		fail         func(k int) bool
		cancelAt     int
		unstopped    string // the error of the fit without the cancel
	}{
		{"dam: every (τ, λ) singular", "dam", func(k int) bool { return k > damAll-damGrid }, damAll,
			"method: dam: the regression is numerically singular at every (τ, λ)"},
		{"multikt: every C singular", "multikt-l2", func(k int) bool { return k <= len(cGrid) }, len(cGrid),
			"method: multikt-l2: LS-SVM system with C = "},
		{"multikt: the refit singular", "multikt-l2", func(k int) bool { return k == ktAll }, ktAll,
			"method: multikt-l2: LS-SVM system with C = "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			meth := newConformanceMethod(t, tc.method)
			restore := useCholeskyFail(&choleskyFailBLAS{fail: tc.fail})
			model, err := meth.Fit(context.Background(), c.train, c.extra)
			restore()
			if model != nil || err == nil || !strings.HasPrefix(err.Error(), tc.unstopped) {
				t.Fatalf("no cancel: model %v, err %v; want the error %q…", model != nil, err, tc.unstopped)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			b := &choleskyFailBLAS{fail: tc.fail, cancelAt: tc.cancelAt, cancel: cancel}
			restore = useCholeskyFail(b)
			model, err = meth.Fit(ctx, c.train, c.extra)
			restore()
			if ctx.Err() == nil {
				t.Fatalf("the context was not cancelled (%d factorisations, cancel in %d)", b.started, tc.cancelAt)
			}
			want := methodCaller(tc.method) + ": fit interrupted: context canceled"
			if model != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
				t.Errorf("cancelled in failing factorisation %d: model %v, err %v; want %q", tc.cancelAt, model != nil, err, want)
			}
		})
	}
}
