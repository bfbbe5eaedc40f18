package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/tmpfstest"
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

// merge's --out onto an input shard overwrote it (issue 18, row 3): an out
// that is an input, the run.json beside one, or inside an input directory
// is refused, and nothing is written.
func TestMergeRefusesAnOutputInsideAnInput(t *testing.T) {
	data := experimentFolder(t)
	var shards []string
	for i := range 2 {
		shards = append(shards, smallRun(t, data, "--shard", fmt.Sprintf("%d/2", i)))
	}
	shard0 := filepath.Join(shards[0], "results-shard-0-of-2.jsonl")
	before, err := os.ReadFile(shard0)
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(shards[0], "run.json")
	beforeMan, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"a shard's results file", []string{"merge", shards[0], shards[1], "--out", shard0}},
		{"a new file in a shard", []string{"merge", shards[0], shards[1], "--out", filepath.Join(shards[0], "results-merged.jsonl")}},
		{"a shard's directory", []string{"merge", shards[0], shards[1], "--out", shards[0]}},
		{"a directory in a shard", []string{"merge", shards[0], shards[1], "--out", filepath.Join(shards[1], "merged")}},
		{"the given results file", []string{"merge", shard0, shards[1], "--out", shard0}},
		{"the run.json beside a results file", []string{"merge", shard0, shards[1], "--out", shards[0]}},
	} {
		code, stdout, stderr := cli(t, "", tc.args...)
		if code != exitInput || !strings.Contains(stderr, "refusing to") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and a refusal", tc.name, code, stderr, exitInput)
		}
		if stdout != "" {
			t.Errorf("%s: printed a summary:\n%s", tc.name, stdout)
		}
	}
	after, _ := os.ReadFile(shard0)
	afterMan, _ := os.ReadFile(manifest)
	if string(after) != string(before) || string(afterMan) != string(beforeMan) {
		t.Fatal("a refused merge changed shard 0")
	}
	if _, err := os.Stat(filepath.Join(shards[1], "merged")); !os.IsNotExist(err) {
		t.Errorf("a refused merge created a directory in shard 1 (%v)", err)
	}
	// Shard 0 resumes as before, and a merge elsewhere is complete.
	if code, _, stderr := cli(t, "", "experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2,5",
		"--splits", "1", "--methods", "no-transfer", "--out", shards[0], "--shard", "0/2", "--quiet"); code != exitOK {
		t.Errorf("resuming shard 0: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := cli(t, "", "merge", shards[0], shards[1], "--out", filepath.Join(t.TempDir(), "m.jsonl")); code != exitOK {
		t.Errorf("merge elsewhere: exit %d: %s%s", code, stdout, stderr)
	}
}

// constantFolder writes the experimentFolder dataset with every feature
// equal to 1: every source scores every example alike, so every column of
// X and H is constant and GreedyTL has no candidate.
func constantFolder(t *testing.T) string {
	t.Helper()
	f := datasettest.Shuffled(5, []int{20, 20, 20, 20, 20, 20, 70, 70}, []float64{4, 4, 4, 4, 4, 4, 4, 4})
	f.Classes = []string{"c0", "c1", "c2", "c3", "c4", "c5", "n0", "n1"}
	r, c := f.X.Dims()
	for i := range r {
		for j := range c {
			f.X.Set(i, j, 1)
		}
	}
	return datasettest.WriteFolder(t, f).Dir
}

