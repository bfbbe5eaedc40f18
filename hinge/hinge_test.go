package hinge

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/greedytl/greedytl/ball"
	"github.com/greedytl/greedytl/grid"
	"github.com/greedytl/greedytl/internal/kerneltest"
	"github.com/greedytl/greedytl/lssvm"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
	"gonum.org/v1/gonum/stat"

	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
)

// steps is the number of descent steps per radius, MultiKT's.
const steps = 1000

// setup returns MultiKT's loss on a synthetic problem (kerneltest.Synthetic,
// standardised): the LS-SVM of the features with cost c and
// class-balancing weights, its leave-one-out predictions affine in the
// source weights.
func setup(t *testing.T, seed uint64, m, pos, d, n int, c float64) *Loss {
	t.Helper()
	X, H, y := kerneltest.Synthetic(seed, m, pos, d, n, 1)
	_, zx, err := standardize.FitTransform(X)
	if err != nil {
		t.Fatal(err)
	}
	_, zh, err := standardize.FitTransform(H)
	if err != nil {
		t.Fatal(err)
	}
	zeta := lssvm.BalanceWeights(y)
	sys, err := lssvm.NewSystem(context.Background(), lssvm.Gram(zx, m), zeta, c)
	if err != nil {
		t.Fatal(err)
	}
	cc, g, err := sys.LOO(context.Background(), y, zh)
	if err != nil {
		t.Fatal(err)
	}
	return New(y, zeta, cc, g)
}

// problemCase is a synthetic problem for setup.
type problemCase struct {
	name         string
	seed         uint64
	m, pos, d, n int
	c            float64
}

func norm1(v []float64) float64   { return floats.Norm(v, 1) }
func norm2(v []float64) float64   { return floats.Norm(v, 2) }
func dist(a, b []float64) float64 { return floats.Distance(a, b, 2) }

// lpL1Optimum minimises L over ||β||₁ ≤ tau exactly, as the linear program
// min (1/m) Σ ζ_i ξ_i s.t. ξ_i ≥ 1 − y_i(c_i + G_i(β⁺ − β⁻)),
// Σ(β⁺ + β⁻) ≤ tau, β±, ξ ≥ 0 (with slack variables for standard form). It
// returns the optimal value and a minimiser.
func lpL1Optimum(t *testing.T, l *Loss, tau float64) (float64, []float64) {
	t.Helper()
	m, n := l.g.Dims()
	cols := 2*n + 2*m + 1
	A := mat.NewDense(m+1, cols, nil)
	b := make([]float64, m+1)
	cost := make([]float64, cols)
	for i := range m {
		for j := range n {
			v := l.y[i] * l.g.At(i, j)
			A.Set(i, j, v)
			A.Set(i, n+j, -v)
		}
		A.Set(i, 2*n+i, 1)    // ξ_i
		A.Set(i, 2*n+m+i, -1) // surplus
		b[i] = 1 - l.y[i]*l.c[i]
		cost[2*n+i] = l.zeta[i] / float64(m)
	}
	for j := range 2 * n {
		A.Set(m, j, 1)
	}
	A.Set(m, cols-1, 1)
	b[m] = tau
	opt, x, err := lp.Simplex(cost, A, b, 1e-10, nil)
	if err != nil {
		t.Fatalf("simplex: %v", err)
	}
	beta := make([]float64, n)
	for j := range beta {
		beta[j] = x[j] - x[n+j]
	}
	return opt, beta
}

// subgradientBound returns the guarantee of the projected subgradient
// method with normalised steps of lengths η_t = r/√(t+1), t < steps, from
// β₀ at distance D of a minimiser: min_t L(β_t) − L* ≤ G·(D² + Ση_t²)/(2Ση_t),
// G bounding the subgradients' norms (here (1/m) Σ_i ζ_i ||G_i||).
func subgradientBound(l *Loss, r, dist float64, n int) float64 {
	m, _ := l.g.Dims()
	var g float64
	for i := range m {
		g += l.zeta[i] * norm2(l.g.RawRowView(i))
	}
	g /= float64(m)
	var s1, s2 float64
	for t := range n {
		eta := r / math.Sqrt(float64(t+1))
		s1 += eta
		s2 += eta * eta
	}
	return g * (dist*dist + s2) / (2 * s1)
}

