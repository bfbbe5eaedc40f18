package method

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/greedytl/greedytl/internal/fitctx"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/internal/validate"
	"github.com/greedytl/greedytl/standardize"
	"gonum.org/v1/gonum/mat"
)

// Data is a target sample: features X (m × d) and source scores H (m × n),
// row i of both describing example i, and labels Y (±1) where known. X or H
// may be nil or empty (no features, or no sources); a method that needs the
// missing part returns an error. X and H may be any mat.Matrix, as in the
// root package's Fit (a *mat.Dense is used as it is; other matrices are
// copied into one).
type Data struct {
	X mat.Matrix
	H mat.Matrix
	Y []float64
}

// Rows returns the number of examples.
func (d Data) Rows() int {
	if r, c := dims(d.X); c > 0 {
		return r
	}
	if r, c := dims(d.H); c > 0 {
		return r
	}
	return len(d.Y)
}

// dims returns the dimensions of a, or (0, 0) when a is absent or has no
// columns (validate.Dims).
func dims(a mat.Matrix) (r, c int) { return validate.Dims(a) }

// dense returns a as a *mat.Dense — itself when it is one, a copy
// otherwise — or nil when a is absent.
func dense(a mat.Matrix) *mat.Dense {
	if _, c := dims(a); c == 0 {
		return nil
	}
	if d, ok := a.(*mat.Dense); ok {
		return d
	}
	return mat.DenseCopyOf(a)
}

// rows returns the labels of the rows idx of y, in that order (the class
// names are y's), as selectRows takes the rows of a sample.
func (y ClassLabels) rows(idx []int) ClassLabels {
	labels := ClassLabels{Names: y.Names, Y: make([]int, len(idx))}
	for i, r := range idx {
		labels.Y[i] = y.Y[r]
	}
	return labels
}

// denseData returns d with X and H as *mat.Dense (dense: themselves when
// they are, copies otherwise; an absent one stays absent) and its labels.
func denseData(d Data) Data {
	out := Data{Y: d.Y}
	if a := dense(d.X); a != nil {
		out.X = a
	}
	if a := dense(d.H); a != nil {
		out.H = a
	}
	return out
}

// selectRows returns the rows of d listed in rows, labels included (a new
// sample; an absent X or H stays absent).
func selectRows(d Data, rows []int) Data {
	var out Data
	if a := dense(d.X); a != nil {
		out.X = rowsOf(a, rows)
	}
	if a := dense(d.H); a != nil {
		out.H = rowsOf(a, rows)
	}
	if d.Y != nil {
		out.Y = make([]float64, len(rows))
		for i, r := range rows {
			out.Y[i] = d.Y[r]
		}
	}
	return out
}

// MissingInputError is the error of a model's Predict or Scores (and of
// the data a fit takes besides its training data) when an input the model
// was trained on is absent: X (features) or H (source scores). A command
// can so say which of its inputs to give.
type MissingInputError struct {
	Input   string // "X" or "H"
	Columns int    // the columns of Input the model was trained on
}

// Error returns "no X given: the model was trained on 6 features" or "no
// H (source scores) given: the model was trained on 20 sources".
func (e *MissingInputError) Error() string {
	if e.Input == "X" {
		return "no X given: the model was trained on " + plural.Count(e.Columns, "feature", "features")
	}
	return "no H (source scores) given: the model was trained on " + plural.Count(e.Columns, "source", "sources")
}

// checkInputs validates inputs for a model trained on d features and n
// sources: X must have d columns (or be absent when d = 0), H n columns
// (absent when n = 0), both the same number of rows, and every value must
// be finite (validate.Finite). It returns the number of rows. d.Y is ignored.
// Its errors have no package prefix: the caller adds it, with its context.
func checkInputs(data Data, d, n int) (rows int, err error) {
	rx, cx := dims(data.X)
	rh, ch := dims(data.H)
	switch {
	case cx == 0 && d > 0:
		return 0, &MissingInputError{Input: "X", Columns: d}
	case cx != d:
		return 0, fmt.Errorf("X has %s, the model was trained on %s", plural.Count(cx, "column", "columns"), plural.Count(d, "feature", "features"))
	case ch == 0 && n > 0:
		return 0, &MissingInputError{Input: "H", Columns: n}
	case ch != n:
		return 0, fmt.Errorf("H has %s, the model was trained on %s", plural.Count(ch, "column", "columns"), plural.Count(n, "source", "sources"))
	}
	switch {
	case d > 0 && n > 0 && rx != rh:
		return 0, fmt.Errorf("X has %d rows but H has %d", rx, rh)
	case d > 0:
		rows = rx
	default:
		rows = rh
	}
	if err := validate.Finite(data.X, data.H); err != nil {
		return 0, err
	}
	return rows, nil
}

