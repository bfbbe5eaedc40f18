package greedytl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/standardize"
)

// TestStandardization checks Mean and Scale against the definition (mean
// and population standard deviation, divided by γ for features) and that
// Predict on the training data gives the fitted values Z_S w.
func TestStandardization(t *testing.T) {
	for _, gamma := range []float64{1, 0.3, 4} {
		t.Run(fmt.Sprintf("γ=%g", gamma), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 11))
			m := 15
			X, H := randDense(rng, m, 30), randDense(rng, m, 30)
			X.Scale(100, X) // arbitrary scales and offsets
			for i := 0; i < m; i++ {
				for j := 0; j < 30; j++ {
					H.Set(i, j, 5+float64(j)*H.At(i, j))
				}
			}
			y := randLabels(rng, m)
			o := DefaultOptions()
			o.FeatureFactor, o.MaxK = gamma, 12
			mod := fitT(t, X, H, y, o)
			Z, _ := refStandardize(X, H, gamma)
			for j, c := range mod.Selected {
				col := make([]float64, m)
				g := 1.0
				if c.Kind == Feature {
					mat.Col(col, c.Index, X)
					g = gamma
				} else {
					mat.Col(col, c.Index, H)
				}
				var mean, ss float64
				for _, v := range col {
					mean += v / float64(m)
				}
				for _, v := range col {
					ss += (v - mean) * (v - mean)
				}
				std := math.Sqrt(ss / float64(m))
				if relErr(mod.Mean[j], mean) > 1e-12 || relErr(mod.Scale[j], std/g) > 1e-12 {
					t.Errorf("%v: mean %v scale %v, want %v and %v", c, mod.Mean[j], mod.Scale[j], mean, std/g)
				}
			}
			f, err := mod.Predict(X, H)
			if err != nil {
				t.Fatal(err)
			}
			S := selectedGlobal(mod)
			for i := 0; i < m; i++ {
				var want float64
				for a, j := range S {
					want += Z.At(i, j) * mod.Weights[a]
				}
				if math.Abs(f[i]-want) > 1e-12*(1+math.Abs(want)) {
					t.Errorf("Predict row %d = %v, fitted value Z_S w = %v", i, f[i], want)
				}
			}
			// The fitted values minimise the ridge objective: its gradient
			// Z_Sᵀ(Z_S w − y) + λw vanishes.
			for a, j := range S {
				g := o.Lambda * mod.Weights[a]
				for i := 0; i < m; i++ {
					g += Z.At(i, j) * (f[i] - y[i])
				}
				if math.Abs(g) > 1e-10 {
					t.Errorf("ridge gradient for %v = %v, want 0", mod.Selected[a], g)
				}
			}
		})
	}
}

// TestFeatureFactor checks γ: γ = 0 uses sources only; a feature slightly
// less correlated with y than a source loses at γ = 1 and wins at γ = 10
// (its first-step gain γ²b²/(λ + γ²m) grows with γ).
func TestFeatureFactor(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	m := 20
	y := randLabels(rng, m)
	X := randDense(rng, m, 5)
	H := randDense(rng, m, 5)
	noise := randDense(rng, m, 1)
	for i := 0; i < m; i++ {
		H.Set(i, 2, y[i]+0.50*noise.At(i, 0))
		X.Set(i, 3, y[i]+0.52*noise.At(i, 0))
	}
	first := func(gamma float64) Column {
		o := DefaultOptions()
		o.FeatureFactor, o.MaxK = gamma, 1
		return fitT(t, X, H, y, o).Selected[0]
	}
	if c := first(1); c != (Column{Source, 2}) {
		t.Errorf("γ = 1: first column %v, want source 2", c)
	}
	if c := first(10); c != (Column{Feature, 3}) {
		t.Errorf("γ = 10: first column %v, want feature 3", c)
	}
	o := DefaultOptions()
	o.FeatureFactor, o.Delta = 0, 0
	mod := fitT(t, X, H, y, o)
	if len(mod.Selected) != 5 {
		t.Errorf("γ = 0: selected %d columns, want all 5 sources", len(mod.Selected))
	}
	for _, c := range mod.Selected {
		if c.Kind != Source {
			t.Errorf("γ = 0 selected %v", c)
		}
	}
	if _, err := Fit(context.Background(), X, nil, y, o); err == nil || !strings.Contains(err.Error(), "constant") {
		t.Errorf("γ = 0 without sources: err = %v, want no candidates", err)
	}
}

// TestFeatureFactorWithoutFeatures: γ scales the features only, so a fit
// in which no feature can be selected — no X, X constant, or features whose
// divisor std/γ underflows and which are so taken as constant — is the fit
// of the sources alone, whatever γ: the path's β = max(1, γ²) (the squared
// norm per example of a column, for the accuracy of the leave-one-out
// error) is that of the columns there are. With γ = 1e300 and no feature
// the exact search broke down at its first step (β = +Inf: "pivot NaN, …
// λ = 1 is too small for these data") and the sampled one refused λ (its
// bound took a feature's zᵀz = γ²m).
func TestFeatureFactorWithoutFeatures(t *testing.T) {
	rng, m, y, H, constX := constantFeatures()
	tinyX := randDense(rng, m, 3)
	tinyX.Scale(1e-300, tinyX)
	for _, sample := range []int{0, 2} {
		o := DefaultOptions()
		o.Sample, o.Seed = sample, 3
		want := fitT(t, nil, H, y, o)
		for _, tc := range []struct {
			name string
			X    mat.Matrix
		}{{"no X", nil}, {"constant X", constX}, {"X of 1e-300", tinyX}} {
			for _, gamma := range []float64{4, 1e160, 1e300} {
				if tc.name == "X of 1e-300" && gamma < 1e300 {
					continue // the features are selectable
				}
				if tc.name != "no X" && sample > 0 {
					continue // the draws are over X's columns too: TestSampledConstantFeatures
				}
				o.FeatureFactor = gamma
				got, err := Fit(context.Background(), tc.X, H, y, o)
				if err != nil {
					t.Errorf("sample %d, %s, γ = %g: %v", sample, tc.name, gamma, err)
					continue
				}
				if !slices.Equal(got.Weights, want.Weights) || len(got.Selected) != len(want.Selected) {
					t.Errorf("sample %d, %s, γ = %g: weights %v, want the sources' fit's %v", sample, tc.name, gamma, got.Weights, want.Weights)
				}
				for j, c := range got.Selected {
					if c.Kind != Source || c != want.Selected[j] {
						t.Errorf("sample %d, %s, γ = %g: selected %v, want %v", sample, tc.name, gamma, got.Selected, want.Selected)
						break
					}
				}
			}
		}
	}
}

