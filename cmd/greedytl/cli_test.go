package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/peertest"
)

// cli runs the command line and returns its exit status, stdout and stderr.
func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// writeNPY writes m to dir/name as .npy and returns the path.
func writeNPY(t *testing.T, dir, name string, m mat.Matrix) string {
	t.Helper()
	p := filepath.Join(dir, name)
	var buf bytes.Buffer
	if err := dataset.WriteNPY(&buf, m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeText(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// toy is a transfer problem where source 3 carries the label signal.
type toy struct {
	dir               string
	X, H, y, ytext    string
	Xtest, Htest, yte string
}

// fitModel fits the toy problem's default model (its features and source
// scores, cat against dog, with the extra fit flags args) into the file
// name in its folder, which it returns; the fit must succeed.
func (d toy) fitModel(t *testing.T, name string, args ...string) string {
	t.Helper()
	model := filepath.Join(d.dir, name)
	fit := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", model}
	if code, _, stderr := cli(t, "", append(fit, args...)...); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	return model
}

// predictLines runs greedytl predict with args, which must succeed and
// print n words (a score or a class a row), and returns them with what it
// wrote to standard error.
func predictLines(t *testing.T, n int, args ...string) (lines []string, stderr string) {
	t.Helper()
	code, out, stderr := cli(t, "", append([]string{"predict"}, args...)...)
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	if lines = strings.Fields(out); len(lines) != n {
		t.Fatalf("predict printed %d lines, want %d", len(lines), n)
	}
	return lines, stderr
}

func newToy(t *testing.T) toy {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	make3 := func(m int) (*mat.Dense, *mat.Dense, []string) {
		X := mat.NewDense(m, 6, nil)
		H := mat.NewDense(m, 20, nil)
		lab := make([]string, m)
		for i := 0; i < m; i++ {
			for j := 0; j < 6; j++ {
				X.Set(i, j, rng.NormFloat64())
			}
			for j := 0; j < 20; j++ {
				H.Set(i, j, rng.NormFloat64())
			}
			if H.At(i, 3)+0.3*rng.NormFloat64() > 0 {
				lab[i] = "cat"
			} else {
				lab[i] = "dog"
			}
		}
		return X, H, lab
	}
	X, H, lab := make3(24)
	Xt, Ht, labt := make3(200)
	return toy{
		dir: dir,
		X:   writeNPY(t, dir, "X.npy", X), H: writeNPY(t, dir, "H.npy", H),
		ytext: writeText(t, dir, "y.txt", strings.Join(lab, "\n")+"\n"),
		Xtest: writeNPY(t, dir, "Xt.npy", Xt), Htest: writeNPY(t, dir, "Ht.npy", Ht),
		yte: writeText(t, dir, "yt.txt", strings.Join(labt, "\n")+"\n"),
	}
}

func TestFitPredictInspect(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "model.json", "--max-k", "2")
	code, out, stderr := cli(t, "", "inspect", "--json", model)
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	var sum struct {
		Selected []struct {
			Kind   string  `json:"kind"`
			Index  int     `json:"index"`
			Weight float64 `json:"weight"`
		} `json:"selected"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("inspect --json: %v\n%s", err, out)
	}
	if len(sum.Selected) == 0 || sum.Selected[0].Kind != "source" || sum.Selected[0].Index != 3 || !(sum.Selected[0].Weight > 0) {
		t.Fatalf("first selected column = %+v, want source 3 with a positive weight", sum.Selected)
	}
	lines, stderr := predictLines(t, 200, "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--labels", d.yte, "--positive", "cat")
	for _, l := range lines {
		if v, err := strconv.ParseFloat(l, 64); err != nil || math.IsNaN(v) {
			t.Fatalf("bad score line %q", l)
		}
	}
	i := strings.Index(stderr, "balanced accuracy: ")
	if i < 0 {
		t.Fatalf("no accuracy on stderr: %q", stderr)
	}
	acc, err := strconv.ParseFloat(strings.Fields(stderr[i+len("balanced accuracy: "):])[0], 64)
	if err != nil || acc < 0.8 {
		t.Fatalf("balanced accuracy %v (%v), want ≥ 0.8 on a problem whose source 3 carries the label", acc, err)
	}
	// The table form names the first selected column.
	code, out, _ = cli(t, "", "inspect", model)
	if code != 0 || !strings.Contains(out, "source") {
		t.Fatalf("inspect table: exit %d\n%s", code, out)
	}
}

// TestPredictModelArgument checks that predict takes the model as its
// argument (as inspect and liblinear-predict do) exactly as --model, and
// refuses it twice or not at all.
func TestPredictModelArgument(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "model.json", "--max-k", "2")
	in := []string{"--features", d.Xtest, "--source-scores", d.Htest}
	byFlag, _ := predictLines(t, 200, append([]string{"--model", model}, in...)...)
	byArg, _ := predictLines(t, 200, append([]string{model}, in...)...)
	if !slices.Equal(byFlag, byArg) {
		t.Fatal("predict MODEL and predict --model MODEL print different scores")
	}
	text, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := cli(t, string(text), append([]string{"predict", "-"}, in...)...)
	if code != 0 || !slices.Equal(strings.Fields(out), byFlag) {
		t.Fatalf("predict - (model on stdin): exit %d, stderr %q", code, stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"twice", append([]string{model, "--model", model}, in...), "given twice"},
		{"none", in, "no model: give it as the argument"},
		{"two arguments", append([]string{model, model}, in...), "greedytl predict takes at most one argument, the model file (or give it as --model), and was given 2"},
	} {
		code, _, stderr := cli(t, "", append([]string{"predict"}, tc.args...)...)
		if code != exitInput || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "greedytl predict --help") {
			t.Errorf("%s: exit %d, stderr %q, want exit %d and %q", tc.name, code, stderr, exitInput, tc.want)
		}
	}
}

func TestBadInputExitsTwo(t *testing.T) {
	d := newToy(t)
	dir := d.dir
	nan := writeText(t, dir, "nan.csv", "1,2\nNaN,3\n1,1\n")
	ragged := writeText(t, dir, "ragged.csv", "1,2\n3\n")
	empty := writeText(t, dir, "empty.csv", "")
	newline := writeText(t, dir, "newline.json", "\n")
	blank := writeText(t, dir, "blank.json", " \t\r\n"+strings.Repeat(" ", 5000)+"\n") // beyond modelHead's 64 bytes and bufio's 4096
	bomBlank := writeText(t, dir, "bomblank.json", "\ufeff \n")
	badnpy := writeText(t, dir, "bad.npy", "\x93NUMPY\x01\x00\x10\x00{'descr': 'xx'}  \n")
	oneClass := writeText(t, dir, "one.txt", strings.Repeat("1\n", 24))
	short := writeText(t, dir, "short.txt", "1\n-1\n1\n")
	X3 := writeText(t, dir, "x3.csv", "1,2\n3,4\n5,7\n")
	libHuge := writeText(t, dir, "huge.model", "solver_type L2R_LR\nnr_class 2\nlabel 1 -1\nnr_feature 2\nbias -1\nw\n1e308\n-1e308\n") // row 0: 1e308 - 2·1e308
	lib3 := writeText(t, dir, "three.model", "solver_type L2R_LR\nnr_class 2\nlabel 1 -1\nnr_feature 3\nbias -1\nw\n1\n-1\n0.5\n")
	nanLabel := writeText(t, dir, "nanlabel.txt", strings.Repeat("1\n-1\n", 5)+"NaN\n"+strings.Repeat("1\n-1\n", 6)+"1\n")
	infName := writeText(t, dir, "infname.txt", strings.Repeat("cat\ndog\n", 11)+"-inf\ncat\n")
	notUTF8 := writeText(t, dir, "notutf8.txt", strings.Repeat("cat\ndog\xff\n", 12))
	model := filepath.Join(dir, "m.json")
	if code, _, e := cli(t, "", "fit", "--features", d.X, "--labels", d.ytext, "--positive", "cat", "--out", model); code != 0 {
		t.Fatalf("fit: %d %s", code, e)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string // a fragment of the message
	}{
		{"missing file", []string{"fit", "--features", filepath.Join(dir, "nope.npy"), "--labels", d.ytext}, "nope.npy"},
		{"NaN", []string{"fit", "--features", nan, "--labels", short}, "NaN"},
		{"ragged CSV names its line", []string{"fit", "--features", ragged, "--labels", short}, "ragged.csv:2"},
		{"empty file", []string{"fit", "--features", empty, "--labels", short}, "empty.csv"},
		{"malformed npy header", []string{"fit", "--features", badnpy, "--labels", short}, "bad.npy"},
		{"one class", []string{"fit", "--features", d.X, "--labels", oneClass}, "one class"},
		// It said "fitting nearest-mean … with the 1 classes of one.txt: method: 1 class names: …".
		{"one class, multi-class method", []string{"fit", "--method", "nearest-mean", "--features", d.X, "--labels", oneClass}, "one.txt: only one class (all labels are \"1\")"},
		{"inspect --top -1", []string{"inspect", "--top", "-1", model}, "--top -1: want the number of columns to show, or 0 for all"},
		// --json prints every column: --top was ignored silently.
		{"inspect --top with --json", []string{"inspect", "--json", "--top", "3", model}, "--top 3 applies to the table; --json prints every column: leave --top out"},
		{"row mismatch X/H", []string{"fit", "--features", X3, "--source-scores", d.H, "--labels", short}, "rows"},
		// A CSV of fewer columns than a liblinear model's: the svmlight hint
		// is a conditional, not a claim that the CSV came from svmlight.
		{"liblinear model, CSV of fewer columns", []string{"predict", lib3, "--features", X3}, "x3.csv has 2 columns but the model " + lib3 + " needs 3 features (if converted from svmlight, whose rows need not reach the last index: load_svmlight_file(path, n_features=3, zero_based=False))"},
		{"label count", []string{"fit", "--features", d.X, "--labels", short}, "labels"},
		{"three labels need --positive", []string{"fit", "--features", d.X, "--labels", d.ytext}, "y.txt"},
		{"no inputs", []string{"fit", "--labels", short}, "--features"},
		{"bad lambda", []string{"fit", "--features", d.X, "--labels", d.ytext, "--lambda", "-1"}, "lambda"},
		{"unknown flag", []string{"fit", "--bogus"}, "bogus"},
		{"unknown command", []string{"frobnicate"}, "frobnicate"},
		{"NaN label among numbers", []string{"fit", "--features", d.X, "--labels", nanLabel}, "nanlabel.txt:11: label \"NaN\" reads as NaN"},
		{"-inf label among names", []string{"fit", "--features", d.X, "--labels", infName, "--method", "nearest-mean"}, "infname.txt:23: label \"-inf\" reads as -Inf"},
		// The model file recorded the class "dog\ufffd", which predict then refused.
		{"label not UTF-8", []string{"fit", "--features", d.X, "--labels", notUTF8, "--positive", "cat"}, "notutf8.txt:2: label \"dog\\xff\" is not valid UTF-8"},
		{"predict NaN label", []string{"predict", "--model", model, "--features", d.X, "--labels", nanLabel}, "nanlabel.txt:11:"},
		{"predict feature count", []string{"predict", "--model", model, "--features", X3}, "column"},
		// It printed +Inf and -Inf.
		{"liblinear score overflow", []string{"predict", "--model", libHuge, "--features", X3}, "model " + libHuge + " on " + X3 + ":1: the row's score is -Inf: "},
		{"predict bad model", []string{"predict", "--model", nan, "--features", d.X}, "nan.csv"},
		{"inspect missing", []string{"inspect", filepath.Join(dir, "none.json")}, "none.json"},
		// They said "open : no such file or directory" and ": no such file or directory".
		{"inspect empty name", []string{"inspect", ""}, "argument 1 is empty: give a path"},
		{"report empty path", []string{"report", ""}, "argument 1 is empty: give a path"},
		{"merge empty path", []string{"merge", "", "--out", filepath.Join(dir, "merged")}, "argument 1 is empty: give a path"},
		// It said "the model is empty: EOF", naming no file.
		{"inspect empty file", []string{"inspect", empty}, empty + " is empty: no model in it"},
		{"predict empty model file", []string{"predict", "--model", empty, "--features", d.X}, empty + " is empty: no model in it"},
		// They said "the model is empty: EOF" after the file's name.
		{"inspect newline model file", []string{"inspect", newline}, newline + " holds only white space: no model in it"},
		{"inspect blank model file", []string{"inspect", blank}, blank + " holds only white space: no model in it"},
		{"inspect byte-order mark and blank", []string{"inspect", bomBlank}, bomBlank + " holds only white space: no model in it"},
		{"predict newline model file", []string{"predict", "--model", newline, "--features", d.X}, newline + " holds only white space: no model in it"},
		{"predict blank model file", []string{"predict", "--model", blank, "--features", d.X}, blank + " holds only white space: no model in it"},
		// It printed the version, the argument ignored.
		{"version with an argument", []string{"--version", "extra"}, "--version takes no argument"},
		{"predict empty model name", []string{"predict", "--model", "", "--features", d.X}, "--model is empty"},
		{"fit empty labels name", []string{"fit", "--features", d.X, "--labels", ""}, "--labels is empty"},
		{"fit empty oracle labels name", []string{"fit", "--method", "best-source", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--oracle-features", d.Xtest, "--oracle-source-scores", d.Htest, "--oracle-labels", ""}, "--oracle-labels is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantInputError(t, tc.want, tc.args...) })
	}
}

// wantInputError runs the command line args and checks that it fails with
// exitInput, writing nothing to stdout and one line containing want to
// stderr, which names the command once and each package at most once
// (errtest.CommandMessage).
func wantInputError(t *testing.T, want string, args ...string) {
	t.Helper()
	code, out, stderr := cli(t, "", args...)
	if code != exitInput {
		t.Errorf("%q: exit %d, want %d (stderr %q)", args, code, exitInput, stderr)
		return
	}
	if out != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, want) {
		t.Errorf("%q: stdout %q, stderr %q: want nothing and one line containing %q", args, out, stderr, want)
	}
	if err := errtest.CommandMessage(strings.TrimSuffix(stderr, "\n")); err != nil {
		t.Errorf("%q: %v", args, err)
	}
}

func TestFitFailureLeavesNoFile(t *testing.T) {
	d := newToy(t)
	out := filepath.Join(d.dir, "model.json")
	oneClass := writeText(t, d.dir, "one.txt", strings.Repeat("1\n", 24))
	if code, _, _ := cli(t, "", "fit", "--features", d.X, "--labels", oneClass, "--out", out); code != exitInput {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a failed fit left %s behind (err %v)", out, err)
	}
	entries, _ := os.ReadDir(d.dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Fatalf("temporary file %s left behind", e.Name())
		}
	}
}

func TestFitFromStdinCSV(t *testing.T) {
	d := newToy(t)
	csv := "1,0\n2,1\n3,0\n4,1\n5,0\n6,1\n"
	y := writeText(t, d.dir, "y6.txt", "-1\n-1\n-1\n1\n1\n1\n")
	code, out, stderr := cli(t, csv, "fit", "--features", "-", "--labels", y)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"greedytl-model"`) {
		t.Fatalf("model JSON not on stdout: %q", out)
	}
}

// TestOneInputFromStdin: two inputs cannot both read standard input; the
// message says so (it said "<stdin>: no labels" or "- has 20 rows but
// H.npy has 40"), and the standard input is named <stdin> in messages.
func TestOneInputFromStdin(t *testing.T) {
	d := newToy(t)
	csv := "1,0\n2,1\n3,0\n4,1\n5,0\n6,1\n"
	model := d.fitModel(t, "m.json")
	for _, args := range [][]string{
		{"fit", "--features", "-", "--source-scores", "-", "--labels", d.ytext},
		{"fit", "--features", "-", "--labels", "-"},
		{"fit", "--source-scores", "-", "--labels", "-"},
		{"predict", "--model", model, "--features", "-", "--source-scores", d.Htest, "--labels", "-"},
		{"predict", "--model", "-", "--features", "-", "--source-scores", d.Htest},
		{"predict", "--model", "-", "--features", d.Xtest, "--source-scores", d.Htest, "--labels", "-"},
		{"fit", "--features", "-", "--oracle-features", "-", "--labels", d.ytext, "--method", "best-source"},
		{"fit", "--features", d.X, "--unlabelled-features", "-", "--labels", "-", "--method", "dam"},
		{"fit", "--features", d.X, "--labels", "-", "--oracle-features", d.Xtest, "--oracle-labels", "-", "--method", "best-source"},
	} {
		code, out, stderr := cli(t, csv, args...)
		if code != exitInput || out != "" || !strings.Contains(stderr, "cannot both read standard input") {
			t.Errorf("%q: exit %d, stderr %q: want %d and a message that two inputs read standard input", args, code, stderr, exitInput)
		}
	}
	code, _, stderr := cli(t, csv, "fit", "--features", "-", "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat")
	if code != exitInput || !strings.Contains(stderr, "<stdin> has 6 rows") {
		t.Errorf("exit %d, stderr %q: want %d and the standard input named <stdin>", code, stderr, exitInput)
	}
}

// TestFitFromStdinNPY: --features - reads a .npy from standard input, told
// apart from CSV by its magic bytes (issue: it was read as CSV and failed).
func TestFitFromStdinNPY(t *testing.T) {
	d := newToy(t)
	npy, err := os.ReadFile(d.X)
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := cli(t, string(npy), "fit", "--features", "-", "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, fromFile, _ := cli(t, "", "fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat")
	if code != 0 || out != fromFile {
		t.Error("the model fitted from a .npy on stdin differs from the one fitted from the file")
	}
}

// TestMessagesNameTheFileOnce: errors about the data as a whole name the
// files, and the library's layers do not repeat themselves (issue:
// "greedytl: greedytl: method: greedytl: greedytl: column 1 of X …" and
// "method: X has 9 columns …" without a file).
func TestMessagesNameTheFileOnce(t *testing.T) {
	d := newToy(t)
	dir := d.dir
	huge := writeText(t, dir, "huge.csv", "1,1.79e308\n2,1.79e308\n3,1.79e308\n4,-1.79e308\n") // deviations overflow
	y4 := writeText(t, dir, "y4.txt", "1\n-1\n1\n-1\n")
	model := d.fitModel(t, "m.json")
	narrow := writeText(t, dir, "narrow.csv", "1,2,3\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--features", huge, "--labels", y4, "--method", "greedytl"}, "greedytl: fitting greedytl on X = " + huge + ": greedytl.Fit: column 1 of X cannot be standardised: its values are so far apart that their deviations from the mean overflow float64\n"},
		{[]string{"fit", "--features", huge, "--labels", y4}, "greedytl: fitting greedytl-auto on X = " + huge + ": greedytl-auto: method: X: column 1 cannot be standardised: its values are not finite, or so far apart that their deviations from the mean overflow float64\n"},
		{[]string{"predict", "--model", model, "--features", narrow}, "greedytl: model " + model + " on X = " + narrow + ": method: predict: X has 3 columns, the model was trained on 6 features\n"},
	} {
		wantInputError(t, tc.want, tc.args...)
		if _, _, stderr := cli(t, "", tc.args...); stderr != tc.want {
			t.Errorf("%v: stderr %q, want %q", tc.args, stderr, tc.want)
		}
	}
}

// TestModelFromStdin: --model - (predict) and MODEL - (inspect) read the
// model from standard input, as the data flags read "-": the output is the
// file's, for binary, multi-class and liblinear models, and messages name
// the model <stdin> (issue: "-" was opened as a file named "-").
func TestModelFromStdin(t *testing.T) {
	d := newToy(t)
	binary := d.fitModel(t, "binary.json", "--max-k", "2")
	multi := filepath.Join(d.dir, "multi.json")
	y3 := writeText(t, d.dir, "y3.txt", strings.Repeat("a\nb\nc\n", 8))
	if code, _, stderr := cli(t, "", "fit", "--method", "nearest-mean", "--features", d.X, "--source-scores", d.H, "--labels", y3, "--out", multi); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	lib := writeText(t, d.dir, "lib.model", "solver_type L2R_LR\nnr_class 2\nlabel 1 -1\nnr_feature 6\nbias -1\nw\n0.5\n-1\n0.25\n0\n2\n-0.125\n")
	for _, tc := range []struct {
		name, model string
		args        []string // besides the model
	}{
		{"predict binary", binary, []string{"predict", "--features", d.Xtest, "--source-scores", d.Htest, "--labels", d.yte}},
		{"predict multi-class", multi, []string{"predict", "--features", d.Xtest, "--source-scores", d.Htest, "--scores"}},
		{"predict liblinear", lib, []string{"predict", "--features", d.Xtest}},
		{"inspect binary", binary, []string{"inspect", "--json"}},
		{"inspect multi-class", multi, []string{"inspect"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, err := os.ReadFile(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			withModel := func(m string) []string {
				if tc.args[0] == "inspect" {
					return append(tc.args[:len(tc.args):len(tc.args)], m)
				}
				return append(tc.args[:len(tc.args):len(tc.args)], "--model", m)
			}
			code, want, wantErr := cli(t, "", withModel(tc.model)...)
			if code != 0 {
				t.Fatalf("from the file: exit %d: %s", code, wantErr)
			}
			code, got, gotErr := cli(t, string(text), withModel("-")...)
			if code != 0 || got != want || gotErr != wantErr {
				t.Errorf("from stdin: exit %d, stdout %d bytes, stderr %q; want 0 and the file's output (%d bytes, stderr %q)", code, len(got), gotErr, len(want), wantErr)
			}
		})
	}
	// Messages name the model <stdin>.
	truncated, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"empty", "", []string{"predict", "--model", "-", "--features", d.Xtest}, "greedytl: <stdin> is empty: no model in it"},
		{"truncated", string(truncated[:len(truncated)/2]), []string{"inspect", "-"}, "greedytl: <stdin>: method: reading model: the model is truncated"},
		{"not JSON", "hello\n", []string{"inspect", "-"}, "greedytl: <stdin> is not a greedytl model (JSON) file"},
		{"UTF-16", "\xff\xfe{\x00\n\x00", []string{"inspect", "-"}, "greedytl: <stdin>: UTF-16 text (it starts with UTF-16's byte order mark, as Windows Notepad and Excel save \"Unicode\" text): save it as UTF-8"},
		{"UTF-16 features", "\xff\xfe1\x00,\x002\x00", []string{"predict", "--model", binary, "--features", "-"}, "greedytl: <stdin>: UTF-16 text"},
		{"liblinear to inspect", "solver_type L2R_LR\n", []string{"inspect", "-"}, "greedytl: <stdin> is a liblinear model file"},
		{"LIBSVM to predict", "svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nlabel 1 -1\nnr_sv 1 0\nSV\n1 1:0.5\n", []string{"predict", "--model", "-", "--features", d.Xtest}, "greedytl: <stdin> is a LIBSVM model (svm-train's, of support vectors), not liblinear's: greedytl reads the JSON models of greedytl fit and, in predict, liblinear's model files (liblinear-train, greedytl train)\n"},
		{"LIBSVM to inspect", "svm_type c_svc\n", []string{"inspect", "-"}, "greedytl: <stdin> is a LIBSVM model"},
		{"bad liblinear", "solver_type L2R_LR\nnr_class 2\nlabel 1 -1\nnr_feature 6\nbias -1\nw\n0.5\n", []string{"predict", "--model", "-", "--features", d.Xtest}, "greedytl: <stdin>:7: file ends after 1 of 6 weight lines"},
		{"no source scores", string(truncated), []string{"predict", "--model", "-", "--features", d.Xtest}, "greedytl: <stdin> was fitted with 20 sources: give their scores with --source-scores FILE or the sources with --sources DIR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := cli(t, tc.stdin, tc.args...)
			if code != exitInput || out != "" || !strings.HasPrefix(stderr, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and a message starting %q", code, out, stderr, exitInput, tc.want)
			}
		})
	}
}

