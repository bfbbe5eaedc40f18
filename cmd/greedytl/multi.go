package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/metric"
	"github.com/greedytl/greedytl/modelfile"
)

// readClasses reads the --labels file's classes (any number) and checks
// their count against the inputs' rows.
func (f *dataFlags) readClasses(s *streams, rows inputRows) (*dataset.Classes, error) {
	cls, err := f.readLabelFile(s, f.labels)
	if err != nil {
		return nil, err
	}
	if cls, err = f.labelsForRows(s, cls, rows); err != nil {
		return nil, err
	}
	if len(cls.Y) != rows.m {
		return nil, labelCountError(f.labels, cls, rows)
	}
	return cls, nil
}

// classIndices returns the class of each label of cls, in file order, as
// its index in known.Names (as known.Lookup finds it: numbers compared as
// numbers when known's classes are numbers; names as names, cls read by
// known's rule, dataset.Classes.As). A class of cls that known lacks is an input error at the line
// of its first label — the earliest such line first — saying what
// unknown(k, name) says of the class k of cls named name, and, when cls's
// numbers were read as names, that known's classes (whose: "the model's
// classes") are names. It is the one
// way a label file is read against classes given beforehand: a model's
// (predict), the training labels' (fit's held-out oracle labels).
func classIndices(cls, known *dataset.Classes, whose string, unknown func(k int, name string) error) ([]int, error) {
	as := cls.As(known) // cls itself unless it reads cls's labels anew as names
	to := make([]int, len(as.Names))
	for _, k := range as.InFileOrder() {
		n := as.Names[k]
		if to[k] = known.Lookup(n); to[k] < 0 {
			err := unknown(k, n)
			if as != cls {
				err = fmt.Errorf("%w (%s are names, not all numbers, so labels are compared as written)", err, whose)
			}
			return nil, badInput(as.ErrorOf(k, err))
		}
	}
	y := make([]int, len(as.Y))
	for i, c := range as.Y {
		y[i] = to[c]
	}
	return y, nil
}

// multiMethod returns the multi-class learner fit uses for labels of three
// or more classes (or a native multi-class --method): method.NewMulti of the
// flags' spec (a binary method is fitted one against the rest), else, with
// neither --method nor GreedyTL's flags, the recommended multi-class method.
func (o *fitOptions) multiMethod(c *cobra.Command) (method.MultiMethod, error) {
	if !c.Flags().Changed("method") && !slices.ContainsFunc(greedyFlags, c.Flags().Changed) {
		return method.NewMulti(method.RecommendedMulti)
	}
	return newOfSpec(o, c, method.NewMulti)
}

// nativeMultiOnly reports whether --method names a method that fits only
// several classes at once (so that two classes are fitted by it too).
func (o *fitOptions) nativeMultiOnly(c *cobra.Command) bool {
	if !c.Flags().Changed("method") {
		return false
	}
	s, err := method.ParseSpec(o.method)
	if err != nil {
		return false
	}
	r, ok := method.Registered(s.Name)
	return ok && !r.Capabilities().Binary && r.Capabilities().NativeMultiClass
}

