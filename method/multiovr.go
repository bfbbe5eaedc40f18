package method

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// OneVsRest fits a binary method to several classes: one model per class,
// class k positive (+1) against every other class (−1), on the same X and
// H. The source scores H are the caller's, computed once for all classes;
// X and H are converted to dense matrices once. Each binary fit
// standardises its columns itself, as the binary method always does (so
// that each class's model is exactly the binary method's model, with its
// usual file); standardising is O(m·(d+n)), negligible beside any fit.
//
// The binary models' scores are on scales of their own (a ridge fit's
// decision values, a logistic model's log-odds, a rescaled source), so
// class k's score is f_k(x)/s_k, s_k the root mean square of f_k over the
// training examples (1 when that is 0): a per-class change of scale that
// keeps each model's threshold at 0 and makes a score of 1 mean "as far
// from the threshold as a typical training example".
//
// For a transductive method Extra.Unlabelled is passed to every fit; for an
// oracle Extra.Oracle.Y holds class indices, turned into ±1 per class (so
// every class must occur in it, as best-source needs both of its classes).
// Extra.Progress, if set, is called after each class's fit (k of K), not
// passed to the binary fits.
type OneVsRest struct {
	// Binary is the method fitted once per class.
	Binary Method
}

// Name returns the binary method's spec.
func (o OneVsRest) Name() string { return o.Binary.Name() }

// Needs returns the binary method's Needs (none without one).
func (o OneVsRest) Needs() Needs {
	if o.Binary == nil {
		return Needs{}
	}
	return o.Binary.Needs()
}

// DrawsAtRandom reports whether the binary method draws at random on d
// feature and n source columns (see method.DrawsAtRandom).
func (o OneVsRest) DrawsAtRandom(d, n int) bool {
	return o.Binary != nil && DrawsAtRandom(o.Binary, d, n)
}

// FitMulti fits one binary model per class (see OneVsRest).
func (o OneVsRest) FitMulti(ctx context.Context, train Data, y ClassLabels, extra Extra) (MultiModel, error) {
	caller := methodCaller("one-vs-rest")
	if o.Binary != nil {
		caller = fitCaller(o.Binary)
		// A method of another type under a registered name (a library
		// user's wrapper of a registered method) has its fits name what
		// the registered method's name: its checks here do too.
		if caller == methodCaller(o.Binary.Name()) {
			if m, err := New(o.Binary.Name()); err == nil {
				caller = fitCaller(m)
			}
		}
	}
	return fitMultiChecked(ctx, caller, func() (MultiModel, error) { return o.fit(ctx, train, y, extra) })
}

// fit is FitMulti's work.
func (o OneVsRest) fit(ctx context.Context, train Data, y ClassLabels, extra Extra) (MultiModel, error) {
	if o.Binary == nil {
		return nil, fmt.Errorf("method: one-vs-rest without a binary method")
	}
	if _, _, _, err := checkMultiTrain(train, y); err != nil {
		return nil, err
	}
	shared := denseData(train) // train.Y is nil (checkMultiTrain)
	var oracleY []int
	if extra.Oracle != nil {
		oracleY = make([]int, len(extra.Oracle.Y))
		for i, v := range extra.Oracle.Y {
			k := int(v)
			if float64(k) != v || k < 0 || k >= len(y.Names) {
				return nil, fmt.Errorf("method: oracle label %d is %v, not a class index 0 … %d", i, v, len(y.Names)-1)
			}
			oracleY[i] = k
		}
	}
	K := len(y.Names)
	models := make([]Model, K)
	scale := make([]float64, K)
	trainScores := mat.NewDense(len(y.Y), K, nil)
	judged := make([]judgement, K)
	done := newFitProgress(extra.Progress, K) // a class a unit
	for k := range K {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d := shared
		d.Y = oneAgainstRest(y.Y, k)
		ex := extra
		ex.Progress = nil // the classes' progress, not a binary fit's
		if extra.Oracle != nil {
			or := *extra.Oracle
			or.Y = oneAgainstRest(oracleY, k)
			ex.Oracle = &or
		}
		// The binary method's errors carry their package's prefix already
		// (method's, or greedytl.Fit's): the class is context, not a second
		// prefix.
		m, err := o.Binary.Fit(ctx, d, ex)
		if err != nil {
			return nil, classError(o.Binary.Name(), y.Names[k], err)
		}
		f, err := m.Predict(Data{X: shared.X, H: shared.H})
		if err != nil {
			return nil, classError(o.Binary.Name(), y.Names[k], err)
		}
		models[k], scale[k] = m, rms(f)
		judged[k].Constancy, judged[k].ok = judgeConstant(m, func() ([]float64, error) { return f, nil })
		for i, v := range f {
			trainScores.Set(i, k, v/scale[k]) // as Scores computes them
		}
		done.add(ctx)
	}
	model := &ovrModel{multiBase: multiBase{o.Binary.Name(), slices.Clone(y.Names), map[string]float64{}}, models: models, scale: scale, judged: judged}
	if checkFiniteScores(trainScores) == nil { // else Predict's error, not a class
		model.train, _ = ArgmaxRows(trainScores) // finite: no error
	}
	return model, nil
}

