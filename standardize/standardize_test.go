package standardize

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// TestConstant checks the rule's two parts: relative (std ≤ ConstTol·|mean|)
// and absolute (std below the smallest normal float64), given as (mean, std).
func TestConstant(t *testing.T) {
	constant := [][2]float64{{0, 0}, {1, 1e-12}, {-1e6, 1e-6}, {0, 0x1p-1023}}
	varying := [][2]float64{{1, 2e-12}, {0, 0x1p-1022}, {1e300, 1e289}}
	for _, c := range constant {
		if !Constant(c[0], c[1]) {
			t.Errorf("Constant(%v, %v) = false, want true", c[0], c[1])
		}
	}
	for _, c := range varying {
		if Constant(c[0], c[1]) {
			t.Errorf("Constant(%v, %v) = true, want false", c[0], c[1])
		}
	}
}

// TestScaler compares Fit's statistics with gonum's stat.PopMeanStdDev
// (computed in units of the largest value, so that tiny columns do not
// underflow) and checks the constant-column convention: exactly constant,
// constant within ConstTol, and too small to standardise all get scale 0 and
// standardise to exact zeros, on training and test rows alike.
func TestScaler(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const m, c = 9, 7
	A := mat.NewDense(m, c, nil)
	for i := range m {
		for j := range c {
			A.Set(i, j, float64(j*j)*rng.NormFloat64()+1e3*float64(j))
		}
		A.Set(i, 0, 0.1)                        // exactly constant (its mean rounds)
		A.Set(i, 4, 1e6*(1+1e-15*float64(i%2))) // constant within ConstTol
		A.Set(i, 5, float64(i%3)*1e-200+3e-201) // tiny but varying: not constant
		A.Set(i, 6, float64(2*(i%2)-1)*1e-320)  // too small to standardise: constant
	}
	orig := mat.DenseCopyOf(A)
	s := Fit(A)
	if s.Len() != c {
		t.Fatalf("Len() = %d", s.Len())
	}
	Z, err := s.Transform(A)
	switch {
	case err != nil:
		t.Fatal(err)
	case !mat.Equal(A, orig):
		t.Error("Fit or Transform modified its input")
	}
	col := make([]float64, m)
	for j := range c {
		mat.Col(col, j, A)
		// Reference statistics, computed in units of the largest value
		// (column 5's variance underflows otherwise).
		unit := floats.Norm(col, math.Inf(1))
		floats.Scale(1/unit, col)
		mu, sd := stat.PopMeanStdDev(col, nil)
		mu, sd = mu*unit, sd*unit
		switch j {
		case 0, 4, 6:
			if s.Scale[j] != 0 {
				t.Errorf("constant column %d: scale %v, want 0", j, s.Scale[j])
			}
			if mat.Norm(Z.ColView(j), 1) != 0 {
				t.Errorf("constant column %d does not standardise to exact zeros", j)
			}
		default:
			if math.Abs(s.Mean[j]-mu) > 1e-13*math.Max(math.Abs(mu), sd) || math.Abs(s.Scale[j]-sd) > 1e-13*sd {
				t.Errorf("column %d: mean %v scale %v, want %v %v", j, s.Mean[j], s.Scale[j], mu, sd)
			}
			mat.Col(col, j, Z)
			zm, zs := stat.PopMeanStdDev(col, nil)
			if math.Abs(zm) > 1e-12 || math.Abs(zs-1) > 1e-12 {
				t.Errorf("column %d standardises to mean %v, std %v", j, zm, zs)
			}
		}
	}
	// Test rows use the training statistics; constant columns give 0
	// whatever the test value.
	B := mat.NewDense(1, c, []float64{5, 1, 2, 3, 1e308, 0, -1e308})
	ZB, err := s.Transform(B)
	if err != nil {
		t.Fatal(err)
	}
	for j := range c {
		want := (B.At(0, j) - s.Mean[j]) / s.Scale[j]
		if s.Scale[j] == 0 {
			want = 0
		}
		if ZB.At(0, j) != want || s.Value(j, B.At(0, j)) != want {
			t.Errorf("test column %d: %v, want %v", j, ZB.At(0, j), want)
		}
	}
}

