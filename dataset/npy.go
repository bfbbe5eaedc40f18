package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/greedytl/greedytl/inputcheck"
	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/internal/typednil"
)

const (
	npyMagic = "\x93NUMPY"
	// maxHeaderLen bounds the header we are willing to read; NumPy itself
	// refuses headers over 10000 bytes unless told otherwise.
	maxHeaderLen = 1 << 20
	// maxPrealloc bounds the elements allocated before the data has been
	// read, when the input length is unknown: a lying shape in a tiny input
	// must not allocate gigabytes.
	maxPrealloc = 1 << 16
	// exactInt is 2⁵³: integers up to it in magnitude are exact in float64.
	exactInt = 1 << 53
)

// NPYArray is a 1-D or 2-D array decoded from NumPy's .npy format, its
// values converted to float64.
type NPYArray struct {
	// Descr is the dtype as the file's header spells it, e.g. "<f4".
	Descr string
	// Shape holds one or two dimensions.
	Shape []int
	// Data holds the values in row-major (C) order, whatever the file's
	// order: element (i, j) of a 2-D array is Data[i*Shape[1]+j].
	Data []float64
}

// npyType is a supported element type.
type npyType struct {
	kind  byte // 'f' float, 'i' signed, 'u' unsigned, 'b' bool; 'U' fixed-width UTF-32 strings (labelDescr)
	size  int  // bytes per element
	order binary.ByteOrder
}

// DecodeNPY decodes one array in NumPy's .npy format (versions 1.0, 2.0 and
// 3.0) from r, reading exactly the array's bytes, so that several arrays
// written one after another to a stream can be read in turn. name is used in
// error messages.
//
// Supported dtypes, little- or big-endian: float16, float32, float64, int8 to int64,
// uint8 to uint64 and bool; a type spelt without a byte order ('f8',
// '|f8', '=f8') is in the machine's, as NumPy reads it, and NumPy's other
// spellings of them are read too ('d', '<d', 'float64', '?'), but for the
// names of C's long and of pointer-sized integers ('l', 'int', 'intp'),
// whose size the file does not record. Integers of magnitude above 2⁵³, which float64
// cannot hold exactly, are an error. Arrays must be 1-D or 2-D; Fortran-order
// arrays are transposed into row-major order. Values are returned as they
// are, NaN and infinities included.
//
// The data is read in bounded chunks, so a header announcing a huge shape
// over a short input fails with "truncated" instead of allocating memory for
// the announced size.
//
// Input starting with the gzip magic bytes is decompressed, as every
// reader of the package decompresses it (maybeGunzip), and read as a
// whole .npy file is (readNPYFile): one array, to the end of the
// compressed data, whose CRC-32 and length are checked; bytes after the
// array are an error. (A gzip stream cannot be read up to one array's end
// and no further: arrays are read in turn from uncompressed input only.)
//
// A nil r is an error.
func DecodeNPY(r io.Reader, name string) (*NPYArray, error) {
	if typednil.Is(r) {
		return nil, &Error{File: name, Err: errNoReader}
	}
	// The first two bytes tell gzip apart, read without reading further,
	// so that uncompressed arrays stay readable in turn.
	var magic [2]byte
	n, err := io.ReadFull(r, magic[:])
	rest := r
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		rest = bytes.NewReader(nil) // all there is: the array's error is "truncated"
	case err != nil:
		rest = readError{err} // the header's read error, as before
	}
	in := io.MultiReader(bytes.NewReader(magic[:n]), rest)
	if !isGzip(magic[:n]) {
		return decodeNPY(in, name, -1)
	}
	br, _, err := maybeGunzip(in, name)
	if err != nil {
		return nil, err
	}
	return (&source{size: -1, br: br}).npy(name)
}

// readError is a reader whose every read fails with err.
type readError struct{ err error }

func (e readError) Read([]byte) (int, error) { return 0, e.err }

// decodeNPY is DecodeNPY; size is the number of bytes left in r when known
// (a regular file), else -1. With a known size, data beyond the array is an
// error and the values are allocated at once.
func decodeNPY(r io.Reader, name string, size int64) (*NPYArray, error) {
	hd, err := readNPYHeader(r, name, size)
	if err != nil {
		return nil, err
	}
	return hd.decode(r, name, size >= 0)
}

// decode reads the values of the array whose header is l from r
// (positioned at the data) into an NPYArray, in row-major order; sized is
// readData's.
func (l *npyLayout) decode(r io.Reader, name string, sized bool) (*NPYArray, error) {
	data, err := l.readData(r, name, sized)
	if err != nil {
		return nil, err
	}
	shape := l.intShape()
	if l.fortran && len(shape) == 2 && shape[0] > 1 && shape[1] > 1 {
		data = transpose(data, shape[1], shape[0])
	}
	return &NPYArray{Descr: l.descr, Shape: shape, Data: data}, nil
}

// npyLayout is a parsed and checked .npy header: the array's dtype and
// shape, and where and how long its data is.
type npyLayout struct {
	npyHeader
	typ    npyType
	count  int64 // number of elements
	offset int64 // bytes before the data
	nbytes int64 // bytes of data
}

// readNPYHeader reads and checks the header of a .npy array from r, leaving
// r at the first data byte. With a known size (bytes left in r, else -1),
// the data's length is checked against the shape.
func readNPYHeader(r io.Reader, name string, size int64) (*npyLayout, error) {
	return readNPYHeaderOf(r, name, size, parseDescr)
}

