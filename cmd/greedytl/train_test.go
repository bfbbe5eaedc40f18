package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
	"github.com/greedytl/greedytl/linear"
)

// heartScale is liblinear's example data set (270 rows, 13 features, ±1).
const heartScale = peertest.HeartScale

// needHeartScale skips the test when liblinear's example data is absent.
func needHeartScale(t *testing.T) {
	t.Helper()
	peertest.File(t, heartScale)
}

// liblinear returns the path of a liblinear tool, skipping the test when
// it is not installed.
func liblinear(t *testing.T, tool string) string {
	t.Helper()
	return peertest.Tool(t, tool)
}

// runTool runs an external command and returns its standard output.
func runTool(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s%s", cmd, err, out.String(), errb.String())
	}
	return out.String()
}

// TestTrainMatchesLiblinear trains heart_scale with greedytl train and
// liblinear-train for every solver both have, to a tight tolerance, and
// requires liblinear-predict to predict exactly the same labels with the
// two model files (so our file is one liblinear reads, with liblinear's
// meaning). The hinge-loss dual (-s 3) converges slowly on heart_scale:
// liblinear itself stops at its 1000-iteration cap for any tolerance below
// about 1e-3, so -s 3 is run to 1e-2, which both reach.
func TestTrainMatchesLiblinear(t *testing.T) {
	needHeartScale(t)
	train, predict := liblinear(t, "liblinear-train"), liblinear(t, "liblinear-predict")
	dir := t.TempDir()
	for _, solver := range []string{"0", "1", "2", "3", "5", "6", "7"} {
		for _, bias := range []string{"1", "-1"} {
			t.Run("s"+solver+"B"+bias, func(t *testing.T) {
				ours := filepath.Join(dir, "ours"+solver+bias+".model")
				theirs := filepath.Join(dir, "theirs"+solver+bias+".model")
				eps := "1e-5"
				if solver == "3" {
					eps = "1e-2"
				}
				flags := []string{"-s", solver, "-c", "1", "-B", bias, "-e", eps}
				code, _, stderr := cli(t, "", append([]string{"train"}, append(flags, "--data", heartScale, "--out", ours)...)...)
				if code != 0 || strings.Contains(stderr, "WARNING") {
					t.Fatalf("greedytl train: exit %d: %s", code, stderr)
				}
				if out := runTool(t, train, append(flags, heartScale, theirs)...); strings.Contains(out, "WARNING") {
					t.Fatalf("liblinear-train did not converge:\n%s", out)
				}
				ourPred, theirPred := filepath.Join(dir, "ours.pred"), filepath.Join(dir, "theirs.pred")
				accOurs := runTool(t, predict, heartScale, ours, ourPred)
				accTheirs := runTool(t, predict, heartScale, theirs, theirPred)
				a, _ := os.ReadFile(ourPred)
				b, _ := os.ReadFile(theirPred)
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("liblinear-predict labels differ: ours %q, liblinear's %q", strings.TrimSpace(accOurs), strings.TrimSpace(accTheirs))
				}
			})
		}
	}
}

