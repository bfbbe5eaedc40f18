package method

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// Linear is a model that is linear in the standardised columns:
//
//	f(x, h) = Σ_j WX[j]·zx_j + Σ_j WH[j]·zh_j + B,
//
// with zx = X.Transform(x) and zh = H.Transform(h). Most baselines predict
// with one (no-transfer, rls-srcfeat, average-kt, best-source, MultiKT, DAM,
// the logistic models). Its file holds the header and the members "x",
// "h" (Scalers), "wx", "wh" and "b".
//
// WX has one weight per feature (X.Len()) and WH one per source (H.Len());
// a method that uses no features or no sources has empty scalers and weights
// for them.
type Linear struct {
	// Name is the method's registry name (the file's "method").
	Name string `json:"-"`
	// X and H standardise the features and the sources.
	X standardize.Scaler `json:"x"`
	H standardize.Scaler `json:"h"`
	// WX and WH are the weights of the standardised features and sources.
	WX []float64 `json:"wx"`
	WH []float64 `json:"wh"`
	// B is the intercept.
	B float64 `json:"b"`
	// Hyper holds the hyperparameters chosen by the fit (the file's
	// "hyperparameters").
	Hyper map[string]float64 `json:"-"`
	// convergence is the fit's report of solver runs that did not
	// converge (NotConverged; not in the file).
	convergence
}

// Method returns l.Name ("" for a nil *Linear).
func (l *Linear) Method() string {
	if l == nil {
		return ""
	}
	return l.Name
}

// Hyperparameters returns a copy of l.Hyper (nil for a nil *Linear).
func (l *Linear) Hyperparameters() map[string]float64 {
	if l == nil {
		return nil
	}
	return maps.Clone(l.Hyper)
}

// SourceWeights returns a copy of WH, the weights of the standardised
// sources (nil when the model has no sources, or is a nil *Linear).
func (l *Linear) SourceWeights() []float64 {
	if l == nil {
		return nil
	}
	return slices.Clone(l.WH)
}

// Predict returns f for every row of d. It returns an error when X or H has
// the wrong number of columns, when they disagree on the number of rows,
// when a value is not finite, or when a score overflows (a
// *greedytl.ScoreOverflowError, naming the row and the column); and when l is nil or inconsistent (a model built by hand
// whose scalers and weights disagree in length, or hold a non-finite
// number or a negative scale: the checks Read makes).
func (l *Linear) Predict(d Data) ([]float64, error) {
	if l == nil {
		return nil, errors.New("method: predict: nil *Linear")
	}
	if err := l.check(); err != nil {
		return nil, fmt.Errorf("method: predict: inconsistent %s: %w", modelNoun("", l.Name), err)
	}
	rows, err := checkInputs(d, l.X.Len(), l.H.Len())
	if err != nil {
		return nil, fmt.Errorf("method: predict: %w", err)
	}
	f := make([]float64, rows)
	for i := range f {
		f[i] = l.B
	}
	if err := addScores(f, "X", dense(d.X), l.X, l.WX); err != nil {
		return nil, err
	}
	if err := addScores(f, "H", dense(d.H), l.H, l.WH); err != nil {
		return nil, err
	}
	return f, nil
}

// addScores adds Σ_j w_j·z_j to f[i] for every row i of A (named name),
// z_j the standardised value of A_ij (0 for a constant column), over the
// columns of non-zero weight: a column of weight 0 is not read, so that its
// value, however far outside the training range, does not matter (its z_j
// may be ±Inf, and 0·Inf is NaN). A is absent when s has no columns. It
// returns a *greedytl.ScoreOverflowError naming the row and the column at
// which a score stops being finite.
func addScores(f []float64, name string, A *mat.Dense, s standardize.Scaler, w []float64) error {
	if s.Len() == 0 {
		return nil
	}
	for i := range f {
		row := A.RawRowView(i)
		var acc float64
		for j, wj := range w {
			if wj == 0 {
				continue // adds ±0 to acc, which is never −0: its bits stay
			}
			acc += wj * s.Value(j, row[j])
			if math.IsNaN(acc) || math.IsInf(acc, 0) {
				return fmt.Errorf("method: predict: %w", &greedytl.ScoreOverflowError{Input: name, Row: i, Col: j, Value: row[j], Mean: s.Mean[j], Scale: s.Scale[j]})
			}
		}
		f[i] += acc
		if math.IsNaN(f[i]) || math.IsInf(f[i], 0) {
			return fmt.Errorf("method: predict: %w", &greedytl.ScoreOverflowError{Input: name, Row: i, Col: -1})
		}
	}
	return nil
}

// check validates l's invariants: consistent lengths, finite numbers,
// positive scales.
func (l *Linear) check() error {
	if l == nil {
		return errors.New("nil *Linear")
	}
	if err := l.X.Check(); err != nil {
		return fmt.Errorf("x: %w", err)
	}
	if err := l.H.Check(); err != nil {
		return fmt.Errorf("h: %w", err)
	}
	if len(l.WX) != l.X.Len() || len(l.WH) != l.H.Len() {
		return fmt.Errorf("%d feature weights for %d features, %d source weights for %d sources",
			len(l.WX), l.X.Len(), len(l.WH), l.H.Len())
	}
	if l.X.Len()+l.H.Len() == 0 {
		return fmt.Errorf("the model has no columns")
	}
	return checkFiniteParts(l.Hyper, named{"wx", l.WX}, named{"wh", l.WH}, named{"b", []float64{l.B}})
}

// linearFile is the file form of a Linear model.
type linearFile struct {
	modelfile.Header
	*Linear
}

func (l *Linear) fileDocument(h modelfile.Header) (any, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	return linearFile{Header: h, Linear: l}, nil
}

// decodeLinear decodes a model file holding a Linear model: the
// Registration.Decode of every method that predicts with one. It rejects
// unknown members, inconsistent lengths, non-positive scales and a missing
// "hyperparameters" member.
func decodeLinear(doc json.RawMessage) (Model, error) {
	f := linearFile{Linear: new(Linear)}
	if err := decodeStrict(doc, &f); err != nil {
		return nil, err
	}
	l, err := f.model()
	if err != nil {
		return nil, err
	}
	return l, nil
}

// model returns the Linear model of the decoded file f, named and with
// the hyperparameters of its header, after checking it.
func (f linearFile) model() (*Linear, error) {
	if f.Header.Hyperparameters == nil {
		return nil, fmt.Errorf("the file has no hyperparameters")
	}
	l := f.Linear
	l.Name, l.Hyper = f.Header.Method, f.Header.Hyperparameters
	if err := l.check(); err != nil {
		return nil, err
	}
	return l, nil
}
