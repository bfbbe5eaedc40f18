package report

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
)

// dropLines rewrites the results file at path without the lines that
// drop reports.
func dropLines(t *testing.T, path string, drop func(line string) bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if !drop(line) {
			kept = append(kept, line)
		}
	}
	writeFile(t, path, strings.Join(kept, ""))
}

// writeSVGs loads paths, writes their report (Markdown) and returns the
// report and a reader of its figures' SVG by name.
func writeSVGs(t *testing.T, paths ...string) (string, func(name string) []byte) {
	t.Helper()
	res, err := Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := Write(out, res, Options{Markdown: true}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(md), func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}

// hasTick reports whether svg has a text of exactly label (an axis tick).
func hasTick(svg []byte, label string) bool {
	return strings.Contains(string(svg), ">"+label+"</text>")
}

// TestAxesHoldTheGridsSizes: a size (Figs. 1 and 3) or a noise level
// (Fig. 2) of the run's grid at which no method has a record (a partial
// run) keeps its place on the axes, and every line is cut there; the axes
// were built from the rows alone, so it was left off and every line
// joined across it. The accuracy table has its column too (as the axis,
// b98ebc2), of blanks, and its note says that the run has not written it.
func TestAxesHoldTheGridsSizes(t *testing.T) {
	run := synth{dataset: "one", classes: 5, positives: []int{2, 5, 10}, splits: 2, noise: []int{0, 10, 100},
		methods: []string{"greedytl", "greedytl-59", "no-transfer"}, seed: 1}
	dir := run.write(t, 1)
	dropLines(t, filepath.Join(dir, "results.jsonl"), func(line string) bool {
		return strings.Contains(line, `"positives":5,`) || strings.Contains(line, `"noise":10,`)
	})
	md, svg := writeSVGs(t, dir)
	for _, fig := range []string{"fig1-accuracy-one", "fig3-greedytl59-one"} {
		if !hasTick(svg(fig), "5") {
			t.Errorf("%s has no tick at 5 positives, which the grid holds", fig)
		}
		for _, m := range []string{"greedytl", "greedytl-59", "no-transfer"} {
			if joins(svg(fig), m) {
				t.Errorf("%s: %s's line crosses 5 positives, where no cell has a record", fig, m)
			}
		}
	}
	fig2 := svg("fig2-noise-one")
	if !hasTick(fig2, "10") {
		t.Errorf("Fig. 2 has no tick at 10 noise dimensions, which the grid holds")
	}
	for _, m := range []string{"greedytl", "greedytl-59"} { // the methods run with noise
		if joins(fig2, m) {
			t.Errorf("Fig. 2: %s's line crosses 10 noise dimensions, where no cell has a record", m)
		}
	}
	if !regexp.MustCompile(`\| method \| 2\+10 \| 5\+10 \| 10\+10 \|`).MatchString(md) {
		t.Errorf("the accuracy table has no column of 5 positives:\n%s", md)
	}
	if !strings.Contains(md, "No cell of 5+10 has a record: the run's grid holds it, but the run has not written it") {
		t.Errorf("the accuracy table's note does not say that 5 positives has no record:\n%s", md)
	}
	if strings.Contains(md, "### Balanced accuracy (%), 10 noise dimensions") {
		t.Errorf("a table of 10 noise dimensions, where no method has a record")
	}
}

// TestGridlessMethodCutAtAnyGap: a method whose records come from a
// results file without run.json, read beside a run of the same dataset
// that has one, has an unknown grid (experiment.Results.GridKnown), so
// its line is cut at any gap, as where no run.json was read at all: the
// dataset's run.json made it read as a method that was not run there,
// and its line joined across the gap.
func TestGridlessMethodCutAtAnyGap(t *testing.T) {
	a := synth{dataset: "one", classes: 5, positives: []int{2, 5, 10}, splits: 2, noise: []int{0},
		methods: []string{"greedytl"}, seed: 1}
	b := a
	b.methods = []string{"no-transfer"}
	bdir := b.write(t, 1)
	bare := filepath.Join(t.TempDir(), "results.jsonl")
	data, err := os.ReadFile(filepath.Join(bdir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, bare, string(data))
	dropLines(t, bare, func(line string) bool { return strings.Contains(line, `"positives":5,`) })
	_, svg := writeSVGs(t, a.write(t, 1), bare)
	fig := svg("fig1-accuracy-one")
	if joins(fig, "no-transfer") {
		t.Errorf("No transfer, read from a file without run.json, has its line across 5 positives, where it has no record")
	}
	if !joins(fig, "greedytl") {
		t.Errorf("GreedyTL has no line")
	}
}

// TestNWayFigureAsksTheGrid: the N-way figure, through Load and Write
// with a run.json (as TestFiguresCutAtMissingCells for the binary
// figures), cuts a method's line at a number of shots its grid holds but
// where its episodes have no record, and keeps on its axis, with every
// line cut, a number of shots at which no method has an episode; Write's
// call of ExpectedEpisodes with the ways and the shots swapped, or axes of
// the rows alone, made a line join.
func TestNWayFigureAsksTheGrid(t *testing.T) {
	for _, tc := range []struct {
		name    string
		drop    func(r experiment.Record) bool
		missing []string // methods without episodes at 2 shots
	}{
		{"GreedyTL N-way's 2 shots missing", func(r experiment.Record) bool { return r.Method == "greedytl-nway" && r.Positives == 2 }, []string{"greedytl-nway"}},
		{"every 2-shot episode missing", func(r experiment.Record) bool { return r.Positives == 2 }, []string{"greedytl-nway", "simpleshot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var recs []experiment.Record
			for _, r := range nwayRecords() {
				if r.Ways != 5 {
					continue
				}
				recs = append(recs, r)
				if r.Positives != 5 {
					continue
				}
				r2 := r                                            // a 2-shot episode, between its 1 and 5
				r2.Accuracy = (math.Round(15*r.Accuracy) - 1) / 15 // one test example fewer of 15
				r2.Positives = 2
				recs = append(recs, r2)
			}
			var classes []string
			for k := range 30 {
				classes = append(classes, "c"+string(rune('A'+k)))
			}
			m := experiment.Manifest{
				Dataset: experiment.DatasetInfo{Name: "toy", Features: 100}, Classes: classes, Targets: classes,
				Protocol: experiment.ProtocolNWay, Ways: []int{5}, Positives: []int{1, 2, 5}, TestPerClass: 3,
				Splits: 4, Noise: []int{0}, Methods: []string{"simpleshot", "greedytl-nway"}, Seed: 1,
			}
			b := runJSON(t, m, true)
			id := runID(t, b)
			var kept []experiment.Record
			for _, r := range recs {
				if !tc.drop(r) {
					r.RunID = id
					kept = append(kept, r)
				}
			}
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "run.json"), string(b))
			writeFile(t, filepath.Join(dir, "results.jsonl"), jsonl(t, kept))
			_, svg := writeSVGs(t, dir)
			fig := svg("nway-accuracy-toy")
			if !hasTick(fig, "2") {
				t.Errorf("no tick at 2 shots, which the grid holds")
			}
			for _, meth := range []string{"simpleshot", "greedytl-nway"} {
				if want := !slices.Contains(tc.missing, meth); joins(fig, meth) != want {
					t.Errorf("%s has a line from 1 to 5 shots across 2 or a line at all: %v, want %v", meth, !want, want)
				}
			}
		})
	}
}
