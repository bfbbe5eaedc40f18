package bom

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// TestSkip: the mark is dropped at the start only, whatever the reader,
// and input shorter than the mark or without it comes back whole.
func TestSkip(t *testing.T) {
	for _, in := range []string{"", "{", "\xef\xbb", Mark, Mark + "{}", Mark + Mark + "x", "a" + Mark} {
		want := strings.TrimPrefix(in, Mark)
		for _, r := range []io.Reader{strings.NewReader(in), bufio.NewReader(strings.NewReader(in))} {
			got, err := io.ReadAll(Skip(r))
			if err != nil || string(got) != want {
				t.Errorf("Skip(%T %q) reads %q, %v; want %q", r, in, got, err, want)
			}
		}
		if got := string(Trim([]byte(in))); got != want {
			t.Errorf("Trim(%q) = %q, want %q", in, got, want)
		}
	}
}
