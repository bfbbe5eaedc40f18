package modelfile

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestWriteReadHeader: a document written by Write with a NewHeader reads
// back through Read with the same header and the whole document.
func TestWriteReadHeader(t *testing.T) {
	src := &SourcesID{Dir: "s", SHA256: strings.Repeat("ab", 32), Count: 2}
	h := NewHeader("ridge:lambda=2", map[string]float64{"lambda": 2}, src)
	h.Labels = &LabelNames{Positive: "cat", Negative: []string{"dog", "cow"}}
	h.FeatureNames = []string{"b", "a", ""}
	doc := struct {
		Header
		W []float64 `json:"w"`
	}{h, []float64{0.1, 1e-300}}
	var buf bytes.Buffer
	if err := Write(&buf, doc); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.HasPrefix(text, "{\n  \"format\": \"greedytl-model\",\n  \"version\": 2,\n  \"method\": \"ridge:lambda=2\"") || !strings.HasSuffix(text, "}\n") {
		t.Errorf("Write's document does not start with the header or end in a newline:\n%s", text)
	}
	if !strings.Contains(text, "\n  \"feature_names\": [\n    \"b\",\n    \"a\",\n    \"\"\n  ],\n") {
		t.Errorf("Write's document does not hold the feature names as \"feature_names\":\n%s", text)
	}
	f, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Header, h) || f.Multi || string(f.Doc) != strings.TrimSuffix(text, "\n") {
		t.Errorf("Read gave %+v (multi %v), want header %+v and the document", f.Header, f.Multi, h)
	}
	if h.Format != Format || h.Version != Version || h.Build == nil {
		t.Errorf("NewHeader: %+v", h)
	}
	if NewHeader("m", nil, nil).Hyperparameters == nil {
		t.Error("NewHeader(nil hyperparameters): nil map, which a file writes as null")
	}
}

// TestParseChecksTheHeader: Parse, the one check of format and version,
// refuses what no method may read, and tells multi-class files apart.
func TestParseChecksTheHeader(t *testing.T) {
	const ok = `{"format": "greedytl-model", "version": 2, "method": "m", "hyperparameters": {}`
	for _, tc := range []struct{ doc, want string }{
		{`{"format": "other", "version": 2, "method": "m"}`, `format is "other", want "greedytl-model"`},
		{`{"format": "greedytl-model", "version": 3, "method": "m"}`, "unsupported version 3: this greedytl reads model file versions 1 and 2"},
		{`{"format": "greedytl-model", "version": 0, "method": "m"}`, "unsupported version 0"},
		{`{"format": "greedytl-model", "version": 2, "method": null}`, "null"},
		{`{"format": "greedytl-model", "version": "2", "method": "m"}`, "cannot unmarshal"},
		// Not a JSON object (a user's wrong file): the message named
		// Parse's Go type, "struct { modelfile.Header; Classes … }".
		{`[{"format": "greedytl-model"}]`, "the document is an array; want an object"},
		{`2`, "the document is a number; want an object"},
		{`{"format": "greedytl-model", "method": "m"}`, "version is missing; want a number"},
		{`{"version": 2, "method": "m"}`, "format is missing; want a string"},
		{`{"format": "greedytl-model", "version": 2}`, "method is missing; want a string"},
		// An empty method, which every writer refuses (Header.Check), is
		// refused here too, whichever method would decode the file.
		{`{"format": "greedytl-model", "version": 2, "method": ""}`, "the file names no method"},
		{ok + `, "sources": {"dir": "s", "sha256": "", "count": 1, "data_sha256": "", "seed": 0}}`, `"sources" has no sha256 digest`},
		{ok + `, "sources": {"dir": "s"}}`, `sources.sha256 is missing; want a string`},
		{ok + `, "labels": {"positive": "a"}}`, `labels.negative is missing; want an array`},
		{ok + `, "labels": {"positive": "", "negative": ["b"]}}`, `"labels" has no positive label`},
		{ok + `, "labels": {"positive": "a", "negative": []}}`, `"labels" has no negative label`},
		{ok + `, "labels": {"positive": "a", "negative": ["a"]}}`, `negative label "a" is empty or the positive one`},
		{ok + `, "labels": {"positive": "a", "negative": ["b", "c", "b"]}}`, `"labels": negative label "b" is given twice`},
		{ok + `, "labels": {"positive": "NaN", "negative": ["b"]}}`, `"labels": label "NaN" reads as NaN, not a finite number`},
		{ok + `, "labels": {"positive": "1", "negative": ["-inf"]}}`, `"labels": label "-inf" reads as -Inf, not a finite number`},
		{ok + `, "feature_names": []}`, `"feature_names" names no column`},
		{ok + `, "feature_names": ["a", 1]}`, "cannot unmarshal number"},
		{ok + `, "feature_names": "a"}`, "cannot unmarshal string"},
		{ok + `, "source_names": []}`, `"source_names" names no column`},
		{ok + `, "source_names": [1]}`, "cannot unmarshal number"},
	} {
		if _, err := Parse([]byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s): %v, want an error containing %q", tc.doc, err, tc.want)
		}
	}
	for _, tc := range []struct {
		doc   string
		multi bool
	}{{ok + `, "w": [1]}`, false}, {ok + `, "classes": ["a", "b"]}`, true}, {ok + `, "feature_names": ["x"], "classes": ["a", "b"]}`, true}, {`{"format": "greedytl-model", "version": 1, "method": "m"}`, false},
		// Class names that label files may not hold (dataset/labelrunes.go)
		// but that model files written before that rule may: still read.
		{ok + `, "labels": {"positive": "Ge\u00adwicht", "negative": ["\u05d0\u05d1\u200f"]}}`, false},
		{ok + `, "classes": ["\u001b[31mred", "c\u202eat"]}`, true},
		// White space at either end, which the API could write.
		{ok + `, "labels": {"positive": "yes\u00a0", "negative": ["no"]}}`, false},
		{ok + `, "classes": ["cat ", "dog"]}`, true}} {
		f, err := Parse([]byte(tc.doc))
		if err != nil || f.Multi != tc.multi || f.Method != "m" {
			t.Errorf("Parse(%s): %+v, %v; want method m, multi %v", tc.doc, f, err, tc.multi)
		}
	}
	if _, err := Read(strings.NewReader(ok + "} {}")); err == nil || !strings.Contains(err.Error(), "trailing data") {
		t.Errorf("Read of two documents: %v, want trailing data", err)
	}
}

