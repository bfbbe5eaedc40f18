package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/shareddata"
	"gonum.org/v1/gonum/mat"
)

// npyFile builds a .npy file of the given version around a header dict,
// padding the header as NumPy does, followed by data.
func npyFile(major byte, dict string, data []byte) []byte {
	lenBytes := 2
	if major > 1 {
		lenBytes = 4
	}
	pre := 6 + 2 + lenBytes
	pad := (64 - (pre+len(dict)+1)%64) % 64
	header := dict + strings.Repeat(" ", pad) + "\n"
	b := []byte(npyMagic)
	b = append(b, major, 0)
	if lenBytes == 2 {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(header)))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(header)))
	}
	b = append(b, header...)
	return append(b, data...)
}

// dict returns a header dict for descr and shape in NumPy's spelling.
func dict(descr string, fortran bool, shape string) string {
	f := "False"
	if fortran {
		f = "True"
	}
	return "{'descr': '" + descr + "', 'fortran_order': " + f + ", 'shape': " + shape + ", }"
}

// encode lays values out with the given byte order and element type.
func encode(order binary.ByteOrder, vals ...any) []byte {
	var buf bytes.Buffer
	for _, v := range vals {
		if err := binary.Write(&buf, order, v); err != nil {
			panic(err)
		}
	}
	return buf.Bytes()
}

var le, be, native = binary.LittleEndian, binary.BigEndian, binary.NativeEndian

func TestDecodeNPY(t *testing.T) {
	tests := []struct {
		name  string
		file  []byte
		shape []int
		want  []float64
	}{
		{"f4 little 2-D", npyFile(1, dict("<f4", false, "(2, 2)"), encode(le, float32(1.5), float32(-2), float32(0.1), float32(3))),
			[]int{2, 2}, []float64{1.5, -2, float64(float32(0.1)), 3}},
		{"f4 big", npyFile(1, dict(">f4", false, "(2,)"), encode(be, float32(1.5), float32(-2))), []int{2}, []float64{1.5, -2}},
		{"f8 little", npyFile(1, dict("<f8", false, "(3,)"), encode(le, 0.1, -1e-300, 1e300)), []int{3}, []float64{0.1, -1e-300, 1e300}},
		{"f8 big", npyFile(1, dict(">f8", false, "(1, 2)"), encode(be, 0.1, -7.0)), []int{1, 2}, []float64{0.1, -7}},
		{"i1", npyFile(1, dict("|i1", false, "(3,)"), encode(le, int8(-128), int8(0), int8(127))), []int{3}, []float64{-128, 0, 127}},
		{"i2 big", npyFile(1, dict(">i2", false, "(2,)"), encode(be, int16(-300), int16(32767))), []int{2}, []float64{-300, 32767}},
		{"i4", npyFile(1, dict("<i4", false, "(2,)"), encode(le, int32(-2147483648), int32(5))), []int{2}, []float64{-2147483648, 5}},
		{"i8 at 2^53", npyFile(1, dict("<i8", false, "(2,)"), encode(le, int64(-1<<53), int64(1<<53))), []int{2}, []float64{-(1 << 53), 1 << 53}},
		{"u1", npyFile(1, dict("|u1", false, "(2,)"), []byte{0, 255}), []int{2}, []float64{0, 255}},
		{"u2", npyFile(1, dict("<u2", false, "(1,)"), encode(le, uint16(65535))), []int{1}, []float64{65535}},
		{"u4 big", npyFile(1, dict(">u4", false, "(1,)"), encode(be, uint32(4294967295))), []int{1}, []float64{4294967295}},
		{"u8", npyFile(1, dict("<u8", false, "(1,)"), encode(le, uint64(1<<53))), []int{1}, []float64{1 << 53}},
		{"bool", npyFile(1, dict("|b1", false, "(3,)"), []byte{0, 1, 7}), []int{3}, []float64{0, 1, 1}},
		{"fortran 2x3", npyFile(1, dict("<f8", true, "(2, 3)"), encode(le, 1.0, 4.0, 2.0, 5.0, 3.0, 6.0)),
			[]int{2, 3}, []float64{1, 2, 3, 4, 5, 6}},
		{"fortran 1-D", npyFile(1, dict("<i4", true, "(2,)"), encode(le, int32(1), int32(2))), []int{2}, []float64{1, 2}},
		{"version 2.0", npyFile(2, dict("<f8", false, "(1,)"), encode(le, 2.5)), []int{1}, []float64{2.5}},
		{"version 3.0 UTF-8", npyFile(3, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), } ", encode(le, 2.5)), []int{1}, []float64{2.5}},
		{"keys reordered, double quotes, no trailing comma", npyFile(1, `{"shape": (1, 1), "fortran_order": False, "descr": "<f8"}`, encode(le, 9.0)),
			[]int{1, 1}, []float64{9}},
		{"Python 2 longs", npyFile(1, dict("<f8", false, "(1L, 2L)"), encode(le, 1.0, 2.0)), []int{1, 2}, []float64{1, 2}},
		{"empty 1-D", npyFile(1, dict("<f8", false, "(0,)"), nil), []int{0}, []float64{}},
		{"zero columns", npyFile(1, dict("<f8", false, "(4, 0)"), nil), []int{4, 0}, []float64{}},
		{"huge and empty", npyFile(1, dict("<f8", false, fmt.Sprintf("(%d, 0)", int62)), nil), []int{int62, 0}, []float64{}},
		{"NaN kept", npyFile(1, dict("<f8", false, "(1,)"), encode(le, math.NaN())), []int{1}, []float64{math.NaN()}},
		// No byte order, or '|' or '=' ("native"): the machine's, as
		// NumPy's descr_to_dtype reads them (np.dtype('|f8') is float64).
		{"f8 without byte order", npyFile(1, dict("f8", false, "(2,)"), encode(native, 0.1, -7.0)), []int{2}, []float64{0.1, -7}},
		{"|f8", npyFile(1, dict("|f8", false, "(2,)"), encode(native, 0.1, -7.0)), []int{2}, []float64{0.1, -7}},
		{"=f4", npyFile(1, dict("=f4", false, "(1,)"), encode(native, float32(1.5))), []int{1}, []float64{1.5}},
		{"|i4", npyFile(1, dict("|i4", false, "(2,)"), encode(native, int32(-3), int32(70000))), []int{2}, []float64{-3, 70000}},
		{"u2 without byte order", npyFile(1, dict("u2", false, "(1,)"), encode(native, uint16(65535))), []int{1}, []float64{65535}},
		{"i1 without byte order", npyFile(1, dict("i1", false, "(1,)"), encode(native, int8(-1))), []int{1}, []float64{-1}},
		{"<b1", npyFile(1, dict("<b1", false, "(2,)"), []byte{1, 0}), []int{2}, []float64{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := DecodeNPY(bytes.NewReader(tt.file), "x.npy")
			if err != nil {
				t.Fatal(err)
			}
			if !equalInts(a.Shape, tt.shape) {
				t.Errorf("shape %v, want %v", a.Shape, tt.shape)
			}
			if !sameFloats(a.Data, tt.want) {
				t.Errorf("data %v, want %v", a.Data, tt.want)
			}
		})
	}
}

