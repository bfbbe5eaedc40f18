package greedytl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/modelfile"
	"github.com/greedytl/greedytl/source"
)

func jsonModel(t testing.TB, sample int) *Model {
	t.Helper()
	rng := rand.New(rand.NewPCG(20, 20))
	m := 12
	X, H := randDense(rng, m, 6), randDense(rng, m, 9)
	y := randLabels(rng, m)
	o := DefaultOptions()
	o.MaxK, o.Sample, o.Seed, o.FeatureFactor = 6, sample, 1<<60+3, 0.7
	return fitT(t, X, H, y, o)
}

// TestJSONRoundTrip checks that WriteJSON and ReadModel round-trip every
// field exactly, for both search methods.
func TestJSONRoundTrip(t *testing.T) {
	for _, c := range []struct {
		sample int
		method string
	}{{0, `"method": "greedytl:gamma=0.7,max_k=6"`}, {59, `"method": "greedytl:gamma=0.7,max_k=6,sample=59"`}} {
		mod := jsonModel(t, c.sample)
		var buf bytes.Buffer
		if err := mod.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		for _, want := range []string{`"format": "greedytl-model"`, `"version": 2`, c.method, `"kind": "source"`, `"gamma": 0.7`, `"build": {`} {
			if !strings.Contains(text, want) {
				t.Errorf("model file lacks %s:\n%s", want, text)
			}
		}
		got, err := ReadModel(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, mod) {
			t.Errorf("round trip changed the model:\n got %+v\nwant %+v", got, mod)
		}
	}
}

// readFile reads a GreedyTL file of any method name as package method
// does: modelfile.Read, then DecodeFile.
func readFile(r io.Reader) (*Model, modelfile.Header, error) {
	f, err := modelfile.Read(r)
	if err != nil {
		return nil, modelfile.Header{}, err
	}
	m, err := DecodeFile(f)
	return m, f.Header, err
}

// TestDecodeFileKeepsTheHeader checks that a file written by Write with a
// header of its own reads back, through modelfile.Read and DecodeFile, with
// what the file records besides the model: its method, version, the
// greedytl that wrote it and the sources its scores came from (issue: the
// root package's reader dropped the sources, so a Go caller could not
// check them).
func TestDecodeFileKeepsTheHeader(t *testing.T) {
	mod := jsonModel(t, 0)
	src := &source.ID{Dir: "runs/sources", SHA256: strings.Repeat("ab", 32), Count: 3, DataSHA256: strings.Repeat("cd", 32), Seed: 5}
	for _, tc := range []struct {
		what    string
		sources *source.ID
	}{{"with sources", src}, {"without sources", nil}} {
		var buf bytes.Buffer
		if err := mod.Write(&buf, modelfile.NewHeader("greedytl-auto", nil, tc.sources)); err != nil {
			t.Fatal(err)
		}
		got, head, err := readFile(&buf)
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		if !reflect.DeepEqual(got, mod) {
			t.Errorf("%s: the model changed", tc.what)
		}
		if head.Method != "greedytl-auto" || head.Version != modelfile.Version || head.Format != modelfile.Format || head.Build == nil {
			t.Errorf("%s: header %+v", tc.what, head)
		}
		if !reflect.DeepEqual(head.Sources, tc.sources) {
			t.Errorf("%s: sources %+v, want %+v", tc.what, head.Sources, tc.sources)
		}
		if !maps.Equal(head.Hyperparameters, mod.Options.Hyperparameters()) {
			t.Errorf("%s: hyperparameters %v, want %v", tc.what, head.Hyperparameters, mod.Options.Hyperparameters())
		}
	}
	_, head, err := readFile(strings.NewReader(modelFileV1Text))
	if err != nil || head.Version != modelfile.Version1 || head.Method != "greedytl-59" {
		t.Errorf("version 1 file: header %+v, %v; want version 1, method greedytl-59", head, err)
	}
}

