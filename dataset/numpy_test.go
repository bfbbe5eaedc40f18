package dataset

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/peertest"
)

// numpyScript checks the files Go wrote (a.npy, ints.npy) byte for byte
// against np.save and writes the files Go then reads.
const numpyScript = `
import os, sys
import numpy as np
from numpy.lib import format as fmt
d = sys.argv[1]
k = np.arange(12, dtype=np.float64).reshape(3, 4)
m = (k - 5) / 3.0
m[0, 0] = -0.0
m[2, 3] = 2.0**-1074
ints = np.array([0, -1, 1, 2**40, -2**53, 2**53], dtype='<i8')

def saved(a):
    p = os.path.join(d, 'ref.npy')
    np.save(p, a)
    return open(p, 'rb').read()

assert open(os.path.join(d, 'a.npy'), 'rb').read() == saved(m), 'a.npy differs from np.save'
assert open(os.path.join(d, 'ints.npy'), 'rb').read() == saved(ints), 'ints.npy differs from np.save'
a = np.load(os.path.join(d, 'a.npy'))
assert a.dtype == np.float64 and a.shape == (3, 4) and np.array_equal(a, m)

np.save(os.path.join(d, 'f8.npy'), m)
np.save(os.path.join(d, 'f4.npy'), (k / 3).astype(np.float32))
np.save(os.path.join(d, 'fortran.npy'), np.asfortranarray(m))
np.save(os.path.join(d, 'bigendian.npy'), m.astype('>f8'))
np.save(os.path.join(d, 'i4.npy'), np.arange(5, dtype=np.int32) - 2)
np.save(os.path.join(d, 'i8.npy'), ints)
np.save(os.path.join(d, 'i2be.npy'), np.array([-300, 7], dtype='>i2'))
np.save(os.path.join(d, 'u1.npy'), np.array([0, 255], dtype=np.uint8))
np.save(os.path.join(d, 'bool.npy'), np.array([True, False, True]))
np.save(os.path.join(d, 'column.npy'), np.array([[1.5], [2.5]]))
# Headers without a byte order ('f8', '|f8', '=f4'), as other writers
# spell them: np.load reads them in the machine's order.
for descr in ['f8', '|f8', '=f4']:
    p = os.path.join(d, 'descr%s.npy' % descr.replace('|', 'bar').replace('=', 'eq'))
    with open(p, 'wb') as f:
        fmt.write_array_header_1_0(f, {'descr': descr, 'fortran_order': False, 'shape': (3, 4)})
        f.write(m.astype(np.dtype(descr)).tobytes())
    assert np.array_equal(np.load(p), m.astype(np.dtype(descr))), descr
for v in [(2, 0), (3, 0)]:
    with open(os.path.join(d, 'v%d.npy' % v[0]), 'wb') as f:
        fmt.write_array(f, m, version=v)
print('ok')
`

