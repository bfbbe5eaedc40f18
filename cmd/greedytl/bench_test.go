package main

import (
	"encoding/json"
	"testing"
)

func TestBenchJSON(t *testing.T) {
	code, out, stderr := cli(t, "", "bench", "--repeats", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []struct {
		M, N    int
		Method  string
		Steps   int
		Seconds float64
		Paper   float64 `json:"paper_seconds"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 18 {
		t.Fatalf("%d rows, want the paper's 2 × 9 cells", len(rows))
	}
	seen := map[string]int{}
	for _, r := range rows {
		seen[r.Method]++
		if r.M != 12 && r.M != 15 && r.M != 20 || r.N != 1899 && r.N != 4995 && r.N != 4492 {
			t.Errorf("row m=%d n=%d is not one of the paper's cells", r.M, r.N)
		}
		if !(r.Seconds > 0) || r.Steps < 1 || !(r.Paper > 0) {
			t.Errorf("row %+v: want positive seconds, steps and the paper's time", r)
		}
	}
	if seen["exact"] != 9 || seen["sample59"] != 9 {
		t.Errorf("methods %v, want 9 exact and 9 sample59", seen)
	}
}

// TestBenchRows runs the row-scaling table capped at m = 200.
func TestBenchRows(t *testing.T) {
	if testing.Short() {
		t.Skip("times the paper's table and six row-scaling cells")
	}
	code, out, stderr := cli(t, "", "bench", "--repeats", "1", "--rows", "--max-m", "200", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []struct {
		Table   string
		M, N    int
		Method  string
		Steps   int
		Seconds float64
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 18+6 {
		t.Fatalf("%d rows, want the paper's 18 and 6 row-scaling cells", len(rows))
	}
	for _, r := range rows[18:] {
		steps := r.Steps == 60
		switch r.Method {
		case "greedytl-auto":
			steps = r.N == 1000 && r.Steps >= 1
		case "greedytl-nway":
			steps = r.N == 1000 && r.Steps == 0 // selects no columns
		}
		if r.Table != "rows" || r.M != 200 || r.N != 1000 && r.N != 5000 || !steps || !(r.Seconds > 0) {
			t.Errorf("row %+v: want a row-scaling cell at m = 200 (60 steps, or greedytl-auto's or greedytl-nway's)", r)
		}
	}
}
