package report

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/method"
)

// nwayRecords returns N-way episode records of two methods at 5 and 20
// ways, 1 and 5 shots, 4 episodes, with accuracies that differ from their
// balanced accuracies (so that a row averaging the wrong one is caught).
func nwayRecords() []experiment.Record {
	var recs []experiment.Record
	for _, m := range []string{"simpleshot", "greedytl-nway"} {
		for _, w := range []int{5, 20} {
			for _, s := range []int{1, 5} {
				for e := range 4 {
					r := experiment.Record{Dataset: "toy", Method: m, Ways: w, Positives: s, Split: e, TestPerClass: 3, FitSeconds: 0.01}
					for k := range w {
						r.ClassIdx = append(r.ClassIdx, (k+e)%30)
						r.Classes = append(r.Classes, "c"+string(rune('A'+(k+e)%30)))
					}
					// Counts of correct predictions among w × 3 test
					// examples, as the readers require.
					n := float64(3 * w)
					correct := math.Round(n * (0.3 + 0.01*float64(w%7+s) + 0.02*float64(e)))
					r.Accuracy, r.BalancedAccuracy = correct/n, math.Round(correct/2)/n
					if m == "simpleshot" {
						r.Accuracy = (correct + math.Round(0.05*n)) / n
					}
					recs = append(recs, r)
				}
			}
		}
	}
	return recs
}

// TestSummarizeNWay checks the rows of N-way records against their
// definition: one per (method, ways, shots), Mean the mean accuracy over
// episodes, StdErr the standard deviation of the episodes' accuracies over
// √episodes; and the JSON form carries method, ways, shots and mean.
func TestSummarizeNWay(t *testing.T) {
	recs := nwayRecords()
	rows := Summarize(recs)
	if len(rows) != 2*2*2 {
		t.Fatalf("%d rows, want 8", len(rows))
	}
	for _, row := range rows {
		var accs []float64
		for _, r := range recs {
			if r.Method == row.Method && r.Ways == row.Ways && r.Positives == row.Shots {
				accs = append(accs, r.Accuracy)
			}
		}
		m := 0.0
		for _, a := range accs {
			m += a
		}
		m /= float64(len(accs))
		v := 0.0
		for _, a := range accs {
			v += (a - m) * (a - m)
		}
		se := math.Sqrt(v/float64(len(accs)-1)) / math.Sqrt(float64(len(accs)))
		if len(accs) != 4 || row.N != 4 || math.Abs(row.Mean-m) > 1e-12 || math.Abs(row.StdErr-se) > 1e-12 || row.Positives != row.Shots {
			t.Errorf("%s %d-way %d-shot: mean %v ± %v over %d, want %v ± %v over %d episodes", row.Method, row.Ways, row.Shots, row.Mean, row.StdErr, row.N, m, se, len(accs))
		}
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if got["method"] != row.Method || got["ways"] != float64(row.Ways) || got["shots"] != float64(row.Shots) || got["mean"] != row.Mean {
			t.Errorf("JSON row %s lacks method, ways, shots or mean", b)
		}
	}
}

// TestWriteNWay writes the report of N-way records: a table per number of
// ways and the accuracy figure.
func TestWriteNWay(t *testing.T) {
	md, out := writeReport(t, nwayRecords())
	for _, want := range []string{"## Dataset toy (N-way)", "### 5-way accuracy (%)", "### 20-way accuracy (%)", "| method | 1-shot | 5-shot |", "nway-accuracy-toy.png"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md has no %q", want)
		}
	}
	for _, ext := range []string{".png", ".svg"} {
		if _, err := os.Stat(filepath.Join(out, "nway-accuracy-toy"+ext)); err != nil {
			t.Error(err)
		}
	}
}

