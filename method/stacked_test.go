package method

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
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

// rowOrderCases are the training samples of the row-order property tests
// of stacked-logistic and dictionary: 20 rows of 10 positives (the size of
// the review's repro), 30 rows of 8, and 24 rows of 6 without sources.
func rowOrderCases() []struct {
	what string
	c    conformanceCase
} {
	return []struct {
		what string
		c    conformanceCase
	}{
		{"20 rows, 10 positives", newConformanceCase(61, 20, 10, 8, 6)},
		{"30 rows, 8 positives", newConformanceCase(62, 30, 8, 10, 5)},
		{"24 rows, 6 positives, no sources", newConformanceCase(63, 24, 6, 8, 3).withoutSources()},
	}
}

// checkIgnoresRowOrder fits the binary method name on each of
// rowOrderCases and on 5 random permutations of its training rows, and
// reports every permutation whose model file (bytes) or test scores differ
// from the unpermuted rows'.
func checkIgnoresRowOrder(t *testing.T, name string) {
	t.Helper()
	for _, tc := range rowOrderCases() {
		t.Run(tc.what, func(t *testing.T) {
			fileOf := func(c conformanceCase) (Model, []byte) {
				t.Helper()
				m := mustFit(t, name, c)
				var buf bytes.Buffer
				if err := WriteModel(&buf, m); err != nil {
					t.Fatal(err)
				}
				return m, buf.Bytes()
			}
			m0, f0 := fileOf(tc.c)
			want := mustPredict(t, m0, tc.c.test)
			rng := rand.New(rand.NewPCG(11, 12))
			for p := range 5 {
				c := tc.c
				c.train = selectRows(tc.c.train, rng.Perm(len(tc.c.train.Y)))
				m, f := fileOf(c)
				if got := m.Hyperparameters(); !maps.Equal(got, m0.Hyperparameters()) {
					t.Errorf("permutation %d: hyperparameters %v, %v with the rows in their order", p, got, m0.Hyperparameters())
				}
				got := mustPredict(t, m, c.test)
				flips := 0
				for i := range got {
					if (got[i] > 0) != (want[i] > 0) {
						flips++
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("permutation %d: the test scores differ (%d of %d predictions change sign)", p, flips, len(got))
				}
				if !bytes.Equal(f, f0) {
					t.Errorf("permutation %d: the model file differs", p)
				}
			}
		})
	}
}

// TestStackedLogisticIgnoresRowOrder: any permutation of the training rows
// gives the same model file, byte for byte (Fit reads the rows in content
// order, in which linear.StratifiedFolds deals them to the folds). Before,
// the folds were dealt in the order given, and a permutation of 20 rows
// moved C from 1 to 0.01 and flipped predictions.
func TestStackedLogisticIgnoresRowOrder(t *testing.T) {
	checkIgnoresRowOrder(t, "stacked-logistic")
}

// TestOneVsRestIgnoresRowOrder: stacked-logistic and dictionary one class
// against the rest, on 4 classes of 5 and 3 classes of 8, give for any
// permutation of the training rows the same binary model files, byte for
// byte (each binary fit reads the rows in content order), and the same
// predictions. The multi-class file is not byte-identical: its
// "score_scale" (multiovr.go's rms of each member's training scores) sums
// the squares in the order the rows were given, so its last bits follow
// that order; it must agree to within that summation's rounding, m units
// in the last place.
func TestOneVsRestIgnoresRowOrder(t *testing.T) {
	for _, name := range []string{"stacked-logistic", "dictionary"} {
		for _, p := range []struct {
			what           string
			seed           uint64
			K, shots, d, n int
		}{
			{"4 classes of 5", 21, 4, 5, 6, 4},
			{"3 classes of 8", 23, 3, 8, 6, 3},
		} {
			t.Run(name+"/"+p.what, func(t *testing.T) {
				train, y, test, _ := multiProblem(p.seed, p.K, p.shots, 4, p.d, p.n)
				members := func(m MultiModel) (files [][]byte, scale []float64) {
					t.Helper()
					o, ok := m.(*ovrModel)
					if !ok {
						t.Fatalf("%s's multi-class model is a %T, not one against the rest", name, m)
					}
					for _, b := range o.models {
						var buf bytes.Buffer
						if err := WriteModel(&buf, b); err != nil {
							t.Fatal(err)
						}
						files = append(files, buf.Bytes())
					}
					return files, o.scale
				}
				m0, _ := multiFile(t, name, train, y)
				f0, sc0 := members(m0)
				s0, err := m0.Scores(test)
				if err != nil {
					t.Fatal(err)
				}
				tol := float64(len(y.Y)) * 0x1p-52
				rng := rand.New(rand.NewPCG(13, 14))
				for q := range 3 {
					perm := rng.Perm(len(y.Y))
					py := ClassLabels{Names: y.Names, Y: make([]int, len(perm))}
					for i, r := range perm {
						py.Y[i] = y.Y[r]
					}
					m, _ := multiFile(t, name, selectRows(train, perm), py)
					f, sc := members(m)
					for k := range f {
						if !bytes.Equal(f[k], f0[k]) {
							t.Errorf("permutation %d: class %d's binary model file differs", q, k)
						}
						if math.Abs(sc[k]-sc0[k]) > tol*sc0[k] {
							t.Errorf("permutation %d: class %d's score scale %v, %v with the rows in their order", q, k, sc[k], sc0[k])
						}
					}
					s, err := m.Scores(test)
					if err != nil {
						t.Fatal(err)
					}
					if got, want := argmaxOf(t, s), argmaxOf(t, s0); !slices.Equal(got, want) {
						t.Errorf("permutation %d: predictions %v, %v with the rows in their order", q, got, want)
					}
				}
			})
		}
	}
}

// TestStackedFoldColumnNamed: a column that the rows outside a
// cross-validation fold cannot standardise (H column 1 is +1e308 but for
// three −1e308s: the whole sample's deviations from the mean stay finite,
// those of the rows outside some fold do not) is named as the caller
// counts it, "H column 1", as l1-logistic's and elastic-net's folds name
// it (nameFoldError; stacked-logistic standardises the block [X, H], whose
// column 3 it is), and the standardiser's error stays in the chain.
func TestStackedFoldColumnNamed(t *testing.T) {
	const m = 20
	X, H := mat.NewDense(m, 2, nil), mat.NewDense(m, 2, nil)
	y := make([]float64, m)
	for i := range m {
		y[i] = float64(1 - 2*(i%2))
		X.Set(i, 0, float64(i%5)+y[i])
		X.Set(i, 1, float64((i*7)%4))
		H.Set(i, 0, float64(i%3)-y[i])
		H.Set(i, 1, 1e308)
	}
	for _, i := range []int{0, 1, 9} {
		H.Set(i, 1, -1e308)
	}
	_, err := stackedLogistic{}.Fit(context.Background(), Data{X: X, H: H, Y: y}, Extra{Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "choosing C by cross-validation: H column 1 cannot be standardised on the rows outside a fold") {
		t.Fatalf("%v, want an error naming H column 1", err)
	}
	var std bool
	for e := err; e != nil; e = errors.Unwrap(e) {
		std = std || strings.HasPrefix(e.Error(), "column 3 cannot be standardised")
	}
	if !std {
		t.Errorf("%v does not wrap the standardiser's error (block column 3)", err)
	}
}
