package number_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/number"
	"github.com/greedytl/greedytl/linear"
)

// readerStrings are numbers as a user file may spell them: digit
// separators (which ParseFloat reads and strtod does not), hex floats,
// signs, the edge of float64's range, NaN and infinities, blanks and a
// trailing point.
var readerStrings = []string{
	"1_0", "1_000.5", "0x1p-2", "0x_1p-2", "0x1.8", "+1", "-2.5", "1.", ".5", "1e308", "1e309", "-1e309",
	"1e-400", "nan", "NaN", "-nan", "Inf", "-Infinity", " 1", "1 ", "10", "abc",
}

// numberReaders are the readers of numbers in user files, each returning
// the number it read from a file holding s in one place, or ok false when
// it refused the file (or, for labels, read s as a name).
var numberReaders = []struct {
	name string
	read func(t *testing.T, s string) (float64, bool)
}{
	{"svmlight value", func(t *testing.T, s string) (float64, bool) {
		x, _, err := dataset.DecodeSVMLight(strings.NewReader("1 1:"+strings.TrimSpace(s)+"\n"), "x.svm", 0)
		if err != nil {
			return 0, false
		}
		return x.Val[0], true
	}},
	{"svmlight label", func(t *testing.T, s string) (float64, bool) {
		_, y, err := dataset.DecodeSVMLight(strings.NewReader(s+" 1:1\n"), "x.svm", 0)
		if err != nil {
			return 0, false
		}
		return y[0], true
	}},
	{"CSV field", func(t *testing.T, s string) (float64, bool) {
		a, err := dataset.DecodeCSV(strings.NewReader("0,"+s+"\n1,2\n"), "x.csv")
		if err != nil {
			return 0, false
		}
		return a.At(0, 1), true
	}},
	{"class label", func(t *testing.T, s string) (float64, bool) {
		c, err := dataset.DecodeClassesHeader(strings.NewReader(s+"\n-3\n"), "y.txt", dataset.HeaderNo)
		if err != nil {
			return 0, false
		}
		// A name when the labels are not numbers (Lookup compares
		// "-3.0" with "-3" by value only when they are): ok false.
		if c.Lookup("-3.0") != c.Y[1] {
			return 0, false
		}
		x, err := strconv.ParseFloat(c.Names[c.Y[0]], 64)
		if err != nil {
			t.Fatalf("class label %q: numeric class name %q: %v", s, c.Names[c.Y[0]], err)
		}
		return x, true
	}},
	{"binary label", func(t *testing.T, s string) (float64, bool) {
		// positive is ParseFloat's reading of s in its shortest form ("10"
		// for "1_0"): it names s's class only when the labels are numbers
		// and s is that number.
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, false
		}
		path := filepath.Join(t.TempDir(), "y.txt")
		// s twice, so that it is not a header above the labels.
		if err := os.WriteFile(path, []byte(s+"\n"+s+"\n-3\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		y, err := dataset.ReadLabels(path, strconv.FormatFloat(x, 'g', -1, 64))
		if err != nil || len(y) != 3 || y[0] != 1 || y[1] != 1 || y[2] != -1 {
			return 0, false
		}
		return x, true
	}},
	{"model file weight", func(t *testing.T, s string) (float64, bool) {
		m, err := linear.ReadModel(strings.NewReader("solver_type L2R_L2LOSS_SVC_DUAL\nnr_class 2\nlabel 1 -1\nnr_feature 1\nbias -1\nw\n" + s + "\n"))
		if err != nil {
			return 0, false
		}
		return m.W[0], true
	}},
	{"model file bias", func(t *testing.T, s string) (float64, bool) {
		// A bias ≥ 0 adds a weight line: give two, and one when the
		// reading is negative.
		for _, w := range []string{"0\n0\n", "0\n"} {
			m, err := linear.ReadModel(strings.NewReader("solver_type L2R_L2LOSS_SVC_DUAL\nnr_class 2\nlabel 1 -1\nnr_feature 1\nbias " + s + "\nw\n" + w))
			if err == nil {
				return m.Bias, true
			}
		}
		return 0, false
	}},
}

// TestReadersAgree: every reader of numbers in user files reads a number
// as number.Parse does (after the blanks its fields drop): the finite
// numbers it takes, bit for bit, and no other (no "1_0" read as 10).
func TestReadersAgree(t *testing.T) {
	for _, r := range numberReaders {
		for _, s := range readerStrings {
			want, err := number.Parse(strings.TrimSpace(s))
			wantOK := err == nil && !math.IsNaN(want) && !math.IsInf(want, 0)
			got, ok := r.read(t, s)
			if ok != wantOK || ok && math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s %q: read %v (ok %v), want number.Parse's %v (ok %v)", r.name, s, got, ok, want, wantOK)
			}
		}
	}
}
