// Package bom holds greedytl's one rule on the UTF-8 byte order mark
// (EF BB BF), which Windows editors write at the start of a text file: a
// mark at the very start of a text file is skipped, by the data readers
// (package dataset) and by the model readers (JSON documents through
// internal/jsonfile, liblinear model files through package linear), and
// is an error nowhere else. A mark after the start (Inside) is no number
// and no part of a label. A UTF-16 mark (FF FE or FE FF), which Windows
// Notepad and Excel write at the start of "Unicode" text, is an error
// (CheckUTF16) where the data and JSON readers would skip a UTF-8 one:
// greedytl reads UTF-8 text, and read as bytes UTF-16 text fails later,
// with a message about its second line or a label "\xff\xfe1\x00".
package bom

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// utf16LE and utf16BE are UTF-16's byte order marks, little-endian (as
// Windows writes it) and big-endian.
const (
	utf16LE = "\xff\xfe"
	utf16BE = "\xfe\xff"
)

// ErrUTF16 is CheckUTF16's error: the text is UTF-16, not UTF-8.
var ErrUTF16 = errors.New(`UTF-16 text (it starts with UTF-16's byte order mark, as Windows Notepad and Excel save "Unicode" text): save it as UTF-8`)

// CheckUTF16 returns ErrUTF16 when b, the start of a text file, starts
// with a UTF-16 byte order mark, else nil.
func CheckUTF16(b []byte) error {
	if bytes.HasPrefix(b, []byte(utf16LE)) || bytes.HasPrefix(b, []byte(utf16BE)) {
		return ErrUTF16
	}
	return nil
}

// Mark is the UTF-8 byte order mark.
const Mark = "\xef\xbb\xbf"

// Inside is why Mark found after the start of a file, in a field or a
// label, is refused, for the readers' messages: it shows as nothing, and
// it is there where files each saved with the mark were concatenated (cat
// a.csv b.csv), at the start of the second.
const Inside = "U+FEFF, a byte order mark, shows as nothing: files each saved with one and concatenated (cat a.csv b.csv) hold it where the second starts; remove it (sed 's/\\xEF\\xBB\\xBF//g')"

// Trim returns b without a leading Mark: for the first line of a file.
func Trim(b []byte) []byte { return bytes.TrimPrefix(b, []byte(Mark)) }

// Skip returns a reader of r's bytes after a leading Mark: r itself, with
// the mark discarded, when r is a *bufio.Reader, else a new *bufio.Reader
// over r. It reads at most len(Mark) bytes ahead; a read error is left
// for the caller's next read to return.
func Skip(r io.Reader) *bufio.Reader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	if head, _ := br.Peek(len(Mark)); string(head) == Mark {
		br.Discard(len(Mark))
	}
	return br
}
