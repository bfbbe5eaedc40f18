package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// smallRun runs a small experiment (6 targets × 2 positives × 1 split ×
// no-transfer: 12 cells) on the experimentFolder data into a new run
// directory, with extra flags, and returns the directory.
func smallRun(t *testing.T, data string, extra ...string) string {
	t.Helper()
	run := filepath.Join(t.TempDir(), "run")
	args := slices.Concat([]string{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2,5",
		"--splits", "1", "--methods", "no-transfer", "--out", run, "--quiet"}, extra)
	if code, _, stderr := cli(t, "", args...); code != exitOK {
		t.Fatalf("experiment: exit %d: %s", code, stderr)
	}
	return run
}

// editLine replaces the first match of re on line n (1-based) of path
// with repl, failing the test when it does not match.
func editLine(t *testing.T, path string, n int, re, repl string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	r := regexp.MustCompile(re)
	if !r.MatchString(lines[n-1]) {
		t.Fatalf("%s:%d: %q does not match %s", path, n, lines[n-1], re)
	}
	lines[n-1] = r.ReplaceAllString(lines[n-1], repl)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A record without its balanced_accuracy was read as a cell scoring 0
// (issue 18, row 1): merge and report must refuse it, naming the file and
// line, and merge must write nothing.
func TestMergeAndReportRefuseARecordMissingAMember(t *testing.T) {
	run := smallRun(t, experimentFolder(t))
	results := filepath.Join(run, "results.jsonl")
	editLine(t, results, 3, `"balanced_accuracy":[^,]*,`, "")
	want := results + ":3: balanced_accuracy is missing"
	out := filepath.Join(t.TempDir(), "merged")
	for _, args := range [][]string{{"merge", run, "--out", out}, {"report", run, "--json"}} {
		code, stdout, stderr := cli(t, "", args...)
		if code != exitInput || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", args[0], code, stderr, exitInput, want)
		}
		if args[0] == "report" && stdout != "" {
			t.Errorf("report printed a summary of a malformed run:\n%s", stdout)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("merge wrote %s from a malformed run (%v)", out, err)
	}
}
