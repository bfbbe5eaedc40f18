package dataset

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestReadLabels(t *testing.T) {
	npyInts := func(v ...int) []byte {
		var b bytes.Buffer
		if err := WriteNPYInts(&b, v); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	tests := []struct {
		name     string
		file     string // file name
		content  []byte
		positive string
		want     []float64
	}{
		{"±1 lines", "y.txt", []byte("1\n-1\n+1\n"), "", []float64{1, -1, 1}},
		{"0/1 lines", "y.txt", []byte("0\n1\n1\n"), "", []float64{-1, 1, 1}},
		{"0/1 as floats", "y.txt", []byte("1.0\n0.0\n"), "", []float64{1, -1}},
		{"minus zero is zero", "y.txt", []byte("-0\n1\n0\n"), "", []float64{-1, 1, -1}},
		{"0/1 with positive 0", "y.txt", []byte("0\n1\n1\n"), "0", []float64{1, -1, -1}},
		{"one row CSV", "y.csv", []byte("-1,1,1,-1\n"), "", []float64{-1, 1, 1, -1}},
		{"one row whitespace", "y.txt", []byte("# labels\n-1 1 1\n"), "", []float64{-1, 1, 1}},
		{"numeric header", "y.csv", []byte("label\n1\n-1\n"), "", []float64{1, -1}},
		{"strings", "y.txt", []byte("cat\ndog\ncat\n"), "dog", []float64{-1, 1, -1}},
		{"strings with spaces", "y.txt", []byte("coffee mug\ntea cup\ncoffee mug\n"), "tea cup", []float64{-1, 1, -1}},
		{"strings positive trimmed", "y.txt", []byte(" cat \ndog\n"), " cat", []float64{1, -1}},
		{"string header", "y.csv", []byte("animal\ncat\ndog\ncat\n"), "cat", []float64{1, -1, 1}},
		{"quoted strings", "y.csv", []byte("\"cat\"\n\"dog\"\n"), "dog", []float64{-1, 1}},
		// One quoted label a line may hold a comma (review13).
		{"quoted strings with a comma", "y.csv", []byte("\"a, b\"\n\"c\"\n\"a, b\"\n"), "c", []float64{-1, 1, -1}},
		{"a later quoted string with a comma", "y.csv", []byte("c\n\"a,b\"\nc\n\"a,b\"\n"), "a,b", []float64{-1, 1, -1, 1}},
		{"numeric positive", "y.txt", []byte("2\n7\n2.0\n"), "2", []float64{1, -1, 1}},
		{"numeric positive spelt differently", "y.txt", []byte("2\n7\n"), "7.0", []float64{-1, 1}},
		{"gzip", "y.gz", gzipped([]byte("1\n0\n")), "", []float64{1, -1}},
		{"npy int", "y.npy", npyInts(0, 1, 1, 0), "", []float64{-1, 1, 1, -1}},
		{"npy ±1 float column", "y.npy", npyFile(1, dict("<f8", false, "(3, 1)"), encode(le, -1.0, 1.0, 1.0)), "", []float64{-1, 1, 1}},
		{"npy positive numeric", "y.npy", npyInts(3, 5, 5), "5.0", []float64{-1, 1, 1}},
		{"npy by content", "y.bin", npyInts(3, 5), "3", []float64{1, -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, tt.file, tt.content)
			y, err := ReadLabels(path, tt.positive)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(y, tt.want) {
				t.Errorf("got %v, want %v", y, tt.want)
			}
		})
	}
}

// tabLabel is the start of the error on the label v, holding a tab, of a
// file of one label a line, on line, below or above the line other that
// holds one label; tabFirstLine is its end when line is the first.
func tabLabel(v, line, other string) string {
	return line + ": label " + strconv.Quote(v) + " holds a tab or a line break: predict prints one class a line, and class names tab-separated (one label a line, as line " + other + " holds: replace the tab in the label"
}

const tabFirstLine = ", or, if this line holds all the labels, separated by tabs, give no other line)"

func TestReadLabelsErrors(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		content  []byte
		positive string
		want     string // the message after "path: " or "path:"
	}{
		{"empty", "y.txt", nil, "", " no labels"},
		{"comments only", "y.txt", []byte("# none\n"), "", " no labels"},
		{"one class", "y.txt", []byte("1\n1.0\n+1\n"), "", " only one class (all labels are \"1\": \"1\", \"1.0\", \"+1\" all read as the number 1, as labels that are all numbers are compared by value)"},
		{"one class spelled apart", "y.txt", []byte("01\n1.0\n1\n01\n"), "", " only one class (all labels are \"01\": \"01\", \"1.0\", \"1\" all read as the number 1, as labels that are all numbers are compared by value)"},
		{"one class spelled once", "y.txt", []byte("01\n01\n"), "", " only one class (all labels are \"01\")"},
		{"header one class", "y.csv", []byte("y\n1\n1\n"), "", " only one class (all labels are \"1\")"},
		{"three classes", "y.txt", []byte("a\nb\nc\na\n"), "a", " expected two classes, found 3 distinct labels: \"a\", \"b\", \"c\""},
		{"many classes", "y.txt", []byte("0\n1\n2\n3\n4\n5\n6\n"), "", " expected two classes, found 7 distinct labels: \"0\", \"1\", \"2\", \"3\", \"4\", ... (2 more)"},
		{"need positive", "y.txt", []byte("cat\ndog\n"), "", " labels are \"cat\", \"dog\": name the positive one"},
		{"need positive numeric", "y.txt", []byte("1\n2\n"), "", " labels are \"1\", \"2\": name the positive one"},
		{"unknown positive", "y.txt", []byte("cat\ndog\n"), "cow", " positive label \"cow\" is not one of the labels \"cat\", \"dog\""},
		{"table", "y.csv", []byte("1,2\n3,4\n"), "", "2: expected one label per line or all labels on line 1"},
		{"wide later line", "y.csv", []byte("1\n2\n3,4\n"), "", "3: expected one label per line or all labels on line 1"},
		{"wide first line", "y.csv", []byte("# labels\n1,2\n3\n"), "", "3: expected one label per line or all labels on line 2"},
		// A tab inside a label of a file of one label a line (Python's
		// csv.writer writes one unquoted), on its line, named as the
		// .npy reader and a quoted label name it, where it was "expected
		// one label per line" at the line after a first line with one.
		{"tab later line", "y.txt", []byte("a\nb\tc\n"), "", tabLabel("b\tc", "2", "1") + ")"},
		{"tab first line", "y.csv", []byte("\u00e9\t\u00e0\r\nb\r\n\u00e9\t\u00e0\r\n"), "", tabLabel("\u00e9\t\u00e0", "1", "2") + tabFirstLine},
		{"tab first line only", "y.csv", []byte("a\tb \nc\nd\n"), "", tabLabel("a\tb", "1", "2") + tabFirstLine},
		{"tab first lines", "y.csv", []byte("a\tb\na\tb\n# c\nc\na\tb\n"), "", tabLabel("a\tb", "1", "4") + tabFirstLine},
		// Two labels a line, a tab between them: a table, as it was.
		{"tab table", "y.txt", []byte("a\tb\nc\td\ne\tf\n"), "", "2: expected one label per line or all labels on line 1"},
		{"quoted fields and a tab", "y.txt", []byte("\"a\"\t\"b\"\nc\n"), "", "2: expected one label per line or all labels on line 1"},
		// Excel's separator line above a class "sep=;" written bare (by
		// a predict before FormatLabel quoted one): the note says how
		// line 1 was read.
		{"separator line", "y.txt", []byte("sep=;\nb\nsep=;\nb\n"), "", "3: expected one label per line or all labels on line 2 (line 1, \"sep=;\", was read as Excel's separator line, which names the separator of the lines below and holds no label: if it is a label, write it between double quotes)"},
		{"two quoted fields", "y.csv", []byte("\"a\"\n\"b, c\",\"d\"\n"), "", "2: expected one label per line or all labels on line 1"},
		{"two quoted fields first", "y.csv", []byte("\"a, b\",\"d\"\n\"c\"\n"), "", "2: expected one label per line or all labels on line 1"},
		{"quoted field and a tab", "y.csv", []byte("\"a\"\n\"b, c\"\td\n"), "", "2: expected one label per line or all labels on line 1"},
		{"unquoted after a quoted comma", "y.csv", []byte("\"a\"\n\"b, c\", d\n"), "", "2: expected one label per line or all labels on line 1"},
		{"empty quoted label", "y.csv", []byte("1\n\"\"\n"), "", "2: empty label"},
		{"unterminated quote", "y.csv", []byte("1\n\"2\n"), "", "2: column 1: unterminated quoted field" + unterminated},
		{"empty label", "y.csv", []byte("1,,2\n"), "", "1: column 2: empty label"},
		// pandas' Series.to_csv(path) and DataFrame.to_csv(path), with the
		// row index, and R's write.csv with row names: the index header's
		// message, not the table's.
		{"pandas Series index", "y.csv", []byte(",0\n0,1\n1,-1\n"), "", indexHeader[len("x.csv:"):]},
		{"pandas named index", "y.csv", []byte(",y\n0,cat\n1,dog\n"), "cat", indexHeader[len("x.csv:"):]},
		{"R row names", "y.csv", []byte("\"\",\"y\"\n\"1\",1\n\"2\",-1\n"), "", indexHeader[len("x.csv:"):]},
		{"index header after a comment", "y.csv", []byte("# y\n,0\n0,1\n"), "", "2" + indexHeader[len("x.csv:1"):]},
		{"npy NaN", "y.npy", npyFile(1, dict("<f8", false, "(2,)"), encode(le, 1.0, nan())), "", " row 1 is NaN"},
		{"npy +Inf", "y.npy", npyFile(1, dict("<f8", false, "(3,)"), encode(le, 1.0, -1.0, math.Inf(1))), "", " row 2 is +Inf"},
		{"npy matrix", "y.npy", npyFile(1, dict("<f8", false, "(1, 2)"), encode(le, 1.0, 0.0)), "", " expected a 1-D array or a single column, got shape (1, 2)"},
		{"npy empty", "y.npy", npyFile(1, dict("<f8", false, "(0,)"), nil), "", " no labels"},
		{"npy 3-D", "y.npy", npyFile(1, dict("<f8", false, "(1, 1, 2)"), encode(le, 1.0, 2.0)), "", " unsupported shape (1, 1, 2): expected a 1-D array or a single column (one label per example)"},
		{"npy one class", "y.npy", npyFile(1, dict("<i4", false, "(2,)"), encode(le, int32(4), int32(4))), "", " only one class (all labels are \"4\")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, tt.file, tt.content)
			y, err := ReadLabels(path, tt.positive)
			checkError(t, y, err, path+":"+tt.want)
		})
	}
}

