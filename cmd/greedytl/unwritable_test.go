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