// classContext is the text a classError puts between its method's name
// and its cause, with the quoted class name in %s.
const classContext = ", class %s against the rest: "

// ClassError is the error of the binary method fitted to one class
// against the rest (OneVsRest): its message is "METHOD, class "CLASS"
// against the rest: " and the cause's; a program that names the classes
// otherwise (the CLI's fit --json report) finds the class with errors.As.
type ClassError struct {
	Method string // the binary method's name
	Class  string // the class fitted against the rest, as the labels name it
	Err    error  // the binary method's error
}

// Error returns "METHOD, class "CLASS" against the rest: " followed by the
// binary method's error (classContext).
func (e *ClassError) Error() string {
	return fmt.Sprintf("%s"+classContext, e.Method, strconv.Quote(e.Class)) + e.Err.Error()
}

// Unwrap returns the binary method's error.
func (e *ClassError) Unwrap() error { return e.Err }

// classError returns the error err of the binary method fitted to class
// against the rest, a *ClassError.
func classError(method, class string, err error) error {
	return &ClassError{Method: method, Class: class, Err: err}
}

// WithoutClass returns an error message, as a results record keeps it,
// with the class of each classError in it left out ("METHOD, class "C"
// against the rest: CAUSE" becomes "METHOD: CAUSE"), so that the messages
// of an N-way fit whose classes failed alike are one message. Other
// messages are returned as they are.
func WithoutClass(msg string) string {
	before, after, _ := strings.Cut(classContext, "%s")
	var b strings.Builder
	for {
		i := strings.Index(msg, before)
		if i < 0 {
			break
		}
		q, err := strconv.QuotedPrefix(msg[i+len(before):])
		rest := msg[i+len(before)+len(q):]
		if err != nil || !strings.HasPrefix(rest, after) {
			b.WriteString(msg[:i+len(before)])
			msg = msg[i+len(before):]
			continue
		}
		b.WriteString(msg[:i] + ": ")
		msg = rest[len(after):]
	}
	return b.String() + msg
}

// oneAgainstRest returns +1 where y is k and −1 elsewhere.
func oneAgainstRest(y []int, k int) []float64 {
	out := make([]float64, len(y))
	for i, c := range y {
		out[i] = -1
		if c == k {
			out[i] = 1
		}
	}
	return out
}

// rms returns the root mean square of f, or 1 when it is 0 or not finite.
// Where the sum of squares may have underflowed or overflowed
// (standardize.Rescaled: scores below about 1e-135 or above 1e154) it is
// computed in units of the largest |f_i| (standardize.Std about 0), not
// taken for 0 or +Inf.
func rms(f []float64) float64 {
	var s float64
	for _, v := range f {
		s += v * v
	}
	var r float64
	if standardize.Rescaled(s) {
		r = standardize.Std(f, 0, s)
	} else {
		r = math.Sqrt(s / float64(len(f)))
	}
	if !inputcheck.PositiveFinite(r) {
		return 1
	}
	return r
}

// ovrModel is a OneVsRest model: class k's score is models[k]'s divided by
// scale[k]. Its file form is "one-vs-rest".
type ovrModel struct {
	multiBase
	models []Model
	scale  []float64
	// train holds the classes Predict gives the training rows, which the
	// fit scored to find scale; nil for a model read from a file, and when
	// a score was not finite (Predict refuses the rows then).
	train []int
	// judged holds each class's model's judgement by the constant-model
	// rule on the training rows (judgeConstant of the scores the fit
	// computed, as ConstantModel judges them): ConstantClasses reads it
	// rather than scoring the rows again; nil for a model read from a
	// file.
	judged []judgement
}