// TestMarshalJSON checks that a model embedded in another document
// round-trips through encoding/json, and that decoding validates.
func TestMarshalJSON(t *testing.T) {
	type record struct {
		Target string `json:"target"`
		Model  *Model `json:"model"`
	}
	in := record{"cat", jsonModel(t, 59)}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out record
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip changed the record")
	}
	bad := strings.Replace(string(b), `"version":2`, `"version":7`, 1)
	if err := json.Unmarshal([]byte(bad), &out); err == nil || !strings.Contains(err.Error(), "unsupported version 7") {
		t.Errorf("err = %v", err)
	}
}

// TestMarshalJSONNil checks that a nil *Model's MarshalJSON returns an
// error, as its WriteJSON does, rather than panicking, and that
// MarshalJSON writes WriteJSON's document without the indentation.
func TestMarshalJSONNil(t *testing.T) {
	var m *Model
	if _, err := m.MarshalJSON(); err == nil {
		t.Error("nil model: MarshalJSON returned no error")
	}
	if err := m.WriteJSON(io.Discard); err == nil {
		t.Error("nil model: WriteJSON returned no error")
	}
	mod := jsonModel(t, 59)
	var buf, compact bytes.Buffer
	if err := mod.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	b, err := mod.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Compact(&compact, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, compact.Bytes()) {
		t.Errorf("MarshalJSON:\n%s\nWriteJSON compacted:\n%s", b, compact.Bytes())
	}
}

