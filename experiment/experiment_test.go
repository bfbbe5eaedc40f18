package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/dirlock"
	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/tmpfstest"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

func TestHash64IsFNV1a(t *testing.T) {
	// Published FNV-1a 64-bit test vectors: the shard plan must not change
	// between versions, or resumed and merged shards would not fit.
	for s, want := range map[string]uint64{"": 0xcbf29ce484222325, "a": 0xaf63dc4c8601ec8c, "foobar": 0x85944171f73967e8} {
		if got := hash64(s); got != want {
			t.Errorf("hash64(%q) = %#x, want %#x", s, got, want)
		}
	}
	// The group key string is part of the plan too.
	if got, want := (group{Target: 3, Positives: 5, Noise: 10, Split: 7}).key(), "target=3 positives=5 noise=10 split=7"; got != want {
		t.Errorf("key %q, want %q", got, want)
	}
}

func TestShardsPartitionTheGrid(t *testing.T) {
	g := &grid{dataset: "d", targets: []int{0, 2, 3, 5, 8}, positives: []int{2, 5, 10}, noise: []int{0, 10}, splits: 10, methods: []string{"a", "b"}}
	all := g.groups(shard.Shard{})
	if len(all) != 5*3*2*10 || g.cells(shard.Shard{}) != 2*len(all) {
		t.Fatalf("%d groups, %d cells", len(all), g.cells(shard.Shard{}))
	}
	for _, n := range []int{1, 2, 3, 7} {
		var union []group
		for i := range n {
			part := g.groups(shard.Shard{I: i, N: n})
			if n > 1 && (len(part) < len(all)/n/2 || len(part) > 2*len(all)/n) {
				t.Errorf("shard %d/%d has %d of %d groups: badly balanced", i, n, len(part), len(all))
			}
			union = append(union, part...)
		}
		if len(union) != len(all) {
			t.Fatalf("%d shards hold %d groups, want %d", n, len(union), len(all))
		}
		seen := make(map[group]bool)
		for _, gr := range union {
			if seen[gr] {
				t.Fatalf("%d shards: group %v in two shards", n, gr)
			}
			seen[gr] = true
		}
	}
}

func TestDrawSplit(t *testing.T) {
	standard, _ := protocolSizes(ProtocolStandard)
	pos := make([]int, 30)
	for k := range pos {
		pos[k] = 1000 + k
	}
	neg := make([]int, 70)
	for k := range neg {
		neg[k] = 2000 + k
	}
	tests := []struct {
		pos, neg                 []int
		positives                int
		testPos, testNeg, trainN int
	}{
		{pos, neg, 2, 28, 50, 10},         // the test positives run short: 30 − 2
		{pos, neg, 10, 20, 50, 10},        // 50 test negatives of the 60 left
		{pos[:12], neg[:15], 5, 7, 5, 10}, // both run short
		{pos, neg, 29, 1, 50, 10},         // one test positive left
	}
	for _, tc := range tests {
		g := group{Target: 4, Positives: tc.positives, Split: 1}
		s := drawSplit(1, g, tc.pos, tc.neg, standard)
		if len(s.trainPos) != tc.positives || len(s.trainNeg) != tc.trainN || len(s.testPos) != tc.testPos || len(s.testNeg) != tc.testNeg {
			t.Errorf("%d positives of %d, %d negatives: sets of %d, %d, %d, %d", tc.positives, len(tc.pos), len(tc.neg),
				len(s.trainPos), len(s.trainNeg), len(s.testPos), len(s.testNeg))
		}
		seen := make(map[int]bool)
		for _, set := range [][]int{s.trainPos, s.testPos} {
			for _, r := range set {
				if !slices.Contains(tc.pos, r) || seen[r] {
					t.Errorf("positive row %d repeated or not the target's", r)
				}
				seen[r] = true
			}
		}
		for _, set := range [][]int{s.trainNeg, s.testNeg} {
			for _, r := range set {
				if !slices.Contains(tc.neg, r) || seen[r] {
					t.Errorf("negative row %d repeated or not a target negative", r)
				}
				seen[r] = true
			}
		}
		again := drawSplit(1, g, tc.pos, tc.neg, standard)
		if !slices.Equal(s.trainPos, again.trainPos) || !slices.Equal(s.testNeg, again.testNeg) {
			t.Errorf("the same group drew different sets")
		}
	}
	// Different splits, targets and seeds draw different sets.
	base := drawSplit(1, group{Target: 4, Positives: 5, Split: 1}, pos, neg, standard)
	for _, other := range []split{
		drawSplit(1, group{Target: 4, Positives: 5, Split: 2}, pos, neg, standard),
		drawSplit(1, group{Target: 5, Positives: 5, Split: 1}, pos, neg, standard),
		drawSplit(2, group{Target: 4, Positives: 5, Split: 1}, pos, neg, standard),
	} {
		if slices.Equal(base.trainPos, other.trainPos) && slices.Equal(base.trainNeg, other.trainNeg) {
			t.Errorf("two different groups drew the same training set %v %v", base.trainPos, base.trainNeg)
		}
	}
}

// newTestRunner sets up a runner on the tiny dataset (sources trained by
// Run itself) and returns it with its sources' index.
func newTestRunner(t *testing.T, noise []int) (*runner, *source.Index) {
	t.Helper()
	f := testFolder(t)
	cfg := testConfig(f, t.TempDir(), testSources(t, f), "greedytl")
	cfg.Noise = noise
	return loadRunner(t, &cfg, func(neg *source.Negatives) ([]string, error) {
		return chooseTargets(&cfg, neg, f.ClassCounts(), t.Logf)
	})
}

// loadRunner sets up the runner of cfg on the targets that choose picks
// given the negative plan, loads the data of every group of its grid, and
// returns it with its sources' index.
func loadRunner(tb testing.TB, cfg *Config, choose func(*source.Negatives) ([]string, error)) (*runner, *source.Index) {
	tb.Helper()
	digest, err := source.DataDigest(cfg.Data)
	if err != nil {
		tb.Fatal(err)
	}
	neg, ix, err := negativePlan(cfg, digest)
	if err != nil {
		tb.Fatal(err)
	}
	targets, err := choose(neg)
	if err != nil {
		tb.Fatal(err)
	}
	set, err := source.LoadDir(cfg.Sources)
	if err != nil {
		tb.Fatal(err)
	}
	methods, err := cfg.check()
	if err != nil {
		tb.Fatal(err)
	}
	man := newManifest(cfg, methods, neg, targets, digest)
	g := newGrid(man)
	r, err := newRunner(cfg, man, g, g.groups(cfg.Shard), neg, ix, set)
	if err != nil {
		tb.Fatal(err)
	}
	if err := r.load(allJobs(r), func(string, ...any) {}); err != nil {
		tb.Fatal(err)
	}
	return r, ix
}

// allJobs returns a job of every group of r's grid.
func allJobs(r *runner) []job {
	var jobs []job
	for _, g := range r.grid.groups(shard.Shard{}) {
		jobs = append(jobs, job{g: g, methods: r.grid.methods})
	}
	return jobs
}

func TestBuildGroupData(t *testing.T) {
	r, ix := newTestRunner(t, []int{0, 300})
	f := r.cfg.Data
	_, d := f.X.Dims()
	// Every source scored on every row at once: the runner scores only the
	// rows its cells use, a chunk at a time, and must get the same numbers.
	set, err := source.LoadDir(r.cfg.Sources)
	if err != nil {
		t.Fatal(err)
	}
	hAll, err := set.Scores(f.X)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.grid.targets) != testClasses || len(ix.Sources) != testClasses {
		t.Fatalf("%d targets and %d sources, want %d", len(r.grid.targets), len(ix.Sources), testClasses)
	}
	for _, g := range []group{{Target: 3, Positives: 5, Split: 1}, {Target: 0, Positives: 2, Split: 0}} {
		plain := r.build(g)
		noisy := r.build(group{Target: g.Target, Positives: g.Positives, Split: g.Split, Noise: 300})
		s := drawSplit(r.man.Seed, g, r.posRows[g.Target], r.negRows, r.man.sizes())
		for _, c := range []struct {
			name        string
			data        *groupData
			rows        []int
			pos         int
			nx          int
			noiseSample []float64
		}{
			{"train", plain, slices.Concat(s.trainPos, s.trainNeg), len(s.trainPos), d, nil},
			{"test", nil, slices.Concat(s.testPos, s.testNeg), len(s.testPos), d, nil},
		} {
			for _, gd := range []*groupData{plain, noisy} {
				set := gd.train
				if c.name == "test" {
					set = gd.test
				}
				rx, cx := set.X.Dims()
				if rx != len(c.rows) || cx != d+gd.noiseDim {
					t.Fatalf("%s X is %d×%d, want %d×%d", c.name, rx, cx, len(c.rows), d+gd.noiseDim)
				}
				rh, ch := set.H.Dims()
				if rh != len(c.rows) || ch != len(ix.Sources)-1 {
					t.Fatalf("%s H is %d×%d, want %d×%d", c.name, rh, ch, len(c.rows), len(ix.Sources)-1)
				}
				if slices.Contains(gd.sources, g.Target) {
					t.Errorf("target %d's own source is among its sources %v", g.Target, gd.sources)
				}
				for i, row := range c.rows {
					if !slices.Equal(set.X.(*mat.Dense).RawRowView(i)[:d], f.X.RawRowView(row)) {
						t.Fatalf("%s row %d is not dataset row %d", c.name, i, row)
					}
					want := -1.0
					if i < c.pos {
						want = 1
						if f.Labels[row] != g.Target {
							t.Fatalf("%s positive row %d has class %d", c.name, row, f.Labels[row])
						}
					}
					if set.Y[i] != want {
						t.Fatalf("%s label %d is %v, want %v", c.name, i, set.Y[i], want)
					}
					for k, j := range gd.sources {
						col := slices.IndexFunc(ix.Sources, func(e source.Entry) bool { return e.Class == j })
						if set.H.At(i, k) != hAll.At(row, col) {
							t.Fatalf("%s H[%d][%d] is not source %d's score of row %d", c.name, i, k, j, row)
						}
					}
				}
			}
		}
		// The noise: N(0,1), drawn again identically, independent between
		// train and test.
		var sum, sq float64
		var n int
		for _, set := range []*mat.Dense{noisy.train.X.(*mat.Dense), noisy.test.X.(*mat.Dense)} {
			rows, cols := set.Dims()
			for i := range rows {
				for _, v := range set.RawRowView(i)[d:cols] {
					sum, sq, n = sum+v, sq+v*v, n+1
				}
			}
		}
		mean, variance := sum/float64(n), sq/float64(n)-(sum/float64(n))*(sum/float64(n))
		if math.Abs(mean) > 4/math.Sqrt(float64(n)) || math.Abs(variance-1) > 6*math.Sqrt(2/float64(n)) {
			t.Errorf("noise over %d values has mean %.4f and variance %.4f, want 0 and 1", n, mean, variance)
		}
		if !mat.Equal(noisy.train.X, r.build(group{Target: g.Target, Positives: g.Positives, Split: g.Split, Noise: 300}).train.X) {
			t.Errorf("the same group drew different noise")
		}
		if slices.Equal(noisy.train.X.(*mat.Dense).RawRowView(0)[d:d+10], noisy.test.X.(*mat.Dense).RawRowView(0)[d:d+10]) {
			t.Errorf("train and test rows share their noise")
		}
	}
}

