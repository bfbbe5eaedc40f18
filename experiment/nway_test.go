package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// TestDrawEpisode checks an episode's draw: ways distinct classes of the
// pool; shots training and test further examples of each, all rows of
// that class and no row twice; the same episode for the same (seed, ways,
// shots, episode), and different episodes otherwise.
func TestDrawEpisode(t *testing.T) {
	pool := []int{3, 4, 5, 7, 8, 9, 11, 12, 13, 14}
	rowsOf := func(c int) []int { // class c owns rows 100c … 100c+29
		rows := make([]int, 30)
		for k := range rows {
			rows[k] = 100*c + k
		}
		return rows
	}
	for _, ways := range []int{2, 5, 10} {
		for _, shots := range []int{1, 3} {
			seen := map[string]bool{}
			for e := range 6 {
				g := group{Ways: ways, Positives: shots, Split: e}
				ep := drawEpisode(9, g, pool, rowsOf, 7)
				if len(ep.classes) != ways || len(ep.train) != ways || len(ep.test) != ways {
					t.Fatalf("%v: %d classes, %d training and %d test sets", g, len(ep.classes), len(ep.train), len(ep.test))
				}
				used := map[int]bool{}
				for k, c := range ep.classes {
					if !slices.Contains(pool, c) || slices.Contains(ep.classes[:k], c) {
						t.Fatalf("%v: classes %v: not distinct classes of the pool", g, ep.classes)
					}
					if len(ep.train[k]) != shots || len(ep.test[k]) != 7 {
						t.Errorf("%v: class %d has %d training and %d test rows, want %d and 7", g, c, len(ep.train[k]), len(ep.test[k]), shots)
					}
					for _, row := range slices.Concat(ep.train[k], ep.test[k]) {
						if row/100 != c || used[row] {
							t.Errorf("%v: row %d of class %d: another class's, or drawn twice", g, row, c)
						}
						used[row] = true
					}
				}
				again := drawEpisode(9, g, pool, rowsOf, 7)
				if fmt.Sprint(again) != fmt.Sprint(ep) {
					t.Errorf("%v: drawn twice, two episodes", g)
				}
				seen[fmt.Sprint(ep)] = true
			}
			if len(seen) < 5 {
				t.Errorf("%d ways, %d shots: 6 episodes, %d different draws", ways, shots, len(seen))
			}
		}
	}
}

// TestOtherSources checks an episode's source columns: every source but
// those of the episode's classes, in order.
func TestOtherSources(t *testing.T) {
	srcClass := []int{0, 1, 2, 5, 6, 9}
	got := otherSources(srcClass, []int{6, 1, 4})
	if want := []int{0, 2, 3, 5}; !slices.Equal(got, want) {
		t.Errorf("the sources of classes %v without those of 6, 1 and 4: %v, want %v", srcClass, got, want)
	}
}

// nwayConfig returns a small N-way grid on the tiny dataset: 2 and 4 ways,
// 1 and 3 shots, 3 episodes, 5 test examples per class.
func nwayConfig(out, sources string, methods ...string) func(t *testing.T) Config {
	return func(t *testing.T) Config {
		cfg := testConfig(testFolder(t), out, sources, methods...)
		cfg.Protocol, cfg.Ways, cfg.Positives, cfg.Noise = ProtocolNWay, []int{2, 4}, []int{1, 3}, []int{0}
		cfg.Splits, cfg.TestPerClass = 3, 5
		return cfg
	}
}

