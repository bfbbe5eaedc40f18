package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ambiguousFeatures is a features file whose first line, distinct
// non-negative integers above rows of decimals with fractions, may be a
// header of numeric column names or a row of data written bare: auto
// refuses it, naming both readings and --features-header.
const ambiguousFeatures = "3,7,9\n0.5,1.5,2.5\n1.25,0.5,3.5\n0.25,1.5,2.75\n2.5,0.5,1.5\n"

// TestFeaturesHeader: --features-header says what the first line of a text
// features or scores file is, on fit and predict (read whole, in blocks,
// and from standard input): auto refuses the ambiguous line, naming the
// flag; yes reads it as a header (its names recorded), no as a row. A
// pipeline that could not edit the file had no way to say which.
func TestFeaturesHeader(t *testing.T) {
	dir := t.TempDir()
	X := writeText(t, dir, "x.csv", ambiguousFeatures)
	y4 := writeText(t, dir, "y4.txt", "1\n-1\n1\n-1\n")
	y5 := writeText(t, dir, "y5.txt", "1\n-1\n1\n-1\n1\n")
	model := dir + "/m.json"
	fit := func(labels string, extra ...string) (int, string) {
		code, _, stderr := cli(t, "", append([]string{"fit", "--method", "no-transfer", "--features", X, "--labels", labels, "--out", model}, extra...)...)
		return code, stderr
	}
	const note = "; or say which: --features-header yes reads it as a header, no as a row of data\n"
	for _, extra := range [][]string{nil, {"--features-header", "auto"}} {
		if code, stderr := fit(y4, extra...); code != exitInput || !strings.HasPrefix(stderr, "greedytl: "+X+":1: integers 3, 7, 9 above rows of decimals") || !strings.HasSuffix(stderr, note) {
			t.Errorf("fit %q: exit %d, %q; want %d and the refusal naming --features-header", extra, code, stderr, exitInput)
		}
	}
	if code, stderr := fit(y5, "--features-header", "no"); code != 0 {
		t.Errorf("fit --features-header no, 5 labels: exit %d: %s", code, stderr)
	}
	if code, stderr := fit(y4, "--features-header", "no"); code != exitInput || !strings.Contains(stderr, "has 4 labels but the inputs have 5 rows\n") {
		t.Errorf("fit --features-header no, 4 labels: exit %d, %q; want the count error without the header note", code, stderr)
	}
	if code, stderr := fit(y4, "--features-header", "yes"); code != 0 {
		t.Fatalf("fit --features-header yes: exit %d: %s", code, stderr)
	}
	var rec struct {
		FeatureNames []string `json:"feature_names"`
	}
	if b, err := os.ReadFile(model); err != nil || json.Unmarshal(b, &rec) != nil || !slices.Equal(rec.FeatureNames, []string{"3", "7", "9"}) {
		t.Errorf("the model's feature names: %q (%v); want the header's, 3, 7, 9", rec.FeatureNames, err)
	}
	// predict reads a regular file of features in blocks, standard input whole.
	for _, in := range []struct{ features, stdin string }{{X, ""}, {"-", ambiguousFeatures}} {
		args := []string{"predict", "--model", model, "--features", in.features}
		if code, _, stderr := cli(t, in.stdin, args...); code != exitInput || !strings.HasSuffix(stderr, note) {
			t.Errorf("%q: exit %d, %q; want %d and the refusal naming --features-header", args, code, stderr, exitInput)
		}
		for h, rows := range map[string]int{"yes": 4, "no": 5} {
			code, out, stderr := cli(t, in.stdin, append(args, "--features-header", h)...)
			if code != 0 || len(strings.Fields(out)) != rows {
				t.Errorf("%q --features-header %s: exit %d, %d scores: %s; want %d", args, h, code, len(strings.Fields(out)), stderr, rows)
			}
		}
	}
	if code, _, stderr := cli(t, "", "fit", "--features", X, "--labels", y4, "--features-header", "maybe", "--out", model); code != exitInput || stderr != "greedytl: --features-header: \"maybe\": want auto, yes or no\n" {
		t.Errorf("--features-header maybe: exit %d, %q", code, stderr)
	}
}

