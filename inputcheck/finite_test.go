package inputcheck

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// atOnly hides a matrix's raw data, so that CheckFinite reads it through At.
type atOnly struct{ mat.Matrix }

// bruteFirstNonFinite is the definition CheckFinite implements: the first
// element of a, row by row, that is NaN or ±Inf, read through At.
func bruteFirstNonFinite(a mat.Matrix) (i, j int, v float64, ok bool) {
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return i, j, v, true
			}
		}
	}
	return 0, 0, 0, false
}

// TestCheckFiniteBruteForce compares CheckFinite with a scan through At on
// random matrices — dense, views (a stride wider than the row), transposes
// and matrices read through At alone — holding no, one or several NaN and
// ±Inf values at random places.
func TestCheckFiniteBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 19))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for trial := 0; trial < 2000; trial++ {
		r, c := 1+rng.IntN(7), 1+rng.IntN(7)
		big := mat.NewDense(r+2, c+3, nil)
		for i := 0; i < r+2; i++ {
			for j := 0; j < c+3; j++ {
				big.Set(i, j, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(600)-300)))
			}
		}
		for k := rng.IntN(4); k > 0; k-- {
			big.Set(rng.IntN(r+2), rng.IntN(c+3), specials[rng.IntN(3)])
		}
		view := big.Slice(1, 1+r, 2, 2+c)
		for _, a := range []mat.Matrix{big, view, view.T(), atOnly{view}, atOnly{big.T()}} {
			i, j, v, bad := bruteFirstNonFinite(a)
			err := CheckFinite("X", a)
			if !bad {
				if err != nil {
					t.Fatalf("trial %d: CheckFinite(%T) = %v on a finite matrix", trial, a, err)
				}
				continue
			}
			var nf *NonFiniteError
			if !errors.As(err, &nf) {
				t.Fatalf("trial %d: CheckFinite(%T) = %v, want a *NonFiniteError at row %d column %d", trial, a, err, i, j)
			}
			if nf.Name != "X" || nf.Row != i || nf.Col != j || math.Float64bits(nf.Value) != math.Float64bits(v) && !(math.IsNaN(nf.Value) && math.IsNaN(v)) {
				t.Fatalf("trial %d: CheckFinite(%T) = %+v, want X row %d column %d = %v", trial, a, *nf, i, j, v)
			}
		}
	}
}

// TestCheckFiniteMessages: the one message format, for matrices, vectors,
// unnamed inputs, and absent matrices, which are finite.
func TestCheckFiniteMessages(t *testing.T) {
	m := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, math.Inf(1)})
	for _, tc := range []struct {
		err  error
		want string
	}{
		{CheckFinite("X", m), "X row 2 column 1 is +Inf"},
		{CheckFinite("", mat.NewDense(1, 2, []float64{0, math.NaN()})), "row 0 column 1 is NaN"},
		{CheckFinite("H", m.T()), "H row 1 column 2 is +Inf"},
		{CheckFiniteVector("y", []float64{1, -1, math.Inf(-1)}), "y row 2 is -Inf"},
		{&NonFiniteError{Name: "start weight", Row: -1, Col: 3, Value: math.NaN()}, "start weight 3 is NaN"},
		{CheckFiniteValues("start weight", []float64{0, 1, 2, math.NaN(), math.Inf(1)}), "start weight 3 is NaN"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
	var nilDense *mat.Dense
	for _, a := range []mat.Matrix{nil, nilDense, &mat.Dense{}} {
		if err := CheckFinite("X", a); err != nil {
			t.Errorf("CheckFinite(absent %T) = %v", a, err)
		}
	}
	if err := CheckFiniteVector("y", []float64{1, -1e308, 5e-324}); err != nil {
		t.Errorf("CheckFiniteVector(finite) = %v", err)
	}
	if err := CheckFiniteValues("w", []float64{1, -1e308, 5e-324}); err != nil {
		t.Errorf("CheckFiniteValues(finite) = %v", err)
	}
}

// TestPositiveFinite: PositiveFinite is the test the packages wrote by
// hand, !(v > 0) || math.IsInf(v, 0) negated, for every kind of value.
func TestPositiveFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), -1, -math.MaxFloat64,
		-5e-324, 5e-324, 0x1p-1022, 1, math.MaxFloat64} {
		want := !(!(v > 0) || math.IsInf(v, 0))
		if got := PositiveFinite(v); got != want || got != (v > 0 && Finite(v)) {
			t.Errorf("PositiveFinite(%v) = %v, want %v", v, got, want)
		}
	}
}
