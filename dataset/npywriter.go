package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/greedytl/greedytl/inputcheck"
)

// NPYRowWriter writes a 2-D float32 .npy array (dtype '<f4', C order) one
// row at a time, so that a matrix larger than memory can be written: only
// the header and the current row are held. Create it with
// NewNPYRowWriter, call WriteRow once per row and Close at the end.
type NPYRowWriter struct {
	w          io.Writer
	rows, cols int
	written    int
	buf        []byte
}

// errNoRowWriter is the error of NPYRowWriter's methods on a nil or zero
// writer.
var errNoRowWriter = errors.New("dataset: an NPYRowWriter not made by NewNPYRowWriter")

// NewNPYRowWriter writes the header of a rows × cols float32 array to w
// and returns the writer of its rows. It returns an error for a nil w, a
// negative shape or when the header cannot be written.
func NewNPYRowWriter(w io.Writer, rows, cols int) (*NPYRowWriter, error) {
	if err := writeNPYHeader(w, "<f4", []int{rows, cols}); err != nil {
		return nil, err
	}
	return &NPYRowWriter{w: w, rows: rows, cols: cols, buf: make([]byte, 4*cols)}, nil
}

// WriteRow writes the next row. It returns an error when the row has the
// wrong length, holds a NaN or an infinity, every row has been written
// already, the write fails, or nw is nil or was not made by
// NewNPYRowWriter.
func (nw *NPYRowWriter) WriteRow(row []float32) error {
	switch {
	case nw == nil || nw.w == nil:
		return errNoRowWriter
	case len(row) != nw.cols:
		return fmt.Errorf("dataset: row %d has %d values, want %d", nw.written, len(row), nw.cols)
	case nw.written == nw.rows:
		return fmt.Errorf("dataset: row %d is one more than the %d rows announced", nw.written, nw.rows)
	}
	for j, v := range row {
		if !isFinite(float64(v)) {
			return fmt.Errorf("dataset: %w", &inputcheck.NonFiniteError{Row: nw.written, Col: j, Value: float64(v)})
		}
		binary.LittleEndian.PutUint32(nw.buf[4*j:], math.Float32bits(v))
	}
	if _, err := nw.w.Write(nw.buf); err != nil {
		return err
	}
	nw.written++
	return nil
}

// Close returns an error when fewer rows were written than announced, or
// nw is nil or was not made by NewNPYRowWriter; it does not close the
// underlying writer.
func (nw *NPYRowWriter) Close() error {
	if nw == nil || nw.w == nil {
		return errNoRowWriter
	}
	if nw.written != nw.rows {
		return fmt.Errorf("dataset: %d rows written of the %d announced", nw.written, nw.rows)
	}
	return nil
}
