package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/internal/bom"
	"github.com/greedytl/greedytl/internal/fileerr"
	"github.com/greedytl/greedytl/internal/typednil"
)

const bufSize = 1 << 16

// source is an opened input: a buffered reader over the content, gunzipped
// when the bytes start with the gzip magic number.
type source struct {
	br   *bufio.Reader
	file *os.File // nil for standard input
	// size is the length in bytes of the uncompressed content when it is
	// known (a regular, uncompressed file), or -1.
	size int64
}

// openPath opens path ("-" is standard input) and sniffs for gzip.
func openPath(path string) (*source, error) {
	src := &source{size: -1}
	var r io.Reader
	if path == "-" {
		r = os.Stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, &Error{File: path, Err: fileerr.Reason(err)}
		}
		src.file = f
		r = f
		if st, err := f.Stat(); err == nil {
			if st.IsDir() {
				f.Close()
				return nil, errorf(path, 0, "is a directory")
			}
			if st.Mode().IsRegular() {
				src.size = st.Size()
			}
		}
	}
	br, gz, err := maybeGunzip(r, displayName(path))
	if err != nil {
		src.close()
		return nil, err
	}
	if gz {
		src.size = -1
	}
	src.br = br
	return src, nil
}

// isNPY reports whether the content starts with the .npy magic bytes.
func (s *source) isNPY() bool {
	b, _ := s.br.Peek(len(npyMagic))
	return string(b) == npyMagic
}

// displayName is the name errors use for path: "<stdin>" for "-".
func displayName(path string) string {
	if path == "-" {
		return "<stdin>"
	}
	return path
}

func (s *source) close() {
	if s.file != nil {
		s.file.Close() // read-only: a close error cannot lose data
	}
}

// maybeGunzip returns a buffered reader over r's content, decompressed when
// it starts with the gzip magic bytes 1f 8b, and whether it was.
// A nil r is an error.
func maybeGunzip(r io.Reader, name string) (*bufio.Reader, bool, error) {
	if typednil.Is(r) {
		return nil, false, &Error{File: name, Err: errNoReader}
	}
	br := bufio.NewReaderSize(r, bufSize)
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, false, &Error{File: name, Err: err}
	}
	if !isGzip(magic) {
		return br, false, nil
	}
	gz, err := gzip.NewReader(br)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
			err = errGzipTruncated
		}
		return nil, false, &Error{File: name, Err: err}
	}
	gz.Multistream(false)
	out := bufio.NewReaderSize(&gzipReader{zr: gz, br: br}, bufSize)
	if inner, _ := out.Peek(2); isGzip(inner) {
		// gzip of a .gz: its content, gunzipped once, read as text
		// failed on a NUL ("binary data, not text: byte 3 is 0").
		return nil, false, errorf(name, 0, "%s", gzipTwice)
	}
	return out, true, nil
}

// gzipTwice is the message of gzip input whose content is gzip data
// again, which maybeGunzip does not decompress a second time.
const gzipTwice = "gzip-compressed twice (gunzipped once, it is gzip data again): decompress it once (zcat FILE > FILE-once.gz) and give that"

// lineReader yields the lines of a text input without their line endings
// ("\n", "\r\n", or a lone "\r" as classic Mac OS and Excel's "CSV
// (Macintosh)" end lines, which NumPy's loadtxt and pandas read too),
// counting them from 1. A UTF-8 byte order mark at the start is dropped.
// Input that cannot be text (checkText: a zip archive, a pickle, UTF-16
// text with its byte order mark, any NUL byte among its first sniffSize
// bytes) is an error before the first line.
// Lines may be arbitrarily long.
type lineReader struct {
	br    *bufio.Reader
	name  string
	line  int    // number of the line last returned
	long  []byte // accumulates lines longer than the reader's buffer
	rest  []byte // the lines after a lone "\r" of the text last read, not yet returned (nil: none)
	done  bool
	err   error // read error, an *Error; nil at a clean end of input
	blank int   // the blank line content skipped last, below the line it returned before (0: none, or a comment below it)
}

func newLineReader(r io.Reader, name string) *lineReader {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < bufSize {
		br = bufio.NewReaderSize(r, bufSize)
	}
	return &lineReader{br: br, name: name}
}