// stoppedRecords returns binary records of two methods (4 targets, 2 and 5
// positives, 3 splits), some of l1-logistic's with not_converged — final,
// only in hyperparameter selection, and on a failed cell — and N-way
// records (nwayRecords) some of greedytl-nway's with not_converged.
func stoppedRecords() []experiment.Record {
	var recs []experiment.Record
	for _, m := range []string{"greedytl", "l1-logistic"} {
		for _, p := range []int{2, 5} {
			for s := range 3 {
				for tg := range 4 {
					r := experiment.Record{Dataset: "toy", Target: "c" + string(rune('0'+tg)), TargetIdx: tg, Positives: p, Negatives: 10,
						Split: s, Method: m, BalancedAccuracy: 0.6 + 0.01*float64(tg+s+p), TestPositives: 5, TestNegatives: 5, FitSeconds: 0.01, Features: -1}
					if m == "l1-logistic" && p == 2 {
						switch {
						case s == 0 && tg < 2:
							r.NotConverged = []method.NotConverged{{Solver: "L1R_LR", Stopped: 2, Runs: 9, Final: true}}
						case s == 1 && tg == 2:
							r.NotConverged = []method.NotConverged{{Solver: "L1R_LR", Stopped: 1, Runs: 9}}
						case s == 2 && tg == 3: // failed: not averaged, not counted
							r.NotConverged = []method.NotConverged{{Solver: "L1R_LR", Stopped: 9, Runs: 9, Final: true}}
							r.Error, r.BalancedAccuracy = "predict: score 0 is NaN", 0
						}
					}
					recs = append(recs, r)
				}
			}
		}
	}
	for _, r := range nwayRecords() {
		if r.Method == "greedytl-nway" && r.Ways == 5 && r.Positives == 1 && r.Split < 3 {
			r.NotConverged = []method.NotConverged{{Solver: "L-BFGS", Stopped: 1, Runs: 46, Final: r.Split == 0, Classes: r.Classes[:2]}}
		}
		r.Dataset = "toy-nway"
		recs = append(recs, r)
	}
	return recs
}

// TestReportNotConverged: a summary row counts its successful cells whose
// final fit's solver stopped short, and those whose only stopped runs chose
// a hyperparameter (by their definition over the records); --json carries
// the counts only when not 0, and report.md marks those rows' accuracy,
// lists them under the tables and counts them in All summary rows. A
// report of the same records without not_converged shows none of it.
func TestReportNotConverged(t *testing.T) {
	recs := stoppedRecords()
	type counts struct{ final, selection int }
	want := map[rowKey]counts{}
	for _, r := range recs {
		if r.Error != "" || len(r.NotConverged) == 0 {
			continue
		}
		c := want[keyOf(&r)]
		if r.NotConverged[0].Final {
			c.final++
		} else {
			c.selection++
		}
		want[keyOf(&r)] = c
	}
	if len(want) != 2 {
		t.Fatalf("the test's records have %d rows with stopped solvers, want 2", len(want))
	}
	rows := Summarize(recs)
	for _, r := range rows {
		w := want[rowKeyOf(r)]
		if r.NotConverged != w.final || r.SelectionNotConverged != w.selection {
			t.Errorf("%s %s %d/%d: %d final and %d selection-only, want %d and %d", r.Dataset, r.Method, r.Ways, r.Positives, r.NotConverged, r.SelectionNotConverged, w.final, w.selection)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(string(b), `"not_converged":`) || strings.Contains(string(b), `"selection_not_converged":`)
		if has != (w != counts{}) {
			t.Errorf("%s %s %d/%d: JSON %s", r.Dataset, r.Method, r.Ways, r.Positives, b)
		}
		if (r.ConvergenceNote() != "") != (w != counts{}) || r.StoppedShort() != (w != counts{}) {
			t.Errorf("%s %s %d/%d: note %q, stopped short %v", r.Dataset, r.Method, r.Ways, r.Positives, r.ConvergenceNote(), r.StoppedShort())
		}
	}

	md, _ := writeReport(t, recs)
	for _, want := range []string{
		"toy l1-logistic, 2 positives, noise 0: 2 of the 11 cells averaged have a final fit whose solver stopped before its stopping rule held",
		"; 1 of the 11 cells averaged has solver runs that stopped short only in choosing a hyperparameter",
		"toy-nway greedytl-nway, 5-way, 1-shot: 1 of the 4 cells averaged has a final fit",
		"| stopped short " + NotConvergedMark + " |",
		"| 2 final, 1 selection |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md has no %q:\n%s", want, md)
		}
	}
	// The marked entries: L1-Logistic's at 2+10 (the first column) and
	// GreedyTL N-way's 5-way, 1-shot (the first column of the first table).
	marked := markedEntries(md, NotConvergedMark)
	if want := "| L1-Logistic column 1; | GreedyTL N-way column 1"; strings.Join(marked, "; ") != want {
		t.Errorf("report.md marks %q, want %q:\n%s", marked, want, md)
	}

	for i := range recs {
		recs[i].NotConverged = nil
	}
	md, _ = writeReport(t, recs)
	for _, no := range []string{NotConvergedMark, "stopped short", "not_converged"} {
		if strings.Contains(md, no) {
			t.Errorf("a report of converged fits mentions %q:\n%s", no, md)
		}
	}
	for _, r := range Summarize(recs) {
		if b, _ := json.Marshal(r); strings.Contains(string(b), "not_converged") {
			t.Errorf("a row of converged fits: %s", b)
		}
	}
}

