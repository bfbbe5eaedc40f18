package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/experiment"
)

// wideRecords returns stoppedRecords without not_converged, three of
// greedytl's successful cells at 5 positives and one failed one with
// wide_range (a fit that left committees out of its mean), and the first
// of greedytl-nway's 5-way, 1-shot episodes with an entry for one class.
func wideRecords() []experiment.Record {
	col := []experiment.WideRangeColumn{{Column: greedytl.Column{Kind: greedytl.Feature, Index: 1}, Ratio: 1e30, Committees: 1}}
	recs := stoppedRecords()
	for i := range recs {
		r := &recs[i]
		r.NotConverged = nil
		if r.Error != "" {
			r.Error, r.BalancedAccuracy = "", 0.6
		}
		switch {
		case r.Method == "greedytl" && r.Positives == 5 && r.Split == 0:
			r.Candidates = 3
			r.WideRange = []experiment.WideRange{{LeftOut: 1, Subsamples: 5, Columns: col}}
			if r.TargetIdx == 3 { // failed: not averaged, not counted
				r.Error, r.BalancedAccuracy = "predict: score 0 is NaN", 0
			}
		case r.Method == "greedytl-nway" && r.Ways == 5 && r.Positives == 1 && r.Split == 0:
			r.Candidates = 3
			r.WideRange = []experiment.WideRange{{Class: r.Classes[1], LeftOut: 2, Subsamples: 5, Columns: col}}
		}
	}
	return recs
}

// TestReportWideRange: a summary row counts its successful cells whose
// fit left committees out of its mean (records with wide_range); --json
// carries the count only when not 0, and report.md marks those rows'
// accuracy (‡), lists them under the tables and counts them in All summary
// rows. A report of the same records without wide_range shows none of it.
func TestReportWideRange(t *testing.T) {
	recs := wideRecords()
	for _, r := range Summarize(recs) {
		want := 0
		switch {
		case r.Dataset == "toy" && r.Method == "greedytl" && r.Positives == 5:
			want = 3
		case r.Dataset == "toy-nway" && r.Method == "greedytl-nway" && r.Ways == 5 && r.Shots == 1:
			want = 1
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if r.WideRange != want || strings.Contains(string(b), `"wide_range":`) != (want > 0) || (r.WideRangeNote() != "") != (want > 0) {
			t.Errorf("%s %s %d/%d: wide range %d, want %d; note %q; JSON %s", r.Dataset, r.Method, r.Ways, r.Positives, r.WideRange, want, r.WideRangeNote(), b)
		}
	}
	md, _ := writeReport(t, recs)
	for _, want := range []string{
		WideRangeMark + " Committees left out — ",
		"toy greedytl, 5 positives, noise 0: 3 of the 11 cells averaged have a fit that left subsamples' committees out of its mean",
		"toy-nway greedytl-nway, 5-way, 1-shot: 1 of the 4 cells averaged has a fit that left",
		"| committees left out " + WideRangeMark + " |",
		"Committees left out " + WideRangeMark + ": of the n cells",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md has no %q:\n%s", want, md)
		}
	}
	// All summary rows' last cell counts the row's cells that left
	// committees out, empty for none.
	lastCells := map[string]string{}
	for _, l := range strings.Split(md, "\n") {
		if cells := strings.Split(l, " | "); len(cells) == 12 && strings.HasPrefix(l, "| toy") {
			lastCells[strings.Join(cells[:4], " | ")] = strings.TrimSuffix(cells[11], "|")
		}
	}
	if len(lastCells) != 12 {
		t.Errorf("All summary rows has %d rows of 12 cells, want 12:\n%s", len(lastCells), md)
	}
	for row, cell := range lastCells {
		want := " "
		switch row {
		case "| toy | greedytl | 0 | 5":
			want = "3 "
		case "| toy-nway | greedytl-nway | 5 | 1":
			want = "1 "
		}
		if cell != want {
			t.Errorf("All summary rows: %s ends with %q, want %q", row, cell, want)
		}
	}
	// The marked entries: GreedyTL's at 5+10 (the second column) and
	// GreedyTL N-way's 5-way, 1-shot (the first column of the first table).
	marked := markedEntries(md, WideRangeMark)
	if want := "| GreedyTL column 2; | GreedyTL N-way column 1"; strings.Join(marked, "; ") != want {
		t.Errorf("report.md marks %q, want %q:\n%s", marked, want, md)
	}

	for i := range recs {
		recs[i].WideRange = nil
	}
	md, _ = writeReport(t, recs)
	for _, no := range []string{WideRangeMark, "ommittees left out", "wide_range"} {
		if strings.Contains(md, no) {
			t.Errorf("a report of fits that left nothing out mentions %q:\n%s", no, md)
		}
	}
}

// markedEntries returns the entries of report.md's tables marked with mark
// (an accuracy followed by " "+mark), each as "| ROW column K": its row's
// first cell and its column from 1; the headers' marks are not entries.
func markedEntries(md, mark string) []string {
	var marked []string
	for _, l := range strings.Split(md, "\n") {
		cells := strings.Split(strings.TrimSuffix(l, " |"), " | ")
		for k, c := range cells {
			if strings.HasSuffix(c, " "+mark) && c[0] >= '0' && c[0] <= '9' {
				marked = append(marked, cells[0]+" column "+string(rune('0'+k)))
			}
		}
	}
	return marked
}
