package method

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"github.com/greedytl/greedytl/lssvm"
	"gonum.org/v1/gonum/mat"
)

// TestLSSVMMethodsStopWhenDone: dam (with virtual labels, and without
// sources: the balanced ridge) and multikt-l2/l1, cancelled during their
// matrix operations (BLAS calls; the first few and about 20 spread over
// the fit), return the context's error, no model, having done at most one
// dense step's worth of matrix work after the cancel: no more BLAS calls
// than the longer of a Cholesky factorisation and its inversion of an
// m × m matrix (dam's solve, multikt's lssvm.NewSystem), or than an
// eigendecomposition of one (lssvm.NewWeightedRidge: dam without sources),
// make alone (denseSteps). Before the fix
// lssvm.NewSystem, lssvm.NewWeightedRidge and DAM's solve ran their
// factorisation, inversion and eigendecomposition back to back without a
// check (multikt took a cancel inside NewSystem for a singular C and went
// on): at m = 4,000 these fits returned 59 s to 1 min 58 s after a 2 s
// deadline (loaded).
func TestLSSVMMethodsStopWhenDone(t *testing.T) {
	const m = 160
	withSources := newConformanceCase(11, m, m/2, 5, 4)
	factor, eig := denseSteps(t, m)
	cases := []struct {
		name, method string
		c            conformanceCase
		step         int64 // the longest dense step of the fit
	}{
		{"dam", "dam", withSources, factor}, // an eigendecomposition of d × d only
		{"dam without sources", "dam", withSources.withoutSources(), eig},
		{"multikt-l2", "multikt-l2", withSources, factor},
		{"multikt-l1", "multikt-l1", withSources, factor},
	}
	for _, tc := range cases {
		step := tc.step
		t.Run(tc.name, func(t *testing.T) {
			meth := newConformanceMethod(t, tc.method)
			counted, restore := fitctxtest.UseBLASCountdown(0, func() {})
			_, err := meth.Fit(context.Background(), tc.c.train, tc.c.extra)
			restore()
			if err != nil {
				t.Fatal(err)
			}
			total := counted.Calls()
			if total <= step+1 {
				t.Fatalf("%d matrix operations in the fit, %d in its longest step: the test needs a fit of more than one step", total, step)
			}
			stride := max(1, total/20)
			for at := int64(1); at <= total; at++ {
				if at > 3 && at%stride != 0 && at != total {
					continue
				}
				ctx, cancel := context.WithCancel(context.Background())
				b, restore := fitctxtest.UseBLASCountdown(at, cancel)
				model, err := meth.Fit(ctx, tc.c.train, tc.c.extra)
				restore()
				cancel()
				if !errors.Is(err, context.Canceled) || model != nil {
					t.Errorf("cancelled in matrix operation %d of %d: err %v (model %v), want context.Canceled", at, total, err, model != nil)
				}
				if after := b.Calls() - at; after > step {
					t.Errorf("cancelled in matrix operation %d of %d: %d more after it, want at most %d (the longest dense step's)", at, total, after, step)
				}
			}
		})
	}
}

// denseSteps returns the matrix operations (BLAS calls) of the longer of a
// Cholesky factorisation and its inversion, and of an eigendecomposition,
// of a dense m × m positive definite matrix (they depend on m, not on the
// values, once no column is zero).
func denseSteps(t *testing.T, m int) (factor, eig int64) {
	t.Helper()
	// A dense matrix: LAPACK skips the reflections of columns that are
	// zero already, so a sparse one would take fewer operations.
	rng := rand.New(rand.NewPCG(2, 2))
	z := mat.NewDense(m, m, nil)
	for i := range z.RawMatrix().Data {
		z.RawMatrix().Data[i] = rng.NormFloat64()
	}
	a := mat.NewSymDense(m, nil)
	a.SymOuterK(1, z)
	count := func(f func()) int64 {
		b, restore := fitctxtest.UseBLASCountdown(0, func() {})
		defer restore()
		f()
		return b.Calls()
	}
	var ch mat.Cholesky
	chol := count(func() { ch.Factorize(a) })
	var inv mat.SymDense
	invOps := count(func() { ch.InverseTo(&inv) })
	var es mat.EigenSym
	eig = count(func() { es.Factorize(a, true) })
	if chol == 0 || invOps == 0 || eig == 0 {
		t.Fatalf("matrix operations at m = %d: Cholesky %d, inversion %d, eigendecomposition %d; want some of each", m, chol, invOps, eig)
	}
	return max(chol, invOps), eig
}