func TestRunRecords(t *testing.T) {
	f := testFolder(t)
	out := t.TempDir()
	methods := []string{"greedytl", "no-transfer", "best-source", probeMethod, allNegMethod, failingMethod, nanMethod}
	cfg := testConfig(f, out, "", methods...) // the sources are trained into out/sources
	var calls, last int
	cfg.Progress = func(done, total int) {
		calls++
		if done < last || total != len(cfg.Data.Classes[:testClasses])*2*2*2*len(methods) {
			t.Errorf("progress %d of %d after %d", done, total, last)
		}
		last = done
	}
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := testClasses * 2 * 2 * 2 * len(methods)
	if sum.Cells != want || sum.Finished != want || sum.Present != 0 || sum.Failed != 2*want/len(methods) || last != want || calls != want+1 {
		t.Fatalf("summary %+v, progress %d in %d calls; want %d cells, 2 methods failing", sum, last, calls, want)
	}
	// The failed cells, grouped by method and message; a rerun finds them
	// in the results file.
	wantFailures := []Failure{
		{failingMethod, "fit: refusing to fit", want / len(methods)},
		{nanMethod, "predict: score 0 is NaN", want / len(methods)},
	}
	if !slices.Equal(sum.Failures, wantFailures) || sum.FailedCells() != sum.Failed {
		t.Errorf("failures %+v (%d cells), want %+v", sum.Failures, sum.FailedCells(), wantFailures)
	}
	if again, err := Run(context.Background(), cfg); err != nil || again.Finished != 0 || !slices.Equal(again.Failures, wantFailures) {
		t.Errorf("rerun: %+v, %v; want the failures %+v", again, err, wantFailures)
	}
	man, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if man.Sources.Dir != filepath.Join(out, "sources") || man.Sources.Count != testClasses || len(man.Targets) != testClasses || man.Shard != nil {
		t.Errorf("manifest %+v", man)
	}
	if man.Build == nil || man.Build.Go != runtime.Version() || man.GreedytlVersion != man.Build.ID() {
		t.Errorf("run.json records the build %+v (version %q)", man.Build, man.GreedytlVersion)
	}

	recs := readRecords(t, sum.File)
	byMethod := countBy(recs, func(r *Record) string { return r.Method })
	for _, m := range methods {
		if byMethod[m] != want/len(methods) {
			t.Errorf("%s has %d records, want %d", m, byMethod[m], want/len(methods))
		}
	}
	byKey(t, recs) // no duplicates
	for _, r := range recs {
		if r.Dataset != "tiny" || r.Target != f.Classes[r.TargetIdx] || r.Negatives != TrainNegatives ||
			r.TestPositives != testPerClass-r.Positives || r.TestNegatives != 24-TrainNegatives {
			t.Fatalf("record %+v", r)
		}
		if r.Candidates != testClasses+testNegatives+r.Noise+testClasses-1 {
			t.Errorf("%v: %d candidates", r.Key(), r.Candidates)
		}
		if slices.Contains(r.Sources, r.TargetIdx) {
			t.Errorf("%v uses the target's own source", r.Key())
		}
		switch r.Method {
		case probeMethod:
			if r.Error != "" || r.BalancedAccuracy != 1 {
				t.Errorf("%v: accuracy %v, error %q; the probe predicts the oracle's labels", r.Key(), r.BalancedAccuracy, r.Error)
			}
		case allNegMethod:
			if r.Error != "" || r.BalancedAccuracy != 0.5 || r.Hyperparameters["c"] != 1 || r.Features != -1 {
				t.Errorf("%v: %+v; an all-negative model has balanced accuracy 1/2", r.Key(), r)
			}
		case failingMethod:
			if r.Error != "fit: refusing to fit" || r.BalancedAccuracy != 0 {
				t.Errorf("%v: error %q", r.Key(), r.Error)
			}
		case nanMethod:
			if !strings.Contains(r.Error, "NaN") || r.BalancedAccuracy != 0 || r.Hyperparameters != nil {
				t.Errorf("%v: error %q", r.Key(), r.Error)
			}
		case "greedytl":
			if r.Error != "" || r.Features < 0 || r.Features > r.Candidates || len(r.Sources) != len(r.Weights) || len(r.SourceNames) != len(r.Sources) {
				t.Errorf("%v: %+v", r.Key(), r)
			}
			for k, c := range r.Sources {
				if r.SourceNames[k] != f.Classes[c] || r.Weights[k] == 0 {
					t.Errorf("%v: source %d named %q with weight %v", r.Key(), c, r.SourceNames[k], r.Weights[k])
				}
			}
		}
	}
	// The real methods' records are those of a fit recomputed here from
	// the definitions: the split's rows of the dataset, the noise, the
	// scores of every source but the target's (scored anew, by name), the
	// labels, and for the oracle the labelled test set.
	set, err := source.LoadDir(filepath.Join(out, "sources"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Method != "greedytl" && r.Method != "no-transfer" && r.Method != "best-source" {
			continue
		}
		if r.Error != "" {
			t.Fatalf("%v: %s", r.Key(), r.Error)
		}
		g := group{Target: r.TargetIdx, Positives: r.Positives, Noise: r.Noise, Split: r.Split}
		want := recompute(t, f, set, man, g, r.Method)
		if r.BalancedAccuracy != want.BalancedAccuracy || !slices.Equal(r.Sources, want.Sources) || !slices.Equal(r.Weights, want.Weights) {
			t.Fatalf("%v: accuracy %v, sources %v %v; recomputed %v, %v %v", r.Key(), r.BalancedAccuracy, r.Sources, r.Weights,
				want.BalancedAccuracy, want.Sources, want.Weights)
		}
	}

	// The same grid on one worker, with the sources given, gives the same
	// records.
	cfg1 := testConfig(f, t.TempDir(), filepath.Join(out, "sources"), methods...)
	cfg1.Workers = 1
	sum1, err := Run(context.Background(), cfg1)
	if err != nil {
		t.Fatal(err)
	}
	sameRecords(t, recs, readRecords(t, sum1.File))
}

func TestRunResumes(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	methods := []string{"greedytl", "greedytl-59", "no-transfer", allNegMethod}
	full, err := Run(context.Background(), testConfig(f, t.TempDir(), src, methods...))
	if err != nil {
		t.Fatal(err)
	}
	want := readRecords(t, full.File)

	out := t.TempDir()
	for _, stopAt := range []int{1, 17, 60} {
		ctx, cancel := context.WithCancel(context.Background())
		cfg := testConfig(f, out, src, methods...)
		cfg.Workers = 2
		cfg.Progress = func(done, _ int) {
			if done >= stopAt {
				cancel()
			}
		}
		sum, err := Run(ctx, cfg)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at %d: error %v", stopAt, err)
		}
		if got := len(readRecords(t, sum.File)); got < stopAt || got >= full.Cells || got != sum.Present+sum.Finished {
			t.Fatalf("cancelled at %d: %d records, summary %+v", stopAt, got, sum)
		}
	}
	// A partial line, as a kill in the middle of a write leaves.
	path := filepath.Join(out, resultsName(shard.Shard{}))
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(`{"dataset":"tiny","target":"c1","target_i`)
	fh.Close()

	var log bytes.Buffer
	cfg := testConfig(f, out, src, methods...)
	cfg.Log = &log
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "partial last line") || !strings.Contains(log.String(), "resuming") {
		t.Errorf("log %q", log.String())
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(after, before) {
		t.Errorf("resuming changed the records already written")
	}
	if sum.Present+sum.Finished != full.Cells || sum.Present != bytes.Count(before, []byte("\n")) {
		t.Errorf("summary %+v after %d lines", sum, bytes.Count(before, []byte("\n")))
	}
	sameRecords(t, want, readRecords(t, path))

	// Once complete, a rerun does nothing — also with the methods and
	// sizes given in another order (they are sets).
	sum, err = Run(context.Background(), testConfig(f, out, src, methods...))
	if err != nil || sum.Finished != 0 || sum.Present != full.Cells {
		t.Errorf("rerun of a complete run: %+v, %v", sum, err)
	}
	reversed := slices.Clone(methods)
	slices.Reverse(reversed)
	cfg = testConfig(f, out, src, reversed...)
	cfg.Positives = slices.Clone(cfg.Positives)
	slices.Reverse(cfg.Positives)
	sum, err = Run(context.Background(), cfg)
	if err != nil || sum.Finished != 0 || sum.Present != full.Cells {
		t.Errorf("rerun with the methods and sizes reversed: %+v, %v", sum, err)
	}
}

// TestRunCancelledBefore: a run whose context is done before it starts
// returns the context's error and writes nothing: no run directory, no
// run.json, no results file (it used to write them, and take the lock,
// before noticing).
func TestRunCancelledBefore(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	out := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, testConfig(f, out, src, "greedytl")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a run cancelled before it started created %s (stat: %v)", out, err)
	}
}

