// Package dataset reads and writes the data greedytl works on: NumPy .npy
// arrays, delimited text (CSV, TSV, whitespace), LIBSVM/svmlight files,
// label files, and dataset folders.
//
// # Formats
//
//   - ReadMatrix reads a matrix from .npy or delimited text, deciding by the
//     file name and its first bytes; DecodeCSV is its text reader.
//   - DecodeNPY decodes any 1-D or 2-D .npy array (versions 1.0 to 3.0; float,
//     integer and bool dtypes of either byte order; C or Fortran order).
//     ReadNPYMatrix and ReadNPYInts read the two shapes callers need;
//     WriteNPY and WriteNPYInts write files numpy.load reads.
//   - ReadSVMLight and DecodeSVMLight read sparse svmlight rows into a
//     sparse.CSR with 0-based columns; WriteSVMLight writes them.
//   - ReadLabels reads binary labels from .npy or text and maps them to ±1;
//     ReadLabelValues returns the raw values; ReadClassesHeader reads labels
//     of any number of classes, and DecodeClassesHeader reads them from a
//     reader (a command's standard input).
//   - LoadFolder reads a dataset folder (features.npy, labels.npy,
//     classes.txt, optional groups.txt) and validates it as a whole.
//     OpenFolder validates it the same way but leaves the features on
//     disk: Folder.ReadRows then reads the rows a caller needs, by offset,
//     in the file's precision (FeatureRows of float32 or float64), so a
//     process holds only the rows it uses.
//   - NPYRowWriter writes a float32 .npy matrix one row at a time, for
//     matrices larger than memory.
//
// Gzip-compressed input is decompressed transparently by every reader: it
// is recognised by its magic bytes, not its name. Other binary input (a zip
// archive such as an .npz of np.savez, a pickle, a bzip2, xz or zstd
// stream, HDF5, Parquet, a tar archive (a .tar.gz once gunzipped), any NUL
// byte among the first bytes) given where
// text is read is an error naming its format (binaryFormat). The Read functions take
// the path "-" for standard input (named "<stdin>" in errors).
//
// # Errors
//
// Bad data is never a panic: every reader returns an *Error that names the
// file and, for text, the 1-based line, and states the problem on one line:
//
//	x.csv:17: expected 5 values, got 4
//	x.csv:3: column 2: cannot parse "abc" as a number
//	x.npy: unsupported dtype '<c16'
//	x.npy: row 3 column 7 is NaN
//
// Text columns are counted from 1, as editors and spreadsheets count them;
// the rows and columns of arrays and matrices from 0, as NumPy and Go index
// them. NaN and infinite values are rejected wherever a matrix, a label or a
// feature is read (DecodeNPY alone returns values as stored), with the
// message of inputcheck.NonFiniteError, the module's one check of it
// (inputcheck.CheckFinite applies it to any matrix). Caller mistakes are
// errors too, never panics: a nil reader, writer (or a nil pointer in
// one, such as a nil *bytes.Buffer) or matrix, labels that do
// not match the rows, a negative shape, a dtype the readers do not read, a
// nil *Folder or *NPYRowWriter given a method with an error result; only a
// method called on a nil *Classes, Folder.Rows, and FeatureRows.RowTo and
// FeatureRows.Bytes called on a nil *FeatureRows (whose Len is 0), panic.
//
// # Design notes
//
// The .npy decoder is hand-written rather than built on
// github.com/sbinet/npyio: the format is small (a magic string, a Python
// dict literal, raw data), and owning the code is what lets it give the
// messages above and guarantee robustness on hostile input. It reads at
// most 1 MiB of header, checks the shape's size for overflow before any
// arithmetic, and reads data in bounded chunks, so a file claiming a shape
// of (2⁶², 2⁶²) fails with "shape ... is too large" or "truncated" instead of
// allocating memory. When the input's length is known (a regular file), the
// length is checked against the shape before the values are allocated, and
// bytes after the array are an error. Fuzz tests (FuzzDecodeNPY,
// FuzzDecodeCSV, FuzzDecodeSVMLight, FuzzDecodeLabelText) check that no input
// panics and that everything accepted is well-formed.
//
// Values are float64 throughout, but for the rows OpenFolder's folders
// read from a float32 file, which stay float32; float32 files are widened
// exactly where they are read as float64, and
// integers beyond 2⁵³ in magnitude, which float64 cannot hold exactly, are
// an error rather than silently rounded: in a .npy array, and as text
// labels that are all numbers (among names a label is compared as written).
//
// Writers take an io.Writer; to create a file, wrap them in
// internal/atomicfile so that a failed write never leaves a partial file:
//
//	err := atomicfile.Write("x.npy", func(w io.Writer) error {
//		return dataset.WriteNPY(w, m)
//	})
package dataset
