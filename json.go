package greedytl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"

	"github.com/greedytl/greedytl/internal/buildinfo"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/source"
)

// The model file's "format" and "version" members, shared by every model
// file greedytl writes (package method's files for the baselines too).
// Version 2 names GreedyTL's γ "gamma" everywhere, records the canonical
// method spec and the build that wrote the file; readers still read
// version 1 (ModelFileVersion1).
const (
	ModelFileFormat   = "greedytl-model"
	ModelFileVersion  = 2
	ModelFileVersion1 = 1
)

// BaseMethod is the method name of the root package's GreedyTL, whose
// defaults are DefaultOptions: a model's method is
// Options.MethodName(BaseMethod, DefaultOptions()).
const BaseMethod = "greedytl"

// modelFile is the JSON form of a Model: one record per selected column,
// in selection order, holding both the predictor and the path. It is the
// one type of every GreedyTL model file, whichever method (greedytl,
// greedytl-sp:gamma=0.25, forward-reg, …) wrote it.
type modelFile struct {
	FileHeader
	NumFeatures int          `json:"num_features"`
	NumSources  int          `json:"num_sources"`
	Options     Options      `json:"options"`
	Columns     []fileColumn `json:"columns"`
}

// FileHeader holds the members every model file starts with, whichever
// method wrote it: this package's GreedyTL files and package method's
// files of the other methods embed it, so that the envelope, and each of
// its members, is defined once.
type FileHeader struct {
	Format          string             `json:"format"`
	Version         int                `json:"version"`
	Method          string             `json:"method"`
	Hyperparameters map[string]float64 `json:"hyperparameters"`
	// Build is the greedytl that wrote the file (absent in version 1).
	Build *buildinfo.Info `json:"build,omitempty"`
	// Sources identifies the sources directory the model's source scores
	// were computed from when it was fitted; it is absent when they were
	// given as a matrix, and in files written before it was added.
	Sources *source.ID `json:"sources,omitempty"`
	// Labels names the labels of a binary model's classes, when the fit
	// knew them (absent in older files and in multi-class files, which
	// name their classes in "classes").
	Labels *LabelNames `json:"labels,omitempty"`
}

// LabelNames records which label values a binary model's classes stand
// for: Positive was mapped to +1, Negative (one value, or several for one
// class against the rest) to −1.
type LabelNames struct {
	Positive string   `json:"positive"`
	Negative []string `json:"negative"`
}

// Check returns an error when l, a file's record of its labels, is
// incomplete: an empty positive label, no negative label or an empty one,
// or the positive label among the negative ones. A nil l is valid.
func (l *LabelNames) Check() error {
	if l == nil {
		return nil
	}
	if l.Positive == "" {
		return errors.New(`"labels" has no positive label`)
	}
	if len(l.Negative) == 0 {
		return errors.New(`"labels" has no negative label`)
	}
	for _, n := range l.Negative {
		if n == "" || n == l.Positive {
			return fmt.Errorf(`"labels": negative label %q is empty or the positive one`, n)
		}
	}
	return nil
}

// NewFileHeader returns the header of a file of this format and version
// holding a model of the named method with hyperparameters hp (nil: none),
// written by this build, whose source scores came from sources (nil: from
// a matrix).
func NewFileHeader(method string, hp map[string]float64, sources *source.ID) FileHeader {
	if hp == nil {
		hp = map[string]float64{}
	}
	build := buildinfo.Read()
	return FileHeader{Format: ModelFileFormat, Version: ModelFileVersion, Method: method, Hyperparameters: hp, Build: &build, Sources: sources}
}

// modelFileV1 is version 1 of the file: version 2's members but for γ,
// which was options.feature_factor (and hyperparameters.feature_factor).
type modelFileV1 struct {
	modelFile
	Options optionsV1 `json:"options"` // shadows modelFile.Options
}

// optionsV1 are version 1's options: version 2's but for γ, whose key was
// feature_factor.
type optionsV1 struct {
	Options
	FeatureFactor float64 `json:"feature_factor"`
}

type fileColumn struct {
	Kind     Kind    `json:"kind"`
	Index    int     `json:"index"`
	Weight   float64 `json:"weight"`
	Mean     float64 `json:"mean"`
	Scale    float64 `json:"scale"`
	Score    float64 `json:"score"`
	RegError float64 `json:"reg_error"`
	LOOError float64 `json:"loo_error"`
}

// WriteJSON writes m as a self-describing, indented JSON document:
//
//	{"format": "greedytl-model", "version": 2, "method": "greedytl",
//	 "hyperparameters": {"lambda": …, "delta": …, "gamma": …},
//	 "build": {"module": …, "revision": …, "go": …},
//	 "num_features": d, "num_sources": n, "options": {...},
//	 "columns": [{"kind": "source", "index": 3, "weight": …, "mean": …,
//	              "scale": …, "score": …, "reg_error": …, "loo_error": …}, …]}
//
// with one record per selected column, in selection order, and an optional
// "sources" member (FileHeader.Sources, written by WriteFile). method is the
// canonical spec of the options, Options.MethodName(BaseMethod,
// DefaultOptions()): "greedytl" for the paper's settings,
// "greedytl:sample=59" for the randomised search of r = 59. Numbers are
// written so that they read back exactly. WriteJSON returns an error if m
// is inconsistent (see ReadModel) or w fails.
func (m *Model) WriteJSON(w io.Writer) error {
	return m.WriteFile(w, m.methodName(), nil)
}