// TestTrainBiasZero: -B 0 appends a bias feature, as liblinear-train's
// (which appends one for any -B ≥ 0), of value 0: the model file says
// "bias 0" and lists its weight, 0, after the features' — liblinear-train
// -B 0's header and layout — with the weights of a model without a bias
// before it, and liblinear-predict predicts the labels of liblinear's
// model with it. greedytl wrote "bias -1" and no bias weight.
func TestTrainBiasZero(t *testing.T) {
	needHeartScale(t)
	train, predict := liblinear(t, "liblinear-train"), liblinear(t, "liblinear-predict")
	dir := t.TempDir()
	for _, solver := range []string{"1", "2"} {
		flags := []string{"-s", solver, "-e", "1e-5"}
		ours, none, theirs := filepath.Join(dir, "ours"+solver), filepath.Join(dir, "none"+solver), filepath.Join(dir, "theirs"+solver)
		for _, run := range []struct {
			bias, out string
		}{{"0", ours}, {"-1", none}} {
			if code, _, stderr := cli(t, "", append(append([]string{"train", "-q", "-B", run.bias}, flags...), heartScale, run.out)...); code != 0 {
				t.Fatalf("greedytl train -B %s: exit %d: %s", run.bias, code, stderr)
			}
		}
		runTool(t, train, append(append([]string{"-q", "-B", "0"}, flags...), heartScale, theirs)...)
		read := func(path string) []string {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		}
		a, b, n := read(ours), read(theirs), read(none)
		if len(a) != len(b) || len(a) != len(n)+1 || !slices.Equal(a[:6], b[:6]) || a[4] != "bias 0" || strings.TrimSpace(a[len(a)-1]) != "0" {
			t.Errorf("-s %s -B 0: model\n%s\nwant liblinear-train's header and layout (bias 0, a last weight 0):\n%s", solver, strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
		if len(a) == len(n)+1 && !slices.Equal(a[6:len(a)-1], n[6:]) {
			t.Errorf("-s %s: -B 0's feature weights differ from those without a bias", solver)
		}
		ourPred, theirPred := filepath.Join(dir, "ours.pred"), filepath.Join(dir, "theirs.pred")
		runTool(t, predict, heartScale, ours, ourPred)
		runTool(t, predict, heartScale, theirs, theirPred)
		p, _ := os.ReadFile(ourPred)
		q, _ := os.ReadFile(theirPred)
		if len(p) == 0 || !bytes.Equal(p, q) {
			t.Errorf("-s %s -B 0: liblinear-predict's labels differ with the two models", solver)
		}
	}
}

// TestTrainClassWeights trains with liblinear-train's class weights,
// -wLABEL WEIGHT, on heart_scale and on a copy labelled 4 and 2 (4 first,
// so that the weight of class 2 is that of liblinear's second class), and
// requires, for the primal solvers -s 0 and -s 2 (which agree with
// liblinear to rounding), the model liblinear-train writes — header and
// weights to 1e-9 — and liblinear-predict's labels; the --weight spelling
// gives the same file, and weights that cannot apply are input errors.
func TestTrainClassWeights(t *testing.T) {
	needHeartScale(t)
	train, predict := liblinear(t, "liblinear-train"), liblinear(t, "liblinear-predict")
	dir := t.TempDir()
	plain, err := os.ReadFile(heartScale)
	if err != nil {
		t.Fatal(err)
	}
	relabelled := filepath.Join(dir, "heart42")
	var b strings.Builder
	for _, line := range strings.SplitAfter(strings.TrimSuffix(string(plain), "\n"), "\n") {
		label, rest, _ := strings.Cut(line, " ")
		switch label {
		case "+1", "1":
			label = "4"
		case "-1":
			label = "2"
		}
		b.WriteString(label + " " + rest)
	}
	if err := os.WriteFile(relabelled, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		data    string
		weights []string
	}{
		{heartScale, []string{"-w1", "5", "-w-1", "2"}},
		{heartScale, []string{"-w-1", "3"}},
		{relabelled, []string{"-w4", "5", "-w2", "2"}},
		{relabelled, []string{"-w2", "0.25"}},
	} {
		for _, solver := range []string{"0", "2"} {
			flags := append([]string{"-s", solver, "-e", "1e-5"}, tc.weights...)
			name := filepath.Base(tc.data) + strings.Join(flags, "")
			ours, theirs := filepath.Join(dir, name+".ours"), filepath.Join(dir, name+".theirs")
			if code, _, stderr := cli(t, "", append(append([]string{"train", "-q"}, flags...), tc.data, ours)...); code != 0 {
				t.Fatalf("greedytl train %v: exit %d: %s", flags, code, stderr)
			}
			runTool(t, train, append(append([]string{"-q"}, flags...), tc.data, theirs)...)
			a, errA := os.ReadFile(ours)
			b, errB := os.ReadFile(theirs)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			headA, wA, _ := strings.Cut(string(a), "w\n")
			headB, wB, _ := strings.Cut(string(b), "w\n")
			fa, fb := strings.Fields(wA), strings.Fields(wB)
			if headA != headB || len(fa) != len(fb) || len(fa) == 0 {
				t.Fatalf("%s %v: model header\n%s\nliblinear's\n%s", tc.data, flags, headA, headB)
			}
			for j := range fa {
				x, _ := strconv.ParseFloat(fa[j], 64)
				y, _ := strconv.ParseFloat(fb[j], 64)
				if math.Abs(x-y) > 1e-9*(1+math.Abs(y)) {
					t.Errorf("%s %v: w_%d = %s, liblinear's %s", tc.data, flags, j, fa[j], fb[j])
				}
			}
			predOurs, predTheirs := filepath.Join(dir, "ours.pred"), filepath.Join(dir, "theirs.pred")
			runTool(t, predict, tc.data, ours, predOurs)
			runTool(t, predict, tc.data, theirs, predTheirs)
			pa, _ := os.ReadFile(predOurs)
			pb, _ := os.ReadFile(predTheirs)
			if len(pa) == 0 || !bytes.Equal(pa, pb) {
				t.Errorf("%s %v: liblinear-predict's labels differ", tc.data, flags)
			}
			// The --weight spelling: the same model.
			long := filepath.Join(dir, name+".long")
			args := []string{"train", "-q", "-s", solver, "-e", "1e-5"}
			for k := 0; k < len(tc.weights); k += 2 {
				args = append(args, "--weight", strings.TrimPrefix(tc.weights[k], "-w")+":"+tc.weights[k+1])
			}
			if code, _, stderr := cli(t, "", append(args, tc.data, long)...); code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			if c, _ := os.ReadFile(long); !bytes.Equal(c, a) {
				t.Errorf("%v: another model than with -w", args)
			}
		}
	}
	for _, tc := range []struct {
		args []string // then the data, unless given with --data
		want string
	}{
		{[]string{"-w3", "2", heartScale}, "a weight for class 3, which the data lack (their labels are 1 and -1)"},
		{[]string{"-w1", "0", heartScale}, "weight 0 for class 1, want a finite weight > 0"},
		{[]string{"-w1", "-2", heartScale}, "weight -2 for class 1, want a finite weight > 0"},
		{[]string{"-w1", "2", "-w1", "3", heartScale}, "class 1 given a weight twice"},
		// The first class given a weight again, not the first weighted.
		{[]string{"-w-1", "2", "-w1", "2", "-w1", "3", "-w-1", "4", heartScale}, "class 1 given a weight twice"},
		// numflags.go's words, as every numeric flag's: they said ""x" is
		// not a number" and "class label "x" is not an integer".
		{[]string{"-w1", "x", heartScale}, `weight of class 1: want a number, got "x"`},
		{[]string{"--weight", "x:2", heartScale}, `class label: want a whole number, got "x"`},
		// C's atoi reads no base prefix: liblinear-train -w0x1 weighs class 0.
		{[]string{"--weight", "0x1:2", heartScale}, `class label: want a whole number, got "0x1"`},
		// It was class 1 (a "+" trimmed, then one more read).
		{[]string{"--weight", "++1:2", heartScale}, `class label: want a whole number, got "++1"`},
		{[]string{"--data", heartScale, "-w1"}, "no weight for class 1: give -w1 WEIGHT"},
	} {
		args := append([]string{"train", "--out", filepath.Join(dir, "refused.model")}, tc.args...)
		code, _, stderr := cli(t, "", args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "refused.model")); err == nil {
		t.Error("a refused train wrote its model")
	}
}

// TestLiblinearWeightArgs: only -wLABEL followed by a weight, before "--",
// is rewritten, and not where it is the value of a flag (--out -w1, -s
// -w1: a file or a solver named so, which the flag then reads or refuses).
func TestLiblinearWeightArgs(t *testing.T) {
	train, _, err := newRootCmd(&streams{}).Find([]string{"train"})
	if err != nil {
		t.Fatal(err)
	}
	fl := train.Flags()
	for _, tc := range []struct{ args, want []string }{
		{
			[]string{"train", "-s", "1", "-w1", "5", "-w-1", "0.5", "-w+2", "3", "-wx", "1", "data", "--", "-w1", "5"},
			[]string{"train", "-s", "1", "--weight=1:5", "--weight=-1:0.5", "--weight=+2:3", "-wx", "1", "data", "--", "-w1", "5"},
		},
		{[]string{"train", "-w1"}, []string{"train", "--weight=1"}},
		{[]string{"train", "--out", "-w1", "data"}, []string{"train", "--out", "-w1", "data"}},
		{[]string{"train", "-s", "-w1", "5", "data"}, []string{"train", "-s", "-w1", "5", "data"}},
		{[]string{"train", "--out=m", "-w1", "5", "data"}, []string{"train", "--out=m", "--weight=1:5", "data"}},
		{[]string{"train", "-q", "-w1", "5", "data"}, []string{"train", "-q", "--weight=1:5", "data"}},
		{[]string{"train", "-qo", "-w1", "5", "data"}, []string{"train", "-qo", "-w1", "5", "data"}},
		{[]string{"train", "-qom", "-w1", "5", "data"}, []string{"train", "-qom", "--weight=1:5", "data"}},
		{[]string{"train", "-q=true", "-w1", "5", "data"}, []string{"train", "-q=true", "--weight=1:5", "data"}},
	} {
		if got := liblinearWeightArgs(tc.args, fl, false); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.want) {
			t.Errorf("%q: got %q, want %q", tc.args, got, tc.want)
		}
	}
	// A completion request's words before the one completed: a -wLABEL
	// last is --weight, whose value, a weight, is being completed.
	for _, tc := range []struct{ args, want []string }{
		{[]string{"train", "-w1"}, []string{"train", "--weight"}},
		{[]string{"train", "-w1", "5"}, []string{"train", "--weight=1:5"}},
		{[]string{"train", "--out", "-w1"}, []string{"train", "--out", "-w1"}},
	} {
		if got := liblinearWeightArgs(tc.args, fl, true); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.want) {
			t.Errorf("completing %q: got %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestTrainArguments(t *testing.T) {
	needHeartScale(t)
	dir := t.TempDir()
	t.Chdir(dir)
	// liblinear-train's form: FILE [MODEL]; the model defaults to FILE's
	// base name + .model in the current directory.
	if code, _, stderr := cli(t, "", "train", "-s", "1", heartScale); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	byDefault, err := os.ReadFile(filepath.Join(dir, "heart_scale.model"))
	if err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "", "train", heartScale, "named.model"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// gzip-compressed data gives the same model.
	plain, err := os.ReadFile(heartScale)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	if err := os.WriteFile("heart.gz", gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "", "train", "-q", "--data", "heart.gz", "--out", "gz.model"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// So does standard input.
	if code, _, stderr := cli(t, string(plain), "train", "-q", "-", "stdin.model"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"named.model", "gz.model", "stdin.model"} {
		b, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(b, byDefault) {
			t.Errorf("%s differs from heart_scale.model (%v)", name, err)
		}
	}
	if !strings.HasPrefix(string(byDefault), "solver_type L2R_L2LOSS_SVC_DUAL\nnr_class 2\nlabel 1 -1\nnr_feature 13\nbias -1\nw\n") {
		t.Errorf("model header:\n%s", byDefault[:80])
	}
}

var cvLine = regexp.MustCompile(`^Cross Validation Accuracy = ([0-9.]+)%\n$`)

func TestTrainCrossValidation(t *testing.T) {
	needHeartScale(t)
	dir := t.TempDir()
	t.Chdir(dir)
	code, out, stderr := cli(t, "", "train", "-v", "5", heartScale)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := cvLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("output %q, want liblinear's cross-validation line", out)
	}
	acc, _ := strconv.ParseFloat(m[1], 64)
	if _, err := os.Stat("heart_scale.model"); err == nil {
		t.Error("-v wrote a model file")
	}
	// liblinear draws other folds: the accuracies agree to a few points.
	train := liblinear(t, "liblinear-train")
	theirs := regexp.MustCompile(`Cross Validation Accuracy = ([0-9.]+)%`).FindStringSubmatch(runTool(t, train, "-v", "5", "-q", heartScale))
	if theirs == nil {
		t.Fatal("no accuracy from liblinear-train -v 5")
	}
	ref, _ := strconv.ParseFloat(theirs[1], 64)
	if diff := acc - ref; diff < -4 || diff > 4 {
		t.Errorf("5-fold accuracy %.2f%%, liblinear's %.2f%%: want within 4 points", acc, ref)
	}
	// The data on standard input: -v writes no model, so it needs no
	// --out (it was refused, "give the model file with --out"), and gives
	// the same accuracy.
	data, err := os.ReadFile(heartScale)
	if err != nil {
		t.Fatal(err)
	}
	code, stdinOut, stderr := cli(t, string(data), "train", "-v", "5", "-")
	if code != 0 || stdinOut != out {
		t.Errorf("-v 5 of standard input: exit %d, output %q (stderr %q); want 0 and %q", code, stdinOut, stderr, out)
	}
}

var bestLine = regexp.MustCompile(`Best C = (\S+)  CV accuracy = ([0-9.]+)%\n$`)

func TestTrainFindC(t *testing.T) {
	needHeartScale(t)
	dir := t.TempDir()
	t.Chdir(dir)
	code, out, stderr := cli(t, "", "train", "-C", "-s", "2", heartScale, "best.model")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	m := bestLine.FindStringSubmatch(out)
	if len(lines) != 10 || m == nil {
		t.Fatalf("output:\n%s\nwant 9 per-C lines and the Best C line", out)
	}
	// The best C has the highest accuracy, the smallest C among ties.
	best := -1.0
	var bestC string
	for _, l := range lines[:9] {
		var c string
		var acc float64
		if _, err := fmt.Sscanf(l, "C = %s  CV accuracy = %g%%", &c, &acc); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if acc > best {
			best, bestC = acc, c
		}
	}
	if m[1] != bestC {
		t.Errorf("Best C = %s, but the lines favour %s", m[1], bestC)
	}
	// The model written is the one trained with that C.
	if code, _, stderr := cli(t, "", "train", "-s", "2", "-c", m[1], heartScale, "direct.model"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile("best.model")
	b, _ := os.ReadFile("direct.model")
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("the -C model differs from the model trained with -c <best C>")
	}
	// -q leaves only the result.
	_, out, _ = cli(t, "", "train", "-C", "-q", "-s", "2", heartScale, "q.model")
	if strings.Count(out, "\n") != 1 || !bestLine.MatchString(out) {
		t.Errorf("-C -q output %q", out)
	}
}

func TestTrainBadInput(t *testing.T) {
	needHeartScale(t)
	dir := t.TempDir()
	t.Chdir(dir)
	writeText(t, dir, "bad.svm", "+1 1:0.5 2:1\n-1 3:1 2:1\n")
	writeText(t, dir, "three.svm", "1 1:1\n2 1:2\n3 1:3\n")
	writeText(t, dir, "one.svm", "1 1:1\n1 1:2\n")
	writeText(t, dir, "wide.svm", "2000000000 1:1\n-2000000000 1:2\n2000000000 1:3\n7 1:4\n")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"train", "nope.svm"}, "nope.svm"},
		{"malformed line", []string{"train", "bad.svm"}, "bad.svm:2:"},
		{"three classes", []string{"train", "three.svm"}, `three.svm:3: label 3 is a third class (the first two: 1 and 2): the problem must have two: make one binary problem per class`},
		{"three classes, -v", []string{"train", "-v", "2", "three.svm"}, `three.svm:3: label 3 is a third class`},
		{"three classes, -C", []string{"train", "-C", "three.svm"}, `three.svm:3: label 3 is a third class`},
		// The first two as integers (they were 2e+09 and -2e+09).
		{"three classes, large labels", []string{"train", "wide.svm"}, `wide.svm:4: label 7 is a third class (the first two: 2000000000 and -2000000000)`},
		{"one class", []string{"train", "one.svm"}, "need two classes"},
		{"unknown solver", []string{"train", "-s", "9", heartScale}, "unknown solver"},
		{"solver greedytl lacks (Crammer–Singer)", []string{"train", "-s", "4", heartScale}, "solver 4 is liblinear's MCSVM_CS, Crammer and Singer's multi-class SVM, which linear does not implement"},
		{"solver greedytl lacks, by name", []string{"train", "-s", "mcsvm-cs", heartScale}, "solver \"mcsvm-cs\": linear: solver 4 is liblinear's MCSVM_CS"},
		{"a regression solver of liblinear's", []string{"train", "-s", "12", heartScale}, "L2R_L2LOSS_SVR_DUAL, a support vector regression"},
		{"regressor", []string{"train", "-s", "ridge", heartScale}, "regressor"},
		{"zero cost", []string{"train", "-c", "0", heartScale}, "cost must be > 0"},
		{"one fold", []string{"train", "-v", "1", heartScale}, "at least 2 folds"},
		{"no data", []string{"train"}, "no training data"},
		{"data twice", []string{"train", "--data", heartScale, heartScale}, "once"},
		{"stdin without out", []string{"train", "-"}, "--out"},
		{"empty stdin", []string{"train", "-", "x.model"}, "<stdin>: no rows"},
		{"too many args", []string{"train", "a", "b", "c"}, `greedytl train takes at most two arguments, the training file and the model file to write (or give them as --data and --out), and was given 3: "a", "b", "c"`},
		// Flags the run did not use were dropped without a word.
		{"cost with -C", []string{"train", "-C", "-c", "5", heartScale}, "-c 5 with -C: -C chooses C itself"},
		{"l1-ratio without elastic-net", []string{"train", "-s", "6", "--l1-ratio", "0.3", heartScale}, "--l1-ratio applies to -s 100 (elastic-net), not -s 6"},
		{"out with -v", []string{"train", "-v", "5", "--out", "cv.model", heartScale}, "--out cv.model with -v: -v writes no model"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantInputError(t, tc.want, tc.args...) })
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.model")); len(matches) != 0 {
		t.Errorf("failed runs left model files: %v", matches)
	}
}

