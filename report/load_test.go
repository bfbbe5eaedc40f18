package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
)

func TestLoad(t *testing.T) {
	a := cell("greedytl", 0, 2, 0, 0, 0.7, 1)
	b := cell("greedytl", 1, 2, 0, 0, 0.8, 1)
	c := cell("dam", 0, 2, 0, 0, 0.6, 1)
	fa := failed("greedytl", 0, 2, 0, 0)
	a2 := a
	a2.BalancedAccuracy = 0.9 // the same cell with another result
	aSlow := a
	aSlow.FitSeconds = 7 // the same result, timed differently
	withSources := a
	withSources.Sources, withSources.SourceNames, withSources.Weights = []int{1}, []string{"t"}, []float64{0.5}
	c0src, c1 := withSources, b
	c0src.Target, c0src.SourceNames, c1.Target = "c0", []string{"c1"}, "c1"
	// grid returns the manifest of a run of dataset d on classes whose
	// grid is the targets × 2 positives × noise 0 × 1 split × greedytl.
	grid := func(classes, groups []string, targets ...string) experiment.Manifest {
		return experiment.Manifest{Dataset: experiment.DatasetInfo{Name: "d"}, Classes: classes, Groups: groups,
			Targets: targets, Positives: []int{2}, Splits: 1, Noise: []int{0}, Methods: []string{"greedytl"}}
	}

	// The run.json files below are of runs made before records carried
	// their run (no run_id), as the records are.
	tests := []struct {
		name     string
		files    map[string]string // file name → content, in a run directory
		arg      string            // path to Load, relative to the run directory ("" = the directory)
		wantErr  string            // substring of the error
		wantRecs int
		wantDup  int
		wantWarn []string // substrings of warnings
		check    func(t *testing.T, res *Results)
	}{
		{
			name:     "one results file",
			files:    map[string]string{"results.jsonl": jsonl(t, []experiment.Record{a, b, c})},
			wantRecs: 3,
			wantWarn: []string{"run.json: not found"},
		},
		{
			name: "shards and a merged file count each cell once",
			files: map[string]string{
				"results-shard-0-of-2.jsonl": jsonl(t, []experiment.Record{a, c}),
				"results-shard-1-of-2.jsonl": jsonl(t, []experiment.Record{b}),
				"results-merged.jsonl":       jsonl(t, []experiment.Record{a, b, c}),
			},
			wantRecs: 3, wantDup: 3,
		},
		{
			name:     "a .jsonl path",
			files:    map[string]string{"results.jsonl": jsonl(t, []experiment.Record{a}), "other.jsonl": jsonl(t, []experiment.Record{b, c})},
			arg:      "other.jsonl",
			wantRecs: 2,
		},
		{
			name:     "a success replaces a failure of the same cell",
			files:    map[string]string{"results.jsonl": jsonl(t, []experiment.Record{fa, a})},
			wantRecs: 1, wantDup: 1,
			check: func(t *testing.T, res *Results) {
				if res.Records[0].Error != "" || res.Records[0].BalancedAccuracy != 0.7 {
					t.Errorf("kept %+v, want the successful record", res.Records[0])
				}
			},
		},
		{
			// Merge refuses two different results for one cell; so does
			// report (issue: a report mixed what merge refuses).
			name:    "a conflicting duplicate is refused, naming both places",
			files:   map[string]string{"results.jsonl": jsonl(t, []experiment.Record{a, a2, aSlow})},
			wantErr: "results.jsonl:2: cell d target=0 positives=2 noise=0 split=0 method=greedytl has another record at ",
		},
		{
			name:     "a duplicate differing only in time is kept once",
			files:    map[string]string{"results.jsonl": jsonl(t, []experiment.Record{a, aSlow})},
			wantRecs: 1, wantDup: 1,
		},
		{
			name:     "a failure after a success keeps the success and warns",
			files:    map[string]string{"results.jsonl": jsonl(t, []experiment.Record{a, fa})},
			wantRecs: 1, wantDup: 1,
			wantWarn: []string{"results.jsonl:2: cell d target=0 positives=2 noise=0 split=0 method=greedytl failed where it succeeded before"},
			check: func(t *testing.T, res *Results) {
				if res.Records[0].Error != "" {
					t.Errorf("kept %+v, want the successful record", res.Records[0])
				}
			},
		},
		{
			name:     "a truncated last line is skipped",
			files:    map[string]string{"results.jsonl": jsonl(t, []experiment.Record{a, b}) + `{"dataset":"d","target":"t","targ`},
			wantRecs: 2,
			wantWarn: []string{"results.jsonl: ignored a partial last line"},
		},
		{
			name:    "a malformed line inside the file",
			files:   map[string]string{"results.jsonl": jsonl(t, []experiment.Record{a}) + "{oops\n" + jsonl(t, []experiment.Record{b})},
			wantErr: "results.jsonl:2:",
		},
		{
			name:    "an accuracy out of range",
			files:   map[string]string{"results.jsonl": strings.Replace(jsonl(t, []experiment.Record{a}), `"balanced_accuracy":0.7`, `"balanced_accuracy":1.5`, 1)},
			wantErr: "results.jsonl:1: balanced_accuracy is 1.5",
		},
		{
			name:    "a negative fit time",
			files:   map[string]string{"results.jsonl": strings.Replace(jsonl(t, []experiment.Record{a}), `"fit_seconds":1`, `"fit_seconds":-1`, 1)},
			wantErr: "fit_seconds is -1",
		},
		{
			name:    "sources without weights",
			files:   map[string]string{"results.jsonl": strings.Replace(jsonl(t, []experiment.Record{withSources}), `"weights":[0.5]`, `"weights":[]`, 1)},
			wantErr: "1 source but 0 weights",
		},
		{
			name:    "no method",
			files:   map[string]string{"results.jsonl": strings.Replace(jsonl(t, []experiment.Record{a}), `"method":"greedytl"`, `"method":""`, 1)},
			wantErr: "without a dataset or method",
		},
		{
			name:     "a failed record's numbers are not checked",
			files:    map[string]string{"results.jsonl": strings.Replace(jsonl(t, []experiment.Record{fa}), `"balanced_accuracy":0.123`, `"balanced_accuracy":-3`, 1)},
			wantRecs: 1,
		},
		{
			name:    "no results files",
			files:   map[string]string{"notes.txt": "hello"},
			wantErr: "no results*.jsonl files",
		},
		{
			name:    "no records",
			files:   map[string]string{"results.jsonl": "\n\n"},
			wantErr: "no records",
		},
		{
			name: "run.json names the classes",
			files: map[string]string{
				"results.jsonl": jsonl(t, []experiment.Record{c0src, c1}),
				"run.json":      string(runJSON(t, grid([]string{"c0", "c1", "other"}, []string{"g1", "g1", "g2"}, "c0", "c1"), false)),
			},
			wantRecs: 2,
			check: func(t *testing.T, res *Results) {
				ci := res.Classes["d"]
				if !slices.Equal(ci.Names, []string{"c0", "c1", "other"}) || !slices.Equal(ci.Groups, []string{"g1", "g1", "g2"}) {
					t.Errorf("classes %+v", ci)
				}
				cov := res.Coverage
				if len(cov) != 1 || cov[0].Present != 2 || cov[0].Expected != 2 || len(res.Partial()) != 0 {
					t.Errorf("coverage %+v, partial %+v", cov, res.Partial())
				}
			},
		},
		{
			name: "run.json without groups",
			files: map[string]string{
				"results.jsonl": jsonl(t, []experiment.Record{c1}),
				"run.json":      string(runJSON(t, grid([]string{"c0", "c1"}, nil, "c0", "c1"), false)),
			},
			wantRecs: 1,
			check: func(t *testing.T, res *Results) {
				if ci := res.Classes["d"]; ci.Groups != nil || len(ci.Names) != 2 {
					t.Errorf("classes %+v", ci)
				}
				if p := res.Partial(); len(p) != 1 || p[0].Present != 1 || p[0].Expected != 2 {
					t.Errorf("partial %+v: want 1 of 2 cells", p)
				}
			},
		},
		{
			name: "run.json disagrees with the records",
			files: map[string]string{
				"results.jsonl": jsonl(t, []experiment.Record{a}),
				"run.json":      string(runJSON(t, grid([]string{"cat", "dog"}, nil, "cat"), false)),
			},
			wantErr: `class 0 is "t" in the records but "cat" in run.json`,
		},
		{
			name: "a record outside the run's grid",
			files: map[string]string{
				"results.jsonl": jsonl(t, []experiment.Record{b}),
				"run.json":      string(runJSON(t, grid([]string{"t"}, nil, "t"), false)),
			},
			wantErr: "not in the run's grid",
		},
		{
			name: "run.json groups of the wrong length",
			files: map[string]string{
				"results.jsonl": jsonl(t, []experiment.Record{a}),
				"run.json":      string(runJSON(t, grid([]string{"t", "u"}, []string{"g"}, "t"), false)),
			},
			wantErr: "1 group for 2 classes",
		},
		{
			name:     "class names from the records",
			files:    map[string]string{"results.jsonl": jsonl(t, []experiment.Record{withSources})},
			wantRecs: 1,
			check: func(t *testing.T, res *Results) {
				if got := res.Classes["d"].Names; !slices.Equal(got, []string{"t", "t"}) {
					t.Errorf("names %q", got)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				writeFile(t, filepath.Join(dir, name), text)
			}
			res, err := Load(filepath.Join(dir, tc.arg))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Records) != tc.wantRecs || res.Duplicates != tc.wantDup {
				t.Errorf("%d records, %d duplicates; want %d, %d", len(res.Records), res.Duplicates, tc.wantRecs, tc.wantDup)
			}
			for _, w := range tc.wantWarn {
				if !slices.ContainsFunc(res.Warnings, func(s string) bool { return strings.Contains(s, w) }) {
					t.Errorf("no warning containing %q in %q", w, res.Warnings)
				}
			}
			if tc.check != nil {
				tc.check(t, res)
			}
		})
	}
}

