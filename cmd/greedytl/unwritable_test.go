package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
		{dir, []string{"synth", "--classes", "0", "--out", dir}},
		{ro, []string{"synth", "--classes", "0", "--out", ro}},
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

// TestPredictLiblinearHeaderHint: predict --labels with a liblinear model
// and --features of one row more than the labels, whose first line could
// be a header of numbers, says so and how to drop it, as for a greedytl
// model (the liblinear path gave the label count alone).
func TestPredictLiblinearHeaderHint(t *testing.T) {
	dir := t.TempDir()
	model := writeText(t, dir, "m.model", "solver_type L2R_LR\nnr_class 2\nlabel 2 4\nnr_feature 2\nbias -1\nw\n1\n-1\n")
	X := writeText(t, dir, "X.csv", "400,410\n1,0\n0,1\n2,0\n")
	y := writeText(t, dir, "y.txt", "2\n4\n4\n")
	wantInputError(t, y+` has 3 labels but the inputs have 4 rows (if the first line of `+X+`, "400,410", is a header of column names, not an example: greedytl reads a header of numbers as data; drop the line (tail -n +2 `+X+` > new.csv)`,
		"predict", "--model", model, "--features", X, "--labels", y)
}
