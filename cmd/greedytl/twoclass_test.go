package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// twoClassFiles writes a feature matrix whose first column separates the
// labels -1 (rows 0-5) and 1 (rows 6-11) and a source-score column of
// noise, and returns their paths and the labels' path.
func twoClassFiles(t *testing.T, dir string) (x, h, y string) {
	t.Helper()
	X := mat.NewDense(12, 2, nil)
	H := mat.NewDense(12, 1, nil)
	var labels strings.Builder
	for i := 0; i < 12; i++ {
		c := -1.0
		if i >= 6 {
			c = 1
		}
		X.Set(i, 0, c*(1+0.1*float64(i%6)))
		X.Set(i, 1, float64((i*7)%5)-2)
		H.Set(i, 0, float64((i*3)%4)-1.5)
		labels.WriteString(strconv.Itoa(int(c)) + "\n")
	}
	return writeNPY(t, dir, "X.npy", X), writeNPY(t, dir, "H.npy", H), writeText(t, dir, "y.txt", labels.String())
}

// predictScores runs predict on model and returns its scores, one a row.
func predictScores(t *testing.T, model, x, h string) []float64 {
	t.Helper()
	code, stdout, stderr := cli(t, "", "predict", model, "--features", x, "--source-scores", h)
	if code != 0 {
		t.Fatalf("predict %s: exit %d: %s", model, code, stderr)
	}
	var f []float64
	for _, line := range strings.Fields(stdout) {
		v, err := strconv.ParseFloat(line, 64)
		if err != nil {
			t.Fatalf("predict %s: %q is not a score (output %.200q)", model, line, stdout)
		}
		f = append(f, v)
	}
	return f
}

// TestTwoLabelNativeFitIsBinary: a native multi-class method fitted on two
// labels makes a binary model (issue 15: "labels with two values stay
// binary"): predict prints one score a row whose sign is the positive
// class's (the labels' 1, as a binary fit chooses it, or the class
// --positive names, whose scores are the others' negated bit for bit), not
// class names; predict --labels evaluates it and checks --positive as for
// a binary model; --scores is refused; inspect names the positive class;
// two names neither of which is positive by itself need --positive, as a
// binary fit does. A two-class file written before (no "labels") keeps its
// old meaning: predict prints class names.
func TestTwoLabelNativeFitIsBinary(t *testing.T) {
	for _, m := range []string{"nearest-mean", "multinomial-logistic", "greedytl-nway"} {
		t.Run(m, func(t *testing.T) {
			dir := t.TempDir()
			x, h, y := twoClassFiles(t, dir)
			fit := func(out string, extra ...string) {
				t.Helper()
				args := append([]string{"fit", "--method", m, "--features", x, "--source-scores", h, "--labels", y, "--seed", "1", "--out", out}, extra...)
				if code, _, stderr := cli(t, "", args...); code != 0 {
					t.Fatalf("fit %v: exit %d: %s", extra, code, stderr)
				} else if !strings.Contains(stderr, "positive class") {
					t.Errorf("fit %v: stderr %q does not name the positive class", extra, stderr)
				}
			}
			plain, neg := filepath.Join(dir, "m.json"), filepath.Join(dir, "neg.json")
			fit(plain)
			fit(neg, "--positive", "-1")
			f, g := predictScores(t, plain, x, h), predictScores(t, neg, x, h)
			if len(f) != 12 || len(g) != 12 {
				t.Fatalf("predict: %d and %d scores for 12 rows", len(f), len(g))
			}
			for i := range f {
				if (f[i] > 0) != (i >= 6) {
					t.Errorf("row %d (label %d): score %v, whose sign is not the class's (positive: 1)", i, map[bool]int{true: 1, false: -1}[i >= 6], f[i])
				}
				if g[i] != -f[i] {
					t.Errorf("row %d: --positive -1 scores %v, want %v negated", i, g[i], f[i])
				}
			}
			if code, stdout, stderr := cli(t, "", "predict", plain, "--features", x, "--source-scores", h, "--labels", y, "--out", filepath.Join(dir, "p.txt")); code != 0 || !strings.Contains(stdout, "balanced accuracy: 1.0000 (12 examples)") {
				t.Errorf("predict --labels: exit %d, stdout %q, stderr %q; want the binary evaluation", code, stdout, stderr)
			}
			if code, _, stderr := cli(t, "", "predict", plain, "--features", x, "--source-scores", h, "--labels", y, "--positive", "-1"); code != 2 || !strings.Contains(stderr, `fitted with "1" as the positive label`) {
				t.Errorf("predict --labels --positive -1: exit %d, stderr %q; want 2 and the recorded positive label", code, stderr)
			}
			if code, _, stderr := cli(t, "", "predict", plain, "--features", x, "--source-scores", h, "--scores"); code != 2 || !strings.Contains(stderr, "--scores") {
				t.Errorf("predict --scores: exit %d, stderr %q; want 2", code, stderr)
			}
			if code, stdout, stderr := cli(t, "", "inspect", neg); code != 0 || !strings.Contains(stdout, `positive class: "-1"`) {
				t.Errorf("inspect: exit %d, stdout %.300q, stderr %q; want the positive class -1", code, stdout, stderr)
			}
			var sum struct{ Positive string }
			if code, stdout, _ := cli(t, "", "inspect", "--json", plain); code != 0 || json.Unmarshal([]byte(stdout), &sum) != nil || sum.Positive != "1" {
				t.Errorf("inspect --json: exit %d, %.300q; want \"positive\": \"1\"", code, stdout)
			}
			// The file as written before: no "labels", a two-class model
			// whose predict prints class names.
			b, err := os.ReadFile(plain)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			if l, ok := doc["labels"].(map[string]any); !ok || l["positive"] != "1" {
				t.Fatalf(`model file "labels" %v, want positive "1"`, doc["labels"])
			}
			delete(doc, "labels")
			old, _ := json.Marshal(doc)
			oldPath := writeText(t, dir, "old.json", string(old))
			code, stdout, stderr := cli(t, "", "predict", oldPath, "--features", x, "--source-scores", h)
			if want := "-1\n-1\n-1\n-1\n-1\n-1\n1\n1\n1\n1\n1\n1\n"; code != 0 || stdout != want {
				t.Errorf("predict of a file without \"labels\": exit %d, %q (%s); want the class names %q", code, stdout, stderr, want)
			}
		})
	}
	dir := t.TempDir()
	x, h, _ := twoClassFiles(t, dir)
	names := writeText(t, dir, "names.txt", strings.Repeat("owl\n", 6)+strings.Repeat("cat\n", 6))
	out := filepath.Join(dir, "m.json")
	code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--source-scores", h, "--labels", names, "--out", out)
	if want := "(--positive owl or --positive cat)"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("fit of owl/cat: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--source-scores", h, "--labels", names, "--positive", "cat", "--out", out); code != 0 {
		t.Fatalf("fit --positive cat: exit %d: %s", code, stderr)
	}
	for i, v := range predictScores(t, out, x, h) {
		if (v > 0) != (i >= 6) {
			t.Errorf("owl/cat, --positive cat: row %d scores %v", i, v)
		}
	}
}
