package method

import (
	"fmt"
	"io"

	"github.com/greedytl/greedytl/source"
)

// The binary model file's shorthands of this package's tests, over the
// one writer (Write) and the one reader (Read).

// WriteModel writes m as Write does, recording no sources and no labels.
func WriteModel(w io.Writer, m Model) error { return WriteFile(w, m, nil) }

// WriteFile writes m as Write does, recording the sources directory
// sources (nil: none).
func WriteFile(w io.Writer, m Model, sources *source.ID) error {
	return Write(w, m, FileInfo{Sources: sources})
}

// ReadModel reads a binary model file as ReadFile does, without the
// sources.
func ReadModel(r io.Reader) (Model, error) {
	m, _, err := ReadFile(r)
	return m, err
}

// ReadFile reads a binary model file with Read and returns the model and
// the sources directory the file records (nil when it records none); a
// multi-class file is an error.
func ReadFile(r io.Reader) (Model, *source.ID, error) {
	f, err := Read(r)
	if err != nil {
		return nil, nil, err
	}
	if f.Multi != nil {
		return nil, nil, fmt.Errorf("method: reading model: a multi-class %s model of %d classes: read it with Read", f.Multi.Method(), len(f.Multi.Classes()))
	}
	return f.Model, f.Info.Sources, nil
}