// next returns the next line, valid until the following call, and false at
// the end of input or on a read error (then lr.err is set).
func (lr *lineReader) next() ([]byte, bool) {
	if lr.rest != nil {
		return lr.split(lr.rest)
	}
	if lr.done {
		return nil, false
	}
	if lr.line == 0 {
		// Before the first line: binary input is refused by its format
		// (checkText), where its bytes read as lines failed on a
		// made-up line.
		head, _ := lr.br.Peek(sniffSize)
		if err := checkText(head, lr.name); err != nil {
			lr.done, lr.err = true, err
			return nil, false
		}
	}
	lr.long = lr.long[:0]
	for {
		b, err := lr.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			lr.long = append(lr.long, b...)
			continue
		}
		if len(lr.long) > 0 {
			lr.long = append(lr.long, b...)
			b = lr.long
		}
		if err != nil {
			lr.done = true
			if err != io.EOF {
				lr.err = &Error{File: lr.name, Line: lr.line + 1, Err: err}
				return nil, false
			}
			if len(b) == 0 {
				return nil, false
			}
		}
		b = bytes.TrimSuffix(b, []byte{'\n'})
		return lr.split(bytes.TrimSuffix(b, []byte{'\r'}))
	}
}

// split returns the first line of b, text read up to a "\n" without its
// line ending, which ends at a lone "\r" if b has one; the lines after it
// are kept for the next calls (it aliases the reader's buffer, which is not
// read again until they are returned).
func (lr *lineReader) split(b []byte) ([]byte, bool) {
	lr.line++
	lr.rest = nil
	if k := bytes.IndexByte(b, '\r'); k >= 0 {
		b, lr.rest = b[:k], b[k+1:]
	}
	if lr.line == 1 {
		b = bom.Trim(b)
	}
	if len(b) > 0 && (b[0] <= ' ' || b[0] == 0x7f) { // a control byte, or blanks before one
		if what := controlLine(b); what != "" {
			lr.done, lr.rest = true, nil
			lr.err = errorf(lr.name, lr.line, "%s", what)
			return nil, false
		}
	}
	return b, true
}

// controlLine returns the problem of a line that holds control bytes
// (controlByte) alone, blanks (\v and \f too) aside, naming the first, or
// "" for any other
// line. No reader takes such a line (read as data it failed as a row of
// one value or a label of nothing to see: "expected 3 values, got 1"); a
// last line of Ctrl-Z is the end-of-file mark that DOS tools append, which
// NumPy, pandas and scikit-learn read as data too, so it is refused, named.
func controlLine(line []byte) string {
	t := bytes.Trim(line, lineBlanks)
	if len(t) == 0 || slices.ContainsFunc(t, func(c byte) bool { return !controlByte(c) }) {
		return ""
	}
	what := "the control character"
	if len(t) > 1 {
		what = "control characters alone, the first"
	}
	c := t[0]
	name := fmt.Sprintf("Ctrl-%c", '@'+c)
	switch c {
	case 0x1a:
		return fmt.Sprintf("the line holds %s %#02x (Ctrl-Z), the end-of-file mark that DOS tools (copy /a) append: remove it (tr -d '\\032' < FILE > NEW)", what, c)
	case 0:
		name = "NUL"
	case 0x1b:
		name = "ESC"
	case 0x7f:
		name = "DEL"
	}
	return fmt.Sprintf("the line holds %s %#02x (%s), which text does not hold: remove it", what, c, name)
}

// errNoReader is the error of a decoder given a nil io.Reader.
var errNoReader = errors.New("no reader (nil)")

// errGzipTruncated replaces io.ErrUnexpectedEOF from a gzip stream, which
// decoders would otherwise take for a truncation of their own format.
var errGzipTruncated = errors.New("unexpected end of compressed data")

// errGzipTrailing is the error of bytes after a gzip stream that are
// neither another gzip member nor zeros.
var errGzipTrailing = errors.New("gzip: bytes after the compressed data that are neither another gzip stream nor zero padding")

// isGzip reports whether b begins with gzip's magic bytes, 1f 8b.
func isGzip(b []byte) bool { return bytes.HasPrefix(b, []byte{0x1f, 0x8b}) }

// PlainText reports whether an input beginning with the bytes b (its first
// six at least, or all of a shorter input) is plain text: not empty, not a
// .npy array and not gzip (which may hold either) — the inputs whose first
// line a header rule reads.
func PlainText(b []byte) bool {
	return len(b) > 0 && !bytes.HasPrefix(b, []byte(npyMagic)) && !isGzip(b)
}

// gzipReader decompresses the gzip members of br one after the other, as
// gzip -d and Python's gzip module (so NumPy, pandas and scikit-learn) read
// them: concatenated members are one content, and zero bytes after a member
// (the padding of a tape block or of dd conv=sync) are skipped, where Go's
// reader took them for a truncated member or a bad header. It reports a
// truncated gzip stream as errGzipTruncated; its other errors already
// start with "gzip: ".
type gzipReader struct {
	zr *gzip.Reader // reads one member (Multistream(false))
	br *bufio.Reader
}

func (g *gzipReader) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		if err == io.EOF {
			err = g.nextMember()
			if err == nil && n == 0 {
				continue
			}
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = errGzipTruncated
		}
		return n, err
	}
}

