package text_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/sparse"
	"github.com/greedytl/greedytl/text"
)

// entry is one expected non-zero of a row.
type entry struct {
	col int
	val float64
}

func rowEntries(x *sparse.CSR, i int) []entry {
	ind, val := x.Row(i)
	var es []entry
	for k, j := range ind {
		es = append(es, entry{j, val[k]})
	}
	return es
}

func sameEntries(got, want []entry, tol float64) bool {
	if len(got) != len(want) {
		return false
	}
	for k := range got {
		if got[k].col != want[k].col || math.Abs(got[k].val-want[k].val) > tol {
			return false
		}
	}
	return true
}

// TestHandComputed checks both modes on a tiny corpus whose vectors are
// written out by hand from the formulas in the package documentation.
func TestHandComputed(t *testing.T) {
	k := math.Log(3.0/2) + 1 // idf of an n-gram in one of the two documents
	u := math.Log(3.0) + 1   // idf of a column no training document touched
	corpus := []string{"the cat sat", "the dog"}
	// Hashing mode, Dim 8: FNV-1a 64 hash h, m = fmix64(h) (both computed
	// independently), column m mod 8 and sign (− when m's top bit is set):
	//	the       h 0x56f5c9194461d57c m 0xcb3ff435b889fb31 1 −
	//	cat       h 0xf5e307190ce4a327 m 0x98e25a302c6eb1d4 4 −
	//	sat       h 0x822d97195cd5ebf7 m 0xedab5af96407a407 7 −
	//	dog       h 0xcaaf3b18f47478e9 m 0xf3805bf28273c516 6 −
	//	"the cat" h 0x41dced5518c4b818 m 0x4041c8de9374f0f7 7 +
	//	"cat sat" h 0xc64635f8cb0326b7 m 0xe261290a7d4ccf37 7 −
	//	"the dog" h 0x07fdc154f8c5dc5e m 0x1ab81ede967cb222 2 +
	//	"cat cat" h 0x3d61a5f87df506e7 m 0xb4b2a865edbc50ac 4 −
	//	x         h 0xaf63f54c86021707 m 0x06a4f9505be85405 5 +
	//	y         h 0xaf63f44c86021554 m 0xf4d1a410a048f56d 5 −
	//	"x y"     h 0xbeccb1197f2b3af4 m 0x3ffe2c472eefe934 4 +
	//	a         h 0xaf63dc4c8601ec8c m 0x82a2a958a9bece5b 3 −
	//	"the a"   h 0xebf7ae725e938b0f m 0xa42f5d56d340ada5 5 −
	// so the fitted df by column is 1:2 2:1 4:1 6:1 7:1 and 0 elsewhere.
	// Exact mode: the vocabulary sorted bytewise is
	//	0 cat, 1 "cat sat", 2 dog, 3 sat, 4 the, 5 "the cat", 6 "the dog".
	n := func(es ...entry) []entry { // divides by the Euclidean norm
		var ss float64
		for _, e := range es {
			ss += e.val * e.val
		}
		for i := range es {
			es[i].val /= math.Sqrt(ss)
		}
		return es
	}
	tests := []struct {
		name      string
		dim       int
		sublinear bool
		doc       string
		want      []entry
	}{
		{"exact", 0, false, "the cat sat", n(entry{0, k}, entry{1, k}, entry{3, k}, entry{4, 1}, entry{5, k})},
		{"exact repeated", 0, false, "dog dog the", n(entry{2, 2 * k}, entry{4, 1})},
		{"exact sublinear", 0, true, "dog dog the", n(entry{2, (1 + math.Ln2) * k}, entry{4, 1})},
		{"exact unknown n-grams ignored", 0, false, "The bird!", n(entry{4, 1})},
		{"exact only unknown", 0, false, "bird song", nil},
		{"exact empty", 0, false, "", nil},
		{"hashed collisions add", 8, false, "the cat sat", n(entry{1, -1}, entry{4, -k}, entry{7, (1 - 1 - 1) * k})},
		{"hashed", 8, false, "the dog", n(entry{1, -1}, entry{2, k}, entry{6, -k})},
		{"hashed opposite signs cancel", 8, false, "x y", n(entry{4, k})},
		{"hashed raw", 8, false, "the cat cat", n(entry{1, -1}, entry{4, (-2 - 1) * k}, entry{7, k})},
		{"hashed sublinear", 8, true, "the cat cat", n(entry{1, -1}, entry{4, (-(1 + math.Ln2) - 1) * k}, entry{7, k})},
		{"hashed untouched columns", 8, false, "the a", n(entry{1, -1}, entry{3, -u}, entry{5, -u})},
		{"hashed punctuation only", 8, false, "?!", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := text.Vectorizer{Dim: tc.dim, Sublinear: tc.sublinear}
			if err := v.Fit(corpus); err != nil {
				t.Fatal(err)
			}
			x, err := v.Transform([]string{tc.doc})
			if err != nil {
				t.Fatal(err)
			}
			if err := x.Check(); err != nil {
				t.Fatal(err)
			}
			if got := rowEntries(x, 0); !sameEntries(got, tc.want, 1e-15) {
				t.Errorf("Transform(%q) = %v, want %v", tc.doc, got, tc.want)
			}
		})
	}
	v := text.Vectorizer{}
	if err := v.Fit(corpus); err != nil {
		t.Fatal(err)
	}
	wantVocab := []string{"cat", "cat sat", "dog", "sat", "the", "the cat", "the dog"}
	if got := v.Vocabulary(); !slices.Equal(got, wantVocab) {
		t.Errorf("Vocabulary() = %q, want %q", got, wantVocab)
	}
	wantIDF := []float64{k, k, k, k, 1, k, k}
	if got := v.IDF(); !slices.Equal(got, wantIDF) {
		t.Errorf("IDF() = %v, want %v", got, wantIDF)
	}
	h := text.Vectorizer{Dim: 8}
	if err := h.Fit(corpus); err != nil {
		t.Fatal(err)
	}
	if got, want := h.IDF(), []float64{u, 1, k, u, k, u, k, k}; !slices.Equal(got, want) {
		t.Errorf("hashed IDF() = %v, want %v", got, want)
	}
	if h.Vocabulary() != nil {
		t.Errorf("hashed Vocabulary() = %q, want nil", h.Vocabulary())
	}
}

