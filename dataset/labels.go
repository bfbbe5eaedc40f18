package dataset

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/greedytl/greedytl/internal/number"
)

// ReadLabels reads binary class labels from path and maps them to ±1.
//
// The file is a .npy array (1-D, or 2-D with one column; chosen by the
// ".npy"/".npy.gz" suffix or the magic bytes) of numbers or of NumPy's
// strings ('<U n', what np.save writes of an array of str: each string,
// without the NULs that pad it and trimmed of white space as a text line
// is, a label, checked as text labels are but for comments) or text: one
// label per line
// (the line trimmed of white space, Unicode's too (U+00A0), which may
// contain spaces but no comma or tab), or all
// labels on one line separated as DecodeCSV separates fields. Blank
// lines and '#' comment lines are skipped; a comment after a label (an
// unquoted label holding a '#' that starts a word and is followed by white
// space or ends the label, "cat # the first", or follows a number, "1
// #positive": inlineComment; "Song #1" and "C#" are labels) is an error
// naming its line, and so is, in a file of one
// label per line, an unquoted label that is a row of a matrix
// (numberRowLabel: three or more numbers, "0.5 0.3 0.1"; two decimals
// beside a number or another row; "0 1" and "1 0" when every label but a header is one, two or more;
// two integers otherwise, "10 19", "0 4", are a label), and labels in brackets that the first opens and
// the last closes around numbers or quoted strings (a list printed: "[1,
// 0, 1]", "['cat' 'dog']": inBrackets); gzip is decompressed. A
// text file
// may start with a header: a non-numeric first value above numeric labels,
// or a first value that occurs only there above labels of exactly two other
// values; a first line that is empty ("", as pandas writes the header of a
// Series named "") or only white space is such a value, and elsewhere an
// error naming its line. A label CheckLabel refuses (one that reads as a number but not a
// finite one: NaN, ±Inf in any spelling, a number beyond float64's range;
// or bytes that are not UTF-8) is an error naming its line.
//
// The labels must take exactly two distinct values. positive names the one
// mapped to +1 (the other becomes −1): compared numerically when the labels
// and positive are numbers (so "1" matches "+1" and "1.0", and a float32
// value's float64 spelling, "0.10000000149011612", matches its float32
// name, "0.1": see matchNumber), else as trimmed
// strings. When positive is "" and the values are {−1, +1} or {0, 1}, +1 and
// 1 are positive; any other pair requires positive. Errors list the distinct
// values found (up to five).
func ReadLabels(path, positive string) ([]float64, error) {
	name := displayName(path)
	lf, err := readLabelFile(path)
	if err != nil {
		return nil, err
	}
	vals := lf.vals
	if !lf.npy {
		vals = dropBinaryHeader(dropNumericHeader(vals))
	}
	if err := lf.checkLabels(len(lf.vals)-len(vals), true); err != nil {
		return nil, err
	}
	return binaryLabels(name, vals, positive)
}

// SignedLabels returns the labels, in ReadLabels's form, of pos positive
// examples followed by neg negative ones: pos times +1, then neg times −1.
// It panics when a count is negative (a caller's bug, as for make).
func SignedLabels(pos, neg int) []float64 {
	if pos < 0 || neg < 0 {
		panic(fmt.Sprintf("dataset: SignedLabels(%d, %d): negative count", pos, neg))
	}
	y := make([]float64, pos+neg)
	for i := range y {
		y[i] = -1
		if i < pos {
			y[i] = 1
		}
	}
	return y
}

// ReadLabelValues reads the labels of path as strings, in order, from the
// files ReadLabels accepts: the text values as written (trimmed, a header
// above numeric labels dropped), or the .npy values formatted in the
// shortest form that reads back exactly as the array's type ("3", "0.5";
// a float32 0.1 is "0.1", which names no other float32). An integer
// beyond 2⁵³ in a text file is returned as written (ReadLabels and
// ReadClasses refuse it among numbers, which they compare as float64s).
func ReadLabelValues(path string) ([]string, error) {
	lf, err := readLabelFile(path)
	if err != nil {
		return nil, err
	}
	vals := lf.vals
	if !lf.npy {
		vals = dropNumericHeader(vals)
	}
	if err := lf.checkLabels(len(lf.vals)-len(vals), false); err != nil {
		return nil, err
	}
	return vals, nil
}

// labelFile is what readLabelFile read: a label file's values, in order,
// and where each was read, for messages.
type labelFile struct {
	name string     // the file, for messages (displayName)
	vals []string   // the values, a header included
	at   []labelPos // text: the place of each value; nil for .npy
	npy  bool       // a .npy file (its non-finite values are refused on reading)
	// texts: a .npy array of strings ('<U n', labelDescr), its values as
	// written, which checkLabels checks as text labels (but for comments,
	// which a string holds as any other character, and headers, which an
	// array has none of).
	texts bool
	// gaps are the first blank and comment lines before, between and
	// after the lines of labels, which hold none.
	gaps labelGaps
}

// asWritten reports whether lf's values are its labels as written (a text
// file's, or a .npy array of strings), not a .npy array's numbers, which
// labelFile formatted itself (one spelling each) after reading checked them.
func (lf *labelFile) asWritten() bool {
	return !lf.npy || lf.texts
}

// labelGaps are, by LinePlace, the first blank line and the first comment
// line of a text label file before its first line of labels, between its
// first two (AfterHeader), between two others and after its last, and
// how many such lines there are.
type labelGaps [placeCount]gapLines

// gapLines are the first blank line and the first comment line of a part
// of a text label file (0: none), and how many of each it has: they hold
// no label, where pandas writes a missing label (NaN) as a blank line and
// np.savetxt a class "#tag" as a line that reads as a comment.
type gapLines struct{ blank, comment, blanks, comments int }

