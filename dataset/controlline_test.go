package dataset

import (
	"bytes"
	"testing"
)

// TestControlLine: a line of control bytes alone (a final Ctrl-Z, 0x1a,
// the end-of-file mark DOS tools append; ESC; DEL), blanks aside, is
// refused by every line reader naming its line and the character, and for
// Ctrl-Z what it is and how to remove it. They said "expected 3 values,
// got 1" (CSV), "bad label "\x1a"" (svmlight) or that the label holds a
// control character. A line of \v or \f alone, which the svmlight reader
// skips as liblinear does, is still read.
func TestControlLine(t *testing.T) {
	const ctrlZ = "the line holds the control character 0x1a (Ctrl-Z), the end-of-file mark that DOS tools (copy /a) append: remove it (tr -d '\\032' < FILE > NEW)"
	readers := []struct {
		what, data string
		read       func(b []byte) (name string, err error) // the name errors give the input
	}{
		{"ReadMatrix", "1,2,3\n4,5,6\n", func(b []byte) (string, error) { f := writeFile(t, "x.csv", b); _, err := ReadMatrix(f); return f, err }},
		{"DecodeMatrix", "1,2,3\n4,5,6\n", func(b []byte) (string, error) {
			_, err := DecodeMatrix(bytes.NewReader(b), "<stdin>")
			return "<stdin>", err
		}},
		{"ReadSVMLight", "+1 1:0.5\n-1 2:1\n", func(b []byte) (string, error) {
			f := writeFile(t, "x.svm", b)
			_, _, err := ReadSVMLight(f)
			return f, err
		}},
		{"ReadLabels", "cat\ndog\n", func(b []byte) (string, error) {
			f := writeFile(t, "y.txt", b)
			_, err := ReadLabels(f, "")
			return f, err
		}},
	}
	for _, tc := range []struct {
		what, tail, want string
	}{
		{"final Ctrl-Z", "\x1a", ctrlZ},
		{"Ctrl-Z and a newline", "\x1a\r\n", ctrlZ},
		{"Ctrl-Z between blanks", " \x1a\t\n", ctrlZ},
		{"ESC", "\x1b\n", "the line holds the control character 0x1b (ESC), which text does not hold: remove it"},
		{"DEL", "\x7f", "the line holds the control character 0x7f (DEL), which text does not hold: remove it"},
		{"Ctrl-A", "\x01", "the line holds the control character 0x01 (Ctrl-A), which text does not hold: remove it"},
		{"two", "\x1b\x1a\n", "the line holds control characters alone, the first 0x1b (ESC), which text does not hold: remove it"},
	} {
		for _, r := range readers {
			name, err := r.read([]byte(r.data + tc.tail))
			if err == nil || err.Error() != name+":3: "+tc.want {
				t.Errorf("%s, %s: got %v, want %q", tc.what, r.what, err, name+":3: "+tc.want)
			}
		}
	}
	for _, tail := range []string{"\f\n", "\v", " \f\v\n"} {
		x, y, err := ReadSVMLight(writeFile(t, "x.svm", []byte("+1 1:0.5\n"+tail+"-1 2:1\n")))
		if err != nil || len(y) != 2 || len(x.Ptr) != 3 {
			t.Errorf("svmlight with the line %q: %v, %v", tail, y, err)
		}
	}
}
