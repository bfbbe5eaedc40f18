package method

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// constTol decides which columns are constant, with the root package's
// rule: a column whose population standard deviation is at most constTol
// times the magnitude of its mean holds nothing but rounding error once
// centred, and is treated as constant (so is a column of zeros). The rule is
// scale-free, and GreedyTL and the baselines agree on which columns carry
// information.
const constTol = 1e-12

// Scaler standardises the columns of a matrix with statistics of the
// training sample (docs/design.md §1): z = (v − Mean[j]) / Scale[j], where Mean[j] is
// the training mean of column j and Scale[j] its population standard
// deviation (divided by m, not m − 1).
//
// A column that is constant on the training sample (see constTol) has
// Scale 1 and Mean equal to its value, so its standardised training column
// is all zeros (up to rounding for a column that is constant only within
// constTol) and no method can use it; at prediction time it gives v − Mean.
// The zero Scaler (no columns) standardises absent matrices.
type Scaler struct {
	Mean  []float64 `json:"mean"`
	Scale []float64 `json:"scale"`
}

// FitScaler returns the Scaler of the columns of A. A nil or empty A gives
// the empty Scaler. A must be finite (callers validate their inputs first);
// otherwise the statistics are not finite and Transform will reject them.
func FitScaler(A *mat.Dense) Scaler {
	m, c := dims(A)
	if c == 0 {
		return Scaler{}
	}
	s := Scaler{Mean: make([]float64, c), Scale: make([]float64, c)}
	for i := 0; i < m; i++ {
		for j, v := range A.RawRowView(i)[:c] {
			s.Mean[j] += v
		}
	}
	for j := range s.Mean {
		s.Mean[j] /= float64(m)
	}
	// The deviations are summed in units of the largest one, so that the
	// variance neither underflows for tiny columns nor overflows for huge
	// ones.
	dmax := make([]float64, c)
	for i := 0; i < m; i++ {
		for j, v := range A.RawRowView(i)[:c] {
			dmax[j] = math.Max(dmax[j], math.Abs(v-s.Mean[j]))
		}
	}
	for i := 0; i < m; i++ {
		for j, v := range A.RawRowView(i)[:c] {
			if dmax[j] > 0 {
				d := (v - s.Mean[j]) / dmax[j]
				s.Scale[j] += d * d
			}
		}
	}
	for j := range s.Scale {
		sd := dmax[j] * math.Sqrt(s.Scale[j]/float64(m))
		if sd <= constTol*math.Abs(s.Mean[j]) || sd == 0 {
			// Centre on a training value: an exactly constant column then
			// standardises to exact zeros.
			s.Mean[j], s.Scale[j] = A.At(0, j), 1
			continue
		}
		s.Scale[j] = sd
	}
	return s
}

// Len returns the number of columns s standardises.
func (s Scaler) Len() int { return len(s.Mean) }

// Transform returns the standardised copy of A; A is not modified. A nil or
// empty A is accepted when s has no columns, and gives nil. Transform
// returns an error when A's column count differs from s's, when A holds a
// NaN or ±Inf value, or when s itself is invalid (see Scaler.check).
func (s Scaler) Transform(A *mat.Dense) (*mat.Dense, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	m, c := dims(A)
	if c != s.Len() {
		return nil, fmt.Errorf("method: standardising %d columns with statistics of %d", c, s.Len())
	}
	if c == 0 {
		return nil, nil
	}
	Z := mat.NewDense(m, c, nil)
	for i := 0; i < m; i++ {
		src, dst := A.RawRowView(i)[:c], Z.RawRowView(i)
		for j, v := range src {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("method: element [%d][%d] is %v: inputs must be finite", i, j, v)
			}
			dst[j] = (v - s.Mean[j]) / s.Scale[j]
		}
	}
	return Z, nil
}

// check reports whether s is well formed: as many means as scales, all
// finite, scales positive.
func (s Scaler) check() error {
	if len(s.Mean) != len(s.Scale) {
		return fmt.Errorf("method: scaler has %d means but %d scales", len(s.Mean), len(s.Scale))
	}
	for j := range s.Mean {
		if mu := s.Mean[j]; math.IsNaN(mu) || math.IsInf(mu, 0) {
			return fmt.Errorf("method: scaler mean %d is %v", j, mu)
		}
		if sc := s.Scale[j]; !(sc > 0) || math.IsInf(sc, 0) {
			return fmt.Errorf("method: scaler scale %d is %v, want a finite positive number", j, sc)
		}
	}
	return nil
}
