package experiment

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/datasettest"
)

// TestSmallTestSetsWarned: a standard run whose negative pool of two
// classes leaves 12 target negatives — 10 for training, 2 to test on —
// and one of whose targets has 12 examples (7 test positives at 5
// positives) warns once (code small-test-sets, the small target as its
// class) that its test sets are too small for a meaningful accuracy,
// naming the 2 negatives and the target; the records hold those sizes and
// SmallTestSets gives the same caution from them. It ran without a word.
// The tests' usual grid (14 test negatives, 19 test positives and more)
// warns of nothing, and SmallTestSets of its records is "".
func TestSmallTestSetsWarned(t *testing.T) {
	counts := []int{24, 24, 24, 12, 60, 60}
	f := datasettest.WriteFolder(t, datasettest.Shuffled(5, counts, []float64{8, 8, 8, 8, 0, 0}))
	neg := []string{f.Classes[4], f.Classes[5]}
	small := f.Classes[3]
	cfg := DefaultConfig()
	cfg.Data, cfg.Name, cfg.Out = f, "small", t.TempDir()
	cfg.NegativeClasses, cfg.Positives, cfg.Splits, cfg.Noise, cfg.Methods = neg, []int{2, 5}, 1, []int{0}, []string{allNegMethod}
	type warning struct {
		code, message string
		classes       []string
	}
	var warned []warning
	cfg.Warn = func(code, message string, classes []string) {
		if code == WarnSmallTestSets {
			warned = append(warned, warning{code, message, classes})
		}
	}
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 {
		t.Fatalf("%d warnings of code %s, want 1: %+v", len(warned), WarnSmallTestSets, warned)
	}
	w := warned[0]
	for _, want := range []string{
		"test sets too small for a meaningful accuracy: cells test on 2 negatives (the target negatives the pool leaves beside the 10 for training)",
		"the targets whose cells test on fewer positives at the largest training size: " + small + " (7);",
		"(25 at k = 2)",
	} {
		if !strings.Contains(w.message, want) {
			t.Errorf("warning %q; want it to say %q", w.message, want)
		}
	}
	if !slices.Equal(w.classes, []string{small}) {
		t.Errorf("the warning's classes are %q, want [%s]", w.classes, small)
	}
	recs := readRecords(t, sum.File)
	var plain []Record
	for _, r := range recs {
		if r.TestNegatives != 2 || r.Target == small && r.Positives == 5 && r.TestPositives != 7 {
			t.Errorf("%v: %d test positives and %d test negatives", r.Key(), r.TestPositives, r.TestNegatives)
		}
		plain = append(plain, *r)
	}
	if got, classes := SmallTestSets(plain, MaxTestNegatives); got != w.message || !slices.Equal(classes, w.classes) {
		t.Errorf("SmallTestSets of the records:\n%s\nwant the run's warning\n%s", got, w.message)
	}

	f = testFolder(t)
	cfg = testConfig(f, t.TempDir(), testSources(t, f), allNegMethod)
	warned = nil
	cfg.Warn = func(code, message string, classes []string) {
		if code == WarnSmallTestSets {
			warned = append(warned, warning{code, message, classes})
		}
	}
	if sum, err = Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	plain = nil
	for _, r := range readRecords(t, sum.File) {
		plain = append(plain, *r)
	}
	if got, _ := SmallTestSets(plain, MaxTestNegatives); len(warned) != 0 || got != "" {
		t.Errorf("the usual grid: warnings %+v, SmallTestSets %q; want none", warned, got)
	}
}

