package experiment

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/greedytl/greedytl/internal/plural"
)

// MinTestExamples is the fewest test positives, and the fewest test
// negatives, of a binary cell whose balanced accuracy the protocols'
// reports can compare without a caution. A cell's balanced accuracy is
// (TPR + TNR)/2: with k test negatives one test negative classified the
// other way moves it by 1/(2k), and TNR takes only k + 1 values. Below 10
// that step is more than 5 points, as large as the differences between
// the methods that the protocol's tables compare (docs/results: a few
// points), and averaging over targets and splits does not shrink it for
// the negatives, which every cell of a split draws from the same few
// target negatives. The standard protocol's test sets hold up to
// MaxTestNegatives (50) of each, a step of 1 point; a test set smaller than
// the training set's TrainNegatives (10) negatives is the mark of a pool
// or a class too small for the protocol. Runs warn of such test sets
// (WarnSmallTestSets) and reports repeat it (SmallTestSets); the records
// are the same either way. N-way episodes are exempt: each tests on
// exactly Config.TestPerClass examples of each of its classes (default 15,
// a step of 1/(ways·k) ≤ 1/(2k)), a size the run is given and checks every
// class of its pool against, and each episode draws its test examples
// afresh, so averaging over episodes shrinks the step.
const MinTestExamples = 10

// WarnSmallTestSets is the code of the warning (Config.Warn) of a binary
// run some of whose cells test on fewer than MinTestExamples positives or
// negatives; the warning's classes are the targets with too few test
// positives.
const WarnSmallTestSets = "small-test-sets"

// SmallTestSets returns the caution for the binary cells of recs (of one
// dataset) whose test sets hold fewer than MinTestExamples positives or
// negatives — the fewest test negatives of a cell, and the targets with
// too few test positives, each with its fewest — or "" when there are
// none, and those targets (the warning's classes). Episodes (Ways > 0)
// are not counted. maxTestNegatives is the runs' bound on a cell's test
// negatives (Manifest.MaxTestNegatives), which the advice names; 0 when
// the test sets are unbounded (ProtocolSkewed tests on every example the
// training set leaves); negative when the protocol is not known (records
// read without their run.json), for advice that claims no bound.
func SmallTestSets(recs []Record, maxTestNegatives int) (string, []string) {
	negatives := -1
	positives := map[string]int{}
	for _, r := range recs {
		if r.Ways > 0 {
			continue
		}
		if negatives < 0 || r.TestNegatives < negatives {
			negatives = r.TestNegatives
		}
		if p, ok := positives[r.Target]; !ok || r.TestPositives < p {
			positives[r.Target] = r.TestPositives
		}
	}
	if negatives < 0 {
		return "", nil
	}
	return smallTestNote(negatives, positives, maxTestNegatives)
}

// plannedSmallTests returns the caution of SmallTestSets, and the targets
// with too few test positives, for the cells a binary run will draw: its
// target negatives (negatives of them) less TrainNegatives, and each
// target's examples (counts, by class index) less the largest number of
// training positives, each bounded by the manifest's set sizes.
func plannedSmallTests(man *Manifest, counts []int, negatives int) (string, []string) {
	sz := man.sizes()
	positives := map[string]int{}
	most := slices.Max(man.Positives)
	for _, name := range man.Targets {
		positives[name] = splitRows(counts[classIndex(man.Classes, name)], most, sz.testPos) - most
	}
	return smallTestNote(splitRows(negatives, sz.trainNeg, sz.testNeg)-sz.trainNeg, positives, sz.testNeg)
}

// smallTestNote words the caution of SmallTestSets: the cells' fewest test
// negatives, and by target the fewest test positives; "" when none is below
// MinTestExamples. It returns the targets below it too, in order. Its
// advice names maxTestNegatives, the test sets' bound, when it is above 0;
// unbounded test sets (0: ProtocolSkewed) hold every example the training
// set leaves, which only more examples enlarge; an unknown protocol
// (negative) gets advice that claims neither.
func smallTestNote(negatives int, positives map[string]int, maxTestNegatives int) (string, []string) {
	var parts []string
	few := negatives
	if negatives < MinTestExamples {
		parts = append(parts, fmt.Sprintf("cells test on %s (the target negatives the pool leaves beside the %d for training)", plural.Count(negatives, "negative", "negatives"), TrainNegatives))
	}
	var classes, small []string
	for _, t := range slices.Sorted(maps.Keys(positives)) {
		if p := positives[t]; p < MinTestExamples {
			classes = append(classes, fmt.Sprintf("%s (%d)", t, p))
			small = append(small, t)
			few = min(few, p)
		}
	}
	if len(classes) > 0 {
		parts = append(parts, "the targets whose cells test on fewer positives at the largest training size: "+strings.Join(classes, ", "))
	}
	if len(parts) == 0 {
		return "", nil
	}
	few = max(few, 1)
	advice := fmt.Sprintf("a larger negative pool, or targets with more examples, give the tests their %d", maxTestNegatives)
	switch {
	case maxTestNegatives < 0:
		advice = "a larger negative pool, or targets with more examples, enlarge them"
	case maxTestNegatives == 0:
		advice = "the tests hold every example the training set leaves: a larger negative pool, or targets with more examples, enlarge them"
	}
	return fmt.Sprintf("test sets too small for a meaningful accuracy: %s; with k < %d test examples of a class, one of them classified the other way moves a cell's balanced accuracy by 1/(2k), more than 5 points (%.3g at k = %d), as much as methods differ; %s",
		strings.Join(parts, "; "), MinTestExamples, 50/float64(few), few, advice), small
}
