package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/source"
)

// sourceScores returns the scores of the sources in the directory dir
// (source.LoadDir) on the rows of X.
func sourceScores(t *testing.T, dir string, X mat.Matrix) *mat.Dense {
	t.Helper()
	set, err := source.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	H, err := set.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	return H
}

// TestEveryMethodFromTheCLI fits every registered method with greedytl fit,
// then predicts and inspects with its model file; fitted with --sources,
// the file records the sources and predict checks them (checkSourcesRecord).
func TestEveryMethodFromTheCLI(t *testing.T) {
	d := newToy(t)
	st := newSourcesToy(t)
	for _, name := range method.Names() {
		t.Run(name+"/sources", func(t *testing.T) { checkSourcesRecord(t, st, name) })
		t.Run(name, func(t *testing.T) {
			model := filepath.Join(d.dir, name+".json")
			args := []string{"fit", "--method", name, "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", model}
			m, _ := method.New(name)
			if m.Needs().Unlabelled {
				args = append(args, "--unlabelled-features", d.Xtest, "--unlabelled-source-scores", d.Htest)
			}
			if m.Needs().Oracle {
				args = append(args, "--oracle-features", d.Xtest, "--oracle-source-scores", d.Htest, "--oracle-labels", d.yte)
			}
			if code, _, stderr := cli(t, "", args...); code != 0 {
				t.Fatalf("fit: exit %d: %s", code, stderr)
			}
			code, out, stderr := cli(t, "", "predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--labels", d.yte, "--positive", "cat", "--out", filepath.Join(d.dir, name+".scores"))
			if code != 0 {
				t.Fatalf("predict: exit %d: %s", code, stderr)
			}
			acc, err := strconv.ParseFloat(strings.Fields(strings.TrimPrefix(out, "balanced accuracy: "))[0], 64)
			// no-transfer sees only the (pure-noise) features, and average-kt and
			// dam the mean of 20 sources of which one is informative: they are
			// rightly near chance here, so only the fit/predict/inspect
			// round trip is checked for them. dictionary learns its atoms
			// without the labels from the noise features and the 20 sources:
			// here it scores 0.55–0.65 by the seed of its first atoms (seeds
			// 1–10: mean 0.60, and 0.61 before its rows were read in content
			// order), so a floor of 0.6 at one seed would test that seed's
			// luck; method's TestDictionaryFit tests its learning over seeds.
			chance := name == "no-transfer" || name == "average-kt" || name == "dam" || name == "dictionary"
			if err != nil || (!chance && acc < 0.6) {
				t.Errorf("balanced accuracy %v (%v) on a problem whose source 3 carries the label; want ≥ 0.6", acc, err)
			}
			code, out, stderr = cli(t, "", "inspect", "--json", model)
			if code != 0 {
				t.Fatalf("inspect: exit %d: %s", code, stderr)
			}
			var sum inspectSummary
			if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Method != name {
				t.Fatalf("inspect --json: method %q, err %v", sum.Method, err)
			}
		})
	}
}

// sourcesToy is a target problem over the source scores of two sources
// directories of one dataset, A and B, trained with other seeds: the same
// number of sources and dimensions, other sources.
type sourcesToy struct {
	dir, A, B    string
	X, y, Xt, yt string // features (8 columns) and labels, for training and testing
	HA, HAt, HB  string // the scores of A's sources on X and Xt, and of B's on Xt
}

