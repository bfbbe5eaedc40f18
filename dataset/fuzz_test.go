package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/inputcheck"
)

// checkFuzzError fails unless err is a one-line *Error about name.
func checkFuzzError(t *testing.T, err error, name string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T is not a *dataset.Error: %v", err, err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, name+":") || strings.ContainsAny(msg, "\n\r") {
		t.Fatalf("malformed message %q", msg)
	}
}

// encodeNPYArray writes a as a '<f8' C-order array.
func encodeNPYArray(w io.Writer, a *NPYArray) error {
	if err := writeNPYHeader(w, "<f8", a.Shape); err != nil {
		return err
	}
	b := make([]byte, 0, 8*len(a.Data))
	for _, v := range a.Data {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	_, err := w.Write(b)
	return err
}

func FuzzDecodeNPY(f *testing.F) {
	seeds := [][]byte{
		npyFile(1, dict("<f8", false, "(2, 3)"), encode(le, []float64{1, -2, 3.5, math.Inf(1), 0, 1e-300})),
		npyFile(1, dict("<f4", false, "(2, 2)"), encode(le, []float32{1, 2, 3, 4})),
		npyFile(1, dict(">f8", true, "(2, 3)"), encode(be, []float64{1, 4, 2, 5, 3, 6})),
		npyFile(2, dict("<i8", false, "(3,)"), encode(le, []int64{1, -1 << 53, 1 << 53})),
		npyFile(3, dict("<u2", false, "(2, 1)"), encode(le, []uint16{7, 65535})),
		npyFile(1, dict("|b1", false, "(3,)"), []byte{0, 1, 2}),
		npyFile(1, dict("|i1", false, "(0, 4)"), nil),
		npyFile(1, `{"shape": (1L, 1L), "fortran_order": False, "descr": "<f8"}`, encode(le, 1.0)),
		// Subtly broken: truncated data, lying shapes, bad headers.
		npyFile(1, dict("<f8", false, "(3,)"), encode(le, 1.0)),
		npyFile(1, dict("<f8", false, "(4611686018427387904, 4611686018427387904)"), nil),
		npyFile(1, dict("<f4", false, "(1099511627776,)"), nil),
		npyFile(1, dict("<c16", false, "(1,)"), make([]byte, 16)),
		npyFile(1, dict("<f8", false, "(2)"), encode(le, 1.0, 2.0)),
		npyFile(1, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,)}", encode(le, 1.0)),
		npyFile(1, dict("<i8", false, "(1,)"), encode(le, int64(math.MaxInt64))),
		[]byte(npyMagic + "\x01\x00\xff\xff{"),
		[]byte(npyMagic + "\x02\x00\xff\xff\xff\x7f"),
		[]byte(npyMagic),
		nil,
	}
	seeds = append(seeds, gzipped(seeds[0])) // decompressed (TestDecodeNPYGzip)
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		a, err := DecodeNPY(r, "f.npy")
		if err != nil {
			checkFuzzError(t, err, "f.npy")
			return
		}
		if len(a.Shape) != 1 && len(a.Shape) != 2 {
			t.Fatalf("shape %v", a.Shape)
		}
		n := 1
		for _, d := range a.Shape {
			n *= d
		}
		if n != len(a.Data) {
			t.Fatalf("shape %v with %d values", a.Shape, len(a.Data))
		}
		// With the length known, the decoder agrees, or objects to the
		// bytes after the array; gzip input, read to its end, agrees with
		// its content read as a file (readNPYFile).
		if isGzip(data) {
			b, err := readNPYFile(writeFile(t, "f.npy.gz", data))
			if r.Len() > 0 || err != nil || !sameFloats(a.Data, b.Data) {
				t.Fatalf("gzip input: %d bytes left, the file's reader %v", r.Len(), err)
			}
		} else {
			b, err := decodeNPY(bytes.NewReader(data), "f.npy", int64(len(data)))
			if r.Len() == 0 && (err != nil || !sameFloats(a.Data, b.Data)) {
				t.Fatalf("sized decoding differs: %v", err)
			}
			if r.Len() > 0 && (err == nil || !strings.Contains(err.Error(), "unexpected data after the array")) {
				t.Fatalf("%d trailing bytes: sized decoding error %v", r.Len(), err)
			}
		}
		// Re-encoding as float64 round-trips exactly.
		var buf bytes.Buffer
		if err := encodeNPYArray(&buf, a); err != nil {
			t.Fatal(err)
		}
		c, err := DecodeNPY(&buf, "re.npy")
		if err != nil {
			t.Fatalf("re-encoded array does not decode: %v", err)
		}
		if !equalInts(c.Shape, a.Shape) || !sameFloats(c.Data, a.Data) {
			t.Fatalf("round trip: shape %v → %v", a.Shape, c.Shape)
		}
		if len(a.Shape) == 2 {
			if m, err := a.matrix("f.npy"); err == nil {
				if err := inputcheck.CheckFinite("m", m); err != nil {
					t.Fatalf("matrix has a non-finite value: %v", err)
				}
			} else {
				checkFuzzError(t, err, "f.npy")
			}
		}
	})
}