// TestReadModelRejects corrupts a valid file in many ways; each must be
// rejected with a clear error.
func TestReadModelRejects(t *testing.T) {
	mod := jsonModel(t, 0)
	var buf bytes.Buffer
	if err := mod.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(d map[string]any)) string {
		var d map[string]any
		json.Unmarshal(buf.Bytes(), &d)
		f(d)
		b, _ := json.Marshal(d)
		return string(b)
	}
	col0 := func(d map[string]any) map[string]any { return d["columns"].([]any)[0].(map[string]any) }
	for _, c := range []struct {
		name, text, want string
	}{
		{"empty", "", "EOF"},
		{"truncated", buf.String()[:buf.Len()/2], "unexpected EOF"},
		{"not JSON", "greedytl", "invalid character"},
		{"trailing data", buf.String() + "{}", "trailing data"},
		{"other format", edit(func(d map[string]any) { d["format"] = "liblinear" }), `format is "liblinear"`},
		{"version 3", edit(func(d map[string]any) { d["version"] = 3 }), "unsupported version 3"},
		{"no version", edit(func(d map[string]any) { delete(d, "version") }), "version is missing; want a number"},
		{"method mismatch", edit(func(d map[string]any) { d["method"] = "greedytl:gamma=0.7,max_k=6,sample=59" }), "does not match"},
		{"no method", edit(func(d map[string]any) { d["method"] = "" }), "names no method"},
		// The names Write refuses (modelfile.CheckNames): ReadModel refuses
		// them too, as method.Read does.
		{"a feature name short", edit(func(d map[string]any) { d["feature_names"] = []any{"a"} }), `"feature_names" has 1 names but the model has 6 features`},
		{"a source name more", edit(func(d map[string]any) { d["source_names"] = []any{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"} }), `"source_names" has 10 names but the model has 9 sources`},
		{"empty feature names", edit(func(d map[string]any) { d["feature_names"] = []any{} }), `"feature_names" names no column`},
		{"hyperparameters", edit(func(d map[string]any) { d["hyperparameters"].(map[string]any)["lambda"] = 2 }), "disagree with the options"},
		{"old key", edit(func(d map[string]any) { d["options"].(map[string]any)["feature_factor"] = 1 }), `unknown field "feature_factor"`},
		{"unknown field", edit(func(d map[string]any) { d["bias"] = 1 }), `unknown field "bias"`},
		{"bad kind", edit(func(d map[string]any) { col0(d)["kind"] = "sauce" }), `unknown column kind "sauce"`},
		{"index out of range", edit(func(d map[string]any) { col0(d)["index"] = 9 }), "out of range"},
		{"negative index", edit(func(d map[string]any) { col0(d)["index"] = -1 }), "out of range"},
		{"duplicate column", edit(func(d map[string]any) {
			cols := d["columns"].([]any)
			cols[1].(map[string]any)["kind"] = cols[0].(map[string]any)["kind"]
			cols[1].(map[string]any)["index"] = cols[0].(map[string]any)["index"]
		}), "selected twice"},
		{"zero scale", edit(func(d map[string]any) { col0(d)["scale"] = 0 }), "scale must be positive"},
		{"negative error", edit(func(d map[string]any) { col0(d)["loo_error"] = -1 }), "negative error"},
		{"NaN weight", strings.Replace(edit(func(d map[string]any) { col0(d)["weight"] = "NaNPLACEHOLDER" }), `"NaNPLACEHOLDER"`, "NaN", 1), "invalid character"},
		{"huge weight", strings.Replace(edit(func(d map[string]any) { col0(d)["weight"] = "BIG" }), `"BIG"`, "1e999", 1), "cannot unmarshal"},
		{"string weight", edit(func(d map[string]any) { col0(d)["weight"] = "1" }), "cannot unmarshal string"},
		{"λ = 0", edit(func(d map[string]any) { d["options"].(map[string]any)["lambda"] = 0 }), "Lambda must be positive"},
		{"no sizes", edit(func(d map[string]any) { d["num_features"], d["num_sources"] = 0, 0 }), "invalid column counts"},
		// JSON null would decode to 0: refused, naming the member.
		{"null weight", edit(func(d map[string]any) { col0(d)["weight"] = nil }), "columns[0].weight is null; want a number"},
		{"null kind", edit(func(d map[string]any) { col0(d)["kind"] = nil }), "columns[0].kind is null"},
		{"null version", edit(func(d map[string]any) { d["version"] = nil }), "version is null; want a number"},
		{"null λ", edit(func(d map[string]any) { d["options"].(map[string]any)["lambda"] = nil }), "options.lambda is null; want a number"},
		{"null hyperparameter", edit(func(d map[string]any) { d["hyperparameters"].(map[string]any)["delta"] = nil }), "hyperparameters.delta is null; want a number"},
		{"null num_sources", edit(func(d map[string]any) { d["num_sources"] = nil }), "num_sources is null; want a number"},
		{"null sources digest", edit(func(d map[string]any) { d["sources"] = map[string]any{"dir": "src", "sha256": nil} }), "sources.sha256 is null; want a string"},
		{"sources without a digest", edit(func(d map[string]any) { d["sources"] = map[string]any{"dir": "src", "count": 2} }), "sources.sha256 is missing; want a string"},
		{"sources with an empty digest", edit(func(d map[string]any) {
			d["sources"] = map[string]any{"dir": "src", "sha256": "", "count": 2, "data_sha256": "", "seed": 0}
		}), `"sources" has no sha256 digest`},
		// A missing member would decode to 0, or to no columns: refused,
		// naming the member.
		{"no weight", edit(func(d map[string]any) { delete(col0(d), "weight") }), "columns[0].weight is missing; want a number"},
		{"no kind", edit(func(d map[string]any) { delete(col0(d), "kind") }), "columns[0].kind is missing"},
		{"no columns", edit(func(d map[string]any) { delete(d, "columns") }), "columns is missing; want an array"},
		{"no num_sources", edit(func(d map[string]any) { delete(d, "num_sources") }), "num_sources is missing; want a number"},
		{"no options", edit(func(d map[string]any) { delete(d, "options") }), "options is missing; want an object"},
		{"no seed", edit(func(d map[string]any) { delete(d["options"].(map[string]any), "seed") }), "options.seed is missing; want a number"},
	} {
		_, err := ReadModel(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "greedytl.ReadModel: ") {
			t.Errorf("%s: %v does not start with greedytl.ReadModel", c.name, err)
		}
		if err := errtest.OnePrefix(err.Error()); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestWriteJSONRejectsInvalid checks that an inconsistent model is not
// written.
func TestWriteJSONRejectsInvalid(t *testing.T) {
	mod := jsonModel(t, 0)
	mod.Weights = mod.Weights[:1]
	if err := mod.WriteJSON(new(bytes.Buffer)); err == nil || !strings.HasPrefix(err.Error(), "greedytl.Model.WriteJSON: inconsistent") {
		t.Errorf("err = %v, want greedytl.Model.WriteJSON's, once", err)
	}
}

// TestWriteRefusesAHeaderTheReaderRefuses checks that Write refuses a
// header that no reader takes back whatever its method (a file without
// format, of another version, without a method, with column names that
// are not one per column) and writes, and ReadModel reads back, one
// that names each column. The method name's settings are package
// method's to check (method's TestWriteRefusesANameReadRefuses).
func TestWriteRefusesAHeaderTheReaderRefuses(t *testing.T) {
	mod := jsonModel(t, 0)
	header := func(set func(h *modelfile.Header)) modelfile.Header {
		h := modelfile.NewHeader(mod.methodName(), nil, nil)
		set(&h)
		return h
	}
	names := func(prefix string, n int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(prefix, i)
		}
		return s
	}
	for _, c := range []struct {
		name string
		h    modelfile.Header
		want string
	}{
		{"empty header", modelfile.Header{}, "format"},
		{"wrong version", header(func(h *modelfile.Header) { h.Version = 7 }), "version 7"},
		{"version 1", header(func(h *modelfile.Header) { h.Version = modelfile.Version1 }), "version 1: Write writes version 2"},
		{"no method", header(func(h *modelfile.Header) { h.Method = "" }), "no method"},
		{"a feature name short", header(func(h *modelfile.Header) { h.FeatureNames = names("f", mod.NumFeatures-1) }), `"feature_names" has 5 names but the model has 6 features`},
		{"a source name more", header(func(h *modelfile.Header) { h.SourceNames = names("s", mod.NumSources+1) }), `"source_names" has 10 names but the model has 9 sources`},
		{"labels without a negative", header(func(h *modelfile.Header) { h.Labels = &modelfile.LabelNames{Positive: "a"} }), `"labels" has no negative label`},
	} {
		var buf bytes.Buffer
		err := mod.Write(&buf, c.h)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one naming %q", c.name, err, c.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: wrote %d bytes", c.name, buf.Len())
		}
	}
	h := header(func(h *modelfile.Header) {
		h.FeatureNames, h.SourceNames = names("f", mod.NumFeatures), names("s", mod.NumSources)
	})
	var buf bytes.Buffer
	if err := mod.Write(&buf, h); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadModel(&buf); err != nil {
		t.Errorf("every column named: %v", err)
	}
	// Empty, non-nil names are no names, as the file leaves them out: a
	// caller's []string{} for a model without names is written and read.
	buf.Reset()
	if err := mod.Write(&buf, header(func(h *modelfile.Header) { h.FeatureNames, h.SourceNames = []string{}, []string{} })); err != nil {
		t.Errorf("empty names: %v", err)
	} else if _, err := ReadModel(&buf); err != nil {
		t.Errorf("empty names read back: %v", err)
	}
	// Any name is written: whether the readers take it for these options
	// is package method's to check.
	for _, name := range []string{"greedytl:lambda=1", "greedytl-sp", "forward-reg"} {
		if err := mod.Write(new(bytes.Buffer), modelfile.NewHeader(name, nil, nil)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestWriteRefusesTheVersionWhereTheReaderDoes: Write refuses a header's
// faults in the reader's order, its version right after its format: a
// header of version 1, which the readers read but Write does not write, and
// of a fault the reader checks after the version (no method, incomplete
// labels, names not one per column) is refused for its version,
// as one of an unreadable version is, with the reader's message; one of
// another format, for its format.
func TestWriteRefusesTheVersionWhereTheReaderDoes(t *testing.T) {
	mod := jsonModel(t, 0)
	for _, c := range []struct {
		name  string
		fault func(h *modelfile.Header)
	}{
		{"no method", func(h *modelfile.Header) { h.Method = "" }},
		{"labels without a negative", func(h *modelfile.Header) { h.Labels = &modelfile.LabelNames{Positive: "a"} }},
		{"a feature name for a model of more features", func(h *modelfile.Header) { h.FeatureNames = []string{"f0"} }},
	} {
		for _, v := range []int{modelfile.Version1, 7} {
			h := modelfile.NewHeader(mod.methodName(), nil, nil)
			h.Version = v
			c.fault(&h)
			var buf bytes.Buffer
			err := mod.Write(&buf, h)
			want := "header a reader refuses: version 1: Write writes version 2 files"
			if v != modelfile.Version1 {
				doc, jerr := json.Marshal(h)
				if jerr != nil {
					t.Fatal(jerr)
				}
				_, perr := modelfile.Parse(doc)
				if perr == nil || !strings.Contains(perr.Error(), "version 7") {
					t.Fatalf("%s, version 7: the reader's error %v, want one naming the version", c.name, perr)
				}
				want = "header a reader refuses: " + perr.Error()
			}
			if err == nil || err.Error() != want {
				t.Errorf("%s, version %d: err = %v, want %q", c.name, v, err, want)
			}
		}
	}
	h := modelfile.NewHeader(mod.methodName(), nil, nil)
	h.Format, h.Version = "other", modelfile.Version1
	if err := mod.Write(io.Discard, h); err == nil || !strings.Contains(err.Error(), "format") {
		t.Errorf("another format, version 1: err = %v, want one naming the format", err)
	}
}

// FuzzReadModel checks that ReadModel never panics and that whatever it
// accepts is written back and read again unchanged.
func FuzzReadModel(f *testing.F) {
	var buf bytes.Buffer
	rng := rand.New(rand.NewPCG(21, 21))
	X, H := randDense(rng, 8, 3), randDense(rng, 8, 3)
	mod, err := Fit(context.Background(), X, H, randLabels(rng, 8), DefaultOptions())
	if err != nil {
		f.Fatal(err)
	}
	mod.WriteJSON(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"greedytl-model","version":1}`))
	// The cases of issue 18: a null weight (which would read as 0), a NaN,
	// a huge column index, a null where an object belongs.
	doc := buf.String()
	for _, r := range [][2]string{
		{`"weight": `, `"weight": null, "x": `}, {`"weight": `, `"weight": NaN, "x": `},
		{`"index": `, `"index": 2000000000, "x": `}, {`"num_features": `, `"num_features": 2000000000, "x": `},
		{`"options": `, `"options": null, "x": `}, {`"version": 2`, `"version": null`},
	} {
		f.Add([]byte(strings.Replace(doc, r[0], r[1], 1)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ReadModel(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := m.WriteJSON(&out); err != nil {
			t.Fatalf("accepted model fails to write: %v", err)
		}
		m2, err := ReadModel(&out)
		if err != nil || !reflect.DeepEqual(m, m2) {
			t.Fatalf("re-read differs: %v", err)
		}
	})
}

// modelFileV1 is a model file written by version 1 (greedytl before the
// file recorded the canonical spec and named γ gamma).
const modelFileV1Text = `{
  "format": "greedytl-model",
  "version": 1,
  "method": "greedytl-59",
  "num_features": 2,
  "num_sources": 1,
  "options": {"lambda": 1, "auto_lambda": false, "delta": 0.0001, "max_k": 0,
    "sample": 59, "seed": 7, "feature_factor": 0.5, "stop_at_min_loo": false},
  "columns": [
    {"kind": "source", "index": 0, "weight": 0.5, "mean": 0.1, "scale": 2,
     "score": 3, "reg_error": 0.4, "loo_error": 0.6}
  ]
}`

// TestReadModelVersion1 checks that files of the previous version still
// read, with γ from their feature_factor, and that their method names are
// checked by version 1's rule.
func TestReadModelVersion1(t *testing.T) {
	m, err := ReadModel(strings.NewReader(modelFileV1Text))
	if err != nil {
		t.Fatal(err)
	}
	if m.Options.FeatureFactor != 0.5 || m.Options.Sample != 59 || m.Options.Seed != 7 || m.Weights[0] != 0.5 {
		t.Errorf("read %+v", m)
	}
	f, err := m.Predict(nil, mat.NewDense(1, 1, []float64{2.1}))
	if err != nil || f[0] != 0.5 {
		t.Errorf("predict = %v, %v; want 0.5", f, err)
	}
	// Written again, it is a version 2 file with the canonical name.
	var buf bytes.Buffer
	if err := m.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"method": "greedytl:gamma=0.5,sample=59"`) || !strings.Contains(buf.String(), `"version": 2`) {
		t.Errorf("rewritten file:\n%s", buf.String())
	}
	bad := strings.Replace(modelFileV1Text, `"greedytl-59"`, `"greedytl"`, 1)
	if _, err := ReadModel(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("version 1 file with the wrong method: err = %v", err)
	}
	gamma := strings.Replace(modelFileV1Text, `"feature_factor"`, `"gamma"`, 1)
	if _, err := ReadModel(strings.NewReader(gamma)); err == nil || !strings.Contains(err.Error(), "version 1 file") {
		t.Errorf("version 1 file with version 2's key: err = %v", err)
	}
	// Version 2's key among the hyperparameters too: refused, whatever the
	// order in which the map is walked (it decided which of gamma and
	// feature_factor, both read as γ, was compared with the options).
	for _, hyper := range []string{
		`"hyperparameters": {"delta": 0.0001, "feature_factor": 0.5, "gamma": 2, "lambda": 1, "sample": 59},`,
		`"hyperparameters": {"delta": 0.0001, "gamma": 0.5, "lambda": 1, "sample": 59},`,
	} {
		text := strings.Replace(modelFileV1Text, `"num_features": 2,`, hyper+"\n  \"num_features\": 2,", 1)
		for range 20 {
			if _, err := ReadModel(strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), `version 1 file: hyperparameters has version 2's "gamma"`) {
				t.Fatalf("version 1 file with %s: err = %v", hyper, err)
			}
		}
	}
	hyper := strings.Replace(modelFileV1Text, `"num_features": 2,`, `"hyperparameters": {"delta": 0.0001, "feature_factor": 0.5, "lambda": 1, "sample": 59},`+"\n  \"num_features\": 2,", 1)
	if _, err := ReadModel(strings.NewReader(hyper)); err != nil {
		t.Errorf("version 1 file with its own hyperparameters: %v", err)
	}
}

// TestMethodNameRoundTrip checks, for options set every way, that the
// file written for them reads back: the identity is derived from the
// options in one place (issue: --sample 59 wrote an unreadable file).
func TestMethodNameRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 22))
	X, H := randDense(rng, 12, 4), randDense(rng, 12, 5)
	y := randLabels(rng, 12)
	for _, set := range []func(o *Options){
		func(o *Options) {},
		func(o *Options) { o.Sample = 59 },
		func(o *Options) { o.Sample, o.Seed = 3, 9 },
		func(o *Options) { o.Lambda = 10 },
		func(o *Options) { o.AutoLambda = true },
		func(o *Options) { o.FeatureFactor, o.MaxK, o.Delta = 0, 2, 0 },
		func(o *Options) { o.StopAtMinLOO = true },
	} {
		o := DefaultOptions()
		set(&o)
		mod := fitT(t, X, H, y, o)
		var buf bytes.Buffer
		if err := mod.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadModel(&buf); err != nil {
			t.Errorf("options %+v: %v", o, err)
		}
	}
}