// TestNumPyInterop checks that numpy.load reads what WriteNPY and
// WriteNPYInts write (and that they write exactly what np.save writes), and
// that DecodeNPY reads what NumPy writes. It skips without NumPy.
func TestNumPyInterop(t *testing.T) {
	python := peertest.PythonWith(t, "numpy")
	dir := t.TempDir()
	m := mat.NewDense(3, 4, nil)
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			m.Set(i, j, (float64(4*i+j)-5)/3)
		}
	}
	m.Set(0, 0, math.Copysign(0, -1))
	m.Set(2, 3, math.SmallestNonzeroFloat64)
	if math.MaxInt < 1<<53 {
		t.Skip("the script's integers (2**53) need a 64-bit int")
	}
	ints := []int{0, -1, 1, int40, -int53, int53}
	var a, b bytes.Buffer
	if err := WriteNPY(&a, m); err != nil {
		t.Fatal(err)
	}
	if err := WriteNPYInts(&b, ints); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.npy"), a.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "ints.npy"), b.Bytes(), 0o644)

	out, err := exec.Command(python, "-c", numpyScript, dir).CombinedOutput()
	if err != nil || string(out) != "ok\n" {
		t.Fatalf("python: %v\n%s", err, out)
	}

	mData := mat.DenseCopyOf(m).RawMatrix().Data
	f4 := make([]float64, 12)
	for k := range f4 {
		f4[k] = float64(float32(float64(k) / 3))
	}
	m4 := make([]float64, len(mData))
	for k, v := range mData {
		m4[k] = float64(float32(v))
	}
	tests := []struct {
		file  string
		shape []int
		want  []float64
	}{
		{"f8.npy", []int{3, 4}, mData},
		{"f4.npy", []int{3, 4}, f4},
		{"fortran.npy", []int{3, 4}, mData},
		{"bigendian.npy", []int{3, 4}, mData},
		{"v2.npy", []int{3, 4}, mData},
		{"v3.npy", []int{3, 4}, mData},
		{"i4.npy", []int{5}, []float64{-2, -1, 0, 1, 2}},
		{"i8.npy", []int{6}, []float64{0, -1, 1, 1 << 40, -(1 << 53), 1 << 53}},
		{"i2be.npy", []int{2}, []float64{-300, 7}},
		{"u1.npy", []int{2}, []float64{0, 255}},
		{"bool.npy", []int{3}, []float64{1, 0, 1}},
		{"column.npy", []int{2, 1}, []float64{1.5, 2.5}},
		{"descrf8.npy", []int{3, 4}, mData},
		{"descrbarf8.npy", []int{3, 4}, mData},
		{"descreqf4.npy", []int{3, 4}, m4},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.file)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		arr, err := DecodeNPY(f, tt.file)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if !equalInts(arr.Shape, tt.shape) || !sameFloats(arr.Data, tt.want) {
			t.Errorf("%s: shape %v data %v, want %v %v", tt.file, arr.Shape, arr.Data, tt.shape, tt.want)
		}
	}
	// The path readers on NumPy's files.
	if got, err := ReadNPYMatrix(filepath.Join(dir, "fortran.npy")); err != nil || !mat.Equal(got, m) {
		t.Errorf("ReadNPYMatrix(fortran.npy): %v", err)
	}
	if got, err := ReadNPYInts(filepath.Join(dir, "i8.npy")); err != nil || !equalInts(got, ints) {
		t.Errorf("ReadNPYInts(i8.npy) = %v, %v", got, err)
	}
}

// pandasScript writes with pandas' to_csv the CSV files TestPandasCSV reads:
// with the default index=True (named and unnamed columns) and with
// index=False, of one 3×2 matrix (without a header, which a DataFrame of
// one or two columns needs, and with it, refused) and one 3×3 one.
const pandasScript = `
import os, sys
import numpy as np, pandas as pd
d = sys.argv[1]
x = np.array([[0.5, -1.0], [2.0, 1e-3], [3.25, 7.0]])
pd.DataFrame(x, columns=['a', 'b']).to_csv(os.path.join(d, 'index-named.csv'))
pd.DataFrame(x).to_csv(os.path.join(d, 'index-range.csv'))
pd.DataFrame(x).to_csv(os.path.join(d, 'index-tab.tsv'), sep='\t')
pd.DataFrame(x, columns=['a', 'b']).to_csv(os.path.join(d, 'named.csv'), index=False)
pd.DataFrame(x).to_csv(os.path.join(d, 'range2.csv'), index=False, header=False)
pd.DataFrame(x).to_csv(os.path.join(d, 'range2-header.csv'), index=False)
x3 = np.array([[0.5, -1.0, 4.0], [2.0, 1e-3, 5.5], [3.25, 7.0, -2.0]])
pd.DataFrame(x3).to_csv(os.path.join(d, 'range.csv'), index=False)
y = pd.Series([1, -1, 1], name='y')
y.to_csv(os.path.join(d, 'y-index.csv'))
y.to_csv(os.path.join(d, 'y.csv'), index=False)
print('ok')
`

