package text

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/sparse"
)

// MaxDim is the largest number of hash buckets a Vectorizer accepts. Fit
// allocates a few words per bucket, so the cap keeps a mistyped Dim from
// exhausting memory.
const MaxDim = 1 << 24

// ErrNotFitted is returned by Transform when the Vectorizer has not been
// fitted (by Fit, FitTransform or json.Unmarshal of a fitted model), a nil
// *Vectorizer included.
var ErrNotFitted = errors.New("text: Vectorizer is not fitted")

// Vectorizer turns documents into L2-normalised TF-IDF vectors of their
// unigrams and bigrams (see the package documentation for every formula).
//
// The exported fields are hyperparameters: set them before Fit; Fit does not
// change them. The fitted state (the IDF weights and, in exact-vocabulary
// mode, the vocabulary) is kept apart; it is read by IDF and Vocabulary and
// saved and restored with encoding/json.
//
// Transform may be called from several goroutines at once; Fit and
// json.Unmarshal must not run concurrently with any other method.
//
// The zero Vectorizer is an unfitted one in exact-vocabulary mode. A nil
// *Vectorizer is an unfitted one that cannot be fitted: Fit and
// UnmarshalJSON return an error, Transform ErrNotFitted, IDF and
// Vocabulary nil; only MarshalJSON, whose receiver is a value, panics
// when called directly on it (json.Marshal writes null).
type Vectorizer struct {
	// Dim is the number of hash buckets, i.e. output columns (1..MaxDim).
	// Dim 0 selects exact-vocabulary mode: one column per distinct n-gram
	// seen by Fit, in lexicographic byte order, without hashing.
	Dim int
	// Sublinear replaces an n-gram's raw count tf in a document by 1+ln(tf).
	Sublinear bool

	fit *fitted // nil until fitted
}

// fitted is the learned state of a Vectorizer. It is never modified after
// construction, so Transform can share it between goroutines.
type fitted struct {
	dim   int            // Dim at fit time
	docs  int            // number of training documents
	vocab []string       // exact mode: the sorted vocabulary; nil in hashing mode
	index map[string]int // exact mode: vocab[index[g]] == g
	idf   []float64      // one weight per column
}

// Fit learns the IDF weights (and, when Dim is 0, the vocabulary) from docs.
// It returns an error, leaving any previous fit in place, when Dim is out of
// range, docs is empty, a document is not valid UTF-8, or, in
// exact-vocabulary mode, no document has a token, and when v is nil.
func (v *Vectorizer) Fit(docs []string) error {
	if v == nil {
		return errors.New("text: Fit of a nil *Vectorizer")
	}
	if err := v.check(); err != nil {
		return err
	}
	if len(docs) == 0 {
		return errors.New("text: Fit needs at least one document")
	}
	if err := checkUTF8(docs); err != nil {
		return err
	}
	var f *fitted
	var err error
	if v.Dim > 0 {
		f = fitHashed(docs, v.Dim)
	} else if f, err = fitExact(docs); err != nil {
		return err
	}
	v.fit = f
	return nil
}

// fitHashed returns the hashing-mode state for docs: df of a bucket is the
// number of documents with at least one n-gram in that bucket.
func fitHashed(docs []string, dim int) *fitted {
	df := make([]int, dim)
	last := make([]int, dim) // 1 + index of the last document counted in df
	var t tokenizer
	for i, d := range docs {
		t.split(d)
		t.eachHash(func(h uint64) {
			b, _ := bucket(h, dim)
			if last[b] != i+1 {
				last[b] = i + 1
				df[b]++
			}
		})
	}
	return &fitted{dim: dim, docs: len(docs), idf: smoothIDF(df, len(docs))}
}

// fitExact returns the exact-vocabulary state for docs.
func fitExact(docs []string) (*fitted, error) {
	type entry struct{ df, last int }
	seen := make(map[string]*entry)
	var t tokenizer
	var scratch []byte
	for i, d := range docs {
		t.split(d)
		t.eachGram(&scratch, func(g []byte) {
			e, ok := seen[string(g)]
			if !ok {
				seen[string(g)] = &entry{df: 1, last: i}
				return
			}
			if e.last != i {
				e.last = i
				e.df++
			}
		})
	}
	if len(seen) == 0 {
		return nil, errors.New("text: empty vocabulary: no document has a token")
	}
	f := &fitted{docs: len(docs), vocab: make([]string, 0, len(seen)), index: make(map[string]int, len(seen))}
	for g := range seen {
		f.vocab = append(f.vocab, g)
	}
	slices.Sort(f.vocab)
	df := make([]int, len(f.vocab))
	for j, g := range f.vocab {
		f.index[g] = j
		df[j] = seen[g].df
	}
	f.idf = smoothIDF(df, len(docs))
	return f, nil
}

