package source

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/bom"
	"github.com/greedytl/greedytl/internal/filedigest"
	"github.com/greedytl/greedytl/internal/fileerr"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/standardize"
)

// Names in a sources directory.
const (
	// IndexFile is the index of a sources directory.
	IndexFile = "sources.json"
	// IndexVersion is the version of the index format this package writes
	// and reads.
	IndexVersion = 1
	// modelDir holds the model files and their sidecar records.
	modelDir = "models"
)

// Index is the content of a sources directory's index file, sources.json:
// what was trained, from what, and how. It records no timings, so the
// same job always writes the same bytes. Its methods with an error result
// return one for a nil *Index; ID, Identity, Warnings and Differences
// given a record, which have none, panic on it, as on any nil pointer
// (Differences(nil) does not: it reports the missing record).
type Index struct {
	// Version is IndexVersion.
	Version int `json:"version"`
	// Dataset is the dataset folder as given to TrainAll; DataSHA256 is a
	// digest of its features, labels and class names (see TrainAll).
	Dataset    string `json:"dataset"`
	DataSHA256 string `json:"data_sha256"`
	// NumFeatures is the number of feature columns of the dataset.
	NumFeatures int `json:"num_features"`
	// Classes lists all the dataset's class names, in class order.
	Classes []string `json:"classes"`
	// Negatives is the negative pool the sources were trained against;
	// its Target rows are those reserved for the targets.
	Negatives *Negatives `json:"negatives"`
	// Solver is the learner's liblinear name; Bias, Eps, Grid, Folds and
	// Seed are the rest of the TrainConfig.
	Solver string    `json:"solver"`
	Bias   float64   `json:"bias"`
	Eps    float64   `json:"eps"`
	Grid   []float64 `json:"c_grid"`
	Folds  int       `json:"folds"`
	Seed   uint64    `json:"seed"`

	L1Ratio float64 `json:"l1_ratio,omitempty"` // the TrainConfig's; absent but for ELASTICNET_LR

	// Sources lists the trained sources in class order; LoadDir returns
	// them in this order.
	Sources []Entry `json:"sources"`
	// Missing names the classes that should have a source but have no
	// valid model yet (other shards' classes, while those run).
	Missing []string `json:"missing,omitempty"`
}

