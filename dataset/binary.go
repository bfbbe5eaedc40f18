package dataset

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/greedytl/greedytl/internal/bom"
)

// The formats of the binary files users give where greedytl reads text or
// .npy (an archive of np.savez, a workbook, a pickle, a compressed file
// other than gzip), told apart by their first bytes, each with what to do
// instead. Read as text, their bytes failed on a made-up "line 2" ("expected
// 5 values as in the header on line 1, got 1") or a label of binary bytes.
//
// A magic of printable bytes ("BZh", "MATLAB ", "PAR1", "ARROW1") is
// matched with the bytes that follow it in the format (rest), so that text
// starting like it ("BZh caf\xe9", a Windows-1252 header "MATLAB r\xe9sultat")
// is not taken for it.
var binaryFormats = []struct {
	magic string
	what  string
	// rest, for a magic of printable ASCII, which text may start with too,
	// reports whether the bytes after it are the format's; nil for a
	// magic no text starts with (a byte outside printable ASCII).
	rest func(after []byte) bool
}{
	{"PK\x03\x04", "a zip archive (an .npz of np.savez, an Excel .xlsx workbook, a torch.save file, or zipped files such as data.csv.zip): unzip a zipped file (greedytl reads gzip-compressed input), and save an array with np.save (.npy) or as CSV text", nil},
	{npyMagic, "a NumPy .npy array, not text", nil},
	{"BZh", "bzip2-compressed: greedytl reads gzip-compressed input only: decompress it (bunzip2) or compress it with gzip", bzip2Rest},
	{"\xfd7zXZ\x00", "xz-compressed: greedytl reads gzip-compressed input only: decompress it (unxz) or compress it with gzip", nil},
	{"\x28\xb5\x2f\xfd", "zstd-compressed: greedytl reads gzip-compressed input only: decompress it (unzstd) or compress it with gzip", nil},
	{"\x89HDF\r\n\x1a\n", "an HDF5 file (h5py, pandas' to_hdf, MATLAB -v7.3): save the array with np.save (.npy) or as CSV text", nil},
	{"MATLAB ", "a MATLAB .mat file: save the array as CSV text (writematrix) or, from Python, with np.save (.npy)", matRest},
	// Parquet's first page header, Thrift's compact encoding, starts with
	// field 1, an i32: the byte 0x15.
	{"PAR1", "a Parquet file (pandas' to_parquet): save the table with to_csv(path, index=False) or the array with np.save (.npy)", func(b []byte) bool { return len(b) > 0 && b[0] == 0x15 }},
	// The Arrow file magic is padded to 8 bytes with NULs.
	{"ARROW1", "an Arrow/Feather file (pandas' to_feather): save the table with to_csv(path, index=False) or the array with np.save (.npy)", func(b []byte) bool { return bytes.HasPrefix(b, []byte{0, 0}) }},
}

// bzip2Rest reports whether after, what follows "BZh" in a bzip2 stream,
// is a block size '1'..'9' and the magic of a block (1AY&SY, π's digits) or
// of the stream's end (an empty stream).
func bzip2Rest(after []byte) bool {
	if len(after) < 7 || after[0] < '1' || after[0] > '9' {
		return false
	}
	return bytes.HasPrefix(after[1:], []byte("1AY&SY")) || bytes.HasPrefix(after[1:], []byte("\x17rE8P\x90"))
}

// matRest reports whether after, what follows "MATLAB " in a .mat file, is
// its header text's version and "MAT-file" ("5.0 MAT-file", "7.3 MAT-file").
func matRest(after []byte) bool {
	return len(after) >= 12 && '0' <= after[0] && after[0] <= '9' && after[1] == '.' &&
		'0' <= after[2] && after[2] <= '9' && string(after[3:12]) == " MAT-file"
}

// binaryFormat returns the description of the binary format whose first
// bytes head holds (binaryFormats), or "" if none: a Python pickle
// (protocols 2 to 5, which start with the byte 0x80 and the protocol)
// included. A printable magic ("PAR1", "BZh9": one with rest) counts only
// with the bytes that follow it in the format (rest) and when head is no
// UTF-8 text (notUTF8): text may start like it.
func binaryFormat(head []byte) string {
	if what := zipFormat(head); what != "" {
		return what
	}
	for _, f := range binaryFormats {
		if bytes.HasPrefix(head, []byte(f.magic)) {
			if f.rest != nil && (!f.rest(head[len(f.magic):]) || !notUTF8(head)) {
				continue // "PAR1", "BZh9" could start text: a label file's first class
			}
			return f.what
		}
	}
	if len(head) >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5 {
		return "a Python pickle (pickle.dump, joblib.dump, pandas' to_pickle): save the array with np.save (.npy) or as CSV text"
	}
	if name, ok := tarMember(head); ok {
		first := ""
		if len(name) > 0 {
			first = " whose first file is " + quoteField(name)
		}
		return fmt.Sprintf("a tar archive (tar cf; a .tar.gz or .tgz once gunzipped)%s: extract it (tar xf FILE) and give the file inside", first)
	}
	return ""
}