// TestPredictOneClassLabels: test labels of one class, with a model that
// records its label names, are scored (predict refused them: "only one
// class"), and the balanced accuracy reported is that class's rate, counted
// here from the scores printed.
func TestPredictOneClassLabels(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "m.json")
	for _, tc := range []struct {
		label, note string
		right       func(score float64) bool
	}{
		{"cat", "all positive: the true positive rate", func(s float64) bool { return s > 0 }},
		{"dog", "all negative: the true negative rate", func(s float64) bool { return !(s > 0) }},
	} {
		labels := writeText(t, d.dir, tc.label+".txt", strings.Repeat(tc.label+"\n", 200))
		lines, stderr := predictLines(t, 200, "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--labels", labels)
		right := 0
		for _, l := range lines {
			v, err := strconv.ParseFloat(l, 64)
			if err != nil {
				t.Fatal(err)
			}
			if tc.right(v) {
				right++
			}
		}
		want := "balanced accuracy: " + strconv.FormatFloat(float64(right)/200, 'f', 4, 64) + " (200 examples, " + tc.note + ")\n"
		if stderr != want {
			t.Errorf("labels all %s: stderr %q, want %q", tc.label, stderr, want)
		}
	}
}

// TestExtraSampleColumns: the --oracle-* and --unlabelled-* samples must
// have the training sample's columns, which the message says naming both
// files (it said "fitting best-source on X = X.npy, H = H.npy: method:
// best-source: oracle data: X has 3 columns, …", naming neither).
func TestExtraSampleColumns(t *testing.T) {
	d := newToy(t)
	narrowX := writeText(t, d.dir, "narrowX.csv", strings.Repeat("1,2,3\n", 200))
	narrowH := writeText(t, d.dir, "narrowH.csv", strings.Repeat("1,2\n", 200))
	fit := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--method", "best-source", "--oracle-features", narrowX, "--oracle-source-scores", d.Htest, "--oracle-labels", d.yte},
			"--oracle-features " + narrowX + " has 3 columns but --features " + d.X + " has 6: the oracle examples need the training sample's columns"},
		{[]string{"--method", "best-source", "--oracle-features", d.Xtest, "--oracle-source-scores", narrowH, "--oracle-labels", d.yte},
			"--oracle-source-scores " + narrowH + " has 2 columns but --source-scores " + d.H + " has 20"},
		{[]string{"--method", "best-source", "--oracle-source-scores", d.Htest, "--oracle-labels", d.yte},
			"--oracle-features is not given but --features " + d.X + " has 6 columns"},
		{[]string{"--method", "dam", "--unlabelled-features", narrowX, "--unlabelled-source-scores", d.Htest},
			"--unlabelled-features " + narrowX + " has 3 columns but --features " + d.X + " has 6: the unlabelled examples"},
		{[]string{"--method", "dam", "--unlabelled-features", d.Xtest},
			"--unlabelled-source-scores is not given but --source-scores " + d.H + " has 20 columns"},
	} {
		wantInputError(t, tc.want, append(fit[:len(fit):len(fit)], tc.args...)...)
	}
	// Without --features in training, oracle features are refused as well.
	wantInputError(t, "--oracle-features "+d.Xtest+" has 6 columns but the training sample has no --features",
		"fit", "--method", "best-source", "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat",
		"--oracle-features", d.Xtest, "--oracle-source-scores", d.Htest, "--oracle-labels", d.yte)
}

