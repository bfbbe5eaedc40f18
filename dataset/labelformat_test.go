package dataset

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/quick"

	"golang.org/x/text/unicode/norm"
)

// labelFormatCases are names that read back only quoted, each with its
// line, and names written as they are.
var labelFormatCases = map[string]string{
	"a, b":      `"a, b"`,
	`"x"`:       `"""x"""`,
	`a"b`:       `"a""b"`,
	`"`:         `""""`,
	"Song # 1":  `"Song # 1"`,
	"#tag":      `"#tag"`,
	"#":         `"#"`,
	"a #b":      "a #b", // a name: '#' before a word (inlineComment)
	"a\u00a0#b": "a\u00a0#b",
	"NA":        `"NA"`,
	"None":      `"None"`,
	"#N/A":      `"#N/A"`,
	"0.5 0.3":   `"0.5 0.3"`,
	"0 1":       `"0 1"`,
	"1 0 1":     `"1 0 1"`,
	"1 a":       `"1 a"`,
	"2 1":       `"2 1"`,
	"1 2:0.5":   `"1 2:0.5"`,
	"[1":        `"[1"`, // the ends of a list printed (listEnd)
	"0]":        `"0]"`,
	"(1":        `"(1"`,
	"1 0)":      `"1 0)"`,
	"['cat'":    `"['cat'"`,
	"'dog']":    `"'dog']"`,
	"[1, 0":     `"[1, 0"`,
	",":         `","`,
	"x,":        `"x,"`,
	// Excel's separator directive (isSepDirective), which a file's first
	// line is read as; "sep=," holds a comma too.
	"sep=;": `"sep=;"`, "SEP=|": `"SEP=|"`, "Sep=,": `"Sep=,"`,
	// Written as they are.
	"cat": "cat", "New York": "New York", "C#": "C#", "C# 2": "C# 2",
	"10 19": `"10 19"`, "1": "1", "-1": "-1", "[a]": "[a]", "(b)": "(b)",
	// Brackets around other text end no list printed (inBrackets).
	"[a": "[a", "a]": "a]", "(b": "(b", "b)": "b)", "(": "(", ")": ")", "(:": "(:", "[]": "[]",
	"café": "café", "1 star 2": "1 star 2", "NaN2": "NaN2", "a\u00a0b": "a\u00a0b",
	"x:1": "x:1", "01": "01", "na": "na",
	"sep=": "sep=", "sep=a": "sep=a", "sep=;;": "sep=;;", "sep=_": "sep=_",
}

// labelRefused are names no label file can hold (FormatLabel refuses
// them): each is refused by CheckLabel too, or empty, so that it is no
// model's class name.
var labelRefused = []string{
	"", "\ta", "a\tb", "a\nb", "a\rb", "NaN", "-inf", "1e400", "a\xff",
}

// labelNotReadBack are names that no label file gives but CheckLabel takes,
// since the API or a model file written before the readers refused them
// may hold them: one holding a character the readers of label files refuse
// (labelrunes.go), one with white space at either end, which they trim.
// FormatLabel writes them (quoted where another rule says so).
var labelNotReadBack = []string{"a\x00", "\x1b[31mred", "dog\u202e", "\u200bcat", "Ge\u00adwicht",
	" ", " a", "a ", "# ", "\u00a0a", "a\u3000", " #a", "  # b"}

