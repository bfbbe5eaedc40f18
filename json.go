package greedytl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"

	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/modelfile"
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
	modelfile.Header
	NumFeatures int          `json:"num_features"`
	NumSources  int          `json:"num_sources"`
	Options     Options      `json:"options"`
	Columns     []fileColumn `json:"columns"`
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
// with one record per selected column, in selection order, and optional
// "sources" and "labels" members (modelfile.Header's, written by Write).
// method is the canonical spec of the options, Options.MethodName(BaseMethod,
// DefaultOptions()): "greedytl" for the paper's settings,
// "greedytl:sample=59" for the randomised search of r = 59. Numbers are
// written so that they read back exactly. WriteJSON returns an error if m
// is inconsistent (see ReadModel), or w is nil or fails.
func (m *Model) WriteJSON(w io.Writer) error {
	if err := m.Write(w, modelfile.NewHeader(m.methodName(), nil, nil)); err != nil {
		return fmt.Errorf("greedytl.Model.WriteJSON: %w", err)
	}
	return nil
}

// methodName returns the canonical spec of m's options (BaseMethod for a
// nil m, which Write refuses).
func (m *Model) methodName() string {
	if m == nil {
		return BaseMethod
	}
	return m.Options.MethodName(BaseMethod, DefaultOptions())
}

// Write writes m as WriteJSON does with the header h, whose
// hyperparameters are replaced by m's: for package method, whose GreedyTL
// variants name the method by their own spec and record the sources and
// the label names. It refuses, writing nothing, a header the readers
// refuse whatever the method: one modelfile.Header.Check refuses (format,
// version, "sources", "labels", empty column names), a version other than
// modelfile.Version (the form Write writes), no method, and column names
// that are not one per column of X or H (modelfile.CheckNames). Whether
// the method name is the one the readers take for m's options is
// package method's to check (method.Write; its registry knows each
// variant's defaults): Write writes greedytl:lambda=1 for a model with
// λ = 1, which ReadModel and method.Read refuse. Its errors name no
// package: WriteJSON and package method put theirs in front.
func (m *Model) Write(w io.Writer, h modelfile.Header) error {
	f, err := m.document(h)
	if err != nil {
		return err
	}
	// Empty names are no names: the file leaves them out (SetNames).
	f.Header.SetNames(f.Header.FeatureNames, f.Header.SourceNames)
	if err := checkHeader(&f.Header, m); err != nil {
		return fmt.Errorf("header a reader refuses: %w", err)
	}
	return modelfile.Write(w, f)
}

// checkHeader returns an error for a header h of m's file that the
// readers refuse whatever its method name: modelfile.Header.CheckWritten's
// refusals (format, a version other than the one Write writes, no method,
// "sources", "labels", empty column names) and column names that are not
// one per column of X or H (modelfile.CheckNames). Write checks the header
// it writes with it; DecodeFile checks only the names, since
// modelfile.Parse ran Header.Check on every file it decodes.
func checkHeader(h *modelfile.Header, m *Model) error {
	if err := h.CheckWritten(false); err != nil {
		return err
	}
	return modelfile.CheckNames(h.FeatureNames, h.SourceNames, m.NumFeatures, m.NumSources)
}

// MarshalJSON encodes m in the format of WriteJSON, without indentation,
// so that a model can be embedded in other JSON documents. Embed a *Model,
// as encoding/json calls a pointer method only on what it can address: a
// Model held by value in a struct or map passed to json.Marshal by value is
// encoded field by field instead, in a form UnmarshalJSON refuses
// ("format is missing").
func (m *Model) MarshalJSON() ([]byte, error) {
	f, err := m.document(modelfile.NewHeader(m.methodName(), nil, nil))
	if err != nil {
		return nil, fmt.Errorf("greedytl.Model.MarshalJSON: %w", err)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("greedytl.Model.MarshalJSON: %w", err)
	}
	return b, nil
}

// UnmarshalJSON decodes and validates a model as ReadModel does, its
// errors prefixed "greedytl.Model.UnmarshalJSON". As encoding/json's
// convention for Unmarshalers has it, the JSON null leaves m unchanged
// (encoding/json sets a *Model to nil for it without calling
// UnmarshalJSON), and a nil m is an error, not a panic
// (json.RawMessage's rule; encoding/json allocates a Model before calling
// UnmarshalJSON, so it never passes a nil one).
func (m *Model) UnmarshalJSON(b []byte) error {
	if m == nil {
		return errors.New("greedytl.Model.UnmarshalJSON: nil *Model")
	}
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	mod, err := readModel(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("greedytl.Model.UnmarshalJSON: %w", err)
	}
	*m = *mod
	return nil
}

