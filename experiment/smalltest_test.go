package experiment

import (
	"strings"
	"testing"
)

// TestSmallTestSetsFewestOfATarget: the caution names each target's
// fewest test positives over its cells, whichever cell comes first, and the
// cells' fewest test negatives.
func TestSmallTestSetsFewestOfATarget(t *testing.T) {
	cell := func(target string, pos, neg int) Record {
		return Record{Dataset: "d", Target: target, Positives: 2, Method: "m", TestPositives: pos, TestNegatives: neg}
	}
	for _, recs := range [][]Record{
		{cell("a", 12, 50), cell("a", 5, 8), cell("b", 20, 50), cell("a", 7, 50)},
		{cell("a", 7, 50), cell("b", 20, 50), cell("a", 5, 8), cell("a", 12, 50)},
	} {
		note, classes := SmallTestSets(recs, 50)
		if !strings.Contains(note, "cells test on 8 negatives") || !strings.Contains(note, "a (5)") || len(classes) != 1 || classes[0] != "a" {
			t.Errorf("caution %q for %v, want 8 negatives and a (5) named", note, classes)
		}
	}
}

// TestSmallTestNoteOfNoTestExample: a cell with no test example (k = 0)
// is worded with the step of one example (k = 1), not an infinite one.
func TestSmallTestNoteOfNoTestExample(t *testing.T) {
	note, _ := smallTestNote(0, map[string]int{"a": 0}, 50)
	if !strings.Contains(note, "(50 at k = 1)") || strings.Contains(note, "Inf") {
		t.Errorf("caution %q, want the step of one example (50 at k = 1)", note)
	}
}