// randomCorpus returns n seeded pseudo-random documents over a small word
// list (so that n-grams repeat within and across documents), with capitals,
// punctuation, apostrophes and the odd empty document.
func randomCorpus(seed uint64, n int) []string {
	words := []string{"the", "a", "cat", "Dog", "what's", "balance", "my", "account", "transfer",
		"money", "to", "from", "how", "do", "i", "say", "hello", "in", "french", "café", "naïve",
		"book", "flight", "paris", "weather", "today", "2", "100", "don’t", "ΣΟΦΙΑ"}
	seps := []string{" ", " ", " ", ", ", "? ", " - ", "  ", "'"}
	r := rand.New(rand.NewPCG(seed, seed))
	docs := make([]string, n)
	for i := range docs {
		var b strings.Builder
		for k := range r.IntN(12) {
			if k > 0 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
			// Squaring a uniform skews towards the first words.
			u := r.Float64()
			b.WriteString(words[int(u*u*float64(len(words)))])
		}
		docs[i] = b.String()
	}
	return docs
}

// fmix64 is MurmurHash3's 64-bit finaliser, as published.
func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// reference computes the TF-IDF rows of docs after fitting on train, densely
// and directly from the definitions in the package documentation, with
// strings and hash/fnv.
func reference(train, docs []string, dim int, sublinear bool) [][]float64 {
	grams := func(doc string) []string {
		toks := text.Tokenize(doc)
		var gs []string
		for i, tok := range toks {
			gs = append(gs, tok)
			if i > 0 {
				gs = append(gs, toks[i-1]+" "+tok)
			}
		}
		return gs
	}
	var vocab []string
	if dim == 0 {
		set := map[string]bool{}
		for _, d := range train {
			for _, g := range grams(d) {
				set[g] = true
			}
		}
		for g := range set {
			vocab = append(vocab, g)
		}
		slices.Sort(vocab)
	}
	// column returns g's column and sign, or −1 for an unknown n-gram.
	column := func(g string) (int, float64) {
		if dim == 0 {
			j, ok := slices.BinarySearch(vocab, g)
			if !ok {
				return -1, 0
			}
			return j, 1
		}
		h := fnv.New64a()
		h.Write([]byte(g))
		m := fmix64(h.Sum64())
		s := 1.0
		if m>>63 == 1 {
			s = -1
		}
		return int(m % uint64(dim)), s
	}
	cols := dim
	if dim == 0 {
		cols = len(vocab)
	}
	df := make([]int, cols)
	for _, d := range train {
		touched := map[int]bool{}
		for _, g := range grams(d) {
			if j, _ := column(g); j >= 0 {
				touched[j] = true
			}
		}
		for j := range touched {
			df[j]++
		}
	}
	rows := make([][]float64, len(docs))
	for i, d := range docs {
		count := map[string]int{}
		for _, g := range grams(d) {
			count[g]++
		}
		distinct := make([]string, 0, len(count))
		for g := range count {
			distinct = append(distinct, g)
		}
		slices.Sort(distinct)
		row := make([]float64, cols)
		for _, g := range distinct {
			j, s := column(g)
			if j < 0 {
				continue
			}
			tf := float64(count[g])
			if sublinear {
				tf = 1 + math.Log(tf)
			}
			row[j] += s * tf
		}
		var ss float64
		for j := range row {
			row[j] *= math.Log(float64(1+len(train))/float64(1+df[j])) + 1
			ss += row[j] * row[j]
		}
		for j := range row {
			if ss > 0 {
				row[j] /= math.Sqrt(ss)
			}
		}
		rows[i] = row
	}
	return rows
}

