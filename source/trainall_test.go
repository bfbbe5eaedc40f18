package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/internal/dirlock"
	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/filedigest"
	"github.com/greedytl/greedytl/internal/goroutinetest"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/shard"
)

// job is the train-sources job of the tests: 8 separable classes, 2 held
// out, 6 sources.
type job struct {
	f   *dataset.Folder
	neg *Negatives
	cfg TrainConfig
}

func newJob(t *testing.T) job {
	t.Helper()
	f := blobFolder(t, 8)
	neg, err := PlanNegatives(f, nil, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(neg.Classes) != 2 {
		t.Fatalf("plan holds out %v, want 2 classes", neg.Classes)
	}
	return job{f, neg, DefaultTrainConfig()}
}

func (j job) run(t *testing.T, ctx context.Context, out string, opts RunOptions) (*Result, error) {
	t.Helper()
	return TrainAll(ctx, j.f, j.neg, out, j.cfg, opts)
}

// sources returns the classes that get a source.
func (j job) sources() []int { return j.neg.SourceClasses(j.f.ClassCounts()) }

// snapshot returns the files of a sources directory by relative path, with
// the timings of the sidecar records zeroed (the only bytes that may
// differ between runs) and without the lock files (dirlock's, which name
// their last holder).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasPrefix(rel, dirlock.LockFile) {
			return nil
		}
		if filepath.Dir(rel) == modelDir && filepath.Ext(rel) == ".json" {
			var rec record
			if err := json.Unmarshal(b, &rec); err != nil {
				return err
			}
			if !(rec.Seconds > 0) {
				t.Errorf("%s: seconds = %v", rel, rec.Seconds)
			}
			rec.Seconds = 0
			b, _ = json.Marshal(rec)
		}
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameFiles reports the differences between two snapshots.
func sameFiles(t *testing.T, got, want map[string]string) {
	t.Helper()
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s is missing", name)
		case g != w:
			t.Errorf("%s differs from the uninterrupted run's", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected file %s", name)
		}
	}
}

