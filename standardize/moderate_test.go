package standardize

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/inputcheck"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// trigammaBrute is the definition ψ₁(x) = Σ_{k≥0} 1/(x+k)², summed to
// k < 10⁶ with the tail Σ_{k≥N} 1/(x+k)² ≈ 1/(x+N−½) (error O(N⁻³)).
func trigammaBrute(x float64) float64 {
	const N = 1000000
	var s float64
	for k := N - 1; k >= 0; k-- { // smallest terms first
		s += 1 / ((x + float64(k)) * (x + float64(k)))
	}
	return s + 1/(x+N-0.5)
}

// TestTrigamma compares trigamma with closed forms (ψ₁(1) = π²/6,
// ψ₁(½) = π²/2, ψ₁(2) = π²/6 − 1) and with its defining series.
func TestTrigamma(t *testing.T) {
	for _, c := range [][2]float64{{1, math.Pi * math.Pi / 6}, {0.5, math.Pi * math.Pi / 2}, {2, math.Pi*math.Pi/6 - 1}} {
		if got := trigamma(c[0]); math.Abs(got-c[1]) > 1e-12*c[1] {
			t.Errorf("trigamma(%v) = %v, want %v", c[0], got, c[1])
		}
	}
	for _, x := range []float64{0.7, 1.5, 3.2, 5.9, 9.99, 10, 12.5, 99.5} {
		if got, want := trigamma(x), trigammaBrute(x); math.Abs(got-want) > 1e-12*want {
			t.Errorf("trigamma(%v) = %v, the series gives %v", x, got, want)
		}
	}
}

// moderatedBrute is FitModerated's definition written with gonum's stat
// and trigammaBrute.
func moderatedBrute(A *mat.Dense) (mean, scale []float64) {
	m, c := A.Dims()
	mean, scale = make([]float64, c), make([]float64, c)
	var l, kurt []float64
	var cols []int
	for j := range c {
		v := mat.Col(nil, j, A)
		mu, sd := stat.PopMeanStdDev(v, nil)
		mean[j] = mu
		if sd <= 1e-12*math.Abs(mu) {
			continue
		}
		scale[j] = sd
		cols = append(cols, j)
		l = append(l, math.Log(sd*sd))
		var m4 float64 // the population kurtosis
		for _, x := range v {
			m4 += math.Pow((x-mu)/sd, 4) / float64(m)
		}
		kurt = append(kurt, m4)
	}
	if len(cols) < 2 {
		return mean, scale
	}
	lbar, S := stat.MeanStdDev(l, nil)
	nu := trigammaBrute(float64(m-1)/2) * (stat.Mean(kurt, nil) - 1) / 2
	tau2 := math.Max(S*S-nu, 0)
	B := tau2 / (tau2 + nu)
	var ratio float64
	for t, j := range cols {
		tj := math.Sqrt(math.Exp(lbar + B*(l[t]-lbar)))
		ratio += scale[j] * scale[j] / (tj * tj) / float64(len(cols))
		scale[j] = tj
	}
	for _, j := range cols {
		scale[j] *= math.Sqrt(ratio)
	}
	return mean, scale
}

// TestFitModerated checks FitModerated against its definition
// (moderatedBrute) on blocks whose column scales barely differ (normal or
// sparse columns) and differ by orders
// of magnitude (kept; normal columns of similar scales are shrunk to
// nearly one scale), and its properties: Fit's means, constant columns
// at scale 0, standardised variances averaging 1, the scales between one
// common scale and Fit's (log scale), equivariance under a common factor
// and row and column permutations, and Fit itself with fewer than two
// varying columns.
func TestFitModerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for _, tc := range []struct {
		name   string
		m, c   int
		spread float64 // log10 range of the column scales
		sparse bool
	}{
		{"similar scales, 5 rows", 5, 30, 0.1, false},
		{"sparse columns, 20 rows", 20, 40, 0.2, true},
		{"scales over 4 decades, 5 rows", 5, 30, 4, false},
		{"scales over 1 decade, 200 rows", 200, 25, 1, false},
	} {
		A := mat.NewDense(tc.m, tc.c, nil)
		for j := range tc.c {
			sc := math.Pow(10, tc.spread*rng.Float64())
			for i := range tc.m {
				v := sc * rng.NormFloat64()
				if tc.sparse && rng.Float64() < 0.8 {
					v = 0
				}
				A.Set(i, j, v+3)
			}
		}
		for i := range tc.m {
			A.Set(i, 2, 7) // constant
		}
		s := FitModerated(A)
		f := Fit(A)
		wantMean, wantScale := moderatedBrute(A)
		var ratio float64
		lo, hi := math.Inf(1), math.Inf(-1)
		for j := range tc.c {
			if math.Abs(s.Mean[j]-f.Mean[j]) > 0 || math.Abs(s.Mean[j]-wantMean[j]) > 1e-12*math.Abs(wantMean[j]) {
				t.Errorf("%s: mean %d = %v, Fit's %v, definition %v", tc.name, j, s.Mean[j], f.Mean[j], wantMean[j])
			}
			if math.Abs(s.Scale[j]-wantScale[j]) > 1e-6*wantScale[j] {
				t.Errorf("%s: scale %d = %v, the definition gives %v", tc.name, j, s.Scale[j], wantScale[j])
			}
			if j == 2 {
				if s.Scale[j] != 0 {
					t.Errorf("%s: constant column's scale %v, want 0", tc.name, s.Scale[j])
				}
				continue
			}
			r := f.Scale[j] / s.Scale[j]
			ratio += r * r
			lo, hi = math.Min(lo, math.Log(s.Scale[j]/f.Scale[j])), math.Max(hi, math.Log(s.Scale[j]/f.Scale[j]))
		}
		if mean := ratio / float64(tc.c-1); math.Abs(mean-1) > 1e-12 {
			t.Errorf("%s: the standardised variances average %v, want 1", tc.name, mean)
		}
		// The shrinkage: strong where the scales hardly differ, weak where
		// they span decades.
		var spreadFit, spreadMod float64
		for j := range tc.c {
			if j != 2 {
				spreadFit = math.Max(spreadFit, math.Abs(math.Log(f.Scale[j]/f.Scale[0])))
				spreadMod = math.Max(spreadMod, math.Abs(math.Log(s.Scale[j]/s.Scale[0])))
			}
		}
		if spreadMod > spreadFit+1e-12 {
			t.Errorf("%s: moderated scales spread %v, more than Fit's %v", tc.name, spreadMod, spreadFit)
		}
		if tc.spread >= 1 && spreadMod < 0.8*spreadFit {
			t.Errorf("%s: scales over %v decades shrunk from a spread of %v to %v", tc.name, tc.spread, spreadFit, spreadMod)
		}
		if tc.spread < 1 && !tc.sparse && spreadMod > 0.5*spreadFit {
			t.Errorf("%s: noise-level scales kept: spread %v of Fit's %v", tc.name, spreadMod, spreadFit)
		}
		// Equivariance: a common factor, permuted rows and columns.
		B := mat.NewDense(tc.m, tc.c, nil)
		rows, cols := rng.Perm(tc.m), rng.Perm(tc.c)
		for i := range tc.m {
			for j := range tc.c {
				B.Set(rows[i], cols[j], 8*A.At(i, j))
			}
		}
		s2 := FitModerated(B)
		for j := range tc.c {
			if want := 8 * s.Scale[j]; math.Abs(s2.Scale[cols[j]]-want) > 1e-9*want {
				t.Errorf("%s: scale of column %d after ×8 and permutations %v, want %v", tc.name, j, s2.Scale[cols[j]], want)
			}
		}
	}
	// Fewer than two varying columns: Fit.
	A := mat.NewDense(4, 3, []float64{1, 5, 2, 2, 5, 2, 3, 5, 2, 9, 5, 2})
	if s, f := FitModerated(A), Fit(A); s.Scale[0] != f.Scale[0] || s.Scale[1] != 0 || s.Scale[2] != 0 {
		t.Errorf("one varying column: scales %v, want Fit's %v", s.Scale, f.Scale)
	}
}

