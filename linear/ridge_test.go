package linear

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/fitctx/fitctxtest"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// ridgeRandom returns an m × d matrix of N(0,1) entries plus offset, and
// targets from a random linear model with noise.
func ridgeRandom(seed uint64, m, d int, offset float64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, seed))
	x := mat.NewDense(m, d, nil)
	y := make([]float64, m)
	for j := range d {
		wj := rng.NormFloat64()
		for i := range m {
			v := rng.NormFloat64()
			x.Set(i, j, v+offset)
			y[i] += wj * v
		}
	}
	for i := range y {
		y[i] += 0.3*rng.NormFloat64() + 2
	}
	return x, y
}

// ridgeDirect is the reference solution by a direct (LU) solve of the
// problem's linear optimality system in its well-conditioned form: the
// normal equations of the augmented problem ([X 1], penalty
// diag(λ,…,λ,0)) when d < m, else the bordered dual (LS-SVM) system
// [[XXᵀ+λI, 1], [1ᵀ, 0]]·[α; b] = [y; 0], w = Xᵀα.
func ridgeDirect(t *testing.T, x mat.Matrix, y []float64, lambda float64, intercept bool) (w []float64, b float64) {
	t.Helper()
	m, d := x.Dims()
	if d >= m {
		n := m
		if intercept {
			n++
		}
		g := mat.NewDense(n, n, nil)
		var k mat.Dense
		k.Mul(x, x.T())
		for i := range m {
			for j := range m {
				g.Set(i, j, k.At(i, j))
			}
			g.Set(i, i, g.At(i, i)+lambda)
			if intercept {
				g.Set(i, m, 1)
				g.Set(m, i, 1)
			}
		}
		rhs := mat.NewVecDense(n, nil)
		for i := range m {
			rhs.SetVec(i, y[i])
		}
		var sol mat.VecDense
		if err := sol.SolveVec(g, rhs); err != nil {
			t.Fatalf("direct solve: %v", err)
		}
		var wv mat.VecDense
		wv.MulVec(x.T(), sol.SliceVec(0, m))
		if intercept {
			b = sol.AtVec(m)
		}
		return wv.RawVector().Data, b
	}
	n := d
	if intercept {
		n++
	}
	a := mat.NewDense(m, n, nil)
	for i := range m {
		for j := range d {
			a.Set(i, j, x.At(i, j))
		}
		if intercept {
			a.Set(i, d, 1)
		}
	}
	var g mat.Dense
	g.Mul(a.T(), a)
	for j := range d {
		g.Set(j, j, g.At(j, j)+lambda)
	}
	var rhs, theta mat.VecDense
	rhs.MulVec(a.T(), mat.NewVecDense(m, y))
	if err := theta.SolveVec(&g, &rhs); err != nil {
		t.Fatalf("direct solve: %v", err)
	}
	w = theta.RawVector().Data[:d]
	if intercept {
		b = theta.AtVec(d)
	}
	return w, b
}

// ridgeBruteLOO refits without each row in turn.
func ridgeBruteLOO(t *testing.T, x *mat.Dense, y []float64, lambda float64, intercept bool) []float64 {
	m, d := x.Dims()
	loo := make([]float64, m)
	for i := range m {
		sub := mat.NewDense(m-1, d, nil)
		var ys []float64
		r := 0
		for k := range m {
			if k == i {
				continue
			}
			sub.SetRow(r, x.RawRowView(k))
			ys = append(ys, y[k])
			r++
		}
		w, b := ridgeDirect(t, sub, ys, lambda, intercept)
		loo[i] = y[i] - (mat.Dot(x.RowView(i), mat.NewVecDense(d, w)) + b)
	}
	return loo
}

// relClose reports whether max|a−b| ≤ tol·(1 + max|b|).
func relClose(a, b []float64, tol float64) (float64, bool) {
	var diff, scale float64
	for j := range a {
		diff = max(diff, math.Abs(a[j]-b[j]))
		scale = max(scale, math.Abs(b[j]))
	}
	return diff / (1 + scale), diff <= tol*(1+scale)
}

// ridgeCase is a random ridge problem of m rows and d columns whose columns
// are offset from 0 by offset.
type ridgeCase struct {
	m, d   int
	offset float64
}

var ridgeCases = []ridgeCase{
	{30, 5, 0},   // primal
	{25, 24, 3},  // primal, nearly square
	{20, 20, 0},  // dual, square
	{12, 40, 5},  // dual
	{8, 300, -2}, // dual, the baselines' regime
}

// eachRidgeCase runs f as a subtest on every case of ridgeCases, without
// and with an intercept, at every λ of lambdas.
func eachRidgeCase(t *testing.T, lambdas []float64, f func(t *testing.T, tc ridgeCase, intercept bool, lambda float64)) {
	for _, tc := range ridgeCases {
		for _, intercept := range []bool{false, true} {
			for _, lambda := range lambdas {
				name := fmt.Sprintf("m%d_d%d_icpt%v_lambda%g", tc.m, tc.d, intercept, lambda)
				t.Run(name, func(t *testing.T) { f(t, tc, intercept, lambda) })
			}
		}
	}
}

func TestFitRidgeFormsAgree(t *testing.T) {
	eachRidgeCase(t, []float64{1e-3, 1, 100}, func(t *testing.T, tc ridgeCase, intercept bool, lambda float64) {
		x, y := ridgeRandom(uint64(tc.m*1000+tc.d), tc.m, tc.d, tc.offset)
		wRef, bRef := ridgeDirect(t, x, y, lambda, intercept)
		// The primal system of a wide X and the dual system of
		// a tall X are singular up to λ: forced onto such data,
		// a form is only as accurate as λ lets it be.
		forms := []ridgeForm{ridgeAuto}
		if lambda >= 1 {
			forms = append(forms, ridgePrimal, ridgeDual)
		}
		for _, form := range forms {
			model, err := fitRidge(context.Background(), x, y, lambda, intercept, form)
			if err != nil {
				t.Fatalf("form %d: %v", form, err)
			}
			if e, ok := relClose(append(model.W, model.B), append(wRef, bRef), 1e-10); !ok {
				t.Errorf("form %d: weights differ from the normal equations by %.3g (relative)", form, e)
			}
			pred, err := model.Predict(x)
			if err != nil {
				t.Fatal(err)
			}
			if e, ok := relClose(model.Fitted, pred, 1e-10); !ok {
				t.Errorf("form %d: Fitted differs from Predict by %.3g", form, e)
			}
			if !intercept && model.B != 0 {
				t.Errorf("form %d: B = %g without intercept", form, model.B)
			}
		}
	})
}