// TestTooSmallIsConstant is issue 9's case: a training column of ±1e-320
// used to get a scale of 1e-320, and test values standardised to ±Inf.
func TestTooSmallIsConstant(t *testing.T) {
	for _, v := range []float64{1e-320, 5e-324, 1e-310} {
		A := mat.NewDense(4, 1, []float64{v, -v, v, -v})
		s := Fit(A)
		if s.Scale[0] != 0 {
			t.Errorf("±%v: scale %v, want 0 (constant)", v, s.Scale[0])
		}
		Z, err := s.Transform(mat.NewDense(1, 1, []float64{1}))
		if err != nil || Z.At(0, 0) != 0 {
			t.Errorf("±%v: test value 1 standardises to %v, %v; want 0", v, Z, err)
		}
	}
	// Just above MinStd a column is standardised.
	A := mat.NewDense(2, 1, []float64{0x1p-1020, -0x1p-1020})
	if s := Fit(A); s.Scale[0] != 0x1p-1020 {
		t.Errorf("scale %v, want 2⁻¹⁰²⁰", s.Scale[0])
	}
}

func TestMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, tc := range []struct {
		name string
		v    []float64
	}{
		{"ordinary", []float64{1, 2, 3, 4, 5, 6, 7}},
		{"tiny", []float64{1e-200, 3e-200, -2e-200, 5e-201, 0}},
		{"huge", []float64{1e308, -1e308, 1.5e308, 0.5e308, -1.7e308}},
		{"random", func() []float64 {
			v := make([]float64, 23)
			for i := range v {
				v[i] = 1e3 + rng.NormFloat64()
			}
			return v
		}()},
	} {
		mean, std, ok := Moments(tc.v)
		if !ok {
			t.Errorf("%s: not ok", tc.name)
			continue
		}
		unit := floats.Norm(tc.v, math.Inf(1))
		u := append([]float64(nil), tc.v...)
		floats.Scale(1/unit, u)
		mu, sd := stat.PopMeanStdDev(u, nil)
		if math.Abs(mean-mu*unit) > 1e-14*unit || math.Abs(std-sd*unit) > 1e-13*sd*unit {
			t.Errorf("%s: Moments = %v, %v; want %v, %v", tc.name, mean, std, mu*unit, sd*unit)
		}
	}
	for _, v := range [][]float64{{1, math.NaN()}, {math.Inf(1), 1}, {math.Inf(1), math.Inf(-1)}} {
		if _, _, ok := Moments(v); ok {
			t.Errorf("Moments(%v) ok", v)
		}
	}
}

func TestScalerErrors(t *testing.T) {
	empty := Fit(nil)
	if empty.Len() != 0 {
		t.Fatalf("Fit(nil) has %d columns", empty.Len())
	}
	var nilDense *mat.Dense
	if Fit(nilDense).Len() != 0 {
		t.Fatal("Fit of a typed nil has columns")
	}
	if Z, err := empty.Transform(nil); Z != nil || err != nil {
		t.Errorf("empty Transform(nil) = %v, %v", Z, err)
	}
	if Z, err := empty.Transform(&mat.Dense{}); Z != nil || err != nil {
		t.Errorf("empty Transform(empty) = %v, %v", Z, err)
	}
	s := Fit(mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 7}))
	nan := mat.NewDense(1, 2, []float64{0, math.NaN()})
	for _, tc := range []struct {
		name string
		s    Scaler
		A    *mat.Dense
		want string
	}{
		{"too few columns", s, mat.NewDense(1, 1, []float64{1}), "1 columns with statistics of 2"},
		{"absent matrix", s, nil, "0 columns"},
		{"columns for an empty scaler", empty, mat.NewDense(1, 1, []float64{1}), "1 columns with statistics of 0"},
		{"NaN", s, nan, "[0][1] is NaN"},
		{"+Inf", s, mat.NewDense(1, 2, []float64{math.Inf(1), 0}), "[0][0] is +Inf"},
		{"overflow", Scaler{Mean: []float64{0}, Scale: []float64{1e-300}}, mat.NewDense(1, 1, []float64{1e10}), "[0][0] = 1e+10 is too large to standardise"},
		{"negative scale", Scaler{Mean: []float64{0}, Scale: []float64{-1}}, mat.NewDense(1, 1, nil), "scale 0 is -1"},
		{"subnormal scale", Scaler{Mean: []float64{0}, Scale: []float64{1e-320}}, mat.NewDense(1, 1, nil), "scale 0 is 1e-320"},
		{"NaN mean", Scaler{Mean: []float64{math.NaN()}, Scale: []float64{1}}, mat.NewDense(1, 1, nil), "mean 0 is NaN"},
		{"ragged", Scaler{Mean: []float64{0}}, mat.NewDense(1, 1, nil), "1 means but 0 scales"},
	} {
		_, err := tc.s.Transform(tc.A)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, _, err := FitTransform(nan); err == nil || !strings.Contains(err.Error(), "[0][1] is NaN") {
		t.Errorf("FitTransform(NaN) error %v", err)
	}
}
