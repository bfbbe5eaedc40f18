package source

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"

	"github.com/greedytl/greedytl/inputcheck"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/parallel"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/sparse"
)

// Set is an ordered set of linear source hypotheses h_j(x) = w_jᵀx + b_j.
// Build one with NewSet, ReadModelFiles or LoadDir; it is immutable, so it may be
// shared between goroutines.
//
// Source j's score is the decision value of its model oriented towards the
// greater of the model's two labels, as linear.Model.Scores defines it: for
// a source trained by TrainOne (labels +1 for its class, −1 for the
// negatives) or by liblinear on ±1 or 0/1 labels, a positive score favours
// the source's own class.
type Set struct {
	names  []string
	models []*linear.Model
	// d is the number of feature columns the stacked weights span: the
	// largest NrFeature of the models.
	d int
	// w holds the oriented weights stacked as a d × n matrix (nil when d
	// is 0): column j is source j's, zero beyond its NrFeature.
	w *mat.Dense
	// b holds each source's oriented bias term (0 without a bias feature).
	b []float64
}

// NewSet returns the set of the sources models, named names (one name per
// model; names need not be distinct). The models are shared, not copied:
// they must not be modified afterwards.
//
// It returns an error when the lengths differ, there are no models, or a
// model is nil, not binary (NrW ≠ 1: a multi-class liblinear model is not
// one source), has a weight vector inconsistent with NrFeature and Bias, or
// non-finite weights or bias.
func NewSet(names []string, models []*linear.Model) (*Set, error) {
	if len(names) != len(models) {
		return nil, fmt.Errorf("source: %d names for %d models", len(names), len(models))
	}
	if len(models) == 0 {
		return nil, errors.New("source: no source models")
	}
	s := &Set{
		names:  append([]string(nil), names...),
		models: append([]*linear.Model(nil), models...),
		b:      make([]float64, len(models)),
	}
	for j, m := range models {
		if err := checkModel(m); err != nil {
			return nil, fmt.Errorf("source %q: %w", names[j], err)
		}
		s.d = max(s.d, m.NrFeature)
	}
	n := len(models)
	if s.d > 0 {
		s.w = mat.NewDense(s.d, n, nil)
	}
	for j, m := range models {
		sign := orientation(m)
		for k := range m.NrFeature {
			s.w.Set(k, j, sign*m.W[k])
		}
		if m.Bias >= 0 {
			s.b[j] = sign * m.W[m.NrFeature] * m.Bias
		}
	}
	return s, nil
}

// checkModel verifies what NewSet needs of a model.
func checkModel(m *linear.Model) error {
	switch {
	case m == nil:
		return errors.New("nil model")
	case m.NrW != 1 || len(m.Labels) != 2:
		return fmt.Errorf("model has %s and %s; a source needs a binary model", plural.Count(len(m.Labels), "label", "labels"), plural.Count(m.NrW, "decision function", "decision functions"))
	case m.NrFeature < 0:
		return fmt.Errorf("model has NrFeature = %d", m.NrFeature)
	case math.IsNaN(m.Bias) || math.IsInf(m.Bias, 0):
		return fmt.Errorf("model bias is %v", m.Bias)
	}
	want := m.NrFeature
	if m.Bias >= 0 {
		want++
	}
	if len(m.W) != want {
		return fmt.Errorf("model has %s, want %d for %s (bias %v)", plural.Count(len(m.W), "weight", "weights"), want, plural.Count(m.NrFeature, "feature", "features"), m.Bias)
	}
	for k, v := range m.W {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("model weight %d is %v", k, v)
		}
	}
	return nil
}

// orientation is +1 when a binary model's decision value favours the
// greater of its labels (Labels[0] > Labels[1]) and −1 otherwise: the rule
// of linear.Model.Scores.
func orientation(m *linear.Model) float64 {
	if m.Labels[0] < m.Labels[1] {
		return -1
	}
	return 1
}

