package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/clinc150"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/internal/dirlock"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// blobDataset writes a dataset folder of 8 separable classes c0..c7 (20
// examples each, Gaussian blobs around 3·e_k in 8 dimensions) and returns
// its path.
func blobDataset(t *testing.T) string {
	t.Helper()
	return datasettest.WriteFolder(t, datasettest.Blobs(5, 8, 20, 8, 3)).Dir
}

// modelFiles returns the model files of a sources directory by name.
func modelFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "models", "*.model"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = string(b)
	}
	files["sources.json"] = ""
	if b, err := os.ReadFile(filepath.Join(dir, source.IndexFile)); err == nil {
		files["sources.json"] = string(b)
	}
	return files
}

func TestTrainSources(t *testing.T) {
	data := blobDataset(t)
	out := filepath.Join(t.TempDir(), "sources")
	args := []string{"train-sources", "--data", data, "--out", out, "--negative-fraction", "0.25", "--seed", "3"}
	code, stdout, stderr := cli(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" || !strings.HasPrefix(stderr, "6 sources in "+filepath.Join(out, "sources.json")+" (6 trained, 0 reused)") {
		t.Errorf("stdout %q, stderr %q: want the summary line on stderr", stdout, stderr)
	}
	ix, err := source.ReadIndex(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Negatives.Classes) != 2 || ix.Negatives.Seed != 3 || ix.Solver != "L2R_L2LOSS_SVC_DUAL" || ix.Bias != 1 || ix.Folds != 5 || len(ix.Grid) != 9 {
		t.Errorf("index settings: %+v", ix)
	}
	f, err := dataset.LoadFolder(data)
	if err != nil {
		t.Fatal(err)
	}
	h := sourceScores(t, out, f.X)
	// Each source scores its own class above every source negative.
	for j, e := range ix.Sources {
		minPos, maxNeg := 1e300, -1e300
		for _, i := range f.Rows(e.Class) {
			minPos = min(minPos, h.At(i, j))
		}
		for _, i := range ix.Negatives.Source {
			maxNeg = max(maxNeg, h.At(i, j))
		}
		if !(minPos > 0 && maxNeg < 0) {
			t.Errorf("source %s: lowest own score %v, highest negative score %v", e.Name, minPos, maxNeg)
		}
	}
	before := modelFiles(t, out)

	// The same command again reuses everything and rewrites the same index.
	code, _, stderr = cli(t, "", args...)
	if code != 0 || !strings.Contains(stderr, "(0 trained, 6 reused)") {
		t.Errorf("rerun: exit %d, stderr %q", code, stderr)
	}
	if after := modelFiles(t, out); !maps.Equal(after, before) {
		t.Error("the rerun changed the files")
	}

	// Named negatives.
	named := filepath.Join(t.TempDir(), "named")
	if code, _, stderr := cli(t, "", "train-sources", "-q", "--data", data, "--out", named, "--negative-classes", "c5,c2"); code != 0 || stderr != "" {
		t.Fatalf("--negative-classes: exit %d, stderr %q (want none with -q)", code, stderr)
	}
	if ix, err := source.ReadIndex(named); err != nil || !slices.Equal(ix.Negatives.Classes, []int{2, 5}) || !ix.Negatives.Named {
		t.Errorf("named negatives: %v, %+v", err, ix.Negatives)
	}
}

// TestTrainSourcesNamesTheNegativePool: the summary line names the classes
// held out as the negative pool, which get no source (a dataset of 8
// classes gives 6 sources), and how they were chosen, so that a user
// need not read sources.json to learn which classes have none.
func TestTrainSourcesNamesTheNegativePool(t *testing.T) {
	data := blobDataset(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--negative-fraction", "0.25", "--seed", "3"}, "drawn at random"},
		{[]string{"--negative-classes", "c5,c2"}, "named"},
	} {
		out := filepath.Join(t.TempDir(), "sources")
		code, _, stderr := cli(t, "", append([]string{"train-sources", "--data", data, "--out", out}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		ix, err := source.ReadIndex(out)
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(ix.Negatives.Classes))
		for i, c := range ix.Negatives.Classes {
			names[i] = ix.Classes[c]
		}
		want := fmt.Sprintf(" reused); negative pool (no source): %s, %s; mean CV", strings.Join(quoteAll(names), ", "), tc.want)
		if len(names) != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%v: stderr %q: want %q", tc.args, stderr, want)
		}
	}
}