// TestFitModeratedAnyMagnitude checks that columns of subnormal and of huge
// values get finite positive moderated scales (the log variances neither
// underflow nor overflow) that standardise them to finite values.
func TestFitModeratedAnyMagnitude(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const m = 6
	A := mat.NewDense(m, 4, nil)
	for i := range m {
		A.Set(i, 0, float64(i%3+1)*1e-320)
		A.Set(i, 1, rng.NormFloat64()*1e300)
		A.Set(i, 2, rng.NormFloat64())
		A.Set(i, 3, rng.NormFloat64()*1e-200)
	}
	s := FitModerated(A)
	for j, sc := range s.Scale {
		if !(sc > 0) || math.IsInf(sc, 0) {
			t.Errorf("column %d: scale %v, want finite and positive", j, sc)
		}
	}
	Z, err := s.Transform(A)
	if err != nil {
		t.Fatal(err)
	}
	if err := inputcheck.CheckFinite("Z", Z); err != nil {
		t.Error(err)
	}
}

// TestFitModeratedScaleEquivariant checks the documented property that
// scaling A by a factor scales every moderated scale by it, for factors
// 2^k that take the columns down to subnormal values. The columns hold
// integers below 2^16 of different spreads, so A·2^k is exact down to
// k = −1058 (multiples of 2^−1074, the smallest subnormal), and the
// moderated scales of A·2^k can differ from those of A, times 2^k, only by
// rounding: relative rounding as in the normal range (1e-12, a thousand
// times float64's), the rounding of a subnormal result (a few units of the
// smallest subnormal, 2^−1074), and, since every moderated scale depends
// on every column's scale, the rounding of the smallest of Fit's scales to
// a multiple of 2^−1074 (a relative 2^−1074/s_min; 3e-7 at 2^−1050). Go's
// math.Log on amd64 reads a subnormal's exponent wrongly
// (golang.org/issue/56600), which made the log variances of subnormal
// columns almost equal and so every scale one.
func TestFitModeratedScaleEquivariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const m, c = 12, 5
	A := mat.NewDense(m, c, nil) // column j: integers below 2^(3j+1)
	A.Apply(func(_, j int, _ float64) float64 { return math.Floor(float64(int(1)<<(3*j+1)) * rng.Float64()) }, A)
	if slices.Min(Fit(A).Scale) == 0 {
		t.Fatal("a column of the test is constant")
	}
	want := FitModerated(A)
	for _, k := range []int{-1000, -1030, -1040, -1050} {
		B := mat.NewDense(m, c, nil)
		B.Apply(func(_, _ int, v float64) float64 { return math.Ldexp(v, k) }, A)
		got := FitModerated(B)
		tol := 1e-12 + 2*math.SmallestNonzeroFloat64/slices.Min(Fit(B).Scale)
		for j := range c {
			w := math.Ldexp(want.Scale[j], k)
			if math.Abs(got.Scale[j]-w) > tol*w+4*math.SmallestNonzeroFloat64 {
				t.Errorf("2^%d·A: column %d: scale %v, want 2^%d times A's scale %v = %v", k, j, got.Scale[j], k, want.Scale[j], w)
			}
		}
	}
}