// TestAgainstReference compares Transform with the direct definition on
// seeded random corpora, in both modes, with unseen documents.
func TestAgainstReference(t *testing.T) {
	for _, dim := range []int{0, 1, 7, 64, 1024} {
		for _, sublinear := range []bool{false, true} {
			t.Run(fmt.Sprintf("dim=%d/sublinear=%v", dim, sublinear), func(t *testing.T) {
				train, test := randomCorpus(1, 300), randomCorpus(2, 100)
				v := text.Vectorizer{Dim: dim, Sublinear: sublinear}
				if err := v.Fit(train); err != nil {
					t.Fatal(err)
				}
				x, err := v.Transform(test)
				if err != nil {
					t.Fatal(err)
				}
				if err := x.Check(); err != nil {
					t.Fatal(err)
				}
				want := reference(train, test, dim, sublinear)
				if r, c := x.Dims(); r != len(test) || c != len(want[0]) {
					t.Fatalf("Transform gives %d×%d, want %d×%d", r, c, len(test), len(want[0]))
				}
				for i := range want {
					ind, val := x.Row(i)
					for k, j := range ind {
						if val[k] == 0 {
							t.Errorf("row %d stores an explicit zero at column %d", i, j)
						}
					}
					for j, w := range want[i] {
						if got := x.At(i, j); math.Abs(got-w) > 1e-14 {
							t.Fatalf("doc %q column %d: %v, want %v", test[i], j, got, w)
						}
					}
				}
			})
		}
	}
}

