package standardize

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// TestConstant checks the rule, std ≤ ConstTol·|mean| (given as mean, std),
// at every magnitude: a subnormal standard deviation is not constant.
func TestConstant(t *testing.T) {
	constant := [][2]float64{{0, 0}, {1, 1e-12}, {-1e6, 1e-6}, {1e-300, 1e-313}}
	varying := [][2]float64{{1, 2e-12}, {0, 0x1p-1022}, {1e300, 1e289}, {0, 0x1p-1023}, {0, 5e-324}, {1e-320, 1e-320}}
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
// underflow) and checks the constant-column convention: exactly constant
// and constant within ConstTol get scale 0 and standardise to exact zeros,
// on training and test rows alike; tiny and subnormal columns are
// standardised.
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
		A.Set(i, 6, float64(2*(i%2)-1)*1e-320)  // subnormal but varying: not constant
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
		case 0, 4:
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
			// The mean and scale are float64s: on the subnormal grid
			// (column 6) multiples of 2⁻¹⁰⁷⁴, which moves z by up to
			// 2⁻¹⁰⁷⁵/scale relative.
			tol := 1e-12 + 0.5*(0x1p-1074/s.Scale[j])
			if math.Abs(zm) > tol || math.Abs(zs-1) > tol {
				t.Errorf("column %d standardises to mean %v, std %v", j, zm, zs)
			}
		}
	}
	// Test rows use the training statistics; constant columns give 0
	// whatever the test value.
	B := mat.NewDense(1, c, []float64{5, 1, 2, 3, 1e308, 0, -3e-320})
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

// TestSubnormalColumns: a training column of ±v standardises to ±1
// whatever v, subnormal included (issue 18: it used to be taken as
// constant, being "too small to standardise"), and a test value far outside
// it (1, some 1e320 standard deviations away) is an error naming it, as 1e320
// would be in a column of ±1.
func TestSubnormalColumns(t *testing.T) {
	for _, v := range []float64{1e-320, 5e-324, 1e-310, 0x1p-1020, 1, 1e300} {
		A := mat.NewDense(4, 1, []float64{v, -v, v, -v})
		s := Fit(A)
		if s.Mean[0] != 0 || s.Scale[0] != v {
			t.Errorf("±%v: mean %v scale %v, want 0 and %v", v, s.Mean[0], s.Scale[0], v)
		}
		Z, err := s.Transform(mat.NewDense(2, 1, []float64{v, -v}))
		if err != nil || Z.At(0, 0) != 1 || Z.At(1, 0) != -1 {
			t.Errorf("±%v: ±%v standardise to %v, %v; want ±1", v, v, Z, err)
		}
		if _, err := s.Transform(mat.NewDense(1, 1, []float64{1})); v < 1e-308 && (err == nil || !strings.Contains(err.Error(), "too large to standardise")) {
			t.Errorf("±%v: test value 1: error %v, want one saying it is too large", v, err)
		}
	}
}

// refMoments is the definition of the mean and population standard
// deviation, in exact arithmetic (math/big, 2000 bits) rounded once.
func refMoments(v []float64) (mean, std float64) {
	const prec = 2000
	n := new(big.Float).SetPrec(prec).SetInt64(int64(len(v)))
	sum := new(big.Float).SetPrec(prec)
	for _, x := range v {
		sum.Add(sum, new(big.Float).SetPrec(prec).SetFloat64(x))
	}
	mu := new(big.Float).SetPrec(prec).Quo(sum, n)
	ss := new(big.Float).SetPrec(prec)
	for _, x := range v {
		d := new(big.Float).SetPrec(prec).Sub(new(big.Float).SetPrec(prec).SetFloat64(x), mu)
		ss.Add(ss, d.Mul(d, d))
	}
	ss.Quo(ss, n)
	mean, _ = mu.Float64()
	std, _ = new(big.Float).SetPrec(prec).Sqrt(ss).Float64()
	return mean, std
}

