package method

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
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
// scores, given 50 ms: each returns soon after the deadline and with the
// context's error unless it finished first (checkDeadline). Before the fix
// multinomial-logistic and greedytl-nway returned 218–325 ms after it. A
// timed test, opt-in as TestFitDeadline is (GREEDYTL_TIMING=1).
func TestFitMultiDeadline(t *testing.T) {
	if os.Getenv("GREEDYTL_TIMING") != "1" {
		t.Skip("a timed test: set GREEDYTL_TIMING=1 to run it (on an idle machine)")
	}
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
			checkDeadline(t, func(ctx context.Context) (bool, error) {
				model, err := mm.FitMulti(ctx, train, y, extra)
				return model != nil, err
			})
		})
	}
}

// TestEigenSymChecked: eigenSymChecked's values and vectors are
// mat.EigenSym's bit for bit (signed zeros and all), and it returns the
// context's error, not a decomposition, when the context is done before or
// during the decomposition. The matrices: random symmetric ones of sizes 1
// to 160, at scales from 1e-300 to 1e300 (out of the range of gonum's
// Dsyev both ways: it rescales them), the Gram matrices reduceRows
// decomposes (of full and of deficient rank), ones of repeated eigenvalues
// (I, a block of ones) and the zero matrix. It was written against the copy
// of Dsyev's steps that eigenSymChecked was before it called EigenSym, on
// which it passed too.
func TestEigenSymChecked(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	random := func(n int, scale float64) *mat.SymDense {
		a := mat.NewSymDense(n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				a.SetSym(i, j, scale*rng.NormFloat64())
			}
		}
		return a
	}
	gram := func(m, p, rank int) *mat.SymDense {
		L, R := mat.NewDense(m, rank, nil), mat.NewDense(rank, p, nil)
		for _, d := range [][]float64{L.RawMatrix().Data, R.RawMatrix().Data} {
			for i := range d {
				d[i] = rng.NormFloat64()
			}
		}
		var Z mat.Dense
		Z.Mul(L, R)
		var G mat.SymDense
		G.SymOuterK(1, &Z)
		return &G
	}
	sameBits := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	type named struct {
		kind  string
		a     *mat.SymDense
		size  [3]int // n, or Z's m × p and rank
		scale float64
	}
	var cases []named
	for _, n := range []int{1, 2, 3, 5, 8, 13, 21, 40, 64, 100, 130, 160} {
		for _, scale := range []float64{1, 1e-300, 1e300, 1e-160, 3e160} {
			cases = append(cases, named{"random", random(n, scale), [3]int{n}, scale})
		}
	}
	for range 200 {
		n, scale := 1+rng.IntN(50), math.Exp(rng.NormFloat64()*5)
		cases = append(cases, named{"random", random(n, scale), [3]int{n}, scale})
	}
	for _, s := range [][3]int{{12, 33, 12}, {50, 400, 50}, {100, 1020, 100}, {30, 60, 7}, {80, 200, 1}} {
		cases = append(cases, named{"gram", gram(s[0], s[1], s[2]), s, 1})
	}
	ones := mat.NewSymDense(20, nil)
	eye := mat.NewSymDense(20, nil)
	for i := range 20 {
		eye.SetSym(i, i, 1)
		for j := i; j < 20; j++ {
			ones.SetSym(i, j, 1)
		}
	}
	cases = append(cases, named{"identity", eye, [3]int{20}, 1}, named{"ones", ones, [3]int{20}, 1}, named{"zero", mat.NewSymDense(9, nil), [3]int{9}, 1})
	for _, tc := range cases {
		var eig mat.EigenSym
		wantOK := eig.Factorize(tc.a, true)
		vals, vecs, ok, err := eigenSymChecked(context.Background(), tc.a)
		if err != nil || ok != wantOK {
			t.Fatalf("%s %v scale %g: ok %v, err %v; want ok %v", tc.kind, tc.size, tc.scale, ok, err, wantOK)
		}
		if !ok {
			continue
		}
		var wantVecs mat.Dense
		eig.VectorsTo(&wantVecs)
		if !slices.EqualFunc(vals, eig.Values(nil), sameBits) || !slices.EqualFunc(vecs.RawMatrix().Data, wantVecs.RawMatrix().Data, sameBits) {
			t.Errorf("%s %v scale %g: values or vectors differ from EigenSym's", tc.kind, tc.size, tc.scale)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a := mat.NewSymDense(3, []float64{2, 1, 0, 1, 2, 1, 0, 1, 2})
	if vals, _, _, err := eigenSymChecked(ctx, a); err != context.Canceled || vals != nil {
		t.Errorf("done context: values %v, err %v; want none and context.Canceled", vals, err)
	}
	// Cancelled during the decomposition (at its first, middle and last
	// matrix operation): the context's error after it.
	a = random(40, 1)
	counted, restore := fitctxtest.UseBLASCountdown(0, func() {})
	eigenSymChecked(context.Background(), a)
	restore()
	total := counted.Calls()
	for _, at := range []int64{1, total / 2, total} {
		ctx, cancel := context.WithCancel(context.Background())
		_, restore := fitctxtest.UseBLASCountdown(at, cancel)
		vals, _, _, err := eigenSymChecked(ctx, a)
		restore()
		cancel()
		if err != context.Canceled || vals != nil {
			t.Errorf("cancelled in matrix operation %d of %d: values %v, err %v; want none and context.Canceled", at, total, vals != nil, err)
		}
	}
}

// dotCountdown is the program's BLAS with a count of its dot products of
// n-vectors (blas64.Dot, the products heldOutProbabilities scores the
// held-out rows with): it cancels a context at the first and counts those
// after it.
type dotCountdown struct {
	blas.Float64
	n      int
	cancel context.CancelFunc
	fired  bool
	after  int
}

// Ddot cancels at the first product of n-vectors and counts the later ones.
func (b *dotCountdown) Ddot(n int, x []float64, incX int, y []float64, incY int) float64 {
	if n == b.n {
		if b.fired {
			b.after++
		} else {
			b.fired = true
			b.cancel()
		}
	}
	return b.Float64.Ddot(n, x, incX, y, incY)
}

// TestHeldOutScoringStopsWhenDone: heldOutProbabilities, cancelled while
// it scores a fold's held-out rows (at its first product of a row and a
// class's weights), returns the context's error after at most
// fitctx.Rows rows' worth of products (K a row). Before the fix the
// scoring loop did not check its context: it scored every held-out row of
// the fold (300 × 200 products here; at 10,000 classes of 2 examples, 10,000
// × 10,000 a candidate C) and stopped only at the next C's fit.
func TestHeldOutScoringStopsWhenDone(t *testing.T) {
	const K, shots, r, k = 200, 3, 8, 2
	F, y, fold := heldOutProblem(K, shots, r, k)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prev := blas64.Implementation()
	b := &dotCountdown{Float64: prev, n: r, cancel: cancel}
	blas64.Use(b)
	_, err := heldOutProbabilities(ctx, F, y, nil, fold, k, []float64{1, 10}, multinomialCVTol, &solverRuns{}, nil)
	blas64.Use(prev)
	if !b.fired {
		t.Fatal("no product of a held-out row: the test no longer reaches the scoring loop")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if limit := fitctx.Rows * K; b.after > limit {
		t.Errorf("%d products after the cancel, want at most %d (%d rows of %d classes)", b.after, limit, fitctx.Rows, K)
	}
}
