package method

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Linear is a model that is linear in the standardised columns:
//
//	f(x, h) = Σ_j WX[j]·zx_j + Σ_j WH[j]·zh_j + B,
//
// with zx = X.Transform(x) and zh = H.Transform(h). Most baselines predict
// with one (no-transfer, rls-srcfeat, average-kt, best-source, MultiKT, DAM,
// the logistic models). Its file holds the envelope and the members "x",
// "h" (Scalers), "wx", "wh" and "b".
//
// WX has one weight per feature (X.Len()) and WH one per source (H.Len());
// a method that uses no features or no sources has empty scalers and weights
// for them.
type Linear struct {
	// Name is the method's registry name (the file's "method").
	Name string `json:"-"`
	// X and H standardise the features and the sources.
	X Scaler `json:"x"`
	H Scaler `json:"h"`
	// WX and WH are the weights of the standardised features and sources.
	WX []float64 `json:"wx"`
	WH []float64 `json:"wh"`
	// B is the intercept.
	B float64 `json:"b"`
	// Hyper holds the hyperparameters chosen by the fit (the file's
	// "hyperparameters").
	Hyper map[string]float64 `json:"-"`
}

// Method returns l.Name.
func (l *Linear) Method() string { return l.Name }

// Hyperparameters returns a copy of l.Hyper.
func (l *Linear) Hyperparameters() map[string]float64 { return maps.Clone(l.Hyper) }

// SourceWeights returns a copy of WH, the weights of the standardised
// sources (nil when the model has no sources).
func (l *Linear) SourceWeights() []float64 { return slices.Clone(l.WH) }

// Predict returns f for every row of d. It returns an error when X or H has
// the wrong number of columns, when they disagree on the number of rows, or
// when a value is not finite.
func (l *Linear) Predict(d Data) ([]float64, error) {
	rows, err := checkInputs(d, l.X.Len(), l.H.Len())
	if err != nil {
		return nil, err
	}
	f := make([]float64, rows)
	for i := range f {
		f[i] = l.B
	}
	addScores(f, d.X, l.X, l.WX)
	addScores(f, d.H, l.H, l.WH)
	return f, nil
}

// addScores adds Σ_j w_j (A_ij − s.Mean[j]) / s.Scale[j] to f[i] for every
// row i of A (absent when s has no columns).
func addScores(f []float64, A *mat.Dense, s Scaler, w []float64) {
	if s.Len() == 0 {
		return
	}
	for i := range f {
		row := A.RawRowView(i)
		var acc float64
		for j, wj := range w {
			acc += wj * (row[j] - s.Mean[j]) / s.Scale[j]
		}
		f[i] += acc
	}
}

// check validates l's invariants: consistent lengths, finite numbers,
// positive scales.
func (l *Linear) check() error {
	if err := l.X.check(); err != nil {
		return fmt.Errorf("x: %w", err)
	}
	if err := l.H.check(); err != nil {
		return fmt.Errorf("h: %w", err)
	}
	if len(l.WX) != l.X.Len() || len(l.WH) != l.H.Len() {
		return fmt.Errorf("%d feature weights for %d features, %d source weights for %d sources",
			len(l.WX), l.X.Len(), len(l.WH), l.H.Len())
	}
	if l.X.Len()+l.H.Len() == 0 {
		return fmt.Errorf("the model has no columns")
	}
	if err := checkFiniteSlice("wx", l.WX); err != nil {
		return err
	}
	if err := checkFiniteSlice("wh", l.WH); err != nil {
		return err
	}
	if err := checkFiniteSlice("b", []float64{l.B}); err != nil {
		return err
	}
	return checkHyper(l.Hyper)
}

// linearFile is the file form of a Linear model.
type linearFile struct {
	envelope
	*Linear
}

func (l *Linear) fileDocument() (any, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	return linearFile{envelope: newEnvelope(l.Name, l.Hyper), Linear: l}, nil
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
	if f.envelope.Hyperparameters == nil {
		return nil, fmt.Errorf("the file has no hyperparameters")
	}
	l := f.Linear
	l.Name, l.Hyper = f.envelope.Method, f.envelope.Hyperparameters
	if err := l.check(); err != nil {
		return nil, err
	}
	return l, nil
}