// TestMultiKTStopInTheFinalSystem: multikt-l2, stopped at each context
// check of its last lssvm.NewSystem (the refit at the chosen C: the last
// checks of the fit but its final one), names the method as a stop in its
// loop over C does, "method: multikt-l2: fit interrupted: …". Before the
// fix it said "method: multikt-l2: lssvm: fit interrupted: …".
func TestMultiKTStopInTheFinalSystem(t *testing.T) {
	c := newConformanceCase(11, 40, 20, 5, 4)
	meth := newConformanceMethod(t, "multikt-l2")
	all := fitctxtest.NewCountdown(1 << 40)
	if _, err := meth.Fit(all, c.train, c.extra); err != nil {
		t.Fatal(err)
	}
	// The checks of a lone NewSystem of the fit's size (they depend on m).
	m := c.train.Rows()
	gram := mat.NewSymDense(m, nil)
	zeta := make([]float64, m)
	for i := range m {
		gram.SetSym(i, i, 1)
		zeta[i] = 1
	}
	sys := fitctxtest.NewCountdown(1 << 40)
	if _, err := lssvm.NewSystem(sys, gram, zeta, 1); err != nil {
		t.Fatal(err)
	}
	total, n := all.Calls(), sys.Calls()
	want := methodCaller("multikt-l2") + ": fit interrupted: "
	for at := total - 1 - n; at < total; at++ {
		_, err := meth.Fit(fitctxtest.NewCountdown(at), c.train, c.extra)
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("stopped at check %d of %d (the last %d are the final system's and the fit's end): %v, want %q…", at, total, n+1, err, want)
		}
	}
}

// TestLSSVMStopNamesTheMethod: dam (with and without sources), multikt-l1,
// multikt-l2 and dictionary, stopped at their context checks (checkPoints),
// name the method as their own checks do, "method: NAME: fit interrupted:
// …", whichever lssvm entry point the stop fell in (System.LOO through
// multikt's leave-one-out hinge loss, NewWeightedRidge through dam's and
// dictionary's balanced ridge candidates). Before the fix dam without
// sources said "method: dam: lssvm: fit interrupted: …" at 7 of its 20
// checks.
func TestLSSVMStopNamesTheMethod(t *testing.T) {
	base := newConformanceCase(7, 24, 6, 5, 8)
	cases := []struct {
		name string
		c    conformanceCase
	}{
		{"dam", base}, {"dam", base.withoutSources()},
		{"multikt-l1", base}, {"multikt-l2", base}, {"dictionary", base},
	}
	for _, tc := range cases {
		meth := newConformanceMethod(t, tc.name)
		all := fitctxtest.NewCountdown(math.MaxInt64)
		if _, err := meth.Fit(all, tc.c.train, tc.c.extra); err != nil {
			t.Fatal(err)
		}
		total := all.Calls()
		want := methodCaller(tc.name) + ": fit interrupted: "
		for _, at := range checkPoints(total) {
			_, err := meth.Fit(fitctxtest.NewCountdown(at-1), tc.c.train, tc.c.extra)
			if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s (sources %v) stopped at check %d of %d: %v, want %q…", tc.name, tc.c.train.H != nil, at, total, err, want)
			}
		}
	}
}
