package method

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/internal/typednil"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/source"
)

// fileEncoder is implemented by the models of this package: fileDocument
// returns the value whose JSON encoding is the whole model file, with h
// as its header.
type fileEncoder interface {
	fileDocument(h modelfile.Header) (any, error)
}

// fileWriter is implemented by the GreedyTL models, whose file is the root
// package's (greedytl.Model.Write), with the header h.
type fileWriter interface {
	writeFile(w io.Writer, h modelfile.Header) error
}

// FileInfo is what a model file records besides the model: the sources
// directory its source scores are computed from (nil: none), for a
// binary model the label names of its classes (nil: not known), for a
// two-class multi-class model its positive class and the other (nil: none,
// a file read as multi-class; see TwoClass), the
// names of the columns of X it was fitted on, in order (nil: the features
// had no names), and those of the columns of H, when they were given as a
// matrix whose columns had names (nil: none).
type FileInfo struct {
	Sources      *source.ID
	Labels       *modelfile.LabelNames
	FeatureNames []string
	SourceNames  []string
}

// Write writes the binary model m as an indented JSON document:
//
//	{"format": "greedytl-model", "version": 2, "method": NAME,
//	 "hyperparameters": {"lambda": …, …}, "build": {…},
//	 …the method's own members…}
//
// recording in the header's "sources", "labels", "feature_names" and
// "source_names" members those of info (see modelfile.Header; the label names are
// checked first). Numbers are written so that they read back exactly;
// "build" records the greedytl that wrote the file. The GreedyTL methods' files are the root package's
// (greedytl.Model.Write), named by the method's canonical spec; Write
// refuses one named otherwise, as Read would (a GreedyTL whose Base or
// Defaults are not a registration's). Write
// returns an error when m is not a model of this package's methods, when
// it holds a non-finite number, when info's feature (source) names are
// not one per column of X (H), when it or w is nil, and when w fails. It is the one writer of
// every binary method's header (WriteMulti writes multi-class models).
func Write(w io.Writer, m Model, info FileInfo) error {
	if err := nilModel(m, "Model"); err != nil {
		return err
	}
	if err := checkHyper(m.Hyperparameters()); err != nil {
		return fmt.Errorf("method: writing %s: %w", modelNoun("", m.Method()), err)
	}
	if err := info.Labels.Check(); err != nil {
		return fmt.Errorf("method: writing %s: %w", modelNoun("", m.Method()), err)
	}
	h := modelfile.NewHeader(m.Method(), m.Hyperparameters(), info.Sources)
	h.Labels = info.Labels
	h.SetNames(info.FeatureNames, info.SourceNames)
	if fw, ok := m.(fileWriter); ok {
		err := checkModelNames(m, h.FeatureNames, h.SourceNames)
		if err == nil {
			err = fw.writeFile(w, h)
		}
		if err != nil {
			return fmt.Errorf("method: writing %s: %w", modelNoun("", m.Method()), err)
		}
		return nil
	}
	enc, ok := m.(fileEncoder)
	if !ok {
		return fmt.Errorf("method: cannot write a %T model", m)
	}
	doc, err := enc.fileDocument(h)
	if err == nil {
		// After fileDocument's checks: Selected need not hold on a model
		// they refuse.
		err = checkModelNames(m, h.FeatureNames, h.SourceNames)
	}
	if err == nil {
		err = modelfile.Write(w, doc)
	}
	if err != nil {
		return fmt.Errorf("method: writing %s: %w", modelNoun("", m.Method()), err)
	}
	return nil
}

// File is the content of a model file: a binary Model or a multi-class
// Multi (the other nil), and what the file records besides.
type File struct {
	Model Model
	Multi MultiModel
	Info  FileInfo
}

// Read reads any model file: a binary one (Write) or a multi-class one
// (WriteMulti), told apart by its "classes" member. modelfile.Read checks
// the format, the version and the "sources" and "labels" records; Read
// looks the method up in the registry and lets the method decode the
// document (a multi-class file of a binary method's spec is one-vs-rest).
// It returns an error for a nil r, for malformed JSON (including NaN or infinite
// numbers, which JSON cannot hold), trailing data, another format or
// version, an unknown method (Lookup's error) and whatever the decoder
// rejects, a member missing included. Each error carries the package's
// prefix once, and what was being read: "method: reading model: …",
// "method: reading l1-logistic model: …", "method: reading multi-class
// nearest-mean model: …".
func Read(r io.Reader) (File, error) {
	f, err := modelfile.Read(r)
	if err != nil {
		return File{}, fmt.Errorf("method: reading model: %w", err)
	}
	file, err := decodeFile(f)
	if err != nil {
		return File{}, fmt.Errorf("method: %w", err)
	}
	return file, nil
}

