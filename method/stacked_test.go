package method

import (
	"context"
	"math"
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