// TestModelNilReaderWriter: WriteJSON to a nil io.Writer and ReadModel of
// a nil io.Reader are errors, not the panics they were.
func TestModelNilReaderWriter(t *testing.T) {
	mod := jsonModel(t, 0)
	if err := mod.WriteJSON(nil); err == nil || err.Error() != "greedytl.Model.WriteJSON: no writer (nil)" {
		t.Errorf("WriteJSON(nil): error %v", err)
	}
	if _, err := ReadModel(nil); err == nil || err.Error() != "greedytl.ReadModel: no reader (nil)" {
		t.Errorf("ReadModel(nil): error %v", err)
	}
}

// TestModelFileRefusesMoreColumnsThanMaxK: a model with more columns than
// its options' max_k is inconsistent (Fit never selects more), and the
// writer and the reader both refuse it through validate (both took it).
func TestModelFileRefusesMoreColumnsThanMaxK(t *testing.T) {
	mod := jsonModel(t, 0)
	k := len(mod.Selected)
	if k < 2 || mod.Options.MaxK != 6 {
		t.Fatalf("test needs 2 to 6 columns and max_k = 6: %d, %d", k, mod.Options.MaxK)
	}
	want := fmt.Sprintf("inconsistent model: %d columns, more than its options' max_k = %d", k, k-1)
	bad := *mod
	bad.Options.MaxK = k - 1
	if err := bad.WriteJSON(new(bytes.Buffer)); err == nil || err.Error() != "greedytl.Model.WriteJSON: "+want {
		t.Errorf("WriteJSON: %v, want %q", err, want)
	}
	mod.Options.MaxK = k
	var buf bytes.Buffer
	if err := mod.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(buf.String(), fmt.Sprintf("max_k=%d", k), fmt.Sprintf("max_k=%d", k-1), 1)
	text = strings.ReplaceAll(text, fmt.Sprintf(`"max_k": %d`, k), fmt.Sprintf(`"max_k": %d`, k-1))
	if text == buf.String() {
		t.Fatal("the edit changed nothing")
	}
	if _, err := ReadModel(strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadModel: %v, want %q", err, want)
	}
}

