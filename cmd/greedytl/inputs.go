package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/bom"
	"github.com/greedytl/greedytl/internal/fileerr"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// dataFlags are the input flags of one sample: features, source scores (a
// matrix, or computed from linear source models) and labels.
type dataFlags struct {
	prefix          string      // flag-name prefix: "" or e.g. "unlabelled-"
	features        string      // --features: X, m×d
	scores          string      // --source-scores: H, m×n
	sources         *sourcesDir // --sources: a directory of linear source models (shared by every sample of a command)
	labels          string      // --labels: y
	*labelSettings              // --labels-header and --positive (shared by every sample of a command)
	*matrixSettings             // --features-header (shared by every sample of a command)
	stdinText       bool        // the matrix read from standard input was plain text (readMatrix), whose first line hintsHeader may name
	// ranges: the line of each text matrix file read (readMatrix,
	// scanMatrixRows) that --features-header auto read as pandas' column
	// names and dropped, and their number, as its reader told it
	// (dataset.MatrixHeader); none: 0, 0.
	ranges map[string][2]int
	// firsts: the first line of each text matrix file read, when its
	// reader read it as a row of data, as it told it
	// (dataset.MatrixHeader's FirstValues, FirstDecimals): headerNote
	// quotes it as written and offers --features-header yes only where it
	// would read it.
	firsts map[string]firstLine
}

// firstLine is the first line of a text matrix file read as a row of data:
// its first values as written (at most four: a fourth says more follow),
// and whether every value of it is written with a point or an exponent,
// which --features-header yes refuses as a header.
type firstLine struct {
	values   []string
	decimals bool
}

// matrixSettings is --features-header, the rule of the first line of
// every text matrix file of a command (its samples' features and source
// scores), which its samples share as they share --sources. nil (a sample
// not registered as a command's flags) is the default, auto.
type matrixSettings struct {
	featuresHeader string          // --features-header: one of dataset.HeaderRuleNames
	matrixFiles    []*string       // the command's matrix flags (--features, --source-scores, and the extra samples')
	rule           *headerResult   // matrixHeader's, from its first call on
	rangeNoted     map[string]bool // the files noteRangeHeaders named: once each
}

// headerResult is the rule matrixHeader found, or its error.
type headerResult struct {
	h   dataset.HeaderRule
	err error
}

// share gives the extra samples (fit's --unlabelled-*, --oracle-*) the
// main sample f's --sources, label settings and --features-header, which
// then applies to their matrix files too.
func (f *dataFlags) share(extra ...*dataFlags) {
	for _, e := range extra {
		e.sources, e.labelSettings, e.matrixSettings = f.sources, f.labelSettings, f.matrixSettings
		f.matrixFiles = append(f.matrixFiles, &e.features, &e.scores)
	}
}

// matrixHeader returns --features-header's rule, or an input error naming
// the flag: for a value that is none of dataset.HeaderRuleNames, and for
// yes when every matrix file the command names is a .npy array by its
// name (dataset.NPYName), which has no header line and would ignore yes
// silently. (no reads an array as every rule does: its rows are data.)
// It finds them once, at its first call, once the flags are parsed: every
// reader of the command's matrices (readMatrix, scanMatrixRows) and of
// their first rows (rowsOf, hintsHeader) takes that one rule.
func (m *matrixSettings) matrixHeader() (dataset.HeaderRule, error) {
	if m == nil {
		return dataset.HeaderAuto, nil
	}
	if m.rule == nil {
		h, err := m.parseHeader()
		m.rule = &headerResult{h, err}
	}
	return m.rule.h, m.rule.err
}

// parseHeader is matrixHeader's rule or error, found from the flags.
func (m *matrixSettings) parseHeader() (dataset.HeaderRule, error) {
	h, err := dataset.ParseHeaderRule(m.featuresHeader)
	if err != nil {
		return 0, badInputf("--features-header: %v", err)
	}
	if h != dataset.HeaderYes {
		return h, nil
	}
	var arrays []string
	for _, f := range m.matrixFiles {
		switch {
		case *f == "":
		case !dataset.NPYName(*f):
			return h, nil // a text file (or standard input): yes applies to it
		default:
			arrays = append(arrays, *f)
		}
	}
	if len(arrays) == 1 {
		return 0, badInputf("--features-header yes: %s is a .npy array, which has no header line: leave --features-header out", arrays[0])
	}
	return 0, badInputf("--features-header yes: %s are .npy arrays, which have no header line: leave --features-header out", strings.Join(arrays, " and "))
}

// readMatrix reads a matrix file (.npy or text) with --features-header's
// rule; "-" reads it from the command's standard input. When names is not
// nil it receives the column names of a text header
// (dataset.ReadMatrixNames); the line the reader dropped as pandas' column
// names is recorded (recordHeader).
func (f *dataFlags) readMatrix(s *streams, path string, names *[]string) (*mat.Dense, error) {
	h, err := f.matrixHeader()
	if err != nil {
		return nil, err
	}
	var A *mat.Dense
	var hdr dataset.MatrixHeader
	if r, ok := s.stdin(path); ok {
		A, err = dataset.DecodeMatrixNames(f.stdinReader(r), displayName(path), h, &hdr)
	} else {
		A, err = dataset.ReadMatrixNames(path, h, &hdr)
	}
	f.recordHeader(path, hdr, names)
	return A, badInput(headerFlagNote(err))
}

// recordHeader records hdr, what the reader of the matrix file path made of
// its first line: the line it dropped as pandas' column names (ranges,
// which rangeHeader gives), the line it read as a row (firsts), and its
// column names in *names (names not nil).
func (f *dataFlags) recordHeader(path string, hdr dataset.MatrixHeader, names *[]string) {
	if names != nil {
		*names = hdr.Names
	}
	if hdr.FirstValues == nil {
		delete(f.firsts, path)
	} else {
		if f.firsts == nil {
			f.firsts = map[string]firstLine{}
		}
		f.firsts[path] = firstLine{hdr.FirstValues, hdr.FirstDecimals}
	}
	if hdr.RangeLine == 0 {
		delete(f.ranges, path)
		return
	}
	if f.ranges == nil {
		f.ranges = map[string][2]int{}
	}
	f.ranges[path] = [2]int{hdr.RangeLine, hdr.RangeCols}
}

// stdinReader returns a buffered reader over r, the standard input, and
// records whether it holds plain text (stdinText), told by its first bytes.
func (f *dataFlags) stdinReader(r io.Reader) *bufio.Reader {
	br := bufio.NewReader(r)
	magic, _ := br.Peek(6)
	f.stdinText = dataset.PlainText(magic)
	return br
}

// scanMatrixRows is dataset.ScanMatrixRows of the matrix file path with
// --features-header's rule (standard input's, "-", dataset.DecodeMatrixRows),
// its errors input errors (but fn's, returned as they are), the line the
// reader dropped as pandas' column names recorded (recordHeader).
func (f *dataFlags) scanMatrixRows(s *streams, path string, names *[]string, block int, fn func(*mat.Dense) error) error {
	h, err := f.matrixHeader()
	if err != nil {
		return err
	}
	var fnErr error
	each := func(A *mat.Dense) error {
		fnErr = fn(A)
		return fnErr
	}
	var hdr dataset.MatrixHeader
	if r, ok := s.stdin(path); ok {
		err = dataset.DecodeMatrixRows(f.stdinReader(r), displayName(path), h, &hdr, block, each)
	} else {
		err = dataset.ScanMatrixRows(path, h, &hdr, block, each)
	}
	f.recordHeader(path, hdr, names)
	if err != nil && err == fnErr {
		return err
	}
	return badInput(headerFlagNote(err))
}

