package dataset

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The readers name the first line (MatrixHeader.RangeLine, RangeCols)
// exactly when DecodeCSV's auto rule dropped it as pandas' column names:
// the rows read are one fewer than the content lines then, and as many
// otherwise. ReadMatrixNames, ScanMatrixRows (in blocks of 2, the line
// named before the first block reaches fn, and whole), DecodeMatrixNames
// and DecodeMatrixRows (standard input, gzip-compressed too) say the same.
func TestRangeHeaderLine(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range []struct {
		text       string
		line, n    int
		rows, cols int
	}{
		{"0,1,2\n1,0,1\n0,0,1\n", 1, 3, 2, 3},
		{"# made by hand\n\n0\t1\t2\t3\n5\t6\t7\t8\n", 3, 4, 1, 4},
		{"sep=;\n0;1;2\n1;0;1\n", 0, 0, 2, 3}, // pandas writes no ';'
		{"sep=,\n0,1,2\n1,0,1\n", 2, 3, 1, 3},
		{"\"0\",\"1\",\"2\"\n1,0,1\n", 1, 3, 1, 3},
		{"0,1,2\n", 0, 0, 1, 3},        // alone: a row
		{"0,1\n1,0\n", 0, 0, 2, 2},     // two columns: data
		{"0 1 2\n1 0 1\n", 0, 0, 2, 3}, // blanks: data
		{"1,2,3\n1,0,1\n", 0, 0, 2, 3}, // not 0, 1, …
		{"a,b,c\n1,0,1\n", 0, 0, 1, 3}, // a header of names: not this one
		{"0,1,3\n1,0,1\n", 0, 0, 2, 3}, // not a range
		{"1,0,1\n0,1,2\n", 0, 0, 2, 3}, // a range below the first line
		{"0,1,2,3,4\n1,0,1,0,1\n2,2,2,2,2\n3,3,3,3,3\n", 1, 5, 3, 5},
	} {
		want := MatrixHeader{RangeLine: tc.line, RangeCols: tc.n}
		if tc.text[0] == 'a' {
			want.Names = []string{"a", "b", "c"}
		}
		path := filepath.Join(dir, "x.csv")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		check := func(how string, A *mat.Dense, hdr MatrixHeader, err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("%d: %q: %s: %v", i, tc.text, how, err)
			}
			if r, c := A.Dims(); r != tc.rows || c != tc.cols {
				t.Errorf("%d: %q: %s read %d×%d, want %d×%d", i, tc.text, how, r, c, tc.rows, tc.cols)
			}
			if hdr.RangeLine != want.RangeLine || hdr.RangeCols != want.RangeCols || strings.Join(hdr.Names, "|") != strings.Join(want.Names, "|") {
				t.Errorf("%d: %q: %s: header %+v, want %+v", i, tc.text, how, hdr, want)
			}
		}
		// scan reads in blocks, checking that a dropped line is named
		// before the first block is given.
		scan := func(read func(*MatrixHeader, int, func(*mat.Dense) error) error, block int) (*mat.Dense, MatrixHeader, error) {
			var hdr MatrixHeader
			var data []float64
			r, c := 0, 0
			err := read(&hdr, block, func(b *mat.Dense) error {
				if r == 0 && hdr.RangeLine != tc.line {
					t.Errorf("%d: %q: block %d: the first block given before the line was named (%+v)", i, tc.text, block, hdr)
				}
				br, bc := b.Dims()
				r, c = r+br, bc
				data = append(data, b.RawMatrix().Data...)
				return nil
			})
			if err != nil {
				return nil, hdr, err
			}
			return mat.NewDense(r, c, data), hdr, nil
		}
		hdr := MatrixHeader{Names: []string{"stale"}, RangeLine: 9, RangeCols: 9}
		A, err := ReadMatrixNames(path, HeaderAuto, &hdr)
		check("ReadMatrixNames", A, hdr, err)
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(tc.text))
		zw.Close()
		for _, stream := range []struct {
			name string
			b    []byte
		}{{"stdin", []byte(tc.text)}, {"gzip stdin", gz.Bytes()}} {
			A, err := DecodeMatrixNames(bytes.NewReader(stream.b), "<stdin>", HeaderAuto, &hdr)
			check("DecodeMatrixNames of "+stream.name, A, hdr, err)
			for _, block := range []int{2, 1000} {
				A, hdr, err := scan(func(hdr *MatrixHeader, block int, fn func(*mat.Dense) error) error {
					return DecodeMatrixRows(bytes.NewReader(stream.b), "<stdin>", HeaderAuto, hdr, block, fn)
				}, block)
				check("DecodeMatrixRows of "+stream.name, A, hdr, err)
			}
		}
		for _, block := range []int{2, 1000} {
			A, hdr, err := scan(func(hdr *MatrixHeader, block int, fn func(*mat.Dense) error) error {
				return ScanMatrixRows(path, HeaderAuto, hdr, block, fn)
			}, block)
			check("ScanMatrixRows", A, hdr, err)
		}
		// --features-header no and yes drop no line as pandas' names.
		for _, h := range []HeaderRule{HeaderNo, HeaderYes} {
			if _, err := ReadMatrixNames(path, h, &hdr); err == nil && (hdr.RangeLine != 0 || hdr.RangeCols != 0) {
				t.Errorf("%d: %q, %v: header %+v, want no range line", i, tc.text, h, hdr)
			}
		}
	}
}
