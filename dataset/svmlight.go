package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/greedytl/greedytl/inputcheck"
	"github.com/greedytl/greedytl/internal/bom"
	"github.com/greedytl/greedytl/internal/number"
	"github.com/greedytl/greedytl/internal/typednil"
	"github.com/greedytl/greedytl/sparse"
)

// maxSVMLightIndex is the largest feature index accepted: liblinear's limit
// (a C int), and a guard against a single token announcing a column count
// that consumers would allocate dense vectors for.
const maxSVMLightIndex = math.MaxInt32

// ReadSVMLight reads a LIBSVM/svmlight file (optionally gzip-compressed) as
// sparse rows and raw labels; see DecodeSVMLight. The column count is the
// largest feature index in the file.
func ReadSVMLight(path string) (*sparse.CSR, []float64, error) {
	return ReadSVMLightChecked(path, nil)
}

// ReadSVMLightChecked is ReadSVMLight that also calls check, when not nil,
// on every label, its value and its text as the file writes it (for the
// message: a label such as 1234567890123456789 reads as another number),
// and returns its error as an *Error naming the label's line: a learner's
// rule on labels (linear.CheckLabel: integers) reported where the label is
// written rather than by its row.
func ReadSVMLightChecked(path string, check func(label float64, text string) error) (*sparse.CSR, []float64, error) {
	src, err := openPath(path)
	if err != nil {
		return nil, nil, err
	}
	defer src.close()
	entries, rows := src.countSVMLight()
	return decodeSVMLight(src.br, displayName(path), 0, entries, rows+1, check)
}

// DecodeSVMLight reads LIBSVM/svmlight text from r: one example per line,
//
//	label index:value index:value ... # comment
//
// with tokens separated by blanks, 1-based feature indices in strictly
// increasing order (as liblinear requires), and finite numbers (in
// strconv.ParseFloat's syntax without digit separators: what C's strtod,
// and so liblinear, reads). A "qid:"
// token right after the label is ignored (one a line: one after a
// feature, or a second, is an error, as scikit-learn's
// load_svmlight_file says), as are blank lines and comments. Input starting with
// the gzip magic bytes is decompressed. name is used in error messages,
// which give the 1-based line, e.g. "x.svm:12: index 0: indices start at 1".
//
// The rows come back as a CSR matrix with 0-based columns (index k is
// column k−1), explicit zeros kept; its column count is the largest index
// seen, or nFeatures if that is larger (nFeatures ≤ 0 means none given).
// Labels are returned as written. Input without examples is an error.
func DecodeSVMLight(r io.Reader, name string, nFeatures int) (*sparse.CSR, []float64, error) {
	return DecodeSVMLightChecked(r, name, nFeatures, nil)
}

// DecodeSVMLightChecked is DecodeSVMLight that also calls check, when not
// nil, on every label, as ReadSVMLightChecked does.
func DecodeSVMLightChecked(r io.Reader, name string, nFeatures int, check func(label float64, text string) error) (*sparse.CSR, []float64, error) {
	br, _, err := maybeGunzip(r, name)
	if err != nil {
		return nil, nil, err
	}
	return decodeSVMLight(br, name, nFeatures, 0, 0, check)
}