// TestRowNorms checks that every row is either of unit norm or, exactly when
// the document has no (known) n-gram, zero; and that nothing is NaN.
func TestRowNorms(t *testing.T) {
	docs := append(randomCorpus(3, 500), "", "   ", "?!?", "'", "\u00a0")
	for _, dim := range []int{0, 1024} {
		v := text.Vectorizer{Dim: dim}
		x, err := v.FitTransform(docs)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range docs {
			norm2 := x.RowNorm2(i)
			if empty := len(text.Tokenize(d)) == 0; empty {
				if norm2 != 0 {
					t.Errorf("Dim %d: empty document %q has squared norm %v", dim, d, norm2)
				}
				continue
			}
			if math.Abs(norm2-1) > 1e-14 {
				t.Errorf("Dim %d: document %q has squared norm %v", dim, d, norm2)
			}
		}
		for _, val := range x.Val {
			if math.IsNaN(val) || math.IsInf(val, 0) {
				t.Fatalf("Dim %d: non-finite value %v", dim, val)
			}
		}
	}
}

// TestHashedMatchesExact checks the hashing mode against the exact mode:
// with a Dim so large that the corpus's n-grams do not collide, hashed rows
// are the exact rows with columns permuted and some signs flipped, so every
// inner product between rows agrees.
func TestHashedMatchesExact(t *testing.T) {
	train, test := randomCorpus(4, 200), randomCorpus(5, 50)
	exact := text.Vectorizer{}
	if err := exact.Fit(train); err != nil {
		t.Fatal(err)
	}
	hashed := text.Vectorizer{Dim: 1 << 20}
	if err := hashed.Fit(train); err != nil {
		t.Fatal(err)
	}
	// The premise: no two vocabulary n-grams share a column.
	cols := map[uint64]string{}
	for _, g := range exact.Vocabulary() {
		h := fnv.New64a()
		h.Write([]byte(g))
		c := fmix64(h.Sum64()) % (1 << 20)
		if other, ok := cols[c]; ok {
			t.Fatalf("n-grams %q and %q collide; choose another corpus", g, other)
		}
		cols[c] = g
	}
	// Keep only test documents whose n-grams are all in the vocabulary: the
	// hashing mode, unlike the exact one, keeps unseen n-grams.
	known := map[string]bool{}
	for _, g := range exact.Vocabulary() {
		known[g] = true
	}
	var docs []string
	for _, d := range append(train[:50], test...) {
		toks, ok := text.Tokenize(d), true
		for i, tok := range toks {
			ok = ok && known[tok] && (i == 0 || known[toks[i-1]+" "+tok])
		}
		if ok {
			docs = append(docs, d)
		}
	}
	if len(docs) < 60 {
		t.Fatalf("only %d usable documents", len(docs))
	}
	xe, err := exact.Transform(docs)
	if err != nil {
		t.Fatal(err)
	}
	xh, err := hashed.Transform(docs)
	if err != nil {
		t.Fatal(err)
	}
	dot := func(x *sparse.CSR, i, j int) float64 { // merge of two sorted rows
		ia, va := x.Row(i)
		ib, vb := x.Row(j)
		var s float64
		for a, b := 0, 0; a < len(ia) && b < len(ib); {
			switch {
			case ia[a] < ib[b]:
				a++
			case ia[a] > ib[b]:
				b++
			default:
				s += va[a] * vb[b]
				a, b = a+1, b+1
			}
		}
		return s
	}
	for i := range docs {
		for j := range docs {
			if e, h := dot(xe, i, j), dot(xh, i, j); math.Abs(e-h) > 1e-14 {
				t.Fatalf("<%q, %q>: exact %v, hashed %v", docs[i], docs[j], e, h)
			}
		}
	}
}