func newSourcesToy(t *testing.T) sourcesToy {
	t.Helper()
	data := blobDataset(t)
	st := sourcesToy{dir: t.TempDir()}
	st.A, st.B = filepath.Join(st.dir, "A"), filepath.Join(st.dir, "B")
	for seed, out := range map[string]string{"3": st.A, "4": st.B} {
		if code, _, stderr := cli(t, "", "train-sources", "--data", data, "--out", out, "--negative-fraction", "0.25", "--seed", seed, "--quiet"); code != 0 {
			t.Fatalf("train-sources --seed %s: exit %d: %s", seed, code, stderr)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	X, Xt := mat.NewDense(30, 8, nil), mat.NewDense(40, 8, nil)
	for _, m := range []*mat.Dense{X, Xt} {
		r, c := m.Dims()
		for i := range r {
			for j := range c {
				m.Set(i, j, 1.5*rng.NormFloat64())
			}
		}
	}
	labels := func(X *mat.Dense) string {
		var lab []string
		for i := range X.RawMatrix().Rows {
			lab = append(lab, map[bool]string{true: "cat", false: "dog"}[X.At(i, 2)+X.At(i, 5) > 0])
		}
		return strings.Join(lab, "\n") + "\n"
	}
	st.X, st.Xt = writeNPY(t, st.dir, "X.npy", X), writeNPY(t, st.dir, "Xt.npy", Xt)
	st.y, st.yt = writeText(t, st.dir, "y.txt", labels(X)), writeText(t, st.dir, "yt.txt", labels(Xt))
	st.HA, st.HAt = writeNPY(t, st.dir, "HA.npy", sourceScores(t, st.A, X)), writeNPY(t, st.dir, "HAt.npy", sourceScores(t, st.A, Xt))
	st.HB = writeNPY(t, st.dir, "HBt.npy", sourceScores(t, st.B, Xt))
	return st
}

// checkSourcesRecord fits the method name with --sources A and checks that
// the file records A: inspect shows it, predict with A succeeds, with B
// (same shape, other seed) fails naming both and the seed, with
// --source-scores notes that it cannot check them; a model fitted from A's
// scores as a matrix records nothing and predicts with any --sources, and
// its scores with A are the --sources model's.
func checkSourcesRecord(t *testing.T, st sourcesToy, name string) {
	fit := func(model string, in ...string) {
		t.Helper()
		args := append([]string{"fit", "--method", name, "--features", st.X, "--labels", st.y, "--positive", "cat", "--out", model}, in...)
		m, _ := method.New(name)
		if m.Needs().Unlabelled {
			args = append(args, "--unlabelled-features", st.Xt)
			if slices.Contains(in, "--source-scores") {
				args = append(args, "--unlabelled-source-scores", st.HAt)
			}
		}
		if m.Needs().Oracle {
			args = append(args, "--oracle-features", st.Xt, "--oracle-labels", st.yt)
			if slices.Contains(in, "--source-scores") {
				args = append(args, "--oracle-source-scores", st.HAt)
			}
		}
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("fit %v: exit %d: %s", in, code, stderr)
		}
	}
	withSources := filepath.Join(st.dir, name+"-sources.json")
	withMatrix := filepath.Join(st.dir, name+"-matrix.json")
	fit(withSources, "--sources", st.A)
	fit(withMatrix, "--source-scores", st.HA)

	code, out, stderr := cli(t, "", "inspect", "--json", withSources)
	var sum inspectSummary
	if code != 0 || json.Unmarshal([]byte(out), &sum) != nil || sum.Sources == nil || sum.Sources.Dir != st.A || sum.Sources.Count != 6 || sum.Sources.Seed != 3 {
		t.Fatalf("inspect --json: exit %d, sources %+v: %s", code, sum.Sources, stderr)
	}
	if code, out, _ := cli(t, "", "inspect", withSources); code != 0 || !strings.Contains(out, "sources: "+st.A+" (6 sources, identity "+sum.Sources.SHA256) {
		t.Errorf("inspect: exit %d, output lacks the recorded sources:\n%s", code, out)
	}
	checkSourceNames(t, st.A, sum.Selected)
	if code, out, _ := cli(t, "", "inspect", "--json", withMatrix); code != 0 || strings.Contains(out, `"sources"`) {
		t.Errorf("inspect --json of a model fitted from --source-scores: exit %d, records sources:\n%s", code, out)
	}

	predict := func(model string, in ...string) (int, string, string) {
		return cli(t, "", append([]string{"predict", "--model", model, "--features", st.Xt}, in...)...)
	}
	code, want, stderr := predict(withSources, "--sources", st.A)
	if code != 0 || stderr != "" || want == "" {
		t.Fatalf("predict --sources A: exit %d, stderr %q", code, stderr)
	}
	for _, tc := range []struct {
		what       string
		model      string
		in         []string
		code       int
		same       bool   // the scores are those of the --sources A model with A
		stderrWant string // "" for an empty standard error
	}{
		{"other sources", withSources, []string{"--sources", st.B}, exitInput, false,
			"--sources " + st.B + " (identity "},
		{"a matrix", withSources, []string{"--source-scores", st.HAt}, 0, true,
			"greedytl: note: " + withSources + " was fitted with the sources of " + st.A + " (identity " + sum.Sources.SHA256[:12] + "); the scores of " + st.HAt + " cannot be checked against them\n"},
		{"no record, A", withMatrix, []string{"--sources", st.A}, 0, true, ""},
		{"no record, B", withMatrix, []string{"--sources", st.B}, 0, false, ""},
	} {
		code, out, stderr := predict(tc.model, tc.in...)
		switch {
		case code != tc.code:
			t.Errorf("%s: exit %d, want %d: %s", tc.what, code, tc.code, stderr)
		case tc.stderrWant == "" && stderr != "", tc.stderrWant != "" && !strings.HasPrefix(stderr, tc.stderrWant) && !strings.Contains(stderr, tc.stderrWant):
			t.Errorf("%s: stderr %q, want %q", tc.what, stderr, tc.stderrWant)
		case tc.same && out != want:
			t.Errorf("%s: scores differ from the --sources model's with its own sources", tc.what)
		}
	}
	// The refusal names both directories and what differs.
	_, _, stderr = predict(withSources, "--sources", st.B)
	for _, part := range []string{st.A, st.B, withSources, "trained with seed 4, not 3"} {
		if !strings.Contains(stderr, part) {
			t.Errorf("refusal %q does not name %q", stderr, part)
		}
	}
}

// TestGreedyFlagsOutOfRange: GreedyTL's flags out of their range are bad
// usage found before any input is read, and the message names the flag
// (it named the library's field, "FeatureFactor must be ≥ 0", after
// reading the data).
func TestGreedyFlagsOutOfRange(t *testing.T) {
	base := []string{"fit", "--method", "greedytl", "--features", "no-such-X.npy", "--labels", "no-such-y.txt"}
	for _, tc := range []struct {
		flag, value, want string
	}{
		{"--lambda", "-1", "--lambda -1: lambda must be positive"},
		{"--lambda", "0", "--lambda 0: lambda must be positive"},
		// Not finite: refused as the flag is read (number.ParseSetting).
		{"--lambda", "+Inf", `invalid argument "+Inf" for "--lambda" flag: "+Inf" is not finite`},
		{"--gamma", "-1", "--gamma -1: gamma (the feature factor) must be ≥ 0"},
		{"--gamma", "NaN", `invalid argument "NaN" for "--gamma" flag: "NaN" is not finite`},
		{"--feature-factor", "-1", "--gamma -1: gamma (the feature factor) must be ≥ 0"},
		{"--delta", "-1", "--delta -1: delta must be ≥ 0"},
		{"--delta", "+Inf", `invalid argument "+Inf" for "--delta" flag: "+Inf" is not finite`},
		{"--sample", "-5", "--sample -5: sample must be a whole number"},
		{"--max-k", "-1", "--max-k -1: max_k must be a whole number"},
	} {
		args := append(slices.Clone(base), tc.flag, tc.value)
		code, _, stderr := cli(t, "", args...)
		if code != exitInput || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s %s: exit %d, stderr %q: want %d and %q", tc.flag, tc.value, code, stderr, exitInput, tc.want)
		}
	}
}