// Entry is one source of an Index: its Info (the record of its training,
// without the timing, so that the same job always writes the same index)
// and its model file.
type Entry struct {
	Info
	// File is the liblinear model file, relative to the directory;
	// SHA256 is the hex digest of its bytes.
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// ScoreScales returns the score statistics (Info.Scores) of the sources
// at positions sources of ix.Sources, in that order, as a scaler of their
// scores (mean, and standard deviation as the scale): what greedytl-nway
// standardises those sources' scores with (method.Extra.SourceScales). It
// returns nil when one of them has none (an index written before they
// were recorded, or resumed from one). A source whose scores were constant
// over its training rows (standardize.Constant: a spread of rounding
// alone) gets the scale 0, which standardises its column to 0, as
// standardize.Fit does for a constant column.
func (ix *Index) ScoreScales(sources []int) *standardize.Scaler {
	sc := &standardize.Scaler{Mean: make([]float64, 0, len(sources)), Scale: make([]float64, 0, len(sources))}
	for _, j := range sources {
		st := ix.Sources[j].Scores
		if st == nil {
			return nil
		}
		scale := st.Std
		if standardize.Constant(st.Mean, st.Std) {
			scale = 0
		}
		sc.Mean, sc.Scale = append(sc.Mean, st.Mean), append(sc.Scale, scale)
	}
	return sc
}

// capWarning returns, when the final fits of some sources did not
// converge (Entry.Converged false), a sentence saying how many stopped at
// the solver's iteration cap, how many short of it numerically stuck
// (Entry.Stuck), and where their record is (index: the path of the index
// file); "" when every source converged. What train-sources and experiment
// print, through Warnings.
func (ix *Index) capWarning(index string) string {
	capped, stuck := 0, 0
	for _, e := range ix.Sources {
		switch {
		case e.Converged:
		case e.Stuck:
			stuck++
		default:
			capped++
		}
	}
	of := "of " + plural.Count(len(ix.Sources), "source", "sources")
	switch {
	case stuck == 0 && capped == 0:
		return ""
	case stuck == 0:
		return fmt.Sprintf("%d %s stopped at the %s solver's iteration cap (see the converged field of %s)", capped, of, ix.Solver, index)
	case capped == 0:
		return fmt.Sprintf("%d %s stopped numerically stuck, short of the %s solver's iteration cap: no further progress was possible (see the converged and stuck fields of %s)", stuck, of, ix.Solver, index)
	}
	return fmt.Sprintf("%d %s stopped at the %s solver's iteration cap, and %d numerically stuck short of it (see the converged and stuck fields of %s)", capped, of, ix.Solver, stuck, index)
}

// singleExampleWarning returns, when some sources were trained on a class
// with a single example (Entry.Positives 1), a sentence naming them (up to
// five) and saying that their C and cv_score (in index, the path of the
// index file) measure nothing, with the names of all of them; "" and nil
// when every source's class had at least two examples. Cross-validation
// tests such a class's one example only in the fold whose fit was trained
// without it, on negatives alone, so its cv_score (0.5 or less, or by
// chance more) does not measure the source and its C is not chosen on
// evidence. The source itself is trained, on that example and the source
// negatives, and used as any other. Warnings gives it, with its code.
func (ix *Index) singleExampleWarning(index string) (string, []string) {
	var names []string
	for _, e := range ix.Sources {
		if e.Positives == 1 {
			names = append(names, e.Name)
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	n := len(names)
	them, their := plural.Word(n, "it", "them"), plural.Word(n, "its", "their")
	return fmt.Sprintf("%d of %s %s trained on a class with a single example (%s): cross-validation cannot score %s (%s one example is tested only by a fit trained without it, on negatives alone), so %s cv_score in %s measures nothing and %s C was not chosen on evidence; give such classes more examples, or leave them out of the data",
		n, plural.Count(len(ix.Sources), "source", "sources"), plural.Word(n, "was", "were"), quoteNames(names), them, their, their, index, their), names
}

// noExamplesWarning returns, when classes of ix.Classes have no examples
// (neither a source, nor held out as negatives, nor missing: a class that
// no label uses, which TrainAll skips), a sentence naming them (up to
// five) with the names of all of them; "" and nil otherwise. Warnings
// gives it, with its code.
func (ix *Index) noExamplesWarning() (string, []string) {
	has := make([]bool, len(ix.Classes))
	for _, e := range ix.Sources {
		has[e.Class] = true
	}
	var names []string
	for c, name := range ix.Classes {
		if !has[c] && (ix.Negatives == nil || !ix.Negatives.IsHeldOut(c)) && !slices.Contains(ix.Missing, name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	return fmt.Sprintf("%d of the %s of classes.txt %s no examples in labels.npy, and so no source (%s); is classes.txt the labels' list?",
		len(names), plural.Count(len(ix.Classes), "class", "classes"), plural.Word(len(names), "has", "have"), quoteNames(names)), names
}

// leaveOneOutWarning returns, when sources had fewer examples (positives
// and source negatives) than ix.Folds, a sentence saying that their C was
// chosen with as many folds as examples, leave-one-out, as liblinear-train
// does with more folds than examples, naming them (up to five) with the
// names of all of them; "" and nil otherwise. The index records the folds
// asked for. Warnings gives it, with its code.
func (ix *Index) leaveOneOutWarning() (string, []string) {
	var names []string
	fewest := 0
	for _, e := range ix.Sources {
		if n := e.Positives + e.Negatives; n < ix.Folds {
			names = append(names, e.Name)
			if fewest == 0 || n < fewest {
				fewest = n
			}
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	n := len(names)
	return fmt.Sprintf("%d of %s had fewer examples than the %d folds asked for (%s; the fewest %d): %s C was chosen with as many folds as examples, leave-one-out cross-validation, as liblinear-train does",
		n, plural.Count(len(ix.Sources), "source", "sources"), ix.Folds, quoteNames(names), fewest, plural.Word(n, "its", "their")), names
}

// quoteNames returns the first five of names quoted, joined by commas,
// and "…" after them when there are more.
func quoteNames(names []string) string {
	quoted := make([]string, 0, 6)
	for _, n := range names[:min(5, len(names))] {
		quoted = append(quoted, fmt.Sprintf("%q", n))
	}
	if len(names) > 5 {
		quoted = append(quoted, "…")
	}
	return strings.Join(quoted, ", ")
}

// The codes of the warnings about a sources directory (Warning.Code):
// words that programs match, which stay when a message is reworded.
const (
	// WarnNotConverged is the code of the warning that the final fits
	// of sources did not converge (stopped at the iteration cap or stuck).
	// method.WarnNotConverged, the code of a fit's report of the same
	// kind, is defined as this word, so that a program matches both alike.
	WarnNotConverged = "not-converged"
	// WarnSingleExample is the code of the warning that sources were
	// trained on a class with a single example.
	WarnSingleExample = "single-example"
	// WarnNoExamples is the code of the warning that classes of the
	// dataset have no examples, and so no source.
	WarnNoExamples = "no-examples"
	// WarnLeaveOneOut is the code of the warning that sources had fewer
	// examples than the folds asked for, and were cross-validated
	// leave-one-out.
	WarnLeaveOneOut = "leave-one-out"
)

// Warning is a warning about a sources directory, as train-sources and
// experiment give it: its code (WarnNotConverged, WarnSingleExample,
// WarnLeaveOneOut, WarnNoExamples), the
// sentence, and the classes it is about (by name; nil when none).
type Warning struct {
	Code    string
	Message string
	Classes []string
}

// Warnings returns the warnings about the sources of ix, whose index file
// is index: how many sources stopped at the solver's iteration cap or
// numerically stuck (WarnNotConverged), then which were trained on a class
// with a single example, whose C and cv_score measure nothing
// (WarnSingleExample, with their classes), which had fewer examples than
// the folds and were cross-validated leave-one-out (WarnLeaveOneOut), and
// which classes have no examples and so no source (WarnNoExamples), each
// when it applies; none when every source converged on a class of two
// examples or more, every class has examples and the folds are at most
// the examples. What train-sources and experiment print.
func (ix *Index) Warnings(index string) []Warning {
	var ws []Warning
	if w := ix.capWarning(index); w != "" {
		ws = append(ws, Warning{Code: WarnNotConverged, Message: w})
	}
	if w, names := ix.singleExampleWarning(index); w != "" {
		ws = append(ws, Warning{Code: WarnSingleExample, Message: w, Classes: names})
	}
	if w, names := ix.leaveOneOutWarning(); w != "" {
		ws = append(ws, Warning{Code: WarnLeaveOneOut, Message: w, Classes: names})
	}
	if w, names := ix.noExamplesWarning(); w != "" {
		ws = append(ws, Warning{Code: WarnNoExamples, Message: w, Classes: names})
	}
	return ws
}

// Config returns the TrainConfig the index records, and an error for a
// nil ix or a solver it does not know.
func (ix *Index) Config() (TrainConfig, error) {
	if ix == nil {
		return TrainConfig{}, errNoIndex
	}
	s, err := linear.ParseSolver(ix.Solver)
	if err != nil {
		return TrainConfig{}, err
	}
	return TrainConfig{Solver: s, Bias: ix.Bias, Eps: ix.Eps, Grid: ix.Grid, Folds: ix.Folds, Seed: ix.Seed, L1Ratio: ix.L1Ratio}, nil
}

// CheckData returns an error unless f is the dataset the index was made
// from: the same features, labels and class names (by digest; the folder
// may have moved), a source for every class that should have one, and a
// negative plan that fits it (an error, too, for a nil ix or f). Use it
// before taking the index's target negatives for f's targets.
func (ix *Index) CheckData(f *dataset.Folder) error {
	if ix == nil {
		return errNoIndex
	}
	digest, err := DataDigest(f)
	if err != nil {
		return err
	}
	return ix.CheckDigest(f, digest)
}

// CheckDigest is CheckData for a caller that has f's DataDigest already
// (package experiment records it in its manifest).
func (ix *Index) CheckDigest(f *dataset.Folder, digest string) error {
	switch {
	case ix == nil:
		return errNoIndex
	case f == nil:
		return errNoFolder
	case !slices.Equal(ix.Classes, f.Classes):
		return ix.otherData(f, classDifference(f.Classes, ix.Classes))
	case digest != ix.DataSHA256:
		return ix.otherData(f, "its content differs")
	}
	if err := ix.checkComplete(); err != nil {
		return err
	}
	return ix.Negatives.Check(f)
}

// errNoIndex is the error of Index's methods with an error result on a
// nil *Index.
var errNoIndex = errors.New("source: no sources index (nil *Index)")

// otherData returns CheckDigest's error for a folder f that is not the data
// the sources were trained on, why saying how it differs. It names the
// index's dataset folder only when it is not f's (the usual case is the
// same folder, changed since).
func (ix *Index) otherData(f *dataset.Folder, why string) error {
	if filepath.Clean(f.Dir) == filepath.Clean(ix.Dataset) {
		return fmt.Errorf("source: dataset %s has changed since the sources were trained on it: %s", f.Dir, why)
	}
	return fmt.Errorf("source: dataset %s is not the one the sources were trained on (%s): %s", f.Dir, ix.Dataset, why)
}

// classDifference says how have, the dataset's class names, differ from
// was, the sources' (the two are not equal): their numbers, or the first
// class whose name differs.
func classDifference(have, was []string) string {
	if len(have) != len(was) {
		return fmt.Sprintf("it has %s, where the sources were trained on %d", plural.Count(len(have), "class", "classes"), len(was))
	}
	i := 0
	for have[i] == was[i] {
		i++
	}
	return fmt.Sprintf("its class %d (line %d of classes.txt) is %q, where the sources' is %q", i, i+1, have[i], was[i])
}

// checkComplete returns an error when the index names classes that have no
// model yet (Missing: a sharded train-sources whose other shards have not
// finished, or a run stopped before the end) or lists no sources: scores
// computed from such a directory would lack the missing classes' columns,
// so Load and LoadDir refuse it.
func (ix *Index) checkComplete() error {
	switch {
	case len(ix.Missing) > 0:
		first := ix.Missing[0]
		if len(ix.Missing) > 1 {
			first += ", …"
		}
		return fmt.Errorf("source: the sources are incomplete: %s (%s) %s no model yet; finish train-sources first", plural.Count(len(ix.Missing), "class", "classes"), first, plural.Word(len(ix.Missing), "has", "have"))
	case len(ix.Sources) == 0:
		return errors.New("source: the index lists no sources")
	}
	return nil
}

// ReadIndex reads and validates the index of the sources directory dir. It
// returns an error when the file is missing or malformed, has another
// version, or is inconsistent: a missing negative plan, an entry whose
// class is out of range, repeated or named differently from the class list,
// or whose file is not a plain path inside dir or is another entry's.
//
// A directory that holds source models but no index is a train-sources run
// stopped before it wrote its index, which it writes only when its classes
// are all done (killed, or stopped by a signal: TrainAll writes no index
// when ctx is done); the error says so and that running it again finishes
// it, and still matches fs.ErrNotExist; but when its models folder (or dir
// itself, holding a liblinear model) holds files and none of the records
// train-sources writes beside its models, they are the user's own, and the
// error (matching fs.ErrNotExist) says that --sources takes a
// train-sources directory and own models' scores go to --source-scores.
// Of a directory that does not
// exist, or holds neither an index nor models, or of a file, the error says
// that dir is not a sources directory and how to make one (train-sources),
// or which directory is one when dir is the models folder of one or holds
// one (an experiment run), or is the index file itself; the first two
// match fs.ErrNotExist too.
func ReadIndex(dir string) (*Index, error) {
	ix, err := jsonfile.Read(filepath.Join(dir, IndexFile), "index object", (*Index).check)
	if err == nil {
		return ix, nil
	}
	makeOne := "train-sources makes one: greedytl train-sources --data DATA --out " + dir
	st, serr := os.Stat(dir)
	switch {
	case serr != nil:
		return nil, fmt.Errorf("sources directory %s: %w (%s)", dir, fileerr.Reason(serr), makeOne)
	case !st.IsDir() && filepath.Base(dir) == IndexFile:
		return nil, fmt.Errorf("%s is the index of a sources directory: give the directory, %s", dir, filepath.Dir(dir))
	case !st.IsDir():
		return nil, fmt.Errorf("%s is a file, not a sources directory (%s)", dir, makeOne)
	case !errors.Is(err, os.ErrNotExist):
		// A member Index has no field for is one a newer greedytl writes:
		// say so, and where it is (jsonfile's error names it).
		if um := (*jsonfile.UnknownMemberError)(nil); errors.As(err, &um) {
			in := ""
			if um.In != "" {
				in = " of " + um.In
			}
			return nil, fmt.Errorf("%s: member %q%s is unknown to this greedytl: the directory was written by a newer greedytl (or the file was edited); upgrade greedytl to read it", filepath.Join(dir, IndexFile), um.Name, in)
		}
		return nil, err
	}
	own := ""
	if st, serr := os.Stat(filepath.Join(dir, modelDir)); serr == nil && st.IsDir() {
		if !ownModels(filepath.Join(dir, modelDir)) {
			return nil, fmt.Errorf("%w: %s holds source models but no index, which train-sources writes last: a run stopped before the end, killed or interrupted (run the same train-sources again to finish it)", err, dir)
		}
		own = filepath.Join(dir, modelDir)
	} else if ownModels(dir) && holdsLiblinearModel(dir) {
		own = dir // --sources DIR/models: the folder of models itself
	}
	if own != "" {
		return nil, fmt.Errorf("%s is not a sources directory (%s: %w): the models in %s are models of your own, without the records train-sources writes beside each model. --sources takes a directory train-sources made (%s); for models of your own (liblinear's), give their scores with --source-scores instead, a column a model (greedytl predict --model MODEL --features X prints one; paste them side by side), or, if a train-sources run stopped before its first model was done, run it again", dir, IndexFile, fileerr.Reason(err), own, makeOne)
	}
	if near := nearbyIndex(dir); near != "" {
		return nil, fmt.Errorf("%s is not a sources directory (%s: %w): %s is one: give that", dir, IndexFile, fileerr.Reason(err), near)
	}
	return nil, fmt.Errorf("%s is not a sources directory (%s: %w): %s", dir, IndexFile, fileerr.Reason(err), makeOne)
}

// holdsLiblinearModel reports whether the folder dir holds a file that
// opens as a liblinear model file does (IsLiblinearModel).
func holdsLiblinearModel(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		head := make([]byte, LiblinearHead)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if IsLiblinearModel(head[:n]) {
			return true
		}
	}
	return false
}

// LiblinearHead is the bytes of a file's start that IsLiblinearModel
// needs to tell a liblinear model file: a byte-order mark, some blank
// space and "solver_type".
const LiblinearHead = 64

// IsLiblinearModel reports whether head, the start of a file (its first
// LiblinearHead bytes, or all of a shorter file), is that of a liblinear
// model file (liblinear-train's, greedytl train's, a source model): after
// a UTF-8 byte-order mark, which the model readers skip (internal/bom),
// and blank space, "solver_type", its first key. It is the one test of
// it: predict's of its --model (a liblinear model, not a JSON one) and
// ReadIndex's of a folder of the user's own models.
func IsLiblinearModel(head []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(bom.Trim(head), " \t\r\n"), []byte("solver_type"))
}

// ownModels reports whether the models folder models holds files but
// none of the sidecar records (sidecarExt) train-sources writes beside each
// model it trains: models of the user's own, not a stopped run's.
func ownModels(models string) bool {
	entries, err := os.ReadDir(models)
	if err != nil || len(entries) == 0 {
		return false
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), sidecarExt) {
			return false
		}
	}
	return true
}

// nearbyIndex returns the sources directory that dir, which holds no
// index, was likely meant for: the directory above it when dir is its
// models folder, or a subdirectory of dir that holds an index (an
// experiment run's RUN/sources), when there is just one; "" otherwise.
// ReadIndex points there rather than at train-sources, which would train
// another set of sources into dir.
func nearbyIndex(dir string) string {
	if filepath.Base(filepath.Clean(dir)) == modelDir {
		if up := filepath.Dir(filepath.Clean(dir)); isFile(filepath.Join(up, IndexFile)) {
			return up
		}
	}
	found, _ := filepath.Glob(filepath.Join(dir, "*", IndexFile))
	found = slices.DeleteFunc(found, func(p string) bool { return !isFile(p) })
	if len(found) == 1 {
		return filepath.Dir(found[0])
	}
	return ""
}

// isFile reports whether path is a regular file (following links).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// check validates an index read from a file.
func (ix *Index) check() error {
	if ix.Version != IndexVersion {
		return fmt.Errorf("index version %d, this greedytl reads version %d", ix.Version, IndexVersion)
	}
	if ix.Negatives == nil {
		return errors.New("index has no negative plan")
	}
	if _, err := ix.Config(); err != nil {
		return err
	}
	seen := make(map[int]bool, len(ix.Sources))
	files := make(map[string]string, len(ix.Sources)) // cleaned file → its source's name
	for _, e := range ix.Sources {
		if e.Class < 0 || e.Class >= len(ix.Classes) {
			return fmt.Errorf("source %q: class %d out of range: the index lists %d classes", e.Name, e.Class, len(ix.Classes))
		}
		if ix.Classes[e.Class] != e.Name {
			return fmt.Errorf("source %q: class %d is named %q", e.Name, e.Class, ix.Classes[e.Class])
		}
		if seen[e.Class] {
			return fmt.Errorf("source %q listed twice", e.Name)
		}
		seen[e.Class] = true
		if err := e.Info.check(); err != nil {
			return err
		}
		if !filepath.IsLocal(filepath.FromSlash(e.File)) || strings.Contains(e.File, `\`) {
			return fmt.Errorf("source %q: file %q is not a path inside the directory", e.Name, e.File)
		}
		// Two sources of one model file would be one classifier scored
		// twice, under two classes' names.
		f := path.Clean(e.File)
		if other, ok := files[f]; ok {
			return fmt.Errorf("source %q: file %q is source %q's too: each source needs its own model file", e.Name, e.File, other)
		}
		files[f] = e.Name
	}
	return nil
}

// LoadDir reads the sources directory dir written by TrainAll: the models
// listed in its index, in the index's order (class order), named by their
// classes. Each model file's SHA-256 digest must match the index's, so a
// corrupted or replaced file is an error rather than a silently different
// source.
//
// It returns ReadIndex's errors, an error naming the index when the
// directory is incomplete (a shard's part of the sources, or no sources),
// and an error naming the file of a listed model that is missing, altered,
// unreadable or a model of more features than the index's NumFeatures.
func LoadDir(dir string) (*Set, error) {
	ix, err := ReadIndex(dir)
	if err != nil {
		return nil, err
	}
	return ix.Load(dir)
}

// Load reads the models that ix, the index of the sources directory dir
// (ReadIndex, or a Result of TrainAll), lists, as LoadDir does: a caller
// that has read the index already reads it only once. It returns LoadDir's
// errors but those of ReadIndex, and an error for a nil ix.
func (ix *Index) Load(dir string) (*Set, error) {
	if ix == nil {
		return nil, errNoIndex
	}
	if err := ix.checkComplete(); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, IndexFile), err)
	}
	return ix.loadModels(dir)
}

// loadModels reads the models the index lists, even when it names classes
// that have none yet (Index.Missing: a shard's part of the sources), which
// Load refuses before it calls loadModels.
func (ix *Index) loadModels(dir string) (*Set, error) {
	names := make([]string, len(ix.Sources))
	models := make([]*linear.Model, len(ix.Sources))
	for j, e := range ix.Sources {
		file := filepath.Join(dir, filepath.FromSlash(e.File))
		m, err := readModelChecked(file, e.SHA256)
		if err != nil {
			return nil, fmt.Errorf("source %q: %w", e.Name, err)
		}
		// A model of more features (its digest recorded anew by hand) was
		// trained on other data. One of fewer is liblinear's of data whose
		// last features are zero (nr_feature is the largest index seen):
		// their weights are 0, as Scores takes them.
		if ix.NumFeatures > 0 && m.NrFeature > ix.NumFeatures {
			return nil, fmt.Errorf("source %q: %s is a model of %s, but the sources were trained on %s (num_features of %s): it was trained on other features",
				e.Name, file, plural.Count(m.NrFeature, "feature", "features"), plural.Count(ix.NumFeatures, "feature", "features"), filepath.Join(dir, IndexFile))
		}
		names[j], models[j] = e.Name, m
	}
	return NewSet(names, models)
}

// readModelChecked reads the liblinear model file at path, checking that
// its bytes have the hex SHA-256 digest sum.
func readModelChecked(path, sum string) (*linear.Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if got := filedigest.Bytes(b); got != sum {
		return nil, fmt.Errorf("%s: SHA-256 %s differs from the recorded %s: the file was altered", path, got, sum)
	}
	m, err := linear.ReadModel(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// DataDigest returns the hex SHA-256 digest of the dataset's content: the
// shape and float64 bits of the features, the labels and the class names,
// but not the folder's path. It is the Index's DataSHA256, so that a
// consumer of a sources directory (CheckData, package experiment) can tell
// whether it holds the data the sources were trained on. It continues the
// features' hash of a folder opened with OpenFolder (FeaturesHash), which
// read them once already, and reads the features of another folder a
// bounded number of rows at a time; it returns an error when they cannot
// be read.
func DataDigest(f *dataset.Folder) (string, error) {
	if f == nil {
		return "", errNoFolder
	}
	h := f.FeaturesHash()
	if h == nil {
		h = sha256.New()
		if err := hashFeatures(h, f); err != nil {
			return "", err
		}
	}
	var buf []byte
	for _, l := range f.Labels {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(l))
	}
	h.Write(buf)
	for _, name := range f.Classes {
		h.Write([]byte(name))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFeatures writes f's features to h as dataset.Folder.FeaturesHash
// describes, reading a bounded number of rows at a time.
func hashFeatures(h hash.Hash, f *dataset.Folder) error {
	r, c := f.Dims()
	var buf []byte
	buf = binary.LittleEndian.AppendUint64(buf, uint64(r))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(c))
	h.Write(buf)
	step := max(1, digestChunk/(8*c))
	row := make([]float64, c)
	for lo := 0; lo < r; lo += step {
		rows := make([]int, min(step, r-lo))
		for k := range rows {
			rows[k] = lo + k
		}
		b, err := f.ReadRows(rows)
		if err != nil {
			return err
		}
		for k := range rows {
			b.RowTo(row, k)
			buf = buf[:0]
			for _, v := range row {
				buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
			}
			h.Write(buf)
		}
	}
	return nil
}

// digestChunk bounds the bytes of features DataDigest holds at a time.
const digestChunk = 8 << 20
