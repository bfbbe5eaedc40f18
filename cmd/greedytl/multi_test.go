package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/method"
)

// multiFiles writes a 3-class sample (class names in labels.txt, 4 a class
// to train on and 5 to test on) whose source j favours class j, and returns
// the paths: X, H, labels, Xtest, Htest, test labels.
func multiFiles(t *testing.T, dir string) (x, h, y, xt, ht, yt string) {
	return classFiles(t, dir, [3]string{"ant", "bee", "cow"})
}

// classFiles is multiFiles with the label files' lines of the three
// classes given: names, or names quoted.
func classFiles(t *testing.T, dir string, names [3]string) (x, h, y, xt, ht, yt string) {
	rng := rand.New(rand.NewPCG(4, 4))
	x, h, y = classSample(t, rng, dir, names[:], 3, 12, "")
	xt, ht, yt = classSample(t, rng, dir, names[:], 3, 15, "test")
	return
}

// classSample writes m examples of the first k of the classes names (the
// label file's lines), in turn, whose source j (one per class) favours
// class j, and returns the paths of X, H and the labels.
func classSample(t *testing.T, rng *rand.Rand, dir string, names []string, k, m int, suffix string) (x, h, y string) {
	X, H := mat.NewDense(m, 4, nil), mat.NewDense(m, len(names), nil)
	var lab strings.Builder
	for i := range m {
		c := i % k
		for j := range 4 {
			X.Set(i, j, rng.NormFloat64())
		}
		for j := range len(names) {
			v := 0.5 * rng.NormFloat64()
			if j == c {
				v += 2
			}
			H.Set(i, j, v)
		}
		lab.WriteString(names[c] + "\n")
	}
	return writeNPY(t, dir, "X"+suffix+".npy", X), writeNPY(t, dir, "H"+suffix+".npy", H), writeText(t, dir, "y"+suffix+".txt", lab.String())
}

// TestFitPredictMulti runs a three-class label file through fit, inspect
// and predict: the default method is the recommended multi-class one, the
// file names the classes, predict prints class names (or a score matrix
// with a header) and reports the accuracies and the confusion matrix.
func TestFitPredictMulti(t *testing.T) {
	dir := t.TempDir()
	x, h, y, xt, ht, yt := multiFiles(t, dir)
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--features", x, "--source-scores", h, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	code, out, stderr := cli(t, "", "inspect", "--json", model)
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	var sum struct {
		Method   string   `json:"method"`
		Classes  []string `json:"classes"`
		PerClass []struct {
			Class string `json:"class"`
		} `json:"per_class"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Method != "greedytl-nway" || strings.Join(sum.Classes, ",") != "ant,bee,cow" || len(sum.PerClass) != 3 {
		t.Errorf("inspect: method %q, classes %v, %d classes' columns; want greedytl-nway, ant,bee,cow, 3", sum.Method, sum.Classes, len(sum.PerClass))
	}
	lines, stderr := predictLines(t, 15, "--model", model, "--features", xt, "--source-scores", ht, "--labels", yt)
	for _, l := range lines {
		if l != "ant" && l != "bee" && l != "cow" {
			t.Fatalf("predict printed %q, not a class name", l)
		}
	}
	if !strings.Contains(stderr, "accuracy:") || !strings.Contains(stderr, "balanced accuracy:") {
		t.Errorf("predict --labels: stderr %q, want the accuracies", stderr)
	}
	code, out, _ = cli(t, "", "predict", "--model", model, "--features", xt, "--source-scores", ht, "--scores")
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(rows) != 16 || rows[0] != "ant\tbee\tcow" || len(strings.Split(rows[1], "\t")) != 3 {
		t.Errorf("predict --scores: exit %d, %d lines, header %q", code, len(rows), rows[0])
	}
	code, _, stderr = cli(t, "", "predict", "--model", model, "--features", xt, "--source-scores", ht, "--labels", yt, "--json", "--out", filepath.Join(dir, "p.txt"))
	if code != 0 {
		t.Fatalf("predict --json: exit %d: %s", code, stderr)
	}
	// With --out, the report goes to standard output.
	_, out, _ = cli(t, "", "predict", "--model", model, "--features", xt, "--source-scores", ht, "--labels", yt, "--json", "--out", filepath.Join(dir, "p.txt"))
	var ev struct {
		Accuracy  float64 `json:"accuracy"`
		Confusion [][]int `json:"confusion"`
	}
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatalf("predict --json: %v in %q", err, out)
	}
	total, diag := 0, 0
	for i, r := range ev.Confusion {
		for j, v := range r {
			total += v
			if i == j {
				diag += v
			}
		}
	}
	if total != 15 || float64(diag)/15 != ev.Accuracy {
		t.Errorf("confusion matrix %v does not give the accuracy %v", ev.Confusion, ev.Accuracy)
	}
	// Without --out, as its help says, the classes go to standard output
	// and the report to standard error.
	_, out, stderr = cli(t, "", "predict", "--model", model, "--features", xt, "--source-scores", ht, "--labels", yt, "--json")
	if rows := strings.Split(strings.TrimSpace(out), "\n"); len(rows) != 15 || json.Unmarshal([]byte(stderr), &ev) != nil {
		t.Errorf("predict --json without --out: %d lines of classes on standard output (want 15), standard error %q (want the JSON report)", len(rows), stderr)
	}
	// --method: a native method and a binary one (one against the rest).
	for _, m := range []string{"nearest-mean", "no-transfer"} {
		if code, _, stderr := cli(t, "", "fit", "--method", m, "--features", x, "--source-scores", h, "--labels", y, "--out", filepath.Join(dir, m+".json")); code != 0 {
			t.Errorf("fit --method %s: exit %d: %s", m, code, stderr)
		}
	}
	// --positive: one class against the rest, a binary model recording its labels.
	bin := filepath.Join(dir, "bee.json")
	if code, _, stderr := cli(t, "", "fit", "--positive", "bee", "--features", x, "--source-scores", h, "--labels", y, "--out", bin); code != 0 {
		t.Fatalf("fit --positive: exit %d: %s", code, stderr)
	}
	if code, _, stderr := cli(t, "", "predict", "--model", bin, "--features", xt, "--source-scores", ht, "--labels", yt); code != 0 || !strings.Contains(stderr, "balanced accuracy") {
		t.Errorf("predict a one-against-the-rest model: exit %d: %s", code, stderr)
	}
}

// nearestMeanFiles writes multiFiles' sample into a temporary directory
// dir and fits nearest-mean on it into model.
func nearestMeanFiles(t *testing.T) (dir, model, x, h, y, xt, ht, yt string) {
	dir = t.TempDir()
	x, h, y, xt, ht, yt = multiFiles(t, dir)
	model = filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--source-scores", h, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	return
}

// TestPredictMultiBadLabels: labels that are not the model's classes, a
// wrong number of labels, and test labels unknown to a binary model that
// records its label names are input errors (exit 2) naming the file.
func TestPredictMultiBadLabels(t *testing.T) {
	dir, model, x, h, y, xt, ht, _ := nearestMeanFiles(t)
	bad := writeText(t, dir, "bad.txt", strings.Repeat("ant\nbee\nyak\n", 5))
	short := writeText(t, dir, "short.txt", "ant\nbee\ncow\nant\n")
	nums := writeText(t, dir, "nums.txt", strings.Repeat("1\n2\n3\n", 5))
	bin := filepath.Join(dir, "b.json")
	if code, _, stderr := cli(t, "", "fit", "--positive", "ant", "--features", x, "--source-scores", h, "--labels", y, "--out", bin); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		model, labels, want string
	}{
		{model, bad, `bad.txt:3: label "yak" is not one of the model's classes`},
		{model, short, "short.txt has 4 labels but the inputs have 15 rows"},
		{bin, bad, `bad.txt:3: label "yak" is not one of the labels`},
		// Numbers against classes that are names: compared as written.
		{model, nums, `nums.txt:1: label "1" is not one of the model's classes ("ant", "bee", "cow") (the model's classes are names, not all numbers, so labels are compared as written)`},
		{bin, nums, `(the model's classes are names, not all numbers, so labels are compared as written)`},
	} {
		code, _, stderr := cli(t, "", "predict", "--model", tc.model, "--features", xt, "--source-scores", ht, "--labels", tc.labels)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("predict --model %s --labels %s: exit %d, stderr %q; want 2 and %q", filepath.Base(tc.model), filepath.Base(tc.labels), code, stderr, tc.want)
		}
	}
}

