package method

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/errtest"
)

// optionalMembers are the members a model file (or a model file within
// one) may leave out: the header's optional records (modelfile.Header:
// build, sources, labels), the hyperparameters, which version 1 files of
// the root package lack and whose entries each method checks against its
// settings, greedytl-auto's committee, which files written before it
// lack (method/testdata), and a linear multi-class file's normalise,
// absent when the scores are not normalised.
var optionalMembers = map[string]bool{"build": true, "sources": true, "labels": true, "hyperparameters": true, "committee": true, "normalise": true}

// memberPaths returns the path of every member of the JSON value v (decoded
// with UseNumber) in jsonfile's form (columns[0].weight), descending into
// the first element of each array only, but not into the optional members
// of a model file's object (one with a "format").
func memberPaths(v any, prefix string) []string {
	var paths []string
	switch v := v.(type) {
	case map[string]any:
		_, file := v["format"]
		for k, x := range v {
			if file && optionalMembers[k] {
				continue
			}
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			paths = append(paths, p)
			paths = append(paths, memberPaths(x, p)...)
		}
	case []any:
		if len(v) > 0 {
			paths = append(paths, memberPaths(v[0], fmt.Sprintf("%s[0]", prefix))...)
		}
	}
	slices.Sort(paths)
	return paths
}

// withoutMember returns the JSON document doc without the member at path
// (memberPaths' form).
func withoutMember(t *testing.T, doc []byte, path string) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		t.Fatal(err)
	}
	v := root
	steps := strings.Split(path, ".")
	for k, s := range steps {
		name, first := strings.CutSuffix(s, "[0]")
		obj := v.(map[string]any)
		if k == len(steps)-1 && !first {
			delete(obj, name)
			break
		}
		v = obj[name]
		for first {
			v = v.([]any)[0]
			name, first = strings.CutSuffix(name, "[0]")
		}
	}
	b, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkMissingMembers checks that the model file doc reads, and that
// without any one of its members (all but the optional ones, in the first
// element of each array) Read refuses it naming the member — a missing
// member would otherwise read as zero, or as an empty model.
func checkMissingMembers(t *testing.T, doc []byte) {
	t.Helper()
	if _, err := Read(bytes.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	var root any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		t.Fatal(err)
	}
	paths := memberPaths(root, "")
	if len(paths) < 5 {
		t.Fatalf("%d members in the file:\n%s", len(paths), doc)
	}
	for _, p := range paths {
		_, err := Read(bytes.NewReader(withoutMember(t, doc, p)))
		// A model file within one (one against the rest, an ensemble's
		// member) is read on its own: its error names the member within
		// it, after the element.
		want, inner := p, ""
		for _, within := range []string{"models[0].", "members[0]."} {
			if _, rest, ok := strings.Cut(p, within); ok {
				want, inner = rest, strings.TrimSuffix(within, ".")
			}
		}
		switch {
		case p == "classes" || inner == "members[0]":
			// Without its classes a file is a binary one, which the
			// binary method's decoder refuses for its own members; an
			// ensemble compares its members' headers with its own
			// before it reads them.
			if err == nil {
				t.Errorf("without %s: read", p)
			}
		case err == nil || !strings.Contains(err.Error(), want+" is missing; want ") || !strings.Contains(err.Error(), inner):
			t.Errorf("without %s: error %v, want one naming the member", p, err)
		}
		// The package's prefix once, for a file within a file too.
		if err != nil {
			if err := errtest.OnePrefix(err.Error()); err != nil {
				t.Errorf("without %s: %v", p, err)
			}
		}
	}
}

// TestReadModelRefusesMissingMember: in every method's model file, and in
// the multi-class files of the native multi-class methods and of one
// binary method against the rest, each member the writer always writes
// but the optional header records, left out in turn, is refused by the
// one reader, and the error names it (encoding/json would read it as 0,
// an empty list or a zero record).
func TestReadModelRefusesMissingMember(t *testing.T) {
	base := newConformanceCase(7, 24, 6, 5, 8)
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			checkMissingMembers(t, []byte(writeString(t, mustFit(t, name, base))))
		})
	}
	train, y, _, _ := multiProblem(5, 3, 3, 4, 6, 4)
	for _, name := range MultiNames() {
		if slices.Contains(Names(), name) && name != "greedytl" {
			continue // one against the rest: one binary method stands for all
		}
		t.Run("multi-class "+name, func(t *testing.T) {
			_, file := multiFile(t, name, train, y)
			checkMissingMembers(t, file)
		})
	}
}