// constantFeatures returns the problem of the tests of constant features:
// m = 20 examples, labels y and 4 sources H drawn from rng (PCG(7, 7),
// returned for further draws), and X of 3 constant columns.
func constantFeatures() (rng *rand.Rand, m int, y []float64, H, constX *mat.Dense) {
	rng = rand.New(rand.NewPCG(7, 7))
	m = 20
	y = randLabels(rng, m)
	H = randDense(rng, m, 4)
	constX = mat.NewDense(m, 3, nil)
	for i := range m {
		constX.SetRow(i, []float64{1, -2, 0.5})
	}
	return rng, m, y, H, constX
}

// TestSampledConstantFeatures: with every feature constant, the sampled
// search's path takes β = 1 whatever γ, as the exact search's does, so
// that its fit (the sources' alone) is the same at every γ: with β = γ²
// it broke down from γ ≈ 1e8 ("Z_SᵀZ_S + λI is singular at step 4 …: λ = 1
// is too small", review30), and refused λ for γ above about 1e50.
func TestSampledConstantFeatures(t *testing.T) {
	_, m, y, H, constX := constantFeatures()
	// Columns that vary by 1e-8 around 1e6, which the search standardises
	// as constant (standardize.Constant), are constant here too (review31).
	nearX := mat.NewDense(m, 3, nil)
	for i := range m {
		d := float64(i%2) * 1e-8
		nearX.SetRow(i, []float64{1e6 + d, -2e6 - d, 5e5 + d})
	}
	for _, X := range []*mat.Dense{constX, nearX} {
		o := DefaultOptions()
		o.Sample, o.Seed = 2, 3
		want := fitT(t, X, H, y, o)
		for _, gamma := range []float64{4, 1e8, 1e40, 1e160, 1e300} {
			o.FeatureFactor = gamma
			got, err := Fit(context.Background(), X, H, y, o)
			if err != nil {
				t.Errorf("X %v…, γ = %g: %v", X.RawRowView(1), gamma, err)
				continue
			}
			if !slices.Equal(got.Weights, want.Weights) || !slices.Equal(got.Selected, want.Selected) {
				t.Errorf("X %v…, γ = %g: selected %v weights %v, want those at γ = 1, %v %v", X.RawRowView(1), gamma, got.Selected, got.Weights, want.Selected, want.Weights)
			}
		}
	}
}

// TestPredictColumns checks that Predict reads only the selected columns:
// NaN elsewhere is ignored, NaN in a selected column is an error naming it.
func TestPredictColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	m := 12
	X, H := randDense(rng, m, 8), randDense(rng, m, 8)
	y := randLabels(rng, m)
	o := DefaultOptions()
	o.MaxK = 3
	mod := fitT(t, X, H, y, o)
	want, err := mod.Predict(X, H)
	if err != nil {
		t.Fatal(err)
	}
	used := map[Column]bool{}
	for _, c := range mod.Selected {
		used[c] = true
	}
	Xn, Hn := mat.DenseCopyOf(X), mat.DenseCopyOf(H)
	for j := 0; j < 8; j++ {
		if !used[Column{Feature, j}] {
			Xn.Set(0, j, math.NaN())
		}
		if !used[Column{Source, j}] {
			Hn.Set(1, j, math.Inf(1))
		}
	}
	got, err := mod.Predict(Xn, Hn)
	if err != nil {
		t.Fatalf("NaN in unselected columns: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("predictions changed with NaN in unselected columns")
	}
	c := mod.Selected[0]
	if c.Kind == Feature {
		Xn.Set(2, c.Index, math.NaN())
	} else {
		Hn.Set(2, c.Index, math.NaN())
	}
	_, err = mod.Predict(Xn, Hn)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("greedytl.Model.Predict: %s row 2 column %d is NaN", map[Kind]string{Feature: "X", Source: "H"}[c.Kind], c.Index)) {
		t.Errorf("NaN in selected %v: err = %v", c, err)
	}
	// Row order does not change per-row predictions.
	perm := rng.Perm(m)
	Xp, Hp := mat.NewDense(m, 8, nil), mat.NewDense(m, 8, nil)
	for i, p := range perm {
		Xp.SetRow(i, X.RawRowView(p))
		Hp.SetRow(i, H.RawRowView(p))
	}
	fp, err := mod.Predict(Xp, Hp)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range perm {
		if fp[i] != want[p] {
			t.Errorf("permuted row %d: %v, want %v", i, fp[i], want[p])
		}
	}
}

// TestPredictErrors covers Predict's shape checks.
// fitBothKinds fits the default options on a random sample (10 examples, 4
// features, 6 sources) whose model selects features and sources both.
func fitBothKinds(t *testing.T) (mod *Model, X, H *mat.Dense, y []float64, rng *rand.Rand) {
	t.Helper()
	rng = rand.New(rand.NewPCG(5, 5))
	m := 10
	X, H = randDense(rng, m, 4), randDense(rng, m, 6)
	y = randLabels(rng, m)
	mod = fitT(t, X, H, y, DefaultOptions())
	hasFeature, hasSource := false, false
	for _, c := range mod.Selected {
		hasFeature = hasFeature || c.Kind == Feature
		hasSource = hasSource || c.Kind == Source
	}
	if !hasFeature || !hasSource {
		t.Fatalf("test needs a model using both kinds, got %v", mod.Selected)
	}
	return mod, X, H, y, rng
}

