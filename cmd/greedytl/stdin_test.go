package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stdinCase is a command line of TestEveryStdinInput.
type stdinCase struct {
	name string   // the command and the flag (or argument) tested
	args []string // the command line, naming file
	file string   // the input read from standard input instead
	out  string   // the output file to compare too ("" when it goes to stdout)
}

// TestEveryStdinInput: every input that takes "-" for the standard input
// reads the command's input stream (what run is given, as the tests give
// it), not the process's: fed a file's bytes in-process, the command gives
// exactly the output it gives for the file (issue: --labels - and
// --oracle-labels - read os.Stdin through the dataset package, so in a
// test they read nothing, and differed from --model -).
func TestEveryStdinInput(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "m.json")
	svm := writeText(t, d.dir, "train.svm", "+1 1:0.5 3:-1\n-1 1:-0.25 2:1\n+1 2:0.75 3:-0.5\n-1 1:-1 3:0.25\n")
	trained := filepath.Join(d.dir, "train.model")
	fit := func(args ...string) []string {
		return append([]string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat"}, args...)
	}
	dam := fit("--method", "dam", "--unlabelled-features", d.Xtest, "--unlabelled-source-scores", d.Htest)
	oracle := fit("--method", "best-source", "--oracle-features", d.Xtest, "--oracle-source-scores", d.Htest, "--oracle-labels", d.yte)
	predict := []string{"predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--labels", d.yte}
	cases := []stdinCase{
		{"fit --features", fit(), d.X, ""},
		{"fit --source-scores", fit(), d.H, ""},
		{"fit --labels", fit(), d.ytext, ""},
		{"fit --unlabelled-features", dam, d.Xtest, ""},
		{"fit --unlabelled-source-scores", dam, d.Htest, ""},
		{"fit --oracle-features", oracle, d.Xtest, ""},
		{"fit --oracle-source-scores", oracle, d.Htest, ""},
		{"fit --oracle-labels", oracle, d.yte, ""},
		{"predict --model", predict, model, ""},
		{"predict --features", predict, d.Xtest, ""},
		{"predict --source-scores", predict, d.Htest, ""},
		{"predict --labels", predict, d.yte, ""},
		{"inspect MODEL", []string{"inspect", "--json", model}, model, ""},
		{"train --data", []string{"train", "--data", svm, "--out", trained}, svm, trained},
		{"train FILE", []string{"train", svm, trained}, svm, trained},
	}
	// Every flag whose help says it reads standard input is in the table.
	for _, c := range newRootCmd(&streams{}).Commands() {
		for _, line := range strings.Split(c.Flags().FlagUsagesWrapped(0), "\n") {
			if !strings.Contains(line, "stdin") && !strings.Contains(line, "standard input") {
				continue
			}
			i := strings.Index(line, "--")
			name := c.Name() + " " + strings.Fields(line[i:])[0]
			if !slices.ContainsFunc(cases, func(tc stdinCase) bool { return tc.name == name }) {
				t.Errorf("%s reads standard input (its help says so) but is not tested here", name)
			}
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			flag, _, _ := strings.Cut(strings.TrimPrefix(tc.name, strings.Fields(tc.name)[0]+" "), " ")
			i := slices.Index(tc.args, flag) + 1 // the flag's value
			if !strings.HasPrefix(flag, "--") {
				i = slices.Index(tc.args, tc.file) // a positional argument
			}
			if i <= 0 || tc.args[i] != tc.file {
				t.Fatalf("%q does not give %s the file %s", tc.args, flag, tc.file)
			}
			run := func(stdin string, args []string) (int, string, string, string) {
				code, out, stderr := cli(t, stdin, args...)
				var written []byte
				if tc.out != "" {
					var err error
					if written, err = os.ReadFile(tc.out); err != nil {
						t.Fatalf("%q: %v", args, err)
					}
					os.Remove(tc.out)
				}
				return code, out, stderr, string(written)
			}
			code, want, wantErr, wantFile := run("", tc.args)
			if code != 0 || want+wantFile == "" {
				t.Fatalf("from the file: exit %d, stdout %q: %s", code, want, wantErr)
			}
			content, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			args := slices.Clone(tc.args)
			args[i] = "-"
			code, got, gotErr, gotFile := run(string(content), args)
			if code != 0 || got != want || gotErr != wantErr || gotFile != wantFile {
				t.Errorf("%q with the file on stdin: exit %d, stdout %d bytes, stderr %q; want 0 and the file's output (%d bytes, stderr %q)",
					args, code, len(got), gotErr, len(want), wantErr)
			}
		})
	}
}

