package experiment

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// TestRunCheck: Config.Check refuses a run directory exactly as the run
// would (the same input error: other settings, another shard, other
// sources, sources read elsewhere that Run would train otherwise), and
// accepts a new directory and one of the run, without running a cell or
// writing anything — nor making the new directory. A job script asks it
// before it merges shards whether they are its run's (slurm-array.sh's
// merge merged an earlier run's shards, which every shard task had refused
// to resume with the new settings, and its report was of them).
func TestRunCheck(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	oneC := source.DefaultTrainConfig()
	oneC.Grid = []float64{1}
	other := testSources(t, f, oneC)
	out := filepath.Join(t.TempDir(), "shard-0")
	cfg := testConfig(f, out, src, "no-transfer")
	cfg.Targets, cfg.Positives, cfg.Splits, cfg.Noise = []string{"c2", "c3"}, []int{2}, 1, []int{0}
	cfg.Shard = shard.Shard{I: 0, N: 2}
	check := func(c Config) error {
		c.Check = true
		sum, err := Run(context.Background(), c)
		if err == nil && (sum == nil || sum.File != "" || sum.Cells != 0 || sum.Finished != 0) {
			t.Errorf("check: summary %+v, want an empty one", sum)
		}
		return err
	}
	if err := check(cfg); err != nil {
		t.Fatalf("check of a new directory: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the check of a new directory made it (%v)", err)
	}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	files := func() map[string]string {
		m := map[string]string{}
		err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			m[p] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	before := files()
	if err := check(cfg); err != nil {
		t.Errorf("check of the run's own directory: %v", err)
	}
	splits, otherShard, otherSources, own := cfg, cfg, cfg, cfg
	splits.Splits = 2
	otherShard.Shard = shard.Shard{I: 1, N: 2}
	otherSources.Sources = other
	own.Sources = "" // Run would train its own: sourcesElsewhere
	for name, c := range map[string]Config{"other splits": splits, "another shard": otherShard, "other sources": otherSources} {
		err := check(c)
		_, want := Run(context.Background(), c)
		if !errors.Is(err, ErrInput) || want == nil || err.Error() != want.Error() {
			t.Errorf("%s: check %v, want the run's input error %v", name, err, want)
		}
	}
	// Read elsewhere, with the default settings: resumable (the run would
	// train its own sources, the same); the check trains none.
	if err := check(own); err != nil {
		t.Errorf("without --sources, sources of the default settings: check %v, want nil", err)
	}
	if after := files(); !maps.Equal(before, after) {
		t.Errorf("the checks changed %s", out)
	}

	// A run that read sources trained otherwise, checked without them:
	// the run's refusal (sourcesElsewhere), before it trains any.
	out2 := t.TempDir()
	c2 := testConfig(f, out2, other, "no-transfer")
	c2.Targets, c2.Positives, c2.Splits, c2.Noise = []string{"c2"}, []int{2}, 1, []int{0}
	if _, err := Run(context.Background(), c2); err != nil {
		t.Fatal(err)
	}
	c2.Sources = ""
	err := check(c2)
	if _, serr := os.Stat(filepath.Join(out2, "sources")); !errors.Is(serr, fs.ErrNotExist) {
		t.Errorf("the check trained sources into %s (%v)", out2, serr)
	}
	_, want := Run(context.Background(), c2)
	if !errors.Is(err, ErrInput) || want == nil || err.Error() != want.Error() {
		t.Errorf("sources read elsewhere, trained otherwise: check %v, want the run's input error %v", err, want)
	}
}
