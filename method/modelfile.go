package method

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"

	"github.com/greedytl/greedytl"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/source"
)

// envelope holds the members every model file starts with, the root
// package's (the one definition of the envelope). A method's file type
// embeds it, so that its own members follow at the top level.
type envelope = greedytl.FileHeader

// fileEncoder is implemented by the models of this package: fileDocument
// returns the value whose JSON encoding is the whole model file, with env
// as its envelope.
type fileEncoder interface {
	fileDocument(env envelope) (any, error)
}

// fileWriter is implemented by the GreedyTL models, whose file is the root
// package's (greedytl.Model.WriteFileHeader), with the envelope h.
type fileWriter interface {
	writeFile(w io.Writer, h envelope) error
}

// FileInfo is what a model file records besides the model: the sources
// directory its source scores are computed from (nil: none), and for a
// binary model the label names of its classes (nil: not known).
type FileInfo struct {
	Sources *source.ID
	Labels  *greedytl.LabelNames
}

// WriteModel writes m as an indented JSON document:
//
//	{"format": "greedytl-model", "version": 2, "method": NAME,
//	 "hyperparameters": {"lambda": …, …}, "build": {…},
//	 …the method's own members…}
//
// Numbers are written so that they read back exactly; "build" records the
// greedytl that wrote the file. The GreedyTL methods' files are the root
// package's (greedytl.Model.WriteFile), named by the method's canonical
// spec. WriteModel returns an error when m is not a model of this
// package's methods, when it holds a non-finite number, and when w fails.
func WriteModel(w io.Writer, m Model) error { return WriteFile(w, m, nil) }

// WriteFile writes m as WriteModel does, recording in the envelope's
// "sources" member the sources directory its source scores are computed
// from (nil: none, as WriteModel). It is the one writer of every method's
// envelope.
func WriteFile(w io.Writer, m Model, sources *source.ID) error {
	return WriteFileInfo(w, m, FileInfo{Sources: sources})
}

// WriteFileInfo writes m as WriteFile does, recording besides the sources
// the label names of info (the envelope's "labels"; see
// greedytl.LabelNames), which are checked first.
func WriteFileInfo(w io.Writer, m Model, info FileInfo) error {
	if m == nil {
		return errors.New("method: writing a nil Model")
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Errorf("method: writing a nil %T", m)
	}
	if err := checkHyper(m.Hyperparameters()); err != nil {
		return fmt.Errorf("method: writing %s model: %w", m.Method(), err)
	}
	if err := info.Labels.Check(); err != nil {
		return fmt.Errorf("method: writing %s model: %w", m.Method(), err)
	}
	env := greedytl.NewFileHeader(m.Method(), m.Hyperparameters(), info.Sources)
	env.Labels = info.Labels
	if fw, ok := m.(fileWriter); ok {
		if err := fw.writeFile(w, env); err != nil {
			return fmt.Errorf("method: writing %s model: %w", m.Method(), err)
		}
		return nil
	}
	enc, ok := m.(fileEncoder)
	if !ok {
		return fmt.Errorf("method: cannot write a %T model", m)
	}
	doc, err := enc.fileDocument(env)
	if err != nil {
		return fmt.Errorf("method: writing %s model: %w", m.Method(), err)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("method: writing %s model: %w", m.Method(), err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("method: writing %s model: %w", m.Method(), err)
	}
	return nil
}

// ReadModel reads a model file written by WriteModel (or by the root
// package's WriteJSON). It checks the format and version, looks the method up
// in the registry and lets the method decode the document. It returns an
// error for malformed JSON (including NaN or infinite numbers, which JSON
// cannot hold), trailing data, another format or version, an unknown method
// and whatever the method's decoder rejects.
func ReadModel(r io.Reader) (Model, error) {
	m, _, err := ReadFile(r)
	return m, err
}

// ReadFile reads a binary model file as ReadModel does and returns,
// besides the model, the sources directory the file records (WriteFile's
// sources; nil when it records none). A "sources" member without a digest
// is an error, and so is a multi-class file (read those with
// ReadModelFile).
func ReadFile(r io.Reader) (Model, *source.ID, error) {
	f, err := ReadModelFile(r)
	if err != nil {
		return nil, nil, err
	}
	if f.Multi != nil {
		return nil, nil, fmt.Errorf("method: reading model: a multi-class %s model of %d classes: read it with ReadModelFile", f.Multi.Method(), len(f.Multi.Classes()))
	}
	return f.Model, f.Info.Sources, nil
}

// File is the content of a model file: a binary Model or a multi-class
// Multi (the other nil), and what the file records besides.
type File struct {
	Model Model
	Multi MultiModel
	Info  FileInfo
}

// ReadModelFile reads any model file: a binary one (WriteFileInfo) or a
// multi-class one (WriteMulti), told apart by its "classes" member. It
// checks the format and version, the "sources" and "labels" records, looks
// the method up in the registry and lets the method decode the document
// (a multi-class file of a binary method's spec is one-vs-rest). It returns
// an error for malformed JSON (including NaN or infinite numbers, which
// JSON cannot hold), trailing data, another format or version, an unknown
// method and whatever the decoder rejects.
func ReadModelFile(r io.Reader) (File, error) {
	fail := func(err error) (File, error) {
		return File{}, fmt.Errorf("method: reading model: %w", err)
	}
	var doc json.RawMessage
	if err := jsonfile.Decode(r, &doc, "model"); err != nil {
		return fail(err)
	}
	var head struct {
		envelope
		Classes json.RawMessage `json:"classes"`
	}
	if err := jsonfile.DecodeMembers(doc, &head); err != nil {
		return fail(err)
	}
	if head.Format != greedytl.ModelFileFormat {
		return fail(fmt.Errorf("format is %q, want %q", head.Format, greedytl.ModelFileFormat))
	}
	if err := greedytl.CheckFileVersion(head.Version); err != nil {
		return fail(err)
	}
	if err := head.Sources.Check(); err != nil {
		return fail(err)
	}
	if err := head.Labels.Check(); err != nil {
		return fail(err)
	}
	info := FileInfo{Sources: head.Sources, Labels: head.Labels}
	if head.Classes != nil {
		if head.Labels != nil {
			return fail(fmt.Errorf(`a multi-class file names its classes in "classes", not "labels"`))
		}
		m, err := decodeMultiFile(doc, head.Method)
		if err != nil {
			return File{}, fmt.Errorf("method: reading multi-class %s model: %w", head.Method, err)
		}
		return File{Multi: m, Info: info}, nil
	}
	reg, err := Lookup(head.Method)
	if err != nil {
		return fail(err)
	}
	m, err := reg.Decode(doc)
	if err != nil {
		return File{}, fmt.Errorf("method: reading %s model: %w", head.Method, err)
	}
	return File{Model: m, Info: info}, nil
}

// decodeStrict decodes doc into v, rejecting unknown members and trailing
// data: what a method's Decode uses for its file type.
func decodeStrict(doc []byte, v any) error {
	return jsonfile.Decode(bytes.NewReader(doc), v, "model")
}

// checkHyper returns an error when a hyperparameter is not finite.
func checkHyper(hp map[string]float64) error {
	for k, v := range hp {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("hyperparameter %s is %v", k, v)
		}
	}
	return nil
}

// checkFiniteSlice returns an error naming the first non-finite element of
// v (called name in the message), or nil.
func checkFiniteSlice(name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s[%d] is %v", name, i, x)
		}
	}
	return nil
}