// zipFormat returns the description of a zip archive whose first
// member's local header head holds, by that member's name: a spreadsheet
// (an Excel .xlsx workbook, whose first member is "[Content_Types].xml",
// or, written by openpyxl (pandas' to_excel), one under docProps/; an
// OpenDocument .ods, whose first member "mimetype" holds its type), an .npz
// of np.savez (members "x.npy"), a torch.save file (its first member
// "archive/data.pkl"), or zipped files (data.csv.zip); "" when
// head is no zip archive or its first member's name is cut off, for
// binaryFormats' description of any zip archive.
func zipFormat(head []byte) string {
	const nameAt = 30 // the size of a local file header before the name
	if !bytes.HasPrefix(head, []byte("PK\x03\x04")) || len(head) < nameAt {
		return ""
	}
	n, extra := int(binary.LittleEndian.Uint16(head[26:])), int(binary.LittleEndian.Uint16(head[28:]))
	if n == 0 || len(head) < nameAt+n {
		return ""
	}
	name := head[nameAt : nameAt+n]
	const sheet = "a spreadsheet (%s, a zip archive), not text: export the sheet as CSV (%s) or, from Python, pd.read_excel(path).to_csv(out, index=False)"
	switch {
	case string(name) == "[Content_Types].xml" || bytes.HasPrefix(name, []byte("docProps/")) || bytes.HasPrefix(name, []byte("xl/")):
		return fmt.Sprintf(sheet, "an Excel .xlsx workbook", `Excel: Save As "CSV UTF-8"`)
	case string(name) == "mimetype" && bytes.HasPrefix(head[min(nameAt+n+extra, len(head)):], []byte("application/vnd.oasis.opendocument.spreadsheet")):
		return fmt.Sprintf(sheet, "an OpenDocument .ods", "LibreOffice: Save As, Text CSV")
	case bytes.HasSuffix(name, []byte("/data.pkl")):
		return "a PyTorch file of torch.save (a zip archive): save the tensor with np.save(out, t.numpy()) (.npy) or as CSV text"
	case bytes.HasSuffix(name, []byte(".npy")):
		array := strings.TrimSuffix(string(name), ".npy")
		return fmt.Sprintf("an .npz of np.savez (a zip archive of .npy arrays, the first %s): save each array with np.save: np.save(out, np.load(path)[%s])", quoteField(name), strconv.Quote(array))
	}
	return fmt.Sprintf("a zip archive whose first file is %s: unzip it (greedytl reads gzip-compressed input) and give the file inside", quoteField(name))
}

// tarMember reports whether head, the first bytes of an input, is the
// header of a tar archive's first member — POSIX ustar's magic and version
// ("ustar" and a NUL) or GNU tar's ("ustar", two blanks and a NUL) at byte
// 257: text holds no NUL, so a text file of another encoding with "ustar"
// there is not taken for one — and returns the member's name, its first
// field, or none when the header is one of extended attributes (PAX's,
// which Python's tarfile writes first, or GNU's long name), which the
// member's own header follows. A .tar.gz of a dataset, gunzipped by the
// readers, is such input.
func tarMember(head []byte) (name []byte, ok bool) {
	const magicAt, typeAt = 257, 156
	magic := head[min(magicAt, len(head)):]
	if !bytes.HasPrefix(magic, []byte("ustar\x00")) && !bytes.HasPrefix(magic, []byte("ustar  \x00")) {
		return nil, false
	}
	if bytes.IndexByte([]byte("xgLK"), head[typeAt]) >= 0 {
		return nil, true
	}
	name, _, _ = bytes.Cut(head[:100], []byte{0})
	return name, true
}

// isText reports whether head, the first bytes of an input, are printable
// UTF-8 text: tabs and line ends, no other control byte.
func isText(head []byte) bool {
	if len(head) == 0 || notUTF8(head) {
		return false
	}
	return indexControl(head) < 0
}

// controlByte reports whether c is a control byte that text does not hold:
// an ASCII control character (DEL too) other than a tab or a line end.
func controlByte(c byte) bool {
	return c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f
}

