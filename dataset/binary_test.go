package dataset

import (
	"archive/tar"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
)

// binaryReaders are every reader of text input, each reading the file at
// path, and the readers of standard input; the .npy-only reader is tested
// apart (its message starts "not a .npy file").
var binaryReaders = []struct {
	name string
	read func(path string) error
}{
	{"ReadMatrix", func(p string) error { _, err := ReadMatrix(p); return err }},
	{"ReadLabels", func(p string) error { _, err := ReadLabels(p, ""); return err }},
	{"ReadClasses", func(p string) error { _, err := ReadClasses(p); return err }},
	{"ReadSVMLight", func(p string) error { _, _, err := ReadSVMLight(p); return err }},
	{"DecodeMatrix", func(p string) error {
		b, _ := os.ReadFile(p)
		_, err := DecodeMatrix(bytes.NewReader(b), p)
		return err
	}},
	{"DecodeSVMLight", func(p string) error {
		b, _ := os.ReadFile(p)
		_, _, err := DecodeSVMLight(bytes.NewReader(b), p, 0)
		return err
	}},
}

// TestBinaryInput: a file of a binary format that users have at hand (an
// .npz of np.savez, an Excel workbook, a pickle, a bzip2/xz/zstd file, HDF5,
// a MATLAB .mat, Parquet, raw bytes of tofile, a tar archive or .tar.gz, whose
// NULs were called UTF-16 text) given where text is read is
// refused by what it is, naming the file, where it was read as lines and
// failed on "x.npz:2: expected 5 values as in the header on line 1, got 1"
// or on a label of binary bytes. A .npy array given to a text-only reader
// (train's svmlight, a folder's classes.txt) says so; so does a binary
// file named .npy. Text that merely starts like a magic ("BZh" then a
// newline, as a label file of names may) is still read.
func TestBinaryInput(t *testing.T) {
	zip := "a zip archive (an .npz of np.savez, an Excel .xlsx workbook, a torch.save file, or zipped files such as data.csv.zip): unzip a zipped file (greedytl reads gzip-compressed input), and save an array with np.save (.npy) or as CSV text"
	for _, tc := range []struct {
		name, content, want string
		skip                string // a reader that reads the content (npy)
	}{
		{"x.npz", "PK\x03\x04\x14\x00\x00\x00\x00\x00", zip, ""},
		{"x.pkl", "\x80\x04\x95\x9b\x00\x00\x00\x00\x00\x00\x00\x8c\x15numpy", "a Python pickle (pickle.dump, joblib.dump, pandas' to_pickle): save the array with np.save (.npy) or as CSV text", ""},
		{"x.csv.bz2", "BZh91AY&SY\xf5\x04\x13\x1a\x00\x00", "bzip2-compressed: greedytl reads gzip-compressed input only: decompress it (bunzip2) or compress it with gzip", ""},
		{"x.csv.xz", "\xfd7zXZ\x00\x00\x04\xe6\xd6", "xz-compressed: greedytl reads gzip-compressed input only: decompress it (unxz) or compress it with gzip", ""},
		{"x.csv.zst", "\x28\xb5\x2f\xfd\x24\x2e", "zstd-compressed: greedytl reads gzip-compressed input only: decompress it (unzstd) or compress it with gzip", ""},
		{"x.h5", "\x89HDF\r\n\x1a\n\x00\x00\x00", "an HDF5 file (h5py, pandas' to_hdf, MATLAB -v7.3): save the array with np.save (.npy) or as CSV text", ""},
		{"x.mat", "MATLAB 5.0 MAT-file, Platform: GLNXA64\n\x00\x01IM", "a MATLAB .mat file: save the array as CSV text (writematrix) or, from Python, with np.save (.npy)", ""},
		{"x.parquet", "PAR1\x15\x04\x15\x80\x01\x15\x00", "a Parquet file (pandas' to_parquet): save the table with to_csv(path, index=False) or the array with np.save (.npy)", ""},
		{"x.feather", "ARROW1\x00\x00", "an Arrow/Feather file (pandas' to_feather): save the table with to_csv(path, index=False) or the array with np.save (.npy)", ""},
		{"x.bin", "\x9a\x99\x99\x99\x99\x99\xf1?\x00\x00\x00\x00\x00\x00\x00@", "binary data, not text: byte 8 is 0 (NUL), which text never holds (UTF-16 text without its byte order mark holds them too: save it as UTF-8)", ""},
		{"x.csv", "1\x00,\x002\x00\n\x00", "UTF-16 text without a byte order mark (little-endian: every other byte is 0, as in UTF-16 of ASCII text): save it as UTF-8", ""},
		{"x.csv", "\x001\x00,\x002\x00\n", "UTF-16 text without a byte order mark (big-endian: every other byte is 0, as in UTF-16 of ASCII text): save it as UTF-8", ""},
		{"x.csv", "1\x00\xe9\x00\n\x00", "binary data, not text: byte 1 is 0 (NUL), which text never holds (UTF-16 text without its byte order mark holds them too: save it as UTF-8)", ""},
		{"x.npy", npyMagic + "\x01\x00", "a NumPy .npy array, not text", "npy"},
		{"x.tar", tarred(t, "train.svm", "+1 1:0.5\n-1 2:1\n"), `a tar archive (tar cf; a .tar.gz or .tgz once gunzipped) whose first file is "train.svm": extract it (tar xf FILE) and give the file inside`, ""},
	} {
		for _, gz := range []bool{false, true} {
			content, name := []byte(tc.content), tc.name
			if gz {
				content, name = gzipped(content), name+".gz"
			}
			path := writeFile(t, name, content)
			for _, r := range binaryReaders {
				if tc.skip == "npy" && r.name != "ReadSVMLight" && r.name != "DecodeSVMLight" {
					continue // matrices and labels read .npy
				}
				t.Run(name+"/"+r.name, func(t *testing.T) {
					checkError(t, nil, r.read(path), path+": "+tc.want)
				})
			}
			if tc.skip == "" && !strings.HasPrefix(tc.want, "binary data") {
				// Named .npy, the .npy reader says what it is (of a
				// format it knows: raw bytes stay "bad magic bytes").
				npyPath := writeFile(t, "x.npy", content)
				_, err := ReadNPYMatrix(npyPath)
				checkError(t, nil, err, npyPath+": not a .npy file: "+tc.want)
			}
		}
	}
	// A dataset folder's names and a .npy read as classes.txt.
	files := folderFiles(t)
	files["classes.txt"] = files["labels.npy"]
	dir := writeFolder(t, files)
	_, err := LoadFolder(dir)
	checkError(t, nil, err, filepath.Join(dir, "classes.txt")+": a NumPy .npy array, not text")

	// Text that starts like a printable magic is text, a rune cut at the
	// end of the bytes sniffed too.
	for _, text := range []string{"BZh\nPAR\nBZh\nPAR\n", "BZh9\nPAR1\nBZh9\nPAR1\n", "PAR1\n" + strings.Repeat("é\nPAR1\n", sniffSize/5), "PAR1\n" + strings.Repeat("a", sniffSize-6) + "é\nPAR1\n", "MATLAB 5.0 MAT-file\nARROW1\nMATLAB 5.0 MAT-file\nARROW1\n"} {
		path := writeFile(t, "y.txt", []byte(text))
		if cls, err := ReadClasses(path); err != nil || len(cls.Names) < 2 {
			t.Errorf("labels %.20q: %v", text, err)
		}
		// Named .npy, it is text to the .npy reader too, which sniffs
		// as many bytes (sniffSize).
		npyPath := writeFile(t, "y.npy", []byte(text))
		if _, err := ReadNPYMatrix(npyPath); err == nil || !strings.HasPrefix(err.Error(), npyPath+": not a .npy file: it holds text (it starts ") {
			t.Errorf("text %.20q named .npy: %v", text, err)
		}
	}
	// Windows-1252 text (not UTF-8) that starts like a printable magic but
	// not its format's next bytes is text (review10 found it refused as a
	// .mat file, bzip2): a header's name, and a label, names the encoding.
	if _, err := ReadMatrix(writeFile(t, "x.csv", []byte("MATLAB r\xe9sultat,b\n1,2\n3,4\n"))); err == nil || !strings.Contains(err.Error(), ":1: column 1 is named \"MATLAB r\\xe9sultat\", which is not valid UTF-8") {
		t.Errorf("Windows-1252 header MATLAB r\\xe9sultat: %v, want the UTF-8 message", err)
	}
	for _, text := range []string{"BZh caf\xe9\nth\xe9\nBZh caf\xe9\n", "BZh9 caf\xe9\nth\xe9\n", "PAR1 caf\xe9\nth\xe9\n", "ARROW1 caf\xe9\nth\xe9\n", "MATLAB r\xe9sultat\nth\xe9\n"} {
		_, err := ReadClasses(writeFile(t, "y.txt", []byte(text)))
		if err == nil || !strings.Contains(err.Error(), "is not valid UTF-8") {
			t.Errorf("Windows-1252 labels %.12q: %v, want the UTF-8 message", text, err)
		}
	}
	// A text file whose NUL comes after the bytes sniffed fails on its line.
	long := strings.Repeat("1,2\n", sniffSize/4+1) + "3,\x00\n"
	path := writeFile(t, "late.csv", []byte(long))
	lateLine := strings.Count(long, "\n") // the line of the NUL, the last
	if _, err := ReadMatrix(path); err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d: ", path, lateLine)) || strings.Contains(err.Error(), "binary data") {
		t.Errorf("late NUL: %v, want an error on line %d, not \"binary data\"", err, lateLine)
	}
	if got := notNPY([]byte("1,2\n"), "x.npy").Error(); got != `x.npy: not a .npy file: it holds text (it starts "1,2\n"): save the array with np.save, or give the text a .csv or .txt name` {
		t.Errorf("text named .npy: %q", got)
	}
	if got := notNPY([]byte("\x01\x02"), "x.npy").Error(); got != "x.npy: not a .npy file (bad magic bytes)" {
		t.Errorf("bytes named .npy: %q", got)
	}
}