func TestDecodeNPYErrors(t *testing.T) {
	f8 := func(dict string) []byte { return npyFile(1, dict, encode(le, 1.0, 2.0)) }
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "x.npy: empty file: not a .npy file"},
		{"bad magic", []byte("\x93NUMPX\x01\x00"), "x.npy: not a .npy file (bad magic bytes)"},
		{"text", []byte("1,2,3\n"), `x.npy: not a .npy file: it holds text (it starts "1,2,3\n"): save the array with np.save, or give the text a .csv or .txt name`},
		{"magic only", []byte(npyMagic), "x.npy: truncated .npy header"},
		{"no header length", []byte(npyMagic + "\x01\x00\x10"), "x.npy: truncated .npy header"},
		{"short header", []byte(npyMagic + "\x01\x00\x40\x00{'descr'"), "x.npy: truncated .npy header"},
		{"version 1.1", []byte(npyMagic + "\x01\x01\x00\x00"), "x.npy: unsupported .npy format version 1.1"},
		{"version 4.0", []byte(npyMagic + "\x04\x00\x00\x00"), "x.npy: unsupported .npy format version 4.0"},
		{"huge header", []byte(npyMagic + "\x02\x00\xff\xff\xff\xff"), "x.npy: header length 4294967295 exceeds the limit of 1048576 bytes"},
		{"not a dict", f8("['descr', '<f8']"), "x.npy: malformed header: expected '{' at offset 0"},
		{"missing key", f8("{'descr': '<f8', 'shape': (2,)}"), "x.npy: malformed header: missing key 'fortran_order'"},
		{"extra key", f8("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': 1}"), "x.npy: malformed header: unexpected key 'x'"},
		{"duplicate key", f8("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}"), "x.npy: malformed header: duplicate key 'descr'"},
		{"bad bool", f8(dict("<f8", false, "(2,)")[:len("{'descr': '<f8', 'fortran_order': ")] + "0, 'shape': (2,)}"), "x.npy: malformed header: fortran_order must be True or False at offset 34"},
		{"shape list", f8(dict("<f8", false, "[2]")), "x.npy: malformed header: shape must be a tuple at offset 50"},
		{"negative dim", f8(dict("<f8", false, "(-2,)")), "x.npy: malformed header: expected a non-negative integer in shape at offset 51"},
		{"parenthesised int", f8(dict("<f8", false, "(2)")), "x.npy: malformed header: a one-element shape needs a trailing comma at offset 52"},
		{"unterminated", f8("{'descr: '<f8'}"), "x.npy: malformed header: expected ':' at offset 10"},
		{"trailing text", f8(dict("<f8", false, "(2,)") + " x"), "x.npy: malformed header: unexpected text after the dictionary at offset 58"},
		{"structured", f8("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,)}"), "x.npy: malformed header: structured dtypes are not supported"},
		{"dim overflow", f8(dict("<f8", false, "(99999999999999999999,)")), "x.npy: malformed header: shape dimension 99999999999999999999 is too large"},
		{"complex", f8(dict("<c16", false, "(1,)")), "x.npy: unsupported dtype '<c16': it holds complex numbers, and greedytl reads real ones: save the real part, np.save(path, a.real), or the magnitudes, np.abs(a), as fits"},
		{"unicode", f8(dict("<U3", false, "(1,)")), "x.npy: unsupported dtype '<U3'"},
		{"object", f8(dict("|O", false, "(1,)")), "x.npy: unsupported dtype '|O'"},
		// What NumPy refuses too (descr_to_dtype: "data type ... not
		// understood").
		{"odd size", f8(dict("<i3", false, "(1,)")), "x.npy: unsupported dtype '<i3'"},
		{"blank after", f8(dict("f8 ", false, "(2,)")), "x.npy: unsupported dtype 'f8 '"},
		{"upper-case kind", f8(dict("<F8", false, "(2,)")), "x.npy: unsupported dtype '<F8'"},
		{"order alone", f8(dict("|", false, "(2,)")), "x.npy: unsupported dtype '|'"},
		{"0-d", f8(dict("<f8", false, "()")), "x.npy: unsupported shape (): expected a 1-D or 2-D array"},
		{"3-D", f8(dict("<f8", false, "(1, 1, 2)")), "x.npy: unsupported shape (1, 1, 2): expected a 1-D or 2-D array"},
		{"shape overflow", f8(dict("<f8", false, "(4611686018427387904, 4611686018427387904)")),
			"x.npy: shape (4611686018427387904, 4611686018427387904) is too large"},
		{"truncated data", npyFile(1, dict("<f8", false, "(3,)"), encode(le, 1.0, 2.0)), "x.npy: truncated: shape (3,) of <f8 needs 24 data bytes, found 16"},
		{"huge claimed shape", npyFile(1, dict("<f4", false, "(1099511627776, 1024)"), encode(le, float32(1))),
			"x.npy: truncated: shape (1099511627776, 1024) of <f4 needs 4503599627370496 data bytes, found 4"},
		{"partial element", npyFile(1, dict("<i4", false, "(1,)"), []byte{1, 2}), "x.npy: truncated: shape (1,) of <i4 needs 4 data bytes, found 2"},
		{"inexact int64", npyFile(1, dict("<i8", false, "(2,)"), encode(le, int64(0), int64(1<<53+1))),
			"x.npy: element 1: integer 9007199254740993 is beyond 2⁵³, which a float64 cannot hold exactly (it reads as 9.007199254740992e+15, as integers near it do)"},
		{"inexact uint64", npyFile(1, dict(">u8", false, "(1,)"), encode(be, uint64(math.MaxUint64))),
			"x.npy: element 0: integer 18446744073709551615 is beyond 2⁵³, which a float64 cannot hold exactly (it reads as 1.8446744073709552e+19, as integers near it do)"},
		{"bad UTF-8 in v3", npyFile(3, dict("<f8", false, "(1,)")+"\xff", encode(le, 1.0)), "x.npy: malformed header: not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := DecodeNPY(bytes.NewReader(tt.file), "x.npy")
			checkError(t, a, err, tt.want)
		})
	}
}

