// Package bom holds greedytl's one rule on the UTF-8 byte order mark
// (EF BB BF), which Windows editors write at the start of a text file: a
// mark at the very start of a text file is skipped, by the data readers
// (package dataset) and by the model readers (JSON documents through
// internal/jsonfile, liblinear model files through package linear), and
// is an error nowhere else.
package bom

import (
	"bufio"
	"bytes"
	"io"
)

// Mark is the UTF-8 byte order mark.
const Mark = "\xef\xbb\xbf"

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
