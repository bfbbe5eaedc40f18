package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/greedytl/greedytl/internal/bom"
)

// TestModelFileWithBOM: a model file that a Windows editor saved with a
// byte order mark — a greedytl (JSON) model and a liblinear one — is read
// as the same file without it, by predict (from a file and from standard
// input) and by inspect, as the data readers read a CSV or label file
// with one ("is not a greedytl model (JSON) file" before).
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
	withBOM := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return writeText(t, dir, "bom-"+filepath.Base(path), bom.Mark+string(b))
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
		marked := withBOM(tc.model)
		content, err := os.ReadFile(marked)
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range []struct{ stdin, model string }{{"", marked}, {string(content), "-"}} {
			code, got, e := cli(t, run.stdin, append(tc.args, run.model)...)
			if code != 0 || got != want {
				t.Errorf("%q %s: exit %d, stdout\n%s\nstderr %s\nwant exit 0 and\n%s", tc.args, run.model, code, got, e, want)
			}
		}
	}
}
