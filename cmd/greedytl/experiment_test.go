package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/internal/dirlock"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// built is the greedytl command built once for the test process (the
// tests that run it as a separate process share it), in a directory that
// TestMain removes.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// buildGreedytl builds the greedytl command, once per test process, and
// returns its path; it skips the test when the go command is not found.
func buildGreedytl(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot build greedytl")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "greedytl-test-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "greedytl")
		if out, err := exec.Command(goCmd, "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// TestMain removes the command buildGreedytl built.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// experimentFolder writes a tiny dataset folder: classes c0…c5 of 20
// examples and negatives n0, n1 of 70 (14 target negatives), in 8
// dimensions, class k centred at 4·e_k; groups.txt puts them in two groups.
func experimentFolder(t *testing.T) string {
	t.Helper()
	f := datasettest.Shuffled(5, []int{20, 20, 20, 20, 20, 20, 70, 70}, []float64{4, 4, 4, 4, 4, 4, 4, 4})
	f.Classes = []string{"c0", "c1", "c2", "c3", "c4", "c5", "n0", "n1"}
	f.Groups = []string{"odd", "even", "odd", "even", "odd", "even", "neg", "neg"}
	return datasettest.WriteFolder(t, f).Dir
}

// runBinary runs the built command with extra environment variables and
// returns its exit status and combined output.
func runBinary(t *testing.T, bin string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// resultLines returns the records of a results file by cell key, as JSON
// without fit_seconds, failing on a duplicate cell.
func resultLines(t *testing.T, path string) map[experiment.Key]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := make(map[experiment.Key]string)
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r experiment.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if _, dup := m[r.Key()]; dup {
			t.Fatalf("%s: cell %v twice", path, r.Key())
		}
		r.FitSeconds = 0
		b, _ := json.Marshal(&r)
		m[r.Key()] = string(b)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExperimentShardsMergeToSingleRun runs a small grid as 3 shards in 3
// processes (the shard index given three ways), merges them, and checks
// that the merge holds exactly the records of one single-process run.
func TestExperimentShardsMergeToSingleRun(t *testing.T) {
	bin := buildGreedytl(t)
	data := experimentFolder(t)
	work := t.TempDir()
	src := filepath.Join(work, "sources")
	splits := 2
	if testing.Short() {
		splits = 1 // half the cells with -short
	}
	grid := []string{"--data", data, "--negative-classes", "n0,n1", "--positives", "2,5", "--splits", strconv.Itoa(splits),
		"--noise", "0,6", "--methods", "greedytl,no-transfer,best-source", "--seed", "3", "--workers", "1"}

	if code, out := runBinary(t, bin, nil, "train-sources", "--data", data, "--negative-classes", "n0,n1", "--seed", "3", "--out", src); code != 0 {
		t.Fatalf("train-sources: exit %d\n%s", code, out)
	}
	shardArgs := []struct {
		env   []string
		shard string
	}{
		{[]string{"JOB_COMPLETION_INDEX=0"}, "auto/3"},
		{[]string{"SLURM_ARRAY_TASK_ID=1"}, "auto/3"},
		{nil, "2/3"},
	}
	var wg sync.WaitGroup
	results := make([]string, len(shardArgs))
	for i, sa := range shardArgs {
		wg.Go(func() {
			args := slices.Concat([]string{"experiment"}, grid, []string{"--sources", src, "--shard", sa.shard, "--out", filepath.Join(work, fmt.Sprintf("shard-%d", i))})
			cmd := exec.Command(bin, args...)
			cmd.Env = append(os.Environ(), sa.env...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				results[i] = fmt.Sprintf("shard %d: %v\n%s", i, err, out)
			}
		})
	}
	wg.Wait()
	for _, r := range results {
		if r != "" {
			t.Fatal(r)
		}
	}
	for i := range shardArgs {
		if _, err := os.Stat(filepath.Join(work, fmt.Sprintf("shard-%d", i), fmt.Sprintf("results-shard-%d-of-3.jsonl", i))); err != nil {
			t.Fatalf("shard %d wrote no results file of its own: %v", i, err)
		}
	}

	// Two shards only: cells are missing, exit 1, the merge still written.
	code, out := runBinary(t, bin, nil, "merge", filepath.Join(work, "shard-0"), filepath.Join(work, "shard-1"), "--out", filepath.Join(work, "partial.jsonl"))
	if code != 1 || !strings.Contains(out, "missing:") || !strings.Contains(out, "cells are missing") {
		t.Errorf("merging 2 of 3 shards: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(work, "partial.jsonl")); err != nil {
		t.Errorf("the partial merge was not written: %v", err)
	}

	merged := filepath.Join(work, "merged")
	code, out = runBinary(t, bin, nil, "merge", filepath.Join(work, "shard-0"), filepath.Join(work, "shard-1"), filepath.Join(work, "shard-2"), "--out", merged)
	if code != 0 || !strings.Contains(out, "missing:    0 cells") {
		t.Fatalf("merge: exit %d\n%s", code, out)
	}

	// One process, training its own sources (the same, by the seed).
	single := filepath.Join(work, "single")
	if code, out := runBinary(t, bin, nil, slices.Concat([]string{"experiment"}, grid, []string{"--out", single})...); code != 0 {
		t.Fatalf("single run: exit %d\n%s", code, out)
	}
	want := resultLines(t, filepath.Join(single, "results.jsonl"))
	got := resultLines(t, filepath.Join(merged, "results.jsonl"))
	cells := 6 * 2 * splits * 2 * 3
	if len(want) != cells {
		t.Fatalf("the single run has %d cells, want %d", len(want), cells)
	}
	if len(got) != len(want) {
		t.Fatalf("the merge has %d cells, the single run %d", len(got), len(want))
	}
	for k, w := range want {
		if got[k] != w {
			t.Fatalf("cell %v differs:\nmerged %s\nsingle %s", k, got[k], w)
		}
	}
	man, err := experiment.ReadManifest(merged)
	if err != nil || man.Shard != nil || man.Groups[1] != "even" {
		t.Errorf("merged run.json: %+v, %v", man, err)
	}
	// A rerun of the single run finds everything done.
	code, out = runBinary(t, bin, nil, slices.Concat([]string{"experiment"}, grid, []string{"--out", single})...)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("0 computed (0 failed), %d already present", cells)) {
		t.Errorf("rerun: exit %d\n%s", code, out)
	}
}

func TestExperimentAndMergeBadInput(t *testing.T) {
	data := experimentFolder(t)
	run := t.TempDir()
	base := []string{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2", "--splits", "1", "--out", run, "--quiet"}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no out", []string{"experiment", "--data", data}, exitInput, "--out RUN"},
		{"both negatives", slices.Concat(base, []string{"--negative-fraction", "0.3"}), exitInput, "not both"},
		{"unknown method", slices.Concat(base, []string{"--methods", "nope"}), exitInput, `unknown method "nope"`},
		{"bad shard", slices.Concat(base, []string{"--shard", "3/3"}), exitInput, "--shard"},
		{"missing data", []string{"experiment", "--data", filepath.Join(run, "none"), "--out", run}, exitInput, "features.npy"},
		{"merge nothing", []string{"merge"}, exitInput, "greedytl merge takes one or more arguments, the run directories or result files to merge, and was given none"},
		{"merge a non-run", []string{"merge", data}, exitInput, "run.json"},
	}
	for _, tc := range tests {
		code, _, stderr := cli(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tc.name, code, stderr, tc.code, tc.want)
		}
	}
	// A run, then a rerun with other settings: refused.
	if code, _, stderr := cli(t, "", slices.Concat(base, []string{"--methods", "no-transfer"})...); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	code, _, stderr := cli(t, "", slices.Concat(base, []string{"--methods", "no-transfer", "--seed", "2"})...)
	if code != exitInput || !strings.Contains(stderr, "other settings (seed") {
		t.Errorf("rerun with another seed: exit %d, %q", code, stderr)
	}
	code, stdout, stderr := cli(t, "", "merge", run)
	if code != exitOK || !strings.Contains(stdout, "expected:   6 cells") || stderr != "" {
		t.Errorf("merge of a complete run: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestExperimentMultiClassMethodNeedsNWay: a multi-class method in
// --methods without --protocol nway is refused with what to do (use
// --protocol nway), not the Go API's words (New, NewMulti), on real data
// and before a missing dataset is read.
func TestExperimentMultiClassMethodNeedsNWay(t *testing.T) {
	data := experimentFolder(t)
	run := t.TempDir()
	for _, args := range [][]string{
		{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2", "--splits", "1", "--out", run, "--quiet", "--methods", "no-transfer,greedytl-nway"},
		{"experiment", "--data", data, "--protocol", "skewed", "--splits", "1", "--out", run, "--quiet", "--methods", "multinomial-logistic:C=2"},
		{"experiment", "--data", filepath.Join(run, "none"), "--out", run, "--methods", "greedytl-nway"},
	} {
		code, _, stderr := cli(t, "", args...)
		name := args[len(args)-1]
		want := "is a multi-class method (it fits every class at once, not one class against the others): use --protocol nway"
		if code != exitInput || !strings.Contains(stderr, want) || strings.Contains(stderr, "NewMulti") {
			t.Errorf("--methods %s: exit %d, stderr %q; want exit %d and %q", name, code, stderr, exitInput, want)
		}
	}
}

// checkCommandLine checks that args (without the program name) name a
// greedytl command and that its flags and arguments parse; shard values
// are parsed with the environment index.
func checkCommandLine(t *testing.T, where string, args []string, index string) {
	t.Helper()
	root := newRootCmd(&streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard})
	c, rest, err := root.Find(args)
	if err != nil || c == root {
		t.Errorf("%s: %q is not a greedytl command: %v", where, args, err)
		return
	}
	if err := c.ParseFlags(rest); err != nil {
		t.Errorf("%s: %q: %v", where, args, err)
		return
	}
	if err := c.ValidateArgs(c.Flags().Args()); err != nil {
		t.Errorf("%s: %q: %v", where, args, err)
	}
	if f := c.Flags().Lookup("shard"); f != nil && f.Value.String() != "" {
		env := func(k string) string {
			if k == shard.EnvKubernetesIndex {
				return index
			}
			return ""
		}
		if _, err := shard.Parse(f.Value.String(), env); err != nil {
			t.Errorf("%s: %q: %v", where, args, err)
		}
	}
}

// TestClusterRecipes checks the commands of docs/cluster against the CLI:
// the Kubernetes Jobs' args and the Slurm script's greedytl lines must
// parse, and the number of shards must agree throughout.
func TestClusterRecipes(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "cluster")
	yaml, err := os.ReadFile(filepath.Join(dir, "k8s-indexed-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	completions := regexp.MustCompile(`(?m)^\s*completions:\s*(\d+)\s*$`).FindAllSubmatch(yaml, -1)
	if len(completions) != 1 {
		t.Fatalf("k8s-indexed-job.yaml: %d completions lines, want 1", len(completions))
	}
	n := string(completions[0][1])
	argLines := regexp.MustCompile(`(?m)^\s*args:\s*(\[.*\])\s*$`).FindAllSubmatch(yaml, -1)
	commands := map[string]bool{}
	for _, m := range argLines {
		var args []string
		if err := json.Unmarshal(m[1], &args); err != nil {
			t.Fatalf("k8s-indexed-job.yaml: args %s: %v", m[1], err)
		}
		commands[args[0]] = true
		for k, a := range args {
			args[k] = strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", "0")
		}
		checkCommandLine(t, "k8s-indexed-job.yaml", args, "0")
		switch args[0] {
		case "experiment":
			if !slices.Contains(args, "auto/"+n) || !slices.Contains(args, "/work/results/shard-0") {
				t.Errorf("k8s-indexed-job.yaml: the shards Job's args %q do not run shard $(JOB_COMPLETION_INDEX) of %s into its own directory", args, n)
			}
		case "merge":
			var shards []string
			for _, a := range args {
				if strings.HasPrefix(a, "/work/results/shard-") {
					shards = append(shards, a)
				}
			}
			if fmt.Sprint(len(shards)) != n || !slices.Contains(shards, "/work/results/shard-0") || slices.Contains(shards, "/work/results/shard-"+n) {
				t.Errorf("k8s-indexed-job.yaml: the merge lists shards %q, want shard-0 … shard-%s minus one", shards, n)
			}
		}
	}
	for _, c := range []string{"train-sources", "experiment", "merge", "report"} {
		if !commands[c] {
			t.Errorf("k8s-indexed-job.yaml runs no %s", c)
		}
	}
	checkWaitJob(t, string(yaml))

	script, err := os.ReadFile(filepath.Join(dir, "slurm-array.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		if out, err := exec.Command(bash, "-n", filepath.Join(dir, "slurm-array.sh")).CombinedOutput(); err != nil {
			t.Errorf("slurm-array.sh: bash -n: %v\n%s", err, out)
		}
	}
	// Both arrays run tasks 0 … N-1.
	if n := len(regexp.MustCompile(`"0-\$\(\(N - 1\)\)"`).FindAll(script, -1)); n != 2 {
		t.Errorf("slurm-array.sh submits %d arrays of tasks 0-$((N - 1)), want 2 (sources and experiment)", n)
	}
	// The greedytl command lines, continuations joined; a list of extra
	// flags (${X[@]+"${X[@]}"}, as bash before 4.4 needs an empty list
	// under set -u) dropped, other shell variables replaced by "1", a
	// valid path and number.
	text := strings.ReplaceAll(string(script), "\\\n", " ")
	seen := map[string]int{}
	var shardTask, shardCheck []string // the experiment's flags in the shard task and in the merge job's check, but --shard and --check
	for _, m := range regexp.MustCompile(`(?m)^\s*(?:exec )?greedytl ((?:train-sources|experiment|merge|report)\b.*)$`).FindAllStringSubmatch(text, -1) {
		var args []string
		for _, f := range strings.Fields(m[1]) {
			if strings.HasSuffix(f, `[@]}"}`) {
				continue
			}
			f = strings.ReplaceAll(f, `"`, "")
			f = strings.ReplaceAll(f, "auto/$N", "auto/8")
			f = strings.ReplaceAll(f, "$i/$N", "0/8") // the merge job's loop over the shards
			if strings.Contains(f, "$") {
				f = "1" // a valid path, number or seed
			}
			args = append(args, f)
		}
		sharded := slices.Contains(args, "auto/8")
		if args[0] == "experiment" {
			flags := slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--shard" || a == "auto/8" || a == "0/8" || a == "--check" })
			switch {
			case slices.Contains(args, "--check"):
				seen["experiment --check"]++
				shardCheck = flags
				if !slices.Contains(args, "0/8") {
					t.Errorf("slurm-array.sh: %q does not check shard $i of $N", args)
				}
			case !sharded:
				t.Errorf("slurm-array.sh: %q does not take its shard from the array (--shard auto/$N)", args)
			default:
				shardTask = flags
			}
		}
		if args[0] == "train-sources" && sharded {
			seen["train-sources --shard"]++
		}
		seen[args[0]]++
		checkCommandLine(t, "slurm-array.sh", args, "0")
	}
	for c, n := range map[string]int{"train-sources": 2, "train-sources --shard": 1, "experiment": 2, "experiment --check": 1, "merge": 1, "report": 1} {
		if seen[c] != n {
			t.Errorf("slurm-array.sh runs greedytl %s %d times, want %d (a sharded train-sources, the unsharded one that writes the index, the experiment shards, the merge job's check of each shard, the merge, the report)", c, seen[c], n)
		}
	}
	// The merge job checks the shards with the shard tasks' settings.
	if !slices.Equal(shardTask, shardCheck) {
		t.Errorf("slurm-array.sh: the merge job checks the shards with experiment %q, the shard tasks run experiment %q (but --shard and --check)", shardCheck, shardTask)
	}
}

// TestNonsenseFlagsRejected: flags outside their rule are refused with the
// rule in the message (issue: --shard 0/0 and --workers -1 ran).
func TestNonsenseFlagsRejected(t *testing.T) {
	for _, args := range [][]string{
		{"experiment", "--data", "d", "--out", "o", "--shard", "0/0"},
		{"train-sources", "--data", "d", "--out", "o", "--shard", "0/0"},
	} {
		wantInputError(t, "n ≥ 1", args...)
	}
	for _, args := range [][]string{
		{"experiment", "--data", "d", "--out", "o", "--workers", "-1"},
		{"train-sources", "--data", "d", "--out", "o", "--workers", "-1"},
		{"demo", "--workers", "-1"},
	} {
		wantInputError(t, "≥ 0", args...)
	}
	// --negative-fraction 0 ran with the default 0.2 (0 means "unset" in
	// experiment.Config), though the rule is 0 < f < 1.
	for _, args := range [][]string{
		{"experiment", "--data", "d", "--out", "o", "--negative-fraction", "0"},
		{"experiment", "--data", "d", "--out", "o", "--negative-fraction", "1"},
		{"train-sources", "--data", "d", "--out", "o", "--negative-fraction", "0"},
		{"train-sources", "--data", "d", "--out", "o", "--negative-fraction", "-0.5"},
		{"experiment", "--data", experimentFolder(t), "--out", filepath.Join(t.TempDir(), "run"), "--negative-fraction", "0", "--splits", "1", "--methods", "no-transfer", "-q"},
	} {
		wantInputError(t, "want a value in (0, 1)", args...)
	}
	// Refused as the flag is read (number.ParseSetting).
	wantInputError(t, `"NaN" is not finite`, "experiment", "--data", "d", "--out", "o", "--negative-fraction", "NaN")
	// demo --full ran every intent, dropping --targets-per-domain.
	wantInputError(t, "--targets-per-domain applies without --full", "demo", "--full", "--targets-per-domain", "1", "--out", filepath.Join(t.TempDir(), "demo"))
}

// checkWaitJob checks the header of k8s-indexed-job.yaml, yaml: it waited
// for each Job with kubectl wait --for=condition=complete, which waits out
// its whole timeout when the Job fails. Its wait_job, run by bash and sh
// against a kubectl that reports a Job's conditions, returns 0 once the
// Job is complete, 1 at once when it has failed (FailureTarget alone is not
// failed yet), and 1 after its timeout, having polled once every 10 s of it
// and at least once, with no sleep after the last poll (it polled none
// under 10 s, and slept after the last); 2 for a timeout that is not a
// whole number (it printed an arithmetic error); the header waits for
// every Job the file defines, by its name, before the next step.
func checkWaitJob(t *testing.T, yaml string) {
	t.Helper()
	var fn []string
	var steps []string
	in := false
	for _, line := range strings.Split(yaml, "\n") {
		cmd, ok := strings.CutPrefix(line, "#   ")
		switch {
		case !ok:
		case strings.HasPrefix(cmd, "wait_job() {"):
			in = true
			fn = append(fn, cmd)
		case in:
			fn = append(fn, cmd)
			in = cmd != "}"
		case strings.HasPrefix(cmd, "kubectl wait"):
			t.Errorf("k8s-indexed-job.yaml: %q waits out its timeout when the Job fails: use wait_job", cmd)
		case strings.HasPrefix(cmd, "wait_job ") || strings.HasPrefix(cmd, "kubectl apply"):
			steps = append(steps, strings.TrimSuffix(cmd, " &&"))
		}
	}
	if len(fn) == 0 || fn[len(fn)-1] != "}" {
		t.Fatalf("k8s-indexed-job.yaml: no wait_job function in the header (%q)", fn)
	}
	// Each Job of the file is applied by its step's label, then waited for
	// by its name before the next step.
	jobs := regexp.MustCompile(`(?m)^kind: Job\nmetadata:\n  name: (\S+)\n  labels: \{greedytl/step: (\S+)\}`).FindAllStringSubmatch(yaml, -1)
	if len(jobs) != 4 {
		t.Fatalf("k8s-indexed-job.yaml: %d Jobs with a name and a step label, want 4 (sources, shards, merge, report)", len(jobs))
	}
	for _, j := range jobs {
		apply := "kubectl apply -f ~/k8s-run.yaml -l greedytl/step=" + j[2]
		i := slices.Index(steps, apply)
		if i < 0 || i+1 >= len(steps) || !regexp.MustCompile(`^wait_job `+regexp.QuoteMeta(j[1])+` [1-9][0-9]*$`).MatchString(steps[i+1]) {
			t.Errorf("k8s-indexed-job.yaml: %q is not followed by wait_job %s SECONDS (steps %q)", apply, j[1], steps)
		}
	}
	// A kubectl that reports the conditions of job/$JOB that are True, and
	// a sleep that returns at once, logging their calls.
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	stub := map[string]string{
		"kubectl": "#!/bin/sh\necho \"kubectl $*\" >> \"$LOG\"\ncase \"$2\" in\n  job/done) echo 'SuccessCriteriaMet Complete' ;;\n  job/failed) echo 'FailureTarget Failed' ;;\n  job/failing) echo 'FailureTarget' ;;\nesac\n",
		"sleep":   "#!/bin/sh\necho \"sleep $*\" >> \"$LOG\"\n",
	}
	for name, text := range stub {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	get := `kubectl get job/%s -o jsonpath={.status.conditions[?(@.status=="True")].type}`
	for _, shell := range []string{"bash", "sh"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			continue
		}
		for _, tc := range []struct {
			job, seconds string
			status       int
			calls        []string
		}{
			{"done", "7200", 0, []string{fmt.Sprintf(get, "done")}},
			{"failed", "7200", 1, []string{fmt.Sprintf(get, "failed")}},
			{"failing", "30", 1, []string{fmt.Sprintf(get, "failing"), "sleep 10", fmt.Sprintf(get, "failing"), "sleep 10", fmt.Sprintf(get, "failing")}},
			{"failing", "25", 1, []string{fmt.Sprintf(get, "failing"), "sleep 10", fmt.Sprintf(get, "failing"), "sleep 10", fmt.Sprintf(get, "failing")}},
			{"failing", "5", 1, []string{fmt.Sprintf(get, "failing")}},
			{"failed", "0", 1, []string{fmt.Sprintf(get, "failed")}},
			{"done", "2h", 2, []string{""}},
			{"done", "", 2, []string{""}},
		} {
			os.Remove(log)
			cmd := exec.Command(path, "-c", strings.Join(fn, "\n")+"\nwait_job "+tc.job+" "+tc.seconds)
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "LOG="+log)
			out, err := cmd.CombinedOutput()
			status := 0
			if ee, ok := errors.AsType[*exec.ExitError](err); ok {
				status = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(log)
			calls := strings.Split(strings.TrimSpace(string(b)), "\n")
			said := "job/" + tc.job
			if tc.status == 2 {
				said = "SECONDS is a whole number"
			}
			if status != tc.status || !slices.Equal(calls, tc.calls) || (status != 0) != strings.Contains(string(out), said) {
				t.Errorf("%s: wait_job %s %s: status %d, output %q, calls %q; want status %d and calls %q", shell, tc.job, tc.seconds, status, out, calls, tc.status, tc.calls)
			}
		}
	}
}

// TestUnsignedFlags: --seed -1 (or x, or a number past 2⁶⁴−1) gave
// strconv's message ("strconv.ParseUint: parsing "-1": invalid syntax");
// every command's unsigned flag now says what it takes. TestNumericFlags
// and TestNumericFlagsOwned hold every numeric flag of every command to
// numflags.go's types, the unsigned ones to uint64Var.
func TestUnsignedFlags(t *testing.T) {
	for _, cmd := range []string{"bench", "demo", "experiment", "fit", "synth", "train", "train-sources"} {
		for _, v := range []string{"-1", "x", "18446744073709551616"} {
			var stdout, stderr bytes.Buffer
			code := run([]string{cmd, "--seed", v}, strings.NewReader(""), &stdout, &stderr)
			want := fmt.Sprintf("greedytl: invalid argument %q for \"--seed\" flag: want a whole number from 0 to 18446744073709551615, got %q (see 'greedytl %s --help')\n", v, v, cmd)
			if code != exitInput || stderr.String() != want {
				t.Errorf("%s --seed %s: exit %d, %q; want exit %d, %q", cmd, v, code, stderr.String(), exitInput, want)
			}
		}
	}
}

// TestExperimentProtocolFlag runs --protocol skewed from the command line:
// one positive by default, every other example tested (run.json and the
// records say so); an unknown protocol is bad input.
func TestExperimentProtocolFlag(t *testing.T) {
	data := experimentFolder(t)
	run := filepath.Join(t.TempDir(), "run")
	code, _, stderr := cli(t, "", "experiment", "--data", data, "--negative-classes", "n0,n1", "--protocol", "skewed",
		"--splits", "2", "--methods", "no-transfer", "--out", run, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	man, err := experiment.ReadManifest(run)
	if err != nil {
		t.Fatal(err)
	}
	if man.Protocol != experiment.ProtocolSkewed || !slices.Equal(man.Positives, []int{1}) {
		t.Errorf("run.json: protocol %q, positives %v; want skewed, [1]", man.Protocol, man.Positives)
	}
	targetNeg := len(man.Negatives.Target)
	recs := resultLines(t, filepath.Join(run, "results.jsonl"))
	if len(recs) != 6*2 { // 6 targets × 2 splits
		t.Errorf("%d records, want 12", len(recs))
	}
	for k, rec := range recs {
		var r experiment.Record
		if err := json.Unmarshal([]byte(rec), &r); err != nil {
			t.Fatal(err)
		}
		// experimentFolder: 20 examples per class.
		if r.Positives != 1 || r.TestPositives != 19 || r.TestNegatives != targetNeg-experiment.TrainNegatives {
			t.Errorf("%v: %d positives, tested on %d+%d; want 1, 19+%d", k, r.Positives, r.TestPositives, r.TestNegatives, targetNeg-experiment.TrainNegatives)
		}
	}
	wantInputError(t, `unknown protocol "sun09"`, "experiment", "--data", data, "--protocol", "sun09", "--out", filepath.Join(t.TempDir(), "r"))
}

// TestExperimentNWayFlags runs --protocol nway from the CLI (its ways,
// shots and test examples per class in run.json and the records, the
// report's rows by ways and shots) and refuses the flags of one protocol
// given to the other.
func TestExperimentNWayFlags(t *testing.T) {
	data := experimentFolder(t)
	run := filepath.Join(t.TempDir(), "run")
	code, _, stderr := cli(t, "", "experiment", "--data", data, "--negative-classes", "n0,n1", "--protocol", "nway",
		"--ways", "3", "--shots", "1,2", "--test-per-class", "4", "--splits", "2", "--methods", "simpleshot,no-transfer", "--out", run, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	man, err := experiment.ReadManifest(run)
	if err != nil {
		t.Fatal(err)
	}
	if man.Protocol != experiment.ProtocolNWay || !slices.Equal(man.Ways, []int{3}) || !slices.Equal(man.Positives, []int{1, 2}) || man.TestPerClass != 4 {
		t.Errorf("run.json: protocol %q, ways %v, shots %v, %d test examples per class", man.Protocol, man.Ways, man.Positives, man.TestPerClass)
	}
	if recs := resultLines(t, filepath.Join(run, "results.jsonl")); len(recs) != 1*2*2*2 { // ways × shots × episodes × methods
		t.Errorf("%d records, want 8", len(recs))
	}
	code, out, stderr := cli(t, "", "report", run)
	if code != 0 || !strings.Contains(out, "ways") || !strings.Contains(out, "shots") {
		t.Errorf("report: exit %d, %s%s", code, out, stderr)
	}
	wantInputError(t, "--ways is a setting of --protocol nway", "experiment", "--data", data, "--ways", "5", "--out", filepath.Join(t.TempDir(), "r"))
	wantInputError(t, "--positives is not a setting of --protocol nway", "experiment", "--data", data, "--protocol", "nway", "--positives", "2", "--out", filepath.Join(t.TempDir(), "r"))
	wantInputError(t, "--test-per-class 0", "experiment", "--data", data, "--protocol", "nway", "--test-per-class", "0", "--out", filepath.Join(t.TempDir(), "r"))
	// --shots 0 said "0 positives", the flag that nway refuses.
	wantInputError(t, "experiment: 0 shots (training examples per class), want at least 1", "experiment", "--data", data, "--protocol", "nway", "--shots", "2,0", "--out", filepath.Join(t.TempDir(), "r"))
}

// TestExperimentNWayWarnsBeforeTrainingSources: an N-way run that trains
// its own sources with a number of ways taking every class with a source
// into an episode warns of it (no-sources) before it trains the sources,
// which may take long, not after: the warning needs the plan alone. The
// warning came after "training the sources into".
func TestExperimentNWayWarnsBeforeTrainingSources(t *testing.T) {
	data := experimentFolder(t)
	run := filepath.Join(t.TempDir(), "run")
	code, _, stderr := cli(t, "", "experiment", "--data", data, "--negative-classes", "n0,n1", "--protocol", "nway",
		"--ways", "2,6", "--shots", "1", "--test-per-class", "4", "--splits", "1", "--methods", "no-transfer", "--out", run)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(stderr, "\n")
	warned := slices.IndexFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "greedytl: warning: --ways 6: an episode of 6 classes can hold every class with a source (6 sources in ")
	})
	training := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "training the sources into ") })
	if warned < 0 || training < 0 || warned > training {
		t.Errorf("the no-sources warning at line %d, \"training the sources\" at line %d; want the warning first:\n%s", warned, training, stderr)
	}
}