// TestUnknownLabelFirstInFile: of several labels that are not the model's
// (or, for the oracle, the training) classes, the error names the one on
// the earliest line — "yak" on line 1 — not the first in sorted order
// ("emu", line 14), so that the line it names is the first to mend.
func TestUnknownLabelFirstInFile(t *testing.T) {
	dir, model, x, h, y, xt, ht, _ := nearestMeanFiles(t)
	bad := writeText(t, dir, "bad.txt", "yak\n"+strings.Repeat("ant\nbee\ncow\n", 4)+"emu\nant\n")
	bin := filepath.Join(dir, "b.json")
	if code, _, stderr := cli(t, "", "fit", "--positive", "ant", "--features", x, "--source-scores", h, "--labels", y, "--out", bin); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	const want = `bad.txt:1: label "yak" is not one of the `
	wantInputError(t, want+"model's classes", "predict", "--model", model, "--features", xt, "--source-scores", ht, "--labels", bad)
	wantInputError(t, want+"labels", "predict", "--model", bin, "--features", xt, "--source-scores", ht, "--labels", bad)
	wantInputError(t, want+"training labels", "fit", "--method", "best-source", "--features", x, "--source-scores", h, "--labels", y,
		"--oracle-features", xt, "--oracle-source-scores", ht, "--oracle-labels", bad, "--out", filepath.Join(dir, "o.json"))
}

