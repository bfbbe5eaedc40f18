package dataset

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
)

// This file owns the writing of class names as the readers of this
// package read them back: a label file's lines (FormatLabel, what
// predict prints one a row) and a cell of a delimited text file's header
// (FormatHeaderCell, predict --scores's header of class names); and the
// showing of a name in text (ShowName), escaped when it holds a hidden
// character.

// FormatLabel returns name written as one line of a label file of one
// label per line (ReadLabels, ReadClasses, ReadLabelValues): as it is
// when the readers take it as written, else quoted as a CSV field is,
// between double quotes with each '"' doubled ("a, b" as `"a, b"`, `"x"`
// as `"""x"""`), since a quoted label is taken as written. A name is
// quoted when, unquoted, it would read as something else or be refused:
// it holds a comma (two labels) or a '"' (a quoted field's start); it is a
// line the readers skip (blank, or a '#' first after blanks: a comment
// line; or, on a file's first line, Excel's separator line "sep=;", any
// case, as isSepDirective reads one) or holds a comment after a label (inlineComment: "Song # 1", not
// "Song #1"); it is a mark of a missing value ("NA": an unquoted
// one among numbers is refused, and among quoted labels); a row of numbers
// ("0.5 0.3"), a row number and a value ("1 a"), a LIBSVM row ("1 2:0.5");
// or the end of a list printed (listEnd: "[1", "'dog']", a bracket it
// opens and does not close, or closes and does not open, around numbers or
// a quoted string; refused where the first and last labels are such). A
// bracket around other text ("[a", "(", "(:") is written as it is.
//
// It returns an error for a name no label file can hold: one CheckLabel
// refuses (a tab or a line break, NaN, ±Inf, not UTF-8), and the empty
// name. The class names of a model are checked by CheckLabel when it is
// fitted and when its file is read, so a model's names are never refused.
// Two kinds of name that no label file gives, and that only the API or a
// model file written before the readers refused them can hold, are
// written too, but read back otherwise: one with white space at either end
// (" cat"), which the readers trim, quoted or not, and one holding a
// hidden character (labelrunes.go), which the readers refuse and which is
// written as ShowName shows it, quoted and escaped as Go quotes a string
// ("\u200bcat" as `"\u200bcat"`), never raw: an escape would colour the
// terminal, a bidirectional control reorder the line.
//
// A file of such lines reads back as the names but for what its lines
// say together rather than one by one (checkLabels, classes): a file of
// one line is all the labels on that line, split at commas, tabs or
// blanks; ReadClasses's HeaderAuto takes the first line for a header
// ("--labels-header no" reads it as a label) when it is a name that is no
// number above names that all are, or a name found on no other line above
// exactly two other names that each fill two lines or more (but read for
// the classes of the model that printed them, Classes.ReadFor, as predict
// --labels reads them, a first line that is one of them is a label);
// labels that are all numbers are compared as numbers ("1" and "1.0" are
// one class),
// and among them one written as an integer beyond 2⁵³ (bigInteger: a
// 64-bit id) is refused; and of two names that are canonically
// equivalent (canonicalTwin: "café" written with U+00E9 and with e and
// U+0301), which a model written through the API or before that rule may
// hold, the second is refused.
func FormatLabel(name string) (string, error) {
	if name == "" {
		return "", errors.New("empty label")
	}
	if err := CheckLabel(name); err != nil {
		return "", err
	}
	if hiddenRune(name) >= 0 {
		return strconv.Quote(name), nil
	}
	if labelNeedsQuotes(name) {
		return quoteCSV(name), nil
	}
	return name, nil
}

// labelNeedsQuotes reports whether the label v, alone on its line of a
// label file, reads back as v only when quoted (see FormatLabel): each
// case is one of decodeLabelText's and checkLabels' rules on unquoted
// labels.
func labelNeedsQuotes(v string) bool {
	if _, ok := isSepDirective([]byte(v)); ok {
		return true // on a file's first line, Excel's separator line: skipped, and its separator splits the lines below
	}
	switch {
	case strings.ContainsAny(v, `,"`):
		return true // split at the comma; a '"' starts a quoted field
	case isSkippable([]byte(v)) || inlineComment(v) >= 0:
		return true // a comment line or a blank one, skipped; a comment after a label
	case missingValue([]byte(v)):
		return true // R's NA: refused among numbers and among quoted labels
	case listEnd(v):
		return true // "[1" … "1]": a list printed
	case strings.IndexFunc(v, unicode.IsSpace) < 0:
		return false // the remaining rules are of labels of several words
	}
	if n, _ := numberRow(v); n > 0 || isSVMLightRow(v) {
		return true
	}
	_, _, numbered := rowNumbered([]byte(v))
	return numbered // "1 a": a row name and a label
}

// FormatHeaderCell returns name, a column name (predict --scores's class
// names), written as a cell of the header of a delimited text file whose
// fields are separated by sep (',' or '\t'), as the CSV readers of pandas
// and Python (and DecodeCSV, of a header of names that are not numbers: a
// header of numeric class names it reads as a row of data or refuses)
// read it back: as it is, or quoted as
// FormatLabel quotes (between double quotes, each '"' doubled) when it
// holds sep, a comma or a '"' (a quoted field's start), starts with '#'
// (in the first cell, a comment line) or has white space at either end
// (trimmed, unquoted; pandas and Python keep a quoted name's blanks, while
// DecodeCSV trims every name, quoted or not: no class name has blanks at
// either end, since label files are trimmed). A line break would end the header, quoted or not:
// no class name holds one (CheckLabel), nor a tab. A name holding a hidden
// character (labelrunes.go; a model's from before the rule) is written as
// ShowName shows it, escaped, and reads back otherwise.
//
// A comma is quoted whatever sep is: DecodeCSV tells the separator from
// the header line, a comma if it has one outside quotes (detectSep), so
// that a tab-separated header with a name holding a comma unquoted reads
// as tab-separated only by the rows below it (tabHeader), and is
// comma-separated where they split at commas as it does.
func FormatHeaderCell(name string, sep byte) string {
	if hiddenRune(name) >= 0 {
		return strconv.Quote(name)
	}
	if strings.ContainsAny(name, string(sep)+`,"`) || strings.HasPrefix(name, "#") || strings.TrimSpace(name) != name {
		return quoteCSV(name)
	}
	return name
}

// ShowName returns name, a class, source or column name, as the CLI shows
// one in text (inspect's tables, predict's lines): as it is, or quoted and
// escaped as messages quote it (strconv.Quote: "\x1b[31mred" as
// `"\x1b[31mred"`) when it holds a hidden character (labelrunes.go: a
// control, a bidirectional control, an invisible format character, which
// shown raw would colour the terminal, reorder the line or look like
// another name) or has white space at either end (which a table does not
// show). Names read from data files (a CSV header's column names) and
// model files written before the rule may hold them.
func ShowName(name string) string {
	if hiddenRune(name) >= 0 || strings.TrimSpace(name) != name {
		return strconv.Quote(name)
	}
	return name
}

// quoteCSV returns v between double quotes with each '"' doubled, as a
// quoted CSV field (RFC 4180) is written and splitQuoted reads one.
func quoteCSV(v string) string {
	return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
}