// hugeIndexData returns 15 rows of svmlight data with one feature at
// index idx (issue 18's case with idx = 2·10⁹) and an ordinary feature 1.
func hugeIndexData(idx int) string {
	var b strings.Builder
	for i := range 15 {
		fmt.Fprintf(&b, "%+d 1:%d %d:1\n", 2*(i%2)-1, i%4, idx)
	}
	return b.String()
}

// TestTrainHugeIndex is issue 18's case: a feature index of 2·10⁹ in 15 rows
// would make a liblinear model of 2·10⁹ lines (6 GB of zeros). Train refuses
// it, whatever the mode, before training (no file is left), and says how
// to accept it; --max-features sets the limit explicitly; an index space
// of up to 2²⁰ is always accepted.
func TestTrainHugeIndex(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeText(t, dir, "huge.svm", hugeIndexData(2000000000))
	writeText(t, dir, "wide.svm", hugeIndexData(1<<20))
	writeText(t, dir, "small.svm", hugeIndexData(1001))
	writeText(t, dir, "far.svm", hugeIndexData(5000000))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"train", []string{"train", "--data", "huge.svm", "--out", "m.model"}, "huge.svm: the largest feature index is 2000000000 but the data hold 30 non-zero values"},
		{"says how", []string{"train", "huge.svm"}, "give --max-features 2000000000"},
		{"cross-validation", []string{"train", "-v", "3", "huge.svm"}, "largest feature index is 2000000000"},
		{"find C", []string{"train", "-C", "huge.svm"}, "largest feature index is 2000000000"},
		{"explicit limit", []string{"train", "--max-features", "1000", "small.svm"}, "small.svm: the largest feature index is 1001, above --max-features 1000"},
		// A negative limit turned the rule off, without a word.
		{"negative limit", []string{"train", "--max-features", "-1", "far.svm"}, "--max-features -1: give the largest index to accept, or 0 for train's rule"},
		// 15,000,000 bytes were "at least 0.0 GB".
		{"size in MB", []string{"train", "far.svm"}, "(5000000 lines, at least 15 MB, almost all zeros)"},
		{"size in GB", []string{"train", "huge.svm"}, "(2000000000 lines, at least 6.0 GB, almost all zeros)"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantInputError(t, tc.want, tc.args...) })
	}
	for _, args := range [][]string{
		{"train", "-q", "wide.svm"},
		{"train", "-q", "--max-features", "1001", "small.svm"},
	} {
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	left, _ := os.ReadDir(dir)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if want := "far.svm huge.svm small.svm small.svm.model wide.svm wide.svm.model"; strings.Join(names, " ") != want {
		t.Errorf("files left: %v, want %s", names, want)
	}
}