// smoothIDF returns ln((1+n)/(1+df)) + 1 for every document frequency.
func smoothIDF(df []int, n int) []float64 {
	idf := make([]float64, len(df))
	for j, d := range df {
		idf[j] = math.Log(float64(1+n)/float64(1+d)) + 1
	}
	return idf
}

// Transform returns the TF-IDF matrix of docs: row i is document i, with
// Dim columns (hashing mode) or one column per vocabulary n-gram (exact
// mode; n-grams Fit did not see are ignored). Rows have unit Euclidean norm,
// except that a document without any (known) n-gram gives a zero row. It
// returns ErrNotFitted before Fit, and an error when Dim changed since Fit
// or a document is not valid UTF-8.
func (v *Vectorizer) Transform(docs []string) (*sparse.CSR, error) {
	if v == nil || v.fit == nil {
		return nil, ErrNotFitted
	}
	f := v.fit
	if v.Dim != f.dim {
		return nil, fmt.Errorf("text: Dim is %d but the Vectorizer was fitted with Dim %d", v.Dim, f.dim)
	}
	if err := checkUTF8(docs); err != nil {
		return nil, err
	}
	out := &sparse.CSR{R: len(docs), C: len(f.idf), Ptr: make([]int, len(docs)+1)}
	b := newRowBuilder(f, v.Sublinear)
	for i, d := range docs {
		out.Ind, out.Val = b.appendRow(out.Ind, out.Val, d)
		out.Ptr[i+1] = len(out.Ind)
	}
	return out, nil
}

// FitTransform is Fit followed by Transform on the same documents.
func (v *Vectorizer) FitTransform(docs []string) (*sparse.CSR, error) {
	if err := v.Fit(docs); err != nil {
		return nil, err
	}
	return v.Transform(docs)
}

// IDF returns a copy of the fitted IDF weights, one per output column, or
// nil when the Vectorizer is not fitted.
func (v *Vectorizer) IDF() []float64 {
	if v == nil || v.fit == nil {
		return nil
	}
	return slices.Clone(v.fit.idf)
}

// Vocabulary returns a copy of the fitted vocabulary in exact-vocabulary
// mode (n-gram j names column j; a bigram is its two tokens joined by one
// space), or nil in hashing mode or when the Vectorizer is not fitted.
func (v *Vectorizer) Vocabulary() []string {
	if v == nil || v.fit == nil {
		return nil
	}
	return slices.Clone(v.fit.vocab)
}

// check validates the hyperparameters.
func (v *Vectorizer) check() error {
	if v.Dim < 0 || v.Dim > MaxDim {
		return fmt.Errorf("text: Dim %d out of range [0, %d]", v.Dim, MaxDim)
	}
	return nil
}

// checkUTF8 returns an error naming the first document that is not valid UTF-8.
func checkUTF8(docs []string) error {
	for i, d := range docs {
		if !utf8.ValidString(d) {
			return fmt.Errorf("text: document %d is not valid UTF-8", i)
		}
	}
	return nil
}

// rowBuilder computes TF-IDF rows one document at a time, reusing its
// buffers. It is not safe for concurrent use; Transform makes one per call.
type rowBuilder struct {
	f         *fitted
	sublinear bool

	tok     tokenizer
	scratch []byte         // bigram bytes in exact mode
	slot    map[uint64]int // n-gram key → index in keys and counts
	keys    []uint64       // distinct n-gram keys in order of first occurrence
	counts  []int          // occurrences of keys[k] in the document
	acc     []float64      // per-column sum of signed tf, all zero between rows
	used    []bool         // whether a column is in touched
	touched []int          // columns with a contribution in this row
}

func newRowBuilder(f *fitted, sublinear bool) *rowBuilder {
	return &rowBuilder{
		f:         f,
		sublinear: sublinear,
		slot:      make(map[uint64]int),
		acc:       make([]float64, len(f.idf)),
		used:      make([]bool, len(f.idf)),
	}
}

// count records one occurrence of the n-gram with the given key: its FNV-1a
// hash in hashing mode (n-grams are identified by their 64-bit hash), its
// column in exact mode.
func (b *rowBuilder) count(key uint64) {
	k, ok := b.slot[key]
	if !ok {
		k = len(b.keys)
		b.slot[key] = k
		b.keys = append(b.keys, key)
		b.counts = append(b.counts, 0)
	}
	b.counts[k]++
}

