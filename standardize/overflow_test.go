package standardize

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// idealStandardise is the definition Standardise implements, in
// arithmetic whose exponent never overflows (big.Float): the difference
// v − mean rounded to float64's 53 bits, divided by scale and read as a
// float64, rounded once (±Inf beyond its range, subnormal below 2⁻¹⁰²²).
// The quotient is carried to 3,000 bits first, which cannot round it onto
// a rounding boundary of float64 it was not on: two such boundaries and
// quotients of two float64s that differ do so by far more than 2⁻³⁰⁰⁰ of
// their size.
func idealStandardise(v, mean, scale float64) float64 {
	d := new(big.Float).SetPrec(53).Sub(big.NewFloat(v), big.NewFloat(mean))
	q := new(big.Float).SetPrec(3000).Quo(d, big.NewFloat(scale))
	z, _ := q.Float64()
	return z
}

// TestStandardiseOverflowingDifference: Standardise equals the
// unbounded-exponent formula bit for bit on values of every magnitude,
// those whose difference v − mean overflows float64 included (v = −9.5e307
// and mean 9.04e307 with scale 3.57e306 is −52.1, which (v − mean)/scale
// gives as −Inf), is ±Inf exactly when that value is beyond float64, and
// keeps the bits of (v − mean)/scale whenever that is finite.
func TestStandardiseOverflowingDifference(t *testing.T) {
	check := func(v, mean, scale float64) {
		t.Helper()
		got := Standardise(v, mean, scale)
		if plain := (v - mean) / scale; !math.IsInf(plain, 0) && math.Float64bits(got) != math.Float64bits(plain) {
			t.Fatalf("Standardise(%v, %v, %v) = %v, want the ordinary formula's %v", v, mean, scale, got, plain)
		}
		if want := idealStandardise(v, mean, scale); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Standardise(%v, %v, %v) = %v, want %v", v, mean, scale, got, want)
		}
	}
	// The hunter's value: the fold's mean and scale of ovx7.csv.
	if z := Standardise(-9.5e307, 9.036363636363637e307, 3.574473318424999e306); !(z > -53 && z < -51) {
		t.Fatalf("Standardise(-9.5e307, 9.04e307, 3.57e306) = %v, want about -52", z)
	}
	check(-9.5e307, 9.036363636363637e307, 3.574473318424999e306)
	check(math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64) // 2
	check(math.MaxFloat64, -math.MaxFloat64, 1)               // +Inf
	check(-math.MaxFloat64, math.MaxFloat64, 2)               // −MaxFloat64, up to rounding
	check(math.MaxFloat64, -math.MaxFloat64, 1.9999999999999998)
	// Subnormal values: where the quotient alone overflows, the halving
	// of an odd subnormal mean or value rounds (5e-324 to 0), and the
	// result is +Inf as the quotient is.
	if z := Standardise(1, 5e-324, 5e-324); !math.IsInf(z, 1) {
		t.Fatalf("Standardise(1, 5e-324, 5e-324) = %v, want +Inf", z)
	}
	check(1, 5e-324, 5e-324)
	check(1, -5e-324, 5e-324)
	check(-5e-324, 0x1p-40, 3e-323)
	check(5e-324, 0, 5e-324)                 // 1
	check(3*5e-324, -5*5e-324, 2*5e-324)     // odd subnormals: 4
	check(0x1p-1022+5e-324, 5e-324, 0x1p-60) // the smallest normal exponent, odd
	check(7*5e-324, 0, 0x1p60)               // a quotient below the subnormals: 0
	check(-7*5e-324, 0, 0x1p60)              // −0
	rng := rand.New(rand.NewPCG(28, 7))
	for range 200000 {
		e := func(lo int) float64 { return math.Ldexp(1+rng.Float64(), lo+rng.IntN(1023-lo+1)) }
		sign := func() float64 { return float64(1 - 2*rng.IntN(2)) }
		var v, mean, scale float64
		sub := func() float64 { return math.Float64frombits(rng.Uint64() & (1<<52 - 1)) } // subnormal or 0
		switch rng.IntN(6) {
		case 0: // overflowing differences: both near the top, opposite signs
			v, mean = sign()*e(1000), 0
			mean = -math.Copysign(e(1000), v)
			scale = e(-1000)
		case 1: // anything
			v, mean, scale = sign()*e(-1000), sign()*e(-1000), e(-1000)
		case 2: // subnormal mean and scale, v anywhere from 2⁻⁶⁰ to 2²⁰: the quotient often overflows
			v, mean, scale = sign()*math.Ldexp(1+rng.Float64(), -60+rng.IntN(80)), sign()*sub(), sub()
		case 3: // subnormal v, mean and scale
			v, mean, scale = sign()*sub(), sign()*sub(), sub()
		case 4: // subnormal quotients
			v, mean = sign()*math.Ldexp(1+rng.Float64(), -60+rng.IntN(60)), sign()*math.Ldexp(1+rng.Float64(), -60+rng.IntN(60))
			scale = math.Ldexp(1+rng.Float64(), 990+rng.IntN(34))
		default: // ordinary magnitudes
			v, mean, scale = rng.NormFloat64()*10, rng.NormFloat64(), 0.01+rng.Float64()
		}
		if scale > 0 {
			check(v, mean, scale)
		}
	}
}

// TestTransformOverflowingDifference: Transform and Value standardise a
// test value whose difference from the training mean overflows but whose
// standardised value does not (the fold of ovx7.csv whose held-out row is
// −9.5e307), and still report an *OverflowError for one whose
// standardised value is beyond float64.
func TestTransformOverflowingDifference(t *testing.T) {
	train := mat.NewDense(11, 1, []float64{8.5e307, 8.6e307, 8.7e307, 8.8e307, 8.9e307, 9e307, 9.1e307, 9.3e307, 9.4e307, 9.5e307, 9.6e307})
	s := Fit(train)
	z, err := s.Transform(mat.NewDense(1, 1, []float64{-9.5e307}))
	if err != nil {
		t.Fatalf("Transform(-9.5e307): %v", err)
	}
	want := idealStandardise(-9.5e307, s.Mean[0], s.Scale[0])
	if got := z.At(0, 0); got != want || !(got > -60 && got < -50) || s.Value(0, -9.5e307) != want {
		t.Errorf("Transform(-9.5e307) = %v, Value %v, want %v (about -55)", got, s.Value(0, -9.5e307), want)
	}
	tiny := Scaler{Mean: []float64{1e308}, Scale: []float64{1}}
	if _, err := tiny.Transform(mat.NewDense(1, 1, []float64{-1e308})); err == nil {
		t.Errorf("Transform(-1e308) with mean 1e308 and scale 1: no error, want an *OverflowError")
	}
}