// TestPandasCSV reads the CSV files pandas writes: to_csv's default, which
// writes the row index as a first column under an empty name, is refused
// naming line 1 and index=False, for a matrix and for labels; with
// index=False the matrix and the labels are read as written. It skips without pandas (CI installs it only for the Python
// package's tests, after the Go tests).
func TestPandasCSV(t *testing.T) {
	python := peertest.PythonWith(t, "numpy")
	if err := exec.Command(python, "-c", "import pandas").Run(); err != nil {
		t.Skipf("%s -c 'import pandas': %v (Debian: python3-pandas)", python, err)
	}
	dir := t.TempDir()
	out, err := exec.Command(python, "-c", pandasScript, dir).CombinedOutput()
	if err != nil || string(out) != "ok\n" {
		t.Fatalf("python: %v\n%s", err, out)
	}
	want := mat.NewDense(3, 2, []float64{0.5, -1, 2, 1e-3, 3.25, 7})
	for _, name := range []string{"index-named.csv", "index-range.csv", "index-tab.tsv"} {
		path := filepath.Join(dir, name)
		m, err := ReadMatrix(path)
		checkError(t, m, err, path+indexHeader[len("x.csv"):])
	}
	path := filepath.Join(dir, "y-index.csv")
	y, err := ReadLabels(path, "")
	checkError(t, y, err, path+indexHeader[len("x.csv"):])
	if y, err := ReadLabels(filepath.Join(dir, "y.csv"), ""); err != nil || !slices.Equal(y, []float64{1, -1, 1}) {
		t.Errorf("y.csv: %v, %v; want [1 -1 1]", y, err)
	}
	// Written with its header, pandas' names 0, 1 of a DataFrame of two
	// columns are refused, where they were read as a row.
	for name, names := range map[string]string{"range2-header.csv": "0, 1"} {
		path := filepath.Join(dir, name)
		m, err := ReadMatrix(path)
		checkError(t, m, err, path+":1: "+names+" above rows of decimals: the column names pandas gives a DataFrame made from an array (to_csv writes them as its header), which would be read as a row of data; write the file without them (pandas: to_csv(path, index=False, header=False)) or save X with np.save (.npy); if the line is data, write one of its values with a point (0.0)")
	}
	want3 := mat.NewDense(3, 3, []float64{0.5, -1, 4, 2, 1e-3, 5.5, 3.25, 7, -2})
	for name, want := range map[string]*mat.Dense{"named.csv": want, "range2.csv": want, "range.csv": want3} {
		m, err := ReadMatrix(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if !mat.Equal(m, want) {
			t.Errorf("%s: read\n%v\nwant\n%v", name, mat.Formatted(m), mat.Formatted(want))
		}
	}
}

// descrScript writes, for each dtype spelling in its arguments, a .npy file
// whose header's descr is that spelling (k.npy, the k-th) holding 1, 0 and
// 2 of that type, loads it with np.load, and prints the spelling, the dtype
// NumPy read and the values it read, tab-separated; or "refused" when
// numpy.dtype or np.load refuses the spelling.
const descrScript = `
import os, sys
import numpy as np
from numpy.lib import format as fmt
d = sys.argv[1]
for k, descr in enumerate(sys.argv[2:]):
    p = os.path.join(d, '%d.npy' % k)
    try:
        dt = np.dtype(descr)
        with open(p, 'wb') as f:
            fmt.write_array_header_1_0(f, {'descr': descr, 'fortran_order': False, 'shape': (3,)})
            f.write(np.array([1, 0, 2]).astype(dt).tobytes())
        a = np.load(p, allow_pickle=False)
        print('%s\t%s\t%s' % (descr, a.dtype.str, ' '.join(repr(float(v)) for v in a)))
    except Exception as e:
        print('%s\trefused\t%s' % (descr, type(e).__name__))
`

// TestNumPyDescrSpellings: DecodeNPY reads a .npy file whose header spells
// its dtype in any way np.load reads — one-character codes ('d', '<d',
// '?'), names ('float64', 'double', 'uint8') as well as '<f8' — as NumPy
// reads it, for the types it reads (float16, float32, float64, integers,
// bool); it
// refuses what np.load refuses and the types it does not read; and it
// refuses C's long and pointer-sized integers ('l', 'int', 'intp'), whose
// size is the platform's, saying so. The table is NumPy's: the script
// reports what np.load makes of each spelling. Its spellings are those
// NumPy 1 and NumPy 2 read alike (or both refuse); those only one of them
// takes (float_, bool8, int0, 'n') are TestNPYVersionedSpellings'. It
// skips without NumPy.
func TestNumPyDescrSpellings(t *testing.T) {
	python := peertest.PythonWith(t, "numpy")
	descrs := []string{
		"<f8", "f8", "=f8", "|f8", ">f8", "d", "<d", ">d", "=d", "|d", "float64", "double", "float",
		"<f4", "f4", ">f4", "f", "<f", ">f", "float32", "single",
		"<f2", "f2", ">f2", "e", "<e", ">e", "float16", "half",
		"<i8", "i8", "q", "<q", ">q", "int64", "longlong", "<i4", "i", "<i", ">i", "int32", "intc",
		"<i2", "h", ">h", "int16", "short", "|i1", "b", "<b", "int8", "byte",
		"<u8", "Q", "uint64", "ulonglong", "<u4", "I", "uint32", "uintc", "<u2", "H", "uint16", "ushort",
		"|u1", "B", "<B", "uint8", "ubyte",
		"|b1", "b1", "<b1", "?", "<?", "|?", "=?", "bool", "bool_",
		// C's long and pointer-sized integers: the platform's size.
		"l", "<l", "L", "p", "P", "long", "ulong", "int", "int_", "uint", "intp", "uintp",
		// Types DecodeNPY does not read, and spellings NumPy refuses.
		"<c16", "D", "U3", "<M8[s]", "|S3",
		"<float64", "Float64", " f8", "f8 ", "<<f8", "f9", "i3", "u", "x", "",
	}
	dir := t.TempDir()
	out, err := exec.Command(python, append([]string{"-W", "ignore", "-c", descrScript, dir}, descrs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(descrs) {
		t.Fatalf("python printed %d lines for %d spellings:\n%s", len(lines), len(descrs), out)
	}
	platform := []string{"l", "<l", "L", "p", "P", "long", "ulong", "int", "int_", "uint", "intp", "uintp"}
	for k, line := range lines {
		f := strings.Split(line, "\t")
		descr := descrs[k]
		if len(f) != 3 || f[0] != descr {
			t.Fatalf("python's line %d: %q, want the spelling %q and two fields", k, line, descr)
		}
		arr, err := DecodeNPY(bytes.NewReader(npyHeaderOnly(t, descr, dir, k)), descr)
		_, readable := parseDescr(f[1]) // a type DecodeNPY reads, as NumPy spells it
		switch {
		case slices.Contains(platform, descr):
			if f[1] == "refused" || err == nil || !strings.Contains(err.Error(), "C's long or a pointer") {
				t.Errorf("%q (NumPy: %s): %v; want a refusal naming the platform's size", descr, f[1], err)
			}
		case f[1] == "refused" || readable != nil:
			if err == nil {
				t.Errorf("%q: read %v, but NumPy reads it as %s, a type DecodeNPY does not read", descr, arr.Data, f[1])
			}
		case err != nil:
			t.Errorf("%q: %v; NumPy reads it as %s", descr, err, f[1])
		default:
			var want []float64
			for _, v := range strings.Fields(f[2]) {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, x)
			}
			if !sameFloats(arr.Data, want) {
				t.Errorf("%q: read %v, NumPy %v (%s)", descr, arr.Data, want, f[1])
			}
		}
	}
}

// npyHeaderOnly returns the k-th file descrScript wrote into dir, or, where
// it wrote none (NumPy refused the spelling), a header with descr and the
// bytes of three float64s.
func npyHeaderOnly(t *testing.T, descr, dir string, k int) []byte {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(k)+".npy")); err == nil {
		return b
	}
	var buf bytes.Buffer
	if err := writeNPYHeader(&buf, descr, []int{3}); err != nil {
		t.Fatal(err)
	}
	buf.Write(make([]byte, 24))
	return buf.Bytes()
}

