package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFitIgnoreUnusedExtra: with --ignore-unused-extra a method that does
// not use the --unlabelled-* or --oracle-* inputs leaves them unread with
// a note and fits the model it fits without them (byte for byte), so that
// a program running a search over methods (the Python package's
// GridSearchCV over method) can give every candidate the same inputs; a
// method that uses them still reads them (dam's model with them is the one
// it fits without the flag) and still refuses to fit without them, and
// without the flag they are refused as before. Every candidate of such a
// search but dam failed: fit refused the inputs.
func TestFitIgnoreUnusedExtra(t *testing.T) {
	d := newToy(t)
	unlabelled := []string{"--unlabelled-features", d.Xtest, "--unlabelled-source-scores", d.Htest}
	oracle := []string{"--oracle-features", d.Xtest, "--oracle-source-scores", d.Htest, "--oracle-labels", d.yte}
	read := func(p string) []byte {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// fit fits the toy's binary problem with args and returns the model
	// file and standard error; it must succeed.
	fit := func(name string, args ...string) ([]byte, string) {
		t.Helper()
		model := filepath.Join(d.dir, name)
		base := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", model, "-q"}
		code, _, stderr := cli(t, "", append(base, args...)...)
		if code != 0 {
			t.Fatalf("fit %q: exit %d: %s", args, code, stderr)
		}
		return read(model), stderr
	}
	for _, tc := range []struct {
		method string
		extra  []string
		note   string
	}{
		{"greedytl", unlabelled, "greedytl: note: --unlabelled-* inputs are for transductive methods (dam), not greedytl: left unread (--ignore-unused-extra)\n"},
		{"greedytl-auto", unlabelled, "greedytl: note: --unlabelled-* inputs are for transductive methods (dam), not greedytl-auto: left unread (--ignore-unused-extra)\n"},
		{"rls-srcfeat", oracle, "greedytl: note: --oracle-* inputs are for the oracle best-source, not rls-srcfeat: left unread (--ignore-unused-extra)\n"},
		// --oracle-labels alone: incomplete, but unused.
		{"rls-srcfeat", []string{"--oracle-labels", d.yte}, "greedytl: note: --oracle-* inputs are for the oracle best-source, not rls-srcfeat: left unread (--ignore-unused-extra)\n"},
	} {
		want, _ := fit(tc.method+".json", "--method", tc.method)
		got, stderr := fit(tc.method+"-extra.json", append([]string{"--method", tc.method, "--ignore-unused-extra"}, tc.extra...)...)
		if !bytes.Equal(got, want) {
			t.Errorf("%s %q --ignore-unused-extra: the model differs from the one fitted without them", tc.method, tc.extra)
		}
		if note, _, _ := strings.Cut(stderr, "\n"); note+"\n" != tc.note || strings.Count(stderr, "note:") != 1 {
			t.Errorf("%s %q --ignore-unused-extra: stderr %q, want the note %q", tc.method, tc.extra, stderr, tc.note)
		}
		// Without the flag: refused, as before.
		wantInputError(t, strings.TrimSuffix(strings.TrimPrefix(tc.note, "greedytl: note: "), ": left unread (--ignore-unused-extra)\n"),
			append([]string{"fit", "--method", tc.method, "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", filepath.Join(d.dir, "refused.json")}, tc.extra...)...)
	}
	// Both samples: dam reads --unlabelled-* (its model is the one fitted
	// without the flag) and leaves --oracle-* unread; best-source the other
	// way round.
	both := append(append([]string{"--ignore-unused-extra"}, unlabelled...), oracle...)
	for _, tc := range []struct {
		method string
		needs  []string
		note   string
	}{
		{"dam", unlabelled, "--oracle-* inputs are for the oracle best-source, not dam: left unread"},
		{"best-source", oracle, "--unlabelled-* inputs are for transductive methods (dam), not best-source: left unread"},
	} {
		want, _ := fit(tc.method+".json", append([]string{"--method", tc.method}, tc.needs...)...)
		got, stderr := fit(tc.method+"-both.json", append([]string{"--method", tc.method}, both...)...)
		if !bytes.Equal(got, want) {
			t.Errorf("%s with both samples and --ignore-unused-extra: the model differs from the one fitted with its own", tc.method)
		}
		if note, _, _ := strings.Cut(stderr, "\n"); note != "greedytl: note: "+tc.note+" (--ignore-unused-extra)" || strings.Count(stderr, "note:") != 1 {
			t.Errorf("%s with both samples: stderr %q, want the note %q alone", tc.method, stderr, tc.note)
		}
	}
	// The flag asks nothing of a method's own inputs: dam without them is
	// refused, and so is best-source, whose refusal is the one line on
	// standard error (the note of the sample left unread follows a written
	// model alone: a failed fit says only why; it came first).
	refused := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", filepath.Join(d.dir, "refused.json"), "--ignore-unused-extra"}
	wantInputError(t, "dam is transductive: give the unlabelled target inputs", append(append(refused, "--method", "dam"), oracle...)...)
	wantInputError(t, "best-source is an oracle: give held-out inputs and labels", append(append(refused, "--method", "best-source"), unlabelled...)...)
	// The model on standard output: the note follows it.
	code, out, stderr := cli(t, "", append([]string{"fit", "--method", "greedytl", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "-q", "--ignore-unused-extra"}, unlabelled...)...)
	if want, _ := fit("greedytl.json", "--method", "greedytl"); code != 0 || out != string(want) || stderr != "greedytl: note: --unlabelled-* inputs are for transductive methods (dam), not greedytl: left unread (--ignore-unused-extra)\n" {
		t.Errorf("fit to standard output: exit %d, stderr %q; the model is the one fitted without the sample: %v", code, stderr, out == string(want))
	}
	// Three classes, a native method and one fitted one against the rest.
	labels := make([]string, 24)
	for i := range labels {
		labels[i] = []string{"ant", "bee", "cow"}[i%3]
	}
	y3 := writeText(t, d.dir, "y3.txt", strings.Join(labels, "\n")+"\n")
	for _, m := range []string{"nearest-mean", "rls-srcfeat"} {
		model := filepath.Join(d.dir, m+"-3.json")
		code, _, stderr := cli(t, "", append([]string{"fit", "--method", m, "--features", d.X, "--source-scores", d.H, "--labels", y3, "--out", model, "-q"}, both...)...)
		if code != 0 {
			t.Fatalf("%s, three classes, with both samples and --ignore-unused-extra: exit %d: %s", m, code, stderr)
		}
		if strings.Count(stderr, "left unread (--ignore-unused-extra)") != 2 {
			t.Errorf("%s, three classes: stderr %q, want a note for each sample", m, stderr)
		}
	}
}
