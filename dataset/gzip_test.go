package dataset

import (
	"bytes"
	"os/exec"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
	"gonum.org/v1/gonum/mat"
)

// gzipForms are gzip-compressed forms of content: the zero padding a tape
// block or dd conv=sync leaves after a gzip stream (4 bytes: Go's reader
// took them for a truncated member; 20: for a bad header), and a file cut
// in two and each half gzipped, concatenated (cat a.gz b.gz), with zeros
// between them, all of which gzip -d and Python's gzip module read as
// content.
func gzipForms(content []byte) map[string][]byte {
	half := len(content) / 2
	return map[string][]byte{
		"4 zeros after":  append(gzipped(content), make([]byte, 4)...),
		"20 zeros after": append(gzipped(content), make([]byte, 20)...),
		"two members":    slices.Concat(gzipped(content[:half]), make([]byte, 3), gzipped(content[half:]), make([]byte, 1)),
	}
}

// TestGzipPaddingAndMembers: gzip input padded with zeros, or of several
// members with zeros between them, is read as the content it decompresses
// to by every reader (matrix, .npy, svmlight, labels), as gzip -d and
// Python's gzip module (np.loadtxt, pandas, load_svmlight_file) read it;
// it was refused as "unexpected end of compressed data" or "gzip: invalid
// header" at the line after the last. Bytes after a stream that are neither
// zeros nor another gzip stream are refused as such (they said the data
// was truncated).
func TestGzipPaddingAndMembers(t *testing.T) {
	csv := []byte("1.5,2\n3,4.25\n-1,0\n")
	svm := []byte("+1 1:0.5 3:2\n-1 2:1\n+1 1:-1\n")
	labels := []byte("cat\ndog\ncat\ndog\n")
	var npy bytes.Buffer
	if err := WriteNPY(&npy, mat.NewDense(3, 2, []float64{1.5, 2, 3, 4.25, -1, 0})); err != nil {
		t.Fatal(err)
	}
	wantX := mat.NewDense(3, 2, []float64{1.5, 2, 3, 4.25, -1, 0})
	for form, content := range gzipForms(csv) {
		m, err := ReadMatrix(writeFile(t, "x.csv.gz", content))
		if err != nil || !mat.Equal(m, wantX) {
			t.Errorf("CSV, %s: %v (read %v)", form, err, m)
		}
	}
	for form, content := range gzipForms(npy.Bytes()) {
		m, err := ReadMatrix(writeFile(t, "x.npy.gz", content))
		if err != nil || !mat.Equal(m, wantX) {
			t.Errorf(".npy, %s: %v (read %v)", form, err, m)
		}
	}
	for form, content := range gzipForms(svm) {
		x, y, err := ReadSVMLight(writeFile(t, "x.svm.gz", content))
		if err != nil || !slices.Equal(y, []float64{1, -1, 1}) || !slices.Equal(x.Ind, []int{0, 2, 1, 0}) || !slices.Equal(x.Val, []float64{0.5, 2, 1, -1}) {
			t.Errorf("svmlight, %s: %v %v, %v", form, x, y, err)
		}
	}
	for form, content := range gzipForms(labels) {
		got, err := ReadLabelValues(writeFile(t, "y.txt.gz", content))
		if err != nil || !slices.Equal(got, []string{"cat", "dog", "cat", "dog"}) {
			t.Errorf("labels, %s: %q, %v", form, got, err)
		}
	}

	const trailing = "gzip: bytes after the compressed data that are neither another gzip stream nor zero padding"
	for _, after := range []string{"xx", "\x00\x00garbage after the stream", "\x1f"} {
		path := writeFile(t, "x.csv.gz", append(gzipped(csv), after...))
		_, err := ReadMatrix(path)
		checkError(t, nil, err, path+":4: "+trailing)
		path = writeFile(t, "x.npy.gz", append(gzipped(npy.Bytes()), after...))
		_, err = ReadMatrix(path)
		checkError(t, nil, err, path+": "+trailing)
	}
	// A second member cut short is truncated still.
	path := writeFile(t, "x.csv.gz", append(gzipped(csv), gzipped(csv)[:15]...))
	_, err := ReadMatrix(path)
	checkError(t, nil, err, path+":4: unexpected end of compressed data")
}

// TestGzipPaddingPeers: the padded and concatenated files that
// TestGzipPaddingAndMembers reads are what Python's gzip module reads too
// (the same content). It skips without Python (fails under
// GREEDYTL_REQUIRE_PEERS=1).
func TestGzipPaddingPeers(t *testing.T) {
	python := peertest.PythonWith(t, "gzip")
	content := []byte("1.5,2\n3,4.25\n-1,0\n")
	for form, b := range gzipForms(content) {
		path := writeFile(t, "x.csv.gz", b)
		out, err := exec.Command(python, "-c", "import gzip, sys; sys.stdout.buffer.write(gzip.open(sys.argv[1]).read())", path).Output()
		if err != nil || !bytes.Equal(out, content) {
			t.Errorf("%s: Python's gzip read %q, %v", form, out, err)
		}
	}
}

// TestGzipTwice: input gzip-compressed twice (gzip of a .gz) is refused
// by every reader that gunzips (matrix, .npy, svmlight, labels, the
// Decode functions) saying it is compressed twice and to decompress it
// once. The text readers said "binary data, not text: byte 3 is 0 (NUL)",
// the first NUL of a gzip header.
func TestGzipTwice(t *testing.T) {
	var npy bytes.Buffer
	if err := WriteNPY(&npy, mat.NewDense(2, 1, []float64{1, 2})); err != nil {
		t.Fatal(err)
	}
	twice := func(b []byte) []byte { return gzipped(gzipped(b)) }
	csv, svm, labels := twice([]byte("1,2\n3,4\n")), twice([]byte("+1 1:0.5\n-1 2:1\n")), twice([]byte("cat\ndog\n"))
	const want = ": gzip-compressed twice (gunzipped once, it is gzip data again): decompress it once (zcat FILE > FILE-once.gz) and give that"
	for _, tc := range []struct {
		what, file string
		read       func(file string) error
	}{
		{"ReadMatrix CSV", writeFile(t, "x.csv.gz.gz", csv), func(f string) error { _, err := ReadMatrix(f); return err }},
		{"ReadMatrix .npy", writeFile(t, "x.npy.gz.gz", twice(npy.Bytes())), func(f string) error { _, err := ReadMatrix(f); return err }},
		{"ReadNPYMatrix", writeFile(t, "x.npy.gz", twice(npy.Bytes())), func(f string) error { _, err := ReadNPYMatrix(f); return err }},
		{"ReadSVMLight", writeFile(t, "x.svm.gz.gz", svm), func(f string) error { _, _, err := ReadSVMLight(f); return err }},
		{"ReadLabels", writeFile(t, "y.txt.gz.gz", labels), func(f string) error { _, err := ReadLabels(f, ""); return err }},
		{"DecodeMatrix", "<stdin>", func(f string) error { _, err := DecodeMatrix(bytes.NewReader(csv), f); return err }},
		{"DecodeSVMLight", "<stdin>", func(f string) error { _, _, err := DecodeSVMLight(bytes.NewReader(svm), f, 0); return err }},
		{"DecodeNPY", "<stdin>", func(f string) error { _, err := DecodeNPY(bytes.NewReader(twice(npy.Bytes())), f); return err }},
	} {
		if err := tc.read(tc.file); err == nil || err.Error() != tc.file+want {
			t.Errorf("%s: got %v, want %q", tc.what, err, tc.file+want)
		}
	}
}
