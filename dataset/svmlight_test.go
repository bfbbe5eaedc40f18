package dataset

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/peertest"
	"github.com/greedytl/greedytl/internal/validate"
	"github.com/greedytl/greedytl/sparse"
)

const heartScale = "/usr/share/doc/liblinear-tools/examples/heart_scale"

func TestDecodeSVMLight(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		nFeatures int
		want      *sparse.CSR
		y         []float64
	}{
		{"basic", "+1 1:0.5 3:-2\n-1 2:1\n", 0,
			&sparse.CSR{R: 2, C: 3, Ptr: []int{0, 2, 3}, Ind: []int{0, 2, 1}, Val: []float64{0.5, -2, 1}}, []float64{1, -1}},
		{"comments, blanks, qid, tabs, CRLF", "# header comment\n\n2\tqid:7 4:1e-3   5:7 # trailing\r\n   \n0.5 qid:1\n", 0,
			&sparse.CSR{R: 2, C: 5, Ptr: []int{0, 2, 2}, Ind: []int{3, 4}, Val: []float64{1e-3, 7}}, []float64{2, 0.5}},
		{"explicit zero kept", "1 2:0\n", 0, &sparse.CSR{R: 1, C: 2, Ptr: []int{0, 1}, Ind: []int{1}, Val: []float64{0}}, []float64{1}},
		{"nFeatures larger", "1 2:3\n", 10, &sparse.CSR{R: 1, C: 10, Ptr: []int{0, 1}, Ind: []int{1}, Val: []float64{3}}, []float64{1}},
		{"nFeatures smaller", "1 2:3\n", 1, &sparse.CSR{R: 1, C: 2, Ptr: []int{0, 1}, Ind: []int{1}, Val: []float64{3}}, []float64{1}},
		{"no final newline", "-1 1:1", 0, &sparse.CSR{R: 1, C: 1, Ptr: []int{0, 1}, Ind: []int{0}, Val: []float64{1}}, []float64{-1}},
		{"label only", "3\n", 0, &sparse.CSR{R: 1, C: 0, Ptr: []int{0, 0}}, []float64{3}},
		{"gzip", string(gzipped([]byte("1 1:2\n"))), 0, &sparse.CSR{R: 1, C: 1, Ptr: []int{0, 1}, Ind: []int{0}, Val: []float64{2}}, []float64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y, err := DecodeSVMLight(strings.NewReader(tt.in), "x.svm", tt.nFeatures)
			if err != nil {
				t.Fatal(err)
			}
			if err := x.Check(); err != nil {
				t.Fatal(err)
			}
			if !equalCSR(x, tt.want) {
				t.Errorf("got %+v, want %+v", x, tt.want)
			}
			if !sameFloats(y, tt.y) {
				t.Errorf("labels %v, want %v", y, tt.y)
			}
		})
	}
}

func TestDecodeSVMLightErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", "x.svm: no rows"},
		{"comments only", "# c\n\n", "x.svm: no rows"},
		{"bad label", "1 1:1\nyes 1:1\n", "x.svm:2: bad label \"yes\""},
		{"NaN label", "nan 1:1\n", "x.svm:1: label is NaN"},
		{"index 0", "1 1:1\n\n1 0:1\n", "x.svm:3: index 0: indices start at 1"},
		{"negative index", "1 -2:1\n", "x.svm:1: index -2: indices start at 1"},
		{"decreasing", "1 3:1 2:1\n", "x.svm:1: index 2 after 3: indices must be strictly increasing"},
		{"repeated", "1 3:1 3:1\n", "x.svm:1: index 3 after 3: indices must be strictly increasing"},
		{"no colon", "1 3\n", "x.svm:1: expected index:value, got \"3\""},
		{"bad index", "1 a:1\n", "x.svm:1: bad index in \"a:1\""},
		{"float index", "1 1.5:1\n", "x.svm:1: bad index in \"1.5:1\""},
		{"huge index", "1 2147483648:1\n", "x.svm:1: index 2147483648 exceeds the limit 2147483647"},
		{"overflowing index", "1 99999999999999999999:1\n", "x.svm:1: index 99999999999999999999 exceeds the limit 2147483647"},
		{"bad value", "1 1:x\n", "x.svm:1: index 1: cannot parse value \"x\""},
		{"empty value", "1 1:\n", "x.svm:1: index 1: cannot parse value \"\""},
		{"Inf value", "1 1:-inf\n", "x.svm:1: index 1: value is -Inf"},
		{"overflow value", "1 4:1e400\n", "x.svm:1: index 4: value \"1e400\" is out of float64 range"},
		{"space after colon", "1 1: 2\n", "x.svm:1: index 1: cannot parse value \"\""},
		// Go's digit separators: liblinear-train refuses them (TestSVMLightPeers).
		{"underscore in a value", "1 1:1_0\n", "x.svm:1: index 1: cannot parse value \"1_0\""},
		{"underscore in a label", "1_0 1:1\n", "x.svm:1: bad label \"1_0\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, _, err := DecodeSVMLight(strings.NewReader(tt.in), "x.svm", 0)
			checkError(t, x, err, tt.want)
		})
	}
}