// readNPYHeaderOf is readNPYHeader for the dtypes that descr parses
// (parseDescr's, or labelDescr's, which adds strings).
func readNPYHeaderOf(r io.Reader, name string, size int64, descr func(string) (npyType, error)) (*npyLayout, error) {
	var pre [12]byte
	n, err := io.ReadFull(r, pre[:8])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && err != io.EOF {
		return nil, &Error{File: name, Err: err}
	}
	if n < 6 || string(pre[:6]) != npyMagic {
		if n == 0 {
			return nil, errorf(name, 0, "empty file: not a .npy file")
		}
		head := pre[:n:n]
		if n == 8 { // there may be more: sniff what the text readers do
			more, _ := io.ReadAll(io.LimitReader(r, sniffSize-8))
			head = append(head, more...)
		}
		return nil, notNPY(head, name)
	}
	if n < 8 {
		return nil, errorf(name, 0, "truncated .npy header")
	}
	major, minor := pre[6], pre[7]
	lenBytes := 4
	switch {
	case major == 1 && minor == 0:
		lenBytes = 2
	case (major == 2 || major == 3) && minor == 0:
	default:
		return nil, errorf(name, 0, "unsupported .npy format version %d.%d", major, minor)
	}
	if _, err := io.ReadFull(r, pre[8:8+lenBytes]); err != nil {
		return nil, truncatedOr(name, err, "truncated .npy header")
	}
	var hlen32 uint32
	if lenBytes == 2 {
		hlen32 = uint32(binary.LittleEndian.Uint16(pre[8:10]))
	} else {
		hlen32 = binary.LittleEndian.Uint32(pre[8:12])
	}
	if hlen32 > maxHeaderLen {
		return nil, errorf(name, 0, "header length %d exceeds the limit of %d bytes", hlen32, maxHeaderLen)
	}
	hlen := int(hlen32)
	hbuf := make([]byte, hlen)
	if _, err := io.ReadFull(r, hbuf); err != nil {
		return nil, truncatedOr(name, err, "truncated .npy header")
	}
	var header string
	if major == 3 {
		if !utf8.Valid(hbuf) {
			return nil, errorf(name, 0, "malformed header: not valid UTF-8")
		}
		header = string(hbuf)
	} else {
		header = latin1(hbuf)
	}
	h, err := parseNPYHeader(header)
	if err != nil {
		return nil, errorf(name, 0, "malformed header: %v", err)
	}
	typ, err := descr(h.descr)
	if err != nil {
		return nil, &Error{File: name, Err: err}
	}
	if len(h.dims) == 0 || len(h.dims) > 2 {
		return nil, &Error{File: name, Err: &shapeError{shape: shapeString(h.dims)}}
	}
	// The shape is checked in 64 bits first, then against this
	// platform's int, so that a file is refused alike on 32 and 64 bits
	// unless its size is all that differs.
	count, ok := shapeCount(h.dims, math.MaxInt64)
	if !ok || count > math.MaxInt64/int64(typ.size) { // a string's size is not bounded by 8
		return nil, errorf(name, 0, "shape %s is too large", shapeString(h.dims))
	}
	l := &npyLayout{npyHeader: h, typ: typ, count: count, offset: int64(8 + lenBytes + hlen), nbytes: count * int64(typ.size)}
	if size >= 0 {
		left := size - l.offset
		if left < l.nbytes {
			return nil, errorf(name, 0, "truncated: shape %s of %s needs %d data bytes, found %d", shapeString(h.dims), h.descr, l.nbytes, left)
		}
		if left > l.nbytes {
			return nil, errorf(name, 0, "%s of unexpected data after the array", plural.Count(int(left-l.nbytes), "byte", "bytes"))
		}
	}
	// Of a stream, readData refuses a shape beyond int once it holds more
	// values than fit, or finds it truncated, as on 64 bits.
	if _, ok := shapeCount(h.dims, math.MaxInt); !ok && size >= 0 {
		return nil, l.tooLarge(name)
	}
	return l, nil
}

// tooLarge is the error of an array whose shape fits 64 bits but not this
// platform's int (a 32-bit one).
func (l *npyLayout) tooLarge(name string) error {
	return errorf(name, 0, "shape %s is too large for a %d-bit platform", shapeString(l.dims), strconv.IntSize)
}

// shapeCount returns the number of values of an array of the given shape
// and whether they fit where int has at most maxInt: every dimension
// (an empty array's too, as its Shape) and the bytes of the values as
// float64 (the number times 8) at most maxInt. It never overflows.
func shapeCount(shape []int64, maxInt int64) (count int64, ok bool) {
	if !slices.Contains(shape, 0) {
		count = 1
	}
	for _, d := range shape {
		if d > maxInt || count != 0 && count > maxInt/8/d {
			return 0, false
		}
		count *= d
	}
	return count, true
}

// readData reads the array's values, in file order, from r (positioned at
// the data) in bounded chunks. sized reports that the data's length was
// checked (readNPYHeader with a size), so that the values can be allocated
// at once.
func (l *npyLayout) readData(r io.Reader, name string, sized bool) ([]float64, error) {
	_, fits := shapeCount(l.dims, math.MaxInt) // sized: readNPYHeader checked it
	prealloc := l.count
	if !sized {
		prealloc = min(l.count, maxPrealloc)
	}
	data := make([]float64, 0, int(prealloc))
	err := l.eachChunk(r, name, func(chunk []byte, read int64) error {
		if !fits && (read+int64(len(chunk)))/int64(l.typ.size) > math.MaxInt/8 {
			return l.tooLarge(name)
		}
		var err error
		if data, err = appendValues(data, chunk, l.typ); err != nil {
			return &Error{File: name, Err: l.locate(err, 0)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !fits {
		return nil, l.tooLarge(name) // an empty array of a dimension beyond int
	}
	return data, nil
}

// npyChunk is the most bytes of a chunk of eachChunk: 1 MiB.
const npyChunk = 1 << 20

// eachChunk is eachChunkOf in chunks of at most npyChunk bytes.
func (l *npyLayout) eachChunk(r io.Reader, name string, each func(chunk []byte, read int64) error) error {
	return l.eachChunkOf(r, name, npyChunk, each)
}

// eachChunkOf reads the array's data from r (positioned at it) in chunks
// of whole elements, at most most bytes or one element, and calls each
// with every chunk and the bytes read before it, stopping at its first
// error. Data shorter than the shape needs is an error saying so.
func (l *npyLayout) eachChunkOf(r io.Reader, name string, most int64, each func(chunk []byte, read int64) error) error {
	size := int64(l.typ.size)
	buf := make([]byte, min(l.nbytes, max(size, most/size*size)))
	for read := int64(0); read < l.nbytes; {
		chunk := buf[:min(int64(len(buf)), l.nbytes-read)]
		if k, err := io.ReadFull(r, chunk); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
				return errorf(name, 0, "truncated: shape %s of %s needs %d data bytes, found %d", shapeString(l.dims), l.descr, l.nbytes, read+int64(k))
			}
			return &Error{File: name, Err: err}
		}
		if err := each(chunk, read); err != nil {
			return err
		}
		read += int64(len(chunk))
	}
	return nil
}

func truncatedOr(name string, err error, msg string) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		return errorf(name, 0, "%s", msg)
	}
	return &Error{File: name, Err: err}
}