// TestPredictLiblinearLabels: a liblinear model's scores favour its
// greater label, so --labels takes that one as positive without --positive
// (labels 2 and 4 needed --positive), a --positive naming the other is
// refused (--positive 2 printed the balanced accuracy of the inverted
// scores, 1 − the true one), and so are labels that are not the model's.
// The model: labels 2 and 4, w = (1, −1): the score of 4 is x₁ − x₀.
func TestPredictLiblinearLabels(t *testing.T) {
	dir := t.TempDir()
	model := writeText(t, dir, "m.model", "solver_type L2R_LR\nnr_class 2\nlabel 2 4\nnr_feature 2\nbias -1\nw\n1\n-1\n")
	X := writeText(t, dir, "X.csv", "1,0\n0,1\n2,0\n0,3\n3,1\n") // scores -1, 1, -2, 3, -2
	y := writeText(t, dir, "y.txt", "2\n4\n4\n4\n2\n")           // 4: 2 of 3 right; 2: 2 of 2
	pm := writeText(t, dir, "pm.txt", "-1\n1\n1\n1\n-1\n")
	want := "balanced accuracy: 0.8333 (5 examples)\n" // (2/3 + 1) / 2
	for _, args := range [][]string{{}, {"--positive", "4"}, {"--positive", "4.0"}} {
		lines, stderr := predictLines(t, 5, append([]string{"--model", model, "--features", X, "--labels", y}, args...)...)
		if strings.Join(lines, " ") != "-1 1 -2 3 -2" || stderr != want {
			t.Errorf("%q: scores %q, stderr %q; want -1 1 -2 3 -2 and %q", args, lines, stderr, want)
		}
	}
	// Wider X: its first columns are the model's features, the others
	// have weight 0, as liblinear-predict reads them, and a note says so
	// (an index column in front gave other scores without a word).
	X3 := writeText(t, dir, "X3.csv", "1,0,7\n0,1,7\n2,0,7\n0,3,7\n3,1,7\n")
	lines, stderr := predictLines(t, 5, "--model", model, "--features", X3)
	if note := "greedytl: note: " + X3 + " has 3 columns and the model " + model + " has 2 features: column 3 is read as a feature the training data never had (weight 0, as liblinear-predict reads it)\n"; strings.Join(lines, " ") != "-1 1 -2 3 -2" || stderr != note {
		t.Errorf("3 columns: scores %q, stderr %q; want -1 1 -2 3 -2 and %q", lines, stderr, note)
	}
	one := writeText(t, dir, "one.model", "solver_type L2R_LR\nnr_class 2\nlabel 2 4\nnr_feature 1\nbias -1\nw\n-1\n")
	lines, stderr = predictLines(t, 5, "--model", one, "--features", X3)
	if note := "greedytl: note: " + X3 + " has 3 columns and the model " + one + " has 1 feature: columns 2 and 3 are read as features the training data never had (weight 0, as liblinear-predict reads them)\n"; strings.Join(lines, " ") != "1 0 2 0 3" || stderr != note { // the score of 4: x₀
		t.Errorf("3 columns, a model of 1 feature: scores %q, stderr %q; want 1 0 2 0 3 and %q", lines, stderr, note)
	}
	// A .npy file's columns count from 0: "columns 2 and 3" named the
	// text file's numbers.
	X3npy := writeNPY(t, dir, "X3.npy", mat.NewDense(5, 3, []float64{1, 0, 7, 0, 1, 7, 2, 0, 7, 0, 3, 7, 3, 1, 7}))
	lines, stderr = predictLines(t, 5, "--model", one, "--features", X3npy)
	if note := "greedytl: note: " + X3npy + " has 3 columns and the model " + one + " has 1 feature: columns 1 and 2 are read as features the training data never had (weight 0, as liblinear-predict reads them)\n"; strings.Join(lines, " ") != "1 0 2 0 3" || stderr != note {
		t.Errorf("3 columns of a .npy file, a model of 1 feature: scores %q, stderr %q; want 1 0 2 0 3 and %q", lines, stderr, note)
	}
	lines, stderr = predictLines(t, 5, "--model", model, "--features", X3npy)
	if note := "greedytl: note: " + X3npy + " has 3 columns and the model " + model + " has 2 features: column 2 is read as a feature the training data never had (weight 0, as liblinear-predict reads it)\n"; strings.Join(lines, " ") != "-1 1 -2 3 -2" || stderr != note {
		t.Errorf("3 columns of a .npy file: scores %q, stderr %q; want -1 1 -2 3 -2 and %q", lines, stderr, note)
	}
	wantInputError(t, `--positive 2: `+model+` was fitted with "4" as the positive label`, "predict", "--model", model, "--features", X, "--labels", y, "--positive", "2")
	wantInputError(t, `pm.txt:1: label "-1" is not one of the labels `+model+` was fitted on (positive "4", negative "2")`, "predict", "--model", model, "--features", X, "--labels", pm)
	// Refused as for a binary greedytl model: they were ignored (plain
	// scores, exit 0).
	for _, flag := range []string{"--json", "--scores"} {
		wantInputError(t, "--scores and --json are for multi-class models; "+model+" is binary: predict prints its scores without them", "predict", "--model", model, "--features", X, "--labels", y, flag)
	}
}

