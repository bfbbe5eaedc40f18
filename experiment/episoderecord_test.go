package experiment

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestEpisodeRecordMembersChecked: a results line of an episode whose
// members no episode has — no test example per class, a negative or
// repeated class index, a class named twice, fewer than 2 ways, classes
// not of its ways — is refused, naming the line and the member; the same
// line with possible members is read.
func TestEpisodeRecordMembersChecked(t *testing.T) {
	const good = `{"dataset":"d","ways":3,"shots":1,"episode":0,"method":"m","classes":["a","b","c"],"class_idx":[0,1,2],` +
		`"accuracy":0.6,"balanced_accuracy":0.6,"test_per_class":5,"fit_seconds":0.1,"candidates":3}` + "\n"
	for _, tc := range []struct{ from, to, want string }{
		{`"test_per_class":5`, `"test_per_class":0`, "test_per_class is 0: must be ≥ 1"},
		{`[0,1,2]`, `[0,-1,2]`, "class index -1 at position 1: must be ≥ 0 and distinct"},
		{`[0,1,2]`, `[0,1,0]`, "class index 0 at position 2: must be ≥ 0 and distinct"},
		{`["a","b","c"]`, `["a","b","a"]`, `class "a" is listed twice`},
		{`["a","b","c"]`, `["a","b"]`, "2 classes and 3 class indices for 3 ways"},
		{`"ways":3`, `"ways":1`, "ways is 1: must be ≥ 2"},
	} {
		path := filepath.Join(t.TempDir(), "results.jsonl")
		writeText(t, path, good+strings.Replace(good, tc.from, tc.to, 1))
		_, _, err := scanResults(path, func([]byte, *Record, int) error { return nil })
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), path+":2: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s for %s: %v; want an input error at %s:2 containing %q", tc.to, tc.from, err, path, tc.want)
		}
	}
	path := filepath.Join(t.TempDir(), "results.jsonl")
	writeText(t, path, good)
	if _, _, err := scanResults(path, func([]byte, *Record, int) error { return nil }); err != nil {
		t.Errorf("a possible episode: %v", err)
	}
}

// TestSmallTestSetsLeavesOutEpisodes: the small-test-set caution counts
// the binary cells alone — an episode's record has no test positives or
// negatives (0), which would read as test sets of none.
func TestSmallTestSetsLeavesOutEpisodes(t *testing.T) {
	episode := Record{Dataset: "d", Ways: 3, Positives: 1, Method: "m", Classes: []string{"a", "b", "c"}, ClassIdx: []int{0, 1, 2}, TestPerClass: 5}
	binary := Record{Dataset: "d", Target: "a", Positives: 2, Method: "m", TestPositives: 20, TestNegatives: 50}
	for _, recs := range [][]Record{{episode}, {binary, episode}, {episode, binary}} {
		if note, classes := SmallTestSets(recs, 50); note != "" || classes != nil {
			t.Errorf("%d records: caution %q for %v, want none", len(recs), note, classes)
		}
	}
	small := binary
	small.TestNegatives = 4
	if note, _ := SmallTestSets([]Record{episode, small}, 50); !strings.Contains(note, "cells test on 4 negatives") {
		t.Errorf("4 test negatives beside an episode: caution %q, want it to name the 4", note)
	}
}
