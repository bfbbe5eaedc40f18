// Package modelfile owns the model file of every greedytl method: the
// members every file starts with (Header: "format", "version", "method",
// "hyperparameters", "build", "sources", "labels", "feature_names", "source_names"), the text form of the
// method spec that "method" holds (FormatSpec, ParseSpec), the writer of a file's
// JSON document (Write) and the one reader that checks a file's format,
// version and header before the method it names decodes the rest (Read,
// Parse). docs/design.md §10 describes the files.
//
// It sits below package method, which dispatches a file read here to the
// decoder of the method it names, and below the root package greedytl,
// whose GreedyTL models are one kind of file; it knows no method. It
// defines the record of a sources directory's identity (SourcesID, which
// package source makes and compares as source.ID), so that it needs no
// package that trains or scores sources.
//
//	f, err := modelfile.Read(r) // format, version, "sources", "labels" checked
//	…                           // f.Method names the decoder of f.Doc
//
// modelfile.go holds the header, the reader and the writer; sources.go
// the record of a sources directory (SourcesID); spec.go the
// spec's text form.
package modelfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/buildinfo"
	"github.com/greedytl/greedytl/internal/jsonfile"
	"github.com/greedytl/greedytl/internal/typednil"
)

// The model file's "format" and "version" members, shared by every model
// file greedytl writes. Version 2 names GreedyTL's γ "gamma" everywhere,
// records the canonical method spec and the build that wrote the file;
// readers still read version 1 (Version1).
const (
	Format   = "greedytl-model"
	Version  = 2
	Version1 = 1
)