func TestGreedyFlagsRejectedForBaselines(t *testing.T) {
	d := newToy(t)
	code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--lambda", "3", "--features", d.X, "--labels", d.ytext, "--positive", "cat")
	if code != exitInput || !strings.Contains(stderr, "--lambda") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = cli(t, "", "fit", "--method", "dam", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat")
	if code != exitInput || !strings.Contains(stderr, "transductive") {
		t.Fatalf("dam without unlabelled inputs: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = cli(t, "", "fit", "--method", "nonesuch", "--features", d.X, "--labels", d.ytext, "--positive", "cat")
	if code != exitInput || !strings.Contains(stderr, "nonesuch") {
		t.Fatalf("unknown method: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = cli(t, "", "fit", "--features", d.X)
	if code != exitInput || !strings.Contains(stderr, "labels") {
		t.Fatalf("missing required flag: exit %d, stderr %q", code, stderr)
	}
}

// TestModelFlagsRoundTrip fits with every flag that changes a GreedyTL
// model, alone and combined with specs, writes the model, then inspects
// and predicts with it: no combination may write a file that this version
// cannot read (issue: --sample 59 and greedytl:lambda=10 --lambda 5 wrote
// unreadable models). The file's method is the canonical spec of the
// options actually used.
func TestModelFlagsRoundTrip(t *testing.T) {
	d := newToy(t)
	for i, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--sample", "59", "--seed", "7"}, "greedytl:sample=59"},
		{[]string{"--seed", "7"}, "greedytl"},
		{[]string{"--lambda", "10"}, "greedytl:lambda=10"},
		{[]string{"--lambda", "auto"}, "greedytl:auto_lambda=1"},
		{[]string{"--delta", "0.01"}, "greedytl:delta=0.01"},
		{[]string{"--max-k", "2"}, "greedytl:max_k=2"},
		{[]string{"--gamma", "0.25"}, "greedytl:gamma=0.25"},
		{[]string{"--feature-factor", "0.25"}, "greedytl:gamma=0.25"},
		{[]string{"--stop-at-min-loo"}, "greedytl:stop_at_min_loo=1"},
		{[]string{"--method", "greedytl:lambda=10", "--lambda", "10"}, "greedytl:lambda=10"},
		{[]string{"--method", "greedytl:auto_lambda=0", "--lambda", "5"}, "greedytl:lambda=5"},
		{[]string{"--method", "greedytl:lambda=auto"}, "greedytl:auto_lambda=1"},
		{[]string{"--method", "greedytl-sp:lambda=Auto", "--lambda", "AUTO"}, "greedytl-sp:auto_lambda=1"},
		{[]string{"--method", "greedytl-59", "--sample", "0"}, "greedytl-59:sample=0"},
		{[]string{"--method", "greedytl-59", "--seed", "3"}, "greedytl-59"},
		{[]string{"--method", "greedytl-sp", "--gamma", "1"}, "greedytl-sp:gamma=1"},
		{[]string{"--method", "greedytl-sp:gamma=0.25", "--sample", "5", "--max-k", "3"}, "greedytl-sp:gamma=0.25,max_k=3,sample=5"},
		{[]string{"--method", "greedytl-sp:gamma=0.5"}, "greedytl-sp"},
	} {
		model := filepath.Join(d.dir, fmt.Sprintf("m%d.json", i))
		// fit's default method may change: without --method, the flags
		// are those of greedytl.
		args := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", model}
		if !slices.Contains(tc.flags, "--method") {
			args = append(args, "--method", "greedytl")
		}
		args = append(args, tc.flags...)
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Errorf("fit %v: exit %d: %s", tc.flags, code, stderr)
			continue
		}
		code, out, stderr := cli(t, "", "inspect", "--json", model)
		var sum inspectSummary
		if code != 0 || json.Unmarshal([]byte(out), &sum) != nil {
			t.Errorf("fit %v then inspect: exit %d: %s", tc.flags, code, stderr)
			continue
		}
		if sum.Method != tc.want {
			t.Errorf("fit %v: method %q, want %q", tc.flags, sum.Method, tc.want)
		}
		code, _, stderr = cli(t, "", "predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--out", filepath.Join(d.dir, "scores.txt"))
		if code != 0 {
			t.Errorf("fit %v then predict: exit %d: %s", tc.flags, code, stderr)
		}
	}
}

// GreedyTL's flags are a spec by another name: for every flag, alone and
// combined, with --method greedytl, greedytl-59 or greedytl-sp, binary and
// three-class, the model file fit writes is byte for byte the file of the
// equivalent spec given to --method (issue 19: fit used to edit the
// method's options beside the spec; now both go through method.New).
func TestGreedyFlagsAreASpec(t *testing.T) {
	d := newToy(t)
	mx, mh, my, _, _, _ := multiFiles(t, t.TempDir())
	for i, tc := range []struct {
		method string
		flags  []string
		spec   string
	}{
		{"greedytl", []string{"--lambda", "10", "--sample", "59"}, "greedytl:lambda=10,sample=59"},
		{"greedytl", []string{"--lambda", "10"}, "greedytl:lambda=10"},
		{"greedytl", []string{"--lambda", "1e301"}, "greedytl:lambda=1e301"}, // the flag refused λ > 1e300 ("want a positive number") that the spec takes
		{"greedytl", []string{"--lambda", "auto"}, "greedytl:auto_lambda=1"},
		{"greedytl", []string{"--delta", "0.01", "--max-k", "2"}, "greedytl:delta=0.01,max_k=2"},
		{"greedytl", []string{"--gamma", "0.25", "--stop-at-min-loo"}, "greedytl:gamma=0.25,stop_at_min_loo=1"},
		{"greedytl", []string{"--feature-factor", "0.5", "--sample", "5"}, "greedytl:gamma=0.5,sample=5"},
		{"greedytl", []string{"--lambda", "auto", "--stop-at-min-loo", "--max-k", "3", "--delta", "0"}, "greedytl:auto_lambda=1,delta=0,max_k=3,stop_at_min_loo=1"},
		{"greedytl-59", []string{"--lambda", "3"}, "greedytl-59:lambda=3"},
		{"greedytl-59", []string{"--sample", "0"}, "greedytl-59:sample=0"},
		{"greedytl-sp", []string{"--gamma", "1", "--lambda", "10"}, "greedytl-sp:gamma=1,lambda=10"},
		{"greedytl-sp:max_k=2", []string{"--lambda", "10"}, "greedytl-sp:lambda=10,max_k=2"},
	} {
		for _, multi := range []bool{false, true} {
			inputs := []string{"--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat"}
			if multi {
				inputs = []string{"--features", mx, "--source-scores", mh, "--labels", my}
			}
			files := [2]string{}
			for j, args := range [][]string{
				append([]string{"--method", tc.method}, tc.flags...),
				{"--method", tc.spec},
			} {
				files[j] = filepath.Join(d.dir, fmt.Sprintf("spec%d-%v-%d.json", i, multi, j))
				args = append(append(append([]string{"fit"}, inputs...), "--seed", "7", "--out", files[j]), args...)
				if code, _, stderr := cli(t, "", args...); code != 0 {
					t.Fatalf("fit %v: exit %d: %s", args, code, stderr)
				}
			}
			a, errA := os.ReadFile(files[0])
			b, errB := os.ReadFile(files[1])
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("multi=%v: --method %s %v wrote another file than --method %s:\n%s\n%s", multi, tc.method, tc.flags, tc.spec, a, b)
			}
		}
	}
}

// A flag that gives a setting the spec already gives another value is a
// usage error naming both, before any input is read; the same value twice
// is not a conflict.
func TestGreedyFlagsConflictWithSpec(t *testing.T) {
	base := []string{"fit", "--features", "no-such-X.npy", "--labels", "no-such-y.txt"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--method", "greedytl:lambda=10", "--lambda", "5"}, "--lambda 5 conflicts with lambda=10 in --method greedytl:lambda=10"},
		{[]string{"--method", "greedytl:lambda=10", "--lambda", "auto"}, "--lambda auto conflicts with lambda=10"},
		{[]string{"--method", "greedytl:auto_lambda=1", "--lambda", "5"}, "--lambda 5 conflicts with auto_lambda=1"},
		{[]string{"--method", "greedytl-sp:gamma=0.25", "--gamma", "1"}, "--gamma 1 conflicts with gamma=0.25"},
		{[]string{"--method", "greedytl:sample=59", "--sample", "5"}, "--sample 5 conflicts with sample=59"},
		{[]string{"--method", "greedytl:stop_at_min_loo=1", "--stop-at-min-loo=false"}, "--stop-at-min-loo 0 conflicts with stop_at_min_loo=1"},
		{[]string{"--method", "greedytl:max_k=2,delta=0", "--max-k", "3"}, "--max-k 3 conflicts with max_k=2"},
	} {
		code, _, stderr := cli(t, "", append(slices.Clone(base), tc.args...)...)
		if code != exitInput || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q: want %d and %q", tc.args, code, stderr, exitInput, tc.want)
		}
	}
	// Agreeing settings are accepted: the run gets as far as the inputs.
	code, _, stderr := cli(t, "", append(slices.Clone(base), "--method", "greedytl:lambda=10", "--lambda", "10")...)
	if code != exitInput || !strings.Contains(stderr, "no-such") {
		t.Errorf("agreeing --lambda: exit %d, stderr %q: want the missing input's error", code, stderr)
	}
}

// checkSourceNames checks that inspect named every source column of cols
// by its class in the sources directory dir, and no feature column.
func checkSourceNames(t *testing.T, dir string, cols []inspectColumn) {
	t.Helper()
	ix, err := source.ReadIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cols {
		want := ""
		if c.Kind == "source" {
			want = ix.Sources[c.Index].Name
		}
		if c.Name != want {
			t.Errorf("inspect --json names %s column %d %q, want %q", c.Kind, c.Index, c.Name, want)
		}
	}
}

// TestInspectNamesSources: inspect names the source columns of a model
// fitted with --sources by their class, in the table and in JSON, and by
// index alone, with a note saying why, when the recorded directory is gone
// or holds other sources.
func TestInspectNamesSources(t *testing.T) {
	st := newSourcesToy(t)
	model := filepath.Join(st.dir, "model.json")
	if code, _, stderr := cli(t, "", "fit", "--method", "greedytl", "--lambda", "0.01", "--features", st.X, "--labels", st.y, "--positive", "cat", "--sources", st.A, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	code, out, stderr := cli(t, "", "inspect", "--json", model)
	var sum inspectSummary
	if code != 0 || json.Unmarshal([]byte(out), &sum) != nil {
		t.Fatalf("inspect --json: exit %d: %s", code, stderr)
	}
	checkSourceNames(t, st.A, sum.Selected)
	sources := 0
	for _, c := range sum.Selected {
		if c.Kind == "source" {
			sources++
		}
	}
	if sources == 0 {
		t.Fatalf("the model selected no source, so the test shows nothing: %+v", sum.Selected)
	}
	ix, err := source.ReadIndex(st.A)
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := cli(t, "", "inspect", model)
	for _, c := range sum.Selected {
		if c.Kind == "source" && !regexp.MustCompile(fmt.Sprintf(`(?m)^\s+\d+\s+source\s+%d\s+%s\s`, c.Index, regexp.QuoteMeta(ix.Sources[c.Index].Name))).MatchString(table) {
			t.Errorf("the table does not name source %d %q:\n%s", c.Index, ix.Sources[c.Index].Name, table)
		}
	}

	// The same file recording another directory: B (other sources), then
	// none at all.
	raw, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	// And A recorded with another data digest: the identity leaves out
	// the class names, which the data digest covers (sources retrained on
	// the same data with classes renamed have A's identity).
	for _, tc := range []struct{ dir, dataDigest, note string }{
		{st.B, ix.DataSHA256, "(sources named by index only: " + st.B + " now holds other sources: trained with seed 4, not 3)"},
		{filepath.Join(st.dir, "gone"), ix.DataSHA256, "(sources named by index only: "},
		{st.A, strings.Repeat("0", 64), "(sources named by index only: " + st.A + " now holds sources trained on other data)"},
	} {
		moved := filepath.Join(st.dir, "moved.json")
		doc := strings.Replace(string(raw), fmt.Sprintf("%q", st.A), fmt.Sprintf("%q", tc.dir), 1)
		doc = strings.Replace(doc, fmt.Sprintf("%q", ix.DataSHA256), fmt.Sprintf("%q", tc.dataDigest), 1)
		if err := os.WriteFile(moved, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		code, table, stderr := cli(t, "", "inspect", moved)
		if code != 0 || !strings.Contains(table, tc.note) || strings.Contains(table, " name ") {
			t.Errorf("inspect of a model whose sources are %s: exit %d, want the note %q and no names:\n%s%s", tc.dir, code, tc.note, table, stderr)
		}
		_, out, _ := cli(t, "", "inspect", "--json", moved)
		if strings.Contains(out, `"name"`) {
			t.Errorf("inspect --json of a model whose sources are %s names columns:\n%s", tc.dir, out)
		}
	}
}

// nearlyDegenerate writes to dir the features and labels of a problem on
// which liblinear's solvers stop short of their stopping rule: K classes of
// per rows whose p features are one strong common factor plus, for class
// k ≥ 1, a shift of 1e-4 (and noise of 1e-7, then 1e-9) along a direction
// of its own: standardised, the columns are nearly one column, and the
// class directions nearly vanish (the Python package's test draws the
// same problem).
func nearlyDegenerate(t *testing.T, dir string, seed uint64, K, per, p int) (X, y string) {
	rng := rand.New(rand.NewPCG(seed, seed))
	m := K * per
	L := mat.NewDense(m, K, nil)
	var labels strings.Builder
	for i := range m {
		k := i / per
		fmt.Fprintf(&labels, "c%d\n", k)
		L.Set(i, 0, rng.NormFloat64())
		for j := 1; j < K; j++ {
			v := 1e-7 * rng.NormFloat64()
			if j == k {
				v += 1e-4
			}
			L.Set(i, j, v)
		}
	}
	B := mat.NewDense(K, p, nil)
	for j := range K * p {
		B.RawMatrix().Data[j] = rng.NormFloat64()
	}
	var Z mat.Dense
	Z.Mul(L, B)
	for i := range m {
		for j := range p {
			Z.Set(i, j, Z.At(i, j)+1e-9*rng.NormFloat64())
		}
	}
	return writeNPY(t, dir, "degenerate.npy", &Z), writeText(t, dir, "degenerate.txt", labels.String())
}

// TestFitWarnsNotConverged: a fit whose solver runs stop before their
// stopping rule held (l1-logistic and elastic-net on nearly degenerate
// columns) warns, code "not-converged", naming the method, the solver
// and, one class against the rest, the classes whose fits stopped; fit
// --json reports the same warning, and the model is written all the same.
// A binary fit warns without classes;
// fits that converge (greedytl-nway, l1-logistic on informative data) do
// not warn of it.
func TestFitWarnsNotConverged(t *testing.T) {
	dir := t.TempDir()
	X, y := nearlyDegenerate(t, dir, 2, 3, 3, 6)
	informative := writeNPY(t, dir, "inf.npy", mat.NewDense(6, 2, []float64{3, 0, 3.5, 0.1, 0, 3, 0.2, 3.1, -3, -3, -3.2, -2.9}))
	yInf := writeText(t, dir, "inf.txt", "a\na\nb\nb\nc\nc\n")
	for _, tc := range []struct {
		method, x, y, positive string
		solver                 string // "" for no warning
	}{
		{"l1-logistic", X, y, "", "L1R_LR (liblinear -s 6)"},
		{"elastic-net", X, y, "", "ELASTICNET_LR"},
		{"elastic-net", X, y, "c1", "ELASTICNET_LR"},
		{"greedytl-nway", X, y, "", ""},
		{"l1-logistic", informative, yInf, "", ""},
	} {
		out := filepath.Join(dir, "m.json")
		args := []string{"fit", "--method", tc.method, "--features", tc.x, "--labels", tc.y, "--out", out}
		if tc.positive != "" {
			args = append(args, "--positive", tc.positive)
		}
		what := tc.method + " on " + filepath.Base(tc.x) + " " + tc.positive
		code, stdout, stderr := cli(t, "", append(args, "--json")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", what, code, stderr)
		}
		if _, err := os.Stat(out); err != nil {
			t.Errorf("%s: the model was not written: %v", what, err)
		}
		os.Remove(out)
		rep, found := fitWarnings(t, stdout, "not-converged")
		if tc.solver == "" {
			if len(found) != 0 || strings.Contains(stderr, "stopping rule") {
				t.Errorf("%s: converged fit warns %+v:\n%s", what, found, stderr)
			}
			continue
		}
		if len(found) != 1 {
			t.Fatalf("%s: %d not-converged warnings in %+v, want 1; stderr:\n%s", what, len(found), rep.Warnings, stderr)
		}
		w := found[0]
		if !strings.HasPrefix(w.Message, tc.method+": ") || !strings.Contains(w.Message, tc.solver) ||
			!strings.Contains(stderr, "greedytl: warning: "+w.Message+"\n") {
			t.Errorf("%s: warning %q: want it to start with the method, name the solver %q and be on stderr:\n%s", what, w.Message, tc.solver, stderr)
		}
		if tc.positive != "" {
			if w.Classes != nil {
				t.Errorf("%s: binary fit's warning names classes %q", what, w.Classes)
			}
		} else if len(w.Classes) == 0 || !strings.Contains(w.Message, "in the fits of "+strings.Join(quoteAll(w.Classes), ", ")+" against the rest") {
			t.Errorf("%s: warning %q with classes %q: want the classes named in the message", what, w.Message, w.Classes)
		}
	}
}

// TestNotConvergedCode: fit and report warn of solvers that stopped short
// with method.WarnNotConverged, the code the Python wrapper turns into
// GreedyTLConvergenceWarning (python/greedytl/_cli.py matches it as a
// literal; method defines it as source.WarnNotConverged, the code of the
// sources' own warning, which the wrapper treats alike).
func TestNotConvergedCode(t *testing.T) {
	py, err := os.ReadFile(filepath.Join("..", "..", "python", "greedytl", "_cli.py"))
	if err != nil {
		t.Fatal(err)
	}
	match := `GreedyTLConvergenceWarning if w.get("code") == ` + strconv.Quote(method.WarnNotConverged)
	if !strings.Contains(string(py), match) {
		t.Errorf("python/greedytl/_cli.py has no %s: the wrapper does not match the code fit writes", match)
	}
	var errb bytes.Buffer
	s := &streams{err: &errb}
	warnNotConverged(s, reporter{{Solver: "S", Stopped: 1, Runs: 2}})
	if len(s.warnings) != 1 || s.warnings[0].Code != method.WarnNotConverged {
		t.Errorf("fit's warnings %+v, want one of code %q", s.warnings, method.WarnNotConverged)
	}
}

// reporter is a model that reports solver runs that did not converge.
type reporter []method.NotConverged

func (reporter) Method() string                        { return "m" }
func (r reporter) NotConverged() []method.NotConverged { return r }

// TestWarnNotConvergedMessage: one warning per solver, saying whether the
// final fit's run stopped (the model's weights) or only runs that chose a
// hyperparameter, with the classes of a one-vs-rest model; none for a
// model that reports nothing or is no ConvergenceReporter.
func TestWarnNotConvergedMessage(t *testing.T) {
	var errb bytes.Buffer
	s := &streams{err: &errb}
	warnNotConverged(s, reporter{
		{Solver: "S1 (at most 5 steps)", Stopped: 2, Runs: 7, Final: true},
		{Solver: "S2", Stopped: 1, Runs: 3, Classes: []string{"x", "y"}},
	})
	warnNotConverged(s, reporter(nil))
	want := []warning{
		{Code: "not-converged", Message: "m: 2 of the 7 solver runs stopped before their stopping rule held (at their cap, or unable to progress), the final fit's among them, so the model's weights are where the solver stopped, not the method's solution; solver: S1 (at most 5 steps)"},
		{Code: "not-converged", Classes: []string{"x", "y"}, Message: `m: 1 of the 3 solver runs in the fits of "x", "y" against the rest stopped before their stopping rule held (at their cap, or unable to progress), only runs that chose a hyperparameter (cross-validation or leave-one-out), so the hyperparameter may not be the one converged runs choose; solver: S2`},
	}
	if len(s.warnings) != len(want) {
		t.Fatalf("warnings %+v, want %+v", s.warnings, want)
	}
	for i, w := range want {
		if g := s.warnings[i]; g.Code != w.Code || g.Message != w.Message || !slices.Equal(g.Classes, w.Classes) {
			t.Errorf("warning %d: %+v, want %+v", i, g, w)
		}
		if !strings.Contains(errb.String(), "greedytl: warning: "+w.Message+"\n") {
			t.Errorf("warning %d not on stderr:\n%s", i, errb.String())
		}
	}
	errb.Reset()
	warnNotConverged(s, struct{ method.MultiModel }{})
	if errb.Len() != 0 || len(s.warnings) != len(want) {
		t.Errorf("a model without a report warns: %s", errb.String())
	}
}

// TestFitWarnsConstantModel: a binary fit whose model keeps no column
// (l1-logistic on noise: its chosen C zeroes every weight) warns, code
// "constant-model", naming the method and the two labels, on stderr and in
// --json, and writes the model all the same; a model that keeps a column
// does not warn.
func TestFitWarnsConstantModel(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 5))
	noise := mat.NewDense(12, 5, nil)
	for i := range 12 {
		for j := range 5 {
			noise.Set(i, j, rng.NormFloat64())
		}
	}
	signal := mat.DenseCopyOf(noise)
	var labels strings.Builder
	for i := range 12 {
		name := []string{"cat", "dog"}[i%2]
		fmt.Fprintln(&labels, name)
		signal.Set(i, 0, float64(2*(i%2)-1)*3+0.1*rng.NormFloat64())
	}
	y := writeText(t, dir, "y.txt", labels.String())
	for _, tc := range []struct {
		x    string
		warn bool
	}{
		{writeNPY(t, dir, "noise.npy", noise), true},
		{writeNPY(t, dir, "signal.npy", signal), false},
	} {
		out := filepath.Join(dir, "m.json")
		code, stdout, stderr := cli(t, "", "fit", "--method", "l1-logistic", "--features", tc.x, "--labels", y, "--positive", "dog", "--out", out, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.x, code, stderr)
		}
		rep, found := fitWarnings(t, stdout, "constant-model")
		if !tc.warn {
			if len(found) != 0 {
				t.Errorf("%s: a model with a column warns %+v", tc.x, found)
			}
			continue
		}
		if len(found) != 1 {
			t.Fatalf("%s: %d constant-model warnings in %+v, want 1; stderr:\n%s", tc.x, len(found), rep.Warnings, stderr)
		}
		msg := found[0].Message
		if !strings.HasPrefix(msg, "the l1-logistic model keeps no column") || !strings.Contains(msg, `"dog" or "cat"`) ||
			!strings.Contains(stderr, "greedytl: warning: "+msg+"\n") {
			t.Errorf("%s: warning %q: want the method and both labels named, on stderr:\n%s", tc.x, msg, stderr)
		}
		if !slices.Equal(found[0].Classes, []string{"dog", "cat"}) {
			t.Errorf("%s: warning's classes %q, want the two it names, \"dog\" and \"cat\"", tc.x, found[0].Classes)
		}
		if _, err := os.Stat(out); err != nil {
			t.Errorf("%s: the model was not written: %v", tc.x, err)
		}
		os.Remove(out)
	}
}

