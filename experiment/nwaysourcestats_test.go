package experiment

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/source"
	"github.com/greedytl/greedytl/standardize"
)

// TestNWayPassesTheSourcesScoreStats: an N-way run gives greedytl-nway
// the score statistics its sources directory records (source.Info.Scores)
// for the episode's H, in H's column order (method.Extra.SourceScales):
// each record's accuracy and hyperparameters are those of a fit given
// them, recomputed here from the episode's rows. A directory whose index
// does not record them (one trained before) gives none, and each record
// is then that of a fit without them; on this folder the two differ in at
// least one record, so that the test tells them apart.
func TestNWayPassesTheSourcesScoreStats(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	old := t.TempDir()
	if err := os.CopyFS(old, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	b, err := os.ReadFile(filepath.Join(old, source.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, e := range doc["sources"].([]any) {
		delete(e.(map[string]any), "scores")
	}
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, source.IndexFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := source.ReadIndex(src)
	if err != nil {
		t.Fatal(err)
	}
	set, err := source.LoadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	run := func(dir string) ([]*Record, *Manifest) {
		t.Helper()
		cfg := nwayConfig(t.TempDir(), dir, "greedytl-nway")(t)
		cfg.Data = f
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		man, err := ReadManifest(cfg.Out)
		if err != nil {
			t.Fatal(err)
		}
		return readRecords(t, sum.File), man
	}
	recs, man := run(src)
	oldRecs, _ := run(old)
	if len(recs) != len(oldRecs) || len(recs) == 0 {
		t.Fatalf("%d and %d records", len(recs), len(oldRecs))
	}
	oldByKey := map[Key]*Record{}
	for _, o := range oldRecs {
		oldByKey[o.Key()] = o
	}
	pool, rowsOf := episodePool(f, man)
	differ := 0
	for _, r := range recs {
		g := group{Ways: r.Ways, Positives: r.Positives, Split: r.Split}
		ep := drawEpisode(man.Seed, g, pool, rowsOf, man.TestPerClass)
		var others []int
		own := &standardize.Scaler{}
		for j := range set.Len() {
			if !slices.Contains(ep.classes, ix.Sources[j].Class) {
				others = append(others, j)
				own.Mean = append(own.Mean, ix.Sources[j].Scores.Mean)
				own.Scale = append(own.Scale, ix.Sources[j].Scores.Std)
			}
		}
		train, ytr := episodeSample(t, f, set.Subset(others), ep.train)
		test, yte := episodeSample(t, f, set.Subset(others), ep.test)
		names := make([]string, len(ep.classes))
		for i, c := range ep.classes {
			names[i] = f.Classes[c]
		}
		fit := func(sc *standardize.Scaler) (float64, map[string]float64) {
			m, err := method.NewMulti("greedytl-nway")
			if err != nil {
				t.Fatal(err)
			}
			model, err := m.FitMulti(context.Background(), train, method.ClassLabels{Names: names, Y: ytr}, method.Extra{Seed: methodSeed(man.Seed, g, "greedytl-nway"), SourceScales: sc})
			if err != nil {
				t.Fatal(err)
			}
			pred, err := model.Predict(test)
			if err != nil {
				t.Fatal(err)
			}
			right := 0
			for i, p := range pred {
				if p == yte[i] {
					right++
				}
			}
			return float64(right) / float64(len(yte)), model.Hyperparameters()
		}
		accOwn, hyperOwn := fit(own)
		accNone, hyperNone := fit(nil)
		o := oldByKey[r.Key()]
		if o == nil {
			t.Fatalf("%v: no record from the directory without statistics", r.Key())
		}
		if r.Accuracy != accOwn || !equalHyper(r.Hyperparameters, hyperOwn) {
			t.Errorf("%v: accuracy %v %v, a fit given the sources' statistics %v %v", r.Key(), r.Accuracy, r.Hyperparameters, accOwn, hyperOwn)
		}
		if o.Accuracy != accNone || !equalHyper(o.Hyperparameters, hyperNone) {
			t.Errorf("%v, sources without statistics: accuracy %v %v, a fit without them %v %v", o.Key(), o.Accuracy, o.Hyperparameters, accNone, hyperNone)
		}
		if accOwn != accNone || !equalHyper(hyperOwn, hyperNone) {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("the fits with and without the sources' statistics gave the same %d records: the test cannot tell them apart", len(recs))
	}
}

// equalHyper reports whether a and b hold the same hyperparameters.
func equalHyper(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
