package standardize

import (
	"context"
	"fmt"
	"math"

	"github.com/greedytl/greedytl/inputcheck"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/fitctx"
)

// Scaler holds the training statistics of the columns of a matrix:
// z = (v − Mean[j]) / Scale[j], where Mean[j] is the training mean of
// column j and Scale[j] its population standard deviation, or 0 for a
// constant column, which standardises to 0 (see the package documentation).
// The zero Scaler (no columns) standardises absent matrices. Its methods
// only read it: any number of goroutines may use one Scaler at once, as
// long as none modifies its fields.
type Scaler struct {
	Mean  []float64 `json:"mean"`
	Scale []float64 `json:"scale"`
}

// Fit returns the Scaler of the columns of A. A nil or empty A gives the
// empty Scaler. A column holding a NaN or ±Inf value, or whose deviations
// overflow, gets a NaN mean and scale: callers validate their inputs first,
// and Transform rejects such a Scaler.
func Fit(A mat.Matrix) Scaler {
	m, c := inputcheck.Dims(A)
	if c == 0 {
		return Scaler{}
	}
	s := Scaler{Mean: make([]float64, c), Scale: make([]float64, c)}
	v := make([]float64, m)
	for j := range c {
		mat.Col(v, j, A)
		mean, std, ok := Moments(v)
		switch {
		case !ok:
			s.Mean[j], s.Scale[j] = math.NaN(), math.NaN()
		case Constant(mean, std):
			s.Mean[j], s.Scale[j] = mean, 0
		default:
			s.Mean[j], s.Scale[j] = mean, std
		}
	}
	return s
}

// FitTransform returns the Scaler of A and A standardised with it, the
// usual first step of a fit. Its error names the first element of A that is
// not finite, or the first column whose deviations from its mean overflow.
func FitTransform(A mat.Matrix) (Scaler, *mat.Dense, error) {
	if err := inputcheck.CheckFinite("", A); err != nil {
		return Scaler{}, nil, err
	}
	s := Fit(A)
	Z, err := s.Transform(A)
	return s, Z, err
}

// Len returns the number of columns s standardises.
func (s Scaler) Len() int { return len(s.Mean) }

// Transform returns the standardised copy of A; A is not modified. A nil or
// empty A is accepted when s has no columns, and gives nil. Transform
// returns an error when A's column count differs from s's, when A has
// columns but no rows (a mat.Dense cannot), when A holds a NaN or ±Inf
// value (a *inputcheck.NonFiniteError) or a value whose standardised value overflows
// (an *OverflowError, the first in row order), or when s itself is
// invalid.
func (s Scaler) Transform(A mat.Matrix) (*mat.Dense, error) {
	return s.TransformContext(context.Background(), A)
}

// transformCheck is about how many elements TransformContext standardises
// between two checks of its context: a few milliseconds of work.
const transformCheck = 1 << 19