// TestPredictLiblinearTies: predict's balanced accuracy of a liblinear
// model counts the predictions liblinear-predict makes, ties included. The
// model lists its smaller label first ("label 0 1", as liblinear writes it
// for 0/1 labels whose first example is a 0), w = (1, −1), no bias: rows of
// decision value 0 (a row of zeros, a tie) are predicted 1 by liblinear
// (Labels[1] when the value is not > 0), and their score 0 was counted as
// a prediction of 0, giving 0.6667 where liblinear-predict is right on
// every row. With liblinear-predict installed, its predictions are
// compared too.
func TestPredictLiblinearTies(t *testing.T) {
	dir := t.TempDir()
	model := writeText(t, dir, "m.model", "solver_type L2R_LR\nnr_class 2\nlabel 0 1\nnr_feature 2\nbias -1\nw\n1\n-1\n")
	X := writeText(t, dir, "X.csv", "0,0\n1,1\n0,1\n1,0\n") // decision values 0, 0, -1, 1
	y := writeText(t, dir, "y.txt", "1\n1\n1\n0\n")
	lines, stderr := predictLines(t, 4, "--model", model, "--features", X, "--labels", y)
	if want := "balanced accuracy: 1.0000 (4 examples)\n"; strings.Join(lines, " ") != "0 0 1 -1" || stderr != want {
		t.Errorf("scores %q, stderr %q; want 0 0 1 -1 and %q", lines, stderr, want)
	}
	peertest.Tool(t, "liblinear-predict")
	svm := writeText(t, dir, "test.svm", "1\n1 1:1 2:1\n1 2:1\n0 1:1\n")
	pred := filepath.Join(dir, "pred.txt")
	runTool(t, "liblinear-predict", svm, model, pred)
	if got, _ := os.ReadFile(pred); string(got) != "1\n1\n1\n0\n" {
		t.Errorf("liblinear-predict predicts %q, want 1 1 1 0", got)
	}
}