// TestTrainHelpSaysWhichModelsLiblinearReads: train's help promises model
// files liblinear-predict reads; for every solver of -s, liblinear-predict
// must read the model train writes, or the solver's entry in the help must
// say that it cannot (-s 100, ELASTICNET_LR, is greedytl's own: its file,
// which liblinear-predict refuses as of an unknown solver type, was
// promised to it).
func TestTrainHelpSaysWhichModelsLiblinearReads(t *testing.T) {
	needHeartScale(t)
	predict := liblinear(t, "liblinear-predict")
	dir := t.TempDir()
	for _, s := range linear.Solvers() {
		solver := strconv.Itoa(int(s))
		model := filepath.Join(dir, solver+".model")
		if code, _, stderr := cli(t, "", "train", "-q", "-s", solver, "--data", heartScale, "--out", model); code != 0 {
			t.Fatalf("-s %s: exit %d: %s", solver, code, stderr)
		}
		reads := exec.Command(predict, heartScale, model, filepath.Join(dir, "pred")).Run() == nil
		entry := regexp.MustCompile(`(?:^|[\s,])` + solver + ` [^\n]*?\)`).FindString(solverHelp())
		if entry == "" {
			t.Fatalf("-s %s is not in the solvers' help:\n%s", solver, solverHelp())
		}
		if says := strings.Contains(entry, "liblinear-predict cannot read"); says == reads {
			t.Errorf("-s %s: liblinear-predict reads its model: %v, but its help entry is %q", solver, reads, entry)
		}
	}
}

