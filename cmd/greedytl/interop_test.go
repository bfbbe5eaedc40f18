package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
)

// svmlightTestScript writes, from heart_scale, a test file that uses none
// of feature 13 (as a test split may not), and what scikit-learn's
// load_svmlight_file makes of it as .npy: without n_features (12 columns)
// and with n_features=13.
const svmlightTestScript = `import sys, os, re, numpy as np
from sklearn.datasets import load_svmlight_file
src, d = sys.argv[1], sys.argv[2]
with open(src) as f, open(os.path.join(d, 'test.svm'), 'w') as g:
    for line in f:
        g.write(re.sub(r' 13:\S+', '', line.rstrip()) + '\n')
X, _ = load_svmlight_file(os.path.join(d, 'test.svm'), zero_based=False)
np.save(os.path.join(d, 'X12.npy'), X.toarray())
X, _ = load_svmlight_file(os.path.join(d, 'test.svm'), zero_based=False, n_features=13)
np.save(os.path.join(d, 'X13.npy'), X.toarray())
`

// TestPredictSVMLightTestSplit: a test split in svmlight that reaches no
// row's last index, converted by scikit-learn's load_svmlight_file as the
// README says, has fewer columns than the model's features; predict
// refuses it naming load_svmlight_file's n_features (it named only the
// counts), and the matrix made with it gives, on every row, the class
// liblinear-predict gives from the svmlight file itself.
func TestPredictSVMLightTestSplit(t *testing.T) {
	python := peertest.PythonWith(t, "numpy", "sklearn")
	predict := peertest.Tool(t, "liblinear-predict")
	peertest.File(t, heartScale)
	dir := t.TempDir()
	if out, err := exec.Command(python, "-c", svmlightTestScript, heartScale, dir).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", python, err, out)
	}
	model := filepath.Join(dir, "m.model")
	if code, _, stderr := cli(t, "", "train", "-q", "-s", "2", "--data", heartScale, "--out", model); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	x12 := filepath.Join(dir, "X12.npy")
	code, _, stderr := cli(t, "", "predict", model, "--features", x12)
	want := "greedytl: " + x12 + " has 12 columns but the model " + model + " needs 13 features (if converted from svmlight, whose rows need not reach the last index: load_svmlight_file(path, n_features=13, zero_based=False))\n"
	if code != 2 || stderr != want {
		t.Errorf("predict X12: exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
	scores, _ := predictLines(t, 270, model, "--features", filepath.Join(dir, "X13.npy"))
	pred := filepath.Join(dir, "pred.txt")
	runTool(t, predict, filepath.Join(dir, "test.svm"), model, pred)
	b, err := os.ReadFile(pred)
	if err != nil {
		t.Fatal(err)
	}
	labels := strings.Fields(string(b))
	if head, _ := os.ReadFile(model); !regexp.MustCompile(`(?m)^label 1 -1$`).Match(head) || len(labels) != len(scores) {
		t.Fatalf("model %s, %d predictions", head[:60], len(labels))
	}
	for i, s := range scores {
		if got := map[bool]string{true: "1", false: "-1"}[!strings.HasPrefix(s, "-") && s != "0"]; got != labels[i] {
			t.Errorf("row %d: score %s, liblinear-predict %s", i, s, labels[i])
		}
	}
}
