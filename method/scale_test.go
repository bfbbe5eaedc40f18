package method

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestScaler(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const m, c = 9, 6
	A := mat.NewDense(m, c, nil)
	for i := range m {
		for j := range c {
			A.Set(i, j, float64(j*j)*rng.NormFloat64()+1e3*float64(j))
		}
		A.Set(i, 0, 0.1)                        // exactly constant (its mean rounds)
		A.Set(i, 4, 1e6*(1+1e-15*float64(i%2))) // constant within constTol
		A.Set(i, 5, float64(i%3)*1e-200+3e-201) // tiny but varying: not constant
	}
	orig := mat.DenseCopyOf(A)
	s := FitScaler(A)
	if s.Len() != c {
		t.Fatalf("Len() = %d", s.Len())
	}
	Z, err := s.Transform(A)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(A, orig) {
		t.Error("FitScaler or Transform modified its input")
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
		case 0, 4:
			if s.Scale[j] != 1 {
				t.Errorf("constant column %d: scale %v, want 1", j, s.Scale[j])
			}
			for i := range m {
				if z := Z.At(i, j); math.Abs(z) > 1e-12*math.Abs(mu) {
					t.Errorf("constant column %d: standardised value %v", j, z)
				}
			}
			if j == 0 && mat.Norm(Z.ColView(0), 1) != 0 {
				t.Error("an exactly constant column does not standardise to exact zeros")
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
	// Test rows use the training statistics.
	B := mat.NewDense(1, c, []float64{5, 1, 2, 3, 4, 0})
	ZB, err := s.Transform(B)
	if err != nil {
		t.Fatal(err)
	}
	for j := range c {
		if want := (B.At(0, j) - s.Mean[j]) / s.Scale[j]; ZB.At(0, j) != want {
			t.Errorf("test column %d: %v, want %v", j, ZB.At(0, j), want)
		}
	}
}

func TestScalerErrors(t *testing.T) {
	empty := FitScaler(nil)
	if empty.Len() != 0 {
		t.Fatalf("FitScaler(nil) has %d columns", empty.Len())
	}
	if Z, err := empty.Transform(nil); Z != nil || err != nil {
		t.Errorf("empty Transform(nil) = %v, %v", Z, err)
	}
	if Z, err := empty.Transform(&mat.Dense{}); Z != nil || err != nil {
		t.Errorf("empty Transform(empty) = %v, %v", Z, err)
	}
	s := FitScaler(mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 7}))
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
		{"zero scale", Scaler{Mean: []float64{0}, Scale: []float64{0}}, mat.NewDense(1, 1, nil), "scale 0 is 0"},
		{"NaN mean", Scaler{Mean: []float64{math.NaN()}, Scale: []float64{1}}, mat.NewDense(1, 1, nil), "mean 0 is NaN"},
		{"ragged", Scaler{Mean: []float64{0}}, mat.NewDense(1, 1, nil), "1 means but 0 scales"},
	} {
		_, err := tc.s.Transform(tc.A)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