// TestWhiteSpaceLabels: a label of Unicode white space alone (a no-break
// space, an ideographic space) is refused at its line (a line of vertical
// tabs is blank: TestVerticalTabFormFeedLines),
// where it made a class whose trimmed name was empty and failed later,
// naming no file ("class 0 has an empty name").
func TestWhiteSpaceLabels(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{"cat\n\u00a0\ndog\ncat\n", `2: label "\u00a0" is only white space: a label is a number or a name`},
		{"1\n-1\n\u3000\n", `3: label "\u3000" is only white space: a label is a number or a name`},
		{"cat\ncat\n\u00a0\u3000\n", `3: label "\u00a0\u3000" is only white space: a label is a number or a name`},
		{"cat\n\"\u00a0\"\ndog\n", `2: label "\u00a0" is only white space: a label is a number or a name`},
		{"1,\u00a0,-1\n", `1: column 2: label "\u00a0" is only white space: a label is a number or a name`},
	} {
		path := writeFile(t, "y.txt", []byte(tc.content))
		y, err := ReadLabels(path, "cat")
		checkError(t, y, err, path+":"+tc.want)
		c, err := ReadClasses(path)
		checkError(t, c, err, path+":"+tc.want)
	}
}

// TestBlankHeader: a first line that is empty ("", as pandas writes the
// header of a Series named "") or only white space ("\u00a0", of a Series
// so named) is a header to --labels-header yes, and to auto where auto
// takes a value that is no number above numbers for one (a blank value
// is no label), empty and white space alike; no refuses it at line 1. A
// line of white space was refused at line 1 whatever the rule.
func TestBlankHeader(t *testing.T) {
	const white = `1: label "\u00a0" is only white space: a label is a number or a name`
	for _, tc := range []struct {
		content, header string // header: the first value
		auto            bool   // whether auto reads it as a header
	}{
		{"\u00a0\n1\n-1\n1\n", "\u00a0", true},
		{"\"\"\n1\n-1\n1\n", "", true},
		{"\u00a0\ncat\ndog\ncat\ndog\n", "\u00a0", true},
		{"\u00a0\ncat\ndog\nowl\n", "\u00a0", false},
	} {
		path := writeFile(t, "y.txt", []byte(tc.content))
		want := path + ":" + white
		if tc.header == "" {
			want = path + ":1: empty label"
		}
		labels := strings.Count(tc.content, "\n") - 1
		// header returns c's header, or "?" with no header or classes.
		header := func(c *Classes) string {
			if h, ok := c.Header(); ok && len(c.Y) == labels {
				return h
			}
			return "?"
		}
		c, err := ReadClassesHeader(path, HeaderYes)
		if err != nil || header(c) != tc.header {
			t.Errorf("%q, yes: %v, %v", tc.content, c, err)
		}
		c, err = ReadClassesHeader(path, HeaderNo)
		checkError(t, c, err, want)
		c, err = ReadClassesHeader(path, HeaderAuto)
		if !tc.auto {
			checkError(t, c, err, want)
			continue
		}
		if err != nil || header(c) != tc.header {
			t.Errorf("%q, auto: %v, %v", tc.content, c, err)
		}
		positive := ""
		if strings.Contains(tc.content, "cat") {
			positive = "cat"
		}
		if y, err := ReadLabels(path, positive); err != nil || len(y) != labels {
			t.Errorf("%q, ReadLabels: %v, %v", tc.content, y, err)
		}
	}
	if v, err := ReadLabelValues(writeFile(t, "y.txt", []byte("\u00a0\n1\n-1\n"))); err != nil || !slices.Equal(v, []string{"1", "-1"}) {
		t.Errorf("ReadLabelValues: %q, %v", v, err)
	}
	// Below the first line, and in a one-line file, a blank label is refused.
	for content, want := range map[string]string{
		"1\n\u00a0\n-1\n": `2: label "\u00a0" is only white space: a label is a number or a name`,
		"\u00a0,1,-1\n":   `1: column 1: label "\u00a0" is only white space: a label is a number or a name`,
	} {
		path := writeFile(t, "y.txt", []byte(content))
		c, err := ReadClassesHeader(path, HeaderYes)
		checkError(t, c, err, path+":"+want)
	}
}