// checkTrain validates a labelled training sample: X and H (either may be
// absent) have one row per label, the labels are ±1 with both classes
// present (validate.Sample, the check greedytl.Fit applies too), and every
// value is finite. It returns the number of examples m, of features d and
// of sources n. Its errors carry no prefix: startFit names the method in
// front of them.
func checkTrain(data Data) (m, d, n int, err error) {
	if m, d, n, err = validate.Sample(data.X, data.H, data.Y); err != nil {
		return 0, 0, 0, err
	}
	if err := validate.Finite(data.X, data.H); err != nil {
		return 0, 0, 0, err
	}
	return m, d, n, nil
}

// fitCaller returns the name the context errors of a fit of meth start
// with: "method: NAME" (methodCaller), except for the GreedyTL methods
// that pass greedytl.Fit's errors on (fitGreedy: *GreedyTL, forwardReg),
// whose start and end checks name greedytl.Fit as their checks inside it
// do, behind the method's name when it is not plain "greedytl"
// (greedyErrorPrefix): "greedytl.Fit", "greedytl-59: greedytl.Fit".
// "method: greedytl: " would put the root package's name behind this
// package's (docs/conventions.md, "Errors"), and "method: greedytl-59" at
// the start but "greedytl-59: greedytl.Fit" inside would be two prefixes
// for one fit.
func fitCaller(meth Method) string {
	switch meth.(type) {
	case *GreedyTL, forwardReg:
		return greedyErrorPrefix(meth.Name()) + "greedytl.Fit"
	}
	return methodCaller(meth.Name())
}

// methodCaller returns "method: NAME", what the context errors of a fit of
// the method named name start with when it does not pass greedytl.Fit's
// errors on (fitCaller).
func methodCaller(name string) string { return "method: " + name }

// startFit begins every method's Fit, which defers endFit with its named
// results: it panics when ctx is nil (see the greedytl package
// documentation, "Contexts and errors"), returns ctx's error when ctx is
// already done, and validates train (checkTrain), returning its numbers of
// examples m, features d and sources n. meth is the method (its receiver),
// which names the errors (fitCaller), the checks' as the context's: "method:
// greedytl-auto: X row 3 column 4 is NaN" as "method: greedytl-auto: fit
// interrupted: …" (the checks said "method: X row 3 …", naming no method).
func startFit(ctx context.Context, meth Method, train Data) (m, d, n int, err error) {
	caller := fitCaller(meth)
	if err := fitctx.Start(ctx, caller); err != nil {
		return 0, 0, 0, err
	}
	if m, d, n, err = checkTrain(train); err != nil {
		return 0, 0, 0, fmt.Errorf("%s: %w", caller, err)
	}
	return m, d, n, nil
}

// endFit ends every method's Fit (deferred with pointers to its named
// results): when the fit has a model but ctx is done, the model is dropped
// and the error is ctx's, so that a fit that outlives its context returns
// the context's error whichever of the method's own checks it went past.
// An interruption of a solver below the method (lssvm's, whichever entry
// point: lssvm.NewSystem, System.LOO, NewWeightedRidge) is named as the
// method's own ("method: dam: fit interrupted: …", not "method: dam:
// lssvm: fit interrupted: …"), keeping where it stopped (At).
func endFit(ctx context.Context, meth Method, model *Model, err *error) {
	caller := fitCaller(meth)
	*model, *err = fitctx.Finish(ctx, *model, *err, caller)
	var in *fitctx.Interruption
	if errors.As(*err, &in) && in.Caller != caller {
		*err = &fitctx.Interruption{Caller: caller, At: in.At, Err: in.Err}
	}
}

