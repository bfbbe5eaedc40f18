package text_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
	"github.com/greedytl/greedytl/internal/shareddata"
	"github.com/greedytl/greedytl/text"
)

const python = peertest.Python

// TestScikitLearn compares the exact-vocabulary mode with scikit-learn's
// TfidfVectorizer (see the package documentation for the settings): same
// vocabulary, IDF weights and rows, on a seeded random corpus and, when the
// shared data is present, on CLINC150 (fit on its train split, transform its
// test split). It skips when python3 or scikit-learn is missing.
func TestScikitLearn(t *testing.T) {
	peertest.PythonWith(t, "sklearn")
	for _, sublinear := range []bool{false, true} {
		t.Run(fmt.Sprintf("random/sublinear=%v", sublinear), func(t *testing.T) {
			if testing.Short() && !sublinear {
				t.Skip("with -short the CLINC150 case compares sublinear=false (each case starts scikit-learn)")
			}
			compareWithScikitLearn(t, randomCorpus(9, 300), randomCorpus(10, 100), sublinear)
		})
	}
	t.Run("clinc150", func(t *testing.T) {
		train, test := clincSplit(t, "train"), clincSplit(t, "test")
		if testing.Short() {
			// Every tenth document with -short: the vocabulary and the
			// document frequencies of a real corpus, a tenth of the cost.
			train, test = everyTenth(train), everyTenth(test)
		}
		compareWithScikitLearn(t, train, test, false)
	})
}

// everyTenth returns docs[0], docs[10], docs[20], ….
func everyTenth(docs []string) []string {
	var out []string
	for i := 0; i < len(docs); i += 10 {
		out = append(out, docs[i])
	}
	return out
}

func compareWithScikitLearn(t *testing.T, train, test []string, sublinear bool) {
	joined := func(docs []string) []string {
		out := make([]string, len(docs))
		for i, d := range docs {
			out[i] = strings.Join(text.Tokenize(d), " ")
		}
		return out
	}
	spec, err := json.Marshal(map[string]any{"train": joined(train), "test": joined(test), "sublinear": sublinear})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(in, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, filepath.Join("testdata", "sklearn_tfidf.py"), in)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scikit-learn: %v", err)
	}
	var want struct {
		Vocabulary []string
		IDF        []float64
		Rows       [][][2]float64
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}

	v := text.Vectorizer{Sublinear: sublinear}
	if err := v.Fit(train); err != nil {
		t.Fatal(err)
	}
	if got := v.Vocabulary(); !slices.Equal(got, want.Vocabulary) {
		t.Fatalf("vocabulary: %d n-grams, scikit-learn %d", len(got), len(want.Vocabulary))
	}
	for j, w := range v.IDF() {
		if math.Abs(w-want.IDF[j]) > 1e-15*w {
			t.Fatalf("idf[%q] = %v, scikit-learn %v", want.Vocabulary[j], w, want.IDF[j])
		}
	}
	x, err := v.Transform(test)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range want.Rows {
		ind, val := x.Row(i)
		if len(ind) != len(row) {
			t.Fatalf("doc %q: %d entries, scikit-learn %d", test[i], len(ind), len(row))
		}
		for k, e := range row {
			if ind[k] != int(e[0]) || math.Abs(val[k]-e[1]) > 1e-15 {
				t.Fatalf("doc %q entry %d: (%d, %v), scikit-learn (%v, %v)", test[i], k, ind[k], val[k], e[0], e[1])
			}
		}
	}
	t.Logf("%d training and %d test documents, %d n-grams: identical up to 1e-15", len(train), len(test), len(want.Vocabulary))
}

// clincSplit returns the texts of one split of the shared CLINC150 copy
// (skipping the test when it is absent).
func clincSplit(t testing.TB, split string) []string {
	t.Helper()
	data, err := os.ReadFile(shareddata.Path(t, "clinc150/data_full.json"))
	if err != nil {
		t.Fatal(err)
	}
	var full map[string][][2]string
	if err := json.Unmarshal(data, &full); err != nil {
		t.Fatal(err)
	}
	docs := make([]string, 0, len(full[split]))
	for _, q := range full[split] {
		docs = append(docs, q[0])
	}
	if len(docs) == 0 {
		t.Fatalf("split %q is empty", split)
	}
	return docs
}
