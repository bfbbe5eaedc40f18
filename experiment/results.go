package experiment

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/fileerr"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/shard"
)

// resultsName returns the name of shard s's results file in a run
// directory: results.jsonl, or results-shard-I-of-N.jsonl.
func resultsName(s shard.Shard) string {
	if s.N <= 1 {
		return "results.jsonl"
	}
	return fmt.Sprintf("results-shard-%d-of-%d.jsonl", s.I, s.N)
}

// scanResults reads the JSON Lines results file path, calling fn with each
// complete line (ending in a newline; blank lines are skipped), its
// decoded record and its line number. Anything after the last newline is
// a line cut short by a kill: it is ignored, and partial reports it.
// complete is the length of the file up to its last newline. A missing
// file is empty. scanResults returns an error naming the file and line of
// a complete line that is not a valid record, and fn's errors.
func scanResults(path string, fn func(line []byte, rec *Record, lineno int) error) (complete int64, partial bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for lineno := 1; ; lineno++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return complete, len(line) > 0, nil
		}
		if err != nil {
			return complete, false, fmt.Errorf("%s: %w", path, err)
		}
		complete += int64(len(line))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rec, err := decodeRecord(line)
		if err != nil {
			return complete, false, inputErrorf("%s:%d: %w", path, lineno, badLine{err})
		}
		if err := fn(line, rec, lineno); err != nil {
			return complete, false, err
		}
	}
}

// badLine is scanResults's error for a complete line that is not a
// record: a line that greedytl's writers never leave in a results file (a
// line cut short on a full disk by a greedytl before they cut it off, an
// edit), which the resume of a run says what to do about.
type badLine struct{ err error }

func (e badLine) Error() string { return e.err.Error() }
func (e badLine) Unwrap() error { return e.err }

// recordMembers lists, for each kind of results record, the members every
// record of that kind has: those its writer always writes (Record's
// members without omitempty, or episodeRecord's for an N-way episode). A
// record without one of them is malformed — decoding would read the absent
// member as 0, a missing accuracy as a cell scoring 0 — and so is one with
// a null anywhere (the writer writes none; null too would read as 0).
// recordKind tells the kinds apart. The run_id member is checked by the
// reader of a run instead (checkRun): runs made before records carried it
// have none.
var recordMembers = map[string][]string{
	"cell": {"dataset", "target", "target_idx", "positives", "negatives", "noise", "split", "method",
		"balanced_accuracy", "test_positives", "test_negatives", "fit_seconds", "features", "candidates"},
	"episode": {"dataset", "ways", "shots", "episode", "method", "classes", "class_idx",
		"accuracy", "balanced_accuracy", "test_per_class", "fit_seconds", "candidates"},
}

// recordKind returns the kind of the record whose members are given, a key
// of recordMembers: "episode" (ProtocolNWay) for a record with a "ways"
// member, "cell" for the others.
func recordKind(members map[string]bool) string {
	if members["ways"] {
		return "episode"
	}
	return "cell"
}

// decodeRecord decodes one results line strictly (jsonfile.DecodeObject):
// unknown members, trailing data, nulls and missing members
// (recordMembers) are errors, and so are the records checkRecord rejects.
func decodeRecord(line []byte) (*Record, error) {
	var (
		r Record
		e *episodeRecord
	)
	members, err := jsonfile.DecodeObject(line, "result record", func(members map[string]bool) any {
		if recordKind(members) == "episode" {
			e = &episodeRecord{}
			return e
		}
		return (*binaryRecord)(&r)
	})
	if err != nil {
		return nil, err
	}
	if e != nil {
		r = e.record()
	}
	r.upgradeMethod()
	kind := recordKind(members)
	for _, name := range recordMembers[kind] {
		if !members[name] {
			return nil, fmt.Errorf("%s is missing (every %s record has it)", name, kind)
		}
	}
	if err := checkRecord(&r); err != nil {
		return nil, err
	}
	return &r, nil
}