// An experiment whose cells all failed exited 0 (issue 18, row 4): a run
// with failed cells exits 1 with a line that says how many failed and why,
// its messages grouped — also when rerun, and when only some failed.
func TestExperimentFailsWhenCellsFail(t *testing.T) {
	data := constantFolder(t)
	const why = "fit: greedytl.Fit: no candidate columns: every column of X and H is constant on the training set"
	for _, tc := range []struct {
		methods string
		want    string
	}{
		{"greedytl", "greedytl: 12 of 12 cells failed (their records in %s carry the error): 12 × " + why + " (greedytl)\n"},
		{"greedytl,greedytl-59,no-transfer", "greedytl: 24 of 36 cells failed (their records in %s carry the error): 24 × " + why + " (greedytl, greedytl-59)\n"},
	} {
		run := filepath.Join(t.TempDir(), "run")
		args := []string{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2,5",
			"--splits", "1", "--methods", tc.methods, "--out", run}
		want := fmt.Sprintf(tc.want, filepath.Join(run, "results.jsonl"))
		for _, rerun := range []bool{false, true} {
			code, _, stderr := cli(t, "", args...)
			if code != exitFailure || !strings.HasSuffix(stderr, want) {
				t.Errorf("%s (rerun %v): exit %d, stderr\n%s\nwant exit %d, ending in\n%s", tc.methods, rerun, code, stderr, exitFailure, want)
			}
		}
		// The data's two negative classes leave 4 test negatives: the run
		// warns of it first (small-test-sets), quiet or not.
		code, _, stderr := cli(t, "", append(args, "-q")...)
		caution := "greedytl: warning: test sets too small for a meaningful accuracy: cells test on 4 negatives "
		if first, rest, _ := strings.Cut(stderr, "\n"); strings.HasPrefix(first, caution) {
			stderr = rest
		} else {
			t.Errorf("%s, quiet: stderr %q; want it to start with %q…", tc.methods, stderr, caution)
		}
		if code != exitFailure || stderr != want {
			t.Errorf("%s, quiet: exit %d, stderr %q; want %q", tc.methods, code, stderr, want)
		}
	}
}

