package experiment

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// abbreviate cuts a long value at the start of a character, so that a
// message about class names in any script stays valid UTF-8.
func TestAbbreviateKeepsUTF8(t *testing.T) {
	for pad := range 4 {
		b := []byte(strings.Repeat("a", pad) + strings.Repeat("é", 60))
		got := abbreviate(b)
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > 80+len("…") || len(got) < 78+len("…") {
			t.Errorf("pad %d: abbreviate gave %q (%d bytes)", pad, got, len(got))
		}
	}
	if got := abbreviate([]byte(`["a","b"]`)); got != `["a","b"]` {
		t.Errorf("a short value: %q", got)
	}
}
