package experiment

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// TestRecordMembersAreWhatTheWriterWrites: the members every record must
// have (recordMembers) are exactly those the writer always writes — every
// member of Record but the omitempty ones and run_id, which the reader of
// a run checks against its run.json.
func TestRecordMembersAreWhatTheWriterWrites(t *testing.T) {
	b, err := json.Marshal(Record{})
	if err != nil {
		t.Fatal(err)
	}
	var written map[string]any
	if err := json.Unmarshal(b, &written); err != nil {
		t.Fatal(err)
	}
	delete(written, "run_id")
	got := slices.Sorted(slices.Values(recordMembers["cell"]))
	if want := slices.Sorted(maps.Keys(written)); !slices.Equal(got, want) {
		t.Errorf("a cell's record must have %v; the writer always writes %v", got, want)
	}
	if k := recordKind(written); k != "cell" {
		t.Errorf("a record's kind is %q, want cell", k)
	}
}