// TestRunNWay runs the N-way protocol: one record per episode and method
// with the episode's sizes, H without the episode's own sources; the same
// records from shards (merged) and from another list of methods; resumed
// after a cancel, the same records again.
func TestRunNWay(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	methods := []string{"nearest-mean", "simpleshot", "no-transfer"}
	cfg := nwayConfig(t.TempDir(), src, methods...)(t)
	cfg.Data = f
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed: %+v", sum.Failed, sum.Failures)
	}
	recs := readRecords(t, sum.File)
	if len(recs) != 2*2*3*len(methods) || sum.Cells != len(recs) {
		t.Fatalf("%d records, %d cells, want %d", len(recs), sum.Cells, 2*2*3*len(methods))
	}
	man, err := ReadManifest(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(man.Targets) != testClasses || !slices.Equal(man.Ways, []int{2, 4}) || man.TestPerClass != 5 {
		t.Errorf("run.json: pool %v, ways %v, %d test examples per class", man.Targets, man.Ways, man.TestPerClass)
	}
	if n := checkEpisodesBruteForce(t, f, src, man, recs); n != 2*2*3 {
		t.Errorf("%d nearest-mean records recomputed, want 12", n)
	}
	_, d := f.Dims()
	episodes := map[Key][]int{}
	for _, r := range recs {
		if r.Ways == 0 || len(r.ClassIdx) != r.Ways || r.TestPerClass != 5 {
			t.Errorf("%v: ways %d, classes %v, %d test examples per class", r.Key(), r.Ways, r.ClassIdx, r.TestPerClass)
		}
		// Every class of the pool has one source: the episode's are left out.
		if want := d + man.Sources.Count - r.Ways; r.Candidates != want {
			t.Errorf("%v: %d candidate columns, want %d features and %d sources (all but the episode's %d)", r.Key(), r.Candidates, d, man.Sources.Count-r.Ways, r.Ways)
		}
		if r.Accuracy < 0 || r.Accuracy > 1 || r.Accuracy == 0 && r.BalancedAccuracy != 0 {
			t.Errorf("%v: accuracy %v, balanced %v", r.Key(), r.Accuracy, r.BalancedAccuracy)
		}
		k := r.Key()
		k.Method = ""
		if prev, ok := episodes[k]; ok && !slices.Equal(prev, r.ClassIdx) {
			t.Errorf("%v: methods of one episode saw classes %v and %v", k, prev, r.ClassIdx)
		}
		episodes[k] = r.ClassIdx
	}

	// Two shards with the methods in another order, merged: the same records.
	var shards []string
	for i := range 2 {
		c := nwayConfig(t.TempDir(), src, "no-transfer", "simpleshot", "nearest-mean")(t)
		c.Data, c.Shard, c.Workers = f, shard.Shard{I: i, N: 2}, 2
		if _, err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, c.Out)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	rep, err := Merge(shards, merged)
	if err != nil || !rep.Complete() {
		t.Fatalf("merge: %v, %+v", err, rep)
	}
	sameRecords(t, recs, readRecords(t, filepath.Join(merged, resultsName(shard.Shard{}))))

	// One method alone sees the same episodes.
	one := nwayConfig(t.TempDir(), src, "simpleshot")(t)
	one.Data = f
	s1, err := Run(context.Background(), one)
	if err != nil {
		t.Fatal(err)
	}
	var simple []*Record
	for _, r := range recs {
		if r.Method == "simpleshot" {
			c := *r
			c.RunID = "" // another run: another identity
			simple = append(simple, &c)
		}
	}
	oneRecs := readRecords(t, s1.File)
	for _, r := range oneRecs {
		r.RunID = ""
	}
	sameRecords(t, simple, oneRecs)

	// Cancelled and resumed: the same records.
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	c := nwayConfig(out, src, methods...)(t)
	c.Data = f
	c.Progress = func(done, _ int) {
		if done >= 7 {
			cancel()
		}
	}
	if _, err := Run(ctx, c); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	cancel()
	c.Progress = nil
	s2, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if s2.Present < 7 || s2.Present+s2.Finished != s2.Cells {
		t.Errorf("resumed: %+v", s2)
	}
	sameRecords(t, recs, readRecords(t, s2.File))
}

