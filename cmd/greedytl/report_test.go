package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/tmpfstest"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/report"
	"github.com/greedytl/greedytl/source"
)

// reportRun writes a run directory: 2 targets × 3 splits of greedytl and
// greedytl-59 at 2 positives, one failed cell, and run.json.
func reportRun(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	accs := map[string][3][2]float64{
		"greedytl":    {{0.7, 0.8}, {0.6, 0.9}, {0.8, 0.9}},
		"greedytl-59": {{0.7, 0.7}, {0.6, 0.8}, {0.7, 0.8}},
	}
	var b strings.Builder
	for _, m := range []string{"greedytl", "greedytl-59"} {
		for s := range 3 {
			for tg := range 2 {
				r := experiment.Record{Dataset: "toy", Target: []string{"cat", "dog"}[tg], TargetIdx: tg, Positives: 2, Negatives: 10,
					Split: s, Method: m, BalancedAccuracy: accs[m][s][tg], FitSeconds: 0.5, Features: 1,
					Sources: []int{1 - tg}, SourceNames: []string{[]string{"cat", "dog"}[1-tg]}, Weights: []float64{0.5}}
				line, err := json.Marshal(r)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(line)
				b.WriteByte('\n')
			}
		}
	}
	b.WriteString(`{"dataset":"toy","target":"cat","target_idx":0,"positives":5,"negatives":10,"noise":0,"split":0,"method":"greedytl","balanced_accuracy":0,"test_positives":15,"test_negatives":14,"fit_seconds":1,"features":-1,"candidates":3,"error":"singular"}` + "\n")
	writeText(t, dir, "results.jsonl", b.String())
	man, err := json.Marshal(experiment.Manifest{Format: experiment.ManifestFormat, Version: experiment.ManifestVersion, GreedytlVersion: "test",
		Dataset: experiment.DatasetInfo{Name: "toy"}, Classes: []string{"cat", "dog", "neg"}, Groups: []string{"pet", "pet", "other"},
		Negatives: &source.Negatives{Classes: []int{2}}, Targets: []string{"cat", "dog"}, Positives: []int{2, 5}, Splits: 3,
		Noise: []int{0}, Methods: []string{"greedytl", "greedytl-59"}})
	if err != nil {
		t.Fatal(err)
	}
	writeText(t, dir, "run.json", string(man))
	return dir
}