func TestDecodeSVMLightTruncatedGzip(t *testing.T) {
	// How many lines decode before the cut depends on the compressor, so
	// only the form of the message is checked.
	in := gzipped([]byte(strings.Repeat("1 1:2\n", 1000)))
	_, _, err := DecodeSVMLight(bytes.NewReader(in[:len(in)/2]), "x.svm", 0)
	var e *Error
	if !errors.As(err, &e) || e.Line == 0 || !errors.Is(err, errGzipTruncated) || !strings.HasPrefix(err.Error(), "x.svm:") ||
		!strings.HasSuffix(err.Error(), ": unexpected end of compressed data") {
		t.Errorf("error %v, want x.svm:<line>: unexpected end of compressed data", err)
	}
}

func TestSVMLightRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	for trial := 0; trial < 20; trial++ {
		r, c := 1+rnd.IntN(40), 1+rnd.IntN(60)
		x := &sparse.CSR{R: r, C: c, Ptr: []int{0}}
		y := make([]float64, r)
		for i := range y {
			y[i] = float64(rnd.IntN(5)) - 2
			for j := 0; j < c; j++ {
				if rnd.Float64() < 0.2 {
					x.Ind = append(x.Ind, j)
					x.Val = append(x.Val, rnd.NormFloat64()*math.Pow(10, float64(rnd.IntN(60)-30)))
				}
			}
			x.Ptr = append(x.Ptr, len(x.Ind))
		}
		var buf bytes.Buffer
		if err := WriteSVMLight(&buf, x, y); err != nil {
			t.Fatal(err)
		}
		// nFeatures restores the width when the last columns are empty.
		got, gy, err := DecodeSVMLight(&buf, "rt.svm", c)
		if err != nil {
			t.Fatal(err)
		}
		if !equalCSR(got, x) || !sameFloats(gy, y) {
			t.Fatalf("trial %d: round trip differs", trial)
		}
	}
}

func TestWriteSVMLightErrors(t *testing.T) {
	x := &sparse.CSR{R: 1, C: 2, Ptr: []int{0, 1}, Ind: []int{1}, Val: []float64{math.NaN()}}
	if err := WriteSVMLight(&bytes.Buffer{}, x, []float64{1}); err == nil || err.Error() != "dataset: x row 0 column 1 is NaN" {
		t.Errorf("NaN value: %v", err)
	}
	x.Val[0] = 1
	if err := WriteSVMLight(&bytes.Buffer{}, x, []float64{math.Inf(1)}); err == nil || err.Error() != "dataset: y row 0 is +Inf" {
		t.Errorf("Inf label: %v", err)
	}
	x.Ind[0] = 5
	if err := WriteSVMLight(&bytes.Buffer{}, x, []float64{1}); err == nil {
		t.Error("malformed CSR accepted")
	}
}

