package experiment

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/source"
)

// poolCase is a random draw of the settings choosePool and chooseTargets
// decide on: class counts around the need of the largest number of
// shots/positives (exactly at it often), the largest of a few numbers of
// ways, and sometimes a --targets list in a random order.
type poolCase struct {
	counts    []int
	positives []int
	test      int // Config.TestPerClass: 0 is DefaultTestPerClass
	ways      []int
	targets   []string
}

func drawPoolCase(rng *rand.Rand, classes []string, neg *source.Negatives) poolCase {
	var pc poolCase
	pc.positives = []int{1 + rng.IntN(4), 1 + rng.IntN(4)}
	pc.test = rng.IntN(4)
	test := pc.test
	if test == 0 {
		test = DefaultTestPerClass
	}
	need := slices.Max(pc.positives) + test
	for range classes {
		n := need + rng.IntN(5) - 2 // below, at and above the need
		if rng.IntN(8) == 0 {
			n = 0
		}
		pc.counts = append(pc.counts, n)
	}
	pc.ways = []int{2, 2 + rng.IntN(len(classes)-3)}
	if rng.IntN(2) == 0 {
		for _, c := range rng.Perm(len(classes)) {
			if !neg.IsHeldOut(c) && rng.IntN(2) == 0 {
				pc.targets = append(pc.targets, classes[c])
			}
		}
	}
	return pc
}

// TestChoosePoolBruteForce checks an N-way run's pool against its
// definition on random class counts: without --targets, the classes
// outside the negative pool with at least the largest number of shots plus
// the test examples per class (exactly that many is enough), in class
// order, those with fewer (but some) named in the small-classes warning;
// with --targets, the classes named in their order, or an error when one
// has fewer; and an error when the pool has fewer classes than the largest
// number of ways.
func TestChoosePoolBruteForce(t *testing.T) {
	f := testFolder(t)
	neg := &source.Negatives{Classes: []int{testClasses, testClasses + 1, testClasses + 2}}
	rng := rand.New(rand.NewPCG(24, 1))
	atNeed := 0
	for trial := range 600 {
		pc := drawPoolCase(rng, f.Classes, neg)
		cfg := DefaultConfig()
		cfg.Data, cfg.Protocol = f, ProtocolNWay
		cfg.Positives, cfg.TestPerClass, cfg.Ways, cfg.Targets = pc.positives, pc.test, pc.ways, pc.targets
		test := pc.test
		if test == 0 {
			test = DefaultTestPerClass
		}
		need := slices.Max(pc.positives) + test

		var want, small []string
		wantErr := false
		if len(pc.targets) == 0 {
			for c, name := range f.Classes {
				switch {
				case neg.IsHeldOut(c) || pc.counts[c] == 0:
				case pc.counts[c] >= need:
					want = append(want, name)
				default:
					small = append(small, name)
				}
			}
		} else {
			for _, name := range pc.targets {
				c, _ := f.ClassIndex(name)
				if pc.counts[c] < need {
					wantErr = true
				}
				if pc.counts[c] == need {
					atNeed++
				}
			}
			want = pc.targets
			small = nil
		}
		if slices.Max(pc.ways) > len(want) {
			wantErr = true
		}

		var warned [][]string
		got, err := choosePool(&cfg, neg, pc.counts, func(code, _ string, classes []string) {
			if code != WarnSmallClasses {
				t.Errorf("warning code %q", code)
			}
			warned = append(warned, classes)
		})
		what := fmt.Sprintf("trial %d: counts %v, shots %v, %d test, ways %v, targets %v", trial, pc.counts, pc.positives, test, pc.ways, pc.targets)
		switch {
		case wantErr && err == nil:
			t.Fatalf("%s: pool %v, want an error", what, got)
		case !wantErr && err != nil:
			t.Fatalf("%s: %v, want pool %v", what, err, want)
		case !wantErr && !slices.Equal(got, want):
			t.Fatalf("%s: pool %v, want %v", what, got, want)
		}
		if len(small) > 0 != (len(warned) == 1) || len(warned) > 1 || (len(warned) == 1 && !slices.Equal(warned[0], small)) {
			t.Fatalf("%s: warned of %v, want the classes %v left out", what, warned, small)
		}
	}
	if atNeed == 0 {
		t.Fatal("no named class had exactly the examples an episode needs")
	}
}