// TestTextDtypeHint: a .npy array of strings or objects (np.save of an
// array of names: '<U3', '|S5', '|O') is refused with what the file should
// hold, by what read it: a label file says to save names as str ('<U n',
// which it reads: TestNPYStringLabels) or text, one per line; a dataset folder's labels.npy, that it holds class indices
// beside classes.txt; a matrix, that features must be numbers. They said
// only "unsupported dtype '<U3'". Another unsupported dtype ('<i3') and
// DecodeNPY, which knows no use, get no hint.
func TestTextDtypeHint(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var feat, lab bytes.Buffer
	if err := WriteNPY(&feat, mat.NewDense(2, 1, []float64{1, 2})); err != nil {
		t.Fatal(err)
	}
	if err := WriteNPYInts(&lab, []int{0, 1}); err != nil {
		t.Fatal(err)
	}
	folder := func(features, labels []byte) string {
		t.Helper()
		d := t.TempDir()
		for name, b := range map[string][]byte{"features.npy": features, "labels.npy": labels, "classes.txt": []byte("a\nb\n")} {
			if err := os.WriteFile(filepath.Join(d, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	for _, descr := range []string{"<U3", ">U1", "|S5", "|O", "<i3"} {
		b := npyFile(1, dict(descr, false, "(2,)"), make([]byte, 24))
		b2 := npyFile(1, dict(descr, false, "(2, 1)"), make([]byte, 24))
		bad := "unsupported dtype '" + descr + "'"
		hint := func(h string) string {
			if descr == "<i3" {
				return bad
			}
			return bad + ": " + h
		}
		y, x := write("y.npy", b), write("x.npy", b2)
		fy, fx := folder(feat.Bytes(), b), folder(b2, lab.Bytes())
		for _, tc := range []struct {
			what, file, want string
			read             func() error
		}{
			{"ReadLabels", y, hint(labelHint.text), func() error { _, err := ReadLabels(y, ""); return err }},
			{"ReadLabelValues", y, hint(labelHint.text), func() error { _, err := ReadLabelValues(y); return err }},
			{"ReadClasses", y, hint(labelHint.text), func() error { _, err := ReadClasses(y); return err }},
			{"DecodeClassesHeader", "<stdin>", hint(labelHint.text), func() error {
				_, err := DecodeClassesHeader(bytes.NewReader(b), "<stdin>", HeaderAuto)
				return err
			}},
			{"ReadNPYMatrix", x, hint(matrixHint.text), func() error { _, err := ReadNPYMatrix(x); return err }},
			{"DecodeMatrix", "<stdin>", hint(matrixHint.text), func() error { _, err := DecodeMatrix(bytes.NewReader(b2), "<stdin>"); return err }},
			{"LoadFolder labels", filepath.Join(fy, "labels.npy"), hint(folderHint.text), func() error { _, err := LoadFolder(fy); return err }},
			{"LoadFolder features", filepath.Join(fx, "features.npy"), hint(matrixHint.text), func() error { _, err := LoadFolder(fx); return err }},
			{"OpenFolder features", filepath.Join(fx, "features.npy"), hint(matrixHint.text), func() error {
				f, err := OpenFolder(fx)
				if err == nil {
					f.Close()
				}
				return err
			}},
			{"DecodeNPY", "y.npy", bad, func() error { _, err := DecodeNPY(bytes.NewReader(b), "y.npy"); return err }},
		} {
			if strings.Contains(descr, "U") && tc.file == y || strings.Contains(descr, "U") && tc.what == "DecodeClassesHeader" {
				continue // a label file's strings are read (TestNPYStringLabels)
			}
			t.Run(descr+" "+tc.what, func(t *testing.T) { checkError(t, nil, tc.read(), tc.file+": "+tc.want) })
		}
	}
}

// checkError fails unless err is an *Error whose message is want.
func checkError(t *testing.T, got any, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error (got %v), want %q", got, want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("error %T is not a *dataset.Error", err)
	}
	if err.Error() != want {
		t.Errorf("error\n  %q\nwant\n  %q", err.Error(), want)
	}
}

func TestDecodeNPYBoundedAllocation(t *testing.T) {
	// A 100-byte input announcing 2⁴⁰ float64 values must fail without
	// allocating memory for them.
	file := npyFile(1, dict("<f8", false, "(1099511627776,)"), encode(le, 1.0, 2.0))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := DecodeNPY(bytes.NewReader(file), "x.npy")
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("no error for truncated input")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("allocated %d bytes decoding a %d-byte input", alloc, len(file))
	}
}

func TestDecodeNPYStream(t *testing.T) {
	// Arrays written one after another are read in turn: DecodeNPY must
	// not read past its array.
	var buf bytes.Buffer
	a := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	if err := WriteNPY(&buf, a); err != nil {
		t.Fatal(err)
	}
	if err := WriteNPYInts(&buf, []int{7, -8}); err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(buf.Bytes())
	first, err := DecodeNPY(r, "s")
	if err != nil {
		t.Fatal(err)
	}
	second, err := DecodeNPY(r, "s")
	if err != nil {
		t.Fatal(err)
	}
	if !sameFloats(first.Data, []float64{1, 2, 3, 4, 5, 6}) || !sameFloats(second.Data, []float64{7, -8}) {
		t.Errorf("read %v then %v", first.Data, second.Data)
	}
	if r.Len() != 0 {
		t.Errorf("%d bytes left", r.Len())
	}
}

// TestWriteNPYNoMatrix: nil, a nil *mat.Dense and the zero mat.Dense are
// errors, with nothing written (nil panicked in Dims before).
func TestWriteNPYNoMatrix(t *testing.T) {
	for _, m := range []mat.Matrix{nil, (*mat.Dense)(nil), &mat.Dense{}} {
		var buf bytes.Buffer
		err := WriteNPY(&buf, m)
		if err == nil || err.Error() != "dataset: WriteNPY: no matrix (nil or empty)" || buf.Len() > 0 {
			t.Errorf("WriteNPY(%#v) = %v with %d bytes written; want the error \"no matrix\" and nothing written", m, err, buf.Len())
		}
	}
}

// TestWriteNPYNonFinite: a NaN or an infinity is refused, naming its row
// and column, with nothing written, as NPYRowWriter refuses one (WriteNPY
// wrote it, a file the readers here refuse).
func TestWriteNPYNonFinite(t *testing.T) {
	for _, c := range []struct {
		m    mat.Matrix
		want string
	}{
		{mat.NewDense(2, 3, []float64{1, 2, 3, 4, math.NaN(), 6}), "dataset: WriteNPY: row 1 column 1 is NaN"},
		{mat.NewDense(1, 2, []float64{math.Inf(1), 0}), "dataset: WriteNPY: row 0 column 0 is +Inf"},
		{mat.NewDense(2, 2, []float64{0, 1, 2, math.Inf(-1)}).T(), "dataset: WriteNPY: row 1 column 1 is -Inf"},
	} {
		var buf bytes.Buffer
		err := WriteNPY(&buf, c.m)
		var nf *inputcheck.NonFiniteError
		if err == nil || err.Error() != c.want || !errors.As(err, &nf) || buf.Len() > 0 {
			t.Errorf("WriteNPY = %v with %d bytes written; want %q and nothing written", err, buf.Len(), c.want)
		}
	}
}

func TestWriteNPYRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, shape := range [][2]int{{1, 1}, {1, 7}, {9, 1}, {13, 5}, {100, 300}} {
		r, c := shape[0], shape[1]
		m := mat.NewDense(r, c, nil)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				m.Set(i, j, rnd.NormFloat64()*math.Pow(10, float64(rnd.IntN(600)-300)))
			}
		}
		m.Set(0, 0, math.Copysign(0, -1))
		var buf bytes.Buffer
		if err := WriteNPY(&buf, m.T()); err != nil { // a non-Dense matrix
			t.Fatal(err)
		}
		hlen := int(binary.LittleEndian.Uint16(buf.Bytes()[8:10]))
		if (10+hlen)%64 != 0 || buf.Bytes()[10+hlen-1] != '\n' {
			t.Errorf("%dx%d: header of %d bytes is not padded to 64 with a final newline", c, r, hlen)
		}
		a, err := DecodeNPY(&buf, "x.npy")
		if err != nil {
			t.Fatal(err)
		}
		if a.Descr != "<f8" || !equalInts(a.Shape, []int{c, r}) {
			t.Fatalf("descr %s shape %v, want <f8 (%d, %d)", a.Descr, a.Shape, c, r)
		}
		for i := 0; i < c; i++ {
			for j := 0; j < r; j++ {
				if got, want := a.Data[i*r+j], m.At(j, i); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("element (%d, %d) = %v, want %v", i, j, got, want)
				}
			}
		}
	}
}

