package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestHeaderYesRefusesDecimals: HeaderYes refuses a first line whose every
// value is a number with a point or an exponent — a row of data, which it
// took for column names and dropped, silently — with ErrFirstLineData,
// naming the file and the line; HeaderAuto and HeaderNo read that line as
// a row. A line with one name among decimals, or of integers (pandas'
// integer column names), stays a header under HeaderYes. An index header
// (",a,b") is refused under HeaderYes as under HeaderAuto; under HeaderNo
// its empty first value is the error. ScanMatrixRows reads as
// ReadMatrixNames.
func TestHeaderYesRefusesDecimals(t *testing.T) {
	dir := t.TempDir()
	const data = "a row of decimals read as a header: every value is a number written with a point or an exponent, as data is, not as column names are"
	for _, tc := range []struct {
		text  string
		h     HeaderRule
		rows  int
		names []string
		err   string // the error after the file's name; "" for none
	}{
		{"0.125730,-0.132105,0.640423\n0.1,0.2,0.3\n0.4,0.5,0.6\n", HeaderYes, 0, nil, ":1: " + data},
		{"1e-3,2E5\n1,2\n", HeaderYes, 0, nil, ":1: " + data},
		{"0.5\n1\n2\n", HeaderYes, 0, nil, ":1: " + data},
		{"0.5\t1.5\n1\t2\n", HeaderYes, 0, nil, ":1: " + data},
		{"0.125730,-0.132105,0.640423\n0.1,0.2,0.3\n0.4,0.5,0.6\n", HeaderAuto, 3, nil, ""},
		{"0.125730,-0.132105,0.640423\n0.1,0.2,0.3\n0.4,0.5,0.6\n", HeaderNo, 3, nil, ""},
		{"0.5,b\n1,2\n", HeaderYes, 1, []string{"0.5", "b"}, ""},
		{"3,7,9\n0.5,1.5,2.5\n", HeaderYes, 1, []string{"3", "7", "9"}, ""},
		{",a,b\n1,2,3\n", HeaderYes, 0, nil, ":1: a header with an empty first name"},
		{",a,b\n1,2,3\n", HeaderNo, 0, nil, ":1: column 1: empty value"},
	} {
		path := filepath.Join(dir, "x.csv")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		var hdr, scanHdr MatrixHeader
		A, err := ReadMatrixNames(path, tc.h, &hdr)
		scanned := 0
		serr := ScanMatrixRows(path, tc.h, &scanHdr, 2, func(b *mat.Dense) error { scanned += b.RawMatrix().Rows; return nil })
		names, scanNames := hdr.Names, scanHdr.Names
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), path+tc.err) || errors.Is(err, ErrFirstLineData) != (tc.err == ":1: "+data) {
				t.Errorf("%q, %v: %v; want %q", tc.text, tc.h, err, path+tc.err)
			}
			if serr == nil || err == nil || serr.Error() != err.Error() {
				t.Errorf("%q, %v: ScanMatrixRows: %v; want %v", tc.text, tc.h, serr, err)
			}
			continue
		}
		if err != nil || A.RawMatrix().Rows != tc.rows || !slices.Equal(names, tc.names) {
			t.Errorf("%q, %v: %v, names %q, %v; want %d rows, names %q", tc.text, tc.h, A, names, err, tc.rows, tc.names)
		}
		if serr != nil || scanned != tc.rows || !slices.Equal(scanNames, tc.names) {
			t.Errorf("%q, %v: ScanMatrixRows: %d rows, names %q, %v; want %d, %q", tc.text, tc.h, scanned, scanNames, serr, tc.rows, tc.names)
		}
	}
}
