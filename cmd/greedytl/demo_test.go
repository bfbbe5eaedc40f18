package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoSmall runs the demo end to end on a small grid (one intent per
// domain, one split, two methods): sources, cells, table and report; a
// second run resumes and computes nothing new.
func TestDemoSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 150 sources (about 10 s on two cores)")
	}
	dir := t.TempDir()
	args := []string{"demo", "--out", dir, "--targets-per-domain", "1", "--splits", "1", "--methods", "greedytl,no-transfer", "-q"}
	code, out, stderr := cli(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"CLINC150", "greedytl", "no-transfer", "2+10", "10+10"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	// greedytl's row has three accuracies (no "–" for a missing cell).
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "greedytl" && strings.Contains(line, "–") {
			t.Errorf("greedytl row has a missing cell: %q", line)
		}
	}
	for _, f := range []string{"report/report.html", "report/report.md", "run/results.jsonl", "run/sources/sources.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("demo did not write %s: %v", f, err)
		}
	}
	before, _ := os.ReadFile(filepath.Join(dir, "run/results.jsonl"))
	if n := strings.Count(string(before), "\n"); n != 10*3*2 {
		t.Errorf("%d result lines, want 10 targets × 3 sizes × 2 methods = 60", n)
	}
	if code, out2, stderr := cli(t, "", args...); code != 0 || out2 != out {
		t.Fatalf("rerun: exit %d (%s), table changed:\n%s", code, stderr, out2)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "run/results.jsonl"))
	if string(after) != string(before) {
		t.Error("the rerun changed the results file: it should have resumed with every cell done")
	}
}