func TestReportJSON(t *testing.T) {
	run := reportRun(t)
	code, out, stderr := cli(t, "", "report", run, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3 (greedytl at 2 and 5 positives, greedytl-59):\n%s", len(rows), out)
	}
	// greedytl at 2 positives: split means 0.75, 0.75, 0.85.
	r := rows[0]
	if r["method"] != "greedytl" || r["positives"] != 2.0 || r["noise"] != 0.0 || r["n"] != 6.0 || r["dataset"] != "toy" ||
		math.Abs(r["mean"].(float64)-4.7/6) > 1e-12 || math.Abs(r["stderr"].(float64)-1.0/30) > 1e-12 || r["fit_seconds_mean"] != 0.5 {
		t.Errorf("row 0 = %v", r)
	}
	// The failed cell is counted, not averaged: a row of no successful
	// cell has no mean, standard error or fit time (null, not 0).
	if r := rows[2]; r["method"] != "greedytl" || r["positives"] != 5.0 || r["n"] != 0.0 || r["errors"] != 1.0 {
		t.Errorf("row 2 = %v", r)
	}
	for _, k := range []string{"mean", "stderr", "fit_seconds_mean"} {
		if v, ok := rows[2][k]; !ok || v != nil {
			t.Errorf("row 2 (no successful cell): %s = %v (present: %v), want null", k, v, ok)
		}
	}
	// Each row says how many cells the grid expects (2 targets × 3 splits),
	// and the partial run is announced first (issue: a run with cells
	// missing was reported as whole).
	for i, r := range rows {
		if r["expected"] != 6.0 {
			t.Errorf("row %d expects %v cells, want 6", i, r["expected"])
		}
	}
	for _, want := range []string{"Partial results", "toy greedytl: 7 of 12 cells", "toy greedytl-59: 6 of 12 cells"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	dir := t.TempDir()
	if code, _, stderr := cli(t, "", "report", run, "--out", dir, "--format", "md"); code != 0 {
		t.Fatal(stderr)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if i := strings.Index(string(md), "Partial results"); i < 0 || i > strings.Index(string(md), "read from") {
		t.Errorf("report.md does not start with the partial-run note:\n%.600s", md)
	}
}

func TestReportTable(t *testing.T) {
	code, out, stderr := cli(t, "", "report", reportRun(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The binary rows' mean is class-balanced accuracy, headed as report.md
	// heads it (report.BalancedAccuracyTitle), not as plain accuracy.
	for _, want := range []string{"balanced accuracy (%)", "greedytl-59", "78.33", "3.33"} {
		if !strings.Contains(out, want) {
			t.Errorf("table has no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "accuracy %") {
		t.Errorf("table heads balanced accuracy as plain accuracy (\"accuracy %%\"):\n%s", out)
	}
	// greedytl at 5 positives, whose one cell failed, averages nothing:
	// no accuracy, standard error or fit time (its JSON has null), where
	// the fit time read 0.
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 10 && f[1] == "greedytl" && f[2] == "5" {
			if got := strings.Join([]string{f[4], f[5], f[9]}, " "); got != "- - -" {
				t.Errorf("row of no successful cell: accuracy, stderr, fit s = %q, want - - -:\n%s", got, out)
			}
			return
		}
	}
	t.Errorf("no row of greedytl at 5 positives:\n%s", out)
}

func TestReportOut(t *testing.T) {
	run := reportRun(t)
	tests := []struct {
		name      string
		args      []string
		wantFiles []string
		noFiles   []string
		stdout    bool // JSON on stdout
		quiet     bool // no "report written" on stderr (-q, as the other commands have); warnings stay
	}{
		{"md and html", nil, []string{"report.md", "report.html", "fig1-accuracy-toy.png", "fig1-accuracy-toy.svg",
			"fig3-greedytl59-toy.png", "fig-weights-toy-greedytl.svg"}, nil, false, false},
		{"md only, and JSON", []string{"--format", "md", "--json"}, []string{"report.md", "fig1-accuracy-toy.png"}, []string{"report.html"}, true, false},
		{"html then md, spaced", []string{"--format", " html ", "--format", "MD"}, []string{"report.md", "report.html"}, nil, false, false},
		{"quiet", []string{"-q"}, []string{"report.md", "report.html"}, nil, false, true},
		{"quiet, JSON", []string{"-q", "--json"}, []string{"report.md", "report.html"}, nil, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "rep")
			code, stdout, stderr := cli(t, "", append([]string{"report", run, "--out", out}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, f := range tc.wantFiles {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("no %s: %v", f, err)
				}
			}
			for _, f := range tc.noFiles {
				if _, err := os.Stat(filepath.Join(out, f)); err == nil {
					t.Errorf("%s written, not asked for", f)
				}
			}
			if strings.Contains(stderr, "report written to "+out) == tc.quiet || !strings.Contains(stderr, "Partial results") {
				t.Errorf("stderr %q", stderr)
			}
			// The summary with --out is --json's array, or nothing: no
			// table (-q's help says so).
			if got := strings.HasPrefix(stdout, "["); got != tc.stdout || !tc.stdout && stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
		})
	}
}

func TestReportBadInput(t *testing.T) {
	run := reportRun(t)
	bad := t.TempDir()
	writeText(t, bad, "results.jsonl", "{not json\n{}\n")
	file := writeText(t, t.TempDir(), "file", "x")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no run", []string{"report"}, exitInput, "greedytl report takes one or more arguments, the run directories or result files to report on, and was given none"},
		{"missing run", []string{"report", filepath.Join(run, "nope")}, exitInput, "no such file"},
		{"not a run", []string{"report", t.TempDir()}, exitInput, "not a run directory"},
		{"malformed results", []string{"report", bad}, exitInput, "results.jsonl:1:"},
		{"unknown format", []string{"report", run, "--out", t.TempDir(), "--format", "pdf"}, exitInput, `--format "pdf"`},
		{"format without out", []string{"report", run, "--format", "md"}, exitInput, "--format needs --out"},
		// It wrote report.md only (pflag's CSV reader read the first line).
		{"formats on two lines", []string{"report", run, "--out", t.TempDir(), "--format", "md\nhtml"}, exitInput, "items on more than one line"},
		{"unknown flag", []string{"report", run, "--bogus"}, exitInput, "unknown flag"},
		// Refused before any work (it failed to write, exit 1).
		{"out under a file", []string{"report", run, "--out", filepath.Join(file, "sub")}, exitInput, file + " is a file, not a directory"},
		{"out under a file, json", []string{"report", run, "--json", "--out", filepath.Join(file, "sub")}, exitInput, file + " is a file, not a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.msg) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, nothing and %q", code, stdout, stderr, tc.code, tc.msg)
			}
		})
	}
}

