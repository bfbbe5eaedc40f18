package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestOutputIsNeverAnInput: --out naming an input (directly, through a
// symbolic link or a hard link) is refused before anything is read, and the
// input is left as it was (issue: fit --out X.npy, predict --out m.json and
// train --out d.svm destroyed their input).
func TestOutputIsNeverAnInput(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "m.json")
	link := filepath.Join(d.dir, "link.npy")
	if err := os.Symlink(d.X, link); err != nil {
		t.Fatal(err)
	}
	svm := writeText(t, d.dir, "d.svm", "+1 1:1 2:0.5\n-1 1:-1 2:0.25\n+1 1:0.8\n-1 2:-0.5\n")
	for _, tc := range []struct {
		file string
		args []string
	}{
		{d.X, []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", d.X}},
		{d.X, []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", link}},
		{d.ytext, []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", d.ytext}},
		{model, []string{"predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--out", model}},
		{d.Htest, []string{"predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--out", d.Htest}},
		{svm, []string{"train", "--data", svm, "--out", svm}},
		{svm, []string{"train", svm, svm}},
	} {
		before, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		wantInputError(t, "refusing to overwrite", tc.args...)
		if after, _ := os.ReadFile(tc.file); string(after) != string(before) {
			t.Errorf("%q changed its input %s", tc.args, tc.file)
		}
	}
}

// TestOutputNotInSources: fit's and predict's --out inside the --sources
// directory they read is refused before anything is read, and the
// directory is left as it was (issue: fit --out DIR/sources.json and
// --out DIR/models/1-….model wrote the model over the index or a source,
// which the next command refused as altered: the sources, hours of
// training at the paper's sizes, were lost).
func TestOutputNotInSources(t *testing.T) {
	st := newSourcesToy(t)
	model := filepath.Join(st.dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "greedytl", "--features", st.X, "--labels", st.y, "--positive", "cat", "--sources", st.A, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	srcModels, err := filepath.Glob(filepath.Join(st.A, "models", "*.model"))
	if err != nil || len(srcModels) == 0 {
		t.Fatalf("no source models in %s: %v", st.A, err)
	}
	for _, out := range []string{filepath.Join(st.A, "sources.json"), srcModels[0], filepath.Join(st.A, "models", "new.json")} {
		for _, args := range [][]string{
			{"fit", "--method", "greedytl", "--features", st.X, "--labels", st.y, "--positive", "cat", "--sources", st.A, "--out", out},
			{"predict", "--model", model, "--features", st.Xt, "--sources", st.A, "--out", out},
		} {
			before, _ := os.ReadFile(out)
			wantInputError(t, "refusing to", args...)
			if after, _ := os.ReadFile(out); string(after) != string(before) {
				t.Errorf("%q changed %s", args, out)
			}
		}
	}
	if code, _, stderr := cli(t, "", "predict", "--model", model, "--features", st.Xt, "--sources", st.A); code != 0 {
		t.Errorf("the sources directory no longer reads: exit %d: %s", code, stderr)
	}
}

// TestOutputDirNotAnInput: an output directory that is, or lies inside,
// an input directory of the command — experiment's and train-sources'
// --data, experiment's --sources (its models folder too), a run report
// reads — is refused before any work, with exit status 2 naming both
// paths, and nothing is written into the input: the run's, the sources'
// or the report's files mixed with what the command reads.
func TestOutputDirNotAnInput(t *testing.T) {
	type testCase struct {
		args     []string
		out, in  string
		relation string
	}
	exp := []string{"--negative-classes", "n0,n1", "--methods", "no-transfer", "--splits", "1", "--noise", "0", "-q"}
	// Each case has inputs of its own: one that failed would spoil the next.
	cases := func() []testCase {
		data := experimentFolder(t)
		src := filepath.Join(t.TempDir(), "sources")
		if err := os.MkdirAll(filepath.Join(src, "models"), 0o755); err != nil {
			t.Fatal(err)
		}
		run := reportRun(t)
		return []testCase{
			{append([]string{"experiment", "--data", data}, exp...), data, data, "is the input"},
			{append([]string{"experiment", "--data", data}, exp...), filepath.Join(data, "run"), data, "is inside the input"},
			{append([]string{"experiment", "--data", data, "--sources", src}, exp...), src, src, "is the input"},
			{append([]string{"experiment", "--data", data, "--sources", src}, exp...), filepath.Join(src, "models"), src, "is inside the input"},
			{[]string{"train-sources", "--data", data, "--negative-classes", "n0,n1", "-q"}, data, data, "is the input"},
			{[]string{"report", run, "-q"}, run, run, "is the input"},
			{[]string{"report", run, "-q"}, filepath.Join(run, "report"), run, "is inside the input"},
		}
	}
	for k := range cases() {
		tc := cases()[k]
		args := append(tc.args, "--out", tc.out)
		before := listTree(t, tc.in)
		code, _, stderr := cli(t, "", args...)
		want := "the output " + tc.out + " " + tc.relation + " " + tc.in + ": refusing to write"
		if code != exitInput || !strings.Contains(stderr, want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", args, code, stderr, exitInput, want)
		}
		if after := listTree(t, tc.in); !slices.Equal(after, before) {
			t.Errorf("%q wrote into its input %s: %q, was %q", args, tc.in, after, before)
		}
	}
}

// TestOutputDirNamedAsTheEmbeddedData: --data clinc150 is the embedded
// data set, not a directory of that name: a run's --out clinc150, which a
// resumed run finds existing, is not refused as the input.
func TestOutputDirNamedAsTheEmbeddedData(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir(embeddedCLINC150, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"experiment", "train-sources"} {
		// The fraction's error comes after the output's checks.
		code, _, stderr := cli(t, "", cmd, "--data", embeddedCLINC150, "--out", embeddedCLINC150, "--negative-fraction", "2")
		if want := "--negative-fraction 2: want a value in (0, 1)"; code != exitInput || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", cmd, code, stderr, exitInput, want)
		}
	}
}

// listTree returns the paths of the files and directories below dir.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		paths = append(paths, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// TestOutputToSpecialFiles: --out naming a link to a device writes through
// it and leaves it in place (issue: the temporary-file rename replaced
// /dev/null-like nodes and links to /proc/self/fd/1; FIFOs are tested in
// internal/atomicfile).
func TestOutputToSpecialFiles(t *testing.T) {
	d := newToy(t)
	null := filepath.Join(d.dir, "null")
	if err := os.Symlink(os.DevNull, null); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "", "fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", null); code != 0 {
		t.Fatalf("fit --out link to %s: %s", os.DevNull, stderr)
	}
	if fi, err := os.Lstat(null); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link to %s was replaced (%v)", os.DevNull, err)
	}
}

// TestOutputDash: --out - is standard output for the commands that write one
// file (fit, predict, train), as - is standard input for the inputs; the
// commands that write a directory refuse it. Before, every --out - wrote a
// file or directory named "-" in the working directory.
func TestOutputDash(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "m.json")
	svm := writeText(t, d.dir, "d.svm", "+1 1:1 2:0.5\n-1 1:-1 2:0.25\n+1 1:0.8\n-1 2:-0.5\n")
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		args   []string
		stdout string // a prefix of what standard output must hold
	}{
		{[]string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", "-"}, "{"},
		{[]string{"predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--out", "-"}, ""},
		{[]string{"train", "--data", svm, "--out", "-"}, "solver_type "},
		{[]string{"train", svm, "-"}, "solver_type "},
	} {
		code, out, stderr := cli(t, "", tc.args...)
		if code != 0 || out == "" || !strings.HasPrefix(out, tc.stdout) {
			t.Errorf("%q: exit %d, stdout %.40q, stderr %q: want 0 and the output on stdout", tc.args, code, out, stderr)
		}
		if _, err := os.Lstat("-"); err == nil {
			t.Errorf("%q wrote a file named -", tc.args)
			os.RemoveAll("-")
		}
	}
	for _, args := range [][]string{
		{"experiment", "--data", "x", "--out", "-"},
		{"train-sources", "--data", "x", "--out", "-"},
		{"synth", "--out", "-"},
		{"merge", "x", "--out", "-"},
		{"report", "x", "--out", "-"},
		{"demo", "--out", "-"},
	} {
		wantInputError(t, "--out -", args...)
		if _, err := os.Lstat("-"); err == nil {
			t.Errorf("%q wrote a file named -", args)
			os.RemoveAll("-")
		}
	}
}

// TestOutputDirIsAFile: the commands that write a directory refuse an --out
// that is an existing file, as bad usage (exit 2; it was exit 1 with
// "mkdir F: not a directory", or for synth "lstat F/features.npy: not a
// directory"); merge still writes FILE.jsonl.
func TestOutputDirIsAFile(t *testing.T) {
	f := writeText(t, t.TempDir(), "afile", "")
	for _, args := range [][]string{
		{"experiment", "--data", "x", "--out", f},
		{"train-sources", "--data", "x", "--out", f},
		{"synth", "--out", f},
		{"merge", "x", "--out", f},
		{"report", "x", "--out", f},
		{"demo", "--out", f},
	} {
		wantInputError(t, "is a file, not a directory", args...)
	}
	if code, _, stderr := cli(t, "", "merge", "x", "--out", f+".jsonl"); strings.Contains(stderr, "not a directory") {
		t.Errorf("merge --out FILE.jsonl: exit %d, %s", code, stderr)
	}
}

// TestInspectNonModel: inspect (and predict) given a file that is not a
// greedytl model say what the file is (they said "reading model: invalid
// character 's' looking for beginning of value" for a liblinear model,
// which predict reads, and for a .npy).
func TestInspectNonModel(t *testing.T) {
	d := newToy(t)
	svm := writeText(t, d.dir, "d.svm", "+1 1:1 2:0.5\n-1 1:-1 2:0.25\n+1 1:0.8\n-1 2:-0.5\n")
	lib := filepath.Join(d.dir, "d.model")
	if code, _, stderr := cli(t, "", "train", svm, lib); code != 0 {
		t.Fatal(stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"inspect", lib}, lib + " is a liblinear model file: inspect reads the JSON models of greedytl fit"},
		{[]string{"inspect", d.X}, d.X + " is not a greedytl model (JSON)"},
		{[]string{"predict", "--model", d.X, "--features", d.Xtest}, d.X + " is not a greedytl model (JSON)"},
	} {
		wantInputError(t, tc.want, tc.args...)
	}
}