// Header holds the members every model file starts with, whichever method
// wrote it: each method's file type embeds it, so that the header, and
// each of its members, is defined once.
type Header struct {
	Format          string             `json:"format"`
	Version         int                `json:"version"`
	Method          string             `json:"method"`
	Hyperparameters map[string]float64 `json:"hyperparameters"`
	// Build is the greedytl that wrote the file (absent in version 1).
	Build *buildinfo.Info `json:"build,omitempty"`
	// Sources identifies the sources directory the model's source scores
	// were computed from when it was fitted; it is absent when they were
	// given as a matrix, and in files written before it was added.
	Sources *SourcesID `json:"sources,omitempty"`
	// Labels names the labels of a binary model's classes, when the fit
	// knew them (absent in older files), and in a two-class multi-class
	// file its positive class and the other (absent in files of more
	// classes, which name them in "classes", and in two-class files
	// written before, read as multi-class; the method package checks them
	// against "classes").
	Labels *LabelNames `json:"labels,omitempty"`
	// FeatureNames names the columns of X the model was fitted on, in
	// order, when the training features had names (a text file's header);
	// it is absent otherwise, and in files written before it was added.
	FeatureNames []string `json:"feature_names,omitempty"`
	// SourceNames names the columns of H the model was fitted on, in
	// order, when they were given as a matrix whose columns had names (a
	// text --source-scores file's header: the user's own sources); it is
	// absent otherwise (H computed from a sources directory, which
	// "sources" identifies, or without a header), and in files written
	// before it was added.
	SourceNames []string `json:"source_names,omitempty"`
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
// the positive label among the negative ones, or a negative label given
// twice; or holds a label that reads as a non-finite number
// (dataset.CheckLabel). A nil l is valid.
func (l *LabelNames) Check() error {
	if l == nil {
		return nil
	}
	if l.Positive == "" {
		return errors.New(`"labels" has no positive label`)
	}
	for _, n := range append([]string{l.Positive}, l.Negative...) {
		if err := dataset.CheckLabel(n); err != nil {
			return fmt.Errorf(`"labels": %w`, err)
		}
	}
	if len(l.Negative) == 0 {
		return errors.New(`"labels" has no negative label`)
	}
	for i, n := range l.Negative {
		if n == "" || n == l.Positive {
			return fmt.Errorf(`"labels": negative label %q is empty or the positive one`, n)
		}
		if slices.Contains(l.Negative[:i], n) {
			return fmt.Errorf(`"labels": negative label %q is given twice`, n)
		}
	}
	return nil
}

// NewHeader returns the header of a file of this format and version
// holding a model of the named method with hyperparameters hp (nil: none),
// written by this build, whose source scores came from sources (nil: from
// a matrix).
func NewHeader(method string, hp map[string]float64, sources *SourcesID) Header {
	if hp == nil {
		hp = map[string]float64{}
	}
	build := buildinfo.Read()
	return Header{Format: Format, Version: Version, Method: method, Hyperparameters: hp, Build: &build, Sources: sources}
}

// Write writes doc, a whole model file (a method's file type, which embeds
// a Header), to w as an indented JSON document ending in a newline: the
// form of every model file. Numbers are written so that they read back
// exactly. It returns encoding/json's error, or w's, and an error when w
// is nil.
func Write(w io.Writer, doc any) error {
	if typednil.Is(w) {
		return errNoWriter
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// errNoReader and errNoWriter are the errors of Read given a nil
// io.Reader and of Write given a nil io.Writer (package dataset's words).
var (
	errNoReader = errors.New("no reader (nil)")
	errNoWriter = errors.New("no writer (nil)")
)

// File is a model file as Read and Parse return it: its header, checked,
// and the whole JSON document, which the method the header names decodes
// (its file type embeds Header, so that it decodes the header's members
// too).
type File struct {
	// Header is the file's header, as written: Version is 1 for a version
	// 1 file, whose hyperparameters may use version 1's keys.
	Header
	// Multi reports a multi-class file: one with a "classes" member
	// (docs/design.md §10).
	Multi bool
	// Doc is the whole document.
	Doc json.RawMessage
}

// Read reads one model file from r: a JSON document with nothing but white
// space after it, whose header it checks as Parse does. A nil r is an
// error. Its errors do not name the reader; callers prefix them.
func Read(r io.Reader) (File, error) {
	if typednil.Is(r) {
		return File{}, errNoReader
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return File{}, err
	}
	var doc json.RawMessage
	if err := jsonfile.Decode(b, &doc, "model"); err != nil {
		return File{}, err
	}
	return Parse(doc)
}

// Parse checks the header of the model file doc and returns it with doc:
// the one check of every model file's format and version, whichever method
// wrote it. It returns an error for a missing "format", "version" or
// "method" ("version is missing; want a number"), a member of the wrong
// type or null, and a header Header.Check refuses (another format, a
// version other than 1 and 2, …). Members it does not know are the
// method's to check.
func Parse(doc json.RawMessage) (File, error) {
	var head struct {
		Header
		Classes json.RawMessage `json:"classes,omitempty"` // optional: in multi-class files only
	}
	if err := jsonfile.DecodeMembers(doc, &head); err != nil {
		return File{}, err
	}
	if err := head.Check(head.Classes != nil); err != nil {
		return File{}, err
	}
	head.Method = UpgradeSpec(head.Method)
	return File{Header: head.Header, Multi: head.Classes != nil, Doc: doc}, nil
}

// UpgradeSpec returns method, a method spec as a file or a run recorded
// it, with each value that FormatSpec wrote in strconv's shortest form
// before FormatSetting wrote it in decimal digits (a whole number from 10⁶
// to MaxDigitsSetting: "max_k=1e+06") in the digits FormatSpec writes now
// ("max_k=1000000"): the canonical text of the same setting. The readers
// of what greedytl wrote before call it, so that an old file or run names
// its method as today's build names it: Parse for a model file's "method"
// (the GreedyTL decoders compare it with the name of the file's settings),
// package experiment for a run's run.json and records (which key a cell by
// its method's text). Any other text, malformed or not, is method
// unchanged.
func UpgradeSpec(method string) string {
	name, rest, ok := strings.Cut(method, ":")
	if !ok {
		return method
	}
	settings := strings.Split(rest, ",")
	changed := false
	for i, kv := range settings {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || strconv.FormatFloat(x, 'g', -1, 64) != v {
			continue // not a value that FormatSpec wrote
		}
		if now := FormatSetting(x); now != v {
			settings[i], changed = k+"="+now, true
		}
	}
	if !changed {
		return method
	}
	return name + ":" + strings.Join(settings, ",")
}

// Check returns the error Parse returns for a file whose header is h
// (multi: a multi-class file, one with "classes"), its members present: a
// format other than Format, a version it does not read, a "sources"
// record without a digest (SourcesID.Check), incomplete "labels"
// (LabelNames.Check), no method (an
// empty "method"), and a "feature_names" or "source_names" that names no
// column (which no writer writes: see SetNames). It is Parse's check of
// the header, which a writer given a header makes before writing it
// (greedytl.Model.Write): the one owner of what reader and writer refuse
// of a header, with CheckNames for the names of a model's columns.
func (h *Header) Check(multi bool) error { return h.check(multi, checkVersion) }

// CheckWritten returns Check's error for a header a writer is given, in
// Check's order, and in the place of its version check also an error for
// a version the readers read but greedytl does not write (1: "version 1:
// Write writes version 2 files"), so that a writer refuses the faults of a
// header in the order a reader would.
func (h *Header) CheckWritten(multi bool) error { return h.check(multi, checkWrittenVersion) }

// check is Check's checks, with version the check of the version.
func (h *Header) check(multi bool, version func(int) error) error {
	if h.Format != Format {
		return fmt.Errorf("format is %q, want %q", h.Format, Format)
	}
	if err := version(h.Version); err != nil {
		return err
	}
	if h.Method == "" {
		return errors.New("the file names no method")
	}
	if err := h.Sources.Check(); err != nil {
		return err
	}
	if err := h.Labels.Check(); err != nil {
		return err
	}
	if h.FeatureNames != nil && len(h.FeatureNames) == 0 {
		return errors.New(`"feature_names" names no column (a file without names has no "feature_names"; greedytl never writes an empty one)`)
	}
	if h.SourceNames != nil && len(h.SourceNames) == 0 {
		return errors.New(`"source_names" names no column (a file without names has no "source_names"; greedytl never writes an empty one)`)
	}
	return nil
}

// SetNames records features and sources (nil: none) as h's
// "feature_names" and "source_names", an empty list as none (nil): the
// file leaves an empty list out (so it reads back as none), and Check
// refuses a non-nil empty one, which a file holds only when something
// other than greedytl wrote "feature_names": []. Every writer of a header
// records the names through it, so that a caller's []string{} means no
// names whichever writer it is given to.
func (h *Header) SetNames(features, sources []string) {
	h.FeatureNames, h.SourceNames = namesOrNone(features), namesOrNone(sources)
}

// namesOrNone returns names, or nil when it is empty.
func namesOrNone(names []string) []string {
	if len(names) == 0 {
		return nil
	}
	return names
}

// CheckNames returns an error when features or sources, a file's
// "feature_names" and "source_names" (nil: none), do not name each of
// the d columns of X and the n columns of H its model was fitted on.
func CheckNames(features, sources []string, d, n int) error {
	if features != nil && len(features) != d {
		return fmt.Errorf(`"feature_names" has %d names but the model has %d features`, len(features), d)
	}
	if sources != nil && len(sources) != n {
		return fmt.Errorf(`"source_names" has %d names but the model has %d sources`, len(sources), n)
	}
	return nil
}

// checkVersion returns nil for a model file version this version of
// greedytl reads (1 and 2), and an error naming the version otherwise.
func checkVersion(v int) error {
	if v == Version || v == Version1 {
		return nil
	}
	return fmt.Errorf("unsupported version %d: this greedytl reads model file versions %d and %d (a newer greedytl wrote it?)", v, Version1, Version)
}

// checkWrittenVersion returns checkVersion's error for v, and an error for a
// version greedytl reads but does not write (1).
func checkWrittenVersion(v int) error {
	if err := checkVersion(v); err != nil {
		return err
	}
	if v != Version {
		return fmt.Errorf("version %d: Write writes version %d files", v, Version)
	}
	return nil
}
