package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExperimentCheck: experiment --check exits 0 for a new run directory
// (without making it) and for one of the run, saying so unless --quiet,
// and 2 with the run's own refusal for one of other settings; it runs no
// cell (the results file is as it was). slurm-array.sh's merge job asks it
// whether the shards are of its run: the job merged an earlier run's
// shards, which the shard tasks had refused to resume with new settings.
func TestExperimentCheck(t *testing.T) {
	data := experimentFolder(t)
	run := filepath.Join(t.TempDir(), "run")
	base := []string{"experiment", "--data", data, "--negative-classes", "n0,n1", "--positives", "2", "--splits", "1", "--methods", "no-transfer", "--out", run}
	check := slices.Concat(base, []string{"--check"})
	code, stdout, stderr := cli(t, "", check...)
	if code != exitOK || stdout != "" || stderr != "checked "+run+": new, or a run of these settings and shard (nothing run or written)\n" {
		t.Errorf("check of a new directory: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(run); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the check made %s (%v)", run, err)
	}
	if code, _, stderr := cli(t, "", slices.Concat(base, []string{"--quiet"})...); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	results := filepath.Join(run, "results.jsonl")
	before, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := cli(t, "", slices.Concat(check, []string{"--quiet"})...); code != exitOK || stdout != "" || stderr != "" {
		t.Errorf("quiet check of the run: exit %d, stdout %q, stderr %q; want 0 and nothing", code, stdout, stderr)
	}
	other := slices.Concat(base, []string{"--seed", "2"})
	_, _, refusal := cli(t, "", other...)
	wantInputError(t, "holds a run with other settings (seed", slices.Concat(other, []string{"--check"})...)
	if _, _, got := cli(t, "", slices.Concat(other, []string{"--check"})...); got != refusal {
		t.Errorf("check of another seed: %q, want the run's refusal %q", got, refusal)
	}
	if after, err := os.ReadFile(results); err != nil || string(after) != string(before) {
		t.Errorf("the checks changed %s (%v)", results, err)
	}
	if !strings.HasPrefix(refusal, "greedytl: experiment: "+run+" holds a run with other settings") {
		t.Errorf("the run's refusal %q", refusal)
	}
}
