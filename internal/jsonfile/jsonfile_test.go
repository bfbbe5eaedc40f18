package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/bom"
)

type doc struct {
	Name string    `json:"name"`
	Vals []float64 `json:"vals"`
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // error substring; "" for success
	}{
		{`{"name": "a", "vals": [1, 2.5]}`, ""},
		{"  {\"name\": \"a\"}\n\n\t ", ""},
		{"\xef\xbb\xbf{\"name\": \"a\"}", ""}, // a byte order mark (internal/bom)
		{"{\"name\": \"a\"}\xef\xbb\xbf", "trailing data after the thing"},
		{" \xef\xbb\xbf{\"name\": \"a\"}", "invalid character"}, // at the very start only
		// UTF-16, as Windows Notepad saves "Unicode" text (bom.ErrUTF16).
		{"\xff\xfe{\x00}\x00", "UTF-16 text"},
		{"\xfe\xff\x00{\x00}", "UTF-16 text"},
		{`{"name": "a", "valz": [1]}`, `unknown field "valz"`},
		{`{"name": "a"} {}`, "trailing data after the thing"},
		{`{"name": "a"} x`, "trailing data after the thing"},
		{`{"name": "a"}]`, "trailing data after the thing"},
		{`{"name": "a"`, "the thing is truncated: unexpected EOF"},
		{``, "the thing is empty: EOF"},
		{" \n\t", "the thing is empty: EOF"},
		{`{"vals": [NaN]}`, "invalid character"},
	} {
		var d doc
		err := Decode([]byte(tc.in), &d, "thing")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}

// TestDecodeRaw checks that decoding into a json.RawMessage, which takes
// the value as it is, gives what encoding/json gives (the value's bytes,
// nulls and all), for a document of megabytes too, and still refuses
// trailing data and a truncated value.
func TestDecodeRaw(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // error substring; "" for success
	}{
		{` {"name": null, "vals": [1, null]}` + "\n", ""},
		{`null`, ""},
		{`[1, 2]`, ""},
		{`{"name": "a"} {}`, "trailing data after the thing"},
		{`{"name": "a"`, "the thing is truncated: unexpected EOF"},
		{``, "the thing is empty: EOF"},
		{" \n\t", "the thing is empty: EOF"},
		{"\r\n\t {\"vals\": [" + strings.Repeat("1.5, ", 1e6) + "2]} \r\n", ""}, // megabytes
		{"\"x\"\n" + strings.Repeat(" ", 1e6) + "1", "trailing data after the thing"},
	} {
		var raw json.RawMessage
		err := Decode([]byte(tc.in), &raw, "thing")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%.80q: %v", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%.80q: error %v, want one containing %q", tc.in, err, tc.want)
		}
		if tc.want != "" {
			continue
		}
		var std json.RawMessage
		if err := json.Unmarshal([]byte(tc.in), &std); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(raw, std) {
			t.Errorf("%.80q: raw %.80q, encoding/json %.80q", tc.in, raw, std)
		}
	}
}

