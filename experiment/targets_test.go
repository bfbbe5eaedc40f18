package experiment

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/shard"
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

// TestMergeRefusesTargetsListedOtherwise: two shards whose run.json list
// the targets in different orders — as a greedytl that kept the order given
// wrote them, its run_id digesting that order — are two runs, whose
// records carry two identities: merge refuses them, naming the targets (it
// merged them, and wrote a run.json whose run_id half the records did not
// carry, which the report then refused), and so does a merge into the
// directory of the other.
func TestMergeRefusesTargetsListedOtherwise(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	dir := t.TempDir()
	var shards []string
	for i := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
		cfg := testConfig(f, out, src, "no-transfer")
		cfg.Targets = []string{"c2", "c5"}
		cfg.Shard = shard.Shard{I: i, N: 2}
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, out)
	}
	// Rewrite shard 1 as a greedytl keeping the order given wrote it,
	// given c5,c2.
	out := shards[1]
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
	results := filepath.Join(out, resultsName(*man.Shard))
	b, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(results, []byte(strings.ReplaceAll(string(b), `"run_id":"`+oldID+`"`, `"run_id":"`+man.RunID+`"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(dir, "merged")
	if _, err := Merge(shards, merged); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "targets: ") {
		t.Errorf("merging shards whose targets are listed c2,c5 and c5,c2: %v; want a refusal naming the targets", err)
	}
	if _, err := os.Stat(merged); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused merge left %s (%v)", merged, err)
	}
	into := filepath.Join(out, "merged.jsonl")
	if _, err := Merge(shards[:1], into); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "targets: ") {
		t.Errorf("merging shard 0 (c2,c5) into %s, beside a run.json listing c5,c2: %v; want a refusal naming the targets", into, err)
	}
}

// TestPoolOrderIsTheRunsIdentity: a run.json lists the targets as the run
// ordered them — an N-way pool as given (an episode draws its classes by
// their place in it), a binary run's targets in class order (Run puts
// them so) — so two that list them in other orders are other runs.
func TestPoolOrderIsTheRunsIdentity(t *testing.T) {
	for _, protocol := range []string{ProtocolStandard, ProtocolNWay} {
		a := &Manifest{Protocol: protocol, Classes: []string{"x", "y", "z"}, Targets: []string{"z", "x"}}
		b := &Manifest{Protocol: protocol, Classes: a.Classes, Targets: []string{"x", "z"}}
		if d := a.differs(b, true); !strings.HasPrefix(d, "targets: ") {
			t.Errorf("%s: targets z,x against x,z differ by %q, want the targets", protocol, d)
		}
	}
}