// TestFormatSpec: the settings in sorted key order, each value in the
// shortest form that parses back to the same float64.
func TestFormatSpec(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings map[string]float64
		want     string
	}{
		{"greedytl", nil, "greedytl"},
		{"greedytl", map[string]float64{}, "greedytl"},
		{"greedytl-sp", map[string]float64{"gamma": 0.25}, "greedytl-sp:gamma=0.25"},
		{"greedytl", map[string]float64{"lambda": 10, "delta": 0.001, "sample": 59}, "greedytl:delta=0.001,lambda=10,sample=59"},
		{"x", map[string]float64{"a": 1e-300, "b": 1.0 / 3}, "x:a=1e-300,b=0.3333333333333333"},
		// Whole numbers up to MaxDigitsSetting in decimal digits, as the
		// CLI's whole-number flags read them (not 1e+06, 1.234567e+06).
		{"greedytl", map[string]float64{"max_k": 1e6, "sample": 1234567}, "greedytl:max_k=1000000,sample=1234567"},
		{"x", map[string]float64{"a": math.MaxInt32, "b": -1e6, "c": 999999}, "x:a=2147483647,b=-1000000,c=999999"},
		{"x", map[string]float64{"a": math.MaxInt32 + 1, "b": 1e10, "c": 1e21, "d": 1000000.5}, "x:a=2.147483648e+09,b=1e+10,c=1e+21,d=1.0000005e+06"},
	} {
		got := FormatSpec(tc.name, tc.settings)
		if got != tc.want {
			t.Errorf("FormatSpec(%q, %v) = %q, want %q", tc.name, tc.settings, got, tc.want)
		}
		_, rest, _ := strings.Cut(got, ":")
		for kv := range strings.SplitSeq(rest, ",") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				if x, err := strconv.ParseFloat(v, 64); err != nil || x != tc.settings[k] || math.IsNaN(x) {
					t.Errorf("%s: %s=%s does not parse back to %v", got, k, v, tc.settings[k])
				}
			}
		}
	}
}