// TestChooseTargetsBruteForce checks a binary run's targets against their
// definition on random class counts: the classes outside the negative pool
// with at least the largest number of positives and one test positive
// (exactly that many is enough), in class order whether or not --targets
// names them (a named one with fewer is an error), an error when none
// qualifies, and an error when the negative pool leaves no more target
// negatives than the training set takes.
func TestChooseTargetsBruteForce(t *testing.T) {
	f := testFolder(t)
	rng := rand.New(rand.NewPCG(24, 2))
	logf := func(string, ...any) {}
	atNeed := 0
	for trial := range 600 {
		neg := &source.Negatives{Classes: []int{testClasses, testClasses + 1, testClasses + 2}}
		neg.Target = make([]int, TrainNegatives-1+rng.IntN(3)) // below, at and above the need
		pc := drawPoolCase(rng, f.Classes, neg)
		need := slices.Max(pc.positives) + 1
		for c := range pc.counts {
			if pc.counts[c] > 0 {
				pc.counts[c] = max(1, need+rng.IntN(5)-2)
			}
		}
		cfg := DefaultConfig()
		cfg.Data, cfg.Positives, cfg.Targets = f, pc.positives, pc.targets

		var want []string
		wantErr := len(neg.Target) <= TrainNegatives
		for c, name := range f.Classes {
			named := slices.Contains(pc.targets, name)
			switch {
			case len(pc.targets) > 0 && !named, neg.IsHeldOut(c):
			case named && pc.counts[c] < need:
				wantErr = true
			case pc.counts[c] >= need:
				want = append(want, name)
				if pc.counts[c] == need {
					atNeed++
				}
			}
		}
		if len(want) == 0 {
			wantErr = true
		}
		got, err := chooseTargets(&cfg, neg, pc.counts, logf)
		what := fmt.Sprintf("trial %d: counts %v, %d target negatives, positives %v, targets %v", trial, pc.counts, len(neg.Target), pc.positives, pc.targets)
		switch {
		case wantErr && err == nil:
			t.Fatalf("%s: targets %v, want an error", what, got)
		case !wantErr && err != nil:
			t.Fatalf("%s: %v, want targets %v", what, err, want)
		case !wantErr && !slices.Equal(got, want):
			t.Fatalf("%s: targets %v, want %v", what, got, want)
		}
	}
	if atNeed == 0 {
		t.Fatal("no class had exactly the examples a target needs")
	}
}

// TestNoSourceWaysBruteForce checks the numbers of ways warned of as
// giving episodes without a source against their definition: some choice
// of that many classes of the pool leaves no source column (otherSources
// empty), found by trying every choice, on random pools and sources.
func TestNoSourceWaysBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 4))
	classes := []string{"a", "b", "c", "d", "e", "f", "g"}
	for trial := range 300 {
		man := &Manifest{Classes: classes, Ways: []int{2, 3, 4, 5}}
		var pool []int
		for _, c := range rng.Perm(len(classes))[:5+rng.IntN(3)] {
			pool = append(pool, c)
			man.Targets = append(man.Targets, classes[c])
		}
		var sources []int // each source's class: some of the pool's, some not
		for range 1 + rng.IntN(8) {
			sources = append(sources, rng.IntN(len(classes)))
		}
		var want []int
		for _, w := range man.Ways {
			found := false
			for mask := range 1 << len(pool) {
				var chosen []int
				for i, c := range pool {
					if mask&(1<<i) != 0 {
						chosen = append(chosen, c)
					}
				}
				if len(chosen) == w && len(otherSources(sources, chosen)) == 0 {
					found = true
					break
				}
			}
			if found {
				want = append(want, w)
			}
		}
		if got := noSourceWays(man, sources); !slices.Equal(got, want) {
			t.Fatalf("trial %d: pool %v, sources of classes %v: ways %v, want %v", trial, man.Targets, sources, got, want)
		}
	}
}
