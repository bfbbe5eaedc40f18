package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/method"
)

// writeNPYWith writes m to dir/name as .npy, as writeNPY does, with its
// element (i, j) then set to v, a NaN or an infinity, which WriteNPY
// refuses to write (numpy.save writes it), for the refusals on reading.
func writeNPYWith(t *testing.T, dir, name string, m *mat.Dense, i, j int, v float64) string {
	t.Helper()
	p := writeNPY(t, dir, name, m)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	r, c := m.Dims()
	binary.LittleEndian.PutUint64(b[len(b)-8*r*c+8*(i*c+j):], math.Float64bits(v))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBadInputMessages (issue 19, item 4): every bad input of the commands
// exits 2 with one line, "greedytl: " once, each package's prefix at most
// once and none nested (errtest.CommandMessage), naming the file and line
// (or row and column) the input came from — the whole line, not a
// fragment.
func TestBadInputMessages(t *testing.T) {
	d := newToy(t)
	dir := d.dir
	nanCSV := writeText(t, dir, "nan.csv", "1,2\nNaN,3\n1,1\n")
	nanNPY := writeNPYWith(t, dir, "nan.npy", mat.NewDense(24, 6, nil), 3, 2, math.NaN())
	oneClass := writeText(t, dir, "one.txt", strings.Repeat("1\n", 24))
	short := writeText(t, dir, "short.txt", "1\n-1\n1\n")
	X3 := writeText(t, dir, "x3.csv", "1,2\n3,4\n5,7\n")
	H4 := writeText(t, dir, "h4.csv", "1,2\n3,4\n5,7\n1,1\n") // a header of numbers over three rows?
	X4 := writeText(t, dir, "x4.csv", "400,410\n0.5,0.25\n0.75,0.5\n1,1\n")
	// A blank line where a row is missing, which reading skips.
	Xgap := writeText(t, dir, "xgap.csv", "1,2\n3,4\n\n5,7\n")
	X1 := writeText(t, dir, "x1.csv", "0.5,1\n")
	y1 := writeText(t, dir, "y1.txt", "a\n")
	X3npy := writeNPY(t, dir, "x3.npy", mat.NewDense(3, 2, nil))
	H3npy := writeNPY(t, dir, "h3.npy", mat.NewDense(3, 2, nil))
	huge := writeText(t, dir, "huge.csv", "1,1.79e308\n2,1.79e308\n3,1.79e308\n4,-1.79e308\n")
	y4 := writeText(t, dir, "y4.txt", "1\n-1\n1\n-1\n")
	huge6 := writeText(t, dir, "huge6.csv", "1,1.79e308\n2,1.79e308\n3,1.79e308\n4,-1.79e308\n5,1\n6,2\n")
	y3c := writeText(t, dir, "y3c.txt", "a\nb\nc\na\nb\nc\n")
	badSVM := writeText(t, dir, "bad.svm", "1 1:1\n-1 2:x\n")
	fracSVM := writeText(t, dir, "frac.svm", "# a comment\n1 1:1\n\n1.5 1:-1\n-1 1:-1\n")
	bigSVM := writeText(t, dir, "big.svm", "1 1:1\n1234567890123456789 1:-1\n")
	bird := writeText(t, dir, "bird.txt", strings.Repeat("cat\ndog\n", 99)+"cat\nbird\n")
	constant := writeText(t, dir, "constant.csv", strings.Repeat("0,1.5\n", 24))
	empty := t.TempDir()
	run := reportRun(t)
	manifest := filepath.Join(run, "run.json")
	missing := filepath.Join(dir, "nonexistent")
	model := filepath.Join(dir, "m.json")
	if code, _, e := cli(t, "", "fit", "--features", d.X, "--labels", d.ytext, "--positive", "cat", "--out", model); code != 0 {
		t.Fatalf("fit: %d %s", code, e)
	}
	// Models fitted with sources, binary and of a native multi-class
	// method (two labels: --positive, as a binary fit).
	withH, withHMulti := filepath.Join(dir, "h.json"), filepath.Join(dir, "hmulti.json")
	for _, args := range [][]string{
		{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", withH},
		{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--method", "nearest-mean", "--positive", "cat", "--out", withHMulti},
	} {
		if code, _, e := cli(t, "", args...); code != 0 {
			t.Fatalf("%q: %d %s", args, code, e)
		}
	}
	fit := func(args ...string) []string {
		return append([]string{"fit", "--features", d.X, "--labels", d.ytext, "--positive", "cat"}, args...)
	}
	// Corrupt model files: a GreedyTL file and a multi-class one, each
	// edited in one place.
	greedyModel, multiModel := filepath.Join(dir, "greedy.json"), filepath.Join(dir, "multi.json")
	X6 := writeText(t, dir, "x6.csv", "1,2\n3,1\n0,5\n2,2\n4,1\n1,6\n")
	for _, args := range [][]string{fit("--method", "greedytl", "--out", greedyModel),
		{"fit", "--features", X6, "--labels", y3c, "--method", "nearest-mean", "--out", multiModel}} {
		if code, _, e := cli(t, "", args...); code != 0 {
			t.Fatalf("%q: %d %s", args, code, e)
		}
	}
	// corrupt writes the file from with the first match of the regular
	// expression old replaced by new, as name.
	corrupt := func(from, name, old, new string) string {
		b, err := os.ReadFile(from)
		re := regexp.MustCompile(old)
		if err != nil || !re.Match(b) {
			t.Fatalf("%s lacks %q (%v)", from, old, err)
		}
		loc := re.FindIndex(b)
		return writeText(t, dir, name, string(b[:loc[0]])+new+string(b[loc[1]:]))
	}
	badKind := corrupt(greedyModel, "kind.json", `"kind": "[a-z]+"`, `"kind": "bogus"`)
	badVersion := corrupt(greedyModel, "version.json", `"version": 2,`, `"version": 7,`)
	badFormat := corrupt(greedyModel, "format.json", `"format": "greedytl-model"`, `"format": "liblinear"`)
	truncated := corrupt(greedyModel, "truncated.json", `"columns": \[(?s:.*)`, `"columns": [`)
	noWeight := corrupt(greedyModel, "noweight.json", `"weight": [^,]*,\s*`, ``)
	twiceA := corrupt(multiModel, "classes.json", `"b"`, `"a"`) // the class list: a, a, c
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"NaN in a CSV: file, line, column", []string{"fit", "--features", nanCSV, "--labels", short},
			nanCSV + ":2: column 1 is NaN"},
		{"NaN in a .npy: file, row, column", []string{"fit", "--features", nanNPY, "--labels", d.ytext, "--positive", "cat"},
			nanNPY + ": row 3 column 2 is NaN"},
		{"NaN at predict", []string{"predict", "--model", model, "--features", nanNPY},
			nanNPY + ": row 3 column 2 is NaN"},
		{"one class", []string{"fit", "--features", d.X, "--labels", oneClass},
			oneClass + `: only one class (all labels are "1")`},
		// One example: its one class is the first cause, not its columns
		// each of one value.
		{"one example", []string{"fit", "--features", X1, "--labels", y1},
			y1 + `: only one class (all labels are "a")`},
		{"one example, a binary method", []string{"fit", "--method", "greedytl", "--features", X1, "--labels", y1},
			y1 + `: only one class (all labels are "a")`},
		{"label count", []string{"fit", "--features", d.X, "--labels", short},
			short + " has 3 labels but the inputs have 24 rows"},
		// The skipped blank line is named, not H4's first line as a header.
		{"rows of X and H, a blank line in X", []string{"predict", "--model", model, "--features", Xgap, "--source-scores", H4},
			Xgap + " has 3 rows but " + H4 + " has 4: both need one row per example (line 3 of " + Xgap + " is blank and was skipped, not read as a row: is a row missing there? write it, or delete the line)"},
		{"label count, a blank line in X", []string{"fit", "--features", Xgap, "--labels", y4},
			y4 + " has 4 labels but the inputs have 3 rows (line 3 of " + Xgap + " is blank and was skipped, not read as a row: is a row missing there? write it, or delete the line)"},
		{"rows of X and H", []string{"fit", "--features", X3, "--source-scores", d.H, "--labels", short},
			X3 + " has 3 rows but " + d.H + " has 24: both need one row per example"},
		{"rows of X and H, H's first line a header?", []string{"fit", "--features", X3npy, "--source-scores", H4, "--labels", short},
			X3npy + " has 3 rows but " + H4 + ` has 4: both need one row per example (if the first line of ` + H4 + `, "1,2", is a header of column names, not an example: greedytl reads a header of numbers as data: --features-header yes reads it as a header; or drop the line (tail -n +2 ` + H4 + ` > new.csv) or write the file without it (pandas: to_csv(path, index=False, header=False)))`},
		{"rows of X and H, X's first line a header?", []string{"fit", "--features", X4, "--source-scores", H3npy, "--labels", short},
			X4 + " has 4 rows but " + H3npy + ` has 3: both need one row per example (if the first line of ` + X4 + `, "400,410", is a header of column names, not an example: greedytl reads a header of numbers as data: --features-header yes reads it as a header; or drop the line (tail -n +2 ` + X4 + ` > new.csv) or write the file without it (pandas: to_csv(path, index=False, header=False)))`},
		{"overflow in the root package", []string{"fit", "--features", huge, "--labels", y4, "--method", "greedytl"},
			"fitting greedytl on X = " + huge + ": greedytl.Fit: column 1 of X cannot be standardised: its values are so far apart that their deviations from the mean overflow float64"},
		{"overflow through a method's name", []string{"fit", "--features", huge, "--labels", y4, "--method", "forward-reg"},
			"fitting forward-reg on X = " + huge + ": forward-reg: greedytl.Fit: column 1 of X cannot be standardised: its values are so far apart that their deviations from the mean overflow float64"},
		{"overflow in method", []string{"fit", "--features", huge, "--labels", y4, "--method", "l1-logistic"},
			"fitting l1-logistic on X = " + huge + ": method: X: column 1 cannot be standardised: its values are not finite, or so far apart that their deviations from the mean overflow float64"},
		{"overflow, one class against the rest", []string{"fit", "--features", huge6, "--labels", y3c, "--method", "l1-logistic"},
			"fitting l1-logistic on X = " + huge6 + " with the 3 classes of " + y3c + `: l1-logistic, class "a" against the rest: method: X: column 1 cannot be standardised: its values are not finite, or so far apart that their deviations from the mean overflow float64`},
		{"λ too small", fit("--method", "greedytl:lambda=1e-300"),
			"fitting greedytl:lambda=1e-300 on X = " + d.X + ": greedytl:lambda=1e-300: greedytl.Fit: λ = 1e-300 is too small for these data (zᵀz/λ reaches 2.3999999999999997e+301)"},
		// Every method --method takes, the multi-class ones too.
		// Numbers a user types mean the number written: λ = 10 and δ = 0
		// were fitted before, and -e 1e-400 trained with the default.
		{"a digit separator in a spec", fit("--method", "greedytl:lambda=1_0"),
			`method: spec "greedytl:lambda=1_0": lambda: value "1_0" is not a number`},
		{"a spec value that rounds to 0", fit("--method", "greedytl:delta=1e-400"),
			`method: spec "greedytl:delta=1e-400": delta: value "1e-400" is not zero but rounds to 0 in float64 (the smallest is 5e-324)`},
		{"a flag value that rounds to 0", fit("--delta", "1e-400"),
			`invalid argument "1e-400" for "--delta" flag: "1e-400" is not zero but rounds to 0 in float64 (the smallest is 5e-324) (see 'greedytl fit --help')`},
		{"a digit separator in a flag", []string{"train", "-c", "1_0", badSVM},
			`invalid argument "1_0" for "-c, --cost" flag: want a number, got "1_0" (see 'greedytl train --help')`},
		// "--method: method: …" before: the method package's errors name
		// the method or the spec, and are passed on as they are, as
		// experiment --methods passes them; but an unknown method, which
		// said "method: unknown method" where experiment's says
		// "experiment: unknown method", names the flag.
		{"unknown method", fit("--method", "nope"), `--method: unknown method "nope" (known: ` + strings.Join(method.MultiNames(), ", ") + ")"},
		{"unknown method with a GreedyTL flag", fit("--method", "nope", "--delta", "0.1"), `--method: unknown method "nope" (known: ` + strings.Join(method.Names(), ", ") + ")"},
		{"settings to a native multi-class method", fit("--method", "nearest-mean:x=1"), `method: nearest-mean takes no settings (spec "nearest-mean:x=1")`},
		{"predict: feature count", []string{"predict", "--model", model, "--features", X3},
			"model " + model + " on X = " + X3 + ": method: predict: X has 2 columns, the model was trained on 6 features"},
		{"predict: a label the model does not know", []string{"predict", "--model", model, "--features", d.Xtest, "--labels", bird},
			bird + `:200: label "bird" is not one of the labels ` + model + ` was fitted on (positive "cat", negative "dog")`},
		// "H has 0 columns, the model was trained on 20 sources" before.
		{"predict: no source scores", []string{"predict", "--model", withH, "--features", d.Xtest},
			withH + " was fitted with 20 sources: give their scores with --source-scores FILE or the sources with --sources DIR"},
		{"predict: no source scores, multi-class", []string{"predict", "--model", withHMulti, "--features", d.Xtest},
			withHMulti + " was fitted with 20 sources: give their scores with --source-scores FILE or the sources with --sources DIR"},
		{"predict: no features", []string{"predict", "--model", withH, "--source-scores", d.Htest},
			withH + " was fitted with 6 features: give them with --features FILE"},
		{"predict: not a model", []string{"predict", "--model", nanCSV, "--features", d.X}, nanCSV + " is not a greedytl model (JSON) file"},
		// Every column constant: greedytl refused it, the baselines wrote a
		// model scoring every example 0 (or ±1e-17, the sign of rounding).
		{"constant inputs", []string{"fit", "--features", constant, "--labels", d.ytext, "--positive", "cat", "--method", "no-transfer"},
			"every column of X = " + constant + " holds one value on all 24 training examples: no method can tell the classes apart"},
		{"constant inputs, several classes", []string{"fit", "--features", constant, "--labels", d.ytext, "--method", "nearest-mean"},
			"every column of X = " + constant + " holds one value on all 24 training examples: no method can tell the classes apart"},
		// Dropped before: the scores still favoured "cat".
		{"predict: --positive without --labels", []string{"predict", "--model", model, "--features", d.Xtest, "--positive", "dog"},
			"--positive dog applies to the evaluation of a binary model against --labels: give --labels (a binary model's scores favour the positive class it was fitted with, whatever --positive says; a multi-class model takes no --positive)"},
		{"predict: --labels-header without --labels", []string{"predict", "--model", model, "--features", d.Xtest, "--labels-header", "no"},
			"--labels-header applies to the --labels file: give --labels"},
		// Not "(its scores are printed anyway)": predict prints nothing.
		{"predict: --scores of a binary model", []string{"predict", "--model", model, "--features", d.Xtest, "--scores"},
			"--scores and --json are for multi-class models; " + model + " is binary: predict prints its scores without them"},
		{"predict: a column of an unknown kind", []string{"predict", "--model", badKind, "--features", d.X},
			badKind + `: method: reading greedytl model: unknown column kind "bogus" (want "feature" or "source")`},
		{"predict: a newer model file", []string{"predict", "--model", badVersion, "--features", d.X},
			badVersion + ": method: reading model: unsupported version 7: this greedytl reads model file versions 1 and 2 (a newer greedytl wrote it?)"},
		{"predict: another format", []string{"predict", "--model", badFormat, "--features", d.X},
			badFormat + `: method: reading model: format is "liblinear", want "greedytl-model"`},
		{"predict: a truncated model file", []string{"predict", "--model", truncated, "--features", d.X},
			truncated + ": method: reading model: the model is truncated: unexpected EOF"},
		{"predict: a member missing from a model file", []string{"predict", "--model", noWeight, "--features", d.X},
			noWeight + ": method: reading greedytl model: columns[0].weight is missing; want a number"},
		{"predict: a class named twice", []string{"predict", "--model", twiceA, "--features", X6},
			twiceA + `: method: reading multi-class nearest-mean model: class name "a" is given twice`},
		{"train: a bad line", []string{"train", badSVM, filepath.Join(dir, "o.model")}, badSVM + `:2: index 2: cannot parse value "x"`},
		// Named its 0-based row before ("linear: label 1.5 of row 1 …").
		{"train: a label that is not an integer", []string{"train", fracSVM, filepath.Join(dir, "o.model")}, fracSVM + `:4: label 1.5 is not a 32-bit integer`},
		// Quoted as the file writes it, not as it reads (1.2345678901234568e+18).
		{"train: a label beyond 32 bits", []string{"train", bigSVM, filepath.Join(dir, "o.model")}, bigSVM + `:2: label 1234567890123456789 is not a 32-bit integer`},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate" for "greedytl" (see 'greedytl --help')`},
		{"unknown command, a suggestion", []string{"fitt"}, `unknown command "fitt" for "greedytl"; did you mean "fit"? (see 'greedytl --help')`},
		{"unknown flag", []string{"fit", "--bogus"}, "unknown flag: --bogus (see 'greedytl fit --help')"},
		{"bad flag value", fit("--lambda", "one"), `invalid argument "one" for "--lambda" flag: want a positive number or auto, got "one" (see 'greedytl fit --help')`},
		{"required flag", []string{"fit", "--features", d.X}, `required flag(s) "labels" not set (see 'greedytl fit --help')`},
		{"missing argument", []string{"inspect"}, "greedytl inspect takes one argument, the model file (- reads it from standard input), and was given none (see 'greedytl inspect --help')"},
		{"extra argument", []string{"fit", "extra"}, `greedytl fit takes no argument, and was given "extra" (see 'greedytl fit --help')`},
		{"experiment without --data", []string{"experiment", "--out", dir}, "give both --data DIR and --out RUN (see 'greedytl experiment --help')"},
		{"report of a directory that holds no run", []string{"report", empty}, empty + ": no run.json and no results*.jsonl files: not a run directory"},
		// Each said something else before: "--out -: this command writes a
		// directory", "the result record is truncated", "stat …", "open …".
		{"merge --out -", []string{"merge", run, "--out", "-"},
			"--out -: merge writes a run directory or a FILE.jsonl, not standard output: give a directory name or a file name ending in .jsonl"},
		{"report of a run's run.json", []string{"report", manifest},
			manifest + " is the run's description, not a results file: give the run directory " + run},
		{"merge of a run's run.json", []string{"merge", manifest},
			manifest + " is the run's description, not a results file: give the run directory " + run},
		{"report of a missing run", []string{"report", missing}, missing + ": no such file or directory"},
		{"merge of a missing run", []string{"merge", missing}, missing + ": no such file or directory"},
		{"merge of a directory that holds no run", []string{"merge", empty}, empty + ": no run.json: not a run directory"},
		// "open DIR/sources.json: no such file or directory" before.
		{"fit --sources of a directory that holds no sources", []string{"fit", "--features", d.X, "--labels", d.ytext, "--positive", "cat", "--sources", empty, "--out", filepath.Join(dir, "o.json")},
			empty + " is not a sources directory (sources.json: no such file or directory): train-sources makes one: greedytl train-sources --data DATA --out " + empty},
		{"predict --sources of a missing directory", []string{"predict", "--model", model, "--features", d.Xtest, "--sources", missing},
			"sources directory " + missing + ": no such file or directory (train-sources makes one: greedytl train-sources --data DATA --out " + missing + ")"},
		{"predict: a missing model", []string{"predict", "--model", missing, "--features", d.X}, missing + ": no such file or directory"},
		{"inspect: a missing model", []string{"inspect", missing}, missing + ": no such file or directory"},
		{"merge into its input", []string{"merge", empty, "--out", filepath.Join(empty, "merged")},
			"merge: the output " + filepath.Join(empty, "merged", "results.jsonl") + " is inside the input " + empty + ": refusing to write there: merge into another directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := cli(t, "", tc.args...)
			if want := "greedytl: " + tc.want + "\n"; code != exitInput || out != "" || stderr != want {
				t.Errorf("%q: exit %d, stdout %q, stderr\n%q\nwant exit %d, nothing on stdout and\n%q", tc.args, code, out, stderr, exitInput, want)
			}
			if err := errtest.CommandMessage(strings.TrimSuffix(stderr, "\n")); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestExitCodeFollowsTheErrorType (issue 19, item 4): the exit status
// follows the error's type — an input error (inputError, through any
// wrapping) is 2, anything else 1 — and never its text: a runtime failure
// whose message reads like cobra's usage messages still exits 1.
func TestExitCodeFollowsTheErrorType(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"reads like an unknown command", errors.New(`unknown command "x" for "greedytl"`), exitFailure},
		{"reads like a missing required flag", errors.New(`required flag(s) "labels" not set`), exitFailure},
		{"reads like a usage error", errors.New("unknown flag: --bogus (see 'greedytl fit --help')"), exitFailure},
		{"a failed write", fmt.Errorf("out.json: %w", fs.ErrPermission), exitFailure},
		{"a cancellation", fmt.Errorf("fit: %w", context.Canceled), exitFailure},
		{"an input error", badInputf("x.csv:2: column 1 is NaN"), exitInput},
		{"an input error, wrapped", fmt.Errorf("fitting greedytl: %w", badInput(errors.New("anything"))), exitInput},
		{"an input error that reads like a failure", badInputf("writing failed"), exitInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitCode(tc.err); got != tc.want {
				t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
			}
			// The same through the command line: a command that returns err.
			root := newRootCmd(&streams{in: strings.NewReader(""), out: new(bytes.Buffer), err: new(bytes.Buffer)})
			root.AddCommand(&cobra.Command{Use: "fail", Args: cobra.NoArgs, RunE: func(*cobra.Command, []string) error { return tc.err }})
			var stderr bytes.Buffer
			if got := execute(root, []string{"fail"}, strings.NewReader(""), new(bytes.Buffer), &stderr); got != tc.want {
				t.Errorf("a command failing with %v: exit %d, want %d", tc.err, got, tc.want)
			}
			if want := "greedytl: " + tc.err.Error() + "\n"; stderr.String() != want {
				t.Errorf("stderr %q, want %q", stderr.String(), want)
			}
		})
	}
}

// TestLambdaValueSet: --lambda takes "auto" or a setting (number.ParseSetting);
// what is not a number gets the flag's own words (it also takes a word),
// and every other refusal ParseSetting's.
func TestLambdaValueSet(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		v        float64
		auto     bool
	}{
		{in: "auto", auto: true},
		{in: "AUTO", auto: true},
		{in: "0.5", v: 0.5},
		{in: "1e301", v: 1e301},
		{in: "one", want: `want a positive number or auto, got "one"`},
		{in: "1_0", want: `want a positive number or auto, got "1_0"`},
		{in: "", want: `want a positive number or auto, got ""`},
		{in: "NaN", want: `"NaN" is not finite`},
		{in: "1e400", want: `"1e400" is beyond the largest float64`},
		{in: "1e-400", want: `"1e-400" is not zero but rounds to 0 in float64`},
	} {
		l := lambdaValue{v: 7}
		err := l.Set(tc.in)
		switch {
		case tc.want == "" && (err != nil || l.v != tc.v && !tc.auto || l.auto != tc.auto):
			t.Errorf("Set(%q): %v, value %v auto %v; want %v auto %v", tc.in, err, l.v, l.auto, tc.v, tc.auto)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("Set(%q): %v; want an error starting %q", tc.in, err, tc.want)
		}
	}
}
