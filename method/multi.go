package method

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/validate"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// ClassLabels are the labels of a multi-class training sample: example i is
// of class Y[i], whose name is Names[Y[i]]. Every class of Names must occur
// at least once in Y.
type ClassLabels struct {
	// Names names the classes in order (at least two, distinct).
	Names []string
	// Y holds one class index (0 … len(Names)−1) per example.
	Y []int
}

// Counts returns the number of examples of each class (length
// len(l.Names); an index out of range is not counted).
func (l ClassLabels) Counts() []int {
	c := make([]int, len(l.Names))
	for _, k := range l.Y {
		if k >= 0 && k < len(c) {
			c[k]++
		}
	}
	return c
}

// Check returns an error when l is not usable for training on m examples:
// fewer than two classes, an empty or repeated name, a label count other
// than m, an index out of range, or a class without examples.
func (l ClassLabels) Check(m int) error {
	if err := l.checkNames(); err != nil {
		return fmt.Errorf("method: %w", err)
	}
	if len(l.Y) != m {
		return fmt.Errorf("method: %d labels for %d rows", len(l.Y), m)
	}
	for i, k := range l.Y {
		if k < 0 || k >= len(l.Names) {
			return fmt.Errorf("method: label %d is class %d, not one of the %d classes", i, k, len(l.Names))
		}
	}
	for k, c := range l.Counts() {
		if c == 0 {
			return fmt.Errorf("method: class %d (%q) has no examples: every class needs at least one", k, l.Names[k])
		}
	}
	return nil
}

// checkNames returns an error for fewer than two class names, an empty one,
// one given twice or one that reads as a non-finite number
// (dataset.CheckLabel: a model fitted on labels with NaN or ±Inf before they
// were refused); the error names no package (its callers prefix it).
func (l ClassLabels) checkNames() error {
	if len(l.Names) < 2 {
		return fmt.Errorf("%d class names: at least two classes are needed", len(l.Names))
	}
	seen := make(map[string]bool, len(l.Names))
	for k, n := range l.Names {
		if n == "" {
			return fmt.Errorf("class %d has an empty name", k)
		}
		if seen[n] {
			return fmt.Errorf("class name %q is given twice", n)
		}
		if err := dataset.CheckLabel(n); err != nil {
			return fmt.Errorf("class %d: %w", k, err)
		}
		seen[n] = true
	}
	return nil
}

// MultiMethod is a learner of several classes at once: it fits a
// MultiModel on a sample labelled with class indices. As for Method,
// implementations are stateless values and FitMulti never changes them.
type MultiMethod interface {
	// Name is the method's registry spec: a native multi-class method's
	// name (e.g. "nearest-mean"), or a binary method's spec when it is
	// used one against the rest (OneVsRest).
	Name() string
	// Needs reports what FitMulti requires beyond the labelled sample, as
	// Method.Needs does (a OneVsRest: its binary method's).
	Needs() Needs
	// FitMulti trains a model on train's X and H (train.Y must be nil) with
	// the class labels y. Extra is as for Method.Fit, except that
	// Extra.Oracle.Y holds class indices (0 … K−1) as float64. Like
	// Method.Fit, it returns an error (wrapping ctx.Err()) and a nil
	// model when ctx is done before it has finished, and panics when ctx
	// is nil.
	FitMulti(ctx context.Context, train Data, y ClassLabels, extra Extra) (MultiModel, error)
}

// MultiModel is a fitted classifier of K ≥ 2 classes. As for Model, its
// methods only read it and their inputs: any number of goroutines may call
// them, and WriteMulti, on one model at once; and Model's rule on nil and
// zero models holds (*LinearMulti).
type MultiModel interface {
	// Method is the registry spec of the method that made the model.
	Method() string
	// Classes returns the class names in order (a copy).
	Classes() []string
	// Scores returns one row per row of d and one column per class: a
	// larger score means a more likely class (what the scores are — logits,
	// negated distances, probabilities — depends on the model's form; see
	// docs/design.md, "Multi-class model files"). It returns an error when
	// the column counts differ from training or an input is not finite.
	Scores(d Data) (*mat.Dense, error)
	// Predict returns the predicted class index of every row of d: the
	// argmax of its scores, the lowest index winning a tie.
	Predict(d Data) ([]int, error)
	// Hyperparameters returns the hyperparameters chosen by the fit.
	Hyperparameters() map[string]float64
	// Selected returns, per class, the input columns the model uses and
	// their weights; ok is false when the model has no per-column weights
	// (nearest neighbour, centroids on normalised rows).
	Selected() (s []Selection, ok bool)
}

