package dataset

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/greedytl/greedytl/internal/bom"
)

// utf16Text returns s in UTF-16 of byte order order with its byte order
// mark, as Windows Notepad and Excel save "Unicode" text.
func utf16Text(s string, order binary.AppendByteOrder) []byte {
	b := order.AppendUint16(nil, 0xfeff)
	for _, u := range utf16.Encode([]rune(s)) {
		b = order.AppendUint16(b, u)
	}
	return b
}

// TestUTF16Text: every text reader (matrices, labels, svmlight, a
// folder's names, standard input, gzip-compressed too) refuses UTF-16 text
// of either byte order, naming the file and saying to save it as UTF-8,
// where it failed on its second line or took "\xff\xfe1\x00" for a label.
func TestUTF16Text(t *testing.T) {
	want := func(path string) string { return path + ": " + bom.ErrUTF16.Error() }
	for _, order := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
		t.Run(order.String(), func(t *testing.T) {
			matrix := utf16Text("a,b\r\n1,2\r\n3,4\r\n", order)
			labels := utf16Text("1\r\n-1\r\n1\r\n", order)
			for _, tc := range []struct {
				name string
				file []byte
				read func(path string) error
			}{
				{"x.csv", matrix, func(p string) error { _, err := ReadMatrix(p); return err }},
				{"x.csv.gz", gzipped(matrix), func(p string) error { _, err := ReadMatrix(p); return err }},
				{"y.txt", labels, func(p string) error { _, err := ReadLabels(p, ""); return err }},
				{"y.txt", labels, func(p string) error { _, err := ReadClasses(p); return err }},
				{"y.txt", labels, func(p string) error { _, err := ReadLabelValues(p); return err }},
				{"x.svm", utf16Text("1 1:0.5\r\n-1 2:1\r\n", order), func(p string) error { _, _, err := ReadSVMLight(p); return err }},
			} {
				path := writeFile(t, tc.name, tc.file)
				checkError(t, nil, tc.read(path), want(path))
			}
			for _, tc := range []struct {
				name string
				read func() error
			}{
				{"DecodeMatrix", func() error { _, err := DecodeMatrix(bytes.NewReader(matrix), "<stdin>"); return err }},
				{"DecodeCSV", func() error { _, err := DecodeCSV(bytes.NewReader(gzipped(matrix)), "<stdin>"); return err }},
				{"DecodeClassesHeader", func() error {
					_, err := DecodeClassesHeader(bytes.NewReader(labels), "<stdin>", HeaderNo)
					return err
				}},
				{"DecodeSVMLight", func() error {
					_, _, err := DecodeSVMLight(bytes.NewReader(utf16Text("1 1:1\n", order)), "<stdin>", 0)
					return err
				}},
			} {
				checkError(t, nil, tc.read(), want("<stdin>"))
			}
			files := folderFiles(t)
			files["classes.txt"] = utf16Text("cup\r\nduck\r\ncar\r\n", order)
			dir := writeFolder(t, files)
			_, err := LoadFolder(dir)
			checkError(t, nil, err, want(filepath.Join(dir, "classes.txt")))
		})
	}
	// UTF-8 with its mark is still read.
	if m, err := DecodeCSV(strings.NewReader(bom.Mark+"1,2\n"), "x.csv"); err != nil || m.At(0, 1) != 2 {
		t.Errorf("UTF-8 with a byte order mark: %v", err)
	}
}
