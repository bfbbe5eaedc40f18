package dataset

import (
	"fmt"
	"strings"
	"testing"
)

// TestVerticalTabFormFeedLines: a line of vertical tabs or form feeds
// alone (with spaces and tabs or not) is a blank line to every text
// reader, as a line of spaces is (lineBlanks): between rows it is skipped,
// first it tells no separator, in a one-column file it is refused as a
// missing value naming the file and line, and in a label file it holds no
// label — the same matrix, labels or message, line for line, as with a
// line of spaces there (and as np.loadtxt reads whitespace-separated
// text, and the svmlight reader and liblinear any line). It was read as a
// row of one empty value ("expected 2 values, got 1"), a first line of
// it told the separator so that "1,2" below was "a decimal comma", and
// a label file refused it as a label of white space.
func TestVerticalTabFormFeedLines(t *testing.T) {
	matrices := []string{
		"1,2\n3,4\n%s\n5,6\n", // between rows
		"%s\n1,2\n3,4\n",      // first
		"1,2\n3,4\n%s\n",      // last
		"a,b\n%s\n1,2\n",      // below a header
		"1 2\n%s\n3 4\n",      // whitespace-separated
		"1\n2\n%s\n3\n",       // a missing value of a one-column file: refused
	}
	labels := []string{"cat\ndog\n%s\ncat\n", "%s\n1\n-1\n", "1\n-1\n%s\n"}
	show := func(v any, err error) string { return fmt.Sprintf("%v %v", v, err) }
	for _, line := range []string{"\v", "\f", "\v\f\v", " \f\t", "\t\v "} {
		for _, tmpl := range matrices {
			// The same name for both files: messages name it.
			got := writeFile(t, "x.csv", []byte(fmt.Sprintf(tmpl, line)))
			m, err := ReadMatrix(got)
			gotS := strings.ReplaceAll(show(m, err), got, "FILE")
			gotFirst, gotN := SkippedBlankLines(got)
			want := writeFile(t, "x.csv", []byte(fmt.Sprintf(tmpl, "  ")))
			wm, werr := ReadMatrix(want)
			wantS := strings.ReplaceAll(show(wm, werr), want, "FILE")
			wantFirst, wantN := SkippedBlankLines(want)
			if gotS != wantS || gotFirst != wantFirst || gotN != wantN {
				t.Errorf("%q in %q: read %s (skipped blank lines %d, %d); a line of spaces: %s (%d, %d)", line, tmpl, gotS, gotFirst, gotN, wantS, wantFirst, wantN)
			}
		}
		for _, tmpl := range labels {
			got := writeFile(t, "y.txt", []byte(fmt.Sprintf(tmpl, line)))
			c, err := ReadClasses(got)
			var gotS string
			if err == nil {
				line, place := c.BlankLine()
				gotS = fmt.Sprint(c.Names, c.Y, line, place, c.GapLines())
			} else {
				gotS = strings.ReplaceAll(err.Error(), got, "FILE")
			}
			want := writeFile(t, "y.txt", []byte(fmt.Sprintf(tmpl, "  ")))
			wc, werr := ReadClasses(want)
			var wantS string
			if werr == nil {
				line, place := wc.BlankLine()
				wantS = fmt.Sprint(wc.Names, wc.Y, line, place, wc.GapLines())
			} else {
				wantS = strings.ReplaceAll(werr.Error(), want, "FILE")
			}
			if gotS != wantS || err != nil {
				t.Errorf("labels, %q in %q: %s; a line of spaces: %s", line, tmpl, gotS, wantS)
			}
		}
	}
	// The one-column file's refusal names the file and the line.
	path := writeFile(t, "x.csv", []byte("1\n2\n\v\n3\n"))
	if _, err := ReadMatrix(path); err == nil || !strings.HasPrefix(err.Error(), path+":3: a blank line between the rows of a one-column file") {
		t.Errorf("one column, a line of \\v: %v", err)
	}
}
