package dataset

import (
	"bufio"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"slices"
)

// readChunk bounds the bytes read by one call when rows are read on demand.
const readChunk = 4 << 20

// npyRows reads the rows of a 2-D .npy file on demand, by offset, so that
// a process holds only the rows it asks for. It serves uncompressed files
// in C order (or of one row or column, where the order does not matter) of
// the dtypes DecodeNPY reads; its methods are safe for concurrent use.
type npyRows struct {
	file       *os.File
	name       string
	l          *npyLayout
	rows, cols int
	// sum is the marshalled SHA-256 state after the check pass wrote the
	// features to it as FeaturesHash describes.
	sum []byte
}

// errNotRowReadable reports a file that npyRows cannot serve (compressed,
// Fortran order, not 2-D): the caller reads it whole instead.
var errNotRowReadable = errors.New("dataset: not readable by rows")

// openNPYRows opens path for reading by rows and checks, in one sequential
// pass, that it has at least one row and column and that every value is
// finite (and exact, for integers), as ReadNPYMatrix does, with its errors:
// those of an array it cannot take carry the matrix readers' hint
// (hintText's matrixHint: "save the array as float64 …" for an integer
// beyond 2⁵³). It returns errNotRowReadable for a file it cannot serve.
func openNPYRows(path string) (a *npyRows, err error) {
	src, err := openPath(path)
	if err != nil {
		return nil, hintText(err, matrixHint)
	}
	defer func() {
		if err != nil {
			src.close()
			a, err = nil, hintText(err, matrixHint)
		}
	}()
	if src.file == nil || src.size < 0 {
		return nil, errNotRowReadable
	}
	name := displayName(path)
	l, err := readNPYHeader(src.br, name, src.size)
	if err != nil {
		return nil, err
	}
	shape := l.intShape() // it fits: readNPYHeader knew the size
	if len(shape) != 2 || l.fortran && shape[0] > 1 && shape[1] > 1 {
		return nil, errNotRowReadable
	}
	a = &npyRows{file: src.file, name: name, l: l, rows: shape[0], cols: shape[1]}
	switch {
	case a.rows == 0:
		return nil, errorf(name, 0, "no rows (shape %s)", shapeString(shape))
	case a.cols == 0:
		return nil, errorf(name, 0, "no columns (shape %s)", shapeString(shape))
	}
	if err := a.check(src.br); err != nil {
		return nil, err
	}
	return a, nil
}

// check reads the data sequentially from r and returns an error for the
// first value that is not finite, or an integer float64 cannot hold. In the
// same pass it hashes the features as FeaturesHash describes, into a.sum.
func (a *npyRows) check(r *bufio.Reader) error {
	rowBytes := a.cols * a.l.typ.size
	perChunk := max(1, readChunk/rowBytes)
	buf := make([]byte, perChunk*rowBytes)
	vals := make([]float64, 0, perChunk*a.cols)
	h := sha256.New()
	bits := binary.LittleEndian.AppendUint64(nil, uint64(a.rows))
	bits = binary.LittleEndian.AppendUint64(bits, uint64(a.cols))
	h.Write(bits)
	for i := 0; i < a.rows; i += perChunk {
		n := min(perChunk, a.rows-i)
		chunk := buf[:n*rowBytes]
		if _, err := io.ReadFull(r, chunk); err != nil {
			return truncatedOr(a.name, err, "truncated data")
		}
		var err error
		if vals, err = appendValues(vals[:0], chunk, a.l.typ); err != nil {
			return &Error{File: a.name, Err: a.l.locate(err, i*a.cols)}
		}
		for k, v := range vals {
			if !isFinite(v) {
				return nonFinite(a.name, i+k/a.cols, k%a.cols, v)
			}
		}
		bits = bits[:0]
		for _, v := range vals {
			bits = binary.LittleEndian.AppendUint64(bits, math.Float64bits(v))
		}
		h.Write(bits)
	}
	var err error
	a.sum, err = h.(encoding.BinaryMarshaler).MarshalBinary()
	return err
}