// TestLabelsHeader: a label file whose first class has one example above
// two classes of two reads as a header above two classes by default
// (auto), as three classes with --labels-header no, and as two with yes —
// the message on the labels' count then says that the first line was read
// as a header; a bad value is an input error.
func TestLabelsHeader(t *testing.T) {
	dir := t.TempDir()
	X := mat.NewDense(5, 2, []float64{0, 1, 1, 0, 1, 1, 2, 0, 0, 2})
	x := writeNPY(t, dir, "X.npy", X)
	y := writeText(t, dir, "y.txt", "owl\ncat\ncat\ndog\ndog\n")
	blank := writeText(t, dir, "blank.txt", "\u00a0\ncat\ncat\ndog\ndog\n")
	for _, tc := range []struct {
		labels  string
		header  string
		code    int
		classes string // the model's classes; "" for a binary model or none
		stderr  string
	}{
		// auto: the rows' count says "owl" is a label (TestLabelsFirstLineByRows).
		{y, "auto", 0, "cat,dog,owl", "greedytl: note: " + y + `: its first line, "owl", was read as a label, not a header: the file has one label per row of the inputs (5 rows) with it; --labels-header yes reads it as a header` + "\nnearest-mean model of 3 classes written to " + filepath.Join(dir, "auto.json") + "\n"},
		{y, "yes", 2, "", "greedytl: " + y + ` has 4 labels but the inputs have 5 rows (its first line, "owl", was read as a header: --labels-header no reads it as a label)` + "\n"},
		{y, "no", 0, "cat,dog,owl", ""},
		{y, "maybe", 2, "", "greedytl: --labels-header: \"maybe\": want auto, yes or no\n"},
		// A blank first line (a Series named "\u00a0"): a header to yes,
		// which was refused at line 1 as a label.
		{blank, "yes", 2, "", "greedytl: " + blank + ` has 4 labels but the inputs have 5 rows (its first line, "\u00a0", was read as a header: a blank line holds no label)` + "\n"},
	} {
		model := filepath.Join(dir, tc.header+".json")
		code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--labels", tc.labels, "--labels-header", tc.header, "--out", model)
		if code != tc.code || (tc.stderr != "" && stderr != tc.stderr) {
			t.Errorf("--labels-header %s: exit %d, stderr %q; want %d, %q", tc.header, code, stderr, tc.code, tc.stderr)
			continue
		}
		if tc.classes == "" {
			continue
		}
		code, out, stderr := cli(t, "", "inspect", "--json", model)
		var sum struct {
			Classes []string `json:"classes"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &sum) != nil || strings.Join(sum.Classes, ",") != tc.classes {
			t.Errorf("--labels-header %s: inspect exit %d (%s): classes %v, want %s", tc.header, code, stderr, sum.Classes, tc.classes)
		}
	}
}

// TestLabelsHeaderHint: a header above three or more classes of names
// ("species") is a value seen once, which auto cannot tell from a class of
// one example; where the rows' count cannot tell either (a line that holds
// no label, here a comment, makes it no guide: TestLabelsFirstLineByRows)
// the file has one label more than the rows: the message
// says that --labels-header yes reads it as a header, and with it the fit
// succeeds. A file of one label too many whose first value is a class seen
// again gets no such hint.
func TestLabelsHeaderHint(t *testing.T) {
	dir := t.TempDir()
	X := mat.NewDense(5, 2, []float64{0, 1, 1, 0, 1, 1, 2, 0, 0, 2})
	x := writeNPY(t, dir, "X.npy", X)
	y := writeText(t, dir, "y.txt", "species\ncat\ncat\n# more\ndog\ndog\nowl\n")
	code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--labels", y, "--out", filepath.Join(dir, "m.json"))
	want := "greedytl: " + y + ` has 6 labels but the inputs have 5 rows (if its first line, "species", is a header: --labels-header yes)` + "\n"
	if code != 2 || stderr != want {
		t.Errorf("fit: exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--labels", y, "--labels-header", "yes", "--out", filepath.Join(dir, "m.json")); code != 0 {
		t.Errorf("fit --labels-header yes: exit %d: %s", code, stderr)
	}
	extra := writeText(t, dir, "extra.txt", "cat\ncat\ndog\ndog\nowl\nowl\n")
	code, _, stderr = cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--labels", extra, "--out", filepath.Join(dir, "m.json"))
	want = "greedytl: " + extra + " has 6 labels but the inputs have 5 rows\n"
	if code != 2 || stderr != want {
		t.Errorf("fit: exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
}

// TestLabelsPandasSeriesHeader: pandas' Series.to_csv(path, index=False)
// writes "0" above an unnamed Series; above labels 0 and 1, where "0" is a
// class too, auto reads it as a label, and the message about the count
// said nothing of a header (fit), or predict called it a label the model
// was not fitted on. Both now name --labels-header yes, which reads it,
// where the count of rows does not read it as a header;
// labels 0/1 against a ±1 model, and a .npy file of one label too many,
// which has no header, get no hint.
func TestLabelsPandasSeriesHeader(t *testing.T) {
	dir := t.TempDir()
	x := writeNPY(t, dir, "X.npy", mat.NewDense(4, 1, []float64{0, 1, 2, 3}))
	y01 := writeText(t, dir, "y01.csv", "0\n0\n1\n0\n1\n")
	model := filepath.Join(dir, "m.json")
	ypm := writeText(t, dir, "ypm.csv", "-1\n-1\n1\n1\n")
	if code, _, stderr := cli(t, "", "fit", "--method", "greedytl", "--features", x, "--labels", ypm, "--out", model); code != 0 {
		t.Fatalf("fit ±1: exit %d: %s", code, stderr)
	}
	ypmHeader := writeText(t, dir, "ypm0.csv", "0\n-1\n-1\n1\n1\n")
	y01b := writeText(t, dir, "y01b.csv", "0\n0\n1\n1\n")
	ynpy := writeNPY(t, dir, "y.npy", mat.NewDense(5, 1, []float64{2, -1, -1, 1, 1}))
	notFitted := ` is not one of the labels ` + model + ` was fitted on (positive "1", negative "-1")`
	// fit reads the "0" above 4 labels for 4 rows as the header it is, by
	// the count (TestLabelsFirstLineByRows); with a line that holds no
	// label the count is no guide, and the message names the flag.
	y01gap := writeText(t, dir, "y01gap.csv", "0\n0\n1\n# more\n0\n1\n")
	checkStderr(t, y01gap+` has 5 labels but the inputs have 4 rows (if its first line, "0", is a header, as pandas' to_csv writes above an unnamed Series: --labels-header yes)`,
		"fit", "--method", "nearest-mean", "--features", x, "--labels", y01gap, "--out", filepath.Join(dir, "m01.json"))
	// predict reads the "0" found once above 4 labels of ±1 for 4 rows as
	// a header by the count too, as fit does (it called it a label the
	// model was not fitted on: TestPredictLabelsFirstLineByRows).
	if code, _, stderr := cli(t, "", "predict", model, "--features", x, "--labels", ypmHeader); code != 0 || !strings.Contains(stderr, `its first line, "0", was read as a header, not a label`) || !strings.Contains(stderr, "(4 examples") {
		t.Errorf("predict %s: exit %d, stderr %q; want 0, the first line read as a header", ypmHeader, code, stderr)
	}
	checkStderr(t, y01b+`:1: label "0"`+notFitted, "predict", model, "--features", x, "--labels", y01b)
	checkStderr(t, ynpy+" has 5 labels but the inputs have 4 rows", "fit", "--method", "nearest-mean", "--features", x, "--labels", ynpy, "--out", model)
	for _, args := range [][]string{
		{"fit", "--method", "nearest-mean", "--features", x, "--labels", y01, "--labels-header", "yes", "--out", filepath.Join(dir, "m01.json")},
		{"predict", model, "--features", x, "--labels", ypmHeader, "--labels-header", "yes"},
	} {
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Errorf("%q: exit %d: %s", args, code, stderr)
		}
	}
	// --labels-header's help says so: auto drops a name seen once above
	// two classes, not a number (it said "a value").
	for _, cmd := range []string{"fit", "predict"} {
		_, help, _ := cli(t, "", cmd, "--help")
		if want := "a name seen once above two classes seen at least twice each; a number is a label, as the 0 pandas writes above an unnamed Series: yes drops it"; !strings.Contains(help, want) {
			t.Errorf("%s --help: --labels-header does not say %q", cmd, want)
		}
	}
}

// checkStderr runs the command line args and checks that it fails with
// exitInput and the message "greedytl: " + want, exactly.
func checkStderr(t *testing.T, want string, args ...string) {
	t.Helper()
	code, _, stderr := cli(t, "", args...)
	if want = "greedytl: " + want + "\n"; code != exitInput || stderr != want {
		t.Errorf("%q: exit %d, stderr %q; want %d, %q", args, code, stderr, exitInput, want)
	}
}

// TestLabelsBlankLine: pandas' to_csv writes a missing label (NaN) as an
// empty line, which holds no label, so the file has one label fewer than
// the rows: the count error names the blank line, where it said only
// "has 3 labels but the inputs have 4 rows"; so does a class "#tag"
// written unquoted (np.savetxt), which reads as a comment. So are such
// lines before the first label or after the last (pandas' first or last
// label missing, np.savetxt of sorted labels "#a" and "b"), which the
// message did not name.
func TestLabelsBlankLine(t *testing.T) {
	dir := t.TempDir()
	x := writeNPY(t, dir, "X.npy", mat.NewDense(4, 1, []float64{0, 1, 2, 3}))
	out := filepath.Join(dir, "m.json")
	y := writeText(t, dir, "y.csv", "1\n-1\n\n-1\n")
	checkStderr(t, y+" has 3 labels but the inputs have 4 rows (line 3, between labels, is blank and holds none: a missing label, as pandas' to_csv writes NaN? give only the examples that have a label)",
		"fit", "--method", "greedytl", "--features", x, "--labels", y, "--out", out)
	tag := writeText(t, dir, "tag.txt", "dog\n#tag\ncat\ncat\n")
	checkStderr(t, tag+` has 3 labels but the inputs have 4 rows (line 2, between labels, starts with '#' and is read as a comment: a label that starts with '#' is written quoted, "#tag")`,
		"fit", "--method", "nearest-mean", "--features", x, "--labels", tag, "--out", out)
	short := writeText(t, dir, "short.csv", "1\n-1\n-1\n\n\n")
	checkStderr(t, short+" has 3 labels but the inputs have 4 rows (line 4, after the last label, is blank and holds none: a missing label, as pandas' to_csv writes NaN? give only the examples that have a label)",
		"fit", "--method", "greedytl", "--features", x, "--labels", short, "--out", out)
	last := writeText(t, dir, "last.csv", "y\n1\n-1\n-1\n\n")
	checkStderr(t, last+` has 3 labels but the inputs have 4 rows (its first line, "y", was read as a header: --labels-header no reads it as a label) (line 5, after the last label, is blank and holds none: a missing label, as pandas' to_csv writes NaN? give only the examples that have a label)`,
		"fit", "--method", "greedytl", "--features", x, "--labels", last, "--out", out)
	first := writeText(t, dir, "first.csv", "\n1\n-1\n-1\n")
	checkStderr(t, first+" has 3 labels but the inputs have 4 rows (line 1, before the first label, is blank and holds none: a missing label, as pandas' to_csv writes NaN? give only the examples that have a label)",
		"fit", "--method", "greedytl", "--features", x, "--labels", first, "--out", out)
	sorted := writeText(t, dir, "sorted.txt", "#a\n#a\ncat\ncat\n")
	checkStderr(t, sorted+` has 2 labels but the inputs have 4 rows (line 1, before the first label, starts with '#' and is read as a comment: a label that starts with '#' is written quoted, "#tag")`,
		"fit", "--method", "nearest-mean", "--features", x, "--labels", sorted, "--out", out)
	// A blank line after the header is after it (it was "between
	// labels"); np.savetxt(path, y, fmt='%d', header='label')'s first
	// line (numpy 1.24's bytes) is no label read as a comment, and a
	// comment line that is fewer than the labels missing explains none
	// (both were named).
	afterHeader := writeText(t, dir, "after.csv", "y\n\n1\n-1\n-1\n")
	checkStderr(t, afterHeader+` has 3 labels but the inputs have 4 rows (its first line, "y", was read as a header: --labels-header no reads it as a label) (line 2, after the header, is blank and holds none: a missing label, as pandas' to_csv writes NaN? give only the examples that have a label)`,
		"fit", "--method", "greedytl", "--features", x, "--labels", afterHeader, "--out", out)
	savetxt := writeText(t, dir, "savetxt.txt", "# label\n1\n-1\n-1\n")
	checkStderr(t, savetxt+" has 3 labels but the inputs have 4 rows",
		"fit", "--method", "greedytl", "--features", x, "--labels", savetxt, "--out", out)
	few := writeText(t, dir, "few.txt", "dog\n#tag\ncat\n")
	checkStderr(t, few+" has 2 labels but the inputs have 4 rows",
		"fit", "--method", "nearest-mean", "--features", x, "--labels", few, "--out", out)
	// A blank line fewer than the labels missing, or one in a file of
	// more labels than rows, explains none: not named.
	gap := writeText(t, dir, "gap.csv", "1\n\n-1\n")
	checkStderr(t, gap+" has 2 labels but the inputs have 4 rows",
		"fit", "--method", "greedytl", "--features", x, "--labels", gap, "--out", out)
	more := writeText(t, dir, "more.csv", "1\n-1\n\n-1\n1\n1\n")
	checkStderr(t, more+" has 5 labels but the inputs have 4 rows",
		"fit", "--method", "greedytl", "--features", x, "--labels", more, "--out", out)
	end := writeText(t, dir, "end.txt", "dog\ncat\ncat\n#tag\n")
	checkStderr(t, end+` has 3 labels but the inputs have 4 rows (line 4, after the last label, starts with '#' and is read as a comment: a label that starts with '#' is written quoted, "#tag")`,
		"fit", "--method", "nearest-mean", "--features", x, "--labels", end, "--out", out)
}

// TestFitTwoNamesNeedPositive: labels of two names, neither of which is the
// positive class by itself, are refused naming the flag that says which is
// (the message said "name the positive one" without the flag), and the
// flag then fits.
func TestFitTwoNamesNeedPositive(t *testing.T) {
	dir := t.TempDir()
	x := writeNPY(t, dir, "X.npy", mat.NewDense(4, 1, []float64{0, 1, 2, 3}))
	y := writeText(t, dir, "y.txt", "owl\ncat\nowl\ncat\n")
	code, _, stderr := cli(t, "", "fit", "--features", x, "--labels", y, "--out", filepath.Join(dir, "m.json"))
	if want := `labels are "owl", "cat": name the positive one (--positive owl or --positive cat)`; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("fit: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
	if code, _, stderr := cli(t, "", "fit", "--features", x, "--labels", y, "--positive", "owl", "--out", filepath.Join(dir, "m.json")); code != 0 {
		t.Errorf("fit --positive owl: exit %d: %s", code, stderr)
	}
}

// TestMultiIgnoredFlags: flags that cannot apply are input errors (exit 2,
// nothing written) rather than silently ignored: --positive with a method
// that fits several classes at once (even naming no label of the file) and
// with a multi-class model at predict, --json without --labels, and
// --unlabelled-* inputs for a method that does not use them; a
// transductive method fitted one class against the rest without them is
// told which flags to give, as for two classes; GreedyTL's flags given to
// a native multi-class method say that it takes no settings.
func TestMultiIgnoredFlags(t *testing.T) {
	dir, model, x, h, y, xt, ht, yt := nearestMeanFiles(t)
	out := filepath.Join(dir, "p.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--method", "nearest-mean", "--positive", "bee", "--features", x, "--source-scores", h, "--labels", y, "--out", out},
			"--positive bee asks for one class against the rest (a binary fit), but nearest-mean fits several classes at once"},
		{[]string{"fit", "--method", "greedytl-nway", "--positive", "yak", "--features", x, "--source-scores", h, "--labels", y, "--out", out},
			"--positive yak asks for one class against the rest"},
		{[]string{"predict", "--model", model, "--positive", "bee", "--features", xt, "--source-scores", ht, "--labels", yt, "--out", out},
			`--positive is for binary models; ` + model + ` is a model of 3 classes ("ant", "bee", "cow")`},
		{[]string{"predict", "--model", model, "--json", "--features", xt, "--source-scores", ht, "--out", out},
			"--json reports the evaluation against --labels: give --labels"},
		{[]string{"fit", "--method", "nearest-mean", "--features", x, "--source-scores", h, "--labels", y, "--unlabelled-features", xt, "--out", out},
			"--unlabelled-* inputs are for transductive methods (dam), not nearest-mean"},
		{[]string{"fit", "--method", "dam", "--features", x, "--source-scores", h, "--labels", y, "--out", out},
			"dam is transductive: give the unlabelled target inputs with --unlabelled-features/--unlabelled-source-scores"},
		// A binary method (here one against the rest) sets its own
		// hyperparameters: greedytl-auto's GreedyTL members keep λ = 1, only
		// its ridge member's λ is chosen by leave-one-out, so the message
		// does not say how. A native method takes none: greedytl-nway's C is
		// cross-validated, nearest-mean has none.
		{[]string{"fit", "--method", "greedytl-auto", "--lambda", "2", "--features", x, "--source-scores", h, "--labels", y, "--out", out},
			"--lambda applies to the greedytl methods; greedytl-auto sets its own hyperparameters (see 'greedytl help fit')"},
		{[]string{"fit", "--method", "greedytl-nway", "--lambda", "2", "--features", x, "--source-scores", h, "--labels", y, "--out", out},
			"--lambda applies to the greedytl methods; greedytl-nway takes no settings"},
		{[]string{"fit", "--method", "nearest-mean", "--max-k", "2", "--features", x, "--source-scores", h, "--labels", y, "--out", out},
			"--max-k applies to the greedytl methods; nearest-mean takes no settings"},
	} {
		code, _, stderr := cli(t, "", tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s wrote %s", strings.Join(tc.args, " "), out)
		}
	}
	// With two labels --positive names one of them: the method fits them
	// (a model of the two classes), and a name that is not a label is
	// refused.
	labels, err := os.ReadFile(y)
	if err != nil {
		t.Fatal(err)
	}
	y2 := filepath.Join(dir, "y2.txt")
	if err := os.WriteFile(y2, []byte(strings.ReplaceAll(string(labels), "cow", "bee")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--positive", "bee", "--features", x, "--source-scores", h, "--labels", y2, "--out", out); code != 0 {
		t.Errorf("two labels, --positive bee: exit %d: %s", code, stderr)
	} else if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), `"bee"`) || strings.Contains(string(b), `"cow"`) {
		t.Errorf("two labels, --positive bee: model %.200s, want the classes ant and bee", b)
	}
	os.Remove(out)
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--positive", "yak", "--features", x, "--source-scores", h, "--labels", y2, "--out", out); code != 2 || !strings.Contains(stderr, "yak") {
		t.Errorf("two labels, --positive yak: exit %d, stderr %q; want 2 naming yak", code, stderr)
	}
}