// fitWarnings decodes fit --json's report and returns it and its warnings
// of the given code.
func fitWarnings(t *testing.T, stdout, code string) (fitReport, []warning) {
	t.Helper()
	var rep fitReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("fit --json: %v\n%s", err, stdout)
	}
	var found []warning
	for _, w := range rep.Warnings {
		if w.Code == code {
			found = append(found, w)
		}
	}
	return rep, found
}

// A spec's errors quote it as typed, not as its canonical form, which
// spells key=auto as auto_key=1 (the user never typed "auto_gamma" or
// "auto_C": a key=auto is named as typed, with the key it stands for).
func TestFitSpecErrorQuotesTheSpec(t *testing.T) {
	d := newToy(t)
	for _, tc := range []struct {
		spec  string
		flags []string
		want  string
	}{
		{"greedytl:gamma=auto", nil, `method: spec "greedytl:gamma=auto": "auto_gamma" (gamma=auto)`},
		{"l1-logistic:C=auto", nil, `method: spec "l1-logistic:C=auto": unknown key "auto_C" (C=auto); l1-logistic takes`},
		// With a GreedyTL flag joining its setting: still as typed.
		{"greedytl:gamma=auto", []string{"--delta", "0.01"}, `method: spec "greedytl:gamma=auto": "auto_gamma" (gamma=auto)`},
		{"greedytl:C=auto", []string{"--delta", "0.1"}, `method: spec "greedytl:C=auto": unknown key "auto_C" (C=auto); GreedyTL takes`},
	} {
		args := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat",
			"--out", filepath.Join(d.dir, "m.json"), "--method", tc.spec}
		wantInputError(t, tc.want, append(args, tc.flags...)...)
	}
}

