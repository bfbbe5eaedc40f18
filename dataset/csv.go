package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// ReadMatrix reads a matrix of numbers from path, choosing the format by
// name and content:
//
//   - a name ending in ".npy" or ".npy.gz", or content starting with the .npy
//     magic bytes: a 2-D NumPy array (see ReadNPYMatrix);
//   - anything else: delimited text (see DecodeCSV).
//
// Content starting with the gzip magic bytes is decompressed first. The path
// "-" reads text from standard input.
func ReadMatrix(path string) (*mat.Dense, error) {
	return ReadMatrixNames(path, HeaderAuto, nil)
}

// NPYName reports whether path names a .npy file by its name (".npy" or
// ".npy.gz"), which the readers of matrices and labels read as .npy
// whatever its content; "-", the standard input, is told by its content.
func NPYName(path string) bool {
	return path != "-" && (strings.HasSuffix(path, ".npy") || strings.HasSuffix(path, ".npy.gz"))
}

// MatrixHeader is what the readers of a matrix (ReadMatrixNames,
// ScanMatrixRows, DecodeMatrixNames, DecodeMatrixRows) made of the first
// content line of a text matrix, which they decide as they read it: a
// command tells the user from it, reading nothing again.
type MatrixHeader struct {
	// Names are the names of the matrix's columns in order, when it has
	// them: those of a text file's header (see DecodeCSV); nil for a file
	// without a header, for pandas' default names 0, 1, …, n−1, which name
	// no column, and for a .npy file. Set when the input has been read.
	Names []string
	// RangeLine is the line (from 1) that HeaderAuto read as pandas'
	// column names 0, 1, …, n−1 (isRangeHeaderRow) and dropped, rows
	// following it, and RangeCols its n: a first row of data that reads
	// so is lost silently, which a command may tell the user (greedytl's
	// note). 0, 0 when no line was dropped so. Set when the line is
	// dropped, before the first block of rows reaches a caller's fn.
	RangeLine, RangeCols int
	// FirstValues are the first values of a text file's first line, as
	// written (at most four: a fourth says more follow), when it was read
	// as a row of data, and FirstDecimals whether every value of that line
	// is written with a point or an exponent, as data is: a line that
	// HeaderYes refuses as a header (ErrFirstLineData). A command's note
	// that the line may be a header quotes them and offers HeaderYes only
	// where it would read the line. nil and false for a header, a range
	// header dropped, and a .npy file. Set when the line is read.
	FirstValues   []string
	FirstDecimals bool
}

