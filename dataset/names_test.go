package dataset

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMatrixNames checks that the matrix readers return the column names
// of a text header, in order, and none for a file without a header, for
// pandas' range header 0, 1, …, n−1 (which names no column) and for .npy.
func TestMatrixNames(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"header", "b,a,c\n1,2,3\n4,5,6\n", []string{"b", "a", "c"}},
		{"quoted", "\"x 1\", \"y,2\",z\n1,2,3\n", []string{"x 1", "y,2", "z"}},
		{"tabs", "a\tb\n1\t2\n", []string{"a", "b"}},
		{"blanks", "# comment\na b\n1 2\n", []string{"a", "b"}},
		{"bom", "\ufeffa,b\n1,2\n", []string{"a", "b"}},
		{"an empty name", "a,,c\n1,2,3\n", []string{"a", "", "c"}},
		{"no header", "1,2,3\n4,5,6\n", nil},
		{"range header", "0,1,2\n1,2,3\n4,5,6\n", nil},
	}
	for _, tc := range tests {
		hdr := MatrixHeader{Names: []string{"stale"}}
		X, err := DecodeMatrixNames(strings.NewReader(tc.in), "x.csv", HeaderAuto, &hdr)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		names := hdr.Names
		if !slices.Equal(names, tc.want) || (names == nil) != (tc.want == nil) {
			t.Errorf("%s: names %q, want %q", tc.name, names, tc.want)
		}
		if _, c := X.Dims(); tc.want != nil && c != len(tc.want) {
			t.Errorf("%s: %d columns for %d names", tc.name, c, len(tc.want))
		}
	}

	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("p,q\n1,2\n"))
	zw.Close()
	files := map[string][]byte{"h.csv": []byte("p,q\n1,2\n"), "h.csv.gz": gz.Bytes(), "n.csv": []byte("1,2\n")}
	for f, b := range files {
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := WriteNPY(&buf, mat.NewDense(1, 2, []float64{1, 2})); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.npy"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string][]string{"h.csv": {"p", "q"}, "h.csv.gz": {"p", "q"}, "n.csv": nil, "x.npy": nil} {
		hdr := MatrixHeader{Names: []string{"stale"}}
		if _, err := ReadMatrixNames(filepath.Join(dir, f), HeaderAuto, &hdr); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		names := hdr.Names
		if !slices.Equal(names, want) || (names == nil) != (want == nil) {
			t.Errorf("%s: names %q, want %q", f, names, want)
		}
	}
	// ReadMatrix and DecodeMatrix are unchanged: a nil names is allowed.
	if _, err := ReadMatrixNames(filepath.Join(dir, "h.csv"), HeaderAuto, nil); err != nil {
		t.Error(err)
	}
}