func TestPredictErrors(t *testing.T) {
	mod, X, H, y, rng := fitBothKinds(t)
	for _, c := range []struct {
		name string
		X, H mat.Matrix
		want string
	}{
		{"X columns", randDense(rng, 3, 5), randDense(rng, 3, 6), "X has 5 columns, the model was trained with 4 features"},
		{"H columns", randDense(rng, 3, 4), randDense(rng, 3, 7), "H has 7 columns, the model was trained with 6 sources"},
		{"one column", randDense(rng, 3, 1), randDense(rng, 3, 6), "X has 1 column, the model was trained with 4 features"}, // "1 columns", "with 4"
		{"rows", randDense(rng, 3, 4), randDense(rng, 4, 6), "X has 3 rows but H has 4"},
		{"nil X", nil, randDense(rng, 3, 6), "X is absent (nil or empty) but the model uses feature"},
		{"nil H", randDense(rng, 3, 4), nil, "H is absent (nil or empty) but the model uses source"},
		// An empty matrix is absent too, and is not called nil.
		{"empty X", &mat.Dense{}, randDense(rng, 3, 6), "X is absent (nil or empty) but the model uses feature"},
	} {
		if _, err := mod.Predict(c.X, c.H); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// A model using no feature accepts a nil X.
	o := DefaultOptions()
	o.FeatureFactor = 0
	mod = fitT(t, X, H, y, o)
	if _, err := mod.Predict(nil, H); err != nil {
		t.Errorf("sources-only model, nil X: %v", err)
	}
}

// TestPredictOverflow is issue 9's case: a test row with selected
// features at ±1.7e308 made the scores NaN; Predict must fail naming the row
// and the column instead. A training column of ±1e-320 is too small to
// standardise and is constant: never selected.
func TestPredictOverflow(t *testing.T) {
	mod, X, H, y, rng := fitBothKinds(t)
	m, _ := X.Dims()
	var feats []int
	for _, c := range mod.Selected {
		if c.Kind == Feature {
			feats = append(feats, c.Index)
		}
	}
	Xt, Ht := randDense(rng, 3, 4), randDense(rng, 3, 6)
	for k, j := range feats {
		Xt.Set(1, j, []float64{1.7e308, -1.7e308}[k%2])
	}
	f, err := mod.Predict(Xt, Ht)
	if err == nil {
		t.Fatalf("Predict with a row at ±1.7e308 = %v, want an error", f)
	}
	if !strings.Contains(err.Error(), "row 1") || !strings.Contains(err.Error(), "column ") {
		t.Errorf("error %q does not name row 1 and the column", err)
	}
	// A training column of ±1e-320 is standardised like any other (issue
	// 18); an ordinary test value in it, some 1e320 standard deviations
	// away, is an error naming it when the column is selected.
	Xs := mat.DenseCopyOf(X)
	for i := range m {
		Xs.Set(i, 0, X.At(i, 0)*1e-320)
	}
	for _, sample := range []int{0, 59} {
		o := DefaultOptions()
		o.Sample, o.Delta = sample, 0
		mod := fitT(t, Xs, H, y, o)
		if !slices.Contains(mod.Selected, Column{Feature, 0}) {
			continue
		}
		if _, err := mod.Predict(X, H); err == nil || !strings.HasPrefix(err.Error(), "greedytl.Model.Predict: the score of row 0 overflows at X column 0 = ") {
			t.Errorf("sample %d: Predict of ordinary values in the ±1e-320 column: %v, want an error naming row 0 and X column 0", sample, err)
		}
	}
}

// TestFitAnyMagnitude is issue 18's: how a column is standardised does not
// depend on its magnitude. With feature 1 multiplied by 2^k — subnormal
// values (k = −1060), 1e-300, 1e300 (whose squares overflow), near 1e307
// (whose sum overflows, k = 1019) — the exact search (row-major and transposed
// input, which take different kernels) and GreedyTL-59 select what they
// select unscaled, with the same weights, and record the mean and scale
// standardize.Fit computes for the column (one definition, bitwise). The
// weights agree to 1e-12, or, for the subnormal column, to the precision its
// values keep (its mean and scale are multiples of 2⁻¹⁰⁷⁴: 1e-3 relative).
func TestFitAnyMagnitude(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 18))
	const m = 12
	X, H := randDense(rng, m, 4), randDense(rng, m, 3)
	y := randLabels(rng, m)
	for i := range m {
		X.Set(i, 1, X.At(i, 1)+4+2*y[i]) // an informative, off-centre column
	}
	scaled := func(k int) *mat.Dense {
		Xk := mat.DenseCopyOf(X)
		for i := range m {
			Xk.Set(i, 1, math.Ldexp(X.At(i, 1), k))
		}
		return Xk
	}
	for _, sample := range []int{0, 59} {
		o := DefaultOptions()
		o.Sample, o.Delta, o.MaxK = sample, 0, 5
		ref := fitT(t, X, H, y, o)
		if !slices.Contains(ref.Selected, Column{Feature, 1}) {
			t.Fatalf("sample %d: feature 1 is not selected unscaled: %v", sample, ref.Selected)
		}
		for _, k := range []int{-1060, -997, 997, 1019} {
			Xk := scaled(k)
			if k == 1019 && !math.IsInf(standardize.Sum(mat.Col(nil, 1, Xk)), 1) {
				t.Fatal("at 2^1019 the column's sum does not overflow: make it larger")
			}
			inputs := map[string]mat.Matrix{"row-major": Xk}
			if sample == 0 {
				inputs["transposed"] = mat.DenseCopyOf(Xk.T()).T()
			}
			for how, in := range inputs {
				mod, err := Fit(context.Background(), in, H, y, o)
				if err != nil {
					t.Errorf("sample %d, 2^%d, %s: %v", sample, k, how, err)
					continue
				}
				if !slices.Equal(mod.Selected, ref.Selected) {
					t.Errorf("sample %d, 2^%d, %s: selected %v, unscaled %v", sample, k, how, mod.Selected, ref.Selected)
					continue
				}
				tol := 1e-12
				if k < -1022 {
					tol = 1e-3
				}
				for j := range mod.Weights {
					if d := math.Abs(mod.Weights[j] - ref.Weights[j]); d > tol*math.Abs(ref.Weights[j]) {
						t.Errorf("sample %d, 2^%d, %s: weight %d = %v, unscaled %v", sample, k, how, j, mod.Weights[j], ref.Weights[j])
					}
				}
				j := slices.Index(mod.Selected, Column{Feature, 1})
				col := mat.NewDense(m, 1, mat.Col(nil, 1, Xk))
				if s := standardize.Fit(col); mod.Mean[j] != s.Mean[0] || mod.Scale[j] != s.Scale[0] {
					t.Errorf("sample %d, 2^%d, %s: mean %v scale %v, standardize.Fit %v %v", sample, k, how, mod.Mean[j], mod.Scale[j], s.Mean[0], s.Scale[0])
				}
			}
		}
	}
}

// TestLOO compares the LOO error recorded at every step with brute-force
// refits that leave each example out: the selected standardised columns
// are re-centred without it (not rescaled), ridge without intercept is
// fitted on the others with the same λ, and the left-out row is predicted.
// The cases cover paths longer than m (an interpolating fit, where
// leave-one-out on columns centred with every example would leak the
// left-out label), a single positive example (whose refit sees one class
// only and predicts 0) and the smallest sample.
func TestLOO(t *testing.T) {
	for _, c := range []struct {
		m, npos int // npos = 0: random labels
		lambda  float64
	}{{8, 0, 1}, {15, 0, 0.01}, {15, 0, 100}, {12, 0, 1e-3}, {9, 1, 0.1}, {10, 9, 1}, {3, 1, 1}, {2, 1, 0.5}} {
		t.Run(fmt.Sprintf("m=%d/npos=%d/λ=%g", c.m, c.npos, c.lambda), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(6, uint64(c.m)))
			X, H := randDense(rng, c.m, 10), randDense(rng, c.m, 10)
			y := randLabels(rng, c.m)
			if c.npos > 0 {
				for i := range y {
					y[i] = -1
					if i < c.npos {
						y[i] = 1
					}
				}
			}
			o := DefaultOptions()
			o.Lambda, o.Delta, o.MaxK = c.lambda, 0, c.m+3
			mod := fitT(t, X, H, y, o)
			Z, _ := refStandardize(X, H, 1)
			S := selectedGlobal(mod)
			if len(S) != c.m+3 {
				t.Fatalf("path has %d steps, want %d", len(S), c.m+3)
			}
			for k := 1; k <= len(S); k++ {
				want := bruteLOO(Z, y, S[:k], c.lambda)
				if e := relErr(mod.Path[k-1].LOOError, want); e > 1e-9 {
					t.Errorf("step %d: LOO error %v, brute force %v (rel. error %.1e)", k-1, mod.Path[k-1].LOOError, want, e)
				}
			}
		})
	}
}

