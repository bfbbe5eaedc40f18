package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/tmpfstest"
)

// TestUnwritableOutputRefusedFirst: an output this process may not write
// (here on a read-only file system: a file, a directory to create, or the
// directory itself) is refused before any input is read or any work done,
// with the write's own message naming the output and exit 1 (issue: fit,
// predict, train, train-sources and synth did all their work, then failed
// to write). The inputs named do not exist: a command that read them
// first would say so instead, with exit 2.
func TestUnwritableOutputRefusedFirst(t *testing.T) {
	ro := tmpfstest.Unwritable(t)
	missing := filepath.Join(t.TempDir(), "absent")
	file := filepath.Join(ro, "out.json")
	dir := filepath.Join(ro, "out")
	for _, tc := range []struct {
		out  string
		args []string
	}{
		{file, []string{"fit", "--features", missing + ".npy", "--labels", missing + ".txt", "--positive", "cat", "--out", file}},
		{file, []string{"predict", "--model", missing + ".json", "--features", missing + ".npy", "--out", file}},
		{file, []string{"train", "--data", missing + ".svm", "--out", file}},
		{file, []string{"train", missing + ".svm", file}},
		{dir, []string{"train-sources", "--data", missing, "--out", dir}},
		{ro, []string{"train-sources", "--data", missing, "--out", ro}},
		{dir, []string{"synth", "--out", dir}},
		{ro, []string{"synth", "--out", ro}},
	} {
		code, stdout, stderr := cli(t, "", tc.args...)
		if code != exitFailure || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.out) ||
			!strings.Contains(stderr, "read-only file system") && !strings.Contains(stderr, "permission denied") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, nothing and one line saying %s cannot be written", tc.args, code, stdout, stderr, exitFailure, tc.out)
			continue
		}
		if err := errtest.CommandMessage(strings.TrimSuffix(stderr, "\n")); err != nil {
			t.Errorf("%q: %v", tc.args, err)
		}
	}
	if ents, err := os.ReadDir(ro); err != nil || len(ents) != 0 {
		t.Errorf("the refused commands left %v in %s (%v)", ents, ro, err)
	}
}

// TestUsageErrorsBeforeUnwritableOutput: a flag or input refused without
// any work (exit 2) is refused as such when the output cannot be written
// either: synth and train-sources checked their output directory first
// and said "read-only file system" (exit 1), hiding what the user must
// fix first (synth --classes 1; train-sources --folds 1, or an --out that
// is a run directory of experiment's); so did train (-c -1, -v 1), predict
// (an --out named .npy, --positive without --labels, two standard inputs)
// and fit (two standard inputs), whose checkOut asked of the writability,
// and merge (a FILE.jsonl in an input run, which Merge refuses).
func TestUsageErrorsBeforeUnwritableOutput(t *testing.T) {
	ro := tmpfstest.Unwritable(t)
	missing := filepath.Join(t.TempDir(), "absent")
	// A run directory of experiment's that cannot be written into.
	run := tmpfstest.Mount(t, 1<<20, false)
	if err := os.WriteFile(filepath.Join(run, experiment.ManifestFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", run).CombinedOutput(); err != nil {
		t.Skipf("remounting %s read-only: %v: %s", run, err, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"synth", "--classes", "1", "--out", filepath.Join(ro, "x")}, "1 class, want at least 2"},
		{[]string{"train-sources", "--data", missing, "--folds", "1", "--out", filepath.Join(ro, "x")}, "fold"},
		{[]string{"train-sources", "--data", missing, "--out", run}, "run directory"},
		{[]string{"train", "-c", "-1", missing, filepath.Join(ro, "x")}, "-c -1: the cost must be > 0"},
		{[]string{"train", "-v", "1", "-C", missing, filepath.Join(ro, "x")}, "-v 1: cross-validation needs at least 2 folds"},
		{[]string{"predict", "--model", missing, "--features", missing, "--out", filepath.Join(ro, "x.npy")}, "not a .npy array"},
		{[]string{"predict", "--model", missing, "--features", missing, "--positive", "1", "--out", filepath.Join(ro, "x")}, "--positive 1 applies to the evaluation of a binary model against --labels"},
		{[]string{"predict", "--model", "-", "--features", "-", "--out", filepath.Join(ro, "x")}, "cannot both read standard input"},
		{[]string{"fit", "--features", "-", "--labels", "-", "--out", filepath.Join(ro, "x")}, "cannot both read standard input"},
		{[]string{"merge", run, "--out", filepath.Join(run, "results.jsonl")}, "merge into another directory"},
		{[]string{"merge", run, "--out", filepath.Join(run, "x.jsonl")}, "merge into another directory"},
		{[]string{"merge", run, "--out", filepath.Join(run, "merged")}, "merge into another directory"},
	} {
		code, stdout, stderr := cli(t, "", tc.args...)
		if code != exitInput || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, nothing and the error about %s", tc.args, code, stdout, stderr, exitInput, tc.want)
		}
	}
}