// TestFeaturesHeaderNPY: a .npy array has no header line. --features-header
// yes, when every matrix file of the command is one, is refused (it would
// be ignored silently), as --labels-header yes is; where one is text, yes
// applies to it; no reads an array as it is (its rows are data).
func TestFeaturesHeaderNPY(t *testing.T) {
	dir := t.TempDir()
	X := writeNPY(t, dir, "x.npy", mat.NewDense(4, 2, []float64{1, 2, 0.5, 1, 2, 0.25, 3, 1}))
	H := writeNPY(t, dir, "h.npy", mat.NewDense(4, 1, []float64{1, -1, 0.5, -0.5}))
	Htext := writeText(t, dir, "h.csv", "3,7\n0.5,1.5\n1.5,0.25\n0.75,1.5\n2.5,0.5\n")
	y := writeText(t, dir, "y.txt", "1\n-1\n1\n-1\n")
	out := dir + "/m.json"
	for _, tc := range []struct {
		args []string
		want string // stderr of a refusal; "" for success
	}{
		{[]string{"--features", X, "--features-header", "yes"}, "greedytl: --features-header yes: " + X + " is a .npy array, which has no header line: leave --features-header out\n"},
		{[]string{"--features", X, "--source-scores", H, "--features-header", "yes"}, "greedytl: --features-header yes: " + X + " and " + H + " are .npy arrays, which have no header line: leave --features-header out\n"},
		{[]string{"--features", X, "--features-header", "no"}, ""},
		{[]string{"--features", X, "--source-scores", Htext, "--features-header", "yes"}, ""},
	} {
		args := append([]string{"fit", "--method", "no-transfer", "--labels", y, "--out", out}, tc.args...)
		code, _, stderr := cli(t, "", args...)
		if tc.want == "" && code != 0 || tc.want != "" && (code != exitInput || stderr != tc.want) {
			t.Errorf("%q: exit %d, %q; want %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestFeaturesHeaderHelp: fit's and predict's help name --features-header
// and its values, the label-header rules' names.
func TestFeaturesHeaderHelp(t *testing.T) {
	for _, cmd := range []string{"fit", "predict"} {
		code, out, _ := cli(t, "", cmd, "--help")
		if code != 0 || !strings.Contains(out, "--features-header string") || !strings.Contains(out, "is a header: auto, yes, no (auto: ") {
			t.Errorf("%s --help: exit %d, no --features-header with its values:\n%s", cmd, code, out)
		}
	}
	code, out, _ := cli(t, "", "__complete", "fit", "--features-header", "")
	if code != 0 || !strings.HasPrefix(out, "auto\nyes\nno\n") {
		t.Errorf("completion of --features-header: exit %d, %q", code, out)
	}
}

// TestFeaturesHeaderNoOnNames: --features-header no on a file whose first
// line is column names fails on the first name, as before, and now says
// that the flag read it as data and which reads it as a header (fit and
// predict, from a file, in blocks, and from standard input); a first line
// that is not all names, and a bad value below the first line, have no
// such note.
func TestFeaturesHeaderNoOnNames(t *testing.T) {
	dir := t.TempDir()
	const named = "a,b\n1,2\n3,4\n"
	X := writeText(t, dir, "x.csv", named)
	y := writeText(t, dir, "y.txt", "1\n-1\n")
	model := dir + "/m.json"
	if code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--features", X, "--labels", y, "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	const note = " (--features-header no reads the first line as a row of data; it reads as column names: --features-header yes or auto reads it as a header)\n"
	for _, in := range []struct{ name, path, stdin string }{{X, X, ""}, {"<stdin>", "-", named}} {
		want := "greedytl: " + in.name + ":1: column 1: cannot parse \"a\" as a number" + note
		for _, args := range [][]string{
			{"fit", "--features", in.path, "--labels", y, "--out", dir + "/n.json"},
			{"predict", model, "--features", in.path},
		} {
			if code, _, stderr := cli(t, in.stdin, append(args, "--features-header", "no")...); code != exitInput || stderr != want {
				t.Errorf("%q: exit %d, %q; want %d, %q", args, code, stderr, exitInput, want)
			}
		}
	}
	for _, text := range []string{"a,1\n1,2\n3,4\n", "1,2\n3,x\n"} {
		p := writeText(t, dir, "other.csv", text)
		if code, _, stderr := cli(t, "", "predict", model, "--features", p, "--features-header", "no"); code != exitInput || strings.Contains(stderr, "--features-header") {
			t.Errorf("%q: exit %d, %q; want %d without the note", text, code, stderr, exitInput)
		}
	}
}

// TestHeaderNoteStdinAndGzip: a text matrix with one row more than the
// labels, read from standard input or a gzip file, gets the note that its
// first line may be a header, with --features-header yes (tail -n +2,
// which reads neither, is left out); it got none. A .npy array on
// standard input, which has no header line, gets none.
func TestHeaderNoteStdinAndGzip(t *testing.T) {
	dir := t.TempDir()
	const text = "400,410\n1,2\n3,4\n"
	y := writeText(t, dir, "y.txt", "1\n-1\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	gzPath := filepath.Join(dir, "w.csv.gz")
	if err := os.WriteFile(gzPath, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	const note = `is a header of column names, not an example: greedytl reads a header of numbers as data: --features-header yes reads it as a header; or write the file without it`
	for _, in := range []struct{ name, path, stdin string }{{"<stdin>", "-", text}, {gzPath, gzPath, ""}} {
		code, _, stderr := cli(t, in.stdin, "fit", "--features", in.path, "--labels", y, "--out", filepath.Join(dir, "m.json"))
		if want := `(if the first line of ` + in.name + `, "400,410", ` + note; code != exitInput || !strings.Contains(stderr, want) || strings.Contains(stderr, "tail -n") {
			t.Errorf("%s: exit %d, %q; want %d and %q", in.name, code, stderr, exitInput, want)
		}
	}
	npy, err := os.ReadFile(writeNPY(t, dir, "w.npy", mat.NewDense(3, 2, []float64{400, 410, 1, 2, 3, 4})))
	if err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, string(npy), "fit", "--features", "-", "--labels", y, "--out", filepath.Join(dir, "m.json")); code != exitInput || strings.Contains(stderr, "header") {
		t.Errorf(".npy on standard input: exit %d, %q; want %d without the note", code, stderr, exitInput)
	}
}

// TestHeaderNoteFollowsTheReader: a first line of decimals (wavelengths
// that pandas writes as column names, "400.5,401.0,…") read as a row: the
// note of the row count error quoted it as parsed ("401") and offered
// --features-header yes, which then refused the line (hunt29a). It quotes
// the line as written and says to drop it; a line of integers still gets
// the flag, which reads it: the note names only what works.
func TestHeaderNoteFollowsTheReader(t *testing.T) {
	dir := t.TempDir()
	y := writeText(t, dir, "y.txt", "1\n-1\n")
	for _, tc := range []struct {
		first, rows, quoted string
		yesReads            bool
	}{
		{"400.5,401.0,401.5,402.0", "1.5,2.5,0.5,0.5\n3.5,4.5,0.5,0.5\n", `"400.5,401.0,401.5,…"`, false},
		{"4.0e2,4.1e2", "1.5,2.5\n3.5,4.5\n", `"4.0e2,4.1e2"`, false},
		{"400,410", "1,2\n3,4\n", `"400,410"`, true},
	} {
		X := writeText(t, dir, "x.csv", tc.first+"\n"+tc.rows)
		code, _, stderr := cli(t, "", "fit", "--features", X, "--labels", y, "--out", filepath.Join(dir, "m.json"))
		if want := `(if the first line of ` + X + `, ` + tc.quoted + `, is a header of column names, not an example: `; code != exitInput || !strings.Contains(stderr, want) || !strings.Contains(stderr, "tail -n +2 "+X) {
			t.Errorf("%s: exit %d, %q; want %d and %q", tc.first, code, stderr, exitInput, want)
			continue
		}
		if offered := strings.Contains(stderr, "--features-header yes reads it as a header"); offered != tc.yesReads {
			t.Errorf("%s: --features-header yes offered %v: %q", tc.first, offered, stderr)
		}
		code, _, stderr = cli(t, "", "fit", "--features", X, "--labels", y, "--features-header", "yes", "--out", filepath.Join(dir, "m.json"))
		if (code == 0) != tc.yesReads {
			t.Errorf("%s: --features-header yes: exit %d, %q", tc.first, code, stderr)
		}
	}
}