func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "doc.json")
	in := doc{Name: "x", Vals: []float64{0.1, 1e-300, -3}}
	if err := Write(path, in); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const want = "{\n  \"name\": \"x\",\n  \"vals\": [\n    0.1,\n    1e-300,\n    -3\n  ]\n}\n"
	if string(b) != want {
		t.Errorf("file %q, want %q", b, want)
	}
	out, err := Read[doc](path, "doc", nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Name != in.Name || len(out.Vals) != 3 || out.Vals[0] != 0.1 || out.Vals[1] != 1e-300 || out.Vals[2] != -3 {
		t.Errorf("read back %+v, want %+v", out, in)
	}

	if err := os.WriteFile(path, []byte(`{"name": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read[doc](path, "doc", nil); err == nil || !strings.HasPrefix(err.Error(), path+":1:10: ") {
		t.Errorf("malformed file: error %v, want one starting with the path, line and column", err)
	}
	// check runs on what was read, and its error names the file too.
	if err := os.WriteFile(path, []byte(`{"name": "y"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var checked string
	check := func(d *doc) error { checked = d.Name; return errors.New("bad name") }
	if _, err := Read(path, "doc", check); err == nil || err.Error() != path+": bad name" || checked != "y" {
		t.Errorf("check: error %v after reading %q, want %q after reading \"y\"", err, checked, path+": bad name")
	}
	if _, err := Read[doc](filepath.Join(dir, "none.json"), "doc", nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: error %v, want fs.ErrNotExist", err)
	}
	if err := Write(filepath.Join(dir, "no", "such", "dir.json"), in); err == nil {
		t.Error("write into a missing directory: no error")
	}
	// A value JSON cannot hold fails the write and leaves the file as it was.
	if err := Write(path, doc{Vals: []float64{math.NaN()}}); err == nil {
		t.Error("writing NaN: no error")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != `{"name": "y"}` {
		t.Errorf("after a failed write the file holds %q (%v)", b, err)
	}
}

// nullDoc has members of every kind: those without a nil must not be
// null; pointers, slices, maps and interfaces may be.
type nullDoc struct {
	Embedded
	Weight float64            `json:"weight"`
	Kind   kindText           `json:"kind"`
	Cols   []nullCol          `json:"columns"`
	Hyper  map[string]float64 `json:"hyper"`
	Opt    *nullCol           `json:"opt,omitempty"`
	Any    any                `json:"any"`
	Raw    json.RawMessage    `json:"raw"`
	Pair   [2]int             `json:"pair"`
	Flag   bool               `json:"flag"`
	Name   string             `json:"name"`
	Inner  nullCol            `json:"inner"`
	Skip   int                `json:"-"`
}

type Embedded struct {
	Version int `json:"version"`
}

type nullCol struct {
	Index int     `json:"index"`
	Mean  float64 `json:"mean"`
}

// kindText decodes itself from a string.
type kindText int

func (k *kindText) UnmarshalText(b []byte) error { *k = kindText(len(b)); return nil }

// TestDecodeNull: a null where the destination has no nil is refused,
// naming where it is; elsewhere it decodes to nil, as encoding/json does.
func TestDecodeNull(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // error; "" for success
	}{
		{`{"weight": 1, "columns": [{"index": 1, "mean": 2}], "opt": null, "any": null, "raw": null, "hyper": null}`, ""},
		{`{"columns": null, "any": {"x": null}, "raw": {"y": [null]}}`, ""},
		{`null`, "the document is null; want an object"},
		// A document of another kind: encoding/json named the Go type
		// ("cannot unmarshal array into Go value of type jsonfile.nullDoc").
		{`[{"weight": 1}]`, "the document is an array; want an object"},
		{` "x"`, "the document is a string; want an object"},
		{`-2`, "the document is a number; want an object"},
		{`false`, "the document is false; want an object"},
		{`{"weight": null}`, "weight is null; want a number"},
		{`{"WEIGHT": null}`, "WEIGHT is null; want a number"},
		{`{"version": null}`, "version is null; want a number"},
		{`{"kind": null}`, "kind is null; want a value"},
		{`{"columns": [{"index": 1, "mean": 2}, {"index": 2, "mean": null}]}`, "columns[1].mean is null; want a number"},
		{`{"columns": [null]}`, "columns[0] is null; want an object"},
		{`{"hyper": {"lambda": null}}`, "hyper.lambda is null; want a number"},
		{`{"opt": {"index": null}}`, "opt.index is null; want a number"},
		{`{"pair": [1, null]}`, "pair[1] is null; want a number"},
		{`{"flag": null}`, "flag is null; want true or false"},
		{`{"name": null}`, "name is null; want a string"},
		{`{"inner": null}`, "inner is null; want an object"},
		{`{"na\u006de": null}`, "name is null; want a string"},
		{`{"unknown": null}`, `unknown field "unknown"`},
	} {
		var d nullDoc
		err := Decode([]byte(tc.in), &d, "thing")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want && !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.want)
		}
	}
	// A top-level number must not be null either.
	var x float64
	if err := Decode([]byte("null"), &x, "number"); err == nil || err.Error() != "the document is null; want a number" {
		t.Errorf("null into a float64: %v", err)
	}
}

// completeDoc has a member of each kind DecodeComplete requires or not.
type completeDoc struct {
	completeHead
	Weight  float64            `json:"weight"`
	Columns []completeColumn   `json:"columns"`
	Pair    [2]int             `json:"pair"`
	Opt     *completeColumn    `json:"opt"`
	Hyper   map[string]float64 `json:"hyper"`
	Note    string             `json:"note,omitempty"`
}

type completeHead struct {
	Version int `json:"version"`
}

type completeColumn struct {
	Kind  kindText `json:"kind"`
	Index int      `json:"index"`
}

// TestDecodeComplete: a member encoding/json always writes but the
// document leaves out is an error naming where it is missing (a promoted
// field's and a nested object's too), not a zero; pointers, maps and
// omitempty members stay optional; a member matched ignoring case counts;
// Decode still reads the same documents.
func TestDecodeComplete(t *testing.T) {
	const full = `"version": 2, "weight": 1, "pair": [1, 2], "columns": [{"kind": "x", "index": 0}]`
	for _, tc := range []struct {
		in   string
		want string // error; "" for success
	}{
		{`{` + full + `}`, ""},
		{`{` + full + `, "opt": {"kind": "y", "index": 1}, "hyper": {}, "note": "n"}`, ""},
		{`{"VERSION": 2, "Weight": 1, "pair": [1, 2], "columns": []}`, ""},
		{`{"version": 2, "pair": [1, 2], "columns": []}`, "weight is missing; want a number"},
		{`{"weight": 1, "pair": [1, 2], "columns": []}`, "version is missing; want a number"},
		{`{"version": 2, "weight": 1, "pair": [1, 2]}`, "columns is missing; want an array"},
		{`{"version": 2, "weight": 1, "columns": []}`, "pair is missing; want an array"},
		{`{"version": 2, "weight": 1, "pair": [1, 2], "columns": [{"kind": "x", "index": 0}, {"kind": "x"}]}`, "columns[1].index is missing; want a number"},
		{`{` + full + `, "opt": {"index": 1}}`, "opt.kind is missing; want a value"},
		{`{}`, "weight is missing; want a number"}, // shallowest first
	} {
		var d completeDoc
		err := DecodeComplete([]byte(tc.in), &d, "thing")
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("DecodeComplete(%s): %v, want %q", tc.in, err, tc.want)
		}
		if err := Decode([]byte(tc.in), &d, "thing"); err != nil {
			t.Errorf("Decode(%s): %v", tc.in, err)
		}
	}
}