// A finished cell replaced by the same cell of a --seed 2 run was merged
// as a complete run (issue 18, row 2): merge, report and the resume of the
// run refuse it, naming the file and line.
func TestMergeReportAndResumeRefuseARecordOfAnotherRun(t *testing.T) {
	data := experimentFolder(t)
	run := smallRun(t, data)
	other := smallRun(t, data, "--seed", "2")
	results := filepath.Join(run, "results.jsonl")
	lines := strings.SplitAfter(readFile(t, results), "\n")
	key := regexp.MustCompile(`"target_idx":\d+,"positives":\d+,"negatives":\d+,"noise":\d+,"split":\d+,"method":"[^"]*"`)
	cell := key.FindString(lines[4])
	replaced := false
	for _, l := range strings.SplitAfter(readFile(t, filepath.Join(other, "results.jsonl")), "\n") {
		if cell != "" && key.FindString(l) == cell {
			lines[4], replaced = l, true
		}
	}
	if !replaced {
		t.Fatalf("the seed-2 run has no record of cell %s", cell)
	}
	if err := os.WriteFile(results, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	want := results + ":5: cell "
	for _, args := range [][]string{
		{"merge", run, "--out", filepath.Join(t.TempDir(), "m")},
		{"report", run, "--json"},
		{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2,5", "--splits", "1", "--methods", "no-transfer", "--out", run},
	} {
		code, _, stderr := cli(t, "", args...)
		if code != exitInput || !strings.Contains(stderr, want) || !strings.Contains(stderr, "copied from another run") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d, %q and that it was copied from another run", args[0], code, stderr, exitInput, want)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
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
	if ents, err := os.ReadDir(ro); err != nil || len(ents) != 0 {
		t.Errorf("the failed merges left %v in %s (%v)", ents, ro, err)
	}
}

// A merge into a new run directory on a full disk left run.json without
// results: a merge that fails to write the results removes the run.json
// it wrote, so that nothing of it is left half-written.
func TestMergeOnAFullDisk(t *testing.T) {
	run := smallRun(t, experimentFolder(t), "--splits", "2")
	// Room for the lock file and run.json, a page each, but not results.jsonl.
	page := os.Getpagesize()
	if man, res := len(readFile(t, filepath.Join(run, "run.json"))), len(readFile(t, filepath.Join(run, "results.jsonl"))); man > page || res <= page {
		t.Fatalf("run.json %d bytes, results.jsonl %d: want at most and more than a page (%d)", man, res, page)
	}
	full := tmpfstest.Mount(t, 2*page, false)
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

// Shards run by two builds that carry no VCS revision (go run, go test,
// -buildvcs=false) merged silently, both "devel": the build is now told
// by its executable's digest, so that merge refuses them, naming both and
// what to do, as the resume of a shard by the other build is refused; the
// same binary resumes its own shard, and merges it with another of its
// own. Here the two builds are this test binary (in-process) and the
// greedytl command built from the same code.
func TestMergeRefusesShardsOfTwoBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds greedytl: skipped with -short")
	}
	bin := buildGreedytl(t)
	data := experimentFolder(t)
	work := t.TempDir()
	args := func(i int) []string {
		return []string{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2,5", "--splits", "1",
			"--methods", "no-transfer", "--shard", fmt.Sprintf("%d/2", i), "--out", filepath.Join(work, fmt.Sprintf("shard-%d", i)), "--quiet"}
	}
	if code, _, stderr := cli(t, "", args(0)...); code != exitOK {
		t.Fatalf("shard 0, in-process: exit %d: %s", code, stderr)
	}
	if code, out := runBinary(t, bin, nil, args(1)...); code != exitOK {
		t.Fatalf("shard 1, by %s: exit %d: %s", bin, code, out)
	}
	shards := []string{filepath.Join(work, "shard-0"), filepath.Join(work, "shard-1")}
	var versions [2]string
	for i, dir := range shards {
		man, err := experiment.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		versions[i] = man.GreedytlVersion
	}
	if versions[0] == versions[1] {
		t.Errorf("two builds, one greedytl version %q", versions[0])
	}
	code, stdout, stderr := cli(t, "", "merge", shards[0], shards[1], "--out", filepath.Join(work, "merged"))
	if code != exitInput || stdout != "" {
		t.Errorf("merging the shards of two builds: exit %d, stdout %q; want %d and nothing", code, stdout, exitInput)
	}
	for _, want := range []string{versions[0], versions[1], "one binary"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("merging the shards of two builds: %q does not say %q", stderr, want)
		}
	}
	// The build of shard 1 does not resume shard 0; this one does, and
	// shard 0 merges with a shard 1 of its own.
	if code, out := runBinary(t, bin, nil, args(0)...); code != exitInput || !strings.Contains(out, versions[0]) || !strings.Contains(out, versions[1]) {
		t.Errorf("resuming shard 0 by the other build: exit %d: %s; want %d naming both builds", code, out, exitInput)
	}
	if code, _, stderr := cli(t, "", args(0)...); code != exitOK {
		t.Errorf("resuming shard 0 by its build: exit %d: %s", code, stderr)
	}
	own := slices.Clone(args(1))
	own[len(own)-2] = filepath.Join(work, "shard-1-again")
	if code, _, stderr := cli(t, "", own...); code != exitOK {
		t.Fatalf("shard 1, in-process: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := cli(t, "", "merge", shards[0], own[len(own)-2], "--out", filepath.Join(work, "merged")); code != exitOK {
		t.Errorf("merging the shards of one build: exit %d: %s%s", code, stdout, stderr)
	}
}

// A run whose results file holds a line cut short in its middle (left by a
// greedytl whose write failed on a full disk, then wrote on) could not be
// resumed, and the refusal did not say what to do: it says to remove the
// line, after which the resumed run computes that cell again.
func TestResumeOfARunWithABadLine(t *testing.T) {
	data := experimentFolder(t)
	run := smallRun(t, data)
	results := filepath.Join(run, "results.jsonl")
	lines := strings.SplitAfter(readFile(t, results), "\n")
	cut := slices.Clone(lines)
	cut[2] = cut[2][:40] + "\n"
	if err := os.WriteFile(results, []byte(strings.Join(cut, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2,5",
		"--splits", "1", "--methods", "no-transfer", "--out", run, "--quiet"}
	code, _, stderr := cli(t, "", args...)
	if code != exitInput || !strings.Contains(stderr, results+":3: ") || !strings.Contains(stderr, "remove the line") {
		t.Errorf("resuming a run with a bad line 3: exit %d, stderr %q; want %d naming the line and what to do", code, stderr, exitInput)
	}
	if err := os.WriteFile(results, []byte(strings.Join(slices.Delete(cut, 2, 3), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "", args...); code != exitOK {
		t.Fatalf("resuming without the line: exit %d: %s", code, stderr)
	}
	if got := strings.Count(readFile(t, results), "\n"); got != len(lines)-1 {
		t.Errorf("the resumed run holds %d records, want %d", got, len(lines)-1)
	}
}

// TestMergeSummaryCounts: merge's summary writes its counts of 0, 1 and 2
// cells in English: "1 cell", "1 failed: its record carries an error"; it
// wrote "1 cells" (TestMergePrintsTheSummaryOfAMergeOrAConflict has the
// error beside it).
func TestMergeSummaryCounts(t *testing.T) {
	for n, w := range map[int]struct{ cells, failed string }{
		0: {"0 cells", "0 failed: their records carry an error"},
		1: {"1 cell", "1 failed: its record carries an error"},
		2: {"2 cells", "2 failed: their records carry an error"},
	} {
		keys := make([]experiment.Key, n)
		rep := &experiment.MergeSummary{Files: []string{"r"}, Expected: n, Present: n, Failed: n, Missing: keys, Duplicates: keys, Conflicts: keys}
		var out bytes.Buffer
		printMergeReport(&streams{out: &out}, rep)
		got := missingCells(out.String())
		want := "files:      1\nexpected:   " + w.cells + "\npresent:    " + w.cells + " (" + w.failed + ")\nmissing:    " + w.cells +
			"\nduplicates: " + w.cells + " (identical but for fit_seconds: kept once)\n"
		if n > 0 {
			want += "conflicts:  " + w.cells + " (different records: nothing written)\n"
		}
		if got != want {
			t.Errorf("%d cells: summary\n%s\nwant\n%s", n, got, want)
		}
	}
}

// missingCells returns merge's summary without its lines listing the
// missing cells.
func missingCells(summary string) string {
	return regexp.MustCompile(`(?m)^            .*\n`).ReplaceAllString(summary, "")
}

// TestMergePrintsTheSummaryOfAMergeOrAConflict pins what greedytl merge
// prints and returns in each case, now that experiment.Merge returns a
// summary only of a merge or of conflicting records (the CLI used to
// sort this out from the summary and the error itself): the summary of a
// merge (exit 0 when complete, 1 when cells are missing), of conflicting
// records (listed; exit 2, nothing written), and none with exit 2 for an
// output refused (TestMergeIntoUnwritableDirectory: none with exit 1 for
// an output that cannot be written).
func TestMergePrintsTheSummaryOfAMergeOrAConflict(t *testing.T) {
	data := experimentFolder(t)
	run := smallRun(t, data)
	again := smallRun(t, data)
	other := smallRun(t, data, "--seed", "2")
	// The same run without its third record: a cell missing.
	lines := strings.SplitAfter(readFile(t, filepath.Join(run, "results.jsonl")), "\n")
	short := filepath.Join(t.TempDir(), "short.jsonl")
	if err := os.WriteFile(short, []byte(strings.Join(slices.Delete(slices.Clone(lines), 2, 3), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(short), "run.json"), []byte(readFile(t, filepath.Join(run, "run.json"))), 0o644); err != nil {
		t.Fatal(err)
	}
	// again's first record scoring otherwise: a conflict.
	conflicting := filepath.Join(t.TempDir(), "conflicting")
	if err := os.CopyFS(conflicting, os.DirFS(again)); err != nil {
		t.Fatal(err)
	}
	editLine(t, filepath.Join(conflicting, "results.jsonl"), 1, `"balanced_accuracy":[^,]*,`, `"balanced_accuracy":0.123,`)

	// summary is the summary printed, but for the lines listing missing
	// cells.
	summary := func(files, present int, missing string, duplicates int) string {
		return fmt.Sprintf("files:      %d\nexpected:   12 cells\npresent:    %d cells (0 failed: their records carry an error)\n", files, present) +
			fmt.Sprintf("missing:    %s\nduplicates: %d cells (identical but for fit_seconds: kept once)\n", missing, duplicates)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
		out    string // written, or not when the merge fails
	}{
		{name: "check", args: []string{run}, code: exitOK, stdout: summary(1, 12, "0 cells", 0)},
		{name: "merged", args: []string{run, again}, code: exitOK, stdout: summary(2, 12, "0 cells", 12), out: filepath.Join(t.TempDir(), "m")},
		{name: "missing", args: []string{short}, code: exitFailure, stdout: summary(1, 11, "1 cell", 0), stderr: "1 of 12 cells is missing", out: filepath.Join(t.TempDir(), "m.jsonl")},
		{name: "conflict", args: []string{run, conflicting}, code: exitInput,
			stdout: summary(2, 12, "0 cells", 11) + "conflicts:  1 cell (different records: nothing written)\n",
			stderr: "1 cell has different records in different places", out: filepath.Join(t.TempDir(), "c")},
		{name: "refused", args: []string{run}, code: exitInput, stderr: "holds another run", out: other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"merge"}, tc.args...)
			if tc.out != "" {
				args = append(args, "--out", tc.out)
			}
			code, stdout, stderr := cli(t, "", args...)
			stdout = missingCells(stdout)
			if code != tc.code || stdout != tc.stdout || !strings.Contains(stderr, tc.stderr) || (tc.stderr == "") != (stderr == "") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if _, err := os.Stat(tc.out); tc.out != "" && tc.out != other && (err == nil) != (tc.code != exitInput) {
				t.Errorf("%s: exists %v (%v), want it written unless the merge failed", tc.out, err == nil, err)
			}
		})
	}
	if readFile(t, filepath.Join(other, "results.jsonl")) == readFile(t, filepath.Join(run, "results.jsonl")) {
		t.Errorf("the refused merge replaced %s", other)
	}
}

// An N-way method fitted one class against the rest failed on a different
// class in each episode, and the summary split alike failures into one
// group per class ("1 × … class "c0" …; 1 × … class "c1" …; 1 cell with 1
// other message"), repeating the method's name after a message that names
// it: the classes of alike failures are one group, the records keep each
// class, and a method the message names is not named again.
func TestExperimentNWayFailuresGroupAcrossClasses(t *testing.T) {
	data := constantFolder(t)
	run := filepath.Join(t.TempDir(), "run")
	code, _, stderr := cli(t, "", "experiment", "--data", data, "--negative-classes", "n0,n1", "--protocol", "nway",
		"--ways", "6", "--shots", "1,2", "--test-per-class", "1", "--splits", "3", "--methods", "greedytl,best-source", "--out", run, "-q")
	file := filepath.Join(run, "results.jsonl")
	// An episode of every class leaves out every source: best-source has
	// no source scores; and every column of X is constant.
	want := fmt.Sprintf("greedytl: 12 of 12 cells failed (their records in %s carry the error): "+
		"6 × fit: method: best-source needs source scores H; "+
		"6 × fit: greedytl.Fit: no candidate columns: every column of X and H is constant on the training set (greedytl)\n", file)
	if code != exitFailure || !strings.HasSuffix(stderr, want) {
		t.Errorf("exit %d, stderr\n%s\nwant exit %d, ending in\n%s", code, stderr, exitFailure, want)
	}
	classes := map[string]bool{}
	for _, line := range resultLines(t, file) {
		var rec experiment.Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		_, after, ok := strings.Cut(rec.Error, ", class ")
		if !ok {
			t.Fatalf("record %s: want the class in its error", line)
		}
		classes[after[:strings.Index(after, " against the rest: ")]] = true
	}
	if len(classes) < 2 {
		t.Errorf("the records' errors name the classes %v: want the test to fail on several", classes)
	}
}