// TestTrainCVStopWarnings: train -v K warns once per fold whose solver
// stops at the iteration cap, in liblinear's words, as liblinear-train -v
// does (-s 3 -e 1e-6 on heart_scale: liblinear-train -v 5 warns for 4 of
// its 5 folds); not at all when every fold converges or with -q.
func TestTrainCVStopWarnings(t *testing.T) {
	needHeartScale(t)
	const capWarning = "WARNING: reaching max number of iterations\n"
	code, stdout, stderr := cli(t, "", "train", "-v", "5", "-s", "3", "-e", "1e-6", heartScale)
	if n := strings.Count(stderr, capWarning); code != 0 || n == 0 || n > 5 || stderr != strings.Repeat(capWarning, n) || !strings.HasPrefix(stdout, "Cross Validation Accuracy = ") {
		t.Errorf("train -v 5 -s 3 -e 1e-6: exit %d, stdout %q, stderr %q; want one cap warning per fold at the cap (1 to 5)", code, stdout, stderr)
	}
	for _, args := range [][]string{{"-q", "-v", "5", "-s", "3", "-e", "1e-6"}, {"-v", "5", "-s", "3"}} {
		if code, _, stderr := cli(t, "", append(append([]string{"train"}, args...), heartScale)...); code != 0 || stderr != "" {
			t.Errorf("train %q: exit %d, stderr %q; want no warning", args, code, stderr)
		}
	}
}

