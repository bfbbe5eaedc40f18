package experiment

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/shard"
)

// The sizes of a cell's training and test sets (docs/design.md §6 item 3).
const (
	// TrainNegatives is the number of target negatives in a training set.
	TrainNegatives = 10
	// MaxTestPositives and MaxTestNegatives bound the test set of the
	// standard protocol: 50 further positives and 50 further target
	// negatives, fewer when the class or the target negatives have fewer
	// left.
	MaxTestPositives = 50
	MaxTestNegatives = 50
)

// The protocols: how a cell's training and test sets are drawn from the
// target's examples and the target negatives (the paper's §5.1).
const (
	// ProtocolStandard trains on n₊ examples of the target and
	// TrainNegatives target negatives, and tests on up to
	// MaxTestPositives further examples of the target and
	// MaxTestNegatives further target negatives: the paper's setting for
	// Caltech-256, ImageNet and SUN-397.
	ProtocolStandard = "standard"
	// ProtocolSkewed trains on n₊ examples of the target (the paper: 1)
	// and TrainNegatives target negatives, and tests on every other
	// example of the target and every other target negative: the paper's
	// setting for the skewed SUN09, whose classes are mostly small.
	ProtocolSkewed = "skewed"
	// ProtocolNWay is the N-way few-shot protocol: a cell is an episode
	// that draws Ways classes among those with a source (the pool:
	// Config.Targets), leaves out those classes' own sources (H holds the
	// scores of the other classes' sources), trains a multi-class model
	// (method.NewMulti) on Positives examples of each class — the shots —
	// and tests it on TestPerClass further examples of each. A cell is
	// (ways, shots, episode, method); its record is an episode's (see
	// Record).
	ProtocolNWay = "nway"
)

// Protocols returns the protocols, the default first, in a new slice each
// call: changing it changes nothing else.
func Protocols() []string { return []string{ProtocolStandard, ProtocolSkewed, ProtocolNWay} }

// DefaultWays returns the numbers of classes of the N-way episodes the
// N-way study runs by default, 5 and 20, in a new slice each call: the
// command's --ways default. A Config of ProtocolNWay must set its Ways
// (Run refuses a Config without them; DefaultConfig does not set them).
func DefaultWays() []int { return []int{5, 20} }

// DefaultTestPerClass is the number of test examples per class of an N-way
// episode when Config.TestPerClass is 0.
const DefaultTestPerClass = 15

// setSizes are a protocol's set sizes: trainNeg target negatives for
// training; at most testPos further positives and testNeg further target
// negatives for testing, 0 meaning every one left.
type setSizes struct{ trainNeg, testPos, testNeg int }

// protocolSizes returns the set sizes of protocol p ("" is
// ProtocolStandard) and whether p is a protocol.
func protocolSizes(p string) (setSizes, bool) {
	switch p {
	case ProtocolStandard, "":
		return setSizes{TrainNegatives, MaxTestPositives, MaxTestNegatives}, true
	case ProtocolSkewed:
		return setSizes{TrainNegatives, 0, 0}, true
	case ProtocolNWay:
		return setSizes{}, true // no negatives; TestPerClass sizes the test sets
	}
	return setSizes{}, false
}

// DefaultPositives returns the numbers of positive training examples the
// paper uses with protocol p: 2, 5 and 10, or 1 for ProtocolSkewed; for
// ProtocolNWay, the shots 1, 2, 5 and 10.
func DefaultPositives(p string) []int {
	switch p {
	case ProtocolSkewed:
		return []int{1}
	case ProtocolNWay:
		return []int{1, 2, 5, 10}
	}
	return []int{2, 5, 10}
}