// trainingClasses returns the classes Predict gives the training rows, as
// the fit found them (trainingPredictor), or nil for a model read from a
// file or one whose training scores were not all finite.
func (o *ovrModel) trainingClasses() []int { return o.train }

// NotConverged returns the binary models' reports as one, each entry naming
// the classes whose fits it concerns (ConvergenceReporter).
func (o *ovrModel) NotConverged() []NotConverged { return mergedReports(o.models, o.classes) }

// WideRanges returns the binary models' reports (WideRangeReporter), each
// naming its class, in the order of the classes.
func (o *ovrModel) WideRanges() []WideRange {
	var out []WideRange
	for k, b := range o.models {
		if r, ok := b.(WideRangeReporter); ok {
			for _, w := range r.WideRanges() {
				w.Class = o.classes[k]
				out = append(out, w)
			}
		}
	}
	return out
}

// Models returns the binary model of each class (class k positive), for
// inspect and the source-weight analysis.
func (o *ovrModel) Models() []Model { return slices.Clone(o.models) }

// Scores returns f_k/s_k for every row and class.
func (o *ovrModel) Scores(d Data) (*mat.Dense, error) {
	d.Y = nil
	var out *mat.Dense
	for k, m := range o.models {
		f, err := m.Predict(d)
		if err != nil {
			return nil, err
		}
		if out == nil {
			if len(f) == 0 {
				return nil, fmt.Errorf("method: no rows to predict")
			}
			out = mat.NewDense(len(f), len(o.models), nil)
		}
		for i, v := range f {
			out.Set(i, k, v/o.scale[k])
		}
	}
	return out, checkFiniteScores(out)
}

// blockScores scores the rows [lo, hi) of d as Scores scores them all
// (blockScorer), when every class's model scores each row alone (RowByRow):
// else errNotBlockScored, and Predict scores the rows whole. The rows are
// counted as the first class's model counts them (its columns); a block's
// errors are Scores' of the block's rows.
func (o *ovrModel) blockScores(d Data) (blockFunc, int, error) {
	if !MultiRowByRow(o) {
		return nil, 0, errNotBlockScored
	}
	sel, _ := o.models[0].Selected()
	rows, err := checkInputs(d, sel.NumFeatures, sel.NumSources)
	if err != nil {
		return nil, 0, err
	}
	X, H := dense(d.X), dense(d.H)
	return func(lo, hi int) (*mat.Dense, error) {
		var b Data
		if X != nil {
			b.X = X.Slice(lo, hi, 0, X.RawMatrix().Cols)
		}
		if H != nil {
			b.H = H.Slice(lo, hi, 0, H.RawMatrix().Cols)
		}
		return o.Scores(b)
	}, rows, nil
}

// RowByRow reports whether m, a binary model, scores each row of its input
// alone, so that a row's score is the same bits in any block of rows: a
// linear model (Linear, AutoModel: a sum over the columns of each row), a
// GreedyTL model (the same sums, column by column) and a dictionary model
// (each row's OMP codes on dictionaries of a fixed shape, their score
// summed in a fixed order: linear.Dot), and a two-class model (TwoClass) whose
// multi-class model is MultiRowByRow. ovrModel's blocks (MultiRowByRow)
// and greedytl predict, which reads a binary model's rows in blocks only
// when RowByRow holds, ask it.
func RowByRow(m Model) bool {
	switch m := m.(type) {
	case *Linear, *AutoModel, *greedyModel, *dictionaryModel:
		return true
	case *twoClassModel:
		return MultiRowByRow(m.m)
	}
	return false
}

