package experiment

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTargetsOrderIsNotTheRunsIdentity: the order of Config.Targets, on
// which no record depends (a cell's draws are its target's), is not part
// of a run's identity: a run given c5,c2 is resumed given c2,c5 (it was
// refused, "targets: [c5,c2] vs [c2,c5]"), and has the identity and the
// records of a run given c2,c5.
func TestTargetsOrderIsNotTheRunsIdentity(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	run := func(out string, targets ...string) (*Summary, *Manifest) {
		t.Helper()
		cfg := testConfig(f, out, src, "no-transfer")
		cfg.Targets = targets
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("--targets %v: %v", targets, err)
		}
		man, err := ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		return sum, man
	}
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	_, ma := run(a, "c5", "c2")
	sum, again := run(a, "c2", "c5")
	if sum.Finished != 0 || sum.Present != sum.Cells || again.RunID != ma.RunID {
		t.Errorf("resumed with the targets reordered: %+v, run %s (was %s); want every cell present", sum, again.RunID, ma.RunID)
	}
	_, mb := run(b, "c2", "c5")
	if ma.RunID != mb.RunID {
		t.Errorf("run %s given c5,c2, %s given c2,c5: the order of --targets is in the identity", ma.RunID, mb.RunID)
	}
	sameRecords(t, readRecords(t, filepath.Join(a, "results.jsonl")), readRecords(t, filepath.Join(b, "results.jsonl")))
}

// TestLegacyTargetsOrderResumes: a run directory written before the
// targets were put in class order — run.json lists them as given (c5,c2)
// and its run_id, which every record carries, digests that order — is
// still read, and resumed given the targets in either order: it keeps its
// identity and its records, and runs no cell again.
func TestLegacyTargetsOrderResumes(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	out := filepath.Join(t.TempDir(), "run")
	cfg := testConfig(f, out, src, "no-transfer")
	cfg.Targets = []string{"c2", "c5"}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	// Rewrite the directory as the greedytl before wrote it, given c5,c2.
	man, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	oldID := man.RunID
	man.Targets = []string{"c5", "c2"}
	man.RunID = man.ID()
	if man.RunID == oldID {
		t.Fatal("the identity of c5,c2 is that of c2,c5: nothing to test")
	}
	if err := man.write(out); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(out, "results.jsonl")
	b, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(results, []byte(strings.ReplaceAll(string(b), `"run_id":"`+oldID+`"`, `"run_id":"`+man.RunID+`"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	legacy := readRecords(t, results)
	if _, err := ReadRuns([]string{out}, ReadOptions{}); err != nil {
		t.Fatalf("reading the run written before: %v", err)
	}
	for _, targets := range [][]string{{"c2", "c5"}, {"c5", "c2"}} {
		cfg.Targets = targets
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("resuming given %v: %v", targets, err)
		}
		if sum.Finished != 0 || sum.Present != sum.Cells {
			t.Errorf("resuming given %v: %+v; want every cell present", targets, sum)
		}
		again, err := ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if again.RunID != man.RunID || !slices.Equal(again.Targets, man.Targets) {
			t.Errorf("resuming given %v: run %s, targets %v; want %s, %v", targets, again.RunID, again.Targets, man.RunID, man.Targets)
		}
	}
	sameRecords(t, legacy, readRecords(t, results))
}

// TestNWayPoolOrderIsTheRunsIdentity: an N-way run's pool is a list — an
// episode draws its classes by their place in it — so a pool given in
// another order is another run, where a binary run's targets compare as a
// set.
func TestNWayPoolOrderIsTheRunsIdentity(t *testing.T) {
	for _, tc := range []struct {
		protocol string
		want     string
	}{{ProtocolStandard, ""}, {ProtocolNWay, "targets: "}} {
		a := &Manifest{Protocol: tc.protocol, Classes: []string{"x", "y", "z"}, Targets: []string{"z", "x"}}
		b := &Manifest{Protocol: tc.protocol, Classes: a.Classes, Targets: []string{"x", "z"}}
		if d := a.differs(b, true); (tc.want == "") != (d == "") || !strings.HasPrefix(d, tc.want) {
			t.Errorf("%s: targets z,x against x,z differ by %q, want %q", tc.protocol, d, tc.want)
		}
	}
}