// TestFeatureFactorFormerName: --feature-factor, --gamma's former name,
// is noted on standard error, never on standard output, where the model
// (without --out) or --json's report is: cobra's deprecation message went
// there, before the model's JSON, so that "fit … > model.json" wrote a file
// predict could not read. Given with --gamma it is refused: one setting.
func TestFeatureFactorFormerName(t *testing.T) {
	d := newToy(t)
	base := []string{"fit", "--method", "greedytl", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--feature-factor", "0.25"}
	note := "greedytl: note: --feature-factor is the former name of --gamma: give --gamma\n"
	code, out, stderr := cli(t, "", base...)
	var model struct {
		Method string `json:"method"`
	}
	if err := json.Unmarshal([]byte(out), &model); code != 0 || err != nil || model.Method != "greedytl:gamma=0.25" || !strings.HasPrefix(stderr, note) {
		t.Errorf("model on standard output: exit %d, %v, method %q, stderr %q; want 0, a model of greedytl:gamma=0.25, the note", code, err, model.Method, stderr)
	}
	code, out, stderr = cli(t, "", append(slices.Clone(base), "--json", "--out", filepath.Join(d.dir, "ff.json"))...)
	var rep struct {
		Model string `json:"model"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Model == "" || !strings.HasPrefix(stderr, note) {
		t.Errorf("--json: exit %d, %v, report %q, stderr %q; want 0, the report, the note", code, err, out, stderr)
	}
	code, out, stderr = cli(t, "", append(slices.Clone(base), "--gamma", "0.5", "--out", filepath.Join(d.dir, "both.json"))...)
	if want := "greedytl: --feature-factor is the former name of --gamma: give --gamma alone\n"; code != exitInput || out != "" || stderr != want {
		t.Errorf("with --gamma: exit %d, stdout %q, stderr %q; want %d, nothing, %q", code, out, stderr, exitInput, want)
	}
}

// threeClasses writes y3.txt in the toy's folder, a label a row as its
// labels, of three classes a, b, c in turn, and returns its path.
func (d toy) threeClasses(t *testing.T) string {
	t.Helper()
	lab, err := os.ReadFile(d.ytext)
	if err != nil {
		t.Fatal(err)
	}
	three := strings.Fields(string(lab))
	for i := range three {
		three[i] = []string{"a", "b", "c"}[i%3]
	}
	return writeText(t, d.dir, "y3.txt", strings.Join(three, "\n")+"\n")
}

// TestFitSeedUnused: --seed given to a method that draws nothing at random
// (method.Needs.Seed false) was accepted without a word; fit now warns
// (code seed-unused, on standard error and in --json's warnings) and
// writes the model all the same. A method that draws (greedytl's sample
// of fewer than the candidate columns, multinomial-logistic), and a fit
// without --seed, get no warning; greedytl's sample of every candidate
// (greedytl-59 of 26 columns) draws nothing.
func TestFitSeedUnused(t *testing.T) {
	d := newToy(t)
	y3 := d.threeClasses(t)
	out := filepath.Join(d.dir, "m.json")
	for _, tc := range []struct {
		labels, method string
		seed           bool
		warn           bool
	}{
		{d.ytext, "no-transfer", true, true},
		{d.ytext, "greedytl", true, true},
		{d.ytext, "no-transfer", false, false},
		// The toy's 6 features and 20 sources are 26 candidates: a sample
		// of 59 holds them all and draws nothing (it was not warned), one
		// of 10 draws.
		{d.ytext, "greedytl-59", true, true},
		{d.ytext, "greedytl:sample=10", true, false},
		{d.ytext, "greedytl:sample=26", true, true},
		{d.ytext, "greedytl:sample=25", true, false},
		{y3, "nearest-mean", true, true},
		{y3, "no-transfer", true, true},
		{y3, "multinomial-logistic", true, false},
		{y3, "greedytl-59", true, true}, // one against the rest, likewise
		{y3, "greedytl:sample=10", true, false},
	} {
		args := []string{"fit", "--method", tc.method, "--features", d.X, "--source-scores", d.H, "--labels", tc.labels, "--out", out, "--json"}
		if tc.labels == d.ytext {
			args = append(args, "--positive", "cat")
		}
		if tc.seed {
			args = append(args, "--seed", "7")
		}
		code, stdout, stderr := cli(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		msg := "--seed has no effect: " + tc.method + " draws nothing at random"
		rep, found := fitWarnings(t, stdout, "seed-unused")
		reported := slices.ContainsFunc(found, func(w warning) bool { return w.Message == msg })
		if printed := strings.Contains(stderr, "greedytl: warning: "+msg+"\n"); printed != tc.warn || reported != tc.warn {
			t.Errorf("%q: warning printed %v, reported %v (%+v), want %v; stderr:\n%s", args, printed, reported, rep.Warnings, tc.warn, stderr)
		}
		if !tc.warn && strings.Contains(stderr, "--seed") {
			t.Errorf("%q: stderr names --seed:\n%s", args, stderr)
		}
	}
}

// TestFitSeedNotRecordedUndrawn: a greedytl fit whose sample holds every
// candidate column draws nothing at random (seed-unused warns so), and its
// model file records the seed 0, as an exact fit's does: two seeds write
// byte-identical files (they recorded each its seed), binary and one
// against the rest. A sample of fewer than the candidates draws: the
// files differ.
func TestFitSeedNotRecordedUndrawn(t *testing.T) {
	d := newToy(t)
	y3 := d.threeClasses(t)
	for _, tc := range []struct {
		labels, method string
		same           bool
	}{
		// The toy's 6 features and 20 sources are 26 candidates.
		{d.ytext, "greedytl-59", true},
		{d.ytext, "greedytl:sample=26", true},
		{d.ytext, "greedytl", true},
		{y3, "greedytl-59", true},
		{d.ytext, "greedytl:sample=10", false},
		{y3, "greedytl:sample=10", false},
	} {
		var files [2][]byte
		for i, seed := range []string{"7", "8"} {
			out := filepath.Join(d.dir, "m"+seed+".json")
			args := []string{"fit", "--method", tc.method, "--features", d.X, "--source-scores", d.H, "--labels", tc.labels, "--out", out, "--seed", seed}
			if tc.labels == d.ytext {
				args = append(args, "--positive", "cat")
			}
			if code, _, stderr := cli(t, "", args...); code != 0 {
				t.Fatalf("%q: exit %d: %s", args, code, stderr)
			}
			var err error
			if files[i], err = os.ReadFile(out); err != nil {
				t.Fatal(err)
			}
		}
		if same := bytes.Equal(files[0], files[1]); same != tc.same {
			t.Errorf("%s on %s: the files of --seed 7 and 8 alike %v, want %v", tc.method, tc.labels, same, tc.same)
		}
	}
}

// emptyModel is a model of the method named name that keeps no column.
type emptyModel struct{ name string }

func (m emptyModel) Method() string                         { return m.name }
func (emptyModel) Predict(d method.Data) ([]float64, error) { return nil, nil }
func (emptyModel) Hyperparameters() map[string]float64      { return nil }
func (emptyModel) SourceWeights() []float64                 { return nil }
func (emptyModel) Selected() (method.Selection, bool)       { return method.Selection{}, true }

// TestConstantModelAdvisesAnotherMethod: the constant-model warning
// advises the default method, greedytl-auto, only when the model is of
// another method (it advised greedytl-auto to a greedytl-auto model).
func TestConstantModelAdvisesAnotherMethod(t *testing.T) {
	const advice = "try the default method, greedytl-auto"
	for name, want := range map[string]bool{"l1-logistic": true, "greedytl-auto": false, "greedytl-auto:single_fit=1": false} {
		var buf bytes.Buffer
		warnConstantModel(&streams{err: &buf}, emptyModel{name}, method.Data{}, "dog", []string{"cat"})
		if got := buf.String(); !strings.Contains(got, "keeps no column") || strings.Contains(got, advice) != want {
			t.Errorf("%s: warning %q: advice %q %v, want %v", name, got, advice, !want, want)
		}
	}
	// The constant-classes warning's advice, likewise.
	if got := tryDefault(method.RecommendedMulti, method.RecommendedMulti, " a class"); got != "" {
		t.Errorf("a %s model is advised %q", method.RecommendedMulti, got)
	}
	if got, want := tryDefault("l1-logistic", method.RecommendedMulti, " a class"), "; with so few examples a class, try the default method, "+method.RecommendedMulti; got != want {
		t.Errorf("an l1-logistic model is advised %q, want %q", got, want)
	}
}