// TestInvisibleLabels: a label holding a character that shows as nothing
// is refused at its line, saying what it looks like: U+FEFF, the byte
// order mark that two label files saved with one and concatenated hold
// where the second starts (read, "\ufeff-1" was a third class beside "-1"
// and 1, which looked the same), U+200B and U+2060. A mark at the start of
// the file is skipped, and U+200D (emoji sequences) is a label's. The
// readers of matrices and svmlight files name the mark in their message
// on the value that it made no number.
func TestInvisibleLabels(t *testing.T) {
	const mark = `: U+FEFF, a byte order mark, shows as nothing: files each saved with one and concatenated (cat a.csv b.csv) hold it where the second starts; remove it (sed 's/\xEF\xBB\xBF//g')`
	for content, want := range map[string]string{
		"1\n-1\n1\n\ufeff-1\n1\n":      `4: label "\ufeff-1" looks like "-1"` + mark,
		"cat\ndog\n\ufeffcat\ndog\n":   `3: label "\ufeffcat" looks like "cat"` + mark,
		"cat\ndog\n\"\ufeffy\"\ndog\n": `3: label "\ufeffy" looks like "y"` + mark,
		"cat\ndog\ncat\u200b\n":        `3: label "cat\u200b" looks like "cat": it holds U+200B, a zero-width space (text copied from a web page may hold one), which shows as nothing; remove it`,
		"cat,dog,c\u2060at,dog\n":      `1: column 3: label "c\u2060at" looks like "cat": it holds U+2060, a word joiner, which shows as nothing; remove it`,
	} {
		checkLabelReaders(t, content, "cat", want)
	}
	for _, content := range []string{"\ufeff1\n-1\n", "\u2764\u200d\U0001f525\ncat\n"} {
		if c, err := ReadClasses(writeFile(t, "y.txt", []byte(content))); err != nil || len(c.Names) != 2 {
			t.Errorf("%q: %v, %v", content, c, err)
		}
	}
	x := writeFile(t, "x.csv", []byte("1,2\n3,4\n\ufeff5,6\n"))
	m, err := ReadMatrix(x)
	checkError(t, m, err, x+`:3: column 1: cannot parse "\ufeff5" as a number`+mark)
	svm := writeFile(t, "x.svm", []byte("1 1:2\n\ufeff-1 1:3\n"))
	_, _, err = ReadSVMLight(svm)
	checkError(t, nil, err, svm+`:2: bad label "\ufeff-1"`+mark)
}

// TestCommentAfterLabel: a label file's comments are lines of their own;
// a note after a label ("cat # the first") made a class "cat # the first"
// beside "cat". It is refused at its line, naming the comment, by every
// reader of labels; a '#' within a word ("C#"), a quoted label holding one
// and comment lines are read as before.
func TestCommentAfterLabel(t *testing.T) {
	why := func(label, comment string) string {
		return `label ` + strconv.Quote(label) + ` holds a comment, "` + comment + `": a label file has comments on lines of their own (starting with '#'), not after a label: move it to a line of its own, or, if '#' belongs to the label, quote the label: "` + label + `"`
	}
	for content, want := range map[string]string{
		"cat # the first\ndog\ncat\n":    "1: " + why("cat # the first", "# the first"),
		"cat\ndog\ncat  # again\n":       "3: " + why("cat  # again", "# again"),
		"1\n-1\n1 # positive\n-1\n":      "3: " + why("1 # positive", "# positive"),
		"cat\ndog\ncat\u00a0# x\ndog\n":  "3: " + why("cat\u00a0# x", "# x"),
		"cat,dog,cat # three\n":          "1: column 3: " + why("cat # three", "# three"),
		"cat\nC# and F#\ndog # 1\ncat\n": "3: " + why("dog # 1", "# 1"),
	} {
		path := writeFile(t, "y.txt", []byte(content))
		c, err := ReadClassesHeader(path, HeaderNo)
		checkError(t, c, err, path+":"+want)
		v, err := ReadLabelValues(path)
		checkError(t, v, err, path+":"+want)
		if want[0] != '1' { // not the first line, which ReadLabels may take for a header
			y, err := ReadLabels(path, "cat")
			checkError(t, y, err, path+":"+want)
		}
	}
	for content, names := range map[string]int{
		"C#\nF#\nC#\n": 2, "\"Song #1\"\n\"Song #2\"\n\"Song #1\"\n": 2,
		"# labels\ncat\n# a note\ndog\ncat\n": 2, "cat,\"dog # b\"\n": 2, "a#b\nc\n": 2,
		"cat\nC# and F#\ndog #1\ncat\n": 3, "cat\ndog\ncat\u00a0#x\ndog\n": 3,
	} {
		if c, err := ReadClassesHeader(writeFile(t, "y.txt", []byte(content)), HeaderNo); err != nil || len(c.Names) != names {
			t.Errorf("%q: %v, %v", content, c, err)
		}
	}
}

// TestHashInLabels: a '#' before a word after a name is the name's, as
// pandas' to_csv writes "Song #1" unquoted: such labels are read, where
// any '#' after white space was refused as a comment (c6b6d8d). A '#'
// followed by white space or ending the label, or after a number, is a
// comment still; of labels separated by blanks on one line the message
// names the comment to the line's end, and the quoting it suggests
// doubles a quote inside the label.
func TestHashInLabels(t *testing.T) {
	const why = ": a label file has comments on lines of their own (starting with '#'), not after a label: move it to a line of its own, or, if '#' belongs to the label, quote the label: "
	for _, tt := range []struct{ content, want string }{
		{"Song #1\nSong #2\nSong #1\n", ""},
		{"Apt #3\nApt #12\nApt #3\n", ""},
		{"Issue #42\nIssue #7\n", ""},
		{"cat dog #1 dog\n", ""},
		{"a,Song #1,b\n", ""},
		{"cat # the first\ndog\ncat\n", `1: label "cat # the first" holds a comment, "# the first"` + why + `"cat # the first"`},
		{"cat\ndog\ncat #\n", `3: label "cat #" holds a comment, "#"` + why + `"cat #"`},
		{"1\n-1\n1 #positive\n-1\n", `3: label "1 #positive" holds a comment, "#positive"` + why + `"1 #positive"`},
		{"cat dog cat # three\n", `1: column 4: label "#" starts a comment, "# three"` + why + `"#"`},
		{"cat dog cat #\n", `1: column 4: label "#" starts a comment, "#"` + why + `"#"`},
		{"cat\nsay 'hi' # x\ndog\n", `2: label "say 'hi' # x" holds a comment, "# x"` + why + `"say 'hi' # x"`},
		{"cat,5\" # x\n", `1: column 2: label "5\" # x" holds a comment, "# x"` + why + `"5"" # x"`},
	} {
		path := writeFile(t, "y.txt", []byte(tt.content))
		c, err := ReadClassesHeader(path, HeaderNo)
		v, err2 := ReadLabelValues(path)
		if tt.want == "" {
			if err != nil || err2 != nil || len(v) != len(c.Y) {
				t.Errorf("%q: %v; %v", tt.content, err, err2)
			}
			continue
		}
		checkError(t, c, err, path+":"+tt.want)
		checkError(t, v, err2, path+":"+tt.want)
	}
}