// Integers beyond 32 bits (2⁴⁰, 2⁵³: every integer up to it is a float64,
// 2⁶²) where int has 64 bits, math.MaxInt where it has 32, so that the
// tests build there too (GOARCH=386 go vet).
const (
	int40 = min(1<<40, math.MaxInt)
	int53 = min(1<<53, math.MaxInt)
	int62 = min(1<<62, math.MaxInt)
)

func TestWriteNPYInts(t *testing.T) {
	v := []int{0, -1, 1, int40, -int53, int53}
	var buf bytes.Buffer
	if err := WriteNPYInts(&buf, v); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "y.npy")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadNPYInts(path)
	if err != nil {
		t.Fatal(err)
	}
	if !equalInts(got, v) {
		t.Errorf("got %v, want %v", got, v)
	}
}

// writeFile writes b to name in a fresh temporary directory and returns the
// path.
func writeFile(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func TestReadNPYMatrix(t *testing.T) {
	two := npyFile(1, dict("<f4", false, "(2, 3)"), encode(le, []float32{1, 2, 3, 4, 5, 6}))
	checkReads(t, "x.npy", ReadNPYMatrix, func(m *mat.Dense, want []float64) bool {
		return mat.Equal(m, mat.NewDense(2, 3, want))
	}, []readCase[[]float64]{ // 2×3
		{"float32", two, []float64{1, 2, 3, 4, 5, 6}, ""},
		{"gzip", gzipped(two), []float64{1, 2, 3, 4, 5, 6}, ""},
		{"int", npyFile(1, dict("<i8", false, "(2, 3)"), encode(le, []int64{1, 2, 3, 4, 5, 6})), []float64{1, 2, 3, 4, 5, 6}, ""},
		{"NaN", npyFile(1, dict("<f8", false, "(2, 3)"), encode(le, []float64{1, 2, 3, 4, 5, math.NaN()})), nil, "%s: row 1 column 2 is NaN"},
		{"-Inf", npyFile(1, dict("<f4", false, "(2, 3)"), encode(le, []float32{1, float32(math.Inf(-1)), 3, 4, 5, 6})), nil, "%s: row 0 column 1 is -Inf"},
		{"1-D", npyFile(1, dict("<f8", false, "(2,)"), encode(le, 1.0, 2.0)), nil, "%s: expected a 2-D array, got shape (2,): save one column (one source's scores, as a decision_function returns them) as np.save(path, a.reshape(-1, 1)), one row as a.reshape(1, -1)"},
		{"3-D", npyFile(1, dict("<f8", false, "(1, 1, 2)"), encode(le, 1.0, 2.0)), nil, "%s: unsupported shape (1, 1, 2): expected a 2-D array (rows: examples, columns: features or sources)"},
		{"no rows", npyFile(1, dict("<f8", false, "(0, 3)"), nil), nil, "%s: no rows (shape (0, 3))"},
		{"no columns", npyFile(1, dict("<f8", false, "(3, 0)"), nil), nil, "%s: no columns (shape (3, 0))"},
		{"trailing data", append(bytes.Clone(two), 0), nil, "%s: 1 byte of unexpected data after the array"},
		{"truncated file", two[:len(two)-1], nil, "%s: truncated: shape (2, 3) of <f4 needs 24 data bytes, found 23"},
		{"corrupt gzip", gzipped(two)[:30], nil, "%s: unexpected end of compressed data"},
	})
	if _, err := ReadNPYMatrix(filepath.Join(t.TempDir(), "absent.npy")); err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "absent.npy: ") {
		t.Errorf("absent file: error %v, want a not-exist error naming the file", err)
	}
}

