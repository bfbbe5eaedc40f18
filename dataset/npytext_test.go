package dataset

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
)

// utf32 lays the strings out as NumPy's '<U n' or '>U n' (order) does:
// n code points an element, padded with NULs.
func utf32(order binary.AppendByteOrder, n int, vals ...string) []byte {
	var b []byte
	for _, v := range vals {
		r := []rune(v)
		for j := range n {
			var c uint32
			if j < len(r) {
				c = uint32(r[j])
			}
			b = order.AppendUint32(b, c)
		}
	}
	return b
}

// writeNPYFile writes b to dir/name and returns its path.
func writeNPYFile(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A .npy label file of NumPy's strings ('<U n', what np.save writes of an
// array of str; big-endian '>U n'; 1-D or one column; from a file or
// standard input) holds its strings as labels, without the NULs that pad
// them. They were refused ("unsupported dtype '<U4'").
func TestNPYStringLabels(t *testing.T) {
	dir := t.TempDir()
	names := []string{"cat", "dög", "cat", "日本", "a b"}
	for _, tc := range []struct {
		descr, shape string
		order        binary.AppendByteOrder
	}{
		{"<U4", "(5,)", binary.LittleEndian},
		{">U3", "(5,)", binary.BigEndian},
		{"<U3", "(5, 1)", binary.LittleEndian},
		{"U3", "(5,)", binary.NativeEndian},
	} {
		n := int(tc.descr[len(tc.descr)-1] - '0')
		b := npyFile(1, dict(tc.descr, false, tc.shape), utf32(tc.order, n, names...))
		y := writeNPYFile(t, dir, "y.npy", b)
		got, err := ReadLabelValues(y)
		if err != nil || !slices.Equal(got, names) {
			t.Errorf("%s %s: ReadLabelValues: %q, %v; want %q", tc.descr, tc.shape, got, err, names)
		}
		cls, err := DecodeClassesHeader(bytes.NewReader(b), "<stdin>", HeaderAuto)
		if err != nil || len(cls.Names) != 4 || !slices.Equal(cls.Y, []int{cls.Y[0], cls.Y[1], cls.Y[0], cls.Y[3], cls.Y[4]}) {
			t.Errorf("%s %s: DecodeClassesHeader: %+v, %v; want 4 classes, rows 0 and 2 alike", tc.descr, tc.shape, cls, err)
		}
	}
	// White space around a string goes, as around a text label: " cat"
	// and "cat " are the class "cat" (they were three classes, and
	// ReadLabels found four values); within one it stays.
	padded := []string{" cat", "cat", "dog\u00a0", "dog", "a b "}
	y3 := writeNPYFile(t, dir, "y3.npy", npyFile(1, dict("<U4", false, "(5,)"), utf32(binary.LittleEndian, 4, padded...)))
	text := filepath.Join(dir, "y3.txt")
	if err := os.WriteFile(text, []byte(strings.Join(padded, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{y3, text} {
		got, err := ReadLabelValues(path)
		if want := []string{"cat", "cat", "dog", "dog", "a b"}; err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: ReadLabelValues: %q, %v; want %q", path, got, err, want)
		}
		cls, err := ReadClasses(path)
		if want := []string{"a b", "cat", "dog"}; err != nil || !slices.Equal(cls.Names, want) {
			t.Errorf("%s: ReadClasses: %+v, %v; want classes %q", path, cls, err, want)
		}
	}
	y2 := writeNPYFile(t, dir, "y2.npy", npyFile(1, dict("<U4", false, "(4,)"), utf32(binary.LittleEndian, 4, " cat", "cat", "dog ", "dog")))
	if got, err := ReadLabels(y2, "cat"); err != nil || !slices.Equal(got, []float64{1, 1, -1, -1}) {
		t.Errorf("ReadLabels of padded strings: %v, %v; want [1 1 -1 -1]", got, err)
	}
	// Strings that are numbers are labels that are numbers, as in text.
	y := writeNPYFile(t, dir, "y01.npy", npyFile(1, dict("<U1", false, "(4,)"), utf32(binary.LittleEndian, 1, "1", "0", "0", "1")))
	if got, err := ReadLabels(y, ""); err != nil || !slices.Equal(got, []float64{1, -1, -1, 1}) {
		t.Errorf("ReadLabels of '1', '0' strings: %v, %v; want [1 -1 -1 1]", got, err)
	}
}

// A .npy label file's strings are checked as a text file's labels are,
// by the same checks (labelFile.checkLabels): blank, hidden characters,
// NaN, a missing value among numbers, integers beyond 2⁵³, canonical
// twins; and the array must be a vector of Unicode characters, whole.
func TestNPYStringLabelsChecked(t *testing.T) {
	dir := t.TempDir()
	le := binary.LittleEndian
	for _, tc := range []struct {
		what string
		b    []byte
		want string
	}{
		{"empty", npyFile(1, dict("<U3", false, "(3,)"), utf32(le, 3, "cat", "", "dog")), "y.npy: row 1: empty label"},
		{"white space", npyFile(1, dict("<U3", false, "(3,)"), utf32(le, 3, "cat", "  ", "dog")), `y.npy: row 1: label "  " is only white space`},
		{"hidden", npyFile(1, dict("<U4", false, "(3,)"), utf32(le, 4, "cat", "do\u200bg", "dog")), `y.npy: row 1: label "do\u200bg" looks like "dog"`},
		{"nan", npyFile(1, dict("<U3", false, "(3,)"), utf32(le, 3, "1", "nan", "0")), `y.npy: row 1: label "nan" reads as NaN`},
		{"NA among numbers", npyFile(1, dict("<U2", false, "(3,)"), utf32(le, 2, "1", "NA", "0")), `y.npy: row 1: label "NA" among numbers is a missing value`},
		{"big integer", npyFile(1, dict("<U16", false, "(2,)"), utf32(le, 16, "9007199254740993", "1")), `y.npy: row 0: label "9007199254740993" is an integer`},
		{"twin", npyFile(1, dict("<U5", false, "(2,)"), utf32(le, 5, "caf\u00e9", "cafe\u0301")), `y.npy: row 1: label "cafe\u0301" is "caf\u00e9" of row 0 written with other code points`},
		{"surrogate", npyFile(1, dict("<U1", false, "(2,)"), append(le.AppendUint32(nil, 'a'), le.AppendUint32(nil, 0xD800)...)), "y.npy: row 1: character 0 is 0xD800, not a Unicode character (UTF-32)"},
		{"two columns", npyFile(1, dict("<U1", false, "(2, 2)"), utf32(le, 1, "a", "b", "c", "d")), "y.npy: expected a 1-D array or a single column, got shape (2, 2)"},
		{"truncated", npyFile(1, dict("<U2", false, "(3,)"), utf32(le, 2, "a", "b")), "y.npy: truncated: shape (3,) of <U2 needs 24 data bytes, found 16"},
		{"none", npyFile(1, dict("<U1", false, "(0,)"), nil), "y.npy: no labels"},
	} {
		y := writeNPYFile(t, dir, "y.npy", tc.b)
		_, err := ReadClasses(y)
		if want := filepath.Join(dir, tc.want); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: ReadClasses: %v; want an error starting %q", tc.what, err, want)
		}
	}
	// Of standard input, bytes after the array are refused.
	b := append(npyFile(1, dict("<U1", false, "(2,)"), utf32(le, 1, "a", "b")), 'x')
	if _, err := DecodeClassesHeader(bytes.NewReader(b), "<stdin>", HeaderAuto); err == nil || err.Error() != "<stdin>: 1 byte of unexpected data after the array" {
		t.Errorf("trailing byte: %v", err)
	}
}

// Arrays of str that NumPy saves (np.save; 1-D, a column, big-endian, a
// Fortran-ordered column, padded to the longest) read back as NumPy's own
// values. It skips without NumPy.
func TestNPYStringLabelsNumPy(t *testing.T) {
	python := peertest.PythonWith(t, "numpy")
	dir := t.TempDir()
	script := `
import json, sys, numpy as np
d = sys.argv[1]
y = np.array(["cat", "dög", "cat", "日本語", "a b", "x"])
np.save(d + "/flat.npy", y)
np.save(d + "/column.npy", y[:, None])
np.save(d + "/big.npy", y.astype(">U5"))
np.save(d + "/fortran.npy", np.asfortranarray(y[:, None]))
print(json.dumps([str(v) for v in np.load(d + "/flat.npy")]))
`
	out, err := exec.Command(python, "-c", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("python printed %q: %v", out, err)
	}
	for _, name := range []string{"flat", "column", "big", "fortran"} {
		got, err := ReadLabelValues(filepath.Join(dir, name+".npy"))
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s.npy: %q, %v; want NumPy's %q", name, got, err, want)
		}
	}
}

// TestNPYStringDtypeWidths: a string dtype's width n is 1 ≤ n ≤
// maxNPYChars, written in digits as strconv.Itoa writes n: '<U1' and
// '<U<maxNPYChars>' are taken (4·n bytes an element); '<U0', '<U01',
// '<U+1' and '<U<maxNPYChars+1>' are refused as parseDescr refuses them.
func TestNPYStringDtypeWidths(t *testing.T) {
	for _, n := range []int{1, maxNPYChars} {
		s := "<U" + strconv.Itoa(n)
		if typ, err := labelDescr(s); err != nil || typ.kind != 'U' || typ.size != 4*n {
			t.Errorf("%s: %+v, %v; want kind U of %d bytes", s, typ, err, 4*n)
		}
	}
	for _, s := range []string{"<U0", "<U01", "<U+1", "<U" + strconv.Itoa(maxNPYChars+1)} {
		_, want := parseDescr(s)
		if typ, err := labelDescr(s); err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%s: %+v, %v; want parseDescr's error %v", s, typ, err, want)
		}
	}
}