// TestExperimentOneProcessPerRun: an experiment on a run directory another
// process holds exits non-zero at once, naming the holder, and writes
// nothing (issue: two experiments on one run duplicated every cell).
func TestExperimentOneProcessPerRun(t *testing.T) {
	data := experimentFolder(t)
	run := filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	held, err := dirlock.Acquire(run)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	code, _, stderr := cli(t, "", "experiment", "--data", data, "--negative-classes", "n0,n1", "--out", run, "--methods", "greedytl", "--positives", "2", "--splits", "1", "-q")
	if code == 0 || !strings.Contains(stderr, fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(stderr, "in use") {
		t.Errorf("exit %d, stderr %q: want a failure naming pid %d", code, stderr, os.Getpid())
	}
	entries, _ := os.ReadDir(run)
	for _, e := range entries {
		if e.Name() != dirlock.LockFile {
			t.Errorf("the refused experiment wrote %s", e.Name())
		}
	}
	// The shards of an array given one --out: waiting for the holder, as
	// the refusal said, ends in another refusal; it says what to do.
	code, _, stderr = cli(t, "", "experiment", "--data", data, "--negative-classes", "n0,n1", "--out", run, "--methods", "greedytl", "--positives", "2", "--splits", "1", "--shard", "1/3", "-q")
	if code == 0 || !strings.Contains(stderr, "in use") || !strings.Contains(stderr, "give each shard its own run directory") {
		t.Errorf("shard 1/3: exit %d, stderr %q: want a failure saying to give each shard its own run directory", code, stderr)
	}
}

// TestSpecList: --methods splits on commas but keeps the settings of a spec
// together ("greedytl:delta=0.001,lambda=10" has two), so that a spec with
// several settings — the form modelfile.ParseSpec and fit --method take —
// can be run by experiment and demo; it was cut into "greedytl:delta=0.001"
// and "lambda=10", refused as a spec without a name. CSV quoting still
// works, and each use of the flag appends.
func TestSpecList(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"greedytl,no-transfer"}, []string{"greedytl", "no-transfer"}},
		{[]string{"greedytl:delta=0.001,lambda=10,no-transfer"}, []string{"greedytl:delta=0.001,lambda=10", "no-transfer"}},
		{[]string{"no-transfer,greedytl-sp:gamma=0.25,delta=0.01,lambda=2,greedytl:lambda=3"}, []string{"no-transfer", "greedytl-sp:gamma=0.25,delta=0.01,lambda=2", "greedytl:lambda=3"}},
		{[]string{`"greedytl:delta=0.001,lambda=10",no-transfer`}, []string{"greedytl:delta=0.001,lambda=10", "no-transfer"}},
		{[]string{"greedytl", "lambda=10"}, []string{"greedytl", "lambda=10"}}, // a setting of no spec: ParseSpec refuses it
		{[]string{"lambda=10,greedytl"}, []string{"lambda=10", "greedytl"}},
		// Blank space around a spec is trimmed, as the number lists'
		// items are (parseList): " greedytl-auto" was an unknown method.
		{[]string{"greedytl, greedytl-auto ,no-transfer"}, []string{"greedytl", "greedytl-auto", "no-transfer"}},
		{[]string{"greedytl:delta=0.001, lambda=10"}, []string{"greedytl:delta=0.001,lambda=10"}},
		{[]string{""}, nil}, // appends nothing: experiment and demo refuse a --methods that names no method (TestEmptyListFlags)
	} {
		var l []string
		f := listFlag{items: &l, join: joinSettings}
		for _, a := range tc.args {
			if err := f.Set(a); err != nil {
				t.Fatalf("%q: %v", a, err)
			}
		}
		if !slices.Equal(l, tc.want) {
			t.Errorf("%q: %q, want %q", tc.args, l, tc.want)
		}
	}

	// experiment runs such a spec.
	run := filepath.Join(t.TempDir(), "run")
	code, _, stderr := cli(t, "", "experiment", "--data", experimentFolder(t), "--negative-classes", "n0,n1", "--positives", "2", "--splits", "1",
		"--targets", "c0", "--methods", "greedytl:delta=0.001,lambda=10,no-transfer", "--out", run, "-q")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if methods, want := resultMembers(t, run, "method"), []string{"greedytl:delta=0.001,lambda=10", "no-transfer"}; !slices.Equal(methods, want) {
		t.Errorf("records of methods %q, want %q", methods, want)
	}
}