// MultiRowByRow reports whether m, a multi-class model, scores each row of
// its input alone, so that a row's scores are the same bits in any block
// of rows: a model scored in blocks (blockScorer: a native multi-class
// model), a one-vs-rest model whose every class's model is RowByRow (of
// linear, GreedyTL or dictionary models), and an ensemble of such models.
// greedytl predict reads a multi-class model's rows in blocks only when
// MultiRowByRow holds.
func MultiRowByRow(m MultiModel) bool {
	switch m := m.(type) {
	case *ovrModel:
		return len(m.models) > 0 && !slices.ContainsFunc(m.models, func(b Model) bool { return !RowByRow(b) })
	case *ensembleModel:
		return !slices.ContainsFunc(m.members, func(b MultiModel) bool { return !MultiRowByRow(b) })
	}
	_, ok := m.(blockScorer)
	return ok
}

// Predict returns the argmax of the scores.
func (o *ovrModel) Predict(d Data) ([]int, error) { return predictByScores(o, d) }

// Selected returns each class's model's selection; ok is false when a
// model has no per-column weights.
func (o *ovrModel) Selected() ([]Selection, bool) {
	out := make([]Selection, len(o.models))
	all := true
	for k, m := range o.models {
		var ok bool
		out[k], ok = m.Selected()
		all = all && ok
	}
	return out, all
}

// ClassModels returns the class models of a model fitted one class
// against the rest (class k's binary model, positive class k), or nil for
// any other multi-class model: inspect shows what each recorded of its
// fit (greedytl-auto's committees).
func ClassModels(model MultiModel) []Model {
	if o, ok := model.(*ovrModel); ok {
		return slices.Clone(o.models)
	}
	return nil
}

// ovrFile is the "one-vs-rest" form.
type ovrFile struct {
	multiHeader
	Models     []json.RawMessage `json:"models"`
	ScoreScale []float64         `json:"score_scale"`
}

func (o *ovrModel) multiDocument(h multiHeader) (any, error) {
	sel, _ := o.models[0].Selected()
	h.NumFeatures, h.NumSources, h.Form = sel.NumFeatures, sel.NumSources, FormOneVsRest
	f := ovrFile{multiHeader: h, ScoreScale: o.scale}
	for k, m := range o.models {
		var buf bytes.Buffer
		labels := &modelfile.LabelNames{Positive: o.classes[k]}
		for j, c := range o.classes {
			if j != k {
				labels.Negative = append(labels.Negative, c)
			}
		}
		if err := Write(&buf, m, FileInfo{Labels: labels}); err != nil {
			return nil, err
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, buf.Bytes()); err != nil {
			return nil, err
		}
		f.Models = append(f.Models, compact.Bytes())
	}
	if len(f.ScoreScale) != len(f.Models) {
		return nil, fmt.Errorf("%d score scales for %d models", len(f.ScoreScale), len(f.Models))
	}
	return f, checkPositive("score_scale", o.scale)
}

// checkPositive returns an error naming the first element of v that is not
// a positive finite number.
func checkPositive(name string, v []float64) error {
	for i, x := range v {
		if !inputcheck.PositiveFinite(x) {
			return fmt.Errorf("%s[%d] is %v, want a positive number", name, i, x)
		}
	}
	return nil
}

// checkOneVsRestLabels returns an error unless rec, the labels that the
// binary model of class k of a one-vs-rest file records, are classes[k]
// against the other classes in order, as the writer records them: the
// classes and the models are matched by position, which an edit of either
// would otherwise break silently.
func checkOneVsRestLabels(rec *modelfile.LabelNames, classes []string, k int) error {
	if rec == nil {
		return fmt.Errorf("records no labels: want %q against the rest", classes[k])
	}
	rest := slices.Concat(classes[:k], classes[k+1:])
	if rec.Positive != classes[k] || !slices.Equal(rec.Negative, rest) {
		return fmt.Errorf("is fitted for %q against %s, but it is the model of class %d, %q against %s",
			rec.Positive, quoteClasses(rec.Negative), k, classes[k], quoteClasses(rest))
	}
	return nil
}