// bruteLOO returns the class-balanced mean squared leave-one-out residual
// of ridge regression without intercept on columns S: for each example i,
// the columns are re-centred on the other examples, ridge is fitted there
// and predicts row i (centred the same way).
func bruteLOO(Z *mat.Dense, y []float64, S []int, lambda float64) float64 {
	m, _ := Z.Dims()
	var sum [2]float64
	var cnt [2]int
	for out := 0; out < m; out++ {
		mean := make([]float64, len(S))
		for a, j := range S {
			for i := 0; i < m; i++ {
				if i != out {
					mean[a] += Z.At(i, j)
				}
			}
			mean[a] /= float64(m - 1)
		}
		Zs := mat.NewDense(m-1, len(S), nil)
		ys := make([]float64, 0, m-1)
		r := 0
		for i := 0; i < m; i++ {
			if i == out {
				continue
			}
			for a, j := range S {
				Zs.Set(r, a, Z.At(i, j)-mean[a])
			}
			ys = append(ys, y[i])
			r++
		}
		idx := make([]int, len(S))
		for a := range idx {
			idx[a] = a
		}
		w := bruteWeights(Zs, ys, idx, lambda)
		var f float64
		for a, j := range S {
			f += (Z.At(out, j) - mean[a]) * w[a]
		}
		c := 0
		if y[out] > 0 {
			c = 1
		}
		sum[c] += (y[out] - f) * (y[out] - f)
		cnt[c]++
	}
	return (sum[0]/float64(cnt[0]) + sum[1]/float64(cnt[1])) / 2
}

// TestLOONoLeak checks the property the re-centring exists for: on labels
// that the columns know nothing about, ridge on all of them — more columns
// than examples and a tiny λ, so that it interpolates the training set —
// has a leave-one-out error near or above that of the zero predictor (1),
// not near 0. Without the re-centring every left-out example of a balanced
// sample would be predicted as −Σ_{j≠i} y_j = y_i, for an error near 0.
// (The path runs until every column is selected, so that its last step
// does not depend on the labels through the selection.)
func TestLOONoLeak(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(7, seed))
		m := 12
		H := randDense(rng, m, 2*m)
		y := make([]float64, m)
		for i := range y {
			y[i] = float64(2*(i%2) - 1) // balanced: Σ y = 0
		}
		o := DefaultOptions()
		o.Lambda, o.Delta = 1e-4, 0
		mod := fitT(t, nil, H, y, o)
		last := mod.Path[len(mod.Path)-1]
		if len(mod.Path) != 2*m || last.RegError > 1e-3 {
			t.Fatalf("seed %d: %d steps, e(S)/m = %v: the test needs ridge on all columns, interpolating", seed, len(mod.Path), last.RegError)
		}
		if last.LOOError < 0.5 {
			t.Errorf("seed %d: LOO error %v of an interpolating fit of pure noise: the left-out labels leak", seed, last.LOOError)
		}
		t.Logf("seed %d: LOO error %.3f", seed, last.LOOError)
	}
}

// TestStopAtMinLOO checks the truncation: the model is the prefix of the
// full path ending at its first lowest LOO error, with refitted weights.
func TestStopAtMinLOO(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	m := 16
	X, H := randDense(rng, m, 20), randDense(rng, m, 20)
	y := randLabels(rng, m)
	for i := 0; i < m; i++ {
		H.Set(i, 4, y[i]+rng.NormFloat64())
	}
	o := DefaultOptions()
	o.Delta, o.MaxK = 0, 25
	full := fitT(t, X, H, y, o)
	kk := 0
	for j, s := range full.Path {
		if s.LOOError < full.Path[kk].LOOError {
			kk = j
		}
	}
	if kk == len(full.Path)-1 {
		t.Fatalf("test needs a path whose LOO minimum is not at the end")
	}
	o.StopAtMinLOO = true
	mod := fitT(t, X, H, y, o)
	if !reflect.DeepEqual(mod.Selected, full.Selected[:kk+1]) {
		t.Fatalf("selected %v, want the prefix %v", mod.Selected, full.Selected[:kk+1])
	}
	for j := range mod.Path {
		if relErr(mod.Path[j].LOOError, full.Path[j].LOOError) > 1e-12 {
			t.Errorf("step %d: LOO %v, full path %v", j, mod.Path[j].LOOError, full.Path[j].LOOError)
		}
	}
	Z, _ := refStandardize(X, H, 1)
	if e := vecRelErr(mod.Weights, bruteWeights(Z, y, selectedGlobal(mod), 1)); e > tol {
		t.Errorf("prefix weights: rel. error %.1e", e)
	}
	S := selectedGlobal(full)
	for j := range full.Path {
		if want := bruteLOO(Z, y, S[:j+1], 1); relErr(full.Path[j].LOOError, want) > 1e-9 {
			t.Errorf("full path, step %d: LOO %v, brute force %v", j, full.Path[j].LOOError, want)
		}
	}
}

// TestAutoLambda checks that AutoLambda picks the grid value whose own fit
// has the lowest LOO error (the larger λ on ties), as brute-force
// leave-one-out refits define it, and returns that fit. The
// last case runs every path to the end, so that the sampled search meets
// its "score all that remain" regime, constant columns included.
func TestAutoLambda(t *testing.T) {
	for _, c := range []struct {
		minLOO       bool
		sample, maxK int
		delta        float64
		constantCols bool
	}{
		{false, 0, 10, 1e-4, false}, {true, 0, 10, 1e-4, false},
		{false, 7, 10, 1e-4, false}, {true, 7, 10, 1e-4, false},
		{false, 5, 0, 0, true}, {true, 5, 0, 0, true},
	} {
		t.Run(fmt.Sprintf("%+v", c), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(9, 9))
			m := 14
			X, H := randDense(rng, m, 15), randDense(rng, m, 15)
			y := randLabels(rng, m)
			for i := 0; i < m; i++ {
				H.Set(i, 1, y[i]+0.8*rng.NormFloat64())
				if c.constantCols {
					X.Set(i, 3, 1)
					H.Set(i, 8, 2)
				}
			}
			o := DefaultOptions()
			o.MaxK, o.Delta, o.StopAtMinLOO, o.Sample, o.Seed = c.maxK, c.delta, c.minLOO, c.sample, 3
			Z, _ := refStandardize(X, H, 1)
			var best *Model
			for _, l := range lambdaGrid {
				o.Lambda = l
				mod := fitT(t, X, H, y, o)
				if S := selectedGlobal(mod); len(S) > 0 {
					if want := bruteLOO(Z, y, S, l); relErr(mod.looError(), want) > 1e-9 {
						t.Errorf("λ = %g: LOO error %v, brute force %v", l, mod.looError(), want)
					}
				}
				if best == nil || mod.looError() <= best.looError() {
					best = mod
				}
			}
			o.Lambda, o.AutoLambda = 0, true
			auto := fitT(t, X, H, y, o)
			best.Options.AutoLambda = true
			if !reflect.DeepEqual(auto, best) {
				t.Errorf("AutoLambda chose λ = %v (LOO %v, %v), want λ = %v (LOO %v, %v)",
					auto.Options.Lambda, auto.looError(), auto.Selected, best.Options.Lambda, best.looError(), best.Selected)
			}
		})
	}
}