// TestReportIntoUnwritableDirectory: a report that cannot be written exits
// 1 naming it, as synth does (atomicfile.CheckDir's message; it was
// "report: mkdir …"), and with --json prints no summary (it printed the
// summary before failing to write the report).
func TestReportIntoUnwritableDirectory(t *testing.T) {
	run := reportRun(t)
	out := filepath.Join(tmpfstest.Unwritable(t), "sub")
	for _, args := range [][]string{{"report", run, "--out", out}, {"report", run, "--json", "--out", out}} {
		code, stdout, stderr := cli(t, "", args...)
		if code != exitFailure || stdout != "" || !strings.HasPrefix(stderr, "greedytl: "+out+": cannot create it in ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, nothing and a message naming %s", args, code, stdout, stderr, exitFailure, out)
		}
	}
}

// TestReportNotConverged: report marks (†) the accuracy of a row averaged
// over fits whose solvers stopped short (records with not_converged),
// warns of it (code not-converged, with the counts), and --json gives the
// counts: the cells whose final fit stopped, and those stopped only in
// hyperparameter selection; a row without such cells has none of it.
func TestReportNotConverged(t *testing.T) {
	run := reportRun(t)
	editRecords(t, run, func(r *experiment.Record) {
		if r.Method == "greedytl-59" && r.Split < 2 {
			r.NotConverged = []method.NotConverged{{Solver: "S", Stopped: 1, Runs: 3, Final: r.TargetIdx == 0}}
		}
	})

	code, out, stderr := cli(t, "", "report", run, "--json")
	var rows []report.Row
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil {
		t.Fatalf("exit %d, --json: %v\n%s\n%s", code, err, out, stderr)
	}
	for _, r := range rows {
		want := [2]int{}
		if r.Method == "greedytl-59" {
			want = [2]int{2, 2}
		}
		if got := [2]int{r.NotConverged, r.SelectionNotConverged}; got != want {
			t.Errorf("%s %d positives: not_converged, selection_not_converged %v, want %v", r.Method, r.Positives, got, want)
		}
	}
	if n := strings.Count(out, `"not_converged"`) + strings.Count(out, `"selection_not_converged"`); n != 2 {
		t.Errorf("--json has %d counts of stopped cells, want 2, in the one row with such cells:\n%s", n, out)
	}
	note := "toy greedytl-59, 2 positives, noise 0: 2 of the 6 cells averaged have a final fit whose solver stopped before its stopping rule held"
	if n := strings.Count(stderr, "greedytl: warning: "+note); n != 1 || strings.Count(stderr, "stopping rule") != 1 {
		t.Errorf("stderr: %d warnings %q…, want 1 and no other:\n%s", n, note, stderr)
	}

	code, out, stderr = cli(t, "", "report", run)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(out, "\n") {
		if marked := strings.Contains(l, report.NotConvergedMark); marked != strings.Contains(l, "greedytl-59") {
			t.Errorf("table line %q: marked %v", l, marked)
		}
	}
	if !strings.Contains(stderr, note) {
		t.Errorf("the table's report does not warn %q:\n%s", note, stderr)
	}
}