func TestRunRefusesAnotherRun(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	out := t.TempDir()
	if _, err := Run(context.Background(), testConfig(f, out, src, allNegMethod)); err != nil {
		t.Fatal(err)
	}
	otherTraining := source.DefaultTrainConfig()
	otherTraining.Grid = []float64{1}
	otherSources := testSources(t, f, otherTraining)
	tests := []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"splits", func(c *Config) { c.Splits = 3 }, "splits"},
		{"seed", func(c *Config) { c.Seed = 2 }, "seed"},
		{"methods", func(c *Config) { c.Methods = []string{"greedytl"} }, "methods"},
		{"targets", func(c *Config) { c.Targets = []string{"c1", "c2"} }, "targets"},
		{"dataset name", func(c *Config) { c.Name = "other" }, "dataset name"},
		{"shard", func(c *Config) { c.Shard = shard.Shard{I: 1, N: 2} }, "holds the whole run (run without --shard), not shard 1/2: "},
		{"sources", func(c *Config) { c.Sources = otherSources }, "sources"},
	}
	for _, tc := range tests {
		cfg := testConfig(f, out, src, allNegMethod)
		tc.change(&cfg)
		_, err := Run(context.Background(), cfg)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s changed: error %v, want an input error naming %q", tc.name, err, tc.want)
		}
	}
	// A shard's directory resumed as the whole run, or as another shard.
	part := t.TempDir()
	cfg := testConfig(f, part, src, allNegMethod)
	cfg.Shard = shard.Shard{I: 1, N: 2}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		shard shard.Shard
		want  string
	}{
		{shard.Shard{}, "holds shard 1/2 of the run, not the whole run: run without --shard in another directory"},
		{shard.Shard{I: 0, N: 2}, "holds shard 1/2 of the run, not shard 0/2: give each shard its own run directory"},
	} {
		cfg.Shard = tc.shard
		if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("shard %v in shard 1/2's directory: %v, want an input error saying %q", tc.shard, err, tc.want)
		}
	}
	// The same sources trained again elsewhere (here, by Run itself into
	// the run directory) are the same sources.
	cfg = testConfig(f, out, "", allNegMethod)
	if sum, err := Run(context.Background(), cfg); err != nil || sum.Finished != 0 {
		t.Errorf("resuming with the sources retrained: %+v, %v", sum, err)
	}
}

func TestRunInputErrors(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	other := testFolder(t)
	other.X.Set(0, 0, 42)
	renamed := testFolder(t)
	renamed.Classes = slices.Clone(renamed.Classes)
	renamed.Classes[0] = "renamed"
	incomplete := incompleteSources(t, src)
	tests := []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"no positives", func(c *Config) { c.Positives = nil }, "positives"},
		{"zero positives", func(c *Config) { c.Positives = []int{0} }, "positives"},
		{"repeated positives", func(c *Config) { c.Positives = []int{2, 2} }, "twice"},
		{"no splits", func(c *Config) { c.Splits = 0 }, "splits"},
		{"too many splits", func(c *Config) { c.Splits = maxGridCells }, "a grid of 3.2e+09 cells (8 targets × 2 sizes × 2 noise levels × 100000000 splits × 1 method)"},
		{"negative noise", func(c *Config) { c.Noise = []int{-1} }, "noise"},
		// One unknown method was "method: unknown method", two
		// "experiment: unknown methods".
		{"unknown method", func(c *Config) { c.Methods = []string{"nope"} }, `experiment: unknown method "nope" (known: greedytl, `},
		{"unknown methods", func(c *Config) { c.Methods = []string{"nope", "greedytl", "nada"} }, `experiment: unknown methods "nope", "nada" (known: greedytl, `},
		{"unknown N-way method", func(c *Config) {
			c.Protocol, c.Ways, c.Noise, c.Methods = ProtocolNWay, []int{2}, []int{0}, []string{"nope"}
		}, `experiment: unknown method "nope" (known: `},
		{"one method under two names", func(c *Config) { c.Methods = []string{"greedytl-sp", "greedytl-sp:gamma=0.5"} }, "are the same method (greedytl-sp)"},
		{"unknown target", func(c *Config) { c.Targets = []string{"zz"} }, "zz"},
		{"negative target", func(c *Config) { c.Targets = []string{"n1"} }, "negative class"},
		{"small target", func(c *Config) { c.Positives = []int{24} }, "no class can be a target: each needs at least 25 examples (the largest number of positives and a test positive), and the largest has 24 examples"},
		{"small named target", func(c *Config) { c.Positives, c.Targets = []int{24}, []string{"c1"} }, "has 24 examples"},
		// The positives and a test positive overflowed an int: drawSplit panicked.
		// The examples a target needs were named as the int limit, one
		// fewer than the positives and a test positive.
		{"positives beyond an int", func(c *Config) { c.Positives = []int{math.MaxInt} }, "no class can be a target: each needs at least 9223372036854775808 examples (the largest number of positives and a test positive), and the largest has 24 examples"},
		{"named target, positives beyond an int", func(c *Config) { c.Positives, c.Targets = []int{math.MaxInt}, []string{"c1"} }, `target "c1" has 24 examples, want at least 9223372036854775808`},
		{"other data", func(c *Config) { c.Data = other }, "content differs"},
		{"other classes", func(c *Config) { c.Data = renamed }, "its class "},
		{"incomplete sources", func(c *Config) { c.Sources = incomplete }, "incomplete: 1 class (c1) has no model yet"},
		{"other negatives", func(c *Config) { c.NegativeClasses = []string{"n0"} }, "trained against"},
		{"fraction with named sources", func(c *Config) { c.NegativeFraction = 0.2 }, "another plan"},
		{"bad shard", func(c *Config) { c.Shard = shard.Shard{I: 2, N: 2} }, "shard"},
		{"no sources", func(c *Config) { c.Sources = filepath.Join(c.Out, "nowhere") }, "nowhere"},
		{"few target negatives", func(c *Config) { c.Sources, c.NegativeClasses = "", []string{"n0"} }, "target negatives"},
	}
	for _, tc := range tests {
		cfg := testConfig(f, t.TempDir(), src, allNegMethod)
		tc.change(&cfg)
		_, err := Run(context.Background(), cfg)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want an input error containing %q", tc.name, err, tc.want)
			continue
		}
		if err := errtest.OnePrefix(err.Error()); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// incompleteSources returns a copy of the sources directory src whose index
