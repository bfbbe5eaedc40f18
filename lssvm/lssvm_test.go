package lssvm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/kerneltest"
	"gonum.org/v1/gonum/mat"
)

// near reports whether a and b agree to rel relative to max(1, scale).
func near(a, b, rel, scale float64) bool {
	return math.Abs(a-b) <= rel*math.Max(1, scale)
}

func TestBalanceWeights(t *testing.T) {
	y := []float64{1, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}
	zeta := BalanceWeights(y)
	var sp, sn float64
	for i, z := range zeta {
		if y[i] > 0 {
			sp += z
		} else {
			sn += z
		}
	}
	if math.Abs(sp-6) > 1e-12 || math.Abs(sn-6) > 1e-12 || math.Abs(zeta[0]-3) > 1e-12 {
		t.Errorf("class weight sums %g, %g (want 6, 6), ζ₀ = %g (want 3)", sp, sn, zeta[0])
	}
	// One class only (as documented): every weight is 1/2.
	for _, one := range [][]float64{{1, 1, 1}, {-1, -1}} {
		for i, z := range BalanceWeights(one) {
			if z != 0.5 {
				t.Errorf("BalanceWeights(%v)[%d] = %g, want 1/2", one, i, z)
			}
		}
	}
}

// TestSystem checks Solve against a direct solve of the bordered system
// and LOO against refits without each example (the others keep their ζ).
func TestSystem(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, tc := range []struct {
		name      string
		m, pos, d int
		n         int
		c         float64
	}{
		{"2+10, C=1", 12, 2, 30, 5, 1},
		{"5+10, C=1e-4", 15, 5, 8, 3, 1e-4},
		{"10+10, C=1e4", 20, 10, 50, 7, 1e4},
		{"single positive, no sources", 11, 1, 20, 0, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			z := mat.NewDense(tc.m, tc.d, nil)
			for i := range tc.m {
				for j := range tc.d {
					z.Set(i, j, rng.NormFloat64())
				}
			}
			y := make([]float64, tc.m)
			for i := range y {
				y[i] = -1
				if i < tc.pos {
					y[i] = 1
				}
			}
			var h *mat.Dense
			beta := make([]float64, tc.n)
			if tc.n > 0 {
				h = mat.NewDense(tc.m, tc.n, nil)
				for i := range tc.m {
					for j := range tc.n {
						h.Set(i, j, rng.NormFloat64())
					}
				}
				for j := range beta {
					beta[j] = rng.NormFloat64()
				}
			}
			zeta, gram := BalanceWeights(y), Gram(z, tc.m)
			sys, err := NewSystem(context.Background(), gram, zeta, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			r := append([]float64(nil), y...)
			if h != nil {
				hb := make([]float64, tc.m)
				mat.NewVecDense(tc.m, hb).MulVec(h, mat.NewVecDense(tc.n, beta))
				for i := range r {
					r[i] -= hb[i]
				}
			}
			alpha, b := sys.Solve(r)
			wantA, wantB := kerneltest.LSSVMDirect(t, gram, zeta, tc.c, r, nil)
			scale := math.Abs(wantB)
			for _, a := range wantA {
				scale = math.Max(scale, math.Abs(a))
			}
			for i := range alpha {
				if !near(alpha[i], wantA[i], 1e-8, scale) {
					t.Errorf("α[%d] = %g, direct solve %g", i, alpha[i], wantA[i])
				}
			}
			if !near(b, wantB, 1e-8, scale) {
				t.Errorf("b = %g, direct solve %g", b, wantB)
			}
			c, g, err := sys.LOO(context.Background(), y, h)
			if err != nil {
				t.Fatal(err)
			}
			if (g == nil) != (h == nil) {
				t.Fatalf("LOO: G %v for H %v", g, h)
			}
			for i := range tc.m {
				rows := kerneltest.WithoutRow(tc.m, i)
				a, bi := kerneltest.LSSVMDirect(t, gram, zeta, tc.c, r, rows)
				f := bi + (y[i] - r[i]) // the refit's prediction of r_i, plus Hβ
				for k, j := range rows {
					f += a[k] * gram.At(j, i)
				}
				pred := c[i]
				if g != nil {
					for j, v := range g.RawRowView(i) {
						pred += v * beta[j]
					}
				}
				if !near(pred, f, 1e-7, math.Abs(f)) {
					t.Errorf("LOO prediction %d = %.12g, refit gives %.12g", i, pred, f)
				}
			}
		})
	}
}