// ReadModelFiles reads liblinear model files (written by liblinear-train,
// greedytl train or TrainAll) as a set of sources named by their paths, in
// the order given. It returns the first read error (for a file that is no
// liblinear model, one that says so: notLiblinear), or NewSet's.
func ReadModelFiles(paths ...string) (*Set, error) {
	models := make([]*linear.Model, len(paths))
	names := make([]string, len(paths))
	for j, p := range paths {
		m, err := linear.ReadModelFile(p)
		if err != nil {
			return nil, notLiblinear(p, err)
		}
		models[j], names[j] = m, filepath.Clean(p)
	}
	return NewSet(names, models)
}

// built returns an error for a nil or zero Set (one not built by NewSet,
// ReadModelFiles or LoadDir), which has no sources to score with.
func (s *Set) built() error {
	if s == nil || len(s.models) == 0 {
		return errors.New("source: a Set not built by NewSet, ReadModelFiles or LoadDir")
	}
	return nil
}

// Len returns the number of sources: 0 for a nil Set, which holds none.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.models)
}

// Name returns the name of source j. It panics if j is out of range (every
// j, for a nil Set).
func (s *Set) Name(j int) string {
	s.checkIndex("Name", j)
	return s.names[j]
}

// Model returns the model of source j, which must not be modified. It
// panics if j is out of range (every j, for a nil Set).
func (s *Set) Model(j int) *linear.Model {
	s.checkIndex("Model", j)
	return s.models[j]
}

// checkIndex panics, naming the method of, when j is not the index of one
// of the sources of s (nil: none).
func (s *Set) checkIndex(of string, j int) {
	if j < 0 || j >= s.Len() {
		panic(fmt.Sprintf("source: %s index %d out of range [0, %d)", of, j, s.Len()))
	}
}

// NumFeatures returns the number of feature columns the sources need: the
// largest NrFeature of their models (0 for a nil Set). Dense inputs to
// Scores need at least this many columns.
func (s *Set) NumFeatures() int {
	if s == nil {
		return 0
	}
	return s.d
}

// Subset returns the set of the sources idx, in that order (repeats
// allowed), sharing their models: at prediction time only the sources a
// target model selected need evaluating. It panics if idx is empty or an
// index is out of range.
func (s *Set) Subset(idx []int) *Set {
	if len(idx) == 0 {
		panic("source: Subset of no sources")
	}
	names := make([]string, len(idx))
	models := make([]*linear.Model, len(idx))
	for k, j := range idx {
		s.checkIndex("Subset", j)
		names[k], models[k] = s.names[j], s.models[j]
	}
	sub, err := NewSet(names, models)
	if err != nil {
		panic("source: Subset: " + err.Error()) // cannot happen: the models passed NewSet once
	}
	return sub
}

// Scores returns the m × n matrix H of the scores of the m rows of X under
// the n sources, H[i][j] = h_j(x_i): Σₖ x_ik·W[k][j] (W the d × n stacked,
// oriented weights) summed in the order of the features (addRow), plus
// each source's bias term. A row's scores are thus the same bits whatever
// rows are scored beside it and whatever BLAS the program uses: the
// products of gonum's own Dgemm, which Scores computed before, in every
// case (so that predict may score --sources a block of rows at a time, in
// any build). Columns of X beyond a model's NrFeature are ignored, as
// liblinear does.
//
// It returns an error naming the source when X has fewer columns than a
// source's model has features, when X is nil or has no rows, when s was not
// built by NewSet, ReadModelFiles or LoadDir, and a *ScoreError when a
// score is not finite (X held NaN or infinite values, or the product
// overflowed).
func (s *Set) Scores(X mat.Matrix) (*mat.Dense, error) {
	if err := s.built(); err != nil {
		return nil, err
	}
	if inputcheck.Absent(X) {
		return nil, errors.New("source: no examples to score (X is nil or empty)")
	}
	r, c := X.Dims()
	if r == 0 {
		return nil, errors.New("source: no examples to score")
	}
	if c < s.d {
		for j, m := range s.models {
			if c < m.NrFeature {
				return nil, fmt.Errorf("source %q: model has %s but the examples have %d", s.names[j], plural.Count(m.NrFeature, "feature", "features"), c)
			}
		}
	}
	n := len(s.models)
	h := mat.NewDense(r, n, nil)
	raw := h.RawMatrix()
	xd, _ := X.(*mat.Dense)
	// Rows are independent: a large X is scored in chunks of rows on
	// GOMAXPROCS workers, each row's sums in the same order.
	chunks := (r + scoreChunk - 1) / scoreChunk
	_ = parallel.For(context.Background(), chunks, parallel.Workers(r*s.d, 0), func(_ context.Context, k int) error {
		var buf []float64
		if xd == nil {
			buf = make([]float64, c)
		}
		for i := k * scoreChunk; i < min(r, (k+1)*scoreChunk); i++ {
			var x []float64
			if xd != nil {
				x = xd.RawRowView(i)
			} else {
				x = mat.Row(buf, i, X)
			}
			row := raw.Data[i*raw.Stride : i*raw.Stride+n]
			for l, v := range x[:s.d] {
				s.addRow(row, l, v)
			}
			floats.Add(row, s.b)
		}
		return nil
	})
	if err := s.checkFinite(h, X); err != nil {
		return nil, err
	}
	return h, nil
}

