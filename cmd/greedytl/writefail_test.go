package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/tmpfstest"
)

// dirEntries returns the names in dir.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// A merge into a read-only file system printed its summary, as if it had
// merged, before failing: a merge whose output cannot be written prints
// no summary, exits 1 with one line naming the output, and leaves nothing.
func TestMergeIntoUnwritableDirectory(t *testing.T) {
	run := smallRun(t, experimentFolder(t))
	ro := tmpfstest.Unwritable(t)
	for _, out := range []string{filepath.Join(ro, "merged"), filepath.Join(ro, "merged.jsonl"), ro} {
		code, stdout, stderr := cli(t, "", "merge", run, "--out", out)
		if code != exitFailure || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, out) {
			t.Errorf("merge --out %s: exit %d, stdout %q, stderr %q; want exit %d, no summary and one line naming the output", out, code, stdout, stderr, exitFailure)
		}
		if err := errtest.CommandMessage(strings.TrimSuffix(stderr, "\n")); err != nil {
			t.Error(err)
		}
	}
	if names := dirEntries(t, ro); len(names) != 0 {
		t.Errorf("the failed merges left %v in %s", names, ro)
	}
}

// A merge into a new run directory on a full disk left run.json without
// results: a merge that fails to write the results removes the run.json
// it wrote, so that nothing of it is left half-written.
func TestMergeOnAFullDisk(t *testing.T) {
	run := smallRun(t, experimentFolder(t), "--splits", "2")
	man, err := os.Stat(filepath.Join(run, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := os.Stat(filepath.Join(run, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Room for the lock file and run.json, a page each, but not results.jsonl.
	page := int64(os.Getpagesize())
	if man.Size() > page || res.Size() <= page {
		t.Fatalf("run.json %d bytes, results.jsonl %d: want at most and more than a page (%d)", man.Size(), res.Size(), page)
	}
	full := tmpfstest.Mount(t, int(2*page), false)
	out := filepath.Join(full, "merged")
	code, stdout, stderr := cli(t, "", "merge", run, "--out", out)
	if code != exitFailure || stdout != "" || !strings.Contains(stderr, out) || !strings.Contains(stderr, "no space left") {
		t.Errorf("merge onto a full disk: exit %d, stdout %q, stderr %q; want exit %d, no summary and a line naming %s", code, stdout, stderr, exitFailure, out)
	}
	for _, name := range []string{"run.json", "results.jsonl"} {
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			t.Errorf("the failed merge left %s in %s", name, out)
		}
	}
}
