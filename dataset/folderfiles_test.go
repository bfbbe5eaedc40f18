package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteNamesReadsBack: WriteNames accepts a list of class names
// exactly when the reader of ClassesFile (readNames, with LoadFolder's
// distinct-names check) reads the same list back from those names written
// one a line; what it accepts it writes as such a file.
func TestWriteNamesReadsBack(t *testing.T) {
	dir := t.TempDir()
	for _, names := range [][]string{
		{"cat", "dog"},
		{"a,b", `say "hi"`, "café", "1.5"},
		{""},
		{"cat", ""},
		{" cat"},
		{"cat "},
		{"ca\tt"},
		{"two\nlines"},
		{"cr\rlf"},
		{"caf\xe9"},
		{"esc\x1b[31m"},
		{"rtl\u202e"},
		{"# classes", "cat"},
		{"cat", "# not first"},
		{"cat", "cat"},
		{"caf\u00e9", "cafe\u0301"}, // canonically equivalent
	} {
		path := filepath.Join(dir, ClassesFile)
		if err := os.WriteFile(path, []byte(strings.Join(names, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		read, err := readNames(path, "class")
		if err == nil {
			err = checkDistinct(path, read)
		}
		roundTrip := err == nil && slices.Equal(read, names)
		var buf bytes.Buffer
		werr := WriteNames(&buf, "class", names)
		if (werr == nil) != roundTrip {
			t.Errorf("%q: WriteNames error %v, but the reader reads back %q (error %v)", names, werr, read, err)
		}
		if werr == nil && buf.String() != strings.Join(names, "\n")+"\n" {
			t.Errorf("%q: WriteNames wrote %q", names, buf.String())
		}
	}
}