// nextMember, at the end of a member, skips zero bytes and starts reading
// the next member; it returns io.EOF at the end of the input, and
// errGzipTrailing when other bytes follow.
func (g *gzipReader) nextMember() error {
	for {
		b, err := g.br.ReadByte()
		switch {
		case err == io.EOF:
			return io.EOF
		case err != nil:
			return err
		case b == 0:
			continue
		}
		g.br.UnreadByte()
		if magic, _ := g.br.Peek(2); !isGzip(magic) {
			return errGzipTrailing
		}
		if err := g.zr.Reset(g.br); err != nil {
			return err
		}
		g.zr.Multistream(false)
		return nil
	}
}

// content returns the next content line, skipping those isSkippable
// skips (noting the last blank one of them in lr.blank, forgotten at a
// comment below it: a blank line above a comment separates groups, as in
// "0.2\n\n# group 2\n0.4", and is no missing value); see next.
func (lr *lineReader) content() ([]byte, bool) {
	lr.blank = 0
	for {
		line, ok := lr.next()
		if !ok || !isSkippable(line) {
			return line, ok
		}
		if blankLine(line) {
			lr.blank = lr.line
		} else {
			lr.blank = 0
		}
	}
}

// lineBlanks are the bytes a blank line is made of: C's isspace but for
// the line endings, as the svmlight reader (isBlank) and liblinear take
// them, so that a line of vertical tabs or form feeds (a page break) alone
// is blank as one of spaces is, in every text reader (a matrix's lines,
// a label file's). They read it as a row or a label of nothing: "expected
// 2 values, got 1", or, first, the line that told the separator.
const lineBlanks = " \t\v\f"

// blankLine reports whether a line that isSkippable skips is blank (empty,
// or lineBlanks alone), not a comment.
func blankLine(line []byte) bool {
	return len(bytes.TrimLeft(line, lineBlanks)) == 0
}

// saveAsUTF8 is the advice of every message about text in a data file
// that is not valid UTF-8 (a label, a header's column name, a class or
// group name of classes.txt or groups.txt): most such files are Excel's.
const saveAsUTF8 = `save the file as UTF-8 (Excel's "CSV (Comma delimited)" writes Windows-1252: save as "CSV UTF-8")`

// isSkippable reports whether a text line carries no data: blank, or a
// comment starting with '#' (after optional blanks, lineBlanks).
func isSkippable(line []byte) bool {
	t := bytes.TrimLeft(line, lineBlanks)
	return len(t) == 0 || t[0] == '#'
}

// detectSep picks a file's field separator from its first content line:
// ',' if the line has a comma, else '\t' if it has a tab, else 0 (runs of
// blanks); but '\t' where every comma is inside a quoted field between
// tabs (tabQuotedCommas): a tab-separated header of names holding commas,
// quoted, as FormatHeaderCell writes predict --scores's class names.
// Python's csv.Sniffer, which pandas' read_csv(sep=None) asks, tells the
// separator of such a line the same way, from the characters next to its
// quoted fields. A header whose commas are unquoted, as pandas'
// to_csv(sep='\t') writes them, is told tab-separated by the row below it
// (tabHeader).
func detectSep(line []byte) byte {
	comma, tab := bytes.IndexByte(line, ',') >= 0, bytes.IndexByte(line, '\t') >= 0
	switch {
	case comma && tab && tabQuotedCommas(line):
		return '\t'
	case comma:
		return ','
	case tab:
		return '\t'
	}
	return 0
}

// tabQuotedCommas reports whether line, split at tabs, is two or more
// fields whose commas are all inside quotes ("a,b"): no unquoted field
// holds one, and the line splits (no unterminated quote, nothing but
// blanks between a closing quote and the next tab). One quoted field
// holding a tab and a comma is a one-column CSV's header, not a TSV's.
func tabQuotedCommas(line []byte) bool {
	var scratch []byte
	var quoted []bool
	fields, err := splitQuoted(nil, line, '\t', &scratch, &quoted)
	if err != nil || len(fields) < 2 {
		return false
	}
	for j, f := range fields {
		if !quoted[j] && bytes.IndexByte(f, ',') >= 0 {
			return false
		}
	}
	return true
}

// tabHeader reports whether header, a first line of names that detectSep
// took for comma-separated (it has a comma outside quotes), is
// tab-separated after all, as row, the line below it, tells: both hold a
// tab, and split at tabs they are as many fields, two or more, the
// header's names: isHeader's, or names whose first is neither empty nor a
// number, after which names may be numbers (pandas writes a column named
// 0 as "0": "a,b\t0"). An empty first name is isHeader's alone, so that
// the caller refuses pandas' index header (isIndexHeader). pandas'
// to_csv(path, sep='\t') writes a column name holding a comma unquoted
// ("a,b\tc"), as Python's csv module quotes only a field holding the
// separator. Split at commas the two lines are not as many fields (the
// caller asks only then), so the rows do not agree with a comma-separated
// header.
func tabHeader(header, row []byte) bool {
	if bytes.IndexByte(header, '\t') < 0 || bytes.IndexByte(row, '\t') < 0 {
		return false
	}
	var scratch []byte
	h, err := splitFields(nil, header, '\t', &scratch)
	if err != nil || len(h) < 2 || !isHeader(h) && (len(h[0]) == 0 || isNumber(h[0])) {
		return false
	}
	var scratch2 []byte
	r, err := splitFields(nil, row, '\t', &scratch2)
	return err == nil && len(r) == len(h)
}