func FuzzDecodeCSV(f *testing.F) {
	for _, s := range []string{
		"1,2,3\n4,5,6\n",
		"a,b\n1,2\n",
		"\ufeffx\ty\r\n1\t2\r\n",
		"# comment\n\n 1 2 \n3 4",
		"\"a,b\",\"c\"\"\"\n\"1\", 2\n",
		",a,b\n1,2,3\n",
		"1e308,-1e-308,0x1p-2,1_0\n",
		"1,2\n3\n",
		"1,,2\n",
		"nan,1\n",
		"1e999\n",
		"0,1\n0.5,0.25\n",
		"0 1\n0.25 0.75\n1 0\n0.5 0.5\n",
		"0\t1\n0.5\t0.25\n1.0\t3\n",
		"0,1\n0x1p-1,0x1p-2\n3,4\n", // written back: 0,1 above 0.5,0.25 above 3,4
		"\"1,2\n",
		"\"1\"x\n",
		"a,b\n",
		"",
		"\x1f\x8b\x08\x00",
		string(gzipped([]byte("1,2\n3,4\n"))),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeCSV(bytes.NewReader(data), "f.csv")
		if err != nil {
			checkFuzzError(t, err, "f.csv")
			return
		}
		r, c := m.Dims()
		if r < 1 || c < 1 {
			t.Fatalf("dims %d×%d", r, c)
		}
		if err := inputcheck.CheckFinite("m", m); err != nil {
			t.Fatal(err)
		}
		// Written back with exact formatting, the matrix reads the same.
		// A first row 0, 1, …, n−1 is written as pandas writes a float
		// row ("0.0") only where bare it is pandas' names of the columns:
		// of three or more columns above rows (rangeHeader, skipped), of
		// two above rows whose every value is spelled as a decimal
		// (intRow, refused: checked below), as is a first row of other
		// integers of two or more columns above such rows holding a
		// value that is not an integer. Elsewhere, above a row with
		// a value written bare, or of one column, it is written bare and
		// is data.
		encode := func(point bool) *bytes.Buffer {
			var b bytes.Buffer
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					if j > 0 {
						b.WriteByte(',')
					}
					b.WriteString(strconv.FormatFloat(m.At(i, j), 'g', -1, 64))
					if i == 0 && point {
						b.WriteString(".0")
					}
				}
				b.WriteByte('\n')
			}
			return &b
		}
		var first [][]byte
		for j := 0; j < c; j++ {
			first = append(first, []byte(strconv.FormatFloat(m.At(0, j), 'g', -1, 64)))
		}
		decimals := r > 1
		for i := 1; i < r && decimals; i++ {
			var row [][]byte
			for j := 0; j < c; j++ {
				row = append(row, []byte(strconv.FormatFloat(m.At(i, j), 'g', -1, 64)))
			}
			decimals = allDecimals(row)
		}
		rangeHeader := c >= 3 && r > 1 && isRangeHeader(first)
		intRow := !rangeHeader && c >= 2 && decimals && allIntegers(first) && distinctNames(first) && (isRangeHeader(first) || fractional(m.RawMatrix().Data[c:]))
		point := intRow || rangeHeader
		if intRow {
			if _, err := DecodeCSV(encode(false), "bare.csv"); err == nil || !strings.Contains(err.Error(), "above rows of decimals") {
				t.Fatalf("integers above rows of decimals: %v, want the intRow error", err)
			}
		}
		b := encode(point)
		m2, err := DecodeCSV(b, "re.csv")
		if err != nil {
			t.Fatalf("re-encoded matrix does not decode: %v", err)
		}
		if !sameFloats(m.RawMatrix().Data, m2.RawMatrix().Data) {
			t.Fatal("round trip differs")
		}
	})
}