func TestFitRidgeLOO(t *testing.T) {
	eachRidgeCase(t, []float64{1e-2, 1, 100}, func(t *testing.T, tc ridgeCase, intercept bool, lambda float64) {
		x, y := ridgeRandom(uint64(tc.m+tc.d), tc.m, tc.d, tc.offset)
		want := ridgeBruteLOO(t, x, y, lambda, intercept)
		for _, form := range []ridgeForm{ridgePrimal, ridgeDual} {
			model, err := fitRidge(context.Background(), x, y, lambda, intercept, form)
			if err != nil {
				t.Fatal(err)
			}
			if e, ok := relClose(model.LOO, want, 1e-9); !ok {
				t.Errorf("form %d: LOO residuals differ from refits by %.3g (relative)", form, e)
			}
		}
	})
}

func TestRidgeLOOPath(t *testing.T) {
	lambdas := []float64{1e-3, 1e-2, 0.1, 1, 10, 100, 1e3, 1e4}
	for _, tc := range ridgeCases {
		for _, intercept := range []bool{false, true} {
			t.Run(fmt.Sprintf("m%d_d%d_icpt%v", tc.m, tc.d, intercept), func(t *testing.T) {
				x, y := ridgeRandom(uint64(7*tc.m+tc.d), tc.m, tc.d, tc.offset)
				for _, form := range []ridgeForm{ridgeAuto, ridgePrimal, ridgeDual} {
					path, err := ridgeLOOPath(context.Background(), x, y, lambdas, intercept, form)
					if err != nil {
						t.Fatalf("form %d: %v", form, err)
					}
					if len(path) != len(lambdas) {
						t.Fatalf("form %d: %d points", form, len(path))
					}
					for k, pt := range path {
						if pt.Lambda != lambdas[k] {
							t.Errorf("point %d has λ %g, want %g", k, pt.Lambda, lambdas[k])
						}
						model, err := FitRidge(context.Background(), x, y, pt.Lambda, intercept)
						if err != nil {
							t.Fatal(err)
						}
						if e, ok := relClose(pt.LOO, model.LOO, 1e-9); !ok {
							t.Errorf("form %d λ=%g: path LOO differs from FitRidge's by %.3g", form, pt.Lambda, e)
						}
					}
				}
			})
		}
	}
}

// TestFitRidgeInterceptShift: the intercept is unpenalised, so shifting y by
// a constant shifts B and leaves W, the residuals and the LOO residuals alone.
func TestFitRidgeInterceptShift(t *testing.T) {
	for _, tc := range ridgeCases {
		x, y := ridgeRandom(3, tc.m, tc.d, tc.offset)
		shifted := make([]float64, len(y))
		for i := range y {
			shifted[i] = y[i] + 50
		}
		a, err1 := FitRidge(context.Background(), x, y, 0.5, true)
		b, err2 := FitRidge(context.Background(), x, shifted, 0.5, true)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if e, ok := relClose(b.W, a.W, 1e-10); !ok {
			t.Errorf("m%d d%d: W moved by %.3g", tc.m, tc.d, e)
		}
		if math.Abs(b.B-a.B-50) > 1e-9 {
			t.Errorf("m%d d%d: B moved by %.12g, want 50", tc.m, tc.d, b.B-a.B)
		}
		if e, ok := relClose(b.LOO, a.LOO, 1e-10); !ok {
			t.Errorf("m%d d%d: LOO moved by %.3g", tc.m, tc.d, e)
		}
	}
}

// huge returns a copy of a times 1e300.
func huge(a mat.Matrix) *mat.Dense {
	var h mat.Dense
	h.Scale(1e300, a)
	return &h
}

func TestRidgeErrors(t *testing.T) {
	x, y := ridgeRandom(1, 10, 4, 0)
	nanX := mat.DenseCopyOf(x)
	nanX.Set(2, 3, math.NaN())
	infY := append([]float64(nil), y...)
	infY[5] = math.Inf(1)
	// Row 0 alone has a non-zero in column 0: its leverage tends to 1 as
	// λ → 0 (primal form, d < m).
	lev := mat.NewDense(10, 3, nil)
	for i := range 10 {
		lev.Set(i, 1, float64(i))
		lev.Set(i, 2, float64(i*i%7))
	}
	lev.Set(0, 0, 1)
	// Identical rows make XXᵀ singular: a tiny λ is ill-conditioned (dual).
	dup := mat.NewDense(5, 10, nil)
	for i := range 5 {
		for j := range 10 {
			dup.Set(i, j, float64(j+1))
		}
	}
	for _, tc := range []struct {
		name      string
		x         mat.Matrix
		y         []float64
		lambda    float64
		intercept bool
		want      string
	}{
		{"nil X", nil, y, 1, false, "linear: ridge: nil X"},
		{"typed nil X", (*mat.Dense)(nil), y, 1, false, "linear: ridge: nil X (*mat.Dense)"},                   // panicked
		{"transposed typed nil X", (*mat.Dense)(nil).T(), y, 1, false, "linear: ridge: nil X (mat.Transpose)"}, // panicked
		{"NaN in X", nanX, y, 1, false, "linear: ridge: X row 2 column 3 is NaN"},
		{"Inf in y", x, infY, 1, true, "linear: ridge: y row 5 is +Inf"},
		{"short y", x, y[:9], 1, false, "targets"},
		{"empty X", &mat.Dense{}, nil, 1, false, "at least one row"},
		{"λ = 0", x, y, 0, false, "λ"},
		{"λ < 0", x, y, -1, false, "λ"},
		{"λ NaN", x, y, math.NaN(), false, "λ"},
		{"λ Inf", x, y, math.Inf(1), false, "λ"},
		{"intercept, one row", mat.NewDense(1, 3, []float64{1, 2, 3}), []float64{1}, 1, true, "2 rows"},
		{"leverage 1", lev, y, 1e-12, false, "leverage"},
		{"singular Gram", dup, y[:5], 1e-13, false, "ill-conditioned"},
		// XᵀX and XXᵀ overflow to +Inf: reported as an overflow of the
		// matrix named, not as "ill-conditioned (condition number +Inf)".
		{"X × 1e300, primal", huge(x), y, 1, false, "the Gram matrix XᵀX overflowed (entry 0, 0 is +Inf)"},
		{"X × 1e300, primal, intercept", huge(x), y, 1, true, "the Gram matrix XᵀX overflowed"},
		{"X × 1e300, dual", huge(dup), y[:5], 1, false, "the Gram matrix XXᵀ overflowed (entry 0, 0 is +Inf)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitRidge(context.Background(), tc.x, tc.y, tc.lambda, tc.intercept)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("FitRidge: error %v, want one mentioning %q", err, tc.want)
			}
			_, err = RidgeLOOPath(context.Background(), tc.x, tc.y, []float64{1, tc.lambda}, tc.intercept)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("RidgeLOOPath: error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := RidgeLOOPath(context.Background(), x, y, nil, false); err == nil {
		t.Error("RidgeLOOPath with no λ: no error")
	}
	// Nil cross-products and a RidgeLOO not built by NewRidgeLOO: errors,
	// not the nil-pointer panics they were.
	noPanic := func(what, want string, f func() error) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: panic %v", what, r)
			}
		}()
		if err := f(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", what, err, want)
		}
	}
	ctx := context.Background()
	noPanic("RidgeFromProducts of nil", "linear: ridge: nil cross-products", func() error { _, err := RidgeFromProducts(ctx, nil, []float64{1}, 1); return err })
	noPanic("RidgeFromProducts of a nil *SymDense", "linear: ridge: nil cross-products (*mat.SymDense)", func() error {
		_, err := RidgeFromProducts(ctx, (*mat.SymDense)(nil), []float64{1}, 1)
		return err
	})
	// A nil argument's message, exactly: with its type when it is a typed
	// nil (typednil.Matrix).
	_, errX := FitRidge(ctx, nil, y, 1, false)
	_, errTypedX := FitRidge(ctx, (*mat.Dense)(nil), y, 1, false)
	_, errA := RidgeFromProducts(ctx, nil, []float64{1}, 1)
	_, errTypedA := RidgeFromProducts(ctx, (*mat.SymDense)(nil), []float64{1}, 1)
	for i, want := range []string{"linear: ridge: nil X", "linear: ridge: nil X (*mat.Dense)", "linear: ridge: nil cross-products", "linear: ridge: nil cross-products (*mat.SymDense)"} {
		if err := []error{errX, errTypedX, errA, errTypedA}[i]; err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	}
	for _, rl := range []*RidgeLOO{nil, {}} {
		const want = "a RidgeLOO not built by NewRidgeLOO"
		noPanic(fmt.Sprintf("%#v.Weights", rl), want, func() error { _, _, err := rl.Weights(ctx, 1); return err })
		noPanic(fmt.Sprintf("%#v.Path", rl), want, func() error { _, err := rl.Path(ctx, []float64{1}); return err })
		noPanic(fmt.Sprintf("%#v.SubsetWeights", rl), want, func() error { _, _, err := rl.SubsetWeights(ctx, []int{0, 1}, 1); return err })
	}
}

