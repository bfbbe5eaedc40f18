package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/source"
)

// namedCSV writes the matrix of the .npy file npy as the CSV file name
// beside it under a header naming its columns, and returns the path: the
// columns perm of it in that order (nil: all, in order), column j named
// "f<j>" (so a reorder keeps each column's name, as pandas' df[cols]
// does), or, with rename, column 0 named "other".
func namedCSV(t *testing.T, npy, name string, perm []int, rename bool) string {
	t.Helper()
	return headedCSV(t, npy, name, perm, func(j int) string {
		if rename && j == 0 {
			return "other"
		}
		return fmt.Sprintf("f%d", j)
	})
}

// headedCSV writes the matrix of the .npy file npy as the CSV file name
// beside it, its columns perm in that order (nil: all, in order), under a
// header naming column j names(j), and returns the path.
func headedCSV(t *testing.T, npy, name string, perm []int, names func(j int) string) string {
	t.Helper()
	X, err := dataset.ReadMatrix(npy)
	if err != nil {
		t.Fatal(err)
	}
	r, c := X.Dims()
	if perm == nil {
		for j := range c {
			perm = append(perm, j)
		}
	}
	var b strings.Builder
	for k, j := range perm {
		b.WriteString(map[bool]string{true: ",", false: ""}[k > 0] + names(j))
	}
	b.WriteString("\n")
	for i := range r {
		for k, j := range perm {
			if k > 0 {
				b.WriteString(",")
			}
			b.WriteString(strconv.FormatFloat(X.At(i, j), 'g', -1, 64))
		}
		b.WriteString("\n")
	}
	return writeText(t, filepath.Dir(npy), name, b.String())
}

// fNames returns the names namedCSV gives d columns in order.
func fNames(d int) []string {
	var n []string
	for j := range d {
		n = append(n, fmt.Sprintf("f%d", j))
	}
	return n
}