// TestDescentL1 compares the projected subgradient descent with the
// exact optimum of the L1-constrained problem (a linear program): the best
// iterate must be within the method's convergence guarantee of it (and in
// practice much closer), and the objective decreases: the best iterate
// improves on the start, and the iterates' mean objective falls from the
// first to the last quarter.
func TestDescentL1(t *testing.T) {
	var gaps []float64
	for _, tc := range []problemCase{
		{"2+10", 1, 12, 2, 20, 6, 1},
		{"5+10", 2, 15, 5, 20, 10, 0.1},
		{"10+10", 3, 20, 10, 40, 15, 10},
		{"2+10, 40 sources", 4, 12, 2, 30, 40, 1},
		{"5+10, 25 sources", 5, 15, 5, 30, 25, 100},
	} {
		l := setup(t, tc.seed, tc.m, tc.pos, tc.d, tc.n, tc.c)
		beta := make([]float64, tc.n)
		l0 := l.value(l.Predict(nil, beta))
		for _, tau := range grid.Tau() {
			start := l.value(l.Predict(nil, beta))
			best, val, trace, err := l.Minimise(context.Background(), beta, tau, true, steps)
			if err != nil {
				t.Fatal(err)
			}
			want, opt := lpL1Optimum(t, l, tau)
			if got := l.value(l.Predict(nil, best)); math.Abs(got-val) > 1e-12*(1+val) {
				t.Errorf("%s τ=%g: reported best %g, recomputed %g", tc.name, tau, val, got)
			}
			if norm1(best) > tau*(1+1e-12) {
				t.Errorf("%s τ=%g: ||β||₁ = %g outside the ball", tc.name, tau, norm1(best))
			}
			if val > start {
				t.Errorf("%s τ=%g: best %g above the start %g", tc.name, tau, val, start)
			}
			if val < want-1e-9 {
				t.Errorf("%s τ=%g: objective %g below the LP optimum %g", tc.name, tau, val, want)
			}
			if _, _, linear := l.linearMinimum(tau, true); linear && val > want+1e-9 {
				t.Errorf("%s τ=%g: L is linear on the ball, yet the minimum %g is above the LP optimum %g", tc.name, tau, val, want)
			}
			if val > 0 { // else an optimum was met and the descent stopped
				bound := subgradientBound(l, l.stepScale(tau), dist(beta, opt), len(trace)-1)
				if val-want > bound {
					t.Errorf("%s τ=%g: objective %g, LP optimum %g: gap above the guarantee %g", tc.name, tau, val, want, bound)
				}
			}
			if len(trace) > 100 && start-want > 1e-3 {
				q := len(trace) / 4
				if first, last := mean(trace[:q]), mean(trace[len(trace)-q:]); last >= first {
					t.Errorf("%s τ=%g: mean objective of the first quarter %g, of the last %g", tc.name, tau, first, last)
				}
			}
			gaps = append(gaps, (val-want)/math.Max(l0-want, 1e-3))
			beta = best
		}
	}
	// In practice the descent gets much closer than its guarantee: the
	// remaining gap, relative to the decrease from β = 0 the optimum
	// achieves, is below 0.1% on average and 1% at worst.
	if mg, mx := mean(gaps), slices.Max(gaps); mg > 1e-3 || mx > 1e-2 {
		t.Errorf("relative gaps to the LP optima: mean %.4f, max %.4f", mg, mx)
	}
}

func mean(v []float64) float64 { return stat.Mean(v, nil) }