// TransformContext is Transform, returning ctx's error when ctx is found
// done: it is checked before a row once about half a million values
// (a few milliseconds of work) have been counted since the last check,
// the row's own included, so an A of fewer values is standardised even
// with ctx done — its callers check ctx themselves between their phases.
// Standardising a large block is one of a fit's longest phases. It panics
// when ctx is nil, as every fit does (fitctx.Require), whatever A's size
// (a nil ctx was dereferenced only once half a million values were done).
func (s Scaler) TransformContext(ctx context.Context, A mat.Matrix) (*mat.Dense, error) {
	fitctx.Require(ctx, "standardize: TransformContext")
	if err := s.check(); err != nil {
		return nil, err
	}
	m, c := inputcheck.Dims(A)
	if c != s.Len() {
		return nil, fmt.Errorf("standardising %d columns with statistics of %d", c, s.Len())
	}
	if c == 0 {
		return nil, nil
	}
	if m == 0 { // a mat.Matrix of columns but no rows: no mat.Dense holds it
		return nil, fmt.Errorf("standardising %d columns of no rows", c)
	}
	Z := mat.NewDense(m, c, nil)
	done := 0
	for i := range m {
		if done += c; done >= transformCheck {
			done = 0
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		dst := Z.RawRowView(i)
		for j := range c {
			v := A.At(i, j)
			if !inputcheck.Finite(v) {
				return nil, &inputcheck.NonFiniteError{Row: i, Col: j, Value: v}
			}
			if s.Scale[j] == 0 {
				continue // constant: 0
			}
			z := Standardise(v, s.Mean[j], s.Scale[j])
			if math.IsInf(z, 0) {
				return nil, &OverflowError{Row: i, Col: j, Value: v, Mean: s.Mean[j], Scale: s.Scale[j]}
			}
			dst[j] = z
		}
	}
	return Z, nil
}

// OverflowError reports a finite value whose standardised value
// overflows float64 (Transform): a value too far outside its column's
// training range for its training standard deviation, "row 2 column 0 =
// 1e+308 is too large to standardise with the training mean 0 and
// standard deviation 0.001" (rows and columns from 0). A caller that
// names the matrix, or blames the value for an overflowing score, finds
// it with errors.As: the standardiser finds it where it computes it.
type OverflowError struct {
	// Row and Col locate the value (from 0).
	Row, Col int
	// Value is the value; Mean and Scale are its column's training mean
	// and the standard deviation that standardises it.
	Value, Mean, Scale float64
}

// Error returns "row 2 column 0 = 1e+308 is too large to standardise with
// the training mean 0 and standard deviation 0.001".
func (e *OverflowError) Error() string {
	return fmt.Sprintf("row %d column %d = %v is too large to standardise with the training mean %v and standard deviation %v", e.Row, e.Col, e.Value, e.Mean, e.Scale)
}

// Value returns the standardised value of v in column j (0 for a constant
// column): Standardise(v, s.Mean[j], s.Scale[j]). It is ±Inf only when
// the standardised value itself is beyond float64 (v far outside the
// training range for the training standard deviation).
func (s Scaler) Value(j int, v float64) float64 {
	if s.Scale[j] == 0 {
		return 0
	}
	return Standardise(v, s.Mean[j], s.Scale[j])
}

// Standardise returns (v − mean)/scale for a finite v and mean and a
// positive finite scale: the module's one standardisation formula, which
// Scaler, the root package's Model and every method's prediction use. It is
// computed as written, (v − mean)/scale, whose bits every ordinary value
// keeps; only when that is ±Inf — v − mean alone may overflow (v = −9.5e307
// and mean = 9e307) while the quotient is an ordinary number (−52 for a
// scale of 3.6e306) — is it recomputed as ((v/2 − mean/2)/scale)·2, whose
// difference is exactly half the first one's. Where v − mean overflows,
// v and mean are near the top of float64: the halvings are exact, and the
// doubling is unless the result is beyond float64. Where only the division
// overflows (a small scale), a halving rounds when v or mean is below
// 2⁻¹⁰²¹ (Standardise(1, 5e-324, 5e-324) halves the mean to 0), but then
// |v − mean| exceeds 2⁻⁵¹ and both differences round to the other operand
// alone (or its half): the result is ±Inf again, as it must be (the
// subnormal cases of TestStandardiseOverflowingDifference). Either way it
// is the correctly rounded quotient of the rounded difference, as if
// float64 had no largest exponent, and ±Inf only when the standardised
// value itself is beyond float64.
func Standardise(v, mean, scale float64) float64 {
	z := (v - mean) / scale
	if math.IsInf(z, 0) {
		z = (v*0.5 - mean*0.5) / scale * 2
	}
	return z
}

// Check reports whether s is well formed: as many means as scales, all
// finite, and scales positive or 0 (constant columns).
func (s Scaler) Check() error { return s.check() }

func (s Scaler) check() error {
	if len(s.Mean) != len(s.Scale) {
		return fmt.Errorf("scaler has %d means but %d scales", len(s.Mean), len(s.Scale))
	}
	for j := range s.Mean {
		if math.IsNaN(s.Mean[j]) && math.IsNaN(s.Scale[j]) { // Fit's mark
			return fmt.Errorf("column %d cannot be standardised: its values are not finite, or so far apart that their deviations from the mean overflow float64", j)
		}
		if mu := s.Mean[j]; math.IsNaN(mu) || math.IsInf(mu, 0) {
			return fmt.Errorf("scaler mean %d is %v", j, mu)
		}
		if sc := s.Scale[j]; !(sc >= 0) || math.IsInf(sc, 0) {
			return fmt.Errorf("scaler scale %d is %v, want 0 (a constant column) or a finite positive number", j, sc)
		}
	}
	return nil
}