// TestFormatSettingWhole: every whole number FormatSetting writes in
// digits (at most MaxDigitsSetting in magnitude) is one WholeText takes,
// parses back to itself, and differs from strconv's shortest form only
// from 10⁶ on; beyond MaxDigitsSetting, and for fractions, the shortest
// form is kept. Values of every magnitude, near the bounds and random.
func TestFormatSettingWhole(t *testing.T) {
	vals := []float64{0, 1, 59, 999999, 1e6, 1e6 + 1, 1234567, 1 << 30, math.MaxInt32 - 1, math.MaxInt32, math.MaxInt32 + 1, 1e10, 1 << 53, 1e21, 1e300, 0.5, 1000000.5, 1e-7}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		vals = append(vals, math.Trunc(math.Exp(rng.Float64()*25)), math.Exp(rng.Float64()*60-30))
	}
	for _, v := range vals {
		for _, x := range []float64{v, -v} {
			text := FormatSetting(x)
			back, err := strconv.ParseFloat(text, 64)
			if err != nil || back != x {
				t.Errorf("FormatSetting(%v) = %q parses to %v, %v", x, text, back, err)
			}
			short := strconv.FormatFloat(x, 'g', -1, 64)
			digits := x == math.Trunc(x) && math.Abs(x) <= MaxDigitsSetting
			switch {
			case digits && !WholeText(text):
				t.Errorf("FormatSetting(%v) = %q: WholeText refuses it", x, text)
			case digits && strings.ContainsAny(text, ".e"):
				t.Errorf("FormatSetting(%v) = %q, want decimal digits", x, text)
			case !digits && text != short:
				t.Errorf("FormatSetting(%v) = %q, want the shortest form %q", x, text, short)
			case math.Abs(x) < 1e6 && text != short:
				t.Errorf("FormatSetting(%v) = %q, want %q as before (below 10⁶)", x, text, short)
			}
		}
	}
}

// TestParseUpgradesOldSpec: a file's method written before FormatSetting
// wrote whole numbers in digits (max_k=1e+06) is read as the digits the
// method's settings are written in now, so that its decoder, comparing the
// file's method with the name of its settings, reads it; other texts,
// malformed included, are as written.
func TestParseUpgradesOldSpec(t *testing.T) {
	doc := func(m string) json.RawMessage {
		return json.RawMessage(`{"format": "greedytl-model", "version": 2, "method": ` + strconv.Quote(m) + `}`)
	}
	for old, want := range map[string]string{
		"greedytl:max_k=1e+06,sample=1.234567e+06":        "greedytl:max_k=1000000,sample=1234567",
		"greedytl:lambda=10,max_k=2.147483647e+09":        "greedytl:lambda=10,max_k=2147483647",
		"greedytl:lambda=1e+10,max_k=2.147483648e+09":     "greedytl:lambda=1e+10,max_k=2.147483648e+09",
		"greedytl:delta=0.001,sample=59":                  "greedytl:delta=0.001,sample=59",
		"greedytl-sp:gamma=1.0000005e+06":                 "greedytl-sp:gamma=1.0000005e+06",
		"greedytl":                                        "greedytl",
		"greedytl:max_k=1e6,sample":                       "greedytl:max_k=1e6,sample",
		"greedytl:max_k=1000000.0,sample=0x1p20,a=+1e+06": "greedytl:max_k=1000000.0,sample=0x1p20,a=+1e+06",
	} {
		f, err := Parse(doc(old))
		if err != nil {
			t.Errorf("Parse of method %q: %v", old, err)
			continue
		}
		if f.Method != want {
			t.Errorf("Parse of method %q: %q, want %q", old, f.Method, want)
		}
	}
}

// TestKeyAsTyped: a key is named quoted, and one that key=auto stands for
// with that spelling too, since ParseSpec gives both alike: each spelling
// the name shows, given to ParseSpec (key=1 for the quoted key), gives that
// key back. A key whose name starts with AutoPrefix again has no key=auto
// spelling (ParseSpec refuses auto_x=auto), so none is shown.
func TestKeyAsTyped(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"auto_C", `"auto_C" (C=auto)`},
		{"auto_lambda", `"auto_lambda" (lambda=auto)`},
		{"exact", `"exact"`},
		{"auto_", `"auto_"`},
		{"auto_auto_x", `"auto_auto_x"`},
	} {
		got := KeyAsTyped(tc.key)
		if got != tc.want {
			t.Errorf("KeyAsTyped(%q) = %q, want %q", tc.key, got, tc.want)
		}
		quoted, auto, hasAuto := strings.Cut(got, " (")
		typed := []string{strings.Trim(quoted, `"`) + "=1"}
		if hasAuto {
			typed = append(typed, strings.TrimSuffix(auto, ")"))
		}
		for _, s := range typed {
			if _, settings, err := ParseSpec("m:" + s); err != nil || settings[tc.key] != 1 || len(settings) != 1 {
				t.Errorf("ParseSpec(%q) = %v, %v; want %s=1", "m:"+s, settings, err, tc.key)
			}
		}
		if base, ok := strings.CutPrefix(tc.key, AutoPrefix); ok && !hasAuto {
			if _, _, err := ParseSpec("m:" + base + "=auto"); err == nil {
				t.Errorf("KeyAsTyped(%q) = %q leaves out the spelling %s=auto, which ParseSpec takes", tc.key, got, base)
			}
		}
	}
}