// TestWeightedRidge checks the closed forms against direct solves of the
// normal equations: the weights and intercept, and the LOO predictions of
// the first m rows against refits without each of them. The weights are
// class-balancing on the first m rows and a common weight on the others
// (DAM's unlabelled rows), or random.
func TestWeightedRidge(t *testing.T) {
	for _, tc := range []struct {
		name   string
		m, pos int
		u, d   int
		tau    float64
		lambda float64
	}{
		{"primal regime", 12, 2, 20, 5, 1, 1},
		{"dual regime", 12, 3, 20, 60, 0.1, 10},
		{"tiny lambda", 12, 2, 8, 40, 10, 1e-4},
		{"heavy unlabelled", 15, 5, 30, 10, 1e3, 1e-2},
		{"no unlabelled", 12, 6, 0, 7, 0, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(9, 9))
			N := tc.m + tc.u
			z, tgt, y := kerneltest.RandomProblem(rng, tc.m, tc.pos, tc.u, tc.d, func(int) float64 { return 0.3 })
			omega := append(BalanceWeights(y), make([]float64, tc.u)...)
			for j := tc.m; j < N; j++ {
				omega[j] = tc.tau * float64(tc.m) / float64(tc.u)
			}
			if tc.tau == 0 { // no common weight: random ones
				for i := range omega {
					omega[i] = 0.1 + rng.Float64()
				}
			}
			wr, err := NewWeightedRidge(context.Background(), Gram(z, N), tgt, omega)
			if err != nil {
				t.Fatal(err)
			}
			w, b := wr.Primal(z, tc.lambda)
			wantW, wantB := kerneltest.WeightedRidgeDirect(t, z, tgt, omega, tc.lambda, nil)
			kerneltest.CheckLinear(t, w, b, wantW, wantB, 1e-8)
			loo := wr.LOOPredictions(tc.m, tc.lambda)
			for i := range tc.m {
				if f := kerneltest.RefitPrediction(t, z, tgt, omega, tc.lambda, i); !near(loo[i], f, 1e-7, math.Abs(f)) {
					t.Errorf("LOO prediction %d = %.12g, refit %.12g", i, loo[i], f)
				}
			}
		})
	}
}