// errSecondInput stops scanSample when --source-scores, read beside
// --features, failed or its rows ran out before or after X's, or the
// sources of --sources failed on a block of X: the caller reads both
// whole (loadData), which gives the error reading them gives, X's first.
var errSecondInput = errors.New("the source scores do not follow the features row for row")

// sourcesError is errSecondInput of the sources of --sources, which
// failed on a block of --features: err is their error on the block, which
// reading the input whole gives too. Only a score that is not finite
// (a *source.ScoreError, its row counted in the input: sourceScores)
// depends on the block; the sources' other errors (their directory, X's
// columns) are the first block's.
type sourcesError struct {
	err error
}

func (e *sourcesError) Error() string        { return e.err.Error() }
func (e *sourcesError) Unwrap() error        { return e.err }
func (e *sourcesError) Is(target error) bool { return target == errSecondInput }

// scanSample reads the sample's --features and --source-scores (regular
// files; either may be absent) in blocks of at most block rows
// (scanMatrixRows), both in lockstep: it gives fn each block of X with the
// same rows of H (nil when absent; with --sources, and --features only,
// the sources' scores of the block's rows: sourceScores), and sets names
// as loadData sets them.
// It returns the rows given. X's reader's errors and fn's are returned as
// they are; when H's reader (or the sources) failed, or H has other rows
// than X, errSecondInput. A block of H holding the rows of two of its file's
// blocks (a range header dropped from the first makes it one row short)
// is a copy, other blocks views of what the reader gave.
func (f *dataFlags) scanSample(s *streams, names *sampleNames, block int, fn func(X, H *mat.Dense) error) (int, error) {
	m := 0
	count := func(A *mat.Dense) { m += A.RawMatrix().Rows }
	if f.sources.given() {
		// Each block's source scores computed from it: its rows' scores
		// are the whole product's (source.Set.Scores). An error of the
		// sources (their directory, X's columns, a score that is not
		// finite, its row counted in the input) has the caller read the
		// sample whole, which gives the error loadData gives.
		err := f.scanMatrixRows(s, f.features, &names.features, block, func(X *mat.Dense) error {
			H, err := f.sourceScores(X, m)
			if err != nil {
				return &sourcesError{err}
			}
			count(X)
			return fn(X, H)
		})
		return m, err
	}
	if f.features == "" || f.scores == "" {
		if f.features == "" {
			err := f.scanMatrixRows(s, f.scores, &names.sources, block, func(H *mat.Dense) error { count(H); return fn(nil, H) })
			return m, err
		}
		err := f.scanMatrixRows(s, f.features, &names.features, block, func(X *mat.Dense) error { count(X); return fn(X, nil) })
		return m, err
	}
	var hErr error
	next, stop := iter.Pull(func(yield func(*mat.Dense) bool) {
		hErr = f.scanMatrixRows(s, f.scores, &names.sources, block, func(H *mat.Dense) error {
			if !yield(H) {
				return errSecondInput
			}
			return nil
		})
	})
	defer stop()
	var pending *mat.Dense // H's rows read and not yet given
	err := f.scanMatrixRows(s, f.features, &names.features, block, func(X *mat.Dense) error {
		H, ok := takeRows(&pending, next, X.RawMatrix().Rows)
		if !ok {
			return errSecondInput
		}
		count(X)
		return fn(X, H)
	})
	if err != nil {
		return m, err
	}
	if _, more := next(); pending != nil || more || hErr != nil {
		return m, errSecondInput
	}
	return m, nil
}

// takeRows returns the next n rows of the blocks next gives, pending
// (not nil) holding those of a block not yet returned; ok is false when
// the blocks end first.
func takeRows(pending **mat.Dense, next func() (*mat.Dense, bool), n int) (H *mat.Dense, ok bool) {
	var parts []*mat.Dense
	for got := 0; got < n; {
		if *pending == nil {
			if *pending, ok = next(); !ok {
				return nil, false
			}
		}
		cur := *pending
		r, c := cur.Dims()
		k := min(r, n-got)
		parts = append(parts, cur.Slice(0, k, 0, c).(*mat.Dense))
		*pending = nil
		if k < r {
			*pending = cur.Slice(k, r, 0, c).(*mat.Dense)
		}
		got += k
	}
	if len(parts) == 1 {
		return parts[0], true
	}
	c := parts[0].RawMatrix().Cols
	H = mat.NewDense(n, c, nil)
	row := 0
	for _, p := range parts {
		r := p.RawMatrix().Rows
		H.Slice(row, row+r, 0, c).(*mat.Dense).Copy(p)
		row += r
	}
	return H, true
}

// headerFlagNote adds to the error of a text matrix file whose first line
// could be a header or a row of data (dataset.ErrFirstLineAmbiguous) the
// flag that says which, and to that of a first line of column names read
// as data under --features-header no (dataset.ErrFirstLineNames), or of
// a row of decimals refused as a header under yes
// (dataset.ErrFirstLineData), the flag's part in it.
func headerFlagNote(err error) error {
	switch {
	case errors.Is(err, dataset.ErrFirstLineAmbiguous):
		return fmt.Errorf("%w; or say which: --features-header yes reads it as a header, no as a row of data", err)
	case errors.Is(err, dataset.ErrFirstLineData):
		return fmt.Errorf("%w (--features-header yes reads the first line of every text matrix file as a header: --features-header auto or no reads this one as a row of data)", err)
	case errors.Is(err, dataset.ErrFirstLineNames):
		return fmt.Errorf("%w (--features-header no reads the first line as a row of data; it reads as column names: --features-header yes or auto reads it as a header)", err)
	}
	return err
}

// labelSettings are the flags that say how a command reads its label
// files; the samples of a command share them, as they share --sources.
// They also count the label files read, so that --labels-header yes is
// refused where it would be ignored silently (checkHeaderApplies).
type labelSettings struct {
	header   string // --labels-header: one of dataset.HeaderRuleNames
	positive string // --positive: the label value that means +1

	files  []*string // the label flags of the command (--labels, fit's --oracle-labels)
	read   int       // the label files read so far (text, to which --labels-header applies, unless all are in arrays)
	arrays []string  // those that were .npy arrays (displayName), which have no header line
}

// also adds the label flag labels (fit's --oracle-labels) to those whose
// files the settings read.
func (l *labelSettings) also(labels *string) { l.files = append(l.files, labels) }

// checkHeaderApplies records that the label file named name was read as
// cls with the header rule h (--labels-header's), and returns an input error naming the flag and the arrays when
// --labels-header yes was given and the last of the command's label files
// (those its label flags name) has been read, none of them text: every
// one is a .npy array, which has no header line, and yes would be ignored
// silently. Where one of them is text, yes applies to it; a command that
// fails before reading all of them says why itself.
func (l *labelSettings) checkHeaderApplies(h dataset.HeaderRule, name string, cls *dataset.Classes) error {
	l.read++
	if !cls.FromText() {
		l.arrays = append(l.arrays, name)
	}
	named := 0
	for _, f := range l.files {
		if *f != "" {
			named++
		}
	}
	if h != dataset.HeaderYes || l.read > len(l.arrays) || l.read < named { // one was text, or more are to come
		return nil
	}
	if len(l.arrays) == 1 {
		return badInputf("--labels-header yes: %s is a .npy array, which has no header line: leave --labels-header out", l.arrays[0])
	}
	return badInputf("--labels-header yes: %s are .npy arrays, which have no header line: leave --labels-header out", strings.Join(l.arrays, " and "))
}

