package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFitJSONReportsFailure: with --json a fit that fails prints, on
// standard output, the report of its error: the message as standard error
// has it (without "greedytl: ") and the classes it names, as the labels
// name them — a held-out sample missing a class (loadOracle), a class's fit
// against the rest (method.ClassError) — so that a program that gave
// greedytl other names for its classes (the Python package's class indices)
// can name them; an error of no class lists none, and without --json
// standard output stays empty. Before, a failing fit --json printed nothing
// on standard output.
func TestFitJSONReportsFailure(t *testing.T) {
	dir := t.TempDir()
	x := writeText(t, dir, "x.csv", "1,2\n2,1\n3,5\n4,4\n5,1\n6,3\n")
	h := writeText(t, dir, "h.csv", "1,0\n0,1\n1,1\n0,0\n1,0\n0,1\n")
	y := writeText(t, dir, "y.txt", "ant\nbee\ncow\nant\nbee\ncow\n")
	noCow := writeText(t, dir, "nocow.txt", "ant\nbee\nbee\nant\nbee\nant\n")
	onlyAnt := writeText(t, dir, "onlyant.txt", strings.Repeat("ant\n", 6))
	huge6 := writeText(t, dir, "huge6.csv", "1,1.79e308\n2,1.79e308\n3,1.79e308\n4,-1.79e308\n5,1\n6,2\n")
	one := writeText(t, dir, "one.txt", strings.Repeat("ant\n", 6))
	out := dir + "/m.json"
	oracle := func(labels string) []string {
		return []string{"--method", "best-source", "--source-scores", h, "--oracle-features", x, "--oracle-source-scores", h, "--oracle-labels", labels}
	}
	for _, tc := range []struct {
		name    string
		args    []string
		classes []string
	}{
		{"held-out labels without a class", append([]string{"--features", x, "--labels", y}, oracle(noCow)...), []string{"cow"}},
		{"held-out labels of the positive class only", append([]string{"--features", x, "--labels", y, "--positive", "ant"}, oracle(onlyAnt)...), []string{"ant"}},
		{"a class's fit against the rest", []string{"--features", huge6, "--labels", y, "--method", "l1-logistic"}, []string{"ant"}},
		{"no class", []string{"--features", x, "--labels", one}, nil},
	} {
		args := append([]string{"fit", "--out", out}, tc.args...)
		code, stdout, stderr := cli(t, "", args...)
		if code != exitInput || stdout != "" {
			t.Errorf("%s: without --json: exit %d, stdout %q; want %d and nothing", tc.name, code, stdout, exitInput)
		}
		msg := strings.TrimPrefix(strings.TrimSuffix(stderr, "\n"), "greedytl: ")
		code, stdout, stderr = cli(t, "", append(args, "--json")...)
		if code != exitInput || strings.TrimPrefix(strings.TrimSuffix(stderr, "\n"), "greedytl: ") != msg {
			t.Errorf("%s: with --json: exit %d, stderr %q; want %d and %q", tc.name, code, stderr, exitInput, msg)
		}
		var rep struct {
			Model    *string           `json:"model"`
			Warnings []json.RawMessage `json:"warnings"`
			Error    *struct {
				Message string   `json:"message"`
				Classes []string `json:"classes"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Errorf("%s: stdout %q: %v", tc.name, stdout, err)
			continue
		}
		if rep.Model != nil || rep.Warnings == nil || len(rep.Warnings) != 0 || rep.Error == nil {
			t.Errorf("%s: report %s; want no model, warnings [] and the error", tc.name, stdout)
			continue
		}
		if rep.Error.Message != msg || !slices.Equal(rep.Error.Classes, tc.classes) {
			t.Errorf("%s: error %+v; want message %q, classes %q", tc.name, *rep.Error, msg, tc.classes)
		}
	}
}

// failOnce is standard output whose first write fails after keeping n
// bytes of it (a transient failure: the writes after it succeed).
type failOnce struct {
	bytes.Buffer
	n      int
	failed bool
}

func (w *failOnce) Write(p []byte) (int, error) {
	if w.failed {
		return w.Buffer.Write(p)
	}
	w.failed = true
	w.Buffer.Write(p[:min(w.n, len(p))])
	return min(w.n, len(p)), errors.New("no space left on device")
}

// TestFitJSONOneReport: fit --json's standard output holds one report
// when printing the model's report fails: cut short, nothing follows it
// (a failure report was appended, two documents where a reader parses
// one); failed before a byte of it, the failure report is the one, naming
// the write's error. The status is not 0 either way.
func TestFitJSONOneReport(t *testing.T) {
	dir := t.TempDir()
	x := writeText(t, dir, "x.csv", "1,2\n2,1\n3,5\n4,4\n5,1\n6,3\n")
	y := writeText(t, dir, "y.txt", "1\n-1\n1\n-1\n1\n-1\n")
	args := []string{"fit", "--method", "no-transfer", "--features", x, "--labels", y, "--out", filepath.Join(dir, "m.json"), "--json"}
	for _, keep := range []int{0, 10} {
		out := &failOnce{n: keep}
		var errb bytes.Buffer
		code := run(args, strings.NewReader(""), out, &errb)
		got := out.String()
		if code == exitOK || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("stdout failing after %d bytes: exit %d, stderr %q; want a failure naming the write's error", keep, code, errb.String())
		}
		if keep > 0 {
			if len(got) != keep || !strings.HasPrefix(got, "{") {
				t.Errorf("stdout failing after %d bytes: %q; want the report cut short, nothing after it", keep, got)
			}
			continue
		}
		var rep struct {
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(got), &rep); err != nil || rep.Error == nil || !strings.Contains(rep.Error.Message, "no space left on device") {
			t.Errorf("stdout failing at once: %q (%v); want one failure report naming the write's error", got, err)
		}
	}
}