// TestPredictLiblinearHeaderHint: predict --labels with a liblinear model
// and --features of one row more than the labels, whose first line could
// be a header of numbers, says so and how to drop it, as for a greedytl
// model (the liblinear path gave the label count alone).
func TestPredictLiblinearHeaderHint(t *testing.T) {
	dir := t.TempDir()
	model := writeText(t, dir, "m.model", "solver_type L2R_LR\nnr_class 2\nlabel 2 4\nnr_feature 2\nbias -1\nw\n1\n-1\n")
	X := writeText(t, dir, "X.csv", "400,410\n1,0\n0,1\n2,0\n")
	y := writeText(t, dir, "y.txt", "2\n4\n4\n")
	wantInputError(t, y+` has 3 labels but the inputs have 4 rows (if the first line of `+X+`, "400,410", is a header of column names, not an example: greedytl reads a header of numbers as data: --features-header yes reads it as a header; or drop the line (tail -n +2 `+X+` > new.csv)`,
		"predict", "--model", model, "--features", X, "--labels", y)
}

// TestOutputDirectoryCheckedFirst: experiment, demo, report and merge refuse an
// output directory they could not create, or not create files in, with
// the message of synth and train-sources (atomicfile.CheckDir: "DIR:
// cannot create it in PARENT: read-only file system", or "DIR: read-only
// file system" for DIR itself) and exit 1, before their work: demo before
// CLINC150 is loaded (no "loading" line), report before the runs are read
// (a missing run is not named), merge before the runs are read (likewise;
// a directory --out failed only when written, a FILE.jsonl is
// checkWritable's), experiment before its run starts (no sources
// trained). They said "mkdir DIR: read-only file system" (report:
// "report: mkdir …"), after their work.
func TestOutputDirectoryCheckedFirst(t *testing.T) {
	ro := tmpfstest.Unwritable(t)
	data := experimentFolder(t)
	missing := filepath.Join(t.TempDir(), "absent")
	sub := filepath.Join(ro, "out")
	in := sub + ": cannot create it in " + ro + ": "
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"experiment", "--data", data, "--out", sub, "--negative-classes", "n0,n1", "--methods", "no-transfer", "--splits", "1", "--noise", "0"}, in},
		{[]string{"experiment", "--data", data, "--out", ro, "--negative-classes", "n0,n1", "--methods", "no-transfer", "--splits", "1", "--noise", "0"}, ro + ": "},
		{[]string{"demo", "--out", sub}, in},
		{[]string{"report", missing, "--out", sub}, in},
		{[]string{"report", missing, "--out", ro}, ro + ": "},
		{[]string{"merge", missing, "--out", sub}, in},
		{[]string{"merge", missing, "--out", ro}, ro + ": "},
	} {
		code, stdout, stderr := cli(t, "", tc.args...)
		if code != exitFailure || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "greedytl: "+tc.want) ||
			!strings.Contains(stderr, "read-only file system") && !strings.Contains(stderr, "permission denied") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, nothing and one line starting %q", tc.args, code, stdout, stderr, exitFailure, "greedytl: "+tc.want)
		}
	}
	if ents, err := os.ReadDir(ro); err != nil || len(ents) != 0 {
		t.Errorf("the refused commands left %v in %s (%v)", ents, ro, err)
	}
}
