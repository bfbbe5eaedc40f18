package dataset

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDecodeMatrixRows checks that DecodeMatrixRows gives a stream
// (standard input) in blocks of at most block rows as its rows come — text,
// gzip-compressed text, .npy in C order, compressed or not — the blocks,
// joined, the matrix DecodeMatrixNames reads, and that a stream it refuses
// (a bad line or a NaN after the first block, a truncated array, a header
// that cannot be told from data) fails with DecodeMatrixNames's error. A
// .npy array in Fortran order, whose first row comes with its last
// column, is given whole in one call, as from a pipe. Standard input was
// read only whole (DecodeMatrixNames), holding all of it.
func TestDecodeMatrixRows(t *testing.T) {
	const r, c = 25, 3
	f64 := make([]float64, r*c)
	var text strings.Builder
	text.WriteString("a,b,c\n")
	for k := range f64 {
		f64[k] = float64(k%7) - 2.5/float64(k+1)
		fmt.Fprintf(&text, "%g", f64[k])
		if k%c == c-1 {
			text.WriteString("\n")
		} else {
			text.WriteString(",")
		}
	}
	nan := slices.Clone(f64)
	nan[17*c+2] = math.NaN()
	shape := fmt.Sprintf("(%d, %d)", r, c)
	gzipped := func(b []byte) []byte {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(b)
		zw.Close()
		return gz.Bytes()
	}
	streams := []struct {
		name    string
		b       []byte
		blocked bool // given in blocks of at most block rows
	}{
		{"text", []byte(text.String()), true},
		{"gzip text", gzipped([]byte(text.String())), true},
		{"bad last line", []byte(text.String() + "1,x,2\n"), true},
		{"ambiguous header", []byte("1,2,3\n0.5,1.5,2.5\n"), true},
		{"npy", npyFile(1, dict("<f8", false, shape), encode(le, f64)), true},
		{"gzip npy", gzipped(npyFile(1, dict("<f8", false, shape), encode(le, f64))), true},
		{"npy nan", npyFile(1, dict("<f8", false, shape), encode(le, nan)), true},
		{"npy short", npyFile(1, dict("<f8", false, shape), encode(le, f64[:10])), true},
		{"npy after", append(npyFile(1, dict("<f8", false, shape), encode(le, f64)), "more"...), true},
		{"fortran npy", npyFile(1, dict("<f8", true, shape), encode(le, f64)), false},
		{"vector npy", npyFile(1, dict("<f8", false, fmt.Sprintf("(%d,)", r*c)), encode(le, f64)), false},
	}
	for _, s := range streams {
		var wantHdr MatrixHeader
		want, wantErr := DecodeMatrixNames(bytes.NewReader(s.b), "<stdin>", HeaderAuto, &wantHdr)
		for _, block := range []int{2, 7, 1000} {
			var got []float64
			var hdr MatrixHeader
			rows, calls := 0, 0
			err := DecodeMatrixRows(bytes.NewReader(s.b), "<stdin>", HeaderAuto, &hdr, block, func(b *mat.Dense) error {
				br, _ := b.Dims()
				calls++
				rows += br
				if s.blocked && br > block {
					t.Errorf("%s block %d: a block of %d rows", s.name, block, br)
				}
				got = append(got, b.RawMatrix().Data...)
				return nil
			})
			if wantErr != nil {
				if err == nil || err.Error() != wantErr.Error() {
					t.Errorf("%s block %d: error %v, want %v", s.name, block, err, wantErr)
				}
				continue
			}
			wr, _ := want.Dims()
			if err != nil || rows != wr || !slices.Equal(got, want.RawMatrix().Data) || !reflect.DeepEqual(hdr, wantHdr) {
				t.Errorf("%s block %d: %d rows %v header %+v, %v; want %d rows %v header %+v", s.name, block, rows, got, hdr, err, wr, want.RawMatrix().Data, wantHdr)
			}
			wantCalls := 1
			if s.blocked {
				wantCalls = (wr + block - 1) / block
			}
			if calls != wantCalls {
				t.Errorf("%s block %d: %d blocks, want %d", s.name, block, calls, wantCalls)
			}
		}
	}
	if err := DecodeMatrixRows(strings.NewReader("1\n"), "<stdin>", HeaderAuto, nil, 1, func(*mat.Dense) error { return nil }); err == nil {
		t.Error("block 1: no error")
	}
}
