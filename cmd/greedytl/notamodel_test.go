package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/experiment"
	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/source"
)

// TestInspectAndPredictNameOtherFiles: given a sources index or a run
// manifest, inspect and predict say what the file is, not which model
// member it lacks ("format is missing"), however it is named.
func TestInspectAndPredictNameOtherFiles(t *testing.T) {
	data := datasettest.WriteFolder(t, datasettest.Shuffled(5, []int{20, 20, 30}, []float64{4, 4, 0})).Dir
	out := filepath.Join(t.TempDir(), "sources")
	if code, _, stderr := cli(t, "", "train-sources", "--data", data, "--out", out, "--negative-classes", "c2", "--c-grid", "1", "-q"); code != 0 {
		t.Fatalf("train-sources: exit %d: %s", code, stderr)
	}
	renamed := filepath.Join(t.TempDir(), "index.json")
	b, err := os.ReadFile(filepath.Join(out, source.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(renamed, b, 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(t.TempDir(), experiment.ManifestFile)
	if err := os.WriteFile(manifest, []byte(`{"format": "greedytl-experiment", "version": 1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, want string }{
		{filepath.Join(out, source.IndexFile), "is a sources index (greedytl train-sources'), not a model file"},
		{renamed, "is a sources index (greedytl train-sources'), not a model file"},
		{manifest, "is a run manifest (greedytl experiment's), not a model file"},
		{filepath.Join(out, "models", "0-c0.json"), "is the record of a source's training (greedytl train-sources'), not a model file"},
	} {
		for _, cmd := range [][]string{{"inspect", c.file}, {"predict", "--model", c.file, "--features", filepath.Join(data, "features.npy")}} {
			code, _, stderr := cli(t, "", cmd...)
			if code != 2 || !strings.Contains(stderr, c.file+" "+c.want) || strings.Contains(stderr, "is missing") {
				t.Errorf("%s: exit %d, stderr %q; want 2 and %q", cmd[0], code, stderr, c.file+" "+c.want)
			}
		}
	}
}

// TestOtherFileNearMisses: otherFile names a sources index or a source's
// training record only with every member that marks it, so that a JSON
// file lacking one (a model file with a typo'd format among them) keeps
// the reader's own error.
func TestOtherFileNearMisses(t *testing.T) {
	for doc, want := range map[string]string{
		`{"data_sha256": "ab", "negatives": {}, "sources": []}`:                             "is a sources index",
		`{"negatives": {}, "sources": []}`:                                                  "",
		`{"data_sha256": "", "negatives": {}, "sources": []}`:                               "",
		`{"data_sha256": "ab", "sources": []}`:                                              "",
		`{"format": "greedytl-modle", "data_sha256": "ab", "negatives": {}, "sources": []}`: "",
		`{"model_sha256": "ab", "fingerprint": "cd"}`:                                       "is the record of a source's training",
		`{"model_sha256": "ab"}`:                                                            "",
		`{"model_sha256": "ab", "fingerprint": ""}`:                                         "",
		`{"fingerprint": "cd"}`:                                                             "",
	} {
		got := otherFile([]byte(doc))
		if want == "" && got != "" || !strings.HasPrefix(got, want) {
			t.Errorf("otherFile(%s) = %q, want %q", doc, got, want)
		}
	}
}

// TestOpensAsModel: readAnyModel keeps no copy of a file that opens as
// greedytl writes a model file, in any JSON spacing; it keeps one of
// anything else, which may be another file of greedytl's (otherFile).
func TestOpensAsModel(t *testing.T) {
	for head, want := range map[string]bool{
		"{\n  \"format\": \"greedytl-model\",\n  \"version\": 2,": true,
		`{"format":"greedytl-model","version":2}`:                 true,
		`{ "format" : "greedytl-model"`:                           true,
		`{"format": "greedytl-experiment", "version": 1}`:         false,
		`{"version": 1, "format": "greedytl-model"}`:              false,
		`{"format": "greedytl-mod`:                                false,
		`{"data_sha256": "ab", "negatives": {}, "sources": []}`:   false,
		`["format", "greedytl-model"]`:                            false,
		``:                                                        false,
	} {
		if got := opensAsModel([]byte(head)); got != want {
			t.Errorf("opensAsModel(%q) = %v, want %v", head, got, want)
		}
	}
}

// TestInspectMultiShowsTheSourcesAsBinary: a multi-class model fitted with
// --sources shows the same sources line as a binary one (the directory,
// the count, the identity, the data digest and the seed).
func TestInspectMultiShowsTheSourcesAsBinary(t *testing.T) {
	st := newSourcesToy(t)
	lines := map[string]string{}
	for _, c := range [][]string{{"greedytl", "--positive", "cat"}, {"nearest-mean", "--positive", "cat"}} {
		model := filepath.Join(st.dir, c[0]+".json")
		args := append([]string{"fit", "--method", c[0], "--features", st.X, "--labels", st.y, "--sources", st.A, "--out", model}, c[1:]...)
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("fit %s: exit %d: %s", c[0], code, stderr)
		}
		code, out, stderr := cli(t, "", "inspect", model)
		if code != 0 {
			t.Fatalf("inspect %s: exit %d: %s", c[0], code, stderr)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "sources: ") {
				lines[c[0]] = l
			}
		}
	}
	if b := lines["greedytl"]; b == "" || !strings.Contains(b, ", data ") || !strings.Contains(b, ", seed 3)") || lines["nearest-mean"] != b {
		t.Errorf("binary inspect shows %q, multi-class %q: want the same line, with the data and the seed", b, lines["nearest-mean"])
	}
}

// BenchmarkReadAnyModelManyNames reads a model with a million named
// features as inspect and predict do: what readAnyModel holds beside the
// model (B/op).
func BenchmarkReadAnyModelManyNames(b *testing.B) {
	X := mat.NewDense(6, 2, []float64{1, 0, 2, 1, 3, 0, 4, 1, 5, 0, 6, 1})
	gm, err := greedytl.Fit(context.Background(), X, nil, []float64{1, 1, 1, -1, -1, -1}, greedytl.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	gm.NumFeatures = 1_000_000
	h := modelfile.NewHeader(greedytl.BaseMethod, nil, nil)
	h.FeatureNames = make([]string, gm.NumFeatures)
	for i := range h.FeatureNames {
		h.FeatureNames[i] = fmt.Sprintf("feature%d", i)
	}
	var file bytes.Buffer
	if err := gm.Write(&file, h); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r := bufio.NewReader(bytes.NewReader(file.Bytes()))
		head, err := modelHead("model", r)
		if err == nil {
			_, err = readAnyModel("model", r, head)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
