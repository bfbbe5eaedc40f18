package method

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/ball"
	"github.com/greedytl/greedytl/internal/kerneltest"
	"github.com/greedytl/greedytl/lssvm"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// ktSetup standardises a synthetic problem and returns y, ζ, K, Zh.
func ktSetup(t *testing.T, seed uint64, m, pos, d, n int) (y, zeta []float64, gram *mat.SymDense, zh *mat.Dense) {
	t.Helper()
	data := syntheticTransfer(seed, m, pos, d, n, 1)
	zx, err := standardize.Fit(data.X).Transform(data.X)
	if err != nil {
		t.Fatal(err)
	}
	zh, err = standardize.Fit(data.H).Transform(data.H)
	if err != nil {
		t.Fatal(err)
	}
	return data.Y, lssvm.BalanceWeights(data.Y), lssvm.Gram(zx, m), zh
}

// lpL1Optimum minimises L over ||β||₁ ≤ tau exactly, as the linear program
// min (1/m) Σ ζ_i ξ_i s.t. ξ_i ≥ 1 − y_i(c_i + G_i(β⁺ − β⁻)),
// Σ(β⁺ + β⁻) ≤ tau, β±, ξ ≥ 0 (with slack variables for standard form). It
// returns the optimal value and a minimiser.
func lpL1Optimum(t *testing.T, l *looHinge, tau float64) (float64, []float64) {
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
func subgradientBound(l *looHinge, r, dist float64, steps int) float64 {
	m, _ := l.g.Dims()
	var g float64
	for i := range m {
		g += l.zeta[i] * norm2(l.g.RawRowView(i))
	}
	g /= float64(m)
	var s1, s2 float64
	for t := range steps {
		eta := r / math.Sqrt(float64(t+1))
		s1 += eta
		s2 += eta * eta
	}
	return g * (dist*dist + s2) / (2 * s1)
}

// TestMultiKTDescentL1 compares the projected subgradient descent with the
// exact optimum of the L1-constrained problem (a linear program): the best
// iterate must be within the method's convergence guarantee of it (and in
// practice much closer), and the objective decreases: the best iterate
// improves on the start, and the iterates' mean objective falls from the
// first to the last quarter.
func TestMultiKTDescentL1(t *testing.T) {
	var gaps []float64
	for _, tc := range []struct {
		name         string
		seed         uint64
		m, pos, d, n int
		c            float64
	}{
		{"2+10", 1, 12, 2, 20, 6, 1},
		{"5+10", 2, 15, 5, 20, 10, 0.1},
		{"10+10", 3, 20, 10, 40, 15, 10},
		{"2+10, 40 sources", 4, 12, 2, 30, 40, 1},
		{"5+10, 25 sources", 5, 15, 5, 30, 25, 100},
	} {
		y, zeta, gram, zh := ktSetup(t, tc.seed, tc.m, tc.pos, tc.d, tc.n)
		sys, err := lssvm.NewSystem(gram, zeta, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		l := newLOOHinge(sys, y, zeta, zh)
		beta := make([]float64, tc.n)
		l0 := l.value(l.predict(nil, beta))
		for _, tau := range tauGrid {
			start := l.value(l.predict(nil, beta))
			best, val, trace := l.minimise(beta, tau, true, multiKTSteps)
			want, opt := lpL1Optimum(t, l, tau)
			if got := l.value(l.predict(nil, best)); math.Abs(got-val) > 1e-12*(1+val) {
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

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// TestMultiKTDescentL2 compares with brute force on two sources: the
// minimum of L over a fine polar grid of the disc ||β||₂ ≤ τ.
func TestMultiKTDescentL2(t *testing.T) {
	y, zeta, gram, zh := ktSetup(t, 5, 12, 3, 15, 2)
	sys, err := lssvm.NewSystem(gram, zeta, 1)
	if err != nil {
		t.Fatal(err)
	}
	l := newLOOHinge(sys, y, zeta, zh)
	pred := make([]float64, len(y))
	for _, tau := range []float64{0.01, 0.1, 1, 10} {
		want := math.Inf(1)
		const rings, rays = 400, 720
		for a := 0; a <= rings; a++ {
			rho := tau * float64(a) / rings
			for b := range rays {
				phi := 2 * math.Pi * float64(b) / rays
				v := l.value(l.predict(pred, []float64{rho * math.Cos(phi), rho * math.Sin(phi)}))
				want = math.Min(want, v)
			}
		}
		best, val, _ := l.minimise([]float64{0, 0}, tau, false, multiKTSteps)
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
func minimiseReference(l *looHinge, beta0 []float64, tau float64, l1 bool, steps int) (best []float64, bestVal float64, trace []float64) {
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
		val := l.value(l.predict(pred, beta))
		trace = append(trace, val)
		if val < bestVal {
			bestVal, best = val, append([]float64(nil), beta...)
		}
		if t == steps || val == 0 {
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

// TestMultiKTDescentForms: the L1 descent (sparse products) and the L2
// descent (iterates αβ₀ + Gᵀa, O(m²) a step) follow the plain descent
// step by step — same objective at every iterate up to rounding — from
// zero and from a start outside the span of Gᵀ, and return the best
// iterate with its objective. Where L is linear on the ball, minimise's
// exact minimum is at least as good as the descent's best iterate.
func TestMultiKTDescentForms(t *testing.T) {
	for _, tc := range []struct {
		name         string
		seed         uint64
		m, pos, d, n int
		c            float64
	}{
		{"2+10, 6 sources", 11, 12, 2, 20, 6, 1},
		{"5+10, 40 sources", 12, 15, 5, 30, 40, 0.1},
		{"10+10, 79 sources", 13, 20, 10, 40, 79, 100},
	} {
		y, zeta, gram, zh := ktSetup(t, tc.seed, tc.m, tc.pos, tc.d, tc.n)
		sys, err := lssvm.NewSystem(gram, zeta, tc.c)
		if err != nil {
			t.Fatal(err)
		}
		l := newLOOHinge(sys, y, zeta, zh)
		rng := rand.New(rand.NewPCG(tc.seed, 7))
		outside := make([]float64, tc.n)
		for j := range outside {
			outside[j] = 0.3 * rng.NormFloat64()
		}
		for _, l1 := range []bool{true, false} {
			for _, beta0 := range [][]float64{make([]float64, tc.n), outside} {
				for _, tau := range tauGrid {
					descent := l.minimiseL2
					if l1 {
						descent = l.minimiseL1
					}
					best, val, trace := descent(beta0, tau, multiKTSteps)
					_, wantVal, want := minimiseReference(l, beta0, tau, l1, multiKTSteps)
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
					if got := l.value(l.predict(nil, best)); math.Abs(got-val) > 1e-12*(1+val) {
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

func TestMultiKTFit(t *testing.T) {
	for _, name := range []string{"multikt-l2", "multikt-l1"} {
		t.Run(name, func(t *testing.T) {
			meth, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			// 5 positives + 10 negatives for training, 200 test examples;
			// source 0 carries the label, the 9 others are noise, and the
			// features are weakly informative.
			all := syntheticTransfer(11, 215, 105, 30, 10, 2)
			var trainRows, testRows []int
			for i := range 215 {
				if i < 5 || (i >= 105 && i < 115) {
					trainRows = append(trainRows, i)
				} else {
					testRows = append(testRows, i)
				}
			}
			train, test := selectRows(all, trainRows), selectRows(all, testRows)
			model, err := meth.Fit(context.Background(), train, Extra{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			f, err := model.Predict(test)
			if err != nil {
				t.Fatal(err)
			}
			acc := balancedAcc(t, f, test.Y)
			hp := model.Hyperparameters()
			sw := model.SourceWeights()
			t.Logf("balanced accuracy %.3f, hyperparameters %v, β₀ = %.3g, |β|₁ = %.3g", acc, hp, sw[0], norm1(sw))
			if acc < 0.8 {
				t.Errorf("balanced accuracy %.3f, want ≥ 0.8", acc)
			}
			if len(sw) != 10 || sw[0] <= 0 {
				t.Errorf("source weights %v: want 10 with the informative source positive", sw)
			}
			for j := 1; j < len(sw); j++ {
				if math.Abs(sw[j]) >= sw[0] {
					t.Errorf("noise source %d has weight %g ≥ the informative source's %g", j, sw[j], sw[0])
				}
			}
			if _, ok := hp["C"]; !ok {
				t.Errorf("hyperparameters %v lack C", hp)
			}
			if _, ok := hp["tau"]; !ok {
				t.Errorf("hyperparameters %v lack tau", hp)
			}
		})
	}
}

// TestMultiKTPredictMatchesLSSVM checks the fitted model against the
// LS-SVM solution at its hyperparameters: on the training sample, the
// model's scores are y − α/(Cζ) (the LS-SVM's optimality conditions).
func TestMultiKTPredictMatchesLSSVM(t *testing.T) {
	train := syntheticTransfer(21, 15, 5, 12, 6, 1)
	meth, _ := New("multikt-l2")
	model, err := meth.Fit(context.Background(), train, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Predict(train)
	if err != nil {
		t.Fatal(err)
	}
	lin := model.(*Linear)
	c := lin.Hyper["C"]
	zeta := lssvm.BalanceWeights(train.Y)
	zx, _ := lin.X.Transform(train.X)
	zh, _ := lin.H.Transform(train.H)
	gram := lssvm.Gram(zx, 15)
	r := make([]float64, 15)
	mat.NewVecDense(15, r).MulVec(zh, mat.NewVecDense(6, lin.WH))
	for i := range r {
		r[i] = train.Y[i] - r[i]
	}
	alpha, _ := kerneltest.LSSVMDirect(t, gram, zeta, c, r, nil)
	for i := range f {
		want := train.Y[i] - alpha[i]/(c*zeta[i])
		if !near(f[i], want, 1e-8, math.Abs(want)) {
			t.Errorf("score %d = %g, LS-SVM optimality gives %g", i, f[i], want)
		}
	}
}

// TestMultiKTEdgeCases: no sources, no features, a single positive,
// duplicated and constant columns give finite models.
func TestMultiKTEdgeCases(t *testing.T) {
	base := syntheticTransfer(31, 12, 2, 10, 5, 1.5)
	dup := syntheticTransfer(31, 12, 2, 10, 5, 1.5)
	dense(dup.X).SetCol(1, mat.Col(nil, 0, dup.X))
	dense(dup.H).SetCol(1, mat.Col(nil, 0, dup.H))
	constant := syntheticTransfer(31, 12, 2, 10, 5, 1.5)
	dense(constant.X).SetCol(2, make([]float64, 12))
	dense(constant.H).SetCol(2, []float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	for _, tc := range []struct {
		name    string
		data    Data
		sources int
	}{
		{"no sources", Data{X: base.X, Y: base.Y}, 0},
		{"no features", Data{H: base.H, Y: base.Y}, 5},
		{"single positive", syntheticTransfer(32, 11, 1, 10, 5, 1.5), 5},
		{"duplicated columns", dup, 5},
		{"constant columns", constant, 5},
	} {
		for _, name := range []string{"multikt-l2", "multikt-l1"} {
			meth, _ := New(name)
			model, err := meth.Fit(context.Background(), tc.data, Extra{})
			if err != nil {
				t.Errorf("%s %s: %v", name, tc.name, err)
				continue
			}
			f, err := model.Predict(tc.data)
			if err != nil {
				t.Errorf("%s %s: predict: %v", name, tc.name, err)
				continue
			}
			if acc := balancedAcc(t, f, tc.data.Y); acc < 0.75 {
				t.Errorf("%s %s: training balanced accuracy %.3f", name, tc.name, acc)
			}
			if got := len(model.SourceWeights()); got != tc.sources {
				t.Errorf("%s %s: %d source weights, want %d", name, tc.name, got, tc.sources)
			}
			_, hasTau := model.Hyperparameters()["tau"]
			if hasTau != (tc.sources > 0) {
				t.Errorf("%s %s: hyperparameters %v", name, tc.name, model.Hyperparameters())
			}
			if tc.name == "constant columns" {
				lin := model.(*Linear)
				if lin.WX[2] != 0 || lin.WH[2] != 0 {
					t.Errorf("%s: constant columns have weights %g, %g", name, lin.WX[2], lin.WH[2])
				}
			}
		}
	}
}