// recordedNames returns the "feature_names" of the model file path (nil:
// none).
func recordedNames(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Names []string `json:"feature_names"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Names
}

// namedSample is a training and a test sample whose features are given as
// .npy (unnamed) and as CSV under a header (named f0, f1, …), in order,
// reordered (columns 0 and 1 swapped) and with column 0 renamed.
type namedSample struct {
	X, H, y              string // training: X unnamed (.npy)
	Xn                   string // training X, named
	Xt, Ht, yt           string // test: X unnamed
	Xtn, Xtswap, Xtother string // test X: named; columns 0 and 1 swapped; column 0 renamed
	d                    int    // X's columns
	positive             string // fit's --positive ("": none, a fit of several classes)
}

// swappedColumns returns the number of columns of the matrix file path and
// their order with the first two swapped.
func swappedColumns(t *testing.T, path string) (int, []int) {
	t.Helper()
	A, err := dataset.ReadMatrix(path)
	if err != nil {
		t.Fatal(err)
	}
	_, d := A.Dims()
	perm := []int{1, 0}
	for j := 2; j < d; j++ {
		perm = append(perm, j)
	}
	return d, perm
}

// newNamedSample makes the named sample of the unnamed .npy features X
// and Xt, with source scores H and Ht and labels y and yt, for fits with
// --positive positive ("": none).
func newNamedSample(t *testing.T, X, H, y, Xt, Ht, yt, positive string) namedSample {
	t.Helper()
	d, perm := swappedColumns(t, X)
	return namedSample{
		X: X, H: H, y: y, Xt: Xt, Ht: Ht, yt: yt, d: d, positive: positive,
		Xn:      namedCSV(t, X, "Xn.csv", nil, false),
		Xtn:     namedCSV(t, Xt, "Xtn.csv", nil, false),
		Xtswap:  namedCSV(t, Xt, "Xtswap.csv", perm, false),
		Xtother: namedCSV(t, Xt, "Xtother.csv", nil, true),
	}
}

// fitArgs returns the fit command line of the method name on the sample,
// its features given as X, its extra samples' as extraX (with their source
// scores and labels where the method needs them).
func (s namedSample) fitArgs(name, X, extraX, out string) []string {
	args := []string{"fit", "--method", name, "--features", X, "--source-scores", s.H, "--labels", s.y, "--out", out}
	if s.positive != "" {
		args = append(args, "--positive", s.positive)
	}
	b, _ := method.ParseSpec(name)
	r, _ := method.Registered(b.Name)
	if r.New != nil {
		m, _ := method.New(name)
		if m.Needs().Unlabelled {
			args = append(args, "--unlabelled-features", extraX, "--unlabelled-source-scores", s.Ht)
		}
		if m.Needs().Oracle {
			args = append(args, "--oracle-features", extraX, "--oracle-source-scores", s.Ht, "--oracle-labels", s.yt)
		}
	}
	return args
}

// checkNamesRoundTrip fits the method name on the sample's named features
// and checks that the model file records their names, that predict
// refuses test features whose columns are reordered or renamed (exit
// status 2, naming the file and the first differing column, and saying
// whether it is a reorder), scores named features in the model's order as
// their unnamed .npy (which it warns of, in one line) and that a model fitted on
// unnamed features records none and predicts named ones, reordered or
// not, without a word.
func checkNamesRoundTrip(t *testing.T, s namedSample, name, dir string) {
	named, unnamed := filepath.Join(dir, "named.json"), filepath.Join(dir, "unnamed.json")
	if code, _, stderr := cli(t, "", s.fitArgs(name, s.Xn, s.Xtn, named)...); code != 0 {
		t.Fatalf("fit on named features: exit %d: %s", code, stderr)
	}
	if got := recordedNames(t, named); !slices.Equal(got, fNames(s.d)) {
		t.Fatalf("the model file records the feature names %q, want %q", got, fNames(s.d))
	}
	if code, _, stderr := cli(t, "", s.fitArgs(name, s.X, s.Xt, unnamed)...); code != 0 {
		t.Fatalf("fit on unnamed features: exit %d: %s", code, stderr)
	}
	if got := recordedNames(t, unnamed); got != nil {
		t.Fatalf("a model fitted on a .npy file records the feature names %q", got)
	}
	predict := func(model, X string) (int, string, string) {
		return cli(t, "", "predict", "--model", model, "--features", X, "--source-scores", s.Ht)
	}
	code, want, stderr := predict(unnamed, s.Xt)
	if code != 0 || stderr != "" {
		t.Fatalf("predict, unnamed model and features: exit %d: %s", code, stderr)
	}
	for _, X := range []string{s.Xtn, s.Xtswap, s.Xtother} {
		if code, out, stderr := predict(unnamed, X); code != 0 || stderr != "" || (X == s.Xtn && out != want) {
			t.Errorf("predict, unnamed model, named features %s: exit %d, stderr %q, same scores %v", X, code, stderr, out == want)
		}
	}
	if code, out, stderr := predict(named, s.Xtn); code != 0 || stderr != "" || out != want {
		t.Errorf("predict, named model, features named alike: exit %d, stderr %q, same scores as unnamed %v", code, stderr, out == want)
	}
	wantWarn := fmt.Sprintf("greedytl: warning: the features %s was fitted on name their columns (%q, %q, ", named, "f0", "f1")
	if code, out, stderr := predict(named, s.Xt); code != 0 || !strings.HasPrefix(stderr, wantWarn) || strings.Count(stderr, "\n") != 1 || out != want {
		t.Errorf("predict, named model, unnamed features: exit %d, stderr %q (want one line starting %q), same scores %v", code, stderr, wantWarn, out == want)
	}
	wantInputError(t, fmt.Sprintf(`%s: column 1 is named "f1" where the features %s was fitted on have "f0": the same names in another order (reorder the columns as theirs: "f0", "f1", `, s.Xtswap, named),
		"predict", "--model", named, "--features", s.Xtswap, "--source-scores", s.Ht)
	wantInputError(t, fmt.Sprintf(`%s: column 1 is named "other" where the features %s was fitted on have "f0": other columns (theirs: "f0", "f1", `, s.Xtother, named),
		"predict", "--model", named, "--features", s.Xtother, "--source-scores", s.Ht)
}

// TestFeatureNamesEveryMethod: fit records the names of named features,
// and of named source scores, in the model file of every method, binary
// and of three classes, and predict refuses features (source scores)
// whose names are reordered or other (checkNamesRoundTrip,
// checkSourceNamesRoundTrip).
func TestFeatureNamesEveryMethod(t *testing.T) {
	d := newToy(t)
	bin := newNamedSample(t, d.X, d.H, d.ytext, d.Xtest, d.Htest, d.yte, "cat")
	dir := t.TempDir()
	x, h, y, xt, ht, yt := multiFiles(t, dir)
	multi := newNamedSample(t, x, h, y, xt, ht, yt, "")
	for what, check := range map[string]func(*testing.T, namedSample, string, string){
		"features": checkNamesRoundTrip, "source scores": checkSourceNamesRoundTrip,
	} {
		for _, name := range method.Names() {
			t.Run(name+"/"+what, func(t *testing.T) { check(t, bin, name, t.TempDir()) })
		}
		for _, name := range method.MultiNames() {
			t.Run(name+"/3/"+what, func(t *testing.T) { check(t, multi, name, t.TempDir()) })
		}
	}
}

// checkSourceNamesRoundTrip fits the method name on the sample with its
// source scores under a header (f0, f1, …: the user's own sources) and
// checks that the model file records their names ("source_names"), that
// predict scores source scores named alike as their unnamed .npy (which it
// warns of, in one line), refuses ones whose columns are reordered (not
// reordering them by name) or renamed (exit status 2, naming the file and
// the first differing column), and that an extra sample's reordered source
// scores are refused likewise. Before, the header was skipped: a reorder
// silently gave each source's weight to another's scores.
func checkSourceNamesRoundTrip(t *testing.T, s namedSample, name, dir string) {
	n, perm := swappedColumns(t, s.H)
	Hn := namedCSV(t, s.H, "Hn.csv", nil, false)
	Htn, Htswap, Htother := namedCSV(t, s.Ht, "Htn.csv", nil, false), namedCSV(t, s.Ht, "Htswap.csv", perm, false), namedCSV(t, s.Ht, "Htother.csv", nil, true)
	fitArgs := func(extraH, out string) []string {
		args := s.fitArgs(name, s.X, s.Xt, out)
		for i, a := range args {
			switch {
			case a == s.H:
				args[i] = Hn
			case a == s.Ht:
				args[i] = extraH
			}
		}
		return args
	}
	named := filepath.Join(dir, "named.json")
	args := fitArgs(Htn, named)
	if code, _, stderr := cli(t, "", args...); code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, stderr)
	}
	b, err := os.ReadFile(named)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Names []string `json:"source_names"`
	}
	if err := json.Unmarshal(b, &f); err != nil || !slices.Equal(f.Names, fNames(n)) {
		t.Fatalf("the model file records the source names %q (%v), want %q", f.Names, err, fNames(n))
	}
	predict := func(H string) (int, string, string) {
		return cli(t, "", "predict", "--model", named, "--features", s.Xt, "--source-scores", H)
	}
	code, want, stderr := predict(Htn)
	if code != 0 || stderr != "" {
		t.Fatalf("predict, source scores named alike: exit %d: %s", code, stderr)
	}
	wantWarn := fmt.Sprintf("greedytl: warning: the source scores %s was fitted on name their columns (%q, %q, ", named, "f0", "f1")
	if code, out, stderr := predict(s.Ht); code != 0 || !strings.HasPrefix(stderr, wantWarn) || strings.Count(stderr, "\n") != 1 || out != want {
		t.Errorf("predict, unnamed source scores: exit %d, stderr %q (want one line starting %q), same scores %v", code, stderr, wantWarn, out == want)
	}
	wantInputError(t, fmt.Sprintf(`%s: column 1 is named "f1" where the source scores %s was fitted on have "f0": the same names in another order (reorder the columns as theirs: "f0", "f1", `, Htswap, named),
		"predict", "--model", named, "--features", s.Xt, "--source-scores", Htswap)
	wantInputError(t, fmt.Sprintf(`%s: column 1 is named "other" where the source scores %s was fitted on have "f0": other columns (theirs: "f0", "f1", `, Htother, named),
		"predict", "--model", named, "--features", s.Xt, "--source-scores", Htother)
	if args := fitArgs(Htswap, filepath.Join(dir, "extra.json")); slices.Contains(args, Htswap) {
		wantInputError(t, fmt.Sprintf(`%s: column 1 is named "f1" where the training source scores, %s, have "f0": the same names in another order`, Htswap, Hn), args...)
	}
}

// TestFeatureNamesExtraSamples: fit refuses extra samples (--unlabelled-*,
// --oracle-*) whose features are named otherwise than the training
// features, naming the file and the first differing column.
func TestFeatureNamesExtraSamples(t *testing.T) {
	d := newToy(t)
	s := newNamedSample(t, d.X, d.H, d.ytext, d.Xtest, d.Htest, d.yte, "cat")
	for _, name := range []string{"dam", "best-source"} {
		wantInputError(t, fmt.Sprintf(`%s: column 1 is named "f1" where the training features, %s, have "f0": the same names in another order`, s.Xtswap, s.Xn),
			s.fitArgs(name, s.Xn, s.Xtswap, filepath.Join(d.dir, name+".json"))...)
		wantInputError(t, fmt.Sprintf(`%s: column 1 is named "other" where the training features, %s, have "f0": other columns`, s.Xtother, s.Xn),
			s.fitArgs(name, s.Xn, s.Xtother, filepath.Join(d.dir, name+".json"))...)
	}
}

// TestFeatureNamesSources: with --sources, the model records the names of
// X alone (the source scores' columns are the sources', in their index's
// order, and the sources' identity is checked apart), and predict --sources
// refuses reordered features; names in a --source-scores header are not
// feature names (they are "source_names": TestFeatureNamesEveryMethod);
// features named on standard input are recorded too.
func TestFeatureNamesSources(t *testing.T) {
	st := newSourcesToy(t)
	Xn := namedCSV(t, st.X, "Xn.csv", nil, false)
	Xtswap := namedCSV(t, st.Xt, "Xtswap.csv", []int{1, 0, 2, 3, 4, 5, 6, 7}, false)
	model := filepath.Join(st.dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--features", Xn, "--sources", st.A, "--labels", st.y, "--positive", "cat", "--out", model); code != 0 {
		t.Fatalf("fit --sources: exit %d: %s", code, stderr)
	}
	if got := recordedNames(t, model); !slices.Equal(got, fNames(8)) {
		t.Errorf("fit --sources records %q, want X's names %q", got, fNames(8))
	}
	wantInputError(t, fmt.Sprintf(`%s: column 1 is named "f1" where the features %s was fitted on have "f0"`, Xtswap, model),
		"predict", "--model", model, "--features", Xtswap, "--sources", st.A)

	HAn := namedCSV(t, st.HA, "HAn.csv", nil, false)
	fromH := filepath.Join(st.dir, "h.json")
	if code, _, stderr := cli(t, "", "fit", "--features", st.X, "--source-scores", HAn, "--labels", st.y, "--positive", "cat", "--out", fromH); code != 0 {
		t.Fatalf("fit --source-scores with a header: exit %d: %s", code, stderr)
	}
	if got := recordedNames(t, fromH); got != nil {
		t.Errorf("fit with named source scores and unnamed features records %q, want nothing", got)
	}

	csv, err := os.ReadFile(Xn)
	if err != nil {
		t.Fatal(err)
	}
	stdin := filepath.Join(st.dir, "stdin.json")
	if code, _, stderr := cli(t, string(csv), "fit", "--features", "-", "--sources", st.A, "--labels", st.y, "--positive", "cat", "--out", stdin); code != 0 {
		t.Fatalf("fit --features -: exit %d: %s", code, stderr)
	}
	if got := recordedNames(t, stdin); !slices.Equal(got, fNames(8)) {
		t.Errorf("fit --features - records %q, want %q", got, fNames(8))
	}
}

// TestInspectFeatureNames: inspect names the selected feature columns by
// the names the model file records ("feature_names"), in its table and in
// --json ("name"), for a greedy method, greedytl-auto (fit's default: its
// members' tables and its combined model's) and a multi-class model; a
// name holding a hidden character is escaped in the table (JSON holds the
// name itself). Before, only source columns had names.
func TestInspectFeatureNames(t *testing.T) {
	dir := t.TempDir()
	names := []string{"sepal_length", "petal_width", "\x1b[31mred", "noise"}
	const m = 40
	var csv, lab, labMulti strings.Builder
	csv.WriteString(strings.Join(names, ",") + "\n")
	for i := range m {
		y := []float64{-1, 1}[i%2]
		row := []float64{float64(i%7) / 7, 3*y + float64(i%5)/10, 2*y + float64(i%3)/10, float64((i*7)%11) / 11}
		for j, v := range row {
			if j > 0 {
				csv.WriteString(",")
			}
			csv.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		csv.WriteString("\n")
		fmt.Fprintf(&lab, "%g\n", y)
		fmt.Fprintf(&labMulti, "%s\n", []string{"a", "b", "c"}[i%3])
	}
	x := writeText(t, dir, "X.csv", csv.String())
	y := writeText(t, dir, "y.txt", lab.String())
	ym := writeText(t, dir, "ym.txt", labMulti.String())
	for _, fit := range [][]string{
		{"--method", "greedytl", "--labels", y},
		{"--labels", y},
		{"--method", "l1-logistic", "--labels", ym},
	} {
		model := filepath.Join(dir, "m.json")
		args := append([]string{"fit", "--features", x, "--out", model}, fit...)
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		code, out, stderr := cli(t, "", "inspect", "--json", model)
		if code != 0 {
			t.Fatalf("inspect --json: exit %d: %s", code, stderr)
		}
		var sum struct {
			Selected []inspectColumn `json:"selected"`
			PerClass []struct {
				Selected []inspectColumn `json:"selected"`
			} `json:"per_class"`
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatal(err)
		}
		cols := sum.Selected
		for _, c := range sum.PerClass {
			cols = append(cols, c.Selected...)
		}
		if len(cols) == 0 {
			t.Fatalf("%q: no columns selected:\n%s", fit, out)
		}
		for _, c := range cols {
			if c.Kind == "feature" && c.Name != names[c.Index] {
				t.Errorf("%q: inspect --json names feature %d %q, want %q", fit, c.Index, c.Name, names[c.Index])
			}
		}
		code, text, stderr := cli(t, "", "inspect", "--top", "0", model)
		if code != 0 {
			t.Fatalf("inspect: exit %d: %s", code, stderr)
		}
		if strings.Contains(text, "\x1b") {
			t.Errorf("%q: inspect prints a feature name's escape raw:\n%s", fit, text)
		}
		for _, c := range cols {
			if want := dataset.ShowName(names[c.Index]); c.Kind == "feature" && !strings.Contains(text, want) {
				t.Errorf("%q: inspect's table lacks feature %d's name %s:\n%s", fit, c.Index, want, text)
			}
		}
	}
}

// TestSourceNamesPredictedWithSources: a model fitted on --source-scores
// whose header named its columns ("source_names"), predicted with --sources
// (scores computed from a sources directory, which have no header), is
// checked against the sources' class names, binary and multi-class: names
// that are the sources' in their order pass silently, the same names in
// another order are refused, and other names (the user's own) draw the
// note that they cannot be checked. Before, each drew the
// unnamed-source-scores warning naming an empty file ("… but  names none").
func TestSourceNamesPredictedWithSources(t *testing.T) {
	st := newSourcesToy(t)
	b, err := os.ReadFile(filepath.Join(st.A, source.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	var ix source.Index
	if err := json.Unmarshal(b, &ix); err != nil {
		t.Fatal(err)
	}
	var classes []string
	for _, e := range ix.Sources {
		classes = append(classes, e.Name)
	}
	n := len(classes)
	swap := []int{1, 0}
	for j := 2; j < n; j++ {
		swap = append(swap, j)
	}
	swapped := slices.Clone(classes)
	swapped[0], swapped[1] = classes[1], classes[0]
	// Three classes for the multi-class fit.
	y3 := writeText(t, st.dir, "y3.txt", strings.Repeat("red\ngreen\nblue\n", 10))
	for _, tc := range []struct {
		what, header string
		perm         []int
		names        []string
		code         int
		stderr       string
	}{
		{"the sources' names", "classes.csv", nil, classes, 0, ""},
		{"the sources' names in another order", "swapped.csv", swap, classes, exitInput,
			"--sources " + st.A + ": the source scores MODEL was fitted on are its sources in another order (theirs: " + nameList(swapped) + "; the sources': " + nameList(classes) + ")"},
		{"the user's names", "own.csv", nil, fNames(n), 0,
			"greedytl: note: the source scores MODEL was fitted on name their columns (" + nameList(fNames(n)) + "); the scores --sources " + st.A + " computes (sources " + nameList(classes) + ") cannot be checked against them\n"},
	} {
		H := headedCSV(t, st.HA, tc.header, tc.perm, func(j int) string { return tc.names[j] })
		for _, y := range []string{st.y, y3} {
			model := filepath.Join(st.dir, filepath.Base(y)+"-"+tc.header+".json")
			args := []string{"fit", "--method", "greedytl", "--features", st.X, "--source-scores", H, "--labels", y, "--out", model}
			if y == st.y {
				args = append(args, "--positive", "cat")
			}
			if code, _, stderr := cli(t, "", args...); code != 0 {
				t.Fatalf("%s: fit: exit %d: %s", tc.what, code, stderr)
			}
			want := strings.ReplaceAll(tc.stderr, "MODEL", model)
			code, _, stderr := cli(t, "", "predict", model, "--features", st.Xt, "--sources", st.A)
			if code != tc.code || (tc.code == 0 && stderr != want) || !strings.Contains(stderr, want) || strings.Contains(stderr, "unnamed-source-scores") {
				t.Errorf("%s, %s: predict --sources: exit %d, stderr %q; want exit %d, %q", tc.what, filepath.Base(y), code, stderr, tc.code, want)
			}
		}
	}
}