// TestUnmarshalJSONNilAndNull: UnmarshalJSON on a nil *Model returns an
// error (it panicked on a valid document), as json.RawMessage's does; the
// JSON null is a no-op, encoding/json's convention for Unmarshalers; and
// its errors name UnmarshalJSON, not ReadModel.
func TestUnmarshalJSONNilAndNull(t *testing.T) {
	b, err := jsonModel(t, 59).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var nilModel *Model
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("nil *Model: UnmarshalJSON panics: %v", r)
			}
		}()
		if err := nilModel.UnmarshalJSON(b); err == nil || err.Error() != "greedytl.Model.UnmarshalJSON: nil *Model" {
			t.Errorf("nil *Model: UnmarshalJSON error %v", err)
		}
	}()
	m := jsonModel(t, 59)
	keep := *m
	if err := m.UnmarshalJSON([]byte(" null ")); err != nil || !reflect.DeepEqual(*m, keep) {
		t.Errorf("UnmarshalJSON(null) = %v, or changed the model", err)
	}
	if err := m.UnmarshalJSON([]byte(`{"format": 1}`)); err == nil || !strings.HasPrefix(err.Error(), "greedytl.Model.UnmarshalJSON: ") {
		t.Errorf("UnmarshalJSON(invalid) error %v, want one prefixed greedytl.Model.UnmarshalJSON", err)
	}
	var v Model
	if err := json.Unmarshal(b, &v); err != nil || !reflect.DeepEqual(&v, jsonModel(t, 59)) {
		t.Errorf("json.Unmarshal into a Model: %v", err)
	}
}