// ReadMatrixNames is ReadMatrix that reads the first line of a text file
// as h says (HeaderAuto: as DecodeCSV does; HeaderYes: a header, always,
// but a row of decimals is refused (ErrFirstLineData); HeaderNo: a row of data, always; a .npy file has no header line, and
// is read as it is whatever h) and also sets *hdr, when hdr is not nil,
// to what it made of a text file's first line (MatrixHeader: its column
// names, and the line of pandas' default names it dropped); the zero
// MatrixHeader for a .npy file. After an error *hdr says nothing.
func ReadMatrixNames(path string, h HeaderRule, hdr *MatrixHeader) (*mat.Dense, error) {
	if hdr != nil {
		*hdr = MatrixHeader{}
	}
	if NPYName(path) {
		return ReadNPYMatrix(path)
	}
	src, err := openPath(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	return src.matrix(displayName(path), h, hdr)
}

// ScanMatrixRows reads the matrix file path as ReadMatrixNames does (h the
// header rule of its first line; the
// same formats, checks, errors and names: both reach decodeCSVRows, which
// ReadMatrixNames runs with one block) and gives its rows to fn in order, in blocks of at most block
// rows (block ≥ 2), each a new matrix, a block at a time as it is read,
// holding a block of values, not the whole matrix: a text file, a 2-D .npy
// file in C order (NumPy's default; or of one row or column), compressed
// or not, and one in Fortran order (read in column strips; a
// gzip-compressed one, whose first row comes with its last column at the
// end of the stream, decompressed into a temporary file first, and read
// whole, given at once, when none can be made: scanNPY).
// An error may follow blocks (a bad line after them, or a check of every
// row at the end): then the file is not a matrix, the error is
// ReadMatrixNames's for it, and what fn made of the blocks is to be
// dropped. fn's error stops the reading and is returned as it is (a caller
// that must tell it from the reader's records it).
// *hdr (hdr not nil) is set as MatrixHeader says: its RangeLine before the
// first block reaches fn, its Names when the file has been read.
func ScanMatrixRows(path string, h HeaderRule, hdr *MatrixHeader, block int, fn func(*mat.Dense) error) error {
	if block < 2 {
		return fmt.Errorf("dataset: ScanMatrixRows: block %d, want at least 2", block)
	}
	if hdr != nil {
		*hdr = MatrixHeader{}
	}
	src, err := openPath(path)
	if err != nil {
		return err
	}
	defer src.close()
	return src.scanMatrix(displayName(path), NPYName(path), h, hdr, block, fn)
}

// DecodeMatrixRows is ScanMatrixRows of the stream r (standard input),
// named name in messages: its format told by its content, as
// DecodeMatrixNames tells it (.npy by its magic bytes, else text; either
// gzip-compressed), its rows given to fn a block at a time as they come.
// A .npy array in Fortran order, whose first row comes with its last
// column, is read whole and given at once, as from a pipe.
func DecodeMatrixRows(r io.Reader, name string, h HeaderRule, hdr *MatrixHeader, block int, fn func(*mat.Dense) error) error {
	if block < 2 {
		return fmt.Errorf("dataset: DecodeMatrixRows: block %d, want at least 2", block)
	}
	if hdr != nil {
		*hdr = MatrixHeader{}
	}
	br, _, err := maybeGunzip(r, name)
	if err != nil {
		return err
	}
	return (&source{size: -1, br: br}).scanMatrix(name, false, h, hdr, block, fn)
}

// scanMatrix gives the rows of src's matrix to fn in blocks
// (ScanMatrixRows), reading it as .npy when npy is set or its content
// starts with the magic bytes, else as text.
func (src *source) scanMatrix(name string, npy bool, h HeaderRule, hdr *MatrixHeader, block int, fn func(*mat.Dense) error) error {
	if npy || src.isNPY() {
		return src.scanNPY(name, block, fn)
	}
	return decodeCSVRows(src.br, name, h, hdr, block, fn)
}

// DecodeMatrix reads a matrix from r in either of ReadMatrix's formats,
// told apart by the content: .npy (its magic bytes) or delimited text (see
// DecodeCSV), either optionally gzip-compressed. It is what reads a matrix
// from standard input; name is used in error messages.
func DecodeMatrix(r io.Reader, name string) (*mat.Dense, error) {
	return DecodeMatrixNames(r, name, HeaderAuto, nil)
}

// DecodeMatrixNames is DecodeMatrix that reads the first line of text as h
// says and also sets *hdr (hdr not nil) to what it made of that line, as
// ReadMatrixNames does.
func DecodeMatrixNames(r io.Reader, name string, h HeaderRule, hdr *MatrixHeader) (*mat.Dense, error) {
	if hdr != nil {
		*hdr = MatrixHeader{}
	}
	br, _, err := maybeGunzip(r, name)
	if err != nil {
		return nil, err
	}
	src := &source{size: -1, br: br}
	return src.matrix(name, h, hdr)
}

// matrix decodes src as .npy when it starts with the magic bytes, else as
// delimited text, its first line read as h says, setting *hdr (not nil)
// to what it made of that line.
func (src *source) matrix(name string, h HeaderRule, hdr *MatrixHeader) (*mat.Dense, error) {
	if src.isNPY() {
		a, err := src.npy(name)
		if err != nil {
			return nil, hintText(err, matrixHint)
		}
		return a.matrix(name)
	}
	return decodeCSV(src.br, name, h, hdr)
}

// DecodeCSV reads a matrix of numbers from delimited text; name is used in
// error messages.
//
// The separator is detected once per input from its first content line: a
// comma if that line has one, else a tab if it has one, else runs of spaces
// and tabs; but a header (below) with tabs and commas whose first row splits
// at tabs into as many fields as the header does, and at commas not, is
// tab-separated: pandas' to_csv(path, sep='\t') writes a column name
// holding a comma unquoted ("a,b<TAB>c"). A first line that is Excel's separator directive ("sep=,",
// "sep=;", "sep=" and a tab, "sep=|", or "sep= " for runs of blanks) names
// it instead, and is skipped, as Excel reads it. Blank lines and lines whose first non-blank character is '#'
// are skipped — but for a blank line between the rows of a file of one
// column (or below its header), which is refused: it is a missing value,
// as pandas' to_csv writes NaN there, and skipped would move every row
// below up one. Fields may be double-quoted, and blanks around them are
// ignored.
//
// The first content line may be a header of column names, which is
// skipped; its field count must match the data's. Names are fields none of
// which is a number (not all empty), or the integers 0, 1, …, n−1 that
// pandas names the columns of a DataFrame made from an array (to_csv(path,
// index=False) writes them) when n ≥ 3, they are separated by commas or
// tabs (pandas writes no other separator) and rows follow: a row of data
// that reads so is unlikely. With one or two columns, separated by spaces,
// or alone in the input, they are a row of data: "0" or "0,1" is as likely
// a first row as a header (pandas writes an integer frame's values bare),
// so a one- or two-column DataFrame must be written with header=False;
// above rows that are all decimals, every value of every row below with a
// point or an exponent (as pandas writes every float), such a line of two
// or more columns is refused, not read as a row, and so is a line of two
// or more other integers above such rows that hold a value that is not an
// integer ("3,7,9,12" above "0.5,…": numeric column names, as pandas
// writes a frame's integer column names and greedytl predict --scores a
// model's numeric classes; or a row of data written bare, as
// np.savetxt(fmt='%g') writes 1.0, which taken for a header would be
// lost): ErrFirstLineAmbiguous; ReadMatrixNames's HeaderYes and HeaderNo
// take the line for a header or for data. Above any row with a
// value written bare ("1 0", as np.savetxt(fmt='%g') writes 1.0) it is
// data. A lone "0" stays data: greedytl predict writes a
// score of exactly 0 so, above scores that are not integers.
// Names after an empty first field (",a,b",
// ",0,1", `"","V1","V2"`) are refused: that is the header pandas' to_csv
// writes with its default index=True, and R's write.csv with its row names,
// above a first column of row labels that would be read as a feature; the
// error says to write the file with index=False (row.names=FALSE).
//
// Every data line must have the same number of fields, each a finite
// number in the syntax of every data file (package internal/number's
// Parse, C's strtod's: no digit separators). Errors name the 1-based
// line and column, e.g. "x.csv:17: expected 5 values, got 4" or
// "x.csv:3: column 2 is NaN". Input without data lines is an error ("no rows").
//
// Input starting with the gzip magic bytes is decompressed.
func DecodeCSV(r io.Reader, name string) (*mat.Dense, error) {
	br, _, err := maybeGunzip(r, name)
	if err != nil {
		return nil, err
	}
	return decodeCSV(br, name, HeaderAuto, nil)
}

// decodeCSV is DecodeCSV without the gzip sniffing, its first line read
// as h says (ReadMatrixNames). When hdr is not nil it sets *hdr to what it
// made of the first line (MatrixHeader).
func decodeCSV(r io.Reader, name string, h HeaderRule, hdr *MatrixHeader) (*mat.Dense, error) {
	var A *mat.Dense
	if err := decodeCSVRows(r, name, h, hdr, math.MaxInt, func(b *mat.Dense) error { A = b; return nil }); err != nil {
		return nil, err
	}
	return A, nil
}

// decodeCSVRows is decodeCSV giving the rows to fn in blocks of at most
// block (≥ 2) rows, in order, as they are read: its errors, some of them
// found at the end (a first column counting the rows, a range header above
// rows of decimals), may follow blocks. It keeps a block of values, and
// checks the first column as the rows arrive. fn's error stops it and is
// returned. When hdr is not nil it sets hdr.RangeLine and RangeCols as it
// drops a range header (emit), and hdr.Names at the end.
func decodeCSVRows(r io.Reader, name string, h HeaderRule, hdr *MatrixHeader, block int, fn func(*mat.Dense) error) error {
	lr := newLineReader(r, name)
	var (
		started    bool
		headerLine int
		headerText []byte // the header line, split again at tabs by tabHeader
		// rangeHeader: the first line is pandas' column names 0, 1, …,
		// n−1 (n ≥ 3, commas or tabs), kept as a row and dropped at the
		// end if rows follow.
		rangeHeader bool
		rangeLine   int // rangeHeader's line
		// intRow: the first line is n ≥ 2 integers (0, 1, …, n−1 or any
		// others) but no rangeHeader: refused above rows all of decimals
		// (of other integers, when some value below is no integer).
		intRow     bool
		rangeRow   bool     // the first row is 0, 1, …, n−1 (isRangeHeader)
		firstInts  []string // intRow's integers, for its error
		fractional bool     // some value below the first row is not an integer
		decimals   = true   // every row after the first is allDecimals
		header     []string // the header's column names (nil: none)
		rangeNames bool     // the header (HeaderYes's) is 0, 1, …, n−1, which names no column
		cols       = -1
		rows       int
		// The rows not yet given to fn, a new chunkedValues each block, as
		// fn may keep its values: after the first block, of block·cols
		// values allocated at once (sizedValues: as many as the first
		// block held).
		values  chunkedValues
		emitted int // the rows given to fn (a range header's included)
		// counting: the first column, of the rows below any range
		// header, has counted from, from+1, … so far (counted rows), from
		// 0 or 1, in a matrix of two or more columns: a row index, refused
		// from minIndexRows rows on.
		counting bool
		from     float64
		counted  int
		ids      rowIDs // the first column, of the same rows, as shuffled row numbers
		// fraction: some value of a column but the first, below any
		// header, is not an integer (rowIDs.index; looked for only while
		// the first column may be unquoted row numbers)
		fraction bool
		fields   [][]byte
		scratch  []byte
		quoted   []bool
		err      error
		dataLine [2]int // the lines of the first two rows
	)
	var split fieldSplit // how the lines are split, also for parseValue's messages
	// emit gives fn the rows read since the last block, but the first line
	// when it is a range header and rows follow (block ≥ 2: they do when
	// a block is full), which it records in hdr.
	emit := func() error {
		data, n := values.join(), rows-emitted
		if emitted == 0 && rangeHeader && rows > 1 {
			data, n = data[cols:], n-1
			if hdr != nil {
				hdr.RangeLine, hdr.RangeCols = rangeLine, cols
				hdr.FirstValues, hdr.FirstDecimals = nil, false
			}
		}
		values, emitted = chunkedValues{}, rows
		if n == 0 {
			return nil
		}
		return fn(mat.NewDense(n, cols, data))
	}
	for line, ok := lr.content(); ok; line, ok = lr.content() {
		if !started && !split.directive {
			if split.sep, split.directive = lr.sepDirective(line); split.directive {
				continue
			}
			split.sep = detectSep(line)
		}
		q := &quoted // which of the first row's fields were quoted (firstRow)
		if started {
			q = nil
		}
		fields, err = splitQuoted(fields, line, split.sep, &scratch, q)
		if err != nil {
			return &Error{File: name, Line: lr.line, Err: err}
		}
		if !started {
			started = true
			split.firstRow(fields, quoted)
			if h != HeaderNo && isIndexHeader(fields) {
				return indexHeaderError(name, lr.line)
			}
			if h == HeaderYes && allDecimals(fields) {
				return &Error{File: name, Line: lr.line, Err: ruleLine{ErrFirstLineData, "a row of decimals read as a header: every value is a number written with a point or an exponent, as data is, not as column names are"}}
			}
			if h == HeaderYes || h == HeaderAuto && isHeader(fields) {
				headerLine, headerText = lr.line, bytes.Clone(line)
				cols = len(fields)
				header = make([]string, cols)
				for j, f := range fields {
					header[j] = string(f)
				}
				rangeNames = isRangeHeader(fields)
				continue
			}
			if hdr != nil {
				for _, f := range fields[:min(len(fields), 4)] {
					hdr.FirstValues = append(hdr.FirstValues, string(f))
				}
				hdr.FirstDecimals = allDecimals(fields)
			}
			if h == HeaderAuto { // HeaderNo: a row of data, whatever it reads as
				rangeRow = isRangeHeader(fields)
				rangeHeader = isRangeHeaderRow(split.sep, fields)
				rangeLine = lr.line
				if intRow = !rangeHeader && len(fields) >= 2 && allIntegers(fields) && distinctNames(fields); intRow {
					for _, f := range fields {
						firstInts = append(firstInts, string(f))
					}
				}
			}
		} else if intRow && decimals {
			decimals = allDecimals(fields)
		}
		if rows == 0 && headerLine > 0 && len(fields) != cols && split.sep == ',' && !split.directive && tabHeader(headerText, line) {
			// pandas' to_csv(sep='\t') writes a name holding a comma
			// unquoted: the header was split at its commas.
			split.sep = '\t'
			hf, err := splitFields(nil, headerText, '\t', &scratch)
			if err == nil && isIndexHeader(hf) {
				return indexHeaderError(name, headerLine)
			}
			cols = len(hf)
			header = header[:0]
			for _, f := range hf {
				header = append(header, string(f))
			}
			if fields, err = splitFields(fields, line, '\t', &scratch); err != nil {
				return &Error{File: name, Line: lr.line, Err: err}
			}
		}
		if rows == 0 && headerLine > 0 {
			// The names as split at the separator the rows have (tabHeader).
			if err := headerUTF8(name, headerLine, header); err != nil {
				return err
			}
		}
		if cols < 0 {
			cols = len(fields)
		} else if len(fields) != cols {
			if rows == 0 && headerLine > 0 && len(fields) == cols+1 {
				// R's write.table names no column above its row names.
				return errorf(name, lr.line, "expected %d values as in the header on line %d, got %d (one more: row names below a header that names the data columns alone, as R's write.table writes by default? write the file without them: write.table(x, path, row.names=FALSE))", cols, headerLine, len(fields))
			}
			var header []byte
			if rows == 0 && headerLine > 0 {
				header = headerText
			}
			hint := mixedSepHint(line, header, split.sep, cols)
			if hint == "" && split.sep != ';' && bytes.IndexByte(line, ';') >= 0 {
				// "1;2,5;3" split at its decimal comma, "3;4;1" below it.
				hint = " (" + semicolonNote(split.directive) + ")"
			}
			if rows == 0 && headerLine > 0 {
				return errorf(name, lr.line, "expected %d values as in the header on line %d, got %d%s", cols, headerLine, len(fields), hint)
			}
			return errorf(name, lr.line, "expected %d values, got %d%s", cols, len(fields), hint)
		}
		if cols == 1 && lr.blank > 0 && (rows > 0 || headerLine > 0) {
			return blankValueError(name, lr.blank)
		}
		if rows > 0 && len(fields) > 1 && allEmpty(fields) {
			return errorf(name, lr.line, "a row of %d empty fields (Excel writes them below the data where cells were formatted or cleared): delete the rows below the data", len(fields))
		}
		if emitted > 0 && values.cur == nil {
			values = sizedValues(block * cols)
		}
		for j, f := range fields {
			v, err := parseValue(f, j+1, split)
			if err != nil {
				if h == HeaderNo && rows == 0 && isHeader(fields) {
					err = namesRow{err} // HeaderAuto would have read it as a header
				}
				return &Error{File: name, Line: lr.line, Err: err}
			}
			values.add(v)
			if intRow && decimals && !fractional && rows > 0 && v != math.Trunc(v) {
				fractional = true
			}
			if j == 0 && !(rangeHeader && rows == 0) {
				if counted == 0 {
					counting, from = cols >= 2 && (v == 0 || v == 1), v
					ids = rowIDs{ok: cols >= 2, quoted: headerLine == 0 && !rangeHeader && onlyFirstQuoted(quoted)}
				} else {
					counting = counting && v == from+float64(counted)
				}
				ids.add(f, v, counted)
				counted++
			} else if ids.ok && !ids.quoted && !fraction && j > 0 && v != math.Trunc(v) && !(rangeHeader && rows == 0) {
				fraction = true
			}
		}
		if rows < 2 {
			dataLine[rows] = lr.line
		}
		rows++
		if rows-emitted == block {
			if err := emit(); err != nil {
				return err
			}
		}
	}
	if lr.err != nil {
		return lr.err
	}
	if rows == 0 {
		if headerLine > 0 {
			return errorf(name, 0, "no rows after the header on line %d", headerLine)
		}
		return errorf(name, 0, "no rows")
	}
	if intRow && decimals && rows > 1 && (rangeRow || fractional) {
		return intRowError(name, dataLine[0], firstInts, rangeRow)
	}
	if rangeHeader && rows > 1 {
		dataLine[0] = dataLine[1]
	}
	var how string // how column 1 reads as a row index, if it does
	switch {
	case counting && counted >= minIndexRows:
		from := int(from)
		how = fmt.Sprintf("counts the rows (%d, %d, …, %d)", from, from+1, from+counted-1)
	case ids.index(counted, fraction):
		how = fmt.Sprintf("numbers the rows out of order (%s, %s, …, each once, none above %d: an index shuffled by train_test_split or sample)", ids.first[0], ids.first[1], ids.max)
	}
	if how != "" {
		switch {
		case headerLine == 0:
			// A range header (pandas' default names 0, 1, …) names no column either.
			unnamed := "header=False leaves no name to mark it"
			if rangeHeader {
				unnamed = "pandas' default column names 0, 1, … name none"
			}
			return errorf(name, dataLine[0], "column 1 %s: a row index, as pandas' to_csv writes by default (index=True; %s) and R's write.table its row names, would be read as a feature; write the file without it (pandas: to_csv(path, index=False); R: row.names=FALSE), or, if it is a feature, give the file a header naming it (or save X with np.save, .npy)", how, unnamed)
		case isIndexName(header[0]):
			return errorf(name, dataLine[0], "column 1, named %q, %s: a row index, as pandas writes it (to_csv of a named index, or of reset_index's column) and R's read.csv names row names, would be read as a feature; write the file without it (pandas: to_csv(path, index=False); R: row.names=FALSE), or, if it is a feature, name it in the header (or save X with np.save, .npy)", header[0], how)
		}
	}
	if hdr != nil && !rangeNames {
		hdr.Names = header
	}
	return emit()
}

// headerUTF8 returns an error naming the first of a header's column names,
// read from line of file name, that is not valid UTF-8: Excel's "CSV
// (Comma delimited)" writes Windows-1252, whose names, kept, were stored
// in the model with U+FFFD for each such byte, and the same file then no
// longer matched them at predict.
func headerUTF8(name string, line int, header []string) error {
	for j, s := range header {
		if !utf8.ValidString(s) {
			return errorf(name, line, "column %d is named %s, which is not valid UTF-8: %s", j+1, strconv.Quote(s), saveAsUTF8)
		}
	}
	return nil
}

// chunkValues is the values of one chunk of a chunkedValues: 512 KiB.
const chunkValues = 1 << 16

// chunkedValues collects the values of a matrix read row by row whose
// size is not known ahead: in one slice grown by append up to chunkValues
// (a small file, as before), beyond that in chunks of chunkValues joined
// once at the end. A slice grown by append to n values allocates about 5n
// (copied at each 1.25-fold growth, the old copies garbage) and holds 2.25n
// at a growth; the chunks allocate n, joined 2n, and hold 2n at the join.
// Of a number of values known ahead (sizedValues) its first slice holds
// them all, allocated at once, and join returns it.
type chunkedValues struct {
	full  [][]float64 // the chunks before cur, each of chunkValues values
	cur   []float64
	first int // the values cur holds before it becomes a chunk: chunkValues, or sizedValues' n
}

// sizedValues returns a chunkedValues for n values, allocated at once.
func sizedValues(n int) chunkedValues {
	return chunkedValues{cur: make([]float64, 0, n), first: n}
}

// add appends v.
func (c *chunkedValues) add(v float64) {
	if len(c.cur) == max(c.first, chunkValues) {
		c.full = append(c.full, c.cur)
		c.cur = make([]float64, 0, chunkValues)
	}
	c.cur = append(c.cur, v)
}

// join returns the values in the order added: cur itself when it holds
// them all, else a new slice of exactly their number (the chunks are then
// dropped).
func (c *chunkedValues) join() []float64 {
	if len(c.full) == 0 {
		return c.cur
	}
	n := len(c.cur)
	for _, ch := range c.full {
		n += len(ch)
	}
	out := make([]float64, 0, n)
	for i, ch := range c.full {
		out = append(out, ch...)
		c.full[i] = nil
	}
	out = append(out, c.cur...)
	c.full, c.cur = nil, nil
	return out
}

// blankValueError is the error of a blank line, line, between the rows of
// a file of one column (or its header and first row): a missing value,
// which pandas' to_csv writes so (a Series or one-column frame holding
// NaN). Skipped, as blank lines are elsewhere, it would move every row
// below up one, silently where no labels count the rows.
func blankValueError(name string, line int) error {
	return errorf(name, line, "a blank line between the rows of a one-column file: a missing value (pandas' to_csv writes NaN so), whose row would be lost and every row below moved up one; fill or drop the missing values (pandas: fillna or dropna) and write the file again, or delete the line if no row is missing")
}

// minIndexRows is the fewest rows whose first column, counting them from 0
// or from 1 in a matrix of two or more columns, as a row index pandas or R
// wrote does, is taken for a row index (decodeCSVRows): a feature of a few
// rows may count 0, 1, 2 by chance.
const minIndexRows = 10

// minShuffledRows is the fewest rows whose first column of distinct
// integers written bare, not counting them, is taken for a shuffled row
// index (rowIDs.index).
const minShuffledRows = 20

// rowIDs follows the first column of a matrix of two or more columns, row
// by row, as a row index out of order: the index pandas' to_csv writes
// after train_test_split or sample (43, 61, 8, …), or R's write.table of
// x[idx, ] its row names ("43", "61", …), which the counting rule (0, 1,
// …) does not find.
type rowIDs struct {
	ok     bool      // every value so far is a distinct integer 0 ≤ n < 10⁹ written as digits alone
	quoted bool      // the first row's value was quoted, and no other of its fields: R quotes row names, never a number
	seen   []uint64  // a bit for each value seen
	max    int       // the greatest value seen
	prev   int       // the value before
	down   bool      // some value is below the one before it
	first  [2]string // the first two values, for the message
}

// add records f, the first field of row k (0-based), whose value is v.
func (r *rowIDs) add(f []byte, v float64, k int) {
	if !r.ok {
		return
	}
	if !digitsOnly(f) || len(f) > 9 {
		r.ok = false
		return
	}
	n := int(v) // exact: at most 9 digits
	// The bits are kept while they cost at most half a byte a row over a
	// fixed 8 KiB: a shuffled index of n rows holds values below 4n
	// (index); a column that exceeds this is not one, and is let go.
	if n >= 4*(k+1)+1<<16 {
		r.ok, r.seen = false, nil
		return
	}
	if w := n / 64; w >= len(r.seen) {
		r.seen = append(r.seen, make([]uint64, w+1-len(r.seen))...)
	}
	if r.seen[n/64]&(1<<(n%64)) != 0 {
		r.ok, r.seen = false, nil // a value twice: no index
		return
	}
	r.seen[n/64] |= 1 << (n % 64)
	r.max = max(r.max, n)
	if k > 0 && n < r.prev {
		r.down = true
	}
	r.prev = n
	if k < 2 {
		r.first[k] = string(f)
	}
}

// onlyFirstQuoted reports whether the first of a row's fields, quoted
// telling which of them were (splitQuoted), was quoted and no other: R's
// write.table quotes row names and strings, never a number, so a quoted
// first field beside bare numbers is a row name, while a file with every
// field quoted (Python's csv.QUOTE_ALL) says nothing of its first column.
func onlyFirstQuoted(quoted []bool) bool {
	if len(quoted) == 0 || !quoted[0] {
		return false
	}
	for _, q := range quoted[1:] {
		if q {
			return false
		}
	}
	return true
}

// index reports whether the first column of rows rows, followed by add,
// is a row index out of order, fraction telling whether another column
// holds a value that is not an integer. Quoted (R's row names, which
// write.table quotes and no number), distinct integers of minIndexRows or
// more rows are one. Written bare, they are one from minShuffledRows rows,
// when some value is below the one before it (a shuffled index is never
// increasing, and one in order from 0 or 1 counts the rows, which ReadCSV
// reads apart; an increasing feature, a day 4, 6, 8, …, is kept), below 4 × rows (a split's side of a quarter or more of the rows: the
// default test_size of train_test_split is 0.25), beside a column of
// fractions: a feature of integers (a count, an age) repeats values as
// rows grow: n values drawn uniformly below 4n are all distinct with
// chance about exp(−n/8), 8% at 20 rows, 0.7% at 40, and counts drawn
// from a narrower, peaked distribution less; an integer feature that
// pandas writes in a frame of floats is written with a point ("3.0"),
// which add does not take; and a frame of integers alone has no fraction.
func (r *rowIDs) index(rows int, fraction bool) bool {
	if !r.ok || rows < minIndexRows {
		return false
	}
	return r.quoted || rows >= minShuffledRows && r.down && r.max < 4*rows && fraction
}

// isIndexName reports whether a header's first name is one that pandas or R
// gives a row index written as a column, so that a column of it counting
// the rows is read as an index (minIndexRows): pandas' reset_index ("index",
// "level_0"), read_csv of a file with an index ("Unnamed: 0", and
// "Unnamed: 0.1", … when a file already held one, as it names a duplicate),
// R's read.csv of a file with row names ("X", and "X.1", … as make.unique
// names a duplicate), readr's read_csv of one ("...1"), tibble's
// rownames_to_column ("rowname"), "rownames", data.table's
// keep.rownames ("rn"), polars' with_row_count ("row_nr"), an index named
// as an identifier ("id"), or no name. Case is ignored, but for R's "X",
// which R writes in upper case alone: a feature "x" may count the rows. Any
// other name is the user's own: a month 1..12, an hour 0..23 or a time step
// counting the rows is a feature.
func isIndexName(s string) bool {
	if s == "X" || duplicateName(s, "X.") {
		return true
	}
	l := strings.ToLower(s)
	switch l {
	case "", "index", "level_0", "unnamed: 0", "id", "rowname", "rownames", "rn", "row_nr", "...1":
		return true
	}
	return duplicateName(l, "unnamed: 0.")
}

// duplicateName reports whether s is prefix and a positive integer: the
// name pandas (".1") and R (make.unique) give a duplicate column name.
func duplicateName(s, prefix string) bool {
	n, ok := strings.CutPrefix(s, prefix)
	if !ok || n == "" || n[0] == '0' {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isRangeHeader reports whether a first line's fields are the integers
// 0, 1, …, n−1 written as pandas writes a RangeIndex of column names.
func isRangeHeader(fields [][]byte) bool {
	for j, f := range fields {
		if string(f) != strconv.Itoa(j) {
			return false
		}
	}
	return len(fields) > 0
}

// allDecimals reports whether every field is written as a number that is
// not an integer's spelling: with a decimal point or an exponent, as
// pandas writes every float ("2.0", "1e+20").
func allDecimals(fields [][]byte) bool {
	for _, f := range fields {
		if !isNumber(f) || !bytes.ContainsAny(f, ".eE") {
			return false
		}
	}
	return len(fields) > 0
}

// allIntegers reports whether every field is an integer's spelling: digits
// after an optional sign, as pandas writes integer column names.
func allIntegers(fields [][]byte) bool {
	for _, f := range fields {
		if !digitsOnly(trimSign(f)) {
			return false
		}
	}
	return len(fields) > 0
}

// distinctNames reports whether integers (allIntegers) could be column
// names: none negative and no two alike, as pandas' integer column names,
// class numbers and wavelengths are. A row with a negative or a repeated
// value (-1,2; 0,0,0, a zero control vector) is read as data.
func distinctNames(fields [][]byte) bool {
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if f[0] == '-' {
			return false
		}
		k := strings.TrimLeft(string(bytes.TrimPrefix(f, []byte("+"))), "0")
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// intRowError is the error of a first line, on line line, of n ≥ 2
// integers (ints; isRange: they are 0, 1, …, n−1), none negative and no two alike (distinctNames), that no
// rangeHeader takes for a header above rows all of
// decimals (allDecimals, every row below), and, unless they are 0, 1, …,
// n−1, some of them not an integer (fractional): continuous data, in which
// a row of n integers is unlikely, written by a writer that writes every
// value with a point. 0, 1, …, n−1 (two columns, or
// blank-separated) is the header pandas' to_csv(path, index=False) writes
// above a DataFrame made from an array of floats, whose values it writes
// with a point; other integers are numeric column names (pandas' of a
// frame whose columns were named so, wavelengths, greedytl predict
// --scores's header of a model's classes when they are numbers). Read as
// a row it was an example of its own (and so was the "0" pandas writes
// above an unnamed Series of labels); taken for a header it would drop a
// row of data written bare above decimals (np.savetxt(fmt='%g')), so it is
// refused either way, the message saying how to make each reading plain.
func intRowError(name string, line int, ints []string, isRange bool) error {
	if isRange {
		names := "0, 1"
		if n := len(ints); n > 2 {
			names = fmt.Sprintf("0, 1, …, %d", n-1)
		}
		return ambiguousf(name, line, "%s above rows of decimals: the column names pandas gives a DataFrame made from an array (to_csv writes them as its header), which would be read as a row of data; write the file without them (pandas: to_csv(path, index=False, header=False)) or save X with np.save (.npy); if the line is data, write one of its values with a point (0.0)", names)
	}
	names := strings.Join(ints, ", ")
	if len(ints) > 4 {
		names = strings.Join(ints[:3], ", ") + ", …, " + ints[len(ints)-1]
	}
	return ambiguousf(name, line, "integers %s above rows of decimals: a header of numeric column names (as pandas writes a frame whose columns are numbers, and greedytl predict --scores the classes of a model whose classes are numbers), or a row of data written bare (np.savetxt(fmt='%%g'), R, MATLAB, Excel)? Either reading is possible, so neither is taken: if it is a header, delete the line (pandas: to_csv(path, index=False, header=False)) or write names that are not numbers; if it is data, write one of its values with a point (%s.0)", names, ints[0])
}

// ErrFirstLineAmbiguous is matched (errors.Is) by the error of a text
// matrix whose first line HeaderAuto takes neither for a header nor for a
// row of data (intRowError; see DecodeCSV): HeaderYes or HeaderNo says
// which it is.
var ErrFirstLineAmbiguous = errors.New("a header or a row of data")

// ErrFirstLineNames is matched (errors.Is) by the error of a text matrix
// read with HeaderNo whose first line, a row of data, holds a value that is
// no number, and reads as column names (as HeaderAuto would take it):
// HeaderYes or HeaderAuto reads it as a header.
var ErrFirstLineNames = errors.New("column names read as a row of data")

// ErrFirstLineData is matched (errors.Is) by the error of a text matrix
// read with HeaderYes whose first line is a row of decimals (every value a
// number with a point or an exponent, as allDecimals says): data, which
// HeaderYes would drop as column names. HeaderAuto or HeaderNo reads it as
// a row. Integers stay names under HeaderYes (pandas' integer column
// names).
var ErrFirstLineData = errors.New("a row of data read as a header")

// namesRow is the problem of an ErrFirstLineNames error: the value's
// error, worded as it is.
type namesRow struct{ err error }

func (n namesRow) Error() string { return n.err.Error() }
func (n namesRow) Unwrap() error { return n.err }

// Is reports whether target is ErrFirstLineNames.
func (n namesRow) Is(target error) bool { return target == ErrFirstLineNames }

// ruleLine is the problem of a first line that the header rule cannot
// read as it is: kind is ErrFirstLineAmbiguous or ErrFirstLineData.
type ruleLine struct {
	kind error
	msg  string
}

func (r ruleLine) Error() string { return r.msg }

// Is reports whether target is the problem's kind.
func (r ruleLine) Is(target error) bool { return target == r.kind }

// ambiguousf is errorf for an ErrFirstLineAmbiguous error.
func ambiguousf(file string, line int, format string, args ...any) error {
	return &Error{File: file, Line: line, Err: ruleLine{ErrFirstLineAmbiguous, fmt.Sprintf(format, args...)}}
}

// isIndexHeader reports whether a first line's fields are column names
// after an empty first field: the header pandas' to_csv (index=True) and
// R's write.csv write above a column of row labels. The names are either
// isHeader's or isRangeHeader's, none empty; an empty field before
// numbers that are not 0, 1, …, n−2 is a data row missing its first value.
func isIndexHeader(fields [][]byte) bool {
	if len(fields) < 2 || len(fields[0]) > 0 {
		return false
	}
	names := fields[1:]
	for _, f := range names {
		if len(f) == 0 {
			return false
		}
	}
	return isHeader(names) || isRangeHeader(names)
}

// indexHeaderError is the error of a header isIndexHeader recognises, on
// line line of the text file name: the matrix and label readers' one
// message.
func indexHeaderError(name string, line int) error {
	return errorf(name, line, "a header with an empty first name, as pandas' to_csv writes above its row index and R's write.csv above row names: that column would be read as data; write the file without it (pandas: to_csv(path, index=False); R: write.csv(x, path, row.names=FALSE))")
}

// isHeader reports whether a first line's fields are column names: none is
// a number and not all are empty.
func isHeader(fields [][]byte) bool {
	nonEmpty := false
	for _, f := range fields {
		if isNumber(f) {
			return false
		}
		nonEmpty = nonEmpty || len(f) > 0
	}
	return nonEmpty
}

// allEmpty reports whether every field is empty.
func allEmpty(fields [][]byte) bool {
	for _, f := range fields {
		if len(f) > 0 {
			return false
		}
	}
	return true
}

// SkippedBlankLines returns the first of the blank lines between the rows
// of the text matrix file path that DecodeCSV skips (below a content line
// and followed by another, with no comment between them: of a file of more
// than one column; of a run of them, the last), and how many such places
// there are. A row missing there goes
// unnoticed until a count of rows differs, which they may explain. It
// returns 0, 0 where reopenText does not read the file again.
func SkippedBlankLines(path string) (first, n int) {
	lr, done := reopenText(path)
	if lr == nil {
		return 0, 0
	}
	defer done()
	for rows := 0; ; rows++ {
		if _, ok := lr.content(); !ok {
			return first, n
		}
		if lr.blank > 0 && rows > 0 {
			if first == 0 {
				first = lr.blank
			}
			n++
		}
	}
}

// RowLine returns the line (from 1) of row i (from 0) of the n rows that
// DecodeCSV read from the text matrix file path: its rows are its last n
// content lines (a header and Excel's separator directive come first,
// blank and comment lines are none). It returns 0 where reopenText does
// not read the file again, or for a file that no longer has n rows.
func RowLine(path string, i, n int) int {
	if i < 0 || i >= n {
		return 0
	}
	lr, done := reopenText(path)
	if lr == nil {
		return 0
	}
	defer done()
	var lines []int // the content lines' numbers
	for {
		if _, ok := lr.content(); !ok {
			break
		}
		lines = append(lines, lr.line)
	}
	if len(lines) < n {
		return 0
	}
	return lines[len(lines)-n+i]
}

// reopenText opens the text matrix file path again, for what the reading
// that reported a problem did not keep (a line's number), and returns its
// line reader and the function that closes it; or nil for standard input,
// a named pipe or any other file that is not a regular file (read once: a
// second open of a pipe would wait for a writer that never comes), a .npy
// file, or a file it cannot open (whose error was reported).
func reopenText(path string) (*lineReader, func()) {
	if path == "-" {
		return nil, nil
	}
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil, nil
	}
	src, err := openPath(path)
	if err != nil {
		return nil, nil
	}
	if src.isNPY() {
		src.close()
		return nil, nil
	}
	return newLineReader(src.br, displayName(path)), func() { src.close() }
}
