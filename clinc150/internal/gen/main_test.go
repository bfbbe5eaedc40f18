package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/greedytl/greedytl/clinc150/internal/format"
	"github.com/greedytl/greedytl/internal/shareddata"
)

// TestReproducible rebuilds the embedded file from the shared original and
// checks that its content is byte for byte the committed one's. (The
// compressed bytes may differ between Go versions; the content may not.)
func TestReproducible(t *testing.T) {
	src := filepath.Dir(shareddata.Path(t, "clinc150/data_full.json"))
	f, err := build(src)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := format.Encode(&buf, f); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join("..", "..", "data", "clinc150.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := gunzip(t, buf.Bytes()), gunzip(t, committed); !bytes.Equal(got, want) {
		t.Fatalf("regenerated content (%d bytes) differs from the committed file's (%d bytes): run go generate ./clinc150", len(got), len(want))
	}
}

func TestBuildRejects(t *testing.T) {
	tests := []struct{ name, domains, full, want string }{
		{"oos in domains", `{"d":["a","oos"]}`, `{}`, `bad or repeated intent "oos"`},
		{"repeated intent", `{"d":["a"],"e":["a"]}`, `{}`, `bad or repeated intent "a"`},
		{"missing split", `{"d":["a"]}`, `{"train":[["x","a"]],"val":[["x","a"]],"test":[["x","a"]],"oos_train":[["x","oos"]],"oos_val":[["x","oos"]],"x":[]}`, `split "oos_test" missing`},
		{"unknown intent", `{"d":["a"]}`, `{"train":[["x","b"]],"val":[["x","a"]],"test":[["x","a"]],"oos_train":[["x","oos"]],"oos_val":[["x","oos"]],"oos_test":[["x","oos"]]}`, `train[0] has intent "b"`},
		{"oos in scope", `{"d":["a"]}`, `{"train":[["x","oos"]],"val":[["x","a"]],"test":[["x","a"]],"oos_train":[["x","oos"]],"oos_val":[["x","oos"]],"oos_test":[["x","oos"]]}`, `train[0] has intent "oos"`},
		{"not a pair", `{"d":["a"]}`, `{"train":[["x"]],"val":[["x","a"]],"test":[["x","a"]],"oos_train":[["x","oos"]],"oos_val":[["x","oos"]],"oos_test":[["x","oos"]]}`, `train[0] is not a [text, intent] pair`},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "domains.json"), []byte(tc.domains), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "data_full.json"), []byte(tc.full), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := build(dir)
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