// register adds --features, --source-scores, --sources, --labels and
// --positive to c.
func (f *dataFlags) register(c *cobra.Command, labelsHelp string) {
	fl := c.Flags()
	fl.StringVar(&f.features, "features", "", "target features X, one row per example (.npy or CSV; - for stdin)")
	fl.StringVar(&f.scores, "source-scores", "", "source scores H, one row per example, one column per source (.npy or CSV; - for stdin)")
	f.sources = new(sourcesDir)
	fl.StringVar(&f.sources.dir, "sources", "", "directory of linear source models (train-sources): H is computed from X")
	fl.StringVar(&f.labels, "labels", "", labelsHelp)
	f.labelSettings = &labelSettings{files: []*string{&f.labels}}
	f.matrixSettings = &matrixSettings{matrixFiles: []*string{&f.features, &f.scores}}
	fl.StringVar(&f.featuresHeader, "features-header", "auto", "whether the first line of a text --features or --source-scores file (and of every other features or scores file of the command) is a header: "+strings.Join(dataset.HeaderRuleNames(), ", ")+" (auto: when it holds a name that is no number, or is 0, 1, …, n−1 above rows (n ≥ 3), and refused when it is other distinct integers above rows of decimals, which could be either: yes reads it as a header of column names (but refuses a line whose every value has a point or an exponent: a row of data), no as a row of data; a .npy array has no header line)")
	fl.StringVar(&f.header, "labels-header", "auto", "whether the first line of a text --labels file is a header: "+strings.Join(dataset.HeaderRuleNames(), ", ")+" (auto: when the first value can only be a header: a name above numbers, or a name seen once above two classes seen at least twice each; a number is a label, as the 0 pandas writes above an unnamed Series: yes drops it; fit and predict read a first line the values leave open by the inputs' rows, noting it: a label when the file has one line a row with it, a header when one more and it is found once or is that 0; where the rows do not decide, predict reads a first line that is one of the model's classes as a label)")
	fl.StringVar(&f.positive, "positive", "", "the label value of the positive class, when labels are not {-1,+1} or {0,1}")
	fileFlags(fl, "features", "source-scores", "labels")
	dirFlags(fl, "sources")
}

// registerUnlabelled adds --PREFIXfeatures and --PREFIXsource-scores for an
// extra sample; the caller shares the main sample's sources directory and
// label settings with it.
func (f *dataFlags) registerUnlabelled(c *cobra.Command, prefix, help string) {
	f.prefix = prefix
	fl := c.Flags()
	fl.StringVar(&f.features, prefix+"features", "", help+": features (- for stdin)")
	fl.StringVar(&f.scores, prefix+"source-scores", "", help+": source scores (- for stdin)")
	fileFlags(fl, prefix+"features", prefix+"source-scores")
}

// files returns the files the flags name (some may be empty or "-"), and
// the --sources directory, whose index and models are inputs too.
func (f *dataFlags) files() []string {
	files := []string{f.features, f.scores, f.labels}
	if f.sources.given() {
		files = append(files, f.sources.dir)
	}
	return files
}

// inputs returns the sample's input flags with the paths they name, for
// checkOneStdin.
func (f *dataFlags) inputs() []flagPath {
	p := "--" + f.prefix
	return []flagPath{{p + "features", f.features}, {p + "source-scores", f.scores}, {p + "labels", f.labels}}
}

// flagPath is an input flag and the path it names.
type flagPath struct{ flag, path string }

// checkOneStdin returns an input error, before anything is read, when more
// than one of inputs names the standard input ("-"), which can be read
// once.
func checkOneStdin(inputs ...flagPath) error {
	var stdin []string
	for _, in := range inputs {
		if in.path == stdinName {
			stdin = append(stdin, in.flag)
		}
	}
	switch n := len(stdin); {
	case n == 2:
		return badInputf("%s and %s cannot both read standard input: it can be read once", stdin[0], stdin[1])
	case n > 2:
		return badInputf("%s and %s cannot all read standard input: it can be read once", strings.Join(stdin[:n-1], ", "), stdin[n-1])
	}
	return nil
}

// stdoutName is what an --out flag names to mean standard output, as
// stdinName names standard input for the inputs.
const stdoutName = "-"

// stdinName is what an input flag or argument names to mean the command's
// standard input.
const stdinName = "-"

// checkOut returns an input error, before any work is done, when the output
// file out is a directory, is below a file (checkAbove), or is one of the
// inputs: a command never overwrites what it reads. These are facts of the
// path, checked with the flags; whether this process may write there is
// checkWritable's, asked just before the work, after every usage error.
func checkOut(out string, inputs ...string) error {
	if out == "" || out == stdoutName {
		return nil
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return badInputf("%s is a directory: give a file name", out)
	}
	if err := checkAbove(out); err != nil {
		return err
	}
	if err := atomicfile.NotAnInput(out, inputs...); err != nil {
		return badInput(err)
	}
	return nil
}

// checkWritable returns what the write of the output file out would find
// after the work (a read-only file or file system, a directory this user
// may not write: the write's own error, exit 1), found before it: a
// command calls it after its flags' and checkOut's errors (exit 2), which
// it would otherwise hide, and before reading its inputs. A directory that
// does not exist (itself or as a symbolic link's target: atomicfile.Check
// says which) is the user's to create: an input error (exit 2).
func checkWritable(out string) error {
	if out == "" || out == stdoutName {
		return nil
	}
	err := atomicfile.Check(out)
	if errors.Is(err, fs.ErrNotExist) {
		return badInput(err)
	}
	return err
}

// dataJob holds the flags of the commands that work through a dataset
// folder into an output directory, in shards (experiment, train-sources):
// --data, --out, the negative pool (--negative-classes or
// --negative-fraction), --seed, --workers, --shard and --quiet.
type dataJob struct {
	data        string
	out         string
	negClasses  []string
	negFraction float64
	seed        uint64
	workers     int
	shard       string
	quiet       bool
}

// check checks the flags of the command c: both --data and --out (outArg
// names --out's argument, "RUN" or "SOURCES", in the message), an output
// directory (checkOutDir) that is not, nor lies inside, --data or one of
// the command's other input directories (inputs: experiment's --sources), one way of choosing the negative pool and, when
// given, a --negative-fraction in (0, 1) (the libraries read 0 as "the
// default", which the flag must not). It returns the shard to work on.
func (j *dataJob) check(c *cobra.Command, outArg string, inputs ...string) (shard.Shard, error) {
	if j.data == "" || j.out == "" {
		return shard.Shard{}, badInputf("give both --data DIR and --out %s (see '%s --help')", outArg, c.CommandPath())
	}
	data := j.data
	if data == embeddedCLINC150 { // the embedded data set, not a directory of that name
		data = ""
	}
	if err := checkOutDir(j.out, append([]string{data}, inputs...)...); err != nil {
		return shard.Shard{}, err
	}
	if err := notStdin("data", j.data, "a dataset folder"); err != nil {
		return shard.Shard{}, err
	}
	fracSet := c.Flags().Changed("negative-fraction")
	if err := emptyList(c, "negative-classes", j.negClasses, "class", "class names", "for the default pool"); err != nil {
		return shard.Shard{}, err
	}
	if len(j.negClasses) > 0 && fracSet {
		return shard.Shard{}, badInputf("give --negative-classes or --negative-fraction, not both")
	}
	if fracSet && !(j.negFraction > 0 && j.negFraction < 1) {
		return shard.Shard{}, badInputf("--negative-fraction %v: want a value in (0, 1)", j.negFraction)
	}
	sh, err := shard.Parse(j.shard, os.Getenv)
	if err != nil {
		return shard.Shard{}, badInputf("--shard: %w", err)
	}
	return sh, nil
}

