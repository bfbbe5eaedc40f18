package greedytl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// The model file's "format" and "version" members, shared by every model
// file greedytl writes (package method's files for the baselines too).
const (
	ModelFileFormat  = "greedytl-model"
	ModelFileVersion = 1
)

// modelFile is the JSON form of a Model, version 1: one record per selected
// column, in selection order, holding both the predictor and the path.
type modelFile struct {
	Format      string       `json:"format"`
	Version     int          `json:"version"`
	Method      string       `json:"method"`
	NumFeatures int          `json:"num_features"`
	NumSources  int          `json:"num_sources"`
	Options     Options      `json:"options"`
	Columns     []fileColumn `json:"columns"`
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
//	{"format": "greedytl-model", "version": 1, "method": "greedytl",
//	 "num_features": d, "num_sources": n, "options": {...},
//	 "columns": [{"kind": "source", "index": 3, "weight": …, "mean": …,
//	              "scale": …, "score": …, "reg_error": …, "loo_error": …}, …]}
//
// with one record per selected column, in selection order. method is
// "greedytl" for the exact search and "greedytl-59" for the randomised one
// (options.sample holds its r). Numbers are written so that they read back
// exactly. WriteJSON returns an error if m is inconsistent (see ReadModel)
// or w fails.
func (m *Model) WriteJSON(w io.Writer) error {
	f, err := m.file()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("greedytl: writing model: %w", err)
	}
	return nil
}

// MarshalJSON encodes m in the format of WriteJSON, without indentation,
// so that a model can be embedded in other JSON documents.
func (m *Model) MarshalJSON() ([]byte, error) {
	f, err := m.file()
	if err != nil {
		return nil, err
	}
	return json.Marshal(f)
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

// file returns the JSON form of m after validating it.
func (m *Model) file() (*modelFile, error) {
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("greedytl: writing model: %w", err)
	}
	f := &modelFile{
		Format:      ModelFileFormat,
		Version:     ModelFileVersion,
		Method:      m.Options.method(),
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
// returns an error for anything else: malformed JSON, unknown fields or
// trailing data, another format or version, or inconsistent content
// (invalid options, column indices out of range or repeated, non-finite
// numbers, non-positive scales).
func ReadModel(r io.Reader) (*Model, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var f modelFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("greedytl: reading model: %w", err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("greedytl: reading model: trailing data after the model")
	}
	if f.Format != ModelFileFormat {
		return nil, fmt.Errorf("greedytl: reading model: format is %q, want %q", f.Format, ModelFileFormat)
	}
	if f.Version != ModelFileVersion {
		return nil, fmt.Errorf("greedytl: reading model: unsupported version %d (this version reads %d)", f.Version, ModelFileVersion)
	}
	if f.Method != f.Options.method() {
		return nil, fmt.Errorf("greedytl: reading model: method %q does not match options.sample = %d", f.Method, f.Options.Sample)
	}
	k := len(f.Columns)
	m := &Model{
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
		return nil, fmt.Errorf("greedytl: reading model: %w", err)
	}
	return m, nil
}

// validate checks the invariants of a model.
func (m *Model) validate() error {
	if m.NumFeatures < 0 || m.NumSources < 0 || m.NumFeatures+m.NumSources == 0 {
		return fmt.Errorf("invalid column counts: %d features, %d sources", m.NumFeatures, m.NumSources)
	}
	o := m.Options
	o.AutoLambda = false // a model always records the λ it used
	if err := o.check(); err != nil {
		return fmt.Errorf("invalid options: %w", err)
	}
	k := len(m.Selected)
	if len(m.Weights) != k || len(m.Mean) != k || len(m.Scale) != k || len(m.Path) != k {
		return fmt.Errorf("inconsistent model: %d columns, %d weights, %d means, %d scales, %d steps",
			k, len(m.Weights), len(m.Mean), len(m.Scale), len(m.Path))
	}
	seen := make(map[Column]bool, k)
	for j, c := range m.Selected {
		limit := m.NumFeatures
		if c.Kind == Source {
			limit = m.NumSources
		} else if c.Kind != Feature {
			return fmt.Errorf("column %d has invalid kind %d", j, int(c.Kind))
		}
		if c.Index < 0 || c.Index >= limit {
			return fmt.Errorf("column %d (%v) is out of range: the model has %d %ss", j, c, limit, c.Kind)
		}
		if seen[c] {
			return fmt.Errorf("column %d (%v) is selected twice", j, c)
		}
		seen[c] = true
		if m.Path[j].Column != c {
			return fmt.Errorf("step %d records %v but column %d is %v", j, m.Path[j].Column, j, c)
		}
		s := m.Path[j]
		for _, v := range []struct {
			name string
			x    float64
		}{{"weight", m.Weights[j]}, {"mean", m.Mean[j]}, {"scale", m.Scale[j]},
			{"score", s.Score}, {"reg_error", s.RegError}, {"loo_error", s.LOOError}} {
			if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
				return fmt.Errorf("column %d (%v): %s is %v", j, c, v.name, v.x)
			}
		}
		if !(m.Scale[j] > 0) {
			return fmt.Errorf("column %d (%v): scale must be positive, got %v", j, c, m.Scale[j])
		}
		if s.RegError < 0 || s.LOOError < 0 {
			return fmt.Errorf("column %d (%v): negative error (reg_error %v, loo_error %v)", j, c, s.RegError, s.LOOError)
		}
	}
	return nil
}