// reference runs the job uninterrupted and returns its directory.
func (j job) reference(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	res, err := j.run(t, context.Background(), out, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(j.sources()); res.Trained != n || res.Reused != 0 {
		t.Fatalf("trained %d, reused %d, want %d, 0", res.Trained, res.Reused, n)
	}
	return out
}

func TestTrainAllIndex(t *testing.T) {
	j := newJob(t)
	var mu sync.Mutex
	var calls [][2]int
	out := t.TempDir()
	res, err := j.run(t, context.Background(), out, RunOptions{Workers: 3, Progress: func(done, total int) {
		mu.Lock()
		calls = append(calls, [2]int{done, total})
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{0, 6}, {1, 6}, {2, 6}, {3, 6}, {4, 6}, {5, 6}, {6, 6}}
	if !slices.Equal(calls, want) {
		t.Errorf("progress calls %v, want %v", calls, want)
	}
	ix, err := ReadIndex(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ix, res.Index) {
		t.Errorf("the index read back differs from the one returned:\n%+v\n%+v", ix, res.Index)
	}
	if !reflect.DeepEqual(ix.Negatives, j.neg) || !slices.Equal(ix.Classes, j.f.Classes) || ix.Dataset != j.f.Dir ||
		ix.NumFeatures != 8 || ix.Solver != "L2R_L2LOSS_SVC_DUAL" || !slices.Equal(ix.Grid, j.cfg.Grid) || ix.Missing != nil {
		t.Errorf("index header %+v", ix)
	}
	if err := ix.CheckData(j.f); err != nil {
		t.Errorf("CheckData of the training folder: %v", err)
	}
	moved := *j.f
	moved.Dir = "elsewhere"
	if err := ix.CheckData(&moved); err != nil {
		t.Errorf("CheckData of the moved folder: %v", err)
	}
	changed := moved
	changed.X = mat.DenseCopyOf(j.f.X)
	changed.X.Set(3, 2, changed.X.At(3, 2)+1e-9)
	if err := ix.CheckData(&changed); err == nil || !strings.Contains(err.Error(), "content differs") {
		t.Errorf("CheckData of a changed folder: %v", err)
	}
	changedHere := changed
	changedHere.Dir = j.f.Dir
	if err, want := ix.CheckData(&changedHere), "source: dataset "+j.f.Dir+" has changed since the sources were trained on it: its content differs"; err == nil || err.Error() != want {
		t.Errorf("CheckData of the training folder, changed: %v; want %q", err, want)
	}
	// CheckDigest's other refusals, each on a copy of the index.
	digest, err := DataDigest(j.f)
	if err != nil {
		t.Fatal(err)
	}
	renamed := *j.f
	renamed.Classes = slices.Clone(j.f.Classes)
	renamed.Classes[0] = "renamed"
	movedRenamed := moved
	movedRenamed.Classes = []string{"c0"}
	for _, tc := range []struct {
		name   string
		f      *dataset.Folder
		change func(*Index)
		want   string
	}{
		{"other classes", &renamed, func(*Index) {}, "dataset " + j.f.Dir + ` has changed since the sources were trained on it: its class 0 (line 1 of classes.txt) is "renamed", where the sources' is "c0"`},
		{"other classes, moved", &movedRenamed, func(*Index) {}, "dataset elsewhere is not the one the sources were trained on (" + ix.Dataset + "): it has 1 class, where the sources were trained on " + strconv.Itoa(len(j.f.Classes))},
		{"incomplete", j.f, func(ix *Index) { ix.Missing = []string{j.f.Classes[1]} }, "incomplete: 1 class (c1) has no model yet"},
		{"no sources", j.f, func(ix *Index) { ix.Sources = nil }, "lists no sources"},
		{"no negative plan", j.f, func(ix *Index) { ix.Negatives = &Negatives{} }, "negative plan has no classes"},
	} {
		c := *ix
		tc.change(&c)
		err := c.CheckDigest(tc.f, digest)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckDigest, %s: %v, want an error containing %q", tc.name, err, tc.want)
		} else if err := errtest.OnePrefix(err.Error()); err != nil {
			t.Errorf("CheckDigest, %s: %v", tc.name, err)
		}
	}
	if cfg, err := ix.Config(); err != nil || !reflect.DeepEqual(cfg, j.cfg) {
		t.Errorf("index config %+v (%v), want %+v", cfg, err, j.cfg)
	}
	set, err := LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if set.Len() != len(j.sources()) {
		t.Fatalf("LoadDir: %d sources, want %d", set.Len(), len(j.sources()))
	}
	for k, c := range j.sources() {
		e := ix.Sources[k]
		if e.Class != c || e.Name != j.f.Classes[c] || set.Name(k) != e.Name || e.File != modelFile(c, e.Name) {
			t.Errorf("entry %d: %+v (set name %q), want class %d", k, e, set.Name(k), c)
		}
		// The directory holds what TrainOne trains.
		m, info, err := TrainOne(context.Background(), j.f, c, j.neg, j.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(set.Model(k), m) {
			t.Errorf("class %d: the stored model differs from TrainOne's", c)
		}
		if e.C != info.C || e.CVScore != info.CVScore || !slices.Equal(e.CVScores, info.CVScores) || e.Positives != 20 || e.Negatives != len(j.neg.Source) {
			t.Errorf("class %d: entry %+v, TrainOne info %+v", c, e, info)
		}
	}
	// liblinear semantics: the files are liblinear model files.
	if _, err := linear.ReadModelFile(filepath.Join(out, ix.Sources[0].File)); err != nil {
		t.Error(err)
	}
}

// TestTrainAllResume cancels a run after two models and resumes it: the
// two are kept and reused, and the final directory equals that of an
// uninterrupted run. A run on 3 workers cancelled after its first model
// returns the context's error and leaves no worker running.
func TestTrainAllResume(t *testing.T) {
	j := newJob(t)
	ref := snapshot(t, j.reference(t))

	// On several workers, cancelled after the first model: the context's
	// error, and no worker left running.
	before := goroutinetest.Count()
	ctx, cancel := context.WithCancel(context.Background())
	_, err := j.run(t, ctx, t.TempDir(), RunOptions{Workers: 3, Progress: func(done, _ int) {
		if done == 1 {
			cancel()
		}
	}})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run on 3 workers cancelled after a model returned %v, want context.Canceled", err)
	}
	goroutinetest.NoneLeft(t, before, "a cancelled TrainAll on 3 workers")

	out := t.TempDir()
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	_, err = j.run(t, ctx, out, RunOptions{Workers: 1, Progress: func(done, _ int) {
		if done == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run returned %v, want context.Canceled", err)
	}
	if _, err := os.Stat(filepath.Join(out, IndexFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a cancelled run wrote the index (stat: %v)", err)
	}
	models, _ := filepath.Glob(filepath.Join(out, modelDir, "*.model"))
	sidecars, _ := filepath.Glob(filepath.Join(out, modelDir, "*.json"))
	if len(models) != 2 || len(sidecars) != 2 {
		t.Fatalf("cancelled run left %d models and %d sidecars, want 2 and 2", len(models), len(sidecars))
	}

	res, err := j.run(t, context.Background(), out, RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reused != 2 || res.Trained != 4 {
		t.Errorf("resumed run reused %d and trained %d, want 2 and 4", res.Reused, res.Trained)
	}
	sameFiles(t, snapshot(t, out), ref)
}

// TestTrainAllRemovesStaleTemporaryFiles: the temporary files a run killed
// while writing left (of the index, of models/'s files) are removed by a
// run that holds the directory whole, not by a shard (shards share it);
// other files stay.
func TestTrainAllRemovesStaleTemporaryFiles(t *testing.T) {
	j := newJob(t)
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := j.run(t, ctx, out, RunOptions{Workers: 1, Progress: func(done, _ int) {
		if done == 1 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run returned %v, want context.Canceled", err)
	}
	plant := func(name string) string {
		p := filepath.Join(out, filepath.FromSlash(name))
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := []string{plant("." + IndexFile + ".tmp-123"), plant(modelDir + "/.0-a.model.tmp-4567"), plant(modelDir + "/.0-a.json.tmp-89")}
	other := []string{plant("notes.txt"), plant(modelDir + "/0-a.model.tmp-1"), plant(modelDir + "/.0-a.model.tmp-x"), plant(".pred.csv.tmp-9"), plant(modelDir + "/.notes.txt.tmp-3")} // the last two: another command's
	exist := func(when string, paths []string, want bool) {
		t.Helper()
		for _, p := range paths {
			if _, err := os.Lstat(p); (err == nil) != want {
				t.Errorf("%s: %s exists: %v, want %v", when, p, err == nil, want)
			}
		}
	}
	if _, err := j.run(t, context.Background(), out, RunOptions{Shard: shard.Shard{I: 0, N: 2}}); err != nil {
		t.Fatal(err)
	}
	exist("after shard 0/2", stale, true)
	if _, err := j.run(t, context.Background(), out, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	exist("after the whole run", stale, false)
	exist("after the whole run", other, true)
}

// finishedCopy returns a job, the snapshot of its finished directory, a
// copy of that directory to damage, and the copy's index.
func finishedCopy(t *testing.T) (j job, ref map[string]string, out string, ix *Index) {
	t.Helper()
	j = newJob(t)
	refDir := j.reference(t)
	out = copyDir(t, refDir)
	ix, err := ReadIndex(out)
	if err != nil {
		t.Fatal(err)
	}
	return j, snapshot(t, refDir), out, ix
}

// copyDir copies the regular files of src into a new temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestTrainAllRepairs damages a finished directory in three ways; LoadDir
// refuses it, and a rerun retrains exactly the damaged classes.
func TestTrainAllRepairs(t *testing.T) {
	j, ref, out, ix := finishedCopy(t)
	altered := filepath.Join(out, ix.Sources[0].File)
	b, err := os.ReadFile(altered)
	if err != nil {
		t.Fatal(err)
	}
	// Change one weight digit: the file still parses as a model.
	k := strings.LastIndexAny(string(b), "123456789")
	b[k] = '1' + (b[k]-'1'+1)%9
	if err := os.WriteFile(altered, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := linear.ReadModelFile(altered); err != nil {
		t.Fatalf("the altered model no longer parses (%v): the test needs a subtler change", err)
	}
	if _, err := LoadDir(out); err == nil || !strings.Contains(err.Error(), "was altered") {
		t.Errorf("LoadDir of an altered model: error %v", err)
	}
	deleted := filepath.Join(out, ix.Sources[1].File)
	if err := os.Remove(deleted); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, filepath.FromSlash(sidecarFile(ix.Sources[2].Class, ix.Sources[2].Name)))); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(altered); err != nil { // restore only to see the missing-file error
		t.Fatal(err)
	}
	if _, err := LoadDir(out); err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), ix.Sources[0].Name) {
		t.Errorf("LoadDir of a missing model: error %v, want one naming the source and wrapping fs.ErrNotExist", err)
	}
	if err := os.WriteFile(altered, b, 0o644); err != nil {
		t.Fatal(err)
	}
	repair(t, j, out, ref, 3)
}

// repair reruns j on its damaged directory out: it must train retrain
// classes, reuse the others, give the files of the reference run (ref)
// and a directory LoadDir reads.
func repair(t *testing.T, j job, out string, ref map[string]string, retrain int) {
	t.Helper()
	res, err := j.run(t, context.Background(), out, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Trained != retrain || res.Reused != len(j.sources())-retrain {
		t.Errorf("repair run trained %d and reused %d, want %d and %d", res.Trained, res.Reused, retrain, len(j.sources())-retrain)
	}
	sameFiles(t, snapshot(t, out), ref)
	if _, err := LoadDir(out); err != nil {
		t.Errorf("LoadDir after the repair: %v", err)
	}
}

// A sidecar record that says its model stopped stuck and converged at once
// (which ReadIndex refuses in an index) is a bad record like the others: a
// rerun retrains its class rather than copying it into the index, which
// the next run would refuse.
func TestTrainAllStuckConvergedSidecar(t *testing.T) {
	j, ref, out, ix := finishedCopy(t)
	side := filepath.Join(out, filepath.FromSlash(sidecarFile(ix.Sources[0].Class, ix.Sources[0].Name)))
	rec, err := jsonfile.Read[record](side, "sidecar record", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec.Converged, rec.Stuck = true, true
	if err := jsonfile.Write(side, rec); err != nil {
		t.Fatal(err)
	}
	repair(t, j, out, ref, 1)
}

// TestTrainAllOtherJob reruns a finished directory with another seed,
// bias or negative plan: TrainAll refuses it with ErrOtherJob, naming the
// setting, and leaves the directory as it was. Without the index (a job
// killed before writing it), the other job's models are not reused: every
// class is trained again.
func TestTrainAllOtherJob(t *testing.T) {
	j := newJob(t)
	refDir := j.reference(t)
	ref := snapshot(t, refDir)
	refIx, err := ReadIndex(refDir)
	if err != nil {
		t.Fatal(err)
	}
	otherSeed, otherBias, otherPlan, otherData := j, j, j, j
	otherSeed.cfg.Seed = 2
	otherBias.cfg.Bias = -1
	if otherPlan.neg, err = PlanNegatives(j.f, nil, 0.25, 2); err != nil {
		t.Fatal(err)
	}
	otherData.f = datasettest.WriteFolder(t, datasettest.Blobs(8, 8, 20, 8, 3))
	// The settings there and here, whole: the data's digest abbreviated
	// without cutting the brackets (it read "([57191769…, now [099cf2eb…)").
	dataThere := fmt.Sprintf("digest %s, %d features", refIx.DataSHA256[:12], refIx.NumFeatures)
	for _, tc := range []struct {
		name, setting string
		job           job
	}{
		{"seed", fmt.Sprintf("(seed there: %d; this job: 2)", j.cfg.Seed), otherSeed},
		{"bias", fmt.Sprintf("(bias there: %v; this job: -1)", j.cfg.Bias), otherBias},
		{"plan", fmt.Sprintf("(negative pool there: classes %v, seed %d; this job: classes %v, seed 2)", j.neg.Classes, j.neg.Seed, otherPlan.neg.Classes), otherPlan},
		{"data", "(data there: " + dataThere + "; this job: digest ", otherData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t, refDir)
			_, err := tc.job.run(t, context.Background(), dir, RunOptions{})
			if !errors.Is(err, ErrOtherJob) || !strings.Contains(err.Error(), dir+" holds the sources of another job "+tc.setting) {
				t.Fatalf("TrainAll over another job's directory: %v, want ErrOtherJob naming %s", err, tc.setting)
			}
			sameFiles(t, snapshot(t, dir), ref)

			if err := os.Remove(filepath.Join(dir, IndexFile)); err != nil {
				t.Fatal(err)
			}
			res, err := tc.job.run(t, context.Background(), dir, RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Reused != 0 || res.Trained != len(tc.job.sources()) {
				t.Errorf("without the index: trained %d, reused %d, want %d, 0", res.Trained, res.Reused, len(tc.job.sources()))
			}
		})
	}
	// The same job over its directory moved elsewhere, with the dataset
	// folder moved too, is the same job: everything is reused.
	moved := j
	f := *j.f
	f.Dir = "elsewhere"
	moved.f = &f
	res, err := moved.run(t, context.Background(), copyDir(t, refDir), RunOptions{})
	if err != nil || res.Trained != 0 {
		t.Errorf("the same job over a copy, the data moved: %v, trained %d, want 0", err, res.Trained)
	}
	// An index that cannot be read is refused too, naming its problem.
	dir := copyDir(t, refDir)
	if err := os.WriteFile(filepath.Join(dir, IndexFile), []byte(`{"version": 9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := j.run(t, context.Background(), dir, RunOptions{}); !errors.Is(err, ErrOtherJob) || !strings.Contains(err.Error(), "index version 9") {
		t.Errorf("TrainAll over an index of version 9: %v, want ErrOtherJob naming the version", err)
	}
}

// TestTrainAllLocks: TrainAll holds its directory for the run, so another
// process (here another lock holder) in the directory makes it fail with
// dirlock.ErrLocked before it trains anything; a shard holds its part only,
// beside another shard of its count, but not beside a whole run.
func TestTrainAllLocks(t *testing.T) {
	j := newJob(t)
	out := t.TempDir()
	held, err := dirlock.Acquire(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.run(t, context.Background(), out, RunOptions{}); !errors.Is(err, dirlock.ErrLocked) {
		t.Errorf("TrainAll in a held directory: %v, want ErrLocked", err)
	}
	if _, err := j.run(t, context.Background(), out, RunOptions{Shard: shard.Shard{I: 0, N: 2}}); !errors.Is(err, dirlock.ErrLocked) {
		t.Errorf("shard 0/2 in a held directory: %v, want ErrLocked", err)
	}
	if _, err := os.Stat(filepath.Join(out, IndexFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("TrainAll wrote an index in a held directory: %v", err)
	}
	held.Release()
	part, err := lockDir(out, shard.Shard{I: 1, N: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer part.Release()
	if _, err := j.run(t, context.Background(), out, RunOptions{Shard: shard.Shard{I: 1, N: 2}}); !errors.Is(err, dirlock.ErrLocked) {
		t.Errorf("shard 1/2 beside a holder of shard 1/2: %v, want ErrLocked", err)
	}
	if _, err := j.run(t, context.Background(), out, RunOptions{}); !errors.Is(err, dirlock.ErrLocked) {
		t.Errorf("a whole run beside a holder of shard 1/2: %v, want ErrLocked", err)
	}
	if res, err := j.run(t, context.Background(), out, RunOptions{Shard: shard.Shard{I: 0, N: 2}}); err != nil || res.Trained == 0 {
		t.Errorf("shard 0/2 beside a holder of shard 1/2: %v", err)
	}
}

// TestTrainAllShardCounts: shards of 2 and shards of 3 split the classes
// differently, so one of each running at once trained some classes twice,
// both writing their files: while a shard of 2 runs, a shard of 3 is
// refused (dirlock.ErrLocked, naming the shards of 2 and their lock file)
// and writes nothing, and a shard of 2 is not. Once the shards of 2 have
// finished, shards of 3 resume the directory, reusing their models (shard
// 1/3 after shard 0/2: the classes c with c mod 3 = 1 and c even).
func TestTrainAllShardCounts(t *testing.T) {
	j := newJob(t)
	out := t.TempDir()
	part, err := lockDir(out, shard.Shard{I: 1, N: 2})
	if err != nil {
		t.Fatal(err)
	}
	lockFile := filepath.Join(out, dirlock.LockFile+".group-2-shards")
	// The refusal speaks of shards as the user gives them (--shard i/N),
	// not of dirlock's groups and parts ("the parts of group 2-shards …
	// this process's part shard-0-of-3, of group 3-shards, may not join").
	for _, tc := range []struct {
		sh   shard.Shard
		want string
	}{
		{shard.Shard{I: 0, N: 3}, "source: shards of train-sources --shard i/2 are training into " + out + " (lock file " + lockFile + "); a --shard 0/3 may not join them until they finish"},
		{shard.Shard{}, "source: shards of train-sources --shard i/2 are training into " + out + " (lock file " + lockFile + "); training every source here may not start until they finish"},
	} {
		_, err = j.run(t, context.Background(), out, RunOptions{Shard: tc.sh})
		if !errors.Is(err, dirlock.ErrLocked) || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "of group") {
			t.Errorf("shard %v beside a holder of shard 1/2: %v; want ErrLocked, %q …, without dirlock's groups", tc.sh, err, tc.want)
		}
	}
	if models, err := os.ReadDir(filepath.Join(out, modelDir)); err != nil || len(models) != 0 {
		t.Errorf("shard 0/3 refused beside shard 1/2 wrote %d models (%v)", len(models), err)
	}
	count := func(in func(c int) bool) int {
		n := 0
		for _, c := range j.sources() {
			if in(c) {
				n++
			}
		}
		return n
	}
	res, err := j.run(t, context.Background(), out, RunOptions{Shard: shard.Shard{I: 0, N: 2}})
	if err != nil {
		t.Fatalf("shard 0/2 beside a holder of shard 1/2: %v", err)
	}
	if n := count(func(c int) bool { return c%2 == 0 }); res.Trained != n || res.Reused != 0 {
		t.Errorf("shard 0/2 trained %d, reused %d; want %d, 0", res.Trained, res.Reused, n)
	}
	part.Release()
	res, err = j.run(t, context.Background(), out, RunOptions{Shard: shard.Shard{I: 1, N: 3}})
	if err != nil {
		t.Fatalf("shard 1/3 after the shards of 2: %v", err)
	}
	reused, trained := count(func(c int) bool { return c%3 == 1 && c%2 == 0 }), count(func(c int) bool { return c%3 == 1 && c%2 != 0 })
	if res.Trained != trained || res.Reused != reused || reused == 0 || trained == 0 {
		t.Errorf("shard 1/3 after shard 0/2 trained %d, reused %d; want %d, %d (both > 0)", res.Trained, res.Reused, trained, reused)
	}
}

// TestTrainAllShards runs shards 0/2 and 1/2 into one directory, one after
// the other: the first index lists the first shard's sources and names the
// rest missing; the end result equals a single run.
func TestTrainAllShards(t *testing.T) {
	j := newJob(t)
	ref := snapshot(t, j.reference(t))
	out := t.TempDir()
	var even, odd []string
	for _, c := range j.sources() {
		if c%2 == 0 {
			even = append(even, j.f.Classes[c])
		} else {
			odd = append(odd, j.f.Classes[c])
		}
	}
	res, err := j.run(t, context.Background(), out, RunOptions{Shard: shard.Shard{I: 0, N: 2}})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, e := range res.Index.Sources {
		listed = append(listed, e.Name)
	}
	if res.Trained != len(even) || !slices.Equal(listed, even) || !slices.Equal(res.Index.Missing, odd) {
		t.Errorf("shard 0/2 trained %d, lists %v, misses %v; want %d, %v, %v", res.Trained, listed, res.Index.Missing, len(even), even, odd)
	}
	// LoadDir refuses the shard's part of the sources, naming the index;
	// loadModels reads it.
	if _, err := LoadDir(out); err == nil || !strings.Contains(err.Error(), filepath.Join(out, IndexFile)+": source: the sources are incomplete") {
		t.Errorf("LoadDir after shard 0/2: error %v, want one naming the index and the missing classes", err)
	}
	set, err := res.Index.loadModels(out)
	if err != nil {
		t.Fatalf("loadModels after shard 0/2: %v", err)
	}
	var loaded []string
	for j := range set.Len() {
		loaded = append(loaded, set.Name(j))
	}
	if !slices.Equal(loaded, even) {
		t.Errorf("loadModels after shard 0/2 read %v, want %v", loaded, even)
	}
	res, err = j.run(t, context.Background(), out, RunOptions{Shard: shard.Shard{I: 1, N: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Trained != len(odd) || res.Reused != 0 || res.Index.Missing != nil {
		t.Errorf("shard 1/2 trained %d, reused %d, misses %v", res.Trained, res.Reused, res.Index.Missing)
	}
	sameFiles(t, snapshot(t, out), ref)
}

// TestTrainAllBadShard checks that TrainAll rejects an invalid shard
// (package shard tests parsing and partitioning).
func TestTrainAllBadShard(t *testing.T) {
	if _, err := TrainAll(context.Background(), nil, nil, t.TempDir(), DefaultTrainConfig(), RunOptions{Shard: shard.Shard{I: 2, N: 2}}); err == nil {
		t.Error("TrainAll with shard 2/2: no error")
	}
}

func TestLoadDirErrors(t *testing.T) {
	j := newJob(t)
	refDir := j.reference(t)
	index, err := os.ReadFile(filepath.Join(refDir, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	// edit returns the index with one JSON field replaced.
	edit := func(change func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(index, &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	firstSource := func(m map[string]any) map[string]any { return m["sources"].([]any)[0].(map[string]any) }
	// renameFirst names the first source's class name in the index's
	// classes and in the source alike.
	renameFirst := func(m map[string]any, name string) {
		src := firstSource(m)
		m["classes"].([]any)[int(src["class"].(float64))] = name
		src["name"] = name
	}
	for _, tc := range []struct {
		name  string
		index string // "": no index file
		want  string
	}{
		{"no index", "", "no such file"},
		{"not JSON", "{\"version\": 1,", "unexpected EOF"},
		{"trailing data", string(index) + "{}", "data after the index"},
		{"version", edit(func(m map[string]any) { m["version"] = 2 }), "index version 2"},
		{"unknown field", edit(func(m map[string]any) { m["colour"] = "red" }), `member "colour" is unknown to this greedytl: the directory was written by a newer greedytl`},
		{"no negatives", edit(func(m map[string]any) { delete(m, "negatives") }), "no negative plan"},
		{"solver", edit(func(m map[string]any) { m["solver"] = "NOPE" }), "unknown solver"},
		{"class range", edit(func(m map[string]any) { firstSource(m)["class"] = 99 }), "class 99 out of range"},
		{"class name", edit(func(m map[string]any) { firstSource(m)["name"] = "other" }), `is named "c`},
		{"escape", edit(func(m map[string]any) { firstSource(m)["file"] = "../x.model" }), "not a path inside"},
		// An index whose second source names the first's model file (and
		// digest) loaded: one classifier scored under two classes' names.
		{"file twice", edit(func(m map[string]any) {
			first, second := firstSource(m), m["sources"].([]any)[1].(map[string]any)
			second["file"], second["sha256"] = first["file"], first["sha256"]
		}), `'s too: each source needs its own model file`},
		{"stuck converged", edit(func(m map[string]any) { firstSource(m)["converged"], firstSource(m)["stuck"] = true, true }), "stuck and converged at once"},
		{"no sources", edit(func(m map[string]any) { m["sources"] = []any{} }), "lists no sources"},
		{"incomplete", edit(func(m map[string]any) {
			name := firstSource(m)["name"]
			m["sources"] = m["sources"].([]any)[1:]
			m["missing"] = []any{name}
		}), "sources.json: source: the sources are incomplete: 1 class ("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t, refDir)
			path := filepath.Join(dir, IndexFile)
			if tc.index == "" {
				os.Remove(path)
			} else if err := os.WriteFile(path, []byte(tc.index), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadDir(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("LoadDir error %v, want one containing %q", err, tc.want)
			}
		})
	}
	// Class names that classes.txt may not hold (dataset/labelrunes.go) but
	// an index written before that rule may: still read.
	for _, name := range []string{"c\u202eat", "Ge\u00adwicht"} {
		dir := copyDir(t, refDir)
		index := edit(func(m map[string]any) { renameFirst(m, name) })
		if err := os.WriteFile(filepath.Join(dir, IndexFile), []byte(index), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadDir(dir); err != nil {
			t.Errorf("an index naming a class %q: %v", name, err)
		}
	}
}

// TestLoadDirRefusesModelsOfOtherFeatures: a model file replaced by one of
// more features, its digest recorded anew in the index (a directory put
// together by hand), loaded, and fit and predict failed blaming X ("model
// has 5 features but the examples have 4"). LoadDir now refuses it, naming
// the model file and the index's num_features. One of fewer features is
// liblinear's of data whose last features are zero, and loads
// (its case here; the Python package's
// test_sources_dir_model_of_fewer_features).
func TestLoadDirRefusesModelsOfOtherFeatures(t *testing.T) {
	refDir := newJob(t).reference(t)
	for _, delta := range []int{-1, 1} {
		t.Run(strconv.Itoa(delta), func(t *testing.T) {
			dir := copyDir(t, refDir)
			ix, err := ReadIndex(dir)
			if err != nil {
				t.Fatal(err)
			}
			e := &ix.Sources[0]
			file := filepath.Join(dir, filepath.FromSlash(e.File))
			m, err := linear.ReadModelFile(file)
			if err != nil {
				t.Fatal(err)
			}
			other := *m
			other.NrFeature = m.NrFeature + delta
			other.W = make([]float64, other.NrFeature+1) // the bias weight last
			for k := range other.W {
				other.W[k] = float64(k + 1)
			}
			if err := linear.WriteModelFile(file, &other); err != nil {
				t.Fatal(err)
			}
			if e.SHA256, err = filedigest.SHA256(file); err != nil {
				t.Fatal(err)
			}
			if err := jsonfile.Write(filepath.Join(dir, IndexFile), ix); err != nil {
				t.Fatal(err)
			}
			set, err := LoadDir(dir)
			if delta < 0 { // liblinear's of data whose last feature is 0
				if err != nil {
					t.Fatalf("LoadDir of a model of fewer features: %v", err)
				}
				if _, err := set.Scores(mat.NewDense(2, ix.NumFeatures, nil)); err != nil {
					t.Fatalf("the scores of the index's num_features columns: %v", err)
				}
				return
			}
			want := fmt.Sprintf("source %q: %s is a model of %d features, but the sources were trained on %d features (num_features of %s): it was trained on other features",
				e.Name, file, other.NrFeature, ix.NumFeatures, filepath.Join(dir, IndexFile))
			if err == nil || err.Error() != want {
				t.Fatalf("LoadDir error %v, want %q", err, want)
			}
		})
	}
}

// TestReadIndexOfAKilledRun: a sources directory with models but no
// sources.json (train-sources killed before writing it) was reported as
// "open DIR/sources.json: no such file or directory" by fit, predict and
// experiment; the error now says what happened and how to finish, and
// still matches fs.ErrNotExist. A directory without models gets no such
// guess. It said "a run killed before the end" of a run that SIGTERM or
// Ctrl-C stopped too, which write no index either (TestTrainAllResume).
// Of a directory without models or index, a missing one and a file, which
// got "open DIR/sources.json: no such file or directory" (or "not a
// directory"), the error says that it is not a sources directory and how
// to make one; the first two match fs.ErrNotExist too.
func TestReadIndexOfAKilledRun(t *testing.T) {
	killed := t.TempDir()
	if err := os.Mkdir(filepath.Join(killed, modelDir), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := ReadIndex(killed)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), killed+" holds source models but no index, which train-sources writes last: a run stopped before the end, killed or interrupted") {
		t.Errorf("killed run: %v", err)
	}
	// The user's own liblinear models in DIR/models, without the records
	// train-sources writes beside its own: not a stopped run.
	own := t.TempDir()
	if err := os.Mkdir(filepath.Join(own, modelDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(own, modelDir, "cat.model"), []byte("solver_type L2R_LR\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The folder of models given itself (--sources own/models) says so too.
	for _, dir := range []string{own, filepath.Join(own, modelDir)} {
		_, err = ReadIndex(dir)
		if want := dir + " is not a sources directory (sources.json: no such file or directory): the models in " + filepath.Join(own, modelDir) + " are models of your own, without the records train-sources writes beside each model. --sources takes a directory train-sources made (train-sources makes one: greedytl train-sources --data DATA --out " + dir + "); for models of your own (liblinear's), give their scores with --source-scores instead"; !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("own models in %s: %v, want %q", dir, err, want)
		}
	}
	// A folder of other files is no folder of models.
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "x.csv"), []byte("1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadIndex(data); err == nil || !strings.Contains(err.Error(), data+" is not a sources directory (sources.json: no such file or directory): train-sources makes one") {
		t.Errorf("a folder of data: %v", err)
	}
	// A stopped run's models have their records.
	if err := os.WriteFile(filepath.Join(own, modelDir, "cat.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadIndex(own); err == nil || !strings.Contains(err.Error(), "a run stopped before the end") {
		t.Errorf("a stopped run's models and records: %v", err)
	}
	other := t.TempDir()
	missing := filepath.Join(other, "nope")
	file := filepath.Join(other, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, want string
		notExist  bool
	}{
		{other, other + " is not a sources directory (sources.json: no such file or directory): train-sources makes one: greedytl train-sources --data DATA --out " + other, true},
		{missing, "sources directory " + missing + ": no such file or directory (train-sources makes one: greedytl train-sources --data DATA --out " + missing + ")", true},
		{file, file + " is a file, not a sources directory (train-sources makes one: greedytl train-sources --data DATA --out " + file + ")", false},
	} {
		_, err := ReadIndex(tc.dir)
		if err == nil || err.Error() != tc.want || errors.Is(err, fs.ErrNotExist) != tc.notExist {
			t.Errorf("ReadIndex(%s): %v; want %q, matching fs.ErrNotExist: %v", tc.dir, err, tc.want, tc.notExist)
		}
		if _, lerr := LoadDir(tc.dir); lerr == nil || !strings.Contains(lerr.Error(), tc.want) {
			t.Errorf("LoadDir(%s): %v; want an error containing %q", tc.dir, lerr, tc.want)
		}
	}
}

// TestReadIndexPointsAtTheSourcesDirectory: --sources given the models
// folder of a sources directory, an experiment run whose sources are in
// RUN/sources, or the index file itself was told "train-sources makes
// one: greedytl train-sources --data DATA --out DIR", advice to train
// another set of sources into that directory; the error now names the
// sources directory meant.
func TestReadIndexPointsAtTheSourcesDirectory(t *testing.T) {
	run := t.TempDir()
	src := filepath.Join(run, "sources")
	models := filepath.Join(src, modelDir)
	if err := os.MkdirAll(models, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, IndexFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(src, IndexFile)
	for _, tc := range []struct{ dir, want string }{
		{models, models + " is not a sources directory (sources.json: no such file or directory): " + src + " is one: give that"},
		{run, run + " is not a sources directory (sources.json: no such file or directory): " + src + " is one: give that"},
		{index, index + " is the index of a sources directory: give the directory, " + src},
	} {
		if _, err := ReadIndex(tc.dir); err == nil || err.Error() != tc.want {
			t.Errorf("ReadIndex(%s): %v; want %q", tc.dir, err, tc.want)
		}
	}
}

// TestAbbrev: a setting too long for a message is cut between its words,
// with "…" and the brackets it opened closed, in 60 characters at most; a
// negative pool keeps its seed; a dataset shows 12 hex digits of its
// digest. The message read "([57191769…, now [099cf2eb…)" before; a value
// whose first 56 bytes start no character (not UTF-8) made it index s[-1].
func TestAbbrev(t *testing.T) {
	grid := make([]float64, 30)
	classes := make([]string, 40)
	for k := range grid {
		grid[k] = float64(k) + 0.125
	}
	for k := range classes {
		classes[k] = fmt.Sprintf("class%d", k)
	}
	digest := strings.Repeat("0123456789abcdef", 4)
	for _, tc := range []struct {
		v    any
		want string
	}{
		{[]float64{1, 2}, "[1 2]"},
		{grid, "[0.125 1.125 2.125 3.125 4.125 5.125 6.125 7.125 8.125 …]"},
		{&Negatives{Classes: []int{3}, Seed: 1}, "classes [3], seed 1"},
		{&Negatives{Classes: make([]int, 40), Seed: 4}, "classes [" + strings.Repeat("0 ", 27) + "…], seed 4"},
		{dataID{digest, 10}, "digest 0123456789ab, 10 features"},
		{classes, "[class0 class1 class2 class3 class4 class5 class6 …]"},
		{strings.Repeat("x", 70), strings.Repeat("x", 56) + " …"},
		{strings.Repeat("é", 40), strings.Repeat("é", 28) + " …"}, // not inside a character
		{strings.Repeat("\x80", 70), " …"},                        // no character starts before the cut: no panic
	} {
		got := abbrev(tc.v)
		_, pool := tc.v.(*Negatives)
		if got != tc.want || (!pool && utf8.RuneCountInString(got) > 60) {
			t.Errorf("abbrev(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestTrainAllCancelledBefore: a run whose context is done before it
// starts returns the context's error and leaves nothing behind: no
// directory, no lock file, no model (it used to create the directory and
// its models folder and take the lock first).
func TestTrainAllCancelledBefore(t *testing.T) {
	j := newJob(t)
	out := filepath.Join(t.TempDir(), "sources")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := j.run(t, ctx, out, RunOptions{Workers: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run returned %v, want context.Canceled", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a run cancelled before it started created %s (stat: %v)", out, err)
	}
}
