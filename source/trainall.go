package source

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/dirlock"
	"github.com/greedytl/greedytl/internal/filedigest"
	"github.com/greedytl/greedytl/internal/filename"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/internal/parallel"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/internal/textcut"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/shard"
)

// RunOptions control how TrainAll runs; the zero value uses every core
// and trains the whole job.
type RunOptions struct {
	// Workers is the number of classes trained at once; ≤ 0 means
	// GOMAXPROCS.
	Workers int
	// Shard selects the classes this process trains: shard I of N trains
	// the classes c with c mod N = I.
	Shard shard.Shard
	// Progress, if not nil, is called with the number of the shard's
	// classes done (reused or trained) and their total: once at the
	// start and after each class. Calls are serialised.
	Progress func(done, total int)
	// DataSHA256, if not empty, is DataDigest of the dataset, which the
	// caller has computed already: TrainAll then does not hash the data
	// again. It must be the dataset's digest, which the index records.
	DataSHA256 string
}

// Result summarises a TrainAll run.
type Result struct {
	// Index is the index written to the directory.
	Index *Index
	// Trained counts the classes this run trained; Reused those whose
	// valid model an earlier run had left.
	Trained, Reused int
}

// record is the sidecar file models/<class>-<name>.json of a model: its
// Info, the wall time of the cross-validation and the final fit, the
// fingerprint of the job that trained it and the digest of the model file.
type record struct {
	Info
	Seconds     float64 `json:"seconds"`
	Fingerprint string  `json:"fingerprint"`
	ModelSHA256 string  `json:"model_sha256"`
}

// ErrOtherJob is matched (errors.Is) by the error of TrainAll when its
// directory holds the index of another job (other data, negative pool or
// training settings), or an index it cannot read: training there would
// retrain every class and leave the other job's models beside the new
// ones.
var ErrOtherJob = errors.New("source: the directory holds the sources of another job")

// otherJobError is an error matching ErrOtherJob.
type otherJobError struct{ err error }

func (e otherJobError) Error() string        { return e.err.Error() }
func (e otherJobError) Unwrap() error        { return e.err }
func (e otherJobError) Is(target error) bool { return target == ErrOtherJob }

// TrainAll runs the train-sources job: it trains the source of every class
// of f that has examples and is not held out by neg (TrainOne with cfg), on
// a pool of workers, and writes the sources directory out:
//
//	out/models/<class>-<name>.model   the source's liblinear model file
//	out/models/<class>-<name>.json    its sidecar record: Info, job fingerprint, digest
//	out/sources.json                  the Index
//
// where <class> is the class index and <name> the slug of its name (see
// modelFile), so that a file tells its class.
//
// TrainAll holds the directory for the run (package dirlock): the whole
// of it, or with opts.Shard the shard's part, beside which other shards of
// the job, of the same count, may work; a directory held by another
// process (a whole run, the same shard, a shard of another count) is an
// error matching dirlock.ErrLocked naming the holder. Shards of another
// count may resume the directory once those have finished. It refuses a directory whose index is another job's
// (an error matching ErrOtherJob, naming the first setting that differs)
// and trains nothing there.
//
// Every file is written atomically. A model counts as done when its model
// file and sidecar exist, the file's digest matches the sidecar's, and the
// sidecar's fingerprint matches this job (a digest of f's content, neg and
// cfg; not of the folder's path). TrainAll is resumable: it skips the
// classes already done, so a killed or cancelled run loses only the classes
// in progress (a model another job left, with no index to refuse, is
// trained again). Since training is deterministic, an interrupted and
// resumed run writes the same models and index as an uninterrupted one;
// only the sidecars' timings differ.
//
// With opts.Shard, only the shard's classes are trained; the index, written
// when the shard's classes are all done, lists every done class of the
// job found in out (shards may share the directory) and names the others
// Missing. Shards that finish at the same moment may race on the index:
// running TrainAll once more, with any shard, after all have finished
// trains nothing and writes the complete index.
//
// TrainAll returns an error for an invalid cfg or shard, a plan that does
// not fit f, a directory held by another process or holding another job,
// when a class fails to train or a file cannot be written (the
// classes finished before are kept), and when ctx is done (ctx's error;
// when it is done before TrainAll starts, nothing is written, not even out).
func TrainAll(ctx context.Context, f *dataset.Folder, neg *Negatives, out string, cfg TrainConfig, opts RunOptions) (*Result, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if err := opts.Shard.Check(); err != nil {
		return nil, err
	}
	if err := neg.Check(f); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err // done before it started: nothing written
	}
	if err := atomicfile.MkdirAll(filepath.Join(out, modelDir)); err != nil {
		return nil, err
	}
	lock, err := lockDir(out, opts.Shard)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	job, err := planTrainAll(f, neg, out, cfg, opts)
	if err != nil {
		return nil, err
	}
	res := &Result{Index: job.ix, Reused: job.reused}
	if err := job.train(ctx, res); err != nil {
		return res, err
	}
	return res, job.writeIndex()
}