// TestDeterminism checks that fitting twice gives identical weights and
// rows, that a row does not depend on the other documents or on their order,
// and that Transform is safe to call from several goroutines.
func TestDeterminism(t *testing.T) {
	docs := randomCorpus(6, 400)
	for _, dim := range []int{0, 256} {
		for _, sublinear := range []bool{false, true} {
			v1 := text.Vectorizer{Dim: dim, Sublinear: sublinear}
			v2 := v1
			x1, err := v1.FitTransform(docs)
			if err != nil {
				t.Fatal(err)
			}
			x2, err := v2.FitTransform(docs)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(v1.IDF(), v2.IDF()) || !sameCSR(x1, x2) {
				t.Fatalf("Dim %d: two fits differ", dim)
			}
			if v1.Dim != dim || v1.Sublinear != sublinear {
				t.Fatalf("Fit changed hyperparameters to Dim %d Sublinear %v", v1.Dim, v1.Sublinear)
			}
			// Reversed order: rows reversed, bit for bit.
			rev := slices.Clone(docs)
			slices.Reverse(rev)
			xr, err := v1.Transform(rev)
			if err != nil {
				t.Fatal(err)
			}
			perm := make([]int, len(docs))
			for i := range perm {
				perm[i] = len(docs) - 1 - i
			}
			if !sameCSR(xr, x1.SelectRows(perm)) {
				t.Fatalf("Dim %d: rows depend on document order", dim)
			}
			// Concurrent transforms agree with the sequential one.
			results := make([]*sparse.CSR, 4)
			errs := make(chan error, len(results))
			for g := range results {
				go func() {
					var err error
					results[g], err = v1.Transform(docs)
					errs <- err
				}()
			}
			for range results {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
			}
			for _, x := range results {
				if !sameCSR(x, x1) {
					t.Fatalf("Dim %d: concurrent Transform differs", dim)
				}
			}
		}
	}
}

// sameCSR reports whether a and b are identical, bit for bit.
func sameCSR(a, b *sparse.CSR) bool {
	return a.R == b.R && a.C == b.C && slices.Equal(a.Ptr, b.Ptr) && slices.Equal(a.Ind, b.Ind) && slices.Equal(a.Val, b.Val)
}