// TestSample checks GreedyTL-59: determinism under a seed, different
// selections for different seeds, and the exact search when r ≥ N.
func TestSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	m := 12
	// Constant columns are never drawn as candidates.
	X, H := randWithConstants(rng, m, 500, 1500, map[Column]float64{{Feature, 7}: 1, {Source, 9}: 0})
	y := randLabels(rng, m)
	o := DefaultOptions()
	o.Sample, o.Seed, o.MaxK = 59, 1, 15
	a, b := fitT(t, X, H, y, o), fitT(t, X, H, y, o)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different models")
	}
	o.Seed = 2
	c := fitT(t, X, H, y, o)
	if reflect.DeepEqual(a.Selected, c.Selected) {
		t.Errorf("seeds 1 and 2 select the same %v", a.Selected)
	}
	Z, ok := refStandardize(X, H, 1)
	for _, mod := range []*Model{a, c} {
		checkAlongSample(t, mod, Z, y, ok)
	}
	for _, r := range []int{2000 - 2, 2000, 5000} {
		o.Sample, o.Delta, o.MaxK = r, 0, 40
		s := fitT(t, X, H, y, o)
		o.Sample = 0
		e := fitT(t, X, H, y, o)
		if !reflect.DeepEqual(s.Selected, e.Selected) {
			t.Errorf("r = %d: sampled search selects %v, exact %v", r, s.Selected, e.Selected)
		}
		if d := vecRelErr(s.Weights, e.Weights); d > 1e-10 {
			t.Errorf("r = %d: weights differ from exact by %.1e", r, d)
		}
	}
}

// checkAlongSample checks a sampled model's scores and weights against
// the definition along its own path (its choices are random, but each
// recorded score must be the definition's score of the prefix).
func checkAlongSample(t *testing.T, mod *Model, Z *mat.Dense, y []float64, ok []bool) {
	t.Helper()
	S := selectedGlobal(mod)
	for j := range S {
		if !ok[S[j]] {
			t.Fatalf("selected constant column %d", S[j])
		}
		if e := relErr(mod.Path[j].Score, bruteScore(Z, y, S[:j+1], mod.Options.Lambda)); e > tol {
			t.Errorf("step %d: score rel. error %.1e", j, e)
		}
	}
	if e := vecRelErr(mod.Weights, bruteWeights(Z, y, S, mod.Options.Lambda)); e > tol {
		t.Errorf("weights rel. error %.1e", e)
	}
}

// TestSampleUniform checks that with r = 1 the first column is a uniform
// draw over the non-constant candidates (a chi-square test over 7000
// seeds; the critical value 27.9 has p = 1e-4 at 6 degrees of freedom).
func TestSampleUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	m := 6
	X, H := randWithConstants(rng, m, 4, 6, map[Column]float64{{Feature, 0}: 3, {Source, 2}: -1, {Source, 5}: 0})
	y := randLabels(rng, m)
	o := DefaultOptions()
	o.Sample, o.MaxK = 1, 1
	counts := map[Column]int{}
	const runs = 7000
	for seed := range uint64(runs) {
		o.Seed = seed
		counts[fitT(t, X, H, y, o).Selected[0]]++
	}
	if len(counts) != 7 {
		t.Fatalf("drew %d distinct columns, want the 7 non-constant ones: %v", len(counts), counts)
	}
	var chi2 float64
	for c, n := range counts {
		if c == (Column{Feature, 0}) || c == (Column{Source, 2}) || c == (Column{Source, 5}) {
			t.Errorf("drew constant column %v", c)
		}
		e := float64(runs) / 7
		chi2 += (float64(n) - e) * (float64(n) - e) / e
	}
	if chi2 > 27.9 {
		t.Errorf("χ² = %.1f over counts %v: draws are not uniform", chi2, counts)
	}
}

// TestInputForms checks that Fit gives identical models for a *mat.Dense,
// its transpose's transpose (the T() fast path), a generic mat.Matrix and
// views into larger matrices (Stride > Cols; the transpose of one) whose
// other elements are NaN or ±Inf, which Fit must not read, and does not
// modify its inputs.
func TestInputForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	m := 10
	X, H := randDense(rng, m, 7), randDense(rng, m, 9)
	y := randLabels(rng, m)
	X0, H0, y0 := mat.DenseCopyOf(X), mat.DenseCopyOf(H), append([]float64(nil), y...)
	for _, sample := range []int{0, 4} {
		o := DefaultOptions()
		o.Sample, o.Seed = sample, 5
		want := fitT(t, X, H, y, o)
		tX := mat.DenseCopyOf(X.T())
		tH := mat.DenseCopyOf(H.T())
		for name, in := range map[string][2]mat.Matrix{
			"transpose":      {tX.T(), tH.T()},
			"generic":        {generic{X}, generic{H}},
			"view":           {viewIn(X, math.NaN()), viewIn(H, math.Inf(1))},
			"transpose view": {viewIn(tX, math.Inf(-1)).T(), viewIn(tH, math.NaN()).T()},
		} {
			got := fitT(t, in[0], in[1], y, o)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("sample=%d, %s input: different model", sample, name)
			}
			fw, _ := want.Predict(X, H)
			fg, err := got.Predict(in[0], in[1])
			if err != nil || !reflect.DeepEqual(fw, fg) {
				t.Errorf("sample=%d, %s input: different predictions (%v)", sample, name, err)
			}
		}
	}
	if !mat.Equal(X, X0) || !mat.Equal(H, H0) || !reflect.DeepEqual(y, y0) {
		t.Errorf("Fit modified its inputs")
	}
}

// viewIn returns a copy of a as a view into a larger matrix (two rows and
// three columns more, a's block at row 1, column 2) whose other elements
// are pad.
func viewIn(a *mat.Dense, pad float64) *mat.Dense {
	r, c := a.Dims()
	big := mat.NewDense(r+2, c+3, nil)
	for i := range r + 2 {
		for j := range c + 3 {
			big.Set(i, j, pad)
		}
	}
	v := big.Slice(1, r+1, 2, c+2).(*mat.Dense)
	v.Copy(a)
	return v
}

// generic hides the raw-data fast paths of a matrix.
type generic struct{ m mat.Matrix }