// resultMembers returns the values of the string member name of run's
// results.jsonl records, one a record, sorted.
func resultMembers(t *testing.T, run, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(run, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var vals []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		v, _ := r[name].(string)
		vals = append(vals, v)
	}
	slices.Sort(vals)
	return vals
}

// TestEmptyListFlags: a list flag given but listing nothing (empty,
// blank, only commas: a script's unset variable) is refused, naming the
// flag and saying that leaving it out means the default, before anything
// is run or written, and so is a list with a blank item among others.
// --methods "" ran all the methods (hours of work), --targets "" every
// target, --negative-classes "," went on to a class named "", report
// --format "" wrote no document; the lists of numbers were refused as
// they were parsed already.
func TestEmptyListFlags(t *testing.T) {
	data := experimentFolder(t)
	out := filepath.Join(t.TempDir(), "out")
	exp := []string{"experiment", "--data", data, "--out", out, "--negative-classes", "n0,n1", "-q"}
	ts := []string{"train-sources", "--data", data, "--out", out, "-q"}
	for _, tc := range []struct {
		args []string
		flag string
		want string // "" for a list of numbers, which its parsing refuses
		item string // a valid item
		give string // what a list of words' message asks for
	}{
		{exp, "methods", "--methods names no method: give method specs, or leave the flag out to run every method", "no-transfer", "method specs"},
		{exp, "targets", "--targets names no class: give class names, or leave the flag out for the default: every class", "c0", "class names"},
		{[]string{"experiment", "--data", data, "--out", out, "-q"}, "negative-classes", "--negative-classes names no class: give class names, or leave the flag out for the default pool", "n0", "class names"},
		{exp, "positives", "", "2", ""},
		{exp, "noise", "", "0", ""},
		{append(exp, "--protocol", "nway"), "ways", "", "5", ""},
		{append(exp, "--protocol", "nway"), "shots", "", "1", ""},
		{ts, "negative-classes", "--negative-classes names no class", "n0", "class names"},
		{ts, "c-grid", "", "1", ""},
		{[]string{"demo", "--out", out, "-q"}, "methods", "--methods names no method", "no-transfer", "method specs"},
		// It wrote the figures and no document.
		{[]string{"report", "--out", out, "-q", data}, "format", "--format names no document: give md or html, or leave the flag out for md and html", "md", "md or html"},
	} {
		pflagWant := "for \"--" + tc.flag + "\" flag"
		for _, v := range []string{"", " ", ",", " , ,"} {
			args := append(slices.Clone(tc.args), "--"+tc.flag+"="+v)
			want := tc.want
			if want == "" {
				want = pflagWant
			}
			wantInputError(t, want, args...)
		}
		// A blank item among others ("$A,$B", B unset): --targets and
		// --negative-classes loaded the dataset and refused a class named
		// "" (or first something else), --methods the spec "".
		for _, c := range []struct {
			value  string
			at, of int
		}{
			{tc.item + ",", 2, 2},
			{"," + tc.item, 1, 2},
			{tc.item + ", ,x", 2, 3},
			{tc.item + ",,x", 2, 3},
		} {
			args := append(slices.Clone(tc.args), "--"+tc.flag+"="+c.value)
			want := fmt.Sprintf("--%s: item %d of %d is blank: give %s separated by commas, none empty", tc.flag, c.at, c.of, tc.give)
			if tc.want == "" {
				want = pflagWant
			}
			wantInputError(t, want, args...)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused command created its output directory")
	}
}

// TestExperimentWarnsWhenQuiet: experiment's warnings about its sources
// (one stopped at its solver's iteration cap, here) take the commands' one
// route (greedytl: warning: …, as train-sources prints the same warning),
// with --quiet too, which drops messages and the summary, not warnings;
// they were log lines, "warning: …", that -q dropped.
func TestExperimentWarnsWhenQuiet(t *testing.T) {
	data := experimentFolder(t)
	src := filepath.Join(t.TempDir(), "sources")
	if code, _, stderr := cli(t, "", "train-sources", "--data", data, "--out", src, "--negative-classes", "n0,n1", "-q"); code != exitOK {
		t.Fatalf("train-sources: exit %d: %s", code, stderr)
	}
	ix, err := source.ReadIndex(src)
	if err != nil {
		t.Fatal(err)
	}
	ix.Sources[0].Converged = false
	index := filepath.Join(src, source.IndexFile)
	b, err := json.Marshal(ix)
	if err == nil {
		err = os.WriteFile(index, b, 0o644)
	}
	if err != nil {
		t.Fatalf("rewriting %s: %v", index, err)
	}
	want := "greedytl: warning: 1 of 6 sources stopped at the L2R_L2LOSS_SVC_DUAL solver's iteration cap (see the converged field of " + index + ")\n"
	for _, quiet := range []string{"--quiet=false", "-q"} {
		code, _, stderr := cli(t, "", "experiment", "--data", data, "--sources", src, "--positives", "2", "--splits", "1", "--targets", "c0",
			"--methods", "no-transfer", "--out", filepath.Join(t.TempDir(), "run"), quiet)
		if code != exitOK || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want 0 and %q", quiet, code, stderr, want)
		}
	}
}