// TestDescentL2 compares with brute force on two sources: the
// minimum of L over a fine polar grid of the disc ||β||₂ ≤ τ.
func TestDescentL2(t *testing.T) {
	l := setup(t, 5, 12, 3, 15, 2, 1)
	pred := make([]float64, len(l.y))
	for _, tau := range []float64{0.01, 0.1, 1, 10} {
		want := math.Inf(1)
		const rings, rays = 400, 720
		for a := 0; a <= rings; a++ {
			rho := tau * float64(a) / rings
			for b := range rays {
				phi := 2 * math.Pi * float64(b) / rays
				v := l.value(l.Predict(pred, []float64{rho * math.Cos(phi), rho * math.Sin(phi)}))
				want = math.Min(want, v)
			}
		}
		best, val, _, err := l.Minimise(context.Background(), []float64{0, 0}, tau, false, steps)
		if err != nil {
			t.Fatal(err)
		}
		if norm2(best) > tau*(1+1e-12) {
			t.Errorf("τ=%g: ||β||₂ = %g outside the ball", tau, norm2(best))
		}
		// The grid is not exact either: allow its resolution.
		if val > want+1e-3 {
			t.Errorf("τ=%g: objective %g, grid minimum %g", tau, val, want)
		}
		t.Logf("τ=%g: best %.6f grid %.6f", tau, val, want)
	}
}

// minimiseReference is the projected subgradient descent of minimise
// written plainly — ỹ = c + Gβ and g = Gᵀv by full products, β formed at
// every step — the reference for the sparse (L1) and kernel (L2) forms.
func minimiseReference(l *Loss, beta0 []float64, tau float64, l1 bool, maxSteps int) (best []float64, bestVal float64, trace []float64) {
	project := ball.ProjectL2
	if l1 {
		project = ball.ProjectL1
	}
	m, n := l.g.Dims()
	beta := make([]float64, n)
	project(beta, beta0, tau)
	pred, grad, v := make([]float64, m), make([]float64, n), make([]float64, m)
	r := l.stepScale(tau)
	bestVal = math.Inf(1)
	for t := 0; ; t++ {
		val := l.value(l.Predict(pred, beta))
		trace = append(trace, val)
		if val < bestVal {
			bestVal, best = val, append([]float64(nil), beta...)
		}
		if t == maxSteps || val == 0 {
			break
		}
		l.subgradient(grad, pred, v)
		gn := norm2(grad)
		if gn == 0 {
			break
		}
		for j := range beta {
			beta[j] -= r / (gn * math.Sqrt(float64(t+1))) * grad[j]
		}
		project(beta, beta, tau)
	}
	return best, bestVal, trace
}

// TestDescentForms: the L1 descent (sparse products) and the L2
// descent (iterates αβ₀ + Gᵀa, O(m²) a step) follow the plain descent
// step by step — same objective at every iterate up to rounding — from
// zero and from a start outside the span of Gᵀ, and return the best
// iterate with its objective. Where L is linear on the ball, minimise's
// exact minimum is at least as good as the descent's best iterate.
func TestDescentForms(t *testing.T) {
	for _, tc := range []problemCase{
		{"2+10, 6 sources", 11, 12, 2, 20, 6, 1},
		{"5+10, 40 sources", 12, 15, 5, 30, 40, 0.1},
		{"10+10, 79 sources", 13, 20, 10, 40, 79, 100},
	} {
		l := setup(t, tc.seed, tc.m, tc.pos, tc.d, tc.n, tc.c)
		rng := rand.New(rand.NewPCG(tc.seed, 7))
		outside := make([]float64, tc.n)
		for j := range outside {
			outside[j] = 0.3 * rng.NormFloat64()
		}
		for _, l1 := range []bool{true, false} {
			for _, beta0 := range [][]float64{make([]float64, tc.n), outside} {
				for _, tau := range grid.Tau() {
					descent := l.minimiseL2
					if l1 {
						descent = l.minimiseL1
					}
					best, val, trace, err := descent(context.Background(), beta0, tau, steps)
					if err != nil {
						t.Fatal(err)
					}
					_, wantVal, want := minimiseReference(l, beta0, tau, l1, steps)
					if len(trace) != len(want) {
						t.Errorf("%s l1=%v τ=%g: %d iterates, the plain descent %d", tc.name, l1, tau, len(trace), len(want))
						continue
					}
					for k := range trace {
						if math.Abs(trace[k]-want[k]) > 1e-9*(1+want[k]) {
							t.Errorf("%s l1=%v τ=%g: iterate %d has objective %.15g, the plain descent %.15g", tc.name, l1, tau, k, trace[k], want[k])
							break
						}
					}
					if math.Abs(val-wantVal) > 1e-9*(1+wantVal) {
						t.Errorf("%s l1=%v τ=%g: best %g, the plain descent %g", tc.name, l1, tau, val, wantVal)
					}
					if _, exact, ok := l.linearMinimum(tau, l1); ok && exact > val+1e-12 {
						t.Errorf("%s l1=%v τ=%g: exact minimum on a linear piece %g above the descent's %g", tc.name, l1, tau, exact, val)
					}
					if got := l.value(l.Predict(nil, best)); math.Abs(got-val) > 1e-12*(1+val) {
						t.Errorf("%s l1=%v τ=%g: reported best %g, recomputed %g", tc.name, l1, tau, val, got)
					}
					norm := norm2
					if l1 {
						norm = norm1
					}
					if norm(best) > tau*(1+1e-12) {
						t.Errorf("%s l1=%v τ=%g: ||β|| = %g outside the ball", tc.name, l1, tau, norm(best))
					}
				}
			}
		}
	}
}