// TestMomentsAnyMagnitude is issue 18's: the statistics of a column do not
// depend on its magnitude — a column scaled by 2^k, from the subnormal
// range (values near 1e-320) to sums that overflow (values near 1e307),
// has the statistics of the definition, computed exactly, within 1e-14
// relative (the subnormal columns' values carry fewer bits; the error
// allowed there is a few units of the smallest subnormal).
func TestMomentsAnyMagnitude(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 10))
	base := make([]float64, 24)
	for i := range base {
		base[i] = rng.NormFloat64() + 0.5
	}
	v := make([]float64, len(base))
	for _, k := range []int{-1062, -1040, -1000, -997, -500, 0, 500, 996, 1000, 1020} {
		for i, x := range base {
			v[i] = math.Ldexp(x, k)
		}
		mean, std, ok := Moments(v)
		wantMean, wantStd := refMoments(v)
		tol := func(ref float64) float64 { return 1e-14*math.Abs(ref) + 4*5e-324 }
		if !ok || math.Abs(mean-wantMean) > tol(wantStd) || math.Abs(std-wantStd) > tol(wantStd) {
			t.Errorf("2^%d: mean %v std %v ok %v, want %v %v", k, mean, std, ok, wantMean, wantStd)
		}
		if Constant(mean, std) {
			t.Errorf("2^%d: the column is taken as constant", k)
		}
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

// TestMeanNearMaxFloat64: the mean of finite values lies between the least
// and the greatest of them, however near ±MaxFloat64 they are: the sum of
// v_i/n that Mean falls back on when the plain sum overflows rounds each
// term, and for n copies of MaxFloat64 (n = 9, 11, 12, …) it rounded past
// MaxFloat64 to +Inf, so that a column holding one value was "not finite, or
// so far apart that their deviations from the mean overflow" (Moments not
// ok, Fit's NaN mark).
func TestMeanNearMaxFloat64(t *testing.T) {
	for _, x := range []float64{math.MaxFloat64, -math.MaxFloat64, math.Nextafter(math.MaxFloat64, 0)} {
		for n := 1; n <= 64; n++ {
			v := make([]float64, n)
			for i := range v {
				v[i] = x
			}
			if mean := Mean(v, Sum(v)); mean != x {
				t.Errorf("Mean of %d copies of %v = %v", n, x, mean)
			}
			if mean, std, ok := Moments(v); !ok || mean != x || std != 0 || !Constant(mean, std) {
				t.Errorf("Moments of %d copies of %v = %v, %v, %v; want %v, 0, true", n, x, mean, std, ok, x)
			}
		}
	}
	// Values near the top of the range but not all equal: the mean lies
	// between them.
	v := []float64{math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, 0.9 * math.MaxFloat64}
	if mean, _, ok := Moments(v); !ok || !(mean >= 0.9*math.MaxFloat64 && mean <= math.MaxFloat64) {
		t.Errorf("Moments(%v) mean %v ok %v", v, mean, ok)
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
		A    mat.Matrix
		want string
	}{
		{"no rows", s, noRows{2}, "standardising 2 columns of no rows"}, // panicked in mat.NewDense
		{"too few columns", s, mat.NewDense(1, 1, []float64{1}), "1 columns with statistics of 2"},
		{"absent matrix", s, (*mat.Dense)(nil), "0 columns"},
		{"columns for an empty scaler", empty, mat.NewDense(1, 1, []float64{1}), "1 columns with statistics of 0"},
		{"NaN", s, nan, "row 0 column 1 is NaN"},
		{"+Inf", s, mat.NewDense(1, 2, []float64{math.Inf(1), 0}), "row 0 column 0 is +Inf"},
		{"overflow", Scaler{Mean: []float64{0}, Scale: []float64{1e-300}}, mat.NewDense(1, 1, []float64{1e10}), "row 0 column 0 = 1e+10 is too large to standardise"},
		{"negative scale", Scaler{Mean: []float64{0}, Scale: []float64{-1}}, mat.NewDense(1, 1, nil), "scale 0 is -1"},
		{"infinite scale", Scaler{Mean: []float64{0}, Scale: []float64{math.Inf(1)}}, mat.NewDense(1, 1, nil), "scale 0 is +Inf"},
		{"NaN mean", Scaler{Mean: []float64{math.NaN()}, Scale: []float64{1}}, mat.NewDense(1, 1, nil), "mean 0 is NaN"},
		{"ragged", Scaler{Mean: []float64{0}}, mat.NewDense(1, 1, nil), "1 means but 0 scales"},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic %v", tc.name, r)
				}
			}()
			_, err := tc.s.Transform(tc.A)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
			}
		}()
	}
	if _, _, err := FitTransform(nan); err == nil || err.Error() != "row 0 column 1 is NaN" {
		t.Errorf("FitTransform(NaN) error %v", err)
	}
}

// TestFitTransformOverflow: a column whose deviations from its mean overflow
// (values spanning more than the float64 range) is an error naming it.
func TestFitTransformOverflow(t *testing.T) {
	A := mat.NewDense(4, 2, []float64{1, 1.7e308, 2, -1.7e308, 3, -1.7e308, 4, -1.7e308})
	_, _, err := FitTransform(A)
	if err == nil || !strings.Contains(err.Error(), "column 1 cannot be standardised: its values are not finite, or so far apart that their deviations from the mean overflow") {
		t.Errorf("error %v", err)
	}
}