// fitMultiChecked runs fit, the work of a FitMulti whose context errors
// start with caller (fitCaller), under Fit's rule on contexts (see
// startFit and endFit): it panics
// when ctx is nil, returns ctx's error, wrapped and naming the method, when
// ctx is done before fit starts or by the time it has finished (and then
// no model), and wraps a bare context error from an inner loop to name the
// method. A fit that fails returns a nil MultiModel, never an interface
// holding a typed nil pointer (which a caller's model != nil would take for
// a model). Every FitMulti runs its work through it.
func fitMultiChecked(ctx context.Context, caller string, fit func() (MultiModel, error)) (MultiModel, error) {
	if err := fitctx.Start(ctx, caller); err != nil {
		return nil, err
	}
	model, err := fit()
	if model, err = fitctx.Finish(ctx, model, err, caller); err != nil {
		return nil, err
	}
	return model, nil
}

// fitMultiScaled is fitMultiChecked for a method that fits the training
// sample's [X, H] standardised block by block with scale
// (fitMultiBlocks): it checks the sample (checkMultiTrain), puts its rows
// and labels in content order (inContentOrder), and fit gets the scalers,
// the standardised columns and the labels in that order. Every native
// multi-class method fits so: its model depends on the set of training
// rows, not on their order (the folds that choose C, the sums over the
// rows, the rows a model keeps). name is the method's.
func fitMultiScaled(ctx context.Context, name string, train Data, y ClassLabels, scale func(mat.Matrix) standardize.Scaler, fit func(s blockScaler, Z *mat.Dense, y ClassLabels) (MultiModel, error)) (MultiModel, error) {
	return fitMultiScaledBlocks(ctx, name, train, y, scale, scale, fit)
}

// fitMultiScaledBlocks is fitMultiScaled with X's columns scaled by
// scaleX and H's by scaleH.
func fitMultiScaledBlocks(ctx context.Context, name string, train Data, y ClassLabels, scaleX, scaleH func(mat.Matrix) standardize.Scaler, fit func(s blockScaler, Z *mat.Dense, y ClassLabels) (MultiModel, error)) (MultiModel, error) {
	return fitMultiChecked(ctx, methodCaller(name), func() (MultiModel, error) {
		if _, _, _, err := checkMultiTrain(train, y); err != nil {
			return nil, err
		}
		train, order := inContentOrder(train, y.Y)
		y = y.rows(order)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, Z, err := fitMultiBlocks(train, scaleX, scaleH)
		if err != nil {
			return nil, err
		}
		return fit(s, Z, y)
	})
}

// classCounts returns the numbers of +1 and −1 labels in y, and an error
// (without a package prefix) when a label is anything else
// (validate.Labels).
func classCounts(y []float64) (pos, neg int, err error) { return validate.Labels(y) }