// tarred returns a tar archive holding one file, name, of the given content,
// as tar cf writes it.
func tarred(t *testing.T, name, content string) string {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTextNamedNPYNotUTF8: text named .npy that is not UTF-8 (a
// Windows-1252 CSV, an accented letter past its first 8 bytes) or holds a
// control byte (a terminal's colour codes) is still called text, with the
// advice to name it .csv, where, the .npy reader sniffing 512 bytes, not 8,
// it became "bad magic bytes"; bytes without NULs that are no text (random
// bytes: compressed data) stay "bad magic bytes", and the formats
// binaryFormats knows are named (TestBinaryInput).
func TestTextNamedNPYNotUTF8(t *testing.T) {
	const advice = "save the array with np.save, or give the text a .csv or .txt name"
	cp1252 := "name,caf\xe9\n" + strings.Repeat("1.5,2.25\n", 60)
	ansi := "\x1b[32m1.5,2.25\x1b[0m\n" + strings.Repeat("1.5,2.25\n", 60)
	random := make([]byte, sniffSize)
	for i, x := 0, uint32(1); i < len(random); i++ {
		x = x*1664525 + 1013904223
		random[i] = byte(x>>24) | 1 // no NUL
	}
	f32 := bytes.Repeat([]byte{0xcd, 0xcc, 0xcc, 0x3d}, 64) // float32(0.1), ndarray.tofile
	for content, want := range map[string]string{
		string(f32):    "not a .npy file (bad magic bytes)",
		cp1252:         `not a .npy file: it holds text that is not UTF-8 (it starts "name,caf\xe9\n1.5,2.25\n1.5,2.25\n1.5,2.25\n1.5"...; Excel's "CSV (Comma delimited)" writes Windows-1252): ` + advice + `, saved as UTF-8 (Excel: "CSV UTF-8")`,
		ansi:           `not a .npy file: it holds text (it starts "\x1b[32m1.5,2.25\x1b[0m\n1.5,2.25\n1.5,2.25\n1.5,"...), but byte 0 is the control byte 0x1b (ESC: a terminal's colour codes, as a command's coloured output saved holds): ` + advice,
		string(random): "not a .npy file (bad magic bytes)",
	} {
		for _, gz := range []bool{false, true} {
			b, name := []byte(content), "x.npy"
			if gz {
				b, name = gzipped(b), name+".gz"
			}
			path := writeFile(t, name, b)
			_, err := ReadNPYMatrix(path)
			checkError(t, nil, err, path+": "+want)
			_, err = ReadLabels(path, "")
			checkError(t, nil, err, path+": "+want)
		}
	}
}

// binaryPeerScript writes what NumPy, pickle and bz2 write of one array.
const binaryPeerScript = `
import sys, os, pickle, bz2, lzma
import numpy as np
d = sys.argv[1]
x = np.arange(6, dtype=np.float64).reshape(2, 3) / 4
np.savez(os.path.join(d, 'savez.npz'), x)
np.savez_compressed(os.path.join(d, 'compressed.npz'), x=x)
with open(os.path.join(d, 'x.pkl'), 'wb') as f:
    pickle.dump(x, f)
x.tofile(os.path.join(d, 'tofile.bin'))
with open(os.path.join(d, 'x.csv.bz2'), 'wb') as f:
    f.write(bz2.compress(b'1,2,3\n4,5,6\n'))
with open(os.path.join(d, 'x.csv.xz'), 'wb') as f:
    f.write(lzma.compress(b'1,2,3\n4,5,6\n'))
with open(os.path.join(d, 'utf16.csv'), 'wb') as f:
    f.write('1,2,3\n4,5,6\n'.encode('utf-16-le'))
np.savetxt(os.path.join(d, 'x.csv'), x, delimiter=',')
np.save(os.path.join(d, 'x.npy'), x)
import tarfile
for name, mode in [('csv.tar.gz', 'w:gz'), ('csv.tar', 'w')]:
    with tarfile.open(os.path.join(d, name), mode) as t:
        t.add(os.path.join(d, 'x.csv'), arcname='x.csv')
with tarfile.open(os.path.join(d, 'npy.tgz'), 'w:gz', format=tarfile.GNU_FORMAT) as t:
    t.add(os.path.join(d, 'x.npy'), arcname='data/x.npy')
`

// TestBinaryInputPeers: the files NumPy and Python's own modules write
// (np.savez, np.savez_compressed, pickle.dump, ndarray.tofile, bz2, lzma,
// UTF-16 without a byte order mark, tarfile's archives, gzipped or not, in
// its default PAX format and GNU tar's) are refused by what they are. It skips
// without NumPy (fails under GREEDYTL_REQUIRE_PEERS=1).
func TestBinaryInputPeers(t *testing.T) {
	python := peertest.PythonWith(t, "numpy")
	dir := t.TempDir()
	if out, err := exec.Command(python, "-c", binaryPeerScript, dir).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", python, err, out)
	}
	for file, start := range map[string]string{
		"savez.npz":      `an .npz of np.savez (a zip archive of .npy arrays, the first "arr_0.npy")`,
		"compressed.npz": `an .npz of np.savez (a zip archive of .npy arrays, the first "x.npy")`,
		"x.pkl":          "a Python pickle",
		"tofile.bin":     "binary data, not text: byte 0 is 0 (NUL)",
		"x.csv.bz2":      "bzip2-compressed",
		"x.csv.xz":       "xz-compressed",
		"utf16.csv":      "UTF-16 text without a byte order mark (little-endian: every other byte is 0",
		"csv.tar.gz":     "a tar archive (tar cf; a .tar.gz or .tgz once gunzipped): extract it", // a PAX header first
		"csv.tar":        "a tar archive (tar cf; a .tar.gz or .tgz once gunzipped): extract it",
		"npy.tgz":        `a tar archive (tar cf; a .tar.gz or .tgz once gunzipped) whose first file is "data/x.npy"`,
	} {
		path := filepath.Join(dir, file)
		for _, r := range binaryReaders {
			if err := r.read(path); err == nil || !strings.HasPrefix(err.Error(), path+": "+start) {
				t.Errorf("%s %s: %v, want %q…", r.name, file, err, start)
			}
		}
	}
}

// TestBinaryFormatsPrintableMagic: a format's magic has a test of the bytes
// after it (rest) exactly when text can start with the magic (printable
// ASCII), which binaryFormat takes rest's presence to say.
func TestBinaryFormatsPrintableMagic(t *testing.T) {
	for _, f := range binaryFormats {
		printable := true
		for i := range len(f.magic) {
			printable = printable && ' ' <= f.magic[i] && f.magic[i] <= '~'
		}
		if printable != (f.rest != nil) {
			t.Errorf("magic %q: printable %v, rest %v", f.magic, printable, f.rest != nil)
		}
	}
}

// TestTarMagicNeedsItsNUL: a text file of another encoding than UTF-8
// (Windows-1252 here) with "ustar" at byte 257 — a header ending in
// "custard" there — is not a tar archive: a CSV of numbers under it, and
// a label file, get the advice of any file not in UTF-8, not that of an
// archive. Only the magic with its NUL (POSIX's "ustar\0",
// GNU's "ustar  \0") names a tar member.
func TestTarMagicNeedsItsNUL(t *testing.T) {
	line := "r\xe9sultat"
	for len(line) < 250 {
		line += ",cxxx"
	}
	line += "," + strings.Repeat("y", 256-len(line)-1) + "custard"
	if line[257:262] != "ustar" {
		t.Fatalf("ustar at %d", strings.Index(line, "ustar"))
	}
	n := strings.Count(line, ",") + 1
	row := strings.TrimSuffix(strings.Repeat("1,", n), ",")
	dir := t.TempDir()
	csv := filepath.Join(dir, "latin.csv")
	if err := os.WriteFile(csv, []byte(line+"\n"+row+"\n"+row+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadMatrix(csv); err == nil || !strings.Contains(err.Error(), "latin.csv:1: column 1 is named \"r\\xe9sultat\", which is not valid UTF-8") {
		t.Errorf("ReadMatrix: %v, want the UTF-8 message of its header", err)
	}
	labels := filepath.Join(dir, "labels.txt")
	body := strings.Repeat("z", 257-len("caf\xe9\n")) + "ustard\n"
	if err := os.WriteFile(labels, []byte("caf\xe9\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadLabelValues(labels)
	if err == nil || strings.Contains(err.Error(), "tar") || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("ReadLabelValues: %v, want the not-UTF-8 advice", err)
	}
	for _, magic := range []string{"ustar\x0000", "ustar  \x00"} {
		head := make([]byte, 512)
		copy(head, "data.csv")
		copy(head[257:], magic)
		if name, ok := tarMember(head); !ok || string(name) != "data.csv" {
			t.Errorf("tarMember(%q header) = %q, %v; want data.csv, true", magic, name, ok)
		}
	}
}