// readNested reads the model file doc held inside another file (the
// models of a one-vs-rest file, the members of an ensemble) as Read reads
// a file, with errors that carry no package prefix: the outer file's
// error carries it once.
func readNested(doc json.RawMessage) (File, error) {
	f, err := modelfile.Parse(doc)
	if err != nil {
		return File{}, fmt.Errorf("reading model: %w", err)
	}
	return decodeFile(f)
}

// decodeFile decodes a parsed model file with its method's decoder, for
// Read and readNested; its errors carry no package prefix.
func decodeFile(f modelfile.File) (File, error) {
	info := FileInfo{Sources: f.Sources, Labels: f.Labels, FeatureNames: f.FeatureNames, SourceNames: f.SourceNames}
	if f.Multi {
		decode, err := multiDecoder(f.Method)
		if err != nil {
			return File{}, err
		}
		m, err := decode(f.Doc)
		if err == nil {
			_, err = checkTwoClassLabels(f.Labels, m.Classes())
		}
		if err != nil {
			return File{}, fmt.Errorf("reading multi-class %s model: %w", f.Method, err)
		}
		return File{Multi: m, Info: info}, nil
	}
	reg, err := lookup(f.Method)
	if err != nil {
		return File{}, err
	}
	m, err := reg.Decode(f.Doc)
	if err != nil {
		return File{}, fmt.Errorf("reading %s model: %w", f.Method, err)
	}
	if err := checkModelNames(m, f.FeatureNames, f.SourceNames); err != nil {
		return File{}, fmt.Errorf("reading %s model: %w", f.Method, err)
	}
	return File{Model: m, Info: info}, nil
}

// decodeStrict decodes doc into v, rejecting unknown members, missing ones
// (jsonfile.DecodeComplete: a member the writer always writes does not read
// as zero when it is missing) and trailing data: what a method's Decode
// uses for its file type.
func decodeStrict(doc []byte, v any) error {
	return jsonfile.DecodeComplete(doc, v, "model")
}

// checkModelNames checks the feature and source names (nil: none) a file
// records for the binary model m against the columns of X and H it was
// fitted on (its Selection's NumFeatures and NumSources, which it builds
// only when there are names).
func checkModelNames(m Model, features, sources []string) error {
	if features == nil && sources == nil {
		return nil
	}
	sel, _ := m.Selected()
	return modelfile.CheckNames(features, sources, sel.NumFeatures, sel.NumSources)
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

// named is a model's slice of numbers and its name in messages.
type named struct {
	name string
	v    []float64
}

// checkFiniteParts returns an error naming the first non-finite number of
// parts, in order (checkFiniteSlice), or of the hyperparameters hp
// (checkHyper), or nil.
func checkFiniteParts(hp map[string]float64, parts ...named) error {
	for _, p := range parts {
		if err := checkFiniteSlice(p.name, p.v); err != nil {
			return err
		}
	}
	return checkHyper(hp)
}

// nilModel returns an error naming what when m, a Model or a MultiModel
// to write, is nil or a nil pointer (a typed nil in the interface, whose
// methods would dereference it).
func nilModel(m any, what string) error {
	switch {
	case m == nil:
		return fmt.Errorf("method: writing a nil %s", what)
	case typednil.Is(m):
		return fmt.Errorf("method: writing a nil %T", m)
	}
	return nil
}

// modelNoun returns how a message names a model of the method name, kind
// ("multi-class", or "" for a binary one) before it: "multi-class
// nearest-mean model", "greedytl model", or without the name, "model", for
// a model built by hand without one (a zero Linear or AutoModel).
func modelNoun(kind, name string) string {
	s := "model"
	if name != "" {
		s = name + " " + s
	}
	if kind != "" {
		s = kind + " " + s
	}
	return s
}