// appendRow appends the non-zero entries of doc's TF-IDF row, in increasing
// column order, to ind and val.
func (b *rowBuilder) appendRow(ind []int, val []float64, doc string) ([]int, []float64) {
	f := b.f
	b.tok.split(doc)
	if f.dim > 0 {
		b.tok.eachHash(b.count)
	} else {
		b.tok.eachGram(&b.scratch, func(g []byte) {
			if j, ok := f.index[string(g)]; ok {
				b.count(uint64(j))
			}
		})
	}
	// Sum the signed term frequencies per column, in first-occurrence order
	// so that the floating-point result does not depend on map order.
	for k, key := range b.keys {
		col, sign := int(key), 1.0
		if f.dim > 0 {
			col, sign = bucket(key, f.dim)
		}
		tf := float64(b.counts[k])
		if b.sublinear {
			tf = 1 + math.Log(tf)
		}
		if !b.used[col] {
			b.used[col] = true
			b.touched = append(b.touched, col)
		}
		b.acc[col] += sign * tf
	}
	slices.Sort(b.touched)
	start := len(val)
	var ss float64
	for _, col := range b.touched {
		x := b.acc[col] * f.idf[col]
		b.acc[col], b.used[col] = 0, false
		if x != 0 { // hashed n-grams of opposite signs may cancel
			ind = append(ind, col)
			val = append(val, x)
			ss += x * x
		}
	}
	if ss > 0 {
		norm := math.Sqrt(ss)
		for j := start; j < len(val); j++ {
			val[j] /= norm
		}
	}
	clear(b.slot)
	b.keys, b.counts, b.touched = b.keys[:0], b.counts[:0], b.touched[:0]
	return ind, val
}

// vectorizerJSON is the saved form of a Vectorizer.
type vectorizerJSON struct {
	Dim        int       `json:"dim"`
	Sublinear  bool      `json:"sublinear"`
	Docs       int       `json:"docs,omitempty"`       // training documents; 0 = not fitted
	Vocabulary []string  `json:"vocabulary,omitempty"` // exact mode only
	IDF        []float64 `json:"idf,omitempty"`
}

// MarshalJSON encodes the hyperparameters and, when fitted, the number of
// training documents, the IDF weights and the vocabulary (exact mode) as
//
//	{"dim":1024,"sublinear":false,"docs":23700,"idf":[...]}
//
// Floats are written so that they read back exactly. It returns an error
// when Dim changed since Fit.
func (v Vectorizer) MarshalJSON() ([]byte, error) {
	s := vectorizerJSON{Dim: v.Dim, Sublinear: v.Sublinear}
	if f := v.fit; f != nil {
		if v.Dim != f.dim {
			return nil, fmt.Errorf("text: Dim is %d but the Vectorizer was fitted with Dim %d", v.Dim, f.dim)
		}
		s.Docs, s.Vocabulary, s.IDF = f.docs, f.vocab, f.idf
	}
	return json.Marshal(s)
}

// UnmarshalJSON restores a Vectorizer saved by MarshalJSON. It returns an
// error for unknown fields and for a state Fit cannot have produced: Dim out
// of range, an IDF length that does not match Dim or the vocabulary, a
// vocabulary that is not strictly increasing, or an IDF weight outside
// [1, ln(1+docs)+1], and when v is nil (JSON null included). JSON null
// leaves a non-nil v unchanged.
func (v *Vectorizer) UnmarshalJSON(data []byte) error {
	if v == nil {
		return errors.New("text: UnmarshalJSON into a nil *Vectorizer")
	}
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var s vectorizerJSON
	if err := jsonfile.Unmarshal(data, &s); err != nil { // an unknown member: *jsonfile.UnknownMemberError
		return fmt.Errorf("text: decoding Vectorizer: %w", err)
	}
	w := Vectorizer{Dim: s.Dim, Sublinear: s.Sublinear}
	if err := w.check(); err != nil {
		return err
	}
	if s.Docs == 0 && s.IDF == nil && s.Vocabulary == nil {
		*v = w // hyperparameters only
		return nil
	}
	if s.Docs < 1 {
		return fmt.Errorf("text: fitted Vectorizer with %d training documents", s.Docs)
	}
	f := &fitted{dim: s.Dim, docs: s.Docs, idf: s.IDF}
	if s.Dim > 0 {
		if len(s.IDF) != s.Dim || len(s.Vocabulary) != 0 {
			return fmt.Errorf("text: hashing Vectorizer with Dim %d has %d IDF weights and %d vocabulary entries", s.Dim, len(s.IDF), len(s.Vocabulary))
		}
	} else {
		if len(s.IDF) == 0 || len(s.IDF) != len(s.Vocabulary) {
			return fmt.Errorf("text: exact-vocabulary Vectorizer has %d IDF weights for %d vocabulary entries", len(s.IDF), len(s.Vocabulary))
		}
		f.vocab, f.index = s.Vocabulary, make(map[string]int, len(s.Vocabulary))
		for j, g := range s.Vocabulary {
			if j > 0 && g <= s.Vocabulary[j-1] {
				return fmt.Errorf("text: vocabulary entry %d (%q) is not after %q", j, g, s.Vocabulary[j-1])
			}
			f.index[g] = j
		}
	}
	maxIDF := math.Log(float64(1+s.Docs)) + 1
	for j, x := range s.IDF {
		if !(x >= 1 && x <= maxIDF) { // also rejects NaN
			return fmt.Errorf("text: IDF weight %d is %v, outside [1, %v]", j, x, maxIDF)
		}
	}
	w.fit = f
	*v = w
	return nil
}