// TestExperimentSeedNoteIsADiagnostic: the note that a sources directory's
// negative pool and sources come from another seed than the run's is a
// diagnostic line, "greedytl: note: …", as predict's notes and every
// warning are (review28: it was a bare "note: " line).
func TestExperimentSeedNoteIsADiagnostic(t *testing.T) {
	data := experimentFolder(t)
	src := filepath.Join(t.TempDir(), "src")
	if code, _, stderr := cli(t, "", "train-sources", "--data", data, "--negative-classes", "n0,n1", "--seed", "1", "--out", src, "-q"); code != 0 {
		t.Fatalf("train-sources: exit %d: %s", code, stderr)
	}
	run := filepath.Join(t.TempDir(), "run")
	code, _, stderr := cli(t, "", "experiment", "--data", data, "--sources", src, "--seed", "7", "--methods", "no-transfer",
		"--positives", "2", "--splits", "1", "--out", run)
	if code != 0 {
		t.Fatalf("experiment: exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "note: the negative pool and the sources are those of") && !strings.HasPrefix(l, "greedytl: note: ") {
			t.Errorf("the seed note is not a diagnostic line: %q", l)
		}
	}
	if !strings.Contains(stderr, "greedytl: note: the negative pool and the sources are those of") {
		t.Errorf("no seed note:\n%s", stderr)
	}
}