// writeReport writes recs to results files, one per dataset (a run
// without run.json holds one dataset), loads them, writes the Markdown
// report into dir/report and returns report.md and the report's
// directory.
func writeReport(t *testing.T, recs []experiment.Record) (md, out string) {
	t.Helper()
	dir := t.TempDir()
	text := map[string]*strings.Builder{}
	var paths []string
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if text[r.Dataset] == nil {
			text[r.Dataset] = &strings.Builder{}
			paths = append(paths, filepath.Join(dir, r.Dataset+".jsonl"))
		}
		text[r.Dataset].Write(append(b, '\n'))
	}
	for _, p := range paths {
		if err := os.WriteFile(p, []byte(text[strings.TrimSuffix(filepath.Base(p), ".jsonl")].String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(dir, "report")
	if _, err := Write(out, res, Options{Markdown: true}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b), out
}

// TestAllRowsSaysWhatItAverages: the note above All summary rows says what
// its means are — of an N-way report, accuracy over episodes (it said
// balanced accuracy over targets and splits); with both kinds of rows, both.
func TestAllRowsSaysWhatItAverages(t *testing.T) {
	note := func(md string) string {
		_, after, ok := strings.Cut(md, "## All summary rows\n\n")
		if !ok {
			t.Fatalf("report.md has no All summary rows:\n%s", md)
		}
		p, _, _ := strings.Cut(after, "\n")
		return p
	}
	const binary, nway = "Balanced accuracy in %: mean over targets and splits", "accuracy in %: mean over episodes"
	md, _ := writeReport(t, nwayRecords())
	if p := note(md); strings.Contains(p, binary) || !strings.Contains(strings.ToLower(p), strings.ToLower(nway)) {
		t.Errorf("N-way report: All summary rows says %q", p)
	}
	md, _ = writeReport(t, stoppedRecords()) // binary and N-way datasets
	if p := note(md); !strings.Contains(p, binary) || !strings.Contains(strings.ToLower(p), strings.ToLower(nway)) {
		t.Errorf("report of both protocols: All summary rows says %q", p)
	}
}

// TestNWayTableSaysEpisodes: an N-way entry of a single episode is marked
// "(1 episode)", not "(1 split)" (the N-way tables count episodes), and the
// table's note explains it and an entry of — (every episode failed), as the
// binary tables' note does.
func TestNWayTableSaysEpisodes(t *testing.T) {
	var recs []experiment.Record
	for _, r := range nwayRecords() {
		switch {
		case r.Ways == 5 && r.Positives == 1 && r.Split > 0:
			continue // one episode left
		case r.Ways == 5 && r.Positives == 5 && r.Method == "simpleshot":
			r.Accuracy, r.BalancedAccuracy, r.Error = 0, 0, "fit: failed"
		}
		recs = append(recs, r)
	}
	md, _ := writeReport(t, recs)
	table, _, _ := strings.Cut(md, "### 20-way accuracy")
	for _, want := range []string{"(1 episode) |", "Entries marked (1 episode) come from a single episode", "An entry of — averages none: its every episode failed"} {
		if !strings.Contains(table, want) {
			t.Errorf("the 5-way table has no %q:\n%s", want, table)
		}
	}
	if strings.Contains(md, "split)") {
		t.Errorf("the N-way report speaks of splits:\n%s", md)
	}
}

// TestNWaySaysHowManyEpisodes: the section's first line counts the
// episodes of each method, ways and shots — a method with more episodes
// beside the others (a run of its own with more --splits, which a report
// reads with the run) gives a range; it gave the number of distinct
// episode numbers over every method, 6 where most rows average 4.
func TestNWaySaysHowManyEpisodes(t *testing.T) {
	md, _ := writeReport(t, nwayRecords())
	if !strings.Contains(md, ", 4 episodes per ways and shots,") {
		t.Errorf("4 episodes of every row: report.md has no \"4 episodes per ways and shots\":\n%s", md)
	}
	recs := nwayRecords()
	for _, r := range nwayRecords() {
		if r.Method == "simpleshot" {
			r.Split += 4 // episodes 4 to 7: 8 in all
			recs = append(recs, r)
		}
	}
	md, _ = writeReport(t, recs)
	if !strings.Contains(md, ", 4 to 8 episodes per ways and shots,") {
		t.Errorf("4 and 8 episodes: report.md has no \"4 to 8 episodes per ways and shots\":\n%s", md)
	}
}

// TestNWayPanelsShareY: the panels of the N-way figure, one per number of
// ways side by side, share a y range, as the noise figure's do (a reader
// compares them at a glance, as with matplotlib's sharey); each had its
// own, 20-way's well below 5-way's here, so that equal heights read as
// equal accuracies where they differed by 30 points.
func TestNWayPanelsShareY(t *testing.T) {
	var recs []experiment.Record
	for _, r := range nwayRecords() {
		if r.Ways == 20 {
			r.Accuracy -= 0.3 // 20-way far below 5-way
			r.BalancedAccuracy = r.Accuracy
		}
		recs = append(recs, r)
	}
	d := newNWayRows(Summarize(recs))
	plots, err := nwayPanels("toy", d, d.methods(), []int{5, 20}, []int{1, 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(plots) != 2 {
		t.Fatalf("%d panels, want 2", len(plots))
	}
	a, b := plots[0].Y, plots[1].Y
	if a.Min != b.Min || a.Max != b.Max {
		t.Errorf("5-way panel's y range [%v, %v], 20-way's [%v, %v]: not shared", a.Min, a.Max, b.Min, b.Max)
	}
	// The shared range shows every point of both.
	for _, r := range d.rows {
		if y := 100 * r.Mean; r.N > 0 && (y < a.Min || y > a.Max) {
			t.Errorf("%s %d-way %d-shot at %.1f%% outside [%v, %v]", r.Method, r.Ways, r.Shots, y, a.Min, a.Max)
		}
	}
}

// TestNWayLineCutWhereEpisodesAreMissing: as in the binary figures, a
// method's line in an N-way panel is cut at a number of shots its grid
// holds but where it has no episode recorded (a partial run) or when the
// grid is unknown, and joins across one its grid does not hold; 2ab044a
// joined it wherever the method had no row.
func TestNWayLineCutWhereEpisodesAreMissing(t *testing.T) {
	var recs []experiment.Record
	for _, r := range nwayRecords() {
		if r.Ways == 5 {
			recs = append(recs, r)
			if r.Method == "simpleshot" && r.Positives == 5 { // simpleshot's 2 shots: 5's, less accurate
				r.Positives = 2
				r.Accuracy -= 0.05
				recs = append(recs, r)
			}
		}
	}
	for _, tc := range []struct {
		grid string
		in   func(rowKey) bool // an N-way row's shots are its key's positives
		join bool
	}{
		{"GreedyTL N-way's grid without 2 shots", func(k rowKey) bool { return k.method != "greedytl-nway" || k.positives != 2 }, true},
		{"GreedyTL N-way's grid with 2 shots", func(rowKey) bool { return true }, false},
		{"no grid", nil, false},
	} {
		d := newNWayRows(Summarize(recs))
		d.inGrid = tc.in
		f, err := nwayFigure("nway", "toy", d, d.methods(), []int{5}, []int{1, 2, 5})
		if err != nil {
			t.Fatal(err)
		}
		svg, err := f.render("svg")
		if err != nil {
			t.Fatal(err)
		}
		if got := joins(svg, "greedytl-nway"); got != tc.join {
			t.Errorf("%s: GreedyTL N-way, with episodes at 1 and 5 shots only, has a line from one to the other: %v, want %v", tc.grid, got, tc.join)
		}
		if !joins(svg, "simpleshot") {
			t.Errorf("%s: SimpleShot, with every shot, has no line", tc.grid)
		}
	}
}