// readRows reads the given rows (each in [0, a.rows)) into a new FeatureRows:
// float32 values when the file stores float32, float64 otherwise. Runs of
// consecutive rows are read with one call each (at most readChunk bytes).
func (a *npyRows) readRows(rows []int) (*FeatureRows, error) {
	b := &FeatureRows{Cols: a.cols}
	f32 := a.l.typ.kind == 'f' && a.l.typ.size == 4
	if f32 {
		b.F32 = make([]float32, len(rows)*a.cols)
	} else {
		b.F64 = make([]float64, len(rows)*a.cols)
	}
	rowBytes := a.cols * a.l.typ.size
	buf := make([]byte, max(1, readChunk/rowBytes)*rowBytes)
	var vals []float64
	for k := 0; k < len(rows); {
		// The run rows[k:e] of consecutive rows that fits the buffer.
		e := k + 1
		for e < len(rows) && rows[e] == rows[e-1]+1 && (e-k+1)*rowBytes <= len(buf) {
			e++
		}
		chunk := buf[:(e-k)*rowBytes]
		if _, err := a.file.ReadAt(chunk, a.l.offset+int64(rows[k])*int64(rowBytes)); err != nil {
			return nil, &Error{File: a.name, Err: fmt.Errorf("reading rows %d to %d: %w", rows[k], rows[e-1], err)}
		}
		if f32 {
			dst := b.F32[k*a.cols : e*a.cols]
			order := a.l.typ.order
			for j := range dst {
				dst[j] = math.Float32frombits(order.Uint32(chunk[4*j:]))
			}
		} else {
			var err error
			if vals, err = appendValues(vals[:0], chunk, a.l.typ); err != nil {
				// Not reached unless the file changed: check read every value.
				return nil, hintText(&Error{File: a.name, Err: a.l.locate(err, rows[k]*a.cols)}, matrixHint)
			}
			copy(b.F64[k*a.cols:], vals)
		}
		k = e
	}
	return b, nil
}

// FeatureRows holds rows of a dataset's features, row-major, Cols values a row:
// in float32 (F32) when they are read on demand from a float32 file, in
// float64 (F64) otherwise. Exactly one of F32 and F64 is set.
type FeatureRows struct {
	F32  []float32
	F64  []float64
	Cols int
}

// Len returns the number of rows: 0 for a nil b or one of no columns.
func (b *FeatureRows) Len() int {
	if b == nil || b.Cols <= 0 {
		return 0
	}
	if b.F32 != nil {
		return len(b.F32) / b.Cols
	}
	return len(b.F64) / b.Cols
}

// RowTo copies row i into dst (length Cols), widening float32 exactly.
func (b *FeatureRows) RowTo(dst []float64, i int) {
	if b.F32 != nil {
		for j, v := range b.F32[i*b.Cols : (i+1)*b.Cols] {
			dst[j] = float64(v)
		}
		return
	}
	copy(dst, b.F64[i*b.Cols:(i+1)*b.Cols])
}

// Bytes returns the memory the values take.
func (b *FeatureRows) Bytes() int64 { return int64(len(b.F32))*4 + int64(len(b.F64))*8 }

// Dims returns the number of examples and of features: none for a nil f
// or one without features.
func (f *Folder) Dims() (rows, cols int) {
	switch {
	case f == nil || f.rows == nil && f.X == nil:
		return 0, 0
	case f.rows != nil:
		return f.rows.rows, f.rows.cols
	}
	return f.X.Dims()
}

// ReadRows returns the features of the given rows, in that order (repeats
// allowed): read from features.npy on demand for a folder opened with
// OpenFolder, copied from X otherwise. It returns an error when a row is
// out of range, the file cannot be read or f is nil.
func (f *Folder) ReadRows(rows []int) (*FeatureRows, error) {
	if f == nil {
		return nil, errNoFolder
	}
	r, c := f.Dims()
	for _, i := range rows {
		if i < 0 || i >= r {
			return nil, fmt.Errorf("dataset %s: row %d out of range [0, %d)", f.Dir, i, r)
		}
	}
	if f.rows != nil {
		return f.rows.readRows(rows)
	}
	b := &FeatureRows{F64: make([]float64, 0, len(rows)*c), Cols: c}
	for _, i := range rows {
		b.F64 = append(b.F64, f.X.RawRowView(i)...)
	}
	return b, nil
}

// FeaturesHash returns a SHA-256 hash that has been written the features'
// shape (rows, then columns, as little-endian uint64) and then every value's
// float64 bits (little-endian, row by row), so that a caller can go on
// writing to it. OpenFolder computes it in the pass that checks the
// features; it is nil for other folders, which the caller hashes itself.
func (f *Folder) FeaturesHash() hash.Hash {
	if f == nil || f.rows == nil {
		return nil
	}
	h := sha256.New()
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(f.rows.sum); err != nil {
		return nil // not reached: the state is sha256's own
	}
	return h
}

// Close releases the features file of a folder opened with OpenFolder; it
// does nothing for other folders (a nil f among them). The folder's rows
// cannot be read after.
func (f *Folder) Close() error {
	if f == nil || f.rows == nil {
		return nil
	}
	return f.rows.file.Close()
}

// RowSet returns the sorted distinct rows of lists, and where each row is
// in it: index[row] is the row's position. It is how a caller reads the
// rows several lists need once (ReadRows(set)) and finds them after.
func RowSet(lists ...[]int) (set []int, index map[int]int) {
	for _, l := range lists {
		set = append(set, l...)
	}
	slices.Sort(set)
	set = slices.Compact(set)
	index = make(map[int]int, len(set))
	for k, i := range set {
		index[i] = k
	}
	return set, index
}