// Config describes a run: the dataset, the grid, where the results go and
// how the work is spread. Start from DefaultConfig.
type Config struct {
	// Data is the dataset. Name names it in the records and run.json; if
	// empty it is the base name of Data.Dir.
	Data *dataset.Folder
	Name string
	// Out is the run directory; it is created if needed.
	Out string
	// Sources is a sources directory written by source.TrainAll on Data;
	// its negative plan is the run's. When Sources is empty the sources
	// are trained into Out/sources (resumably) against the plan
	// source.PlanNegatives(Data, NegativeClasses, NegativeFraction, Seed)
	// with source.DefaultTrainConfig seeded by Seed: the sources that
	// "greedytl train-sources" trains with the same negatives and seed.
	Sources string
	// NegativeClasses names the negative pool's classes; when empty,
	// NegativeFraction (0: source.DefaultNegativeFraction) of the classes
	// are drawn. With Sources, non-empty NegativeClasses and a non-zero
	// NegativeFraction must agree with the directory's plan.
	NegativeClasses  []string
	NegativeFraction float64
	// Targets names the target classes. When empty, every class that is
	// not a negative class and has more examples than the largest number
	// of Positives is a target (the others are skipped and logged); a
	// named target must satisfy both. For ProtocolNWay it names the pool
	// the episodes draw their classes from: each class named must have
	// enough examples (see TestPerClass); when empty, every class that
	// has a source (those not in the negative pool) and enough examples —
	// the others are left out with a warning (WarnSmallClasses).
	// The pool's order is the run's (an episode draws its classes by
	// their place in it); for the other protocols it is not (a cell's
	// draws are its target's alone): Run lists the targets in class
	// order, and a run given them in one order resumes given another.
	Targets []string
	// Protocol is how the training and test sets are drawn:
	// ProtocolStandard (also when empty) or ProtocolSkewed.
	Protocol string
	// Positives lists the numbers n₊ of positive training examples
	// (DefaultPositives(Protocol) is the paper's choice); for ProtocolNWay,
	// the shots: training examples per class.
	Positives []int
	// Ways lists the numbers of classes of an N-way episode (ProtocolNWay
	// only; at least 2 each).
	Ways []int
	// TestPerClass is the number of test examples per class of an N-way
	// episode (ProtocolNWay only; 0: DefaultTestPerClass). Every class of
	// the pool must have the largest number of shots plus TestPerClass
	// examples (the default pool leaves out those with fewer).
	TestPerClass int
	// Splits is the number of random splits per target and n₊; for
	// ProtocolNWay, the number of episodes per ways and shots.
	Splits int
	// Noise lists the numbers D of N(0,1) dimensions appended to the
	// features (0: none). Run refuses a D whose draws, on a group's rows,
	// times the workers that hold them at once would take more than the
	// machine's physical memory, or its control groups' memory limit where
	// that is smaller (a container's; 4 GB where neither can be read).
	Noise []int
	// Methods names the methods: specs of package method's registry. The
	// run (its manifest and records) names each by its canonical spec
	// (method.CanonicalSpec), so that the spellings of one method
	// ("greedytl:lambda=1", greedytl's default, and "greedytl") are one.
	Methods []string
	// Seed seeds the negative plan (when the sources are trained here),
	// the splits, the noise and the methods' own randomness. With Sources,
	// the plan and the sources are the directory's, of the seed it was
	// trained with; when that differs from Seed, Run says so on Log.
	Seed uint64
	// Workers is the number of groups worked on at once; ≤ 0 means
	// GOMAXPROCS.
	Workers int
	// Shard selects the part of the grid this process runs: the groups
	// of cells whose key hashes to I modulo N (FNV-1a, 64 bits, of the
	// group's key string; see Run).
	Shard shard.Shard
	// Check makes Run check Out and return: an input error when Run would
	// refuse it (a run directory of other settings or of another shard,
	// naming what differs), else an empty Summary; it runs no cell,
	// trains no source and writes nothing (a job script asks it whether
	// the shards it is about to merge are of its run).
	Check bool
	// Progress, if not nil, is called with the number of the shard's
	// cells done (including those found done from an earlier run) and
	// their total: once before the work starts and after each cell.
	// Calls are serialised.
	Progress func(done, total int)
	// SourceProgress is source.RunOptions.Progress when the sources are
	// trained here.
	SourceProgress func(done, total int)
	// Log, if not nil, receives one-line status messages.
	Log io.Writer
	// Warn, if not nil, receives the run's warnings about its sources
	// (source.Index.Warnings, whose codes source defines: among them
	// source.WarnNotConverged when final fits did not converge and
	// source.WarnSingleExample, with the classes, when classes with a
	// single example have sources) and about its grid (among them
	// WarnNoSources, when N-way episodes can hold no source;
	// WarnSmallClasses, with the classes, when the default N-way pool
	// leaves out classes too small for an episode; WarnSmallTestSets, with
	// the targets, when binary cells test on fewer than MinTestExamples)
	// instead of Log, which gets them as "warning: " lines.
	Warn func(code, message string, classes []string)
	// Note, if not nil, receives the run's notes (that a sources directory
	// drew its negative pool and trained its sources with another seed than
	// the run's) instead of Log, which gets them as "note: " lines.
	Note func(message string)
}

