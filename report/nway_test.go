package report

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
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
					r.Accuracy = 0.3 + 0.01*float64(w%7+s) + 0.02*float64(e)
					r.BalancedAccuracy = r.Accuracy / 2
					if m == "simpleshot" {
						r.Accuracy += 0.05
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
	dir := t.TempDir()
	path := filepath.Join(dir, "results.jsonl")
	var lines []string
	for _, r := range nwayRecords() {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report")
	if _, err := Write(out, res, Options{Markdown: true}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Dataset toy (N-way)", "### 5-way accuracy (%)", "### 20-way accuracy (%)", "| method | 1-shot | 5-shot |", "nway-accuracy-toy.png"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md has no %q", want)
		}
	}
	for _, ext := range []string{".png", ".svg"} {
		if _, err := os.Stat(filepath.Join(out, "nway-accuracy-toy"+ext)); err != nil {
			t.Error(err)
		}
	}
}