// TestOutputPathCheckedFirst: an --out naming a directory, or a file in a
// directory that does not exist (directly or as a symbolic link's target),
// is a usage error (exit 2) found before any work, and the message names
// the path, not a temporary file. The link said "no such file or
// directory", exit 1, without naming the missing directory; a link
// through a regular file (through.json -> d.svm/m.json) "not a
// directory", exit 1.
func TestOutputPathCheckedFirst(t *testing.T) {
	d := newToy(t)
	svm := writeText(t, d.dir, "d.svm", "+1 1:1 2:0.5\n-1 1:-1 2:0.25\n+1 1:0.8\n-1 2:-0.5\n")
	missing := filepath.Join(d.dir, "no", "m.json")
	link := filepath.Join(d.dir, "link.json")
	if err := os.Symlink(missing, link); err != nil {
		t.Fatal(err)
	}
	// A link to a path through a regular file: "not a directory", exit 1,
	// while the path itself is refused by checkAbove (exit 2).
	through := filepath.Join(d.dir, "through.json")
	if err := os.Symlink(filepath.Join(svm, "m.json"), through); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		out, want string
	}{
		{d.dir, "is a directory"},
		{missing, "no such directory " + filepath.Dir(missing)},
		{link, "no such directory " + filepath.Dir(missing)},
		{through, through + ": " + svm + " is a file, not a directory"},
	} {
		for _, args := range [][]string{
			{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", tc.out},
			{"train", "--data", svm, "--out", tc.out},
		} {
			wantInputError(t, tc.want, args...)
			code, _, stderr := cli(t, "", args...)
			if code == exitInput && (strings.Contains(stderr, ".tmp-") || !strings.Contains(stderr, tc.out)) {
				t.Errorf("%q: message %q: want it to name %s and no temporary file", args, stderr, tc.out)
			}
		}
	}
}