// checkRecord rejects a record without a dataset or method, and one with
// impossible values: negative indices or counts, sources and weights (or
// source names) of different lengths, an episode (Ways > 0) of fewer than
// two ways or whose classes are not Ways distinct names and indices,
// not_converged entries that no fit reports (checkNotConverged), wide_range
// entries that no fit reports (checkWideRange), and, for
// a cell that did not fail, an accuracy outside [0, 1], an episode's
// accuracy that its test set cannot give (checkEpisodeAccuracy), a
// negative or non-finite time or a non-finite weight.
func checkRecord(r *Record) error {
	shots := "positives"
	if r.Ways != 0 {
		shots = "shots"
	}
	switch {
	case r.Method == "" || r.Dataset == "":
		return errors.New("result record without a dataset or method")
	case r.TargetIdx < 0:
		return fmt.Errorf("target_idx is %d: must be ≥ 0", r.TargetIdx)
	case r.Positives < 1:
		return fmt.Errorf("%s is %d: must be ≥ 1", shots, r.Positives)
	case r.Noise < 0:
		return fmt.Errorf("noise is %d: must be ≥ 0", r.Noise)
	case r.Split < 0 && r.Ways != 0:
		return fmt.Errorf("episode is %d: must be ≥ 0", r.Split)
	case r.Split < 0:
		return fmt.Errorf("split is %d: must be ≥ 0", r.Split)
	case len(r.Sources) != len(r.Weights):
		return fmt.Errorf("%s but %s", plural.Count(len(r.Sources), "source", "sources"), plural.Count(len(r.Weights), "weight", "weights"))
	case len(r.SourceNames) != 0 && len(r.SourceNames) != len(r.Sources):
		return fmt.Errorf("%s but %s", plural.Count(len(r.Sources), "source", "sources"), plural.Count(len(r.SourceNames), "source name", "source names"))
	}
	for i, s := range r.Sources {
		if s < 0 {
			return fmt.Errorf("source index %d at position %d: must be ≥ 0", s, i)
		}
	}
	if err := checkEpisode(r); err != nil {
		return err
	}
	if err := checkNotConverged(r); err != nil {
		return err
	}
	if err := checkWideRange(r); err != nil {
		return err
	}
	if r.Error != "" {
		return nil // a failed cell's numbers are not used
	}
	if a := r.BalancedAccuracy; math.IsNaN(a) || a < 0 || a > 1 {
		return fmt.Errorf("balanced_accuracy is %v: must be in [0, 1]", a)
	}
	if a := r.Accuracy; math.IsNaN(a) || a < 0 || a > 1 {
		return fmt.Errorf("accuracy is %v: must be in [0, 1]", a)
	}
	if err := checkEpisodeAccuracy(r); err != nil {
		return err
	}
	if t := r.FitSeconds; math.IsNaN(t) || math.IsInf(t, 0) || t < 0 {
		return fmt.Errorf("fit_seconds is %v: must be finite and ≥ 0", t)
	}
	for i, w := range r.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %d is %v: must be finite", i, w)
		}
	}
	return nil
}

// checkNotConverged checks a record's not_converged entries: present only
// with at least one entry, each of a named solver listed once, with
// 1 ≤ stopped ≤ runs, and with classes (not an empty list) only for an
// episode (a model fitted one class against the rest), distinct classes of
// the episode.
func checkNotConverged(r *Record) error {
	if r.NotConverged != nil && len(r.NotConverged) == 0 {
		return errors.New("not_converged is empty: a record whose solver runs all converged leaves it out")
	}
	for i, e := range r.NotConverged {
		dup := firstDuplicate(e.Classes)
		switch {
		case e.Solver == "":
			return fmt.Errorf("not_converged[%d].solver is missing or empty", i)
		case slices.ContainsFunc(r.NotConverged[:i], func(o method.NotConverged) bool { return o.Solver == e.Solver }):
			return fmt.Errorf("not_converged[%d]: solver %q is listed twice", i, e.Solver)
		case e.Stopped < 1 || e.Runs < e.Stopped:
			return fmt.Errorf("not_converged[%d]: %d of %d runs stopped: want 1 ≤ stopped ≤ runs", i, e.Stopped, e.Runs)
		case e.Classes != nil && len(e.Classes) == 0:
			return fmt.Errorf("not_converged[%d].classes is empty: an entry without classes leaves it out", i)
		case len(e.Classes) > 0 && r.Ways == 0:
			return fmt.Errorf("not_converged[%d] names classes %q: a binary cell's model is fitted as a whole", i, e.Classes)
		case dup != "":
			return fmt.Errorf("not_converged[%d]: class %q is listed twice", i, dup)
		}
		for _, c := range e.Classes {
			if !slices.Contains(r.Classes, c) {
				return fmt.Errorf("not_converged[%d]: class %q is not one of the episode's", i, c)
			}
		}
	}
	return nil
}