// sepNames are the separators a line may be split at (splitFields's sep)
// and their names in messages.
var sepNames = []struct {
	sep  byte
	name string
}{{',', "commas"}, {'\t', "tabs"}, {0, "blanks"}}

// sepName returns the name in messages of sep, a separator of sepNames
// ("" for another).
func sepName(sep byte) string {
	for _, s := range sepNames {
		if s.sep == sep {
			return s.name
		}
	}
	return ""
}

// mixedSepHint returns the note, for an error on line, which split at
// sep is not the cols fields of the lines above (of the header, when
// header, the header line, is not nil), that line is those cols fields
// separated otherwise ("1,2" below a header "a\tb"): a file written in
// parts with two separators. It returns "" when no other separator
// splits the line so, and when the header or the line itself holds both
// separators ("a,b\tc\td" above "1\t2"; "1,5\t2,5" below "a\tb\tc"),
// where "one separator throughout" is no advice.
func mixedSepHint(line, header []byte, sep byte, cols int) string {
	var this string
	var thisSep byte
	above := sepName(sep)
	for _, s := range sepNames {
		if s.sep == sep {
			continue
		}
		in := s.sep
		if in == 0 {
			in = ' '
		}
		if this != "" || bytes.IndexByte(line, in) < 0 {
			continue
		}
		var scratch []byte
		if f, err := splitFields(nil, line, s.sep, &scratch); err == nil && len(f) == cols {
			this, thisSep = s.name, in
		}
	}
	if this == "" || above == "" {
		return ""
	}
	// A header holding this line's tab or comma uses both separators: no
	// hint. A blank in a header is a blank in a name ("petal length"), not
	// a separator, and does not count.
	if (thisSep != ' ' && bytes.IndexByte(header, thisSep) >= 0) || (sep != 0 && bytes.IndexByte(line, sep) >= 0) {
		return ""
	}
	what := "the lines above"
	if header != nil {
		what = "the header's names"
	}
	return fmt.Sprintf(" (this line's values are separated by %s, %s by %s: write the file with one separator throughout)", this, what, above)
}

// directiveSeps are the separators Excel's directive line may name
// (sepDirective) that the delimited-text readers split fields at: a
// space is the runs of blanks that detectSep picks where a line has no
// comma or tab.
const directiveSeps = ",;\t| "

// sepDirective reports whether line, the lr's line just returned, is
// Excel's separator directive (isSepDirective), which only the first line
// of the input (after a byte-order mark) is, and returns its separator
// for the caller to split the fields at, in place of detectSep's guess,
// and the line to be skipped.
func (lr *lineReader) sepDirective(line []byte) (sep byte, ok bool) {
	if lr.line != 1 {
		return 0, false
	}
	return isSepDirective(line)
}

// isSepDirective reports whether line is Excel's separator directive:
// "sep=" (any case) and one character (sep=, sep=; or sep= and a tab),
// which Excel writes on a CSV file's first line to name its field
// separator and reads as that, not as a row; and returns the separator.
// Only a separator the readers split fields at is one (directiveSeps; a
// space: sep 0, runs of blanks): "sep=" and another character is a line
// as any other (a header name "sep=a" or "sep=_"). It is the one rule of
// the readers (sepDirective, of an input's first line) and of the writer
// of label lines (FormatLabel quotes a label that is one, "sep=;", which
// on a file's first line would be read so).
func isSepDirective(line []byte) (sep byte, ok bool) {
	if len(line) != len("sep=")+1 || !bytes.EqualFold(line[:4], []byte("sep=")) || strings.IndexByte(directiveSeps, line[4]) < 0 {
		return 0, false
	}
	if line[4] == ' ' {
		return 0, true
	}
	return line[4], true
}

// fieldSplit is how the lines of a delimited-text input were split into
// fields, for parseValue's messages on a field that is no number.
type fieldSplit struct {
	sep       byte // splitFields's separator
	directive bool // Excel's directive line named sep (sepDirective): pandas reads it as a row
	// splitBlanks are the blanks (" ", "\t") of the first row's fields
	// with blanks ("5\t2" of "1,5\t2,25") where a comma separator was
	// detected from it and the row is decimalCommaSplit: numbers with
	// decimal commas separated by blanks.
	splitBlanks string
}