// TestLOOBlocks: G, computed looBlock columns at a time between checks of
// the context, equals the one product D⁻¹AH bit for bit; a done context
// stops LOO with its error.
func TestLOOBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	m, n := 30, 3*looBlock+17
	z := mat.NewDense(m, 5, nil)
	h := mat.NewDense(m, n, nil)
	for _, a := range []*mat.Dense{z, h} {
		for i, v := range a.RawMatrix().Data {
			a.RawMatrix().Data[i] = v + rng.NormFloat64()
		}
	}
	y := make([]float64, m)
	for i := range y {
		y[i] = float64(2*(i%3/2) - 1)
	}
	sys, err := NewSystem(context.Background(), Gram(z, m), BalanceWeights(y), 1)
	if err != nil {
		t.Fatal(err)
	}
	_, g, err := sys.LOO(context.Background(), y, h)
	if err != nil {
		t.Fatal(err)
	}
	var want mat.Dense
	want.Mul(sys.a, h)
	for i := range m {
		inv := 1 / sys.a.At(i, i)
		for j := range n {
			if w := want.At(i, j) * inv; g.At(i, j) != w {
				t.Fatalf("G[%d][%d] = %v in blocks, %v in one product", i, j, g.At(i, j), w)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := sys.LOO(ctx, y, h); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v", err)
	}
}

// TestRejectsBadWeights: NewSystem and NewWeightedRidge return an error,
// not an index panic or a system whose leave-one-out divides by a zero
// weight, for weights of the wrong length or not positive and finite, a
// cost that is not positive and finite, and targets of the wrong length.
func TestRejectsBadWeights(t *testing.T) {
	gram := mat.NewSymDense(3, []float64{2, 1, 0, 1, 2, 1, 0, 1, 2})
	nanGram := mat.NewSymDense(3, []float64{2, 1, 0, 1, math.NaN(), 1, 0, 1, 2})
	y := []float64{1, -1, 1}
	for _, tc := range []struct {
		name string
		f    func() error
		want string
	}{
		{"system short zeta", func() error { _, err := NewSystem(context.Background(), gram, []float64{1, 1}, 1); return err }, "2 weights zeta for 3 rows"},
		{"system zero zeta", func() error { _, err := NewSystem(context.Background(), gram, []float64{1, 0, 1}, 1); return err }, "zeta[1] is 0"},
		{"system NaN zeta", func() error {
			_, err := NewSystem(context.Background(), gram, []float64{1, 1, math.NaN()}, 1)
			return err
		}, "zeta[2] is NaN"},
		{"system Inf C", func() error {
			_, err := NewSystem(context.Background(), gram, []float64{1, 1, 1}, math.Inf(1))
			return err
		}, "C = +Inf"},
		{"ridge short omega", func() error { _, err := NewWeightedRidge(context.Background(), gram, y, []float64{1, 1}); return err }, "2 weights omega for 3 rows"},
		{"ridge zero omega", func() error {
			_, err := NewWeightedRidge(context.Background(), gram, y, []float64{0, 1, 1})
			return err
		}, "omega[0] is 0"},
		{"ridge negative omega", func() error {
			_, err := NewWeightedRidge(context.Background(), gram, y, []float64{1, -1, 1})
			return err
		}, "omega[1] is -1"},
		{"ridge short targets", func() error {
			_, err := NewWeightedRidge(context.Background(), gram, y[:2], []float64{1, 1})
			return err
		}, "2 targets for 3 rows"},
		// A NaN or ±Inf value: NewWeightedRidge returned a ridge of NaN
		// predictions, NewSystem called the system not positive definite.
		{"system NaN Gram", func() error { _, err := NewSystem(context.Background(), nanGram, []float64{1, 1, 1}, 1); return err }, "LS-SVM: Gram matrix row 1 column 1 is NaN"},
		{"ridge NaN Gram", func() error {
			_, err := NewWeightedRidge(context.Background(), nanGram, y, []float64{1, 1, 1})
			return err
		}, "weighted ridge: Gram matrix row 1 column 1 is NaN"},
		{"ridge Inf target", func() error {
			_, err := NewWeightedRidge(context.Background(), gram, []float64{1, math.Inf(-1), 1}, []float64{1, 1, 1})
			return err
		}, "weighted ridge: target row 1 is -Inf"},
	} {
		if err := tc.f(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestLOOShapesAndLambda: LOO returns an error for targets or H of another
// number of rows than the system's (it panicked in gonum), and
// WeightedRidge's LOOPredictions and Primal panic, naming λ, at a λ that
// is not positive and finite, where λ = 0 gave NaN predictions.
func TestLOOShapesAndLambda(t *testing.T) {
	gram := mat.NewSymDense(3, []float64{2, 1, 0, 1, 2, 1, 0, 1, 2})
	s, err := NewSystem(context.Background(), gram, []float64{1, 1, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := s.LOO(ctx, []float64{1, -1}, nil); err == nil || err.Error() != "LS-SVM: 2 targets for a system of 3 rows" {
		t.Errorf("short y: %v", err)
	}
	if _, _, err := s.LOO(ctx, []float64{1, -1, 1}, mat.NewDense(2, 2, nil)); err == nil || err.Error() != "LS-SVM: H has 2 rows for a system of 3" {
		t.Errorf("short H: %v", err)
	}
	// A NaN or ±Inf target or value of H made NaN predictions, silently.
	if _, _, err := s.LOO(ctx, []float64{1, math.NaN(), 1}, nil); err == nil || err.Error() != "LS-SVM: y row 1 is NaN" {
		t.Errorf("NaN target: %v", err)
	}
	if _, _, err := s.LOO(ctx, []float64{1, -1, 1}, mat.NewDense(3, 2, []float64{0, 0, 0, 0, math.Inf(1), 0})); err == nil || err.Error() != "LS-SVM: H row 2 column 0 is +Inf" {
		t.Errorf("Inf in H: %v", err)
	}
	wr, err := NewWeightedRidge(context.Background(), gram, []float64{1, -1, 1}, []float64{1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	z := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	for _, lambda := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		for name, f := range map[string]func(){
			"LOOPredictions": func() { wr.LOOPredictions(3, lambda) },
			"Primal":         func() { wr.Primal(z, lambda) },
		} {
			var msg any
			func() {
				defer func() { msg = recover() }()
				f()
			}()
			if s, ok := msg.(string); !ok || !strings.Contains(s, "want a positive, finite λ") {
				t.Errorf("%s at λ = %v: recovered %v, want the λ panic", name, lambda, msg)
			}
		}
	}
}

// TestDegenerateSystems: the constructors return errors, never panic, for a
// nil Gram matrix or one of no rows, and NewWeightedRidge for one row
// (its intercept fits that row exactly, and leaving it out leaves no
// regression). They panicked: a nil dereference, or gonum's "zero length
// in matrix dimension" for q⊥ of no dimensions.
func TestDegenerateSystems(t *testing.T) {
	one := mat.NewSymDense(1, []float64{2})
	for _, tc := range []struct {
		name string
		f    func() error
		want string
	}{
		{"system nil Gram", func() error { _, err := NewSystem(context.Background(), nil, nil, 1); return err }, "LS-SVM: no Gram matrix"},
		{"system no rows", func() error { _, err := NewSystem(context.Background(), &mat.SymDense{}, nil, 1); return err }, "LS-SVM: no rows"},
		// (One row was, and is, an error of its own: its leave-one-out
		// denominator is 0.)
		{"system one row", func() error { _, err := NewSystem(context.Background(), one, []float64{1}, 1); return err }, "LS-SVM system with C = 1: leave-one-out denominator 0 is 0"},
		{"ridge nil Gram", func() error { _, err := NewWeightedRidge(context.Background(), nil, nil, nil); return err }, "weighted ridge: no Gram matrix"},
		{"ridge no rows", func() error { _, err := NewWeightedRidge(context.Background(), &mat.SymDense{}, nil, nil); return err }, "weighted ridge: 0 rows: want at least 2"},
		{"ridge one row", func() error {
			_, err := NewWeightedRidge(context.Background(), one, []float64{1}, []float64{1})
			return err
		}, "weighted ridge: 1 row: want at least 2"},
	} {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			err = tc.f()
		}()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestDocumentedPanics: the helpers without an error result panic, as
// their doc comments say, when given shapes that disagree (a programmer's
// error): Gram and DualToPrimal on the rows of Z, Primal on those of z.
func TestDocumentedPanics(t *testing.T) {
	gram := mat.NewSymDense(3, []float64{2, 1, 0, 1, 2, 1, 0, 1, 2})
	wr, err := NewWeightedRidge(context.Background(), gram, []float64{1, -1, 1}, []float64{1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(){
		"Gram, m = 0":             func() { Gram(nil, 0) },
		"Gram, Z of other rows":   func() { Gram(mat.NewDense(2, 2, nil), 3) },
		"DualToPrimal, short α":   func() { DualToPrimal(mat.NewDense(3, 2, nil), []float64{1}) },
		"Primal, nil z":           func() { wr.Primal(nil, 1) },
		"Primal, z of other rows": func() { wr.Primal(mat.NewDense(2, 2, nil), 1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestNilReceivers: a nil or zero System's LOO returns an error, and the
// methods without one (Solve, and WeightedRidge's LOOPredictions and
// Primal, with a nil z too) panic with a message naming the problem
// rather than a nil dereference.
func TestNilReceivers(t *testing.T) {
	var s *System
	for _, sys := range []*System{s, {}} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("LOO of %#v: panic %v", sys, r)
				}
			}()
			if _, _, err := sys.LOO(context.Background(), []float64{1}, nil); err == nil || err.Error() != "LS-SVM: a System not built by NewSystem" {
				t.Errorf("LOO of %#v: %v", sys, err)
			}
		}()
	}
	gram := mat.NewSymDense(3, []float64{2, 1, 0, 1, 2, 1, 0, 1, 2})
	wr, err := NewWeightedRidge(context.Background(), gram, []float64{1, -1, 1}, []float64{1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	var nilWR *WeightedRidge
	for name, c := range map[string]struct {
		f    func()
		want string
	}{
		"Solve, nil System":          {func() { s.Solve([]float64{1}) }, "LS-SVM: a System not built by NewSystem"},
		"LOOPredictions, nil":        {func() { nilWR.LOOPredictions(1, 1) }, "lssvm: WeightedRidge.LOOPredictions of a WeightedRidge not built by NewWeightedRidge"},
		"LOOPredictions, zero":       {func() { (&WeightedRidge{}).LOOPredictions(1, 1) }, "lssvm: WeightedRidge.LOOPredictions of a WeightedRidge not built by NewWeightedRidge"},
		"LOOPredictions, negative m": {func() { wr.LOOPredictions(-1, 1) }, "lssvm: LOOPredictions of -1 rows of 3"},
		"Primal, nil":                {func() { nilWR.Primal(mat.NewDense(3, 2, nil), 1) }, "lssvm: WeightedRidge.Primal of a WeightedRidge not built by NewWeightedRidge"},
		"Primal, nil z":              {func() { wr.Primal(nil, 1) }, "lssvm: WeightedRidge.Primal of a nil z"},
		"Primal, λ = 0 (unchanged)":  {func() { wr.Primal(mat.NewDense(3, 2, nil), 0) }, "lssvm: WeightedRidge.Primal at λ = 0: want a positive, finite λ"},
	} {
		errtest.Panics(t, name, c.want, c.want, c.f)
	}
}