// trainJob is a planned TrainAll run.
type trainJob struct {
	f       *dataset.Folder
	neg     *Negatives
	out     string
	cfg     TrainConfig
	opts    RunOptions
	ix      *Index // the index header, without its entries
	fp      string // the job's fingerprint
	classes []int  // every class that gets a source
	todo    []int  // the shard's classes not done yet
	reused  int    // the shard's classes done by an earlier run
}

// lockDir holds the sources directory out for this process: shards of
// one job fill one directory at once, each holding its own part (and
// sharing the directory), the shards of one count N being a group
// ("N-shards"): shards of two counts split the classes differently, and
// would train some twice at once, so a shard of another count is refused
// while one runs. An unsharded run holds all of it, and removes the
// temporary files a run killed while writing there left. A refusal because
// shards of another count run is worded in shards (otherCountError), not
// in dirlock's groups and parts.
func lockDir(out string, sh shard.Shard) (*dirlock.Lock, error) {
	var l *dirlock.Lock
	var err error
	if sh == (shard.Shard{}) {
		if l, err = dirlock.Acquire(out); err == nil {
			// Held whole: no live process writes here, so the temporary
			// files of a run killed while writing (the index, models/'s
			// files) are stale. One that cannot be removed is only
			// clutter. Shards share the directory: none removes them.
			// Only those of the files a run writes (another command's
			// may be live: it writes without the lock).
			_, _ = atomicfile.RemoveStale(out, func(name string) bool { return name == IndexFile })
			_, _ = atomicfile.RemoveStale(filepath.Join(out, modelDir), func(name string) bool {
				return strings.HasSuffix(name, modelExt) || strings.HasSuffix(name, sidecarExt)
			})
		}
	} else {
		l, err = dirlock.AcquirePart(out, shardGroup(sh.N), fmt.Sprintf("shard-%d-of-%d", sh.I, sh.N))
	}
	if ge, ok := errors.AsType[*dirlock.GroupError](err); ok {
		if n, ok := shardCount(ge.Group); ok { // never sh.N: a part is refused by other groups only
			return nil, &otherCountError{dir: out, lockFile: ge.LockFile, held: n, sh: sh, err: err}
		}
	}
	return l, err
}

// shardGroup is the dirlock group of the shards of n.
func shardGroup(n int) string { return fmt.Sprintf("%d-shards", n) }

// shardCount is the count n of the shards whose dirlock group is group
// (shardGroup's inverse); ok is false for a group no shardGroup names.
func shardCount(group string) (n int, ok bool) {
	s, found := strings.CutSuffix(group, "-shards")
	n, err := strconv.Atoi(s)
	if !found || err != nil || group != shardGroup(n) {
		return 0, false
	}
	return n, true
}

// otherCountError refuses a run of the sources directory dir while shards
// of another count (held) train into it, in the user's terms: "shards of
// train-sources --shard i/2 are training into DIR (…); a --shard 0/3 may
// not join them until they finish". It matches dirlock.ErrLocked, and
// unwraps to dirlock's refusal.
type otherCountError struct {
	dir, lockFile string
	held          int         // the count of the shards that hold dir
	sh            shard.Shard // this run's; the zero Shard for a whole run
	err           error
}