// decodeOneVsRest decodes a "one-vs-rest" file: each model is a whole
// binary file of the file's method, fitted on the same columns.
func decodeOneVsRest(doc json.RawMessage) (MultiModel, error) {
	var f ovrFile
	if err := decodeStrict(doc, &f); err != nil {
		return nil, err
	}
	K := len(f.Classes)
	if len(f.Models) != K || len(f.ScoreScale) != K {
		return nil, fmt.Errorf("%d models and %d score scales for %d classes", len(f.Models), len(f.ScoreScale), K)
	}
	if err := f.multiHeader.check(FormOneVsRest, f.NumFeatures, f.NumSources); err != nil {
		return nil, err
	}
	if err := checkPositive("score_scale", f.ScoreScale); err != nil {
		return nil, err
	}
	o := &ovrModel{multiBase: multiBase{f.Method, f.Classes, f.Hyperparameters}, scale: f.ScoreScale}
	for k, raw := range f.Models {
		sub, err := readNested(raw)
		if err != nil {
			return nil, fmt.Errorf("models[%d]: %w", k, err)
		}
		m := sub.Model
		switch {
		case m == nil:
			return nil, fmt.Errorf("models[%d] is not a binary model", k)
		case m.Method() != f.Method:
			return nil, fmt.Errorf("models[%d] is a %s model, not %s", k, m.Method(), f.Method)
		case sub.Info.Sources != nil:
			return nil, fmt.Errorf(`models[%d] records sources: the file's "sources" holds them`, k)
		}
		if err := checkOneVsRestLabels(sub.Info.Labels, f.Classes, k); err != nil {
			return nil, fmt.Errorf("models[%d]: %w", k, err)
		}
		if sel, _ := m.Selected(); sel.NumFeatures != f.NumFeatures || sel.NumSources != f.NumSources {
			return nil, fmt.Errorf("models[%d] has %d features and %d sources, not %d and %d", k, sel.NumFeatures, sel.NumSources, f.NumFeatures, f.NumSources)
		}
		o.models = append(o.models, m)
	}
	return o, nil
}

// ensembleModel averages the class probabilities (softmax of the scores)
// of its members, which are multi-class models of the same classes and
// columns whose scores are logits. Its file form is "ensemble".
type ensembleModel struct {
	multiBase
	members []MultiModel
	weights []float64
}

// NotConverged returns the members' reports as one (ConvergenceReporter).
func (e *ensembleModel) NotConverged() []NotConverged { return mergedReports(e.members, nil) }

// Scores returns Σ_i weights[i]·softmax(members[i]'s scores), row by row.
func (e *ensembleModel) Scores(d Data) (*mat.Dense, error) {
	var out *mat.Dense
	for i, m := range e.members {
		s, err := m.Scores(d)
		if err != nil {
			return nil, err
		}
		softmaxRows(s)
		scaleInPlace(s, e.weights[i])
		if out == nil {
			out = s
		} else {
			out.Add(out, s)
		}
	}
	return out, checkFiniteScores(out)
}

// blockScores scores the rows of d a block at a time (blockScorer): each
// member's block, softmaxed and weighted, added in the order of Scores. A
// member that is not scored row by row (MultiRowByRow) gives
// errNotBlockScored before any member prepares its blocks; the error of a
// member's input checks or block is its own, not necessarily Scores' (a
// later member's checks may fail before an earlier member's scores do).
func (e *ensembleModel) blockScores(d Data) (blockFunc, int, error) {
	if !MultiRowByRow(e) {
		return nil, 0, errNotBlockScored
	}
	score := make([]blockFunc, len(e.members))
	rows := 0
	for i, m := range e.members {
		bs, ok := m.(blockScorer)
		if !ok {
			return nil, 0, errNotBlockScored
		}
		var err error
		if score[i], rows, err = bs.blockScores(d); err != nil {
			return nil, 0, err
		}
	}
	var buf []float64
	return func(lo, hi int) (*mat.Dense, error) {
		var out *mat.Dense
		for i, f := range score {
			s, err := f(lo, hi)
			if err != nil {
				return nil, err
			}
			softmaxRows(s)
			scaleInPlace(s, e.weights[i])
			if out == nil {
				_, K := s.Dims()
				out = reusedDense(&buf, hi-lo, K)
				out.Copy(s)
			} else {
				out.Add(out, s)
			}
		}
		return out, checkFiniteScores(out)
	}, rows, nil
}

// scaleInPlace multiplies every entry of s by f: what s.Scale(f, s) does,
// without the copy of s that Scale makes when its receiver is its argument
// (a second rows × classes matrix, 320 MB for 200,000 rows of 200 classes).
func scaleInPlace(s *mat.Dense, f float64) {
	r, _ := s.Dims()
	for i := 0; i < r; i++ {
		floats.Scale(f, s.RawRowView(i))
	}
}