// methodName returns the canonical spec of m's options (BaseMethod for a
// nil m, which encode refuses).
func (m *Model) methodName() string {
	if m == nil {
		return BaseMethod
	}
	return m.Options.MethodName(BaseMethod, DefaultOptions())
}

// WriteFile writes m as WriteJSON does with "method" set to method: the
// canonical spec of the method that fitted m (package method writes its
// GreedyTL variants this way), and "sources" set to sources when it is not
// nil.
func (m *Model) WriteFile(w io.Writer, method string, sources *source.ID) error {
	return m.WriteFileHeader(w, NewFileHeader(method, nil, sources))
}

// WriteFileHeader writes m as WriteFile does with the envelope h (whose
// hyperparameters are replaced by m's): for writers that record more than
// the sources, such as the label names.
func (m *Model) WriteFileHeader(w io.Writer, h FileHeader) error {
	if m != nil {
		h.Hyperparameters = m.Options.Hyperparameters()
	}
	b, err := m.encodeHeader(h, true)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("greedytl: writing model: %w", err)
	}
	return nil
}

// MarshalJSON encodes m in the format of WriteJSON, without indentation,
// so that a model can be embedded in other JSON documents.
func (m *Model) MarshalJSON() ([]byte, error) {
	return m.encode(m.methodName(), nil, false)
}

// UnmarshalJSON decodes and validates a model as ReadModel does.
func (m *Model) UnmarshalJSON(b []byte) error {
	mod, err := ReadModel(bytes.NewReader(b))
	if err != nil {
		return err
	}
	*m = *mod
	return nil
}

// encode returns the JSON form of m, after validating it, named method.
func (m *Model) encode(method string, sources *source.ID, indent bool) ([]byte, error) {
	return m.encodeHeader(NewFileHeader(method, m.Options.Hyperparameters(), sources), indent)
}

// encodeHeader returns the JSON form of m, after validating it, with the
// envelope h.
func (m *Model) encodeHeader(h FileHeader, indent bool) ([]byte, error) {
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("greedytl: writing model: %w", err)
	}
	f := &modelFile{
		FileHeader:  h,
		NumFeatures: m.NumFeatures,
		NumSources:  m.NumSources,
		Options:     m.Options,
		Columns:     make([]fileColumn, len(m.Selected)),
	}
	for j, c := range m.Selected {
		s := m.Path[j]
		f.Columns[j] = fileColumn{Kind: c.Kind, Index: c.Index, Weight: m.Weights[j], Mean: m.Mean[j], Scale: m.Scale[j],
			Score: s.Score, RegError: s.RegError, LOOError: s.LOOError}
	}
	var b []byte
	var err error
	if indent {
		b, err = json.MarshalIndent(f, "", "  ")
		b = append(b, '\n')
	} else {
		b, err = json.Marshal(f)
	}
	if err != nil {
		return nil, fmt.Errorf("greedytl: writing model: %w", err)
	}
	return b, nil
}

// ReadModel reads a model written by WriteJSON (or MarshalJSON). It
// returns an error for anything else: malformed JSON, unknown fields or
// trailing data, another format or version, a method other than the
// canonical spec of the options (a file of package method's GreedyTL
// variants is read by ReadFile), or inconsistent content (invalid options,
// column indices out of range or repeated, non-finite numbers,
// non-positive scales). It reads version 1 files too.
func ReadModel(r io.Reader) (*Model, error) {
	m, head, err := ReadFile(r)
	if err != nil {
		return nil, err
	}
	method := head.Method
	want := m.Options.MethodName(BaseMethod, DefaultOptions())
	if head.Version == ModelFileVersion1 {
		// Version 1 named the exact and the sampled search greedytl and
		// greedytl-59, whatever the other options.
		want = "greedytl"
		if m.Options.Sample > 0 {
			want = "greedytl-59"
		}
	}
	if method != want {
		return nil, fmt.Errorf("greedytl: reading model: method %q does not match the options (they make %q); read the files of package method's variants with method.ReadModel", method, want)
	}
	return m, nil
}