// TestCompressedNPYReadToTheEnd: a gzip-compressed .npy file, whose
// length is not known beforehand, is read to its end, as gzip -t reads it:
// a file whose data no longer match its CRC-32, or whose trailer is cut
// off, or with bytes after the array, is refused by every reader of .npy
// files, as a regular file with bytes after the array is. A damaged stored
// (uncompressed) block read as other numbers before.
func TestCompressedNPYReadToTheEnd(t *testing.T) {
	data := []float64{1, -1, -1, 1} // a matrix of one column, or binary labels
	array := npyFile(1, dict("<f8", false, "(4, 1)"), encode(le, data))
	var stored bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&stored, gzip.NoCompression)
	zw.Write(array)
	zw.Close()
	damaged := bytes.Clone(stored.Bytes())
	last := bytes.LastIndex(damaged, array[len(array)-8:]) + 7 // the last value's sign and exponent byte, stored as is
	damaged[last] ^= 0x01                                      // 1 reads as 2⁻¹⁶
	readers := map[string]func(path string) error{
		"ReadNPYMatrix": func(path string) error { _, err := ReadNPYMatrix(path); return err },
		"ReadMatrix":    func(path string) error { _, err := ReadMatrix(path); return err },
		"ReadLabels":    func(path string) error { _, err := ReadLabels(path, ""); return err },
		"ReadClasses":   func(path string) error { _, err := ReadClasses(path); return err },
		"DecodeMatrix": func(path string) error {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = DecodeMatrix(f, path)
			return err
		},
	}
	for _, tt := range []struct {
		name, file string
		content    []byte
		err        string // with %s for the path
	}{
		{"damaged data", "x.npy.gz", damaged, "%s: gzip: invalid checksum"},
		{"trailer cut", "x.npy.gz", stored.Bytes()[:stored.Len()-8], "%s: unexpected end of compressed data"},
		{"data after the array", "x.npy.gz", gzipped(append(bytes.Clone(array), 0, 0)), "%s: 2 bytes of unexpected data after the array"},
	} {
		for name, read := range readers {
			path := writeFile(t, tt.file, tt.content)
			err := read(path)
			want := strings.ReplaceAll(tt.err, "%s", path)
			var e *Error
			if err == nil || err.Error() != want || !errors.As(err, &e) {
				t.Errorf("%s, %s: error %v, want %q", tt.name, name, err, want)
			}
		}
	}
	// Intact, the same file reads.
	got, err := ReadNPYMatrix(writeFile(t, "x.npy.gz", stored.Bytes()))
	if err != nil || !mat.Equal(got, mat.NewDense(4, 1, data)) {
		t.Errorf("intact: %v, %v", got, err)
	}
}

