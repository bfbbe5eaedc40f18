package report

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
)

// TestBestEntriesOracleAloneAveraged: in a column whose only entry of more
// than one split is the oracle's (which never competes), the entries of
// one split compete among themselves and the best is bold, as in a column
// of single splits alone — the oracle's standard error does not make the
// others' single splits lose to nothing.
func TestBestEntriesOracleAloneAveraged(t *testing.T) {
	col := []Row{
		{Method: "best-source", Mean: 0.95, StdErr: 0.01, Splits: 3, N: 3},
		{Method: "greedytl", Mean: 0.7, Splits: 1, N: 1},
		{Method: "no-transfer", Mean: 0.6, Splits: 1, N: 1},
		{}, // a missing entry
	}
	bold, passed := bestEntries(col)
	if want := []bool{false, true, false, false}; !slices.Equal(bold, want) || passed {
		t.Errorf("bold %v passed %v, want %v and none passed over", bold, passed, want)
	}
	// An averaged entry of a competing method beside them: the singles
	// are passed over, and the averaged one is bold though lower.
	col = append(col, Row{Method: "dam", Mean: 0.5, StdErr: 0.02, Splits: 2, N: 2})
	bold, passed = bestEntries(col)
	if want := []bool{false, false, false, false, true}; !slices.Equal(bold, want) || !passed {
		t.Errorf("with an averaged entry: bold %v passed %v, want %v and singles passed over", bold, passed, want)
	}
	// The oracle's single split is never bold, averaged entries or not:
	// it is not an entry passed over for being one split.
	bold, passed = bestEntries([]Row{
		{Method: "best-source", Mean: 0.95, Splits: 1, N: 1},
		{Method: "greedytl", Mean: 0.7, StdErr: 0.01, Splits: 2, N: 2},
	})
	if want := []bool{false, true}; !slices.Equal(bold, want) || passed {
		t.Errorf("the oracle's single split beside an average: bold %v passed %v, want %v and none passed over", bold, passed, want)
	}
}

// TestTargetMeansBruteForce checks each target's mean over its splits (the
// points of Fig. 3's right panel) against the mean computed from scratch,
// on random records with failed cells and other row keys mixed in.
func TestTargetMeansBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 3))
	var recs []experiment.Record
	for range 200 {
		m := []string{"greedytl", "dam"}[rng.IntN(2)]
		r := cell(m, rng.IntN(5), 2+3*rng.IntN(2), 0, rng.IntN(4), rng.Float64(), 1)
		if rng.IntN(6) == 0 {
			r.Error = "boom"
		}
		recs = append(recs, r)
	}
	k := rowKey{dataset: "d", method: "greedytl", positives: 2}
	got := targetMeans(recs, k)
	want := map[int]float64{}
	for tg := range 5 {
		var accs []float64
		for _, r := range recs {
			if r.Error == "" && r.Method == k.method && r.Positives == k.positives && r.TargetIdx == tg {
				accs = append(accs, r.BalancedAccuracy)
			}
		}
		if len(accs) == 0 {
			continue
		}
		var s float64
		for _, a := range accs {
			s += a
		}
		want[tg] = s / float64(len(accs))
	}
	if len(got) != len(want) {
		t.Fatalf("targets %v, want %v", got, want)
	}
	for tg, w := range want {
		if g, ok := got[tg]; !ok || !near(g, w) {
			t.Errorf("target %d: mean %v, want %v", tg, g, w)
		}
	}
}

// TestRowJSONWithoutCells: the JSON form (report --json) of a row none of
// whose cells succeeded has mean, stderr and fit_seconds_mean null — it
// averages nothing, and a 0 would read as an accuracy of 0 — whatever its
// number of splits, while its counts stay.
func TestRowJSONWithoutCells(t *testing.T) {
	for _, r := range []Row{
		{Dataset: "d", Method: "greedytl", Positives: 2, Errors: 3},
		{Dataset: "d", Method: "greedytl", Positives: 2, Errors: 3, Splits: 2},
		{Dataset: "d", Method: "nearest-mean", Ways: 5, Shots: 1, Positives: 1, Errors: 1},
	} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"mean", "stderr", "fit_seconds_mean"} {
			if v, ok := got[k]; !ok || string(v) != "null" {
				t.Errorf("%s: %s is %s, want null", b, k, v)
			}
		}
		if string(got["n"]) != "0" || string(got["errors"]) != fmt.Sprint(r.Errors) {
			t.Errorf("%s: n and errors, want 0 and %d", b, r.Errors)
		}
	}
}

// TestStrongestByMeanOverSizes checks the baselines Fig. 3 draws beside a
// method and its approximation: the k methods with the highest accuracy
// averaged over the training-set sizes at the noise level, best first,
// leaving out those skipped and the oracle, against a ranking computed from
// scratch.
func TestStrongestByMeanOverSizes(t *testing.T) {
	means := map[string][]float64{ // by positives 2, 5
		"greedytl":    {0.70, 0.80},
		"greedytl-59": {0.69, 0.79},
		"dam":         {0.60, 0.90}, // 0.75
		"no-transfer": {0.50, 0.60}, // 0.55
		"multi-kt":    {0.72, 0.74}, // 0.73
		"a-svm":       {0.30, 0.40}, // 0.35
		"best-source": {0.99, 0.99}, // the oracle
	}
	var recs []experiment.Record
	for m, ms := range means {
		for i, p := range []int{2, 5} {
			for s := range 2 {
				recs = append(recs, cell(m, 0, p, 0, s, ms[i], 1))
			}
		}
	}
	d := newDatasetRows(Summarize(recs))
	skip := []string{"greedytl", "greedytl-59"}
	for k, want := range [][]string{{}, {"dam"}, {"dam", "multi-kt"}, {"dam", "multi-kt", "no-transfer"}, {"dam", "multi-kt", "no-transfer", "a-svm"}, {"dam", "multi-kt", "no-transfer", "a-svm"}} {
		if got := strongest(d, 0, k, skip); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("the %d strongest: %v, want %v", k, got, want)
		}
	}
}