// firstRow notes the fields of the input's first content line, which sep
// was detected from (splitBlanks); quoted tells which of them were quoted
// (splitQuoted), which no split at decimal commas makes.
func (s *fieldSplit) firstRow(fields [][]byte, quoted []bool) {
	if s.sep != ',' || s.directive || !decimalCommaSplit(fields, quoted) {
		return
	}
	for _, f := range fields {
		if k := bytes.IndexAny(f, " \t"); k >= 0 && strings.IndexByte(s.splitBlanks, f[k]) < 0 {
			s.splitBlanks += string(f[k])
		}
	}
}

// decimalCommaSplit reports whether fields, a line split at commas, can be
// values separated by blanks, numbers with decimal commas, split at their
// commas ("1,5 2,25": "1", "5 2", "25"). Each such comma is inside a
// value, between its integer part, which ends a field, and its fraction
// part, which begins the next. So no field is quoted, and the first field
// is integers (blankIntegers: "1 234" of "1 234,5 2 345,6") or one, the
// first of them signed or not ("+1,5 +2,5"). The fields from the second on
// that are a fraction part, blanks and integers (blankIntegers: "5 2")
// show the split; the line's rest, from the first field that is none or
// the last, need only begin with a fraction part: what follows it a
// European file's last columns may hold, a label, NA or a number with a
// decimal point ("1,5 2,5 NA": "5 NA"), which the hint does not judge.
// After a field that showed the split (rest > 1) a digit suffices, and
// more commas may follow ("1,5 2,5,3,5": "5", "3", "5"; "1,5 2,5e"; a
// trailing comma, "1,5 2,"). Where none did (rest == 1) the rest is the
// last field and begins with a fraction part ("1 2 3,5"; "1,5 2 x"): a
// decimal point, or a single number between two commas, is no such line,
// as "2024 11 27,1.5,2.5", "2024 11 27,3,4" and "2024 11 27,1.5" are a
// date before numbers in a comma-separated file (one such line is taken
// for the split: "2024 11 27,3 x").
func decimalCommaSplit(fields [][]byte, quoted []bool) bool {
	if len(fields) < 2 || slices.Contains(quoted, true) {
		return false
	}
	if !blankIntegers(fields[0], true) && !digitsOnly(trimSign(fields[0])) {
		return false
	}
	rest := 1
	for rest < len(fields)-1 && blankIntegers(fields[rest], false) {
		rest++
	}
	f := fields[rest]
	if rest > 1 {
		return len(f) > 0 && '0' <= f[0] && f[0] <= '9' || len(f) == 0 && rest == len(fields)-1
	}
	first := bytes.Fields(f)
	return rest == len(fields)-1 && len(first) > 0 && fractionPart(first[0])
}

// blankIntegers reports whether b is two or more integers separated by
// blanks: what a comma separator makes of numbers with decimal commas
// separated by blanks ("1,5 -2,25": "1", "5 -2", "25"), whole numbers
// among them too ("1,5\t2\t3,25": "1", "5\t2\t3", "25"; "1\t2\t3,5":
// "1\t2\t3", "5"). Every integer but the first may carry a sign, '-' or
// '+' ("+1,5 +2,5": "+1", "5 +2", "5"); the first only in the line's
// first field (first): in any other it follows a decimal comma, a
// fraction part ("1,-2 3,5" is no such line), which may carry an exponent
// ("1,5e-02 2,5e-01": "1", "5e-02 2", "5e-01").
func blankIntegers(b []byte, first bool) bool {
	f := bytes.Fields(b)
	for i, x := range f {
		switch {
		case i > 0 || first: // an integer part or a whole number
			x = trimSign(x)
		case !fractionPart(x): // what follows a decimal comma
			return false
		default:
			continue
		}
		if !digitsOnly(x) {
			return false
		}
	}
	return len(f) >= 2
}

// trimSign returns b without a leading sign, '+' or '-'.
func trimSign(b []byte) []byte {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		return b[1:]
	}
	return b
}

// fractionPart reports whether b is what follows a decimal comma: digits,
// and an exponent (5e-02 of 1,5e-02) or none.
func fractionPart(b []byte) bool {
	k := bytes.IndexAny(b, "eE")
	if k < 0 {
		return digitsOnly(b)
	}
	return digitsOnly(b[:k]) && digitsOnly(trimSign(b[k+1:]))
}

// splitFields appends the fields of line to dst[:0] and returns it. With sep
// ',' or '\t' every separator delimits a field (so empty fields exist), blanks
// around fields are trimmed and a field may be double-quoted ("" inside is a
// quote; quoted fields are unescaped into *scratch and trimmed too). With sep 0, fields are
// runs of non-blank bytes, or a quoted field that runs to its closing quote
// (a blank or the line's end after it) whatever blanks it holds, as R's
// read.table reads write.table's `"col 0"`, with its pair of quotes dropped
// (unquote: "" inside is a quote). A line that ends inside a quoted field
// is an error naming its column.
func splitFields(dst [][]byte, line []byte, sep byte, scratch *[]byte) ([][]byte, error) {
	return splitQuoted(dst, line, sep, scratch, nil)
}

