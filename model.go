package greedytl

import (
	"fmt"
	"math"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// Step records the state of the path right after one column was added.
type Step struct {
	// Column is the column added at this step.
	Column Column `json:"column"`
	// Score is s(S) = yᵀK_S(K_S + λI)⁻¹y for the columns S selected so far,
	// the quantity GreedyTL maximises; it equals ‖y‖² − m·RegError.
	Score float64 `json:"score"`
	// RegError is the mean regularised error e(S)/m = λ yᵀ(K_S + λI)⁻¹y / m,
	// the minimum over w of (‖Z_S w − y‖² + λ‖w‖²)/m.
	RegError float64 `json:"reg_error"`
	// LOOError is the class-balanced mean squared leave-one-out residual of
	// the ridge fit on S: the mean over the two classes of the per-class
	// mean of r_i², where r_i = y_i − f₋ᵢ(x_i) and f₋ᵢ is ridge (the same
	// λ, no intercept) refitted without example i on the selected
	// standardised columns re-centred on the other examples (their scaling
	// is not redone), predicting example i centred the same way. The
	// re-centring keeps y_i out of f₋ᵢ(x_i): the columns were centred with
	// example i. When example i is the only one of its class, the refit
	// sees one label only and f₋ᵢ = 0.
	LOOError float64 `json:"loo_error"`
}

// Model is a fitted GreedyTL predictor
//
//	f(x, h) = Σ_j Weights[j] · (v_j − Mean[j]) / Scale[j],
//
// where v_j is the value of column Selected[j] (a feature of x or a source
// score h). There is no intercept: columns are centred on the training
// set, so the decision threshold 0 sits at the training mean.
//
// The empty set (before the first step) has Score 0, RegError 1 and
// LOOError 1 (the zero predictor on ±1 labels), so Path holds one Step per
// selected column: Path[j].Column == Selected[j]. A model may select no
// column at all (when even the best column gains less than Delta); it then
// predicts 0 everywhere.
//
// Predict, WriteJSON, Write and MarshalJSON only read the model: any number
// of goroutines may call them on one model at once, as long as none
// modifies its fields.
type Model struct {
	// Selected lists the chosen columns in selection order.
	Selected []Column
	// Weights are the ridge weights on the standardised (and, for
	// features, γ-scaled) selected columns.
	Weights []float64
	// Mean and Scale standardise selected column j: z = (v − Mean[j]) /
	// Scale[j], where Scale[j] is the training population standard
	// deviation, divided by FeatureFactor for features.
	Mean, Scale []float64
	// Path records each step; see Step.
	Path []Step
	// NumFeatures and NumSources are the column counts d of X and n of H
	// seen in training; Predict checks them.
	NumFeatures, NumSources int
	// Options are the options used; with AutoLambda, Lambda is the λ
	// chosen.
	Options Options
}

// checkColumns checks what Predict reads: the column counts, one weight,
// mean and scale per selected column, each column in range and selected
// once, finite weights, means and scales, and positive scales.
func (m *Model) checkColumns() error {
	if m.NumFeatures < 0 || m.NumSources < 0 || m.NumFeatures+m.NumSources == 0 {
		return fmt.Errorf("invalid column counts: %d features, %d sources", m.NumFeatures, m.NumSources)
	}
	k := len(m.Selected)
	if len(m.Weights) != k || len(m.Mean) != k || len(m.Scale) != k {
		return fmt.Errorf("inconsistent model: %d columns, %d weights, %d means, %d scales",
			k, len(m.Weights), len(m.Mean), len(m.Scale))
	}
	seen := make(map[Column]bool, k)
	for j, c := range m.Selected {
		limit := m.NumFeatures
		if c.Kind == Source {
			limit = m.NumSources
		} else if c.Kind != Feature {
			return fmt.Errorf("column %d has invalid kind %d", j, int(c.Kind))
		}
		if c.Index < 0 || c.Index >= limit {
			return fmt.Errorf("column %d (%v) is out of range: the model has %d %ss", j, c, limit, c.Kind)
		}
		if seen[c] {
			return fmt.Errorf("column %d (%v) is selected twice", j, c)
		}
		seen[c] = true
		if err := finiteMembers(j, c, member{"weight", m.Weights[j]}, member{"mean", m.Mean[j]}, member{"scale", m.Scale[j]}); err != nil {
			return err
		}
		if !(m.Scale[j] > 0) {
			return fmt.Errorf("column %d (%v): scale must be positive, got %v", j, c, m.Scale[j])
		}
	}
	return nil
}

// member is a number a model records for one of its columns, by its name
// in the model file.
type member struct {
	name string
	x    float64
}

// finiteMembers returns an error naming the first of the members of column
// j (c) that is NaN or ±Inf, or nil.
func finiteMembers(j int, c Column, ms ...member) error {
	for _, v := range ms {
		if !inputcheck.Finite(v.x) {
			return fmt.Errorf("column %d (%v): %s is %v", j, c, v.name, v.x)
		}
	}
	return nil
}

// newModel returns a model of k selected columns fitted on d features and
// n sources with options o, its per-column slices of length k (non-nil,
// empty for k = 0) for the caller to fill: the one constructor of Fit's
// models and of those decoded from files.
func newModel(k, d, n int, o Options) *Model {
	return &Model{
		Selected:    make([]Column, k),
		Weights:     make([]float64, k),
		Mean:        make([]float64, k),
		Scale:       make([]float64, k),
		Path:        make([]Step, k),
		NumFeatures: d,
		NumSources:  n,
		Options:     o,
	}
}

// looError returns the LOO error of the fitted model (1 for the empty one).
func (m *Model) looError() float64 {
	if len(m.Path) == 0 {
		return 1
	}
	return m.Path[len(m.Path)-1].LOOError
}

// Predict returns the decision values f of the examples in the rows of X
// (features, r×NumFeatures) and H (source scores, r×NumSources); classify
// by sign. Only the selected columns are read: the others may hold
// anything, NaN included (for instance when the unselected sources were
// not evaluated), and X or H may be nil when the model uses none of its
// columns. Predict returns an error when a present matrix has the wrong
// number of columns, when X and H disagree on the number of rows, when both
// are nil, when a selected column holds a NaN or ±Inf value, or when a
// score overflows (a *ScoreOverflowError); and when m
// is nil or inconsistent (a model built by hand: Selected, Weights, Mean
// and Scale of different lengths, a column out of range or selected twice,
// a weight, mean or scale that is not finite, a scale that is not
// positive). Path and Options are not read.
func (m *Model) Predict(X, H mat.Matrix) ([]float64, error) {
	if m == nil {
		return nil, fmt.Errorf("greedytl.Model.Predict: nil *Model")
	}
	if err := m.checkColumns(); err != nil {
		return nil, fmt.Errorf("greedytl.Model.Predict: %w", err)
	}
	var blocks [2]inputMatrix
	rows := -1
	for k, p := range []struct {
		name string
		a    mat.Matrix
		want int
		kind Kind
		unit string
	}{{"X", X, m.NumFeatures, Feature, "feature"}, {"H", H, m.NumSources, Source, "source"}} {
		if inputcheck.Absent(p.a) {
			for _, c := range m.Selected {
				if c.Kind == p.kind {
					return nil, fmt.Errorf("greedytl.Model.Predict: %s is absent (nil or empty) but the model uses %v", p.name, c)
				}
			}
			continue
		}
		b := newInputMatrix(p.name, p.a)
		if b.cols != p.want {
			return nil, fmt.Errorf("greedytl.Model.Predict: %s has %s, the model was trained with %s", p.name, plural.Count(b.cols, "column", "columns"), plural.Count(p.want, p.unit, p.unit+"s"))
		}
		if rows >= 0 && b.rows != rows {
			return nil, fmt.Errorf("greedytl.Model.Predict: X has %d rows but H has %d", rows, b.rows)
		}
		rows = b.rows
		blocks[k] = b
	}
	if rows < 0 {
		return nil, fmt.Errorf("greedytl.Model.Predict: X and H are both absent (nil or empty)")
	}
	f := make([]float64, rows)
	v := make([]float64, rows)
	for j, c := range m.Selected {
		b := &blocks[0]
		if c.Kind == Source {
			b = &blocks[1]
		}
		b.column(c.Index, v)
		w, mean, scale := m.Weights[j], m.Mean[j], m.Scale[j]
		for i, x := range v {
			if !inputcheck.Finite(x) {
				return nil, fmt.Errorf("greedytl.Model.Predict: %w", &inputcheck.NonFiniteError{Name: b.name, Row: i, Col: c.Index, Value: x})
			}
			f[i] += w * standardize.Standardise(x, mean, scale)
			if math.IsNaN(f[i]) || math.IsInf(f[i], 0) {
				return nil, fmt.Errorf("greedytl.Model.Predict: %w", &ScoreOverflowError{Input: b.name, Row: i, Col: c.Index, Value: x, Mean: mean, Scale: scale})
			}
		}
	}
	return f, nil
}

// OverflowUnblamed ends the message of a ScoreOverflowError that blames
// no one input (Input "", Col −1), after "overflows float64, ": its one
// wording, which greedytl predict gives too.
const OverflowUnblamed = "an input of the row too far outside the training range"

// ScoreOverflowError reports a score that stopped being finite (±Inf, or
// NaN from Inf − Inf) as a model summed its terms: an input value too far
// outside the training range of its column. Model.Predict returns it, and
// the linear models of package method; Error names the row and the column
// from 0, as Go indexes them ("the score of row 2 overflows at X column 0
// = 1e+308, …"), behind the caller's prefix, and a program that read the
// inputs from a file names them as the file counts them (greedytl predict:
// the file, its line and the column from 1).
type ScoreOverflowError struct {
	// Input is the matrix of the term that overflowed: "X" (features) or
	// "H" (source scores); "" when Col is −1 and the score mixes every
	// column of the row, so that no one input is to blame (a multi-class
	// model's class scores, a dictionary model's codes times its weights,
	// in package method).
	Input string
	// Row is the example's row of Input (from 0).
	Row int
	// Col is the column of Input (from 0) whose term made the score
	// overflow, or −1 when each part of the score was finite and their
	// sum, Input's terms added to the others', overflowed; then Value,
	// Mean and Scale are 0.
	Col int
	// Value is the input's value at Row and Col.
	Value float64
	// Mean and Scale are the column's training mean and the standard
	// deviation that standardises it: z = (Value − Mean)/Scale.
	Mean, Scale float64
}

// Error returns "the score of row 2 overflows at X column 0 = 1e+308, too
// far outside the training range (mean 0, standard deviation 0.001)",
// rows and columns from 0; "the score of row 2 overflows adding H's
// terms" when Col is −1, and "the score of row 2 overflows float64, an
// input of the row too far outside the training range" when Input is ""
// too.
func (e *ScoreOverflowError) Error() string {
	if e.Col < 0 && e.Input == "" {
		return fmt.Sprintf("the score of row %d overflows float64, %s", e.Row, OverflowUnblamed)
	}
	if e.Col < 0 {
		return fmt.Sprintf("the score of row %d overflows adding %s's terms", e.Row, e.Input)
	}
	return fmt.Sprintf("the score of row %d overflows at %s column %d = %v, too far outside the training range (mean %v, standard deviation %v)", e.Row, e.Input, e.Col, e.Value, e.Mean, e.Scale)
}