// document returns the file of m, after validating it, with the header h
// and m's hyperparameters (in place of h's).
func (m *Model) document(h modelfile.Header) (*modelFile, error) {
	if err := m.validate(); err != nil {
		return nil, err
	}
	h.Hyperparameters = m.Options.Hyperparameters()
	f := &modelFile{
		Header:      h,
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
	return f, nil
}

// ReadModel reads a model written by WriteJSON (or MarshalJSON). It
// returns an error for a nil r and for anything else: malformed JSON, unknown fields or
// trailing data, another format or version (modelfile.Read), a method
// other than the canonical spec of the options (a file of package method's
// GreedyTL variants is read by package method), or inconsistent content
// (see DecodeFile). It reads version 1 files too.
func ReadModel(r io.Reader) (*Model, error) {
	m, err := readModel(r)
	if err != nil {
		return nil, fmt.Errorf("greedytl.ReadModel: %w", err)
	}
	return m, nil
}

// readModel is ReadModel without its errors' prefix, which its callers
// (ReadModel, UnmarshalJSON) put in front.
func readModel(r io.Reader) (m *Model, err error) {
	f, err := modelfile.Read(r)
	if err == nil {
		m, err = DecodeFile(f)
	}
	if err != nil {
		return nil, err
	}
	method := f.Method
	want := m.Options.MethodName(BaseMethod, DefaultOptions())
	if f.Version == modelfile.Version1 {
		// Version 1 named the exact and the sampled search greedytl and
		// greedytl-59, whatever the other options.
		want = "greedytl"
		if m.Options.Sample > 0 {
			want = "greedytl-59"
		}
	}
	if method != want {
		return nil, fmt.Errorf("method %q does not match the options (they make %q); read the files of package method's variants with method.Read", method, want)
	}
	return m, nil
}

// DecodeFile decodes the GreedyTL model of f, a model file of any method
// name that modelfile.Read or modelfile.Parse returned (whose format,
// version and header they checked): package method reads its GreedyTL
// variants' files this way. It returns an error for unknown members,
// invalid options, column indices out of range or repeated, non-finite
// numbers, non-positive scales, column names that are not one per
// column of X or H (modelfile.CheckNames: Parse checked the rest of the
// header), and hyperparameters, when the file records them, other than
// those of its options; in a version 2 file, also for a missing member
// (jsonfile.DecodeComplete: "columns[0].weight is missing"), which would
// otherwise read as zero. Its errors name no package: ReadModel and
// package method put theirs in front.
func DecodeFile(f modelfile.File) (*Model, error) {
	var mf modelFile
	if f.Version == modelfile.Version1 {
		var v1 modelFileV1
		v1.Options.Options.FeatureFactor = math.NaN() // JSON cannot set a NaN: still NaN means absent
		if err := jsonfile.Decode(f.Doc, &v1, "model"); err != nil {
			return nil, fmt.Errorf("version 1 file: %w", err)
		}
		var err error
		if mf, err = v1.upgrade(); err != nil {
			return nil, err
		}
	} else if err := jsonfile.DecodeComplete(f.Doc, &mf, "model"); err != nil {
		return nil, err
	}
	m := newModel(len(mf.Columns), mf.NumFeatures, mf.NumSources, mf.Options)
	for j, c := range mf.Columns {
		col := Column{Kind: c.Kind, Index: c.Index}
		m.Selected[j] = col
		m.Weights[j], m.Mean[j], m.Scale[j] = c.Weight, c.Mean, c.Scale
		m.Path[j] = Step{Column: col, Score: c.Score, RegError: c.RegError, LOOError: c.LOOError}
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	if err := modelfile.CheckNames(mf.FeatureNames, mf.SourceNames, m.NumFeatures, m.NumSources); err != nil {
		return nil, err
	}
	if mf.Hyperparameters != nil {
		want := m.Options.Hyperparameters()
		if !maps.Equal(mf.Hyperparameters, want) {
			return nil, fmt.Errorf("hyperparameters %v disagree with the options (%v)", mf.Hyperparameters, want)
		}
	}
	return m, nil
}

// upgrade returns the version 2 form of a version 1 file (without a build),
// or an error when the file uses version 2's key gamma (in its options or
// its hyperparameters, where beside feature_factor the order of the map's
// walk decided which was taken).
func (v1 *modelFileV1) upgrade() (modelFile, error) {
	o := v1.Options.Options
	if !math.IsNaN(o.FeatureFactor) {
		return modelFile{}, errors.New(`version 1 file: options has version 2's "gamma"; version 1 calls it "feature_factor"`)
	}
	o.FeatureFactor = v1.Options.FeatureFactor
	f := v1.modelFile
	f.Version, f.Options = modelfile.Version, o
	if v1.Hyperparameters != nil {
		if _, ok := v1.Hyperparameters[KeyGamma]; ok {
			return modelFile{}, errors.New(`version 1 file: hyperparameters has version 2's "gamma"; version 1 calls it "feature_factor"`)
		}
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
	if o.MaxK > 0 && len(m.Selected) > o.MaxK {
		return fmt.Errorf("inconsistent model: %d columns, more than its options' max_k = %d", len(m.Selected), o.MaxK)
	}
	if len(m.Path) != len(m.Selected) {
		return fmt.Errorf("inconsistent model: %d columns, %d steps", len(m.Selected), len(m.Path))
	}
	for j, c := range m.Selected {
		if m.Path[j].Column != c {
			return fmt.Errorf("step %d records %v but column %d is %v", j, m.Path[j].Column, j, c)
		}
		s := m.Path[j]
		if err := finiteMembers(j, c, member{"score", s.Score}, member{"reg_error", s.RegError}, member{"loo_error", s.LOOError}); err != nil {
			return err
		}
		if s.RegError < 0 || s.LOOError < 0 {
			return fmt.Errorf("column %d (%v): negative error (reg_error %v, loo_error %v)", j, c, s.RegError, s.LOOError)
		}
	}
	return nil
}