// splitQuoted is splitFields that, when quoted is not nil, also sets
// *quoted[:0] to whether each field was quoted.
func splitQuoted(dst [][]byte, line []byte, sep byte, scratch *[]byte, quoted *[]bool) ([][]byte, error) {
	dst = dst[:0]
	mark := func(q bool) {
		if quoted != nil {
			*quoted = append(*quoted, q)
		}
	}
	if quoted != nil {
		*quoted = (*quoted)[:0]
	}
	if sep == 0 {
		for i := 0; i < len(line); {
			for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
				i++
			}
			if i == len(line) {
				break
			}
			j := i
			if line[i] == '"' {
				// A quoted field runs to its closing quote, blanks
				// inside it ("col 0", as R's write.table writes a
				// name), as R's read.table reads it, when a blank or
				// the line's end follows that quote; else to the next
				// blank, as before (`"a"b"` is a"b, `"V1";"V2"` a
				// semicolon-separated header's one field).
				if j = closingQuote(line, i); j < 0 {
					return dst, unterminatedQuote(len(dst) + 1)
				}
				if j++; j < len(line) && line[j] != ' ' && line[j] != '\t' {
					j = i
				}
			}
			for j < len(line) && line[j] != ' ' && line[j] != '\t' {
				j++
			}
			f := unquote(line[i:j])
			mark(len(f) < j-i)
			dst = append(dst, f)
			i = j
		}
		return dst, nil
	}
	if bytes.IndexByte(line, '"') < 0 {
		for {
			k := bytes.IndexByte(line, sep)
			mark(false)
			if k < 0 {
				return append(dst, trimBlank(line)), nil
			}
			dst = append(dst, trimBlank(line[:k]))
			line = line[k+1:]
		}
	}
	// Quoted fields: unescape into scratch, which must not be reallocated
	// while dst holds slices of it, so size it for the whole line first.
	if cap(*scratch) < len(line) {
		*scratch = make([]byte, 0, len(line))
	}
	buf := (*scratch)[:0]
	for i := 0; ; {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i < len(line) && line[i] == '"' {
			start := len(buf)
			i++
			closed := false
			for i < len(line) {
				if line[i] == '"' {
					if i+1 < len(line) && line[i+1] == '"' {
						buf = append(buf, '"')
						i += 2
						continue
					}
					i++
					closed = true
					break
				}
				buf = append(buf, line[i])
				i++
			}
			if !closed {
				return dst, unterminatedQuote(len(dst) + 1)
			}
			mark(true)
			dst = append(dst, trimBlank(buf[start:len(buf):len(buf)]))
			for i < len(line) && line[i] == ' ' {
				i++
			}
			if i == len(line) {
				return dst, nil
			}
			if line[i] != sep {
				return dst, fmt.Errorf("column %d: unexpected %q after quoted field", len(dst), line[i])
			}
			i++
			continue
		}
		k := bytes.IndexByte(line[i:], sep)
		mark(false)
		if k < 0 {
			return append(dst, trimBlank(line[i:])), nil
		}
		dst = append(dst, trimBlank(line[i:i+k]))
		i += k + 1
	}
}

// closingQuote returns the index in line of the quote that closes the
// field opened by the quote at i ("" inside it is a quote), or -1.
func closingQuote(line []byte, i int) int {
	for j := i + 1; j < len(line); j++ {
		if line[j] == '"' {
			if j+1 < len(line) && line[j+1] == '"' {
				j++
				continue
			}
			return j
		}
	}
	return -1
}

// unterminatedQuote is the error of a quoted field in column col that a
// line ends inside: a quoted field is read within its line, and one
// holding a line break (Excel's Alt+Enter in a cell, which pandas' to_csv
// quotes) was read on as the next line's values.
func unterminatedQuote(col int) error {
	return fmt.Errorf("column %d: unterminated quoted field (a quote opened and not closed on its line: a line break inside a quoted value or name, as Excel writes a cell's Alt+Enter, is not read; remove it)", col)
}

func trimBlank(b []byte) []byte { return bytes.Trim(b, " \t") }

// unquote returns the blank-delimited field b without the pair of double
// quotes around it, if any, and with each '"' doubled inside such a pair
// undoubled, as in a CSV field (`"""x"""` is `"x"`, what FormatLabel
// writes for it); a quoted field with a lone '"' inside is returned
// without its pair alone.
func unquote(b []byte) []byte {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return b
	}
	in := b[1 : len(b)-1]
	if bytes.IndexByte(in, '"') < 0 {
		return in
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		if in[i] == '"' {
			if i+1 == len(in) || in[i+1] != '"' {
				return in // a lone quote: not a CSV field's doubling
			}
			i++
		}
		out = append(out, in[i])
	}
	return out
}