// TestPredictLiblinearFromPipe: a liblinear model read from a pipe by
// name (bash's <(zcat m.model.gz), /dev/stdin) is read once: predict
// opened the file again after reading its first line to tell the format,
// and from a pipe got the rest alone ("file ends before the "w" line").
func TestPredictLiblinearFromPipe(t *testing.T) {
	if _, err := os.Stat("/dev/fd"); err != nil {
		t.Skip("no /dev/fd on this system")
	}
	dir := t.TempDir()
	text := "solver_type L2R_LR\nnr_class 2\nlabel 2 4\nnr_feature 2\nbias -1\nw\n1\n-1\n"
	X := writeText(t, dir, "X.csv", "1,0\n0,1\n")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if _, err := pw.WriteString(text); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	lines, _ := predictLines(t, 2, "--model", "/dev/fd/"+strconv.Itoa(int(pr.Fd())), "--features", X)
	if got := strings.Join(lines, " "); got != "-1 1" {
		t.Errorf("scores %q, want -1 1", got)
	}
}

// TestHelpUnknownTopic: "greedytl help TOPIC" shows TOPIC's help, and a
// TOPIC that is no command is a usage error (exit 2) naming it, with a
// suggestion, as "greedytl TOPIC" is; cobra's help command showed the
// root's help with status 0 for it ("greedytl help fitt").
func TestHelpUnknownTopic(t *testing.T) {
	checkRuns(t, []runCase{
		{[]string{"help"}, 0, "greedytl learns", ""},
		{[]string{"help", "fit"}, 0, "Fit trains", ""},
		{[]string{"help", "completion", "bash"}, 0, "Generate", ""},
		{[]string{"help", "fitt"}, 2, "", `greedytl: no help topic: "greedytl" has no command "fitt"; did you mean "fit"? (see 'greedytl --help')` + "\n"},
		{[]string{"help", "fit", "extra"}, 2, "", `greedytl: no help topic: "greedytl fit" has no command "extra" (see 'greedytl --help')` + "\n"},
	})
}