// says that class c1 has no model yet (an interrupted train-sources).
func incompleteSources(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, source.IndexFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	doc["missing"] = []string{"c1"}
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestScanResultsErrors(t *testing.T) {
	dir := t.TempDir()
	good := `{"dataset":"tiny","target":"c1","target_idx":1,"positives":2,"negatives":10,"noise":0,"split":0,"method":"m","balanced_accuracy":0.5,"test_positives":3,"test_negatives":3,"fit_seconds":0,"features":-1,"candidates":3}`
	tests := []struct {
		name, content, want string
	}{
		{"not json", good + "\n{oops}\n", ":2: not a result record"},
		{"unknown member", good + "\n" + strings.Replace(good, `"noise"`, `"noize"`, 1) + "\n", `:2: not a result record: json: unknown field "noize"`},
		{"trailing data", good + " 1\n", ":1: trailing data after the result record"},
		{"no method", strings.Replace(good, `"method":"m"`, `"method":""`, 1) + "\n", ":1: result record without"},
		// A member deleted would be read as 0: a cell scoring 0 (issue 18).
		{"no accuracy", good + "\n" + strings.Replace(good, `"balanced_accuracy":0.5,`, "", 1) + "\n", ":2: balanced_accuracy is missing"},
		{"no candidates", strings.Replace(good, `,"candidates":3`, "", 1) + "\n", ":1: candidates is missing"},
		{"null accuracy", strings.Replace(good, `"balanced_accuracy":0.5`, `"balanced_accuracy":null`, 1) + "\n", ":1: balanced_accuracy is null"},
		{"null weight", strings.Replace(good, `"candidates":3`, `"candidates":3,"sources":[1],"weights":[null]`, 1) + "\n", ":1: weights[0] is null"},
		{"null hyperparameter", strings.Replace(good, `"candidates":3`, `"candidates":3,"hyperparameters":{"c":null}`, 1) + "\n", ":1: hyperparameters.c is null"},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, tc.name+".jsonl")
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := scanResults(path, func([]byte, *Record, int) error { return nil })
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	path := filepath.Join(dir, "ok.jsonl")
	if err := os.WriteFile(path, []byte(good+"\n\n"+good+"\n"+good[:20]), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	complete, partial, err := scanResults(path, func([]byte, *Record, int) error { n++; return nil })
	if err != nil || n != 2 || !partial || complete != int64(2*len(good)+3) {
		t.Errorf("scan: %d records, complete %d, partial %v, %v", n, complete, partial, err)
	}
}

func TestMergeShards(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	methods := []string{"greedytl", "no-transfer", allNegMethod}
	single, err := Run(context.Background(), testConfig(f, t.TempDir(), src, methods...))
	if err != nil {
		t.Fatal(err)
	}
	var shards []string
	cells := 0
	for i := range 3 {
		cfg := testConfig(f, t.TempDir(), src, methods...)
		cfg.Shard = shard.Shard{I: i, N: 3}
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(sum.File) != resultsName(cfg.Shard) || sum.Finished == 0 {
			t.Fatalf("shard %d: %+v", i, sum)
		}
		cells += sum.Cells
		shards = append(shards, cfg.Out)
	}
	if cells != single.Cells {
		t.Fatalf("the shards hold %d cells, the grid %d", cells, single.Cells)
	}

	merged := filepath.Join(t.TempDir(), "merged")
	rep, err := Merge(shards, merged)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete() || rep.Expected != single.Cells || rep.Present != single.Cells || len(rep.Duplicates)+len(rep.Conflicts) != 0 || len(rep.Files) != 3 {
		t.Fatalf("report %+v", rep)
	}
	sameRecords(t, readRecords(t, single.File), readRecords(t, filepath.Join(merged, "results.jsonl")))
	man, err := ReadManifest(merged)
	if err != nil || man.Shard != nil {
		t.Fatalf("merged manifest %+v, %v", man, err)
	}
	// Grid order: the merged file is sorted.
	recs := readRecords(t, filepath.Join(merged, "results.jsonl"))
	g := newGrid(man)
	for k := 1; k < len(recs); k++ {
		a, _ := g.order(recs[k-1].Key())
		b, _ := g.order(recs[k].Key())
		if slices.Compare(a[:], b[:]) >= 0 {
			t.Fatalf("merged records %d and %d out of order", k-1, k)
		}
	}

	// Missing cells: leave a shard out; complete the merged run with Run.
	partial := filepath.Join(t.TempDir(), "partial")
	rep, err = Merge(shards[:2], partial)
	if err != nil {
		t.Fatal(err)
	}
	third := readRecords(t, filepath.Join(shards[2], resultsName(shard.Shard{I: 2, N: 3})))
	if rep.Complete() || len(rep.Missing) != len(third) || rep.Present != single.Cells-len(third) {
		t.Fatalf("without shard 2 (%d cells): report %+v", len(third), rep)
	}
	for _, k := range rep.Missing {
		if !slices.ContainsFunc(third, func(r *Record) bool { return r.Key() == k }) {
			t.Fatalf("missing cell %v is not shard 2's", k)
		}
	}
	sum, err := Run(context.Background(), testConfig(f, partial, src, methods...))
	if err != nil || sum.Finished != len(third) {
		t.Fatalf("completing the merged run: %+v, %v", sum, err)
	}
	sameRecords(t, readRecords(t, single.File), readRecords(t, sum.File))

	// Identical duplicates are kept once.
	all := filepath.Join(t.TempDir(), "all.jsonl")
	rep, err = Merge([]string{single.File, shards[0]}, all)
	first := readRecords(t, filepath.Join(shards[0], resultsName(shard.Shard{I: 0, N: 3})))
	if err != nil || !rep.Complete() || len(rep.Duplicates) != len(first) || rep.Present != single.Cells {
		t.Fatalf("merging a run with its shard: %+v, %v", rep, err)
	}

	// A merged FILE.jsonl has no run.json: merging it again says what it
	// is and what to do, and the advice works — with a shard's run.json
	// beside it, it reads as the whole run.
	_, err = Merge([]string{all}, "")
	for _, want := range []string{all + ": no run.json beside it", "merge --out FILE.jsonl wrote", "--out DIR"} {
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), want) {
			t.Errorf("merging a merged file again: %v, want an input error containing %q", err, want)
		}
	}
	man1, err := os.ReadFile(filepath.Join(shards[1], ManifestFile))
	if err == nil {
		err = os.WriteFile(filepath.Join(filepath.Dir(all), ManifestFile), man1, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := Merge([]string{all}, ""); err != nil || !rep.Complete() || rep.Present != single.Cells {
		t.Errorf("a merged file with a shard's run.json beside it: %+v, %v", rep, err)
	}
}

// TestConflictErrorCounts: the error of conflicting records counts 0, 1
// and 2 cells in English (none is no error); it said "1 cells have".
func TestConflictErrorCounts(t *testing.T) {
	for n, want := range map[int]string{
		1: "merge: 1 cell has different records in different places: a",
		2: "merge: 2 cells have different records in different places: a; b",
	} {
		err := conflictError(&Results{ConflictAt: []string{"a", "b"}[:n]})
		if err == nil || err.Error() != want || !errors.Is(err, ErrConflict) {
			t.Errorf("%d conflicts: %v, want %q", n, err, want)
		}
	}
	if err := conflictError(&Results{}); err != nil {
		t.Errorf("no conflict: %v", err)
	}
}

func TestMergeErrors(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	runDir := t.TempDir()
	sum, err := Run(context.Background(), testConfig(f, runDir, src, allNegMethod))
	if err != nil {
		t.Fatal(err)
	}
	lines, err := os.ReadFile(sum.File)
	if err != nil {
		t.Fatal(err)
	}
	// A copy of the run with one record changed.
	copyRun := func(content []byte) string {
		dir := t.TempDir()
		man, err := os.ReadFile(filepath.Join(runDir, ManifestFile))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, ManifestFile), man, 0o644)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "results.jsonl"), content, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
	changed := copyRun(bytes.Replace(lines, []byte(`"balanced_accuracy":0.5`), []byte(`"balanced_accuracy":0.75`), 1))
	out := filepath.Join(t.TempDir(), "out")
	rep, err := Merge([]string{runDir, changed}, out)
	if !errors.Is(err, ErrInput) || !errors.Is(err, ErrConflict) || rep == nil || len(rep.Conflicts) != 1 || !strings.Contains(err.Error(), "1 cell has different records") {
		t.Errorf("conflict: %v, %+v", err, rep)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a conflicting merge wrote %s", out)
	}
	foreign := copyRun(bytes.Replace(lines, []byte(`"split":1`), []byte(`"split":9`), 1))
	if _, err := Merge([]string{foreign}, ""); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "not in the run's grid") {
		t.Errorf("a cell outside the grid: %v", err)
	}
	otherSeed := t.TempDir()
	cfg := testConfig(f, otherSeed, src, allNegMethod)
	cfg.Seed = 9
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge([]string{runDir, otherSeed}, ""); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "seed") {
		t.Errorf("runs with different seeds: %v", err)
	}
	// A summary only of a merge or of conflicting records: not of a merge
	// refused, nor of inputs that do not merge.
	if rep, err := Merge([]string{runDir}, otherSeed); !errors.Is(err, ErrInput) || errors.Is(err, ErrConflict) || rep != nil || !strings.Contains(err.Error(), "holds another run") {
		t.Errorf("merging over another run: %v, summary %+v", err, rep)
	}
	// A file out in another run's directory: refused, as the directory
	// is (its records would be read as the other run's: not in its grid);
	// in the merged run's own directory, taken.
	into := filepath.Join(otherSeed, "results-x.jsonl")
	if rep, err := Merge([]string{runDir}, into); !errors.Is(err, ErrInput) || rep != nil || !strings.Contains(err.Error(), into+": "+otherSeed+" holds another run (seed") {
		t.Errorf("merging into a file of another run's directory: %v, summary %+v", err, rep)
	}
	if _, err := os.Stat(into); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused merge wrote %s: %v", into, err)
	}
	if _, err := Merge([]string{otherSeed}, ""); err != nil {
		t.Errorf("the other run after a merge was refused in it: %v", err)
	}
	same := copyRun(lines)
	if _, err := Merge([]string{runDir}, filepath.Join(same, "results-x.jsonl")); err != nil {
		t.Errorf("merging into a file of the run's own directory: %v", err)
	}
	if rep, err := Merge([]string{same}, ""); err != nil || len(rep.Files) != 2 || rep.Present != sum.Cells {
		t.Errorf("the run's directory with the merged file: %+v, %v", rep, err)
	}
	if rep, err := Merge([]string{runDir, otherSeed}, ""); errors.Is(err, ErrConflict) || rep != nil {
		t.Errorf("runs that differ: %v, summary %+v", err, rep)
	}
	ro := tmpfstest.Unwritable(t)
	if rep, err := Merge([]string{runDir}, filepath.Join(ro, "merged")); err == nil || errors.Is(err, ErrInput) || rep != nil {
		t.Errorf("a merge that cannot be written: %v, summary %+v", err, rep)
	}
	if _, err := Merge([]string{t.TempDir()}, ""); !errors.Is(err, ErrInput) {
		t.Errorf("a directory without run.json: %v", err)
	}
	partial := copyRun(append(slices.Clone(lines), `{"dataset":"ti`...))
	rep, err = Merge([]string{partial}, "")
	if err != nil || len(rep.Partial) != 1 || !rep.Complete() {
		t.Errorf("a partial last line: %+v, %v", rep, err)
	}
}