// latin1 decodes ISO-8859-1 bytes, the encoding of version 1 and 2 headers.
func latin1(b []byte) string {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// transpose returns the c × r row-major transpose of the r × c row-major a.
func transpose(a []float64, r, c int) []float64 {
	t := make([]float64, len(a))
	for i := 0; i < r; i++ {
		for j, v := range a[i*c : (i+1)*c] {
			t[j*r+i] = v
		}
	}
	return t
}

// parseDescr parses a dtype string such as "<f8" or "|b1". A type without
// a byte order ('f8', as NumPy's own dtype('f8') is spelt, or '=f8') or
// with '|' ("not applicable", which NumPy writes for single bytes) is in
// the machine's byte order, as NumPy's descr_to_dtype reads it (np.load
// takes '|f8' as dtype('float64'), native): little-endian on amd64 and
// arm64. The other spellings np.load reads (whatever numpy.dtype takes) of
// the types read here are read too: a one-character code ('d', '<d', '?';
// npyCodes) and a name without a byte order ('float64', 'double'; npyNames).
// A code or name of C's long or of a pointer ('l', 'int', 'intp';
// npyPlatformTypes), whose size is the writing platform's and not in the
// file, is refused saying so: np.save writes its size ('<i8').
func parseDescr(s string) (npyType, error) {
	bad := &dtypeError{descr: s}
	t := npyType{order: binary.NativeEndian}
	if name, ok := npyNames[s]; ok {
		s = name
	} else {
		t.order, s = splitByteOrder(s)
	}
	if code, ok := npyCodes[s]; ok {
		s = code
	}
	if slices.Contains(npyPlatformTypes, s) {
		bad.hint = "the size of this NumPy type (C's long or a pointer) is that of the platform that wrote the file, which the file does not record: save the array with np.save, which writes its size ('<i8' or '<i4')"
		return npyType{}, bad
	}
	if bad.hint = npyUnreadHint(s); bad.hint != "" {
		return npyType{}, bad
	}
	if len(s) != 2 {
		return npyType{}, bad
	}
	t.kind = s[0]
	t.size = int(s[1] - '0')
	for _, r := range npyReadable {
		if r.kind == t.kind && slices.Contains(r.sizes, t.size) {
			return t, nil
		}
	}
	return npyType{}, bad
}

// npyReadable are the element types parseDescr reads, each kind with its
// sizes in bytes and NumPy's name of it, which the size in bits follows
// when the kind has several (float32; bool has one size).
var npyReadable = []struct {
	kind  byte
	name  string
	sizes []int
}{
	{'f', "float", []int{2, 4, 8}},
	{'i', "int", []int{1, 2, 4, 8}},
	{'u', "uint", []int{1, 2, 4, 8}},
	{'b', "bool", []int{1}},
}

// npyReadableNames returns the NumPy names of the types parseDescr reads
// (npyReadable), for messages: "float16 to float64, int8 to int64, uint8
// to uint64 or bool".
func npyReadableNames() string {
	var names []string
	for _, r := range npyReadable {
		name := r.name
		if len(r.sizes) > 1 {
			bits := func(size int) string { return r.name + strconv.Itoa(8*size) }
			name = bits(r.sizes[0]) + " to " + bits(r.sizes[len(r.sizes)-1])
		}
		names = append(names, name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// npyUnreadHint returns what to save instead of an array of a NumPy type
// that parseDescr does not read, s without its byte order: complex numbers
// (npyComplex), long double ('f16' as np.save writes np.longdouble on
// x86-64 Linux, 'f12' on 32-bit x86; its code 'g' and names), dates and
// times (datetime64: 'M8[s]') and durations (timedelta64: 'm8[s]'); "" for
// any other.
func npyUnreadHint(s string) string {
	switch {
	case npyComplex(s):
		return "it holds complex numbers, and greedytl reads real ones: save the real part, np.save(path, a.real), or the magnitudes, np.abs(a), as fits"
	case s == "f16" || s == "f12" || s == "g" || s == "longdouble" || s == "longfloat":
		return "it holds long doubles (np.longdouble), and greedytl reads up to float64: save a.astype(np.float64)"
	case strings.HasPrefix(s, "M8") || strings.HasPrefix(s, "datetime64"):
		return "it holds dates or times (datetime64), and greedytl reads numbers: save them as numbers, e.g. seconds since 1970, a.astype('datetime64[s]').astype(np.int64)"
	case strings.HasPrefix(s, "m8") || strings.HasPrefix(s, "timedelta64"):
		return "it holds durations (timedelta64), and greedytl reads numbers: save them as numbers, e.g. seconds, a / np.timedelta64(1, 's')"
	}
	return ""
}

// npyComplex reports whether s, a dtype without its byte order, is one of
// NumPy's complex types: 'c16' as np.save writes complex128 ('c8',
// 'c32'), its one-character codes ('F', 'D', 'G') or a name ('complex128',
// 'cdouble').
func npyComplex(s string) bool {
	if len(s) > 1 && s[0] == 'c' && digitsOnly([]byte(s[1:])) {
		return true
	}
	switch s {
	case "F", "D", "G", "csingle", "cdouble", "clongdouble", "cfloat", "clongfloat", "singlecomplex", "longcomplex":
		return true
	}
	return strings.HasPrefix(s, "complex")
}

// splitByteOrder returns the byte order a dtype s begins with ('<'
// little-endian, '>' big-endian; '|', '=' or none the machine's) and the
// rest of s.
func splitByteOrder(s string) (binary.ByteOrder, string) {
	if s == "" || strings.IndexByte("<>|=", s[0]) < 0 {
		return binary.NativeEndian, s
	}
	switch s[0] {
	case '<':
		return binary.LittleEndian, s[1:]
	case '>':
		return binary.BigEndian, s[1:]
	}
	return binary.NativeEndian, s[1:]
}

// npyCodes maps NumPy's one-character type codes (numpy.dtype('d'), which
// may carry a byte order: '<d') of the types DecodeNPY reads to their kind
// and size: the C types of the same size on every platform NumPy runs on.
var npyCodes = map[string]string{
	"d": "f8", "f": "f4", "e": "f2", "?": "b1",
	"b": "i1", "h": "i2", "i": "i4", "q": "i8",
	"B": "u1", "H": "u2", "I": "u4", "Q": "u8",
}

// npyNames maps the names numpy.dtype takes (without a byte order, as
// NumPy takes them) of the types DecodeNPY reads to their kind and size.
// Among them are NumPy 1's aliases float_ and bool8, which NumPy 2 no
// longer takes: np.save never writes a name, so only a header written by
// hand holds one, and what NumPy 1 read it as is kept.
var npyNames = map[string]string{
	"float64": "f8", "double": "f8", "float": "f8", "float_": "f8",
	"float32": "f4", "single": "f4", "float16": "f2", "half": "f2",
	"int8": "i1", "byte": "i1", "int16": "i2", "short": "i2",
	"int32": "i4", "intc": "i4", "int64": "i8", "longlong": "i8",
	"uint8": "u1", "ubyte": "u1", "uint16": "u2", "ushort": "u2",
	"uint32": "u4", "uintc": "u4", "uint64": "u8", "ulonglong": "u8",
	"bool": "b1", "bool_": "b1", "bool8": "b1",
}

// npyPlatformTypes are the codes and names numpy.dtype takes for C's long
// and pointer-sized integers, whose size depends on the platform (C's long
// is 4 bytes on Windows, 8 on Linux and macOS; NumPy 1's int_ is a long,
// NumPy 2's a pointer's size): those of NumPy 1 and 2, with NumPy 1's
// aliases int0 and uint0 (of intp and uintp), which NumPy 2 no longer
// takes, and NumPy 2's codes 'n' and 'N' (of intp and uintp), which NumPy 1
// does not.
var npyPlatformTypes = []string{"l", "L", "p", "P", "n", "N", "long", "ulong", "int", "int_", "uint", "intp", "uintp", "int0", "uint0"}

// dtypeError is parseDescr's error, "unsupported dtype '<U3'", followed,
// for an array of strings or objects read where the reader knows what the
// file should hold (hintText), by what to write instead.
type dtypeError struct {
	descr, hint string
}

func (e *dtypeError) Error() string {
	msg := "unsupported dtype " + quoteDescr(e.descr)
	if e.hint != "" {
		msg += ": " + e.hint
	}
	return msg
}

// shapeError is the error of an array of neither 1 nor 2 dimensions:
// "unsupported shape (2, 3, 4): expected" what the reader takes, want
// (hintText sets it), or else a 1-D or 2-D array (DecodeNPY's).
type shapeError struct {
	shape, want string
}

func (e *shapeError) Error() string {
	want := e.want
	if want == "" {
		want = "a 1-D or 2-D array"
	}
	return "unsupported shape " + e.shape + ": expected " + want
}

// npyHint is what a reader of .npy arrays adds to the message of an array
// it cannot take (hintText), by what the array should hold: text, of an
// array of strings or objects; bigInt, of an integer beyond 2⁵³; shape,
// what it takes, of an array of other dimensions than 1 or 2.
type npyHint struct{ text, bigInt, shape string }

// The hints (hintText) of an array read as a matrix, as a label file and
// as a dataset folder's labels.npy, each with the README's advice.
var (
	matrixHint = npyHint{
		text:   "features and source scores must be numbers (" + npyReadableNames() + "), not strings or objects",
		bigInt: "save the array as float64 (a.astype(np.float64)) if that rounding is meant",
		shape:  "a 2-D array (rows: examples, columns: features or sources)",
	}
	labelHint = npyHint{
		text:   `a .npy label file holds numbers or str (NumPy's '<U' dtype): save names as str, np.save("y.npy", y.astype(str)), or as text, one per line: np.savetxt("y.txt", y, fmt="%s") (README: Using it on your data, Input files)`,
		bigInt: "labels are compared as float64s, so integers near it would read as one class: number the classes 0, 1, … (np.unique(y, return_inverse=True)[1])",
		shape:  "a 1-D array or a single column (one label per example)",
	}
	folderHint = npyHint{
		text:   `labels.npy holds integer class indices 0…C−1, and classes.txt the names, one per line: names, idx = np.unique(labels, return_inverse=True), then np.save("DIR/labels.npy", idx) and np.savetxt("DIR/classes.txt", names, fmt="%s") (README: Using it on your data, the dataset folder)`,
		bigInt: "labels.npy holds integer class indices 0…C−1 (np.unique(labels, return_inverse=True)[1])",
		shape:  "a 1-D array or a single column (one class index per example)",
	}
)

// hintText returns err, the error of reading a .npy array, with the hint
// h added to its message when the array's dtype is one of strings or
// Python objects (NumPy's kinds 'U', 'S', 'a' and 'O': what np.save writes
// of an array of names) that the reader refused (a matrix reader takes
// none; the label reader takes Unicode strings, 'U n' within labelDescr's
// width, alone), or when
// it holds an integer beyond 2⁵³, and with what the reader takes when the
// array has neither 1 nor 2 dimensions; other errors are returned as they
// are.
func hintText(err error, h npyHint) error {
	var de *dtypeError
	if errors.As(err, &de) {
		if k := strings.TrimLeft(de.descr, "<>|="); k != "" && strings.IndexByte("USaO", k[0]) >= 0 {
			de.hint = h.text
		}
	}
	var be *bigIntError
	if errors.As(err, &be) {
		be.hint = h.bigInt
	}
	var se *shapeError
	if errors.As(err, &se) {
		se.want = h.shape
	}
	return err
}

// halfToFloat64 returns the IEEE 754 half-precision number (NumPy's
// float16) whose bits are h, exactly: 1 sign bit, 5 exponent bits (bias
// 15) and 10 fraction bits.
func halfToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0: // zero and subnormals: frac × 2⁻²⁴
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * math.Ldexp(1024+frac, exp-25) // (1 + frac/2¹⁰) × 2^(exp−15)
}

// quoteDescr quotes a dtype for messages the way NumPy prints it.
func quoteDescr(s string) string {
	if len(s) > 20 {
		s = s[:20] + "..."
	}
	q := strconv.Quote(s)
	return "'" + q[1:len(q)-1] + "'"
}

// appendValues converts the elements in b (a whole number of them) to
// float64 and appends them to dst.
func appendValues(dst []float64, b []byte, t npyType) ([]float64, error) {
	first := len(dst)
	switch t.kind {
	case 'f':
		switch t.size {
		case 2:
			for k := 0; k+2 <= len(b); k += 2 {
				dst = append(dst, halfToFloat64(t.order.Uint16(b[k:])))
			}
		case 4:
			for k := 0; k+4 <= len(b); k += 4 {
				dst = append(dst, float64(math.Float32frombits(t.order.Uint32(b[k:]))))
			}
		default:
			for k := 0; k+8 <= len(b); k += 8 {
				dst = append(dst, math.Float64frombits(t.order.Uint64(b[k:])))
			}
		}
	case 'b':
		for _, c := range b {
			if c != 0 {
				c = 1
			}
			dst = append(dst, float64(c))
		}
	case 'i', 'u':
		for k := 0; k+t.size <= len(b); k += t.size {
			v, err := t.integer(b[k:])
			if err != nil {
				err.elem = first + k/t.size
				return dst, err
			}
			dst = append(dst, v)
		}
	}
	return dst, nil
}

// mayBeInexact reports whether an element of type t may be an integer
// that float64 cannot hold exactly (t.integer's error): one of 8 bytes,
// the one integer size that reaches beyond 2⁵³. No other element fails
// appendValues.
func (t npyType) mayBeInexact() bool {
	return (t.kind == 'i' || t.kind == 'u') && t.size == 8
}

// integer returns the integer element of type t (kind 'i' or 'u') at the
// start of b, or an error when float64 cannot hold it exactly.
func (t npyType) integer(b []byte) (float64, *bigIntError) {
	var u uint64 // the element's bits
	switch t.size {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(t.order.Uint16(b))
	case 4:
		u = uint64(t.order.Uint32(b))
	default:
		u = t.order.Uint64(b)
	}
	if t.kind == 'u' {
		if u > exactInt {
			return 0, &bigIntError{text: strconv.FormatUint(u, 10), x: float64(u)}
		}
		return float64(u), nil
	}
	shift := 64 - 8*t.size
	v := int64(u<<shift) >> shift // sign-extended
	if v > exactInt || v < -exactInt {
		return 0, &bigIntError{text: strconv.FormatInt(v, 10), x: float64(v)}
	}
	return float64(v), nil
}

// bigIntError is the error of an integer element beyond 2⁵³, which float64
// cannot hold exactly, followed, where the reader knows what the array
// holds (hintText), by what to write instead.
type bigIntError struct {
	elem int     // the element's index, in file order
	text string  // the integer in decimal
	x    float64 // what it reads as
	hint string
	// The array's shape and order, once located (npyLayout.locate): an
	// element of a 2-D array is named by its row and column, the same in
	// either order.
	dims    []int64
	fortran bool
	// vector: the array was read as one value a row (labels), whose
	// element is named by its row alone, as the label readers' other
	// messages name it (1-D or one column).
	vector bool
}

func (e *bigIntError) Error() string {
	at := fmt.Sprintf("element %d", e.elem)
	if e.vector {
		at = fmt.Sprintf("row %d", e.elem)
	} else if len(e.dims) == 2 && e.dims[0] > 0 && e.dims[1] > 0 {
		rows, cols := int(e.dims[0]), int(e.dims[1])
		r, c := e.elem/cols, e.elem%cols
		if e.fortran {
			r, c = e.elem%rows, e.elem/rows
		}
		at = fmt.Sprintf("row %d column %d", r, c)
	}
	msg := fmt.Sprintf("%s: integer %s is %s", at, e.text, inexactInteger(e.x))
	if e.hint != "" {
		msg += ": " + e.hint
	}
	return msg
}

// locate returns err, the error of appendValues for the elements of the
// array l from element first in file order, with the position of an
// integer beyond 2⁵³ it reports made the file's, and the array's shape and
// order given to it: it then names the element's row and column rather
// than its position in the file.
func (l *npyLayout) locate(err error, first int) error {
	var be *bigIntError
	if errors.As(err, &be) {
		be.elem += first
		be.dims, be.fortran = l.dims, l.fortran
	}
	return err
}

// inexactInteger is why an integer beyond 2⁵³ that reads as the float64 x
// is refused, as the .npy reader and the label readers say it.
func inexactInteger(x float64) string {
	return "beyond 2⁵³, which a float64 cannot hold exactly (it reads as " + formatFloat(x) + ", as integers near it do)"
}

// npyHeader is the content of a .npy header dictionary.
type npyHeader struct {
	descr   string
	fortran bool
	dims    []int64 // the shape as written
}

// intShape returns the shape as ints. It must fit int (shapeCount), as it
// does once readNPYHeader with a known size, or readData, accepted it.
func (h *npyHeader) intShape() []int {
	shape := make([]int, len(h.dims))
	for i, d := range h.dims {
		shape[i] = int(d)
	}
	return shape
}

// parseNPYHeader parses the Python dict literal of a .npy header, e.g.
// "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }". It accepts
// exactly the keys descr, fortran_order and shape, as NumPy does.
func parseNPYHeader(s string) (npyHeader, error) {
	p := &pyParser{s: s}
	var h npyHeader
	seen := map[string]bool{}
	p.space()
	if !p.eat('{') {
		return h, p.errorf("expected '{'")
	}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return h, err
		}
		if seen[key] {
			return h, fmt.Errorf("duplicate key %s", quoteDescr(key))
		}
		seen[key] = true
		p.space()
		if !p.eat(':') {
			return h, p.errorf("expected ':'")
		}
		p.space()
		switch key {
		case "descr":
			if p.peek() == '[' {
				return h, errors.New("structured dtypes are not supported")
			}
			if h.descr, err = p.str(); err != nil {
				return h, err
			}
		case "fortran_order":
			switch {
			case strings.HasPrefix(p.s[p.i:], "True"):
				h.fortran = true
				p.i += 4
			case strings.HasPrefix(p.s[p.i:], "False"):
				p.i += 5
			default:
				return h, p.errorf("fortran_order must be True or False")
			}
		case "shape":
			if h.dims, err = p.tuple(); err != nil {
				return h, err
			}
		default:
			return h, fmt.Errorf("unexpected key %s", quoteDescr(key))
		}
		p.space()
		if p.eat('}') {
			break
		}
		if !p.eat(',') {
			return h, p.errorf("expected ',' or '}'")
		}
	}
	p.space()
	if p.i != len(p.s) {
		return h, p.errorf("unexpected text after the dictionary")
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return h, fmt.Errorf("missing key '%s'", k)
		}
	}
	return h, nil
}