// notStdin returns an input error when the flag --name, which names what (a
// directory), is given as stdinName: a directory is read from its files,
// which standard input cannot hold. The messages were of a path "-"
// ("-/features.npy: no such file or directory"), and --sources -'s
// suggested "greedytl train-sources … --out -", which train-sources
// refuses.
func notStdin(name, dir, what string) error {
	if dir == stdinName {
		return badInputf("--%s -: %s is read from its files, not from standard input: give its path", name, what)
	}
	return nil
}

// emptyList returns an input error when the list flag --name was given but
// lists nothing (its items are blank: --name "$UNSET" in a script, or only
// commas), which would otherwise run as if the flag were left out — its
// default, which omitted describes ("to run every method") — without a
// word, or when one of its items is blank ("a,,b", "a,": a variable unset
// in "$A,$B"), which was refused only later, as a class or method named
// ""; nil when the flag was left out or lists only non-blank items. The
// error says what to give (give: "class names") and that leaving the flag
// out means the default. Each list flag of words goes through it; the
// lists of numbers refuse a blank item as they are parsed (parseList).
func emptyList(c *cobra.Command, name string, items []string, noun, give, omitted string) error {
	if !c.Flags().Changed(name) {
		return nil
	}
	blank, listed := -1, 0 // the first blank item, the non-blank ones
	for k, it := range items {
		switch {
		case strings.TrimSpace(it) != "":
			listed++
		case blank < 0:
			blank = k
		}
	}
	switch {
	case listed == 0:
		return badInputf("--%s names no %s: give %s, or leave the flag out %s", name, noun, give, omitted)
	case blank >= 0:
		return badInputf("--%s: item %d of %d is blank: give %s separated by commas, none empty", name, blank+1, len(items), give)
	}
	return nil
}

// checkOutDir refuses, for the commands whose output is a directory, an
// --out of - or naming a file that is not a directory, and one that is,
// or lies inside, one of the directories inputs the command reads
// (atomicfile.NotAnInput: experiment's --data and --sources, report's
// runs), whose files the output's would mix with. A command that
// works long before it first writes there (synth, train-sources, demo, report, merge; experiment.Run) calls
// atomicfile.CheckDir too, so that an --out it could not write into is
// refused before the work.
func checkOutDir(out string, inputs ...string) error {
	if err := checkOutTarget(out, "this command writes a directory", "a directory name"); err != nil {
		return err
	}
	if err := atomicfile.NotAnInput(out, inputs...); err != nil {
		return badInput(err)
	}
	return nil
}

// checkOutTarget is checkOutDir for a command that writes what writes says
// (in its messages, with give the --out to give instead).
func checkOutTarget(out, writes, give string) error {
	if out == stdoutName {
		return badInputf("--out -: %s, not standard output: give %s", writes, give)
	}
	if fi, err := os.Stat(out); err == nil && !fi.IsDir() {
		return badInputf("--out %s is a file, not a directory: give %s", out, give)
	}
	return checkAbove(out)
}

// checkAbove returns an input error when the nearest existing directory
// above the output path out is a file (--out y.txt/model.json, or
// y.txt/run/a): the command would do its work and then fail to write,
// with exit status 1 and a system call's message ("lstat …: not a
// directory", "mkdir y.txt: not a directory"). Missing directories are
// for the caller to create or refuse.
func checkAbove(out string) error {
	if d, fi := atomicfile.NearestExisting(filepath.Dir(filepath.Clean(out))); fi != nil && !fi.IsDir() {
		return badInputf("--out %s: %s is a file, not a directory", out, d)
	}
	return nil
}

// describe names the sample's files for a message about the data as a
// whole: "X = x.npy, H = h.npy", the standard input as <stdin>, and H
// computed from --sources as "H from sources/".
func (f *dataFlags) describe() string {
	var parts []string
	if f.features != "" {
		parts = append(parts, "X = "+displayName(f.features))
	}
	switch {
	case f.scores != "":
		parts = append(parts, "H = "+displayName(f.scores))
	case f.sources.given() && f.features != "":
		parts = append(parts, "H from "+f.sources.dir)
	}
	return strings.Join(parts, ", ")
}

// displayName is how messages name an input file: the standard input
// (stdinName) as <stdin>.
func displayName(path string) string {
	if path == stdinName {
		return "<stdin>"
	}
	return path
}

// given reports whether any input of the sample was named.
func (f *dataFlags) given() bool { return f.features != "" || f.scores != "" }

// load reads X and H (either may be absent: nil) and checks that they have
// the same number of rows. With --sources, H is computed from X. It
// returns the column names of X and of an H given as a matrix too, those
// of a text header (nil: none; see dataset.ReadMatrixNames).
func (f *dataFlags) load(s *streams) (X, H *mat.Dense, names sampleNames, err error) {
	p := "--" + f.prefix
	srcDir := ""
	if f.sources.given() {
		srcDir = f.sources.dir
	}
	if f.features == "" && f.scores == "" {
		return nil, nil, names, badInputf("no input: give %sfeatures, %ssource-scores or both", p, p)
	}
	if f.scores != "" && srcDir != "" {
		return nil, nil, names, badInputf("give %ssource-scores or --sources, not both", p)
	}
	if srcDir != "" && f.features == "" {
		return nil, nil, names, badInputf("--sources computes the source scores from the features: give %sfeatures too", p)
	}
	if err := checkOneStdin(f.inputs()...); err != nil {
		return nil, nil, names, err
	}
	if f.features != "" {
		if X, err = f.readMatrix(s, f.features, &names.features); err != nil {
			return nil, nil, names, err
		}
	}
	if f.scores != "" {
		if H, err = f.readMatrix(s, f.scores, &names.sources); err != nil {
			return nil, nil, names, err
		}
	}
	if srcDir != "" {
		if H, err = f.sourceScores(X, 0); err != nil {
			return nil, nil, names, err
		}
	}
	if X != nil && H != nil {
		if mx, mh := X.RawMatrix().Rows, H.RawMatrix().Rows; mx != mh {
			// One row more in a text file: a header of numbers read as a row?
			var note string // each blank-line note reads its file again: once
			switch {
			case mx < mh:
				note = blankNote(f.features)
			case mh < mx:
				note = blankNote(f.scores)
			}
			switch {
			case note != "":
			case mh == mx+1 && f.rangeHint(f.features) != "":
				note = f.rangeHint(f.features)
			case mx == mh+1 && f.rangeHint(f.scores) != "":
				note = f.rangeHint(f.scores)
			case mh == mx+1 && f.hintsHeader(f.scores, H):
				note = headerNote(f.scores, H.RawRowView(0), f.firsts[f.scores])
			case mx == mh+1 && f.hintsHeader(f.features, X):
				note = headerNote(f.features, X.RawRowView(0), f.firsts[f.features])
			}
			return nil, nil, names, badInputf("%s has %s but %s has %d: both need one row per example%s", displayName(f.features), plural.Count(mx, "row", "rows"), displayName(f.scores), mh, note)
		}
	}
	f.noteRangeHeaders(s)
	return X, H, names, nil
}