// TestBracketedLabels: a list printed (str(y.tolist()), json.dump, a
// NumPy array's printout, wrapped or not) and given as labels is refused,
// where it was split into labels "[1", "0", …, "0]": a class "[1" beside
// "1". Names that open and close their own brackets are read.
func TestBracketedLabels(t *testing.T) {
	const why = ", as Python prints a list or a tuple, NumPy an array and JSON writes an array: write the labels alone, one a line (np.savetxt(path, y, fmt=\"%s\")), not their printout; if they are labels, quote the first and the last to keep them"
	for content, want := range map[string]string{
		"[1, 0, 1, 1, 0]":        `1: labels in brackets ("[1" … "0]")` + why,
		"[1 0 1 1 0]\n":          `1: labels in brackets ("[1" … "0]")` + why,
		"# y\n[1 0 1\n 1 0]\n":   `2: labels in brackets ("[1 0 1" … "1 0]")` + why,
		"(1, 0, 1)\n":            `1: labels in brackets ("(1" … "1)")` + why,
		"[1.0, 0.0, 1.0, 0.0]\n": `1: labels in brackets ("[1.0" … "0.0]")` + why,
	} {
		path := writeFile(t, "y.txt", []byte(content))
		c, err := ReadClassesHeader(path, HeaderNo)
		checkError(t, c, err, path+":"+want)
		v, err := ReadLabelValues(path)
		checkError(t, v, err, path+":"+want)
		y, err := ReadLabels(path, "1")
		checkError(t, y, err, path+":"+want)
	}
	for _, content := range []string{"(a)\n(b)\n(a)\n", "[1]\n[0]\n[1]\n", "\"[1\",0,\"1]\"\n", "[a\nb\n[a\n"} {
		if c, err := ReadClassesHeader(writeFile(t, "y.txt", []byte(content)), HeaderNo); err != nil || len(c.Names) < 2 {
			t.Errorf("%q: %v, %v", content, c, err)
		}
	}
}

// TestBracketNames: a first and a last label that are a bracket alone, or
// hold other text than numbers or a quoted string inside it, are names
// (Penn tags "(" and ")", emoticons), where any bracket the first label
// opened and the last closed was refused as a list printed (638878b); a
// printout of strings ("['cat' 'dog']", as NumPy prints them) is refused
// as one of numbers is.
func TestBracketNames(t *testing.T) {
	const why = ", as Python prints a list or a tuple, NumPy an array and JSON writes an array: write the labels alone, one a line (np.savetxt(path, y, fmt=\"%s\")), not their printout; if they are labels, quote the first and the last to keep them"
	for _, tt := range []struct{ content, want string }{
		{"(\nNN\nVB\n)\n", ""},
		{"[\na\nb\n]\n", ""},
		{"(:\nhappy\n:)\n", ""},
		{"[ \na\n ]\n", ""},
		{"(a\nb\nc)\n", ""},
		{"[x 1\ny\n2 x]\n", ""},
		{"['cat' 'dog' 'cat']\n", `1: labels in brackets ("['cat'" … "'cat']")` + why},
		{"['New York', 'Paris']\n", `1: labels in brackets ("['New York'" … "'Paris']")` + why},
		{"['cat' 'dog'\n 'cat']\n", `1: labels in brackets ("['cat' 'dog'" … "'cat']")` + why},
		{"[-1\n1\n1e3]\n", `1: labels in brackets ("[-1" … "1e3]")` + why},
	} {
		path := writeFile(t, "y.txt", []byte(tt.content))
		c, err := ReadClassesHeader(path, HeaderNo)
		if tt.want == "" {
			if err != nil || len(c.Names) < 3 {
				t.Errorf("%q: %v, %v", tt.content, c, err)
			}
			continue
		}
		checkError(t, c, err, path+":"+tt.want)
	}
}

// TestUnicodeBlankAroundLabels: a label is trimmed of Unicode white space
// (a no-break space after it, as a cell copied from a web page holds), as
// Python's float() and NumPy read such a number and ReadClasses already
// trimmed a name: "1\u00a0" is the class 1, where ReadClasses made it a
// name and so "1" and "1.0" two classes, and ReadLabels found "cat\u00a0"
// a third class beside "cat".
func TestUnicodeBlankAroundLabels(t *testing.T) {
	path := writeFile(t, "y.txt", []byte("1\u00a0\n1.0\n-1\n\u30001\n"))
	c, err := ReadClasses(path)
	if err != nil || !slices.Equal(c.Names, []string{"-1", "1"}) || !slices.Equal(c.Y, []int{1, 1, 0, 1}) {
		t.Errorf("ReadClasses: %v, %v", c, err)
	}
	if y, err := ReadLabels(path, ""); err != nil || !slices.Equal(y, []float64{1, 1, -1, 1}) {
		t.Errorf("ReadLabels: %v, %v", y, err)
	}
	path = writeFile(t, "y.txt", []byte("cat\u00a0\ncat\ndog\n\"\u3000dog\"\n"))
	if y, err := ReadLabels(path, "cat"); err != nil || !slices.Equal(y, []float64{1, 1, -1, -1}) {
		t.Errorf("ReadLabels: %v, %v", y, err)
	}
	c, err = ReadClasses(path)
	if err != nil {
		t.Fatal(err)
	}
	if y, pos, neg, err := c.Binary("cat"); err != nil || !slices.Equal(y, []float64{1, 1, -1, -1}) || pos != "cat" || !slices.Equal(neg, []string{"dog"}) {
		t.Errorf("Binary: %v, %q, %q, %v", y, pos, neg, err)
	}
	if v, err := ReadLabelValues(path); err != nil || !slices.Equal(v, []string{"cat", "cat", "dog", "dog"}) {
		t.Errorf("ReadLabelValues: %q, %v", v, err)
	}
}

// TestBigIntegerLabels: a text label written as an integer beyond 2⁵³
// (a 64-bit id) is refused at its line, as the .npy reader refuses one,
// where it read as the nearest float64: consecutive ids made one class,
// named by a number no line holds.
func TestBigIntegerLabels(t *testing.T) {
	const why = ` is an integer beyond 2⁵³, which a float64 cannot hold exactly (it reads as %s, as integers near it do), and labels that are all numbers are compared as float64s: number the classes 0, 1, … or make them names (a letter before each)`
	for _, tc := range []struct{ content, want, reads string }{
		{"1234567890123456789\n1234567890123456790\n1\n", `1: label "1234567890123456789"`, "1.2345678901234568e+18"},
		{"y\n1\n-1234567890123456789\n1234567890123456790\n", `3: label "-1234567890123456789"`, "-1.2345678901234568e+18"},
		{"1,9007199254740993\n", `1: column 2: label "9007199254740993"`, "9.007199254740992e+15"},
	} {
		path := writeFile(t, "y.txt", []byte(tc.content))
		c, err := ReadClasses(path)
		checkError(t, c, err, path+":"+tc.want+fmt.Sprintf(why, tc.reads))
	}
	// 2⁵³ itself, smaller integers, and numbers written as floats read.
	for _, text := range []string{"9007199254740992\n1\n", "-9007199254740992\n1\n", "0009007199254740991\n1\n", "1e20\n1\n", "12345678901234567890.0\n1\n"} {
		if c, err := ReadClasses(writeFile(t, "y.txt", []byte(text))); err != nil || len(c.Names) != 2 {
			t.Errorf("%q: %v, %v", text, c, err)
		}
	}
	// Among names the labels are compared as written: big ids are names,
	// each its own class (they were refused at line 2, with the advice to
	// make them names).
	mixed := writeFile(t, "y.txt", []byte(strings.Repeat("unknown\n1234567890123456790\n1234567890123456791\n", 2)))
	if c, err := ReadClasses(mixed); err != nil || !slices.Equal(c.Names, []string{"1234567890123456790", "1234567890123456791", "unknown"}) || !slices.Equal(c.Y, []int{2, 0, 1, 2, 0, 1}) {
		t.Errorf("ReadClasses(names and ids): %v, %v", c, err)
	}
	if v, err := ReadLabelValues(mixed); err != nil || len(v) != 6 || v[1] != "1234567890123456790" {
		t.Errorf("ReadLabelValues(names and ids): %q, %v", v, err)
	}
	two := writeFile(t, "y.txt", []byte("id\nunknown\n1234567890123456790\nunknown\n1234567890123456790\n"))
	if y, err := ReadLabels(two, "1234567890123456790"); err != nil || !slices.Equal(y, []float64{-1, 1, -1, 1}) {
		t.Errorf("ReadLabels(a name and an id): %v, %v", y, err)
	}
	// ReadLabelValues returns numbers as written, compared by none.
	ids := writeFile(t, "y.txt", []byte("1234567890123456789\n1234567890123456790\n"))
	if v, err := ReadLabelValues(ids); err != nil || !slices.Equal(v, []string{"1234567890123456789", "1234567890123456790"}) {
		t.Errorf("ReadLabelValues(ids): %q, %v", v, err)
	}
	// A .npy label file of such integers is refused as the text is, by
	// the .npy reader, with the advice to number the classes.
	var buf bytes.Buffer
	if _, err := buf.Write(npyFile(1, dict("<i8", false, "(2,)"), encode(le, int64(1), int64(1234567890123456789)))); err != nil { // int64: beyond a 32-bit int
		t.Fatal(err)
	}
	y := writeFile(t, "y.npy", buf.Bytes())
	c, err := ReadClasses(y)
	checkError(t, c, err, y+": row 1: integer 1234567890123456789 is beyond 2⁵³, which a float64 cannot hold exactly (it reads as 1.2345678901234568e+18, as integers near it do): labels are compared as float64s, so integers near it would read as one class: number the classes 0, 1, … (np.unique(y, return_inverse=True)[1])")
	// A column of labels names the row alone too ("row 2 column 0" before),
	// as the label readers name a NaN's ("row 2 is NaN").
	col := writeFile(t, "col.npy", npyFile(1, dict("<i8", false, "(3, 1)"), encode(le, int64(0), int64(1), int64(1<<53+1))))
	c, err = ReadClasses(col)
	checkError(t, c, err, col+": row 2: integer 9007199254740993 is beyond 2⁵³, which a float64 cannot hold exactly (it reads as 9.007199254740992e+15, as integers near it do): labels are compared as float64s, so integers near it would read as one class: number the classes 0, 1, … (np.unique(y, return_inverse=True)[1])")
	m, err := ReadMatrix(y)
	checkError(t, m, err, y+": element 1: integer 1234567890123456789 is beyond 2⁵³, which a float64 cannot hold exactly (it reads as 1.2345678901234568e+18, as integers near it do): save the array as float64 (a.astype(np.float64)) if that rounding is meant")
}