// TestTrainStopWarnings: train warns, on standard error, why a solver
// stopped short of its tolerance: at the iteration cap in liblinear's exact
// words, which its users grep for (-s 3 at -e 1e-6 on heart_scale, which
// liblinear too stops at its cap); numerically stuck in words of its own,
// not the cap's (-s 2 -B 1e308 and -s 0 -B 1e305: TRON's objective
// overflows at its first iteration, and train printed liblinear's
// cap warning; -s 6 -c 1e4 -e 1e-13: ten Newton steps of L1R_LR move no
// coordinate, a tolerance tighter than float64 allows, which the warning
// names); and not at all with -q.
func TestTrainStopWarnings(t *testing.T) {
	needHeartScale(t)
	dir := t.TempDir()
	const capWarning = "WARNING: reaching max number of iterations\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-s", "3", "-e", "1e-6"}, capWarning},
		{[]string{"-s", "2", "-B", "1e308"}, "WARNING: L2R_L2LOSS_SVC stopped numerically stuck, short of the max number of iterations: it could make no further progress"},
		{[]string{"-s", "0", "-B", "1e305"}, "WARNING: L2R_LR stopped numerically stuck, short of the max number of iterations: it could make no further progress"},
		{[]string{"-s", "6", "-c", "1e4", "-e", "1e-13"}, "WARNING: L1R_LR stopped numerically stuck, short of the max number of iterations: it could make no further progress (its objective overflows float64, no decrease is possible, or -e is tighter than float64 allows); the model is its last iterate, not the minimiser: check the scale of the features and of -B, and the tolerance -e\n"},
	} {
		model := filepath.Join(dir, "m.model")
		code, _, stderr := cli(t, "", append(append([]string{"train"}, tc.args...), heartScale, model)...)
		if code != 0 || !strings.HasPrefix(stderr, tc.want) || (tc.want != capWarning) == strings.Contains(stderr, capWarning) {
			t.Errorf("train %q: exit %d, stderr %q; want exit 0 and a warning starting %q", tc.args, code, stderr, tc.want)
		}
		code, _, stderr = cli(t, "", append(append([]string{"train", "-q"}, tc.args...), heartScale, model)...)
		if code != 0 || stderr != "" {
			t.Errorf("train -q %q: exit %d, stderr %q; want no warning", tc.args, code, stderr)
		}
	}
}

