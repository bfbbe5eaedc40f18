// Package textcut shortens text for a message without cutting a UTF-8
// character in two: class names, file names and settings may be in any
// script, and a message cut inside a character would not be valid UTF-8.
// How a caller marks the cut ("…", a word boundary, closed brackets) is
// the caller's; where a cut may fall is this package's.
package textcut

import "unicode/utf8"

// Prefix returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 character: s itself when it has at most n bytes;
// otherwise s cut before the byte at or below n that starts a character
// (utf8.RuneStart), which is "" when none does (n ≤ 0, or s holds only
// continuation bytes so far).
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:max(n, 0)]
}