func (g generic) Dims() (int, int)    { return g.m.Dims() }
func (g generic) At(i, j int) float64 { return g.m.At(i, j) }
func (g generic) T() mat.Matrix       { return mat.Transpose{Matrix: g} }

// TestFitErrors covers every bad input Fit must reject with an error.
func TestFitErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	m := 6
	X, H := randDense(rng, m, 3), randDense(rng, m, 4)
	y := []float64{1, -1, 1, -1, 1, -1}
	with := func(a *mat.Dense, i, j int, v float64) *mat.Dense {
		b := mat.DenseCopyOf(a)
		b.Set(i, j, v)
		return b
	}
	opt := func(f func(*Options)) Options {
		o := DefaultOptions()
		f(&o)
		return o
	}
	const1 := mat.NewDense(m, 2, []float64{1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0})
	// ±1.7e308 in column 1: the mean, about −1.1e308, is 2.8e308 from the
	// one positive value.
	overflowing := mat.DenseCopyOf(H)
	for i := range m {
		overflowing.Set(i, 1, -1.7e308)
	}
	overflowing.Set(0, 1, 1.7e308)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		X, H mat.Matrix
		y    []float64
		o    Options
		want string
	}{
		{"X rows", nil, randDense(rng, 5, 3), H, y, DefaultOptions(), "X has 5 rows but y has 6"},
		{"H rows", nil, X, randDense(rng, 7, 4), y, DefaultOptions(), "H has 7 rows but y has 6"},
		{"label 0", nil, X, H, []float64{1, -1, 0, 1, 1, 1}, DefaultOptions(), "greedytl.Fit: y row 2 is 0: labels must be +1 or -1"},
		{"label NaN", nil, X, H, []float64{1, -1, 1, math.NaN(), 1, 1}, DefaultOptions(), "greedytl.Fit: y row 3 is NaN: labels must be +1 or -1"},
		{"one class", nil, X, H, []float64{1, 1, 1, 1, 1, 1}, DefaultOptions(), "one class"},
		{"m < 2", nil, randDense(rng, 1, 3), nil, []float64{1}, DefaultOptions(), "at least 2"},
		{"no labels", nil, nil, nil, nil, DefaultOptions(), "at least 2"},
		{"NaN in X", nil, with(X, 2, 1, math.NaN()), H, y, DefaultOptions(), "greedytl.Fit: X row 2 column 1 is NaN"},
		{"Inf in H", nil, X, with(H, 4, 3, math.Inf(-1)), y, DefaultOptions(), "greedytl.Fit: H row 4 column 3 is -Inf"},
		{"NaN in X, γ = 0", nil, with(X, 0, 2, math.NaN()), H, y, opt(func(o *Options) { o.FeatureFactor = 0 }), "greedytl.Fit: X row 0 column 2 is NaN"},
		{"NaN in H, r ≥ N", nil, X, with(H, 5, 0, math.NaN()), y, opt(func(o *Options) { o.Sample = 59 }), "greedytl.Fit: H row 5 column 0 is NaN"},
		{"overflow", nil, X, overflowing, y, DefaultOptions(), "column 1 of H cannot be standardised: its values are so far apart that their deviations from the mean overflow"},
		{"λ = 0", nil, X, H, y, Options{Delta: 1e-4, FeatureFactor: 1}, "Lambda must be positive"},
		{"λ < 0", nil, X, H, y, opt(func(o *Options) { o.Lambda = -1 }), "Lambda must be positive"},
		{"λ NaN", nil, X, H, y, opt(func(o *Options) { o.Lambda = math.NaN() }), "Lambda must be positive"},
		{"λ Inf", nil, X, H, y, opt(func(o *Options) { o.Lambda = math.Inf(1) }), "Lambda must be positive"},
		{"δ < 0", nil, X, H, y, opt(func(o *Options) { o.Delta = -1e-3 }), "Delta must be"},
		{"δ NaN", nil, X, H, y, opt(func(o *Options) { o.Delta = math.NaN() }), "Delta must be"},
		{"δ Inf", nil, X, H, y, opt(func(o *Options) { o.Delta = math.Inf(1) }), "Delta must be"},
		{"γ Inf", nil, X, H, y, opt(func(o *Options) { o.FeatureFactor = math.Inf(1) }), "FeatureFactor must be"},
		{"γ < 0", nil, X, H, y, opt(func(o *Options) { o.FeatureFactor = -1 }), "FeatureFactor must be"},
		{"γ NaN", nil, X, H, y, opt(func(o *Options) { o.FeatureFactor = math.NaN() }), "FeatureFactor must be"},
		{"Sample < 0", nil, X, H, y, opt(func(o *Options) { o.Sample = -59 }), "Sample must be"},
		{"MaxK < 0", nil, X, H, y, opt(func(o *Options) { o.MaxK = -1 }), "MaxK must be"},
		{"no matrices", nil, nil, nil, y, DefaultOptions(), "no candidate columns"},
		{"empty Dense", nil, &mat.Dense{}, nil, y, DefaultOptions(), "no candidate columns"},
		{"typed nil", nil, (*mat.Dense)(nil), nil, y, DefaultOptions(), "no candidate columns"},
		{"transposed typed nil", nil, (*mat.Dense)(nil).T(), (*mat.Dense)(nil).T(), y, DefaultOptions(), "no candidate columns"}, // panicked
		{"all constant", nil, const1, nil, y, DefaultOptions(), "every column of X and H is constant"},
		{"all constant, sampled", nil, const1, nil, y, opt(func(o *Options) { o.Sample = 1 }), "every column of X and H is constant"},
		{"λ too small", nil, X, H, y, opt(func(o *Options) { o.Lambda = 1e-300 }), "too small"},
		// A γ too large for λ names γ (the message blamed λ = 1 alone).
		{"γ too large", nil, X, H, y, opt(func(o *Options) { o.FeatureFactor = 1e300 }), "FeatureFactor γ = 1e+300 too large"},
		{"γ too large, sampled", nil, X, H, y, opt(func(o *Options) { o.FeatureFactor, o.Sample = 1e300, 2 }), "FeatureFactor γ = 1e+300 too large"},
		{"singular K + λI", nil, X, randDense(rng, m, 30), y, opt(func(o *Options) { o.Lambda, o.Delta = 1e-90, 0 }), "too small for these data"},
		{"singular K + λI, sampled", nil, X, randDense(rng, m, 30), y, opt(func(o *Options) { o.Lambda, o.Delta, o.Sample = 1e-90, 0, 5 }), "too small for these data"},
		{"cancelled", cancelled, X, H, y, DefaultOptions(), "interrupted"},
		{"cancelled, sampled", cancelled, X, H, y, opt(func(o *Options) { o.Sample = 2 }), "interrupted"},
	} {
		ctx := c.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		mod, err := Fit(ctx, c.X, c.H, c.y, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		} else if !strings.HasPrefix(err.Error(), "greedytl.Fit: ") {
			t.Errorf("%s: err = %v, want it to start with \"greedytl.Fit: \"", c.name, err)
		} else if err := errtest.OnePrefix(err.Error()); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if mod != nil {
			t.Errorf("%s: non-nil model with an error", c.name)
		}
		if strings.HasPrefix(c.name, "cancelled") && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v does not wrap context.Canceled", c.name, err)
		}
	}
}