// note notes line, a line that holds no label (isSkippable), blank or a
// comment, and its number if it is the first of its kind.
func (g *gapLines) note(line []byte, num int) {
	if blankLine(line) {
		g.blank = cmp.Or(g.blank, num)
		g.blanks++
	} else {
		g.comment = cmp.Or(g.comment, num)
		g.comments++
	}
}

// LinePlace is where a line of a text label file that holds no label
// (blank, or a comment) stands among the lines that hold them.
type LinePlace int

const (
	// BetweenLabels is a line between two lines of labels (a header
	// counts as one).
	BetweenLabels LinePlace = iota
	// BeforeLabels is a line before the first line of labels.
	BeforeLabels
	// AfterLabels is a line after the last line of labels.
	AfterLabels
	// AfterHeader is a line between the first line, read as a header,
	// and the first line of labels (where the first line is a label,
	// such a line is BetweenLabels).
	AfterHeader
	placeCount
)

// String returns where p is, as a message says it: "between labels",
// "before the first label", "after the last label", "after the header".
func (p LinePlace) String() string {
	switch p {
	case BetweenLabels:
		return "between labels"
	case BeforeLabels:
		return "before the first label"
	case AfterLabels:
		return "after the last label"
	case AfterHeader:
		return "after the header"
	}
	return "LinePlace(" + strconv.Itoa(int(p)) + ")"
}

// labelPos is the place of a label in a text file: its 1-based line and,
// when a line holds all the labels, its 1-based column (else 0); and
// whether it was quoted (R's write.table quotes strings, and a quoted label
// is taken as written: "1 star", "10 19", "NA").
type labelPos struct {
	line, col int
	quoted    bool
	blanks    bool // one line holds all the labels, separated by blanks
}

