package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
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
		Min     float64 `json:"min_seconds"`
		CPU     float64 `json:"cpu_seconds"`
		MinCPU  float64 `json:"min_cpu_seconds"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"min_seconds"`, `"cpu_seconds"`, `"min_cpu_seconds"`} {
		if !strings.Contains(out, key) {
			t.Errorf("bench --json has no %s field", key)
		}
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
		// One repeat: its time is both the median and the least. The
		// process's CPU time is read on every system the tests run on.
		if r.Min != r.Seconds || !(r.CPU > 0) || r.MinCPU != r.CPU {
			t.Errorf("row %+v: want the least seconds equal to the median, and positive CPU seconds", r)
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

// TestBenchFlagsOutOfRange: --repeats -1 failed with exit status 1 (a
// failed run, not bad usage) and a message of the timing package's field,
// --repeats 0 timed 5 fits a cell, a negative --max-n or --max-m lifted
// the cap (--scaling --max-n -1 times the 350 MB problem the cap avoids),
// and either without its table was ignored.
func TestBenchFlagsOutOfRange(t *testing.T) {
	for _, tc := range []struct{ flag, value, want string }{
		{"--repeats", "-1", "--repeats -1: want at least 1 fit per cell"},
		{"--repeats", "0", "--repeats 0: want at least 1 fit per cell"},
		{"--max-n", "-1", "--max-n -1: want a number of candidates, or 0 for no cap"},
		{"--max-m", "-1", "--max-m -1: want a number of examples, or 0 for no cap"},
		// Caps of the tables not asked for were dropped without a word.
		{"--max-n", "1000", "--max-n caps the table of --scaling: give --scaling"},
		{"--max-m", "200", "--max-m caps the table of --rows: give --rows"},
	} {
		args := []string{"bench", "--repeats", "1", tc.flag, tc.value}
		wantInputError(t, tc.want, args...)
	}
	// A cap below every size of its table timed the paper's table and
	// printed it without the table asked for, exit status 0.
	wantInputError(t, "--max-n 999 skips every N of --scaling, the smallest being 1000", "bench", "--scaling", "--max-n", "999")
	wantInputError(t, "--max-m 199 skips every m of --rows, the smallest being 200", "bench", "--rows", "--max-m", "199")
	// With several faults, the first of: --repeats, a negative cap
	// (--max-n before --max-m), a cap without its table, a cap below its
	// table (timing.Options.CheckCaps owns the caps' rule; this pins the
	// messages' precedence the CLI had when it tested the caps itself).
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--repeats", "0", "--max-n", "-1"}, "--repeats 0: want at least 1 fit per cell"},
		{[]string{"--max-n", "-1", "--max-m", "-1"}, "--max-n -1: want a number of candidates"},
		{[]string{"--scaling", "--max-n", "5", "--max-m", "-1"}, "--max-m -1: want a number of examples"},
		{[]string{"--max-n", "-1"}, "--max-n -1: want a number of candidates"},
		{[]string{"--max-n", "5"}, "--max-n caps the table of --scaling: give --scaling"},
		{[]string{"--scaling", "--max-n", "5", "--max-m", "5"}, "--max-m caps the table of --rows: give --rows"},
		{[]string{"--scaling", "--rows", "--max-n", "5", "--max-m", "5"}, "--max-n 5 skips every N of --scaling, the smallest being 1000"},
		{[]string{"--scaling", "--rows", "--max-n", "1000", "--max-m", "5"}, "--max-m 5 skips every m of --rows, the smallest being 200"},
	} {
		wantInputError(t, tc.want, append([]string{"bench"}, tc.args...)...)
	}
}

// TestBenchTableSaysWhatItMeasures: the table's seconds are wall-clock
// time (timing.Row.Seconds), which depends on the cores the parallel fits
// may use; its header said neither.
func TestBenchTableSaysWhatItMeasures(t *testing.T) {
	code, out, stderr := cli(t, "", "bench", "--repeats", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header, _, _ := strings.Cut(out, "\n")
	for _, want := range []string{"wall-clock seconds", "CPU seconds", "median and least", fmt.Sprintf("GOMAXPROCS %d", runtime.GOMAXPROCS(0))} {
		if !strings.Contains(header, want) {
			t.Errorf("header %q does not say %q", header, want)
		}
	}
}

// TestBenchJSONFieldsDocumented: every field of bench --json's rows is
// named in its help; "dataset" was not.
func TestBenchJSONFieldsDocumented(t *testing.T) {
	code, out, stderr := cli(t, "", "bench", "--repeats", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	help := newBenchCmd(&streams{}).Long
	for key := range rows[0] {
		if !strings.Contains(help, `"`+key+`"`) {
			t.Errorf("bench --json field %q is not in its help", key)
		}
	}
}