// isNumber reports whether b parses as a float64 (including NaN, ±Inf and
// out-of-range values): what tells data from a header.
func isNumber(b []byte) bool {
	_, err := parseNumber(b)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// isSVMLightPair reports whether a field that is not a number reads as a
// LIBSVM/svmlight token, index:value or qid:value (a file for train, or
// for liblinear-predict, given as a matrix).
func isSVMLightPair(b []byte) bool {
	k := bytes.IndexByte(b, ':')
	if k <= 0 || k == len(b)-1 {
		return false
	}
	if string(b[:k]) == "qid" {
		return true
	}
	return digitsOnly(b[:k]) && isNumber(b[k+1:])
}

// parseValue parses a finite float64 from a text field of a line split
// as split says; col is the 1-based column used in the error message.
func parseValue(b []byte, col int, split fieldSplit) (float64, error) {
	v, err := parseNumber(b)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("column %d: %s is out of float64 range", col, quoteField(b))
		}
		if len(b) == 0 {
			return 0, fmt.Errorf("column %d: empty value", col)
		}
		if isSVMLightPair(b) {
			// Index 0 exists only in a file counted from 0, as
			// scikit-learn's dump_svmlight_file writes by default, which
			// load_svmlight_file refuses with zero_based=False. Any
			// other index does not tell: dump_svmlight_file omits
			// zeros, so a file counted from 0 may start 1:… too.
			how := "zero_based=False, n_features=<columns>) if its indices start at 1, as LIBSVM/liblinear's do, or zero_based=True if they start at 0, as scikit-learn's dump_svmlight_file writes by default (one field does not tell which)"
			if bytes.HasPrefix(b, []byte("0:")) {
				how = "zero_based=True, n_features=<columns>): its indices start at 0"
			}
			return 0, fmt.Errorf("column %d: %s is LIBSVM/svmlight's index:value, not a number: a matrix is .npy or delimited text (convert it: scikit-learn's X, y = load_svmlight_file(path, %s; n_features keeps trailing columns of zeros; then np.save(out, X.toarray()))", col, quoteField(b), how)
		}
		if bytes.IndexByte(b, ';') >= 0 {
			return 0, fmt.Errorf("column %d: cannot parse %s as a number: %s", col, quoteField(b), semicolonNote(split.directive))
		}
		if blank, ok := splitDecimalCommas(b, col, split); ok {
			// "1,5\t2,25" split at its commas: "1", "5\t2", "25".
			by := byte('\t')
			if blank == ' ' {
				by = 0
			}
			what := sepName(by)
			return 0, fmt.Errorf("column %d: cannot parse %s as a number: the line holds %s and commas, and the commas were read as the separator: values separated by %s with decimal commas (1,5), as Excel writes them where the decimal separator is a comma? greedytl reads '.' decimal points: write them so (pandas: %s, then to_csv(path, index=False))", col, quoteField(b), what, what, pandasDecimalComma(by, false))
		}
		if decimalComma(b) {
			return 0, fmt.Errorf("column %d: cannot parse %s as a number: a decimal comma, as Excel writes numbers where the decimal separator is a comma? greedytl reads '.' decimal points: write them so (pandas: %s, then to_csv(path, index=False))", col, quoteField(b), pandasDecimalComma(split.sep, split.directive))
		}
		if nanText(string(b)) {
			return 0, fmt.Errorf("column %d is NaN (%s)", col, quoteField(b))
		}
		if booleanValue(b) {
			return 0, fmt.Errorf("column %d: %s is a boolean, not a number: write booleans as 1 and 0 (pandas: df.astype(float).to_csv(path, index=False); pd.get_dummies(..., dtype=float))", col, quoteField(b))
		}
		if missingValue(b) {
			return 0, fmt.Errorf("column %d: %s, a missing value (as R, pandas and Excel write them), is not a number: fill or drop the missing values first", col, quoteField(b))
		}
		if bytes.Contains(b, []byte(bom.Mark)) {
			return 0, fmt.Errorf("column %d: cannot parse %s as a number: %s", col, quoteField(b), bom.Inside)
		}
		return 0, fmt.Errorf("column %d: cannot parse %s as a number", col, quoteField(b))
	}
	if !isFinite(v) {
		return 0, fmt.Errorf("column %d is %v", col, v)
	}
	return v, nil
}

