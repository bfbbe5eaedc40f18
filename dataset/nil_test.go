package dataset

import (
	"bytes"
	"testing"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/sparse"
	"gonum.org/v1/gonum/mat"
)

// TestNilArguments: the functions and methods with an error result return
// one, rather than panicking, for a nil pointer in an io.Reader or
// io.Writer (a nil *bytes.Buffer), and for a nil or zero *NPYRowWriter or
// *Folder; a nil or zero Folder's other methods report no rows, classes or
// features, and a zero FeatureRows none.
func TestNilArguments(t *testing.T) {
	var buf *bytes.Buffer
	var rw *NPYRowWriter
	var f *Folder
	one := mat.NewDense(1, 1, []float64{1})
	for _, c := range []struct {
		name, want string
		f          func() error
	}{
		{"WriteNPY, nil *bytes.Buffer", "no writer", func() error { return WriteNPY(buf, one) }},
		{"WriteNPYInts, nil *bytes.Buffer", "no writer", func() error { return WriteNPYInts(buf, []int{1}) }},
		{"WriteNPYHeader, nil *bytes.Buffer", "no writer", func() error { return WriteNPYHeader(buf, "<f4", []int{1}) }},
		{"NewNPYRowWriter, nil *bytes.Buffer", "no writer", func() error { _, err := NewNPYRowWriter(buf, 1, 1); return err }},
		{"WriteSVMLight, nil *bytes.Buffer", "no writer", func() error { return WriteSVMLight(buf, &sparse.CSR{Ptr: []int{0}}, nil) }},
		{"DecodeNPY, nil *bytes.Buffer", "no reader", func() error { _, err := DecodeNPY(buf, "x.npy"); return err }},
		{"DecodeMatrix, nil *bytes.Buffer", "no reader", func() error { _, err := DecodeMatrix(buf, "x.csv"); return err }},
		{"DecodeCSV, nil *bytes.Buffer", "no reader", func() error { _, err := DecodeCSV(buf, "x.csv"); return err }},
		{"DecodeSVMLight, nil *bytes.Buffer", "no reader", func() error { _, _, err := DecodeSVMLight(buf, "x.svm", 0); return err }},
		{"DecodeClassesHeader, nil *bytes.Buffer", "no reader", func() error { _, err := DecodeClassesHeader(buf, "y.txt", HeaderRule(0)); return err }},
		{"NPYRowWriter.WriteRow, nil", "not made by NewNPYRowWriter", func() error { return rw.WriteRow([]float32{1}) }},
		{"NPYRowWriter.Close, nil", "not made by NewNPYRowWriter", func() error { return rw.Close() }},
		{"NPYRowWriter.Close, zero", "not made by NewNPYRowWriter", func() error { return (&NPYRowWriter{}).Close() }},
		{"Folder.ClassIndex, nil", "nil *Folder", func() error { _, err := f.ClassIndex("a"); return err }},
		{"Folder.ReadRows, nil", "nil *Folder", func() error { _, err := f.ReadRows([]int{0}); return err }},
		{"Folder.ReadRows, zero", "row 0 out of range [0, 0)", func() error { _, err := (&Folder{}).ReadRows([]int{0}); return err }},
	} {
		errtest.Refuses(t, c.name, c.want, c.f)
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("a nil or zero Folder's or FeatureRows' methods panic: %v", r)
			}
		}()
		for _, f := range []*Folder{nil, {}} {
			if r, c := f.Dims(); r != 0 || c != 0 {
				t.Errorf("Dims of %#v = %d, %d", f, r, c)
			}
			if n := f.ClassCounts(); len(n) != 0 || f.FeaturesHash() != nil || f.Close() != nil {
				t.Errorf("%#v: ClassCounts %v, FeaturesHash %v, Close %v", f, n, f.FeaturesHash(), f.Close())
			}
		}
		var nilRows *FeatureRows
		if nilRows.Len() != 0 || (&FeatureRows{}).Len() != 0 {
			t.Error("a nil or zero FeatureRows has rows")
		}
	}()
	defer func() {
		if r, ok := recover().(string); !ok || r != "dataset: class 0 out of range [0, 0)" {
			t.Errorf("Rows of a nil Folder: panic %v, want the out-of-range message", r)
		}
	}()
	f.Rows(0)
}