// TestRunNWayErrors checks the N-way settings refused before any cell is
// run, with a message naming the problem.
func TestRunNWayErrors(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"too few examples", func(c *Config) { c.TestPerClass = 22 }, "4 ways, but only 0 classes have a source and the examples an episode needs, 25 of each class (3 shots and 22 test examples): 8 classes left out, the largest with 24 examples; give fewer --test-per-class or shots"},
		// Of a class named by --targets it said "leave it out of the pool
		// with --targets", as if --targets were not given.
		{"too few examples of a target", func(c *Config) { c.TestPerClass, c.Targets = 22, []string{"c1", "c0", "c2", "c3"} }, `class "c1" has 24 examples, but an episode needs 25 of each class (3 shots and 22 test examples): give fewer --test-per-class or shots, or leave it out of --targets`},
		{"too many ways", func(c *Config) { c.Ways = []int{9} }, "9 ways, but only 8 classes have a source"},
		// It said "only 2 classes have a source" of a pool named by
		// --targets, where all 8 have one.
		{"too many ways for the targets", func(c *Config) { c.Targets = []string{"c0", "c1"}; c.Ways = []int{2, 3} }, "3 ways, but --targets names only 2 classes"},
		// shots + test examples overflowed an int: the pool let every
		// class through and drawEpisode panicked (makeslice).
		// The examples an episode needs were named as the int limit
		// beside shots and test examples that add up to more.
		{"shots beyond an int", func(c *Config) { c.Positives = []int{math.MaxInt} }, "only 0 classes have a source and the examples an episode needs, 9223372036854775812 of each class (9223372036854775807 shots and 5 test examples): 8 classes left out, the largest with 24 examples"},
		// The grid's size named the pool's 8 classes as "targets or ways"
		// beside the factors it multiplied.
		{"too many episodes", func(c *Config) { c.Splits = maxGridCells }, "a grid of 4e+08 cells (2 numbers of ways × 2 of shots × 100000000 episodes × 1 method)"},
		{"test examples beyond an int", func(c *Config) { c.TestPerClass = math.MaxInt }, "only 0 classes have a source and the examples an episode needs, 9223372036854775810 of each class (3 shots and 9223372036854775807 test examples)"},
		{"a named class, shots beyond an int", func(c *Config) { c.Positives, c.Targets = []int{math.MaxInt}, []string{"c1", "c0", "c2", "c3"} }, `class "c1" has 24 examples, but an episode needs 9223372036854775812 of each class (9223372036854775807 shots and 5 test examples)`},
		{"one way", func(c *Config) { c.Ways = []int{1, 2} }, "1 way, want at least 2"},
		{"ways repeated", func(c *Config) { c.Ways = []int{2, 2} }, "--ways lists 2 twice"},
		{"shots repeated", func(c *Config) { c.Positives = []int{1, 3, 1} }, "--shots lists 1 twice"},
		{"noise", func(c *Config) { c.Noise = []int{0, 5} }, "appends no noise"},
		{"a negative class in the pool", func(c *Config) { c.Targets = []string{"c0", "n1"} }, `"n1" is a negative class`},
		{"ways without nway", func(c *Config) { c.Protocol = ProtocolStandard }, "settings of --protocol nway"},
		{"a multi-class method in the binary protocol", func(c *Config) {
			c.Protocol, c.Ways, c.TestPerClass, c.Noise = ProtocolStandard, nil, 0, []int{0}
		}, "is a multi-class method: it fits class labels, two classes or more, through NewMulti"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := nwayConfig(t.TempDir(), src, "simpleshot")(t)
			cfg.Data = f
			tc.edit(&cfg)
			_, err := Run(context.Background(), cfg)
			if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want an input error with %q", err, tc.want)
			}
		})
	}
}

// TestDiffersNamesTheProtocol: runs of two protocols differ first in their
// protocol, which sets what the grid's lists mean, and two N-way runs with
// other shots differ in their shots (issue: both were said to differ in
// "positives", a setting an N-way run is not given); differs compares
// every setting of the table that Manifest.ID digests, each once.
func TestDiffersNamesTheProtocol(t *testing.T) {
	nway := &Manifest{Protocol: ProtocolNWay, Positives: []int{1, 2}, Ways: []int{3}, TestPerClass: 15}
	std := &Manifest{Positives: []int{2}}
	if d := nway.differs(std, true); !strings.HasPrefix(d, "protocol: ") {
		t.Errorf("N-way against standard: %q, want the protocol named", d)
	}
	fewer := *nway
	fewer.Positives = []int{1}
	if d := nway.differs(&fewer, true); d != "shots: [1,2] vs [1]" {
		t.Errorf("N-way runs of other shots: %q", d)
	}
	if d := std.differs(&Manifest{Positives: []int{5}}, true); d != "positives: [2] vs [5]" {
		t.Errorf("standard runs of other positives: %q", d)
	}
	var a, b []string
	for _, s := range settings {
		a = append(a, s.name)
	}
	for _, s := range reportOrder {
		b = append(b, s.name)
	}
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Errorf("reportOrder's settings %q, want settings' %q", b, a)
	}
}

