package dataset

import "bytes"

// isRangeHeaderRow reports whether the first content line of a text
// matrix, split at sep into fields, is what HeaderAuto reads as pandas'
// column names 0, 1, …, n−1 (and drops when rows follow): n ≥ 3 of them,
// separated by commas or tabs, which pandas writes (DecodeCSV). It is the
// one rule of the reader and of RangeHeaderLine.
func isRangeHeaderRow(sep byte, fields [][]byte) bool {
	return (sep == ',' || sep == '\t') && len(fields) >= 3 && isRangeHeader(fields)
}

// RangeHeaderLine returns the line (from 1) of the first content line of
// the text matrix file path and its number of fields n when DecodeCSV's
// HeaderAuto rule read that line as pandas' column names 0, 1, …, n−1
// and dropped it (isRangeHeaderRow, and a row follows): a first row of
// data that reads so is lost silently, which a command may tell the user
// (greedytl's note). It returns 0, 0 otherwise, and where reopenText does
// not read the file again (standard input, a .npy array).
func RangeHeaderLine(path string) (line, n int) {
	lr, done := reopenText(path)
	if lr == nil {
		return 0, 0
	}
	defer done()
	return rangeHeaderLine(lr)
}

// RangeHeaderLineOf is RangeHeaderLine of a text matrix read from a stream
// (standard input), which cannot be read again: head is its start as read
// (uncompressed), of at least its first two content lines for a line to
// be found. name is the stream's, for the reader.
func RangeHeaderLineOf(head []byte, name string) (line, n int) {
	return rangeHeaderLine(newLineReader(bytes.NewReader(head), name))
}

// rangeHeaderLine is RangeHeaderLine of the text lr reads.
func rangeHeaderLine(lr *lineReader) (line, n int) {
	text, ok := lr.content()
	if !ok {
		return 0, 0
	}
	sep, directive := lr.sepDirective(text)
	if directive {
		if text, ok = lr.content(); !ok {
			return 0, 0
		}
	} else {
		sep = detectSep(text)
	}
	var scratch []byte
	fields, err := splitQuoted(nil, text, sep, &scratch, nil)
	if err != nil || !isRangeHeaderRow(sep, fields) {
		return 0, 0
	}
	line, n = lr.line, len(fields)
	if _, ok := lr.content(); !ok { // alone: a row of data
		return 0, 0
	}
	return line, n
}