// TestReportOutKeepsForeignDocuments: report --out into a directory whose
// report.md is not a greedytl report is bad usage (exit 2) naming the file,
// which stays as it was; a second report into the first's directory
// replaces it.
func TestReportOutKeepsForeignDocuments(t *testing.T) {
	run := reportRun(t)
	dir := t.TempDir()
	notes := filepath.Join(dir, "report.md")
	writeText(t, dir, "report.md", "# my notes\n")
	code, _, stderr := cli(t, "", "report", run, "--out", dir)
	if code != 2 || !strings.Contains(stderr, notes+" exists and is not a greedytl report") {
		t.Errorf("exit %d, stderr %q; want 2 naming %s", code, stderr, notes)
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "# my notes\n" {
		t.Errorf("%s now %q (%v)", notes, b, err)
	}
	// A figure of the user's, in a directory without report-files.json,
	// likewise (it was replaced without notice).
	mine := t.TempDir()
	fig := writeText(t, mine, "fig1-accuracy-toy.png", "my figure\n")
	code, _, stderr = cli(t, "", "report", run, "--out", mine)
	if code != 2 || !strings.Contains(stderr, fig+" exists and is not a greedytl report's file") || !strings.Contains(stderr, "move or remove it, or give another directory") {
		t.Errorf("a user's figure: exit %d, stderr %q; want 2 naming %s and what to do", code, stderr, fig)
	}
	if b, err := os.ReadFile(fig); err != nil || string(b) != "my figure\n" {
		t.Errorf("%s now %.40q (%v)", fig, b, err)
	}
	out := filepath.Join(t.TempDir(), "rep")
	for range 2 {
		if code, _, stderr := cli(t, "", "report", run, "--out", out, "-q"); code != 0 {
			t.Errorf("exit %d: %s", code, stderr)
		}
	}
	// A report of fewer documents removes the earlier one's others.
	if code, _, stderr := cli(t, "", "report", run, "--out", out, "-q", "--format", "md"); code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.html")); err == nil {
		t.Errorf("report --format md left the earlier report's report.html in %s", out)
	}
}

// A run with no record yet — a run directory whose run.json is written but
// no cell, a shard whose part of the grid is empty — was refused as
// "report: no records in " (an empty list of files): the refusal names
// what was read, and what the grid expects.
func TestReportOfAnEmptyRun(t *testing.T) {
	run := reportRun(t)
	results := filepath.Join(run, "results.jsonl")
	if err := os.Remove(results); err != nil {
		t.Fatal(err)
	}
	shard := t.TempDir()
	empty := writeText(t, shard, "results-shard-3-of-8.jsonl", "")
	if err := os.Link(filepath.Join(run, "run.json"), filepath.Join(shard, "run.json")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		run  string
		want []string
	}{
		{run, []string{run + ": no results file", "24 cells expected"}},
		{shard, []string{empty + " holds no record", "24 cells expected"}},
	} {
		for _, args := range [][]string{{"report", tc.run}, {"report", tc.run, "--json"}, {"report", tc.run, "--out", filepath.Join(t.TempDir(), "rep")}} {
			code, stdout, stderr := cli(t, "", args...)
			ok := code == exitInput && stdout == ""
			for _, w := range tc.want {
				ok = ok && strings.Contains(stderr, w)
			}
			if !ok {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, nothing and %q", args, code, stdout, stderr, exitInput, tc.want)
			}
		}
	}
}