// TestModelFileWithBOM: a model file that a Windows editor saved with a
// byte order mark — a greedytl (JSON) model and a liblinear one — is read
// as the same file without it, by predict (from a file and from standard
// input) and by inspect, as the data readers read a CSV or label file
// with one ("is not a greedytl model (JSON) file" before); a file with two
// marks is refused, naming it (the mark is skipped once, by the readers).
func TestModelFileWithBOM(t *testing.T) {
	d := newToy(t)
	dir := d.dir
	jsonModel := filepath.Join(dir, "m.json")
	svm := writeText(t, dir, "d.svm", "1 1:1 2:0.5\n-1 1:-1 2:0.25\n1 1:0.75 2:-0.5\n-1 1:-0.5 2:1\n")
	X := writeText(t, dir, "x.csv", "1,0.5\n-1,0.25\n0.3,2\n")
	libModel := filepath.Join(dir, "d.model")
	for _, args := range [][]string{
		{"fit", "--features", d.X, "--labels", d.ytext, "--positive", "cat", "--out", jsonModel},
		{"train", "-q", svm, libModel},
	} {
		if code, _, e := cli(t, "", args...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, e)
		}
	}
	withBOM := func(path string, marks int) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return writeText(t, dir, fmt.Sprintf("bom%d-%s", marks, filepath.Base(path)), strings.Repeat("\xef\xbb\xbf", marks)+string(b))
	}
	for _, tc := range []struct {
		model string
		args  []string
	}{
		{jsonModel, []string{"predict", "--features", d.Xtest, "--model"}},
		{jsonModel, []string{"inspect"}},
		{libModel, []string{"predict", "--features", X, "--model"}},
	} {
		code, want, e := cli(t, "", append(tc.args, tc.model)...)
		if code != 0 {
			t.Fatalf("%q %s: exit %d: %s", tc.args, tc.model, code, e)
		}
		for marks := 1; marks <= 2; marks++ {
			marked := withBOM(tc.model, marks)
			content, err := os.ReadFile(marked)
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range []struct{ stdin, model, name string }{{"", marked, marked}, {string(content), "-", "<stdin>"}} {
				code, got, e := cli(t, run.stdin, append(tc.args, run.model)...)
				switch {
				case marks == 1 && (code != 0 || got != want):
					t.Errorf("%q %s: exit %d, stdout\n%s\nstderr %s\nwant exit 0 and\n%s", tc.args, run.model, code, got, e, want)
				case marks == 2 && (code != 2 || got != "" || !strings.Contains(e, run.name+" starts with two byte-order marks")):
					// One mark is skipped, once: not a second.
					t.Errorf("%q %s with two marks: exit %d, stdout\n%s\nstderr %s\nwant exit 2 and %q", tc.args, run.model, code, got, e, run.name+" starts with two byte-order marks")
				}
			}
		}
	}
}

// TestDirectoryFlagsRefuseStdin: --data and --sources name directories,
// which standard input cannot be: "-" is refused naming the flag. The
// messages were "-/features.npy: no such file or directory", and for
// --sources a hint to run train-sources with --out -, which it refuses.
func TestDirectoryFlagsRefuseStdin(t *testing.T) {
	d := newToy(t)
	model := d.fitModel(t, "m.json")
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		want string
		args []string
	}{
		{"--sources -: a sources directory is read from its files, not from standard input", []string{"fit", "--features", d.X, "--sources", "-", "--labels", d.ytext, "--positive", "cat"}},
		{"--sources -: a sources directory is read from its files, not from standard input", []string{"predict", model, "--features", d.Xtest, "--sources", "-"}},
		{"--sources -: a sources directory is read from its files, not from standard input", []string{"experiment", "--data", d.dir, "--sources", "-", "--out", out}},
		{"--data -: a dataset folder is read from its files, not from standard input", []string{"experiment", "--data", "-", "--out", out}},
		{"--data -: a dataset folder is read from its files, not from standard input", []string{"train-sources", "--data", "-", "--out", out}},
	} {
		wantInputError(t, tc.want, tc.args...)
	}
}

// TestInputsOfTheWrongKind: train given a directory, and train-sources or
// experiment given a file as --data, are refused saying what each is (the
// latter by dataset.OpenFolder, TestFolderIsAFile).
// "greedytl train DIR" run inside DIR said that DIR.model was inside the
// input DIR; --data FILE said "FILE/features.npy: not a directory".
func TestInputsOfTheWrongKind(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := writeText(t, dir, "y.txt", "1\n-1\n")
	out := filepath.Join(t.TempDir(), "out")
	wantInputError(t, dir+" is a directory: give the training data file", "train", dir)
	for _, cmd := range []string{"train-sources", "experiment"} {
		wantInputError(t, file+": is a file, not a dataset folder", cmd, "--data", file, "--out", out)
	}
}
