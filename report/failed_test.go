package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
)

// TestFailedSections: the failed cells and the failed N-way episodes are
// grouped by method and their two numbers, counted, with the first error
// of each group; cells in the summary's row order, episodes in order of
// first appearance; nothing when no record failed.
func TestFailedSections(t *testing.T) {
	recs := []experiment.Record{
		{Method: "no-transfer", Positives: 5, Noise: 0, Ways: 3, Error: "e1"},
		{Method: "greedytl", Positives: 5, Noise: 0, Ways: 5, Error: "e2"},
		{Method: "greedytl", Positives: 2, Noise: 0, Ways: 5, Error: "e3"},
		{Method: "greedytl", Positives: 5, Noise: 0, Ways: 5, Error: "e4"},
		{Method: "greedytl", Positives: 2, Noise: 0, Ways: 5},
	}
	render := func(add func(*document)) string {
		var doc document
		add(&doc)
		var b bytes.Buffer
		doc.writeMarkdown(&b)
		return b.String()
	}
	cells := render(func(d *document) { failedTable(d, recs) })
	episodes := render(func(d *document) { failedEpisodes(d, recs) })
	for _, tc := range []struct {
		what, got string
		want      []string // in this order
	}{
		{"cells", cells, []string{"### Failed cells", "These cells are left out of every mean above.",
			"| method | positives | noise | failed cells | first error |",
			"| GreedyTL | 2 | 0 | 1 | e3 |", "| GreedyTL | 5 | 0 | 2 | e2 |", "| No transfer | 5 | 0 | 1 | e1 |"}},
		{"episodes", episodes, []string{"### Failed episodes", "These episodes are left out of every mean above.",
			"| method | ways | shots | failed episodes | first error |",
			"| No transfer | 3 | 5 | 1 | e1 |", "| GreedyTL | 5 | 5 | 2 | e2 |", "| GreedyTL | 5 | 2 | 1 | e3 |"}},
	} {
		at := 0
		for _, w := range tc.want {
			k := strings.Index(tc.got[at:], w)
			if k < 0 {
				t.Errorf("%s: %q missing after byte %d of\n%s", tc.what, w, at, tc.got)
				break
			}
			at += k + len(w)
		}
	}
	empty := render(func(*document) {})
	if got := render(func(d *document) { failedTable(d, recs[4:]); failedEpisodes(d, recs[4:]) }); got != empty {
		t.Errorf("no failures: %q, want %q", got, empty)
	}
}

// TestAllRowsNoSuccess: in the All summary rows, a row none of whose cells
// succeeded (N = 0) shows no mean, standard error or fit time — it averages
// nothing, as its JSON form's nulls say (a fit time of 0 read as a
// measured one) — and a row with a successful cell shows all three.
func TestAllRowsNoSuccess(t *testing.T) {
	rows := []Row{
		{Dataset: "toy", Method: "greedytl", Positives: 2, Mean: 0.75, StdErr: 0.05, Splits: 2, N: 4, FitSecondsMean: 0.5},
		{Dataset: "toy", Method: "greedytl", Positives: 5, Errors: 3},
	}
	got := allRowsTable(rows).rows
	if len(got) != 2 {
		t.Fatalf("%d rows, want 2", len(got))
	}
	if want := []string{"75.00", "5.00", "0.5"}; !slices.Equal([]string{got[0][4], got[0][5], got[0][9]}, want) {
		t.Errorf("row with cells: mean, stderr, fit s = %q, want %q", []string{got[0][4], got[0][5], got[0][9]}, want)
	}
	for _, k := range []int{4, 5, 9} {
		if got[1][k] != "—" {
			t.Errorf("row of no successful cell: %s = %q, want —", allRowsTable(rows).header[k], got[1][k])
		}
	}
}

// TestOneSplitNoStdErr: a row of one split has no standard error — one
// split measures no spread — so its JSON form has stderr null and the All
// summary rows table "—", where both gave 0, which claims certainty; its
// mean and fit time stay, and a row of two splits keeps its standard
// error.
func TestOneSplitNoStdErr(t *testing.T) {
	rows := []Row{
		{Dataset: "toy", Method: "greedytl", Positives: 2, Mean: 0.75, StdErr: 0, Splits: 1, N: 2, FitSecondsMean: 0.5},
		{Dataset: "toy", Method: "greedytl", Positives: 5, Mean: 0.8, StdErr: 0.05, Splits: 2, N: 4, FitSecondsMean: 0.5},
	}
	for i, want := range []string{"null", "0.05"} {
		b, err := json.Marshal(rows[i])
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if string(got["stderr"]) != want || string(got["mean"]) != strconv.FormatFloat(rows[i].Mean, 'g', -1, 64) || string(got["fit_seconds_mean"]) != "0.5" {
			t.Errorf("%d split(s): %s, want stderr %s and the mean and fit time", rows[i].Splits, b, want)
		}
	}
	got := allRowsTable(rows).rows
	if got[0][5] != "—" || got[0][4] != "75.00" || got[1][5] != "5.00" {
		t.Errorf("one split: mean, stderr = %q, %q, want 75.00, —; two: stderr %q, want 5.00", got[0][4], got[0][5], got[1][5])
	}
}