// TestCancelDuringFit cancels a long fit (20000 steps) while it runs.
func TestCancelDuringFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	m := 20
	H := randDense(rng, m, 20000)
	y := randLabels(rng, m)
	o := DefaultOptions()
	o.Delta = 0
	for _, sample := range []int{0, 50} {
		o.Sample = sample
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		start := time.Now()
		_, err := Fit(ctx, nil, H, y, o)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("sample %d: err = %v after %v, want context.DeadlineExceeded", sample, err, time.Since(start))
		}
	}
}

// TestEmptyModel checks the model of a problem where no column gains δ.
func TestEmptyModel(t *testing.T) {
	y := []float64{1, -1, 1, -1}
	H := mat.NewDense(4, 1, []float64{1, 1, -1, -1}) // orthogonal to y
	mod := fitT(t, nil, H, y, DefaultOptions())
	if len(mod.Selected) != 0 || len(mod.Weights) != 0 || len(mod.Path) != 0 {
		t.Fatalf("selected %v", mod.Selected)
	}
	f, err := mod.Predict(nil, H)
	if err != nil || !reflect.DeepEqual(f, []float64{0, 0, 0, 0}) {
		t.Errorf("Predict = %v, %v; want zeros", f, err)
	}
	// Every λ gives the empty model (LOO error 1): the tie goes to the
	// largest λ.
	o := DefaultOptions()
	o.AutoLambda = true
	if mod := fitT(t, nil, H, y, o); mod.Options.Lambda != 1e4 || !mod.Options.AutoLambda {
		t.Errorf("AutoLambda on a tie chose λ = %v, want 1e4", mod.Options.Lambda)
	}
	// With δ = 0 a zero-gain column is still added.
	o = DefaultOptions()
	o.Delta = 0
	for _, s := range []int{0, 1} {
		o.Sample = s
		if mod := fitT(t, nil, H, y, o); len(mod.Selected) != 1 || math.Abs(mod.Path[0].Score) > 1e-12 {
			t.Errorf("δ = 0, sample %d: selected %v, path %v", s, mod.Selected, mod.Path)
		}
	}
}

// TestLarge fits N = 10⁶ candidates (m = 20); opt in with GREEDYTL_LARGE=1.
func TestLarge(t *testing.T) {
	if os.Getenv("GREEDYTL_LARGE") == "" {
		t.Skip("set GREEDYTL_LARGE=1 to fit 10⁶ candidates (needs ~400 MB)")
	}
	H, y := benchProblem(20, 1_000_000)
	for _, sample := range []int{0, 59} {
		o := DefaultOptions()
		o.Delta, o.MaxK, o.Sample = 0, 20, sample
		mod := fitT(t, nil, H, y, o)
		if len(mod.Selected) != 20 {
			t.Errorf("sample %d: selected %d columns", sample, len(mod.Selected))
		}
	}
}

// TestTies checks the tie rule: among identical columns the lowest
// candidate index wins, features before sources, in Fit's exact and
// sampled searches and in Gram.Fit (on its sample, and on a subset of a
// larger sample whose other rows tell the copies apart), at the first step
// (group B: feature 3, sources 0 and 5) and at the second (group A:
// feature 2, sources 1 and 4).
func TestTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 16))
	m := 14
	X, H := randDense(rng, m, 4), randDense(rng, m, 6)
	y := make([]float64, m)
	for i := 0; i < m; i++ {
		a, b := rng.NormFloat64(), rng.NormFloat64()
		y[i] = math.Copysign(1, a+0.6*b)
		X.Set(i, 2, a)
		H.Set(i, 1, a)
		H.Set(i, 4, a)
		X.Set(i, 3, b)
		H.Set(i, 0, b)
		H.Set(i, 5, b)
	}
	for _, sample := range []int{0, 10, 100} {
		o := DefaultOptions()
		o.Sample, o.MaxK = sample, 2
		if got := fitT(t, X, H, y, o).Selected; !reflect.DeepEqual(got, []Column{{Feature, 3}, {Feature, 2}}) {
			t.Errorf("sample %d: selected %v, want [feature 3 feature 2]", sample, got)
		}
		o.FeatureFactor = 0
		if got := fitT(t, X, H, y, o).Selected; !reflect.DeepEqual(got, []Column{{Source, 0}, {Source, 1}}) {
			t.Errorf("sample %d, γ = 0: selected %v, want [source 0 source 1]", sample, got)
		}
	}
	// Gram.Fit: on the sample itself, and on the first m rows of a sample
	// with 3 more rows on which the copies differ.
	X2, H2 := randDense(rng, m+3, 4), randDense(rng, m+3, 6)
	y2 := append(slices.Clone(y), 1, -1, 1)
	X2.Slice(0, m, 0, 4).(*mat.Dense).Copy(X)
	H2.Slice(0, m, 0, 6).(*mat.Dense).Copy(H)
	ctx := context.Background()
	whole, err := NewGram(ctx, X, H, y)
	if err != nil {
		t.Fatal(err)
	}
	big, err := NewGram(ctx, X2, H2, y2)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := big.Subset(ctx, seq(0, m))
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*Gram{"Gram": whole, "Gram subset": sub} {
		o := DefaultOptions()
		o.MaxK = 2
		want := []Column{{Feature, 3}, {Feature, 2}}
		for _, gamma := range []float64{1, 0} {
			o.FeatureFactor = gamma
			if gamma == 0 {
				want = []Column{{Source, 0}, {Source, 1}}
			}
			mod, err := g.Fit(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(mod.Selected, want) {
				t.Errorf("%s, γ = %g: selected %v, want %v", name, gamma, mod.Selected, want)
			}
		}
	}
	// With r = 8 of 10 candidates the draws are random, and the tie rule
	// picks the lowest drawn copy: feature 3 whenever it is drawn (80% of
	// the time), against a third of the time for "first drawn wins".
	o := DefaultOptions()
	o.Sample, o.MaxK = 8, 1
	n := 0
	for seed := range uint64(200) {
		o.Seed = seed
		if fitT(t, X, H, y, o).Selected[0] == (Column{Feature, 3}) {
			n++
		}
	}
	if n < 140 || n > 180 {
		t.Errorf("feature 3 chosen in %d of 200 runs, want about 160", n)
	}
}

