package dataset

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDecodeNPYGzip: DecodeNPY reads gzip-compressed input as every other
// reader of the package does (ReadMatrix of a .npy.gz, DecodeMatrix,
// DecodeSVMLight, the label readers): the array it decompresses to, in
// each of the forms gzip -d reads (padded, several members), the same as
// ReadNPYMatrix reads from the file; a damaged stream, bytes after the
// array and bytes after the stream are errors naming the input, as
// ReadNPYMatrix's are. It said "not a .npy file (bad magic bytes)". An
// uncompressed input is still read up to its array's end only
// (TestDecodeNPYStream).
func TestDecodeNPYGzip(t *testing.T) {
	var npy bytes.Buffer
	if err := WriteNPY(&npy, mat.NewDense(3, 2, []float64{1.5, 2, 3, 4.25, -1, 0})); err != nil {
		t.Fatal(err)
	}
	want := []float64{1.5, 2, 3, 4.25, -1, 0}
	forms := gzipForms(npy.Bytes())
	forms["one member"] = gzipped(npy.Bytes())
	for form, content := range forms {
		a, err := DecodeNPY(bytes.NewReader(content), "x.npy.gz")
		if err != nil || !slices.Equal(a.Shape, []int{3, 2}) || !slices.Equal(a.Data, want) {
			t.Errorf("%s: %v, %v", form, a, err)
		}
	}

	// The errors are those of the file's reader, naming the input.
	two := append(slices.Clone(npy.Bytes()), npy.Bytes()...)
	crc := gzipped(npy.Bytes())
	crc[len(crc)-8] ^= 1 // the CRC-32 of the content
	for _, tc := range []struct {
		what    string
		content []byte
	}{
		{"cut short", gzipped(npy.Bytes())[:40]},
		{"bad CRC-32", crc},
		{"bytes after the array", gzipped(two)},
		{"bytes after the stream", append(gzipped(npy.Bytes()), "xx"...)},
		{"text inside", gzipped([]byte("1,2\n3,4\n"))},
		{"empty inside", gzipped(nil)},
	} {
		path := writeFile(t, "in.npy.gz", tc.content)
		_, fileErr := ReadNPYMatrix(path)
		_, err := DecodeNPY(bytes.NewReader(tc.content), "in.npy.gz")
		if err == nil || fileErr == nil {
			t.Errorf("%s: DecodeNPY %v, ReadNPYMatrix %v; want errors", tc.what, err, fileErr)
			continue
		}
		// ReadNPYMatrix names the file by its path; the rest is the same.
		got, ok := strings.CutPrefix(err.Error(), "in.npy.gz")
		if wantMsg, _ := strings.CutPrefix(fileErr.Error(), path); !ok || got != wantMsg {
			t.Errorf("%s: DecodeNPY said %q, the file's reader %q", tc.what, err, fileErr)
		}
	}
}