// scoreChunk is the rows a worker of Scores scores at a time.
const scoreChunk = 256

// addRow adds v times feature k's row of the stacked weights to row, the
// scores of one example: Scores and ScoresCSR sum each score's terms with
// it, one feature after another (f64.AxpyUnitary, through floats.AddScaled,
// as gonum's Dgemm does: each element's sum in the order of the features,
// whatever the BLAS). A feature of value 0 adds nothing (skipped, as Dgemm
// skips it).
func (s *Set) addRow(row []float64, k int, v float64) {
	if v == 0 {
		return
	}
	n := len(row)
	floats.AddScaled(row, v, s.w.RawMatrix().Data[k*n:(k+1)*n])
}

// ScoresCSR is Scores for sparse rows. As in liblinear-predict, X may have
// fewer columns than the models have features (an svmlight file only
// bounds its column count by the largest index present): absent features
// are zero. It returns an error when X is nil, malformed or has no rows,
// when s was not built by NewSet, ReadModelFiles or LoadDir, and a
// *ScoreError when a score is not finite.
func (s *Set) ScoresCSR(X *sparse.CSR) (*mat.Dense, error) {
	if err := s.built(); err != nil {
		return nil, err
	}
	if X == nil {
		return nil, errors.New("source: no examples to score (X is nil)")
	}
	if err := X.Check(); err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	if X.R == 0 {
		return nil, errors.New("source: no examples to score")
	}
	n := len(s.models)
	h := mat.NewDense(X.R, n, nil)
	raw := h.RawMatrix()
	for i := range X.R {
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		ind, val := X.Row(i)
		for k, col := range ind {
			if col >= s.d {
				break // indices increase
			}
			s.addRow(row, col, val[k])
		}
		floats.Add(row, s.b)
	}
	if err := s.checkFinite(h, X); err != nil {
		return nil, err
	}
	return h, nil
}

// checkFinite returns a *ScoreError naming the first non-finite score of
// h, the scores of the rows of X: the value of X that is not finite (among
// the source's features), or, when all are, that the score overflowed
// float64, naming its row as greedytl.ScoreOverflowError does (it said
// "non-finite input?" of finite inputs too large for the weights).
func (s *Set) checkFinite(h *mat.Dense, X mat.Matrix) error {
	raw := h.RawMatrix()
	for i := range raw.Rows {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				for k := range s.models[j].NrFeature {
					if x := X.At(i, k); math.IsNaN(x) || math.IsInf(x, 0) {
						return &ScoreError{Source: s.names[j], Row: i, Score: v, Column: k, Value: x}
					}
				}
				return &ScoreError{Source: s.names[j], Row: i, Score: v, Overflow: true}
			}
		}
	}
	return nil
}