// TestCombineRunsNamesWhatForbidsIt: runs of one dataset read together
// (CombineRuns, as report reads them) may differ in their methods, but
// not in their test examples per class; the error names that setting, not
// the methods that a combined read allows (it named the methods).
func TestCombineRunsNamesWhatForbidsIt(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	var runs []string
	for k, m := range []string{"simpleshot", "nearest-mean"} {
		cfg := nwayConfig(t.TempDir(), src, m)(t)
		cfg.Data, cfg.Ways, cfg.Positives, cfg.Splits = f, []int{2}, []int{1}, 1
		cfg.TestPerClass = 4 + k
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, cfg.Out)
	}
	_, err := ReadRuns(runs, ReadOptions{CombineRuns: true})
	if want := "(test per class: 4 vs 5)"; err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), want) {
		t.Errorf("runs of other methods and test sizes read together: %v, want an input error with %q", err, want)
	}
}

// TestCheckNamesTheFirstRepeatedList: settings with repeats in several
// lists are refused naming the first of them in the flags' order, the same
// one every time (the lists were visited in a map's random order).
func TestCheckNamesTheFirstRepeatedList(t *testing.T) {
	cfg := Config{Data: testFolder(t), Out: filepath.Join(t.TempDir(), "run"), Splits: 1, Noise: []int{0, 0}, Positives: []int{2, 2},
		Methods: []string{"greedytl", "greedytl"}, Targets: []string{"c0", "c0"}, NegativeClasses: []string{"n1", "n1"}}
	check := func() error { // Run checks the settings first
		_, err := Run(context.Background(), cfg)
		return err
	}
	for range 20 {
		err := check()
		if want := `method "greedytl" listed twice`; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%v, want %q", err, want)
		}
	}
	cfg.Methods = []string{"greedytl"}
	for range 20 {
		err := check()
		if want := `target "c0" listed twice`; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%v, want %q", err, want)
		}
	}
	cfg.Targets, cfg.NegativeClasses = []string{"c0"}, nil
	for range 20 {
		err := check()
		if want := "--positives lists 2 twice"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%v, want %q", err, want)
		}
	}
}

