package dataset

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestScanMatrixRowsNPY checks that ScanMatrixRows gives a 2-D .npy file
// in blocks of at most block rows — in C order (or of one column),
// Fortran order (read in column strips) and gzip-compressed in C order; it
// gave the whole matrix in one call, and Fortran order and gzip it read
// whole — that the blocks, joined, are the matrix ReadNPYMatrix reads, and
// that a file it refuses (a NaN or an inexact integer after the first
// block, other shapes) fails with its error, naming the file's row or
// element: of a Fortran-order file the first inexact integer in file
// (column) order, though a later column's comes in an earlier block; of a
// gzip stream its end's error (bytes after the array, a damaged checksum)
// before a NaN in its rows, as reading it whole reads to the end before it
// checks the values. A gzip-compressed Fortran-order file is given in
// blocks too (decompressed into a temporary file: scanSpilled), with the
// errors reading it whole gives — an inexact integer before the stream's
// truncation, the stream's end before a NaN — and, when no temporary file
// can be made, read whole (TestScanMatrixRowsNPYNoTemporaryFile).
func TestScanMatrixRowsNPY(t *testing.T) {
	dir := t.TempDir()
	const r, c = 25, 3
	f64 := make([]float64, r*c)
	f32 := make([]float32, r*c)
	i64 := make([]int64, r*c)
	for k := range f64 {
		f64[k] = float64(k%7) - 2.5/float64(k+1)
		f32[k] = float32(f64[k])
		i64[k] = int64(k*k - 40)
	}
	nan := slices.Clone(f64)
	nan[17*c+2] = math.NaN()
	big := slices.Clone(i64)
	big[20*c+1] = 1<<53 + 1
	shape := fmt.Sprintf("(%d, %d)", r, c)
	gzipped := func(b ...[]byte) []byte {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		for _, p := range b {
			zw.Write(p)
		}
		zw.Close()
		return gz.Bytes()
	}
	badCRC := gzipped(npyFile(1, dict("<f8", false, shape), encode(le, nan)))
	badCRC[len(badCRC)-8] ^= 1 // the CRC-32 of the member's content
	fortranCRC := gzipped(npyFile(1, dict("<f8", true, shape), encode(le, f64)))
	fortranCRC[len(fortranCRC)-8] ^= 1
	// Two inexact integers of a Fortran-order file: (row 20, column 0),
	// element 20 in file order, and (row 2, column 1), element 27, which
	// an earlier block of rows holds.
	bigF := slices.Clone(i64)
	bigF[20] = 1<<53 + 1
	bigF[1*r+2] = 1<<53 + 3
	nanF := slices.Clone(f64)
	nanF[2*r+17] = math.NaN() // (row 17, column 2)
	nanF[0*r+20] = math.Inf(1)
	files := []struct {
		name    string
		b       []byte
		blocked bool // given in blocks of at most block rows
	}{
		{"f8.npy", npyFile(1, dict("<f8", false, shape), encode(le, f64)), true},
		{"f4.npy", npyFile(1, dict("<f4", false, shape), encode(le, f32)), true},
		{"f4be.npy", npyFile(1, dict(">f4", false, shape), encode(be, f32)), true},
		{"i8.npy", npyFile(2, dict("<i8", false, shape), encode(le, i64)), true},
		{"column.npy", npyFile(1, dict("<f8", true, fmt.Sprintf("(%d, 1)", r*c)), encode(le, f64)), true},
		{"fortran.npy", npyFile(1, dict("<f8", true, shape), encode(le, f64)), true},
		{"fortran-i8.npy", npyFile(1, dict("<i8", true, shape), encode(le, i64)), true},
		{"fortran-big.npy", npyFile(1, dict("<i8", true, shape), encode(le, bigF)), true},
		{"fortran-nan.npy", npyFile(1, dict("<f8", true, shape), encode(le, nanF)), true},
		{"fortran-short.npy", npyFile(1, dict("<f8", true, shape), encode(le, f64[:10])), false},
		{"nan.npy", npyFile(1, dict("<f8", false, shape), encode(le, nan)), true},
		{"big.npy", npyFile(1, dict("<i8", false, shape), encode(le, big)), true},
		{"vector.npy", npyFile(1, dict("<f8", false, fmt.Sprintf("(%d,)", r*c)), encode(le, f64)), false},
		{"norows.npy", npyFile(1, dict("<f8", false, "(0, 3)"), nil), false},
		{"strings.npy", npyFile(1, dict("<U3", false, "(1, 1)"), make([]byte, 12)), false},
		{"short.npy", npyFile(1, dict("<f8", false, shape), encode(le, f64[:10])), false},
		{"gzip.npy", gzipped(npyFile(1, dict("<f8", false, shape), encode(le, f64))), true},
		{"gzip-i8.npy", gzipped(npyFile(2, dict("<i8", false, shape), encode(le, i64))), true},
		{"gzip-nan.npy", gzipped(npyFile(1, dict("<f8", false, shape), encode(le, nan))), true},
		{"gzip-big.npy", gzipped(npyFile(1, dict("<i8", false, shape), encode(le, big))), true},
		{"gzip-nan-after.npy", gzipped(npyFile(1, dict("<f8", false, shape), encode(le, nan)), []byte("more")), true},
		{"gzip-nan-short.npy", gzipped(npyFile(1, dict("<f8", false, shape), encode(le, nan[:60]))), true},
		{"gzip-nan-crc.npy", badCRC, true},
		{"gzip-fortran.npy", gzipped(npyFile(1, dict("<f8", true, shape), encode(le, f64))), true},
		{"gzip-fortran-i8.npy", gzipped(npyFile(1, dict("<i8", true, shape), encode(le, i64))), true},
		{"gzip-fortran-big.npy", gzipped(npyFile(1, dict("<i8", true, shape), encode(le, bigF))), true},
		{"gzip-fortran-nan.npy", gzipped(npyFile(1, dict("<f8", true, shape), encode(le, nanF))), true},
		{"gzip-fortran-nan-short.npy", gzipped(npyFile(1, dict("<f8", true, shape), encode(le, nanF[:60]))), true},
		{"gzip-fortran-big-short.npy", gzipped(npyFile(1, dict("<i8", true, shape), encode(le, bigF[:60]))), true},
		{"gzip-fortran-nan-after.npy", gzipped(npyFile(1, dict("<f8", true, shape), encode(le, nanF)), []byte("more")), true},
		{"gzip-fortran-nan-crc.npy", fortranCRC, true},
		{"gzip-huge.npy", gzipped(npyFile(1, dict("<f8", false, "(3, 1000000000000)"), encode(le, f64))), true},
		{"sniffed.dat", npyFile(1, dict("<f8", false, shape), encode(le, f64)), true},
	}
	for _, f := range files {
		path := writeNPYFile(t, dir, f.name, f.b)
		want, wantErr := ReadMatrix(path)
		for _, block := range []int{2, 3, 7, 1000} {
			var got []float64
			rows, calls := 0, 0
			err := ScanMatrixRows(path, HeaderAuto, nil, block, func(b *mat.Dense) error {
				br, _ := b.Dims()
				calls++
				rows += br
				if f.blocked && br > block {
					t.Errorf("%s block %d: a block of %d rows", f.name, block, br)
				}
				got = append(got, b.RawMatrix().Data...)
				return nil
			})
			if wantErr != nil {
				if err == nil || err.Error() != wantErr.Error() {
					t.Errorf("%s block %d: error %v, want %v", f.name, block, err, wantErr)
				}
				continue
			}
			wr, _ := want.Dims()
			if err != nil || rows != wr || !slices.Equal(got, want.RawMatrix().Data) {
				t.Errorf("%s block %d: %d rows %v, %v; want %d rows %v", f.name, block, rows, got, err, wr, want.RawMatrix().Data)
			}
			if wantCalls := (wr + block - 1) / block; f.blocked && calls != wantCalls {
				t.Errorf("%s block %d: %d blocks, want %d", f.name, block, calls, wantCalls)
			}
		}
	}
}

