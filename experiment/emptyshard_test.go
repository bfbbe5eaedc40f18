package experiment

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// TestEmptyShardTrainsNothing: a shard that holds no cell of the grid (one
// group, 4 shards) neither trains the sources nor writes its run
// directory — it trained every source for no cell — while the shard that
// holds the group trains them and runs its cells.
func TestEmptyShardTrainsNothing(t *testing.T) {
	f := testFolder(t)
	root := t.TempDir()
	empty, full := 0, 0
	for i := range 4 {
		out := filepath.Join(root, "shard", string(rune('0'+i)))
		cfg := testConfig(f, out, "", "no-transfer")
		cfg.Targets, cfg.Positives, cfg.Splits, cfg.Noise = []string{"c2"}, []int{2}, 1, []int{0}
		cfg.Shard = shard.Shard{I: i, N: 4}
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("shard %d/4: %v", i, err)
		}
		_, serr := os.Stat(filepath.Join(out, "sources"))
		switch {
		case sum.Cells == 0:
			empty++
			if _, err := os.Stat(out); err == nil {
				t.Errorf("shard %d/4 holds no cell, yet wrote %s (sources: %v)", i, out, serr == nil)
			}
		default:
			full++
			if serr != nil || sum.Finished != sum.Cells {
				t.Errorf("shard %d/4: %+v, sources %v; want its cells run on the sources it trained", i, sum, serr)
			}
		}
	}
	if empty != 3 || full != 1 {
		t.Fatalf("%d empty shards and %d with the group, want 3 and 1", empty, full)
	}
}

// TestEmptyShardChecksOut: a shard that holds no cell of the grid, and
// would train its own sources, still refuses an --out that no run may
// use — a sources directory, a directory holding a results file that no
// run wrote — as the shard holding the group does; it returned before
// these checks, and so accepted, silently, what the other shards refuse.
// Nor does it accept a run directory of another run (its run.json checked
// under the lock).
func TestEmptyShardChecksOut(t *testing.T) {
	f := testFolder(t)
	for _, tc := range []struct {
		name string
		file func(shard.Shard) string // the file that makes --out unusable
		want string
	}{
		{"a sources directory", func(shard.Shard) string { return source.IndexFile }, "is a sources directory"},
		{"an orphan results file", resultsName, "but no " + ManifestFile},
	} {
		for i := range 4 {
			sh := shard.Shard{I: i, N: 4}
			out := t.TempDir()
			if err := os.WriteFile(filepath.Join(out, tc.file(sh)), []byte("not a record\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := testConfig(f, out, "", "no-transfer")
			cfg.Targets, cfg.Positives, cfg.Splits, cfg.Noise = []string{"c2"}, []int{2}, 1, []int{0}
			cfg.Shard = sh
			if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("shard %v, --out %s: %v; want an input error (%q)", sh, tc.name, err, tc.want)
			}
		}
	}
	// A run directory's run.json is checked under its lock, for an empty
	// shard as for the others: a seed-2 shard given a seed-1 run's
	// directory is refused.
	out := t.TempDir()
	cfg := testConfig(f, out, "", "no-transfer")
	cfg.Targets, cfg.Positives, cfg.Splits, cfg.Noise = []string{"c2"}, []int{2}, 1, []int{0}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Seed = 2
	for i := range 4 {
		cfg.Shard = shard.Shard{I: i, N: 4}
		if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "holds a run with other settings") {
			t.Errorf("seed-2 shard %v, --out a seed-1 run: %v; want an input error (holds a run with other settings)", cfg.Shard, err)
		}
	}
}
