package format

import (
	"bytes"
	"compress/gzip"
	"reflect"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	f := &File{
		Source:  "src",
		License: "CC BY 3.0",
		Domains: map[string][]string{"d": {"b", "a"}},
		Splits:  map[string][]Group{"train": {{Intent: "b", Texts: []string{"x <&> y", "ü"}}, {Intent: "a", Texts: []string{"z"}}}},
	}
	var buf bytes.Buffer
	if err := Encode(&buf, f); err != nil {
		t.Fatal(err)
	}
	first := bytes.Clone(buf.Bytes())
	got, err := Decode(first)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, f) {
		t.Errorf("round trip gave %+v, want %+v", got, f)
	}
	buf.Reset()
	if err := Encode(&buf, f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), first) {
		t.Error("two encodings of the same content differ")
	}
}

func TestDecodeRejects(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	good := gz(`{"source":"s"}`)
	corrupt := bytes.Clone(good)
	corrupt[len(corrupt)-5] ^= 0xff // CRC
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"not gzip", []byte("plain text, not gzip"), "invalid header"},
		{"bad checksum", corrupt, "checksum"},
		{"unknown field", gz(`{"extra":1}`), "unknown field"},
		{"trailing data", gz(`{} {}`), "trailing data"},
		{"not JSON", gz(`{`), "unexpected EOF"},
	}
	for _, tc := range tests {
		_, err := Decode(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
