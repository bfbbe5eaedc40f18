package text

import (
	"unicode"
	"unicode/utf8"
)

// Tokenize returns the tokens of s in order, as the Vectorizer sees them:
// lower-cased runs of letters, digits and combining marks, with an
// apostrophe (' or ’) between two such characters removed so that
// "What's" and "whats" are the same token "whats". Every other character,
// and every byte of invalid UTF-8, separates tokens. See the package
// documentation for the full rule.
func Tokenize(s string) []string {
	var t tokenizer
	t.split(s)
	toks := make([]string, len(t.ends))
	start := 0
	for i, end := range t.ends {
		toks[i] = string(t.buf[start:end])
		start = end
	}
	return toks
}

// tokenizer splits a document into lower-cased tokens stored back to back in
// buf; token i is buf[start(i):ends[i]]. Its buffers are reused across calls.
type tokenizer struct {
	buf  []byte
	ends []int
}

// token returns token i.
func (t *tokenizer) token(i int) []byte {
	start := 0
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.buf[start:t.ends[i]]
}

// split tokenises s into t, replacing its previous content.
func (t *tokenizer) split(s string) {
	t.buf, t.ends = t.buf[:0], t.ends[:0]
	in := false // inside a token
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case isWordRune(r):
			if r < utf8.RuneSelf {
				if 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				t.buf = append(t.buf, byte(r))
			} else {
				t.buf = utf8.AppendRune(t.buf, unicode.ToLower(r))
			}
			in = true
		case in && isApostrophe(r) && startsWithWordRune(s[i+n:]):
			// An apostrophe inside a word joins its two parts.
		default:
			if in {
				t.ends = append(t.ends, len(t.buf))
				in = false
			}
		}
		i += n
	}
	if in {
		t.ends = append(t.ends, len(t.buf))
	}
}

// isWordRune reports whether r belongs to a token: a letter, a decimal digit
// or a combining mark (so that decomposed accented letters stay whole).
// utf8.RuneError, which stands for invalid UTF-8, is none of these.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// isApostrophe reports whether r is the ASCII apostrophe or the typographic
// right single quotation mark used as one.
func isApostrophe(r rune) bool { return r == '\'' || r == '\u2019' }

// startsWithWordRune reports whether s begins with a word rune.
func startsWithWordRune(s string) bool {
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

// eachHash calls fn with the FNV-1a 64-bit hash of every n-gram of the
// tokenised document, in order: for each token i its unigram, then (for
// i > 0) the bigram "token(i−1) token(i)". A bigram's hash continues its
// first token's hash over the space and the second token.
func (t *tokenizer) eachHash(fn func(h uint64)) {
	var prev uint64
	for i := range t.ends {
		tok := t.token(i)
		h := fnvAdd(fnvOffset64, tok)
		fn(h)
		if i > 0 {
			fn(fnvAdd(fnvAddByte(prev, ' '), tok))
		}
		prev = h
	}
}

// eachGram calls fn with the bytes of every n-gram, in the order of
// eachHash. The slice is valid only during the call; bigrams are built in
// *scratch.
func (t *tokenizer) eachGram(scratch *[]byte, fn func(g []byte)) {
	for i := range t.ends {
		tok := t.token(i)
		fn(tok)
		if i > 0 {
			g := append((*scratch)[:0], t.token(i-1)...)
			g = append(g, ' ')
			g = append(g, tok...)
			*scratch = g
			fn(g)
		}
	}
}
