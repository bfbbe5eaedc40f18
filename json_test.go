package greedytl

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func jsonModel(t *testing.T, sample int) *Model {
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
	}{{0, `"method": "greedytl"`}, {59, `"method": "greedytl-59"`}} {
		mod := jsonModel(t, c.sample)
		var buf bytes.Buffer
		if err := mod.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		for _, want := range []string{`"format": "greedytl-model"`, `"version": 1`, c.method, `"kind": "source"`} {
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
	bad := strings.Replace(string(b), `"version":1`, `"version":7`, 1)
	if err := json.Unmarshal([]byte(bad), &out); err == nil || !strings.Contains(err.Error(), "unsupported version 7") {
		t.Errorf("err = %v", err)
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
		{"version 2", edit(func(d map[string]any) { d["version"] = 2 }), "unsupported version 2"},
		{"no version", edit(func(d map[string]any) { delete(d, "version") }), "unsupported version 0"},
		{"method mismatch", edit(func(d map[string]any) { d["method"] = "greedytl-59" }), "does not match"},
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
	} {
		_, err := ReadModel(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}

// TestWriteJSONRejectsInvalid checks that an inconsistent model is not
// written.
func TestWriteJSONRejectsInvalid(t *testing.T) {
	mod := jsonModel(t, 0)
	mod.Weights = mod.Weights[:1]
	if err := mod.WriteJSON(new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "inconsistent") {
		t.Errorf("err = %v", err)
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