// readLabelFile returns a label file's values, where each was read and
// whether it was .npy; a .npy file's values are finite (NPYArray.vector).
func readLabelFile(path string) (*labelFile, error) {
	src, err := openPath(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	return src.labelFile(displayName(path), NPYName(path))
}

// decodeLabelFile is readLabelFile for the content of r, named name in
// messages: a .npy array when it starts with the magic bytes, else text,
// either optionally gzip-compressed.
func decodeLabelFile(r io.Reader, name string) (*labelFile, error) {
	br, _, err := maybeGunzip(r, name)
	if err != nil {
		return nil, err
	}
	src := &source{size: -1, br: br}
	return src.labelFile(name, false)
}

// DecodeClassesHeader is ReadClassesHeader for the content of r (a .npy
// array, told apart by its magic bytes, or text; either optionally
// gzip-compressed): what reads a label file from standard input. name
// names it in messages.
func DecodeClassesHeader(r io.Reader, name string, h HeaderRule) (*Classes, error) {
	lf, err := decodeLabelFile(r, name)
	if err != nil {
		return nil, err
	}
	return lf.classes(h, nil)
}

// labelFile decodes the label file src, named name in messages: a .npy
// array when npyName (its name says so) or its content starts with the
// magic bytes, else text.
func (src *source) labelFile(name string, npyName bool) (*labelFile, error) {
	if src.isNPY() || npyName {
		var v []float64
		a, texts, err := src.npyLabels(name)
		if err == nil && texts == nil {
			v, err = a.vector(name)
		}
		if be := (*bigIntError)(nil); errors.As(err, &be) {
			be.vector = true // "row 2", as the label readers name a row ("row 2 is NaN")
		}
		if err != nil {
			return nil, hintText(err, labelHint)
		}
		if len(v) == 0 && len(texts) == 0 {
			return nil, errorf(name, 0, "no labels")
		}
		if texts != nil {
			for i, t := range texts {
				// White space around a label goes, as the text reader
				// trims it (appendFields): " cat" is the class "cat"; a
				// label of white space alone is kept for its error.
				if t := strings.TrimSpace(t); t != "" {
					texts[i] = t
				}
			}
			return &labelFile{name: name, vals: texts, npy: true, texts: true}, nil
		}
		vals := make([]string, len(v))
		bits := 64
		if t, err := parseDescr(a.Descr); err == nil && t.kind == 'f' && t.size == 4 {
			bits = 32 // 0.1 as float32 is the class "0.1", not "0.10000000149011612"
		}
		for i, x := range v {
			vals[i] = strconv.FormatFloat(x, 'g', -1, bits)
		}
		return &labelFile{name: name, vals: vals, npy: true}, nil
	}
	vals, at, gaps, err := decodeLabelText(src.br, name)
	if err != nil {
		return nil, err
	}
	return &labelFile{name: name, vals: vals, at: at, gaps: gaps}, nil
}

// checkLabels returns an error naming the file, the line and the value
// for the first label, after the header (the first skip values: 0 or 1),
// that CheckLabel refuses. Read as a class name such a label made a class
// "NaN" beside the numbers, or a class +Inf: silently a wrong model.
//
// A mark of a missing value (missingValue: "NA", "None", ...) among labels
// that are otherwise all numbers (but for the first, which may be a
// header) is refused too: R's write.csv writes NA
// for a missing label and pandas reads it back as NaN, where it made a
// class "NA" of its own (three classes of labels 0 and 1, and a
// greedytl-nway model fitted silently). A quoted mark ("NA") is a label:
// R's write.csv quotes the string "NA" (Namibia's code) and leaves a
// missing value unquoted. So an unquoted mark among labels that are all
// quoted is refused as well: R's write.table and write.csv quote every
// string and write a true NA bare ("cat", "dog", NA), where it made a class
// "NA". Among unquoted names it is a class (Namibia's code).
//
// When byValue (the caller compares labels that are all numbers by their
// float64 values: ReadLabels, ReadClasses) and every label is a number, a
// label written as an integer beyond 2⁵³ (bigInteger) is refused: a 64-bit
// id and its neighbours would read as one class, named by none of them.
// Among names the labels are compared as written, and such an id is a
// name like any other, as it is to ReadLabelValues, which returns them as
// written.
func (lf *labelFile) checkLabels(skip int, byValue bool) error {
	missing, numbers, names, quoted, bare := -1, 0, 0, 0, 0
	big, allNumbers := -1, true
	for i := skip; i < len(lf.vals); i++ {
		isNum, err := checkLabel(lf.vals[i])
		if (i == 0 || lf.texts) && err == nil {
			err = blankLabel(lf.vals[i]) // a header's, when skipped (decodeLabelText); any string's of an array
		}
		if err == nil {
			err = hiddenError("label", lf.vals[i])
		}
		if err == nil && !lf.npy && !lf.at[i].quoted {
			err = lf.commentLabel(i)
		}
		if err != nil {
			if !utf8.ValidString(lf.vals[i]) { // the file's, not a label's, encoding
				err = fmt.Errorf("%w: %s", err, saveAsUTF8)
			}
			return lf.errorAt(i, err)
		}
		allNumbers = allNumbers && isNum
		if isNum && big < 0 && lf.asWritten() { // .npy numbers: refused on reading (NPYArray.vector)
			if _, ok := bigInteger(lf.vals[i]); ok {
				big = i
			}
		}
		isQuoted := lf.at != nil && lf.at[i].quoted
		switch {
		case missingValue([]byte(lf.vals[i])) && !isQuoted: // R quotes a string "NA", not its NA
			if missing < 0 {
				missing = i
			}
			continue
		case isNum:
			numbers++
		case i > 0: // the first value may be a header ("x" of R's write.csv), which auto drops only above numbers alone
			names++
		}
		if isQuoted {
			quoted++
		} else {
			bare++
		}
	}
	if missing >= 0 && numbers > 0 && names == 0 {
		return lf.errorAt(missing, fmt.Errorf("label %q among numbers is a missing value (as R writes NA, and pandas reads it as NaN): give only the examples that have a label", lf.vals[missing]))
	}
	if missing >= 0 && quoted > 0 && bare == 0 {
		return lf.errorAt(missing, fmt.Errorf("label %q, unquoted among quoted labels, is a missing value (as R's write.table and write.csv quote strings and write NA bare): give only the examples that have a label, or quote it if it is a class (\"NA\")", lf.vals[missing]))
	}
	if lf.asWritten() {
		if i, j, ok := canonicalTwin(lf.vals[skip:]); ok {
			return lf.errorAt(skip+j, twinError("label", lf.vals[skip+j], lf.vals[skip+i], lf.place(skip+i)))
		}
	}
	if big >= 0 && allNumbers && byValue {
		x, _ := bigInteger(lf.vals[big])
		return lf.errorAt(big, fmt.Errorf("label %s is an integer %s, and labels that are all numbers are compared as float64s: number the classes 0, 1, … or make them names (a letter before each)", strconv.Quote(lf.vals[big]), inexactInteger(x)))
	}
	return nil
}

// bigInteger returns the value of the label v and whether v, a number, is
// written as an integer (digits, a sign before them) beyond 2⁵³ in
// magnitude: one that float64, in which labels that are all numbers are
// compared, cannot hold exactly, so that a 64-bit id and its neighbours
// read as one class, named by none of them, as the .npy reader refuses
// (exactInt).
func bigInteger(v string) (float64, bool) {
	const limit = "9007199254740992" // 2⁵³
	d := strings.TrimLeft(strings.TrimLeft(v, "+-"), "0")
	if len(d) < len(limit) || len(d) == len(limit) && d <= limit || strings.Trim(d, "0123456789") != "" {
		return 0, false
	}
	x, err := number.Parse(v)
	return x, err == nil
}

// place names where lf's value i (a header counted) was read, for a
// message about another value: its line, or its column when one line
// holds every label; its 0-based row of a .npy file.
func (lf *labelFile) place(i int) string {
	switch {
	case lf.npy:
		return fmt.Sprintf("row %d", i)
	case lf.at[i].col > 0:
		return fmt.Sprintf("column %d", lf.at[i].col)
	}
	return fmt.Sprintf("line %d", lf.at[i].line)
}

// errorAt returns err as an *Error naming lf and the place of its value i
// (a header counted): the line, and the column when one line holds every
// label, of a text file; the 0-based row of a .npy file.
func (lf *labelFile) errorAt(i int, err error) error {
	if lf.npy {
		return &Error{File: lf.name, Err: fmt.Errorf("row %d: %w", i, err)}
	}
	at := lf.at[i]
	if at.col > 0 {
		err = fmt.Errorf("column %d: %w", at.col, err)
	}
	return &Error{File: lf.name, Line: at.line, Err: err}
}

// decodeLabelText reads the text form of a label file: one label per line
// (the whole trimmed line, so labels may contain spaces), or all labels on
// a single content line, separated as DecodeCSV separates fields. It
// returns the labels, the place of each and the first blank and comment
// lines between two lines of labels. Blank lines and comments hold no
// label.
func decodeLabelText(r io.Reader, name string) ([]string, []labelPos, labelGaps, error) {
	lr := newLineReader(r, name)
	var (
		vals      []string   // the labels after the first content line
		at        []labelPos // their places
		lines     int        // content lines
		firstNum  int        // line number of the first content line
		firstLine []byte     // the first content line, split at the end
		firstOne  bool       // whether firstLine holds one field
		err       error
		gaps      labelGaps // before, between and after content lines
		pending   gapLines  // since the last content line
		split     labelSplitter
		dsep      byte   // the separator Excel's directive line names (sepDirective); 0: none, or blanks, detected as without one
		directive string // that line, for messages
	)
	// sepOf is the separator of a line: the directive's, else its own.
	sepOf := func(line []byte) byte { return cmp.Or(dsep, detectSep(line)) }
	for line, ok := lr.next(); ok; line, ok = lr.next() {
		if sep, ok := lr.sepDirective(line); ok {
			dsep, directive = sep, string(line)
			continue
		}
		if isSkippable(line) {
			switch {
			case lines > 0:
				pending.note(line, lr.line)
			case !savetxtHeader(strings.TrimSpace(string(line))):
				// np.savetxt(path, y, header=h) writes "# h" above
				// the labels: a header, where no label went.
				gaps[BeforeLabels].note(line, lr.line)
			}
			continue
		}
		between := &gaps[BetweenLabels]
		if lines == 1 {
			between = &gaps[AfterHeader] // after the first line, a header or a label (Classes.gapLine)
		}
		between.blank = cmp.Or(between.blank, pending.blank)
		between.comment = cmp.Or(between.comment, pending.comment)
		between.blanks += pending.blanks
		between.comments += pending.comments
		pending = gapLines{}
		if lines++; lines == 1 {
			firstNum, firstLine = lr.line, bytes.Clone(line)
			firstOne = oneField(firstLine, sepOf(firstLine))
			continue
		}
		// The line is split once: a quoted label holding a separator
		// ("a, b") is one field, and that field is the label.
		fields, err := split.split(line, cmp.Or(dsep, labelSep(line)))
		one := err == nil && len(fields) == 1 || err != nil && !bytes.ContainsAny(line, ",\t") // a bad quote: its own error, below
		if !firstOne || !one {
			var scratch []byte
			if f, err := splitFields(nil, firstLine, sepOf(firstLine), &scratch); err == nil && isIndexHeader(f) {
				return nil, nil, labelGaps{}, indexHeaderError(name, firstNum) // pandas' Series.to_csv(path): ",y" above "0,1"
			}
			if lines == 2 && secondRowNumbered(firstLine, line) {
				return nil, nil, labelGaps{}, rowNamesError(name, lr.line)
			}
			// One of the lines holds one label, this one, or the first,
			// or where both hold more, a line further on: a file of one
			// label a line, whose line of several may be a label that
			// holds a tab.
			here := lr.line // nextOneLabel reads on
			at, num, other := line, here, firstNum
			if !firstOne {
				at, num, other = firstLine, firstNum, here
			}
			if tabbed(at, dsep) {
				if !firstOne && !one {
					other = nextOneLabel(lr, dsep)
				}
				if other > 0 {
					return nil, nil, labelGaps{}, &Error{File: name, Line: num, Err: tabLabelError(at, other, num == firstNum)}
				}
			}
			return nil, nil, labelGaps{}, errorf(name, here, "expected one label per line or all labels on line %d%s", firstNum, directiveNote(directive))
		}
		if err != nil {
			err = &Error{File: name, Line: lr.line, Err: err}
		} else {
			vals, at, err = split.appendFields(vals, at, fields, name, lr.line, false)
		}
		if err != nil {
			if lines == 2 && secondRowNumbered(firstLine, line) {
				err = rowNamesError(name, lr.line) // `"1" -1`: a quoted row name
			}
			return nil, nil, labelGaps{}, err
		}
	}
	if lr.err != nil {
		return nil, nil, labelGaps{}, lr.err
	}
	if lines == 0 {
		return nil, nil, labelGaps{}, errorf(name, 0, "no labels")
	}
	gaps[AfterLabels] = pending
	// A single content line holds all the labels; otherwise it is the
	// first of one label per line and has no separator.
	sep := cmp.Or(dsep, ',')
	if lines == 1 {
		sep = sepOf(firstLine)
	}
	first, firstAt, err := split.appendLabels(nil, make([]labelPos, 0, len(at)+1), firstLine, sep, name, firstNum, true)
	if err != nil {
		return nil, nil, labelGaps{}, err
	}
	for j := range firstAt {
		if lines == 1 && len(first) > 1 {
			firstAt[j].col, firstAt[j].blanks = j+1, sep == 0
		}
	}
	all, allAt := append(first, vals...), append(firstAt, at...)
	for k := 0; k < 2 && k < len(all); k++ { // a header may stand above
		if !allAt[k].quoted && isSVMLightRow(all[k]) {
			// An svmlight file given as labels: each row read whole
			// was a class of its own.
			return nil, nil, labelGaps{}, errorf(name, allAt[k].line, "a LIBSVM/svmlight row (label index:value …), not a label: a label file holds the labels alone, one a line (the rows' first fields: cut -d' ' -f1 %s)", name)
		}
	}
	if last := len(all) - 1; last > 0 && !allAt[0].quoted && !allAt[last].quoted && inBrackets(all[0], all[last]) {
		// "[1, 0, 1]", "[1 0 1]": split at its separators, the list
		// made classes "[1" and "1]" beside "0" and "1".
		return nil, nil, labelGaps{}, errorf(name, allAt[0].line, "labels in brackets (%s … %s), as Python prints a list or a tuple, NumPy an array and JSON writes an array: write the labels alone, one a line (np.savetxt(path, y, fmt=\"%%s\")), not their printout; if they are labels, quote the first and the last to keep them", strconv.Quote(all[0]), strconv.Quote(all[last]))
	}
	if lines > 2 {
		// "1 -1", "2 1", …: each label read whole, every one a class of
		// its own. A header may stand above them.
		for k := range 2 {
			if rowNamed(all[k:], allAt[k:]) {
				return nil, nil, labelGaps{}, rowNamesError(name, allAt[k].line)
			}
		}
	}
	if lines > 1 {
		if k := numberRowLabel(all, allAt); k >= 0 {
			n, _ := numberRow(all[k])
			return nil, nil, labelGaps{}, errorf(name, allAt[k].line, "a row of %d numbers, not a label: a label file holds one label a line (a matrix given as labels? one-hot labels Y are written as y = Y.argmax(axis=1)); quote it if it is a name", n)
		}
	}
	return all, allAt, gaps, nil
}

// nextOneLabel returns the number of the next line of lr that holds one
// label (a content line of one field, split as a line of one label a line
// is: at dsep, else at labelSep's), or 0 when none does (or the rest
// cannot be read): it reads on past a line of several labels below a
// first line of several, which are a table when no line holds one.
func nextOneLabel(lr *lineReader, dsep byte) int {
	for line, ok := lr.next(); ok; line, ok = lr.next() {
		if !isSkippable(line) && oneField(line, cmp.Or(dsep, labelSep(line))) {
			return lr.line
		}
	}
	return 0
}

// tabbed reports whether line, a content line of a label file, splits
// into labels at tabs (its separator: the directive's dsep, else
// detectSep's), none quoted: a label that holds a tab, as Python's
// csv.writer writes one (it quotes a field holding a comma, not a tab),
// where the file holds one label a line.
func tabbed(line []byte, dsep byte) bool {
	if cmp.Or(dsep, detectSep(line)) != '\t' {
		return false
	}
	var scratch []byte
	var quoted []bool
	_, err := splitQuoted(nil, line, '\t', &scratch, &quoted)
	return err == nil && !slices.Contains(quoted, true)
}

// tabLabelError returns the error of line, a tabbed line of a file of
// one label a line, as line other is: one label holding a tab, which no
// label holds (checkLabel's message, as the .npy reader's and a quoted
// label's), or, on the first line (first), all the labels of a file that
// should have no other line.
func tabLabelError(line []byte, other int, first bool) error {
	_, err := checkLabel(string(bytes.TrimSpace(line)))
	note := ""
	if first {
		note = ", or, if this line holds all the labels, separated by tabs, give no other line"
	}
	return fmt.Errorf("%w (one label a line, as line %d holds: replace the tab in the label%s)", err, other, note)
}

// directiveNote returns, for a label file whose first line, directive,
// was read as Excel's separator line (sepDirective; "" when none was), the
// note on an error about its lines: its separator splits every line, and
// it holds no label, while a class "sep=;" (that a greedytl predict
// before FormatLabel quoted one wrote bare) is written quoted.
func directiveNote(directive string) string {
	if directive == "" {
		return ""
	}
	return fmt.Sprintf(" (line 1, %s, was read as Excel's separator line, which names the separator of the lines below and holds no label: if it is a label, write it between double quotes)", strconv.Quote(directive))
}

// inBrackets reports whether first, a label file's first label, opens a
// bracket or a parenthesis that only last, its last label, closes, around
// list items (opensList, closesList: "[1", "['cat'", "[1 0 1" and "0]",
// "'dog']"): a list, tuple or array as Python, NumPy or JSON print it,
// given as labels. Names in brackets ("(a)", "[b]") open and close their
// own, and lone brackets or other text inside them ("(", ")"; "(:" …
// ":)") are names.
func inBrackets(first, last string) bool {
	for _, b := range listBrackets {
		if opensList(first, b) && closesList(last, b) {
			return true
		}
	}
	return false
}

// listEnd reports whether v, a label read unquoted, is what the first or
// the last label of a list printed is (inBrackets): it opens a bracket or a
// parenthesis that it does not close, or closes one that it does not open,
// around list items. FormatLabel quotes every such name, whatever its place
// in a file (the list's other end may be another name's), and no other:
// "[a", "(", "(:" read back as written wherever they stand.
func listEnd(v string) bool {
	for _, b := range listBrackets {
		if opensList(v, b) || closesList(v, b) {
			return true
		}
	}
	return false
}

// listBrackets are the brackets of a list printed, each opening and
// closing: a Python list or a NumPy array or a JSON array, a tuple.
var listBrackets = []string{"[]", "()"}

// opensList reports whether v opens the bracket b (of listBrackets), does
// not close it, and holds list items after it ("[1", "['cat'", "[1 0 1").
func opensList(v, b string) bool {
	inner, ok := strings.CutPrefix(v, b[:1])
	return ok && !strings.HasSuffix(v, b[1:]) && listItems(inner)
}

// closesList reports whether v closes the bracket b (of listBrackets),
// does not open it, and holds list items before it ("0]", "'dog']").
func closesList(v, b string) bool {
	inner, ok := strings.CutSuffix(v, b[1:])
	return ok && !strings.HasPrefix(v, b[:1]) && listItems(inner)
}

// listItems reports whether s, the text inside a bracket on a label, is
// what a printed list holds there: numbers separated by blanks ("1",
// "1 0 1", as NumPy wraps an array) or a quoted string ("'cat'", "'cat'
// 'dog'", `"cat"`); not "" nor other text.
func listItems(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return true
	}
	f := strings.Fields(s)
	for _, x := range f {
		if !isNumber([]byte(x)) {
			return false
		}
	}
	return len(f) > 0
}

