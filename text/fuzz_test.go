package text_test

import (
	"encoding/json"
	"math"
	"testing"
	"unicode/utf8"

	"github.com/greedytl/greedytl/text"
)

// FuzzTransform checks that any document, in both modes, either is rejected
// as invalid UTF-8 or gives a well-formed row that is finite and of unit or
// zero norm.
func FuzzTransform(f *testing.F) {
	for _, s := range []string{"", "the cat", "x y", "What's up?", "\xff", "a a a a b", "ΣΟΦΙΑ's café"} {
		f.Add(s)
	}
	train := randomCorpus(11, 100)
	vs := []*text.Vectorizer{{Dim: 0}, {Dim: 8}, {Dim: 1024, Sublinear: true}}
	for _, v := range vs {
		if err := v.Fit(train); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, doc string) {
		for _, v := range vs {
			x, err := v.Transform([]string{doc})
			if !utf8.ValidString(doc) {
				if err == nil {
					t.Fatalf("Dim %d accepted invalid UTF-8 %q", v.Dim, doc)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := x.Check(); err != nil {
				t.Fatal(err)
			}
			n2 := x.RowNorm2(0)
			if !(n2 == 0 || math.Abs(n2-1) < 1e-14) {
				t.Fatalf("Dim %d, %q: squared norm %v", v.Dim, doc, n2)
			}
			if n2 == 0 && v.Dim == 0 && len(text.Tokenize(doc)) > 0 {
				// Only unknown n-grams: fine in exact mode; check none is known.
				for _, tok := range text.Tokenize(doc) {
					for _, g := range v.Vocabulary() {
						if g == tok {
							t.Fatalf("%q: zero row though %q is in the vocabulary", doc, tok)
						}
					}
				}
			}
		}
	})
}

// FuzzUnmarshal checks that arbitrary JSON never panics and that whatever
// is accepted can transform.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"dim":2,"docs":3,"idf":[1,1.5]}`, `{"dim":0,"docs":1,"vocabulary":["a"],"idf":[1]}`, `{"dim":4}`, `null`, `{}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v text.Vectorizer
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return
		}
		if v.IDF() == nil {
			return
		}
		x, err := v.Transform([]string{"a b", "the cat"})
		if err != nil {
			t.Fatalf("accepted %s but Transform fails: %v", s, err)
		}
		if err := x.Check(); err != nil {
			t.Fatal(err)
		}
	})
}