// TestFitOracleOneVsRest: --method best-source on labels of three classes
// fits each class's oracle on the held-out labels of that class against
// the rest (it was refused: "--oracle-* inputs are for binary fits"). On
// data where source perm[k] is the indicator of class k on the training
// and the held-out examples alike (and the others noise), class k's model
// keeps source perm[k]; and it is the binary best-source fitted with
// --positive k on the same inputs, weight for weight. Held-out labels that
// are not the training classes, or lack one, are refused by name, as are
// oracle inputs given to another method.
func TestFitOracleOneVsRest(t *testing.T) {
	dir := t.TempDir()
	names := []string{"ant", "bee", "cow"}
	perm := []int{3, 0, 2} // the source that is class k's indicator
	rng := rand.New(rand.NewPCG(7, 7))
	sample := func(m int, suffix string, order []int) (x, h, y string) {
		X, H := mat.NewDense(m, 2, nil), mat.NewDense(m, 5, nil)
		var lab strings.Builder
		for i := range m {
			k := order[i%3]
			for j := range 2 {
				X.Set(i, j, rng.NormFloat64())
			}
			for j := range 5 {
				H.Set(i, j, rng.NormFloat64())
			}
			for c, j := range perm {
				v := -1.0
				if c == k {
					v = 1
				}
				H.Set(i, j, v+0.1*rng.NormFloat64())
			}
			lab.WriteString(names[k] + "\n")
		}
		return writeNPY(t, dir, "X"+suffix+".npy", X), writeNPY(t, dir, "H"+suffix+".npy", H), writeText(t, dir, "y"+suffix+".txt", lab.String())
	}
	x, h, y := sample(12, "", []int{0, 1, 2})
	xo, ho, yo := sample(15, "o", []int{2, 0, 1}) // another order of first appearance
	oracle := []string{"--oracle-features", xo, "--oracle-source-scores", ho, "--oracle-labels", yo}
	fit := func(out string, args ...string) {
		t.Helper()
		args = append([]string{"fit", "--method", "best-source", "--features", x, "--source-scores", h, "--labels", y, "--out", out}, args...)
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
	}
	type column struct {
		Kind   string  `json:"kind"`
		Index  int     `json:"index"`
		Weight float64 `json:"weight"`
	}
	inspect := func(model string, v any) {
		t.Helper()
		code, out, stderr := cli(t, "", "inspect", "--json", model)
		if code != 0 {
			t.Fatalf("inspect %s: exit %d: %s", model, code, stderr)
		}
		if err := json.Unmarshal([]byte(out), v); err != nil {
			t.Fatal(err)
		}
	}
	multi := filepath.Join(dir, "multi.json")
	fit(multi, oracle...)
	var sum struct {
		Method   string `json:"method"`
		PerClass []struct {
			Class    string   `json:"class"`
			Selected []column `json:"selected"`
		} `json:"per_class"`
	}
	inspect(multi, &sum)
	if sum.Method != "best-source" || len(sum.PerClass) != 3 {
		t.Fatalf("inspect: method %q, %d classes; want best-source, 3", sum.Method, len(sum.PerClass))
	}
	for k, pc := range sum.PerClass {
		if pc.Class != names[k] || len(pc.Selected) != 1 || pc.Selected[0].Kind != "source" || pc.Selected[0].Index != perm[k] || !(pc.Selected[0].Weight > 0) {
			t.Errorf("class %d: %+v; want class %s keeping source %d with a positive weight", k, pc, names[k], perm[k])
		}
		bin := filepath.Join(dir, names[k]+".json")
		fit(bin, append([]string{"--positive", names[k]}, oracle...)...)
		var b struct {
			Selected []column `json:"selected"`
		}
		inspect(bin, &b)
		if len(b.Selected) != 1 || b.Selected[0] != pc.Selected[0] {
			t.Errorf("class %s: %+v against the rest, %+v fitted binary with --positive %s; want the same", names[k], pc.Selected, b.Selected, names[k])
		}
	}
	out := filepath.Join(dir, "refused.json")
	yak := writeText(t, dir, "yak.txt", strings.Repeat("ant\nbee\nyak\n", 5))
	noCow := writeText(t, dir, "nocow.txt", strings.Repeat("ant\nbee\nbee\n", 5))
	onlyAnt := writeText(t, dir, "onlyant.txt", strings.Repeat("ant\n", 15))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--oracle-features", xo, "--oracle-source-scores", ho, "--oracle-labels", yak},
			`yak.txt:3: label "yak" is not one of the training labels of ` + y + ` ("ant", "bee", "cow")`},
		{[]string{"--oracle-features", xo, "--oracle-source-scores", ho, "--oracle-labels", noCow},
			`nocow.txt holds no example of the class "cow": its oracle, "cow" against the rest, cannot score the sources`},
		{[]string{"--positive", "bee", "--oracle-features", xo, "--oracle-source-scores", ho, "--oracle-labels", onlyAnt},
			`onlyant.txt holds no example of the positive class "bee"`},
		{[]string{"--positive", "ant", "--oracle-features", xo, "--oracle-source-scores", ho, "--oracle-labels", onlyAnt},
			`onlyant.txt holds only the positive class "ant"`},
		{[]string{"--oracle-features", xo, "--oracle-source-scores", ho},
			"best-source is an oracle: give held-out inputs and labels"},
	} {
		args := append([]string{"fit", "--method", "best-source", "--features", x, "--source-scores", h, "--labels", y, "--out", out}, tc.args...)
		wantInputError(t, tc.want, args...)
	}
	for _, m := range []string{"greedytl-nway", "nearest-mean", "rls-srcfeat"} {
		args := append([]string{"fit", "--method", m, "--features", x, "--source-scores", h, "--labels", y, "--out", out}, oracle...)
		wantInputError(t, "--oracle-* inputs are for the oracle best-source, not "+m, args...)
		// --oracle-labels alone was ignored.
		wantInputError(t, "--oracle-* inputs are for the oracle best-source, not "+m, "fit", "--method", m, "--features", x, "--labels", y, "--oracle-labels", yo, "--out", out)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused fit wrote %s", out)
	}
}

