package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/method"
	"gonum.org/v1/gonum/mat"
)

// cancellingModel cancels its context once it has scored a block.
type cancellingModel struct {
	method.MultiModel
	cancel context.CancelFunc
}

func (c cancellingModel) Scores(d method.Data) (*mat.Dense, error) {
	defer c.cancel()
	return c.MultiModel.Scores(d)
}

func (c cancellingModel) Predict(d method.Data) ([]int, error) {
	defer c.cancel()
	return c.MultiModel.Predict(d)
}

// streamProblem fits a 3-class no-transfer model (one against the rest)
// and writes 1,000 rows of features to a file, returning both.
func streamProblem(t *testing.T) (method.MultiModel, string) {
	t.Helper()
	X := mat.NewDense(9, 2, []float64{0, 0, 0.1, 0, 0, 0.2, 5, 5, 5.1, 5, 5, 5.2, -5, 5, -5.1, 5, -5, 5.2})
	mm, err := method.NewMulti("no-transfer")
	if err != nil {
		t.Fatal(err)
	}
	model, err := mm.FitMulti(context.Background(), method.Data{X: X}, method.ClassLabels{Names: []string{"a", "b", "c"}, Y: []int{0, 0, 0, 1, 1, 1, 2, 2, 2}}, method.Extra{})
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&csv, "%g,%g\n", float64(i%11)-5, float64(i%7))
	}
	return model, writeText(t, t.TempDir(), "x.csv", csv.String())
}

// TestPredictScoresStreamsAndStops: predict --scores of a file read in
// blocks of 100 rows writes each block's scores as it scores them, and
// stops between blocks once its context is done (here once the first
// block is scored), returning the context's error: on standard output the
// header and the first block's rows, to --out no file. Predict without
// --scores stops likewise, writing nothing. predict had no context: it
// scored every row and wrote them all, at the end.
func TestPredictScoresStreamsAndStops(t *testing.T) {
	defer func(v int) { predictBlock = v }(predictBlock)
	predictBlock = 100
	// cancellingModel hides its model's type (a one-vs-rest linear model,
	// read in blocks): it is read in blocks as its model would be.
	defer func(f func(method.MultiModel) bool) { multiRowByRow = f }(multiRowByRow)
	multiRowByRow = func(m method.MultiModel) bool { return method.MultiRowByRow(m.(cancellingModel).MultiModel) }
	model, features := streamProblem(t)
	for _, tc := range []struct {
		scores bool
		out    string
	}{{true, ""}, {true, filepath.Join(t.TempDir(), "scores.tsv")}, {false, ""}, {false, filepath.Join(t.TempDir(), "classes.txt")}} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errOut bytes.Buffer
		s := &streams{in: strings.NewReader(""), out: &out, err: &errOut}
		o := &predictOptions{model: "m.json", scores: tc.scores, out: tc.out}
		o.data = dataFlags{features: features, labelSettings: &labelSettings{header: "auto"}}
		err := runPredictMulti(ctx, s, o, cancellingModel{model, cancel}, sampleNames{})
		cancel()
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("--scores %v --out %q: error %v, want the interruption", tc.scores, tc.out, err)
		}
		want := 0
		if tc.scores && tc.out == "" {
			want = 1 + predictBlock // the header and the first block
		}
		if got := strings.Count(out.String(), "\n"); got != want {
			t.Errorf("--scores %v --out %q: %d lines written, want %d", tc.scores, tc.out, got, want)
		}
		if tc.out != "" {
			if entries, _ := os.ReadDir(filepath.Dir(tc.out)); len(entries) != 0 {
				t.Errorf("--scores %v: left %v", tc.scores, entries)
			}
		}
	}
}

// TestPredictScoresStreamedAreScores: predict --scores of a file read in
// blocks of 64 rows, and of the same rows from standard input (read
// whole), writes the model's Scores of all the rows, every value as its
// shortest form, and without --scores their argmax.
func TestPredictScoresStreamedAreScores(t *testing.T) {
	defer func(v int) { predictBlock = v }(predictBlock)
	predictBlock = 64
	model, features := streamProblem(t)
	body, err := os.ReadFile(features)
	if err != nil {
		t.Fatal(err)
	}
	X, err := dataset.ReadMatrix(features)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := model.Scores(method.Data{X: X})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := writeScoreHeader(&want, model.Classes()); err != nil {
		t.Fatal(err)
	}
	if err := writeScoreRows(&want, whole); err != nil {
		t.Fatal(err)
	}
	pred, err := method.ArgmaxRows(whole)
	if err != nil {
		t.Fatal(err)
	}
	var classes strings.Builder
	for _, k := range pred {
		fmt.Fprintln(&classes, model.Classes()[k])
	}
	for _, from := range []string{features, stdinName} {
		for _, scores := range []bool{true, false} {
			var out, errOut bytes.Buffer
			s := &streams{in: bytes.NewReader(body), out: &out, err: &errOut}
			o := &predictOptions{model: "m.json", scores: scores}
			o.data = dataFlags{features: from, labelSettings: &labelSettings{header: "auto"}}
			if err := runPredictMulti(context.Background(), s, o, model, sampleNames{}); err != nil {
				t.Fatalf("%s: %v\n%s", from, err, errOut.String())
			}
			w := classes.String()
			if scores {
				w = want.String()
			}
			if out.String() != w {
				t.Errorf("%s, --scores %v: the output is not the model's scores of the rows", from, scores)
			}
		}
	}
}

