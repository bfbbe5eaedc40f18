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

// TestCheckUTF16: either UTF-16 mark at the start is ErrUTF16; UTF-8 text,
// with its mark or without, a mark cut short and a mark after the start are
// not.
func TestCheckUTF16(t *testing.T) {
	for _, tc := range []struct {
		in  string
		bad bool
	}{
		{utf16LE + "1\x00\n\x00", true},
		{utf16BE + "\x001\x00\n", true},
		{utf16LE, true},
		{"\xff\xfe\x00\x00", true}, // UTF-32LE's mark starts as UTF-16LE's: not UTF-8 either
		{"", false},
		{"\xff", false},
		{Mark + "1\n", false},
		{"1,2\n", false},
		{"a" + utf16LE, false},
	} {
		if err := CheckUTF16([]byte(tc.in)); (err != nil) != tc.bad || (err != nil && err != ErrUTF16) {
			t.Errorf("CheckUTF16(%q) = %v, want an error: %v", tc.in, err, tc.bad)
		}
	}
}