// TestMinimiseStopsWhenDone: both descents check the context before every
// step; cancelled at any step, Minimise returns context.Canceled.
func TestMinimiseStopsWhenDone(t *testing.T) {
	l := setup(t, 2, 15, 5, 20, 10, 0.1)
	beta := make([]float64, 10)
	for _, l1 := range []bool{true, false} {
		all := fitctxtest.NewCountdown(math.MaxInt64)
		_, _, trace, err := l.Minimise(all, beta, 1, l1, steps)
		if err != nil {
			t.Fatal(err)
		}
		if len(trace) < 3 {
			t.Fatalf("l1=%v: %d iterates: the descent stopped at once", l1, len(trace))
		}
		// One check to start, one per iterate.
		if all.Calls() != int64(1+len(trace)) {
			t.Errorf("l1=%v: %d checks for %d iterates", l1, all.Calls(), len(trace))
		}
		for _, k := range []int64{0, 1, all.Calls() / 2, all.Calls() - 1} {
			if best, _, _, err := l.Minimise(fitctxtest.NewCountdown(k), beta, 1, l1, steps); !errors.Is(err, context.Canceled) || best != nil {
				t.Errorf("l1=%v, cancelled at check %d: err %v", l1, k+1, err)
			}
		}
	}
}

// TestMinimiseArguments: without sources (G nil, as New allows) Minimise
// returns an empty β and the constant L(0); without examples, a start of
// the wrong length or holding NaN, a negative or NaN radius and a negative
// number of steps are errors, not a panic (in package ball), a NaN β or L
// reported without one, or a descent that never stops.
func TestMinimiseArguments(t *testing.T) {
	ctx := context.Background()
	y, zeta, c := []float64{1, -1, 1, -1}, []float64{1, 1, 1, 1}, []float64{0.5, -0.2, -0.1, 0.3}
	// L(0) by its definition: (1/m) Σ ζ_i max(0, 1 − y_i c_i).
	var want float64
	for i := range y {
		want += zeta[i] * math.Max(0, 1-y[i]*c[i]) / float64(len(y))
	}
	for _, l1 := range []bool{true, false} {
		best, val, trace, err := New(y, zeta, c, nil).Minimise(ctx, nil, 1, l1, 10)
		if err != nil || len(best) != 0 || val != want || len(trace) != 1 || trace[0] != want {
			t.Errorf("no sources, l1 %v: β %v, L %v, trace %v, err %v; want β empty, L %v", l1, best, val, trace, err, want)
		}
	}
	// No examples either: L = 0/0 was returned as NaN with no error.
	for _, l1 := range []bool{true, false} {
		const want = "hinge: no examples (no offsets c)"
		if best, val, _, err := New(nil, nil, nil, nil).Minimise(ctx, nil, 1, l1, 10); err == nil || err.Error() != want {
			t.Errorf("no examples, l1 %v: β %v, L %v, err %v; want the error %q", l1, best, val, err, want)
		}
	}
	g := mat.NewDense(4, 2, []float64{1, 0, 0, 1, 1, 1, -1, 0})
	for _, tc := range []struct {
		name  string
		beta0 []float64
		tau   float64
		want  string
	}{
		{"short start", []float64{0}, 1, "hinge: 1 start weights for 2 sources"},
		{"NaN start", []float64{math.NaN(), 0}, 1, "hinge: start weight 0 is NaN"},
		{"Inf start", []float64{0, math.Inf(-1)}, 1, "hinge: start weight 1 is -Inf"},
		{"negative radius", []float64{0, 0}, -1, "hinge: radius τ = -1: want τ ≥ 0"},
		{"NaN radius", []float64{0, 0}, math.NaN(), "hinge: radius τ = NaN: want τ ≥ 0"},
		// steps < 0 never met the stopping test t == steps: the descent
		// ran, and its trace grew, until L = 0 or ctx was done (here the
		// deadline below, which keeps that from exhausting memory).
		{"negative steps", []float64{0, 0}, 1, "hinge: -1 steps: want steps ≥ 0"},
	} {
		steps := 10
		if tc.name == "negative steps" {
			steps = -1
		}
		for _, l1 := range []bool{true, false} {
			ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			best, val, _, err := New(y, zeta, c, g).Minimise(ctx, tc.beta0, tc.tau, l1, steps)
			cancel()
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s, l1 %v: β %v, L %v, err %v; want the error %q", tc.name, l1, best, val, err, tc.want)
			}
		}
	}
	// New's arguments: lengths that disagree panicked (index out of
	// range), a NaN or ±Inf value gave a NaN β with L = 0 and no error.
	nanAt := func(v []float64, i int, x float64) []float64 { v = slices.Clone(v); v[i] = x; return v }
	gBad := mat.DenseCopyOf(g)
	gBad.Set(2, 1, math.NaN())
	for _, tc := range []struct {
		name string
		loss *Loss
		want string
	}{
		{"short y", New(y[:1], zeta, c, g), "hinge: 1 labels and 4 weights for 4 offsets c"},
		{"short ζ", New(y, zeta[:3], c, g), "hinge: 4 labels and 3 weights for 4 offsets c"},
		{"G rows", New(y[:3], zeta[:3], c[:3], g), "hinge: G has 4 rows for 3 offsets c"},
		{"NaN in G", New(y, zeta, c, gBad), "hinge: G row 2 column 1 is NaN"},
		{"Inf offset", New(y, zeta, nanAt(c, 1, math.Inf(1)), g), "hinge: offset row 1 is +Inf"},
		{"NaN weight", New(y, nanAt(zeta, 0, math.NaN()), c, g), "hinge: weight row 0 is NaN"},
		{"NaN label", New(nanAt(y, 3, math.NaN()), zeta, c, g), "hinge: label row 3 is NaN"},
	} {
		for _, l1 := range []bool{true, false} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s, l1 %v: panic %v", tc.name, l1, r)
					}
				}()
				best, val, _, err := tc.loss.Minimise(ctx, []float64{0, 0}, 1, l1, 10)
				if err == nil || err.Error() != tc.want {
					t.Errorf("%s, l1 %v: β %v, L %v, err %v; want the error %q", tc.name, l1, best, val, err, tc.want)
				}
			}()
		}
	}
}