// TestFitOneClassCheckStops: fit's check that the model predicts more than
// one class for its training rows (warnTrainingClasses) returns the context's
// error once it is done, for a model that predicts them (one read from its
// file). It predicted every row whatever the context.
func TestFitOneClassCheckStops(t *testing.T) {
	model, _ := streamProblem(t)
	var buf bytes.Buffer
	if err := method.WriteMulti(&buf, model, method.FileInfo{}); err != nil {
		t.Fatal(err)
	}
	f, err := method.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	X := mat.NewDense(3, 2, []float64{0, 0, 5, 5, -5, 5})
	cls := &dataset.Classes{Names: []string{"a", "b", "c"}, Y: []int{0, 1, 2}}
	var out, errOut bytes.Buffer
	s := &streams{in: strings.NewReader(""), out: &out, err: &errOut}
	if err := warnTrainingClasses(ctx, s, f.Multi, X, nil, cls); !errors.Is(err, context.Canceled) {
		t.Errorf("warnTrainingClasses with a cancelled context: %v, want context.Canceled", err)
	}
}

// TestPredictDictionaryStreams: a dictionary model, binary and fitted one
// class against the rest (of 5 codes: 10 training rows, no sources), has
// its features read a block of rows at a time, as a linear model's are:
// its scores of 1,001 rows read in blocks of 7 from a file and from the
// standard input are those of the rows read whole, bit for bit as printed,
// and predict --scores of a file whose last line is bad writes the blocks
// before that line. They were read whole (the scores were a product over
// all the rows, whose sums gonum's kernel orders by a row's place: the
// last row of a block of 7 summed its last code's term first).
func TestPredictDictionaryStreams(t *testing.T) {
	dir := t.TempDir()
	var train, y2, y3, csv strings.Builder
	for i := range 10 {
		fmt.Fprintf(&train, "%g,%g\n", float64(i%5)-2+0.1*float64(i), float64(i%3)*1.5-float64(i)/7)
		fmt.Fprintln(&y2, []int{1, -1}[i%2])
		fmt.Fprintln(&y3, []string{"a", "b", "c"}[i%3])
	}
	for i := range 1001 {
		fmt.Fprintf(&csv, "%g,%g\n", float64(i%11)/3-1.7, float64(i%7)/2.9-1.1)
	}
	X := writeText(t, dir, "train.csv", train.String())
	features := writeText(t, dir, "x.csv", csv.String())
	bad := writeText(t, dir, "bad.csv", csv.String()+"1,oops\n")
	for _, tc := range []struct {
		name, labels string
		extra        []string
	}{
		{"binary", writeText(t, dir, "y2.txt", y2.String()), nil},
		{"3 classes", writeText(t, dir, "y3.txt", y3.String()), []string{"--scores"}},
	} {
		model := filepath.Join(dir, "dictionary "+tc.name+".json")
		if code, _, stderr := cli(t, "", "fit", "--method", "dictionary", "--features", X, "--labels", tc.labels, "--seed", "3", "--out", model); code != 0 {
			t.Fatalf("%s: fit: exit %d: %s", tc.name, code, stderr)
		}
		body, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(body), `"atoms": 5`) || !strings.Contains(string(body), `"path_steps": 0`) {
			t.Fatalf("%s: not a model of 5 codes (5 atoms, no path steps): the test cannot tell the orders apart", tc.name)
		}
		run := func(stdin, from string, block int) string {
			smallBlocks(t, block)
			code, stdout, stderr := cli(t, stdin, append([]string{"predict", model, "--features", from}, tc.extra...)...)
			if code != 0 {
				t.Fatalf("%s: predict --features %s in blocks of %d: exit %d: %s", tc.name, from, block, code, stderr)
			}
			return stdout
		}
		whole := run(csv.String(), stdinName, 1<<20)
		if strings.Count(whole, "\n") < 1001 {
			t.Fatalf("%s: %d lines, want a score a row", tc.name, strings.Count(whole, "\n"))
		}
		if got := run("", features, 7); got != whole {
			t.Errorf("%s: the file in blocks of 7 rows scores differently from it read whole", tc.name)
		}
		if got := run(csv.String(), stdinName, 7); got != whole {
			t.Errorf("%s: the standard input in blocks of 7 rows scores differently from it read whole", tc.name)
		}
		if tc.extra != nil {
			smallBlocks(t, 100)
			code, stdout, stderr := cli(t, "", "predict", model, "--features", bad, "--scores")
			if code != 2 || !strings.Contains(stderr, "bad.csv:1002") || strings.Count(stdout, "\n") != 1001 {
				t.Errorf("%s: a bad last line: exit %d, %d lines written, stderr %q; want 2, the header and the 1,000 rows of its blocks before it, the error naming bad.csv:1002", tc.name, code, strings.Count(stdout, "\n"), stderr)
			}
		}
	}
}

// threeClassModel fits bin's no-transfer on 30 rows of two features and
// three classes in dir, and returns the model file's path: a model whose
// predictions are cheap, for the tests that stop predict on long inputs.
func threeClassModel(t *testing.T, bin, dir string) string {
	t.Helper()
	var train, labels strings.Builder
	for i := range 30 {
		fmt.Fprintf(&train, "%d,%d\n", i%3*5, i%5)
		fmt.Fprintln(&labels, i%3)
	}
	X := writeText(t, dir, "X.csv", train.String())
	y := writeText(t, dir, "y.txt", labels.String())
	model := filepath.Join(dir, "m.json")
	if code, out := runBinary(t, bin, nil, "fit", "--method", "no-transfer", "--features", X, "--labels", y, "--out", model, "-q"); code != 0 {
		t.Fatalf("fit: exit %d\n%s", code, out)
	}
	return model
}
