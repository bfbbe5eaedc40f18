package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
)

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
	man0, err := experiment.ReadManifest(filepath.Join(work, "shard-0"))
	if err != nil {
		t.Fatal(err)
	}
	man1, err := experiment.ReadManifest(filepath.Join(work, "shard-1"))
	if err != nil {
		t.Fatal(err)
	}
	if man0.GreedytlVersion == man1.GreedytlVersion {
		t.Errorf("two builds, one greedytl version %q", man0.GreedytlVersion)
	}
	shards := []string{filepath.Join(work, "shard-0"), filepath.Join(work, "shard-1")}
	code, stdout, stderr := cli(t, "", "merge", shards[0], shards[1], "--out", filepath.Join(work, "merged"))
	if code != exitInput || stdout != "" {
		t.Errorf("merging the shards of two builds: exit %d, stdout %q; want %d and nothing", code, stdout, exitInput)
	}
	for _, want := range []string{man0.GreedytlVersion, man1.GreedytlVersion, "one binary"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("merging the shards of two builds: %q does not say %q", stderr, want)
		}
	}
	// The build of shard 1 does not resume shard 0; this one does, and
	// shard 0 merges with a shard 1 of its own.
	if code, out := runBinary(t, bin, nil, args(0)...); code != exitInput || !strings.Contains(out, man0.GreedytlVersion) || !strings.Contains(out, man1.GreedytlVersion) {
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