// oneField reports whether a content line, whose separator is sep
// (detectSep's, or Excel's directive's), holds a single field: no
// separator (sep 0: no comma or tab), or one only inside a quoted label
// ("a, b", as R and pandas quote a label holding the separator).
func oneField(line []byte, sep byte) bool {
	if sep == 0 {
		return true
	}
	var scratch []byte
	f, err := splitFields(nil, line, sep, &scratch)
	return err == nil && len(f) == 1
}

// labelSep is the separator a line of one label per line is split at:
// its own (detectSep), a comma when it has none. A line that holds one
// label holds no separator outside quotes, and split at either it is that
// label, as written.
func labelSep(line []byte) byte {
	return cmp.Or(detectSep(line), ',')
}

// numberRowLabel returns the index of the first of the labels all, one a
// line, that is a row of a matrix given as labels (np.savetxt's, one-hot
// labels), or −1. Read whole, each distinct row was a class. Unquoted
// rows of numbers (numberRow) are such rows
//   - of three or more numbers, anywhere ("0.5 0.3 0.1");
//   - of two written as decimals ("0.5 -1.5", np.savetxt's default %.18e
//     writes every number with a point and an exponent) beside a label
//     that is a number or another row: a matrix's rows, or a row among
//     numeric labels;
//   - of two one-hot integers ("0 1", "1 0") where every label but the
//     first (a header) is one, and two or more are.
//
// Two integers are otherwise a label: "10 19", "0 4", and "0 1" among
// other age bands.
func numberRowLabel(all []string, at []labelPos) int {
	row := func(k int) (n int, integers bool) {
		if k < 0 || k >= len(all) || at[k].quoted || strings.IndexFunc(all[k], unicode.IsSpace) < 0 {
			return 0, false // a label of one word: no row (numberRow allocates)
		}
		return numberRow(all[k])
	}
	numeric := func(k int) bool {
		if n, _ := row(k); n > 0 {
			return true
		}
		return k >= 0 && k < len(all) && !at[k].quoted && isNumber([]byte(all[k]))
	}
	oneHot, firstHot := 0, -1
	for k := range all {
		n, integers := row(k)
		switch {
		case n >= 3, n == 2 && !integers && (numeric(k-1) || numeric(k+1)):
			return k
		case n == 2 && integers && isOneHot(all[k]):
			if oneHot++; firstHot < 0 {
				firstHot = k
			}
		}
	}
	if oneHot >= 2 && (oneHot == len(all) || oneHot == len(all)-1 && firstHot > 0) {
		return firstHot
	}
	return -1
}