// decodeSVMLight is DecodeSVMLight on uncompressed text, with room made for
// entries stored values and rows rows (bounds, or 0 when unknown): reading
// into arrays of the right size saves copying them as they grow, and the
// collections that the garbage of those copies would cause. check, when
// not nil, is called on every label.
func decodeSVMLight(r io.Reader, name string, nFeatures, entries, rows int, check func(float64, string) error) (*sparse.CSR, []float64, error) {
	lr := newLineReader(r, name)
	x := &sparse.CSR{Ptr: make([]int, 1, rows+1), Ind: make([]int, 0, entries), Val: make([]float64, 0, entries)}
	y := make([]float64, 0, rows)
	maxIndex := 0
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if k := bytes.IndexByte(line, '#'); k >= 0 {
			if len(y) == 0 && bytes.Equal(bytes.TrimSpace(line[k:]), []byte(sklearnZeroBased)) {
				return nil, nil, errorf(name, lr.line, "%q: scikit-learn's dump_svmlight_file wrote it with zero_based=True, where liblinear's indices, and so train's, start at 1 (read so, every feature would move one column): write it with zero_based=False", sklearnZeroBased)
			}
			line = line[:k]
		}
		label, rest := nextToken(line)
		if len(label) == 0 {
			continue
		}
		v, err := parseNumber(label)
		switch {
		case err != nil && bytes.IndexByte(label, ',') >= 0:
			return nil, nil, errorf(name, lr.line, "bad label %s: several labels, as scikit-learn's dump_svmlight_file writes with multilabel=True; train takes one label an example", quoteField(label))
		case err != nil && bytes.Contains(label, []byte(bom.Mark)):
			return nil, nil, errorf(name, lr.line, "bad label %s: %s", quoteField(label), bom.Inside)
		case err != nil:
			return nil, nil, errorf(name, lr.line, "bad label %s", quoteField(label))
		case !isFinite(v):
			return nil, nil, errorf(name, lr.line, "label is %v", v)
		case check != nil:
			// The label's text is for the message alone: made only then,
			// not for every row (a string given to a func value escapes).
			if check(v, "") != nil {
				return nil, nil, &Error{File: name, Line: lr.line, Err: check(v, string(label))}
			}
		}
		y = append(y, v)
		prev := 0
		var qid []byte // the line's "qid:" token, once read
		for {
			var tok []byte
			tok, rest = nextToken(rest)
			if len(tok) == 0 {
				break
			}
			if bytes.HasPrefix(tok, []byte("qid:")) {
				if err := qidPlace(tok, qid, prev); err != nil {
					return nil, nil, &Error{File: name, Line: lr.line, Err: err}
				}
				qid = tok
				continue
			}
			idx, val, err := parseFeature(tok, prev)
			if err != nil {
				return nil, nil, &Error{File: name, Line: lr.line, Err: err}
			}
			prev = idx
			x.Ind = append(x.Ind, idx-1)
			x.Val = append(x.Val, val)
		}
		maxIndex = max(maxIndex, prev)
		x.Ptr = append(x.Ptr, len(x.Ind))
	}
	if lr.err != nil {
		return nil, nil, lr.err
	}
	if len(y) == 0 {
		return nil, nil, errorf(name, 0, "no rows")
	}
	x.R = len(y)
	x.C = max(maxIndex, nFeatures)
	return x, y, nil
}

// qidPlace returns the error of the "qid:" token tok of an example's line
// whose features so far end at index prev (0: none yet) and which had the
// "qid:" token qid before (nil: none): as svmlight defines it, and
// scikit-learn's load_svmlight_file reads it, a line holds at most one,
// right after the label, before any feature.
func qidPlace(tok, qid []byte, prev int) error {
	switch {
	case qid != nil:
		return fmt.Errorf("a second query id %s after %s: an example has one, right after its label", quoteField(tok), quoteField(qid))
	case prev > 0:
		return fmt.Errorf("query id %s after index %d: it comes right after the label, before the features", quoteField(tok), prev)
	}
	return nil
}

// sklearnZeroBased is the comment line scikit-learn's dump_svmlight_file
// writes in the header it adds when given a comment, of a file written
// with zero_based=True (its default): indices from 0.
const sklearnZeroBased = "# Column indices are zero-based"

