package textcut

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPrefix checks Prefix against its definition, the longest prefix of
// at most n bytes that ends where a character starts (or at the end of s),
// found by trying every length from n down, on strings of one-, two-,
// three- and four-byte characters, invalid bytes among them.
func TestPrefix(t *testing.T) {
	inputs := []string{"", "abc", "é", "aé€😀b", strings.Repeat("é", 30), "\x80\x80\x80\x80", "a\x80\x80é\xffz"}
	for _, s := range inputs {
		for n := -1; n <= len(s)+1; n++ {
			want := ""
			for k := min(n, len(s)); k > 0; k-- {
				if k == len(s) || utf8.RuneStart(s[k]) {
					want = s[:k]
					break
				}
			}
			if got := Prefix(s, n); got != want {
				t.Errorf("Prefix(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}