// TestCallerMistakes: the package's exported readers and writers given a
// nil reader, writer or matrix, labels that do not match the rows, a
// negative shape or a dtype DecodeNPY does not read return an error
// saying so, and the writers write nothing: none panics.
func TestCallerMistakes(t *testing.T) {
	var (
		buf      bytes.Buffer
		nilCSR   *sparse.CSR
		nilDense *mat.Dense
	)
	x := &sparse.CSR{R: 2, C: 1, Ptr: []int{0, 1, 1}, Ind: []int{0}, Val: []float64{1}}
	one := mat.NewDense(1, 1, []float64{1})
	in := func() io.Reader { return strings.NewReader("1 1:1\n") }
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"WriteSVMLight nil, nil", func() error { return WriteSVMLight(&buf, nil, nil) }, "dataset: WriteSVMLight: no matrix (nil)"},
		{"WriteSVMLight typed nil", func() error { return WriteSVMLight(&buf, nilCSR, []float64{1}) }, "dataset: WriteSVMLight: no matrix (nil)"},
		{"WriteSVMLight nil writer", func() error { return WriteSVMLight(nil, x, []float64{1, -1}) }, "dataset: WriteSVMLight: no writer (nil)"},
		{"WriteSVMLight no labels", func() error { return WriteSVMLight(&buf, x, nil) }, "dataset: WriteSVMLight: 0 labels for 2 rows"},
		{"WriteSVMLight labels for no rows", func() error { return WriteSVMLight(&buf, &sparse.CSR{}, []float64{1}) }, "dataset: WriteSVMLight: 1 labels for 0 rows"},
		{"WriteNPY nil", func() error { return WriteNPY(&buf, nil) }, "dataset: WriteNPY: no matrix (nil or empty)"},
		{"WriteNPY typed nil", func() error { return WriteNPY(&buf, nilDense) }, "dataset: WriteNPY: no matrix (nil or empty)"},
		{"WriteNPY nil writer", func() error { return WriteNPY(nil, one) }, "dataset: no writer (nil)"},
		{"WriteNPYInts nil writer", func() error { return WriteNPYInts(nil, []int{1}) }, "dataset: no writer (nil)"},
		{"WriteNPYHeader nil writer", func() error { return WriteNPYHeader(nil, "<f4", []int{1}) }, "dataset: no writer (nil)"},
		{"WriteNPYHeader negative", func() error { return WriteNPYHeader(&buf, "<f4", []int{3, -1}) }, "dataset: .npy shape (3, -1) has a negative dimension"},
		{"WriteNPYHeader dtype", func() error { return WriteNPYHeader(&buf, "<c16", []int{1}) }, "dataset: WriteNPYHeader: unsupported dtype '<c16'"},
		{"NewNPYRowWriter nil writer", func() error { _, err := NewNPYRowWriter(nil, 1, 1); return err }, "dataset: no writer (nil)"},
		{"NewNPYRowWriter negative", func() error { _, err := NewNPYRowWriter(&buf, 2, -1); return err }, "dataset: .npy shape (2, -1) has a negative dimension"},
		{"DecodeNPY nil", func() error { _, err := DecodeNPY(nil, "x.npy"); return err }, "x.npy: no reader (nil)"},
		{"DecodeCSV nil", func() error { _, err := DecodeCSV(nil, "x.csv"); return err }, "x.csv: no reader (nil)"},
		{"DecodeMatrix nil", func() error { _, err := DecodeMatrix(nil, "x"); return err }, "x: no reader (nil)"},
		{"DecodeSVMLight nil", func() error { _, _, err := DecodeSVMLight(nil, "x.svm", 0); return err }, "x.svm: no reader (nil)"},
		{"DecodeSVMLightChecked nil", func() error { _, _, err := DecodeSVMLightChecked(nil, "x.svm", 0, nil); return err }, "x.svm: no reader (nil)"},
		{"DecodeClassesHeader nil", func() error { _, err := DecodeClassesHeader(nil, "y.txt", HeaderAuto); return err }, "y.txt: no reader (nil)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf.Reset()
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v", r)
					}
				}()
				err = tt.call()
			}()
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %q", err, tt.want)
			}
			if buf.Len() > 0 {
				t.Errorf("wrote %d bytes", buf.Len())
			}
		})
	}
	// The same calls with their arguments right succeed.
	if err := WriteSVMLight(&buf, x, []float64{1, -1}); err != nil {
		t.Error(err)
	}
	if _, _, err := DecodeSVMLight(in(), "x.svm", 0); err != nil {
		t.Error(err)
	}
}

// readHeartScale reads liblinear's heart_scale, skipping the test when the
// file is absent.
func readHeartScale(t *testing.T) (*sparse.CSR, []float64) {
	t.Helper()
	if _, err := os.Stat(heartScale); err != nil {
		t.Skipf("%s absent (Debian package liblinear-tools): skipping", heartScale)
	}
	x, y, err := ReadSVMLight(heartScale)
	if err != nil {
		t.Fatal(err)
	}
	return x, y
}

func TestReadSVMLightHeartScale(t *testing.T) {
	x, y := readHeartScale(t)
	if err := x.Check(); err != nil {
		t.Fatal(err)
	}
	if x.R != 270 || x.C != 13 || len(y) != 270 {
		t.Fatalf("got %d×%d with %d labels, want 270×13", x.R, x.C, len(y))
	}
	// The first line: +1 1:0.708333 2:1 3:1 4:-0.320755 5:-0.105023 6:-1
	// 7:1 8:-0.419847 9:-1 10:-0.225806 12:1 13:-1
	ind, val := x.Row(0)
	wantInd := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12}
	wantVal := []float64{0.708333, 1, 1, -0.320755, -0.105023, -1, 1, -0.419847, -1, -0.225806, 1, -1}
	if y[0] != 1 || !equalInts(ind, wantInd) || !sameFloats(val, wantVal) {
		t.Errorf("row 0: label %v, %v %v", y[0], ind, val)
	}
	pos, _, err := validate.Labels(y)
	if err != nil {
		t.Fatal(err)
	}
	if pos != 120 {
		t.Errorf("%d positive labels, want 120", pos)
	}
}

