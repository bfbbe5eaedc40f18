package dataset

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxNPYChars is the most characters of a string dtype ('<U n') that
// labelDescr takes: a label is a name, and a longer width is a header
// gone wrong, not a label (4 MiB an element).
const maxNPYChars = 1 << 20

// labelDescr parses the dtype of a .npy label file: parseDescr's, and
// NumPy's fixed-width Unicode strings, what np.save writes of an array of
// str: '<U n' (little-endian UTF-32, n code points an element), '>U n'
// (big-endian) and 'U n', '=U n' or '|U n' (the machine's order), 1 ≤ n ≤
// maxNPYChars, as kind 'U' and size 4·n. Other dtypes are parseDescr's
// errors.
func labelDescr(s string) (npyType, error) {
	t, err := parseDescr(s)
	if err == nil {
		return t, nil
	}
	u := npyType{kind: 'U'}
	var rest string
	u.order, rest = splitByteOrder(s)
	digits, ok := strings.CutPrefix(rest, "U")
	n, nerr := strconv.Atoi(digits)
	if !ok || nerr != nil || n < 1 || n > maxNPYChars || strconv.Itoa(n) != digits {
		return npyType{}, err
	}
	u.size = 4 * n
	return u, nil
}

// npyLabels decodes the .npy label file src, named name in messages: an
// array of numbers as src.npy decodes it (texts nil), or an array of
// NumPy's strings (labelDescr) as its values (a nil a), each without the
// NULs that pad it to the dtype's width, as NumPy reads them. Either is
// 1-D or 2-D with one column.
func (src *source) npyLabels(name string) (a *NPYArray, texts []string, err error) {
	l, err := readNPYHeaderOf(src.br, name, src.size, labelDescr)
	if err != nil {
		return nil, nil, err
	}
	if l.typ.kind != 'U' {
		if a, err = l.decode(src.br, name, src.size >= 0); err == nil {
			err = src.npyEnd(name)
		}
		return a, nil, err
	}
	if err := vectorShape(name, l.intShape()); err != nil {
		return nil, nil, err
	}
	if texts, err = l.readTexts(src.br, name); err == nil {
		err = src.npyEnd(name)
	}
	return nil, texts, err
}

// readTexts reads the strings of l, an array of kind 'U', from r
// (positioned at the data), a bounded chunk of whole elements at a time.
// A code unit that is not a Unicode scalar value (a surrogate, or above
// U+10FFFF) is an error naming its row and character.
func (l *npyLayout) readTexts(r io.Reader, name string) ([]string, error) {
	width := l.typ.size
	texts := make([]string, 0, min(l.count, maxPrealloc))
	var runes []byte
	err := l.eachChunk(r, name, func(chunk []byte, _ int64) error {
		for e := 0; e < len(chunk); e += width {
			el := chunk[e : e+width]
			end := width / 4
			for end > 0 && l.typ.order.Uint32(el[4*(end-1):]) == 0 {
				end-- // NumPy pads with NULs and strips them on reading
			}
			runes = runes[:0]
			for j := range end {
				c := l.typ.order.Uint32(el[4*j:])
				if c > utf8.MaxRune || c >= 0xD800 && c <= 0xDFFF {
					return errorf(name, 0, "row %d: character %d is 0x%X, not a Unicode character (UTF-32)", len(texts), j, c)
				}
				runes = utf8.AppendRune(runes, rune(c))
			}
			texts = append(texts, string(runes))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return texts, nil
}
