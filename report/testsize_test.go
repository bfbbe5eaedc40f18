package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
)

// TestReportCautionsSmallTestSets: a dataset whose binary cells test on
// fewer than experiment.MinTestExamples negatives, or some of whose
// targets' cells on fewer positives, has the caution of
// experiment.SmallTestSets in its section's overview and in
// TestSetCautions (named by the dataset, with the small targets as its
// classes, as the run's warning has them); one whose test sets hold 10 of
// each has neither, nor has an N-way dataset. The advice names the runs'
// bound on test negatives when their run.json gives one (a standard run's
// 50), says the tests hold every example left when it is unbounded (a
// skewed run's 0), and claims neither when it is unknown (no run.json: a
// standard run's results.jsonl copied alone), which had the skewed
// advice. The classes were absent and the skewed advice a standard run's.
func TestReportCautionsSmallTestSets(t *testing.T) {
	recs := stoppedRecords() // 5 test positives and 5 test negatives
	for i := range recs {
		recs[i].NotConverged = nil
		if recs[i].Error != "" {
			recs[i].Error, recs[i].BalancedAccuracy = "", 0.6
		}
	}
	md, _ := writeReport(t, recs)
	res := &Results{Records: recs}
	cautions := res.TestSetCautions()
	want := "test sets too small for a meaningful accuracy: cells test on 5 negatives (the target negatives the pool leaves beside the 10 for training); the targets whose cells test on fewer positives at the largest training size: c0 (5), c1 (5), c2 (5), c3 (5);"
	if len(cautions) != 1 || !strings.HasPrefix(cautions[0].Message, "toy: "+want) || !slices.Equal(cautions[0].Classes, []string{"c0", "c1", "c2", "c3"}) {
		t.Fatalf("TestSetCautions %q; want one, toy: %s…, of classes c0 … c3", cautions, want)
	}
	const bounded, unbounded = "give the tests their 50", "the tests hold every example the training set leaves"
	if msg := cautions[0].Message; !strings.HasSuffix(msg, "; a larger negative pool, or targets with more examples, enlarge them") || strings.Contains(msg, unbounded) || strings.Contains(msg, bounded) {
		t.Errorf("without run.json: caution %q; want advice claiming no bound, nor %q", msg, unbounded)
	}
	for _, tc := range []struct {
		bound     int
		want, not string
	}{{experiment.MaxTestNegatives, bounded, unbounded}, {0, unbounded, bounded}} {
		man := &experiment.Manifest{MaxTestNegatives: tc.bound}
		res := &Results{Records: recs, runs: &experiment.Results{Manifests: map[string][]*experiment.Manifest{"toy": {man}}}}
		c := res.TestSetCautions()
		if len(c) != 1 || !strings.Contains(c[0].Message, tc.want) || strings.Contains(c[0].Message, tc.not) {
			t.Errorf("a run.json of %d test negatives at most: cautions %q; want it to say %q", tc.bound, c, tc.want)
		}
	}
	if n := strings.Count(md, "Caution: "+want); n != 1 {
		t.Errorf("report.md has %d cautions %q…, want 1:\n%s", n, want, md)
	}
	for i := range recs {
		if recs[i].Ways == 0 {
			recs[i].TestPositives, recs[i].TestNegatives = experiment.MinTestExamples, experiment.MinTestExamples
		}
	}
	md, _ = writeReport(t, recs)
	if c := (&Results{Records: recs}).TestSetCautions(); c != nil || strings.Contains(md, "Caution: ") {
		t.Errorf("test sets of 10 and 10: cautions %q, report.md:\n%s", c, md)
	}
}