func TestRidgePredictErrors(t *testing.T) {
	x, y := ridgeRandom(2, 10, 4, 0)
	model, err := FitRidge(context.Background(), x, y, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.Predict(mat.NewDense(2, 3, nil)); err == nil {
		t.Error("wrong column count: no error")
	}
	bad := mat.NewDense(2, 4, nil)
	bad.Set(1, 2, math.NaN())
	if _, err := model.Predict(bad); err == nil {
		t.Error("NaN input: no error")
	}
	var nilModel *RidgeModel
	if _, err := nilModel.Predict(x); err == nil {
		t.Error("nil model: no error")
	}
	// A nil X, untyped or typed, is FitRidge's error (a typed nil
	// panicked).
	for _, tc := range []struct {
		x    mat.Matrix
		want string
	}{
		{nil, "linear: ridge: nil X"},
		{(*mat.Dense)(nil), "linear: ridge: nil X (*mat.Dense)"},
		{(*mat.VecDense)(nil), "linear: ridge: nil X (*mat.VecDense)"},
		{(*mat.Dense)(nil).T(), "linear: ridge: nil X (mat.Transpose)"},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Predict(%#v): panic %v", tc.x, r)
				}
			}()
			if _, err := model.Predict(tc.x); err == nil || err.Error() != tc.want {
				t.Errorf("Predict(%#v): error %v, want %q", tc.x, err, tc.want)
			}
		}()
	}
	handBuilt := &RidgeModel{W: []float64{1, math.NaN(), 0, 0}}
	if _, err := handBuilt.Predict(x); err == nil {
		t.Error("a NaN weight: no error")
	}
}

