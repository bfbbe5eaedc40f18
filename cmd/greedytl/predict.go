package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/metric"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/source"
)

type predictOptions struct {
	data   dataFlags
	model  string
	out    string
	scores bool // multi-class: per-class scores instead of class names
	json   bool // multi-class with --labels: the evaluation as JSON
}

func newPredictCmd(s *streams) *cobra.Command {
	o := &predictOptions{}
	c := &cobra.Command{
		Use:   "predict MODEL --features X [--source-scores H | --sources DIR] [--labels Y] [--out scores.txt]",
		Short: "Score examples with a fitted model",
		Long: `Predict writes one score per example, one per line (positive: the positive
class). MODEL, given as the argument or as --model (as inspect and
liblinear-predict take it), is a model written by greedytl fit (any method) or a liblinear
model file (from liblinear-train or greedytl train; then only --features is
read, and the score favours the model's greater label, which --labels takes
as the positive one; columns of X beyond the model's features have weight 0,
as in liblinear-predict, and a note on standard error says so). --model -
reads the model from the standard input, which then no other input may read.

A greedytl model reads only the columns it selected, but X and H must have
the column counts it was trained with (with --sources, X the columns of the
sources' dataset; an unfinished sources directory is refused, as by fit). A model fitted with --sources records
those sources' identity (a digest of their classes and model files, in order,
as experiment's run.json records it; files written before it record a digest
of their names and model files, which predict accepts as well):
predict --sources refuses another sources directory (exit status 2, naming
both and what differs: their count, data, seed or models), and predict
--source-scores, which it cannot check, prints a one-line note on standard
error and goes on, as H may well come from the same sources. Models fitted
from --source-scores, and older files, record no sources and are not checked.

A model fitted on named features (a CSV header) records their names, and
predict refuses --features whose header names them otherwise — reordered,
as after a pandas column reorder, or other — (exit status 2, naming the
file and the first column that differs); features without names (.npy, no
header) are predicted with a one-line warning (unnamed-features) on
standard error. Models fitted on unnamed features check no names. The same
holds for the source scores of a model fitted from a --source-scores file
with a header (your own sources, named by it): --source-scores whose header
names them otherwise or in another order is refused — its columns are not
reordered by name, as a column is its source's only by its place —, and
unnamed ones draw the unnamed-source-scores warning. Such a model predicted
with --sources is checked against the sources' class names: the same
names in another order are refused, names that are not theirs (your own)
cannot be checked, which a one-line note says.

A model of two classes fitted by a native multi-class method (greedytl-nway,
nearest-mean, …) is binary: it records its positive class, predict prints
the positive class's score minus the other's, --labels evaluates it as a
binary model (checking --positive against that class), and --scores is
refused (a file written before it recorded the class, without it, is
multi-class: class names, and --scores its matrix).

A multi-class model prints one predicted class name per example, the model's
name of the class (as the training labels wrote it; when they were all
numbers, the number's shortest form, as fit names such a class: a file of
01, 02 and 10 has the classes 1, 2 and 10), written as a label file holds
it, so that the output reads back as --labels: a name that a label
file holds only quoted ("a, b", "Song # 1", one holding '"') is printed
between double quotes, each '"' doubled (a name with white space at either
end, which only a model file written through the API holds, is printed but
reads back otherwise; one holding a hidden character — a control, a bidi
control, a zero-width one: only a model file written through the API or
before the readers refused them holds one — is printed quoted and escaped
as messages quote it, "\u200bcat", never raw, and reads back otherwise).
--scores prints instead a tab-separated matrix of per-class scores under a
header row of the class names (quoted likewise when one holds a comma or
'"', starts with '#' or has white space at either end; escaped likewise when one holds
a hidden character). With --labels it reports the accuracy and the balanced
accuracy (the mean recall over the classes the labels hold, as scikit-learn's
balanced_accuracy_score; the line says how many of the model's classes that
is), and with --json these and the confusion matrix (rows: true classes,
columns: predicted; every class of the model) as JSON. predict reads
--features and --source-scores files (text; .npy in C order; .npy in
Fortran order, in column strips, a gzip-compressed one decompressed into
a temporary file first, as its first row ends with its last column, at
the end of the stream; gzip-compressed or not) a block of rows
at a time, both in step, holding a block of them, not the whole matrices,
for a model that scores each row alone; so are --features with
--sources, each block's source scores computed from its rows (a row's
source scores sum its terms in one order, whatever rows are beside it
and whatever the BLAS). The standard input and pipes are read so too,
once: a model's error on a block is the block's, its row counted in the
input, and a source's score that is not finite names its row in the
input, as reading them whole does; beside another matrix file
(--features - --source-scores H) they are read whole. Every model scores
each row alone, a dictionary model too (each row's sparse codes, their
score summed in one order whatever rows are beside it and whatever the
BLAS), so that its scores are the same bits read in blocks or whole. It scores
the rows of a multi-class model a block at a time, holding one block's
scores, not every row's; --scores writes each block as it is scored: to
--out atomically (an error, or a stop signal, leaves no file), on standard
output part-written when an error (or a label file that does not match
the rows) comes after the first block. SIGINT, SIGTERM or SIGHUP stops
predict between blocks, at once while it waits on the standard input
or a pipe for the next block or reads --labels, and half a second after
the signal while its standard output takes nothing (a reader that does
not read) (status 130, 143 or 129),
writing nothing to --out (a stop that comes once every row is scored, while
predict writes --out, lets the write finish: the file is whole, and predict
says so). A binary
model that records its label names checks that every label is one of them.

With --labels predict also prints the class-balanced accuracy, (TPR + TNR)/2,
of the score signs (of a liblinear model, of its predictions as
liblinear-predict makes them, which give a score of exactly 0 to the label
the model file lists second) — on standard output when the scores go to
--out, else on standard error; labels of one class (for a model that
records its label names) give that class's rate.`,
		Example: `  greedytl predict model.json --features Xtest.npy --source-scores Htest.npy > scores.txt
  greedytl predict --model model.json --features Xtest.npy --sources sources/ --labels ytest.txt --out scores.txt
  greedytl predict --model heart_scale.model --features X.csv`,
		Args: argCount(0, 1, "the model file (or give it as --model)"),
		RunE: func(c *cobra.Command, args []string) error {
			if err := o.modelArg(c, args); err != nil {
				return err
			}
			return runPredict(c.Context(), s, o)
		},
	}
	o.data.register(c, "true labels (.npy or text/CSV; - for stdin); prints the class-balanced accuracy")
	c.Flags().StringVarP(&o.model, "model", "m", "", "model file: greedytl fit's JSON or a liblinear model; - reads it from standard input (or give it as the argument)")
	c.Flags().StringVarP(&o.out, "out", "o", "", "write the scores here (default: standard output)")
	fileFlags(c.Flags(), "model", "out")
	c.Flags().BoolVar(&o.scores, "scores", false, "multi-class models: print a tab-separated matrix of per-class scores (header: the class names) instead of class names")
	c.Flags().BoolVar(&o.json, "json", false, "multi-class models with --labels: report accuracy, balanced accuracy and the confusion matrix as JSON (on standard output with --out, else on standard error)")
	return c
}