// TestSVMLightPeers checks our reader against scikit-learn's
// load_svmlight_file on heart_scale, and that liblinear-train accepts a
// file we write.
func TestSVMLightPeers(t *testing.T) {
	x, y := readHeartScale(t)
	dir := t.TempDir()
	t.Run("scikit-learn", func(t *testing.T) {
		out := filepath.Join(dir, "sk.npy")
		script := `import sys, numpy as np
from sklearn.datasets import load_svmlight_file
X, y = load_svmlight_file(sys.argv[1])
np.save(sys.argv[2], np.column_stack([y, X.toarray()]))`
		cmd := exec.Command(peertest.PythonWith(t, "numpy", "sklearn"), "-c", script, heartScale, out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("python: %v\n%s", err, b)
		}
		sk, err := ReadNPYMatrix(out)
		if err != nil {
			t.Fatal(err)
		}
		dense := x.Dense()
		for i := 0; i < x.R; i++ {
			if sk.At(i, 0) != y[i] {
				t.Fatalf("row %d: label %v, scikit-learn %v", i, y[i], sk.At(i, 0))
			}
			for j := 0; j < x.C; j++ {
				if sk.At(i, j+1) != dense.At(i, j) {
					t.Fatalf("(%d, %d): %v, scikit-learn %v", i, j, dense.At(i, j), sk.At(i, j+1))
				}
			}
		}
	})
	t.Run("liblinear-train", func(t *testing.T) {
		train, err := exec.LookPath("liblinear-train")
		if err != nil {
			t.Skip("liblinear-train not installed")
		}
		var buf bytes.Buffer
		if err := WriteSVMLight(&buf, x, y); err != nil {
			t.Fatal(err)
		}
		data := filepath.Join(dir, "ours.svm")
		if err := os.WriteFile(data, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		// -v 2: cross-validation prints accuracy and writes no model file.
		b, err := exec.Command(train, "-q", "-v", "2", data).CombinedOutput()
		if err != nil || !strings.Contains(string(b), "Cross Validation Accuracy") {
			t.Errorf("liblinear-train rejected our file: %v\n%s", err, b)
		}
		// What DecodeSVMLight refuses as not a number, liblinear-train
		// refuses too (ParseFloat alone read "1_0" as 10).
		for _, in := range []string{"1 1:1_0\n-1 1:1\n", "1_0 1:1\n-1 1:2\n"} {
			if _, _, err := DecodeSVMLight(strings.NewReader(in), "x.svm", 0); err == nil {
				t.Errorf("DecodeSVMLight read %q", in)
			}
			if err := os.WriteFile(data, []byte(in), 0o644); err != nil {
				t.Fatal(err)
			}
			if b, err := exec.Command(train, "-q", "-v", "2", data).CombinedOutput(); err == nil {
				t.Errorf("liblinear-train read %q: %s", in, b)
			}
		}
	})
}

func equalCSR(a, b *sparse.CSR) bool {
	return a.R == b.R && a.C == b.C && equalInts(a.Ptr, b.Ptr) && equalInts(a.Ind, b.Ind) && sameFloats(a.Val, b.Val)
}

// TestReadSVMLightAllocatesLittle: reading a file allocates its arrays
// once, at their size (ReadSVMLight counts the file's ':' and newlines
// first), instead of growing them by copies — 16 bytes a stored value, not
// about twice that — and reads the same as decoding the stream.
func TestReadSVMLightAllocatesLittle(t *testing.T) {
	const rows, perRow = 5000, 50
	rng := rand.New(rand.NewPCG(3, 3))
	var b bytes.Buffer
	for range rows {
		b.WriteString("-1")
		for k := range perRow {
			b.WriteString(" " + strconv.Itoa(2*k+1+rng.IntN(2)) + ":" + strconv.FormatFloat(rng.Float64(), 'g', 3, 64))
		}
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "x.svm")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	x, y, err := ReadSVMLight(path)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	arrays := uint64(16*rows*perRow + 16*rows)
	if got := after.TotalAlloc - before.TotalAlloc; got > arrays+arrays/10+3<<19 {
		t.Errorf("reading allocated %.1f MB for %.1f MB of arrays", float64(got)/1e6, float64(arrays)/1e6)
	}
	x2, y2, err := DecodeSVMLight(bytes.NewReader(b.Bytes()), "x.svm", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(x, x2) || !reflect.DeepEqual(y, y2) {
		t.Error("ReadSVMLight and DecodeSVMLight read different data")
	}
}
