// Package jsonfile reads and writes the JSON documents that describe
// greedytl's output directories (a sources index, a run manifest): strictly
// on reading, so that a misspelt or foreign member is an error rather than
// a silently ignored setting, and atomically on writing.
package jsonfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/greedytl/greedytl/internal/atomicfile"
)

// Decode decodes one JSON value from r into v. Object members that v has no
// field for are an error, as is anything but white space after the value
// ("trailing data after the <what>"), and so is a null where v's type
// holds a value that has no nil — a number, string, bool, struct or array
// ("columns[3].weight is null; want a number"), which encoding/json would
// silently leave at its zero value. A null is accepted where the type is a
// pointer (an optional member), a slice, a map or an interface, and
// decodes to nil.
func Decode(r io.Reader, v any, what string) error {
	dec := json.NewDecoder(r)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("trailing data after the %s", what)
	}
	if err := checkNulls(raw, destination(v)); err != nil {
		return err
	}
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	return strict.Decode(v)
}

// DecodeMembers decodes the JSON document b into v as encoding/json does,
// ignoring members v has no field for — to read a document's header
// before its type is known — but refusing nulls as Decode does.
func DecodeMembers(b []byte, v any) error {
	if err := checkNulls(b, destination(v)); err != nil {
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

// Read decodes the file at path into v with Decode. It returns the error
// of opening the file as it is (so that errors.Is(err, fs.ErrNotExist)
// tells a missing file), and the others prefixed with the path.
func Read(path string, v any, what string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := Decode(f, v, what); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
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