func TestErrors(t *testing.T) {
	fitted := text.Vectorizer{Dim: 16}
	if err := fitted.Fit([]string{"a b", "c"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"negative Dim", func() error { v := text.Vectorizer{Dim: -1}; return v.Fit([]string{"a"}) }, "Dim -1 out of range"},
		{"huge Dim", func() error { v := text.Vectorizer{Dim: text.MaxDim + 1}; return v.Fit([]string{"a"}) }, "out of range"},
		{"no documents", func() error { v := text.Vectorizer{Dim: 4}; return v.Fit(nil) }, "at least one document"},
		{"invalid UTF-8 in Fit", func() error { v := text.Vectorizer{Dim: 4}; return v.Fit([]string{"ok", "bad \xff"}) }, "document 1 is not valid UTF-8"},
		{"empty vocabulary", func() error { v := text.Vectorizer{}; return v.Fit([]string{"", "?!"}) }, "empty vocabulary"},
		{"invalid UTF-8 in Transform", func() error { _, err := fitted.Transform([]string{"\xc3"}); return err }, "document 0 is not valid UTF-8"},
		{"Dim changed", func() error {
			v := fitted
			v.Dim = 32
			_, err := v.Transform([]string{"a"})
			return err
		}, "fitted with Dim 16"},
	}
	for _, tc := range tests {
		err := tc.run()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	var v text.Vectorizer
	if _, err := v.Transform([]string{"a"}); !errors.Is(err, text.ErrNotFitted) {
		t.Errorf("Transform before Fit: %v, want ErrNotFitted", err)
	}
	// A failed Fit keeps the previous fit.
	before := fitted.IDF()
	if err := fitted.Fit([]string{"\xff"}); err == nil {
		t.Fatal("Fit accepted invalid UTF-8")
	}
	if !slices.Equal(fitted.IDF(), before) {
		t.Error("a failed Fit changed the fitted state")
	}
	// The hashing mode accepts documents without tokens: every IDF is then ln(1+n)+1.
	h := text.Vectorizer{Dim: 4}
	x, err := h.FitTransform([]string{"", "!"})
	if err != nil {
		t.Fatal(err)
	}
	if x.NNZ() != 0 || !slices.Equal(h.IDF(), slices.Repeat([]float64{math.Log(3) + 1}, 4)) {
		t.Errorf("token-free corpus: nnz %d, IDF %v", x.NNZ(), h.IDF())
	}
}

// TestNilAndZeroVectorizer: every method of a nil *Vectorizer but
// MarshalJSON (a value method) returns an error or nil rather than
// panicking, and a zero Vectorizer is an unfitted one in exact mode.
func TestNilAndZeroVectorizer(t *testing.T) {
	var nilV *text.Vectorizer
	for name, f := range map[string]func() error{
		"Fit":          func() error { return nilV.Fit([]string{"a"}) },
		"FitTransform": func() error { _, err := nilV.FitTransform([]string{"a"}); return err },
		"Transform":    func() error { _, err := nilV.Transform([]string{"a"}); return err },
		"UnmarshalJSON": func() error {
			return nilV.UnmarshalJSON([]byte(`{"dim":4,"sublinear":false,"docs":0}`))
		},
		"IDF": func() error {
			if idf := nilV.IDF(); idf != nil {
				return fmt.Errorf("IDF %v", idf)
			}
			return errors.New("nil")
		},
		"Vocabulary": func() error {
			if voc := nilV.Vocabulary(); voc != nil {
				return fmt.Errorf("Vocabulary %v", voc)
			}
			return errors.New("nil")
		},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s of a nil *Vectorizer panics: %v", name, r)
				}
			}()
			if err := f(); err == nil {
				t.Errorf("%s of a nil *Vectorizer: no error", name)
			} else if name == "Transform" && !errors.Is(err, text.ErrNotFitted) {
				t.Errorf("Transform of a nil *Vectorizer: %v, want ErrNotFitted", err)
			}
		}()
	}
	if b, err := json.Marshal(nilV); err != nil || string(b) != "null" {
		t.Errorf("json.Marshal of a nil *Vectorizer = %s, %v", b, err)
	}
	var zero text.Vectorizer
	if zero.IDF() != nil || zero.Vocabulary() != nil {
		t.Error("a zero Vectorizer has a fitted state")
	}
	if _, err := zero.Transform(nil); !errors.Is(err, text.ErrNotFitted) {
		t.Errorf("Transform of a zero Vectorizer: %v, want ErrNotFitted", err)
	}
	if b, err := json.Marshal(zero); err != nil || string(b) != `{"dim":0,"sublinear":false}` {
		t.Errorf("json.Marshal of a zero Vectorizer = %s, %v", b, err)
	}
	if x, err := zero.FitTransform([]string{"a b"}); err != nil || x.R != 1 || x.C != 3 {
		t.Errorf("FitTransform of a zero Vectorizer: %v, %v", x, err)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	train, test := randomCorpus(7, 200), randomCorpus(8, 100)
	for _, dim := range []int{0, 64} {
		v := text.Vectorizer{Dim: dim, Sublinear: true}
		if err := v.Fit(train); err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(&v)
		if err != nil {
			t.Fatal(err)
		}
		// A value (say, a field of a saved model) marshals the same way.
		byValue, err := json.Marshal(struct{ V text.Vectorizer }{v})
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"V":` + string(data) + `}`; string(byValue) != want {
			t.Fatalf("Dim %d: marshalling a value gives %.80s..., want %.80s...", dim, byValue, want)
		}
		var w text.Vectorizer
		if err := json.Unmarshal(data, &w); err != nil {
			t.Fatal(err)
		}
		if w.Dim != dim || !w.Sublinear || !slices.Equal(w.IDF(), v.IDF()) || !slices.Equal(w.Vocabulary(), v.Vocabulary()) {
			t.Fatalf("Dim %d: round trip changed the model", dim)
		}
		x1, err := v.Transform(test)
		if err != nil {
			t.Fatal(err)
		}
		x2, err := w.Transform(test)
		if err != nil {
			t.Fatal(err)
		}
		if !sameCSR(x1, x2) {
			t.Fatalf("Dim %d: restored model transforms differently", dim)
		}
	}
	// An unfitted Vectorizer round-trips to an unfitted one.
	data, err := json.Marshal(&text.Vectorizer{Dim: 5})
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"dim":5,"sublinear":false}` {
		t.Errorf("unfitted JSON %s", data)
	}
	var u text.Vectorizer
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	if _, err := u.Transform([]string{"a"}); !errors.Is(err, text.ErrNotFitted) || u.Dim != 5 {
		t.Errorf("restored unfitted Vectorizer: Dim %d, Transform error %v", u.Dim, err)
	}
}