// DefaultConfig returns the paper's grid: positives 2, 5 and 10, 10 splits,
// no noise, every registered method (method.Names), seed 1, and the
// default negative pool (a fifth of the classes, or the classes named).
func DefaultConfig() Config {
	return Config{
		Protocol:  ProtocolStandard,
		Positives: DefaultPositives(ProtocolStandard),
		Splits:    10,
		Noise:     []int{0},
		Methods:   method.Names(),
		Seed:      1,
	}
}

// check validates the settings that do not depend on the sources and
// returns the canonical specs of c.Methods (canonicalSpec), in their
// order: the run's names for them.
func (c *Config) check() ([]string, error) {
	switch {
	case c.Data == nil:
		return nil, inputErrorf("experiment: no dataset")
	case c.Out == "":
		return nil, inputErrorf("experiment: no run directory")
	case len(c.Positives) == 0:
		return nil, inputErrorf("experiment: no numbers of positives")
	case c.Splits < 1:
		return nil, inputErrorf("experiment: %d splits, want at least 1", c.Splits)
	case len(c.Noise) == 0:
		return nil, inputErrorf("experiment: no noise levels (0 means no noise)")
	case len(c.Methods) == 0:
		return nil, inputErrorf("experiment: no methods")
	case c.NegativeFraction < 0 || c.NegativeFraction >= 1:
		return nil, inputErrorf("experiment: negative fraction %v, want a value in (0, 1)", c.NegativeFraction)
	}
	if _, ok := protocolSizes(c.Protocol); !ok {
		return nil, inputErrorf("experiment: unknown protocol %q (known: %s)", c.Protocol, strings.Join(Protocols(), ", "))
	}
	if err := c.Shard.Check(); err != nil {
		return nil, inputError{err}
	}
	if err := c.checkNWay(); err != nil {
		return nil, err
	}
	for _, p := range c.Positives {
		if p < 1 && c.Protocol == ProtocolNWay {
			return nil, inputErrorf("experiment: %d shots (training examples per class), want at least 1", p)
		}
		if p < 1 {
			return nil, inputErrorf("experiment: %d positives, want at least 1", p)
		}
	}
	for _, d := range c.Noise {
		if d < 0 {
			return nil, inputErrorf("experiment: %d noise dimensions, want 0 or more", d)
		}
	}
	// In a fixed order: the first list with a repeat is named, every time.
	for _, l := range []struct {
		name string
		list []string
	}{{"method", c.Methods}, {"target", c.Targets}, {"negative class", c.NegativeClasses}} {
		if dup := firstDuplicate(l.list); dup != "" {
			return nil, inputErrorf("experiment: %s %q listed twice", l.name, dup)
		}
	}
	sizes := "--positives"
	if c.Protocol == ProtocolNWay {
		sizes = "--shots" // what an N-way run's Positives hold
	}
	for _, l := range []struct {
		name string
		list []int
	}{{sizes, c.Positives}, {"--noise", c.Noise}} {
		for k, v := range l.list {
			if slices.Contains(l.list[:k], v) {
				return nil, inputErrorf("experiment: %s lists %d twice", l.name, v)
			}
		}
	}
	if err := unknownMethods(c.Methods, c.Protocol); err != nil {
		return nil, err
	}
	methods := make([]string, len(c.Methods))
	for k, m := range c.Methods {
		name, err := canonicalSpec(m, c.Protocol)
		if err != nil {
			return nil, inputError{err}
		}
		if at := slices.Index(methods[:k], name); at >= 0 {
			return nil, inputErrorf("experiment: methods %q and %q are the same method (%s)", c.Methods[at], m, name)
		}
		methods[k] = name
	}
	return methods, nil
}

