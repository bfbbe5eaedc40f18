package experiment

import (
	"context"
	"strings"
	"testing"
)

// TestNWayTransductiveGetsTheTestInputs: a binary method fitted one against
// the rest in an episode that asks for unlabelled inputs gets the episode's
// test inputs — those of its oracle set, none of its training rows — as a
// binary cell's does: the probe method's fit (fitProbe) fails otherwise,
// with an error of its own ("probe: ..."). (Its model knows the test rows
// alone, so one against the rest, which scores more, fails later, with
// another error.)
func TestNWayTransductiveGetsTheTestInputs(t *testing.T) {
	cfg := nwayConfig(t.TempDir(), "", probeMethod)(t)
	cfg.Ways, cfg.Positives, cfg.Splits = []int{3}, []int{2}, 2
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, sum.File)
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		if strings.Contains(r.Error, "probe:") {
			t.Errorf("%v: %s", r.Key(), r.Error)
		}
	}
}