func (e *otherCountError) Error() string {
	this := fmt.Sprintf("a --shard %s may not join them", e.sh)
	if e.sh == (shard.Shard{}) {
		this = "training every source here may not start"
	}
	return fmt.Sprintf("source: shards of train-sources --shard i/%d are training into %s (lock file %s); %s until they finish, since shards of two counts split the sources differently: wait for them or stop them, then run it again", e.held, e.dir, e.lockFile, this)
}

func (e *otherCountError) Unwrap() error { return e.err }

// planTrainAll checks that the directory out, which this process holds,
// holds no other job, and finds the shard's classes still to train; the
// arguments are valid.
func planTrainAll(f *dataset.Folder, neg *Negatives, out string, cfg TrainConfig, opts RunOptions) (*trainJob, error) {
	sum := opts.DataSHA256
	if sum == "" {
		var err error
		if sum, err = DataDigest(f); err != nil {
			return nil, err
		}
	}
	_, nf := f.Dims()
	job := &trainJob{f: f, neg: neg, out: out, cfg: cfg, opts: opts}
	job.ix = &Index{
		Version:     IndexVersion,
		Dataset:     f.Dir,
		DataSHA256:  sum,
		NumFeatures: nf,
		Classes:     f.Classes,
		Negatives:   neg,
		Solver:      cfg.Solver.String(),
		Bias:        cfg.Bias,
		Eps:         cfg.Eps,
		Grid:        cfg.Grid,
		Folds:       cfg.Folds,
		Seed:        cfg.Seed,
		L1Ratio:     cfg.L1Ratio,
	}
	var err error
	if job.fp, err = fingerprint(job.ix); err != nil {
		return nil, err
	}
	if err := job.checkDir(); err != nil {
		return nil, err
	}
	job.classes = neg.SourceClasses(f.ClassCounts())
	for _, c := range job.classes {
		if !opts.Shard.Contains(uint64(c)) {
			continue
		}
		adoptLegacy(out, c, f.Classes[c], job.fp)
		if _, ok := doneRecord(out, c, f.Classes[c], job.fp); ok {
			job.reused++
		} else {
			job.todo = append(job.todo, c)
		}
	}
	return job, nil
}

// train reads the rows the classes to train need — theirs and the source
// negatives, once — and trains and saves the classes on a pool of workers.
func (job *trainJob) train(ctx context.Context, res *Result) error {
	var mu sync.Mutex
	done, total := res.Reused, res.Reused+len(job.todo)
	progress := func() {
		if job.opts.Progress != nil {
			job.opts.Progress(done, total)
		}
	}
	progress()
	if len(job.todo) == 0 {
		return nil
	}
	lists := [][]int{job.neg.Source}
	for _, c := range job.todo {
		lists = append(lists, job.f.Rows(c))
	}
	b, err := readSharedRows(job.f, lists...)
	if err != nil {
		return err
	}
	return parallel.For(ctx, len(job.todo), job.opts.Workers, func(ctx context.Context, k int) error {
		c := job.todo[k]
		start := time.Now()
		model, info, err := trainOne(ctx, job.f, b, c, job.neg, job.cfg)
		if err != nil {
			return err
		}
		if err := saveModel(job.out, model, info, time.Since(start).Seconds(), job.fp); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		res.Trained++
		done++
		progress()
		return nil
	})
}

// writeIndex writes the index of every class done in the directory, by
// this run or another, and names the others missing.
func (job *trainJob) writeIndex() error {
	ix := job.ix
	for _, c := range job.classes {
		rec, ok := doneRecord(job.out, c, job.f.Classes[c], job.fp)
		if !ok {
			ix.Missing = append(ix.Missing, job.f.Classes[c])
			continue
		}
		ix.Sources = append(ix.Sources, Entry{Info: rec.Info, File: modelFile(c, rec.Name), SHA256: rec.ModelSHA256})
	}
	return jsonfile.Write(filepath.Join(job.out, IndexFile), ix)
}