// Capabilities says which tasks a registered method fits.
type Capabilities struct {
	// Binary: the method fits ±1 labels (Registration.New is set).
	Binary bool
	// NativeMultiClass: the method fits several classes at once
	// (Registration.NewMulti is set). A binary method without it is used
	// one against the rest for several classes (OneVsRest).
	NativeMultiClass bool
	// SelectsFeatures: the method selects or weights individual features
	// (Registration.SelectsFeatures), as the methods of the paper's noise
	// study (its Fig. 2) do.
	SelectsFeatures bool
}

// MultiClass reports whether the method fits multi-class labels, natively
// or one against the rest: every registered method does.
func (c Capabilities) MultiClass() bool { return c.Binary || c.NativeMultiClass }

// Capabilities returns what the registered method fits.
func (r Registration) Capabilities() Capabilities {
	return Capabilities{Binary: r.New != nil, NativeMultiClass: r.NewMulti != nil, SelectsFeatures: r.SelectsFeatures}
}

// Recommended is the registry name of the recommended method, the CLI's
// default for two classes.
const Recommended = "greedytl-auto"

// RecommendedMulti is the registry name of the recommended multi-class
// method, the CLI's default for three or more classes.
const RecommendedMulti = "greedytl-nway"

// MultiNames returns the names of the methods that fit multi-class labels:
// the native multi-class methods (in the registry's order, the recommended
// one first, then any other, sorted), then every binary method (Names),
// which fits them one against the rest.
func MultiNames() []string {
	names := ordered(func(r Registration) bool { return r.NewMulti != nil })
	for _, n := range Names() {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// NewMulti returns the multi-class learner that spec names: the native
// multi-class method of that name, or, for a binary method without one,
// that method (with the spec's settings, as New) one against the rest. It
// returns the errors of New, and an error for settings given to a native
// multi-class method (they take none).
func NewMulti(spec string) (MultiMethod, error) {
	s, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	r, ok := Registered(s.Name)
	if !ok {
		return nil, fmt.Errorf("method: %w", &UnknownMethodError{Name: s.Name, Known: MultiNames()})
	}
	if r.NewMulti != nil {
		if len(s.Params) > 0 {
			return nil, fmt.Errorf("method: %w", noSettingsError(s.Name, spec))
		}
		return r.NewMulti(), nil
	}
	m, err := New(spec)
	if err != nil {
		return nil, err
	}
	return OneVsRest{Binary: m}, nil
}

// checkMultiTrain validates a multi-class training sample as checkTrain
// does a binary one: X and H (either may be absent, not both) have one row
// per label, train.Y is nil, y is consistent (ClassLabels.Check) and every
// value is finite. It returns the numbers of examples, features and
// sources.
func checkMultiTrain(data Data, y ClassLabels) (m, d, n int, err error) {
	if data.Y != nil {
		return 0, 0, 0, fmt.Errorf("method: a multi-class sample has its labels in ClassLabels; Data.Y must be nil")
	}
	m = len(y.Y)
	if d, n, err = validate.Shapes(data.X, data.H, m); err != nil {
		return 0, 0, 0, fmt.Errorf("method: %w", err)
	}
	if err := y.Check(m); err != nil {
		return 0, 0, 0, err
	}
	if err := validate.Finite(data.X, data.H); err != nil {
		return 0, 0, 0, fmt.Errorf("method: %w", err)
	}
	return m, d, n, nil
}

// ArgmaxRows returns the column of the largest value of every row of s,
// the lowest column winning a tie (±Inf compare as usual): MultiModel.Predict
// of the rows whose Scores are s, for a caller that needs both. A NaN has
// no place in the order, so it returns an error naming the first (row and
// column), as Scores never returns one.
func ArgmaxRows(s *mat.Dense) ([]int, error) { return argmaxRows(s, 0) }

// argmaxRows is ArgmaxRows of the rows first, first+1, … of an input (a
// block of its rows, PredictContext's), its error naming the input's row.
func argmaxRows(s *mat.Dense, first int) ([]int, error) {
	r, _ := s.Dims()
	out := make([]int, r)
	for i := range out {
		row := s.RawRowView(i)
		for k, v := range row {
			if math.IsNaN(v) {
				return nil, fmt.Errorf("method.ArgmaxRows: row %d column %d is NaN", first+i, k)
			}
		}
		out[i] = argmax(row)
	}
	return out, nil
}

// OneClass reports whether model predicts one class, k, for every row of
// train, the rows it was fitted on (a very unbalanced sample may give the
// majority class every row). It predicts them as Predict does
// (PredictContext, which returns ctx's error once ctx is done), but a model
// that knows its predictions of its own training rows (trainingPredictor:
// a fitted one-vs-rest model, which scored them in its fit, and a
// nearest-neighbour model, which finds them in one pass over its rows, not
// Predict's O(m²)) is not asked again; its error is Predict's.
func OneClass(ctx context.Context, model MultiModel, train Data) (k int, one bool, err error) {
	return oneClass(ctx, model, train, nil)
}

// TrainingClasses is fit's two checks of model on train, the rows it was
// fitted on, with the training rows scored at most once: ConstantClasses
// (its classes; none when the rule does not apply), and, when that finds
// no class, OneClass (k and one; 0 and false otherwise). A model whose
// Predict is the argmax of its Scores (every native multi-class model and
// ensemble: PredictContext of a model scored in blocks is ArgmaxRows of
// its Scores, bit for bit) is not asked to predict the rows that
// ConstantClasses scored: OneClass takes the argmax of those scores. err is
// ConstantClasses' (ctx's, and OneClass is then not asked) or OneClass'.
func TrainingClasses(ctx context.Context, model MultiModel, train Data) (constant []ClassConstancy, k int, one bool, err error) {
	constant, ok, S, err := constantClasses(ctx, model, train)
	switch {
	case err != nil:
		return nil, 0, false, err
	case ok && len(constant) > 0:
		return constant, 0, false, nil
	}
	k, one, err = oneClass(ctx, model, train, S)
	return nil, k, one, err
}

// oneClass is OneClass, given S, model's Scores of train when they are at
// hand (else nil): a model scored in blocks (blockScorer), whose Predict is
// their argmax, then predicts the rows as their argmax, without scoring
// them again, after ctx is checked.
func oneClass(ctx context.Context, model MultiModel, train Data, S *mat.Dense) (k int, one bool, err error) {
	var pred []int
	if tp, ok := model.(trainingPredictor); ok {
		pred = tp.trainingClasses()
	}
	if _, ok := model.(blockScorer); ok && pred == nil && S != nil {
		if err := ctx.Err(); err != nil {
			return 0, false, err
		}
		if pred, err = argmaxRows(S, 0); err != nil {
			return 0, false, err
		}
	}
	if pred == nil {
		if pred, err = PredictContext(ctx, model, train); err != nil {
			return 0, false, err
		}
	}
	if len(pred) == 0 || slices.ContainsFunc(pred, func(c int) bool { return c != pred[0] }) {
		return 0, false, nil
	}
	return pred[0], true, nil
}

// trainingPredictor is a MultiModel that knows the classes Predict gives
// the rows it was fitted on (in some order of the rows), without
// predicting them: OneClass asks it rather than Predict. trainingClasses
// returns nil when the model does not know them (a model read from a
// file).
type trainingPredictor interface {
	trainingClasses() []int
}

// blockScaler standardises the columns [X, H] of a multi-class model: the
// one owner of its "x", "h", "num_features" and "num_sources" members.
type blockScaler struct {
	X standardize.Scaler `json:"x"`
	H standardize.Scaler `json:"h"`
}

// fitMultiBlocks returns the scalers of the X and H of a checked
// multi-class training sample (checkMultiTrain), fitted by fitX and fitH
// (standardize.Fit, or standardize.FitModerated; greedytl-nway's fitH may
// return the sources' own statistics), and the standardised [X, H]
// (m × (d+n)).
func fitMultiBlocks(data Data, fitX, fitH func(mat.Matrix) standardize.Scaler) (blockScaler, *mat.Dense, error) {
	var b blockScaler
	b.X = fitX(dense(data.X))
	b.H = fitH(dense(data.H))
	Z, err := b.transform(data)
	return b, Z, err
}

// dims returns the numbers of features and sources.
func (b blockScaler) dims() (d, n int) { return b.X.Len(), b.H.Len() }

// transform checks data against the scalers (column counts, finite values)
// and returns its standardised [X, H]. An error names the problem.
func (b blockScaler) transform(data Data) (*mat.Dense, error) {
	d, n := b.dims()
	rows, err := checkInputs(data, d, n)
	if err != nil {
		return nil, fmt.Errorf("method: predict: %w", err)
	}
	if rows == 0 {
		return nil, fmt.Errorf("method: no rows to predict")
	}
	Z := mat.NewDense(rows, d+n, nil)
	put := func(name string, A mat.Matrix, s standardize.Scaler, off int) error {
		if s.Len() == 0 {
			return nil
		}
		z, err := standardiseInput(name, A, s)
		if err != nil {
			if o := standardiseOverflow(err); o != nil {
				return fmt.Errorf("method: predict: %w", o)
			}
			return err
		}
		for i := 0; i < rows; i++ {
			copy(Z.RawRowView(i)[off:], z.RawRowView(i))
		}
		return nil
	}
	if err := put("X", data.X, b.X, 0); err != nil {
		return nil, err
	}
	if err := put("H", data.H, b.H, d); err != nil {
		return nil, err
	}
	return Z, nil
}

// check validates the scalers.
func (b blockScaler) check() error {
	if err := b.X.Check(); err != nil {
		return fmt.Errorf("x: %w", err)
	}
	if err := b.H.Check(); err != nil {
		return fmt.Errorf("h: %w", err)
	}
	if b.X.Len()+b.H.Len() == 0 {
		return fmt.Errorf("the model has no columns")
	}
	return nil
}

// inputError is an error of standardising an input (X or H) with its
// training scaler: "method: X: " and the standardiser's error.
type inputError struct {
	Input string // "X" or "H"
	Err   error  // the standardiser's error
}

func (e *inputError) Error() string { return "method: " + e.Input + ": " + e.Err.Error() }

// Unwrap returns the standardiser's error.
func (e *inputError) Unwrap() error { return e.Err }

// standardiseInput returns s.Transform(A), A the input named name ("X" or
// "H"); its error is an *inputError naming the input.
func standardiseInput(name string, A mat.Matrix, s standardize.Scaler) (*mat.Dense, error) {
	z, err := s.Transform(A)
	if err != nil {
		return nil, &inputError{Input: name, Err: err}
	}
	return z, nil
}

// standardiseOverflow returns the *greedytl.ScoreOverflowError of err, an
// error of standardiseInput, when the standardiser found a value whose
// standardised value overflows (a *standardize.OverflowError: the first in
// row order, once checkInputs has found the input's values finite), or nil
// for any other error. The value's term, and so the score, overflows
// there: the error a linear model's scores give (addScores), naming the
// input, row and column to blame.
func standardiseOverflow(err error) *greedytl.ScoreOverflowError {
	var in *inputError
	var o *standardize.OverflowError
	if !errors.As(err, &in) || !errors.As(in.Err, &o) {
		return nil
	}
	return &greedytl.ScoreOverflowError{Input: in.Input, Row: o.Row, Col: o.Col, Value: o.Value, Mean: o.Mean, Scale: o.Scale}
}

// checkFiniteScores returns the error of the first score of s that is not
// finite (an input far outside the training range): a
// *greedytl.ScoreOverflowError naming its row of s and no column (Col −1,
// Input ""), as a class's score sums every column's terms. A block's
// error counts from the block's first row: ScoreBlocks and PredictContext
// give Scores' error on the whole input instead.
func checkFiniteScores(s *mat.Dense) error {
	r, c := s.Dims()
	for i := 0; i < r; i++ {
		for _, v := range s.RawRowView(i)[:c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("method: predict: %w", &greedytl.ScoreOverflowError{Row: i, Col: -1})
			}
		}
	}
	return nil
}

// classRowsOf returns the rows of each class of y, in row order.
func classRowsOf(y ClassLabels) [][]int {
	rows := make([][]int, len(y.Names))
	for i, k := range y.Y {
		rows[k] = append(rows[k], i)
	}
	return rows
}

// quoteClasses lists class names for a message.
func quoteClasses(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
