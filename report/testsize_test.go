package report

import (
	"strings"
	"testing"

	"github.com/greedytl/greedytl/experiment"
)

// TestReportCautionsSmallTestSets: a dataset whose binary cells test on
// fewer than experiment.MinTestExamples negatives, or some of whose
// targets' cells on fewer positives, has the caution of
// experiment.SmallTestSets in its section's overview and in
// TestSetCautions (named by the dataset); one whose test sets hold 10 of
// each has neither, nor has an N-way dataset.
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
	if len(cautions) != 1 || !strings.HasPrefix(cautions[0], "toy: "+want) {
		t.Errorf("TestSetCautions %q; want one, toy: %s…", cautions, want)
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