// pyParser scans the small subset of Python literals .npy headers use.
type pyParser struct {
	s string
	i int
}

func (p *pyParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s at offset %d", fmt.Sprintf(format, args...), p.i)
}

func (p *pyParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *pyParser) eat(c byte) bool {
	if p.peek() == c && p.i < len(p.s) {
		p.i++
		return true
	}
	return false
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// str scans a quoted string without escapes.
func (p *pyParser) str() (string, error) {
	q := p.peek()
	if q != '\'' && q != '"' {
		return "", p.errorf("expected a quoted string")
	}
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", p.errorf("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	if strings.IndexByte(v, '\\') >= 0 {
		return "", p.errorf("escapes in strings are not supported")
	}
	p.i += end + 2
	return v, nil
}

// tuple scans a tuple of non-negative integers such as "(3, 4)", "(3,)" or
// "()"; Python 2's long suffix ("3L") is accepted.
func (p *pyParser) tuple() ([]int64, error) {
	if !p.eat('(') {
		return nil, p.errorf("shape must be a tuple")
	}
	dims := []int64{}
	for {
		p.space()
		if p.eat(')') {
			return dims, nil
		}
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if p.i == start {
			return nil, p.errorf("expected a non-negative integer in shape")
		}
		d, err := strconv.ParseInt(p.s[start:p.i], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("shape dimension %s is too large", p.s[start:p.i])
		}
		if len(dims) == 8 {
			return nil, p.errorf("shape has too many dimensions")
		}
		dims = append(dims, d)
		if p.peek() == 'L' || p.peek() == 'l' {
			p.i++
		}
		p.space()
		if p.peek() == ')' {
			// No comma after this number: "(3)" is an int in Python.
			if len(dims) == 1 {
				return nil, p.errorf("a one-element shape needs a trailing comma")
			}
			p.i++
			return dims, nil
		}
		if !p.eat(',') {
			return nil, p.errorf("expected ',' or ')' in shape")
		}
	}
}

// shapeString formats a shape the way Python prints a tuple.
func shapeString[T int | int64](shape []T) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(int64(d), 10))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// readNPYFile decodes the .npy file at path (gzip-compressed or not).
func readNPYFile(path string) (*NPYArray, error) {
	src, err := openPath(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	return src.npy(displayName(path))
}

// npy decodes src, the whole of an input, as one .npy array, named name in
// messages. When its length was not known beforehand (gzip-compressed
// content or a stream) it reads on to the end: bytes after the array are
// an error, as in a regular file (readNPYHeader), and reaching the end of
// a gzip stream is what checks its CRC-32 and length, so that a damaged
// compressed file is refused instead of read as other numbers.
func (src *source) npy(name string) (*NPYArray, error) {
	a, err := decodeNPY(src.br, name, src.size)
	if err != nil {
		return nil, err
	}
	return a, src.npyEnd(name)
}

// npyEnd returns an error when src, a stream (of unknown size) whose
// array has been read, holds more bytes (a sized file's were checked
// against the header).
func (src *source) npyEnd(name string) error {
	if src.size >= 0 {
		return nil
	}
	switch n, err := io.Copy(io.Discard, src.br); {
	case err != nil:
		return &Error{File: name, Err: err}
	case n > 0:
		return errorf(name, 0, "%s of unexpected data after the array", plural.Count(int(n), "byte", "bytes"))
	}
	return nil
}

// scanNPY reads src, the whole of an input holding a .npy array (named
// name in messages), as ScanMatrixRows does: a 2-D array of at least one
// row and column it gives fn a block of rows at a time, each block a new
// matrix, checked as ReadNPYMatrix checks the whole (the same errors, each
// naming the row or element of the file): in C order (or of one row or
// column) as the data comes (scanRows), from a regular file or a gzip
// stream; in Fortran order from an uncompressed regular file in column
// strips (scanColumns), and from a gzip-compressed regular file, whose
// first row needs its last column, at the stream's end, decompressed into
// a temporary file first (scanSpilled). Any other array — of another
// shape, in Fortran order in a gzip stream that is no regular file (a
// pipe), or whose data no temporary file could take — it reads whole as
// ReadNPYMatrix reads it (the same matrix or error) and gives fn at once.
// fn's error stops the reading and is returned as it is.
func (src *source) scanNPY(name string, block int, fn func(*mat.Dense) error) error {
	l, err := readNPYHeader(src.br, name, src.size)
	if err != nil {
		return hintText(err, matrixHint)
	}
	// A stream's shape may not fit int (a sized file's was checked): it
	// is read whole, which refuses it as its data comes.
	if _, fits := shapeCount(l.dims, math.MaxInt); fits && len(l.dims) == 2 && l.dims[0] > 0 && l.dims[1] > 0 {
		rows, cols := int(l.dims[0]), int(l.dims[1])
		switch {
		case !l.fortran || rows == 1 || cols == 1:
			return src.scanRows(l, name, block, fn)
		case src.size >= 0 && src.file != nil && rows > block:
			return src.scanColumns(l, name, block, fn)
		case src.file != nil && rows > block && regular(src.file):
			spilled, err := src.scanSpilled(l, name, block, fn)
			if spilled {
				return err
			}
			// No temporary file: read whole, from the start again.
			if src, err = openPath(src.file.Name()); err != nil {
				return err
			}
			defer src.close()
			if l, err = readNPYHeader(src.br, name, src.size); err != nil {
				return hintText(err, matrixHint)
			}
		}
	}
	a, err := l.decode(src.br, name, src.size >= 0)
	if err == nil {
		err = src.npyEnd(name)
	}
	if err != nil {
		return hintText(err, matrixHint)
	}
	A, err := a.matrix(name)
	if err != nil {
		return err
	}
	return fn(A)
}

// scanRows is scanNPY of the 2-D array l in row order (C order, or of one
// row or column), read from src.br in eachChunk's bounded chunks: it
// converts each value once, into the block of rows it belongs to, and
// gives fn each block once full. Of a stream (gzip) it allocates a block
// as its values come, not as the header announces them, and reads to the
// end (npyEnd) before it returns a NaN or infinity it found in a block:
// reading it whole finds a stream's truncation, trailing bytes or damaged
// checksum before it checks the values.
func (src *source) scanRows(l *npyLayout, name string, block int, fn func(*mat.Dense) error) error {
	rows, cols := int(l.dims[0]), int(l.dims[1])
	size := l.typ.size
	var cur []float64   // the values of the block being filled, from row lo
	lo := 0             // the first row of cur
	var nonfinite error // a stream's first NaN or infinity
	// Chunks of at most a block's bytes: a block of rows read holds no
	// more than its values and their bytes.
	most := min(npyChunk, int64(min(block, rows))*int64(cols)*int64(size))
	err := l.eachChunkOf(src.br, name, most, func(chunk []byte, _ int64) error {
		for len(chunk) > 0 && nonfinite == nil {
			n := min(block, rows-lo) // the rows of cur's block
			if cur == nil {
				if src.size < 0 {
					cur = make([]float64, 0, min(n*cols, maxPrealloc))
				} else {
					cur = make([]float64, 0, n*cols)
				}
			}
			take := min(len(chunk), (n*cols-len(cur))*size)
			var err error
			if cur, err = appendValues(cur, chunk[:take], l.typ); err != nil {
				return hintText(&Error{File: name, Err: l.locate(err, lo*cols)}, matrixHint)
			}
			chunk = chunk[take:]
			if len(cur) < n*cols {
				return nil // the chunk is used up
			}
			for k, v := range cur {
				if !isFinite(v) {
					nonfinite = nonFinite(name, lo+k/cols, k%cols, v)
					break
				}
			}
			if nonfinite != nil && src.size >= 0 {
				return nonfinite
			}
			if nonfinite == nil {
				if err := fn(mat.NewDense(n, cols, cur)); err != nil {
					return err
				}
			}
			cur, lo = nil, lo+n
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := src.npyEnd(name); err != nil {
		return hintText(err, matrixHint)
	}
	return nonfinite
}

// scanColumns is scanNPY of the 2-D Fortran-order array l of the regular,
// uncompressed file src.file: each block of rows it reads as a strip of
// each column (ReadAt: a block's values and one column's bytes held, not
// the file's), transposed into the block's rows. A value no float64 holds
// (an integer beyond 2⁵³) is the error of the first in file order
// (firstValueError), as reading the file whole gives it.
func (src *source) scanColumns(l *npyLayout, name string, block int, fn func(*mat.Dense) error) error {
	rows, cols := int(l.dims[0]), int(l.dims[1])
	size := int64(l.typ.size)
	strip := make([]byte, int64(block)*size)
	var col []float64
	for lo := 0; lo < rows; lo += block {
		n := min(block, rows-lo)
		vals := make([]float64, n*cols)
		for j := range cols {
			b := strip[:int64(n)*size]
			at := (int64(j)*int64(rows) + int64(lo)) * size // in the data
			if k, err := src.file.ReadAt(b, l.offset+at); k < len(b) {
				// The size was checked against the shape: the file changed.
				if err == nil || err == io.EOF {
					return errorf(name, 0, "truncated: shape %s of %s needs %d data bytes, found %d", shapeString(l.dims), l.descr, l.nbytes, at+int64(k))
				}
				return &Error{File: name, Err: err}
			}
			var err error
			if col, err = appendValues(col[:0], b, l.typ); err != nil {
				return src.firstValueError(l, name, err)
			}
			for i, v := range col {
				vals[i*cols+j] = v
			}
		}
		for k, v := range vals {
			if !isFinite(v) {
				return nonFinite(name, lo+k/cols, k%cols, v)
			}
		}
		if err := fn(mat.NewDense(n, cols, vals)); err != nil {
			return err
		}
	}
	return nil
}

// regular reports whether f is a regular file (not a pipe or a device),
// which can be read again from its start.
func regular(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode().IsRegular()
}

// scanSpilled is scanNPY of the 2-D Fortran-order array l of the
// gzip-compressed regular file src.file, whose stream gives its first row
// only with its last column, at the end: it decompresses the data into a
// temporary file (os.CreateTemp's directory, unlinked as soon as it is made)
// and reads that in column strips (scanColumns), holding a block of rows,
// not the array. It checks what reading the file whole checks, in the same
// order, with the same errors: each value as it comes (an integer beyond
// 2⁵³, by its row and column), the stream's length and its end (npyEnd:
// trailing bytes, the gzip checksum), then each block's values (NaN and
// infinities, the first in row order). spilled is false, and nothing was
// given to fn, when the temporary file could not be made or written (a
// full disk): src is then spent, and the caller reads the file again.
func (src *source) scanSpilled(l *npyLayout, name string, block int, fn func(*mat.Dense) error) (spilled bool, err error) {
	tmp, err := os.CreateTemp("", "greedytl-npy-*")
	if err != nil {
		return false, nil
	}
	// Unlinked at once where the system allows it (the open file stays
	// readable), so that a process killed while reading leaves no file
	// behind; where it does not (Windows), it is removed on return.
	removed := os.Remove(tmp.Name()) == nil
	defer func() {
		tmp.Close()
		if !removed {
			os.Remove(tmp.Name())
		}
	}()
	var scratch []float64
	var writeErr error
	check := l.typ.mayBeInexact() // else no value can fail appendValues
	err = l.eachChunk(src.br, name, func(chunk []byte, read int64) error {
		if check {
			var err error
			if scratch, err = appendValues(scratch[:0], chunk, l.typ); err != nil {
				return &Error{File: name, Err: l.locate(err, int(read/int64(l.typ.size)))}
			}
		}
		if _, writeErr = tmp.Write(chunk); writeErr != nil {
			return writeErr
		}
		return nil
	})
	switch {
	case writeErr != nil:
		return false, nil
	case err == nil:
		err = src.npyEnd(name)
	}
	if err != nil {
		return true, hintText(err, matrixHint)
	}
	data := *l
	data.offset = 0 // the temporary file holds the data alone
	return true, (&source{file: tmp, size: l.nbytes}).scanColumns(&data, name, block, fn)
}

// firstValueError returns the error of the first value in file order of
// the array l of src.file that no float64 holds, as reading it whole
// (readData) gives it, reading its data again in eachChunk's bounded
// chunks; found, an error of a strip, when it finds none there (the file
// changed).
func (src *source) firstValueError(l *npyLayout, name string, found error) error {
	var scratch []float64
	err := l.eachChunk(io.NewSectionReader(src.file, l.offset, l.nbytes), name, func(chunk []byte, read int64) error {
		var err error
		if scratch, err = appendValues(scratch[:0], chunk, l.typ); err != nil {
			return &Error{File: name, Err: l.locate(err, int(read/int64(l.typ.size)))}
		}
		return nil
	})
	if err == nil {
		err = &Error{File: name, Err: found}
	}
	return hintText(err, matrixHint)
}

// ReadNPYMatrix reads a 2-D .npy file (optionally gzip-compressed) as a
// matrix. A 1-D array is an error ("expected a 2-D array"), as are empty
// dimensions and any NaN or infinite value, reported with its 0-based row
// and column.
func ReadNPYMatrix(path string) (*mat.Dense, error) {
	a, err := readNPYFile(path)
	if err != nil {
		return nil, hintText(err, matrixHint)
	}
	return a.matrix(displayName(path))
}

// matrix returns a 2-D array as a matrix sharing a.Data, checking that it
// is non-empty and finite.
func (a *NPYArray) matrix(name string) (*mat.Dense, error) {
	switch {
	case len(a.Shape) == 1:
		// What scikit-learn's decision_function of one classifier
		// returns: refused as scikit-learn refuses a 1-D X, with its advice.
		return nil, errorf(name, 0, "expected a 2-D array, got shape %s: save one column (one source's scores, as a decision_function returns them) as np.save(path, a.reshape(-1, 1)), one row as a.reshape(1, -1)", shapeString(a.Shape))
	case len(a.Shape) != 2:
		return nil, errorf(name, 0, "expected a 2-D array, got shape %s", shapeString(a.Shape))
	}
	r, c := a.Shape[0], a.Shape[1]
	switch {
	case r == 0:
		return nil, errorf(name, 0, "no rows (shape %s)", shapeString(a.Shape))
	case c == 0:
		return nil, errorf(name, 0, "no columns (shape %s)", shapeString(a.Shape))
	}
	for k, v := range a.Data {
		if !isFinite(v) {
			return nil, nonFinite(name, k/c, k%c, v)
		}
	}
	return mat.NewDense(r, c, a.Data), nil
}

// ReadNPYInts reads a .npy file of integers, such as class labels: a 1-D
// array, or a 2-D array with one column, of an integer or bool dtype, or of
// a float dtype whose values are all integers.
func ReadNPYInts(path string) ([]int, error) {
	a, err := readNPYFile(path)
	if err != nil {
		return nil, err
	}
	name := displayName(path)
	v, err := a.vector(name)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(v))
	for i, x := range v {
		if x != math.Trunc(x) || math.Abs(x) > exactInt {
			return nil, errorf(name, 0, "row %d: %s is not an integer", i, formatFloat(x))
		}
		out[i] = int(x)
	}
	return out, nil
}

// vector returns the values of a 1-D array or a one-column 2-D array,
// rejecting NaN and ±Inf.
func (a *NPYArray) vector(name string) ([]float64, error) {
	if err := vectorShape(name, a.Shape); err != nil {
		return nil, err
	}
	for i, v := range a.Data {
		if !isFinite(v) {
			return nil, nonFinite(name, i, -1, v)
		}
	}
	return a.Data, nil
}

// vectorShape returns the error of a .npy array of shape shape (named name)
// read as one value per example, the labels' readers' shape, when it is 2-D
// with more than one column; nil otherwise.
func vectorShape(name string, shape []int) error {
	if len(shape) == 2 && shape[1] != 1 {
		return errorf(name, 0, "expected a 1-D array or a single column, got shape %s", shapeString(shape))
	}
	return nil
}

// WriteNPY writes m to w in .npy format version 1.0: dtype '<f8', C order,
// shape (r, c), the header padded to a multiple of 64 bytes as NumPy pads it.
// It returns an error, writing nothing, when w or m is nil, m is a nil
// pointer or an empty matrix (the zero mat.Dense), or m holds a NaN or an
// infinity (a *inputcheck.NonFiniteError naming its row and column, as
// NPYRowWriter refuses one: the readers here refuse it too), and when w
// fails.
func WriteNPY(w io.Writer, m mat.Matrix) error {
	if inputcheck.Absent(m) {
		return errors.New("dataset: WriteNPY: no matrix (nil or empty)")
	}
	if err := inputcheck.CheckFinite("", m); err != nil {
		return fmt.Errorf("dataset: WriteNPY: %w", err)
	}
	r, c := m.Dims()
	if err := writeNPYHeader(w, "<f8", []int{r, c}); err != nil {
		return err
	}
	buf := make([]byte, 0, bufSize)
	row := make([]float64, c)
	for i := 0; i < r; i++ {
		mat.Row(row, i, m)
		for _, v := range row {
			if len(buf)+8 > cap(buf) {
				if _, err := w.Write(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
	}
	_, err := w.Write(buf)
	return err
}

// WriteNPYInts writes v to w as a 1-D .npy array of dtype '<i8' (version
// 1.0), the form NumPy gives integer labels by default. It returns an error,
// writing nothing, when w is nil, and when w fails.
func WriteNPYInts(w io.Writer, v []int) error {
	if err := writeNPYHeader(w, "<i8", []int{len(v)}); err != nil {
		return err
	}
	buf := make([]byte, 0, bufSize)
	for _, x := range v {
		if len(buf)+8 > cap(buf) {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
		buf = binary.LittleEndian.AppendUint64(buf, uint64(int64(x)))
	}
	_, err := w.Write(buf)
	return err
}

// WriteNPYHeader writes the magic, version and header of a C-order .npy
// array of the NumPy type descr ("<f4", "<i8") and the given shape, for a
// writer that streams the data after it (row by row, never holding the
// array); the data must then be exactly the shape's number of values. It
// returns an error, writing nothing, when w is nil, descr is not a type
// DecodeNPY reads or a dimension is negative.
func WriteNPYHeader(w io.Writer, descr string, shape []int) error {
	if _, err := parseDescr(descr); err != nil {
		return fmt.Errorf("dataset: WriteNPYHeader: %w", err)
	}
	return writeNPYHeader(w, descr, shape)
}

// writeNPYHeader writes the magic, version and header of a C-order array.
// Version 1.0 is used unless the header needs more than 65535 bytes. It
// returns an error, writing nothing, when w is nil or a dimension is
// negative.
func writeNPYHeader(w io.Writer, descr string, shape []int) error {
	if typednil.Is(w) {
		return errors.New("dataset: no writer (nil)")
	}
	if slices.ContainsFunc(shape, func(d int) bool { return d < 0 }) {
		return fmt.Errorf("dataset: .npy shape %s has a negative dimension", shapeString(shape))
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shapeString(shape))
	pre := []byte(npyMagic + "\x01\x00\x00\x00")
	total := len(pre) + len(dict) + 1 // +1 for the final newline
	pad := (64 - total%64) % 64
	hlen := len(dict) + pad + 1
	if hlen > math.MaxUint16 {
		pre = []byte(npyMagic + "\x02\x00\x00\x00\x00\x00")
		total = len(pre) + len(dict) + 1
		pad = (64 - total%64) % 64
		hlen = len(dict) + pad + 1
		binary.LittleEndian.PutUint32(pre[8:], uint32(hlen))
	} else {
		binary.LittleEndian.PutUint16(pre[8:], uint16(hlen))
	}
	b := append(pre, dict...)
	b = append(b, strings.Repeat(" ", pad)...)
	b = append(b, '\n')
	_, err := w.Write(b)
	return err
}

// formatFloat formats v in the shortest form that reads back exactly.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