// TestCheckLabel: numbers and names are labels; what reads as a number but
// not a finite one is not, whatever its spelling, nor bytes that are not
// UTF-8.
func TestCheckLabel(t *testing.T) {
	for _, ok := range []string{"1", "-1", "0.5", "1e308", "-0", "cat", "nano", "info", "Inf cat", "NaN2", "0x1p-2", "", "chat noir", "猫", "\x00"} {
		if err := CheckLabel(ok); err != nil {
			t.Errorf("CheckLabel(%q): %v", ok, err)
		}
	}
	const finite = ", not a finite number: a label is a finite number or a name that does not read as a number"
	for bad, want := range map[string]string{
		"NaN": "reads as NaN" + finite, "nan": "reads as NaN" + finite, " NAN ": "reads as NaN" + finite,
		"+nan": "reads as NaN" + finite, "-NaN": "reads as NaN" + finite,
		"Inf": "reads as +Inf" + finite, "+inf": "reads as +Inf" + finite, "-Infinity": "reads as -Inf" + finite,
		"1e400": "is beyond the range of float64" + finite, "-1e999": "is beyond the range of float64" + finite,
		"a\nb":  "holds a tab or a line break: predict prints one class a line, and class names tab-separated",
		"a\tb":  "holds a tab or a line break: predict prints one class a line, and class names tab-separated",
		"a\r":   "holds a tab or a line break: predict prints one class a line, and class names tab-separated",
		"a\xff": "is not valid UTF-8: a label is text, which the model file records as JSON", "\xfe\xff": "is not valid UTF-8: a label is text, which the model file records as JSON",
	} {
		if err, want := CheckLabel(bad), "label "+strconv.Quote(bad)+" "+want; err == nil || err.Error() != want {
			t.Errorf("CheckLabel(%q): %v, want %q", bad, err, want)
		}
	}
}

// TestNonFiniteLabels: a label that reads as a number but not a finite one
// (NaN, ±Inf in any spelling ParseFloat takes, a number beyond float64) is
// refused by every reader of label files, with the file, the line (and the
// column of a one-line file) and the value; it was read as a class name
// ("NaN" beside -1 and 1: three classes) or as the class +Inf. A header
// dropped by --labels-header yes may be anything.
func TestNonFiniteLabels(t *testing.T) {
	const why = ", not a finite number: a label is a finite number or a name that does not read as a number"
	for _, tc := range []struct {
		name, text string
		want       string // after "path:"
	}{
		{"NaN among numbers", "1\n-1\nNaN\n1\n", `3: label "NaN" reads as NaN` + why},
		{"nan among names", "cat\ndog\nnan\ncat\n", `3: label "nan" reads as NaN` + why},
		{"NaN of two classes", "cat\nNaN\ncat\nNaN\n", `2: label "NaN" reads as NaN` + why},
		{"Inf", "1\n# c\n\nInf\n-1\n", `4: label "Inf" reads as +Inf` + why},
		{"+Inf", "0\n+Inf\n", `2: label "+Inf" reads as +Inf` + why},
		{"-inf", "0\n1\n-inf\n", `3: label "-inf" reads as -Inf` + why},
		{"Infinity", "0\n1\n  infinity  \n", `3: label "infinity" reads as +Inf` + why},
		{"beyond float64", "0\n1\n1e400\n", `3: label "1e400" is beyond the range of float64` + why},
		{"one line", "1,-1,inf,1\n", `1: column 3: label "inf" reads as +Inf` + why},
		{"first line", "NaN\n1\n-1\n", `1: label "NaN" reads as NaN` + why},
		{"quoted", "1\n\"-Inf\"\n", `2: label "-Inf" reads as -Inf` + why},
		// Not a number, but a name the model file could not record.
		{"not UTF-8", "cat\ndog\ncat\xff\n", `3: label "cat\xff" is not valid UTF-8: a label is text, which the model file records as JSON` + utf8Hint},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "y.txt", []byte(tc.text))
			want := path + ":" + tc.want
			c, err := ReadClasses(path)
			checkError(t, c, err, want)
			for _, h := range []HeaderRule{HeaderNo, HeaderAuto} {
				c, err := ReadClassesHeader(path, h)
				checkError(t, c, err, want)
			}
			y, err := ReadLabels(path, "1")
			checkError(t, y, err, want)
			vals, err := ReadLabelValues(path)
			checkError(t, vals, err, want)
		})
	}
	// A mark of a missing value among numbers (R's NA, which pandas reads as
	// NaN) is refused as one, where it made a class "NA": three classes of
	// labels 0 and 1. Among names it may be a class, but not among quoted
	// ones: R's write.table and write.csv quote strings and write a true NA
	// bare (review13).
	const (
		missing = ` among numbers is a missing value (as R writes NA, and pandas reads it as NaN): give only the examples that have a label`
		bare    = `, unquoted among quoted labels, is a missing value (as R's write.table and write.csv quote strings and write NA bare): give only the examples that have a label, or quote it if it is a class ("NA")`
	)
	for _, tc := range []struct{ text, want string }{
		{"\"x\"\n0\n1\nNA\n1\n0\n", `4: label "NA"` + missing},
		{"1\n-1\nNone\n1\nNA\n", `3: label "None"` + missing},
		{"0,1,<NA>,1\n", `1: column 3: label "<NA>"` + missing},
		{"\"cat\"\n\"dog\"\nNA\n\"dog\"\n\"cat\"\n", `3: label "NA"` + bare},
		{"\"x\"\n\"cat\"\n\"dog\"\nNA\n\"dog\"\n", `4: label "NA"` + bare},
		{"\"cat\",\"dog\",None,\"cat\"\n", `1: column 3: label "None"` + bare},
	} {
		path := writeFile(t, "y.txt", []byte(tc.text))
		c, err := ReadClasses(path)
		checkError(t, c, err, path+":"+tc.want)
		y, err := ReadLabels(path, "")
		checkError(t, y, err, path+":"+tc.want)
		vals, err := ReadLabelValues(path)
		checkError(t, vals, err, path+":"+tc.want)
	}
	// Quoted, "NA" is a class (review10): R quotes the string and not a
	// missing value.
	for _, text := range []string{"0\n1\n\"NA\"\n0\n1\n", "\"1\"\n\"0\"\n\"NA\"\n\"1\"\n", "1,0,\"None\",1\n"} {
		if c, err := ReadClasses(writeFile(t, "y.txt", []byte(text))); err != nil || len(c.Names) != 3 {
			t.Errorf("%q: %v, %v; want three classes", text, c, err)
		}
	}
	path := writeFile(t, "y.txt", []byte("cat\nNA\ndog\nNA\n"))
	if c, err := ReadClasses(path); err != nil || !slices.Equal(c.Names, []string{"NA", "cat", "dog"}) {
		t.Errorf("names with NA: %v, %v; want the classes NA, cat, dog", c, err)
	}
	// One bare name beside it and NA may be a class again.
	path = writeFile(t, "y.txt", []byte("\"cat\"\ndog\nNA\n\"dog\"\n"))
	if c, err := ReadClasses(path); err != nil || !slices.Equal(c.Names, []string{"NA", "cat", "dog"}) {
		t.Errorf("quoted and bare names with NA: %v, %v; want the classes NA, cat, dog", c, err)
	}
	// A header is not a label: --labels-header yes drops a non-finite one.
	path = writeFile(t, "y.txt", []byte("inf\ncat\ndog\n"))
	c, err := ReadClassesHeader(path, HeaderYes)
	if err != nil || !slices.Equal(c.Names, []string{"cat", "dog"}) {
		t.Errorf("a header inf above cat, dog: %v, %v; want the classes cat, dog", c, err)
	}
}