// checkEpisodesBruteForce recomputes the nearest-mean episodes of recs,
// the records of an N-way run (run.json man, dataset f, sources in src),
// from the definitions alone: the episode's rows of each class (as the
// draw makes them), X beside the scores of every source but the episode
// classes' own (found by name), the columns standardised by the training
// rows' mean and population standard deviation (a constant column to 0),
// then the nearest class mean by Euclidean distance and the fraction of
// test rows whose class is right. The records' accuracies must be these;
// it returns how many it checked.
func checkEpisodesBruteForce(t *testing.T, f *dataset.Folder, src string, man *Manifest, recs []*Record) int {
	t.Helper()
	set, err := source.LoadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	pool, rowsOf := episodePool(f, man)
	checked := 0
	for _, r := range recs {
		if r.Method != "nearest-mean" {
			continue
		}
		checked++
		ep := drawEpisode(man.Seed, group{Ways: r.Ways, Positives: r.Positives, Split: r.Split}, pool, rowsOf, man.TestPerClass)
		if !slices.Equal(ep.classes, r.ClassIdx) {
			t.Fatalf("%v: classes %v, want %v", r.Key(), r.ClassIdx, ep.classes)
		}
		var others []int // the sources of the classes not in the episode
		for j := range set.Len() {
			if !slices.Contains(ep.classes, slices.Index(f.Classes, set.Name(j))) {
				others = append(others, j)
			}
		}
		rowsAndY := func(sets [][]int) (*mat.Dense, []int) {
			d, y := episodeSample(t, f, set.Subset(others), sets)
			_, p := d.X.Dims()
			Z := mat.NewDense(len(y), p+len(others), nil)
			Z.Augment(d.X, d.H)
			return Z, y
		}
		train, ytr := rowsAndY(ep.train)
		test, yte := rowsAndY(ep.test)
		m, p := train.Dims()
		for j := range p { // standardise both by the training column
			mean, ss := 0.0, 0.0
			for i := range m {
				mean += train.At(i, j) / float64(m)
			}
			for i := range m {
				ss += (train.At(i, j) - mean) * (train.At(i, j) - mean)
			}
			sd := math.Sqrt(ss / float64(m))
			for _, z := range []*mat.Dense{train, test} {
				for i := range z.RawMatrix().Rows {
					v := 0.0
					if sd > 0 {
						v = (z.At(i, j) - mean) / sd
					}
					z.Set(i, j, v)
				}
			}
		}
		dist := func(a, b []float64) float64 {
			s := 0.0
			for j := range a {
				s += (a[j] - b[j]) * (a[j] - b[j])
			}
			return s
		}
		var means [][]float64
		for k := range r.Ways {
			mu := make([]float64, p)
			n := 0
			for i, y := range ytr {
				if y == k {
					floats.Add(mu, train.RawRowView(i))
					n++
				}
			}
			floats.Scale(1/float64(n), mu)
			means = append(means, mu)
		}
		right := 0
		for i, y := range yte {
			best := 0
			for k := range means {
				if dist(test.RawRowView(i), means[k]) < dist(test.RawRowView(i), means[best]) {
					best = k
				}
			}
			if best == y {
				right++
			}
		}
		if want := float64(right) / float64(len(yte)); math.Abs(r.Accuracy-want) > 1e-12 {
			t.Errorf("%v: accuracy %v, brute force %v", r.Key(), r.Accuracy, want)
		}
	}
	return checked
}

// TestNWayWarnsOfEpisodesWithoutSources: an N-way run whose number of ways
// takes every class with a source into an episode (8 of the test folder's
// 8) warns with code WarnNoSources, naming those ways — its H holds no
// source score and the methods transfer nothing, which ran silently —;
// ways that leave sources, or a --targets pool smaller than the classes
// with a source, do not warn.
func TestNWayWarnsOfEpisodesWithoutSources(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	for _, tc := range []struct {
		name    string
		ways    []int
		targets []string
		want    string // the warning's start, "" for none
	}{
		{"every class", []int{2, testClasses}, nil, fmt.Sprintf("--ways %d: an episode of %d classes can hold every class with a source", testClasses, testClasses)},
		{"sources left", []int{2, testClasses - 1}, nil, ""},
		{"a smaller pool", []int{3}, []string{"c0", "c1", "c2"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := nwayConfig(t.TempDir(), src, "nearest-mean")(t)
			cfg.Data, cfg.Ways, cfg.Targets, cfg.Positives, cfg.Splits = f, tc.ways, tc.targets, []int{1}, 1
			var got []string
			cfg.Warn = func(code, message string, _ []string) {
				if code == WarnNoSources {
					got = append(got, message)
				}
			}
			sum, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Failed != 0 {
				t.Fatalf("%d cells failed: %+v", sum.Failed, sum.Failures)
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("warned %q", got)
			case tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want)):
				t.Errorf("warnings %q, want one starting %q", got, tc.want)
			}
			if tc.want == "" {
				return
			}
			_, d := f.Dims()
			for _, r := range readRecords(t, sum.File) {
				if r.Ways == testClasses && r.Candidates != d {
					t.Errorf("%v: %d candidates, want the %d features alone", r.Key(), r.Candidates, d)
				}
			}
		})
	}
}