// isOneHot reports whether v, a row of two integers, is a one-hot row of
// two classes: "0 1" or "1 0".
func isOneHot(v string) bool {
	f := strings.Fields(v)
	return len(f) == 2 && (f[0] == "0" && f[1] == "1" || f[0] == "1" && f[1] == "0")
}

// numberRow returns how many numbers the label v holds when it is a row of
// them separated by blanks, two or more, as np.savetxt writes a matrix's
// row (else 0), and whether each is written as an integer (digits, no
// point or exponent).
func numberRow(v string) (n int, integers bool) {
	f := strings.Fields(v)
	if len(f) < 2 {
		return 0, false
	}
	integers = true
	for _, x := range f {
		n, err := number.Parse(x)
		if err != nil && !errors.Is(err, strconv.ErrRange) { // isNumber
			return 0, false
		}
		integers = integers && err == nil && n == math.Trunc(n) && !strings.ContainsAny(x, ".eE")
	}
	return len(f), integers
}

// isSVMLightRow reports whether the label v is a whole LIBSVM/svmlight
// row: a number, then index:value pairs.
func isSVMLightRow(v string) bool {
	f := strings.Fields(v)
	if len(f) < 2 || !isNumber([]byte(f[0])) {
		return false
	}
	for _, p := range f[1:] {
		if !isSVMLightPair([]byte(p)) {
			return false
		}
	}
	return true
}