// TestTrainPrecisionWarning: train warns "WARNING: actred and prered too
// small", on standard error, where liblinear-train prints it (on its
// standard output): TRON (-s 0, -s 2) stopped at machine precision short
// of -e, on heart_scale at -e 1e-12, once for a model and once per fold
// with -v 5, as often as liblinear-train; not at liblinear's default -e,
// nor with -q. train counted the stop as convergence and printed nothing.
// With -C, train prints it once, for the model of the chosen C, where
// liblinear-train -C trains no model and prints nothing (train's help says
// so).
func TestTrainPrecisionWarning(t *testing.T) {
	needHeartScale(t)
	train := liblinear(t, "liblinear-train")
	dir := t.TempDir()
	const warning = "WARNING: actred and prered too small\n"
	for _, solver := range []string{"0", "2"} {
		for _, tc := range []struct {
			args []string
			want int // liblinear-train's count, checked below
		}{
			{[]string{"-s", solver, "-e", "1e-12"}, 1},
			{[]string{"-s", solver, "-e", "1e-12", "-v", "5"}, 5},
			{[]string{"-s", solver}, 0},
			{[]string{"-s", solver, "-v", "5"}, 0},
		} {
			model := filepath.Join(dir, "m.model")
			var out []string
			if !slices.Contains(tc.args, "-v") {
				out = []string{model}
			}
			theirs := strings.Count(runTool(t, train, append(append(slices.Clone(tc.args), heartScale), out...)...), warning)
			if theirs != tc.want {
				t.Fatalf("liblinear-train %q printed the warning %d times, want %d", tc.args, theirs, tc.want)
			}
			code, _, stderr := cli(t, "", append(append(append([]string{"train"}, tc.args...), heartScale), out...)...)
			if n := strings.Count(stderr, warning); code != 0 || n != theirs || (n > 0 && stderr[:len(warning)*n] != strings.Repeat(warning, n)) {
				t.Errorf("train %q: exit %d, stderr %q; want the warning %d times, as liblinear-train", tc.args, code, stderr, theirs)
			}
			code, _, stderr = cli(t, "", append(append(append([]string{"train", "-q"}, tc.args...), heartScale), out...)...)
			if code != 0 || stderr != "" {
				t.Errorf("train -q %q: exit %d, stderr %q; want no warning", tc.args, code, stderr)
			}
		}
		args := []string{"-C", "-s", solver, "-e", "1e-12", heartScale}
		if n := strings.Count(runTool(t, train, args...), warning); n != 0 {
			t.Fatalf("liblinear-train %q printed the warning %d times, want 0", args, n)
		}
		model := filepath.Join(dir, "m.model")
		code, _, stderr := cli(t, "", append(append([]string{"train"}, args...), model)...)
		if n := strings.Count(stderr, warning); code != 0 || n != 1 {
			t.Errorf("train %q: exit %d, stderr %q; want the warning once, for the model of the chosen C", args, code, stderr)
		}
	}
}