func TestReadLabelValues(t *testing.T) {
	tests := []struct {
		name, file string
		content    []byte
		want       []string
	}{
		{"multi-class text", "y.txt", []byte("b\na\nc\n"), []string{"b", "a", "c"}},
		{"numeric header dropped", "y.csv", []byte("class\n3\n1\n"), []string{"3", "1"}},
		{"string header kept", "y.csv", []byte("class\ncat\ndog\n"), []string{"class", "cat", "dog"}},
		{"npy", "y.npy", npyFile(1, dict("<f4", false, "(3,)"), encode(le, float32(2), float32(0.5), float32(-1))), []string{"2", "0.5", "-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadLabelValues(writeFile(t, tt.file, tt.content))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSignedLabels(t *testing.T) {
	for _, tc := range []struct {
		pos, neg int
		want     []float64
	}{
		{2, 3, []float64{1, 1, -1, -1, -1}},
		{1, 0, []float64{1}},
		{0, 2, []float64{-1, -1}},
		{0, 0, []float64{}},
	} {
		if got := SignedLabels(tc.pos, tc.neg); !slices.Equal(got, tc.want) {
			t.Errorf("SignedLabels(%d, %d) = %v, want %v", tc.pos, tc.neg, got, tc.want)
		}
	}
	// A negative count is a caller's bug, as for make: it panics naming
	// both counts. SignedLabels(-1, 3) returned two −1 labels.
	for _, tc := range []struct{ pos, neg int }{{-1, 3}, {2, -1}, {-5, 2}} {
		func() {
			want := fmt.Sprintf("dataset: SignedLabels(%d, %d): negative count", tc.pos, tc.neg)
			defer func() {
				if r := recover(); r != want {
					t.Errorf("SignedLabels(%d, %d): panic %v, want %q", tc.pos, tc.neg, r, want)
				}
			}()
			got := SignedLabels(tc.pos, tc.neg)
			t.Errorf("SignedLabels(%d, %d) = %v, want a panic", tc.pos, tc.neg, got)
		}()
	}
}

func TestDropBinaryHeader(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"y cat dog cat", "cat dog cat"},
		{"cat dog cat", "cat dog cat"},     // first value repeats: data
		{"y cat cat", "y cat cat"},         // two classes already
		{"y cat dog cow", "y cat dog cow"}, // three classes remain
		{"1 cat dog", "1 cat dog"},         // a number is never a header
		{"y cat", "y cat"},                 // too short to tell
	}
	for _, tt := range tests {
		got := strings.Join(dropBinaryHeader(strings.Fields(tt.in)), " ")
		if got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestBlankLine: the first blank line between two lines of labels (where
// pandas' to_csv writes a missing label) is reported, else the first
// before the first label or after the last (pandas' first or last label
// missing: they were not reported), not a comment; the first comment line
// is reported by CommentLine, between labels (a class "#tag" written
// unquoted) or else before or after them (np.savetxt of sorted labels
// "#a" and "b": they were not reported); a .npy file has neither. Such a
// line between a header and the first label is after the header (it was
// said to be between labels), and np.savetxt's header= line above the
// labels ("# labels") is no comment line that could be a label (it was
// one). GapLines counts the lines that hold no label but that header.
func TestBlankLine(t *testing.T) {
	type gap struct {
		line  int
		place LinePlace
	}
	for text, want := range map[string][2]gap{ // BlankLine, CommentLine
		"1\n-1\n\n1\n":          {{3, BetweenLabels}, {}},
		"1\n-1\n\n\n1\n\n-1\n":  {{3, BetweenLabels}, {}},
		"\n\n1\n-1\n1\n":        {{1, BeforeLabels}, {}},
		"1\n-1\n1\n\n\n":        {{4, AfterLabels}, {}},
		"y\n0\n1\n\n":           {{4, AfterLabels}, {}},
		"\n1\n\n-1\n\n":         {{3, BetweenLabels}, {}},
		"\n1\n-1\n\n":           {{1, BeforeLabels}, {}},
		"1\n# c\n-1\n":          {{}, {2, BetweenLabels}},
		"1\n  \n-1\n":           {{2, BetweenLabels}, {}},
		"1,-1,1\n":              {{}, {}},
		"1,-1,1\n\n":            {{2, AfterLabels}, {}},
		"1\n-1\n#tag\n1\n":      {{}, {3, BetweenLabels}},
		"# labels\n1\n-1\n1\n":  {{}, {}}, // np.savetxt's header=
		"#labels\n1\n-1\n1\n":   {{}, {1, BeforeLabels}},
		"y\n\n0\n1\n":           {{2, AfterHeader}, {}},
		"y\n# c\n0\n\n1\n":      {{4, BetweenLabels}, {2, AfterHeader}},
		"y\n0\n\n1\n":           {{3, BetweenLabels}, {}},
		"1\n\n-1\n\n1\n":        {{2, BetweenLabels}, {}},
		"1\n-1\n1\n# end\n":     {{}, {4, AfterLabels}},
		"#a\n#a\nb\nb\n":        {{}, {1, BeforeLabels}},
		"#a\n1\n#b\n-1\n#c\n":   {{}, {3, BetweenLabels}},
		"1\n\n  # c\n# d\n-1\n": {{2, BetweenLabels}, {3, BetweenLabels}},
		"1\n-1\n\"#tag\"\n":     {{}, {}},
		"a\nb\n\t\n":            {{3, AfterLabels}, {}},
		"\t\na\nb\n":            {{1, BeforeLabels}, {}},
	} {
		c, err := ReadClasses(writeFile(t, "y.txt", []byte(text)))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		var got [2]gap
		got[0].line, got[0].place = c.BlankLine()
		got[1].line, got[1].place = c.CommentLine()
		if got != want {
			t.Errorf("%q: BlankLine, CommentLine %v; want %v", text, got, want)
		}
	}
	var b bytes.Buffer
	if err := WriteNPYInts(&b, []int{0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	c, err := ReadClasses(writeFile(t, "y.npy", b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := c.BlankLine(); b != 0 {
		t.Errorf(".npy: blank line %d", b)
	}
	if l, _ := c.CommentLine(); l != 0 {
		t.Errorf(".npy: comment line %d", l)
	}
	for text, want := range map[string]int{"# label\n1\n\n-1\n#x\n1\n\n": 3, "y\n\n# c\n0\n1\n": 2, "0\n1\n": 0} {
		c, err := ReadClasses(writeFile(t, "y.txt", []byte(text)))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got := c.GapLines(); got != want {
			t.Errorf("%q: GapLines %d, want %d", text, got, want)
		}
	}
	for p, want := range map[LinePlace]string{BetweenLabels: "between labels", BeforeLabels: "before the first label", AfterLabels: "after the last label", AfterHeader: "after the header"} {
		if p.String() != want {
			t.Errorf("LinePlace %d: %q, want %q", p, p, want)
		}
	}
}

// TestTwoNumberLabels: a label of two integers is a label (age bands,
// "0 1" among them), where any unquoted "0 1" or "1 0" was refused
// (f121de6), and before it two such rows together near the top ("0 1\n0
// 1\n1 4", two infants first); one-hot rows are refused where every
// label but a header is one, and rows of two decimals beside a number or
// another row.
func TestTwoNumberLabels(t *testing.T) {
	const why = " numbers, not a label: a label file holds one label a line (a matrix given as labels? one-hot labels Y are written as y = Y.argmax(axis=1)); quote it if it is a name"
	for _, tt := range []struct{ text, want string }{
		{"0 1\n1 4\n5 9\n0 1\n", ""}, // the reviewer's age bands
		{"0 1\n0 1\n1 4\n5 9\n", ""},
		{"cat\ndog\n0 1\n", ""},
		{"0 4\n5 9\n0 4\n", ""},
		{"age\n0 1\n1 4\n0 1\n", ""},
		{"0.5 1.5\ncat\ndog\n", ""},
		{"1 0\n0 1\n", "1: a row of 2" + why},
		{"y\n1 0\n0 1\n1 0\n", "2: a row of 2" + why},
		{"0.5 1.5\n2.5 3.5\n", "1: a row of 2" + why},
		{"cat\n1e0 2\n2 3\n", "2: a row of 2" + why},
		{"cat\ndog\n0 1 4\n", "3: a row of 3" + why},
	} {
		path := writeFile(t, "y.txt", []byte(tt.text))
		c, err := ReadClasses(path)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%q: %v", tt.text, err)
			}
			continue
		}
		checkError(t, c, err, path+":"+tt.want)
	}
}

// TestSVMLightAsLabels: an svmlight file given as labels (liblinear's
// heart_scale, "+1 1:0.708333 2:1 …") is refused saying what it is, where
// each row read whole was a class of its own (fit made a 270-class model).
func TestSVMLightAsLabels(t *testing.T) {
	for text, line := range map[string]int{
		"+1 1:0.7 2:1\n-1 1:0.5 3:1\n+1 2:1\n": 1,
		"y\n1 qid:3 1:2\n-1 qid:3 2:1\n":       2,
		"# svmlight\n1 1:1\n-1 2:1\n1 1:1\n":   2,
	} {
		path := writeFile(t, "y.txt", []byte(text))
		c, err := ReadClasses(path)
		checkError(t, c, err, path+":"+strconv.Itoa(line)+": a LIBSVM/svmlight row (label index:value …), not a label: a label file holds the labels alone, one a line (the rows' first fields: cut -d' ' -f1 "+path+")")
	}
	if c, err := ReadClasses(writeFile(t, "y.txt", []byte("a 1:2\nb\na 1:2\n"))); err != nil || len(c.Names) != 2 {
		t.Errorf("names with a colon: %v, %v", c, err)
	}
	// Quoted, an svmlight-shaped label is taken as written (review10).
	if c, err := ReadClasses(writeFile(t, "y.txt", []byte("\"3 1:2\"\n\"4 2:1\"\n\"5 1:1\"\n\"3 1:2\"\n"))); err != nil || len(c.Names) != 3 {
		t.Errorf("quoted svmlight-shaped labels: %v, %v", c, err)
	}
}

// TestNumberRowLabels: a matrix given as labels (np.savetxt's rows, one-hot
// labels) is refused, where each distinct row read whole was a class (X's
// 270 rows made a 270-class model); a header may stand above, and labels
// of one number, or words and numbers, are read.
func TestNumberRowLabels(t *testing.T) {
	const why = " numbers, not a label: a label file holds one label a line (a matrix given as labels? one-hot labels Y are written as y = Y.argmax(axis=1)); quote it if it is a name"
	for text, want := range map[string]string{
		"1.5 2 3\n4 5 6\n7 8 9\n": "1: a row of 3" + why,
		"1.000000000000000000e+00 0.000000000000000000e+00\n0.000000000000000000e+00 1.000000000000000000e+00\n1.000000000000000000e+00 0.000000000000000000e+00\n": "1: a row of 2" + why,
		"y\n0.5 1\n1.5 2\n0.5 1\n": "2: a row of 2" + why,
		"0 1\n1 0\n0 1\n":          "1: a row of 2" + why,
		// A matrix of two rows made two classes, and a row among labels a
		// class of its own: any row of numbers is refused.
		"0.5 0.3 0.1\n0.2 0.2 0.6\n": "1: a row of 3" + why,
		"y\n0.5 0.3 0.1\n":           "2: a row of 3" + why,
		"1\n-1\n1\n0.5 -1.5\n-1\n":   "4: a row of 2" + why,
	} {
		path := writeFile(t, "y.txt", []byte(text))
		c, err := ReadClasses(path)
		checkError(t, c, err, path+":"+want)
	}
	// Two integers (age bands "10 19", review10 found them refused) are a
	// label, and quoted labels are taken as written.
	for _, text := range []string{"1\n2\n1\n", "size 1\nsize 2\nsize 1\n", "1 2\ncat\n1 2\n",
		"10 19\n20 29\n30 39\n10 19\n20 29\n", "age\n10 19\n20 29\n10 19\n",
		"\"10 19\"\n\"20 29\"\n\"30 39\"\n\"10 19\"\n", "\"1.5 2 3\"\n\"4 5 6\"\n\"1.5 2 3\"\n",
		"10 19\n20 29\n", "\"0.5 0.3 0.1\"\n\"0.2 0.2 0.6\"\n", "0.5 0.3 0.1\n"} {
		if _, err := ReadClasses(writeFile(t, "y.txt", []byte(text))); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// TestRowNamedLabels: R's write.table writes a vector with its row names
// ("1 -1", `"1" -1`, tab-separated, under a header "x" or not), and pandas'
// to_csv(path, header=False) a Series with its index ("0,1"); read whole,
// every line was a label of its own, and fit made a model of as many
// classes as rows (or the quoted form failed on "unexpected '1' after
// quoted field", the pandas form on "expected one label per line"). They
// are refused naming row.names=FALSE and index=False.
// Labels that hold a number and a word but do not count the rows, whose
// words are all distinct, or that are quoted, are read.
func TestRowNamedLabels(t *testing.T) {
	const why = ": a row number and a label on each line, as R's write.table writes a vector with its row names and pandas' to_csv a Series with its index: write the labels alone, one a line (R: write.table(y, path, row.names=FALSE, col.names=FALSE, quote=FALSE); pandas: to_csv(path, index=False, header=False)), or, if the numbers belong to the labels, quote each label (\"1 star\")"
	for text, line := range map[string]int{
		"1 1\n2 -1\n3 1\n":                    1,
		"x\n1 1\n2 -1\n3 1\n":                 2,
		"0 cat\n1 dog\n2 cat\n":               1,
		"\"x\"\n\"1\" 1\n\"2\" -1\n\"3\" 1\n": 2,
		"\"1\" 1\n\"2\" -1\n\"3\" 1\n":        2,
		"x\n1\t1\n2\t-1\n":                    2,
		"0,1\n1,-1\n2,1\n":                    2,
		// "1 star", "2 stars", … counts the rows and its words repeat: the
		// shape of R's row names above the labels star, stars, stars;
		// quoted, it is read (below).
		"1 star\n2 stars\n3 stars\n4 stars\n5 stars\n": 1,
		// pandas' ytr.to_csv(path, header=False, sep=' ') after
		// train_test_split: the index is shuffled (review13).
		"31 -1\n2 1\n38 1\n17 -1\n":      1,
		"y\n31 -1\n2 1\n38 1\n17 -1\n":   2,
		"7 cat\n0 dog\n12 cat\n3 bird\n": 1,
		// rowNumbered splits at any Unicode white space (a table copied
		// from a web page: U+00A0), and at blanks before commas: R's
		// write.table separates by blanks values that hold commas.
		"1\u00a0cat\n2\u00a0dog\n3\u00a0cat\n":        1,
		"\"1\" \"a,b\"\n\"2\" \"c\"\n\"3\" \"a,b\"\n": 2,
		// R's write.table(y) of labels holding a blank: `"1" "big cat"`
		// (it was refused on "unexpected '\"' after quoted field").
		"\"x\"\n\"1\" \"big cat\"\n\"2\" \"small dog\"\n\"3\" \"big cat\"\n": 2,
		"\"1\" \"big cat\"\n\"2\" \"small dog\"\n\"3\" \"big cat\"\n":        2,
	} {
		path := writeFile(t, "y.txt", []byte(text))
		c, err := ReadClasses(path)
		checkError(t, c, err, path+":"+strconv.Itoa(line)+why)
	}
	for text, classes := range map[string]int{
		"1 star\n2 stars\n1 star\n": 2, "class 1\nclass 2\nclass 1\n": 2, "1 a\n3 b\n1 a\n": 2,
		// One value after distinct numbers: stripping them would leave a
		// single class, so the numbers belong to the labels.
		"1 kg\n2 kg\n3 kg\n4 kg\n5 kg\n": 5, "30 kg\n2 kg\n14 kg\n": 3,
		// Shuffled numbers before distinct words still read.
		"7 airplane\n2 automobile\n0 bird\n": 3,
		// An N-way one-shot file, one example of each class in order, counts
		// down the lines, but its values are distinct: each line read whole
		// is one class as each value is (review10 found them refused).
		"0 airplane\n1 automobile\n2 bird\n3 cat\n4 deer\n": 5,
		"rating\n0 airplane\n1 automobile\n2 bird\n":        4,
		// Quoted labels are taken as written, repeating or not.
		"\"1 star\"\n\"2 stars\"\n\"3 stars\"\n\"4 stars\"\n\"5 stars\"\n": 5,
		"\"1 a\"\n\"2 b\"\n\"3 a\"\n":                                      3,
		// All on one line, quoted names holding a blank (R's
		// write.table(t(y))): each quoted name is one label, where each
		// word was.
		"\"big cat\" \"small dog\" \"big cat\"\n": 2,
	} {
		if c, err := ReadClasses(writeFile(t, "y.txt", []byte(text))); err != nil || len(c.Names) != classes {
			t.Errorf("%q: %v, %v; want %d classes", text, c, err, classes)
		}
	}
}

// utf8Hint ends the message of a label of a file that is not UTF-8 (as
// Excel writes a CSV in Windows-1252).
const utf8Hint = `: save the file as UTF-8 (Excel's "CSV (Comma delimited)" writes Windows-1252: save as "CSV UTF-8")`

// BenchmarkDecodeClasses reads 100,000 labels, one a line, of two classes:
// numbers ("1", "-1") and names ("cat", "dog"), as the CLI reads a label
// file (DecodeClassesHeader: the text read, the labels checked, the
// classes found).
func BenchmarkDecodeClasses(b *testing.B) {
	for _, c := range []struct{ name, pos, neg string }{
		{"numbers", "1", "-1"},
		{"names", "cat", "dog"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var buf bytes.Buffer
			for i := range 100_000 {
				if i%3 == 0 {
					buf.WriteString(c.pos + "\n")
				} else {
					buf.WriteString(c.neg + "\n")
				}
			}
			data := buf.Bytes()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeClassesHeader(bytes.NewReader(data), "bench.txt", HeaderAuto); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCheckLabelNumber: checkLabel says of each label it accepts what
// isNumber says, which checkLabels asked before.
func TestCheckLabelNumber(t *testing.T) {
	for _, v := range []string{"1", "-1", "+1", "0.5", ".5", "1e3", "0x1p-2", "1_0", "01", "1\u00a0", "\u00a01", "1\u3000", " 1", "cat", "NA", "1 2", "-", "e5"} {
		isNum, err := checkLabel(v)
		if err != nil {
			t.Errorf("checkLabel(%q): %v", v, err)
		}
		if want := isNumber([]byte(v)); isNum != want {
			t.Errorf("checkLabel(%q) says number %v, isNumber %v", v, isNum, want)
		}
	}
}

// TestLabelsSepDirective: a label file whose first line is Excel's
// separator directive reads without it, its labels split at the separator
// it names, where "sep=," above the labels was refused ("expected one
// label per line or all labels on line 1") and "sep=;" could be read as a
// label or a header; "sep= " names blanks, and "sep=" and a character
// the reader splits no field at is a header, as it was.
func TestLabelsSepDirective(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		h        HeaderRule
		want     []string // the labels in file order
	}{
		{"comma, one a line", "sep=,\n1\n-1\n1\n", HeaderAuto, []string{"1", "-1", "1"}},
		{"comma, header", "sep=,\nlabel\ncat\ndog\ncat\n", HeaderYes, []string{"cat", "dog", "cat"}},
		{"semicolon, a comma in a label", "sep=;\na,b\nc\na,b\nc\n", HeaderNo, []string{"a,b", "c", "a,b", "c"}},
		{"semicolon, one line", "sep=;\ncat;dog;cat\n", HeaderNo, []string{"cat", "dog", "cat"}},
		{"tab, one line", "sep=\t\ncat\tdog\tdog\n", HeaderNo, []string{"cat", "dog", "dog"}},
		// A space: blanks, as detected without the directive (one label
		// a line is the whole line).
		{"space, one line", "sep= \ncat dog  cat\n", HeaderNo, []string{"cat", "dog", "cat"}},
		{"space, one a line", "sep= \nclass a\nclass b\n", HeaderNo, []string{"class a", "class b"}},
		// Another character: no directive, the line a header as any other.
		{"underscore: a header", "sep=_\ncat\ndog\ncat\n", HeaderYes, []string{"cat", "dog", "cat"}},
		{"question mark: a header", "sep=?\ncat\ndog\n", HeaderYes, []string{"cat", "dog"}},
	} {
		cls, err := DecodeClassesHeader(strings.NewReader(tc.in), "y.csv", tc.h)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := make([]string, len(cls.Y))
		for i, k := range cls.Y {
			got[i] = cls.Names[k]
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: labels %q, want %q", tc.name, got, tc.want)
		}
	}
}
