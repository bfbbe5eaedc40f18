package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/report"
)

// TestReportNotConverged: report marks (†) the accuracy of a row averaged
// over fits whose solvers stopped short (records with not_converged),
// warns of it (code not-converged, with the counts), and --json gives the
// counts: the cells whose final fit stopped, and those stopped only in
// hyperparameter selection; a row without such cells has none of it.
func TestReportNotConverged(t *testing.T) {
	run := reportRun(t)
	path := filepath.Join(run, "results.jsonl")
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimSuffix(readFile(t, path), "\n"), "\n") {
		var r experiment.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Method == "greedytl-59" && r.Split < 2 {
			r.NotConverged = []method.NotConverged{{Solver: "S", Stopped: 1, Runs: 3, Final: r.TargetIdx == 0}}
		}
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	writeText(t, run, "results.jsonl", b.String())

	code, out, stderr := cli(t, "", "report", run, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	for _, r := range rows {
		final, selection := r["not_converged"], r["selection_not_converged"]
		if r["method"] == "greedytl-59" {
			if final != 2.0 || selection != 2.0 {
				t.Errorf("greedytl-59: not_converged %v, selection_not_converged %v; want 2 and 2", final, selection)
			}
		} else if final != nil || selection != nil {
			t.Errorf("%v: a row of converged fits has not_converged %v, selection_not_converged %v", r["method"], final, selection)
		}
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