// modelFile returns the path of the model file of class c, named name,
// relative to the sources directory, with forward slashes as the index
// records it: models/<c>-<slug>.model, the slug being name's letters
// (lower-cased) and digits with '-' between runs of them, at most
// maxSlug bytes (filename.Slug) — "models/1-obj2.model" for class 1,
// "obj2". The class index keeps the names unique whatever the slugs.
func modelFile(c int, name string) string { return path.Join(modelDir, fileStem(c, name)+modelExt) }

// sidecarFile returns the path of the sidecar record of class c, named
// name, relative to the sources directory (beside modelFile, sidecarExt).
func sidecarFile(c int, name string) string {
	return path.Join(modelDir, fileStem(c, name)+sidecarExt)
}

// modelExt and sidecarExt end the names of models/'s model files and of
// their sidecar records (modelFile, sidecarFile, legacyFile's).
const (
	modelExt   = ".model"
	sidecarExt = ".json"
)

// maxSlug bounds the bytes of a class name's slug in a file name.
const maxSlug = 64

// fileStem returns the base name, without extension, of class c's files.
func fileStem(c int, name string) string {
	return strconv.Itoa(c) + "-" + filename.Slug(name, "class", maxSlug)
}

// legacyFile returns the path, relative to the sources directory, of class
// c's file with extension ext as greedytl wrote it before files carried
// the class name: models/<c><ext>.
func legacyFile(c int, ext string) string { return path.Join(modelDir, strconv.Itoa(c)+ext) }

// adoptLegacy renames the model file and sidecar of class c (named name)
// from their names before files carried the class name to modelFile's and
// sidecarFile's, when they are a done model of the job with fingerprint
// fp and the new names are free, so that a job begun by an older greedytl
// resumes without retraining. Anything else is left as it is (a model
// not adopted is trained again).
func adoptLegacy(out string, c int, name, fp string) {
	abs := func(rel string) string { return filepath.Join(out, filepath.FromSlash(rel)) }
	oldModel, oldSide := abs(legacyFile(c, modelExt)), abs(legacyFile(c, sidecarExt))
	newModel, newSide := abs(modelFile(c, name)), abs(sidecarFile(c, name))
	if _, err := os.Lstat(newSide); err == nil {
		return
	}
	if _, ok := checkRecord(oldSide, oldModel, c, name, fp); !ok {
		return
	}
	if os.Rename(oldModel, newModel) == nil {
		os.Rename(oldSide, newSide)
	}
}