// decimalComma reports whether the field b, not a number, is one with a
// decimal comma where the point goes ("1,5", "-0,25"): one comma, no
// point, and a number with a point in its place.
func decimalComma(b []byte) bool {
	k := bytes.IndexByte(b, ',')
	if k < 0 || bytes.IndexByte(b[k+1:], ',') >= 0 || bytes.IndexByte(b, '.') >= 0 {
		return false
	}
	p := bytes.Clone(b)
	p[k] = '.'
	return isNumber(p)
}

// splitDecimalCommas reports whether the field b, not a number, is one of
// numbers with decimal commas separated by blanks that were split at their
// commas ("1,5\t2,25": "1", "5\t2", "25"): blankIntegers, in a file whose
// first row, which the comma separator was detected from, holds such
// fields split at the same blanks; col is b's 1-based column (only the
// first may begin with a minus sign: blankIntegers). A comma named by
// Excel's directive, or a first row of none (a header "a,b,c" above
// "1,2 3,4", a comma missing, a quoted field) is no such evidence. When it
// is one, blank is its first blank (' ' or '\t').
func splitDecimalCommas(b []byte, col int, split fieldSplit) (blank byte, ok bool) {
	k := bytes.IndexAny(b, " \t")
	if k < 0 || !blankIntegers(b, col == 1) || strings.IndexByte(split.splitBlanks, b[k]) < 0 {
		return 0, false
	}
	return b[k], true
}

// digitsOnly reports whether b is one or more decimal digits.
func digitsOnly(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// semicolonNote is the note of a line holding ';', which no reader
// splits fields at but after Excel's directive "sep=;" (directive: the
// input's first line was a directive naming another separator).
func semicolonNote(directive bool) string {
	return fmt.Sprintf("fields separated by ';', as Excel and R's write.csv2 write CSV where the decimal separator is a comma, are not read: separate them by commas or tabs, with '.' decimal points (pandas: %s, then to_csv(path, index=False))", pandasDecimalComma(';', directive))
}

// pandasDecimalComma spells the pandas call that reads a file whose
// fields are separated by sep (splitFields's) and whose numbers have
// decimal commas, for a message: with skiprows=1 where the file's first
// line is Excel's separator directive (sepDirective), which pandas reads
// as a row.
func pandasDecimalComma(sep byte, directive bool) string {
	py := "'" + string(sep) + "'"
	switch sep {
	case 0:
		py = `r'\s+'`
	case '\t':
		py = `'\t'`
	}
	skip := ""
	if directive {
		skip = ", skiprows=1"
	}
	return "read_csv(path, sep=" + py + ", decimal=','" + skip + ")"
}

// nanText reports whether s spells NaN, in any case and with or without a
// sign: "-nan", as glibc's printf writes 0.0/0.0, is one that strtod reads
// and ParseFloat (number.Parse) does not.
func nanText(s string) bool {
	return strings.EqualFold(strings.TrimLeft(s, "+-"), "nan")
}

// booleanValue reports whether the text field b is a boolean as pandas
// (True, False: a bool column, which pd.get_dummies makes by default), R
// (TRUE, FALSE) and Excel write one.
func booleanValue(b []byte) bool {
	return bytes.EqualFold(b, []byte("true")) || bytes.EqualFold(b, []byte("false"))
}

// missingValue reports whether the text field b is one of the marks of a
// missing value that R (NA), pandas (NA, <NA>, None, null, N/A, as its
// read_csv takes them) and Excel (#N/A) write.
func missingValue(b []byte) bool {
	switch string(b) {
	case "NA", "<NA>", "N/A", "n/a", "#N/A", "None", "null", "NULL":
		return true
	}
	return false
}

// quoteField quotes a field for a message, shortening long ones.
func quoteField(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}

// countSVMLight returns the numbers of ':' and newline bytes in a regular
// uncompressed file — bounds on its stored values and rows —, read with
// ReadAt so that the reader's position does not move, or 0, 0 when the size
// is unknown (standard input, gzip), a read fails or the counts are
// implausible (mostly comments or blank lines): hints for sizing
// arrays, which a file changing meanwhile cannot make wrong, only less
// useful.
func (s *source) countSVMLight() (colons, newlines int) {
	if s.file == nil || s.size <= 0 {
		return 0, 0
	}
	buf := make([]byte, min(s.size, bufSize))
	for off := int64(0); off < s.size; {
		k, err := s.file.ReadAt(buf, off)
		colons += bytes.Count(buf[:k], []byte{':'})
		newlines += bytes.Count(buf[:k], []byte{'\n'})
		off += int64(k)
		if err != nil {
			if err == io.EOF {
				break
			}
			return 0, 0
		}
	}
	// A stored value takes at least 4 bytes ("1:2 "), a row 2 ("1\n"): more
	// colons or newlines than that (comments, blank lines) must not make the
	// arrays, 16 bytes each, larger than 5 times the file.
	if 16*int64(colons+newlines) > 5*s.size {
		return 0, 0
	}
	return colons, newlines
}