// FuzzDecode checks that Decode never panics (its null check walks the
// document by hand) and refuses whatever encoding/json's strict decoding
// refuses.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"weight": 1, "columns": [{"index": 1, "mean": 2}], "opt": null}`, `{"weight": null}`,
		`{"columns": [null]}`, `{"hyper": {"a\"b": null}}`, `{"na\u006de": null}`, `null`, `[]`, `"x"`, `{"pair": [1, 2]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var d, ref nullDoc
		err := Decode(b, &d, "thing")
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if dec.Decode(&ref) != nil && err == nil {
			t.Fatalf("Decode accepted %q, which encoding/json refuses", b)
		}
	})
}

// TestDecodeObject: the object's members choose the destination, which is
// decoded strictly; a null anywhere is an error naming its path, even where
// Decode would accept one (a slice element of an interface, a map value).
func TestDecodeObject(t *testing.T) {
	type wide struct {
		Name string         `json:"name"`
		Vals []any          `json:"vals"`
		Tags map[string]any `json:"tags"`
		Kind int            `json:"kind"`
	}
	for _, tc := range []struct {
		in      string
		kind    bool   // the "kind" member chooses wide over doc
		members string // the members returned, separated by spaces
		want    string // error; "" for success
	}{
		{`{"name": "a", "vals": [1]}`, false, "name vals", ""},
		{`{"name": "a", "kind": 2, "tags": {"x": [1]}}`, true, "kind name tags", ""},
		{`{"name": "a", "kind": 2}`, true, "kind name", ""},
		{`{"name": "a", "valz": [1]}`, false, "", `not a thing: json: unknown field "valz"`},
		{`{"name": "a", "kind": 2, "vals": [1, null]}`, true, "", "vals[1] is null: a thing has no nulls"},
		{`{"name": "a", "kind": 2, "tags": {"x": [{"y": null}]}}`, true, "", "tags.x[0].y is null: a thing has no nulls"},
		{`{"name": null}`, false, "", "name is null: a thing has no nulls"},
		{`{"name": "a"} 1`, false, "", "trailing data after the thing"},
		{`[{"name": "a"}]`, false, "", "not a thing: not a JSON object"},
		{`null`, false, "", "not a thing: not a JSON object"},
		{`{"name": "a"`, false, "", "not a thing: the thing is truncated: unexpected EOF"},
		{`{"name": 1}`, false, "", "not a thing: json: cannot unmarshal number"},
		{"\xff\xfe{\x00}\x00", false, "", "not a thing: " + bom.ErrUTF16.Error()},
	} {
		var (
			d doc
			w wide
		)
		members, err := DecodeObject([]byte(tc.in), "thing", func(m map[string]bool) any {
			if m["kind"] {
				return &w
			}
			return &d
		})
		if tc.want != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want one starting %q", tc.in, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		want := strings.Fields(tc.members)
		for _, name := range want {
			if !members[name] {
				t.Errorf("%s: members %v lack %q", tc.in, members, name)
			}
		}
		if len(members) != len(want) {
			t.Errorf("%s: members %v, want %q", tc.in, members, want)
		}
		if got := (w.Name != "" || w.Kind != 0); got != tc.kind || (!tc.kind && d.Name != "a") {
			t.Errorf("%s: decoded %+v / %+v, want the %v form", tc.in, d, w, tc.kind)
		}
	}
}

// TestReadPosition: Read names the file, line and column of a syntax error
// and of a value of the wrong type ("path:line:column: problem"), counted
// from the file's first byte after a byte order mark; the column is that
// of the byte at fault, found here by searching the text for it. Large
// documents (megabytes, far more than one read) are placed alike, the fault
// near their end or near their start.
func TestReadPosition(t *testing.T) {
	long := strings.Repeat("  1.25,\n", 300000)
	for _, tc := range []struct {
		in, at string // the document; the text at the fault, found in it
		want   string
	}{
		{"{\n  \"name\": \"a\",,\n  \"vals\": [1]\n}\n", ",,", "invalid character ','"},
		{"{\n  \"name\": \"a\",\n  \"vals\": [1, x]\n}\n", "x]", "invalid character 'x'"},
		{"\xef\xbb\xbf{\"name\": \"a\",,}", ",,", "invalid character ','"},
		{"\n\n  {\n \"name\": \"a\",\n  \"vals\": [1, \"2\"]}", `"2"`, "cannot unmarshal string"},
		{"{\"name\": 5}", "5}", "cannot unmarshal number"},
		{"\n {\"vals\": [\n" + long + "  x]}\n", "x]", "invalid character 'x'"},
		{"\xef\xbb\xbf\n{\"vals\": [\n" + long + "  \"2\"]}\n", `"2"`, "cannot unmarshal string"},
		{"{\"name\": \"a\",,\n\"vals\": [\n" + long + "  1]}\n", ",,", "invalid character ','"},
		{"{\"name\": 5,\n\"vals\": [\n" + long + "  1]}\n", "5,", "cannot unmarshal number"},
	} {
		path := filepath.Join(t.TempDir(), "doc.json")
		if err := os.WriteFile(path, []byte(tc.in), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read[doc](path, "thing", nil)
		// The fault's line and column, by brute force: the byte after the
		// text's first byte that starts tc.at (","+"," faults at the
		// second comma, "x" at x), from the document without its mark.
		text := strings.TrimPrefix(tc.in, "\xef\xbb\xbf")
		off := strings.Index(text, tc.at)
		if strings.HasPrefix(tc.at, ",,") {
			off++
		}
		line := 1 + strings.Count(text[:off], "\n")
		col := off - strings.LastIndex(text[:off], "\n")
		if strings.HasPrefix(tc.want, "cannot unmarshal") {
			// encoding/json reports the end of the wrong value.
			col += len(strings.TrimRight(tc.at, "},")) - 1
		}
		prefix := path + ":" + itoa(t, line) + ":" + itoa(t, col) + ": "
		var pe *positionError
		if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tc.want) || errors.As(err, &pe) {
			t.Errorf("%.80q: error %v, want %q followed by %q (and no *positionError left in it)", tc.in, err, prefix, tc.want)
		}
	}
}

// itoa returns n in decimal (as JSON writes an integer).
func itoa(t *testing.T, n int) string {
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// selfDecoding decodes itself, refusing nothing: Unmarshal does not look
// inside it.
type selfDecoding struct{ Seen string }

func (s *selfDecoding) UnmarshalJSON(b []byte) error { s.Seen = string(b); return nil }

// TestUnmarshalNamesUnknownMember: a member the destination has no field
// for is an *UnknownMemberError naming it and the path of the object
// holding it (as the null errors name a value) — at the top level, in a
// nested struct, an array's element, a map's value, a promoted field's
// struct — through Decode, DecodeObject and Read too; the member is the
// first that encoding/json refuses (in document order), matched to fields
// as it matches them (ignoring case); a value that decodes itself, and a
// map or an interface, hold no unknown members.
func TestUnmarshalNamesUnknownMember(t *testing.T) {
	type leaf struct {
		Median float64 `json:"median"`
	}
	type Embedded struct {
		Deep leaf `json:"deep"`
	}
	type entry struct {
		Name   string `json:"name"`
		Scores leaf   `json:"scores"`
	}
	type top struct {
		Embedded
		Sources []entry         `json:"sources"`
		ByName  map[string]leaf `json:"by_name"`
		Own     selfDecoding    `json:"own"`
		Any     any             `json:"any"`
	}
	for _, tc := range []struct {
		in       string
		name, at string // "" for success
	}{
		{`{"writer": 1}`, "writer", ""},
		{`{"sources": [{"name": "a"}, {"name": "b", "margin": 2}]}`, "margin", "sources[1]"},
		{`{"sources": [{"scores": {"median": 1, "mean": 0}}]}`, "mean", "sources[0].scores"},
		{`{"by_name": {"a": {"mode": 1}}}`, "mode", "by_name.a"},
		{`{"deep": {"MEDIAN": 1, "x": 2}}`, "x", "deep"},
		{`{"sources": [{"b": 1}], "zz": 1}`, "b", "sources[0]"}, // the first in the document, not by name
		{`{"zz": 1, "sources": [{"b": 1}]}`, "zz", ""},
		{`{"Sources": [{"NAME": "a", "Scores": {"Median": 1}}], "own": {"x": 1}, "any": {"y": {"z": 1}}}`, "", ""},
	} {
		var v top
		err := Unmarshal([]byte(tc.in), &v)
		if tc.name == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.in, err)
			}
			continue
		}
		var um *UnknownMemberError
		if !errors.As(err, &um) || um.Name != tc.name || um.In != tc.at {
			t.Errorf("%s: error %#v (%v), want member %q of %q", tc.in, um, err, tc.name, tc.at)
			continue
		}
		want := `json: unknown field "` + tc.name + `"`
		if tc.at != "" {
			want += " of " + tc.at
		}
		if err.Error() != want {
			t.Errorf("%s: error %q, want %q", tc.in, err, want)
		}
		var ref top
		dec := json.NewDecoder(strings.NewReader(tc.in))
		dec.DisallowUnknownFields()
		if r := dec.Decode(&ref); r == nil || !errors.Is(err, um.Err) || um.Err.Error() != r.Error() {
			t.Errorf("%s: %v does not wrap encoding/json's %v", tc.in, err, r)
		}
	}
	// Through the package's readers.
	if err := Decode([]byte(`{"sources": [{"margin": 2}]}`), &top{}, "thing"); err == nil || err.Error() != `json: unknown field "margin" of sources[0]` {
		t.Errorf("Decode: %v", err)
	}
	_, err := DecodeObject([]byte(`{"sources": [{"margin": 2}]}`), "thing", func(map[string]bool) any { return &top{} })
	if err == nil || err.Error() != `not a thing: json: unknown field "margin" of sources[0]` {
		t.Errorf("DecodeObject: %v", err)
	}
	path := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(path, []byte(`{"sources": [{"scores": {"p": 1}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Read[top](path, "thing", nil)
	if um := (*UnknownMemberError)(nil); !errors.As(err, &um) || err.Error() != path+`: json: unknown field "p" of sources[0].scores` {
		t.Errorf("Read: %v", err)
	}
}

// TestUnmarshalOneValue: Unmarshal decodes the one JSON value b holds, as
// json.Unmarshal does: data after it (but white space) is an error; the
// Decoder it uses stopped after the value and returned nil.
func TestUnmarshalOneValue(t *testing.T) {
	var v struct{ A int }
	if err := Unmarshal([]byte("{\"A\":1} \n"), &v); err != nil || v.A != 1 {
		t.Errorf("one value and white space: %v, A = %d", err, v.A)
	}
	for _, b := range []string{`{"A":1} xx`, `{"A":1}{"A":2}`, `{"A":1} 3`} {
		if err := Unmarshal([]byte(b), &v); !errors.Is(err, errTrailing) {
			t.Errorf("%q: error %v, want trailing data", b, err)
		}
	}
}
