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
// feature and source names in every method's file, Read gives them back,
// and a file whose names are not one per feature (source) is neither
// written nor read; WriteMulti refuses labels on a model of three
// classes, which a multi-class file names in "classes" (a two-class file
// may record its positive class: TestTwoClassFileRoundTrip).
func TestFeatureNamesInModelFiles(t *testing.T) {
	names := func(d int) []string {
		var n []string
		for j := range d {
			n = append(n, fmt.Sprintf("x%d", j))
		}
		return n
	}
	// member is one kind of column names: the file's member, what the
	// model has d of, FileInfo's field and how to set it.
	type member struct {
		key, of string
		get     func(FileInfo) []string
		set     func([]string) FileInfo
	}
	members := []member{
		{"feature_names", "features", func(i FileInfo) []string { return i.FeatureNames }, func(n []string) FileInfo { return FileInfo{FeatureNames: n} }},
		{"source_names", "sources", func(i FileInfo) []string { return i.SourceNames }, func(n []string) FileInfo { return FileInfo{SourceNames: n} }},
	}
	// check writes with write and the d names of mb's columns, reads the
	// file back, and checks one name too many on writing and on reading.
	check := func(name string, mb member, d int, write func(*bytes.Buffer, FileInfo) error) {
		t.Helper()
		var buf bytes.Buffer
		if err := write(&buf, mb.set(names(d))); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := buf.String()
		f, err := Read(strings.NewReader(text))
		if err != nil || !slices.Equal(mb.get(f.Info), names(d)) {
			t.Fatalf("%s: read back the %s %q (%v), want %q", name, mb.key, mb.get(f.Info), err, names(d))
		}
		want := fmt.Sprintf(`%q has %d names but the model has %d %s`, mb.key, d+1, d, mb.of)
		if err := write(new(bytes.Buffer), mb.set(names(d+1))); err == nil || !strings.Contains(err.Error(), want) {
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
		if f, err := Read(strings.NewReader(text[:strings.Index(text, "  \""+mb.key+"\"")] + text[strings.Index(text, last)+len(last)+1:])); err != nil || mb.get(f.Info) != nil {
			t.Errorf("%s: the file without names: names %q, error %v", name, mb.get(f.Info), err)
		}
		// Empty, non-nil names are no names, as the file leaves them out,
		// for every writer (greedytl.Model.Write's rule): a caller's
		// []string{} is written as no names and reads back as nil.
		buf.Reset()
		if err := write(&buf, mb.set([]string{})); err != nil || strings.Contains(buf.String(), mb.key) {
			t.Errorf("%s: writing empty %s: %v\n%s", name, mb.key, err, buf.String())
		} else if f, err := Read(&buf); err != nil || mb.get(f.Info) != nil {
			t.Errorf("%s: empty %s read back as %q, %v; want none", name, mb.key, mb.get(f.Info), err)
		}
	}
	base := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range Names() {
		model := mustFit(t, name, base)
		for k, mb := range members {
			check(name, mb, []int{5, 8}[k], func(w *bytes.Buffer, info FileInfo) error {
				return Write(w, model, info)
			})
		}
	}
	for name, mm := range fitEveryMulti(t) {
		for k, mb := range members {
			check(name+" (multi-class)", mb, []int{6, 4}[k], func(w *bytes.Buffer, info FileInfo) error {
				return WriteMulti(w, mm, info)
			})
		}
		err := WriteMulti(new(bytes.Buffer), mm, FileInfo{Labels: &modelfile.LabelNames{Positive: "a", Negative: []string{"b"}}})
		if err == nil || !strings.Contains(err.Error(), `names its classes in "classes", not "labels"`) {
			t.Errorf("%s: WriteMulti with labels: %v", name, err)
		}
	}
}
