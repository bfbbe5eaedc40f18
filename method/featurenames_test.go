package method

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/modelfile"
)

// fitEveryMulti fits every multi-class spec (MultiNames) on one small
// problem of 3 classes and 6 features (multiProblem), yielding each spec
// and its model in MultiNames' order.
func fitEveryMulti(t *testing.T) iter.Seq2[string, MultiModel] {
	train, y, test, _ := multiProblem(5, 3, 3, 4, 6, 4)
	return func(yield func(string, MultiModel) bool) {
		for _, name := range MultiNames() {
			meth, err := NewMulti(name)
			if err != nil {
				t.Fatal(err)
			}
			mm, err := meth.FitMulti(context.Background(), train, y, multiExtra(meth, test))
			if err != nil {
				t.Fatal(err)
			}
			if !yield(name, mm) {
				return
			}
		}
	}
}

// TestFeatureNamesInModelFiles: Write and WriteMulti record FileInfo's
// feature names in every method's file, Read gives them back, and a file
// whose names are not one per feature is neither written nor read;
// WriteMulti refuses labels, which a multi-class file names in "classes".
func TestFeatureNamesInModelFiles(t *testing.T) {
	names := func(d int) []string {
		var n []string
		for j := range d {
			n = append(n, fmt.Sprintf("x%d", j))
		}
		return n
	}
	// check writes with write and the names of d features, reads the file
	// back, and checks one name too many on writing and on reading.
	check := func(name string, d int, write func(*bytes.Buffer, []string) error) {
		t.Helper()
		var buf bytes.Buffer
		if err := write(&buf, names(d)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := buf.String()
		f, err := Read(strings.NewReader(text))
		if err != nil || !slices.Equal(f.Info.FeatureNames, names(d)) {
			t.Fatalf("%s: read back the names %q (%v), want %q", name, f.Info.FeatureNames, err, names(d))
		}
		want := fmt.Sprintf(`"feature_names" has %d names but the model has %d features`, d+1, d)
		if err := write(new(bytes.Buffer), names(d+1)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: writing %d names: %v, want an error containing %q", name, d+1, err, want)
		}
		last := fmt.Sprintf("\"x%d\"\n  ],", d-1)
		edited := strings.Replace(text, last, fmt.Sprintf("\"x%d\",\n    \"extra\"\n  ],", d-1), 1)
		if edited == text {
			t.Fatalf("%s: no names to edit in\n%s", name, text)
		}
		if _, err := Read(strings.NewReader(edited)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: reading %d names: %v, want an error containing %q", name, d+1, err, want)
		}
		if f, err := Read(strings.NewReader(text[:strings.Index(text, "  \"feature_names\"")] + text[strings.Index(text, last)+len(last)+1:])); err != nil || f.Info.FeatureNames != nil {
			t.Errorf("%s: the file without names: names %q, error %v", name, f.Info.FeatureNames, err)
		}
	}
	base := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range Names() {
		model := mustFit(t, name, base)
		check(name, 5, func(w *bytes.Buffer, n []string) error {
			return Write(w, model, FileInfo{FeatureNames: n})
		})
	}
	for name, mm := range fitEveryMulti(t) {
		check(name+" (multi-class)", 6, func(w *bytes.Buffer, n []string) error {
			return WriteMulti(w, mm, FileInfo{FeatureNames: n})
		})
		err := WriteMulti(new(bytes.Buffer), mm, FileInfo{Labels: &modelfile.LabelNames{Positive: "a", Negative: []string{"b"}}})
		if err == nil || !strings.Contains(err.Error(), `names its classes in "classes", not "labels"`) {
			t.Errorf("%s: WriteMulti with labels: %v", name, err)
		}
	}
}
