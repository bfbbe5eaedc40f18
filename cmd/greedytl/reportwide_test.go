package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/report"
)

// TestReportWideRange: report marks (‡) the accuracy of a row averaged over
// fits that left committees out of their mean (records with wide_range),
// warns of it (code wide-range, with the count), and --json gives the
// count; a row without such cells has none of it.
func TestReportWideRange(t *testing.T) {
	run := reportRun(t)
	editRecords(t, run, func(r *experiment.Record) {
		if r.Method == "greedytl-59" && r.Split < 2 && r.TargetIdx == 0 {
			r.Candidates = max(r.Candidates, 1)
			r.WideRange = []experiment.WideRange{{LeftOut: 1, Subsamples: 5,
				Columns: []experiment.WideRangeColumn{{Column: greedytl.Column{Kind: greedytl.Feature, Index: 0}, Ratio: 1e30, Committees: 1}}}}
		}
	})

	code, out, stderr := cli(t, "", "report", run, "--json")
	var rows []report.Row
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil {
		t.Fatalf("exit %d, --json: %v\n%s\n%s", code, err, out, stderr)
	}
	for _, r := range rows {
		want := 0
		if r.Method == "greedytl-59" {
			want = 2
		}
		if r.WideRange != want {
			t.Errorf("%s %d positives: wide_range %d, want %d", r.Method, r.Positives, r.WideRange, want)
		}
	}
	if n := strings.Count(out, `"wide_range"`); n != 1 {
		t.Errorf("--json has %d counts of cells with committees left out, want 1:\n%s", n, out)
	}
	note := "toy greedytl-59, 2 positives, noise 0: 2 of the 6 cells averaged have a fit that left subsamples' committees out of its mean"
	if n := strings.Count(stderr, "greedytl: warning: "+note); n != 1 || strings.Count(stderr, "committees out") != 1 {
		t.Errorf("stderr: %d warnings %q…, want 1 and no other:\n%s", n, note, stderr)
	}

	code, out, stderr = cli(t, "", "report", run)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(out, "\n") {
		if marked := strings.Contains(l, report.WideRangeMark); marked != strings.Contains(l, "greedytl-59") {
			t.Errorf("table line %q: marked %v", l, marked)
		}
	}
}

// editRecords rewrites the records of run/results.jsonl (reportRun's) with
// edit applied to each.
func editRecords(t *testing.T, run string, edit func(*experiment.Record)) {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimSuffix(readFile(t, filepath.Join(run, "results.jsonl")), "\n"), "\n") {
		var r experiment.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		edit(&r)
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	writeText(t, run, "results.jsonl", b.String())
}
