// Package text turns short documents into feature vectors: a deterministic,
// hashed, unigram+bigram TF-IDF featuriser. It is what makes the embedded
// CLINC150 intent data (package clinc150) usable by the linear learners.
//
// # Tokens
//
// A document must be valid UTF-8. Tokenize splits it into tokens:
//
//   - a token is a maximal run of letters, decimal digits and combining marks
//     (unicode.IsLetter, unicode.IsDigit, unicode.IsMark; marks are kept so
//     that a decomposed "é" stays inside its word);
//   - an apostrophe (' or ’) with a token character on both sides is dropped
//     and joins the two parts: "what's", "what’s" and "whats" are all the
//     token "whats", "don't" is "dont". Every other character (space,
//     punctuation, symbols, the underscore, a quote at a word's edge)
//     separates tokens: "e-mail" gives "e" and "mail", "3.5" gives "3" and "5";
//   - each rune is lower-cased with unicode.ToLower (simple case mapping,
//     no Unicode normalisation);
//   - single-character tokens are kept ("i", "a"); scripts written without
//     spaces are not segmented.
//
// The n-grams of a document with tokens t₁…t_k are its k unigrams tᵢ and its
// k−1 bigrams "tᵢ tᵢ₊₁" (the two tokens joined by one space).
//
// # Columns
//
// In hashing mode (Vectorizer.Dim > 0, the default use) an n-gram g is
// hashed with 64-bit FNV-1a (hash/fnv.New64a) over its UTF-8 bytes, h(g),
// and the result is passed through MurmurHash3's 64-bit finaliser fmix64, a
// bijection, m(g) = fmix64(h(g)). Its column is m(g) mod Dim and its sign
// s(g) is −1 when the top bit of m(g) is set, +1 otherwise. The finaliser is
// needed because the low k bits of FNV-1a depend only on the low k bits of
// its state: with h(g) mod 2^k, whenever the unigrams "a" and "c" shared a
// column, every pair of bigrams "a b" and "c b" would too.
//
// Signed hashing, like scikit-learn's HashingVectorizer with
// alternate_sign=True, makes colliding n-grams cancel on average instead of
// piling up: before IDF weighting, inner products of hashed count vectors
// are unbiased estimates of the unhashed ones (Weinberger et al., 2009).
// Collisions are a fixed function of the n-gram strings and Dim: the same
// n-grams always share a column, on every machine. Within a document,
// n-grams are told apart by their 64-bit hash h(g).
//
// In exact-vocabulary mode (Dim == 0) every distinct n-gram seen by Fit gets
// its own column, in lexicographic byte order, with sign +1; n-grams not seen
// by Fit are ignored by Transform. This mode reproduces scikit-learn's
// TfidfVectorizer and serves as the reference the hashing mode is tested
// against.
//
// # Weights
//
// For a document d, with tf(g) the number of times n-gram g occurs in d
// (or 1+ln tf(g) when Vectorizer.Sublinear is set), column j of its row is
//
//	x_j = idf_j · Σ_{g in d, column(g) = j} s(g)·tf(g)
//
// and the row is then divided by its Euclidean norm. A row that is zero (no
// tokens, no known n-gram in exact mode, or, rarely, hashed n-grams that
// cancel exactly) stays zero: no NaN is produced. Fit learns
//
//	idf_j = ln((1+n)/(1+df_j)) + 1
//
// from n training documents, where df_j is the number of training documents
// with at least one n-gram in column j (scikit-learn's smooth_idf). A column
// no training document touched gets the largest weight, ln(1+n)+1.
//
// In exact mode with Tokenize as tokenizer the result equals scikit-learn's
// TfidfVectorizer(tokenizer=str.split, lowercase=False, ngram_range=(1, 2),
// smooth_idf=True, norm="l2", sublinear_tf=Sublinear) applied to the
// space-joined tokens. The hashing mode corresponds to HashingVectorizer
// followed by TfidfTransformer, except for the hash function (FNV-1a and
// fmix64, not MurmurHash3 of the string), the sign bit, sublinear tf being applied per n-gram before
// hashing, and df counting documents that touch a column.
//
// # Saving
//
// A fitted Vectorizer marshals to JSON (hyperparameters, number of training
// documents, IDF weights and, in exact mode, the vocabulary) and unmarshals
// back to one that transforms bit for bit the same way.
//
// # Example
//
//	v := text.Vectorizer{Dim: 1024}
//	X, err := v.FitTransform(queries) // *sparse.CSR, len(queries) × 1024
//	...
//	Xtest, err := v.Transform(testQueries)
package text