// ReadFile reads a GreedyTL model file of any method name (WriteFile's)
// and returns the model with the file's header: its method, version (as
// written: 1 for a version 1 file), hyperparameters, the greedytl that
// wrote it and the sources its scores came from (WriteFile's sources; nil
// when it records none). It checks everything ReadModel does except the
// method name, and that the file's hyperparameters, when present, are
// those of its options. Its errors name the file's version when it is not
// one this version reads.
func ReadFile(r io.Reader) (m *Model, head FileHeader, err error) {
	fail := func(err error) (*Model, FileHeader, error) {
		return nil, FileHeader{}, fmt.Errorf("greedytl: reading model: %w", err)
	}
	var doc json.RawMessage
	if err := jsonfile.Decode(r, &doc, "model"); err != nil {
		return fail(err)
	}
	var top struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := jsonfile.DecodeMembers(doc, &top); err != nil {
		return fail(err)
	}
	if top.Format != ModelFileFormat {
		return fail(fmt.Errorf("format is %q, want %q", top.Format, ModelFileFormat))
	}
	var f modelFile
	switch top.Version {
	case ModelFileVersion:
		if err := jsonfile.Decode(bytes.NewReader(doc), &f, "model"); err != nil {
			return fail(err)
		}
	case ModelFileVersion1:
		var v1 modelFileV1
		v1.Options.Options.FeatureFactor = math.NaN() // JSON cannot set a NaN: still NaN means absent
		if err := jsonfile.Decode(bytes.NewReader(doc), &v1, "model"); err != nil {
			return fail(fmt.Errorf("version 1 file: %w", err))
		}
		if f, err = v1.upgrade(); err != nil {
			return fail(err)
		}
	default:
		return fail(CheckFileVersion(top.Version))
	}
	if err := f.Sources.Check(); err != nil {
		return fail(err)
	}
	k := len(f.Columns)
	m = &Model{
		Selected:    make([]Column, k),
		Weights:     make([]float64, k),
		Mean:        make([]float64, k),
		Scale:       make([]float64, k),
		Path:        make([]Step, k),
		NumFeatures: f.NumFeatures,
		NumSources:  f.NumSources,
		Options:     f.Options,
	}
	for j, c := range f.Columns {
		col := Column{Kind: c.Kind, Index: c.Index}
		m.Selected[j] = col
		m.Weights[j], m.Mean[j], m.Scale[j] = c.Weight, c.Mean, c.Scale
		m.Path[j] = Step{Column: col, Score: c.Score, RegError: c.RegError, LOOError: c.LOOError}
	}
	if err := m.validate(); err != nil {
		return fail(err)
	}
	if f.Method == "" {
		return fail(fmt.Errorf("the file names no method"))
	}
	if f.Hyperparameters != nil {
		want := m.Options.Hyperparameters()
		if !maps.Equal(f.Hyperparameters, want) {
			return fail(fmt.Errorf("hyperparameters %v disagree with the options (%v)", f.Hyperparameters, want))
		}
	}
	head = f.FileHeader
	head.Version = top.Version
	return m, head, nil
}

// CheckFileVersion returns nil for a model file version this version of
// greedytl reads (1 and 2), and an error naming the version otherwise.
func CheckFileVersion(v int) error {
	if v == ModelFileVersion || v == ModelFileVersion1 {
		return nil
	}
	return fmt.Errorf("unsupported version %d: this greedytl reads model file versions %d and %d (a newer greedytl wrote it?)", v, ModelFileVersion1, ModelFileVersion)
}

// upgrade returns the version 2 form of a version 1 file (without a build),
// or an error when the file uses version 2's key gamma.
func (v1 *modelFileV1) upgrade() (modelFile, error) {
	o := v1.Options.Options
	if !math.IsNaN(o.FeatureFactor) {
		return modelFile{}, errors.New(`version 1 file: options has version 2's "gamma"; version 1 calls it "feature_factor"`)
	}
	o.FeatureFactor = v1.Options.FeatureFactor
	f := v1.modelFile
	f.Version, f.Options = ModelFileVersion, o
	if v1.Hyperparameters != nil {
		f.Hyperparameters = make(map[string]float64, len(v1.Hyperparameters))
		for k, v := range v1.Hyperparameters {
			if k == "feature_factor" {
				k = KeyGamma
			}
			f.Hyperparameters[k] = v
		}
	}
	return f, nil
}

// validate checks the invariants of a model.
func (m *Model) validate() error {
	if m == nil {
		return fmt.Errorf("nil *Model")
	}
	o := m.Options
	o.AutoLambda = false // a model always records the λ it used
	if err := o.check(); err != nil {
		return fmt.Errorf("invalid options: %w", err)
	}
	if err := m.checkColumns(); err != nil {
		return err
	}
	if len(m.Path) != len(m.Selected) {
		return fmt.Errorf("inconsistent model: %d columns, %d steps", len(m.Selected), len(m.Path))
	}
	for j, c := range m.Selected {
		if m.Path[j].Column != c {
			return fmt.Errorf("step %d records %v but column %d is %v", j, m.Path[j].Column, j, c)
		}
		s := m.Path[j]
		for _, v := range []struct {
			name string
			x    float64
		}{{"score", s.Score}, {"reg_error", s.RegError}, {"loo_error", s.LOOError}} {
			if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
				return fmt.Errorf("column %d (%v): %s is %v", j, c, v.name, v.x)
			}
		}
		if s.RegError < 0 || s.LOOError < 0 {
			return fmt.Errorf("column %d (%v): negative error (reg_error %v, loo_error %v)", j, c, s.RegError, s.LOOError)
		}
	}
	return nil
}
