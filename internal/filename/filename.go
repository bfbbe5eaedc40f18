// Package filename makes file-name parts from free-form names (data set,
// method and class names), so that files named after them are portable:
// the same on case-insensitive file systems, free of path separators and
// of characters that shells or other systems treat specially.
package filename

import "strings"

// Slug returns a file-name part of s: its ASCII letters, lower-cased, and
// digits, with every run of other characters between them replaced by
// one '-' (none at either end), cut to at most max bytes (max ≤ 0: no
// limit); fallback when nothing is left. Different names may have the
// same slug ("A b" and "a-b"): callers that need unique names add what
// distinguishes them.
func Slug(s, fallback string, max int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if max > 0 && b.Len() >= max {
			break
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimSuffix(b.String(), "-")
	if out == "" {
		out = fallback
	}
	return out
}
