// Package jsonfile reads and writes the JSON documents that describe
// greedytl's output directories (a sources index, a run manifest): strictly
// on reading, so that a misspelt or foreign member is an error rather than
// a silently ignored setting, and atomically on writing.
package jsonfile

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/greedytl/greedytl/internal/atomicfile"
)

// Decode decodes one JSON value from r into v. Object members that v has no
// field for are an error, as is anything but white space after the value
// ("trailing data after the <what>").
func Decode(r io.Reader, v any, what string) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("trailing data after the %s", what)
	}
	return nil
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