func TestReadNPYInts(t *testing.T) {
	checkReads(t, "y.npy", ReadNPYInts, equalInts, []readCase[[]int]{
		{"int32", npyFile(1, dict("<i4", false, "(3,)"), encode(le, []int32{2, 0, -1})), []int{2, 0, -1}, ""},
		{"uint8 column", npyFile(1, dict("|u1", false, "(3, 1)"), []byte{2, 0, 9}), []int{2, 0, 9}, ""},
		{"integral floats", npyFile(1, dict("<f8", false, "(2,)"), encode(le, 3.0, -0.0)), []int{3, 0}, ""},
		{"bool", npyFile(1, dict("|b1", false, "(2,)"), []byte{1, 0}), []int{1, 0}, ""},
		{"fraction", npyFile(1, dict("<f4", false, "(2,)"), encode(le, float32(1), float32(2.5))), nil, "%s: row 1: 2.5 is not an integer"},
		{"NaN", npyFile(1, dict("<f8", false, "(2,)"), encode(le, 1.0, math.NaN())), nil, "%s: row 1 is NaN"},
		{"Inf", npyFile(1, dict("<f8", false, "(1,)"), encode(le, math.Inf(1))), nil, "%s: row 0 is +Inf"},
		{"matrix", npyFile(1, dict("<i4", false, "(1, 2)"), encode(le, int32(1), int32(2))), nil, "%s: expected a 1-D array or a single column, got shape (1, 2)"},
	})
}