func TestLoadSeveralRuns(t *testing.T) {
	s1 := synth{dataset: "one", classes: 5, positives: []int{2}, splits: 2, noise: []int{0}, methods: []string{"greedytl"}, seed: 1}
	s2 := synth{dataset: "two", classes: 4, groupSize: 2, positives: []int{2}, splits: 2, noise: []int{0}, methods: []string{"dam"}, seed: 2}
	res, err := Load(s1.write(t, 1), s2.write(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	if want := len(s1.records()) + len(s2.records()); len(res.Records) != want {
		t.Errorf("%d records, want %d", len(res.Records), want)
	}
	if len(res.Files) != 4 {
		t.Errorf("read %d files, want 4: %q", len(res.Files), res.Files)
	}
	if len(res.Classes["one"].Names) != 5 || res.Classes["one"].Groups != nil || len(res.Classes["two"].Groups) != 4 {
		t.Errorf("classes %+v", res.Classes)
	}
}

func TestLoadMissing(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "nope")); err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("error %v, want a not-exist error", err)
	}
	if _, err := Load(); err == nil {
		t.Error("Load() succeeded without a path")
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok || u.Unwrap() == nil {
			return err
		}
		err = u.Unwrap()
	}
}

// Runs of one dataset that are not the same run (another seed here) are
// refused, as experiment.Merge refuses them (issue: report RUN1 RUN2 with
// different seeds averaged them together).
func TestLoadRefusesMixedRuns(t *testing.T) {
	s1 := synth{dataset: "one", classes: 5, positives: []int{2}, splits: 2, noise: []int{0}, methods: []string{"greedytl"}, seed: 1}
	refusesOtherSeed(t, "two seeds", s1.write(t, 1), s1)
}

