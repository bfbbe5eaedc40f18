package modelfile

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/source"
)

// TestWriteReadHeader: a document written by Write with a NewHeader reads
// back through Read with the same header and the whole document.
func TestWriteReadHeader(t *testing.T) {
	src := &source.ID{Dir: "s", SHA256: strings.Repeat("ab", 32), Count: 2}
	h := NewHeader("ridge:lambda=2", map[string]float64{"lambda": 2}, src)
	h.Labels = &LabelNames{Positive: "cat", Negative: []string{"dog", "cow"}}
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
		{`{"format": "greedytl-model", "version": "2"}`, "cannot unmarshal"},
		{ok + `, "sources": {"dir": "s"}}`, `"sources" has no sha256 digest`},
		{ok + `, "labels": {"positive": "", "negative": ["b"]}}`, `"labels" has no positive label`},
		{ok + `, "labels": {"positive": "a", "negative": []}}`, `"labels" has no negative label`},
		{ok + `, "labels": {"positive": "a", "negative": ["a"]}}`, `negative label "a" is empty or the positive one`},
		{ok + `, "labels": {"positive": "a", "negative": ["b"]}, "classes": ["a", "b"]}`, `names its classes in "classes", not "labels"`},
	} {
		if _, err := Parse([]byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s): %v, want an error containing %q", tc.doc, err, tc.want)
		}
	}
	for _, tc := range []struct {
		doc   string
		multi bool
	}{{ok + `, "w": [1]}`, false}, {ok + `, "classes": ["a", "b"]}`, true}, {`{"format": "greedytl-model", "version": 1, "method": "m"}`, false}} {
		f, err := Parse([]byte(tc.doc))
		if err != nil || f.Multi != tc.multi || f.Method != "m" {
			t.Errorf("Parse(%s): %+v, %v; want method m, multi %v", tc.doc, f, err, tc.multi)
		}
	}
	if _, err := Read(strings.NewReader(ok + "} {}")); err == nil || !strings.Contains(err.Error(), "trailing data") {
		t.Errorf("Read of two documents: %v, want trailing data", err)
	}
}