// TestEmptyStringFlags: a string flag given an empty value (an unset
// variable in a script) is a usage error naming it. Each of these was read
// as the flag left out, exit 0: a fit without the sources or the source
// scores it was given, a predict that evaluated nothing, an experiment
// that trained its own sources, every shard run by each task, no report
// or merge written, a model under the default name.
func TestEmptyStringFlags(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "m.json")
	run := reportRun(t)
	svm := writeText(t, d.dir, "d.svm", "+1 1:1 2:0.5\n-1 1:-1 2:0.25\n+1 1:0.8\n-1 2:-0.5\n")
	t.Chdir(t.TempDir())
	fit := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat"}
	for _, tc := range []struct {
		flag string
		args []string
	}{
		{"source-scores", []string{"fit", "--features", d.X, "--labels", d.ytext, "--positive", "cat", "--source-scores", ""}},
		{"sources", append(slices.Clone(fit), "--sources", "")},
		{"positive", []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--method", "nearest-mean", "--positive", ""}},
		{"out", append(slices.Clone(fit), "--out", "")},
		{"labels", []string{"predict", model, "--features", d.Xtest, "--source-scores", d.Htest, "--labels", ""}},
		{"sources", []string{"experiment", "--data", d.dir, "--out", "run", "--sources", ""}},
		{"shard", []string{"experiment", "--data", d.dir, "--out", "run", "--shard", ""}},
		{"shard", []string{"train-sources", "--data", d.dir, "--out", "src", "--shard", ""}},
		{"out", []string{"report", run, "--out", ""}},
		{"out", []string{"merge", run, "--out", ""}},
		{"out", []string{"train", "--data", svm, "--out", ""}},
	} {
		wantInputError(t, "--"+tc.flag+" is empty: give a value, or leave the flag out", tc.args...)
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("the refused commands wrote %v", entries)
	}
}

// TestCommandAfterDoubleDash: a command after "--" is an argument of the
// root, refused saying so; it was refused as an unknown command with the
// suggestion to type it ("did you mean "fit"?").
func TestCommandAfterDoubleDash(t *testing.T) {
	checkRuns(t, []runCase{{[]string{"--", "fit"}, exitInput, "",
		`greedytl: "fit" follows "--", which makes it an argument: give the command before any "--" (see 'greedytl --help')` + "\n"}})
}

// runCase is a command line and what running it must give: its exit
// status, a prefix of its standard output and its whole standard error.
type runCase struct {
	args   []string
	code   int
	stdout string // a prefix of standard output
	stderr string
}