// TestDemoTableRowsAreTheRunsMethods checks the demo's table against the
// records it summarises: one line per method of the run, greedytl-auto
// first, a method given with settings (a spec, which the registry does not
// list) among them with its accuracies, and no line for a method the run
// did not hold.
func TestDemoTableRowsAreTheRunsMethods(t *testing.T) {
	var recs []experiment.Record
	acc := map[string]float64{"greedytl": 0.5, "greedytl:lambda=0.5": 0.75, "greedytl-auto": 0.625}
	for _, m := range []string{"greedytl", "greedytl:lambda=0.5", "greedytl-auto"} {
		for _, pos := range []int{2, 5} {
			for split := range 2 {
				recs = append(recs, experiment.Record{Dataset: "clinc150", Target: "a", Positives: pos, Split: split, Method: m, BalancedAccuracy: acc[m]})
			}
		}
	}
	var out, stderr strings.Builder
	if err := printDemoTable(&streams{out: &out, err: &stderr}, report.Summarize(recs)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(out.String(), "\n")[3:] {
		if f := strings.Fields(line); len(f) > 0 {
			got = append(got, strings.Join(f, " "))
		}
	}
	want := []string{
		"greedytl-auto 62.5 ± 0.00 62.5 ± 0.00",
		"greedytl 50.0 ± 0.00 50.0 ± 0.00",
		"greedytl:lambda=0.5 75.0 ± 0.00 75.0 ± 0.00",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table lines\n%s\nwant\n%s\n(the whole table:\n%s)", strings.Join(got, "\n"), strings.Join(want, "\n"), out.String())
	}
}

// TestReportCountsFigures: report's last line counts the figures it wrote
// (the PNG files), in English: "1 figure" for a run of one method other
// than GreedyTL (its accuracy figure alone), "N figures" otherwise.
func TestReportCountsFigures(t *testing.T) {
	run := reportRun(t)
	b, err := os.ReadFile(filepath.Join(run, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var one strings.Builder // greedytl-59's records, as another method's, without run.json
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if strings.Contains(line, `"method":"greedytl-59"`) {
			one.WriteString(strings.Replace(line, `"method":"greedytl-59"`, `"method":"no-transfer"`, 1))
		}
	}
	oneMethod := t.TempDir()
	writeText(t, oneMethod, "results.jsonl", one.String())
	for _, dir := range []string{oneMethod, run} {
		out := filepath.Join(t.TempDir(), "rep")
		code, _, stderr := cli(t, "", "report", dir, "--out", out)
		pngs, _ := filepath.Glob(filepath.Join(out, "*.png"))
		if code != 0 || len(pngs) == 0 {
			t.Fatalf("report %s: exit %d, %d PNG files: %s", dir, code, len(pngs), stderr)
		}
		want := fmt.Sprintf("report written to %s: %d figures (PNG and SVG)", out, len(pngs))
		if len(pngs) == 1 {
			want = fmt.Sprintf("report written to %s: 1 figure (PNG and SVG)", out)
		}
		if !strings.Contains(stderr, want) {
			t.Errorf("report %s: stderr %q, want %q", dir, stderr, want)
		}
		if dir == oneMethod && len(pngs) != 1 {
			t.Errorf("a run of one method other than GreedyTL: %d figures, want 1 (the test needs one)", len(pngs))
		}
	}
}

// TestReportHelpNamesEveryJSONMember: report's help describes --json's
// objects member by member; every member a row may carry (report.Row's
// JSON names, those of N-way rows too) is named there.
func TestReportHelpNamesEveryJSONMember(t *testing.T) {
	code, help, stderr := cli(t, "", "help", "report")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	help = strings.Join(strings.Fields(help), " ")
	rt := reflect.TypeFor[report.Row]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		if !strings.Contains(help, `"`+name+`"`) {
			t.Errorf("greedytl help report does not name the JSON member %q", name)
		}
	}
}

// TestReportOneSplit: report of a run of one split gives no standard
// error — --json's stderr is null and the table's "-" — where both gave
// 0, which claims a certainty one split cannot measure.
func TestReportOneSplit(t *testing.T) {
	run := reportRun(t)
	data, err := os.ReadFile(filepath.Join(run, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var one []string
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if strings.Contains(line, `"split":0,`) && !strings.Contains(line, `"error"`) {
			one = append(one, line)
		}
	}
	path := writeText(t, t.TempDir(), "results.jsonl", strings.Join(one, ""))
	code, out, stderr := cli(t, "", "report", path, "--json", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2:\n%s", len(rows), out)
	}
	for _, r := range rows {
		if v, ok := r["stderr"]; !ok || v != nil || r["splits"] != 1.0 || r["mean"] == nil {
			t.Errorf("row of one split: stderr = %v (present: %v), want null, beside its mean: %v", v, ok, r)
		}
	}
	code, out, stderr = cli(t, "", "report", path, "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	n := 0
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 10 && f[0] == "toy" {
			n++
			if f[5] != "-" || f[4] == "-" {
				t.Errorf("row of one split: accuracy, stderr = %s %s, want a mean and -:\n%s", f[4], f[5], out)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d rows of toy, want 2:\n%s", n, out)
	}
}