// TestMinimiseChecksOnce: New's arguments are checked at the first
// Minimise only, and every later call returns the first call's verdict
// (New's arguments must not change): a Loss whose offset was NaN at its
// first call still returns that error after the offset is made finite,
// where a check at every call would now pass.
func TestMinimiseChecksOnce(t *testing.T) {
	ctx := context.Background()
	y, zeta := []float64{1, -1, 1, -1}, []float64{1, 1, 1, 1}
	g := mat.NewDense(4, 2, []float64{1, 0, 0, 1, 1, 1, -1, 0})
	const want = "hinge: offset row 1 is NaN"
	for _, l1 := range []bool{true, false} {
		c := []float64{0.5, math.NaN(), -0.1, 0.3}
		l := New(y, zeta, c, g)
		if _, _, _, err := l.Minimise(ctx, []float64{0, 0}, 1, l1, 10); err == nil || err.Error() != want {
			t.Fatalf("l1 %v: first call's error %v, want %q", l1, err, want)
		}
		c[1] = -0.2 // against New's contract, so that a second check would pass
		for call := 2; call <= 3; call++ {
			if _, _, _, err := l.Minimise(ctx, []float64{0, 0}, 1, l1, 10); err == nil || err.Error() != want {
				t.Errorf("l1 %v, call %d: error %v, want the first call's %q", l1, call, err, want)
			}
		}
		// The same arguments, finite from the start: no error.
		if _, _, _, err := New(y, zeta, c, g).Minimise(ctx, []float64{0, 0}, 1, l1, 10); err != nil {
			t.Errorf("l1 %v: finite arguments: %v", l1, err)
		}
	}
}