// rowNumbered returns the row number n of a label line that starts with
// one, quoted or not, followed by blanks or a comma and more text (rest):
// `1 -1`, `"1" -1`, "1\t-1", as R's write.table writes a vector with its
// row names, and "0,-1", as pandas' to_csv(path, header=False) a Series with
// its index.
//
// It splits the line itself rather than by splitFields, which would count
// other lines: it splits at any Unicode white space, so that
// row numbers separated by U+00A0 (a table copied from a web page) are
// found, where splitFields splits at blanks and tabs only and each such line
// read whole was a class of its own; and it splits at commas only a line of
// one such field, so that R's write.table, which separates by blanks values
// that may hold commas (`"1" "a,b"`), is found, where splitFields would
// split at the comma (detectSep). The rest is one field: a word, or a
// quoted label that may hold blanks (`"1" "big cat"`, write.table's
// quoted names), compared as written, quoted or not (rowNamed).
// TestRowNamedLabels holds these cases.
func rowNumbered(line []byte) (n int, rest []byte, ok bool) {
	line = bytes.TrimSpace(line)
	num := line
	if k := bytes.IndexFunc(line, unicode.IsSpace); k >= 0 {
		num, rest = line[:k], bytes.TrimLeftFunc(line[k:], unicode.IsSpace)
		if len(rest) > 0 && rest[0] == '"' {
			if closingQuote(rest, 0) != len(rest)-1 {
				return 0, nil, false
			}
		} else if bytes.IndexFunc(rest, unicode.IsSpace) >= 0 {
			return 0, nil, false
		}
	} else if k := bytes.IndexByte(line, ','); k >= 0 { // "0,-1": pandas' to_csv(path, header=False) of a Series
		num, rest = line[:k], line[k+1:]
		if bytes.IndexByte(rest, ',') >= 0 {
			return 0, nil, false
		}
	}
	if len(rest) == 0 {
		return 0, nil, false
	}
	num = unquote(num) // `"1"`: R's write.table quotes row names
	n, err := strconv.Atoi(string(num))
	return n, rest, err == nil && len(num) > 0 && num[0] >= '0' && num[0] <= '9'
}

// secondRowNumbered reports whether the second content line of a label
// file, line, starts with the number of its row, and so does the first
// one, first (0 or 1, then one more), unless first is a header: that row
// then is 0 or 1.
func secondRowNumbered(first, line []byte) bool {
	n, _, ok := rowNumbered(line)
	if !ok {
		return false
	}
	if n0, _, ok := rowNumbered(first); ok {
		return (n0 == 0 || n0 == 1) && n == n0+1
	}
	return n == 0 || n == 1
}

