// Package jsonfile reads and writes the JSON documents that describe
// greedytl's output directories (a sources index, a run manifest): strictly
// on reading, so that a misspelt or foreign member is an error rather than
// a silently ignored setting, and atomically on writing.
package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/bom"
)

// Decode decodes the one JSON value of the document doc into v (a byte
// order mark before it is skipped). Object members that v has no
// field for are an error, as is anything but white space after the value
// ("trailing data after the <what>"), and so is a null where v's type
// holds a value that has no nil — a number, string, bool, struct or array
// ("columns[3].weight is null; want a number"), which encoding/json would
// silently leave at its zero value. A null is accepted where the type is a
// pointer (an optional member), a slice, a map or an interface, and
// decodes to nil. Into a *json.RawMessage it checks only that doc holds
// one value and nothing after it, and gives v a part of doc, not a copy.
func Decode(doc []byte, v any, what string) error {
	return decodeBytes(bom.Trim(doc), v, what, false)
}

// DecodeComplete decodes the document doc as Decode does, and also returns an error for a member missing from an object decoded
// into a struct ("columns[0].weight is missing; want a number"), which
// encoding/json would leave at its zero value, when its field is one that
// encoding/json always writes: any but a pointer (an optional member), a
// map (one older writers left out) or a field tagged omitempty or
// omitzero. It is for the documents whose one writer is encoding/json with
// the same types, such as model files, which their readers hold already
// (modelfile.File.Doc).
func DecodeComplete(doc []byte, v any, what string) error {
	return decodeBytes(bom.Trim(doc), v, what, true)
}

// decodeBytes decodes the document doc, without its byte order mark, as
// Decode does. A syntax error, and a value of the wrong type, is a
// *positionError, placed in doc. A *json.RawMessage gets a part of doc,
// not a copy.
func decodeBytes(doc []byte, v any, what string, complete bool) error {
	raw, start, err := firstValue(doc, what)
	if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
		return newPositionError(doc, se.Offset, err)
	}
	if err != nil {
		return err
	}
	if p, ok := v.(*json.RawMessage); ok {
		// Nothing in a raw value is checked: it is the value itself (a
		// model file before its header is read).
		*p = raw
		return nil
	}
	c := &nullChecker{b: raw, complete: complete}
	if err := c.value(destination(v)); err != nil {
		return err
	}
	err = Unmarshal(raw, v)
	if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) {
		// te.Offset counts from raw, which starts at start of doc.
		return newPositionError(doc, start+te.Offset, err)
	}
	return err
}

// positionError is the error of a document that is not valid JSON, or
// whose value has the wrong type somewhere: it says where, by the 1-based
// line and column (in bytes) of the byte at which the problem was seen.
// Read prefixes it as "path:line:column: problem".
type positionError struct {
	Line, Column int
	// Err is encoding/json's error.
	Err error
}

// Error returns "line L, column C: problem".
func (e *positionError) Error() string {
	return fmt.Sprintf("line %d, column %d: %v", e.Line, e.Column, e.Err)
}

// Unwrap returns Err.
func (e *positionError) Unwrap() error { return e.Err }

// newPositionError returns the *positionError of err at the byte offset
// off of doc (clamped to doc); encoding/json's offsets point just past the
// byte at fault, which is the column reported.
func newPositionError(doc []byte, off int64, err error) *positionError {
	off = max(0, min(off, int64(len(doc))))
	before := doc[:off]
	line := 1 + bytes.Count(before, []byte{'\n'})
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return &positionError{Line: line, Column: max(1, col), Err: err}
}

// DecodeObject decodes the JSON object b strictly, as Decode does (members
// without a field and trailing data are errors), into the value that
// choose returns given the set of the object's member names, which it
// returns too. It is stricter than Decode about nulls: one anywhere in b
// is an error ("weights[0] is null: a <what> has no nulls"), for the
// documents whose writer writes none. Its other errors read "not a <what>:
// …". b is walked once for its members and nulls and decoded once.
func DecodeObject(b []byte, what string, choose func(members map[string]bool) any) (map[string]bool, error) {
	raw, _, err := firstValue(bom.Trim(b), what)
	if errors.Is(err, errTrailing) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("not a %s: %w", what, err)
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("not a %s: not a JSON object", what)
	}
	c := &nullChecker{b: raw, noNulls: what, members: map[string]bool{}}
	if err := c.value(nil); err != nil {
		return nil, err
	}
	if err := Unmarshal(raw, choose(c.members)); err != nil {
		return nil, fmt.Errorf("not a %s: %w", what, err)
	}
	return c.members, nil
}