// indexControl returns the index of the first controlByte of head, or -1.
func indexControl(head []byte) int {
	for k, c := range head {
		if controlByte(c) {
			return k
		}
	}
	return -1
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
// with head (its first bytes, gunzipped) and cannot be text that greedytl
// reads: a binary format of binaryFormats, UTF-16 text with its byte order
// mark (bom.CheckUTF16's message, not its NULs'), or any byte 0 (NUL),
// which no UTF-8 text holds.
func checkText(head []byte, name string) error {
	if what := binaryFormat(head); what != "" {
		return errorf(name, 0, "%s", what)
	}
	if err := bom.CheckUTF16(head); err != nil {
		return &Error{File: name, Err: err}
	}
	if what := utf16NoBOM(head); what != "" {
		return errorf(name, 0, "%s", what)
	}
	if k := bytes.IndexByte(head, 0); k >= 0 {
		return errorf(name, 0, "binary data, not text: byte %d is 0 (NUL), which text never holds (UTF-16 text without its byte order mark holds them too: save it as UTF-8)", k)
	}
	return nil
}

// utf16NoBOM returns the description, naming the byte order, of head, the
// first bytes of an input, when they are UTF-16 text of ASCII characters
// without a byte order mark: at least two characters, each a
// printable ASCII byte, a tab or a line end beside a 0 (after it in
// little-endian, before it in big-endian), a byte cut at the end aside;
// else "". Binary data is not such pairs throughout; UTF-16 of other
// characters is not told apart (checkText's NUL message says it may be).
func utf16NoBOM(head []byte) string {
	head = head[:len(head)&^1]
	if len(head) < 4 {
		return ""
	}
	for k, order := range []string{"little-endian", "big-endian"} {
		text := true
		for i := 0; i < len(head) && text; i += 2 {
			c, zero := head[i+k], head[i+1-k]
			text = zero == 0 && c != 0 && !controlByte(c) && c < 0x80
		}
		if text {
			return "UTF-16 text without a byte order mark (" + order + ": every other byte is 0, as in UTF-16 of ASCII text): save it as UTF-8"
		}
	}
	return ""
}

// notNPY returns the error of a .npy reader given input whose first bytes
// head (up to sniffSize) do not start with the .npy magic: it names the
// binary format when head is one of binaryFormat's, or says it is text.
func notNPY(head []byte, name string) error {
	if what := binaryFormat(head); what != "" {
		return errorf(name, 0, "not a .npy file: %s", what)
	}
	const advice = "save the array with np.save, or give the text a .csv or .txt name"
	if what := utf16NoBOM(head); what != "" {
		return errorf(name, 0, "not a .npy file: %s", what)
	}
	switch {
	case isText(head):
		// A CSV renamed, or np.savetxt given a .npy name.
		return errorf(name, 0, "not a .npy file: it holds text (it starts %s): %s", quoteField(head), advice)
	case !looksLikeText(head):
		return errorf(name, 0, "not a .npy file (bad magic bytes)")
	case notUTF8(head):
		// Excel's "CSV (Comma delimited)" renamed: an accented letter
		// among the bytes sniffed, where isText looked at 8 bytes once.
		return errorf(name, 0, "not a .npy file: it holds text that is not UTF-8 (it starts %s; Excel's \"CSV (Comma delimited)\" writes Windows-1252): %s, saved as UTF-8 (Excel: \"CSV UTF-8\")", quoteField(head), advice)
	}
	k := indexControl(head)
	what := fmt.Sprintf("byte %d is the control byte %#02x", k, head[k])
	if head[k] == 0x1b {
		what += " (ESC: a terminal's colour codes, as a command's coloured output saved holds)"
	}
	return errorf(name, 0, "not a .npy file: it holds text (it starts %s), but %s: %s", quoteField(head), what, advice)
}

// looksLikeText reports whether head, the first bytes of an input that
// isText refuses, still looks like text, as a reader sees it: no NUL, at
// least nine in ten bytes printable in ASCII or in the 8-bit code pages
// (0xa0 to 0xff: Windows-1252's letters), or tabs and line ends, and most
// of them ASCII. Text in another encoding (Windows-1252, its letters among
// ASCII digits and separators) or with a few control bytes (a terminal's
// colour codes) does; compressed or raw binary data, whose bytes are
// uniform, is about three in four such bytes and one in three ASCII, and
// float32 values that repeat (ndarray.tofile of 0.1: cd cc cc 3d) are one
// in four ASCII. The formats binaryFormats knows are named before.
func looksLikeText(head []byte) bool {
	if len(head) == 0 || bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	text, ascii := 0, 0
	for _, c := range head {
		switch {
		case c < 0x80 && !controlByte(c):
			text++
			ascii++
		case c >= 0xa0:
			text++
		}
	}
	return 10*text >= 9*len(head) && 2*ascii > len(head)
}

// sniffSize is how many of its first bytes an input is told apart by: the
// head checkText is given before a text reader's first line, and notNPY
// after a .npy reader's magic did not match.
const sniffSize = 512