// sourceScores returns the scores of the --sources directory's sources on
// the rows of X, read from --features (all of them, or a block of them:
// each row's scores are its own, summed in an order no other row and no
// BLAS changes: source.Set.Scores), its errors input errors. lo is X's
// first row in --features (counted from 0; 0 for all of them): a score
// that is not finite (a *source.ScoreError) names its row in --features.
func (f *dataFlags) sourceScores(X *mat.Dense, lo int) (*mat.Dense, error) {
	ix, set, err := f.sources.load()
	if err != nil {
		return nil, err
	}
	// The models ignore columns beyond their features, as liblinear
	// does; X with more columns than the sources' dataset is features
	// of another dataset, whose scores would be meaningless.
	if c := X.RawMatrix().Cols; ix.NumFeatures > 0 && c != ix.NumFeatures {
		return nil, badInputf("%s has %s but the sources of %s were trained on %s (num_features of %s): --sources needs the features of their dataset (for X with other columns, give the sources' scores with --source-scores)",
			displayName(f.features), plural.Count(c, "column", "columns"), f.sources.dir, plural.Count(ix.NumFeatures, "feature", "features"), filepath.Join(f.sources.dir, source.IndexFile))
	}
	H, err := set.Scores(X)
	if err != nil {
		var score *source.ScoreError
		if errors.As(err, &score) {
			score.Row += lo // before the message is made
		}
		return nil, badInputf("%s: %w", displayName(f.features), err)
	}
	return H, nil
}

// checkColumns returns an input error, naming the files, when the extra
// sample f (--unlabelled-*, --oracle-*), read as X and H, has other column
// counts than the training sample train, read as trainX and trainH (nil:
// absent). The methods compare them too, but their messages cannot name
// the files. With --sources both samples' H come from the same sources.
func (f *dataFlags) checkColumns(train *dataFlags, X, H, trainX, trainH *mat.Dense) error {
	for _, b := range []struct {
		flag, path, trainPath string
		a, trainA             *mat.Dense
	}{
		{"features", f.features, train.features, X, trainX},
		{"source-scores", f.scores, train.scores, H, trainH},
	} {
		c, want := cols(b.a), cols(b.trainA)
		if c == want {
			continue
		}
		trainSide := fmt.Sprintf("--%s %s has %d", b.flag, displayName(b.trainPath), want)
		if b.trainPath == "" {
			trainSide = fmt.Sprintf("the training sample has no --%s", b.flag)
		}
		if b.path == "" {
			return badInputf("--%s%s is not given but %s columns: the %s examples need the training sample's columns", f.prefix, b.flag, trainSide, strings.TrimSuffix(f.prefix, "-"))
		}
		return badInputf("--%s%s %s has %s but %s: the %s examples need the training sample's columns", f.prefix, b.flag, displayName(b.path), plural.Count(c, "column", "columns"), trainSide, strings.TrimSuffix(f.prefix, "-"))
	}
	return nil
}

// cols returns the number of columns of A, 0 when it is absent (nil).
func cols(A *mat.Dense) int {
	if A == nil {
		return 0
	}
	return A.RawMatrix().Cols
}

// sourcesID returns the identity of the --sources directory, as a model
// file records it, or nil without --sources.
func (f *dataFlags) sourcesID() (*source.ID, error) {
	if !f.sources.given() {
		return nil, nil
	}
	ix, _, err := f.sources.load()
	if err != nil {
		return nil, err
	}
	return ix.ID(f.sources.dir), nil
}

// sourcesDir is the --sources flag, which every sample of a command
// shares: the directory, and its index and models once read, so that a
// command reads them once however many samples use them.
type sourcesDir struct {
	dir string
	ix  *source.Index
	set *source.Set
}

// given reports whether --sources names a directory.
func (s *sourcesDir) given() bool { return s != nil && s.dir != "" }

// load returns the directory's index and models, reading them on the
// first call; its errors are input errors.
func (s *sourcesDir) load() (*source.Index, *source.Set, error) {
	if s.set != nil {
		return s.ix, s.set, nil
	}
	if err := notStdin("sources", s.dir, "a sources directory"); err != nil {
		return nil, nil, err
	}
	ix, err := source.ReadIndex(s.dir)
	if err != nil {
		return nil, nil, badInput(err)
	}
	// Load refuses a shard's part of the sources, whose scores would lack
	// the other shards' columns.
	set, err := ix.Load(s.dir)
	if err != nil {
		return nil, nil, badInput(err)
	}
	s.ix, s.set = ix, set
	return ix, set, nil
}

// sampleNames are the column names of a sample's inputs, those of a text
// file's header (nil: none): its features' (--features) and its source
// scores' (--source-scores: the user's own sources; H computed from
// --sources has none). A model file records the training sample's
// ("feature_names", "source_names"), and inspect shows a model's
// (inspectNames).
type sampleNames struct {
	features, sources []string
}

// loadData reads the sample's X and H as method.Data (the labels are read
// apart: their meaning depends on the model) for the model file named
// model, whose column names rec (nil: none) X's and H's must be when they
// have names too (checkNames), and its rows, which the labels must match
// (rowsOf).
func (f *dataFlags) loadData(s *streams, model string, rec sampleNames) (*method.Data, inputRows, error) {
	X, H, names, err := f.load(s)
	if err != nil {
		return nil, inputRows{}, err
	}
	if err := f.checkModelNames(s, model, rec, names, X, H); err != nil {
		return nil, inputRows{}, err
	}
	return &method.Data{X: X, H: H}, f.rowsOf(X, H), nil
}

// checkModelNames is checkNames for the sample of the model file named
// model, whose column names are rec.
func (f *dataFlags) checkModelNames(s *streams, model string, rec, names sampleNames, X, H *mat.Dense) error {
	return f.checkNames(s, "the features "+model+" was fitted on", "the source scores "+model+" was fitted on", rec, names, X, H)
}

// checkNames compares the column names of the sample's inputs (names) with
// those its columns must have (rec): the columns of a model's training
// sample, or of fit's training sample, which ofX and ofH describe in
// messages. Each of --features and --source-scores is checked apart
// (checkColumnNames); source scores computed from --sources are checked
// against the sources' names (checkSourcesNames).
func (f *dataFlags) checkNames(s *streams, ofX, ofH string, rec, names sampleNames, X, H *mat.Dense) error {
	if err := checkColumnNames(s, f.features, "unnamed-features", ofX, rec.features, names.features, cols(X)); err != nil {
		return err
	}
	if f.scores == "" && f.sources.given() {
		return f.checkSourcesNames(s, ofH, rec.sources, cols(H))
	}
	return checkColumnNames(s, f.scores, "unnamed-source-scores", ofH, rec.sources, names.sources, cols(H))
}

// checkSourcesNames compares the names rec (nil: none) of the n source
// scores a model or fit's training sample had — a --source-scores file's
// header, the user's own names — with the sources of --sources, whose
// scores the sample's are. Names equal to the sources' class names in
// their order agree; the same names in another order are an input error,
// since the scores of --sources come in the sources' order; other names,
// which need not be class names, cannot be checked, which a one-line note
// on standard error says (as predict says of a model fitted with --sources
// and given --source-scores). Other counts are left to the callers' count
// checks.
func (f *dataFlags) checkSourcesNames(s *streams, of string, rec []string, n int) error {
	if rec == nil || len(rec) != n {
		return nil
	}
	ix, _, err := f.sources.load()
	if err != nil {
		return err
	}
	names := indexSourceNames(ix)
	switch {
	case slices.Equal(names, rec):
		return nil
	case sameNames(names, rec):
		return badInputf("--sources %s: %s are its sources in another order (theirs: %s; the sources': %s): --sources computes the scores in the sources' order: give them in theirs with --source-scores",
			f.sources.dir, of, nameList(rec), nameList(names))
	}
	s.note("%s name their columns (%s); the scores --sources %s computes (sources %s) cannot be checked against them",
		of, nameList(rec), f.sources.dir, nameList(names))
	return nil
}

