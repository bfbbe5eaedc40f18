package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLabelsHeaderYesAppliesOrRefused: --labels-header yes, which a .npy
// label array (no header line) ignored silently, is refused (exit 2,
// naming the flag and the arrays) when every label file the command reads
// is an array — fit's training labels, fit's training and oracle labels
// both, predict's labels of a binary or a multi-class model, by name or
// from standard input — and applies where one of them is text: fit with
// a text training file under a header beside a .npy array of oracle
// labels, or the reverse, reads both. no and auto, which an array
// satisfies, are accepted.
func TestLabelsHeaderYesAppliesOrRefused(t *testing.T) {
	d := newToy(t)
	lab, err := os.ReadFile(d.ytext)
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Fields(string(lab))
	y := make([]float64, len(names))  // cat 1, dog -1
	y3 := make([]float64, len(names)) // three classes: 0, 1, 2
	signed := make([]string, len(names))
	for i, l := range names {
		y[i] = map[string]float64{"cat": 1, "dog": -1}[l]
		y3[i] = float64(i % 3)
		signed[i] = map[string]string{"cat": "1", "dog": "-1"}[l]
	}
	ynpy := writeNPY(t, d.dir, "y.npy", mat.NewDense(len(y), 1, y))
	ynpy2 := writeNPY(t, d.dir, "y2.npy", mat.NewDense(len(y), 1, y))
	y3npy := writeNPY(t, d.dir, "y3.npy", mat.NewDense(len(y3), 1, y3))
	// A header of the values 1 and -1 that yes drops (auto may not).
	headed := writeText(t, d.dir, "headed.txt", "label\n"+strings.Join(signed, "\n")+"\n")
	npyBytes, err := os.ReadFile(ynpy)
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(d.dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--features", d.X, "--source-scores", d.H, "--labels", ynpy, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	multi := filepath.Join(d.dir, "m3.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--features", d.X, "--source-scores", d.H, "--labels", y3npy, "--out", multi); code != 0 {
		t.Fatalf("fit (three classes): exit %d: %s", code, stderr)
	}
	fit := []string{"fit", "--method", "no-transfer", "--features", d.X, "--source-scores", d.H, "--out", filepath.Join(d.dir, "f.json")}
	oracle := func(labels, oracleLabels string) []string {
		return []string{"fit", "--method", "best-source", "--features", d.X, "--source-scores", d.H, "--labels", labels, "--labels-header", "yes",
			"--oracle-features", d.X, "--oracle-source-scores", d.H, "--oracle-labels", oracleLabels, "--out", filepath.Join(d.dir, "o.json")}
	}
	refused := func(names string, one bool) string {
		if one {
			return "greedytl: --labels-header yes: " + names + " is a .npy array, which has no header line: leave --labels-header out\n"
		}
		return "greedytl: --labels-header yes: " + names + " are .npy arrays, which have no header line: leave --labels-header out\n"
	}
	for _, tc := range []struct {
		what, stdin string
		args        []string
		stderr      string // "": accepted
	}{
		{"fit yes", "", append(slices.Clone(fit), "--labels", ynpy, "--labels-header", "yes"), refused(ynpy, true)},
		{"fit yes, stdin", string(npyBytes), append(slices.Clone(fit), "--labels", "-", "--labels-header", "yes"), refused("<stdin>", true)},
		{"fit no", "", append(slices.Clone(fit), "--labels", ynpy, "--labels-header", "no"), ""},
		{"fit auto", "", append(slices.Clone(fit), "--labels", ynpy, "--labels-header", "auto"), ""},
		{"oracle: both arrays", "", oracle(ynpy, ynpy2), refused(ynpy+" and "+ynpy2, false)},
		{"oracle: text training labels", "", oracle(headed, ynpy), ""},
		{"oracle: text oracle labels", "", oracle(ynpy, headed), ""},
		{"predict yes", "", []string{"predict", "--model", model, "--features", d.X, "--source-scores", d.H, "--labels", ynpy, "--labels-header", "yes"}, refused(ynpy, true)},
		{"predict no", "", []string{"predict", "--model", model, "--features", d.X, "--source-scores", d.H, "--labels", ynpy, "--labels-header", "no"}, ""},
		{"predict multi yes", "", []string{"predict", "--model", multi, "--features", d.X, "--source-scores", d.H, "--labels", y3npy, "--labels-header", "yes"}, refused(y3npy, true)},
	} {
		code, _, stderr := cli(t, tc.stdin, tc.args...)
		if tc.stderr == "" && code != 0 {
			t.Errorf("%s: exit %d (%s), want 0", tc.what, code, stderr)
		}
		if tc.stderr != "" && (code != 2 || stderr != tc.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want 2, %q", tc.what, code, stderr, tc.stderr)
		}
	}
}