func FuzzDecodeSVMLight(f *testing.F) {
	for _, s := range []string{
		"+1 1:0.5 3:-2\n-1 2:1\n",
		"# c\n2\tqid:3 4:1e-3 5:7 # x\r\n\n0.5\n",
		"1 0:1\n",
		"1 3:1 2:1\n",
		"1 3:1 3:1\n",
		"1 2147483648:1\n",
		"1 1:nan\n",
		"x 1:1\n",
		"1 1:\n",
		"1 :1\n",
		"1 1\n",
		"",
		string(gzipped([]byte("1 1:2\n-1 2:3\n"))),
	} {
		f.Add([]byte(s), 0)
	}
	f.Add([]byte("1 2:3\n"), 10)
	f.Fuzz(func(t *testing.T, data []byte, nFeatures int) {
		nFeatures %= 1 << 20 // the caller's own count, not from the input
		x, y, err := DecodeSVMLight(bytes.NewReader(data), "f.svm", nFeatures)
		if err != nil {
			checkFuzzError(t, err, "f.svm")
			return
		}
		if err := x.Check(); err != nil {
			t.Fatal(err)
		}
		if len(y) != x.R || x.R == 0 || x.C < nFeatures {
			t.Fatalf("%d labels for %d rows, %d columns (nFeatures %d)", len(y), x.R, x.C, nFeatures)
		}
		for _, v := range append(append([]float64(nil), y...), x.Val...) {
			if !isFinite(v) {
				t.Fatalf("non-finite value %v", v)
			}
		}
		var b bytes.Buffer
		if err := WriteSVMLight(&b, x, y); err != nil {
			t.Fatal(err)
		}
		x2, y2, err := DecodeSVMLight(&b, "re.svm", x.C)
		if err != nil {
			t.Fatalf("re-encoded data does not decode: %v", err)
		}
		if !equalCSR(x, x2) || !sameFloats(y, y2) {
			t.Fatal("round trip differs")
		}
	})
}

func FuzzDecodeLabelText(f *testing.F) {
	for _, s := range []string{
		"1\n-1\n+1\n",
		"0,1,1\n",
		"label\n1\n0\n",
		"animal\ncat\ndog\ncat\n",
		"coffee mug\ntea cup\n",
		"\"a\"\n\"b\"\n",
		"1,2\n3\n",
		"1\n2,3\n",
		"1\n\"\"\n",
		"a b c\n",
		"",
		"# x\n",
		"cat # x\ndog\n",
		"[1, 0, 1]",
		"0.5 0.3\n0.1 0.2\n",
	} {
		f.Add([]byte(s), "")
	}
	f.Add([]byte("cat\ndog\n"), "dog")
	f.Add([]byte("2\n7\n"), "7.0")
	f.Fuzz(func(t *testing.T, data []byte, positive string) {
		vals, at, _, err := decodeLabelText(bytes.NewReader(data), "f.txt")
		if err != nil {
			checkFuzzError(t, err, "f.txt")
			return
		}
		if len(at) != len(vals) {
			t.Fatalf("%d labels, %d places", len(vals), len(at))
		}
		if len(vals) == 0 {
			t.Fatal("no labels and no error")
		}
		for i, v := range vals {
			if v == "" && i > 0 { // the first may be a header's, "" (decodeLabelText)
				t.Fatal("empty label")
			}
		}
		y, err := binaryLabels("f.txt", dropBinaryHeader(dropNumericHeader(vals)), positive)
		if err != nil {
			checkFuzzError(t, err, "f.txt")
			return
		}
		npos := 0
		for _, v := range y {
			switch v {
			case 1:
				npos++
			case -1:
			default:
				t.Fatalf("label %v", v)
			}
		}
		if npos == 0 || npos == len(y) {
			t.Fatalf("%d of %d labels positive: not two classes", npos, len(y))
		}
	})
}

// FuzzDecodeClasses: whatever the text, DecodeClassesHeader returns an
// *Error or classes that a model can record: names distinct, none empty
// or blank around, each accepted by CheckLabel, and every label one of
// them.
func FuzzDecodeClasses(f *testing.F) {
	for _, s := range []string{
		"1\n-1\n+1\n", "0,1,1\n", "label\n1\n0\n", "animal\ncat\ndog\ncat\n",
		"\"a\"\n\"b\"\n", "1\n\u00a0\n-1\n", "1\u00a0\n1.0\n", "NA\n1\n0\n",
		"12345678901234567890\n1\n", "1 cat\n2 dog\n3 cat\n",
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, h uint8) {
		c, err := DecodeClassesHeader(bytes.NewReader(data), "f.txt", HeaderRule(h%3))
		if err != nil {
			checkFuzzError(t, err, "f.txt")
			return
		}
		seen := map[string]bool{}
		for _, n := range c.Names {
			if n == "" || n != strings.TrimSpace(n) || seen[n] {
				t.Fatalf("class name %q among %q", n, c.Names)
			}
			if err := CheckLabel(n); err != nil {
				t.Fatalf("class name %q: %v", n, err)
			}
			seen[n] = true
		}
		for _, k := range c.Y {
			if k < 0 || k >= len(c.Names) {
				t.Fatalf("label %d of %d classes", k, len(c.Names))
			}
		}
		if len(c.Y) == 0 {
			t.Fatal("no labels and no error")
		}
	})
}

// fractional reports whether some value is not an integer (the rows
// below an intRow that make it refused).
func fractional(data []float64) bool {
	for _, v := range data {
		if v != math.Trunc(v) {
			return true
		}
	}
	return false
}
