package experiment

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/greedytl/greedytl/shard"
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