// indexSourceNames returns the class names of the sources of ix, in their
// order (the order of the scores --sources computes).
func indexSourceNames(ix *source.Index) []string {
	names := make([]string, len(ix.Sources))
	for j, e := range ix.Sources {
		names[j] = e.Name
	}
	return names
}

// sameNames reports whether a and b hold the same names, in any order.
func sameNames(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// checkColumnNames compares the column names of the input file path (the
// features or the source scores; names: those of its header, nil: none)
// with those its d columns must have (rec; nil: none), which of describes
// in messages. When both have names of
// the same count and they differ, it returns an input error naming the
// file and the first column that differs, and saying whether the names
// are the same in another order: the columns are not reordered by name,
// as a reorder of the columns (pandas') would have given the model other
// inputs; when only rec has names, it warns (code "unnamed-features" or
// "unnamed-source-scores", unnamed) and goes on, as scikit-learn does, since a
// .npy file or a headerless CSV names no column; names rec lacks (a model
// fitted on unnamed columns, or written before models recorded them) are
// not checked. Other column counts are left to the callers' count checks.
func checkColumnNames(s *streams, path, unnamed, of string, rec, names []string, d int) error {
	switch {
	case rec == nil || len(rec) != d:
		return nil
	case names == nil:
		s.warn(warning{Code: unnamed, Message: fmt.Sprintf("%s name their columns (%s) but %s names none: its columns are taken to be in that order",
			of, nameList(rec), displayName(path))})
		return nil
	}
	j := 0
	for j < d && names[j] == rec[j] {
		j++
	}
	if j == d {
		return nil
	}
	how := "other columns (theirs: %s)"
	if sameNames(names, rec) {
		how = "the same names in another order (reorder the columns as theirs: %s)"
	}
	return badInputf("%s: column %d is named %q where %s have %q: "+how,
		displayName(path), j+1, names[j], of, rec[j], nameList(rec))
}

// nameList lists names for a message (a model's column names, the classes
// of a negative pool), quoted: all of them up to 8, else the first 8 and
// how many more.
func nameList(names []string) string {
	const most = 8
	q := quoteAll(names[:min(len(names), most)])
	if len(names) > most {
		q = append(q, fmt.Sprintf("… %d more", len(names)-most))
	}
	return strings.Join(q, ", ")
}

// rows returns the number of examples in X or H.
func rows(X, H *mat.Dense) int {
	if X != nil {
		return X.RawMatrix().Rows
	}
	if H != nil {
		return H.RawMatrix().Rows
	}
	return 0
}

// inputRows is the number of rows m of a command's inputs, which its
// labels must match, and, for a label count error, the first row of the
// text file they were read from: a header of numbers (wavelengths
// "400,410,…" above the columns, as pandas' to_csv writes them) is read
// as an example.
type inputRows struct {
	m     int
	path  string    // the text input whose first row is first; "" for none
	first []float64 // its first row
	line  firstLine // that row's line, as its reader told it (firsts)
	// yes: the text files whose first line --features-header yes read as
	// a header (displayName), which a label count error names.
	yes []string
	// texts: the inputs read from text files (not standard input), whose
	// skipped blank lines (blankNote) a label count error names.
	texts []string
}

// rowsOf returns the inputRows of X and H, read from f: the first row is
// X's, else H's when read from a text file of source scores.
func (f *dataFlags) rowsOf(X, H *mat.Dense) inputRows {
	r := inputRows{m: rows(X, H)}
	path, first := f.features, X
	if X == nil {
		path, first = f.scores, H
	}
	if f.hintsHeader(path, first) {
		r.path, r.first, r.line = path, first.RawRowView(0), f.firsts[path]
	}
	for _, p := range []string{f.features, f.scores} {
		if p != stdinName && f.isText(p) {
			r.texts = append(r.texts, p)
		}
	}
	if h, _ := f.matrixHeader(); h == dataset.HeaderYes {
		for _, p := range []string{f.features, f.scores} {
			if f.isText(p) {
				r.yes = append(r.yes, displayName(p))
			}
		}
	}
	return r
}

// hintsHeader reports whether A, read from path, is text whose first row
// headerNote may name — a file not named .npy (a gzip file too), or
// standard input that held plain text (stdinText; gzip on standard input
// may be a .npy array) —, read under --features-header auto (yes and no
// said what the line is).
func (f *dataFlags) hintsHeader(path string, A *mat.Dense) bool {
	h, _ := f.matrixHeader()
	return h == dataset.HeaderAuto && A != nil && A.RawMatrix().Rows > 0 && f.isText(path)
}

// isText reports whether the matrix read from path was text, to which
// --features-header applies: a file not named .npy (a gzip file too), or
// standard input that held plain text (stdinText).
func (f *dataFlags) isText(path string) bool {
	if path == stdinName {
		return f.stdinText
	}
	return path != "" && !dataset.NPYName(path)
}

// headerHint returns, under --features-header yes, the note that the
// first line of the inputs' text files was read as column names; else,
// when the inputs have one row more than the n labels and that row came
// from a text file, the note that its first line may be a header of
// numbers, read as an example, and how to drop it.
func (r inputRows) headerHint(n int) string {
	if len(r.yes) > 0 {
		return fmt.Sprintf(" (--features-header yes read the first line of %s as column names, not as an example)", strings.Join(r.yes, " and "))
	}
	if r.m != n+1 || r.first == nil {
		return ""
	}
	return headerNote(r.path, r.first, r.line)
}

// rowPlace names row i (from 0) of the n rows read from the input path
// in the file's own convention: "X.csv:25001" (its line, from 1) for a
// text file, "X.npy row 25000" (from 0) for a .npy file, and for a text
// file read from standard input, whose lines cannot be counted again,
// "<stdin> row 25000 (from 0)".
func (f *dataFlags) rowPlace(path string, i, n int) string {
	name := displayName(path)
	if !f.isText(path) {
		return fmt.Sprintf("%s row %d", name, i)
	}
	if line := dataset.RowLine(path, i, n); line > 0 {
		return fmt.Sprintf("%s:%d", name, line)
	}
	return fmt.Sprintf("%s row %d (from 0)", name, i)
}

// blankHint returns, when the inputs have fewer rows than the n labels,
// the note of the first of their text files that skipped a blank line
// between its rows (blankNote).
func (r inputRows) blankHint(n int) string {
	if r.m >= n {
		return ""
	}
	for _, p := range r.texts {
		if note := blankNote(p); note != "" {
			return note
		}
	}
	return ""
}

// blankNote returns, when the text matrix file path has blank lines
// between its rows, which reading it skipped (dataset.SkippedBlankLines),
// the note that names the first: a row missing there would explain a
// count of rows fewer than another input's. It returns "" when there are
// none.
func blankNote(path string) string {
	b, n := dataset.SkippedBlankLines(path)
	if b == 0 {
		return ""
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(", and %d more places between its rows,", n-1)
	}
	return fmt.Sprintf(" (line %d of %s%s is blank and was skipped, not read as a row: is a row missing there? write it, or delete the line)", b, displayName(path), more)
}

// rangeHeader returns the line of the text matrix file path (or standard
// input) that --features-header auto read as pandas' column names 0, 1,
// …, n−1 and dropped, as its reader told it when it read it (ranges), and
// those names as the note writes them ("0,1,2", "0,1,2,…,783"); 0 and ""
// when none was.
func (f *dataFlags) rangeHeader(path string) (int, string) {
	r := f.ranges[path]
	line, n := r[0], r[1]
	if line == 0 {
		return 0, ""
	}
	if n <= 4 {
		names := make([]string, n)
		for j := range names {
			names[j] = strconv.Itoa(j)
		}
		return line, strings.Join(names, ",")
	}
	return line, fmt.Sprintf("0,1,2,…,%d", n-1)
}

// rangeHint is the note of a row count error that the first line of the
// text matrix file path was read as pandas' column names (rangeHeader),
// not as a row; "" when it was not.
func (f *dataFlags) rangeHint(path string) string {
	line, names := f.rangeHeader(path)
	if line == 0 {
		return ""
	}
	return fmt.Sprintf(" (line %d of %s, %s, was read as pandas' column names, not as a row: --features-header no reads it as data)", line, displayName(path), names)
}

// noteRangeHeaders prints, once per file, the note that --features-header
// auto read the first line of the sample's text matrix file (--features',
// --source-scores') as pandas' column names 0, 1, …, n−1 and dropped it
// (rangeHeader: its reader recorded the line as it dropped it, and only a
// file read has one): a first row of data that reads so would be lost
// unseen (predict printed one score fewer than the rows). Callers call it
// once the sample is read.
func (f *dataFlags) noteRangeHeaders(s *streams) {
	for _, path := range []string{f.features, f.scores} {
		line, names := f.rangeHeader(path)
		if line == 0 {
			continue
		}
		if f.matrixSettings != nil {
			if f.rangeNoted[path] {
				continue
			}
			if f.rangeNoted == nil {
				f.rangeNoted = map[string]bool{}
			}
			f.rangeNoted[path] = true
		}
		s.note("%s: line %d (%s) was read as pandas' column names, not as a row; --features-header no reads it as data", displayName(path), line, names)
	}
}

// headerNote is the note that the first line of the text file path, read
// as the row first, may be a header of numbers, and how to drop it. It
// quotes the line as written (line, its reader's record; first's values
// when there is none), and offers --features-header yes only for a line
// that flag reads as a header: a line of decimals, every value written
// with a point or an exponent as data is ("400.5,401.0,…": wavelengths
// that pandas writes as column names), it refuses as a row
// (dataset.ErrFirstLineData), since it reads the first line of every text
// file given as a header, and taking such a line for one would lose a row
// of data unseen in a file that has none; so for that line the note says
// to drop it.
func headerNote(path string, first []float64, line firstLine) string {
	const most = 3
	vals := line.values // as written
	if vals == nil {
		for _, v := range first[:min(len(first), most+1)] {
			vals = append(vals, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	if len(vals) > most {
		vals = append(vals[:most:most], "…")
	}
	name := displayName(path)
	drop := fmt.Sprintf("drop the line (tail -n +2 %s > new.csv) or ", name)
	if st, err := os.Stat(path); path == stdinName || strings.HasSuffix(path, ".gz") || err != nil || !st.Mode().IsRegular() {
		drop = "" // tail -n +2 reads no stream already read (standard input, a FIFO: <(…)), nor gzip
	}
	how := "greedytl reads a header of numbers as data: --features-header yes reads it as a header; or "
	if line.decimals {
		how = "greedytl reads a line of decimals as data, and --features-header yes refuses it as a header: "
	}
	return fmt.Sprintf(" (if the first line of %s, %q, is a header of column names, not an example: %s%swrite the file without it (pandas: to_csv(path, index=False, header=False)))", name, strings.Join(vals, ","), how, drop)
}

// loadLabels reads binary labels (two classes, or --positive against the
// rest) and checks their count against the inputs' rows, which decide a
// first line the values leave open (labelsForRows).
func (f *dataFlags) loadLabels(s *streams, rows inputRows) ([]float64, error) {
	cls, err := f.readLabelFile(s, f.labels)
	if err != nil {
		return nil, err
	}
	if cls, err = f.labelsForRows(s, cls, rows); err != nil {
		return nil, err
	}
	y, _, _, err := cls.Binary(f.positive)
	if err != nil {
		return nil, badInput(err)
	}
	if len(y) != rows.m {
		return nil, labelCountError(f.labels, cls, rows)
	}
	return y, nil
}

// labelCountError is the input error for the label file path whose labels
// cls are not one per row of the inputs; it says when the file's first
// line was read as a header (not a label), which --labels-header no
// changes unless it is blank (a label never is), when it could be one
// (headerHint), when the inputs' first line could be one
// (inputRows.headerHint), and, when there are as many lines that hold no
// label as labels are missing (dataset.Classes.GapLines), the first blank
// line and the first comment line.
func labelCountError(path string, cls *dataset.Classes, rows inputRows) error {
	m := rows.m
	msg := fmt.Sprintf("%s has %s but the inputs have %s", displayName(path), plural.Count(len(cls.Y), "label", "labels"), plural.Count(m, "row", "rows"))
	if h, ok := cls.Header(); ok && strings.TrimSpace(h) == "" {
		msg += fmt.Sprintf(" (its first line, %q, was read as a header: a blank line holds no label)", h)
	} else if ok {
		msg += fmt.Sprintf(" (its first line, %q, was read as a header: --labels-header no reads it as a label)", h)
	} else {
		msg += headerHint(cls, m)
	}
	msg += rows.headerHint(len(cls.Y))
	msg += rows.blankHint(len(cls.Y))
	// The lines that hold no label explain labels fewer than the rows
	// only when there are as many of them as labels are missing.
	gaps := len(cls.Y) < m && m-len(cls.Y) <= cls.GapLines()
	if b, at := cls.BlankLine(); b > 0 && gaps {
		msg += fmt.Sprintf(" (line %d, %s, is blank and holds none: a missing label, as pandas' to_csv writes NaN? give only the examples that have a label)", b, at)
	}
	if c, at := cls.CommentLine(); c > 0 && gaps {
		msg += fmt.Sprintf(` (line %d, %s, starts with '#' and is read as a comment: a label that starts with '#' is written quoted, "#tag")`, c, at)
	}
	return badInputf("%s", msg)
}

// headerHint returns, for the labels cls of a text file that has one label
// more than the m rows and whose first line was read as a label, the note
// that --labels-header yes reads that line as a header when it could be
// one that auto could not tell from a class: a value that occurs nowhere
// else ("species" above three classes of names), or "0", the name pandas'
// to_csv(path, index=False) writes above an unnamed Series (of labels 0
// and 1 too, where "0" is a class). Otherwise, and for a .npy file, which
// has no header, it returns "".
func headerHint(cls *dataset.Classes, m int) string {
	if len(cls.Y) != m+1 || !cls.FirstMayBeHeader() {
		return ""
	}
	first := cls.Names[cls.Y[0]]
	if slices.Contains(cls.Y[1:], cls.Y[0]) { // "0", a class too
		return ` (if its first line, "0", is a header, as pandas' to_csv writes above an unnamed Series: --labels-header yes)`
	}
	return fmt.Sprintf(" (if its first line, %q, is a header: --labels-header yes)", first)
}

// labelsForRows returns the labels cls of the --labels file read again
// knowing rows.m, the examples they label (dataset.Classes.ReadForRows):
// under --labels-header auto the count says whether the first line is a
// label (m lines of labels) or a header (m + 1, the first one that could
// be a header), where the values alone could not. When the count reads
// the first line otherwise than the values did it notes which reading it
// took, and the flag that says the other; a count that neither reading
// matches is left to the caller's count error.
func (f *dataFlags) labelsForRows(s *streams, cls *dataset.Classes, rows inputRows) (*dataset.Classes, error) {
	n, err := cls.ReadForRows(rows.m)
	if err != nil {
		return nil, badInput(err)
	}
	if n == cls {
		return cls, nil
	}
	name, rowCount := displayName(f.labels), plural.Count(rows.m, "row", "rows")
	if h, ok := n.Header(); ok {
		s.note("%s: its first line, %q, was read as a header, not a label: the file has one label per row of the inputs (%s) below it; --labels-header no reads it as a label", name, h, rowCount)
	} else {
		s.note("%s: its first line, %q, was read as a label, not a header: the file has one label per row of the inputs (%s) with it; --labels-header yes reads it as a header", name, n.Names[n.Y[0]], rowCount)
	}
	return n, nil
}

// lambdaValue is the --lambda flag: a number or "auto". Its range is
// greedytl.Options.Set's, checked as the other GreedyTL flags' are
// (fitOptions.spec), so that --lambda takes what lambda= in --method takes.
type lambdaValue struct {
	v     float64
	auto  bool
	typed string // the text it was last set from (typedText)
}

func (l *lambdaValue) typedText() string { return l.typed }

func (l *lambdaValue) String() string {
	if l.auto {
		return "auto"
	}
	return strconv.FormatFloat(l.v, 'g', -1, 64)
}

func (l *lambdaValue) Set(s string) error {
	if modelfile.IsAuto(s) {
		l.auto, l.typed = true, s
		return nil
	}
	v, err := parseNumber(s, numberKind{one: "a positive number or auto"})
	if err != nil {
		return err
	}
	l.v, l.auto, l.typed = v, false, s
	return nil
}

func (l *lambdaValue) Type() string { return "float|auto" }

// openModel opens the model file path for reading, or with "-" the
// command's standard input (which messages name <stdin>, displayName);
// closeModel releases it. Its errors are input errors naming the file. A
// byte-order mark is left for the model readers to skip (internal/bom).
func openModel(s *streams, path string) (r *bufio.Reader, closeModel func(), err error) {
	if r, ok := s.stdin(path); ok {
		return bufio.NewReader(r), func() {}, nil
	}
	f, err := os.Open(path) // never "": the flag and argument checks refuse it (root.go)
	if err != nil {
		return nil, nil, badInputf("%s: %w", path, fileerr.Reason(err))
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, nil, badInputf("%s is a directory: give a model file", path)
	}
	return bufio.NewReader(f), func() { f.Close() }, nil
}

// modelHead returns the start of the model r, reading nothing from r: its
// first bytes after the byte-order mark that the model readers skip
// (internal/bom) and blank space. A second mark, which no reader skips, and
// UTF-16 text are input errors naming the file (name, displayName).
func modelHead(name string, r *bufio.Reader) ([]byte, error) {
	head, _ := r.Peek(64)
	if err := bom.CheckUTF16(head); err != nil {
		return nil, badInputf("%s: %w", name, err)
	}
	head = bom.Trim(head)
	if bytes.HasPrefix(head, []byte(bom.Mark)) {
		return nil, badInputf("%s starts with two byte-order marks (EF BB BF): a model file may start with one, which is skipped", name)
	}
	return bytes.TrimLeft(head, " \t\r\n"), nil
}

// opensAsModel reports whether head, the start of a JSON file
// (modelHead), opens with the member "format": "greedytl-model", as every
// model file greedytl writes does: then it is no other file greedytl
// writes (otherFile), whose format is another or absent.
func opensAsModel(head []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(head))
	for _, want := range []json.Token{json.Delim('{'), "format", modelfile.Format} {
		if tok, err := dec.Token(); err != nil || tok != want {
			return false
		}
	}
	return true
}

// readAnyModel decodes a model file written by greedytl fit, binary or
// multi-class, from r, whose start modelHead returned as head; name names
// it in messages (displayName).
func readAnyModel(name string, r *bufio.Reader, head []byte) (method.File, error) {
	if b, _ := r.Peek(1); len(b) == 0 {
		// method.Read said "the model is empty: EOF", naming no file.
		return method.File{}, badInputf("%s is empty: no model in it", name)
	}
	switch {
	case source.IsLiblinearModel(head):
		return method.File{}, badInputf("%s is a liblinear model file: inspect reads the JSON models of greedytl fit (predict reads both)", name)
	case bytes.HasPrefix(head, []byte("svm_type")):
		// LIBSVM's svm-train, which liblinear's users have beside it.
		return method.File{}, badInputf("%s is a LIBSVM model (svm-train's, of support vectors), not liblinear's: greedytl reads the JSON models of greedytl fit and, in predict, liblinear's model files (liblinear-train, greedytl train)", name)
	case len(head) > 0 && head[0] != '{':
		return method.File{}, badInputf("%s is not a greedytl model (JSON) file", name)
	}
	// What method.Read read, for otherFile, when the file may be another
	// greedytl file: a file that opens as a model file does (as greedytl
	// writes every model) is none, and is not copied (a big model is held
	// once).
	var read bytes.Buffer
	in := io.Reader(r)
	if !opensAsModel(head) {
		in = io.TeeReader(r, &read)
	}
	mf, err := method.Read(in)
	if err != nil {
		if what := otherFile(read.Bytes()); what != "" {
			return method.File{}, badInputf("%s %s", name, what)
		}
	}
	if errors.Is(err, io.EOF) {
		// No JSON value at all: white space, perhaps after a byte-order
		// mark (a truncated value is io.ErrUnexpectedEOF). method.Read
		// said "the model is empty: EOF".
		return method.File{}, badInputf("%s holds only white space: no model in it", name)
	}
	if err != nil {
		return method.File{}, badInputf("%s: %w", name, err)
	}
	return mf, nil
}

// readLabelFile reads the classes of the label file path, or with "-" of
// the command's standard input, as --labels-header says; its errors are
// input errors.
func (f *dataFlags) readLabelFile(s *streams, path string) (*dataset.Classes, error) {
	h, err := dataset.ParseHeaderRule(f.header)
	if err != nil {
		return nil, badInputf("--labels-header: %v", err)
	}
	if path == "" {
		return nil, badInputf("--%slabels names no file: give the label file", f.prefix)
	}
	var cls *dataset.Classes
	if r, ok := s.stdin(path); ok {
		cls, err = dataset.DecodeClassesHeader(r, displayName(path), h)
	} else {
		cls, err = dataset.ReadClassesHeader(path, h)
	}
	if err != nil {
		return nil, badInput(err)
	}
	if err := f.checkHeaderApplies(h, displayName(path), cls); err != nil {
		return nil, err
	}
	return cls, nil
}

// readLabelsFor reads the --labels file (readLabelFile) of a model whose
// classes are known: its first line, one of them, is a label, never a
// header (dataset.Classes.ReadFor); its errors are input errors.
func (f *dataFlags) readLabelsFor(s *streams, known *dataset.Classes) (*dataset.Classes, error) {
	cls, err := f.readLabelFile(s, f.labels)
	if err != nil {
		return nil, err
	}
	if cls, err = cls.ReadFor(known); err != nil {
		return nil, badInput(err)
	}
	return cls, nil
}