// TestSmallTestSetsBoundary: MinTestExamples (10) test negatives or
// positives draw no caution and 9 do, both in the records' caution
// (SmallTestSets) and in the one a run plans (plannedSmallTests, whose
// small targets list the targets with 9 test positives, not those with
// 10); of records with different test negatives the caution names the
// fewest, whichever comes first.
func TestSmallTestSetsBoundary(t *testing.T) {
	const few = "cells test on 9 negatives"
	rec := func(target string, pos, neg int) Record {
		return Record{Dataset: "d", Method: "m", Target: target, Positives: 5, TestPositives: pos, TestNegatives: neg}
	}
	for _, tc := range []struct {
		name string
		recs []Record
		want []string // in the caution; none: no caution
	}{
		{"10 of each", []Record{rec("a", 10, 10), rec("b", 12, 10)}, nil},
		{"9 negatives", []Record{rec("a", 10, 9)}, []string{few}},
		{"9 positives", []Record{rec("a", 12, 10), rec("b", 9, 10), rec("b", 10, 10)}, []string{"size: b (9);"}},
		{"12 then 8 negatives", []Record{rec("a", 20, 12), rec("a", 20, 8)}, []string{"cells test on 8 negatives"}},
		{"8 then 12 negatives", []Record{rec("a", 20, 8), rec("a", 20, 12)}, []string{"cells test on 8 negatives"}},
	} {
		got, _ := SmallTestSets(tc.recs, MaxTestNegatives)
		if (got == "") != (len(tc.want) == 0) {
			t.Errorf("%s: SmallTestSets %q; want a caution: %v", tc.name, got, len(tc.want) > 0)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: SmallTestSets %q; want it to say %q", tc.name, got, w)
			}
		}
	}

	// Five positives at most: a target of 15 examples leaves 10 test
	// positives, one of 14 leaves 9; 20 target negatives leave 10 beside
	// the 10 for training, 19 leave 9.
	man := &Manifest{Classes: []string{"a", "b", "n"}, Targets: []string{"a", "b"}, Positives: []int{2, 5},
		TrainNegatives: TrainNegatives, MaxTestPositives: MaxTestPositives, MaxTestNegatives: MaxTestNegatives}
	for _, tc := range []struct {
		name       string
		counts     []int
		negatives  int
		want       []string
		wantTarget []string
	}{
		{"10 of each", []int{15, 30, 40}, 20, nil, nil},
		{"9 negatives", []int{15, 30, 40}, 19, []string{few}, nil},
		{"9 positives", []int{30, 14, 40}, 20, []string{"size: b (9);"}, []string{"b"}},
	} {
		got, small := plannedSmallTests(man, tc.counts, tc.negatives)
		if (got == "") != (len(tc.want) == 0) || !slices.Equal(small, tc.wantTarget) {
			t.Errorf("%s: plannedSmallTests %q, small targets %q; want a caution: %v, small targets %q", tc.name, got, small, len(tc.want) > 0, tc.wantTarget)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: plannedSmallTests %q; want it to say %q", tc.name, got, w)
			}
		}
	}
}

// TestSmallTestSetsAdvice: the caution's advice follows the run's set
// sizes. A standard run's (test sets of up to MaxTestNegatives) names its
// bound, "give the tests their 50"; a skewed run's, which tests on every
// example the training set leaves (no bound, protocolSizes' 0), names
// none and says more examples enlarge the tests — in the caution a run
// plans (plannedSmallTests) and in the records' (SmallTestSets with a
// bound of 0). The skewed run's advice was the standard one's.
func TestSmallTestSetsAdvice(t *testing.T) {
	const bounded = "give the tests their 50"
	const unbounded = "the tests hold every example the training set leaves: a larger negative pool, or targets with more examples, enlarge them"
	for _, p := range []string{ProtocolStandard, ProtocolSkewed} {
		sz, _ := protocolSizes(p)
		man := &Manifest{Protocol: p, Classes: []string{"a", "b", "n"}, Targets: []string{"a", "b"}, Positives: []int{1},
			TrainNegatives: sz.trainNeg, MaxTestPositives: sz.testPos, MaxTestNegatives: sz.testNeg}
		got, small := plannedSmallTests(man, []int{6, 6, 30}, 30)
		recs := []Record{{Dataset: "d", Method: "m", Target: "a", Positives: 1, TestPositives: 5, TestNegatives: 20}}
		fromRecs, _ := SmallTestSets(recs, sz.testNeg)
		want, not := bounded, unbounded
		if p == ProtocolSkewed {
			want, not = unbounded, bounded
		}
		for name, note := range map[string]string{"plannedSmallTests": got, "SmallTestSets": fromRecs} {
			if !strings.HasSuffix(note, want) || strings.Contains(note, not) {
				t.Errorf("%s: %s %q; want it to end %q", p, name, note, want)
			}
		}
		if !slices.Equal(small, []string{"a", "b"}) {
			t.Errorf("%s: small targets %q, want [a b]", p, small)
		}
	}
}