// TestNoOrphanResults: a directory without run.json that holds the results
// file a Run or a Merge would write is refused, the message naming the
// command, the file untouched and neither run.json nor a lock file written
// (issue: a Run cut off a foreign file's "partial last
// line" — all of a file without a newline — and appended to it, and a
// Merge replaced it).
func TestNoOrphanResults(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	const content = "precious data, no newline"
	orphan := func(name string) (dir, path string) {
		dir = t.TempDir()
		path = filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir, path
	}
	check := func(what string, err error, dir, path string) {
		t.Helper()
		cmd := "experiment: "
		if what == "merge" {
			cmd = "merge: "
		}
		if !errors.Is(err, ErrInput) || !strings.HasPrefix(err.Error(), cmd) || !strings.Contains(err.Error(), filepath.Base(path)+" but no run.json") {
			t.Errorf("%s: error %v, want an input error naming %s", what, err, filepath.Base(path))
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != content {
			t.Errorf("%s: %s changed: %d bytes, want the %d of %q (%v)", what, path, len(b), len(content), content, err)
		}
		for _, name := range []string{ManifestFile, ".lock"} {
			if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: %s written beside the foreign file (%v)", what, name, err)
			}
		}
	}
	dir, path := orphan("results.jsonl")
	_, err := Run(context.Background(), testConfig(f, dir, src, allNegMethod))
	check("run", err, dir, path)
	dir, path = orphan("results.jsonl")
	if err := os.WriteFile(path, []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), testConfig(f, dir, src, allNegMethod))
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "not a result record") {
		t.Errorf("a first line that is not a record: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a first line that is not a record: run.json written (%v)", err)
	}
	dir, path = orphan("results-shard-1-of-2.jsonl")
	cfg := testConfig(f, dir, src, allNegMethod)
	cfg.Shard = shard.Shard{I: 1, N: 2}
	_, err = Run(context.Background(), cfg)
	check("shard", err, dir, path)

	run := t.TempDir()
	if _, err := Run(context.Background(), testConfig(f, run, src, allNegMethod)); err != nil {
		t.Fatal(err)
	}
	dir, path = orphan("results.jsonl")
	_, err = Merge([]string{run}, dir)
	check("merge", err, dir, path)
	// A run whose run.json was lost is resumed from its records (each
	// checked to be of this run), its partial last line cut off.
	recs, err := os.ReadFile(filepath.Join(run, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(run, ManifestFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "results.jsonl"), append(slices.Clone(recs), `{"run_id":`...), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum, err := Run(context.Background(), testConfig(f, run, src, allNegMethod)); err != nil || sum.Finished != 0 {
		t.Errorf("resuming a run whose run.json was lost: %+v, %v", sum, err)
	}
	if b, err := os.ReadFile(filepath.Join(run, "results.jsonl")); err != nil || !bytes.Equal(b, recs) {
		t.Errorf("resumed a run whose run.json was lost: its records changed (%v)", err)
	}
}

// TestMergeKeepsWhatItDidNotRead: a Merge whose output file holds what the
// merge would lose — cells it lacks, another run's records, lines that are
// not records — is refused with the file untouched, while an earlier merge
// of fewer shards is replaced (issue: merging one shard into a directory
// holding the whole run dropped the other cells, and --out RUN/results.jsonl
// of another run replaced that run's records).
func TestMergeKeepsWhatItDidNotRead(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	var shards []string
	for i := range 2 {
		cfg := testConfig(f, t.TempDir(), src, allNegMethod)
		cfg.Shard = shard.Shard{I: i, N: 2}
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, cfg.Out)
	}
	whole := t.TempDir()
	if _, err := Run(context.Background(), testConfig(f, whole, src, allNegMethod)); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	cfg := testConfig(f, other, src, allNegMethod)
	cfg.Seed = 9
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	otherCopy := filepath.Join(t.TempDir(), "other.jsonl") // its records, outside a run directory
	if b, err := os.ReadFile(filepath.Join(other, "results.jsonl")); err != nil || os.WriteFile(otherCopy, b, 0o644) != nil {
		t.Fatalf("copying %s's results: %v", other, err)
	}
	foreign := filepath.Join(t.TempDir(), "notes.jsonl")
	if err := os.WriteFile(foreign, []byte("{\"a\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, out, file, want string }{
		{"the whole run's directory", whole, filepath.Join(whole, "results.jsonl"), "cells that the merge does not have"},
		{"the whole run's results file", filepath.Join(whole, "results.jsonl"), filepath.Join(whole, "results.jsonl"), "cells that the merge does not have"},
		{"another run's results file", filepath.Join(other, "results.jsonl"), filepath.Join(other, "results.jsonl"), other + " holds another run (seed: 9 vs 1)"},
		{"another run's records elsewhere", otherCopy, otherCopy, "a record of run"},
		{"a file of other lines", foreign, foreign, "not a result record"},
		// Another shard's directory (its shard not running): the merge
		// would rewrite its run.json for the whole run, and its own
		// command would then be refused.
		{"another shard's directory", shards[1], filepath.Join(shards[1], ManifestFile), shards[1] + " is a shard directory"},
		{"a file in another shard's directory", filepath.Join(shards[1], "merged.jsonl"), filepath.Join(shards[1], ManifestFile), shards[1] + " is a shard directory"},
	} {
		before, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Merge(shards[:1], tc.out)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.file) {
			t.Errorf("%s: error %v, want an input error naming %s and %q", tc.name, err, tc.file, tc.want)
		}
		if after, err := os.ReadFile(tc.file); err != nil || !bytes.Equal(after, before) {
			t.Errorf("%s: %s changed (%v)", tc.name, tc.file, err)
		}
	}
	// A results file in a run directory is held as the directory is: a Run
	// appending to it would go on writing to the file replaced.
	held, err := dirlock.Acquire(whole)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(shards, filepath.Join(whole, "results.jsonl")); !errors.Is(err, dirlock.ErrLocked) {
		t.Errorf("merging into the results file of a run in progress: %v, want ErrLocked", err)
	}
	held.Release()
	if _, err := Merge(shards, filepath.Join(whole, "results.jsonl")); err != nil {
		t.Errorf("merging every shard into the whole run's results file: %v", err)
	}
	// A results file outside a run directory is held too (it was not: two
	// merges into it each checked what it held, and the last to write
	// dropped the cells of the other): a second merge is refused while
	// the first writes, naming the file and the holder, and writes
	// nothing.
	file := filepath.Join(t.TempDir(), "merged.jsonl")
	if held, err = dirlock.AcquireFile(file); err != nil {
		t.Fatal(err)
	}
	_, err = Merge(shards, file)
	if msg := fmt.Sprint(err); !errors.Is(err, dirlock.ErrLocked) || !strings.Contains(msg, fmt.Sprintf("%s is in use by pid %d", file, os.Getpid())) {
		t.Errorf("merging into a file another merge writes: %v; want ErrLocked naming %s and pid %d", err, file, os.Getpid())
	}
	if _, err := os.Stat(file); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused merge wrote %s (%v)", file, err)
	}
	held.Release()
	if _, err := Merge(shards, file); err != nil {
		t.Errorf("merging into %s once it is free: %v", file, err)
	}
	sameRecords(t, readRecords(t, file), readRecords(t, filepath.Join(whole, "results.jsonl")))
	// A file whose lock file cannot be opened (its name taken by a
	// directory) is refused, naming the file, and not written: only a file
	// system without flock is merged into unlocked (dirlock.TryAcquireFile,
	// whose tests cover that case), as report writes there.
	unlockable := filepath.Join(t.TempDir(), "merged.jsonl")
	if err := os.Mkdir(filepath.Join(filepath.Dir(unlockable), dirlock.FileLockName(unlockable)), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(shards, unlockable); err == nil || !strings.Contains(err.Error(), "locking "+unlockable+": ") {
		t.Errorf("merging into a file whose lock file cannot be opened: %v; want an error naming %s", err, unlockable)
	}
	if _, err := os.Stat(unlockable); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused merge wrote %s (%v)", unlockable, err)
	}
	// Merged again as more shards finish, a merge's output grows.
	merged := filepath.Join(t.TempDir(), "merged")
	for _, runs := range [][]string{shards[:1], shards, shards} {
		if _, err := Merge(runs, merged); err != nil {
			t.Errorf("merging %d shards into %s: %v", len(runs), merged, err)
		}
	}
	sameRecords(t, readRecords(t, filepath.Join(merged, "results.jsonl")), readRecords(t, filepath.Join(whole, "results.jsonl")))
}

// TestRunLocksTheDirectory: a Run into a directory another Run holds fails
// at once naming the holder and records nothing (issue: two experiments on
// one run recorded every cell twice).
func TestRunLocksTheDirectory(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	out := t.TempDir()
	held, err := dirlock.Acquire(out)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), testConfig(f, out, src, allNegMethod))
	if !errors.Is(err, dirlock.ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("Run into a locked directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, ManifestFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused run wrote %s (%v)", ManifestFile, err)
	}
	held.Release()
	if _, err := Run(context.Background(), testConfig(f, out, src, allNegMethod)); err != nil {
		t.Fatalf("after the holder released it: %v", err)
	}
}