// TestNWayDefaultPoolLeavesOutSmallClasses: one class with fewer examples
// than an episode needs refused a whole N-way run whose pool was the
// default (the way out was to name every other class in --targets). The
// default pool leaves it out with a warning (WarnSmallClasses) naming it
// and its examples; a pool left smaller than the largest number of ways,
// and a class named in Targets, are still refused.
func TestNWayDefaultPoolLeavesOutSmallClasses(t *testing.T) {
	counts, centre := []int{}, []float64{}
	for c := range testClasses + testNegatives {
		switch {
		case c == 3:
			counts, centre = append(counts, 7), append(centre, 8) // an episode needs 3 + 5
		case c < testClasses:
			counts, centre = append(counts, testPerClass), append(centre, 8)
		default:
			counts, centre = append(counts, testPerNeg), append(centre, 0)
		}
	}
	g := datasettest.Shuffled(3, counts, centre)
	copy(g.Classes[testClasses:], testNegativeNames)
	f := datasettest.WriteFolder(t, g)
	src := t.TempDir()
	config := func(out string) Config {
		cfg := nwayConfig(out, "", "nearest-mean")(t)
		cfg.Data, cfg.Splits = f, 2
		return cfg
	}
	// The sources, trained once: the runs below share them.
	trained := config(src)
	trained.Ways = []int{2}
	if _, err := Run(context.Background(), trained); err != nil {
		t.Fatal(err)
	}
	src = filepath.Join(src, "sources")

	cfg := config(t.TempDir())
	cfg.Sources = src
	type warning struct {
		code, message string
		classes       []string
	}
	var got []warning
	cfg.Warn = func(code, message string, classes []string) { got = append(got, warning{code, message, classes}) }
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	const want = `the pool leaves out 1 class with fewer examples than an episode needs, 8 of each class (3 shots and 5 test examples): "c3" (7 examples)`
	if len(got) != 1 || got[0].code != WarnSmallClasses || got[0].message != want || !slices.Equal(got[0].classes, []string{"c3"}) {
		t.Errorf("warnings %+v, want one %s warning %q naming c3", got, WarnSmallClasses, want)
	}
	man, err := ReadManifest(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(man.Targets, "c3") || len(man.Targets) != testClasses-1 {
		t.Errorf("pool %v, want the %d classes but c3", man.Targets, testClasses-1)
	}
	for _, r := range readRecords(t, sum.File) {
		if slices.Contains(r.Classes, "c3") {
			t.Errorf("%v: an episode with c3", r.Key())
		}
	}

	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"a pool smaller than the ways", func(c *Config) { c.Ways = []int{2, testClasses} },
			fmt.Sprintf("experiment: %d ways, but only %d classes have a source and the examples an episode needs, 8 of each class (3 shots and 5 test examples): 1 class left out, the largest with 7 examples; give fewer --test-per-class or shots", testClasses, testClasses-1)},
		{"a small class named", func(c *Config) { c.Targets = []string{"c0", "c3", "c5", "c6"} },
			`experiment: class "c3" has 7 examples, but an episode needs 8 of each class (3 shots and 5 test examples): give fewer --test-per-class or shots, or leave it out of --targets`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config(t.TempDir())
			cfg.Sources = src
			tc.edit(&cfg)
			if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrInput) || err.Error() != tc.want {
				t.Errorf("%v, want an input error %q", err, tc.want)
			}
		})
	}
}

// episodeSample returns, by brute force, the sample of an episode's rows
// sets (one list of f's rows a class, in the episode's class order): their
// features, the scores of srcs on them, and each row's class.
func episodeSample(t *testing.T, f *dataset.Folder, srcs *source.Set, sets [][]int) (method.Data, []int) {
	t.Helper()
	var rows, y []int
	for k, s := range sets {
		rows = append(rows, s...)
		for range s {
			y = append(y, k)
		}
	}
	_, d := f.X.Dims()
	X := mat.NewDense(len(rows), d, nil)
	for i, row := range rows {
		for j := range d {
			X.Set(i, j, f.X.At(row, j))
		}
	}
	H, err := srcs.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	return method.Data{X: X, H: H}, y
}

// episodePool returns, by brute force, what drawEpisode draws an episode of
// man's run on f from: the target classes' indices in f, and a class's rows.
func episodePool(f *dataset.Folder, man *Manifest) (pool []int, rowsOf func(int) []int) {
	for _, name := range man.Targets {
		pool = append(pool, slices.Index(f.Classes, name))
	}
	return pool, func(c int) []int {
		var rows []int
		for i, l := range f.Labels {
			if l == c {
				rows = append(rows, i)
			}
		}
		return rows
	}
}
