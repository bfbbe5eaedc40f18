package experiment

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// fuzzManifest returns the manifest of a small run written by hand: 2
// targets × 2 sizes × 2 splits × noise 0 × 2 methods.
func fuzzManifest() *Manifest {
	m := &Manifest{
		Format: ManifestFormat, Version: ManifestVersion, GreedytlVersion: "test",
		Dataset:   DatasetInfo{Name: "d", SHA256: "00", Examples: 100, Features: 4},
		Classes:   []string{"c0", "c1", "n0"},
		Negatives: &source.Negatives{Classes: []int{2}, Named: true, Source: []int{1, 2}, Target: []int{3}},
		Sources:   source.ID{SHA256: "11", Count: 2},
		Targets:   []string{"c0", "c1"}, Positives: []int{2, 5}, Splits: 2, Noise: []int{0}, Methods: []string{"m", "k"},
		Seed: 1, Protocol: ProtocolStandard, TrainNegatives: TrainNegatives, MaxTestPositives: 50, MaxTestNegatives: 50,
	}
	m.RunID = m.ID()
	return m
}

// fuzzRecord returns a line of a record of fuzzManifest's run.
func fuzzRecord(t testing.TB, change func(*Record)) string {
	r := Record{RunID: fuzzManifest().RunID, Dataset: "d", Target: "c1", TargetIdx: 1, Positives: 2, Negatives: 10, Split: 1,
		Method: "m", BalancedAccuracy: 0.75, TestPositives: 3, TestNegatives: 50, FitSeconds: 0.5, Features: 2, Candidates: 5,
		Hyperparameters: map[string]float64{"lambda": 1}, Sources: []int{0}, SourceNames: []string{"c0"}, Weights: []float64{0.5}}
	if change != nil {
		change(&r)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// FuzzResults reads fuzzed results files of fuzzManifest's run with
// ReadRuns, strictly: it must never panic, and a file it accepts must hold
// well-formed records of the run's grid, each carrying the run's identity,
// that read back the same once written again — as Merge writes them.
func FuzzResults(f *testing.F) {
	good := fuzzRecord(f, nil)
	other := fuzzRecord(f, func(r *Record) { r.Method, r.Split = "k", 0 })
	seeds := []string{
		good, good + other, good + good, // a duplicate
		good + strings.Replace(good, `"balanced_accuracy":0.75`, `"balanced_accuracy":0.5`, 1), // a conflict
		good + other[:40], // a partial last line
		fuzzRecord(f, func(r *Record) {
			r.Error, r.BalancedAccuracy, r.Sources, r.SourceNames, r.Weights = "fit: no", 0, nil, nil, nil
		}),
		// Issue 18's cases: a member missing, null, a record of another
		// run, values out of range, unknown members.
		strings.Replace(good, `"balanced_accuracy":0.75,`, "", 1),
		strings.Replace(good, `"balanced_accuracy":0.75`, `"balanced_accuracy":null`, 1),
		strings.Replace(good, `"weights":[0.5]`, `"weights":[null]`, 1),
		fuzzRecord(f, func(r *Record) { r.RunID = "0123456789abcdef" }),
		fuzzRecord(f, func(r *Record) { r.RunID = "" }),
		strings.Replace(good, `"balanced_accuracy":0.75`, `"balanced_accuracy":1.7`, 1),
		strings.Replace(good, `"balanced_accuracy":0.75`, `"balanced_accuracy":-0.5`, 1),
		strings.Replace(good, `"balanced_accuracy":0.75`, `"balanced_accuracy":NaN`, 1),
		strings.Replace(good, `"noise":0`, `"noize":0`, 1),
		strings.Replace(good, `"split":1`, `"split":9`, 1), // outside the grid
		strings.Replace(good, `"weights":[0.5]`, `"weights":[0.5,1]`, 1),
		good[:len(good)-1] + " 1\n", "\n\n", "{}\n", "[]\n", "null\n",
		// A fit whose solver stopped short, and reports no fit makes.
		fuzzRecord(f, func(r *Record) {
			r.NotConverged = []method.NotConverged{{Solver: "s", Stopped: 1, Runs: 3, Final: true}, {Solver: "u", Stopped: 2, Runs: 2}}
		}),
		fuzzRecord(f, func(r *Record) { r.NotConverged = []method.NotConverged{{Solver: "s", Stopped: 4, Runs: 3}} }),
		fuzzRecord(f, func(r *Record) {
			r.NotConverged = []method.NotConverged{{Solver: "s", Stopped: 1, Runs: 3, Classes: []string{"c0"}}}
		}),
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	man := fuzzManifest()
	g := newGrid(man)
	// The run.json, written once; each input is written beside it, without
	// the syncs of an atomic write (a fuzzer runs thousands of inputs).
	dir := f.TempDir()
	if err := man.write(dir); err != nil {
		f.Fatal(err)
	}
	results := filepath.Join(dir, "results.jsonl")
	read := func(content []byte) (*Results, error) {
		if err := os.WriteFile(results, content, 0o644); err != nil {
			return nil, err
		}
		return ReadRuns([]string{results}, ReadOptions{keepLines: true})
	}
	// The seeds reach both outcomes.
	for content, ok := range map[string]bool{good + other: true, seeds[6]: false} {
		if _, err := read([]byte(content)); (err == nil) != ok {
			f.Fatalf("seed %q: %v", content, err)
		}
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		res, err := read(content)
		if err != nil {
			if !errors.Is(err, ErrInput) {
				t.Fatalf("not an input error: %v", err)
			}
			return
		}
		if len(res.Records)+len(res.Missing()) != g.cells(shard.Shard{}) {
			t.Fatalf("%d records and %d missing cells of %d", len(res.Records), len(res.Missing()), g.cells(shard.Shard{}))
		}
		for i := range res.Records {
			r := &res.Records[i]
			if _, ok := g.order(r.Key()); !ok || r.RunID != man.RunID {
				t.Fatalf("accepted %s: not a record of the run", res.lines[i])
			}
			if err := checkRecord(r); err != nil {
				t.Fatalf("accepted %s: %v", res.lines[i], err)
			}
			// What Merge writes (the line as read) reads back the same.
			again, err := decodeRecord(res.lines[i])
			if err != nil || !sameResult(again, r) || again.FitSeconds != r.FitSeconds {
				t.Fatalf("accepted %s, but not once written again: %+v, %v", res.lines[i], again, err)
			}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatalf("accepted %s: %v", res.lines[i], err)
			}
			if again, err = decodeRecord(b); err != nil {
				t.Fatalf("accepted %s, but not as encoded again (%s): %v", res.lines[i], b, err)
			}
			if b2, _ := json.Marshal(again); string(b2) != string(b) {
				t.Fatalf("%s reads back as %s", b, b2)
			}
		}
	})
}

// FuzzManifest reads fuzzed run.json files: ReadManifest must never panic,
// and a manifest it accepts must be valid again once written, with the
// same identity, a grid of at most maxGridCells cells that ReadRuns can
// enumerate, and be the same run as itself.
func FuzzManifest(f *testing.F) {
	good, err := json.Marshal(fuzzManifest())
	if err != nil {
		f.Fatal(err)
	}
	g := string(good)
	for _, s := range []string{
		g,
		strings.Replace(g, `"run_id":"`+fuzzManifest().RunID+`"`, `"run_id":"0123456789abcdef"`, 1), // edited
		strings.Replace(g, `,"run_id":"`+fuzzManifest().RunID+`"`, ``, 1),                           // a run of before
		strings.Replace(g, `"seed":1`, `"seed":2`, 1),
		strings.Replace(g, `"splits":2`, `"splits":1000000000000`, 1),
		strings.Replace(g, `"positives":[2,5]`, `"positives":[2,2]`, 1),
		strings.Replace(g, `"positives":[2,5]`, `"positives":[0]`, 1),
		strings.Replace(g, `"noise":[0]`, `"noise":[-1]`, 1),
		strings.Replace(g, `"targets":["c0","c1"]`, `"targets":["c0","c0"]`, 1),
		strings.Replace(g, `"targets":["c0","c1"]`, `"targets":["zz"]`, 1),
		strings.Replace(g, `"negatives":{`, `"negatives":null,"x":{`, 1),
		strings.Replace(g, `"protocol":"standard"`, `"protocol":"other"`, 1),
		strings.Replace(g, `"shard":null`, `"shard":{"i":3,"n":2}`, 1),
		strings.Replace(g, `"seed":1`, `"seed":null`, 1),
		strings.Replace(g, `"version":1`, `"version":2`, 1),
		strings.Replace(g, `"format":"greedytl-experiment"`, `"format":"x"`, 1),
		"{}", "null", "[]", "",
	} {
		f.Add([]byte(s))
	}
	// Each input is written into one directory, without the syncs of an
	// atomic write (a fuzzer runs thousands of inputs).
	dir, again := f.TempDir(), f.TempDir()
	read := func(dir string, content []byte) (*Manifest, error) {
		if err := os.WriteFile(filepath.Join(dir, ManifestFile), content, 0o644); err != nil {
			return nil, err
		}
		return ReadManifest(dir)
	}
	// The seeds reach both outcomes.
	for content, ok := range map[string]bool{g: true, strings.Replace(g, `"seed":1`, `"seed":2`, 1): false} {
		if _, err := read(dir, []byte(content)); (err == nil) != ok {
			f.Fatalf("seed %q: %v", content, err)
		}
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		m, err := read(dir, content)
		if err != nil {
			return
		}
		if m.RunID != "" && m.RunID != m.ID() {
			t.Fatalf("accepted run_id %s for a run whose identity is %s", m.RunID, m.ID())
		}
		if d := m.differs(m, true); d != "" {
			t.Fatalf("not the same run as itself: %s", d)
		}
		cells := len(m.Targets) * len(m.Positives) * len(m.Noise) * m.Splits * len(m.Methods) // ≤ maxGridCells: no overflow
		if cells > maxGridCells {
			t.Fatalf("accepted a grid of %d cells", cells)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := read(again, b)
		if err != nil {
			t.Fatalf("accepted, but not once written again: %v", err)
		}
		if m2.ID() != m.ID() || m.differs(m2, true) != "" {
			t.Fatalf("written again, another run: %s", m.differs(m2, true))
		}
		if cells > 10000 {
			return // listing them takes long
		}
		if n := newGrid(m).cells(shard.Shard{}); n != cells {
			t.Fatalf("a grid of %d cells, want %d", n, cells)
		}
		res, err := ReadRuns([]string{again}, ReadOptions{})
		if err != nil {
			t.Fatalf("a run of no records: %v", err)
		}
		if n := len(res.Missing()); n != cells {
			t.Fatalf("%d cells missing of %d", n, cells)
		}
	})
}

// TestManifestGridChecked: a run.json whose grid lists a value twice, an
// impossible size or noise level, or more cells than a run could finish,
// is refused (a merge of one enumerated 10¹² splits).
func TestManifestGridChecked(t *testing.T) {
	good, err := json.Marshal(fuzzManifest())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ from, to, want string }{
		{`"splits":2`, `"splits":1000000000000`, "a grid of 8e+12 cells"},
		{`"positives":[2,5]`, `"positives":[2,2]`, "number of positives 2 listed twice"},
		{`"positives":[2,5]`, `"positives":[0]`, "number of positives 0 is out of range"},
		{`"noise":[0]`, `"noise":[-1]`, "noise level -1 is out of range"},
		{`"targets":["c0","c1"]`, `"targets":["c0","c0"]`, `target "c0" listed twice`},
		{`"methods":["m","k"]`, `"methods":["m","m"]`, `method "m" listed twice`},
	} {
		text := strings.Replace(string(good), tc.from, tc.to, 1)
		writeText(t, filepath.Join(dir, ManifestFile), text)
		if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.to, err, tc.want)
		}
	}
}

// TestManifestGridNamesTheFirstRepeatedList: a run.json with repeats in
// several of its grid's lists is refused naming the first of them, the
// same one every time (the lists were visited in a map's random order).
func TestManifestGridNamesTheFirstRepeatedList(t *testing.T) {
	m := fuzzManifest()
	m.Methods, m.Targets, m.Positives, m.Noise = []string{"m", "m"}, []string{"c0", "c0"}, []int{2, 2}, []int{0, 0}
	for _, step := range []struct {
		want string
		fix  func() // removes that repeat
	}{
		{`method "m" listed twice`, func() { m.Methods = []string{"m"} }},
		{`target "c0" listed twice`, func() { m.Targets = []string{"c0", "c1"} }},
		{"number of positives 2 listed twice", func() { m.Positives = []int{2} }},
		{"noise level 0 listed twice", func() {}},
	} {
		for range 20 {
			if err := m.checkGrid(); err == nil || err.Error() != step.want {
				t.Fatalf("%v, want %q", err, step.want)
			}
		}
		step.fix()
	}
}