// TestMinimiseView: G may be a view into a larger matrix (its rows Stride
// apart, other values between them): Minimise reads only G's own
// elements, so a view whose surroundings are NaN gives bit for bit the
// result of a contiguous copy.
func TestMinimiseView(t *testing.T) {
	l := setup(t, 3, 30, 10, 6, 5, 1)
	m, n := l.g.Dims()
	big := mat.NewDense(m+2, n+3, nil)
	for i := range m + 2 {
		for j := range n + 3 {
			big.Set(i, j, math.NaN())
		}
	}
	view := big.Slice(1, m+1, 1, n+1).(*mat.Dense)
	view.Copy(l.g)
	ctx := context.Background()
	for _, l1 := range []bool{true, false} {
		for _, tau := range []float64{0.5, 5} {
			want, wantVal, wantTrace, err := New(l.y, l.zeta, l.c, mat.DenseCopyOf(l.g)).Minimise(ctx, make([]float64, n), tau, l1, 50)
			if err != nil {
				t.Fatal(err)
			}
			got, gotVal, gotTrace, err := New(l.y, l.zeta, l.c, view).Minimise(ctx, make([]float64, n), tau, l1, 50)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || gotVal != wantVal || !slices.Equal(gotTrace, wantTrace) {
				t.Errorf("l1 %v, τ = %v: on a view β = %v (L = %v), on a copy β = %v (L = %v)", l1, tau, got, gotVal, want, wantVal)
			}
		}
	}
}

// TestValueRefusesBadInput: Value returns an error, as Minimise does, for
// a loss of no examples (it returned 0/0 = NaN) or of labels or weights
// not one per offset (Minimise's messages), and for predictions not
// one per example (fewer were averaged as if the loss had that many
// examples; more panicked), and L itself otherwise.
func TestValueRefusesBadInput(t *testing.T) {
	if v, err := New(nil, nil, nil, nil).Value(nil); err == nil || err.Error() != "hinge: no examples (no offsets c)" {
		t.Errorf("Value of no examples: %v, %v; want the error", v, err)
	}
	if v, err := New([]float64{1}, []float64{1, 3}, []float64{0, 0}, nil).Value([]float64{0, 0}); err == nil || err.Error() != "hinge: 1 labels and 2 weights for 2 offsets c" {
		t.Errorf("Value with one label for two offsets: %v, %v; want the error", v, err)
	}
	l := New([]float64{1, -1}, []float64{1, 3}, []float64{0, 0}, nil)
	for _, pred := range [][]float64{{0}, {0, 0, 0}} {
		want := fmt.Sprintf("hinge: %d predictions for 2 examples", len(pred))
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Value(%v) panicked: %v", pred, r)
				}
			}()
			if v, err := l.Value(pred); err == nil || err.Error() != want {
				t.Errorf("Value(%v): %v, %v; want the error %q", pred, v, err, want)
			}
		}()
	}
	// L = (1·max(0, 1 − 0.5) + 3·max(0, 1 − 2))/2 = 0.25
	if v, err := l.Value([]float64{0.5, -2}); err != nil || v != 0.25 {
		t.Errorf("Value((0.5, −2)) = %v, %v; want 0.25", v, err)
	}
}