// checkWideRange checks a record's wide_range entries: present only with
// at least one entry; a binary cell's one, without a class, an episode's
// each of a distinct class of the episode; each with 1 ≤ left_out ≤
// subsamples and, when the record has the hyperparameter "fits", the
// committees it averages, subsamples + 1 − left_out fits for a binary
// cell; and columns, at least one, each a feature or a source of index
// below candidates, listed once, with a finite ratio ≥ 0 and 1 ≤
// committees ≤ left_out.
func checkWideRange(r *Record) error {
	if r.WideRange != nil && len(r.WideRange) == 0 {
		return errors.New("wide_range is empty: a record whose fit left no committee out leaves it out")
	}
	if r.Ways == 0 && len(r.WideRange) > 1 {
		return fmt.Errorf("wide_range has %d entries: a binary cell's model is fitted as a whole (one)", len(r.WideRange))
	}
	for i, e := range r.WideRange {
		fits, hasFits := r.Hyperparameters["fits"]
		switch {
		case e.Class != "" && r.Ways == 0:
			return fmt.Errorf("wide_range[%d] names class %q: a binary cell's model is fitted as a whole", i, e.Class)
		case e.Class == "" && r.Ways != 0:
			return fmt.Errorf("wide_range[%d].class is missing: an episode's entry names the class of its fit", i)
		case r.Ways != 0 && !slices.Contains(r.Classes, e.Class):
			return fmt.Errorf("wide_range[%d]: class %q is not one of the episode's", i, e.Class)
		case slices.ContainsFunc(r.WideRange[:i], func(o WideRange) bool { return o.Class == e.Class }):
			return fmt.Errorf("wide_range[%d]: class %q is listed twice", i, e.Class)
		case e.LeftOut < 1 || e.Subsamples < e.LeftOut:
			return fmt.Errorf("wide_range[%d]: %d of %d committees left out: want 1 ≤ left_out ≤ subsamples", i, e.LeftOut, e.Subsamples)
		case r.Ways == 0 && hasFits && fits != float64(e.Subsamples+1-e.LeftOut):
			return fmt.Errorf("wide_range[%d]: %d of %d committees left out, but the hyperparameter fits is %v: want %d (the whole sample's and the subsamples' kept)", i, e.LeftOut, e.Subsamples, fits, e.Subsamples+1-e.LeftOut)
		case len(e.Columns) == 0:
			return fmt.Errorf("wide_range[%d].columns is missing or empty: a committee is left out because of a column", i)
		}
		for k, c := range e.Columns {
			switch {
			case c.Kind != greedytl.Feature && c.Kind != greedytl.Source:
				return fmt.Errorf("wide_range[%d].columns[%d].kind is %v: want feature or source", i, k, c.Kind)
			case c.Index < 0 || c.Index >= r.Candidates:
				return fmt.Errorf("wide_range[%d].columns[%d].index is %d: want 0 ≤ index < candidates (%d)", i, k, c.Index, r.Candidates)
			case slices.ContainsFunc(e.Columns[:k], func(o WideRangeColumn) bool { return o.Column == c.Column }):
				return fmt.Errorf("wide_range[%d]: column %v is listed twice", i, c.Column)
			case math.IsNaN(c.Ratio) || math.IsInf(c.Ratio, 0) || c.Ratio < 0:
				return fmt.Errorf("wide_range[%d].columns[%d].ratio is %v: must be finite and ≥ 0", i, k, c.Ratio)
			case c.Committees < 1 || c.Committees > e.LeftOut:
				return fmt.Errorf("wide_range[%d].columns[%d]: %d committees of %d left out: want 1 ≤ committees ≤ left_out", i, k, c.Committees, e.LeftOut)
			}
		}
	}
	return nil
}

// checkEpisode checks the members of an N-way episode's record (none for
// a binary cell's): at least two ways, that many distinct class names and
// indices ≥ 0, and at least one test example per class.
func checkEpisode(r *Record) error {
	if r.Ways == 0 {
		return nil
	}
	switch {
	case r.Ways < 2:
		return fmt.Errorf("ways is %d: must be ≥ 2", r.Ways)
	case len(r.Classes) != r.Ways || len(r.ClassIdx) != r.Ways:
		return fmt.Errorf("%s and %s for %d ways", plural.Count(len(r.Classes), "class", "classes"), plural.Count(len(r.ClassIdx), "class index", "class indices"), r.Ways)
	case r.TestPerClass < 1:
		return fmt.Errorf("test_per_class is %d: must be ≥ 1", r.TestPerClass)
	case firstDuplicate(r.Classes) != "":
		return fmt.Errorf("class %q is listed twice", firstDuplicate(r.Classes))
	}
	for k, c := range r.ClassIdx {
		if c < 0 || slices.Contains(r.ClassIdx[:k], c) {
			return fmt.Errorf("class index %d at position %d: must be ≥ 0 and distinct", c, k)
		}
	}
	return nil
}