// unknownMethods returns an input error naming every spec of specs whose
// method is not registered, when there is one or more: "experiment:
// unknown method(s) …" whatever their number (canonicalSpec's error,
// which names the first alone, said "method: unknown method …" for one).
func unknownMethods(specs []string, p string) error {
	var unknown []string
	for _, m := range specs {
		if s, err := method.ParseSpec(m); err == nil {
			if _, ok := method.Registered(s.Name); !ok {
				unknown = append(unknown, strconv.Quote(s.Name))
			}
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	known := method.Names()
	if p == ProtocolNWay {
		known = method.MultiNames()
	}
	return inputErrorf("experiment: unknown %s %s (known: %s)", plural.Word(len(unknown), "method", "methods"), strings.Join(unknown, ", "), strings.Join(known, ", "))
}

// canonicalSpec returns the canonical form of the method spec m for
// protocol p: a binary method's (method.CanonicalSpec), or for
// ProtocolNWay a multi-class learner's (method.NewMulti: a native
// multi-class method, or a binary one used one against the rest). It
// returns their errors.
func canonicalSpec(m, p string) (string, error) {
	if p != ProtocolNWay {
		return method.CanonicalSpec(m)
	}
	mm, err := method.NewMulti(m)
	if err != nil {
		return "", err
	}
	return mm.Name(), nil
}

// checkNWay validates the settings of ProtocolNWay: ways (at least 2, no
// repeats) and a test size ≥ 0 for it, neither for another protocol, and
// no noise.
func (c *Config) checkNWay() error {
	if c.Protocol != ProtocolNWay {
		if len(c.Ways) > 0 || c.TestPerClass != 0 {
			return inputErrorf("experiment: ways and test examples per class are settings of --protocol %s, not %s", ProtocolNWay, cmp.Or(c.Protocol, ProtocolStandard))
		}
		return nil
	}
	switch {
	case len(c.Ways) == 0:
		return inputErrorf("experiment: no numbers of ways")
	case c.TestPerClass < 0:
		return inputErrorf("experiment: %d test examples per class, want at least 1", c.TestPerClass)
	case !slices.Equal(c.Noise, []int{0}):
		return inputErrorf("experiment: noise levels %v: the %s protocol appends no noise", c.Noise, ProtocolNWay)
	}
	for k, w := range c.Ways {
		switch {
		case w < 2:
			return inputErrorf("experiment: %s, want at least 2", plural.Count(w, "way", "ways"))
		case slices.Contains(c.Ways[:k], w):
			return inputErrorf("experiment: --ways lists %d twice", w)
		}
	}
	return nil
}

// classNeeds returns n + k, the examples a class needs for n training and
// k further (test) examples; n and k are ≥ 0. The sum is exact, an int's
// limit and beyond (no class has that many): compared with a class's
// count (hasNeeds), and named in messages as the user's numbers add up.
func classNeeds(n, k int) uint64 { return uint64(n) + uint64(k) }

// hasNeeds reports whether a class of count examples has the need
// (classNeeds) examples.
func hasNeeds(count int, need uint64) bool { return uint64(count) >= need }

// testPerClass returns the number of test examples per class of an N-way
// episode.
func (c *Config) testPerClass() int {
	if c.TestPerClass == 0 {
		return DefaultTestPerClass
	}
	return c.TestPerClass
}

// firstDuplicate returns the first string of list that repeats an earlier
// one, or "".
func firstDuplicate(list []string) string {
	for k, s := range list {
		if slices.Contains(list[:k], s) {
			return s
		}
	}
	return ""
}

// ErrInput is matched (errors.Is) by the errors of Run and Merge that are
// caused by their inputs — the settings, the dataset, a sources or run
// directory that does not fit, malformed or conflicting results files —
// rather than by the work failing (a write error, a cancelled context).
var ErrInput = errors.New("experiment: bad input")

// inputError marks an error as caused by the inputs.
type inputError struct{ err error }

func (e inputError) Error() string        { return e.err.Error() }
func (e inputError) Unwrap() error        { return e.err }
func (e inputError) Is(target error) bool { return target == ErrInput }

func inputErrorf(format string, a ...any) error { return inputError{fmt.Errorf(format, a...)} }
