package lssvm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"gonum.org/v1/gonum/mat"
)

// ctxProblem returns the Gram matrix, labels and balancing weights of m
// random rows of 7 features.
func ctxProblem(m int) (*mat.SymDense, []float64, []float64) {
	rng := rand.New(rand.NewPCG(5, 5))
	z := mat.NewDense(m, 7, nil)
	for i, v := range z.RawMatrix().Data {
		z.RawMatrix().Data[i] = v + rng.NormFloat64()
	}
	y := make([]float64, m)
	for i := range y {
		y[i] = float64(1 - 2*(i%2))
	}
	return Gram(z, m), y, BalanceWeights(y)
}

// denseSteps returns the numbers of matrix operations (BLAS calls) of the
// longest dense step of NewSystem (the Cholesky factorisation or the
// inversion) and of NewWeightedRidge (the eigendecomposition) on gram: the
// most that may run between two checks of the context.
func denseSteps(t *testing.T, gram *mat.SymDense) (system, ridge int64) {
	t.Helper()
	count := func(f func()) int64 {
		b, restore := fitctxtest.UseBLASCountdown(0, func() {})
		defer restore()
		f()
		return b.Calls()
	}
	m := gram.SymmetricDim()
	q := mat.NewSymDense(m, nil)
	q.CopySym(gram)
	for i := range m {
		q.SetSym(i, i, q.At(i, i)+1)
	}
	var ch mat.Cholesky
	chol := count(func() { ch.Factorize(q) })
	var p mat.SymDense
	inv := count(func() { ch.InverseTo(&p) })
	var es mat.EigenSym
	eig := count(func() { es.Factorize(q, true) })
	if chol == 0 || inv == 0 || eig == 0 {
		t.Fatalf("matrix operations: Cholesky %d, inversion %d, eigendecomposition %d; want some of each", chol, inv, eig)
	}
	return max(chol, inv), eig
}

// TestBuildersStopWhenDone: NewSystem and NewWeightedRidge return the
// context's error as fitctx.Err returns it (an *fitctx.Interruption, "lssvm:
// fit interrupted: …"), and nothing else, when their context is done — before
// the call (then without a single matrix operation), at each of their
// checks in turn (a fitctxtest.Countdown) and in their first, last and
// some other matrix operations (a fitctxtest.BLASCountdown, which cancels
// the context at that operation): after that cancel they run at most the
// matrix operations of their longest dense step (denseSteps), not the rest
// of the work. Before they took a context, at m = 3,000 NewSystem ran for
// half a minute (loaded) whatever its caller's context said; with the
// checks removed this test fails (a result and no error, 926 matrix
// operations after a cancel in the first of NewSystem's 927).
func TestBuildersStopWhenDone(t *testing.T) {
	const m = 300
	gram, y, zeta := ctxProblem(m)
	sysStep, ridgeStep := denseSteps(t, gram)
	builders := []struct {
		name string
		step int64
		run  func(ctx context.Context) (bool, error)
	}{
		{"NewSystem", sysStep, func(ctx context.Context) (bool, error) {
			s, err := NewSystem(ctx, gram, zeta, 1)
			return s != nil, err
		}},
		{"NewWeightedRidge", ridgeStep, func(ctx context.Context) (bool, error) {
			wr, err := NewWeightedRidge(ctx, gram, y, zeta)
			return wr != nil, err
		}},
	}
	want := func(t *testing.T, where string, built bool, err error) {
		t.Helper()
		var stop *fitctx.Interruption
		if built || !errors.Is(err, context.Canceled) || !errors.As(err, &stop) || !strings.HasPrefix(err.Error(), "lssvm: fit interrupted: ") {
			t.Errorf("%s: built %v, err %v; want nothing and the interruption \"lssvm: fit interrupted: context canceled\"", where, built, err)
		}
	}
	for _, b := range builders {
		t.Run(b.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			ops, restore := fitctxtest.UseBLASCountdown(0, func() {})
			built, err := b.run(ctx)
			restore()
			want(t, "context done before the call", built, err)
			if n := ops.Calls(); n != 0 {
				t.Errorf("context done before the call: %d matrix operations, want none", n)
			}

			checks := fitctxtest.NewCountdown(math.MaxInt64)
			ops, restore = fitctxtest.UseBLASCountdown(0, func() {})
			built, err = b.run(checks)
			restore()
			if !built || err != nil {
				t.Fatalf("live context: built %v, err %v", built, err)
			}
			totalOps := ops.Calls()
			// The checks: the first, before any work, then between the
			// dense steps and every fitctx.Rows rows of the O(m²) loops.
			if n := checks.Calls(); n < 1+m/fitctx.Rows {
				t.Errorf("%d checks of the context at m = %d, want at least %d", n, m, 1+m/fitctx.Rows)
			}
			for at := int64(1); at <= checks.Calls(); at++ {
				built, err := b.run(fitctxtest.NewCountdown(at - 1))
				want(t, fmt.Sprintf("cancelled at check %d", at), built, err)
			}
			if b.name == "NewSystem" && totalOps <= b.step+1 {
				t.Fatalf("%d matrix operations in all, longest step %d: the test needs more work than a step to tell a stop", totalOps, b.step)
			}
			// The first operations, the last (after which only the final
			// check can stop it) and some between.
			for _, at := range []int64{1, 2, totalOps / 4, totalOps / 2, 3 * totalOps / 4, totalOps - 1, totalOps} {
				ctx, cancel := context.WithCancel(context.Background())
				ops, restore := fitctxtest.UseBLASCountdown(at, cancel)
				built, err := b.run(ctx)
				restore()
				cancel()
				want(t, fmt.Sprintf("cancelled in matrix operation %d", at), built, err)
				if after := ops.Calls() - at; after > b.step {
					t.Errorf("cancelled in matrix operation %d of %d: %d more after it, want at most %d (the longest dense step's)", at, totalOps, after, b.step)
				}
			}
		})
	}
}

// TestCheckRowSeesRowZero: checkRow, the check of the builders' O(m²)
// loops, sees a done context at row 0 — a loop checks before its first
// row, so a loop of fewer than fitctx.Rows rows is checked at all — and
// then at row fitctx.Rows, not at the rows between, and returns the
// interruption "lssvm: fit interrupted: context canceled"; a live context
// passes at every row. Checking at rows Rows−1, 2·Rows−1, … instead
// (fitctx.RowErr(ctx, i+1)) kept TestBuildersStopWhenDone passing.
func TestCheckRowSeesRowZero(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		row  int
		seen bool
	}{{0, true}, {1, false}, {fitctx.Rows - 1, false}, {fitctx.Rows, true}, {fitctx.Rows + 1, false}} {
		if err := checkRow(context.Background(), c.row); err != nil {
			t.Errorf("row %d, live context: %v, want nil", c.row, err)
		}
		err := checkRow(done, c.row)
		var stop *fitctx.Interruption
		switch {
		case !c.seen && err != nil:
			t.Errorf("row %d, done context: %v, want nil (not a row the loops check at)", c.row, err)
		case c.seen && (!errors.Is(err, context.Canceled) || !errors.As(err, &stop) || err.Error() != "lssvm: fit interrupted: context canceled"):
			t.Errorf("row %d, done context: %v, want the interruption \"lssvm: fit interrupted: context canceled\"", c.row, err)
		}
	}
}