func TestUnmarshalRejects(t *testing.T) {
	maxIDF := math.Log(3) + 1
	tests := []struct{ name, json, want string }{
		{"unknown field", `{"dim":2,"idf":[1,1],"docs":2,"extra":1}`, "unknown field"},
		{"negative dim", `{"dim":-2}`, "out of range"},
		{"hashed idf length", `{"dim":3,"docs":2,"idf":[1,1]}`, "has 2 IDF weights"},
		{"hashed with vocabulary", `{"dim":1,"docs":2,"idf":[1],"vocabulary":["a"]}`, "1 vocabulary entries"},
		{"exact length", `{"dim":0,"docs":2,"idf":[1],"vocabulary":["a","b"]}`, "1 IDF weights for 2"},
		{"exact unsorted", `{"dim":0,"docs":2,"idf":[1,1],"vocabulary":["b","a"]}`, "is not after"},
		{"exact duplicate", `{"dim":0,"docs":2,"idf":[1,1],"vocabulary":["a","a"]}`, "is not after"},
		{"idf below 1", `{"dim":1,"docs":2,"idf":[0.5]}`, "outside [1,"},
		{"idf above max", fmt.Sprintf(`{"dim":1,"docs":2,"idf":[%v]}`, math.Nextafter(maxIDF, 10)), "outside [1,"},
		{"idf without docs", `{"dim":1,"idf":[1]}`, "0 training documents"},
		{"not an object", `[1,2]`, "decoding Vectorizer"},
	}
	for _, tc := range tests {
		var v text.Vectorizer
		err := json.Unmarshal([]byte(tc.json), &v)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// JSON null leaves a fitted Vectorizer alone.
	fitted := text.Vectorizer{Dim: 4}
	if err := fitted.Fit([]string{"a"}); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte("null"), &fitted); err != nil || fitted.Dim != 4 || fitted.IDF() == nil {
		t.Errorf("null: error %v, Dim %d, IDF %v", err, fitted.Dim, fitted.IDF())
	}
	// The largest weight a fit can produce is accepted.
	var v text.Vectorizer
	if err := json.Unmarshal(fmt.Appendf(nil, `{"dim":1,"docs":2,"idf":[%v]}`, maxIDF), &v); err != nil {
		t.Errorf("maximal IDF rejected: %v", err)
	}
}

func ExampleVectorizer() {
	v := text.Vectorizer{} // Dim 0: exact vocabulary, to show the columns
	x, err := v.FitTransform([]string{"What's the weather?", "the weather today"})
	if err != nil {
		fmt.Println(err)
		return
	}
	vocab := v.Vocabulary()
	ind, val := x.Row(0)
	for k, j := range ind {
		fmt.Printf("%-13q %.4f\n", vocab[j], val[k])
	}
	// Output:
	// "the"         0.3793
	// "the weather" 0.3793
	// "weather"     0.3793
	// "whats"       0.5331
	// "whats the"   0.5331
}
