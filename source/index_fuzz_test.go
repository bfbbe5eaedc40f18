package source

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// validIndex returns the sources.json of a small trained sources directory.
func validIndex(t testing.TB) []byte {
	t.Helper()
	f := blobFolder(t, 8)
	neg, err := PlanNegatives(f, nil, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := TrainAll(context.Background(), f, neg, out, DefaultTrainConfig(), RunOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readIndexBytes writes b as the index of an empty directory and reads it.
func readIndexBytes(t testing.TB, b []byte) (*Index, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, IndexFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return ReadIndex(dir)
}

// TestReadIndexRefusesNull: a null where sources.json holds a number or a
// string is refused, naming the member — JSON null would decode to 0 or "".
func TestReadIndexRefusesNull(t *testing.T) {
	doc := string(validIndex(t))
	if _, err := readIndexBytes(t, []byte(doc)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ member, want string }{
		{`"num_features"`, "num_features is null; want a number"},
		{`"c"`, "sources[0].c is null; want a number"},
		{`"cv_score"`, "sources[0].cv_score is null; want a number"},
		{`"class"`, "sources[0].class is null; want a number"},
		{`"seed"`, "seed is null; want a number"},
		{`"sha256"`, "sources[0].sha256 is null; want a string"},
	} {
		// The member's first value, whatever it is, becomes null.
		re := regexp.MustCompile(regexp.QuoteMeta(tc.member) + `: ("[^"]*"|[-0-9.eE+]+)`)
		loc := re.FindStringSubmatchIndex(doc)
		if loc == nil {
			t.Fatalf("sources.json has no %s:\n%s", tc.member, doc)
		}
		nulled := doc[:loc[2]] + "null" + doc[loc[3]:]
		if _, err := readIndexBytes(t, []byte(nulled)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: null: error %v, want %q", tc.member, err, tc.want)
		}
	}
}

// FuzzReadIndex checks that ReadIndex never panics on a sources.json, and
// that an index it accepts is consistent: every entry's class in range and
// named as the class list names it, its file inside the directory.
//
// Its seed is testdata/sources.json, the index TrainAll wrote for
// validIndex's data (the data set's path shortened to "data"): training in
// the fuzzing process, whose code is instrumented, would take most of a
// short run.
func FuzzReadIndex(f *testing.F) {
	valid, err := os.ReadFile(filepath.Join("testdata", "sources.json"))
	if err != nil {
		f.Fatal(err)
	}
	if _, err := readIndexBytes(f, valid); err != nil {
		f.Fatalf("the seed no longer reads: %v", err)
	}
	f.Add(valid)
	for _, s := range []string{
		`null`, `{}`, `[]`, `{"version": null}`, `{"version": 1e999}`, `{"version": NaN}`,
		`{"version": 1, "sources": [null]}`, `{"version": 1, "classes": [null]}`,
	} {
		f.Add([]byte(s))
	}
	// The valid index with its first number nulled, made huge and made NaN.
	num := regexp.MustCompile(`: (-?[0-9][-0-9.eE+]*)`)
	if loc := num.FindSubmatchIndex(valid); loc != nil {
		for _, v := range []string{"null", "2000000000", "1e999", "NaN", "-1"} {
			b := append(append(append([]byte{}, valid[:loc[2]]...), v...), valid[loc[3]:]...)
			f.Add(b)
		}
	}
	dir := f.TempDir()
	read := func(t *testing.T, b []byte) (*Index, error) {
		if err := os.WriteFile(filepath.Join(dir, IndexFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
		return ReadIndex(dir)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, err := read(t, b)
		if err != nil {
			return
		}
		for _, e := range ix.Sources {
			if e.Class < 0 || e.Class >= len(ix.Classes) || ix.Classes[e.Class] != e.Name {
				t.Fatalf("accepted entry %+v with classes %v", e, ix.Classes)
			}
			if !filepath.IsLocal(e.File) {
				t.Fatalf("accepted file %q outside the directory", e.File)
			}
		}
		again, err := read(t, b)
		if err != nil || !reflect.DeepEqual(ix, again) {
			t.Fatalf("a second read differs: %v", err)
		}
	})
}

// TestReadIndexNamesUnknownMember: a sources.json member this greedytl
// has no field for — one a newer greedytl writes, as the per-source
// "scores" that older builds refused with `json: unknown field "scores"`
// — is refused naming the member and where it is, and saying that a newer
// greedytl wrote the directory and that greedytl must be upgraded to
// read it; at the top level, in a source's entry, and in its nested
// objects alike.
func TestReadIndexNamesUnknownMember(t *testing.T) {
	doc := validIndex(t)
	source0 := func(m map[string]any) map[string]any { return m["sources"].([]any)[0].(map[string]any) }
	for _, tc := range []struct {
		add  func(m map[string]any)
		want string
	}{
		{func(m map[string]any) { m["writer"] = "x" }, `member "writer" is unknown`},
		{func(m map[string]any) { source0(m)["margin"] = 2 }, `member "margin" of sources[0] is unknown`},
		{func(m map[string]any) { source0(m)["scores"].(map[string]any)["median"] = 0 }, `member "median" of sources[0].scores is unknown`},
		{func(m map[string]any) { m["negatives"].(map[string]any)["stratified"] = true }, `member "stratified" of negatives is unknown`},
	} {
		var m map[string]any
		if err := json.Unmarshal(doc, &m); err != nil {
			t.Fatal(err)
		}
		tc.add(m)
		edited, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		_, err = readIndexBytes(t, edited)
		const newer = "to this greedytl: the directory was written by a newer greedytl (or the file was edited); upgrade greedytl to read it"
		if err == nil || !strings.Contains(err.Error(), IndexFile+": "+tc.want+" "+newer) {
			t.Errorf("error %v, want %q", err, tc.want+" "+newer)
		}
	}
}
