package source

import (
	"strings"
	"testing"
)

// TestIndexDifferences: a recorded ID is the same sources as an index when
// its digest is the index's Identity or the digest model files recorded
// before (names and model digests); otherwise Differences says how they
// differ. The two digests of testdata/sources.json (an index TrainAll
// wrote) were computed independently, with Python's hashlib: the lines
// "<class> <sha256>\n", and each name and model digest preceded by its
// length as a little-endian uint64.
func TestIndexDifferences(t *testing.T) {
	ix, err := ReadIndex("testdata")
	if err != nil {
		t.Fatal(err)
	}
	const (
		identity = "f758b151984e1f49126958f0958c02b9dc5b3aae7a716cbf9deb14b39ddcadd1"
		names    = "fc1cd4aa85d511ee32b5fb485dde0566a6174625b47c7de0f9011d39ce19133d"
	)
	if got := ix.Identity(); got != identity {
		t.Errorf("Identity %s, want %s", got, identity)
	}
	id := ix.ID("elsewhere")
	if id.Dir != "elsewhere" || id.SHA256 != identity || id.Count != 6 || id.Seed != 1 || id.DataSHA256 != ix.DataSHA256 {
		t.Errorf("ID %+v", id)
	}
	for _, tc := range []struct {
		what string
		edit func(id *ID)
		want string // "": the same sources
	}{
		{"the same", func(*ID) {}, ""},
		{"an older model file's digest", func(id *ID) { id.SHA256 = names }, ""},
		{"other models", func(id *ID) { id.SHA256 = "00" }, "other source models"},
		{"another seed", func(id *ID) { id.SHA256, id.Seed = "00", 2 }, "trained with seed 1, not 2"},
		{"another count", func(id *ID) { id.SHA256, id.Count = "00", 5 }, "6 sources, not 5"},
		{"other data", func(id *ID) { id.SHA256, id.DataSHA256 = "00", "ab" }, "trained on other data"},
	} {
		rec := ix.ID("d")
		tc.edit(rec)
		d := strings.Join(ix.Differences(rec), "; ")
		if (tc.want == "") != (d == "") || !strings.Contains(d, tc.want) {
			t.Errorf("%s: differences %q, want %q", tc.what, d, tc.want)
		}
	}
	if err := (&ID{Dir: "d"}).Check(); err == nil || !strings.Contains(err.Error(), "no sha256") {
		t.Errorf("Check of an ID without a digest: %v", err)
	}
	if err := (*ID)(nil).Check(); err != nil {
		t.Errorf("Check of no ID: %v", err)
	}
}
