package dataset

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// writeFolderFiles writes a dataset folder whose features.npy holds raw.
func writeFolderFiles(t *testing.T, raw []byte, labels []int, classes string) string {
	t.Helper()
	dir := t.TempDir()
	var lb bytes.Buffer
	if err := WriteNPYInts(&lb, labels); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"features.npy": raw, "labels.npy": lb.Bytes(), "classes.txt": []byte(classes)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func float32NPY(t *testing.T, rows [][]float32) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := NewNPYRowWriter(&b, len(rows), len(rows[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.WriteRow(r); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// TestOpenFolderReadsRowsLikeLoadFolder: for float32, float64 and integer
// files, plain and gzip-compressed, the rows OpenFolder reads equal
// LoadFolder's X, for any selection of rows (repeats, runs, gaps).
func TestOpenFolderReadsRowsLikeLoadFolder(t *testing.T) {
	rows32 := make([][]float32, 9)
	for i := range rows32 {
		rows32[i] = []float32{float32(i) + 0.1, -float32(i) / 3, float32(math.Pi) * float32(i)}
	}
	x64 := mat.NewDense(9, 3, nil)
	for i := range 9 {
		for j := range 3 {
			x64.Set(i, j, float64(rows32[i][j])+1e-12*float64(i))
		}
	}
	var f64 bytes.Buffer
	if err := WriteNPY(&f64, x64); err != nil {
		t.Fatal(err)
	}
	ints := []byte(npyMagic + "\x01\x00")
	dict := "{'descr': '>i2', 'fortran_order': False, 'shape': (9, 3), }"
	ints = append(ints, byte(len(dict)+1), 0)
	ints = append(ints, dict+"\n"...)
	for i := range 27 {
		ints = append(ints, 0, byte(i*7))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(float32NPY(t, rows32))
	zw.Close()

	labels := []int{0, 1, 0, 1, 0, 1, 0, 1, 0}
	for _, tt := range []struct {
		name   string
		raw    []byte
		lazy   bool // read on demand
		single bool // float32 rows
	}{
		{"float32", float32NPY(t, rows32), true, true},
		{"float64", f64.Bytes(), true, false},
		{"int16 big-endian", ints, true, false},
		{"gzip", gz.Bytes(), false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFolderFiles(t, tt.raw, labels, "a\nb\n")
			eager, err := LoadFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			f, err := OpenFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if (f.X == nil) != tt.lazy {
				t.Errorf("X loaded: %v, want read on demand: %v", f.X != nil, tt.lazy)
			}
			if r, c := f.Dims(); r != 9 || c != 3 {
				t.Fatalf("Dims %d × %d", r, c)
			}
			for _, sel := range [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8}, {8, 0, 3, 3, 4, 5, 1}, {2}, {}} {
				b, err := f.ReadRows(sel)
				if err != nil {
					t.Fatal(err)
				}
				if (b.F32 != nil) != tt.single || b.Len() != len(sel) {
					t.Fatalf("rows float32 %v, %d rows: want float32 %v, %d rows", b.F32 != nil, b.Len(), tt.single, len(sel))
				}
				row := make([]float64, 3)
				for k, i := range sel {
					b.RowTo(row, k)
					if !slices.Equal(row, eager.X.RawRowView(i)) {
						t.Errorf("rows %v: row %d = %v, want %v", sel, i, row, eager.X.RawRowView(i))
					}
				}
			}
			if _, err := f.ReadRows([]int{9}); err == nil || !strings.Contains(err.Error(), "row 9 out of range") {
				t.Errorf("row 9: error %v", err)
			}
		})
	}
}

// TestOpenFolderErrors: OpenFolder rejects what LoadFolder rejects, with the
// same messages.
func TestOpenFolderErrors(t *testing.T) {
	nan := float32NPY(t, [][]float32{{1, 2}, {3, 4}, {5, 6}})
	// Overwrite row 2, column 1 with a NaN.
	copy(nan[len(nan)-4:], []byte{0, 0, 0xc0, 0x7f})
	trunc := float32NPY(t, [][]float32{{1, 2}, {3, 4}})
	big := npyFile(1, dict("<i8", false, "(2, 2)"), encode(binary.LittleEndian, []int64{1, 2, 3, 1<<60 + 1}))
	for _, tt := range []struct {
		name   string
		raw    []byte
		labels []int
		want   string
	}{
		{"NaN", nan, []int{0, 1, 0}, "features.npy: row 2 column 1 is NaN"},
		{"truncated", trunc[:len(trunc)-3], []int{0, 1}, "truncated"},
		{"integer beyond 2⁵³", big, []int{0, 1}, "features.npy: row 1 column 1: integer 1152921504606846977 is beyond 2⁵³"},
		{"labels", trunc, []int{0, 1, 0}, "labels.npy has 3 labels but features.npy has 2 rows"},
		{"label range", trunc, []int{0, 2}, "label 2 out of range"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFolderFiles(t, tt.raw, tt.labels, "a\nb\n")
			_, lerr := LoadFolder(dir)
			_, oerr := OpenFolder(dir)
			if oerr == nil || !strings.Contains(oerr.Error(), tt.want) {
				t.Errorf("OpenFolder: %v, want %q", oerr, tt.want)
			}
			if lerr == nil || lerr.Error() != oerr.Error() {
				t.Errorf("LoadFolder: %v, OpenFolder: %v: want the same error", lerr, oerr)
			}
		})
	}
}

func TestRowSet(t *testing.T) {
	set, index := RowSet([]int{5, 1, 9}, []int{1, 3}, nil)
	if !slices.Equal(set, []int{1, 3, 5, 9}) || len(index) != 4 || index[9] != 3 || index[1] != 0 {
		t.Errorf("RowSet = %v, %v", set, index)
	}
}

// TestFeaturesHash checks the hash OpenFolder computes while it checks the
// features against SHA-256 written the shape and float64 bits directly, for
// a file the check pass reads in several chunks; LoadFolder computes none.
func TestFeaturesHash(t *testing.T) {
	const rows, cols = 1200, 1024 // 4.9 MB of float32: two read chunks
	data := make([][]float32, rows)
	want := sha256.New()
	var b []byte
	b = binary.LittleEndian.AppendUint64(b, rows)
	b = binary.LittleEndian.AppendUint64(b, cols)
	for i := range data {
		data[i] = make([]float32, cols)
		for j := range data[i] {
			data[i][j] = float32(i) - float32(j)/7
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(data[i][j])))
		}
	}
	want.Write(b)
	dir := writeFolderFiles(t, float32NPY(t, data), make([]int, rows), "a\n")
	f, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := f.FeaturesHash()
	if h == nil {
		t.Fatal("FeaturesHash of a folder opened with OpenFolder is nil")
	}
	if got := h.Sum(nil); !bytes.Equal(got, want.Sum(nil)) {
		t.Fatalf("FeaturesHash = %x, want %x", got, want.Sum(nil))
	}
	g, err := LoadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.FeaturesHash() != nil {
		t.Fatal("FeaturesHash of a folder read with LoadFolder is not nil")
	}
}
