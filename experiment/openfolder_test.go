package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/synth"
)

// TestRunOnOpenFolderMatchesLoadFolder: a run on a folder whose float32
// features are read on demand (dataset.OpenFolder: sources trained on the
// float32 rows as stored, only the rows of the cells read and scored) gives
// the records of a run on the same folder read whole into float64
// (dataset.LoadFolder), but for fit_seconds, and the same source models.
func TestRunOnOpenFolderMatchesLoadFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "synth")
	if err := synth.Write(context.Background(), dir, synth.Config{Classes: 20, PerClass: 40, Dims: 24, Groups: 4, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	eager, err := dataset.LoadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := dataset.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close()
	if lazy.X != nil {
		t.Fatal("OpenFolder read the features into memory")
	}
	methods := []string{"greedytl", "l1-logistic"}
	if testing.Short() {
		methods = []string{"greedytl", "no-transfer"} // the cheap baseline with -short
	}
	var recs [][]*Record
	var outs []string
	for _, f := range []*dataset.Folder{eager, lazy} {
		cfg := testConfig(f, filepath.Join(t.TempDir(), "run"), "", methods...)
		cfg.NegativeClasses = nil
		cfg.Workers = 2
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		rs := readRecords(t, filepath.Join(cfg.Out, "results.jsonl"))
		for _, r := range rs {
			r.FitSeconds = 0
		}
		// Workers append in the order cells finish.
		slices.SortFunc(rs, func(a, b *Record) int { return strings.Compare(fmt.Sprint(a.Key()), fmt.Sprint(b.Key())) })
		recs, outs = append(recs, rs), append(outs, cfg.Out)
	}
	if len(recs[0]) == 0 || !reflect.DeepEqual(recs[0], recs[1]) {
		t.Errorf("the %d records on the opened folder differ from the %d on the loaded one", len(recs[1]), len(recs[0]))
		for k := range min(len(recs[0]), len(recs[1])) {
			if !reflect.DeepEqual(recs[0][k], recs[1][k]) {
				t.Fatalf("first difference:\n%+v\n%+v", *recs[0][k], *recs[1][k])
			}
		}
	}
	models, err := filepath.Glob(filepath.Join(outs[0], "sources", "models", "*.model"))
	if err != nil || len(models) == 0 {
		t.Fatalf("no models: %v", err)
	}
	for _, m := range models {
		a, _ := os.ReadFile(m)
		b, err := os.ReadFile(filepath.Join(outs[1], "sources", "models", filepath.Base(m)))
		if err != nil || string(a) != string(b) {
			t.Errorf("model %s differs (%v)", filepath.Base(m), err)
		}
	}
}
