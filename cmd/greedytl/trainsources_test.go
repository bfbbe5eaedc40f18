package main

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/source"
)

// blobDataset writes a dataset folder of 8 separable classes c0..c7 (20
// examples each, Gaussian blobs around 3·e_k in 8 dimensions) and returns
// its path.
func blobDataset(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 5))
	const classes, per = 8, 20
	x := mat.NewDense(classes*per, classes, nil)
	labels := make([]int, classes*per)
	names := make([]string, classes)
	for i := range labels {
		k := i % classes
		labels[i], names[k] = k, fmt.Sprintf("c%d", k)
		for j := range classes {
			v := 0.3 * rng.NormFloat64()
			if j == k {
				v += 3
			}
			x.Set(i, j, v)
		}
	}
	writeNPY(t, dir, "features.npy", x)
	var buf bytes.Buffer
	if err := dataset.WriteNPYInts(&buf, labels); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.npy"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	writeText(t, dir, "classes.txt", strings.Join(names, "\n")+"\n")
	return dir
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
	set, err := source.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := dataset.LoadFolder(data)
	if err != nil {
		t.Fatal(err)
	}
	h, err := set.Scores(f.X)
	if err != nil {
		t.Fatal(err)
	}
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

// TestTrainSourcesShardAuto runs the job as a two-task array job sharing
// one directory, each task taking its shard from the environment: the
// result equals a single run.
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
	if sh, err := parseShard("auto/3"); err != nil || sh != (source.Shard{I: 1, N: 3}) {
		t.Errorf("parseShard(auto/3) with SLURM_ARRAY_TASK_ID=1: %v, %v", sh, err)
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
		{"fraction", append(base, "--negative-fraction", "1.5"), "negative fraction 1.5"},
		{"shard", append(base, "--shard", "2/2"), "shard 2/2"},
		{"auto shard without environment", append(base, "--shard", "auto/4"), "JOB_COMPLETION_INDEX"},
		{"solver", append(base, "--solver", "ridge"), "regressor"},
		{"folds", append(base, "--folds", "1"), "1 cross-validation folds"},
		{"grid", append(base, "--c-grid", "1,0"), "C = 0"},
		{"grid syntax", append(base, "--c-grid", "1,x"), "c-grid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", tc.args...)
			if code != exitInput {
				t.Fatalf("exit %d, want %d (stderr %q)", code, exitInput, stderr)
			}
			if stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tc.want) {
				t.Errorf("stdout %q, stderr %q: want nothing and one line containing %q", stdout, stderr, tc.want)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run created the output directory")
	}
}