// checkEpisodeAccuracy refuses an episode's accuracies (both in [0, 1])
// that its test set cannot give: it holds TestPerClass examples of each of
// its Ways classes, so the accuracy counts its correct predictions in
// Ways × TestPerClass, and the balanced accuracy, the mean of the classes'
// recalls over TestPerClass each, counts correct predictions too: each is
// a multiple of 1/(Ways × TestPerClass), to rounding. (Both count the same
// predictions, and so are equal, in the records experiment writes; that is
// not required.) A binary cell's (Ways 0) has nothing to check.
func checkEpisodeAccuracy(r *Record) error {
	if r.Ways == 0 {
		return nil
	}
	n := float64(r.Ways) * float64(r.TestPerClass)
	// counts reports whether a is a count of correct predictions over n: a
	// count over n, written as a float64 and read back, times n is within
	// far less than 1e-9·n of it (rounding), and tests of more than 2.5e8
	// examples are not told apart to less than a quarter.
	counts := func(a float64) bool {
		return math.Abs(a*n-math.Round(a*n)) <= math.Min(1e-9*n, 0.25)
	}
	for _, a := range []struct {
		name  string
		value float64
	}{{"accuracy", r.Accuracy}, {"balanced_accuracy", r.BalancedAccuracy}} {
		if !counts(a.value) {
			return fmt.Errorf("%s is %v: not a possible accuracy of %d ways × %s per class (must be a multiple of 1/%.0f)", a.name, a.value, r.Ways, plural.Count(r.TestPerClass, "test example", "test examples"), n)
		}
	}
	return nil
}

// syncDir is atomicfile.SyncDir, replaced by tests to record its calls.
var syncDir = atomicfile.SyncDir

// syncInterval is how often an appender syncs the results file to disk (a
// variable for tests).
var syncInterval = 5 * time.Second

// appender appends records to a results file, one write call per line, so
// that a killed process leaves at most one partial last line; it syncs
// the file every syncInterval and on close, so that a machine crash loses
// at most that much. A write that fails (a full disk) is cut off, back to
// the last complete line, and fails every later append: a record written
// after a partial line would make one malformed line in the middle of the
// file, which every reader refuses. A sync that fails fails every later
// append too (see sync).
type appender struct {
	mu       sync.Mutex
	f        *os.File
	size     int64 // the bytes of complete lines
	err      error // the first failed write's or sync's, after which nothing is written
	unsynced bool  // a sync failed: the file is not synced again
	lastSync time.Time
	dirty    bool
}

// openAppender opens path for appending after truncating it to its first
// size bytes (cutting off a partial last line), creating it if needed —
// and then syncing its directory, so that the records synced into it do
// not vanish with its name in a power loss. A new file gets mode 0o666
// less the umask, as the lock files and output files do, so that a group
// sharing a run directory under umask 002 may resume it.
func openAppender(path string, size int64) (*appender, error) {
	_, err := os.Lstat(path)
	created := errors.Is(err, fs.ErrNotExist)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && fi.Size() != size {
		err = f.Truncate(size)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if created {
		if err := syncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return &appender{f: f, size: size, lastSync: time.Now()}, nil
}

// append writes rec as one line.
func (a *appender) append(rec *Record) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("experiment: encoding the record of %v: %w", rec.Key(), err)
	}
	line = append(line, '\n')
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return a.err
	}
	if n, err := a.f.Write(line); err != nil {
		a.err = fmt.Errorf("%s: %w", a.f.Name(), fileerr.Reason(err))
		if n > 0 {
			if terr := a.f.Truncate(a.size); terr != nil {
				a.err = fmt.Errorf("%w; cutting off the partial line: %w", a.err, fileerr.Reason(terr))
			}
		}
		return a.err
	}
	a.size += int64(len(line))
	a.dirty = true
	if time.Since(a.lastSync) >= syncInterval {
		return a.sync()
	}
	return nil
}

// sync syncs the file if anything was written since the last sync (after
// a failed write too: the complete lines before it). A failed sync fails
// every later append and sync: the records written before it may be lost
// in a crash, so one written after it could be kept without them, and a
// second sync may succeed without having written them (Linux drops the
// pages whose writeback failed). The caller holds a.mu.
func (a *appender) sync() error {
	if a.unsynced {
		return a.err
	}
	if !a.dirty {
		return nil
	}
	if err := syncFile(a.f); err != nil {
		err = fmt.Errorf("%s: syncing to disk: %w (the records appended since the last sync may be lost)", a.f.Name(), fileerr.Reason(err))
		a.unsynced = true
		if a.err == nil {
			a.err = err
		}
		return err
	}
	a.dirty, a.lastSync = false, time.Now()
	return nil
}

// syncFile is (*os.File).Sync, replaced by tests to fail.
var syncFile = (*os.File).Sync

// close syncs and closes the file.
func (a *appender) close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	err := a.sync()
	if cerr := a.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%s: %w", a.f.Name(), cerr)
	}
	return err
}