// TestParseSpecRoundTrip: ParseSpec reads back what FormatSpec writes,
// name and settings exactly, and refuses what is not a spec.
func TestParseSpecRoundTrip(t *testing.T) {
	for _, settings := range []map[string]float64{nil, {"gamma": 0.25}, {"lambda": 1e-300, "max_k": 3, "b": 1.0 / 3, "c": -0.5}} {
		text := FormatSpec("greedytl-sp", settings)
		name, got, err := ParseSpec(text)
		if err != nil || name != "greedytl-sp" || !reflect.DeepEqual(got, settings) {
			t.Errorf("ParseSpec(%q) = %q, %v, %v; want greedytl-sp, %v", text, name, got, err, settings)
		}
	}
	if name, got, err := ParseSpec("x:a=true,b=false"); err != nil || name != "x" || got["a"] != 1 || got["b"] != 0 {
		t.Errorf("true and false: %q, %v, %v", name, got, err)
	}
	for _, bad := range []string{"", ":a=1", "x=1", "x:", "x:a", "x:=1", "x:a b=1", "x:a=1,a=2", "x:a=NaN", "x:a=1e999", "x:a=one", "x:a=1_0", "x:a=1e-400"} {
		if _, _, err := ParseSpec(bad); err == nil || !strings.HasPrefix(err.Error(), "spec ") {
			t.Errorf("ParseSpec(%q): %v, want an error naming the spec", bad, err)
		}
	}
}

// TestNilReaderWriter: Read of a nil io.Reader and Write to a nil
// io.Writer are errors, as package dataset's readers and writers make
// them (they panicked in io.ReadAll and w.Write).
func TestNilReaderWriter(t *testing.T) {
	if _, err := Read(nil); err == nil || err.Error() != "no reader (nil)" {
		t.Errorf("Read(nil): error %v", err)
	}
	if err := Write(nil, NewHeader("m", nil, nil)); err == nil || err.Error() != "no writer (nil)" {
		t.Errorf("Write(nil, …): error %v", err)
	}
	// A nil pointer in the interface is no reader or writer either (it
	// was dereferenced).
	var buf *bytes.Buffer
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("a nil *bytes.Buffer: panic %v", r)
			}
		}()
		if _, err := Read(buf); err == nil || err.Error() != "no reader (nil)" {
			t.Errorf("Read of a nil *bytes.Buffer: error %v", err)
		}
		if err := Write(buf, NewHeader("m", nil, nil)); err == nil || err.Error() != "no writer (nil)" {
			t.Errorf("Write to a nil *bytes.Buffer: error %v", err)
		}
	}()
}

// TestCheckWritten: a writer's check of a header is Check's, with a version
// the readers read but greedytl does not write (1) refused where Check
// checks the version: after the format, before the method.
func TestCheckWritten(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(h *Header)
		want string // "" for none
		// check: Check's error is CheckWritten's (it reads the version)
		check bool
	}{
		{"the version written", func(h *Header) {}, "", true},
		{"version 1", func(h *Header) { h.Version = Version1 }, "version 1: Write writes version 2 files", false},
		{"version 1, no method", func(h *Header) { h.Version, h.Method = Version1, "" }, "version 1: Write writes version 2 files", false},
		{"version 1, another format", func(h *Header) { h.Version, h.Format = Version1, "other" }, `format is "other"`, true},
		{"version 7, no method", func(h *Header) { h.Version, h.Method = 7, "" }, "unsupported version 7", true},
		{"no method", func(h *Header) { h.Method = "" }, "the file names no method", true},
	} {
		h := NewHeader("greedytl", nil, nil)
		c.set(&h)
		err := h.CheckWritten(false)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		} else if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one starting %q", c.name, err, c.want)
		}
		if c.check {
			if rerr := h.Check(false); (rerr == nil) != (err == nil) || (err != nil && rerr.Error() != err.Error()) {
				t.Errorf("%s: Check says %v, CheckWritten %v: want the same", c.name, rerr, err)
			}
		}
	}
}
