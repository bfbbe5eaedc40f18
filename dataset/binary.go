package dataset

import (
	"bytes"
	"unicode/utf8"

	"github.com/greedytl/greedytl/internal/bom"
)

// The formats of the binary files users give where greedytl reads text or
// .npy (an archive of np.savez, a workbook, a pickle, a compressed file
// other than gzip), told apart by their first bytes, each with what to do
// instead. Read as text, their bytes failed on a made-up "line 2" ("expected
// 5 values as in the header on line 1, got 1") or a label of binary bytes.
var binaryFormats = []struct {
	magic string
	what  string
}{
	{"PK\x03\x04", "a zip archive (an .npz of np.savez, an Excel .xlsx workbook, a torch.save file, or zipped files such as data.csv.zip): unzip a zipped file (greedytl reads gzip-compressed input), and save an array with np.save (.npy) or as CSV text"},
	{npyMagic, "a NumPy .npy array, not text"},
	{"BZh", "bzip2-compressed: greedytl reads gzip-compressed input only: decompress it (bunzip2) or compress it with gzip"},
	{"\xfd7zXZ\x00", "xz-compressed: greedytl reads gzip-compressed input only: decompress it (unxz) or compress it with gzip"},
	{"\x28\xb5\x2f\xfd", "zstd-compressed: greedytl reads gzip-compressed input only: decompress it (unzstd) or compress it with gzip"},
	{"\x89HDF\r\n\x1a\n", "an HDF5 file (h5py, pandas' to_hdf, MATLAB -v7.3): save the array with np.save (.npy) or as CSV text"},
	{"MATLAB ", "a MATLAB .mat file: save the array as CSV text (writematrix) or, from Python, with np.save (.npy)"},
	{"PAR1", "a Parquet file (pandas' to_parquet): save the table with to_csv(path, index=False) or the array with np.save (.npy)"},
	{"ARROW1", "an Arrow/Feather file (pandas' to_feather): save the table with to_csv(path, index=False) or the array with np.save (.npy)"},
}

// binaryFormat returns the description of the binary format whose first
// bytes head holds (binaryFormats), or "" if none: a Python pickle
// (protocols 2 to 5, which start with the byte 0x80 and the protocol)
// included. Where the input may be text (text), a printable magic ("PAR1",
// "BZh9") counts only when head is no UTF-8 text (notUTF8).
func binaryFormat(head []byte, text bool) string {
	for _, f := range binaryFormats {
		if bytes.HasPrefix(head, []byte(f.magic)) {
			if text && isPrintable(f.magic) && !notUTF8(head) {
				continue // "PAR1", "BZh9" could start text: a label file's first class
			}
			return f.what
		}
	}
	if len(head) >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5 {
		return "a Python pickle (pickle.dump, joblib.dump, pandas' to_pickle): save the array with np.save (.npy) or as CSV text"
	}
	return ""
}

// isPrintable reports whether the magic s is printable ASCII, which text
// may start with too.
func isPrintable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// isText reports whether head, the first bytes of an input, are printable
// UTF-8 text: tabs and line ends, no other control byte.
func isText(head []byte) bool {
	if len(head) == 0 || notUTF8(head) {
		return false
	}
	for _, c := range head {
		if c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return true
}

// notUTF8 reports whether head, the first bytes of an input, holds a NUL or
// is not UTF-8 (a rune cut at its end aside): bytes that a format with a
// printable magic holds and text starting like it does not.
func notUTF8(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	for k := 1; k <= utf8.UTFMax && k <= len(head); k++ {
		if utf8.RuneStart(head[len(head)-k]) {
			if !utf8.FullRune(head[len(head)-k:]) {
				head = head[:len(head)-k]
			}
			break
		}
	}
	return !utf8.Valid(head)
}

// checkText returns the error, naming the file name, of input that starts
// with head (its first bytes, gunzipped) and cannot be text: a binary format
// of binaryFormats, or any byte 0 (NUL), which no text holds. UTF-16 text
// with its byte order mark, which holds NULs, is left to bom.CheckUTF16's
// own message.
func checkText(head []byte, name string) error {
	if what := binaryFormat(head, true); what != "" {
		return errorf(name, 0, "%s", what)
	}
	if bom.CheckUTF16(head) != nil {
		return nil
	}
	if k := bytes.IndexByte(head, 0); k >= 0 {
		return errorf(name, 0, "binary data, not text: byte %d is 0 (NUL), which text never holds (UTF-16 text without its byte order mark holds them too: save it as UTF-8)", k)
	}
	return nil
}

// notNPY returns the error of a .npy reader given input whose first bytes
// head do not start with the .npy magic: it names the binary format when
// head is one of binaryFormat's.
func notNPY(head []byte, name string) error {
	if what := binaryFormat(head, false); what != "" {
		return errorf(name, 0, "not a .npy file: %s", what)
	}
	if isText(head) {
		// A CSV renamed, or np.savetxt given a .npy name.
		return errorf(name, 0, "not a .npy file: it holds text (it starts %s): save the array with np.save, or give the text a .csv or .txt name", quoteField(head))
	}
	return errorf(name, 0, "not a .npy file (bad magic bytes)")
}

// sniffSize is how many of its first bytes checkText is given of an input.
const sniffSize = 512