// TestFitWarnsConstantClasses: a one-vs-rest fit whose per-class models
// keep no column (l1-logistic on noise with two examples a class chooses
// the empty model) warns that those classes' scores are constant and
// which class the rows then go to; informative data, and greedytl-nway,
// whose L2 models always keep their columns, fit without the warning.
// With --json the report on standard output lists the same warnings as
// standard error (code "constant-classes"), [] when there are none, and
// the model file is the one written without --json (issue: programs
// driving fit, the Python package, saw no warning).
func TestFitWarnsConstantClasses(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	write := func(name string, rows, cols int, shift func(i, j int) float64) string {
		var b strings.Builder
		for i := range rows {
			for j := range cols {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%.6g", rng.NormFloat64()+shift(i, j))
			}
			b.WriteByte('\n')
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	labels := func(name string, per int) string {
		var b strings.Builder
		for _, c := range []string{"a", "b", "c"} {
			b.WriteString(strings.Repeat(c+"\n", per))
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	noise := write("noise.csv", 6, 20, func(int, int) float64 { return 0 })
	yNoise := labels("noise.txt", 2)
	informative := write("inf.csv", 30, 20, func(i, j int) float64 {
		if j == i/10 {
			return 3 // class k's rows shifted along column k
		}
		return 0
	})
	yInf := labels("inf.txt", 10)
	for _, tc := range []struct {
		method, x, y string
		warn         bool
	}{
		{"l1-logistic", noise, yNoise, true},
		{"elastic-net", noise, yNoise, true},
		{"greedytl-nway", noise, yNoise, false},
		{"l1-logistic", informative, yInf, false},
	} {
		out := filepath.Join(dir, "m.json")
		args := []string{"fit", "--method", tc.method, "--features", tc.x, "--labels", tc.y, "--out", out}
		code, _, stderr := cli(t, "", args...)
		if code != 0 {
			t.Fatalf("%s on %s: exit %d: %s", tc.method, tc.x, code, stderr)
		}
		want := `keep no column: their scores are constant, so the rows no other class scores higher go to "a"`
		if got := strings.Contains(stderr, want); got != tc.warn {
			t.Errorf("%s on %s: warning %v, want %v:\n%s", tc.method, filepath.Base(tc.x), got, tc.warn, stderr)
		}
		model, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		code, stdout, jsonErr := cli(t, "", append(args, "--json")...)
		if code != 0 || jsonErr != stderr {
			t.Fatalf("%s on %s with --json: exit %d, stderr %q; want 0 and stderr %q", tc.method, tc.x, code, jsonErr, stderr)
		}
		var rep struct {
			Model    string `json:"model"`
			Warnings []struct {
				Code, Message string
				Classes       []string
			} `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Model != out || rep.Warnings == nil {
			t.Fatalf("%s on %s: fit --json printed %q (%v); want {\"model\": %q, \"warnings\": [...]}", tc.method, tc.x, stdout, err, out)
		}
		var printed []string
		for _, w := range rep.Warnings {
			if w.Code != "constant-classes" || !strings.Contains(w.Message, want) || len(w.Classes) == 0 ||
				!strings.Contains(w.Message, fmt.Sprintf("of %d of the 3 classes (%s)", len(w.Classes), strings.Join(quoteAll(w.Classes), ", "))) {
				t.Errorf("%s on %s: reported warning %+v, want code constant-classes, a message with %q and the classes it names", tc.method, tc.x, w, want)
			}
			printed = append(printed, "greedytl: warning: "+w.Message+"\n")
		}
		if got := strings.Count(stderr, "greedytl: warning: "); got != len(printed) || (len(printed) == 1) != tc.warn {
			t.Errorf("%s on %s: %d warnings on stderr, %d reported; want %v", tc.method, tc.x, got, len(printed), tc.warn)
		}
		for _, p := range printed {
			if !strings.Contains(stderr, p) {
				t.Errorf("%s on %s: the reported warning %q is not on stderr:\n%s", tc.method, tc.x, p, stderr)
			}
		}
		if again, err := os.ReadFile(out); err != nil || string(again) != string(model) {
			t.Errorf("%s on %s: the model written with --json differs from the one without (%v)", tc.method, tc.x, err)
		}
	}
}

// TestConstantClassesWarningNamesTheClassThatTakesTheRows: the
// constant-classes warning names the class the rows then go to, the one
// predict gives them. After the one-vs-rest scaling a constant score is its
// sign, and the constant of a class-balanced model (best-source or
// logme-source on a constant source: an intercept that is 0 but for
// rounding) may be of either sign: here "b"'s and "c"'s are +1 and "a"'s 0,
// so every row is predicted "b", where the warning said they went to "a",
// the first of the classes.
func TestConstantClassesWarningNamesTheClassThatTakesTheRows(t *testing.T) {
	dir := t.TempDir()
	X := writeText(t, dir, "X.csv", "0\n1\n2\n3\n")
	H := writeText(t, dir, "H.csv", "0.25\n0.25\n0.25\n0.25\n")
	y := writeText(t, dir, "y.txt", "a\nb\nc\na\n")
	for _, meth := range []string{"best-source", "logme-source"} {
		out := filepath.Join(dir, meth+".json")
		args := []string{"fit", "--method", meth, "--features", X, "--source-scores", H, "--labels", y, "--out", out}
		if meth == "best-source" {
			args = append(args, "--oracle-features", X, "--oracle-source-scores", H, "--oracle-labels", y)
		}
		code, _, stderr := cli(t, "", args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", meth, code, stderr)
		}
		code, stdout, perr := cli(t, "", "predict", out, "--features", X, "--source-scores", H)
		if code != 0 {
			t.Fatalf("%s: predict: exit %d: %s", meth, code, perr)
		}
		pred := strings.Fields(stdout)
		if len(pred) != 4 || len(slices.Compact(slices.Clone(pred))) != 1 {
			t.Fatalf("%s: predicted %q, want one class for every row", meth, pred)
		}
		want := fmt.Sprintf("keep no column: their scores are constant, so the rows no other class scores higher go to %q;", pred[0])
		if !strings.Contains(stderr, want) {
			t.Errorf("%s: predict gives every row %q; the warning does not say so (want %q):\n%s", meth, pred[0], want, stderr)
		}
	}
}

// TestFitJSONNeedsOut: fit --json prints its report on standard output, so
// the model must go to a file: without --out, or with --out -, it is a
// usage error before anything is read.
func TestFitJSONNeedsOut(t *testing.T) {
	for _, out := range [][]string{nil, {"--out", "-"}} {
		args := append([]string{"fit", "--json", "--features", "missing.npy", "--labels", "missing.txt"}, out...)
		code, stdout, stderr := cli(t, "", args...)
		if want := "greedytl: --json prints a report on standard output: give the model file with --out FILE\n"; code != exitInput || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and %q", args, code, stdout, stderr, exitInput, want)
		}
	}
}

// TestRootHelpNamesMultiClassLabels: "greedytl help", the first page a new
// user reads, describes labels as fit takes them: fit takes three classes
// of names (checked here), so the help must not say that labels are of two
// classes only (it said "{-1,+1}, {0,1}, or any two values with --positive").
func TestRootHelpNamesMultiClassLabels(t *testing.T) {
	dir := t.TempDir()
	X := mat.NewDense(6, 2, []float64{0, 1, 1, 0, 1, 1, 2, 0, 0, 2, 2, 2})
	x := writeNPY(t, dir, "X.npy", X)
	y := writeText(t, dir, "y.txt", "cat\ncat\ndog\ndog\nowl\nowl\n")
	if code, _, stderr := cli(t, "", "fit", "--features", x, "--labels", y, "--out", filepath.Join(dir, "m.json")); code != 0 {
		t.Fatalf("fit of three classes: exit %d: %s", code, stderr)
	}
	code, out, _ := cli(t, "", "help")
	if code != 0 || !strings.Contains(out, "three or more") {
		t.Errorf("greedytl help: exit %d; its description of the labels does not mention three or more classes:\n%s", code, out)
	}
}

// TestFitMethodFlagNamesEveryMethod: fit's --method flag lists every method
// fit accepts, the native multi-class ones too (it listed only the binary
// ones and gave greedytl-auto as the default whatever the labels), and
// each name it lists is accepted.
func TestFitMethodFlagNamesEveryMethod(t *testing.T) {
	var fit *cobra.Command
	for _, c := range newRootCmd(&streams{}).Commands() {
		if c.Name() == "fit" {
			fit = c
		}
	}
	usage := fit.Flags().Lookup("method").Usage
	for _, n := range method.MultiNames() {
		if !strings.Contains(usage, n) {
			t.Errorf("fit --method's help does not name %s: %q", n, usage)
		}
		if _, err := method.NewMulti(n); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if !strings.Contains(usage, method.RecommendedMulti+" for three or more classes") {
		t.Errorf("fit --method's help does not give the default for three or more classes, %s: %q", method.RecommendedMulti, usage)
	}
}

// TestFitHelpDescribesEveryMethod: greedytl help fit lists every method,
// the binary ones and the native multi-class ones, each on a line of its
// own with its registry description (methodList).
func TestFitHelpDescribesEveryMethod(t *testing.T) {
	var fit *cobra.Command
	for _, c := range newRootCmd(&streams{}).Commands() {
		if c.Name() == "fit" {
			fit = c
		}
	}
	for _, n := range method.MultiNames() {
		r, ok := method.Registered(n)
		if !ok || r.Description == "" {
			t.Fatalf("%s: registered %v, description %q", n, ok, r.Description)
		}
		if line := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(n) + ` +` + regexp.QuoteMeta(r.Description) + `$`); !line.MatchString(fit.Long) {
			t.Errorf("greedytl help fit has no line for %s with its description %q", n, r.Description)
		}
	}
}

// TestPredictMultiLabelsOfSomeClasses: test labels of only some of the
// model's classes give the balanced accuracy over the classes present (as
// scikit-learn's balanced_accuracy_score, by its definition here), and the
// line that reports it says over how many of the model's classes (it said
// the model's count, as if averaged over every class).
func TestPredictMultiLabelsOfSomeClasses(t *testing.T) {
	dir, model, _, _, _, xt, ht, _ := nearestMeanFiles(t)
	labels := strings.Repeat("ant\nbee\nbee\n", 5) // no cow
	yt := writeText(t, dir, "some.txt", labels)
	code, out, stderr := cli(t, "", "predict", "--model", model, "--features", xt, "--source-scores", ht, "--labels", yt)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	pred := strings.Fields(out)
	truth := strings.Fields(labels)
	hit, seen := map[string]int{}, map[string]int{}
	for i, c := range truth {
		seen[c]++
		if pred[i] == c {
			hit[c]++
		}
	}
	balanced := 0.0
	for c, n := range seen {
		balanced += float64(hit[c]) / float64(n)
	}
	balanced /= float64(len(seen))
	want := fmt.Sprintf("balanced accuracy: %.4f (15 examples, 2 of the model's 3 classes)", balanced)
	if !strings.Contains(stderr, want) {
		t.Errorf("predict --labels of 2 classes: %q, want %q", stderr, want)
	}
	_, _, stderr = cli(t, "", "predict", "--model", model, "--features", xt, "--source-scores", ht, "--labels", writeText(t, dir, "all.txt", strings.Repeat("ant\nbee\ncow\n", 5)))
	if !strings.Contains(stderr, "(15 examples, 3 classes)") {
		t.Errorf("predict --labels of every class: %q", stderr)
	}
}

// TestPredictMultiQuotedNames: class names that a label file holds only
// quoted (a comma, a '"', a '#' after a blank), fitted from a file that
// quotes them, are printed by predict so that its output, given back as
// --labels, reads as the same classes: the predictions against themselves
// have accuracy 1, and the accuracy against the true labels is the share
// of the printed names that are the true ones. The --scores header reads
// back as the class names.
func TestPredictMultiQuotedNames(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a, b", `"x"`, "Song # 1"}
	x, h, y, xt, ht, yt := classFiles(t, dir, [3]string{`"a, b"`, `"""x"""`, `"Song # 1"`})
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--source-scores", h, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	pred := filepath.Join(dir, "pred.txt")
	common := []string{"predict", "--model", model, "--features", xt, "--source-scores", ht}
	var ev struct {
		Accuracy float64  `json:"accuracy"`
		Classes  []string `json:"classes"`
	}
	code, out, stderr := cli(t, "", append(common, "--labels", yt, "--json", "--out", pred)...)
	if code != 0 || json.Unmarshal([]byte(out), &ev) != nil {
		t.Fatalf("predict --labels: exit %d: %s%s", code, out, stderr)
	}
	if !slices.Equal(ev.Classes, []string{`"x"`, "Song # 1", "a, b"}) {
		t.Fatalf("the model's classes are %q", ev.Classes)
	}
	got, err := dataset.ReadLabelValues(pred)
	if err != nil || len(got) != 15 {
		t.Fatalf("predict's output read as labels: %q, %v", got, err)
	}
	truth := names
	right := 0
	for i, v := range got {
		if !slices.Contains(names, v) {
			t.Fatalf("predict's line %d reads back as %q, not a class name", i+1, v)
		}
		if v == truth[i%3] {
			right++
		}
	}
	if want := float64(right) / 15; ev.Accuracy != want {
		t.Errorf("accuracy %v against the true labels, want %v from predict's output read back", ev.Accuracy, want)
	}
	code, out, stderr = cli(t, "", append(common, "--labels", pred, "--json", "--out", filepath.Join(dir, "again.txt"))...)
	if code != 0 || json.Unmarshal([]byte(out), &ev) != nil || ev.Accuracy != 1 {
		t.Errorf("predict --labels of its own output: exit %d, accuracy %v, want 1: %s%s", code, ev.Accuracy, out, stderr)
	}
	// The header read as CSV's rules read a tab-separated file (pandas'
	// read_csv(sep="\t") too). dataset.DecodeCSV would take the comma of
	// "a, b" for the file's separator.
	code, out, stderr = cli(t, "", append(common, "--scores")...)
	r := csv.NewReader(strings.NewReader(out))
	r.Comma = '\t'
	header, err := r.Read()
	if code != 0 || err != nil || !slices.Equal(header, ev.Classes) {
		t.Errorf("predict --scores: exit %d, header read back as %q (%v), want the classes %q: %s", code, header, err, ev.Classes, stderr)
	}
	// A name holding a comma is quoted, as predict --help says (it named
	// only '"', '#' and blanks).
	if first, _, _ := strings.Cut(out, "\n"); !strings.Contains(first, `"a, b"`) {
		t.Errorf("predict --scores header %q: want \"a, b\" quoted", first)
	}
	_, help, _ := cli(t, "", "predict", "--help")
	if want := "quoted likewise when one holds a comma or\n'\"', starts with '#'"; !strings.Contains(help, want) {
		t.Errorf("predict --help does not say that a --scores header cell holding a comma is quoted (%q)", want)
	}
}

// TestPredictShowsHiddenNamesEscaped: a model's class name holding a
// hidden character (an escape, a bidi control, a zero-width space: one a
// model written through the API or before the readers refused them may
// hold) is printed by predict escaped, as messages quote it, in its lines
// and in the --scores header, and by inspect; raw, the escape coloured
// the terminal and the bidi control reordered the line.
func TestPredictShowsHiddenNamesEscaped(t *testing.T) {
	dir := t.TempDir()
	x, h, y, xt, ht, _ := classFiles(t, dir, [3]string{"red", "green", "blue"})
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--source-scores", h, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	hidden := map[string]string{"red": "\x1b[31mred", "green": "gr\u202eeen", "blue": "\u200bblue"}
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	for plain, n := range hidden {
		q, _ := json.Marshal(n)
		b = bytes.Replace(b, []byte(`"`+plain+`"`), q, -1)
	}
	if err := os.WriteFile(model, b, 0o644); err != nil {
		t.Fatal(err)
	}
	common := []string{"predict", "--model", model, "--features", xt, "--source-scores", ht}
	code, out, stderr := cli(t, "", common...)
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	code, scores, stderr := cli(t, "", append(common, "--scores")...)
	if code != 0 {
		t.Fatalf("predict --scores: exit %d: %s", code, stderr)
	}
	code, inspected, stderr := cli(t, "", "inspect", model)
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	for what, text := range map[string]string{"predict": out, "predict --scores": scores, "inspect": inspected} {
		for _, n := range hidden {
			if strings.Contains(text, n) {
				t.Errorf("%s prints %q raw:\n%s", what, n, text)
			}
		}
	}
	for _, n := range hidden {
		if !strings.Contains(scores, strconv.Quote(n)) {
			t.Errorf("predict --scores header lacks %s:\n%s", strconv.Quote(n), scores)
		}
	}
}

// TestFeaturesNumericHeaderHint: a features CSV under a header of numbers
// (wavelengths, as pandas' to_csv(index=False) writes a frame whose
// columns are numbers) is read as data, one row more than the labels; the
// count error blamed the labels file alone. It now names the inputs' first
// line as a possible header and how to drop it; a file of source scores
// alone gets it too, a .npy array, which has no header, and a count off by
// more than one get none.
func TestFeaturesNumericHeaderHint(t *testing.T) {
	dir := t.TempDir()
	X := writeText(t, dir, "X.csv", "400,410,420,430\n0,1,2,3\n1,0,3,2\n2,2,0,1\n3,1,1,0\n")
	H := writeText(t, dir, "H.csv", "0.5,1.5\n0,1\n1,0\n2,2\n3,1\n")
	y := writeText(t, dir, "y.txt", "cat\ncat\ndog\ndog\n")
	y3 := writeText(t, dir, "y3.txt", "cat\ncat\ndog\n")
	Xnpy := writeNPY(t, dir, "X.npy", mat.NewDense(5, 1, []float64{400, 0, 1, 2, 3}))
	out := filepath.Join(dir, "m.json")
	hint := func(path, first string) string {
		how := "greedytl reads a header of numbers as data: --features-header yes reads it as a header; or "
		if first == "0.5,1.5" { // decimals, which --features-header yes refuses (TestHeaderNoteFollowsTheReader)
			how = "greedytl reads a line of decimals as data, and --features-header yes refuses it as a header: "
		}
		return ` (if the first line of ` + path + `, "` + first + `", is a header of column names, not an example: ` + how + `drop the line (tail -n +2 ` + path + ` > new.csv) or write the file without it (pandas: to_csv(path, index=False, header=False)))`
	}
	checkStderr(t, y+" has 4 labels but the inputs have 5 rows"+hint(X, "400,410,420,…"), "fit", "--method", "nearest-mean", "--features", X, "--labels", y, "--out", out)
	checkStderr(t, y+" has 4 labels but the inputs have 5 rows"+hint(H, "0.5,1.5"), "fit", "--method", "best-source", "--source-scores", H, "--labels", y, "--out", out)
	checkStderr(t, y+" has 4 labels but the inputs have 5 rows", "fit", "--method", "nearest-mean", "--features", Xnpy, "--labels", y, "--out", out)
	checkStderr(t, y3+" has 3 labels but the inputs have 5 rows", "fit", "--method", "nearest-mean", "--features", X, "--labels", y3, "--out", out)
	// predict, of a binary and of a multi-class model fitted without the
	// header.
	clean := writeText(t, dir, "clean.csv", "5,1,2,3\n1,0,3,2\n2,2,0,1\n3,1,1,0\n")
	binary, multi := filepath.Join(dir, "b.json"), filepath.Join(dir, "n.json")
	for _, fit := range [][]string{
		{"fit", "--method", "no-transfer", "--features", clean, "--labels", y, "--positive", "cat", "--out", binary},
		{"fit", "--method", "nearest-mean", "--features", clean, "--labels", y, "--positive", "cat", "--out", multi},
	} {
		if code, _, stderr := cli(t, "", fit...); code != 0 {
			t.Fatalf("%q: exit %d: %s", fit, code, stderr)
		}
	}
	for _, model := range []string{binary, multi} {
		checkStderr(t, y+" has 4 labels but the inputs have 5 rows"+hint(X, "400,410,420,…"), "predict", model, "--features", X, "--labels", y)
	}
}

// TestLabelsReadByTheModelsRule: a model whose classes are names ("01",
// "1", "a") reads a test or held-out label file that holds only numbers
// by its rule, names as names: "01" and "1" stay two classes, where read
// alone as numbers they were one ("1"), so that predict's accuracy was
// that of every label taken for "1", and fit's oracle named "01", not
// "a", as the class its held-out labels lack.
func TestLabelsReadByTheModelsRule(t *testing.T) {
	dir := t.TempDir()
	names := []string{"01", "1", "a"}
	rng := rand.New(rand.NewPCG(5, 5))
	x, h, y := classSample(t, rng, dir, names, 3, 12, "")
	xt, ht, yt := classSample(t, rng, dir, names, 2, 20, "test") // "01" and "1" alone
	var truth []string
	for i := range 20 {
		truth = append(truth, names[i%2])
	}
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--source-scores", h, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	pred := filepath.Join(dir, "pred.txt")
	code, out, stderr := cli(t, "", "predict", model, "--features", xt, "--source-scores", ht, "--labels", yt, "--json", "--out", pred)
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	var ev struct {
		Accuracy  float64 `json:"accuracy"`
		Confusion [][]int `json:"confusion"`
	}
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatalf("predict --json: %v in %q", err, out)
	}
	b, err := os.ReadFile(pred)
	if err != nil {
		t.Fatal(err)
	}
	hit := 0
	for i, p := range strings.Fields(string(b)) {
		if p == truth[i] {
			hit++
		}
	}
	if want := float64(hit) / float64(len(truth)); ev.Accuracy != want {
		t.Errorf("accuracy %v, want %v (the share of predictions that are the labels)", ev.Accuracy, want)
	}
	if len(ev.Confusion) != 3 || sum(ev.Confusion[0]) != 10 || sum(ev.Confusion[1]) != 10 {
		t.Errorf("confusion %v: want 10 examples of \"01\" and 10 of \"1\"", ev.Confusion)
	}
	code, _, stderr = cli(t, "", "fit", "--method", "best-source", "--features", x, "--source-scores", h, "--labels", y,
		"--oracle-features", xt, "--oracle-source-scores", ht, "--oracle-labels", yt, "--out", filepath.Join(dir, "bs.json"))
	if want := yt + ` holds no example of the class "a"`; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("fit with held-out labels of \"01\" and \"1\": exit %d, %q, want %q", code, stderr, want)
	}
}

// sum is the sum of v.
func sum(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

// TestPredictPrintsNumberClassesShortest: labels that are all numbers name
// their classes by value in the shortest form ("01" is the class 1), and
// predict prints that name, not the file's spelling, as its help says (it
// said "as a label file holds it").
func TestPredictPrintsNumberClassesShortest(t *testing.T) {
	dir := t.TempDir()
	X := mat.NewDense(6, 2, []float64{0, 1, 1, 0, 1, 1, 2, 0, 0, 2, 2, 2})
	x := writeNPY(t, dir, "X.npy", X)
	y := writeText(t, dir, "y.txt", "01\n01\n02\n02\n10\n10\n")
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", x, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	code, out, stderr := cli(t, "", "predict", model, "--features", x)
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	for _, p := range strings.Fields(out) {
		if p != "1" && p != "2" && p != "10" {
			t.Errorf("predict printed %q, want a class's shortest name 1, 2 or 10", p)
		}
	}
	_, help, _ := cli(t, "", "predict", "--help")
	if want := "a file of\n01, 02 and 10 has the classes 1, 2 and 10"; !strings.Contains(help, want) {
		t.Errorf("predict --help does not say that number classes print in the shortest form (%q)", want)
	}
}

// TestPredictMultiFullOut: a multi-class model's predictions that cannot be
// written (--out /dev/full) are an error (exit 1) saying so, with or
// without --scores, and no accuracy is printed as if all went well. The
// prediction branch without --scores once lost writePredictions' error to
// a shadowed err and exited 0.
func TestPredictMultiFullOut(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	_, model, _, _, _, xt, ht, yt := nearestMeanFiles(t)
	for _, extra := range [][]string{nil, {"--scores"}, {"--labels", yt}} {
		args := append([]string{"predict", model, "--features", xt, "--source-scores", ht, "--out", "/dev/full"}, extra...)
		code, _, stderr := cli(t, "", args...)
		if code != 1 || !strings.Contains(stderr, "no space left on device") || strings.Contains(stderr, "accuracy") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 naming the full device, no accuracy", extra, code, stderr)
		}
	}
}

// TestPredictMultiScoresNothingWritten: predict --scores to standard output
// writes nothing, not even the header, when the inputs fail before the
// first block is scored: a features file that is missing, a label file
// that is missing or holds a class the model lacks (read and checked
// before any row is scored). A label file of the wrong length is found
// only once the rows are read: that error comes after the rows written;
// so does a first line that is no class of the model's but may be a
// header, which the count decides (TestPredictMultiLabelsFirstLineByRows).
func TestPredictMultiScoresNothingWritten(t *testing.T) {
	dir, model, _, _, _, xt, ht, yt := nearestMeanFiles(t)
	unknown := filepath.Join(dir, "unknown.txt")
	short := filepath.Join(dir, "short.txt")
	b, err := os.ReadFile(yt)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	if err := os.WriteFile(unknown, []byte(strings.Join(append(append(lines[:1:1], "nosuchclass\n"), lines[2:]...), "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(short, []byte(strings.Join(lines[1:], "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing features", []string{"--features", filepath.Join(dir, "nosuch.csv"), "--source-scores", ht}, "nosuch.csv"},
		{"missing labels", []string{"--features", xt, "--source-scores", ht, "--labels", filepath.Join(dir, "nosuch.txt")}, "nosuch.txt"},
		{"unknown label", []string{"--features", xt, "--source-scores", ht, "--labels", unknown}, `label "nosuchclass" is not one of the model's classes`},
	} {
		code, stdout, stderr := cli(t, "", append([]string{"predict", model, "--scores"}, tc.args...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, %d bytes out, stderr %q; want exit 2, nothing out, %q", tc.name, code, len(stdout), stderr, tc.want)
		}
	}
	code, stdout, stderr := cli(t, "", "predict", model, "--scores", "--features", xt, "--source-scores", ht, "--labels", short)
	if code != 2 || strings.Count(stdout, "\n") != len(lines)+1 || !strings.Contains(stderr, "short.txt has") {
		t.Errorf("short labels: exit %d, %d lines out, stderr %q; want exit 2 after the header and %d rows", code, strings.Count(stdout, "\n"), stderr, len(lines))
	}
}