// TestTrainSourcesShardAuto runs the job as a two-task array job sharing
// one directory, each task taking its shard from the environment: the
// result equals a single run.
// TestTrainSourcesWarnsOfCappedSources: sources whose final fits stop at
// the solver's iteration cap (overlapping blobs at C = 10⁴) are reported as
// every command's warnings are ("greedytl: warning: ", streams.warn), and
// the run still succeeds, --quiet or not (it silences the summary, not
// warnings); separable blobs give no warning.
func TestTrainSourcesWarnsOfCappedSources(t *testing.T) {
	for _, tc := range []struct {
		sep    float64
		capped bool
		quiet  string
	}{{0.5, true, "--quiet=false"}, {0.5, true, "-q"}, {3, false, "--quiet=false"}} {
		data := datasettest.WriteFolder(t, datasettest.Blobs(5, 8, 20, 8, tc.sep)).Dir
		out := filepath.Join(t.TempDir(), "sources")
		code, _, stderr := cli(t, "", "train-sources", "--data", data, "--out", out, "--negative-fraction", "0.25", "--seed", "3", "--c-grid", "10000", tc.quiet)
		if code != 0 {
			t.Fatalf("separation %v: exit %d: %s", tc.sep, code, stderr)
		}
		want := "greedytl: warning: 6 of 6 sources stopped at the L2R_L2LOSS_SVC_DUAL solver's iteration cap (see the converged field of " + filepath.Join(out, source.IndexFile) + ")\n"
		if got := strings.Contains(stderr, want); got != tc.capped {
			t.Errorf("separation %v, %s: the warning %q in stderr: %v, want %v; stderr:\n%s", tc.sep, tc.quiet, want, got, tc.capped, stderr)
		}
		if !tc.capped && strings.Contains(stderr, "warning") {
			t.Errorf("separation %v: every source converged, yet stderr warns:\n%s", tc.sep, stderr)
		}
	}
}

// TestTrainSourcesWarnsOfSingleExamples: train-sources warns, even with
// -q, of the sources of classes with a single example, naming them and
// the index whose cv_score measures nothing.
func TestTrainSourcesWarnsOfSingleExamples(t *testing.T) {
	data := datasettest.WriteFolder(t, datasettest.Shuffled(5, []int{20, 1, 20, 30}, []float64{4, 4, 4, 0})).Dir
	out := filepath.Join(t.TempDir(), "sources")
	code, _, stderr := cli(t, "", "train-sources", "--data", data, "--out", out, "--negative-classes", "c3", "--c-grid", "1", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `greedytl: warning: 1 of 3 sources was trained on a class with a single example ("c1"): cross-validation cannot score it (its one example`
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, filepath.Join(out, source.IndexFile)) {
		t.Errorf("stderr lacks %q naming %s:\n%s", want, filepath.Join(out, source.IndexFile), stderr)
	}
}

