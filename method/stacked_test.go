package method

import (
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestStackedLogisticScikitLearn compares stacked-logistic's fit at a given
// C with scikit-learn 1.2.1's LogisticRegression(penalty="l2", C=C,
// solver="liblinear", class_weight="balanced", intercept_scaling=1,
// tol=1e-12) on StandardScaler-standardised columns
// X_ik = (k+1)·sin(0.9i + 1.7k) + k (12 × 4), y = +1 for i ∈ {0, 4, 7}.
// The objective is strongly convex with modulus 1 and our solver stops at
// ||∇f(w)|| ≤ 1e-4·||∇f(0)||, so ||w − w*|| ≤ 1e-4·||∇f(0)||: the bound the
// test allows.
func TestStackedLogisticScikitLearn(t *testing.T) {
	const m, d = 12, 4
	X := mat.NewDense(m, d, nil)
	y := make([]float64, m)
	for i := range m {
		for k := range d {
			X.Set(i, k, float64(k+1)*math.Sin(0.9*float64(i)+1.7*float64(k))+float64(k))
		}
		y[i] = -1
		if i == 0 || i == 4 || i == 7 {
			y[i] = 1
		}
	}
	rows := make([]int, m)
	for i := range rows {
		rows[i] = i
	}
	sc, fit, err := stackedLogistic{}.fitRows(context.Background(), X, y, rows)
	if err != nil {
		t.Fatal(err)
	}
	z, err := sc.Transform(X)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    float64
		want []float64 // coef_, then intercept_
	}{
		{0.1, []float64{-0.12139415895748591, 0.1393932560697881, 0.0794682679140734, -0.16239720007561784, -0.02006513181439586}},
		{10, []float64{-0.48272810292187973, 0.3966743057185353, 0.3601161678170012, -0.49476225008482017, -0.3033499527108576}},
	} {
		w, _, err := fit(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		// ∇f(0) = −(C/2)·Σ_i ζ_i y_i (z_i, 1), ζ_i = m/(2m_class).
		g0 := make([]float64, d+1)
		for i := range m {
			zeta := float64(m) / (2 * 3)
			if y[i] < 0 {
				zeta = float64(m) / (2 * 9)
			}
			for k := range d {
				g0[k] -= tc.c / 2 * zeta * y[i] * z.At(i, k)
			}
			g0[d] -= tc.c / 2 * zeta * y[i]
		}
		var n0, dist float64
		for k := range g0 {
			n0 += g0[k] * g0[k]
			dist += (w[k] - tc.want[k]) * (w[k] - tc.want[k])
		}
		if bound := 1e-4 * math.Sqrt(n0); math.Sqrt(dist) > bound {
			t.Errorf("C = %g: weights %v, scikit-learn %v (distance %.3g > %.3g)", tc.c, w, tc.want, math.Sqrt(dist), bound)
		}
	}
}

// TestStackedLogisticUnstandardisable: a column whose deviations overflow
// is refused before any fold is fitted, naming its matrix and its index
// in it (not in [X, H]), with the words of the methods that standardise
// [X, H] (elastic-net's).
func TestStackedLogisticUnstandardisable(t *testing.T) {
	const m = 8
	X, H := mat.NewDense(m, 2, nil), mat.NewDense(m, 3, nil)
	y := make([]float64, m)
	for i := range m {
		X.Set(i, 0, float64(i%3))
		X.Set(i, 1, float64(i*i%5))
		for k := range 3 {
			H.Set(i, k, math.Sin(float64(i+3*k)))
		}
		y[i] = float64(2*(i%2) - 1)
	}
	// Deviations from the mean beyond MaxFloat64: Max, Max, then −Max.
	bad := []float64{math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64, 0, 1, 2, 3, 4}
	for _, tc := range []struct {
		matrix *mat.Dense
		col    int
		want   string
	}{{X, 1, "method: X: column 1 cannot be standardised"}, {H, 2, "method: H: column 2 cannot be standardised"}} {
		saved := mat.Col(nil, tc.col, tc.matrix)
		tc.matrix.SetCol(tc.col, bad)
		train := Data{X: X, H: H, Y: y}
		_, err := stackedLogistic{}.Fit(context.Background(), train, Extra{Seed: 1})
		_, lerr := logistic{name: "elastic-net", l1Ratio: 0.5}.Fit(context.Background(), train, Extra{Seed: 1})
		if err == nil || !strings.Contains(err.Error(), tc.want) || lerr == nil ||
			strings.TrimPrefix(err.Error(), "method: stacked-logistic: ") != strings.TrimPrefix(lerr.Error(), "method: elastic-net: ") {
			t.Errorf("stacked-logistic's error %v; want %q, as elastic-net's %v", err, tc.want, lerr)
		}
		tc.matrix.SetCol(tc.col, saved)
	}
}