// checkRuns runs each case's command line and checks what it gives.
func checkRuns(t *testing.T, cases []runCase) {
	t.Helper()
	for _, tc := range cases {
		code, stdout, stderr := cli(t, "", tc.args...)
		if code != tc.code || !strings.HasPrefix(stdout, tc.stdout) || stderr != tc.stderr {
			t.Errorf("%v: exit %d, stdout %.40q, stderr %q; want %d, %q…, %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}

// TestCompletionUsage: the completion command's arguments are checked as
// every command's: an unknown shell, or an argument after the shell, is a
// usage error (exit 2, naming the command). cobra's completion command,
// not runnable, showed its help with status 0 for "completion fsh", and
// "completion bash extra" exited 1.
func TestCompletionUsage(t *testing.T) {
	checkRuns(t, []runCase{
		{[]string{"completion"}, 0, "Generate the autocompletion script", ""},
		{[]string{"completion", "bash"}, 0, "# bash completion", ""},
		{[]string{"completion", "fsh"}, 2, "", `greedytl: unknown command "fsh" for "greedytl completion" (see 'greedytl completion --help')` + "\n"},
		{[]string{"completion", "bash", "extra"}, 2, "", `greedytl: greedytl completion bash takes no argument, and was given "extra" (see 'greedytl completion bash --help')` + "\n"},
	})
}

// TestNoArgsCommands: every command that takes no positional argument
// refuses a stray one with one message, naming it and saying the command
// takes none, a usage error (exit 2) as predict's and inspect's too many
// (TestArgCountMessages). cobra's NoArgs said `unknown command
// "extra" for "greedytl fit"`, as if fit had subcommands. Every leaf
// command of the tree is tried, so that a new one is checked too: those
// that take arguments say something else, never "unknown command".
func TestNoArgsCommands(t *testing.T) {
	want := map[string]bool{"fit": true, "bench": true, "demo": true, "experiment": true, "train-sources": true,
		"synth": true, "version": true, "completion bash": true, "completion zsh": true, "completion fish": true, "completion powershell": true}
	var leaves [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if !c.HasSubCommands() && c.Name() != "help" {
			leaves = append(leaves, path)
		}
		for _, sub := range c.Commands() {
			walk(sub, append(slices.Clone(path), sub.Name()))
		}
	}
	walk(newRootCmd(&streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard}), nil)
	seen := 0
	for _, path := range leaves {
		name := strings.Join(path, " ")
		// Two stray arguments after the flags a command requires: every
		// one named, in order.
		code, _, stderr := cli(t, "", append(slices.Clone(path), "extra", "more")...)
		if !want[name] {
			if strings.Contains(stderr, "unknown command") || strings.Contains(stderr, "takes no argument") {
				t.Errorf("%s extra more: %q; a command that takes arguments does not refuse them so", name, stderr)
			}
			continue
		}
		seen++
		msg := fmt.Sprintf("greedytl: greedytl %s takes no argument, and was given \"extra\", \"more\" (see 'greedytl %s --help')\n", name, name)
		if code != exitInput || stderr != msg {
			t.Errorf("%s extra more: exit %d, %q; want %d, %q", name, code, stderr, exitInput, msg)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d commands without arguments found among %v", seen, len(want), leaves)
	}
}

// TestArgCountMessages: a command that takes arguments, given too many or
// too few, says what it takes and what it was given, naming every
// argument, in noArgs's words, a usage error (exit 2): cobra's validators
// said "accepts 1 arg(s), received 2", naming neither the command's
// argument nor the ones given.
func TestArgCountMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "a", "b"}, `greedytl predict takes at most one argument, the model file (or give it as --model), and was given 2: "a", "b"`},
		{[]string{"inspect", "a", "b"}, `greedytl inspect takes one argument, the model file (- reads it from standard input), and was given 2: "a", "b"`},
		{[]string{"inspect"}, `greedytl inspect takes one argument, the model file (- reads it from standard input), and was given none`},
		{[]string{"train", "a", "b", "c"}, `greedytl train takes at most two arguments, the training file and the model file to write (or give them as --data and --out), and was given 3: "a", "b", "c"`},
		{[]string{"merge"}, `greedytl merge takes one or more arguments, the run directories or result files to merge, and was given none`},
		{[]string{"report"}, `greedytl report takes one or more arguments, the run directories or result files to report on, and was given none`},
	} {
		code, stdout, stderr := cli(t, "", tc.args...)
		want := fmt.Sprintf("greedytl: %s (see 'greedytl %s --help')\n", tc.want, tc.args[0])
		if code != exitInput || stdout != "" || stderr != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d, nothing, %q", strings.Join(tc.args, " "), code, stdout, stderr, exitInput, want)
		}
	}
}

// TestFitSameFileOnAnyCores: the README says that one build given the same
// inputs and --seed writes the same model file, byte for byte, on any number
// of cores. greedytl-auto spreads its committees over the cores from
// m·N = 100,000 on (here 120 × 1,000) and GreedyTL-59 draws its candidates
// from the seed: each fitted twice with one core and once with two gives
// three identical files, and another seed gives GreedyTL-59 another file.
func TestFitSameFileOnAnyCores(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 3))
	const m, d, n = 120, 600, 400
	X, H := mat.NewDense(m, d, nil), mat.NewDense(m, n, nil)
	var y strings.Builder
	for i := 0; i < m; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, rng.NormFloat64())
		}
		for j := 0; j < n; j++ {
			H.Set(i, j, rng.NormFloat64())
		}
		if X.At(i, 0)+H.At(i, 1)+rng.NormFloat64() > 0 {
			y.WriteString("1\n")
		} else {
			y.WriteString("-1\n")
		}
	}
	x, h, yp := writeNPY(t, dir, "X.npy", X), writeNPY(t, dir, "H.npy", H), writeText(t, dir, "y.txt", y.String())
	fit := func(procs int, name string, extra ...string) []byte {
		t.Helper()
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		out := filepath.Join(dir, name)
		args := append([]string{"fit", "--features", x, "--source-scores", h, "--labels", yp, "--out", out}, extra...)
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("fit %v: exit %d: %s", extra, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, method := range [][]string{{"--method", "greedytl-auto"}, {"--sample", "59", "--seed", "7"}} {
		a, b, c := fit(1, "a.json", method...), fit(1, "b.json", method...), fit(2, "c.json", method...)
		if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
			t.Errorf("fit %v: the model files differ between runs (one core: %t, one against two cores: %t)", method, bytes.Equal(a, b), bytes.Equal(a, c))
		}
	}
	if bytes.Equal(fit(1, "s7.json", "--sample", "59", "--seed", "7"), fit(1, "s8.json", "--sample", "59", "--seed", "8")) {
		t.Error("GreedyTL-59 with --seed 7 and --seed 8 wrote the same model file: the seed is not used")
	}
}