// TestTrainSourcesWarnsOfEmptyClassesAndLeaveOneOut: train-sources warns,
// even with -q, of a class of classes.txt no label uses (it gets no
// source) and of --folds above a source's examples (leave-one-out, as
// liblinear-train does), naming the classes; sources.json still records
// the --folds given.
func TestTrainSourcesWarnsOfEmptyClassesAndLeaveOneOut(t *testing.T) {
	data := datasettest.WriteFolder(t, datasettest.Shuffled(5, []int{20, 0, 20, 30}, []float64{4, 4, 4, 0})).Dir
	out := filepath.Join(t.TempDir(), "sources")
	code, _, stderr := cli(t, "", "train-sources", "--data", data, "--out", out, "--negative-classes", "c3", "--c-grid", "1", "--folds", "1000", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		`greedytl: warning: 1 of the 4 classes of classes.txt has no examples in labels.npy, and so no source ("c1")`,
		`greedytl: warning: 2 of 2 sources had fewer examples than the 1000 folds asked for ("c0", "c2"; the fewest 47): their C was chosen with as many folds as examples, leave-one-out`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, source.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"folds": 1000`) {
		t.Errorf("%s does not record the 1000 folds given", source.IndexFile)
	}
}

func TestTrainSourcesShardAuto(t *testing.T) {
	data := blobDataset(t)
	single := filepath.Join(t.TempDir(), "single")
	if code, _, stderr := cli(t, "", "train-sources", "-q", "--data", data, "--out", single); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	shared := filepath.Join(t.TempDir(), "shared")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	for _, task := range []string{"1", "0"} {
		t.Setenv("JOB_COMPLETION_INDEX", task)
		code, _, stderr := cli(t, "", "train-sources", "--data", data, "--out", shared, "--shard", "auto/2")
		if code != 0 {
			t.Fatalf("task %s: exit %d: %s", task, code, stderr)
		}
		if task == "1" && !strings.Contains(stderr, "classes still missing") {
			t.Errorf("first task's summary %q does not report the missing classes", stderr)
		}
	}
	if got, want := modelFiles(t, shared), modelFiles(t, single); !maps.Equal(got, want) {
		t.Errorf("two shards wrote %d files unlike the single run's %d", len(got), len(want))
	}
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	if sh, err := shard.Parse("auto/3", os.Getenv); err != nil || sh != (shard.Shard{I: 1, N: 3}) {
		t.Errorf("shard.Parse(auto/3) with SLURM_ARRAY_TASK_ID=1: %v, %v", sh, err)
	}
}

// TestTrainSourcesCLINC150 trains sources on the embedded CLINC150 (shard
// 0/50 only: classes 0, 50, 100 and 150 unless held out), whose "oos" class is the negative pool
// unless --negative-classes or --negative-fraction say otherwise.
func TestTrainSourcesCLINC150(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		neg   func(names []string) bool
	}{
		{"default", nil, func(n []string) bool { return slices.Equal(n, []string{clinc150.OOS}) }},
		{"named", []string{"--negative-classes", "greeting"}, func(n []string) bool { return slices.Equal(n, []string{"greeting"}) }},
		// round(0.02 · 151 classes) = 3 classes drawn at random.
		{"fraction", []string{"--negative-fraction", "0.02"}, func(n []string) bool { return len(n) == 3 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := slices.Concat([]string{"train-sources", "--data", "clinc150", "--out", out, "--shard", "0/50", "--c-grid", "0.1,1", "--folds", "2", "-q"}, tc.flags)
			if code, _, stderr := cli(t, "", args...); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			ix, err := source.ReadIndex(out)
			if err != nil {
				t.Fatal(err)
			}
			var neg []string
			for _, c := range ix.Negatives.Classes {
				neg = append(neg, ix.Classes[c])
			}
			if len(ix.Classes) != 151 || ix.Classes[150] != clinc150.OOS || !tc.neg(neg) {
				t.Errorf("%d classes (last %q), negative classes %q", len(ix.Classes), ix.Classes[len(ix.Classes)-1], neg)
			}
			var trained []int
			for _, e := range ix.Sources {
				trained = append(trained, e.Class)
			}
			if want := slices.DeleteFunc([]int{0, 50, 100, 150}, func(c int) bool { return slices.Contains(ix.Negatives.Classes, c) }); !slices.Equal(trained, want) {
				t.Errorf("shard 0/50 trained classes %v, want %v", trained, want)
			}
			if tc.name == "default" {
				// The 1,200 out-of-scope queries: 90% source negatives.
				for _, e := range ix.Sources {
					if e.Positives != 150 || e.Negatives != 1080 {
						t.Errorf("source %s: %d positives, %d negatives; want 150 and 1080", e.Name, e.Positives, e.Negatives)
					}
				}
			}
		})
	}
}

func TestTrainSourcesBadInput(t *testing.T) {
	data := blobDataset(t)
	out := filepath.Join(t.TempDir(), "out")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	base := []string{"train-sources", "--data", data, "--out", out}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no data", []string{"train-sources", "--out", out}, "--data"},
		{"no out", []string{"train-sources", "--data", data}, "--out"},
		{"missing folder", []string{"train-sources", "--data", filepath.Join(data, "nope"), "--out", out}, "nope"},
		{"unknown negative class", append(base, "--negative-classes", "c1,zebra"), `no class named "zebra"`},
		{"both negative flags", append(base, "--negative-classes", "c1", "--negative-fraction", "0.3"), "not both"},
		// It trained against a random pool, the default, without a word.
		{"empty negative classes", append(base, "--negative-classes", ""), "--negative-classes names no class"},
		{"fraction", append(base, "--negative-fraction", "1.5"), "--negative-fraction 1.5: want a value in (0, 1)"},
		{"shard", append(base, "--shard", "2/2"), "shard 2/2"},
		{"auto shard without environment", append(base, "--shard", "auto/4"), "JOB_COMPLETION_INDEX"},
		{"solver", append(base, "--solver", "ridge"), "regressor"},
		{"folds", append(base, "--folds", "1"), "1 cross-validation fold,"},
		{"grid", append(base, "--c-grid", "1,0"), "C = 0"},
		{"grid syntax", append(base, "--c-grid", "1,x"), "c-grid"},
		{"l1 ratio without elastic-net", append(base, "--l1-ratio", "0.2"), "--l1-ratio applies to -s 100 (elastic-net), not -s 1"},
		{"l1 ratio", append(base, "-s", "100", "--l1-ratio", "1.5"), "L1Ratio = 1.5"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantInputError(t, tc.want, tc.args...) })
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run created the output directory")
	}
}

// TestTrainSourcesOneJobPerDirectory: a second train-sources on a directory
// in use fails naming the holder, and one with other settings is refused
// rather than retraining beside the old models (issue rows 4 and 11).
func TestTrainSourcesOneJobPerDirectory(t *testing.T) {
	data := blobDataset(t)
	out := filepath.Join(t.TempDir(), "sources")
	args := []string{"train-sources", "--data", data, "--out", out, "--negative-fraction", "0.25", "--seed", "3", "-q"}
	if code, _, stderr := cli(t, "", args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := modelFiles(t, out)
	held, err := dirlock.Acquire(out)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, "", args...)
	if code != exitFailure || !strings.Contains(stderr, fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("while the directory is held: exit %d, stderr %q; want exit %d naming pid %d", code, stderr, exitFailure, os.Getpid())
	}
	held.Release()
	for _, tc := range []struct {
		change []string
		want   string // the first setting that differs, there and in this job
	}{
		{[]string{"--seed", "4"}, "(negative pool there: classes "}, // the seed draws the pool first
		{[]string{"--c-grid", "1,10"}, "(C grid there: [0.0001 0.001 0.01 0.1 1 10 100 1000 10000]; this job: [1 10])"},
		{[]string{"--negative-fraction", "0.5"}, "(negative pool there: classes "},
	} {
		other := append(append([]string{}, args...), tc.change...)
		code, _, stderr := cli(t, "", other...)
		if code != exitInput || !strings.Contains(stderr, out+" holds the sources of another job "+tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want a refusal saying %q", tc.change, code, stderr, tc.want)
		}
	}
	if after := modelFiles(t, out); !maps.Equal(before, after) {
		t.Error("a refused run changed the sources directory")
	}
	if code, _, stderr := cli(t, "", args...); code != 0 {
		t.Errorf("the same job again: exit %d: %s", code, stderr)
	}
}

// TestFitSourcesChecksTheDirectory: fit and predict --sources refuse a
// sources directory that a sharded job has only partly filled (its index
// names missing classes: the scores would lack their columns, and
// experiment refuses it too) and features whose column count is not the
// sources' dataset's — wider ones too, which the models would score on
// their leading columns alone; the dataset's own features are taken.
func TestFitSourcesChecksTheDirectory(t *testing.T) {
	data := blobDataset(t)
	f, err := dataset.LoadFolder(data)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	X := writeNPY(t, dir, "x.npy", f.X)
	r, c := f.X.Dims()
	wide := mat.NewDense(r, c+1, nil)
	wide.Slice(0, r, 0, c).(*mat.Dense).Copy(f.X)
	Xwide := writeNPY(t, dir, "xwide.npy", wide)
	Xnarrow := writeNPY(t, dir, "xnarrow.npy", f.X.Slice(0, r, 0, c-1))
	var y strings.Builder
	for i := range r {
		fmt.Fprintln(&y, min(f.Labels[i]/4, 1))
	}
	labels := writeText(t, dir, "y.txt", y.String())
	train := []string{"train-sources", "-q", "--data", data, "--out", filepath.Join(dir, "src"), "--negative-fraction", "0.25"}

	if code, _, stderr := cli(t, "", append(train, "--shard", "0/2")...); code != 0 {
		t.Fatalf("shard 0/2: exit %d: %s", code, stderr)
	}
	fit := []string{"fit", "--sources", filepath.Join(dir, "src"), "--labels", labels, "--out", filepath.Join(dir, "m.json"), "--features"}
	code, _, stderr := cli(t, "", append(fit, X)...)
	if want := filepath.Join(dir, "src", "sources.json") + ": source: the sources are incomplete"; code != exitInput || !strings.Contains(stderr, want) {
		t.Errorf("fit with a shard's sources: exit %d, stderr %q; want %d and %q", code, stderr, exitInput, want)
	}

	if code, _, stderr := cli(t, "", train...); code != 0 {
		t.Fatalf("train-sources: exit %d: %s", code, stderr)
	}
	for _, x := range []string{Xwide, Xnarrow} {
		code, _, stderr := cli(t, "", append(fit, x)...)
		if want := fmt.Sprintf("but the sources of %s were trained on %d features", filepath.Join(dir, "src"), c); code != exitInput || !strings.Contains(stderr, x) || !strings.Contains(stderr, want) {
			t.Errorf("fit --features %s: exit %d, stderr %q; want %d and %q", filepath.Base(x), code, stderr, exitInput, want)
		}
	}
	if code, _, stderr := cli(t, "", append(fit, X)...); code != 0 {
		t.Fatalf("fit with the dataset's features: exit %d: %s", code, stderr)
	}
	predict := []string{"predict", "--model", filepath.Join(dir, "m.json"), "--sources", filepath.Join(dir, "src"), "--features", Xwide}
	if code, _, stderr := cli(t, "", predict...); code != exitInput || !strings.Contains(stderr, "trained on") {
		t.Errorf("predict on wider features: exit %d, stderr %q; want a refusal", code, stderr)
	}
}

// TestTrainSourcesElasticNetL1Ratio: train-sources -s 100 trains the
// elastic-net of --l1-ratio, by default train's 0.5 — it trained the pure
// L2 ratio 0, which it neither said nor recorded — and the index records
// the ratio, so that a rerun with another is refused.
func TestTrainSourcesElasticNetL1Ratio(t *testing.T) {
	data := blobDataset(t)
	// 0.5 is the default: that run does not give the flag.
	for _, want := range []float64{0.5, 0.25} {
		out := filepath.Join(t.TempDir(), "sources")
		base := []string{"train-sources", "--data", data, "--out", out, "--negative-fraction", "0.25", "-s", "100", "--c-grid", "1", "-q"}
		args := base
		if want != 0.5 {
			args = append(slices.Clone(base), "--l1-ratio", fmt.Sprint(want))
		}
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		ix, err := source.ReadIndex(out)
		if err != nil {
			t.Fatal(err)
		}
		if ix.Solver != "ELASTICNET_LR" || ix.L1Ratio != want {
			t.Errorf("%v: the index records solver %s, L1 ratio %v; want ELASTICNET_LR, %v", args, ix.Solver, ix.L1Ratio, want)
		}
		wantInputError(t, fmt.Sprintf("(L1 ratio there: %v; this job: 0.75)", want), append(slices.Clone(base), "--l1-ratio", "0.75")...)
	}
}

// TestTrainSourcesRefusesARunDirectory: train-sources --out RUN, RUN a run
// directory of experiment, is refused, naming RUN and what to give
// instead, and writes nothing into it; it trained its sources into RUN,
// among the run's files. So is a run directory without run.json yet, of a
// run stopped while it trained its sources (its lock file and sources/,
// the rest removed): train-sources wrote into it, and the run could no
// longer be resumed ("RUN is a sources directory"); it is resumed.
func TestTrainSourcesRefusesARunDirectory(t *testing.T) {
	data := experimentFolder(t)
	experimentArgs := func(run string) []string {
		return []string{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2", "--splits", "1",
			"--methods", "no-transfer", "--targets", "c0", "--out", run, "--quiet"}
	}
	run := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := cli(t, "", experimentArgs(run)...); code != exitOK {
		t.Fatalf("experiment: exit %d: %s", code, stderr)
	}
	for _, stopped := range []bool{false, true} {
		if stopped {
			for _, name := range []string{experiment.ManifestFile, "results.jsonl"} {
				if err := os.Remove(filepath.Join(run, name)); err != nil {
					t.Fatal(err)
				}
			}
		}
		before := dirNames(t, run)
		code, _, stderr := cli(t, "", "train-sources", "--data", data, "--negative-classes", "n0,n1", "--out", run, "--quiet")
		if code != exitInput || !strings.Contains(stderr, run+" is a run directory") || !strings.Contains(stderr, "--sources") {
			t.Errorf("train-sources --out RUN (holding %v): exit %d, stderr %q; want exit %d naming %s and --sources", before, code, stderr, exitInput, run)
		}
		// It says which of the two states it found.
		holds := "(it holds run.json)"
		if stopped {
			holds = "(it holds .lock and sources" + string(filepath.Separator) + ", but no run.json: a run that has not written it yet: one training its sources, or stopped while it did)"
		}
		if !strings.Contains(stderr, holds) {
			t.Errorf("train-sources --out RUN (holding %v): stderr %q does not say %s", before, stderr, holds)
		}
		if after := dirNames(t, run); !slices.Equal(before, after) {
			t.Errorf("RUN held %v, and %v after train-sources", before, after)
		}
	}
	if code, _, stderr := cli(t, "", experimentArgs(run)...); code != exitOK {
		t.Errorf("resuming the run stopped while it trained its sources: exit %d: %s", code, stderr)
	}
}

// dirNames returns the names in the directory dir, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestLineProgress: where standard error is not a terminal, the progress
// of a phase is a plain line when a tenth of the total more is done and a
// minute has passed since the last, whichever is later: at most ten lines,
// none within the minute.
func TestLineProgress(t *testing.T) {
	for _, tc := range []struct {
		step time.Duration // the clock's advance per reading
		want []int         // the counts of the lines
	}{
		{10 * time.Second, []int{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}}, // every tenth
		{time.Second, []int{59}},      // every minute
		{100 * time.Millisecond, nil}, // 10 s in all
	} {
		clock := time.Unix(0, 0)
		now := func() time.Time { clock = clock.Add(tc.step); return clock }
		var b bytes.Buffer
		p := lineProgress(&b, "cells", now)
		for done := 0; done <= 100; done++ {
			p(done, 100)
		}
		var want strings.Builder
		start := time.Unix(0, 0).Add(tc.step)
		for _, n := range tc.want {
			fmt.Fprintf(&want, "cells: %d of 100 done (%d%%), %s\n", n, n, time.Unix(0, 0).Add(time.Duration(n+2)*tc.step).Sub(start).Round(time.Second))
		}
		if b.String() != want.String() {
			t.Errorf("a reading every %v: got\n%s\nwant\n%s", tc.step, b.String(), want.String())
		}
	}
}

// TestTrainSourcesProgressLines: train-sources, its standard error not a
// terminal (a Slurm log), showed nothing between its start and its summary
// however long it ran; it now writes lineProgress's lines (the clock here
// a minute a reading: one line a class), and none with -q.
func TestTrainSourcesProgressLines(t *testing.T) {
	data := blobDataset(t)
	wantProgressLines(t, "training sources", func() []string {
		return []string{"train-sources", "--data", data, "--out", filepath.Join(t.TempDir(), "sources"), "--negative-fraction", "0.25", "--workers", "1"}
	})
}

// wantProgressLines runs the command line args() (new outputs each call)
// of 6 steps, its standard error not a terminal, with progressClock a
// minute a reading, and checks that it writes lineProgress's lines of the
// phase what, one a step, and none with -q.
func wantProgressLines(t *testing.T, what string, args func() []string) {
	t.Helper()
	clock := time.Unix(0, 0)
	progressClock = func() time.Time { clock = clock.Add(time.Minute); return clock }
	t.Cleanup(func() { progressClock = time.Now })
	line := regexp.MustCompile(`^` + what + `: ([1-6]) of 6 done \(\d+%\), \d+m0s$`)
	for _, quiet := range []bool{false, true} {
		args := args()
		if quiet {
			args = append(args, "-q")
		}
		code, _, stderr := cli(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		var counts []string
		for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if m := line.FindStringSubmatch(l); m != nil {
				counts = append(counts, m[1])
			}
		}
		want := "1 2 3 4 5 6"
		if quiet {
			want = ""
		}
		if got := strings.Join(counts, " "); got != want {
			t.Errorf("%q: progress lines of %q, want %q; stderr:\n%s", args, got, want, stderr)
		}
	}
}