// TestReadRuns: the one reader of run directories counts each method's
// cells of the grid, refuses runs of one dataset that differ (as Merge
// does), and tolerates on request what a report can live with.
// TestReadRunsOfARunTrainingItsSources: a run directory read while its run
// trains its sources (RUN/sources and the run's lock file, no run.json
// yet) is refused saying so, strict (merge) and tolerant (report), where it
// was called not a run directory without a word of why; one without a
// sources folder is not, nor one with a sources folder but no lock file,
// which no run made: the cluster layout's results directory (the sources
// train-sources wrote, shard-i/ and merged/), given in place of
// RESULTS/merged, is refused naming the subdirectories that hold runs,
// merged/ first, where it was told a run was training its sources.
func TestReadRunsOfARunTrainingItsSources(t *testing.T) {
	dir := t.TempDir()
	for _, opt := range []ReadOptions{{}, {Tolerant: true}} {
		_, err := ReadRuns([]string{dir}, opt)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "not a run directory") || strings.Contains(err.Error(), "sources") {
			t.Errorf("%+v, an empty directory: %v, want ErrInput, not a run directory, nothing of sources", opt, err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sources"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []ReadOptions{{}, {Tolerant: true}} {
		_, err := ReadRuns([]string{dir}, opt)
		if !errors.Is(err, ErrInput) || !strings.HasSuffix(err.Error(), "not a run directory") {
			t.Errorf("%+v, a sources folder and no lock file: %v, want ErrInput ending not a run directory", opt, err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, dirlock.LockFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "not a run directory yet (" + filepath.Join(dir, "sources") + " is there: a run writes its run.json once it has trained its sources"
	for _, opt := range []ReadOptions{{}, {Tolerant: true}} {
		if _, err := ReadRuns([]string{dir}, opt); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v, a run training its sources: %v, want ErrInput saying %q", opt, err, want)
		}
	}

	// The cluster layout: RESULTS/sources, shard-i/, merged/.
	f := testFolder(t)
	results := t.TempDir()
	src := filepath.Join(results, "sources")
	if err := os.CopyFS(src, os.DirFS(testSources(t, f))); err != nil {
		t.Fatal(err)
	}
	var shards []string
	for i := range 2 {
		cfg := testConfig(f, filepath.Join(results, fmt.Sprintf("shard-%d", i)), src, "no-transfer")
		cfg.Shard = shard.Shard{I: i, N: 2}
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, cfg.Out)
	}
	merged, away := filepath.Join(results, "merged"), filepath.Join(t.TempDir(), "away")
	for _, tc := range []struct {
		what string
		want string
	}{
		{"one shard", " (its subdirectory " + shards[0] + " holds a run: did you mean it?)"},
		{"two shards", " (its subdirectories hold runs: did you mean " + shards[0] + " or " + shards[1] + "?)"},
		{"two shards and their merge", " (its subdirectories hold runs: did you mean " + merged + ", " + shards[0] + " or " + shards[1] + "?)"},
	} {
		switch tc.what {
		case "one shard":
			if err := os.Rename(shards[1], away); err != nil {
				t.Fatal(err)
			}
		case "two shards":
			if err := os.Rename(away, shards[1]); err != nil {
				t.Fatal(err)
			}
		default:
			if _, err := Merge(shards, merged); err != nil {
				t.Fatal(err)
			}
		}
		for _, opt := range []ReadOptions{{}, {Tolerant: true}} {
			_, err := ReadRuns([]string{results}, opt)
			if !errors.Is(err, ErrInput) || !strings.HasSuffix(err.Error(), "not a run directory"+tc.want) {
				t.Errorf("%+v, %s: %v, want ErrInput ending %q", opt, tc.what, err, tc.want)
			}
		}
	}
	if _, err := ReadRuns([]string{merged}, ReadOptions{}); err != nil {
		t.Errorf("the merge named: %v", err)
	}
}

func TestReadRuns(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	run := t.TempDir()
	methods := []string{allNegMethod, failingMethod}
	sum, err := Run(context.Background(), testConfig(f, run, src, methods...))
	if err != nil {
		t.Fatal(err)
	}
	lines, err := os.ReadFile(sum.File)
	if err != nil {
		t.Fatal(err)
	}
	// Keep the first 3 lines only: a partial run.
	all := strings.SplitAfter(string(lines), "\n")
	if err := os.WriteFile(sum.File, []byte(strings.Join(all[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := ReadRuns([]string{run}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	perMethod := sum.Cells / len(methods)
	cov := res.Coverage()
	if len(cov) != 2 || cov[0].Method != allNegMethod || cov[1].Method != failingMethod {
		t.Fatalf("coverage %+v", cov)
	}
	present := 0
	for _, c := range cov {
		if c.Expected != perMethod || c.Complete() {
			t.Errorf("%+v: want %d expected, incomplete", c, perMethod)
		}
		present += c.Present
		if c.Method == failingMethod && c.Failed != c.Present {
			t.Errorf("%+v: every cell of %s fails", c, failingMethod)
		}
	}
	if present != 3 || len(res.Missing()) != sum.Cells-3 {
		t.Errorf("%d present, %d missing; want 3 and %d", present, len(res.Missing()), sum.Cells-3)
	}

	// Another seed: not the same run, in either mode.
	other := t.TempDir()
	cfg := testConfig(f, other, src, methods...)
	cfg.Seed = 5
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []ReadOptions{{}, {Tolerant: true}} {
		if _, err := ReadRuns([]string{run, other}, opt); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "seed") {
			t.Errorf("%+v: runs with different seeds: %v", opt, err)
		}
	}

	// Without run.json: an error, or a warning and unknown expectations.
	bare := t.TempDir()
	if err := os.WriteFile(filepath.Join(bare, "results.jsonl"), []byte(strings.Join(all[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRuns([]string{bare}, ReadOptions{}); !errors.Is(err, ErrInput) {
		t.Errorf("no run.json, strict: %v", err)
	}
	res, err = ReadRuns([]string{bare}, ReadOptions{Tolerant: true})
	if err != nil || len(res.Warnings) != 1 || len(res.Records) != 3 {
		t.Fatalf("no run.json, tolerant: %v, %+v", err, res)
	}
	for _, c := range res.Coverage() {
		if c.Expected != -1 || c.Complete() {
			t.Errorf("%+v: want an unknown expectation", c)
		}
	}

	// A failed cell retried successfully elsewhere: a conflict; tolerated,
	// the success is kept.
	var rec Record
	if err := json.Unmarshal([]byte(all[0]), &rec); err != nil {
		t.Fatal(err)
	}
	rec.Error, rec.BalancedAccuracy = "it broke", 0
	b, _ := json.Marshal(rec)
	retry := t.TempDir()
	os.WriteFile(filepath.Join(retry, "results.jsonl"), append(b, '\n'), 0o644)
	man, _ := os.ReadFile(filepath.Join(run, ManifestFile))
	os.WriteFile(filepath.Join(retry, ManifestFile), man, 0o644)
	res, err = ReadRuns([]string{retry, run}, ReadOptions{Tolerant: true})
	if err != nil || len(res.Conflicts) != 1 || res.Records[0].Error != "" {
		t.Errorf("a retried cell: %v, conflicts %v, kept %+v", err, res.Conflicts, res.Records[0])
	}
	res, err = ReadRuns([]string{retry, run}, ReadOptions{})
	if err != nil || len(res.Conflicts) != 1 || res.Records[0].Error == "" {
		t.Errorf("a retried cell, strict: %v, conflicts %v, kept %+v", err, res.Conflicts, res.Records[0])
	}
}

// TestOwnCopyBesideItsRunWarnsNot: a copy of a run's own results file,
// without run.json, read beside the run (checkBare lets it through: its
// cells are of the run's grid) is read without the warning that its
// run.json is not found — its grid is the run's, known — whichever is
// read first; it was warned of though the report's expectations were the
// run's. Given twice (by its path, spelt otherwise, or by its directory)
// it is read once and not warned of (the second path, whose file was
// read already, was warned of). Read alone, a dataset's grid unknown, it
// is still warned of, and so is a file of such a copy's and a cell of no
// run read (another dataset's), first — not every record a copy — and only
// that file beside the copy; so is an empty file.
func TestOwnCopyBesideItsRunWarnsNot(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	run := t.TempDir()
	sum, err := Run(context.Background(), testConfig(f, run, src, allNegMethod))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(sum.File)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "results.jsonl") // its directory is a run's without run.json
	if err := os.WriteFile(copied, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// notFound returns the warnings that a run.json is not found.
	notFound := func(res *Results) []string {
		var ws []string
		for _, w := range res.Warnings {
			if strings.Contains(w, ManifestFile+": not found") {
				ws = append(ws, w)
			}
		}
		return ws
	}
	// The copy given twice (once by its directory) is read once, and warned
	// of no more than once.
	copyDir := filepath.Dir(copied)
	for _, paths := range [][]string{{run, copied}, {copied, run}, {sum.File, copied}, {run, copied, copied},
		{run, copied, copyDir + "/./results.jsonl"}, {run, copyDir, copied}, {copied, run, copyDir}} {
		res, err := ReadRuns(paths, ReadOptions{Tolerant: true, CombineRuns: true})
		if err != nil {
			t.Fatalf("%q: %v", paths, err)
		}
		if ws := notFound(res); len(ws) > 0 {
			t.Errorf("%q: the copy of the run's own results is warned of: %q", paths, ws)
		}
		if len(res.Duplicates) != sum.Cells {
			t.Errorf("%q: %d duplicates, want the copy's %d cells", paths, len(res.Duplicates), sum.Cells)
		}
	}
	res, err := ReadRuns([]string{copied}, ReadOptions{Tolerant: true})
	if err != nil || len(notFound(res)) != 1 {
		t.Errorf("the copy alone: %v, warnings %q; want the warning that its run.json is not found", err, res.Warnings)
	}
	// An empty file (a run without run.json that recorded nothing yet) is
	// no copy of anything.
	empty := filepath.Join(t.TempDir(), "results.jsonl")
	writeText(t, empty, "")
	if res, err := ReadRuns([]string{run, empty}, ReadOptions{Tolerant: true}); err != nil || len(notFound(res)) != 1 {
		t.Errorf("an empty file beside the run: %v, warnings %v; want the warning that its run.json is not found", err, res.Warnings)
	}
	// A line of another dataset's run (a run of no run.json read) first in
	// a copy: its grid is unknown, and the file is warned of; a copy beside
	// it, in another directory, is not.
	var rec Record
	if err := json.Unmarshal(data[:bytes.IndexByte(data, '\n')], &rec); err != nil {
		t.Fatal(err)
	}
	rec.Dataset = "other"
	line, _ := json.Marshal(rec)
	mixed := filepath.Join(t.TempDir(), "mixed.jsonl")
	if err := os.WriteFile(mixed, append(append(line, '\n'), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(filepath.Dir(mixed), ManifestFile) + ": not found"
	for _, paths := range [][]string{{run, mixed}, {run, mixed, copied}, {run, copied, mixed}} {
		res, err := ReadRuns(paths, ReadOptions{Tolerant: true})
		if err != nil {
			t.Fatalf("%q: %v", paths, err)
		}
		if ws := notFound(res); len(ws) != 1 || !strings.HasPrefix(ws[0], want) {
			t.Errorf("%q: warnings %q; want one, %q…", paths, res.Warnings, want)
		}
	}
}

// TestRunSaysItReusesItsSources: a Run that trains its own sources says
// so; rerun, it said "training the sources into RUN/sources" though it
// only reused them. It now says that it reuses them, and how many it
// trained and reused.
func TestRunSaysItReusesItsSources(t *testing.T) {
	f := testFolder(t)
	out := t.TempDir()
	src := filepath.Join(out, "sources")
	run := func() string {
		t.Helper()
		var log bytes.Buffer
		cfg := testConfig(f, out, "", "no-transfer")
		cfg.Log = &log
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		return log.String()
	}
	if log := run(); !strings.Contains(log, "training the sources into "+src+"\n") || strings.Contains(log, "reus") {
		t.Errorf("first run's log:\n%s\nwant it training the sources into %s", log, src)
	}
	ix, err := source.ReadIndex(src)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("reusing the sources in %s, training any that are missing\nsources in %s: 0 trained, %d reused\n", src, src, len(ix.Sources))
	if log := run(); !strings.Contains(log, want) || strings.Contains(log, "training the sources into") {
		t.Errorf("rerun's log:\n%s\nwant %q and no \"training the sources into\"", log, want)
	}
}

// TestRunRefusesOtherSources: a Run that trains its own sources into a run
// directory whose sources are another job's (another seed; no run.json to
// refuse first) is refused by source.TrainAll, as an input error, and
// records nothing.
func TestRunRefusesOtherSources(t *testing.T) {
	f := testFolder(t)
	out := t.TempDir()
	neg, err := source.PlanNegatives(f, testNegativeNames, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	tc := source.DefaultTrainConfig()
	tc.Seed = 2
	if _, err := source.TrainAll(context.Background(), f, neg, filepath.Join(out, "sources"), tc, source.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(f, out, "", allNegMethod)
	cfg.Seed = 1
	_, err = Run(context.Background(), cfg)
	if !errors.Is(err, ErrInput) || !errors.Is(err, source.ErrOtherJob) || !strings.Contains(err.Error(), "(seed there: 2; this job: 1)") {
		t.Fatalf("Run over another job's sources: %v, want ErrInput and source.ErrOtherJob naming the seed", err)
	}
	if _, err := os.Stat(filepath.Join(out, resultsName(cfg.Shard))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused run wrote results (%v)", err)
	}
}

// TestRunResumedWithoutItsSources: a run that read its sources from a
// directory (Config.Sources), resumed without it, is refused before it
// trains anything when that directory holds sources trained with other
// settings than Run's own (here one C), naming the directory for --sources
// — it trained every source into RUN/sources and then refused them; when
// the directory's sources are what Run trains (the default settings, as a
// shard's own sources), the resume trains them again and goes on.
func TestRunResumedWithoutItsSources(t *testing.T) {
	f := testFolder(t)
	oneC := source.DefaultTrainConfig()
	oneC.Grid = []float64{1}
	for _, tc := range []struct {
		what    string
		sources string
		refused bool
	}{
		{"other settings", testSources(t, f, oneC), true},
		{"the default settings", testSources(t, f), false},
	} {
		out := t.TempDir()
		cfg := testConfig(f, out, tc.sources, "no-transfer")
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		cfg.Sources = ""
		_, err := Run(context.Background(), cfg)
		_, serr := os.Stat(filepath.Join(out, "sources"))
		if !tc.refused {
			if err != nil || serr != nil {
				t.Errorf("%s: resumed without --sources: %v (its sources: %v), want it resumed", tc.what, err, serr)
			}
			continue
		}
		abs, _ := filepath.Abs(tc.sources)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "read its sources from "+abs) || !strings.Contains(err.Error(), "give --sources "+abs+" to resume it") {
			t.Errorf("%s: resumed without --sources: %v, want ErrInput naming %s", tc.what, err, abs)
		}
		if !errors.Is(serr, fs.ErrNotExist) {
			t.Errorf("%s: the refused resume trained sources into %s (%v)", tc.what, out, serr)
		}
	}
}

// TestRunSaysSourcesWereLeftOut: a run that read its negative pool and
// sources from a directory trained with another seed than its own,
// resumed without --sources, is refused as a run with another negative
// plan (drawn with the run's seed), and the refusal says that the run read
// them from that directory and --sources is not given, where it compared
// two plans alone; a refusal of another setting says nothing of it.
func TestRunSaysSourcesWereLeftOut(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f) // plan and training seed 1
	abs, _ := filepath.Abs(src)
	out := t.TempDir()
	cfg := testConfig(f, out, src, "no-transfer")
	cfg.Seed = 2
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Sources = ""
	_, err := Run(context.Background(), cfg)
	hint := "the run read its negative pool and sources from " + abs + ", and --sources is not given: give --sources " + abs + " to resume it"
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "(negative plan: ") || !strings.Contains(err.Error(), hint) {
		t.Errorf("resumed without --sources: %v, want ErrInput naming the negative plan and saying %q", err, hint)
	}
	cfg.Seed = 1 // the directory's: the same plan
	if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "(seed: 2 vs 1)") || strings.Contains(err.Error(), "--sources is not given") {
		t.Errorf("resumed with another seed: %v, want a refusal naming the seed, without the --sources hint", err)
	}
}

// TestRunHintsSourcesOnlyWhenTheyHelp: the hint to give --sources (see
// TestRunSaysSourcesWereLeftOut) is given only when it would resume the
// run: not to a merged run or a copied run directory, which record a run's
// own RUN/sources (the merge, a shard's; the copy, the old path), though
// never given as --sources — resumed with another seed, or with another
// negative pool at the same seed —, and not when the run did read --sources
// but the refusal is of another setting too (the seed). Before, each was
// told to give --sources RUN/sources.
func TestRunHintsSourcesOnlyWhenTheyHelp(t *testing.T) {
	f := testFolder(t)
	run := filepath.Join(t.TempDir(), "R1")
	cfg := testConfig(f, run, "", "no-transfer")
	cfg.Seed = 1
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	merged, copied := filepath.Join(t.TempDir(), "M1"), filepath.Join(t.TempDir(), "C1")
	if _, err := Merge([]string{run}, merged); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(copied, os.DirFS(run)); err != nil {
		t.Fatal(err)
	}
	src := testSources(t, f) // plan and training seed 1
	given := t.TempDir()
	gcfg := testConfig(f, given, src, "no-transfer")
	gcfg.Seed = 2
	if _, err := Run(context.Background(), gcfg); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what, out string
		seed      uint64
		negatives []string
		refusal   string
	}{
		{"a merged run, another seed", merged, 2, testNegativeNames, "(seed: 1 vs 2)"},
		{"a copied run, another seed", copied, 2, testNegativeNames, "(seed: 1 vs 2)"},
		{"a copied run, another negative pool", copied, 1, testNegativeNames[:2], "(negative plan: "},
		{"a run given --sources, another seed", given, 3, testNegativeNames, "(seed: 2 vs 3)"},
	} {
		c := testConfig(f, tc.out, "", "no-transfer")
		c.Seed, c.NegativeClasses = tc.seed, tc.negatives
		_, err := Run(context.Background(), c)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.refusal) || strings.Contains(err.Error(), "--sources") {
			t.Errorf("%s: %v, want ErrInput naming %q, without the --sources hint", tc.what, err, tc.refusal)
		}
	}
}

// TestRunNamesBothSources: a run resumed with other sources (--sources)
// than it read is refused naming both directories, not only two digests.
func TestRunNamesBothSources(t *testing.T) {
	f := testFolder(t)
	oneC := source.DefaultTrainConfig()
	oneC.Grid = []float64{1}
	first, second := testSources(t, f), testSources(t, f, oneC)
	out := t.TempDir()
	cfg := testConfig(f, out, first, "no-transfer")
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Sources = second
	_, err := Run(context.Background(), cfg)
	a, _ := filepath.Abs(first)
	b, _ := filepath.Abs(second)
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "(sources: 8 sources in "+a+", sha256 ") || !strings.Contains(err.Error(), " vs 8 sources in "+b+", sha256 ") {
		t.Fatalf("resumed with other sources: %v, want ErrInput naming %s and %s", err, a, b)
	}
}

// TestRunRefusesASourcesDirectory: Run and Merge refuse to write a run into
// a sources directory (train-sources' sources.json there) — Run given it as
// --out in place of --sources trained sources of its own into it and wrote
// its run there — and write nothing into it. A run an earlier greedytl
// wrote there, with its run.json or started (stopped while it trained its
// sources), is resumed.
func TestRunRefusesASourcesDirectory(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	cfg := testConfig(f, src, "", "no-transfer")
	_, err := Run(context.Background(), cfg)
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), src+" is a sources directory (it holds sources.json") || !strings.Contains(err.Error(), "give it with --sources") {
		t.Errorf("Run into a sources directory: %v, want ErrInput naming it", err)
	}
	cfg.Sources = src // the same directory as --sources and --out
	_, err = Run(context.Background(), cfg)
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), src+" is a sources directory") || !strings.HasSuffix(err.Error(), ": give another directory as --out") {
		t.Errorf("Run into its sources directory: %v, want ErrInput naming it", err)
	}
	cfg.Sources = ""
	run := t.TempDir()
	cfg.Out = run
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	_, err = Merge([]string{run}, src)
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "merge: "+src+" is a sources directory") {
		t.Errorf("Merge into a sources directory: %v, want ErrInput naming it", err)
	}
	for _, name := range []string{ManifestFile, resultsName(cfg.Shard), "sources"} {
		if _, err := os.Stat(filepath.Join(src, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the sources directory was written %s (%v)", name, err)
		}
	}
	// A run an earlier greedytl wrote into a sources directory is resumed.
	for _, name := range []string{ManifestFile, resultsName(cfg.Shard)} {
		b, err := os.ReadFile(filepath.Join(run, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Out = src
	if sum, err := Run(context.Background(), cfg); err != nil || sum.Present != sum.Cells {
		t.Errorf("resuming a run in a sources directory: %v (%+v), want it resumed, every cell present", err, sum)
	}
	// So is one stopped while it trained its sources, before it wrote its
	// run.json: its lock file and sources/ say it is a run's (startedRun).
	started := t.TempDir()
	writeText(t, filepath.Join(started, source.IndexFile), readText(t, filepath.Join(src, source.IndexFile)))
	writeText(t, filepath.Join(started, dirlock.LockFile), "")
	if err := os.Mkdir(filepath.Join(started, "sources"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg.Out = started
	if sum, err := Run(context.Background(), cfg); err != nil || sum.Finished != sum.Cells {
		t.Errorf("resuming a run started in a sources directory: %v (%+v), want it resumed, every cell run", err, sum)
	}
}

// TestRunWarnsOfUnconvergedSources: Run's log says when the final fits of
// some of its sources stopped at the solver's iteration cap (the converged
// field of sources.json), and says nothing when every source converged;
// and likewise when a source's class has a single example (its positives);
// Config.Warn gets both, with their codes and the single example's class.
func TestRunWarnsOfUnconvergedSources(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	index := filepath.Join(src, source.IndexFile)
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	var ix source.Index
	if err := json.Unmarshal(b, &ix); err != nil {
		t.Fatal(err)
	}
	for i := range ix.Sources {
		ix.Sources[i].Converged = true
	}
	var warned []source.Warning
	run := func(name string, warn bool) string {
		b, err := json.MarshalIndent(&ix, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(index, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		cfg := testConfig(f, filepath.Join(t.TempDir(), name), src, allNegMethod)
		cfg.Positives, cfg.Splits, cfg.Noise = []int{2}, 1, []int{0}
		cfg.Log = &log
		if warn {
			cfg.Warn = func(code, message string, classes []string) {
				warned = append(warned, source.Warning{Code: code, Message: message, Classes: classes})
			}
		}
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		return log.String()
	}
	if log := run("converged", false); strings.Contains(log, "warning") {
		t.Errorf("every source converged, yet the log warns:\n%s", log)
	}
	if log := run("two-examples-each", false); strings.Contains(log, "single example") {
		t.Errorf("every source has %d positives, yet the log warns:\n%s", ix.Sources[0].Positives, log)
	}
	ix.Sources[2].Positives = 1
	if log := run("single", false); !strings.Contains(log, fmt.Sprintf("warning: 1 of %d sources was trained on a class with a single example (%q): cross-validation cannot score it (its one example", len(ix.Sources), ix.Sources[2].Name)) {
		t.Errorf("source %q has 1 positive; the log lacks its warning:\n%s", ix.Sources[2].Name, log)
	}
	ix.Sources[2].Positives = testPerClass
	ix.Sources[1].Converged = false
	want := fmt.Sprintf("warning: 1 of %d sources stopped at the %s solver's iteration cap (see the converged field of %s)\n", len(ix.Sources), ix.Solver, index)
	if log := run("capped", false); !strings.Contains(log, want) {
		t.Errorf("one source stopped at the cap; the log lacks %q:\n%s", want, log)
	}
	ix.Sources[2].Positives = 1
	if log := run("both", true); strings.Contains(log, "warning") || len(warned) != 2 ||
		warned[0].Code != "not-converged" || warned[0].Message+"\n" != strings.TrimPrefix(want, "warning: ") || warned[0].Classes != nil ||
		warned[1].Code != "single-example" || !slices.Equal(warned[1].Classes, []string{ix.Sources[2].Name}) {
		t.Errorf("Config.Warn got %+v (and the log %q), want not-converged then single-example of %q", warned, log, ix.Sources[2].Name)
	}
}

// TestRunNotesSourcesSeed: with a sources directory trained with another
// seed than the run's, Run's log says that the negative pool and the
// sources are the directory's, of that seed, and that the run's seed seeds
// the rest; with the same seed it says nothing of seeds. run.json records
// both seeds.
func TestRunNotesSourcesSeed(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f) // pool and training seed 1
	run := func(seed uint64) (string, *Manifest) {
		var log bytes.Buffer
		cfg := testConfig(f, filepath.Join(t.TempDir(), fmt.Sprint("seed", seed)), src, allNegMethod)
		cfg.Positives, cfg.Splits, cfg.Noise = []int{2}, 1, []int{0}
		cfg.Seed, cfg.Log = seed, &log
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		man, err := ReadManifest(cfg.Out)
		if err != nil {
			t.Fatal(err)
		}
		return log.String(), man
	}
	if log, _ := run(1); strings.Contains(log, "seed") {
		t.Errorf("the run's seed is the sources', yet the log speaks of seeds:\n%s", log)
	}
	log, man := run(7)
	want := fmt.Sprintf("note: the negative pool and the sources are those of %s, drawn and trained with seed 1; seed 7 seeds the rest (the splits, the noise and the methods), and run.json records both\n", src)
	if !strings.Contains(log, want) {
		t.Errorf("seed 7 on sources of seed 1: the log lacks %q:\n%s", want, log)
	}
	if man.Seed != 7 || man.Negatives.Seed != 1 || man.Sources.Seed != 1 {
		t.Errorf("run.json records seed %d, negative pool seed %d, sources seed %d; want 7, 1, 1", man.Seed, man.Negatives.Seed, man.Sources.Seed)
	}
}

// TestRunRecordsCanonicalMethods: the manifest and the records name each
// method by its canonical spec (method.CanonicalSpec: settings sorted,
// numbers in Go's shortest form, defaults dropped), as Spec.String says the
// result records do, and as fit's model files do: so that a run listing
// "greedytl:lambda=1" (greedytl's default λ) holds the cells of greedytl,
// which report, merge and a run of plain greedytl know by that name (its
// figures of GreedyTL against GreedyTL-59 and the timing table were left
// out, and two runs of one method were two methods). They named the methods
// as listed.
func TestRunRecordsCanonicalMethods(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	out := t.TempDir()
	cfg := testConfig(f, out, src, "greedytl:lambda=1", "greedytl-sp:lambda=1e1,gamma=.25")
	cfg.Positives, cfg.Splits, cfg.Noise, cfg.Targets = []int{2}, 1, []int{0}, []string{"c1"}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	want := []string{"greedytl", "greedytl-sp:gamma=0.25,lambda=10"}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Methods, want) {
		t.Errorf("run.json methods %q, want %q", m.Methods, want)
	}
	var got []string
	for _, r := range readRecords(t, filepath.Join(out, "results.jsonl")) {
		got = append(got, r.Method)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("records of methods %q, want %q", got, want)
	}
	// The same run resumes under either spelling.
	cfg.Methods = []string{"greedytl", "greedytl-sp:gamma=0.25,lambda=10"}
	if s, err := Run(context.Background(), cfg); err != nil || s.Finished != 0 {
		t.Errorf("rerun under the canonical names: %v, summary %+v", err, s)
	}
}

// TestRunRefusesHugeNoise checks that a noise level whose draws would not
// fit in memory is an input error, given before run.json is written, that
// names the size, its memory, the machine's and what to do; and that
// checkNoise's bound is the machine's memory (physicalMemory, here given)
// over the workers holding a group's draws at once (--workers, no more
// than the groups with noise, counted here over the grid) and the rows
// drawSplit does take (brute force over the targets and splits): the
// largest level within it passes, one more dimension does not. Where the
// memory cannot be read, the bound is maxNoiseBytes.
func TestRunRefusesHugeNoise(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	out := filepath.Join(t.TempDir(), "run")
	cfg := testConfig(f, out, src, allNegMethod)
	cfg.Noise = []int{0, 100_000_000}
	cfg.Workers = 1
	defer func(m, l func() (float64, bool)) { physicalMemory, memoryLimit = m, l }(physicalMemory, memoryLimit)
	physicalMemory = func() (float64, bool) { return 24 << 30, true }
	memoryLimit = func() (float64, bool) { return 0, false }
	_, err := Run(context.Background(), cfg)
	if want := "100000000 noise dimensions would take 76.8 GB on a group's 48 rows (the N(0,1) draws and their copy in the features), 76.8 GB on the 1 worker that holds a group's at once, more than the machine's 25.8 GB of memory: give a smaller --noise or fewer --workers"; !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want an input error with %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(out, ManifestFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("run.json written for a refused run: %v", err)
	}
	neg, err := source.PlanNegatives(f, testNegativeNames, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	targets := f.Classes[:testClasses]
	const splits = 3
	positives := []int{1, 3}
	noisy := testClasses * len(positives) * 1 * splits
	for _, protocol := range []string{ProtocolStandard, ProtocolSkewed} {
		sz, _ := protocolSizes(protocol)
		rows := 0
		for c := range testClasses {
			for sp := range splits {
				s := drawSplit(1, group{Target: c, Positives: 3, Split: sp}, f.Rows(c), neg.Target, sz)
				rows = max(rows, len(s.trainPos)+len(s.testPos)+len(s.trainNeg)+len(s.testNeg))
			}
		}
		for _, tc := range []struct {
			workers, holding int     // --workers, and the workers holding draws at once
			mem              float64 // the machine's memory; 0: unread
			limit            float64 // the control groups' memory limit; 0: none
		}{
			{1, 1, 4e9, 0}, {3, 3, 4e9, 0}, {0, runtime.GOMAXPROCS(0), 4e9, 0}, {1000, noisy, 4e9, 0},
			{2, 2, 24 << 30, 0}, {1, 1, 0, 0}, {4, 4, 0, 0},
			{2, 2, 24 << 30, 2 << 30}, {1, 1, 0, 3e9}, {3, 3, 2e9, 24 << 30},
		} {
			physicalMemory = func() (float64, bool) { return tc.mem, tc.mem > 0 }
			memoryLimit = func() (float64, bool) { return tc.limit, tc.limit > 0 }
			bound, there := tc.mem, fmt.Sprintf("the machine's %.3g GB of memory", tc.mem/1e9)
			switch {
			case tc.limit > 0 && (tc.mem == 0 || tc.limit < tc.mem):
				bound, there = tc.limit, fmt.Sprintf("the %.3g GB memory limit of this process's control group (cgroup)", tc.limit/1e9)
			case tc.mem == 0:
				bound, there = maxNoiseBytes, "the 4 GB allowed where the machine's memory cannot be read"
			}
			most := int(bound / (16 * float64(rows) * float64(tc.holding)))
			for _, d := range []int{most, most + 1} {
				c := Config{Data: f, Protocol: protocol, Positives: positives, Noise: []int{d, 0}, Splits: splits, Workers: tc.workers}
				g := newGrid(newManifest(&c, nil, neg, targets, "digest"))
				err := checkNoise(&c, g, g.groups(c.Shard), f.ClassCounts(), neg)
				want := fmt.Sprintf("%d noise dimensions would take %.3g GB on a group's %d rows (the N(0,1) draws and their copy in the features), %.3g GB on the %d ",
					d, 16*float64(d*rows)/1e9, rows, 16*float64(d*rows*tc.holding)/1e9, tc.holding)
				if (err == nil) != (d == most) || err != nil && (!strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "more than "+there+": give a smaller --noise or fewer --workers")) {
					t.Errorf("%s, %d rows, --workers %d, memory %.4g: %d noise dimensions: error %v, want one (%q, %s) only above %d", protocol, rows, tc.workers, tc.mem, d, err, want, there, most)
				}
			}
		}
	}
	if mem, ok := memTotal(); ok != (mem > 0) {
		t.Errorf("memTotal() = %v, %v", mem, ok)
	} else if _, err := os.Stat("/proc/meminfo"); err == nil && !(ok && mem >= 1<<20) {
		t.Errorf("memTotal() = %v, %v with /proc/meminfo present", mem, ok)
	}
}

// TestNoRunHintNamesRunsInOrder: the hint for a directory whose
// subdirectories hold runs names merged/ first and shards in their
// numbers' order (shard-2 before shard-10), lists four runs whole rather
// than "or one of 1 more", and is given for a directory whose name reads
// as a glob pattern ("RES[2]"), which it missed (review30).
func TestNoRunHintNamesRunsInOrder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "RES[2]")
	mk := func(names ...string) {
		for _, n := range names {
			if err := os.MkdirAll(filepath.Join(dir, n), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, n, ManifestFile), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	mk("shard-10", "shard-2", "merged", "shard-1")
	want := " (its subdirectories hold runs: did you mean " + p("merged") + ", " + p("shard-1") + ", " + p("shard-2") + " or " + p("shard-10") + "?)"
	if got := noRunHint(dir); got != want {
		t.Errorf("four runs: %q, want %q", got, want)
	}
	mk("shard-0")
	want = " (its subdirectories hold runs: did you mean " + p("merged") + ", " + p("shard-0") + ", " + p("shard-1") + " or one of 2 more?)"
	if got := noRunHint(dir); got != want {
		t.Errorf("five runs: %q, want %q", got, want)
	}
}