// TestTransformContext: with a live context TransformContext is Transform;
// with a done one, a block larger than one check's work returns the
// context's error, while a small block (no check reached) is standardised.
func TestTransformContext(t *testing.T) {
	A := mat.NewDense(transformCheck/100+1, 100, nil)
	for i, v := range A.RawMatrix().Data {
		A.RawMatrix().Data[i] = float64(i%7) + v
	}
	s := Fit(A)
	want, err := s.Transform(A)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.TransformContext(context.Background(), A)
	if err != nil || !mat.Equal(got, want) {
		t.Fatalf("TransformContext differs from Transform (err %v)", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.TransformContext(ctx, A); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: err %v, want context.Canceled", err)
	}
	if _, err := s.TransformContext(ctx, A.Slice(0, 2, 0, 100)); err != nil {
		t.Errorf("small block, done context: %v", err)
	}
	// A nil context panics at the entry, as a fit's does (fitctx.Require),
	// whatever the block's size: it was dereferenced only past
	// transformCheck values, so a small block was standardised.
	for _, rows := range []int{2, transformCheck/100 + 1} {
		func() {
			defer func() {
				if r, ok := recover().(string); !ok || !strings.HasPrefix(r, "standardize: TransformContext: nil context.Context") {
					t.Errorf("nil context, %d rows: panic %v", rows, r)
				}
			}()
			var noCtx context.Context
			s.TransformContext(noCtx, A.Slice(0, rows, 0, 100))
		}()
	}
}

// noRows is a matrix of c columns and no rows (a mat.Dense cannot be one).
type noRows struct{ c int }

func (z noRows) Dims() (r, c int)    { return 0, z.c }
func (z noRows) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z noRows) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

// TestMeanOfPartialSumsOfBothSigns: Sum adds four partial sums, which may
// overflow to +Inf and −Inf and add to NaN though every value is finite
// (1e308, 1e308, −1e308, −1e308: (s0+s1) is +Inf, (s2+s3) −Inf); Mean then
// takes its fallback as for an overflow to ±Inf, and so the mean of these
// values is 0 in any order (review30: in this order it was NaN, and the
// column "cannot be standardised"), while a NaN or ±Inf value still gives
// NaN.
func TestMeanOfPartialSumsOfBothSigns(t *testing.T) {
	for _, v := range [][]float64{{1e308, 1e308, -1e308, -1e308}, {1e308, -1e308, 1e308, -1e308}, {1e308, 1e308, -1e308, -1e308, 4}} {
		want := 0.0
		if len(v) == 5 {
			want = 4.0 / 5
		}
		if mean := Mean(v, Sum(v)); mean != want {
			t.Errorf("Mean(%v) = %v, want %v", v, mean, want)
		}
		if mean, std, ok := Moments(v); !ok || mean != want || !(std > 8e307 && std <= 1e308) {
			t.Errorf("Moments(%v) = %v, %v, %v; want %v, about 1e308, true", v, mean, std, ok, want)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		v := []float64{1e308, 1e308, -1e308, -1e308, bad}
		if mean := Mean(v, Sum(v)); !math.IsNaN(mean) {
			t.Errorf("Mean(%v) = %v, want NaN", v, mean)
		}
	}
}

// TestTransformOverflowError checks that Transform reports the first
// value, in row order, whose standardised value overflows as an
// *OverflowError carrying its row, column, value and the column's mean
// and scale (what package method turns into a ScoreOverflowError without
// scanning the matrix again), with the message it always had.
func TestTransformOverflowError(t *testing.T) {
	s := Scaler{Mean: []float64{0, 1, 0}, Scale: []float64{1, 1e-300, 0}}
	A := mat.NewDense(3, 3, []float64{
		5, 1, 1e308, // column 2 is constant: 0, never an overflow
		6, 1e10, 7, // the first overflow: row 1, column 1
		1e308, -1e10, 0,
	})
	_, err := s.Transform(A)
	var o *OverflowError
	if !errors.As(err, &o) || *o != (OverflowError{Row: 1, Col: 1, Value: 1e10, Mean: 1, Scale: 1e-300}) {
		t.Fatalf("error %v (%#v), want an *OverflowError of row 1 column 1", err, o)
	}
	if want := "row 1 column 1 = 1e+10 is too large to standardise with the training mean 1 and standard deviation 1e-300"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}