// TestFloat32OldLabelNames: a model fitted before float32 .npy labels were
// named by float32's shortest form records float64's spelling of them
// ("0.10000000149011612" for float32 0.1); predict accepts such a model's
// own float32 labels (it refused them: 'label "0.1" is not one of the
// labels') and scores them as a model recording the new names does, and
// --positive takes either spelling, in fit and predict; a float32 value
// the model was not fitted on is still refused.
func TestFloat32OldLabelNames(t *testing.T) {
	d := newToy(t)
	f32 := func(name, textFile string) string {
		text, err := os.ReadFile(textFile)
		if err != nil {
			t.Fatal(err)
		}
		labels := strings.Fields(string(text))
		var b bytes.Buffer
		if err := dataset.WriteNPYHeader(&b, "<f4", []int{len(labels)}); err != nil {
			t.Fatal(err)
		}
		for _, l := range labels {
			v := float32(0.2)
			switch l {
			case "cat":
				v = 0.1
			case "other":
				v = 0.3
			}
			b.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)))
		}
		return writeText(t, d.dir, name, b.String())
	}
	y32, yt32 := f32("y32.npy", d.ytext), f32("yt32.npy", d.yte)
	old1, old2 := strconv.FormatFloat(float64(float32(0.1)), 'g', -1, 64), strconv.FormatFloat(float64(float32(0.2)), 'g', -1, 64)
	model := filepath.Join(d.dir, "new.json")
	for _, positive := range []string{"0.1", old1} {
		if code, _, stderr := cli(t, "", "fit", "--features", d.X, "--source-scores", d.H, "--labels", y32, "--positive", positive, "--out", model); code != 0 {
			t.Fatalf("fit --positive %s: exit %d: %s", positive, code, stderr)
		}
	}
	text, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(text, &m); err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Positive string   `json:"positive"`
		Negative []string `json:"negative"`
	}
	if err := json.Unmarshal(m["labels"], &rec); err != nil || rec.Positive != "0.1" || !slices.Equal(rec.Negative, []string{"0.2"}) {
		t.Fatalf("labels recorded %s (%v), want positive 0.1, negative 0.2", m["labels"], err)
	}
	m["labels"] = json.RawMessage(`{"positive":"` + old1 + `","negative":["` + old2 + `"]}`)
	text, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	oldModel := writeText(t, d.dir, "old.json", string(text))
	inputs := []string{"--features", d.Xtest, "--source-scores", d.Htest, "--labels", yt32}
	_, want := predictLines(t, 200, append([]string{"--model", model}, inputs...)...)
	if !strings.HasPrefix(want, "balanced accuracy: ") {
		t.Fatalf("predict new.json: stderr %q", want)
	}
	for _, mf := range []string{model, oldModel} {
		for _, positive := range [][]string{nil, {"--positive", "0.1"}, {"--positive", old1}} {
			args := append(append([]string{"--model", mf}, inputs...), positive...)
			if _, stderr := predictLines(t, 200, args...); stderr != want {
				t.Errorf("predict %s %q: stderr %q, want %q", filepath.Base(mf), positive, stderr, want)
			}
		}
		for _, positive := range []string{"0.2", old2} {
			wantInputError(t, "--positive "+positive+": "+mf+" was fitted with", append(append([]string{"predict", "--model", mf}, inputs...), "--positive", positive)...)
		}
	}
	other := writeText(t, d.dir, "other.txt", strings.Repeat("cat\nother\n", 100))
	wantInputError(t, `label "0.3" is not one of the labels `+oldModel+" was fitted on", "predict", "--model", oldModel,
		"--features", d.Xtest, "--source-scores", d.Htest, "--labels", f32("other32.npy", other))
}

// TestInspectDictionary checks what inspect says of a dictionary model,
// which classifies sparse codes and has no per-column weights: the column
// counts it was trained on (6 features, 20 sources), not "0 features and
// 0 sources; 0 of the 0 columns", and that it has no per-column weights.
func TestInspectDictionary(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "dict.json", "--method", "dictionary")
	code, out, stderr := cli(t, "", "inspect", model)
	if code != 0 {
		t.Fatalf("inspect: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"trained on 6 features and 20 sources;", "no per-column weights"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect of a dictionary model: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "0 of the") {
		t.Errorf("inspect of a dictionary model counts columns of non-zero weight it does not have:\n%s", out)
	}
	code, out, stderr = cli(t, "", "inspect", "--json", model)
	if code != 0 {
		t.Fatalf("inspect --json: exit %d: %s", code, stderr)
	}
	var sum struct {
		NumFeatures int   `json:"num_features"`
		NumSources  int   `json:"num_sources"`
		Selected    []any `json:"selected"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("inspect --json: %v\n%s", err, out)
	}
	if sum.NumFeatures != 6 || sum.NumSources != 20 || sum.Selected == nil || len(sum.Selected) != 0 {
		t.Errorf("inspect --json of a dictionary model: %+v, want 6 features, 20 sources and an empty selected array", sum)
	}
}

// TestInspectDictionaryMulti checks inspect's note for dictionary fitted
// one class against the rest: its class models classify sparse codes, so
// it has no per-column weights, but it does not compare whole rows, as
// nearest-neighbour and simpleshot do (and as inspect said of it).
func TestInspectDictionaryMulti(t *testing.T) {
	dir := t.TempDir()
	x, h, y, _, _, _ := multiFiles(t, dir)
	for _, tc := range []struct{ method, want, not string }{
		{"dictionary", "sparse codes", "whole rows"},
		{"simpleshot", "whole rows", "sparse codes"},
	} {
		model := filepath.Join(dir, tc.method+".json")
		if code, _, stderr := cli(t, "", "fit", "--method", tc.method, "--features", x, "--source-scores", h, "--labels", y, "--out", model); code != 0 {
			t.Fatalf("fit --method %s: exit %d: %s", tc.method, code, stderr)
		}
		code, out, stderr := cli(t, "", "inspect", model)
		if code != 0 || !strings.Contains(out, tc.want) || !strings.Contains(out, "no per-column weights") || strings.Contains(out, tc.not) {
			t.Errorf("inspect of a %s model of 3 classes: exit %d (%s), want %q and no %q in\n%s", tc.method, code, stderr, tc.want, tc.not, out)
		}
	}
}

// TestPredictLiblinearOverflowNamesTheRowAsTheFileDoes: a liblinear
// model's score that overflows is named in the features file's own
// convention: a text file's line (from 1, past its comments), a .npy
// file's row (from 0). "the score of row 2 is +Inf" named a CSV's row from
// 0 and no line.
func TestPredictLiblinearOverflowNamesTheRowAsTheFileDoes(t *testing.T) {
	dir := t.TempDir()
	model := writeText(t, dir, "m.model", "solver_type L2R_LR\nnr_class 2\nlabel 0 1\nnr_feature 2\nbias -1\nw\n1e308\n1e308\n")
	X := writeText(t, dir, "X.csv", "# made by hand\n0,0\n0,1\n# more\n1,1\n0,0\n") // row 2: 2e308 (the score of label 1: −2e308)
	Xnpy := writeNPY(t, dir, "X.npy", mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 1, 0, 0}))
	wantInputError(t, "model "+model+" on "+X+":5: the row's score is -Inf: its features times the model's weights overflow float64", "predict", "--model", model, "--features", X)
	wantInputError(t, "model "+model+" on "+Xnpy+" row 2: the row's score is -Inf: its features times the model's weights overflow float64", "predict", "--model", model, "--features", Xnpy)
}