// fullWriter fails every write, as a full disk (/dev/full) does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// evaluatedModels fits the toy's binary model, m.json, and a nearest-mean
// model of three classes on six rows, multi.json, in d's folder, and
// returns them with the six rows' features and labels.
func evaluatedModels(t *testing.T, d toy) (model, multi, X6, y3 string) {
	t.Helper()
	model = d.fitModel(t, "m.json")
	X6 = writeText(t, d.dir, "x6.csv", "1,2\n3,1\n0,5\n2,2\n4,1\n1,6\n")
	y3 = writeText(t, d.dir, "y3.txt", "a\nb\nc\na\nb\nc\n")
	multi = filepath.Join(d.dir, "multi.json")
	if code, _, e := cli(t, "", "fit", "--features", X6, "--labels", y3, "--method", "nearest-mean", "--out", multi); code != 0 {
		t.Fatalf("fit: %d %s", code, e)
	}
	return model, multi, X6, y3
}

// TestLostEvaluationFails: predict's evaluation, printed on standard error
// beside predictions on standard output, is a result: a standard error
// that cannot be written fails the command (exit 0 before, the accuracy
// lost), binary and multi-class; --json's, which failed already, too.
func TestLostEvaluationFails(t *testing.T) {
	d := newToy(t)
	model, multi, X6, y3 := evaluatedModels(t, d)
	for _, args := range [][]string{
		{"predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--labels", d.yte},
		{"predict", "--model", multi, "--features", X6, "--labels", y3},
		{"predict", "--model", multi, "--features", X6, "--labels", y3, "--json"},
	} {
		var stdout strings.Builder
		if code := run(args, strings.NewReader(""), &stdout, fullWriter{}); code != exitFailure || stdout.Len() == 0 {
			t.Errorf("%q: exit %d with %d bytes of predictions: want %d (the evaluation was lost) and the predictions", args, code, stdout.Len(), exitFailure)
		}
	}
}