// saveModel writes the model file of info.Class and then its sidecar, so
// that a sidecar never describes a model file that was not fully written;
// seconds is the training's wall time.
func saveModel(out string, m *linear.Model, info Info, seconds float64, fp string) error {
	var buf bytes.Buffer
	if err := linear.WriteModel(&buf, m); err != nil {
		return fmt.Errorf("source %q: %w", info.Name, err)
	}
	rec := record{Info: info, Seconds: seconds, Fingerprint: fp, ModelSHA256: filedigest.Bytes(buf.Bytes())}
	err := atomicfile.Write(filepath.Join(out, filepath.FromSlash(modelFile(info.Class, info.Name))), func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
	if err != nil {
		return err
	}
	return jsonfile.Write(filepath.Join(out, filepath.FromSlash(sidecarFile(info.Class, info.Name))), rec)
}

// doneRecord returns the sidecar record of class c (named name) when its
// model is done for the job with fingerprint fp: the sidecar exists and
// matches, and the model file exists, has the recorded digest and reads
// as a binary liblinear model.
func doneRecord(out string, c int, name, fp string) (*record, bool) {
	abs := func(rel string) string { return filepath.Join(out, filepath.FromSlash(rel)) }
	return checkRecord(abs(sidecarFile(c, name)), abs(modelFile(c, name)), c, name, fp)
}

// checkRecord returns the sidecar record at side when it describes a done
// model of class c (named name) for the job with fingerprint fp whose
// model file is model (see doneRecord).
func checkRecord(side, model string, c int, name, fp string) (*record, bool) {
	b, err := os.ReadFile(side)
	if err != nil {
		return nil, false
	}
	var rec record
	if json.Unmarshal(b, &rec) != nil || rec.Fingerprint != fp || rec.Class != c || rec.Name != name || rec.Info.check() != nil {
		return nil, false
	}
	m, err := readModelChecked(model, rec.ModelSHA256)
	if err != nil || checkModel(m) != nil {
		return nil, false
	}
	return &rec, true
}

// fingerprint returns the digest identifying the job of the index header
// ix: everything but the dataset's path and the per-source entries.
func fingerprint(ix *Index) (string, error) {
	key := *ix
	key.Dataset, key.Sources, key.Missing = "", nil, nil
	b, err := json.Marshal(key)
	if err != nil {
		return "", err
	}
	return filedigest.Bytes(b), nil
}

// checkDir returns an error matching ErrOtherJob when the directory holds
// the index of another job than job's, or an index that cannot be read,
// naming the first setting that differs and what to do. An index of the
// same job, with the dataset elsewhere (the folder moved), is the job's.
func (job *trainJob) checkDir() error {
	old, err := ReadIndex(job.out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	remedy := fmt.Sprintf("train into another directory, or remove %s to retrain there", job.out)
	if err != nil {
		return otherJobError{fmt.Errorf("%w; %s", err, remedy)}
	}
	if fp, err := fingerprint(old); err == nil && fp == job.fp {
		return nil
	}
	ix := job.ix
	for _, s := range []struct {
		name     string
		was, now any
	}{
		{"data", dataID{old.DataSHA256, old.NumFeatures}, dataID{ix.DataSHA256, ix.NumFeatures}},
		{"classes", old.Classes, ix.Classes},
		{"negative pool", old.Negatives, ix.Negatives},
		{"solver", old.Solver, ix.Solver},
		{"bias", old.Bias, ix.Bias},
		{"eps", old.Eps, ix.Eps},
		{"C grid", old.Grid, ix.Grid},
		{"folds", old.Folds, ix.Folds},
		{"seed", old.Seed, ix.Seed},
		{"L1 ratio", old.L1Ratio, ix.L1Ratio},
	} {
		a, _ := json.Marshal(s.was)
		b, _ := json.Marshal(s.now)
		if !bytes.Equal(a, b) {
			return otherJobError{fmt.Errorf("%s holds the sources of another job (%s there: %s; this job: %s): %s",
				job.out, s.name, abbrev(s.was), abbrev(s.now), remedy)}
		}
	}
	return otherJobError{fmt.Errorf("%s holds the sources of another job: %s", job.out, remedy)}
}

// dataID is a dataset as an index records it, compared in full by
// checkDir and shown by its String.
type dataID struct {
	SHA256   string
	Features int
}

// String shows the digest abbreviated (short, as Index.Differences does)
// and the feature count.
func (d dataID) String() string {
	return fmt.Sprintf("digest %s, %s", short(d.SHA256), plural.Count(d.Features, "feature", "features"))
}

// abbrev formats a setting for a message in at most 60 characters (a
// negative pool: its classes so, and its seed), a long one cut between its
// words with "…", and the brackets it opened before the cut closed.
func abbrev(v any) string {
	if p, ok := v.(*Negatives); ok && p != nil {
		return fmt.Sprintf("classes %s, seed %d", abbrev(p.Classes), p.Seed)
	}
	s := fmt.Sprint(v)
	if len(s) <= 60 {
		return s
	}
	cut := strings.LastIndexByte(s[:56], ' ')
	if cut <= 0 {
		cut = len(textcut.Prefix(s, 56))
	}
	s = s[:cut] + " …"
	return s + strings.Repeat("]", max(0, strings.Count(s, "[")-strings.Count(s, "]")))
}