// TestExperimentSummaryShard: experiment's summary line names the shard of
// a sharded run ("6 cells (shard 0/2): …") and says nothing of shards for
// an unsharded one ("12 cells: …"), which it called "(shard all)".
func TestExperimentSummaryShard(t *testing.T) {
	data := experimentFolder(t)
	for _, tc := range []struct {
		shard []string
		want  string
	}{
		{nil, " cells: "},
		{[]string{"--shard", "0/2"}, " cells (shard 0/2): "},
	} {
		args := slices.Concat([]string{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2", "--splits", "1", "--methods", "no-transfer", "--out", t.TempDir()}, tc.shard)
		code, _, stderr := cli(t, "", args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		last := lines[len(lines)-1]
		if code != 0 || !strings.Contains(last, tc.want) || (tc.shard == nil && strings.Contains(last, "shard")) {
			t.Errorf("%v: exit %d, summary %q, want it to hold %q", tc.shard, code, last, tc.want)
		}
	}
}

// TestExperimentEmptyShard: experiment --shard i/n for a shard that holds
// no cell of the grid (one group, 4 shards) says so, and neither trains
// sources nor creates --out; it trained every source for no cell.
func TestExperimentEmptyShard(t *testing.T) {
	data := experimentFolder(t)
	root := t.TempDir()
	empty := 0
	for i := range 4 {
		out := filepath.Join(root, fmt.Sprintf("shard-%d", i))
		code, _, stderr := cli(t, "", "experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2", "--splits", "1",
			"--methods", "no-transfer", "--targets", "c0", "--out", out, "--shard", fmt.Sprintf("%d/4", i))
		if code != exitOK {
			t.Fatalf("shard %d/4: exit %d: %s", i, code, stderr)
		}
		_, err := os.Stat(out)
		if strings.Contains(stderr, fmt.Sprintf("shard %d/4 holds no cell of the grid", i)) {
			empty++
			if err == nil {
				t.Errorf("shard %d/4 holds no cell, yet %s was written: %v", i, out, dirNames(t, out))
			}
		} else if err != nil {
			t.Errorf("shard %d/4: no %s; stderr %q", i, out, stderr)
		}
	}
	if empty != 3 {
		t.Errorf("%d shards said they hold no cell, want 3", empty)
	}
}

// TestExperimentProgressLines: experiment, its standard error not a
// terminal, writes lineProgress's lines for the source training and the
// cells (the clock here a minute a reading), where it wrote nothing
// between its first lines and its summary; none with --quiet.
func TestExperimentProgressLines(t *testing.T) {
	data := experimentFolder(t)
	clock := time.Unix(0, 0)
	progressClock = func() time.Time { clock = clock.Add(time.Minute); return clock }
	t.Cleanup(func() { progressClock = time.Now })
	line := regexp.MustCompile(`(?m)^(training sources|cells): (\d+) of (\d+) done \(\d+%\), \d+m0s$`)
	for _, quiet := range []bool{false, true} {
		args := []string{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2", "--splits", "1", "--methods", "no-transfer", "--workers", "1", "--out", filepath.Join(t.TempDir(), "run")}
		if quiet {
			args = append(args, "--quiet")
		}
		code, _, stderr := cli(t, "", args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		phases := map[string]bool{}
		for _, m := range line.FindAllStringSubmatch(stderr, -1) {
			phases[m[1]] = true
		}
		if got := len(phases); got != 2 && !quiet || got != 0 && quiet {
			t.Errorf("%q: progress lines of %v; stderr:\n%s", args, phases, stderr)
		}
	}
}

// TestTargetsTrimmed: the class names of --targets and --negative-classes
// (experiment and train-sources) are trimmed of blank space, as --methods'
// specs and the number lists' items are: "c0, c1" named a class " c1",
// which the data lacks.
func TestTargetsTrimmed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"c0, c1"}, []string{"c0", "c1"}},
		{[]string{`"c0",c1 `, " c2"}, []string{"c0", "c1", "c2"}},
		{[]string{""}, nil}, // appends nothing: experiment refuses a list that names no class (TestEmptyListFlags)
	} {
		var l []string
		f := listFlag{items: &l}
		for _, a := range tc.args {
			if err := f.Set(a); err != nil {
				t.Fatalf("%q: %v", a, err)
			}
		}
		if !slices.Equal(l, tc.want) {
			t.Errorf("%q: %q, want %q", tc.args, l, tc.want)
		}
	}
	// A value of two lines is refused (the CSV reader read the first).
	var l []string
	if err := (&listFlag{items: &l}).Set("c0\nc1"); err == nil || !strings.Contains(err.Error(), "more than one line") {
		t.Errorf("two lines: %q, %v; want an error of more than one line", l, err)
	}

	data := experimentFolder(t)
	srcs := filepath.Join(t.TempDir(), "sources")
	if code, _, stderr := cli(t, "", "train-sources", "--data", data, "--negative-classes", " n0, n1 ", "--out", srcs, "-q"); code != exitOK {
		t.Fatalf("train-sources: exit %d: %s", code, stderr)
	}
	run := filepath.Join(t.TempDir(), "run")
	code, _, stderr := cli(t, "", "experiment", "--data", data, "--sources", srcs, "--negative-classes", "n0, n1", "--positives", "2", "--splits", "1",
		"--targets", "c0, c1", "--methods", "no-transfer", "--out", run, "-q")
	if code != exitOK {
		t.Fatalf("experiment: exit %d: %s", code, stderr)
	}
	if targets, want := resultMembers(t, run, "target"), []string{"c0", "c1"}; !slices.Equal(targets, want) {
		t.Errorf("records of targets %q, want %q", targets, want)
	}
}

// TestListQuotes: a list flag's quoted item may follow blank space
// (`c0, "c1"`), and a quote the CSV reader refuses gives the column and
// how to quote, in the project's words, behind pflag's naming of the flag,
// for --targets, --methods and --format alike.
func TestListQuotes(t *testing.T) {
	var l []string
	if err := (&listFlag{items: &l}).Set(`c0, "c1", " c2"`); err != nil || !slices.Equal(l, []string{"c0", "c1", "c2"}) {
		t.Errorf(`c0, "c1": %q, %v; want [c0 c1 c2]`, l, err)
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"experiment", "--targets", `c0, c"1"`}},
		{[]string{"experiment", "--methods", `no-transfer, greedytl"`}},
		{[]string{"report", "--format", `md, h"tml`, "x"}},
	} {
		code, _, stderr := cli(t, "", tc.args...)
		flag := tc.args[1]
		want := fmt.Sprintf("greedytl: invalid argument %q for %q flag: column ", tc.args[2], flag)
		if code != exitInput || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "a quote inside an item that does not start with one") || strings.Contains(stderr, "parse error") {
			t.Errorf("%v: exit %d, %s; want exit %d and %q...", tc.args, code, stderr, exitInput, want)
		}
	}
	code, _, stderr := cli(t, "", "experiment", "--targets", `"c0`)
	if code != exitInput || !strings.Contains(stderr, "a quoted item not closed") {
		t.Errorf(`--targets "c0: exit %d, %s; want a quoted item not closed`, code, stderr)
	}
}