func ExampleFitRidge() {
	x := mat.NewDense(5, 1, []float64{1, 2, 3, 4, 5})
	y := []float64{1.1, 1.9, 3.2, 3.9, 5.1}
	model, err := FitRidge(context.Background(), x, y, 0.1, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("w = %.4f, b = %.4f\n", model.W[0], model.B)
	fmt.Printf("LOO residuals: %.3f\n", model.LOO)
	// Output:
	// w = 0.9901, b = 0.0697
	// LOO residuals: [0.100 -0.214 0.200 -0.186 0.198]
}

func BenchmarkRidgeLOOPath(b *testing.B) {
	for _, d := range []int{100, 1800, 5000} {
		b.Run(fmt.Sprintf("m20_d%d", d), func(b *testing.B) {
			x, y := ridgeRandom(1, 20, d, 0)
			lambdas := []float64{1e-4, 1e-3, 1e-2, 0.1, 1, 10, 100, 1e3, 1e4}
			b.ResetTimer()
			for range b.N {
				if _, err := RidgeLOOPath(context.Background(), x, y, lambdas, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestRidgeInputsUnmodified(t *testing.T) {
	for _, tc := range ridgeCases {
		x, y := ridgeRandom(9, tc.m, tc.d, tc.offset)
		x0, y0 := mat.DenseCopyOf(x), append([]float64(nil), y...)
		lambdas := []float64{10, 0.1}
		if _, err := FitRidge(context.Background(), x, y, 1, true); err != nil {
			t.Fatal(err)
		}
		if _, err := RidgeLOOPath(context.Background(), x, y, lambdas, true); err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(x, x0) || fmt.Sprint(y) != fmt.Sprint(y0) || lambdas[0] != 10 || lambdas[1] != 0.1 {
			t.Errorf("m%d d%d: inputs modified", tc.m, tc.d)
		}
	}
}

// TestRidgeStopsWhenDone: FitRidge, FitRidgeWeights, RidgeLOOPath and RidgeLOO's methods check their context
// between their phases (and RidgeLOOPath for every λ), in both forms;
// cancelled at any check, or during any matrix operation (BLAS call), they
// return context.Canceled.
func TestRidgeStopsWhenDone(t *testing.T) {
	lambdas := []float64{0.1, 1, 10}
	for _, shape := range [][2]int{{10, 4}, {4, 10}} { // primal, dual
		x, y := ridgeRandom(3, shape[0], shape[1], 0)
		for _, intercept := range []bool{false, true} {
			for name, fit := range map[string]func(ctx context.Context) (any, error){
				"FitRidge": func(ctx context.Context) (any, error) { return FitRidge(ctx, x, y, 1, intercept) },
				"FitRidgeWeights": func(ctx context.Context) (any, error) {
					w, _, err := FitRidgeWeights(ctx, x, y, 1, intercept)
					return w, err
				},
				"RidgeLOOPath": func(ctx context.Context) (any, error) {
					return RidgeLOOPath(ctx, x, y, lambdas, intercept)
				},
				"RidgeLOO.Weights": func(ctx context.Context) (any, error) {
					rl, err := NewRidgeLOO(ctx, x, y, intercept)
					if err != nil {
						return nil, err
					}
					w, _, err := rl.Weights(ctx, 1)
					return w, err
				},
				"RidgeLOO.SubsetWeights": func(ctx context.Context) (any, error) {
					rl, err := NewRidgeLOO(ctx, x, y, intercept)
					if err != nil {
						return nil, err
					}
					w, _, err := rl.SubsetWeights(ctx, []int{0, 1, 3}, 1)
					return w, err
				},
			} {
				all := fitctxtest.NewCountdown(math.MaxInt64)
				if _, err := fit(all); err != nil {
					t.Fatal(err)
				}
				if all.Calls() < 2 {
					t.Errorf("%s %v: %d checks", name, shape, all.Calls())
				}
				for k := range all.Calls() {
					ctx := fitctxtest.NewCountdown(k)
					if _, err := fit(ctx); !errors.Is(err, context.Canceled) {
						t.Errorf("%s %v, intercept %v, cancelled at check %d of %d: err %v", name, shape, intercept, k+1, all.Calls(), err)
					}
				}
				// Cancelled during any of its matrix operations — the
				// work between two checks, however late in the fit — it
				// notices: before the fix FitRidge and FitRidgeWeights
				// did not check after forming the Gram matrix, and
				// returned their results after a cancel during the
				// Cholesky factorisation, the solve or the leverages'
				// triangular solve (3 s of a 1500 × 1500 fit).
				counted, restore := fitctxtest.UseBLASCountdown(0, func() {})
				_, err := fit(context.Background())
				restore()
				if err != nil {
					t.Fatal(err)
				}
				for at := int64(1); at <= counted.Calls(); at++ {
					ctx, cancel := context.WithCancel(context.Background())
					_, restore := fitctxtest.UseBLASCountdown(at, cancel)
					_, err := fit(ctx)
					restore()
					cancel()
					if !errors.Is(err, context.Canceled) {
						t.Errorf("%s %v, intercept %v, cancelled in matrix operation %d of %d: err %v", name, shape, intercept, at, counted.Calls(), err)
					}
				}
			}
		}
	}
}

// TestFitRidgeWeights: the weights and intercept are FitRidge's, bit for
// bit, in either form (d < m and m ≤ d).
func TestFitRidgeWeights(t *testing.T) {
	for _, tc := range ridgeCases {
		for _, intercept := range []bool{false, true} {
			x, y := ridgeRandom(uint64(5*tc.m+tc.d), tc.m, tc.d, tc.offset)
			for _, lambda := range []float64{1e-2, 1, 100} {
				want, err := FitRidge(context.Background(), x, y, lambda, intercept)
				if err != nil {
					t.Fatal(err)
				}
				w, b, err := FitRidgeWeights(context.Background(), x, y, lambda, intercept)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(w, want.W) || b != want.B {
					t.Errorf("m%d d%d intercept %v λ %g: weights differ from FitRidge's", tc.m, tc.d, intercept, lambda)
				}
			}
		}
	}
	if _, _, err := FitRidgeWeights(context.Background(), mat.NewDense(2, 2, []float64{1, 2, 3, 4}), []float64{1, 2}, 0, false); err == nil {
		t.Error("λ = 0: no error")
	}
}

// TestGramIsSymOuterK: the Gram matrices of the ridge fits, computed in
// blocks of rows between context checks, are SymOuterK's bit for bit, of
// A and of Aᵀ, with zeros in A (which the transposed sum skips), and in
// shapes above and below one block of work.
func TestGramIsSymOuterK(t *testing.T) {
	for _, shape := range [][2]int{{1, 1}, {7, 3}, {3, 7}, {40, 900}, {900, 40}, {300, 5000}} {
		a, _ := ridgeRandom(uint64(shape[0]+shape[1]), shape[0], shape[1], 0)
		for i := 0; i < shape[0]; i += 3 {
			a.Set(i, i%shape[1], 0)
		}
		r := &ridgeData{ctx: context.Background()}
		for _, trans := range []bool{false, true} {
			got, err := r.gram(a, trans)
			if err != nil {
				t.Fatal(err)
			}
			var want mat.SymDense
			if trans {
				want.SymOuterK(1, a.T())
			} else {
				want.SymOuterK(1, a)
			}
			n := want.SymmetricDim()
			if got.SymmetricDim() != n {
				t.Fatalf("%v trans %v: %d rows, want %d", shape, trans, got.SymmetricDim(), n)
			}
			for i := range n {
				for j := i; j < n; j++ {
					if g, w := got.At(i, j), want.At(i, j); g != w {
						t.Fatalf("%v trans %v: entry (%d, %d) %v, SymOuterK %v", shape, trans, i, j, g, w)
					}
				}
			}
		}
	}
}

// TestRidgeLOOWeights: Weights at each λ are the normal equations' solution
// (ridgeDirect) and FitRidgeWeights', in both forms.
func TestRidgeLOOWeights(t *testing.T) {
	for _, tc := range ridgeCases {
		for _, intercept := range []bool{false, true} {
			x, y := ridgeRandom(uint64(11*tc.m+tc.d), tc.m, tc.d, tc.offset)
			for _, form := range []ridgeForm{ridgeAuto, ridgePrimal, ridgeDual} {
				rl, err := newRidgeLOO(context.Background(), x, y, intercept, form)
				if err != nil {
					t.Fatal(err)
				}
				for _, lambda := range []float64{1e-2, 1, 100} {
					if form != ridgeAuto && lambda < 1 {
						continue // a form forced onto the wrong shape is only as accurate as λ lets it be
					}
					w, b, err := rl.Weights(context.Background(), lambda)
					if err != nil {
						t.Fatal(err)
					}
					wRef, bRef := ridgeDirect(t, x, y, lambda, intercept)
					if e, ok := relClose(append(w, b), append(wRef, bRef), 1e-10); !ok {
						t.Errorf("m%d d%d intercept %v form %d λ %g: weights differ from the normal equations by %.3g", tc.m, tc.d, intercept, form, lambda, e)
					}
				}
			}
		}
	}
}

// subsetCase is a problem and a subset of its rows.
type subsetCase struct {
	name string
	x    *mat.Dense
	y    []float64
	rows []int
}

// subsetCases returns subsets of the ridgeCases problems and of problems on
// both sides of the primal/dual boundary: leaving out one row, a tenth of
// the rows (the Woodbury update), most of them (the downdated Cholesky), in
// a shuffled order.
func subsetCases() []subsetCase {
	shapes := []struct{ m, d int }{{30, 5}, {25, 24}, {20, 20}, {12, 40}, {8, 300}, {60, 20}, {200, 40}, {41, 40}, {40, 41}}
	var out []subsetCase
	for k, sh := range shapes {
		x, y := ridgeRandom(uint64(13+k), sh.m, sh.d, float64(k%3))
		rng := rand.New(rand.NewPCG(uint64(k), 5))
		perm := rng.Perm(sh.m)
		for _, left := range []int{1, max(1, sh.m/10), sh.m - 3} {
			rows := slices.Clone(perm[left:])
			out = append(out, subsetCase{fmt.Sprintf("m%d_d%d_without%d", sh.m, sh.d, left), x, y, rows})
		}
		out = append(out, subsetCase{fmt.Sprintf("m%d_d%d_all", sh.m, sh.d), x, y, slices.Clone(perm)})
	}
	return out
}

// TestRidgeLOOSubsetWeights: SubsetWeights are the weights and intercept of
// the normal equations on the subset's rows, with and without an
// intercept, in both forms and across the boundary between them.
func TestRidgeLOOSubsetWeights(t *testing.T) {
	for _, tc := range subsetCases() {
		for _, intercept := range []bool{false, true} {
			sub := mat.NewDense(len(tc.rows), tc.x.RawMatrix().Cols, nil)
			ys := make([]float64, len(tc.rows))
			for k, i := range tc.rows {
				sub.SetRow(k, tc.x.RawRowView(i))
				ys[k] = tc.y[i]
			}
			for _, form := range []ridgeForm{ridgeAuto, ridgePrimal, ridgeDual} {
				rl, err := newRidgeLOO(context.Background(), tc.x, tc.y, intercept, form)
				if err != nil {
					t.Fatal(err)
				}
				for _, lambda := range []float64{1e-2, 1, 100} {
					if form != ridgeAuto && lambda < 1 {
						continue
					}
					w, b, err := rl.SubsetWeights(context.Background(), tc.rows, lambda)
					if err != nil {
						t.Fatalf("%s intercept %v form %d λ %g: %v", tc.name, intercept, form, lambda, err)
					}
					wRef, bRef := ridgeDirect(t, sub, ys, lambda, intercept)
					if e, ok := relClose(append(w, b), append(wRef, bRef), 1e-9); !ok {
						t.Errorf("%s intercept %v form %d λ %g: weights differ from the subset's normal equations by %.3g", tc.name, intercept, form, lambda, e)
					}
				}
			}
		}
	}
}

// TestRidgeLOOSubsetIllConditioned: when the left-out row holds all of a
// column's variation and λ is tiny, the downdate cancels most of the
// system. With a column of 1e2 the refinement from the rows recovers the
// subset's weights (the column's weight 0); with 1e4 or more it cannot
// reach 1e-9 at λ = 1e-4 (with an intercept the rows' constant value of the
// centred column, −1e4/60, leaves rounding that 1/λ amplifies), and
// SubsetWeights fits the rows from scratch: the subset's normal equations'
// weights either way.
func TestRidgeLOOSubsetIllConditioned(t *testing.T) {
	const m, d = 60, 20
	for _, tc := range []struct {
		big     float64
		refined [2]bool // without, with an intercept
	}{{1e2, [2]bool{true, true}}, {1e4, [2]bool{true, false}}, {1e9, [2]bool{false, false}}} {
		x, y := ridgeRandom(3, m, d, 0)
		for i := range m {
			x.Set(i, 0, 0)
		}
		x.Set(7, 0, tc.big) // column 0 varies only in row 7
		rows := make([]int, 0, m-1)
		in := make([]bool, m)
		for i := range m {
			if i != 7 {
				rows = append(rows, i)
				in[i] = true
			}
		}
		sub := mat.NewDense(m-1, d, nil)
		ys := make([]float64, m-1)
		for k, i := range rows {
			sub.SetRow(k, x.RawRowView(i))
			ys[k] = y[i]
		}
		for k, intercept := range []bool{false, true} {
			rl, err := NewRidgeLOO(context.Background(), x, y, intercept)
			if err != nil {
				t.Fatal(err)
			}
			for _, lambda := range []float64{1e-4, 1} {
				w, b, err := rl.SubsetWeights(context.Background(), rows, lambda)
				if err != nil {
					t.Fatal(err)
				}
				wRef, bRef := ridgeDirect(t, sub, ys, lambda, intercept)
				if e, ok := relClose(append(w, b), append(wRef, bRef), 1e-9); !ok {
					t.Errorf("column of %g, intercept %v, λ %g: weights differ from the subset's normal equations by %.3g", tc.big, intercept, lambda, e)
				}
				mu := make([]float64, d)
				if intercept {
					for _, i := range rows {
						for j := range d {
							mu[j] += rl.r.x.At(i, j) / float64(len(rows))
						}
					}
				}
				if _, ok := rl.subsetPrimal(rows, in, mu, lambda); lambda < 1 && ok != tc.refined[k] {
					t.Errorf("column of %g, intercept %v, λ %g: refined %v, want %v", tc.big, intercept, lambda, ok, tc.refined[k])
				}
			}
		}
	}
}

// TestRidgeLOOPathIsRidgeLOOPath: Path gives RidgeLOOPath's residuals bit
// for bit, and each λ's alone as with the others.
func TestRidgeLOOPathIsRidgeLOOPath(t *testing.T) {
	lambdas := []float64{1e-3, 1, 1e3}
	for _, tc := range ridgeCases {
		for _, intercept := range []bool{false, true} {
			x, y := ridgeRandom(uint64(tc.m+tc.d), tc.m, tc.d, tc.offset)
			want, err := RidgeLOOPath(context.Background(), x, y, lambdas, intercept)
			if err != nil {
				t.Fatal(err)
			}
			rl, err := NewRidgeLOO(context.Background(), x, y, intercept)
			if err != nil {
				t.Fatal(err)
			}
			got, err := rl.Path(context.Background(), lambdas)
			if err != nil {
				t.Fatal(err)
			}
			for k := range want {
				one, err := rl.Path(context.Background(), lambdas[k:k+1])
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got[k].LOO, want[k].LOO) || !slices.Equal(one[0].LOO, want[k].LOO) {
					t.Errorf("m%d d%d intercept %v λ %g: residuals differ from RidgeLOOPath's", tc.m, tc.d, intercept, lambdas[k])
				}
			}
		}
	}
}

// TestRidgeLOOErrors: bad λ, ill-conditioned λ and bad subsets are
// errors naming the problem.
func TestRidgeLOOErrors(t *testing.T) {
	x, y := ridgeRandom(1, 10, 4, 0)
	rl, err := NewRidgeLOO(context.Background(), x, y, true)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		what string
		call func() error
		want string
	}{
		{"Weights at λ = 0", func() error { _, _, err := rl.Weights(ctx, 0); return err }, "λ = 0"},
		{"Path without λ", func() error { _, err := rl.Path(ctx, nil); return err }, "no λ"},
		{"Path at λ = −1", func() error { _, err := rl.Path(ctx, []float64{1, -1}); return err }, "λ = -1"},
		{"SubsetWeights at λ = NaN", func() error { _, _, err := rl.SubsetWeights(ctx, []int{0, 1}, math.NaN()); return err }, "λ = NaN"},
		{"a row out of range", func() error { _, _, err := rl.SubsetWeights(ctx, []int{0, 10}, 1); return err }, "row 10 is outside the 10 rows"},
		{"a negative row", func() error { _, _, err := rl.SubsetWeights(ctx, []int{-1, 2}, 1); return err }, "row -1 is outside"},
		{"a row twice", func() error { _, _, err := rl.SubsetWeights(ctx, []int{3, 4, 3}, 1); return err }, "row 3 is given twice"},
		{"no rows", func() error { _, _, err := rl.SubsetWeights(ctx, nil, 1); return err }, "empty subset"},
		{"one row with an intercept", func() error { _, _, err := rl.SubsetWeights(ctx, []int{2}, 1); return err }, "at least 2 rows"},
	} {
		if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.what, err, tc.want)
		}
	}
	// A singular XᵀX (a repeated column) at a λ too small for it.
	xs := mat.NewDense(30, 3, nil)
	for i := range 30 {
		v := float64(i % 7)
		xs.SetRow(i, []float64{v, v, float64(i)})
	}
	rs, err := NewRidgeLOO(ctx, xs, make([]float64, 30), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := rs.Weights(ctx, 1e-300); err == nil || !strings.Contains(err.Error(), "ill-conditioned") {
		t.Errorf("λ = 1e-300 on a singular XᵀX: error %v, want ill-conditioned", err)
	}
}

// TestRidgeFromProducts: the weights solved from the cross-products are
// the reference solution's (ridgeDirect) — with an intercept, from the
// centred columns and labels — and bad products, λ and contexts are
// errors; A and b are not modified.
func TestRidgeFromProducts(t *testing.T) {
	ctx := context.Background()
	for _, tc := range ridgeCases {
		for _, intercept := range []bool{false, true} {
			x, y := ridgeRandom(uint64(7*tc.m+tc.d), tc.m, tc.d, tc.offset)
			xc, yc := mat.DenseCopyOf(x), slices.Clone(y)
			if intercept {
				for j := range tc.d {
					col := mat.Col(nil, j, xc)
					mean := floats.Sum(col) / float64(tc.m)
					floats.AddConst(-mean, col)
					xc.SetCol(j, col)
				}
				floats.AddConst(-floats.Sum(yc)/float64(tc.m), yc)
			}
			A := mat.NewSymDense(tc.d, nil)
			A.SymOuterK(1, xc.T())
			var bv mat.VecDense
			bv.MulVec(xc.T(), mat.NewVecDense(tc.m, yc))
			b := bv.RawVector().Data
			a0 := mat.NewSymDense(tc.d, nil)
			a0.CopySym(A)
			b0 := slices.Clone(b)
			for _, lambda := range []float64{1e-2, 1, 100} {
				if tc.d >= tc.m && lambda < 1 {
					continue // XᵀX singular: the products lose what the rows keep
				}
				got, err := RidgeFromProducts(ctx, A, b, lambda)
				if err != nil {
					t.Fatalf("m%d d%d intercept %v λ %g: %v", tc.m, tc.d, intercept, lambda, err)
				}
				want, _ := ridgeDirect(t, x, y, lambda, intercept)
				if d, ok := relClose(got, want, 1e-8); !ok {
					t.Errorf("m%d d%d intercept %v λ %g: weights differ from the direct solve by %g", tc.m, tc.d, intercept, lambda, d)
				}
			}
			if !mat.Equal(A, a0) || !slices.Equal(b, b0) {
				t.Fatal("A or b modified")
			}
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	eye := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	for _, tc := range []struct {
		what   string
		ctx    context.Context
		A      mat.Symmetric
		b      []float64
		lambda float64
	}{
		{"λ = 0", ctx, eye, []float64{1, 2}, 0},
		{"λ = NaN", ctx, eye, []float64{1, 2}, math.NaN()},
		{"b too short", ctx, eye, []float64{1}, 1},
		{"no columns", ctx, &mat.SymDense{}, nil, 1},
		{"NaN in A", ctx, mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1}), []float64{1, 2}, 1},
		{"Inf in b", ctx, eye, []float64{1, math.Inf(1)}, 1},
		{"indefinite", ctx, mat.NewSymDense(2, []float64{-5, 0, 0, 1}), []float64{1, 2}, 1},
		{"ill-conditioned", ctx, mat.NewSymDense(2, []float64{1e15, 0, 0, 0}), []float64{1, 2}, 1e-3},
		{"cancelled", cancelled, eye, []float64{1, 2}, 1},
		{"weights beyond float64", ctx, mat.NewSymDense(2, nil), []float64{1e300, 1}, 1e-10},
	} {
		if w, err := RidgeFromProducts(tc.ctx, tc.A, tc.b, tc.lambda); err == nil || w != nil {
			t.Errorf("%s: weights %v, error %v; want no weights and an error", tc.what, w, err)
		}
	}
}

// TestRidgeZeroXHugeY: with X = 0 the ridge fit is the intercept-only
// model (no intercept: the zero model) at every λ, whose leave-one-out
// residuals are y_i − mean of the others (y_i): finite for y = ±1e300 at
// λ = 1e-300, in both forms, although the dual form's (K + λI)⁻¹y =
// y/λ overflows (FitRidge and RidgeLOOPath refused them as "non-finite").
// RidgeLOO's Weights and SubsetWeights (rows 0 and 1, of mean 0) give
// that model too. ±1.7e308 with an intercept is refused: y_i − ȳ₋ᵢ
// overflows float64.
func TestRidgeZeroXHugeY(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ m, d int }{{1, 3}, {3, 3}, {4, 20}, {12, 5}} {
		for _, intercept := range []bool{false, true} {
			if intercept && c.m < 2 {
				continue
			}
			y := make([]float64, c.m)
			var sum float64
			for i := range y {
				y[i] = 1e300
				if i%3 == 1 {
					y[i] = -1e300
				}
				sum += y[i] / float64(c.m)
			}
			want, b := slices.Clone(y), 0.0
			if intercept {
				b = sum
				for i := range want {
					want[i] = (y[i] - sum) * float64(c.m) / float64(c.m-1)
				}
			}
			x := mat.NewDense(c.m, c.d, nil)
			for _, form := range []ridgeForm{ridgeAuto, ridgePrimal, ridgeDual} {
				name := fmt.Sprintf("m%d d%d intercept %v form %d", c.m, c.d, intercept, form)
				// Two λ that overflow: each is fitted again.
				path, err := ridgeLOOPath(ctx, x, y, []float64{1e-300, 1e-299, 1}, intercept, form)
				if err != nil {
					t.Errorf("%s: RidgeLOOPath: %v", name, err)
					continue
				}
				for _, pt := range path {
					if e, ok := relClose(pt.LOO, want, 1e-14); !ok {
						t.Errorf("%s λ=%g: LOO %v, want %v (%.3g)", name, pt.Lambda, pt.LOO, want, e)
					}
				}
				model, err := fitRidge(ctx, x, y, 1e-300, intercept, form)
				if err != nil {
					t.Errorf("%s: FitRidge: %v", name, err)
					continue
				}
				if e, ok := relClose(model.LOO, want, 1e-14); !ok || math.Abs(model.B-b) > 1e-14*math.Abs(b) || slices.ContainsFunc(model.W, func(w float64) bool { return w != 0 }) {
					t.Errorf("%s: FitRidge W %v B %v LOO %v, want 0, %v, %v (%.3g)", name, model.W, model.B, model.LOO, b, want, e)
				}
				rl, err := newRidgeLOO(ctx, x, y, intercept, form)
				if err != nil {
					t.Fatalf("%s: NewRidgeLOO: %v", name, err)
				}
				w, wb, err := rl.Weights(ctx, 1e-300)
				if err != nil || math.Abs(wb-b) > 1e-14*math.Abs(b) || slices.ContainsFunc(w, func(w float64) bool { return w != 0 }) {
					t.Errorf("%s: Weights %v, %v, %v, want 0, %v", name, w, wb, err, b)
				}
				if c.m > 2 {
					rows := []int{0, 1}
					w, wb, err := rl.SubsetWeights(ctx, rows, 1e-300)
					if err != nil || math.Abs(wb) > 1e-14*1e300 || slices.ContainsFunc(w, func(w float64) bool { return w != 0 }) {
						t.Errorf("%s: SubsetWeights %v, %v, %v, want 0, 0", name, w, wb, err)
					}
				}
			}
		}
	}
	y := []float64{1.7e308, -1.7e308, 1.7e308}
	if _, err := RidgeLOOPath(ctx, mat.NewDense(3, 3, nil), y, []float64{1}, true); err == nil || !strings.Contains(err.Error(), "non-finite") {
		t.Errorf("LOO residuals beyond float64: %v, want the non-finite error", err)
	}
	// Refused with no model (a non-nil model came with the error).
	for _, form := range []ridgeForm{ridgePrimal, ridgeDual} {
		if m, err := fitRidge(ctx, mat.NewDense(3, 2, nil), y, 1, true, form); m != nil || err == nil || !strings.Contains(err.Error(), "non-finite") {
			t.Errorf("form %d: FitRidge of LOO residuals beyond float64: %v, %v, want no model and the non-finite error", form, m, err)
		}
	}
}

// TestFitRidgeFittedBeyondRange: a fit whose fitted values are beyond
// float64's range is refused, with no model, as FitRidge's doc says — here
// the weights, intercept and leave-one-out residuals are finite (the
// first pass overflows and the fit is retried with y scaled): x_i = i −
// 9.5, y = +1.3e308 on the first half and −1.3e308 on the second, whose
// least-squares line reaches ±1.86e308 at the ends. (The retry's scaled
// fitted values, scaled back, came out as ±Inf with no error.)
func TestFitRidgeFittedBeyondRange(t *testing.T) {
	ctx := context.Background()
	const n = 20
	x := mat.NewDense(n, 1, nil)
	y := make([]float64, n)
	for i := range n {
		x.Set(i, 0, float64(i)-float64(n-1)/2)
		y[i] = 1.3e308
		if i >= n/2 {
			y[i] = -1.3e308
		}
	}
	for _, form := range []ridgeForm{ridgeAuto, ridgePrimal, ridgeDual} {
		m, err := fitRidge(ctx, x, y, 1e-6, true, form)
		if m != nil || err == nil || !strings.Contains(err.Error(), "non-finite") {
			t.Errorf("form %d: %+v, %v; want no model and the non-finite error", form, m, err)
		}
	}
}

// TestFitRidgeDualLOOAtTinyLambda: the dual form's leave-one-out residuals
// are the brute-force refits' (ridgeBruteLOO) to rounding at a tiny λ,
// where the residuals y − ŷ = λQα are tiny against y: computed as
// y − Fitted they lost about ε·|y|/λ (a relative error of 1e-3 at
// λ = 1e-12 on N(0, 1) data), and with X ~ 1e10 and y ~ 1e300 at λ = 1e-3
// all of it (LOO = 0, against ~1e300). The brute force of the second
// problem is that of X·2^−33, y·2^−1000 and λ·2^−66 scaled back by 2^1000
// (the same fits: ridge with X/c and λ/c² has weights c·w).
func TestFitRidgeDualLOOAtTinyLambda(t *testing.T) {
	ctx := context.Background()
	x, y := ridgeRandom(11, 6, 40, 0)
	big, bigY := ridgeRandom(12, 4, 10, 0)
	big.Scale(math.Ldexp(1, 33), big)
	for i := range bigY {
		bigY[i] = math.Ldexp(bigY[i], 1000)
	}
	for _, intercept := range []bool{false, true} {
		for _, lambda := range []float64{1e-8, 1e-12} {
			model, err := FitRidge(ctx, x, y, lambda, intercept)
			if err != nil {
				t.Fatalf("intercept %v λ %g: %v", intercept, lambda, err)
			}
			want := ridgeBruteLOO(t, x, y, lambda, intercept)
			if e, ok := relClose(model.LOO, want, 1e-12); !ok {
				t.Errorf("intercept %v λ %g: LOO %v, want %v (%.3g)", intercept, lambda, model.LOO, want, e)
			}
		}
		model, err := FitRidge(ctx, big, bigY, 1e-3, intercept)
		if err != nil {
			t.Fatalf("X ~ 1e10, intercept %v: %v", intercept, err)
		}
		small := mat.DenseCopyOf(big)
		small.Scale(math.Ldexp(1, -33), big)
		smallY := slices.Clone(bigY)
		for i := range smallY {
			smallY[i] = math.Ldexp(smallY[i], -1000)
		}
		want := ridgeBruteLOO(t, small, smallY, math.Ldexp(1e-3, -66), intercept)
		for i := range want {
			want[i] = math.Ldexp(want[i], 1000)
		}
		var top float64
		for _, v := range want {
			top = max(top, math.Abs(v))
		}
		for i := range want {
			if math.Abs(model.LOO[i]-want[i]) > 1e-12*top {
				t.Errorf("X ~ 1e10, intercept %v: LOO %v, want %v", intercept, model.LOO, want)
				break
			}
		}
	}
}

// TestRidgeRescaledResults: the results of the retry with y scaled are
// the whole problem's, scaled back — checked where only the retry can
// give them. (a) X = 0, y = 1.5e308 three times, with an intercept: the
// sum of y overflows, so the scaled targets must be centred anew (not the
// overflowed centred ones scaled); the model is the constant 1.5e308 and
// every LOO residual 0. (b) X ~ 1e10 (10 × 3, the primal) and y ~ 1e300:
// Xᵀy overflows in FitRidge and in RidgeLOOPath's sweep, whose retry must
// use the scaled targets; the reference is the brute force of X·2^−33,
// y·2^−1000 and λ·2^−66 scaled back by 2^1000 (ridge with X/c and λ/c²
// has weights c·w).
func TestRidgeRescaledResults(t *testing.T) {
	ctx := context.Background()
	y := []float64{1.5e308, 1.5e308, 1.5e308}
	for _, form := range []ridgeForm{ridgePrimal, ridgeDual} {
		m, err := fitRidge(ctx, mat.NewDense(3, 2, nil), y, 1, true, form)
		if err != nil {
			t.Errorf("(a) form %d: %v", form, err)
			continue
		}
		if m.B != 1.5e308 || !slices.Equal(m.W, []float64{0, 0}) || !slices.Equal(m.Fitted, y) || !slices.Equal(m.LOO, []float64{0, 0, 0}) {
			t.Errorf("(a) form %d: W %v B %v Fitted %v LOO %v, want 0, 1.5e308, y, 0", form, m.W, m.B, m.Fitted, m.LOO)
		}
		path, err := ridgeLOOPath(ctx, mat.NewDense(3, 2, nil), y, []float64{1, 2}, true, form)
		if err != nil || !slices.Equal(path[0].LOO, []float64{0, 0, 0}) || !slices.Equal(path[1].LOO, []float64{0, 0, 0}) {
			t.Errorf("(a) form %d: RidgeLOOPath %v, %v, want LOO 0", form, path, err)
		}
	}

	x, y := ridgeRandom(13, 10, 3, 0)
	x.Scale(math.Ldexp(1, 33), x)
	for i := range y {
		y[i] = math.Ldexp(y[i], 1000)
	}
	small := mat.DenseCopyOf(x)
	small.Scale(math.Ldexp(1, -33), x)
	smallY := slices.Clone(y)
	for i := range smallY {
		smallY[i] = math.Ldexp(smallY[i], -1000)
	}
	const lambda = 1e-3
	for _, intercept := range []bool{false, true} {
		want := ridgeBruteLOO(t, small, smallY, math.Ldexp(lambda, -66), intercept)
		var top float64
		for i := range want {
			want[i] = math.Ldexp(want[i], 1000)
			top = max(top, math.Abs(want[i]))
		}
		close := func(got []float64) bool {
			for i := range want {
				if !(math.Abs(got[i]-want[i]) <= 1e-12*top) {
					return false
				}
			}
			return true
		}
		for _, form := range []ridgeForm{ridgeAuto, ridgePrimal} { // the dual's m × m system is singular
			path, err := ridgeLOOPath(ctx, x, y, []float64{lambda}, intercept, form)
			if err != nil || !close(path[0].LOO) {
				t.Errorf("(b) intercept %v form %d: RidgeLOOPath %v, %v, want LOO %v", intercept, form, path, err, want)
			}
			m, err := fitRidge(ctx, x, y, lambda, intercept, form)
			if err != nil || !close(m.LOO) {
				t.Errorf("(b) intercept %v form %d: FitRidge %+v, %v, want LOO %v", intercept, form, m, err, want)
			}
		}
	}
}

// TestRidgeLOOInterceptBeyondRange: the intercept b = ȳ − x̄ᵀw of a column
// of mean 1e100 and spread 1e88 (w ~ 1e212 for y ~ 1e300) is beyond
// float64's range: FitRidge, Weights and SubsetWeights (which fall back
// on a fit from scratch, whose intercept is shifted by x̄ᵀw) refuse it
// with no weights.
func TestRidgeLOOInterceptBeyondRange(t *testing.T) {
	ctx := context.Background()
	const m = 6
	x := mat.NewDense(m, 1, nil)
	y := make([]float64, m)
	for i := range m {
		x.Set(i, 0, 1e100*(1+float64(i)*0x1p-40))
		y[i] = 1e300
		if i%2 == 1 {
			y[i] = -1e300
		}
	}
	if model, err := FitRidge(ctx, x, y, 1, true); model != nil || err == nil {
		t.Errorf("FitRidge: %+v, %v; want no model and an error", model, err)
	}
	rl, err := NewRidgeLOO(ctx, x, y, true)
	if err != nil {
		t.Fatal(err)
	}
	if w, b, err := rl.Weights(ctx, 1); w != nil || err == nil {
		t.Errorf("Weights: %v, %v, %v; want no weights and an error", w, b, err)
	}
	if w, b, err := rl.SubsetWeights(ctx, []int{0, 1, 2, 3}, 1); w != nil || err == nil {
		t.Errorf("SubsetWeights: %v, %v, %v; want no weights and an error", w, b, err)
	}
}

// TestFitRidgeDualLOOWhereLambdaSUnderflows: the dual form's leave-one-out
// residual (Qα)_i/s_i needs only s_i > 0; 1 − H_ii = λ·s_i may underflow
// to 0 (X ~ 2^60, λ = 1e-300: λ·s_i ~ 2^-1117) without the residual being
// undefined. FitRidge gives there the brute-force residuals (refitting
// without each row, to 1e-9; without an intercept, whose bordered system
// XXᵀ ~ 2^120 makes too ill-conditioned for the brute force) and, with and
// without an intercept, RidgeLOOPath's (its tridiagonal sweep tests s_i
// alone); before, FitRidge refused ("row 0 has leverage 1").
func TestFitRidgeDualLOOWhereLambdaSUnderflows(t *testing.T) {
	ctx := context.Background()
	x, y := ridgeRandom(21, 5, 12, 0)
	x.Scale(math.Ldexp(1, 60), x)
	const lambda = 1e-300
	for _, intercept := range []bool{false, true} {
		model, err := FitRidge(ctx, x, y, lambda, intercept)
		if err != nil {
			t.Fatalf("intercept %v: %v", intercept, err)
		}
		if !intercept { // with one, ridgeDirect's bordered system is too ill-conditioned to solve
			want := ridgeBruteLOO(t, x, y, lambda, false)
			if e, ok := relClose(model.LOO, want, 1e-9); !ok {
				t.Errorf("LOO %v, want %v (%.3g)", model.LOO, want, e)
			}
		}
		path, err := RidgeLOOPath(ctx, x, y, []float64{lambda}, intercept)
		if err != nil {
			t.Fatalf("intercept %v: RidgeLOOPath: %v", intercept, err)
		}
		if e, ok := relClose(model.LOO, path[0].LOO, 1e-9); !ok {
			t.Errorf("intercept %v: LOO %v, RidgeLOOPath's %v (%.3g)", intercept, model.LOO, path[0].LOO, e)
		}
	}
}