// firstValue returns the one JSON value the document doc (without its byte
// order mark) holds, and the offset in doc at which it starts: anything
// but white space after it is an error ("trailing data after the <what>"),
// and so are the end of doc inside the value ("the <what> is truncated:
// unexpected EOF") and no value at all ("the <what> is empty: EOF"), and
// UTF-16 text (bom.ErrUTF16). The value of a valid document (json.Valid)
// is a part of doc, not a copy; the others get encoding/json's Decoder's
// error.
func firstValue(doc []byte, what string) (raw json.RawMessage, start int64, err error) {
	if err := bom.CheckUTF16(doc); err != nil {
		return nil, 0, err
	}
	if json.Valid(doc) {
		const space = " \t\r\n" // JSON's white space
		start := len(doc) - len(bytes.TrimLeft(doc, space))
		end := len(bytes.TrimRight(doc, space))
		return doc[start:end:end], int64(start), nil
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	if err := dec.Decode(&raw); errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, 0, fmt.Errorf("the %s is truncated: %w", what, err)
	} else if err == io.EOF {
		return nil, 0, fmt.Errorf("the %s is empty: %w", what, err)
	} else if err != nil {
		return nil, 0, err
	}
	start = dec.InputOffset() - int64(len(raw)) // the decoder stops after the value
	if _, err := dec.Token(); err != io.EOF {
		return nil, 0, fmt.Errorf("%w after the %s", errTrailing, what)
	}
	return raw, start, nil
}

// errTrailing is the error of data after a document's one value.
var errTrailing = errors.New("trailing data")

// Unmarshal decodes the one JSON value b into v as encoding/json's
// Decoder does with DisallowUnknownFields — what every strict reader of
// the module decodes with (Decode and DecodeObject, a type's own
// UnmarshalJSON) — but for an object member that v has no field for its
// error is an *UnknownMemberError, which names the member and where it is,
// not only the member (encoding/json's `json: unknown field "x"`). The
// member is the one encoding/json refuses, the first in the document; a
// value decoded by its own UnmarshalJSON or UnmarshalText reports its own
// members (as that method words it).
func Unmarshal(b []byte, v any) error {
	strict := json.NewDecoder(bytes.NewReader(b))
	strict.DisallowUnknownFields()
	err := strict.Decode(v)
	if err == nil {
		if _, err := strict.Token(); err != io.EOF {
			return fmt.Errorf("%w after the JSON value", errTrailing)
		}
		return nil
	}
	quoted, ok := strings.CutPrefix(err.Error(), "json: unknown field ")
	if !ok {
		return err
	}
	// Walk the document again (only on this error) for where the member
	// is: encoding/json's error names it alone.
	c := &nullChecker{b: b, findUnknown: true}
	var um *UnknownMemberError
	if errors.As(c.value(destination(v)), &um) && strconv.Quote(um.Name) == quoted {
		um.Err = err
		return um
	}
	return err
}

// UnknownMemberError is the error of strict decoding (Unmarshal) for an
// object member the destination has no field for: a misspelt member, or
// one a newer greedytl writes, which a reader may say more about
// (source.ReadIndex: upgrade greedytl).
type UnknownMemberError struct {
	// Name is the member's name as the document writes it.
	Name string
	// In is the path of the object that holds it, as the other errors of
	// the package name a value ("sources[0].scores"); "" at the top level.
	In string
	// Err is encoding/json's error (`json: unknown field "x"`).
	Err error
}

// Error returns encoding/json's words, naming where the member is when it
// is not at the top level: `json: unknown field "median" of
// sources[0].scores`.
func (e *UnknownMemberError) Error() string {
	if e.In == "" {
		return fmt.Sprintf("json: unknown field %q", e.Name)
	}
	return fmt.Sprintf("json: unknown field %q of %s", e.Name, e.In)
}

// Unwrap returns encoding/json's error.
func (e *UnknownMemberError) Unwrap() error { return e.Err }

// DecodeMembers decodes the JSON document b into v as encoding/json does,
// ignoring members v has no field for — to read a document's header
// before its type is known — but refusing nulls as Decode does and missing
// members as DecodeComplete does.
func DecodeMembers(b []byte, v any) error {
	c := &nullChecker{b: b, complete: true}
	if err := c.value(destination(v)); err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// destination returns the type v points to (v's type if not a pointer).
func destination(v any) reflect.Type {
	t := reflect.TypeOf(v)
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// Read decodes the file at path into a new T with Decode, then validates
// it with check (if not nil). It returns the error of opening the file as
// it is (so that errors.Is(err, fs.ErrNotExist) tells a missing file), and
// the others, check's included, prefixed with the path — and, for a syntax
// error or a value of the wrong type, the line and column, as
// "path:line:column: problem".
func Read[T any](path, what string, check func(*T) error) (*T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	v := new(T)
	if err := Decode(doc, v, what); err != nil {
		if pe := (*positionError)(nil); errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d:%d: %w", path, pe.Line, pe.Column, pe.Err)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if check != nil {
		if err := check(v); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return v, nil
}

// Write writes v to path atomically (see package atomicfile) as JSON
// indented by two spaces and followed by a newline.
func Write(path string, v any) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}
