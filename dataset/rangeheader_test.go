package dataset

import (
	"os"
	"path/filepath"
	"testing"
)

// RangeHeaderLine names the first line exactly when DecodeCSV's auto rule
// dropped it as pandas' column names: the rows read are one fewer than
// the content lines then, and as many otherwise.
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
	} {
		path := filepath.Join(dir, "x.csv")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		A, err := ReadMatrix(path)
		if err != nil {
			t.Fatalf("%d: %q: %v", i, tc.text, err)
		}
		if r, c := A.Dims(); r != tc.rows || c != tc.cols {
			t.Errorf("%d: %q read as %d×%d, want %d×%d", i, tc.text, r, c, tc.rows, tc.cols)
		}
		if line, n := RangeHeaderLine(path); line != tc.line || n != tc.n {
			t.Errorf("%d: RangeHeaderLine(%q) = %d, %d; want %d, %d", i, tc.text, line, n, tc.line, tc.n)
		}
	}
	if line, n := RangeHeaderLine(filepath.Join(dir, "none.csv")); line != 0 || n != 0 {
		t.Errorf("a missing file: %d, %d", line, n)
	}
}