// modelArg takes the model from the command's argument, which --model may
// give instead but not as well.
func (o *predictOptions) modelArg(c *cobra.Command, args []string) error {
	switch {
	case len(args) == 1 && c.Flags().Changed("model"):
		return usage(c, fmt.Errorf("the model is given twice, as the argument %q and as --model %q: give one", args[0], o.model))
	case len(args) == 1:
		o.model = args[0]
	case !c.Flags().Changed("model"):
		return usage(c, errors.New("no model: give it as the argument (greedytl predict MODEL …) or as --model MODEL"))
	}
	return nil
}

// modelName is how messages name the model file: the standard input as
// <stdin>.
func (o *predictOptions) modelName() string { return displayName(o.model) }

// runPredict runs predict under ctx, which it heeds (heedSignals) while it
// scores the rows in blocks (scoreInBlocks).
func runPredict(ctx context.Context, s *streams, o *predictOptions) error {
	if err := checkOut(o.out, append(o.data.files(), o.model)...); err != nil {
		return err
	}
	if strings.EqualFold(filepath.Ext(o.out), ".npy") {
		// Text under a .npy name: np.load refuses it ("pickled data"), and
		// so does greedytl's matrix reader, which a .npy name forces.
		return badInputf("--out %s: predict writes text (one score or class a line; with --scores a tab-separated matrix), not a .npy array: name it .txt or .tsv (np.loadtxt reads it)", o.out)
	}
	// Without --labels these flags have nothing to act on: --positive -1
	// was dropped while the scores favoured the model's positive label, 1.
	switch {
	case o.data.labels == "" && o.data.positive != "":
		return badInputf("--positive %s applies to the evaluation of a binary model against --labels: give --labels (a binary model's scores favour the positive class it was fitted with, whatever --positive says; a multi-class model takes no --positive)", o.data.positive)
	case o.data.labels == "" && o.data.header != "auto":
		return badInputf("--labels-header applies to the --labels file: give --labels")
	}
	if err := checkOneStdin(append([]flagPath{{"--model", o.model}}, o.data.inputs()...)...); err != nil {
		return err
	}
	if err := checkWritable(o.out); err != nil {
		return err
	}
	r, closeModel, err := openModel(s, o.model)
	if err != nil {
		return err
	}
	defer closeModel()
	var scores []float64
	var rows inputRows            // the inputs' rows, which the labels must match
	var rec *modelfile.LabelNames // the label names a binary model records
	// positive says which scores the evaluation counts as positive
	// predictions: those > 0, but for a liblinear model liblinear's
	// predictions, which differ from the signs at a score of 0.
	positive := func(i int) bool { return scores[i] > 0 }
	head, err := modelHead(o.modelName(), r)
	if err != nil {
		return err
	}
	if source.IsLiblinearModel(head) {
		var m *linear.Model
		if m, scores, rec, rows, err = predictLiblinear(s, o, r); err != nil {
			return err
		}
		positive = func(i int) bool { return m.PredictsGreater(scores[i]) }
	} else {
		f, err := readAnyModel(o.modelName(), r, head)
		if err != nil {
			return err
		}
		if err := o.checkSources(s, f.Info.Sources); err != nil {
			return err
		}
		model := f.Model
		if f.Multi != nil {
			if f.Info.Labels == nil {
				return runPredictMulti(ctx, s, o, f.Multi, modelColumnNames(f.Info))
			}
			// A two-class model that records its positive class is
			// binary: one score a row, that class's minus the other's.
			if model, err = method.TwoClass(f.Multi, f.Info.Labels); err != nil {
				return badInputf("%s: %w", o.modelName(), err)
			}
		}
		rowByRow := method.RowByRow(model)
		if err := o.binaryFlags(); err != nil {
			return err
		}
		rec = f.Info.Labels
		if scores, rows, err = o.predictBinary(ctx, s, model, rowByRow, modelColumnNames(f.Info)); err != nil {
			return err
		}
	}
	var y []float64
	if o.data.labels != "" {
		// Read once the rows are scored, when predict may heed its
		// signals: a stop while it reads them (a stream, a FIFO whose
		// writer may never end it) ends predict at once.
		if err := waitOnInput(ctx, o.interrupted); err != nil {
			return o.interrupted(err)
		}
		y, err = o.loadLabels(s, rec, rows)
		doneWaiting(ctx)
		if err != nil {
			return err
		}
	}
	write := func(w io.Writer) error {
		buf := make([]byte, 0, 32)
		for _, v := range scores {
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	}
	// A stop that came once the rows were scored and the labels read
	// (signals are heeded then, not only while predict waits on input)
	// ends predict before it writes: nothing to --out, as its help says.
	if err := ctx.Err(); err != nil {
		return o.interrupted(err)
	}
	report, err := o.writePredictions(ctx, s, write)
	if err != nil {
		return err
	}
	if y != nil {
		pred := make([]float64, len(scores)) // ±1: the predicted classes
		for i := range pred {
			pred[i] = -1
			if positive(i) {
				pred[i] = 1
			}
		}
		acc, err := metric.BalancedAccuracy(pred, y)
		if err != nil {
			return badInput(err)
		}
		return writeEvaluation(report, "balanced accuracy: %.4f (%s%s)\n", acc, plural.Count(len(y), "example", "examples"), oneClassNote(y))
	}
	return nil
}

// predictBinary returns the scores of the binary model on the sample and
// its rows (scoreInBlocks), the model's column names rec; rowByRow says
// that it scores each row alone (method.RowByRow): then the sample is read
// in blocks, and a sample read whole (standard input or a pipe beside
// another matrix file, a block that failed) is scored predictBlock rows
// at a time too, ctx checked
// between them, so that a stop signal ends the pass at the next block, as
// it does reading a file in blocks (it was held until the whole pass
// ended). A model that does not score each row alone scores the sample
// read whole in one pass, the signals not heeded (the first ends predict
// at once).
func (o *predictOptions) predictBinary(ctx context.Context, s *streams, model method.Model, rowByRow bool, rec sampleNames) ([]float64, inputRows, error) {
	var scores []float64
	blocks := func(d method.Data) error {
		b, err := model.Predict(d)
		scores = append(scores, b...)
		return err
	}
	whole := func(d method.Data) error {
		scores = nil
		X, okX := d.X.(*mat.Dense)
		H, okH := d.H.(*mat.Dense)
		if !rowByRow || d.X != nil && !okX || d.H != nil && !okH || d.Rows() == 0 {
			var err error
			scores, err = model.Predict(d)
			return err
		}
		rowsOf := func(A *mat.Dense, lo, hi int) mat.Matrix {
			if A == nil {
				return nil
			}
			return A.Slice(lo, hi, 0, A.RawMatrix().Cols)
		}
		m := d.Rows()
		for lo := 0; lo < m; lo += predictBlock {
			if err := ctx.Err(); err != nil {
				return err
			}
			hi := min(lo+predictBlock, m)
			if err := blocks(method.Data{X: rowsOf(X, lo, hi), H: rowsOf(H, lo, hi)}); err != nil {
				// The error as the whole sample gives it, naming its row.
				if _, whole := model.Predict(d); whole != nil {
					return whole
				}
				return err
			}
		}
		return nil
	}
	if !rowByRow {
		blocks = nil // its scores of a row may depend on the others: read whole
	}
	rows, err := o.scoreInBlocks(ctx, s, rec, blocks, whole, rowByRow)
	if err != nil {
		return nil, inputRows{}, err
	}
	return scores, rows, nil
}

// predictBlock is the rows of a features or source scores file that
// predict reads and scores at once (scoreInBlocks); a variable for the
// tests.
var predictBlock = 8192

// scoreInBlocks scores the sample when it is --features, --source-scores
// or both, regular files, or one of them standard input or a pipe, and
// score is not nil. It reads predictBlock rows at a time
// (dataset.ScanMatrixRows, dataset.DecodeMatrixRows for a stream: text and
// .npy, a gzip-compressed one in Fortran order through a temporary file), of both files in lockstep —
// each block of X given with the same rows of H — and
// gives each block to score, which keeps the block's scores or writes
// them: predict holds a block of the inputs and the scores, not the whole
// matrices; with --sources (and --features alone) each block of X is given
// with its rows' source scores, computed from the block when they are the
// whole product's rows (source.Set.Scores sums each row's scores in one
// order, whatever the rows beside it and the BLAS). It returns the inputs'
// rows. Standard input or a pipe, which cannot be read again, is read so
// once: the model's error on a block is returned as the block gives it, its
// row counted in the input (blockRows), and so is that of the sources
// (sourcesError). Another sample (standard input or a pipe beside
// another file, not read in lockstep), or a nil score (a model that does not score each row
// alone: method.RowByRow), it reads whole
// (loadData) and gives to whole, which keeps the sample's scores in place
// of any score kept; so too when the model failed on a block, which gives
// the error the whole sample gives (predictError), and when H's file
// failed or its rows ran out before or after X's, which gives the error
// (H's own, or the rows' mismatch) that reading them whole gives, X's
// errors first. A model checks its columns in turn over every row, so its
// first error on a block need not be its first on the whole, and it
// numbers the block's rows, not the file's. The errors of the first
// file's reader (a line of the file, a check at its end) are loadData's,
// and returned as it returns them (badInput). The column names are
// checked as loadData checks them.
//
// It heeds ctx (heedSignals) from the first block read in blocks, and,
// when heedWhole is set (whole checks ctx between blocks of rows), once a
// whole sample is read: ctx's error, and an outputError of score or whole
// (their output could not be written), are returned as they are, never
// read again whole.
func (o *predictOptions) scoreInBlocks(ctx context.Context, s *streams, rec sampleNames, score, whole func(method.Data) error, heedWhole bool) (inputRows, error) {
	f := &o.data
	final := func(err error) bool { return ctx.Err() != nil || errors.As(err, new(outputError)) }
	fallback := func() (inputRows, error) {
		d, rows, err := f.loadData(s, o.modelName(), rec)
		if err != nil {
			return inputRows{}, err
		}
		if heedWhole {
			heedSignals(ctx)
		}
		if err := whole(*d); err != nil {
			switch {
			case ctx.Err() != nil:
				return inputRows{}, o.interrupted(ctx.Err())
			case final(err):
				return inputRows{}, err
			}
			return inputRows{}, o.predictError(err, rec, rows.m)
		}
		if ctx.Err() != nil { // a stop as the last rows were scored
			return inputRows{}, o.interrupted(ctx.Err())
		}
		return rows, nil
	}
	if score == nil || !f.given() || f.sources.given() && (f.features == "" || f.scores != "") {
		return fallback()
	}
	once := false // an input read once (standard input, a pipe): never read again
	for _, p := range []string{f.features, f.scores} {
		if p == "" {
			continue
		}
		if p != stdinName {
			if st, err := os.Stat(p); err != nil {
				return fallback() // its error as reading it gives it
			} else if st.Mode().IsRegular() {
				continue
			}
		}
		once = true
	}
	if once && f.features != "" && f.scores != "" {
		return fallback() // a stream beside another file: not in lockstep
	}
	if !once {
		heedSignals(ctx)
	}
	var names sampleNames
	var firstX, firstH *mat.Dense // the first rows, for rowsOf
	var modelErr error            // score's error, not the readers'
	var stop error                // ctx's or the output's: no reading again
	lo, seen := 0, 0              // the first row of the block scored last, the rows given
	m, err := f.scanSample(s, &names, predictBlock, func(X, H *mat.Dense) error {
		if once {
			doneWaiting(ctx) // the block came
			if seen == 0 {
				// A stream's read may wait on its writer as long as it
				// likes: until its first block is read, the first signal
				// ends predict at once, as reading it whole did.
				heedSignals(ctx)
			}
		}
		if stop = ctx.Err(); stop != nil {
			return stop
		}
		lo = seen
		seen += rows(X, H)
		var d method.Data
		if X != nil {
			d.X = X
			if firstX == nil {
				firstX = mat.DenseCopyOf(X.Slice(0, 1, 0, X.RawMatrix().Cols))
			}
		}
		if H != nil {
			d.H = H
			if firstH == nil {
				firstH = mat.DenseCopyOf(H.Slice(0, 1, 0, H.RawMatrix().Cols))
			}
		}
		if modelErr = score(d); modelErr != nil && final(modelErr) {
			stop = modelErr
		}
		if once && modelErr == nil {
			// On to the next block, which the stream's writer may never
			// send: a stop from here ends predict at once, one before
			// ends it here.
			if stop = waitOnInput(ctx, o.interrupted); stop != nil {
				return stop
			}
		}
		return modelErr
	})
	if once {
		doneWaiting(ctx) // done reading: a stop is ctx's error from here
	}
	var srcErr *sourcesError
	switch {
	case stop != nil && ctx.Err() != nil:
		return inputRows{}, o.interrupted(ctx.Err())
	case stop != nil:
		return inputRows{}, stop
	case once && modelErr != nil:
		return inputRows{}, o.predictError(blockRows(modelErr, lo), rec, seen)
	case once && errors.As(err, &srcErr):
		return inputRows{}, srcErr.err // as reading it whole gives it
	case modelErr != nil, errors.Is(err, errSecondInput):
		return fallback()
	case err != nil:
		return inputRows{}, err
	case ctx.Err() != nil: // a stop as the last block was scored
		return inputRows{}, o.interrupted(ctx.Err())
	}
	if err := f.checkModelNames(s, o.modelName(), rec, names, firstX, firstH); err != nil {
		return inputRows{}, err
	}
	f.noteRangeHeaders(s)
	rows := f.rowsOf(firstX, firstH)
	rows.m = m
	return rows, nil
}

// blockRows returns err, the model's error on the block of rows from lo
// (counted from 0) of an input read once, with the row of a score that
// overflowed counted in the input, not in the block.
func blockRows(err error, lo int) error {
	var overflow *greedytl.ScoreOverflowError
	if errors.As(err, &overflow) {
		overflow.Row += lo
	}
	return err
}

// interrupted returns err, ctx's error, as the error of a predict stopped
// by it.
func (o *predictOptions) interrupted(err error) error {
	return fmt.Errorf("predicting with %s on %s: interrupted: %w", o.modelName(), o.data.describe(), err)
}

// outputError is an error writing predict's output while the rows are
// scored (predict --scores writes each block's as it comes): scoreInBlocks
// returns it as it is, not as the model's error on the inputs.
type outputError struct{ err error }

func (e outputError) Error() string { return e.err.Error() }
func (e outputError) Unwrap() error { return e.err }

// binaryFlags refuses the flags of multi-class models for a binary model,
// greedytl's or liblinear's, once the model is known to be binary: a
// liblinear model ignored them (plain scores, exit 0).
func (o *predictOptions) binaryFlags() error {
	if o.scores || o.json {
		return badInputf("--scores and --json are for multi-class models; %s is binary: predict prints its scores without them", o.modelName())
	}
	return nil
}

// writeEvaluation prints predict's evaluation, a result, to report
// (writePredictions's): standard error too is checked, where it is the
// only copy of the result (2>/dev/full lost it with exit 0), unlike a
// warning that cannot be written.
func writeEvaluation(report io.Writer, format string, args ...any) error {
	if _, err := fmt.Fprintf(report, format, args...); err != nil {
		return fmt.Errorf("writing the evaluation: %w", err)
	}
	return nil
}

// predictError returns the input error of a model's Predict or Scores on
// the inputs (all m rows, whose columns the model names rec): for an input
// the model was fitted with and the command was not given, which flag
// gives it; for a score that overflowed, the file's row and column
// (overflowError); otherwise the error with the model and the inputs
// named.
func (o *predictOptions) predictError(err error, rec sampleNames, m int) error {
	var missing *method.MissingInputError
	var overflow *greedytl.ScoreOverflowError
	switch {
	case errors.As(err, &overflow):
		return o.overflowError(overflow, rec, m)
	case errors.As(err, &missing) && missing.Input == "H":
		return badInputf("%s was fitted with %s: give their scores with --source-scores FILE or the sources with --sources DIR", o.modelName(), plural.Count(missing.Columns, "source", "sources"))
	case errors.As(err, &missing):
		return badInputf("%s was fitted with %s: give them with --features FILE", o.modelName(), plural.Count(missing.Columns, "feature", "features"))
	}
	return badInput(fmt.Errorf("model %s on %s: %w", o.modelName(), o.data.describe(), err))
}

// overflowError returns the input error of a score that overflowed on
// row e.Row of the m rows of the inputs, whose columns the model names rec:
// it names the input file and the row and column as the file counts them
// (a text file's line, and the row and column from 1; a .npy file's from
// 0, as NumPy and the .npy reader's messages count them), the
// column's name when the model records one, and the model — not the Go
// API's prefix and 0-based row (greedytl.Model.Predict: the score of row
// 2 …).
func (o *predictOptions) overflowError(e *greedytl.ScoreOverflowError, rec sampleNames, m int) error {
	path, names, unit := o.data.features, rec.features, "column"
	if e.Input == "H" || (e.Input == "" && path == "" && o.data.scores != "") {
		path, names = o.data.scores, rec.sources
		if path == "" { // H computed from --sources, row for row of X
			path, unit = o.data.features, "source"
			if names == nil {
				if ix, _, err := o.data.sources.load(); err == nil {
					names = indexSourceNames(ix)
				}
			}
		}
	}
	name, fromOne := displayName(path), o.data.isText(path)
	place := fmt.Sprintf("%s row %d (rows and columns from 0, as NumPy counts them)", name, e.Row)
	if fromOne {
		place = fmt.Sprintf("%s row %d", name, e.Row+1)
		if line := dataset.RowLine(path, e.Row, m); line > 0 {
			place = fmt.Sprintf("%s:%d (row %d)", name, line, e.Row+1)
		}
	}
	if e.Col < 0 && e.Input == "" { // no one input to blame
		return badInputf("model %s on %s: the row's score overflows float64, %s", o.modelName(), place, greedytl.OverflowUnblamed)
	}
	if e.Col < 0 {
		return badInputf("model %s on %s: the row's score overflows float64 adding the source scores' terms to the features'", o.modelName(), place)
	}
	col := strconv.Itoa(e.Col)
	if fromOne {
		col = strconv.Itoa(e.Col + 1)
	}
	if e.Col < len(names) {
		col += " (" + strconv.Quote(names[e.Col]) + ")"
	}
	if unit == "source" {
		col += " of --sources " + o.data.sources.dir
	}
	return badInputf("model %s on %s: the row's score overflows float64 at %s %s = %s, too far outside the training range (mean %s, standard deviation %s)",
		o.modelName(), place, unit, col, strconv.FormatFloat(e.Value, 'g', -1, 64), strconv.FormatFloat(e.Mean, 'g', -1, 64), strconv.FormatFloat(e.Scale, 'g', -1, 64))
}

// oneClassNote says, for the report of the balanced accuracy of the ±1
// labels y, when they hold one class: the accuracy is that class's rate.
func oneClassNote(y []float64) string {
	switch pos := slices.IndexFunc(y, func(v float64) bool { return v > 0 }) >= 0; {
	case !slices.Contains(y, -1):
		return ", all positive: the true positive rate"
	case !pos:
		return ", all negative: the true negative rate"
	}
	return ""
}

// loadLabels reads the --labels of a binary model and checks their count
// against the inputs' rows; under --labels-header auto the count decides
// a first line the values leave open, as at fit (labelsForRows). When the model records its label names (rec
// not nil) every label must be its positive label or a negative one, and
// without --positive the recorded positive label is the positive class;
// the labels may then be of one class.
func (o *predictOptions) loadLabels(s *streams, rec *modelfile.LabelNames, rows inputRows) ([]float64, error) {
	m := rows.m
	if rec == nil {
		return o.data.loadLabels(s, rows)
	}
	known := &dataset.Classes{Names: append([]string{rec.Positive}, rec.Negative...)}
	cls, err := o.data.readLabelsFor(s, known)
	if err != nil {
		return nil, err
	}
	// The inputs' count of rows decides the first line as it does at fit
	// (labelsForRows), so that predict reads the file fit read; where it
	// does not, a first line that is one of the model's classes stays a
	// label (readLabelsFor).
	if cls, err = o.data.labelsForRows(s, cls, rows); err != nil {
		return nil, err
	}
	ks, err := classIndices(cls, known, "the model's classes", func(k int, n string) error {
		hint := "" // a header on the first line, the one place of its value, is no label
		if k == cls.Y[0] && !slices.Contains(cls.Y[1:], k) {
			hint = headerHint(cls, m)
		}
		return fmt.Errorf("label %q is not one of the labels %s was fitted on (positive %q, negative %s)%s",
			n, o.modelName(), rec.Positive, strings.Join(quoteAll(rec.Negative), ", "), hint)
	})
	if err != nil {
		return nil, err
	}
	positive := o.data.positive
	if positive == "" {
		positive = rec.Positive
	} else if known.Lookup(positive) != 0 {
		return nil, badInputf("--positive %s: %s was fitted with %q as the positive label", positive, o.modelName(), rec.Positive)
	}
	if len(cls.Y) != m {
		return nil, labelCountError(o.data.labels, cls, rows)
	}
	// The model's names say which label is positive, so labels of one
	// class (a test set of positives only) are scored too: the balanced
	// accuracy is then that class's rate (metric.BalancedAccuracy).
	y := make([]float64, len(ks))
	for i, k := range ks {
		y[i] = -1
		if k == 0 { // the recorded positive label
			y[i] = 1
		}
	}
	return y, nil
}

// modelColumnNames returns the column names the model file info records: its
// features' and its source scores' (when they were given as a matrix with
// a header).
func modelColumnNames(info method.FileInfo) sampleNames {
	return sampleNames{features: info.FeatureNames, sources: info.SourceNames}
}

// checkSources compares the sources a model file records (rec; nil: none)
// with the inputs: --sources must hold the same sources (an input error
// naming both and what differs); --source-scores cannot be checked, which a
// one-line note on standard error says. A model recording no sources (fitted
// from --source-scores, or written before models recorded them) is not
// checked.
func (o *predictOptions) checkSources(s *streams, rec *source.ID) error {
	if rec == nil {
		return nil
	}
	if o.data.scores != "" {
		s.note("%s was fitted with the sources of %s (identity %.12s); the scores of %s cannot be checked against them",
			o.modelName(), rec.Dir, rec.SHA256, displayName(o.data.scores))
		return nil
	}
	if !o.data.sources.given() {
		return nil
	}
	ix, _, err := o.data.sources.load()
	if err != nil {
		return err
	}
	if d := ix.Differences(rec); len(d) > 0 {
		return badInputf("--sources %s (identity %.12s) are not the sources %s was fitted with, %s (identity %.12s): %s",
			o.data.sources.dir, ix.Identity(), o.modelName(), rec.Dir, rec.SHA256, strings.Join(d, "; "))
	}
	return nil
}

// predictLiblinear scores --features with the liblinear model file r
// (--model, open). It returns the model, the scores, the model's labels
// as a greedytl model records them (the scores favour the greater label,
// which is so the positive one, and --labels must be of the two labels: a
// --positive naming the other inverted the balanced accuracy) and the
// inputs' rows (rowsOf), which --labels must match.
func predictLiblinear(s *streams, o *predictOptions, r io.Reader) (*linear.Model, []float64, *modelfile.LabelNames, inputRows, error) {
	if o.data.features == "" || o.data.scores != "" || o.data.sources.given() {
		return nil, nil, nil, inputRows{}, badInputf("%s is a liblinear model: give --features only", o.modelName())
	}
	// r is open on the model, its first line read to tell the format: the
	// file is read on from r, not opened again, which a pipe given by name
	// (<(zcat m.model.gz), /dev/stdin) could not be.
	m, err := linear.DecodeModel(r, o.modelName())
	if err != nil {
		return nil, nil, nil, inputRows{}, badInput(err)
	}
	if len(m.Labels) != 2 {
		return nil, nil, nil, inputRows{}, badInputf("%s: a model of %d classes; predict scores binary models only", o.modelName(), len(m.Labels))
	}
	if err := o.binaryFlags(); err != nil {
		return nil, nil, nil, inputRows{}, err
	}
	X, err := o.data.readMatrix(s, o.data.features, nil)
	if err != nil {
		return nil, nil, nil, inputRows{}, err
	}
	o.data.noteRangeHeaders(s)
	switch _, d := X.Dims(); {
	case d < m.NrFeature:
		// An svmlight test file that uses none of the last indices gives
		// load_svmlight_file fewer columns: its n_features says how many.
		// The matrix may be any CSV or .npy, hence "if".
		return nil, nil, nil, inputRows{}, badInputf("%s has %s but the model %s needs %s (if converted from svmlight, whose rows need not reach the last index: load_svmlight_file(path, n_features=%d, zero_based=False))", displayName(o.data.features), plural.Count(d, "column", "columns"), o.modelName(), plural.Count(m.NrFeature, "feature", "features"), m.NrFeature)
	case d > m.NrFeature:
		// liblinear's rule, right for indices the training data never
		// reached, and a shifted row for a CSV with a column of row
		// numbers: say which columns count.
		// The columns are counted in the file's convention: from 1 in a
		// text file, from 0 in a .npy file.
		lo, hi := m.NrFeature+1, d
		if !o.data.isText(o.data.features) {
			lo, hi = lo-1, hi-1
		}
		extra, them := fmt.Sprintf("columns %d to %d are read as features", lo, hi), "them"
		switch d - m.NrFeature {
		case 1:
			extra, them = fmt.Sprintf("column %d is read as a feature", hi), "it"
		case 2:
			extra = fmt.Sprintf("columns %d and %d are read as features", lo, hi)
		}
		s.note("%s has %s and the model %s has %s: %s the training data never had (weight 0, as liblinear-predict reads %s)",
			displayName(o.data.features), plural.Count(d, "column", "columns"), o.modelName(), plural.Count(m.NrFeature, "feature", "features"), extra, them)
	}
	f := m.Scores(X)
	// CheckFiniteVector's only error is a *NonFiniteError.
	if nf := (*inputcheck.NonFiniteError)(nil); errors.As(inputcheck.CheckFiniteVector("the score of", f), &nf) {
		// The row in the file's convention (a text file's line).
		return nil, nil, nil, inputRows{}, badInputf("model %s on %s: the row's score is %s: its features times the model's weights overflow float64", o.modelName(), o.data.rowPlace(o.data.features, nf.Row, len(f)), strconv.FormatFloat(nf.Value, 'g', -1, 64))
	}
	lo, hi := min(m.Labels[0], m.Labels[1]), max(m.Labels[0], m.Labels[1])
	return m, f, &modelfile.LabelNames{Positive: strconv.Itoa(hi), Negative: []string{strconv.Itoa(lo)}}, o.data.rowsOf(X, nil), nil
}

// writePredictions writes predict's output with write: to standard output
// (out names it: streams.isStdout), or atomically to out when it names a
// file. It returns where the summary of an evaluation goes: standard error
// beside predictions on standard output, else standard output.
//
// Standard output is written through a buffer of outputBuffer bytes (and
// flushed by write where it wants its rows out: --scores after each block)
// to a stopWriter: a stop signal (ctx done) while a write is blocked — a
// reader that takes no more, as in predict --scores | (sleep 1000) — ends
// the write after stopGrace, and predict returns its interruption
// (interrupted); the write waited for the reader, and the stop with it.
func (o *predictOptions) writePredictions(ctx context.Context, s *streams, write func(io.Writer) error) (io.Writer, error) {
	if out := o.out; !s.isStdout(out) {
		return s.out, atomicfile.Write(out, write)
	}
	sw := newStopWriter(ctx, s.out)
	defer sw.close()
	bw := bufio.NewWriterSize(sw, outputBuffer)
	err := write(bw)
	// What write wrote before an error is out, as it was unbuffered.
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if errors.As(err, new(writeGivenUp)) { // made only once ctx is done
		err = o.interrupted(ctx.Err())
	}
	return s.err, err
}

// outputBuffer is the size of the buffer before predict's standard output
// (writePredictions).
const outputBuffer = 64 << 10

// flushBlock flushes w when it buffers (writePredictions' standard
// output), so that a block's rows are out before the next block is read
// (a reader of predict's output that sends its input as it reads it waits
// on them). An error is an outputError.
func flushBlock(w io.Writer) error {
	if f, ok := w.(interface{ Flush() error }); ok {
		if err := f.Flush(); err != nil {
			return outputError{err}
		}
	}
	return nil
}

// stopGrace is how long a stopWriter's write may still take once its
// context is done (predict's help says half a second); a variable for the
// tests.
var stopGrace = 500 * time.Millisecond

// stopPiece is the most a stopWriter's goroutine writes at once: PIPE_BUF
// on Linux, so that a piece written to a pipe arrives whole or not at all.
const stopPiece = 4 << 10

// stopWriter writes to w from a goroutine of its own, so that a write
// blocked on a reader that takes no more does not hold a stop signal. It
// writes in pieces of at most stopPiece bytes, each cut after its last
// line end when it holds one; once ctx is done, a piece whose write does
// not end within stopGrace (the grace starts again with every piece: a
// slow reader that reads keeps its output) is given up with ctx's error,
// and so is every write after it (the goroutine stays blocked until the
// process ends, which the error makes it do). The output then ends after
// the last piece written, at a line end unless a line was longer than a
// piece or a write ended between two lines' ends. A stop before a write
// lets it be made: a stop as predict writes its output to a reader that
// reads lets it finish, as it did. Without a stop, it writes what it is
// given, in order, once each.
type stopWriter struct {
	ctx  context.Context
	w    io.Writer
	todo chan []byte      // the pieces, to the goroutine (started by the first write)
	done chan writeResult // their results
	err  error            // once a piece was given up: every later write's error
}

// writeResult is the result of one write of a stopWriter's goroutine.
type writeResult struct {
	n   int
	err error
}

// newStopWriter returns a stopWriter of w under ctx.
func newStopWriter(ctx context.Context, w io.Writer) *stopWriter {
	return &stopWriter{ctx: ctx, w: w}
}

// Write writes p to w from the goroutine, in pieces (stopPiece); p is not
// retained once Write returns but when it returns the stop's error (the
// caller, stopped, writes nothing more). It returns the bytes written and
// the first piece's error.
func (sw *stopWriter) Write(p []byte) (int, error) {
	if sw.err != nil {
		return 0, sw.err
	}
	if sw.todo == nil {
		sw.todo, sw.done = make(chan []byte), make(chan writeResult, 1)
		go func(w io.Writer, todo <-chan []byte, done chan<- writeResult) {
			for p := range todo {
				n, err := w.Write(p)
				done <- writeResult{n, err}
			}
		}(sw.w, sw.todo, sw.done)
	}
	written := 0
	for written < len(p) {
		piece := p[written:]
		if len(piece) > stopPiece {
			piece = piece[:stopPiece]
			if i := bytes.LastIndexByte(piece, '\n'); i >= 0 {
				piece = piece[:i+1]
			}
		}
		r, ok := sw.writePiece(piece)
		if !ok {
			sw.err = writeGivenUp{sw.ctx.Err()}
			return written, sw.err
		}
		written += r.n
		if r.err != nil {
			return written, r.err
		}
	}
	return written, nil
}

// writePiece has the goroutine write piece, and returns its result, or
// false when ctx is done and the write does not end within stopGrace.
func (sw *stopWriter) writePiece(piece []byte) (writeResult, bool) {
	sw.todo <- piece
	select {
	case r := <-sw.done:
		return r, true
	case <-sw.ctx.Done():
	}
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	select {
	case r := <-sw.done:
		return r, true
	case <-grace.C:
		return writeResult{}, false
	}
}

// writeGivenUp is a stopWriter's error for a write given up after a stop:
// it wraps the context's error.
type writeGivenUp struct{ err error }

func (e writeGivenUp) Error() string {
	return fmt.Sprintf("standard output took no more for %v after the stop (a write of at most %d bytes did not end: is its reader reading?): %v", stopGrace, stopPiece, e.err)
}

func (e writeGivenUp) Unwrap() error { return e.err }

// close ends the goroutine once its write, if any, has ended.
func (sw *stopWriter) close() {
	if sw.todo != nil {
		close(sw.todo)
	}
}