// TestFormatLabel: each hard case is quoted as a CSV field is, ordinary
// names are written as they are, and the names no label file holds are
// refused, as CheckLabel refuses them.
func TestFormatLabel(t *testing.T) {
	for name, want := range labelFormatCases {
		got, err := FormatLabel(name)
		if err != nil || got != want {
			t.Errorf("FormatLabel(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range labelRefused {
		if got, err := FormatLabel(name); err == nil {
			t.Errorf("FormatLabel(%q) = %q, want an error", name, got)
		}
		if err := CheckLabel(name); err == nil && name != "" {
			t.Errorf("CheckLabel(%q) accepts a name FormatLabel refuses", name)
		}
	}
	for _, name := range labelNotReadBack {
		got, err := FormatLabel(name)
		want := strings.Trim(got, `"`) == name
		if hiddenRune(name) >= 0 {
			// Escaped, as messages quote it: raw, an escape coloured the
			// terminal, a bidi control reordered the line.
			want = got == strconv.Quote(name) && hiddenRune(got) < 0
		}
		if err != nil || !want {
			t.Errorf("FormatLabel(%q) = %q, %v; want it written (quoted and escaped if it holds a hidden character)", name, got, err)
			continue
		}
		// Read back otherwise, or refused, but never skipped: a line
		// the readers skip (a blank one, " #a" as a comment) would move
		// every later prediction up a row.
		path := filepath.Join(t.TempDir(), "y.txt")
		if err := os.WriteFile(path, []byte("x\n"+got+"\ny\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if vals, err := ReadLabelValues(path); err == nil && len(vals) != 3 {
			t.Errorf("FormatLabel(%q) = %q, which a file reads as %q: the line was skipped", name, got, vals)
		}
	}
	checkFormatRoundTrip(t, t.TempDir(), slices.Collect(func(yield func(string) bool) {
		for name := range labelFormatCases {
			if !yield(name) {
				return
			}
		}
	}))
}

// checkFormatRoundTrip writes names (the ones FormatLabel accepts), each
// as FormatLabel writes it, to label files of one label a line in dir,
// and checks that ReadLabelValues, ReadClassesHeader (every header
// setting) and ReadLabels read back exactly the names. The files start
// with a plain name twice and hold others, so that no header is dropped
// and the labels are not all numbers: what the file's lines say together
// (FormatLabel) is not under test. It returns how many names were read
// back.
func checkFormatRoundTrip(t *testing.T, dir string, names []string) int {
	t.Helper()
	path := filepath.Join(dir, "y.txt")
	// Distinct names that are not canonically equivalent (such twins are
	// refused as a file's, not as a line's).
	var kept []string
	nfc := map[string]bool{"alpha": true, "beta": true}
	for _, n := range names {
		if _, err := FormatLabel(n); err != nil || hiddenRune(n) >= 0 || strings.TrimSpace(n) != n {
			continue // no label file holds it
		}
		if k := norm.NFC.String(n); !nfc[k] {
			nfc[k] = true
			kept = append(kept, n)
		}
	}
	vals := []string{"alpha", "alpha"}
	for _, n := range kept {
		vals = append(vals, n, "beta", n)
	}
	writeLabelFile(t, path, vals)
	got, err := ReadLabelValues(path)
	if err != nil || !reflect.DeepEqual(got, vals) {
		t.Fatalf("ReadLabelValues of %q: %q, %v", vals, got, err)
	}
	for h := range 3 {
		c, err := DecodeClassesHeader(bytes.NewReader(must(os.ReadFile(path))), "y.txt", HeaderRule(h))
		if err != nil {
			t.Fatalf("classes of %q, header %d: %v", vals, h, err)
		}
		read := make([]string, len(c.Y))
		for i, k := range c.Y {
			read[i] = c.Names[k]
		}
		want := vals
		if HeaderRule(h) == HeaderYes {
			want = vals[1:]
		}
		if !reflect.DeepEqual(read, want) {
			t.Fatalf("classes of %q, header %d: %q", vals, h, read)
		}
	}
	// Each name first, alone, above two names of two lines each, as
	// predict's output may be: read for the classes of the model that
	// printed it (Classes.ReadFor), HeaderAuto reads it as a label, not
	// as a header above two classes.
	known := &Classes{Names: append([]string{"alpha", "beta"}, kept...)}
	for _, n := range kept {
		out := []string{n, "alpha", "alpha", "beta", "beta"}
		writeLabelFile(t, path, out)
		c, err := ReadClasses(path)
		if err == nil {
			c, err = c.ReadFor(known)
		}
		if err != nil {
			t.Fatalf("classes of %q, read for %q: %v", out, known.Names, err)
		}
		as := c.As(known)
		read := make([]string, len(as.Y))
		for i, k := range as.Y {
			read[i] = as.Names[k]
		}
		if !reflect.DeepEqual(read, out) {
			t.Fatalf("classes of %q, read for %q: %q", out, known.Names, read)
		}
	}
	// Among numbers (an unquoted "NA" is a missing value there), and
	// first and last (a list printed: "[a" … "b]"), the names read back
	// as written too.
	vals = []string{"1"}
	for _, n := range kept {
		vals = append(vals, n, "2")
	}
	readBack(t, path, vals)
	for i := range kept { // each name first too (Excel's "sep=;" is read so only there)
		readBack(t, path, []string{kept[i], "beta", kept[(i+1)%len(kept)]})
	}
	// Two names, each given as the positive one.
	for _, n := range kept {
		pair := []string{n, "beta", n, "beta", "beta"}
		writeLabelFile(t, path, pair)
		y, err := ReadLabels(path, n)
		if want := []float64{1, -1, 1, -1, -1}; err != nil || !slices.Equal(y, want) {
			t.Fatalf("ReadLabels of %q, positive %q: %v, %v", pair, n, y, err)
		}
	}
	return len(kept)
}

// writeLabelFile writes vals to path, one a line, each as FormatLabel
// writes it, and returns the file's text.
func writeLabelFile(t *testing.T, path string, vals []string) string {
	t.Helper()
	var b strings.Builder
	for _, v := range vals {
		line, err := FormatLabel(v)
		if err != nil {
			t.Fatalf("FormatLabel(%q): %v", v, err)
		}
		b.WriteString(line + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// readBack writes vals to path (writeLabelFile) and checks that
// ReadLabelValues reads them back.
func readBack(t *testing.T, path string, vals []string) {
	t.Helper()
	writeLabelFile(t, path, vals)
	if got, err := ReadLabelValues(path); err != nil || !reflect.DeepEqual(got, vals) {
		t.Fatalf("ReadLabelValues of %q: %q, %v", vals, got, err)
	}
}

// TestFormatLabelFiles: files whose labels are all such names (rows
// numbered, a list in brackets, a missing value among numbers, rows of
// numbers, comments) read back as the names when FormatLabel writes them.
func TestFormatLabelFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "y.txt")
	for _, vals := range [][]string{
		{"1 a", "2 b", "3 a", "4 b"},
		{"[a", "b", "a]"},
		{"(", "b", ")"},
		{"(:", "happy", ":)"},
		{"(1", "0", "1)"},
		{"['cat'", "'dog']"},
		{"1", "NA", "2", "1"},
		{"NA", "None", "NA"},
		{"0.5 0.3", "1 1.5", "0.5 0.3"},
		{"1 2:0.5", "3 1:2", "1 2:0.5"},
		{"#tag", "a", "#tag"},
		{"a, b", `"x"`, "Song # 1", "a, b"},
	} {
		text := writeLabelFile(t, path, vals)
		if got, err := ReadLabelValues(path); err != nil || !reflect.DeepEqual(got, vals) {
			t.Errorf("ReadLabelValues of %q: %q, %v", text, got, err)
		}
		c, err := ReadClassesHeader(path, HeaderNo)
		if err != nil {
			t.Errorf("ReadClassesHeader of %q: %v", text, err)
			continue
		}
		for i, k := range c.Y {
			if c.Names[k] != vals[i] {
				t.Errorf("ReadClassesHeader of %q: label %d is %q, want %q", text, i, c.Names[k], vals[i])
			}
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// labelRunes are the runes the generated names are made of: each one a
// label file's rules are about, often, and any rune now and then.
var labelRunes = []rune(" ,\"#[]()0123456789.e-+:NAnaxy\u00a0\u3000\u2028é\u0301\u200d\t\n\r\x00\u200b\ufeff\u0085")

// labelName is a name for testing/quick: a few runes of labelRunes and
// any others.
type labelName string

// labelTokens are words a label file's rules are about, for names made
// of whole tokens (a row of numbers, a LIBSVM pair, a bracket, a comment,
// a missing-value mark), which names made rune by rune rarely are.
var labelTokens = []string{"0", "1", "10", "-3", "0.5", "1e5", "2:0.5", "k:v", "#", "#x", "[1", "1]", "[a", "b)",
	"(a", "'a'", "'b']", "NA", "None", "null", "cat", "New", "C#", "\u00a0", ",", `"`,
	"sep=;", "SEP=|", "sep=", "sep=a"}

// Generate makes a labelName: half of them of up to 8 runes, half of up to
// 4 tokens separated by blanks.
func (labelName) Generate(r *rand.Rand, size int) reflect.Value {
	if r.Intn(2) == 0 {
		f := make([]string, 1+r.Intn(4))
		for i := range f {
			f[i] = labelTokens[r.Intn(len(labelTokens))]
		}
		return reflect.ValueOf(labelName(strings.Join(f, " ")))
	}
	n := 1 + r.Intn(8)
	var b strings.Builder
	for range n {
		switch r.Intn(10) {
		case 0:
			b.WriteRune(rune(r.Intn(0x110000)))
		case 1:
			b.WriteString(" # ")
		default:
			b.WriteRune(labelRunes[r.Intn(len(labelRunes))])
		}
	}
	return reflect.ValueOf(labelName(b.String()))
}

// TestFormatLabelRoundTrip: generated names, several a file, read back
// exactly as FormatLabel writes them; a name it refuses is refused by
// CheckLabel (no model's class name) or empty.
func TestFormatLabelRoundTrip(t *testing.T) {
	dir := t.TempDir()
	accepted, refused := 0, 0
	check := func(a, b, c labelName) bool {
		names := []string{string(a), string(b), string(c)}
		for _, n := range names {
			if _, err := FormatLabel(n); err != nil {
				refused++
				if n != "" && CheckLabel(n) == nil {
					t.Errorf("FormatLabel(%q) refuses a name CheckLabel accepts: %v", n, err)
				}
			}
		}
		accepted += checkFormatRoundTrip(t, dir, names)
		return !t.Failed()
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 1200, Rand: rand.New(rand.NewSource(1))}); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d names read back, %d refused", accepted, refused)
	if accepted < 600 || refused < 300 {
		t.Errorf("%d names read back, %d refused: the generator is too narrow", accepted, refused)
	}
}

// TestFormatHeaderCell: class names as cells of a tab-separated header,
// predict --scores's, read back by DecodeMatrixNames as the column names.
func TestFormatHeaderCell(t *testing.T) {
	names := []string{"#a", `"x"`, `a"b`, "Song # 1", "New York", "C#", "b"}
	cells := make([]string, len(names))
	for i, n := range names {
		cells[i] = FormatHeaderCell(n, '\t')
	}
	if want := []string{`"#a"`, `"""x"""`, `"a""b"`, "Song # 1", "New York", "C#", "b"}; !reflect.DeepEqual(cells, want) {
		t.Errorf("cells %q, want %q", cells, want)
	}
	row := strings.Repeat("1\t", len(names)-1) + "1\n"
	var hdr MatrixHeader
	_, err := DecodeMatrixNames(strings.NewReader(strings.Join(cells, "\t")+"\n"+row), "s.tsv", HeaderAuto, &hdr)
	if got := hdr.Names; err != nil || !reflect.DeepEqual(got, names) {
		t.Errorf("header %q read back as %q, %v", cells, got, err)
	}
	if got := FormatHeaderCell("a,b", ','); got != `"a,b"` {
		t.Errorf(`FormatHeaderCell("a,b", ',') = %q`, got)
	}
	// A hidden character (a model's name from before the rule) is shown
	// escaped, not raw.
	for _, n := range []string{"\x1b[31mred", "dog\u202e", "\u200bcat", "a\u0085b"} {
		if got := FormatHeaderCell(n, '\t'); got != strconv.Quote(n) {
			t.Errorf("FormatHeaderCell(%q) = %q, want %q", n, got, strconv.Quote(n))
		}
	}
}

// TestHeaderCellsRoundTrip: a tab-separated header of class names, each
// a cell as FormatHeaderCell writes it, reads back by DecodeMatrixNames
// as those names, a comma in one of them too, as predict --scores's file
// is given back as --source-scores. A name holding a comma read as a
// comma-separated line ("expected 2 values as in the header on line 1,
// got 1" on the row below), the comma unquoted.
func TestHeaderCellsRoundTrip(t *testing.T) {
	for _, names := range [][]string{
		{"Blue Whale", "a,b", "café"},
		{"a,b", "c"},
		{"x", "a, b", "c,d,", ","},
		{"a;b", "c"},
		{"say \"hi\"", "a,\"b\""},
		{"in side", "Blue Whale,  Pacific"},
		{"#a", "a,#b", "C#"},
		{"a,b"},
	} {
		cells := make([]string, len(names))
		for i, n := range names {
			cells[i] = FormatHeaderCell(n, '\t')
		}
		row := strings.Repeat("1\t", len(names)-1) + "1\n"
		var hdr MatrixHeader
		_, err := DecodeMatrixNames(strings.NewReader(strings.Join(cells, "\t")+"\n"+row+row), "s.tsv", HeaderAuto, &hdr)
		if got := hdr.Names; err != nil || !reflect.DeepEqual(got, names) {
			t.Errorf("names %q as header %q read back as %q, %v", names, cells, got, err)
		}
	}
	// A tab no class name holds (CheckLabel): a model's from before the
	// rule is written escaped, as ShowName shows it, in its one cell.
	var hdr MatrixHeader
	_, err := DecodeMatrixNames(strings.NewReader(FormatHeaderCell("a\tb", '\t')+"\t"+FormatHeaderCell("c,d", '\t')+"\n1\t2\n"), "s.tsv", HeaderAuto, &hdr)
	if got := hdr.Names; err != nil || len(got) != 2 {
		t.Errorf("a name holding a tab: %q, %v", got, err)
	}
}

// TestDetectSep: a line's separator is a comma if it has one, else a tab
// if it has one, else blanks; but a tab where every comma is inside a
// quoted field between tabs, as Python's csv.Sniffer tells each of these
// lines (a header of class names written by FormatHeaderCell).
func TestDetectSep(t *testing.T) {
	for line, want := range map[string]byte{
		"a,b":                       ',',
		"a\tb":                      '\t',
		"a b":                       0,
		"\"a,b\"\tc":                '\t',
		"x\t\"a,b\"\ty":             '\t',
		"x\t \"a,b\" \t\"c,\"\"d\"": '\t',
		"a,b\tc\td":                 ',', // a comma outside quotes
		"\"a\",b\tc":                ',',
		"1,5\t2,25":                 ',', // decimal commas: fieldSplit's note
		"\"a\tb\",c":                ',',
		"\"a,b\"":                   ',',
		"\"a,b\tc":                  ',', // unterminated
		"\"a,b\"x\tc":               ',', // text after the quote
		"\"x\ty,z\"":                ',', // one field: a one-column CSV's header
	} {
		if got := detectSep([]byte(line)); got != want {
			t.Errorf("detectSep(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestShowName: a name is shown as it is, or quoted and escaped as
// messages show it when it holds a hidden character (labelrunes.go) or
// white space at either end, which a table would show as something else.
func TestShowName(t *testing.T) {
	for n, want := range map[string]string{
		"petal_width": "petal_width", "Song # 1": "Song # 1", `a"b`: `a"b`, "café": "café", "👩\u200d💻": "👩\u200d💻",
		"\x1b[31mred": `"\x1b[31mred"`, "dog\u202e": `"dog\u202e"`, "\u200bcat": `"\u200bcat"`, "a\tb": `"a\tb"`,
		" a": `" a"`, "b ": `"b "`,
	} {
		if got := ShowName(n); got != want {
			t.Errorf("ShowName(%q) = %s, want %s", n, got, want)
		}
	}
}

// TestFormatLabelOneLineQuotes: a file of one label, a name holding a '"'
// (predict's output for one row), reads back as the name: the line is
// split at blanks, and its quoted field's doubled quotes are undoubled as
// in a file of several lines (`"""x"""` was read as `""x""`). A field with
// a lone quote inside its pair keeps it.
func TestFormatLabelOneLineQuotes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "y.txt")
	for _, name := range []string{`"x"`, `a"b`, `["a"`, `""`, `x""`, `"`} {
		readBack(t, path, []string{name})
		readBack(t, path, []string{name, name + "2"})
	}
	if err := os.WriteFile(path, []byte(`"a"b"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadLabelValues(path); err != nil || len(got) != 1 || got[0] != `a"b` {
		t.Errorf(`ReadLabelValues of "a"b": %q, %v; want a"b`, got, err)
	}
}
