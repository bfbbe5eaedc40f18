package experiment

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/shard"
)

// TestDrawSplitSkewed checks the skewed protocol's sets: n₊ positives and
// 10 target negatives for training, every other example of the target and
// every other target negative for testing — disjoint, and together exactly
// the target's rows and the target negatives' rows.
func TestDrawSplitSkewed(t *testing.T) {
	skewed, ok := protocolSizes(ProtocolSkewed)
	if !ok {
		t.Fatal("no skewed protocol")
	}
	rows := func(first, n int) []int {
		r := make([]int, n)
		for k := range r {
			r[k] = first + k
		}
		return r
	}
	tests := []struct {
		pos, neg  []int
		positives int
	}{
		{rows(1000, 2), rows(2000, 11), 1},    // the smallest: one test positive, one test negative
		{rows(1000, 30), rows(2000, 70), 1},   // the paper's SUN09 setting
		{rows(1000, 300), rows(2000, 700), 1}, // more than the standard protocol's 50 and 50
		{rows(1000, 30), rows(2000, 70), 5},
	}
	for _, tc := range tests {
		for sp := range 3 {
			g := group{Target: 4, Positives: tc.positives, Split: sp}
			s := drawSplit(7, g, tc.pos, tc.neg, skewed)
			if len(s.trainPos) != tc.positives || len(s.testPos) != len(tc.pos)-tc.positives ||
				len(s.trainNeg) != TrainNegatives || len(s.testNeg) != len(tc.neg)-TrainNegatives {
				t.Errorf("%d positives of %d, %d negatives: sets of %d, %d (train) and %d, %d (test)", tc.positives, len(tc.pos), len(tc.neg),
					len(s.trainPos), len(s.trainNeg), len(s.testPos), len(s.testNeg))
			}
			for _, c := range []struct {
				name        string
				train, test []int
				all         []int
			}{{"positive", s.trainPos, s.testPos, tc.pos}, {"negative", s.trainNeg, s.testNeg, tc.neg}} {
				union := slices.Concat(c.train, c.test)
				slices.Sort(union)
				if !slices.Equal(union, c.all) { // sorted and equal: disjoint and covering
					t.Errorf("%d positives, split %d: the %s training and test rows are not a partition of the %d rows", tc.positives, sp, c.name, len(c.all))
				}
			}
		}
		a := drawSplit(7, group{Target: 4, Positives: tc.positives, Split: 0}, tc.pos, tc.neg, skewed)
		b := drawSplit(7, group{Target: 4, Positives: tc.positives, Split: 1}, tc.pos, tc.neg, skewed)
		if len(tc.pos) > 10 && slices.Equal(a.trainPos, b.trainPos) && slices.Equal(a.trainNeg, b.trainNeg) {
			t.Errorf("splits 0 and 1 drew the same training set")
		}
	}
	// The standard protocol bounds what the skewed one does not.
	standard, _ := protocolSizes(ProtocolStandard)
	s := drawSplit(7, group{Target: 4, Positives: 1}, rows(1000, 300), rows(2000, 700), standard)
	if len(s.testPos) != MaxTestPositives || len(s.testNeg) != MaxTestNegatives {
		t.Errorf("standard protocol: %d and %d test examples, want %d and %d", len(s.testPos), len(s.testNeg), MaxTestPositives, MaxTestNegatives)
	}
}

// TestRunSkewed runs the skewed protocol and checks the records' set sizes
// against the dataset, run.json's protocol, and that a run directory or a
// merge refuses to mix it with the standard protocol.
func TestRunSkewed(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	cfg := testConfig(f, t.TempDir(), src, allNegMethod)
	cfg.Protocol, cfg.Positives = ProtocolSkewed, DefaultPositives(ProtocolSkewed)
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	man, err := ReadManifest(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	targetNeg := len(man.Negatives.Target)
	if man.Protocol != ProtocolSkewed || man.MaxTestPositives != 0 || man.MaxTestNegatives != 0 || man.TrainNegatives != TrainNegatives {
		t.Errorf("run.json: protocol %q, set sizes %d, %d, %d", man.Protocol, man.TrainNegatives, man.MaxTestPositives, man.MaxTestNegatives)
	}
	recs := readRecords(t, sum.File)
	if len(recs) != testClasses*1*2*2 { // targets × positives × splits × noise levels
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		if r.Positives != 1 || r.Negatives != TrainNegatives || r.TestPositives != testPerClass-1 || r.TestNegatives != targetNeg-TrainNegatives {
			t.Errorf("%v: trained on %d+%d, tested on %d+%d; want 1+%d and %d+%d",
				r.Key(), r.Positives, r.Negatives, r.TestPositives, r.TestNegatives, TrainNegatives, testPerClass-1, targetNeg-TrainNegatives)
		}
	}

	// The same directory with the standard protocol is another run.
	std := cfg
	std.Protocol = ProtocolStandard
	if _, err := Run(context.Background(), std); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "protocol") {
		t.Errorf("resuming a skewed run with the standard protocol: %v, want an input error naming the protocol", err)
	}
	// Shards of the two protocols do not merge.
	var shards []string
	for i, p := range []string{ProtocolSkewed, ProtocolStandard} {
		c := cfg
		c.Out, c.Protocol, c.Shard = t.TempDir(), p, shard.Shard{I: i, N: 2}
		if _, err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, c.Out)
	}
	if _, err := Merge(shards, filepath.Join(t.TempDir(), "merged")); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "protocol") {
		t.Errorf("merging a skewed and a standard shard: %v, want an input error naming the protocol", err)
	}

	bad := cfg
	bad.Protocol = "sun09"
	if _, err := Run(context.Background(), bad); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), `unknown protocol "sun09"`) {
		t.Errorf("unknown protocol: %v", err)
	}
}

// TestProtocolsIsACopy: changing the slice Protocols returns changes
// neither its next result nor the error of an unknown protocol, which
// lists them.
func TestProtocolsIsACopy(t *testing.T) {
	ps := Protocols()
	ps[0] = "foo"
	if got := Protocols(); got[0] != ProtocolStandard {
		t.Errorf("Protocols() = %v after a caller changed its result", got)
	}
	cfg := testConfig(&dataset.Folder{}, t.TempDir(), "", "greedytl")
	cfg.Protocol = "sun09"
	_, err := Run(context.Background(), cfg)
	if err == nil || strings.Contains(err.Error(), "foo") || !strings.Contains(err.Error(), ProtocolStandard) {
		t.Errorf("unknown protocol: %v, want an error listing the protocols, not foo", err)
	}
}