// rowNamed reports whether every label of vals (at least two), none quoted
// (at: their places), is a row number and a value, the row numbers distinct
// non-negative integers (counting 0, 1, … or 1, 2, … down the lines, or
// shuffled, as pandas writes a Series after train_test_split), and the
// values repeat, taking at least two distinct ones: row names, not labels.
// Where the values are all distinct ("1 star", "2 stars", …; an N-way
// one-shot file's "0 airplane", "1 automobile", …), each line read whole is
// a class of its own just as each value is, so nothing is misread; where
// they are all one ("1 kg", "2 kg", …), stripping the numbers would leave a
// single class, so the numbers belong to the labels.
func rowNamed(vals []string, at []labelPos) bool {
	if len(vals) < 2 {
		return false
	}
	rows := map[int]bool{}
	values := map[string]bool{}
	for i, v := range vals {
		n, rest, ok := rowNumbered([]byte(v))
		if !ok || at[i].quoted || rows[n] {
			return false
		}
		rows[n] = true
		values[string(rest)] = true
	}
	return len(values) >= 2 && len(values) < len(vals)
}

// rowNamesError is the error of a label file whose lines, from line on,
// start with their row number: read whole, each label made a class of its
// own (a model of as many classes as rows).
func rowNamesError(name string, line int) error {
	return errorf(name, line, "a row number and a label on each line, as R's write.table writes a vector with its row names and pandas' to_csv a Series with its index: write the labels alone, one a line (R: write.table(y, path, row.names=FALSE, col.names=FALSE, quote=FALSE); pandas: to_csv(path, index=False, header=False)), or, if the numbers belong to the labels, quote each label (\"1 star\")")
}

// dropNumericHeader drops a first value that is not a number above labels
// that all are: it can only be a header.
func dropNumericHeader(vals []string) []string {
	if len(vals) < 2 || isNumber([]byte(vals[0])) {
		return vals
	}
	for _, v := range vals[1:] {
		if !isNumber([]byte(v)) {
			return vals
		}
	}
	return vals[1:]
}

// labelSplitter splits the lines of a label file into labels, reusing its
// buffers from line to line, and gives a label spelled as an earlier one
// that earlier string: a label file holds a few distinct labels on many
// lines, where a slice or two and a string a line were most of what
// reading it allocated.
type labelSplitter struct {
	fields  [][]byte
	scratch []byte
	quoted  []bool
	seen    map[string]string // the distinct labels so far, up to maxSeenLabels
}

// maxSeenLabels bounds labelSplitter's distinct labels kept for reuse: a
// file of more distinct labels (ids, not classes) gains nothing from them.
const maxSeenLabels = 1024

// appendLabels appends the labels on one line, split at sep, to vals, and
// their places, on line lineNum, to at. A label that is empty or only
// white space is an error (blankLabel), but for the line's first when
// first (the file's first value, which may be a header): it is appended
// as written (""; "\u00a0"), for checkLabels to refuse unless it is read
// as a header.
func (s *labelSplitter) appendLabels(vals []string, at []labelPos, line []byte, sep byte, name string, lineNum int, first bool) ([]string, []labelPos, error) {
	fields, err := s.split(line, sep)
	if err != nil {
		return nil, nil, &Error{File: name, Line: lineNum, Err: err}
	}
	return s.appendFields(vals, at, fields, name, lineNum, first)
}

// split splits line at sep (splitQuoted) into the splitter's buffers: the
// fields it returns, and whether each was quoted (s.quoted), hold until
// the next call.
func (s *labelSplitter) split(line []byte, sep byte) ([][]byte, error) {
	fields, err := splitQuoted(s.fields, line, sep, &s.scratch, &s.quoted)
	s.fields = fields
	return fields, err
}

// appendFields is appendLabels for a line already split by split.
func (s *labelSplitter) appendFields(vals []string, at []labelPos, fields [][]byte, name string, lineNum int, first bool) ([]string, []labelPos, error) {
	for j, f := range fields {
		// Blanks, tabs and quotes are gone; Unicode white space goes too
		// (U+00A0, U+3000: "1\u00a0" is 1, as Python's float reads it).
		t := bytes.TrimSpace(f)
		if len(t) == 0 && !(first && len(fields) == 1) {
			err := blankLabel(string(f))
			if len(fields) > 1 {
				err = fmt.Errorf("column %d: %w", j+1, err)
			}
			return nil, nil, &Error{File: name, Line: lineNum, Err: err}
		}
		if len(t) == 0 {
			t = f
		}
		vals = append(vals, s.label(t))
		at = append(at, labelPos{line: lineNum, quoted: s.quoted[j]})
	}
	return vals, at, nil
}

// commentLabel returns the error of an unquoted label v that holds a
// comment (inlineComment: "cat # the first", "1 #positive"), or nil; v is
// lf's value i. A label file's comments are lines of their own (a first
// non-blank '#'), and the labels are taken whole: read so, a note after a
// label made a class "cat # the first" beside "cat". The comment is not
// cut off, as the svmlight reader cuts one, since a '#' may belong to a
// name: "Song #1", "Issue #42", "C#" are labels, and quoted, any label is
// taken as written. Of labels separated by blanks on one line ("cat dog
// cat # three"), the comment runs to the line's end.
func (lf *labelFile) commentLabel(i int) error {
	v := lf.vals[i]
	k := inlineComment(v)
	if k < 0 {
		return nil
	}
	verb, comment := "holds", v[k:]
	if lf.at[i].blanks {
		verb, comment = "starts", strings.Join(lf.vals[i:], " ")
	}
	return fmt.Errorf("label %s %s a comment, %s: a label file has comments on lines of their own (starting with '#'), not after a label: move it to a line of its own, or, if '#' belongs to the label, quote the label: %s", strconv.Quote(v), verb, strconv.Quote(comment), quoteCSV(v))
}