// runFitMulti fits one model for every class of cls and writes it,
// recording names, the training sample's column names.
func runFitMulti(c *cobra.Command, s *streams, o *fitOptions, X, H *mat.Dense, names sampleNames, cls *dataset.Classes) error {
	d := method.Data{X: X, H: H}
	if len(cls.Names) < 2 {
		// The label file's own message, as a binary fit gives it.
		_, _, _, err := cls.Binary("")
		return badInput(err)
	}
	// Two labels make a binary model whatever the method: the file
	// records its positive class, chosen as a binary fit's, and predict
	// prints that class's score minus the other's.
	var labels *modelfile.LabelNames
	if len(cls.Names) == 2 {
		_, pos, neg, err := o.binaryLabels(cls)
		if err != nil {
			return err
		}
		labels = &modelfile.LabelNames{Positive: pos, Negative: neg}
	}
	mm, err := o.multiMethod(c)
	if err != nil {
		return err
	}
	extra := method.Extra{Seed: o.seed}
	if o.data.sources.given() {
		// H is every source of the directory, in its index's order
		// (source.Index.Load): greedytl-nway standardises it with the
		// sources' own statistics, as the N-way protocol does (nil for a
		// directory that does not record them).
		ix, _, err := o.data.sources.load()
		if err != nil {
			return err
		}
		all := make([]int, len(ix.Sources))
		for j := range all {
			all[j] = j
		}
		extra.SourceScales = ix.ScoreScales(all)
	}
	needs := mm.Needs() // a one-vs-rest fit's are its binary method's
	if extra.Unlabelled, err = o.loadUnlabelled(s, needs.Unlabelled, X, H, names); err != nil {
		return err
	}
	if extra.Oracle, err = o.loadOracle(s, needs.Oracle, cls, "", X, H, names); err != nil {
		return err
	}
	what := fitProgressWhat(mm.Name()) // a native fit's own units (greedytl-nway's)
	if _, ovr := mm.(method.OneVsRest); ovr {
		what = "classes"
	}
	var finish func()
	extra.Progress, finish = phaseProgress(s, o.quiet, what)
	heedSignals(c.Context())
	model, err := mm.FitMulti(c.Context(), d, method.ClassLabels{Names: cls.Names, Y: cls.Y}, extra)
	finish()
	if err != nil {
		if c.Context().Err() != nil {
			return err
		}
		return badInput(fmt.Errorf("fitting %s on %s with the %d classes of %s: %w", mm.Name(), o.data.describe(), len(cls.Names), displayName(o.data.labels), scaleOverflow(o, mm.Name(), X, names, err)))
	}
	// After the fit: a failed fit says only why.
	warnSeedUnused(c, s, mm.Name(), method.DrawsAtRandom(mm, cols(X), cols(H)))
	// A stop during the checks skips their warnings, not the model: the
	// fit is finished, and is written (exit 128+n as the work finished).
	if err := warnTrainingClasses(c.Context(), s, model, X, H, cls); err != nil && c.Context().Err() == nil {
		return err
	}
	warnNotConverged(s, model)
	warnWideColumns(s, model, names)
	src, err := o.data.sourcesID()
	if err != nil {
		return err
	}
	write := func(w io.Writer) error {
		return method.WriteMulti(w, model, method.FileInfo{Sources: src, Labels: labels, FeatureNames: names.features, SourceNames: names.sources})
	}
	written := fmt.Sprintf("%s model of %d classes", model.Method(), len(cls.Names))
	if labels != nil {
		written += fmt.Sprintf(" (positive class %s: predict prints its score minus the other's)", labels.Positive)
	}
	return o.writeModel(s, write, written)
}

// multiEvaluation is predict's report on a multi-class model's predictions
// against --labels.
type multiEvaluation struct {
	Examples         int      `json:"examples"`
	Accuracy         float64  `json:"accuracy"`
	BalancedAccuracy float64  `json:"balanced_accuracy"`
	Classes          []string `json:"classes"`
	// Confusion[t][p] counts the examples of true class t predicted p
	// (with --json only: it is K × K).
	Confusion [][]int `json:"confusion"`
	// present is the number of classes the labels hold: those the
	// balanced accuracy averages over.
	present int
}