// TestTrainUnknownSolverNameSeesHelpOnce: an unknown solver name is a usage
// error whose line points to the help once (it said "(see --help)" before
// cobra's own "(see 'greedytl train --help')").
func TestTrainUnknownSolverNameSeesHelpOnce(t *testing.T) {
	code, _, stderr := cli(t, "", "train", "-s", "foo", "x.svm")
	if code != 2 || !strings.Contains(stderr, `unknown solver "foo"`) {
		t.Fatalf("exit %d, want 2 and the unknown solver named: %s", code, stderr)
	}
	if n := strings.Count(stderr, "(see "); n != 1 {
		t.Errorf("the message points to the help %d times, want once: %s", n, stderr)
	}
}

// TestTrainSolverHelp: -s's help, of train and train-sources, names every
// solver linear fits, by number and liblinear name, and its short names,
// read from their owners (linear.Solvers, solverAliases).
func TestTrainSolverHelp(t *testing.T) {
	for _, cmd := range []string{"train", "train-sources"} {
		code, out, stderr := cli(t, "", cmd, "--help")
		if code != 0 {
			t.Fatalf("%s --help: exit %d: %s", cmd, code, stderr)
		}
		for _, s := range linear.Solvers() {
			if want := strconv.Itoa(int(s)) + " " + s.String(); !strings.Contains(out, want) {
				t.Errorf("%s --help lacks %q", cmd, want)
			}
		}
		for a := range solverAliases {
			if !strings.Contains(out, a) {
				t.Errorf("%s --help lacks %q", cmd, a)
			}
		}
	}
}

// TestTrainMoreFoldsThanExamples: -v K above the number of examples m is
// m folds, leave-one-out, with liblinear-train's warning (printed with -q
// too, as liblinear's is), where it was refused ("10 folds for 6
// examples"). On heart_scale's first 6 examples, whose leave-one-out folds
// are the same whoever draws them, the accuracy is liblinear-train's.
func TestTrainMoreFoldsThanExamples(t *testing.T) {
	needHeartScale(t)
	dir := t.TempDir()
	t.Chdir(dir)
	data, err := os.ReadFile(heartScale)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	h6 := writeText(t, dir, "h6", strings.Join(lines[:6], "\n")+"\n")
	const warning = "WARNING: # folds > # data. Will use # folds = # data instead (i.e., leave-one-out cross validation)\n"
	var outs []string
	for _, args := range [][]string{{"-v", "10"}, {"-q", "-v", "10"}, {"-v", "6"}} {
		code, out, stderr := cli(t, "", append(append([]string{"train"}, args...), h6)...)
		want := warning
		if args[1] == "6" {
			want = ""
		}
		if code != 0 || stderr != want || cvLine.FindString(out) == "" {
			t.Errorf("train %q: exit %d, stdout %q, stderr %q; want 0, the accuracy and %q", args, code, out, stderr, want)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[2] || outs[1] != outs[2] {
		t.Errorf("-v 10 gives %q, -q -v 10 %q, -v 6 %q: want leave-one-out's three times", outs[0], outs[1], outs[2])
	}
	// -C's 5 folds on 3 examples.
	h3 := writeText(t, dir, "h3", strings.Join(lines[:3], "\n")+"\n")
	if code, out, stderr := cli(t, "", "train", "-C", h3, "h3.model"); code != 0 || !strings.HasPrefix(stderr, warning) || bestLine.FindString(out) == "" {
		t.Errorf("train -C on 3 examples: exit %d, stdout %q, stderr %q; want 0, the best C and %q first", code, out, stderr, warning)
	}
	// No folds without -v or -C: no warning.
	if code, _, stderr := cli(t, "", "train", h3, "h3.model"); code != 0 || strings.Contains(stderr, warning) {
		t.Errorf("train on 3 examples: exit %d, stderr %q; want 0 and no %q", code, stderr, warning)
	}
	train := liblinear(t, "liblinear-train")
	cmd := exec.Command(train, "-v", "10", "-q", h6)
	var theirs, theirErr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &theirs, &theirErr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd, err, theirErr.String())
	}
	if got := regexp.MustCompile(`Cross Validation Accuracy = [0-9.]+%`).FindString(theirs.String()); got+"\n" != outs[0] || theirErr.String() != warning {
		t.Errorf("liblinear-train -v 10 -q: %q, stderr %q; greedytl train's %q and %q", got, theirErr.String(), outs[0], warning)
	}
}