// TestScanMatrixRowsNPYNoTemporaryFile checks that ScanMatrixRows gives a
// gzip-compressed Fortran-order .npy file whole, in one call, as
// ReadNPYMatrix reads it (or with its error), when no temporary file can
// be made for it (TMPDIR names no directory): reading it again from its
// start, as the stream it began to decompress is spent.
func TestScanMatrixRowsNPYNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	const r, c = 25, 3
	f64 := make([]float64, r*c)
	for k := range f64 {
		f64[k] = float64(k%7) - 2.5/float64(k+1)
	}
	nan := slices.Clone(f64)
	nan[2*r+17] = math.NaN()
	shape := fmt.Sprintf("(%d, %d)", r, c)
	t.Setenv("TMPDIR", filepath.Join(dir, "none"))
	for _, name := range []string{"gzip-fortran.npy", "gzip-fortran-nan.npy"} {
		vals := f64
		if name == "gzip-fortran-nan.npy" {
			vals = nan
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(npyFile(1, dict("<f8", true, shape), encode(le, vals)))
		zw.Close()
		path := writeNPYFile(t, dir, name, gz.Bytes())
		want, wantErr := ReadMatrix(path)
		var got *mat.Dense
		calls := 0
		err := ScanMatrixRows(path, HeaderAuto, nil, 4, func(b *mat.Dense) error {
			calls++
			got = b
			return nil
		})
		switch {
		case wantErr != nil:
			if err == nil || err.Error() != wantErr.Error() || calls != 0 {
				t.Errorf("%s: error %v after %d calls, want %v", name, err, calls, wantErr)
			}
		case err != nil || calls != 1 || !mat.Equal(got, want):
			t.Errorf("%s: %d calls, error %v, want the whole matrix in one", name, calls, err)
		}
	}
}

// TestScanMatrixRowsNPYSpillUnlinked: the temporary file of a
// gzip-compressed Fortran-order array is unlinked while the blocks are
// read (on systems that allow it), so that a process killed in the middle
// leaves nothing in the temporary directory; and nothing is left after.
func TestScanMatrixRowsNPYSpillUnlinked(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open file cannot be unlinked on Windows")
	}
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	const r, c = 40, 3
	vals := make([]float64, r*c)
	for k := range vals {
		vals[k] = float64(k%11) - 0.25
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(npyFile(1, dict("<f8", true, fmt.Sprintf("(%d, %d)", r, c)), encode(le, vals)))
	zw.Close()
	path := writeNPYFile(t, dir, "gzip-fortran.npy", gz.Bytes())
	calls := 0
	err := ScanMatrixRows(path, HeaderAuto, nil, 8, func(b *mat.Dense) error {
		calls++
		if left, err := os.ReadDir(tmp); err != nil || len(left) != 0 {
			t.Errorf("block %d: the temporary directory holds %d entries (%v), want none", calls, len(left), err)
		}
		return nil
	})
	if err != nil || calls != r/8 {
		t.Fatalf("%d calls, error %v, want %d blocks", calls, err, r/8)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("after the read the temporary directory holds %d entries, want none", len(left))
	}
}
