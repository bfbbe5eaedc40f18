package method

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/greedytl/greedytl/internal/cputime"

	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"gonum.org/v1/gonum/mat"
)

// TestMultinomialStopsWhenDone: multinomial-logistic and greedytl-nway,
// cancelled during any of their matrix operations (BLAS calls), return the
// context's error having done at most one uninterruptible step's worth of
// matrix work after it: no more BLAS calls than the eigendecomposition of
// the rows' Gram matrix makes alone, the longest step between two checks.
// Before the fix the reduction to the rows' span ran its Gram matrix, its
// eigendecomposition and its back-projection without a check, and L-BFGS
// ran to its end (up to 1000 iterations) after a cancel: a fit at 20
// classes × 20 shots, p = 1000, returned 218–325 ms after a 50 ms
// deadline.
func TestMultinomialStopsWhenDone(t *testing.T) {
	train, y, _, _ := multiProblem(7, 3, 4, 1, 30, 3) // 12 rows, 33 columns: p > m
	m := len(y.Y)
	// The eigendecomposition's BLAS calls at this size (they depend on the
	// size alone, not on the values).
	rng := rand.New(rand.NewPCG(1, 1))
	A := mat.NewDense(m, m, nil)
	for i := range m {
		for j := range m {
			A.Set(i, j, rng.NormFloat64())
		}
	}
	var G mat.SymDense
	G.SymOuterK(1, A)
	counted, restore := fitctxtest.UseBLASCountdown(0, func() {})
	var eig mat.EigenSym
	if !eig.Factorize(&G, true) {
		restore()
		t.Fatal("EigenSym.Factorize failed")
	}
	restore()
	step := counted.Calls()
	for _, name := range []string{"multinomial-logistic", "greedytl-nway"} {
		t.Run(name, func(t *testing.T) {
			mm, err := NewMulti(name)
			if err != nil {
				t.Fatal(err)
			}
			counted, restore := fitctxtest.UseBLASCountdown(0, func() {})
			_, err = mm.FitMulti(context.Background(), train, y, Extra{Seed: 3})
			restore()
			if err != nil {
				t.Fatal(err)
			}
			total := counted.Calls()
			// Every call of the first reduction, then about 60 spread
			// over the rest (each case costs a fit up to its cancel).
			stride := max(1, total/60)
			failed := 0
			for at := int64(1); at <= total; at++ {
				if at > 3*step && at%stride != 0 {
					continue
				}
				ctx, cancel := context.WithCancel(context.Background())
				b, restore := fitctxtest.UseBLASCountdown(at, cancel)
				model, err := mm.FitMulti(ctx, train, y, Extra{Seed: 3})
				restore()
				cancel()
				after := b.Calls() - at
				if !errors.Is(err, context.Canceled) || model != nil {
					t.Errorf("cancelled in matrix operation %d of %d: err %v (model %v), want context.Canceled", at, total, err, model != nil)
				} else if after > step {
					failed++
					if failed <= 5 {
						t.Errorf("cancelled in matrix operation %d of %d: %d more after it, want at most %d (an eigendecomposition's)", at, total, after, step)
					}
				}
			}
			if failed > 5 {
				t.Errorf("… and %d more cases", failed-5)
			}
		})
	}
}

// TestFitMultiDeadline is TestFitDeadline for every multi-class method
// (MultiNames: the natives and every binary method one against the rest)
// on a problem of 20 classes × 20 examples, 1,000 features and 20 source
// scores, given 50 ms: each returns soon after the deadline (at most
// cpuSlack of the process's CPU time, or wallSlack of wall time) and with
// the context's error unless it finished first. Before the fix
// multinomial-logistic and greedytl-nway returned 218–325 ms after it. A
// timed test, opt-in as TestFitDeadline is (GREEDYTL_TIMING=1).
func TestFitMultiDeadline(t *testing.T) {
	if os.Getenv("GREEDYTL_TIMING") != "1" {
		t.Skip("a timed test: set GREEDYTL_TIMING=1 to run it (on an idle machine)")
	}
	const deadline, cpuSlack, wallSlack = 50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond
	train, y, test, testY := multiProblem(43, 20, 20, 5, 1000, 20)
	for _, name := range MultiNames() {
		t.Run(name, func(t *testing.T) {
			mm, err := NewMulti(name)
			if err != nil {
				t.Fatal(err)
			}
			extra := Extra{Seed: 1, Unlabelled: &Data{X: test.X, H: test.H}, Oracle: &Data{X: test.X, H: test.H, Y: make([]float64, len(testY))}}
			for i, k := range testY {
				extra.Oracle.Y[i] = float64(k)
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			atDone := make(chan time.Duration, 1)
			context.AfterFunc(ctx, func() {
				cpu, _ := cputime.Process()
				atDone <- cpu
			})
			start := time.Now()
			model, err := mm.FitMulti(ctx, train, y, extra)
			doneAtReturn := ctx.Err() != nil
			took := time.Since(start)
			end, ok := cputime.Process()
			cancel()
			over := end - <-atDone
			t.Logf("returned %v after the deadline, %v of CPU time since", took-deadline, over)
			if took > deadline+wallSlack && (!ok || over > cpuSlack) {
				t.Errorf("returned %v after the deadline, having used %v of CPU time since (more than %v)", took-deadline, over, cpuSlack)
			}
			switch {
			case err == nil && doneAtReturn:
				t.Errorf("returned a model after %v, its context done", took)
			case err == nil:
				t.Logf("finished its work in %v, within the deadline", took)
			case !errors.Is(err, context.DeadlineExceeded):
				t.Errorf("after %v: %v, want context.DeadlineExceeded", took, err)
			case model != nil:
				t.Error("a model with an error")
			}
		})
	}
}