// inlineComment returns where a comment starts in an unquoted label v, or
// −1: at a '#' that starts v or a word of it and either is followed by
// white space or ends v ("cat # the first", "cat #"), or stands after a
// number ("1 #positive", a note on a numeric label). A '#' before a word
// after a name ("Song #1", "Apt #3") or within a word ("C#") is the
// name's. classes.txt, which has no comments and no quoting, takes such
// lines whole (readNames): its names agree with the labels that this
// passes.
func inlineComment(v string) int {
	for k := strings.IndexByte(v, '#'); k >= 0; {
		before, after := v[:k], v[k+1:]
		if r, _ := utf8.DecodeLastRuneInString(before); k == 0 || unicode.IsSpace(r) {
			r, _ := utf8.DecodeRuneInString(after)
			if after == "" || unicode.IsSpace(r) || isNumber([]byte(strings.TrimSpace(before))) {
				return k
			}
		}
		next := strings.IndexByte(after, '#')
		if next < 0 {
			break
		}
		k += 1 + next
	}
	return -1
}

// blankLabel returns the error of a label v that is empty or only white
// space, or nil: it is no number nor name (a class "" that fit refused
// later as "class 0 has an empty name", naming no file).
func blankLabel(v string) error {
	switch {
	case v == "":
		return errors.New("empty label")
	case strings.TrimSpace(v) == "":
		return fmt.Errorf("label %s is only white space: a label is a number or a name", strconv.Quote(v))
	}
	return nil
}

// label returns f as a string: the string of an earlier label spelled
// alike, else a new one.
func (s *labelSplitter) label(f []byte) string {
	if v, ok := s.seen[string(f)]; ok {
		return v
	}
	v := string(f)
	if len(s.seen) < maxSeenLabels {
		if s.seen == nil {
			s.seen = map[string]string{}
		}
		s.seen[v] = v
	}
	return v
}

// dropBinaryHeader drops a first value that is not a number, occurs nowhere
// else, and sits above exactly two distinct values: read as a label it would
// make three classes, so it can only be a header.
func dropBinaryHeader(vals []string) []string {
	if len(vals) < 3 || isNumber([]byte(vals[0])) {
		return vals
	}
	others := map[string]bool{}
	for _, v := range vals[1:] {
		if v == vals[0] {
			return vals
		}
		others[v] = true
		if len(others) > 2 {
			return vals
		}
	}
	if len(others) == 2 {
		return vals[1:]
	}
	return vals
}

// oneNumber returns, for labels vals of one class that are numbers
// (numeric) written in more than one way, the note that says they were
// read as one number ("01", "1.0" and "1"), else "".
func oneNumber(vals []string, numeric bool) string {
	if !numeric {
		return ""
	}
	var spellings []string
	for _, v := range vals {
		if v = strings.TrimSpace(v); !slices.Contains(spellings, v) {
			spellings = append(spellings, v)
		}
	}
	if len(spellings) < 2 {
		return ""
	}
	const most = 4
	quoted := make([]string, 0, most+1)
	for _, v := range spellings[:min(len(spellings), most)] {
		quoted = append(quoted, strconv.Quote(v))
	}
	if len(spellings) > most {
		quoted = append(quoted, "…")
	}
	x, _ := number.Parse(spellings[0])
	return fmt.Sprintf(": %s all read as the number %s, as labels that are all numbers are compared by value", strings.Join(quoted, ", "), formatFloat(x+0))
}

// labelClass is one distinct label value.
type labelClass struct {
	text  string  // first spelling seen
	value float64 // numeric value when the labels are numeric
}

// binaryLabels maps two-valued labels to ±1 (see ReadLabels).
func binaryLabels(name string, vals []string, positive string) ([]float64, error) {
	nums := make([]float64, len(vals))
	numeric := true
	for i, v := range vals {
		x, err := number.Parse(v)
		if err != nil || math.IsNaN(x) {
			numeric = false
			break
		}
		if x == 0 {
			x = 0 // −0 is the class of 0
		}
		nums[i] = x
	}
	// class[i] is the index in classes of label i.
	class := make([]int, len(vals))
	var classes []labelClass
	index := map[string]int{}
	for i, v := range vals {
		key := v
		if numeric {
			key = formatFloat(nums[i])
		}
		k, ok := index[key]
		if !ok {
			k = len(classes)
			index[key] = k
			c := labelClass{text: v}
			if numeric {
				c.value = nums[i]
			}
			classes = append(classes, c)
		}
		class[i] = k
	}
	switch {
	case len(classes) == 0:
		return nil, errorf(name, 0, "no labels")
	case len(classes) == 1:
		return nil, errorf(name, 0, "only one class (all labels are %s%s)", strconv.Quote(classes[0].text), oneNumber(vals, numeric))
	case len(classes) > 2:
		return nil, errorf(name, 0, "expected two classes, found %d distinct labels: %s", len(classes), listClasses(classes))
	}
	pos := -1
	if positive = strings.TrimSpace(positive); positive != "" {
		for k, c := range classes {
			if c.text == positive {
				pos = k
			}
		}
		if p, err := number.Parse(positive); pos < 0 && numeric && err == nil {
			vals := []float64{classes[0].value, classes[1].value}
			pos = matchNumber(vals, p)
		}
		if pos < 0 {
			return nil, errorf(name, 0, "positive label %q is not one of the labels %s", positive, listClasses(classes))
		}
	} else if numeric {
		a, b := classes[0].value, classes[1].value
		switch {
		case (a == -1 && b == 1) || (a == 0 && b == 1):
			pos = 1
		case (a == 1 && b == -1) || (a == 1 && b == 0):
			pos = 0
		}
	}
	if pos < 0 {
		return nil, errorf(name, 0, "labels are %s: name the positive one", listClasses(classes))
	}
	y := make([]float64, len(vals))
	for i, k := range class {
		if k == pos {
			y[i] = 1
		} else {
			y[i] = -1
		}
	}
	return y, nil
}

// listClasses lists up to five distinct labels for a message.
func listClasses(classes []labelClass) string {
	const max = 5
	var b strings.Builder
	for k, c := range classes {
		if k == max {
			fmt.Fprintf(&b, ", ... (%d more)", len(classes)-max)
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(c.text))
	}
	return b.String()
}