// halfScript writes x.npy, float16 values of every kind (zeros, the
// smallest subnormal and normal, the largest finite, ±Inf, values that
// float16 rounds), little- and big-endian, and prints them as float64,
// one per line.
const halfScript = `
import os, sys
import numpy as np
d = sys.argv[1]
x = np.array([0.0, -0.0, 1.0, -2.5, 0.1, 1/3, 2**-24, 2**-14, 65504.0, np.inf, -np.inf, 1e-6, 3.14159, -7e4], dtype=np.float16)
np.save(os.path.join(d, 'le.npy'), x.astype('<f2'))
np.save(os.path.join(d, 'be.npy'), x.astype('>f2').reshape(2, 7))
for v in x.astype(np.float64):
    print(repr(float(v)))
`

// TestNumPyHalf: a float16 .npy (np.save of half-precision embeddings),
// little- or big-endian, is read exactly as NumPy's astype(float64) gives
// its values: subnormals, the largest finite value, ±Inf and signed zeros
// included. It skips without NumPy.
func TestNumPyHalf(t *testing.T) {
	python := peertest.PythonWith(t, "numpy")
	dir := t.TempDir()
	out, err := exec.Command(python, "-W", "ignore", "-c", halfScript, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	var want []float64
	for _, v := range strings.Fields(string(out)) {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, x)
	}
	for _, name := range []string{"le.npy", "be.npy"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		arr, err := DecodeNPY(f, name)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !sameFloats(arr.Data, want) {
			t.Errorf("%s: read %v, NumPy %v", name, arr.Data, want)
		}
		for k, v := range arr.Data {
			if math.Signbit(v) != math.Signbit(want[k]) {
				t.Errorf("%s: element %d: %v, NumPy %v (sign)", name, k, v, want[k])
			}
		}
	}
}