// refusesOtherSeed checks that Load refuses the run dir beside the run s
// written with another seed, naming the seed.
func refusesOtherSeed(t *testing.T, what, dir string, s synth) {
	t.Helper()
	s.seed++
	if _, err := Load(dir, s.write(t, 1)); err == nil || !strings.Contains(err.Error(), "not the same run (seed") {
		t.Errorf("%s: error %v, want one naming the seed", what, err)
	}
}

// Runs that differ only in their methods (a method run on its own beside a
// finished run) are reported together, each method complete, with a
// warning when greedytl versions differ; any other difference is still
// refused.
func TestLoadCombinesMethodRuns(t *testing.T) {
	s1 := synth{dataset: "one", classes: 5, positives: []int{2, 5}, splits: 2, noise: []int{0}, methods: []string{"greedytl"}, seed: 1}
	s2 := s1
	s2.methods = []string{"no-transfer", "greedytl-59"}
	res, err := Load(s1.write(t, 1), s2.write(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	cov := res.Coverage
	if len(cov) != 3 {
		t.Fatalf("coverage of %d methods, want 3: %+v", len(cov), cov)
	}
	for _, c := range cov {
		if !c.Complete() || c.Expected != 5*2*2 { // 5 targets × 2 sizes × 2 splits
			t.Errorf("%s: %d of %d cells, want all of 20", c.Method, c.Present, c.Expected)
		}
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "versions") {
			t.Errorf("a warning about versions for runs of one version: %q", w)
		}
	}
	s3 := s2
	s3.seed = 2
	if _, err := Load(s1.write(t, 1), s3.write(t, 1)); err == nil || !strings.Contains(err.Error(), "not the same run (seed") {
		t.Errorf("other methods and another seed: %v, want an error naming the seed", err)
	}
}

// The noise study is a run of its own beside the main grid (docs/results/
// run.sh): other noise levels, other methods, possibly fewer splits. Load
// reports the two together, each method's cells expected from the grids
// that hold it; a run that differs otherwise is still refused.
func TestLoadCombinesNoiseStudy(t *testing.T) {
	main := synth{dataset: "one", classes: 5, positives: []int{2, 5}, splits: 2, noise: []int{0}, methods: []string{"greedytl", "no-transfer"}, seed: 1}
	noise := main
	noise.noise, noise.splits, noise.methods = []int{10, 100}, 1, []string{"greedytl"}
	res, err := Load(main.write(t, 1), noise.write(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"greedytl":    5*2*2 + 5*2*2*1, // main: 5 targets × 2 sizes × 2 splits; noise: × 2 levels × 1 split
		"no-transfer": 5 * 2 * 2,
	}
	if len(res.Coverage) != len(want) {
		t.Fatalf("coverage of %d methods, want %d: %+v", len(res.Coverage), len(want), res.Coverage)
	}
	for _, c := range res.Coverage {
		if !c.Complete() || c.Expected != want[c.Method] {
			t.Errorf("%s: %d of %d cells, want all of %d", c.Method, c.Present, c.Expected, want[c.Method])
		}
	}
	for _, r := range res.Rows() {
		e := 5 * 2 // targets × splits of the main grid
		if r.Noise > 0 {
			e = 5 * 1
		}
		if r.Expected != e || r.N != e {
			t.Errorf("%s, %d positives, noise %d: %d cells of %d expected, want %d", r.Method, r.Positives, r.Noise, r.N, r.Expected, e)
		}
	}
	refusesOtherSeed(t, "a noise run of another seed", main.write(t, 1), noise)
}

// Grids that overlap — a run of 3 splits and one of its first 2 splits,
// the same cells — count their common cells once: in the coverage, in the
// rows' expected cells and in the missing cells.
func TestLoadCountsOverlappingGridsOnce(t *testing.T) {
	three := synth{dataset: "one", classes: 5, positives: []int{2, 5}, splits: 3, noise: []int{0}, methods: []string{"greedytl"}, seed: 1}
	dir3 := three.write(t, 1)
	two := three
	two.splits = 2
	dir2 := two.write(t, 1)
	man, err := experiment.ReadManifest(dir2)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string // the 3-split run's records of splits 0 and 1, as the 2-split run's
	for _, r := range three.records() {
		if r.Split < 2 {
			r.RunID = man.RunID
			lines = append(lines, strings.TrimSpace(jsonl(t, []experiment.Record{r})))
		}
	}
	writeFile(t, filepath.Join(dir2, "results.jsonl"), strings.Join(lines, "\n")+"\n")
	res, err := Load(dir2, dir3)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Coverage) != 1 || !res.Coverage[0].Complete() || res.Coverage[0].Expected != 5*2*3 {
		t.Errorf("coverage %+v, want all of 30 cells (5 targets × 2 sizes × 3 splits)", res.Coverage)
	}
	for _, r := range res.Rows() {
		if r.Expected != 5*3 || r.N != 5*3 {
			t.Errorf("%d positives: %d cells of %d expected, want 15", r.Positives, r.N, r.Expected)
		}
	}
}

// TestPartialNote: a report says "Partial results" first when a method
// lacks cells of its known grid (run.json), naming only such methods, and
// not when the grid is unknown (records without run.json: a complete grid
// merged into FILE.jsonl), where Load's warning that run.json is not
// found says so. It said "Partial results — … d greedytl: 3 cells of an
// unknown number (no run.json)" at the top of a complete merged grid's
// report.
func TestPartialNote(t *testing.T) {
	recs := []experiment.Record{cell("greedytl", 0, 2, 0, 0, 0.7, 1), cell("greedytl", 1, 2, 0, 0, 0.8, 1), cell("dam", 0, 2, 0, 0, 0.6, 1)}
	dir := t.TempDir()
	merged := filepath.Join(dir, "merged.jsonl")
	writeFile(t, merged, jsonl(t, recs))
	res, err := Load(merged)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "run.json: not found") }) {
		t.Errorf("warnings %q: want the one that run.json is not found", res.Warnings)
	}
	if note := res.PartialNote(); note != "" || len(res.Partial()) != 0 {
		t.Errorf("no run.json: partial note %q, partial %+v; want none", note, res.Partial())
	}
	out := filepath.Join(dir, "rep")
	if _, err := Write(out, res, Options{Markdown: true, HTML: true}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"report.md", "report.html"} {
		if b, err := os.ReadFile(filepath.Join(out, f)); err != nil || strings.Contains(string(b), "Partial results") {
			t.Errorf("no run.json: %s says Partial results (%v)", f, err)
		}
	}

	// A run of a known grid (targets c0, c1) lacking c0's cell, beside a
	// dataset of records without run.json: only the first is partial.
	run := t.TempDir()
	c1 := cell("greedytl", 1, 2, 0, 0, 0.8, 1)
	c1.Target = "c1"
	writeFile(t, filepath.Join(run, "results.jsonl"), jsonl(t, []experiment.Record{c1}))
	writeFile(t, filepath.Join(run, "run.json"), string(runJSON(t, experiment.Manifest{Dataset: experiment.DatasetInfo{Name: "d"},
		Classes: []string{"c0", "c1"}, Targets: []string{"c0", "c1"}, Positives: []int{2}, Splits: 1, Noise: []int{0},
		Methods: []string{"greedytl"}}, false)))
	other := make([]experiment.Record, len(recs))
	for i, r := range recs {
		r.Dataset = "e"
		other[i] = r
	}
	bare := filepath.Join(dir, "e.jsonl")
	writeFile(t, bare, jsonl(t, other))
	if res, err = Load(run, bare); err != nil {
		t.Fatal(err)
	}
	want := "Partial results — averages are over the cells present, which may differ between methods: d greedytl: 1 of 2 cells."
	if note := res.PartialNote(); note != want {
		t.Errorf("partial note %q, want %q", note, want)
	}
	out = filepath.Join(dir, "rep2")
	if _, err := Write(out, res, Options{Markdown: true}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "report.md")); err != nil || !strings.Contains(string(b), want) {
		t.Errorf("report.md does not say %q (%v)", want, err)
	}
}