// nextToken splits off the first blank-separated token of b.
func nextToken(b []byte) (tok, rest []byte) {
	i := 0
	for i < len(b) && isBlank(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !isBlank(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

// isBlank reports whether c separates an svmlight line's tokens: a byte
// of a blank line (lineBlanks, the one list of them) or the carriage
// return of a CRLF line ending. A table made once from them: a search of
// lineBlanks for every byte of every token made reading 40 % slower.
func isBlank(c byte) bool { return svmlightBlanks[c] }

// svmlightBlanks marks the bytes isBlank reports.
var svmlightBlanks = func() (t [256]bool) {
	for _, c := range []byte(lineBlanks + "\r") {
		t[c] = true
	}
	return t
}()

// parseFeature parses an "index:value" token whose index must exceed prev.
func parseFeature(tok []byte, prev int) (int, float64, error) {
	k := bytes.IndexByte(tok, ':')
	if k < 0 {
		return 0, 0, fmt.Errorf("expected index:value, got %s", quoteField(tok))
	}
	idx, err := strconv.Atoi(string(tok[:k]))
	switch {
	case errors.Is(err, strconv.ErrRange) || (err == nil && idx > maxSVMLightIndex):
		return 0, 0, fmt.Errorf("index %s exceeds the limit %d", tok[:k], maxSVMLightIndex)
	case err != nil:
		return 0, 0, fmt.Errorf("bad index in %s", quoteField(tok))
	case idx <= 0:
		return 0, 0, fmt.Errorf("index %d: indices start at 1, as liblinear's (scikit-learn's dump_svmlight_file writes them from 0 unless given zero_based=False)", idx)
	case idx <= prev:
		return 0, 0, fmt.Errorf("index %d after %d: indices must be strictly increasing", idx, prev)
	}
	val, err := parseNumber(tok[k+1:])
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, 0, fmt.Errorf("index %d: value %s is out of float64 range", idx, quoteField(tok[k+1:]))
	case err != nil && nanText(string(tok[k+1:])):
		return 0, 0, fmt.Errorf("index %d: value is NaN (%s)", idx, quoteField(tok[k+1:]))
	case err != nil:
		return 0, 0, fmt.Errorf("index %d: cannot parse value %s", idx, quoteField(tok[k+1:]))
	case !isFinite(val):
		return 0, 0, fmt.Errorf("index %d: value is %v", idx, val)
	}
	return idx, val, nil
}

// parseNumber parses a number of a text data file (an svmlight label or
// value, a CSV field, a label) as liblinear (C's strtod) reads it:
// number.Parse, strconv.ParseFloat's syntax without Go's digit separators,
// which liblinear-train refuses ("Wrong input format") and ParseFloat
// would read ("1_0" as 10).
func parseNumber(b []byte) (float64, error) { return number.Parse(string(b)) }

// WriteSVMLight writes the rows of x with labels y in LIBSVM/svmlight
// format, 1-based indices, numbers in the shortest form that reads back
// exactly (the round trip through DecodeSVMLight is exact). Every stored
// entry is written, explicit zeros included. It returns an error, writing
// nothing, when w or x is nil, x is malformed or len(y) != x.R, and an
// error when a label or value is not finite.
func WriteSVMLight(w io.Writer, x *sparse.CSR, y []float64) error {
	switch {
	case typednil.Is(w):
		return errors.New("dataset: WriteSVMLight: no writer (nil)")
	case x == nil:
		return errors.New("dataset: WriteSVMLight: no matrix (nil)")
	case len(y) != x.R:
		return fmt.Errorf("dataset: WriteSVMLight: %d labels for %d rows", len(y), x.R)
	}
	if err := x.Check(); err != nil {
		return err
	}
	buf := make([]byte, 0, bufSize)
	for i := 0; i < x.R; i++ {
		if !isFinite(y[i]) {
			return fmt.Errorf("dataset: %w", &inputcheck.NonFiniteError{Name: "y", Row: i, Col: -1, Value: y[i]})
		}
		buf = strconv.AppendFloat(buf, y[i], 'g', -1, 64)
		ind, val := x.Row(i)
		for k, j := range ind {
			if !isFinite(val[k]) {
				return fmt.Errorf("dataset: %w", &inputcheck.NonFiniteError{Name: "x", Row: i, Col: j, Value: val[k]})
			}
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j+1), 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, val[k], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if len(buf) >= bufSize/2 || i == x.R-1 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	return nil
}
