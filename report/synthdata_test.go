package report

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/experiment"
	synthdata "github.com/greedytl/greedytl/synth"
)

// TestSynthDataShowsGroupBlocks runs GreedyTL on a synthetic data set whose
// classes are drawn around group centres (package synth), so that the
// sources of a target's own group are the ones that transfer, and checks
// the known answer: most selected sources come from the target's group,
// and the transferability matrix the report draws (meanAbsWeights) has
// its weight in the diagonal blocks of the groups.
func TestSynthDataShowsGroupBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs an experiment")
	}
	cfg := synthdata.Config{Classes: 20, PerClass: 40, Dims: 512, Groups: 4, Seed: 2}
	dir := filepath.Join(t.TempDir(), "synth")
	if err := synthdata.Write(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	f, err := dataset.LoadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	ec := experiment.DefaultConfig()
	ec.Data, ec.Out = f, filepath.Join(t.TempDir(), "run")
	ec.Positives, ec.Splits, ec.Methods = []int{2}, 6, []string{"greedytl"}
	if _, err := experiment.Run(context.Background(), ec); err != nil {
		t.Fatal(err)
	}
	res, err := Load(ec.Out)
	if err != nil {
		t.Fatal(err)
	}

	var same, selected int
	for _, r := range res.Records {
		if r.Error != "" {
			t.Fatalf("cell %v failed: %s", r.Key(), r.Error)
		}
		for _, s := range r.Sources {
			selected++
			if cfg.GroupOf(s) == cfg.GroupOf(r.TargetIdx) {
				same++
			}
		}
	}
	// A target has 15 or 16 sources (4 classes are negatives), at most 4
	// of its group: at random about a quarter of the selected sources
	// would share the target's group.
	if selected == 0 || float64(same) < 0.6*float64(selected) {
		t.Errorf("%d of %d selected sources come from the target's group, want most (> 60%%)", same, selected)
	}

	w := meanAbsWeights(res.Records, rowKey{dataset: "synth", method: "greedytl", positives: 2})
	if w == nil {
		t.Fatal("no source weights")
	}
	var in, out float64
	var nIn, nOut int
	for tg := range w.targets {
		for s := range cfg.Classes {
			if s == tg {
				continue
			}
			v := w.val[[2]int{s, tg}]
			if cfg.GroupOf(s) == cfg.GroupOf(tg) {
				in, nIn = in+v, nIn+1
			} else {
				out, nOut = out+v, nOut+1
			}
		}
	}
	in, out = in/float64(nIn), out/float64(nOut)
	t.Logf("%d of %d selected sources from the target's group; mean |w| %.3g in the diagonal blocks, %.3g outside", same, selected, in, out)
	if !(in > 5*out) {
		t.Errorf("transferability matrix: mean |w| %.3g in the group blocks, %.3g outside: want the blocks to dominate (> 5×)", in, out)
	}
}
