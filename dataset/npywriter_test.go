package dataset

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestNPYRowWriterRoundTrip(t *testing.T) {
	rows := [][]float32{{1, -2.5, 3e-7}, {0, float32(math.Pi), -1e30}}
	var buf bytes.Buffer
	w, err := NewNPYRowWriter(&buf, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.WriteRow(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := DecodeNPY(&buf, "x.npy")
	if err != nil {
		t.Fatal(err)
	}
	if a.Descr != "<f4" || len(a.Shape) != 2 || a.Shape[0] != 2 || a.Shape[1] != 3 {
		t.Fatalf("dtype %s shape %v, want <f4 (2, 3)", a.Descr, a.Shape)
	}
	for i, r := range rows {
		for j, v := range r {
			if a.Data[i*3+j] != float64(v) {
				t.Errorf("(%d, %d) = %v, want %v", i, j, a.Data[i*3+j], v)
			}
		}
	}
}

func TestNPYRowWriterErrors(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(-1))
	tests := []struct {
		name  string
		rows  [][]float32
		close bool
		want  string
	}{
		{"short row", [][]float32{{1}}, false, "row 0 has 1 values, want 2"},
		{"NaN", [][]float32{{1, 2}, {3, nan}}, false, "row 1 column 1 is NaN"},
		{"infinity", [][]float32{{inf, 2}}, false, "row 0 column 0 is -Inf"},
		{"extra row", [][]float32{{1, 2}, {3, 4}, {5, 6}}, false, "row 2 is one more than the 2 rows announced"},
		{"missing row", [][]float32{{1, 2}}, true, "1 rows written of the 2 announced"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := NewNPYRowWriter(&bytes.Buffer{}, 2, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range tt.rows {
				if err = w.WriteRow(r); err != nil {
					break
				}
			}
			if err == nil && tt.close {
				err = w.Close()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := NewNPYRowWriter(&bytes.Buffer{}, -1, 2); err == nil {
		t.Error("negative shape accepted")
	}
}
