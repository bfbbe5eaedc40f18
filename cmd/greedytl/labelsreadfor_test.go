package main

import (
	"strings"
	"testing"
)

// TestPredictLabelsFirstClassOnce: --labels whose first line is a class of
// the model found on no other line, above two classes of two labels or
// more (predict's own output "fish cat cat dog dog", a test file of a
// one-example class), reads as labels, for a multi-class model and a
// binary one recording its classes: the first line was read as a header
// and predict refused the file (14 labels for 15 rows). fit, which knows
// no classes, reads it by the count of rows (one label a row with it: a
// label) and notes so, naming --labels-header yes (TestLabelsFirstLineByRows).
func TestPredictLabelsFirstClassOnce(t *testing.T) {
	dir, model, x, h, _, xt, ht, _ := nearestMeanFiles(t)
	bin := dir + "/b.json"
	y := writeText(t, dir, "yb.txt", strings.Repeat("ant\nbee\ncow\n", 4))
	if code, _, stderr := cli(t, "", "fit", "--positive", "ant", "--features", x, "--source-scores", h, "--labels", y, "--out", bin); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	once := writeText(t, dir, "once.txt", "cow\n"+strings.Repeat("ant\nbee\n", 7))
	for _, tc := range []struct{ model, labels, want string }{
		{model, once, "(15 examples, 3 classes)"},
		{bin, once, "(15 examples)"},
	} {
		code, _, stderr := cli(t, "", "predict", "--model", tc.model, "--features", xt, "--source-scores", ht, "--labels", tc.labels)
		if code != 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("predict %s --labels %s: exit %d, %q; want %q", tc.model, tc.labels, code, stderr, tc.want)
		}
	}
	code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", xt, "--source-scores", ht, "--labels", once, "--out", dir+"/f.json")
	if want := `once.txt: its first line, "cow", was read as a label, not a header: the file has one label per row of the inputs (15 rows) with it; --labels-header yes reads it as a header`; code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("fit --labels %s: exit %d, %q; want 0, %q", once, code, stderr, want)
	}
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--labels-header", "no", "--features", xt, "--source-scores", ht, "--labels", once, "--out", dir+"/f.json"); code != 0 {
		t.Errorf("fit --labels-header no --labels %s: exit %d, %q", once, code, stderr)
	}
}