// readMultiLabels reads the --labels of f for a model of classes, before
// any row is scored (so that predict --scores writes nothing to standard
// output for a label file that cannot be read, or holds a label that is
// not one of the model's classes, an error naming it): it returns the
// file's classes and each label's index in classes. The count of labels
// is checked against the rows by evaluateMulti, once they are read, and
// decides a first line the values leave open, as at fit (labelsForRows):
// a first line that is none of the model's classes but may be a header
// ("species" above the labels) is left for the count to decide (y nil),
// its error reported then if the count makes it a label.
func readMultiLabels(s *streams, f *dataFlags, classes []string) (*dataset.Classes, []int, error) {
	known := &dataset.Classes{Names: classes}
	cls, err := f.readLabelsFor(s, known)
	if err != nil {
		return nil, nil, err
	}
	y, err := multiLabelIndices(cls, known)
	if err != nil && cls.RowsMayDecide() && cls.FirstMayBeHeader() && onlyFirstUnknown(cls, known) {
		return cls, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return cls, y, nil
}

// onlyFirstUnknown reports whether the first label of cls is the one label
// not among known's classes (it occurs once, on the first line).
func onlyFirstUnknown(cls, known *dataset.Classes) bool {
	as := cls.As(known)
	first := as.Y[0]
	for i, k := range as.Y {
		if (k == first) != (i == 0) || (i > 0 && known.Lookup(as.Names[k]) < 0) {
			return false
		}
	}
	return known.Lookup(as.Names[first]) < 0
}

// multiLabelIndices is classIndices for a multi-class model's classes
// known.
func multiLabelIndices(cls, known *dataset.Classes) ([]int, error) {
	return classIndices(cls, known, "the model's classes", func(_ int, n string) error {
		return fmt.Errorf("label %q is not one of the model's classes (%s)", n, strings.Join(quoteAll(known.Names), ", "))
	})
}

// evaluateMulti compares the predicted classes pred (indices in the model's
// classes) of rows with the labels of f's --labels file cls and their
// indices y (readMultiLabels): the count of rows decides a first line the
// values leave open (labelsForRows, which notes it), and a count of labels
// other than the rows' is an error. The balanced accuracy is the mean
// recall over the classes present in the labels. The confusion matrix is
// computed when confusion is set (predict --json, which prints it).
func evaluateMulti(s *streams, f *dataFlags, cls *dataset.Classes, y []int, rows inputRows, classes []string, pred []int, confusion bool) (*multiEvaluation, error) {
	read, err := f.labelsForRows(s, cls, rows)
	if err != nil {
		return nil, err
	}
	if read != cls || y == nil {
		if y, err = multiLabelIndices(read, &dataset.Classes{Names: classes}); err != nil {
			return nil, err
		}
		cls = read
	}
	if len(y) != rows.m {
		return nil, labelCountError(f.labels, cls, rows)
	}
	e := &multiEvaluation{Examples: len(pred), Classes: classes}
	if e.Accuracy, e.BalancedAccuracy, e.present, err = metric.ClassAccuracy(pred, y, len(classes)); err != nil {
		return nil, err
	}
	if confusion {
		if e.Confusion, err = metric.Confusion(pred, y, len(classes)); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// quoteAll quotes every name.
func quoteAll(names []string) []string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return q
}

// multiRowByRow is method.MultiRowByRow, which runPredictMulti asks
// whether to read a model's rows in blocks; a variable for the tests,
// whose wrapped models hide their type from it.
var multiRowByRow = method.MultiRowByRow

// runPredictMulti writes a multi-class model's predictions: one class name
// a row, or with --scores a tab-separated matrix of per-class scores under
// a header of class names; with --labels it reports the accuracy and the
// balanced accuracy (--json: with the confusion matrix). It holds the
// scores of a block of rows at a time, not of every row (1.6 GB for 20,000
// rows of 10,000 classes): without --scores Predict's (method.PredictContext),
// with --scores those it writes as they come (method.ScoreBlocks; to --out
// atomically, so that an error or a stop signal leaves no file, and to
// standard output, which an error then ends part-written). A model whose
// rows are not scored alone (not method.MultiRowByRow, which every
// method's model is today) has its sample read and scored whole. It stops
// between blocks once ctx is done, returning ctx's error.
func runPredictMulti(ctx context.Context, s *streams, o *predictOptions, model method.MultiModel, rec sampleNames) error {
	if o.data.positive != "" {
		return badInputf("--positive is for binary models; %s is a model of %d classes (%s)", o.modelName(), len(model.Classes()), strings.Join(quoteAll(model.Classes()), ", "))
	}
	if o.json && o.data.labels == "" {
		return badInputf("--json reports the evaluation against --labels: give --labels (the predictions are printed without --json)")
	}
	classes := model.Classes()
	lines, err := labelLines(o.modelName(), classes)
	if err != nil {
		return err
	}
	// The labels are read and checked before any row is scored (or
	// written); their count is compared with the rows after, and decides
	// a first line that may be a header (readMultiLabels).
	var cls *dataset.Classes
	var y []int
	if o.data.labels != "" {
		if cls, y, err = readMultiLabels(s, &o.data, classes); err != nil {
			return err
		}
	}
	var pred []int
	var eval *multiEvaluation
	// evaluate compares pred, the predictions of rows, with --labels.
	evaluate := func(rows inputRows) error {
		if o.data.labels == "" {
			return nil
		}
		var err error
		eval, err = evaluateMulti(s, &o.data, cls, y, rows, classes, pred, o.json)
		return err
	}
	var report io.Writer
	if o.scores {
		report, err = o.writePredictions(ctx, s, func(w io.Writer) error {
			// The header is written with the first block's rows (or,
			// with none, once they are all read): standard output gets
			// nothing when the inputs fail before a block is scored.
			headed := false
			header := func() error {
				if headed {
					return nil
				}
				headed = true
				if err := writeScoreHeader(w, classes); err != nil {
					return outputError{err}
				}
				return nil
			}
			// done is the number of rows written. The blocks read from a
			// file are its rows from done on; a sample read whole, after a
			// block failed (scoreInBlocks), starts again at its first
			// row: the rows before done are not written twice.
			done := 0
			from := func(base int) func(method.Data) error {
				return func(d method.Data) error {
					return method.ScoreBlocks(ctx, model, d, func(lo int, b *mat.Dense) error {
						p, err := method.ArgmaxRows(b)
						if err != nil {
							return err
						}
						r, _ := b.Dims()
						start := max(0, done-base-lo)
						if start >= r {
							return nil
						}
						pred = append(pred, p[start:]...)
						if err := header(); err != nil {
							return err
						}
						if err := writeScoreRows(w, b.Slice(start, r, 0, len(classes)).(*mat.Dense)); err != nil {
							return outputError{err}
						}
						done += r - start
						return flushBlock(w)
					})
				}
			}
			blocks := func(d method.Data) error { return from(done)(d) }
			if !multiRowByRow(model) {
				blocks = nil // its scores of a row may depend on the others: read whole
			}
			rows, err := o.scoreInBlocks(ctx, s, rec, blocks, from(0), true)
			if err != nil {
				return err
			}
			if err := evaluate(rows); err != nil {
				return err
			}
			return header()
		})
	} else {
		blocks := func(d method.Data) error {
			p, err := method.PredictContext(ctx, model, d)
			pred = append(pred, p...)
			return err
		}
		score := blocks
		whole := func(d method.Data) error {
			pred = nil // the blocks' predictions, if any, are read again
			return score(d)
		}
		if !multiRowByRow(model) {
			blocks = nil // its scores of a row may depend on the others: read whole
		}
		// err is the function's: the check after the branches reads what
		// writePredictions returns.
		var rows inputRows
		rows, err = o.scoreInBlocks(ctx, s, rec, blocks, whole, true)
		if err != nil {
			return err
		}
		if err := evaluate(rows); err != nil {
			return err
		}
		report, err = o.writePredictions(ctx, s, func(w io.Writer) error {
			for _, k := range pred {
				if _, err := fmt.Fprintln(w, lines[k]); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		return err
	}
	if eval != nil {
		if o.json {
			return printJSON(report, eval)
		}
		over := plural.Count(len(classes), "class", "classes")
		if n := eval.present; n < len(classes) { // the balanced accuracy's mean is over these
			over = fmt.Sprintf("%d of the model's %d classes", n, len(classes))
		}
		return writeEvaluation(report, "accuracy: %.4f, balanced accuracy: %.4f (%s, %s)\n", eval.Accuracy, eval.BalancedAccuracy, plural.Count(eval.Examples, "example", "examples"), over)
	}
	return nil
}

// labelLines returns the class names of model (named so in messages) as
// predict prints them, one a row: as the lines of a label file
// (dataset.FormatLabel), which read back as --labels as the same classes.
func labelLines(model string, classes []string) ([]string, error) {
	lines := make([]string, len(classes))
	for k, n := range classes {
		var err error
		if lines[k], err = dataset.FormatLabel(n); err != nil {
			// Not for a model read from a file: its names passed
			// dataset.CheckLabel.
			return nil, badInput(fmt.Errorf("%s: class %d: %w", model, k, err))
		}
	}
	return lines, nil
}

// writeScoreHeader writes the header row of predict --scores: the class
// names, tab-separated, each a cell as dataset.FormatHeaderCell writes it.
func writeScoreHeader(w io.Writer, classes []string) error {
	cells := make([]string, len(classes))
	for k, n := range classes {
		cells[k] = dataset.FormatHeaderCell(n, '\t')
	}
	_, err := fmt.Fprintln(w, strings.Join(cells, "\t"))
	return err
}

// writeScoreRows writes the rows of scores as tab-separated values, the
// rows of predict --scores under its header (writeScoreHeader).
func writeScoreRows(w io.Writer, scores *mat.Dense) error {
	r, _ := scores.Dims()
	buf := make([]byte, 0, 64)
	for i := 0; i < r; i++ {
		buf = buf[:0]
		for k, v := range scores.RawRowView(i) {
			if k > 0 {
				buf = append(buf, '\t')
			}
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// inspectClass is one class of inspect's JSON output for a multi-class
// model.
type inspectClass struct {
	Class string `json:"class"`
	// Greedy reports whether Selected is in selection order, with the
	// path's errors after each step (a greedy method's class model, one
	// class against the rest), or by decreasing |weight|, as a binary
	// model's inspectSummary.Greedy does.
	Greedy   bool            `json:"greedy"`
	Selected []inspectColumn `json:"selected"`
	// Constant reports that the class's model (its score column) is
	// constant to working precision by its weights alone
	// (method.ClassWeightsConstant); absent otherwise.
	Constant bool `json:"constant,omitempty"`
	// Hyperparameters and Committee are those of a greedytl-auto class
	// model, one class against the rest (its file's, as inspect of a
	// binary greedytl-auto model gives them); absent for other models.
	Hyperparameters map[string]float64    `json:"hyperparameters,omitempty"`
	Committee       *method.AutoCommittee `json:"committee,omitempty"`
	// weightSum is the class's Σ|w|·g (method.ClassWeightsConstant).
	weightSum float64
	// auto is the summary of a greedytl-auto class model, nil otherwise.
	auto *inspectSummary
}

// inspectMultiSummary is inspect's JSON output for a multi-class model.
type inspectMultiSummary struct {
	Method          string             `json:"method"`
	Hyperparameters map[string]float64 `json:"hyperparameters"`
	Classes         []string           `json:"classes"`
	// PerClass holds each class's columns (by decreasing |weight|, or in
	// selection order for the greedy methods one against the rest:
	// inspectClass.Greedy); empty when the model has no per-column weights.
	PerClass []inspectClass `json:"per_class"`
	Sources  any            `json:"sources,omitempty"`
	// Positive is the positive class of a two-class model that records
	// it (predict prints its score minus the other's); absent otherwise.
	Positive string `json:"positive,omitempty"`
}

// runInspectMulti shows a multi-class model: its method, hyperparameters,
// classes and, per class, the columns it uses.
func runInspectMulti(s *streams, o *inspectOptions, f method.File) error {
	m := f.Multi
	sum := inspectMultiSummary{Method: m.Method(), Hyperparameters: m.Hyperparameters(), Classes: m.Classes(), PerClass: []inspectClass{}}
	if f.Info.Sources != nil {
		sum.Sources = f.Info.Sources
	}
	if f.Info.Labels != nil {
		sum.Positive = f.Info.Labels.Positive
	}
	names, note := inspectNames(f.Info)
	if sel, ok := m.Selected(); ok {
		sums, constant, _ := method.ClassWeightsConstant(m)
		classModels := method.ClassModels(m)
		for k, sl := range sel {
			ic := inspectClass{Class: sum.Classes[k], Greedy: sl.Greedy, Selected: inspectColumns(sl)}
			nameColumns(ic.Selected, names)
			if k < len(constant) {
				ic.Constant, ic.weightSum = constant[k], sums[k]
			}
			if k < len(classModels) {
				if a, isAuto := classModels[k].(*method.AutoModel); isAuto {
					cs := summarise(a)
					nameColumns(cs.Selected, names)
					ic.Hyperparameters, ic.Committee, ic.auto = cs.Hyperparameters, cs.Committee, &cs
				}
			}
			sum.PerClass = append(sum.PerClass, ic)
		}
	}
	if o.json {
		return printJSON(s.out, sum)
	}
	fmt.Fprintf(s.out, "method: %s (%d classes)\n", sum.Method, len(sum.Classes))
	if sum.Positive != "" {
		fmt.Fprintf(s.out, "positive class: %s (predict prints its score minus the other's)\n", strconv.Quote(sum.Positive))
	}
	printHyperparameters(s.out, sum.Hyperparameters)
	if src := f.Info.Sources; src != nil {
		fmt.Fprintln(s.out, sourcesLine(src))
	}
	if note != "" {
		fmt.Fprintln(s.out, note)
	}
	if len(sum.PerClass) == 0 {
		// A native multi-class model without weights compares whole
		// rows (nearest-neighbour, simpleshot); a binary method's, fitted
		// one class against the rest, is the dictionary method's.
		why := "the model compares whole rows: no per-column weights"
		if r, err := method.Lookup(sum.Method); err == nil && !r.Capabilities().NativeMultiClass {
			why = "each class's model, one against the rest, " + sparseCodesNote
		}
		fmt.Fprintf(s.out, "classes: %s\n(%s)\n", strings.Join(quoteAll(sum.Classes), ", "), why)
		return nil
	}
	for _, ic := range sum.PerClass {
		fmt.Fprintf(s.out, "\nclass %s: %s\n", strconv.Quote(ic.Class), plural.Count(len(ic.Selected), "column", "columns"))
		if ic.Constant {
			fmt.Fprintf(s.out, "the class's model is %s\n", constantNote(len(ic.Selected), ic.weightSum))
		}
		if ic.auto != nil {
			// As inspect of a binary greedytl-auto model: its
			// hyperparameters, its committee and its combined model.
			printHyperparameters(s.out, ic.Hyperparameters)
			fmt.Fprintln(s.out)
			if err := inspectAuto(s, o, *ic.auto, names); err != nil {
				return err
			}
			continue
		}
		if err := printColumns(s.out, ic.Selected, ic.Greedy, o.top); err != nil {
			return err
		}
	}
	return nil
}

// warnTrainingClasses gives fit's warnings on model, fitted on X and H
// (either nil when absent) with the labels cls of several classes, from
// method.TrainingClasses (which scores the training rows at most once):
// warnConstantClasses when some classes are constant, else warnOneClass
// when the model predicts one class for every training row. An error is
// predict's on the training rows (which the fit has read, so that it is
// not expected), or ctx's once it is done (a stop during the checks skips
// their warnings).
func warnTrainingClasses(ctx context.Context, s *streams, model method.MultiModel, X, H *mat.Dense, cls *dataset.Classes) error {
	var train method.Data
	if X != nil {
		train.X = X
	}
	if H != nil {
		train.H = H
	}
	found, k, one, err := method.TrainingClasses(ctx, model, train)
	switch {
	case err != nil && ctx.Err() != nil:
		return err
	case err != nil:
		return fmt.Errorf("predicting the training rows with the %s model: %w", model.Method(), err)
	case len(found) > 0:
		warnConstantClasses(s, model, X, H, found)
	case one:
		warnOneClass(s, model, k, cls)
	}
	return nil
}

// warnConstantClasses warns (code "constant-classes") that the constant-
// model rule (method.ConstantClasses; docs/design.md §9, "Constant
// models") holds for the classes found of model, fitted on X and H
// (either nil when absent): classes whose models keep
// no column of their own, or whose scores on the training examples differ
// by rounding alone. Such a class's score is one constant, the same for
// every row, or one plus rounding (or, average-kt's, the average of the
// sources that every class's model shares, plus the class's intercept):
// with a couple of examples a class, a method that chooses its own
// regularisation (the sparse baselines) may choose the empty model for
// most classes, and the model then predicts one class for most rows. The
// warning names that class, the one of those whose score is the highest
// on the first training row (the first of them on a tie, as Predict breaks
// ties), read from the model's scores of that row: after the one-vs-rest
// scaling a constant score is its sign, and a class-balanced model's
// constant, an intercept 0 but for rounding, may be of either sign, so
// that it need not be the first of them.
func warnConstantClasses(s *streams, model method.MultiModel, X, H *mat.Dense, found []method.ClassConstancy) {
	names := model.Classes()
	var first method.Data
	if X != nil {
		first.X = X.Slice(0, 1, 0, X.RawMatrix().Cols)
	}
	if H != nil {
		first.H = H.Slice(0, 1, 0, H.RawMatrix().Cols)
	}
	takes := found[0].Class // the class that takes the rows
	if scores, err := model.Scores(first); err == nil {
		for _, c := range found {
			if scores.At(0, c.Class) > scores.At(0, takes) {
				takes = c.Class
			}
		}
	}
	var emptyNames, roundNames []string
	var round []method.ClassConstancy
	prior := false
	for _, c := range found {
		if c.NoColumn || c.Prior {
			emptyNames = append(emptyNames, names[c.Class])
			prior = prior || c.Prior
		} else {
			round, roundNames = append(round, c), append(roundNames, names[c.Class])
		}
	}
	what := "keep no column: their scores are constant"
	if prior {
		what = "keep no column of their own (no feature and no intercept, only the sources' average, which every class's model shares): their scores are identical, that average over its root mean square on the training examples"
	}
	if len(round) > 0 {
		spreads, bounds := make([]string, len(round)), make([]string, len(round))
		for i, c := range round {
			spreads[i], bounds[i] = fmt.Sprintf("%.3g", c.Spread), fmt.Sprintf("%.3g", c.Bound)
		}
		r := fmt.Sprintf("are constant to working precision: their scores on the %d training examples differ by at most %s, within the rounding of the fit's arithmetic on labels of ±1 (%s): their non-zero weights are rounding noise, not the data's",
			round[0].Rows, strings.Join(spreads, ", "), strings.Join(bounds, ", "))
		if len(emptyNames) == 0 {
			what = r
		} else {
			what += fmt.Sprintf(", or (%s) %s", strings.Join(quoteAll(roundNames), ", "), r)
		}
	}
	all := append(emptyNames, roundNames...)
	s.warn(warning{Code: "constant-classes", Classes: all,
		Message: fmt.Sprintf("the %s models of %d of the %d classes (%s) %s, so the rows no other class scores higher go to %q%s",
			model.Method(), len(all), len(names), strings.Join(quoteAll(all), ", "), what, names[takes], tryDefault(model.Method(), method.RecommendedMulti, " a class"))})
}

// warnOneClass warns (code "one-class") that model, fitted with the
// labels cls of several classes, predicts class k for every training row
// (method.OneClass): a very unbalanced sample (28, 1 and 1 examples) may
// give the majority class every row, which the fit would otherwise write
// without a word.
func warnOneClass(s *streams, model method.MultiModel, k int, cls *dataset.Classes) {
	names := model.Classes()
	var others []string         // never empty: fit refuses fewer than two classes
	named := []string{names[k]} // every class the message names, the predicted one first
	for c, n := range (method.ClassLabels{Names: cls.Names, Y: cls.Y}).Counts() {
		if n > 0 && c != k {
			others = append(others, fmt.Sprintf("%q: %d", cls.Names[c], n))
			named = append(named, cls.Names[c])
		}
	}
	s.warn(warning{Code: "one-class", Classes: named,
		Message: fmt.Sprintf("the %s model predicts %q for every one of the %d training examples: it tells none of the other classes' examples (%s) from that class, so it will seldom if ever predict them: they have too few examples, or examples identical to examples of that class (rows labelled with several classes)",
			model.Method(), names[k], len(cls.Y), strings.Join(others, ", "))})
}