// softmaxRows replaces every row of s by its softmax.
func softmaxRows(s *mat.Dense) {
	r, _ := s.Dims()
	for i := 0; i < r; i++ {
		softmaxInPlace(s.RawRowView(i))
	}
}

// Predict returns the argmax of the averaged probabilities.
func (e *ensembleModel) Predict(d Data) ([]int, error) { return predictByScores(e, d) }

// Selected returns, per class, the members' selections' columns with their
// weights scaled by the member weights and summed (ok when every member has
// per-column weights).
func (e *ensembleModel) Selected() ([]Selection, bool) {
	sum := make([]Linear, len(e.classes))
	for i, m := range e.members {
		sel, ok := m.Selected()
		if !ok {
			return nil, false
		}
		for k, s := range sel {
			if i == 0 {
				sum[k] = Linear{WX: make([]float64, s.NumFeatures), WH: make([]float64, s.NumSources)}
			}
			for _, c := range s.Columns {
				if c.Source {
					sum[k].WH[c.Index] += e.weights[i] * c.Weight
				} else {
					sum[k].WX[c.Index] += e.weights[i] * c.Weight
				}
			}
		}
	}
	out := make([]Selection, len(sum))
	for k := range sum {
		out[k], _ = sum[k].Selected()
	}
	return out, true
}

// ensembleFile is the "ensemble" form.
type ensembleFile struct {
	multiHeader
	Members []json.RawMessage `json:"members"`
	Weights []float64         `json:"weights"`
}

func (e *ensembleModel) multiDocument(h multiHeader) (any, error) {
	f := ensembleFile{multiHeader: h, Weights: e.weights}
	f.Form = FormEnsemble
	for i, m := range e.members {
		b, err := encodeMulti(m, nil)
		if err != nil {
			return nil, fmt.Errorf("members[%d]: %w", i, err)
		}
		f.Members = append(f.Members, b)
		if i == 0 {
			var mh multiHeader
			if err := json.Unmarshal(b, &mh); err != nil {
				return nil, err
			}
			f.NumFeatures, f.NumSources = mh.NumFeatures, mh.NumSources
		}
	}
	return f, checkPositive("weights", e.weights)
}

// decodeEnsemble decodes an "ensemble" file: its members are whole
// multi-class files of the same classes and columns.
func decodeEnsemble(doc json.RawMessage) (MultiModel, error) {
	var f ensembleFile
	if err := decodeStrict(doc, &f); err != nil {
		return nil, err
	}
	if err := f.multiHeader.check(FormEnsemble, f.NumFeatures, f.NumSources); err != nil {
		return nil, err
	}
	if len(f.Members) == 0 || len(f.Weights) != len(f.Members) {
		return nil, fmt.Errorf("%d members and %d weights", len(f.Members), len(f.Weights))
	}
	if err := checkPositive("weights", f.Weights); err != nil {
		return nil, err
	}
	var sum float64
	for _, w := range f.Weights {
		sum += w
	}
	if math.Abs(sum-1) > 1e-12 {
		return nil, fmt.Errorf("the weights sum to %v, not 1", sum)
	}
	e := &ensembleModel{multiBase: multiBase{f.Method, f.Classes, f.Hyperparameters}, weights: f.Weights}
	for i, raw := range f.Members {
		var mh multiHeader
		if err := json.Unmarshal(raw, &mh); err != nil {
			return nil, fmt.Errorf("members[%d]: %w", i, err)
		}
		if mh.Form != FormLinear {
			return nil, fmt.Errorf("members[%d] has form %q: an ensemble's members are linear (their scores are logits)", i, mh.Form)
		}
		if mh.NumFeatures != f.NumFeatures || mh.NumSources != f.NumSources || !slices.Equal(mh.Classes, f.Classes) {
			return nil, fmt.Errorf("members[%d] has other classes or columns than the ensemble", i)
		}
		sub, err := readNested(raw)
		if err != nil {
			return nil, fmt.Errorf("members[%d]: %w", i, err)
		}
		if sub.Multi == nil || sub.Info.Sources != nil {
			return nil, fmt.Errorf("members[%d] is not a multi-class model without sources", i)
		}
		e.members = append(e.members, sub.Multi)
	}
	return e, nil
}