// readCase is a file to read and what reading it gives: want, or, when
// want is nil, the error err (with "%s" for the file's path).
type readCase[W any] struct {
	name string
	file []byte
	want W
	err  string
}

// checkReads writes each case's file as name in a new directory and reads
// it with read, checking the result with same or the error with checkError.
func checkReads[G any, W []E, E any](t *testing.T, name string, read func(path string) (G, error), same func(G, W) bool, tests []readCase[W]) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, name, tt.file)
			got, err := read(path)
			if tt.want == nil {
				checkError(t, got, err, strings.ReplaceAll(tt.err, "%s", path))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !same(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReadNPYSharedData(t *testing.T) {
	path := shareddata.Path(t, "coil100/hog/features.npy")
	x, err := ReadNPYMatrix(path)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := x.Dims(); r != 7200 || c != 800 {
		t.Fatalf("dims %d×%d, want 7200×800", r, c)
	}
	// Reference values from numpy.load (float32 widened to float64).
	checks := []struct {
		i, j int
		want float64
	}{{0, 239, 0}, {0, 240, 0.7872092127799988}, {5000, 400, 0.5527726411819458}, {7199, 799, 0}}
	for _, c := range checks {
		if got := x.At(c.i, c.j); got != c.want {
			t.Errorf("X[%d, %d] = %v, want %v", c.i, c.j, got, c.want)
		}
	}
	// numpy: X.astype(float64)[123].sum(); the summation order differs.
	if got, want := mat.Sum(x.RowView(123)), 99.99935494037345; math.Abs(got-want) > 1e-12*want {
		t.Errorf("row 123 sums to %v, want %v", got, want)
	}
}

func BenchmarkReadNPY(b *testing.B) {
	path := shareddata.Path(b, "coil100/hog/features.npy")
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := ReadNPYMatrix(path); err != nil {
			b.Fatal(err)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sameFloats compares bit-for-bit, except that any NaN equals any NaN.
func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

var _ io.Reader = (*bytes.Reader)(nil)

func nan() float64 { return math.NaN() }

// shapeCount agrees with its definition, computed in big integers: the
// product of the dimensions, accepted when every dimension is at most
// maxInt and the product's float64 bytes (8 a value) too, for the int of
// 32 and of 64 bits; it never overflows (the shapes reach 2⁶³−1).
func TestShapeCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	dims := []int64{0, 1, 2, 3, 1 << 20, 1<<28 - 1, 1 << 28, math.MaxInt32 / 8, math.MaxInt32/8 + 1, math.MaxInt32,
		math.MaxInt32 + 1, 1 << 40, math.MaxInt64 / 8, math.MaxInt64/8 + 1, math.MaxInt64}
	for range 2000 {
		shape := make([]int64, 1+rng.IntN(3))
		for i := range shape {
			if rng.IntN(2) == 0 {
				shape[i] = dims[rng.IntN(len(dims))]
			} else {
				shape[i] = rng.Int64N(1 << uint(1+rng.IntN(62)))
			}
		}
		for _, maxInt := range []int64{math.MaxInt32, math.MaxInt64} {
			prod, ok := big.NewInt(1), true
			for _, d := range shape {
				prod.Mul(prod, big.NewInt(d))
				ok = ok && d <= maxInt
			}
			ok = ok && new(big.Int).Mul(prod, big.NewInt(8)).Cmp(big.NewInt(maxInt)) <= 0
			count, gotOK := shapeCount(shape, maxInt)
			if gotOK != ok || ok && count != prod.Int64() {
				t.Fatalf("shapeCount(%v, %d) = %d, %v; want %v, %v", shape, maxInt, count, gotOK, prod, ok)
			}
		}
	}
}

// A shape that fits 64 bits but not a 32-bit int was "malformed header:
// shape dimension … is too large" on 32 bits, where the header is well
// formed: the file is now refused as on 64 bits (truncated, in
// TestDecodeNPYErrors) or, where only the platform differs, as too large
// for it — from a file (sized) or a stream alike. On 64 bits these decode.
func TestDecodeNPYShapeBeyondInt32(t *testing.T) {
	file := npyFile(1, dict("<f8", false, "(0, 1099511627776)"), nil)
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, decode := range map[string]func() (*NPYArray, error){
		"x.npy":           func() (*NPYArray, error) { return DecodeNPY(bytes.NewReader(file), "x.npy") },
		displayName(path): func() (*NPYArray, error) { return readNPYFile(path) },
	} {
		a, err := decode()
		if math.MaxInt == math.MaxInt32 {
			checkError(t, a, err, name+": shape (0, 1099511627776) is too large for a 32-bit platform")
			continue
		}
		if err != nil || len(a.Shape) != 2 || a.Shape[0] != 0 || int64(a.Shape[1]) != 1<<40 || len(a.Data) != 0 {
			t.Errorf("%s: %+v, %v; want an empty array of shape (0, 1099511627776)", name, a, err)
		}
	}
}

// TestNPYVersionedSpellings pins the dtype spellings that only one major
// version of NumPy takes, which TestNumPyDescrSpellings, asking the NumPy
// installed, leaves out: NumPy 1's aliases float_ and bool8 (removed in
// NumPy 2) are read as NumPy 1 reads them, float64 and bool; NumPy 1's
// aliases int0 and uint0 (of intp and uintp, removed in NumPy 2) and NumPy
// 2's codes 'n' and 'N' (of intp and uintp, new in NumPy 2) are refused
// saying that their size is the writing platform's.
func TestNPYVersionedSpellings(t *testing.T) {
	for _, tt := range []struct {
		descr string
		data  []byte
		want  []float64
	}{
		{"float_", encode(native, 1.5, -2.0), []float64{1.5, -2}},
		{"bool8", []byte{1, 0}, []float64{1, 0}},
	} {
		a, err := DecodeNPY(bytes.NewReader(npyFile(1, dict(tt.descr, false, "(2,)"), tt.data)), "x.npy")
		if err != nil || !sameFloats(a.Data, tt.want) {
			t.Errorf("%q: %v, %v; want %v", tt.descr, a, err, tt.want)
		}
	}
	for _, descr := range []string{"int0", "uint0", "n", "N", "<n", ">N", "=n", "|N"} {
		_, err := DecodeNPY(bytes.NewReader(npyFile(1, dict(descr, false, "(1,)"), encode(le, int64(1)))), "x.npy")
		want := "x.npy: unsupported dtype '" + descr + "': the size of this NumPy type (C's long or a pointer) is that of the platform that wrote the file, which the file does not record: save the array with np.save, which writes its size ('<i8' or '<i4')"
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v; want %s", descr, err, want)
		}
	}
}

// TestNPYBigIntegerNamedByRowAndColumn checks that an integer beyond 2⁵³
// in a 2-D array is named by its 0-based row and column, the same in C and
// Fortran order and by every reader (whole, in blocks of rows, by rows on
// demand), not by its position in the file (element 17 of the C-order
// file, 43 of the Fortran-order one), each reader's message the same, the
// hint ("save the array as float64") included.
func TestNPYBigIntegerNamedByRowAndColumn(t *testing.T) {
	const rows, cols = 20, 5
	le := binary.LittleEndian
	cOrder := make([]int64, rows*cols)
	fOrder := make([]int64, rows*cols)
	cOrder[3*cols+2] = 1<<60 + 1
	fOrder[2*rows+3] = 1<<60 + 1
	shape := fmt.Sprintf("(%d, %d)", rows, cols)
	const want = ": row 3 column 2: integer 1152921504606846977 is beyond 2⁵³"
	for _, f := range []struct {
		name    string
		fortran bool
		vals    []int64
	}{{"c.npy", false, cOrder}, {"f.npy", true, fOrder}} {
		path := writeFile(t, f.name, npyFile(1, dict("<i8", f.fortran, shape), encode(le, f.vals)))
		_, err := ReadMatrix(path)
		errs := []error{err}
		for _, block := range []int{2, 1000} {
			errs = append(errs, ScanMatrixRows(path, HeaderAuto, nil, block, func(*mat.Dense) error { return nil }))
		}
		if !f.fortran {
			_, err := openNPYRows(path)
			errs = append(errs, err)
		}
		for i, err := range errs {
			if err == nil || !strings.HasPrefix(err.Error(), path+want) {
				t.Errorf("%s, reader %d: error %v, want it to start %q", f.name, i, err, path+want)
			} else if err.Error() != errs[0].Error() {
				// openNPYRows lacked the hint (save the array as float64).
				t.Errorf("%s, reader %d: error %q, want the whole reader's %q", f.name, i, err, errs[0])
			}
		}
	}
}