// TestAccuracyPanelMargin: a panel's y range is its points' and their error
// bars' (in %, as the means) with a margin
// of 5% of their span, but at least half a point, so that no point sits on
// the frame however close the points are; one value alone gets a point
// either side.
func TestAccuracyPanelMargin(t *testing.T) {
	for _, tc := range []struct {
		means    []float64
		stderr   float64 // of the first point, of 2 splits; the others have 1
		min, max float64
	}{
		{[]float64{0.700, 0.702}, 0, 69.5, 70.7}, // a span of 0.2: the half point
		{[]float64{0.50, 0.90}, 0, 48, 92},       // a span of 40: 5%
		{[]float64{0.60, 0.60}, 0, 59, 61},       // one value
		// Error bars of ± 5 points (in %, as the means) about 0.7, with a
		// point of one split at 0.71: 65 to 75, a span of 10.
		{[]float64{0.70, 0.71}, 0.05, 64.5, 75.5},
	} {
		_, ticks := categories([]int{2, 5})
		p, err := accuracyPanel("t", "x", ticks, []string{"greedytl"}, []string{"greedytl"}, func(_ string, i int) (Row, bool) {
			if i == 0 && tc.stderr > 0 {
				return Row{Method: "greedytl", Mean: tc.means[i], StdErr: tc.stderr, N: 2, Splits: 2}, true
			}
			return Row{Method: "greedytl", Mean: tc.means[i], N: 1, Splits: 1}, true
		})
		if err != nil {
			t.Fatal(err)
		}
		if !near(p.Y.Min, tc.min) || !near(p.Y.Max, tc.max) {
			t.Errorf("points at %v: y from %v to %v, want %v to %v", tc.means, p.Y.Min, p.Y.Max, tc.min, tc.max)
		}
	}
}

// TestSeriesWithErrors: error bars are drawn at the points with a standard
// error only — a point of one split (0) has none, not a bar of no length.
func TestSeriesWithErrors(t *testing.T) {
	s := &series{x: []float64{0, 1, 2, 3}, y: []float64{70, 71, 72, 73}, e: []float64{0, 1.5, 0, 2}, cut: make([]bool, 4)}
	got := s.withErrors()
	if !slices.Equal(got.x, []float64{1, 3}) || !slices.Equal(got.y, []float64{71, 73}) || !slices.Equal(got.e, []float64{1.5, 2}) {
		t.Errorf("points with errors %v %v %v, want x 1 and 3", got.x, got.y, got.e)
	}
}

// TestCategoriesDistinct: a figure's categories are the sorted distinct
// values, one tick each at its position, however often a value is given.
func TestCategoriesDistinct(t *testing.T) {
	vals, ticks := categories([]int{10, 2, 5, 2, 10, 10})
	if !slices.Equal(vals, []int{2, 5, 10}) || len(ticks) != 3 {
		t.Fatalf("categories %v with %d ticks, want 2, 5, 10", vals, len(ticks))
	}
	for i, tk := range ticks {
		if tk.Value != float64(i) || tk.Label != fmt.Sprint(vals[i]) {
			t.Errorf("tick %d: %v %q, want at %d labelled %d", i, tk.Value, tk.Label, i, vals[i])
		}
	}
}

// TestNWayTableSingleEpisodeNote: an N-way table's note speaks of entries
// of a single episode only when an entry with a value has one; an entry of
// no successful episode (—) has no standard error either, but is not one.
func TestNWayTableSingleEpisodeNote(t *testing.T) {
	rows := []Row{
		{Dataset: "d", Method: "simpleshot", Ways: 5, Shots: 1, Positives: 1, Mean: 0.6, StdErr: 0.02, Splits: 3, N: 3},
		{Dataset: "d", Method: "nearest-mean", Ways: 5, Shots: 1, Positives: 1, Errors: 3},
	}
	d := newNWayRows(rows)
	note := nwayTable(d, d.methods(), 5, []int{1})[1].(paragraph).text
	if strings.Contains(note, singleMark("episode")) || !strings.Contains(note, "every episode failed") {
		t.Errorf("note %q: want no word of single episodes, and the failed entry's", note)
	}
	rows[1] = Row{Dataset: "d", Method: "nearest-mean", Ways: 5, Shots: 1, Positives: 1, Mean: 0.4, Splits: 1, N: 1}
	d = newNWayRows(rows)
	if note := nwayTable(d, d.methods(), 5, []int{1})[1].(paragraph).text; !strings.Contains(note, singleMark("episode")) {
		t.Errorf("note %q: want a word of the single episode", note)
	}
}