// TestLostStandardOutputFails: a command whose standard output cannot be
// written exits 1 with one message, whether it checked its writes (predict)
// or printed its result without looking (help, version, train -v's
// accuracy, train -C's C, which exited 0 with the result lost).
func TestLostStandardOutputFails(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "m.json")
	svm := writeText(t, d.dir, "d.svm", strings.Repeat("+1 1:1 2:0.5\n-1 1:-1 2:0.25\n+1 1:0.8\n-1 2:-0.5\n", 3))
	for _, args := range [][]string{
		{"help"},
		{"help", "fit"},
		{"version"},
		{"train", "-v", "3", svm},
		{"train", "-q", "-C", svm, filepath.Join(d.dir, "c.model")},
		{"predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest},
		{"inspect", model},
	} {
		var stderr strings.Builder
		code := run(args, strings.NewReader(""), fullWriter{}, &stderr)
		if code != exitFailure || strings.Count(stderr.String(), "no space left on device") != 1 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q: want %d and one line saying why", args, code, stderr.String(), exitFailure)
		}
	}
}

// TestPredictOutNPY: predict writes text, which under a .npy name neither
// np.load (it takes the text for pickled data) nor greedytl's matrix
// reader (a .npy name forces the .npy reader) can read back: --out x.npy
// is refused before any work, writing nothing, where it wrote the scores
// as text.
func TestPredictOutNPY(t *testing.T) {
	dir := t.TempDir()
	model := writeText(t, dir, "m.model", "solver_type L2R_L2LOSS_SVC_DUAL\nnr_class 2\nlabel 1 -1\nnr_feature 2\nbias -1\nw\n1\n-1\n")
	x := writeNPY(t, dir, "X.npy", mat.NewDense(2, 2, []float64{1, 0, 0, 1}))
	for _, name := range []string{"s.npy", "S.NPY"} {
		out := filepath.Join(dir, name)
		code, _, stderr := cli(t, "", "predict", model, "--features", x, "--out", out)
		want := "greedytl: --out " + out + ": predict writes text (one score or class a line; with --scores a tab-separated matrix), not a .npy array: name it .txt or .tsv (np.loadtxt reads it)\n"
		if code != 2 || stderr != want {
			t.Errorf("--out %s: exit %d, stderr %q; want 2, %q", name, code, stderr, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--out %s: written", name)
		}
	}
	if code, _, stderr := cli(t, "", "predict", model, "--features", x, "--out", filepath.Join(dir, "s.txt")); code != 0 {
		t.Errorf("--out s.txt: exit %d: %s", code, stderr)
	}
}

// TestOutputNamingStandardOutput: an --out that names the file standard
// output is — /dev/fd/N of its descriptor, or its path, as after the
// shell's "> file" — is written as --out - is: through standard output,
// with what the command prints beside its output on standard error (predict's
// evaluation, train -C's lines) or refused (fit --json). Before, the
// evaluation or the -C lines went into the same file as the scores or the
// model (which predict - then could not read), or, under the file's path,
// onto the file the rename had just replaced (lost); and train -C --out -
// began the model on standard output with its lines.
func TestOutputNamingStandardOutput(t *testing.T) {
	d := newToy(t)
	model, multi, X6, y3 := evaluatedModels(t, d)
	svm := writeText(t, d.dir, "d.svm", strings.Repeat("+1 1:1 2:0.5\n-1 1:-1 2:0.25\n+1 1:0.8\n-1 2:-0.5\n", 3))

	// train -C --out -: the model alone on standard output.
	if code, out, stderr := cli(t, "", "train", "-C", "--data", svm, "--out", "-"); code != 0 || !strings.HasPrefix(out, "solver_type ") || !strings.Contains(stderr, "Best C = ") {
		t.Errorf("train -C --out -: exit %d, stdout %.40q, stderr %q: want the model alone on stdout, Best C on stderr", code, out, stderr)
	}
	for _, tc := range []struct {
		args   []string // --out follows
		stdout string   // what the file must begin with
		stderr string   // what standard error must say
	}{
		{[]string{"predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--labels", d.yte}, "", "balanced accuracy: "},
		{[]string{"predict", "--model", multi, "--features", X6, "--labels", y3, "--json"}, "", `"balanced_accuracy"`},
		{[]string{"train", "-C", "--data", svm}, "solver_type ", "Best C = "},
	} {
		for _, byFD := range []bool{false, true} {
			f, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
			if err != nil {
				t.Fatal(err)
			}
			out := f.Name()
			if byFD {
				out = "/dev/fd/" + strconv.Itoa(int(f.Fd()))
			}
			args := append(slices.Clone(tc.args), "--out", out)
			var stderr strings.Builder
			code := run(args, strings.NewReader(""), f, &stderr)
			f.Close()
			got, _ := os.ReadFile(f.Name())
			text := string(got)
			if code != 0 || !strings.HasPrefix(text, tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("%q: exit %d, stderr %q: want 0 and it saying %q", args, code, stderr.String(), tc.stderr)
			}
			if strings.Contains(text, tc.stderr) || strings.Contains(text, "C = ") {
				t.Errorf("%q: the output file mixes in what goes to stderr:\n%s", args, text)
			}
		}
	}
	// fit --json: the report and the model would share the stream.
	f, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stderr strings.Builder
	args := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--json", "--out", f.Name()}
	if code := run(args, strings.NewReader(""), f, &stderr); code != exitInput || !strings.Contains(stderr.String(), "--json prints a report on standard output, which --out "+f.Name()+" is too") {
		t.Errorf("%q: exit %d, stderr %q: want %d, refused", args, code, stderr.String(), exitInput)
	}
}

// TestOutputUnderAFile: an --out below a regular file (y.txt/model.json,
// y.txt/run/a) is refused as bad usage before any work, naming the file,
// by every command that writes one; as is merge's FILE.jsonl in a
// directory that does not exist. They failed after the work with exit 1
// and a system call's message ("lstat /abs/y.txt/model.json: not a
// directory", "mkdir y.txt: not a directory", "open .m.jsonl.lock: no
// such file or directory"), demo after loading its data.
func TestOutputUnderAFile(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "m.json")
	svm := writeText(t, d.dir, "d.svm", "+1 1:1 2:0.5\n-1 1:-1 2:0.25\n+1 1:0.8\n-1 2:-0.5\n")
	run, data := reportRun(t), experimentFolder(t)
	file := d.ytext
	for _, tc := range []struct {
		out  string
		args []string // --out follows
	}{
		{"m.json", []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat"}},
		{"s.txt", []string{"predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest}},
		{"m.model", []string{"train", "--data", svm}},
		{"src", []string{"train-sources", "--data", data}},
		{"run/a", []string{"experiment", "--data", data}},
		{"rep", []string{"report", run}},
		{"m.jsonl", []string{"merge", run}},
		{"merged", []string{"merge", run}},
		{"s", []string{"synth"}},
		{"demo", []string{"demo"}},
	} {
		out := filepath.Join(file, tc.out)
		wantInputError(t, "--out "+out+": "+file+" is a file, not a directory", append(tc.args, "--out", out)...)
	}
	missing := filepath.Join(d.dir, "missing", "m.jsonl")
	wantInputError(t, missing+": no such directory "+filepath.Dir(missing), "merge", run, "--out", missing)
}

// TestLostFitReportNamed: fit --json's report of a written model, lost to
// a full standard output, fails with a message naming the report, the
// standard output and the model file written (it was the bare "no space
// left on device").
func TestLostFitReportNamed(t *testing.T) {
	d := newToy(t)
	model := filepath.Join(d.dir, "m.json")
	args := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", model, "--json"}
	var stderr strings.Builder
	code := run(args, strings.NewReader(""), fullWriter{}, &stderr)
	want := "greedytl: writing fit's JSON report to standard output (the model was written to " + model + "): no space left on device\n"
	if code != exitFailure || !strings.HasSuffix(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q: want %d ending %q", code, stderr.String(), exitFailure, want)
	}
}