// TestConstantRule checks which columns count as constant: relative
// spread 1e-14 (rounding noise) is constant, 1e-10 is not.
func TestConstantRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	m := 8
	y := randLabels(rng, m)
	H := mat.NewDense(m, 4, nil)
	for i := 0; i < m; i++ {
		H.Set(i, 0, 5*(1+1e-14*rng.NormFloat64()))
		H.Set(i, 1, 5*(1+1e-10*rng.NormFloat64()))
		H.Set(i, 2, 1e-200*rng.NormFloat64()) // tiny but varying: not constant
		H.Set(i, 3, -7)
	}
	o := DefaultOptions()
	o.Delta = 0
	mod := fitT(t, nil, H, y, o)
	got := map[int]bool{}
	for _, c := range mod.Selected {
		got[c.Index] = true
	}
	if !reflect.DeepEqual(got, map[int]bool{1: true, 2: true}) {
		t.Errorf("selected %v, want sources 1 and 2 (0 and 3 are constant)", mod.Selected)
	}
}

// TestEngineReuse checks that an engine reused across paths (as AutoLambda
// does) gives every path exactly what a fresh engine gives.
func TestEngineReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 18))
	m := 12
	X, H := randWithConstants(rng, m, 15, 15, map[Column]float64{{Feature, 3}: 1, {Source, 8}: 2, {Source, 9}: 0})
	y := randLabels(rng, m)
	for _, sample := range []int{0, 5} {
		o := DefaultOptions()
		o.Sample, o.Seed, o.Delta = sample, 4, 0
		in, err := newInputs("greedytl.Fit", X, H, y, 1)
		if err != nil {
			t.Fatal(err)
		}
		newEngine := func() engine {
			if sample > 0 {
				return newSample(in, sample, o.Seed)
			}
			e, err := newExact(context.Background(), in, y)
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
		globals := func(e engine, p *path) []int {
			g := make([]int, len(p.sel))
			for i, s := range p.sel {
				g[i] = e.global(s)
			}
			return g
		}
		shared := newEngine()
		for _, l := range lambdaGrid {
			fresh := newEngine()
			p1, err1 := run(context.Background(), shared, y, l, &o)
			p2, err2 := run(context.Background(), fresh, y, l, &o)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			g1, g2 := globals(shared, p1), globals(fresh, p2)
			if !reflect.DeepEqual(g1, g2) || !reflect.DeepEqual(p1.loo, p2.loo) {
				t.Errorf("sample %d, λ = %g: reused engine selects %v, fresh %v", sample, l, g1, g2)
			}
		}
	}
}

// TestSampleSlotMap checks that the map used for large N gives the same
// models as the array used for small N.
func TestSampleSlotMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 19))
	m := 10
	X, H := randWithConstants(rng, m, 40, 60, map[Column]float64{{Source, 5}: 1})
	y := randLabels(rng, m)
	for _, o := range []Options{
		{Lambda: 1, Delta: 1e-4, FeatureFactor: 1, Sample: 7, Seed: 1},
		{Lambda: 1, Delta: 0, FeatureFactor: 1, Sample: 7, Seed: 2, MaxK: 95},
		{Delta: 1e-4, FeatureFactor: 0, Sample: 3, Seed: 3, AutoLambda: true},
	} {
		want := fitT(t, X, H, y, o)
		old := slotArrayMax
		slotArrayMax = 0
		got := fitT(t, X, H, y, o)
		slotArrayMax = old
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: map and array give different models", o)
		}
	}
}

// TestEnginesStandardizeAlike checks that the exact search (which reads
// row-major data row by row) and the sampled one (column by column)
// standardise every column bitwise identically.
func TestEnginesStandardizeAlike(t *testing.T) {
	for _, m := range []int{2, 5, 8, 13} {
		rng := rand.New(rand.NewPCG(20, uint64(m)))
		X, H := randDense(rng, m, 70), randDense(rng, m, 1100)
		for i := 0; i < m; i++ {
			X.Set(i, 3, 4)
			H.Set(i, 9, 1e-200*rng.NormFloat64())
			H.Set(i, 10, 1e6+rng.NormFloat64())
		}
		y := randLabels(rng, m)
		in, err := newInputs("greedytl.Fit", X, H, y, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := newExact(context.Background(), in, y)
		if err != nil {
			t.Fatal(err)
		}
		sa := newSample(in, 1<<30, 1)
		if err := sa.reset(1); err != nil {
			t.Fatal(err)
		}
		if _, err := sa.pickAll(newPath(y, 1, newFeatureScale(1, true), 0)); err != nil {
			t.Fatal(err)
		}
		if len(sa.valid) != ex.n {
			t.Fatalf("m = %d: %d non-constant columns in the sampled engine, %d in the exact", m, len(sa.valid), ex.n)
		}
		for k, s := range sa.valid {
			if sa.global(int(s)) != ex.global(k) || sa.stats(int(s)) != ex.stats(k) || !reflect.DeepEqual(sa.col(int(s)), ex.col(k)) {
				t.Fatalf("m = %d: column %d standardised differently: %v %v vs %v %v", m, ex.global(k), sa.stats(int(s)), sa.col(int(s)), ex.stats(k), ex.col(k))
			}
		}
	}
}

// TestSampleDraws checks the sampled search's draws directly: every step
// scores exactly r distinct, unselected, non-constant candidates, also when
// many columns are constant (so that a step needs several rounds of draws).
func TestSampleDraws(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	m, n, r := 8, 400, 9
	H := randDense(rng, m, n)
	for j := 0; j < n; j += 3 {
		for i := 0; i < m; i++ {
			H.Set(i, j, 7) // a third of the columns are constant
		}
	}
	y := randLabels(rng, m)
	in, err := newInputs("greedytl.Fit", nil, H, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := newSample(in, r, 5)
	if err := e.reset(1); err != nil {
		t.Fatal(err)
	}
	p := newPath(y, 1, newFeatureScale(1, true), 0)
	for step := 0; step < 100; step++ {
		s, err := e.pick(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.cand) != r {
			t.Fatalf("step %d scored %d candidates, want %d", step, len(e.cand), r)
		}
		seen := map[int]bool{}
		for _, c := range e.cand {
			j := e.global(c)
			if seen[j] || j%3 == 0 || e.mark[c] == markSelected {
				t.Fatalf("step %d: candidate %d is repeated, constant or selected (%v)", step, j, e.cand)
			}
			seen[j] = true
		}
		z := e.col(s)
		c, tt, err := p.score(z)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.add(s, z, c, tt); err != nil {
			t.Fatal(err)
		}
		e.added(p, s, p.g, c, tt/c, false)
	}
}

// randWithConstants returns random m×d features and m×n source scores
// (randDense) whose columns named in constant hold the value given.
func randWithConstants(rng *rand.Rand, m, d, n int, constant map[Column]float64) (X, H *mat.Dense) {
	X, H = randDense(rng, m, d), randDense(rng, m, n)
	for c, v := range constant {
		M := X
		if c.Kind == Source {
			M = H
		}
		for i := range m {
			M.Set(i, c.Index, v)
		}
	}
	return X, H
}