// classRows returns the rows of the positive and of the negative labels of
// y (checked ±1 labels), each in row order.
func classRows(y []float64) (pos, neg []int) {
	for i, v := range y {
		if v > 0 {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	return pos, neg
}

// Extra is what some methods need beyond the labelled training sample.
type Extra struct {
	// Unlabelled target inputs (Y nil), for transductive methods (DAM): in
	// the protocol these are the test inputs.
	Unlabelled *Data
	// Oracle is a labelled held-out sample that an oracle method (best-source)
	// may look at. Methods that are not oracles never read it.
	Oracle *Data
	// Seed seeds any randomness of the fit.
	Seed uint64
	// Progress, if not nil, is called by a long fit as its units of work
	// are done, with the number done so far and their number, for a caller
	// that shows the work going on: one class against the rest (OneVsRest)
	// after each class's fit (1 … K of K, its binary fits given no
	// callback), greedytl-auto after each of its committees and ridge fits,
	// each counting units in proportion to its estimated cost (GreedyAuto),
	// greedytl-nway after each fold of its members' choice of C and each
	// member's final fit (greedyNWay). The calls come one at a
	// time (never two at once, whatever goroutine makes them), done
	// increasing (by one unit, or by several for a piece of work that
	// counts as several) up to total, total the same in every call; a fit
	// that finishes has made the last (total of total), and once the
	// fit's context is done it makes no more. The other methods do not
	// call it.
	Progress func(done, total int)
	// SourceScales, if not nil, holds a mean and a scale for each column
	// of H (in H's order): its source's scores' mean and standard
	// deviation over the rows the source was trained on
	// (source.Info.Scores), which train-sources records. greedytl-nway
	// standardises H with them in place of statistics of its handful of
	// training rows (greedyNWay, "The sources' own statistics"); the
	// other methods do not read it.
	SourceScales *standardize.Scaler
}

// fitProgress reports a fit's units of work done to its Extra.Progress
// (see there): add may be called from several goroutines; it calls the
// callback under a lock, so that the calls come one at a time and done
// increases, and not once the context of the work is done. A nil
// *fitProgress (no callback) does nothing, so that the fit's code is the
// same with or without one.
type fitProgress struct {
	report      func(done, total int)
	mu          sync.Mutex
	done, total int
}

// newFitProgress returns the progress of total units of work reported to
// report, or nil when report is nil or there is no work.
func newFitProgress(report func(done, total int), total int) *fitProgress {
	if report == nil || total <= 0 {
		return nil
	}
	return &fitProgress{report: report, total: total}
}

// add records one more unit of work done, by work whose context is ctx
// (addUnits of 1).
func (p *fitProgress) add(ctx context.Context) { p.addUnits(ctx, 1) }

// addUnits records n > 0 more units of work done, by work whose context
// is ctx, and reports them unless ctx is done. It reports nothing beyond
// the total announced (a fit's tests check that its units reach it
// exactly).
func (p *fitProgress) addUnits(ctx context.Context, n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if ctx.Err() != nil || n <= 0 || p.done == p.total {
		return
	}
	p.done = min(p.done+n, p.total)
	p.report(p.done, p.total)
}

// Needs says what a method requires beyond (X, H, y).
type Needs struct {
	Unlabelled bool // transductive: Extra.Unlabelled must be set
	Oracle     bool // an oracle: reads the held-out labels (for reference only)
	Seed       bool // Fit draws at random with Extra.Seed (other seeds, other models)
}

// DrawsAtRandom reports whether m (a Method or a MultiMethod) draws at
// random with Extra.Seed when fitted on d feature and n source columns:
// as its Needs say, unless it tells by the data (a method with a method
// DrawsAtRandom(d, n int) bool: greedytl's randomised search, which
// draws nothing when its sample holds every candidate).
func DrawsAtRandom(m interface{ Needs() Needs }, d, n int) bool {
	if !m.Needs().Seed {
		return false
	}
	if dm, ok := m.(interface{ DrawsAtRandom(d, n int) bool }); ok {
		return dm.DrawsAtRandom(d, n)
	}
	return true
}

// Method is a learner for the target task: it fits a Model on a labelled
// sample (and, where Needs says so, on Extra). Implementations are
// stateless values: Fit never changes the method's hyperparameters.
type Method interface {
	// Name is the method's registry name (e.g. "greedytl", "no-transfer").
	Name() string
	// Needs reports what Fit requires beyond the labelled sample.
	Needs() Needs
	// Fit trains a model on train (labels ±1, both classes present). It
	// returns an error, never a model, when ctx is done before it has
	// finished (wrapping ctx.Err()), and panics when ctx is nil (see the
	// greedytl package documentation, "Contexts and errors").
	Fit(ctx context.Context, train Data, extra Extra) (Model, error)
}

// Model is a fitted target classifier. Its methods only read it and
// their inputs (Hyperparameters, SourceWeights and Selected return copies):
// any number of goroutines may call them, and Write, on one model at once.
//
// Nil and zero models: no method of a nil pointer or a zero value of the
// package's exported model types (*Linear, *AutoModel, *LinearMulti)
// panics. Their accessors return zero values — Method "", Hyperparameters,
// SourceWeights and Classes nil, Selected ok false for a nil pointer (and
// for a zero AutoModel, which has no Linear model) — and Predict, Scores,
// Write and WriteMulti return an error naming the type the caller passed
// ("nil *AutoModel", "*AutoModel has no Linear model").
type Model interface {
	// Method is the registry name of the method that made the model.
	Method() string
	// Predict returns one score per row of d (d.Y is ignored); positive
	// means the positive class. It returns an error when the column counts
	// differ from training or an input is not finite.
	Predict(d Data) ([]float64, error)
	// Hyperparameters returns the hyperparameters chosen by the fit (for
	// example "lambda"), for result files and inspect.
	Hyperparameters() map[string]float64
	// SourceWeights returns the weight of each source (length n; zero where
	// a source is unused) for the source-weight analysis, or nil when the
	// method has no per-source weights.
	SourceWeights() []float64
	// Selected returns the input columns the model uses and their weights;
	// ok is false when the model has no per-column weights (its Selection
	// then holds only the column counts).
	Selected() (s Selection, ok bool)
}

// Registration describes a method in the registry.
type Registration struct {
	Name        string
	Description string
	// New returns the method with its default (the paper's) settings.
	New func() Method
	// Decode reads a whole model file (the JSON document, whose header
	// modelfile.Read has checked and whose "method" names this
	// registration) written for this method. The "method" member may be a spec with settings (see Spec).
	Decode func(doc json.RawMessage) (Model, error)
	// SelectsFeatures marks the methods that select or weight individual
	// features, those of the paper's noise study (its Fig. 2); see
	// Capabilities.
	SelectsFeatures bool
	// Approximates, when set, is the registry name of the method this one
	// approximates with less work (greedytl-59 approximates greedytl,
	// scoring a random sample of the candidates a step); the report
	// compares the two (the paper's Fig. 3 and Table 1).
	Approximates string
	// Configure, which may be nil, returns the method with the settings of
	// s (s.Name is this registration's Name and s.Params is not empty)
	// replacing its defaults. The method's Name, and its models' Method,
	// must be the canonical spec of its settings: s.String(), less the
	// settings equal to the defaults (the GreedyTL methods use
	// greedytl.Options.MethodName). Configure returns an error naming the key for an
	// unknown key or a value out of range. A method without Configure
	// takes no settings.
	Configure func(s Spec) (Method, error)

	// Capabilities (see Registration.Capabilities): New and Decode make a
	// binary method; NewMulti and DecodeMulti a native multi-class one. A
	// method may have both; every binary method fits several classes one
	// against the rest (OneVsRest) when it has no NewMulti.

	// NewMulti, which may be nil, returns the native multi-class method.
	NewMulti func() MultiMethod
	// DecodeMulti, set with NewMulti, reads a whole multi-class model file
	// (the JSON document, whose header modelfile.Read has checked)
	// written for this method.
	DecodeMulti func(doc json.RawMessage) (MultiModel, error)
}

// order lists the methods in the registry's canonical order, the one order
// every listing derives from (Names, MultiNames, the report's tables and
// figures): the binary methods in the order of the paper's tables, with
// greedytl-auto, which goes beyond the paper, after the other GreedyTL
// methods and the modern alternatives logme-source and stacked-logistic
// last; then the native multi-class methods, the recommended one first. A
// registered method missing from it follows, sorted by name.
var order = []string{
	"greedytl", "greedytl-59", "greedytl-sp", "greedytl-auto", "forward-reg",
	"no-transfer", "rls-srcfeat", "average-kt", "best-source",
	"multikt-l2", "multikt-l1", "dam", "l1-logistic", "elastic-net", "dictionary",
	"logme-source", "stacked-logistic",
	"greedytl-nway", "multinomial-logistic", "nearest-mean", "simpleshot", "nearest-neighbour",
}

// ordered returns the registered names whose registrations keep says to
// keep: those of order in its order, then the others sorted by name.
func ordered(keep func(Registration) bool) []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	var names, rest []string
	for _, n := range order {
		if r, ok := registry[n]; ok && keep(r) {
			names = append(names, n)
		}
	}
	for n, r := range registry {
		if keep(r) && !slices.Contains(order, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// registry holds the registered methods by name; registryMu guards it, so
// that Register may run while other goroutines call New, Lookup or the
// listings. Reads go through Registered (or take the read lock, as ordered
// does); only Register writes.
var (
	registryMu sync.RWMutex
	registry   = map[string]Registration{}
)

// Register adds a method to the registry. It is safe to call from several
// goroutines and while others call New, Lookup, Read or the listings;
// usually a method's package calls it from init. It panics (a programming
// error) on a duplicate or empty name, a name holding a character that a
// spec reserves (":", "=", ","), a pair set by half (New without Decode or
// Decode without New; NewMulti without DecodeMulti or the reverse), and a
// registration with neither pair: a binary method sets New and Decode, a
// native multi-class one NewMulti and DecodeMulti (its New and Decode
// nil), and a method may set both.
func Register(r Registration) {
	binary, multi := r.New != nil && r.Decode != nil, r.NewMulti != nil && r.DecodeMulti != nil
	if r.Name == "" || (r.New == nil) != (r.Decode == nil) || (r.NewMulti == nil) != (r.DecodeMulti == nil) || !(binary || multi) {
		panic("method: incomplete registration of " + strconv.Quote(r.Name))
	}
	if strings.ContainsAny(r.Name, ":=,") {
		panic("method: the name " + strconv.Quote(r.Name) + " holds a character that specs reserve (: = ,)")
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[r.Name]; dup {
		panic("method: duplicate registration of " + r.Name)
	}
	registry[r.Name] = r
}

// Lookup returns the registration of the method that spec names: a
// registry name, or a spec with settings such as "greedytl-sp:gamma=0.25"
// (see Spec), in which case the settings are checked as New would check
// them and the registration of the named method ("greedytl-sp") is
// returned. It returns an error for a malformed spec, an unknown method and
// settings the method does not accept.
func Lookup(spec string) (Registration, error) {
	r, err := lookup(spec)
	if err != nil {
		return Registration{}, fmt.Errorf("method: %w", err)
	}
	return r, nil
}

// lookup is Lookup with errors that carry no package prefix, for the
// package's own callers, which add their context and the prefix once.
func lookup(spec string) (Registration, error) {
	s, err := parseSpec(spec)
	if err != nil {
		return Registration{}, err
	}
	r, err := lookupName(s.Name)
	if err != nil {
		return Registration{}, err
	}
	if len(s.Params) > 0 {
		if _, err := configure(r, s, spec); err != nil {
			return Registration{}, err
		}
	}
	return r, nil
}

// Registered returns the registration of a registry name (not a spec
// with settings), and whether there is one.
func Registered(name string) (Registration, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	r, ok := registry[name]
	return r, ok
}

// UnknownMethodError is the error for a method name that is not
// registered (New, NewMulti, Lookup, wrapped with the package's prefix):
// "unknown method "NAME" (known: …)", Known the names that were valid
// there. A caller that names where the name came from (a flag) finds it
// with errors.As.
type UnknownMethodError struct {
	Name  string
	Known []string
	// MultiFile is set when the name came from a multi-class model file,
	// whose message then says "unknown multi-class method".
	MultiFile bool
}

// Error returns "unknown method "NAME" (known: A, B, …)", or "unknown
// multi-class method …" for a multi-class model file's (MultiFile).
func (e *UnknownMethodError) Error() string {
	kind := "method"
	if e.MultiFile {
		kind = "multi-class method"
	}
	return fmt.Sprintf("unknown %s %q (known: %s)", kind, e.Name, strings.Join(e.Known, ", "))
}

// lookupName returns the registration of the binary method name. Its
// errors carry no package prefix.
func lookupName(name string) (Registration, error) {
	r, ok := Registered(name)
	if !ok {
		return Registration{}, &UnknownMethodError{Name: name, Known: Names()}
	}
	if r.New == nil {
		return Registration{}, fmt.Errorf("%s is a multi-class method: it fits class labels, two classes or more, through NewMulti, not ±1 labels through New (binary methods: %s)", name, strings.Join(Names(), ", "))
	}
	return r, nil
}

// New returns the method that spec names: a registry name gives the method
// with its default settings, and a spec with settings, such as
// "greedytl:lambda=10" (see Spec), the method with those settings, whose
// Name is the spec's canonical form. It returns an error for a malformed
// spec, an unknown method, settings given to a method that takes none, and
// an unknown key or a value out of range.
func New(spec string) (Method, error) {
	s, err := parseSpec(spec)
	if err == nil {
		var r Registration
		if r, err = lookupName(s.Name); err == nil {
			if len(s.Params) == 0 {
				return r.New(), nil
			}
			var m Method
			if m, err = configure(r, s, spec); err == nil {
				return m, nil
			}
		}
	}
	return nil, fmt.Errorf("method: %w", err)
}

// configure applies the settings of s, parsed from typed, with
// r.Configure. Its errors quote typed, as the user wrote it (s.String()
// spells key=auto as auto_key=1), and carry no package prefix. It panics
// (a programming error) when the configured method's name is not a spec
// of s.Name.
func configure(r Registration, s Spec, typed string) (Method, error) {
	if r.Configure == nil {
		return nil, noSettingsError(s.Name, typed)
	}
	m, err := r.Configure(s)
	if err != nil {
		return nil, fmt.Errorf("spec %q: %w", typed, err)
	}
	if got, err := ParseSpec(m.Name()); err != nil || got.Name != s.Name {
		panic(fmt.Sprintf("method: %s's Configure returned a method named %q, want a spec of %s", s.Name, m.Name(), s.Name))
	}
	return m, nil
}

// Names returns the registered binary method names in the registry's order
// (the paper's, see order); any other registered name follows, sorted.
func Names() []string {
	return ordered(func(r Registration) bool { return r.New != nil })
}
