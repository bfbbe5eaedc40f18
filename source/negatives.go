package source

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/plural"
)

// The negative pool's defaults (docs/design.md §6 item 1, the paper's "Datasets").
const (
	// DefaultNegativeFraction is the fraction of the classes held out as
	// the negative pool when none are named: C/5.
	DefaultNegativeFraction = 0.2
	// SourceNegativeShare is the share of the pooled negative examples
	// that become source negatives; the rest are target negatives.
	SourceNegativeShare = 0.9
)

// Negatives is the negative pool of the leave-one-class-out protocol: the
// classes held out as the surrogate negative class, and their examples
// split into source negatives (the −1 examples of every source) and target
// negatives (reserved for the targets' training and test sets). Row
// indices refer to the dataset folder's rows; all three lists are sorted.
// Its JSON form is recorded in the sources index.
type Negatives struct {
	// Classes are the held-out classes.
	Classes []int `json:"classes"`
	// Named reports whether the classes were named by the user rather
	// than drawn at random.
	Named bool `json:"named"`
	// Fraction is the fraction of the classes drawn (0 when Named).
	Fraction float64 `json:"fraction,omitempty"`
	// Seed seeded the draw of the classes and the split of the pool.
	Seed uint64 `json:"seed"`
	// Source are the rows of the source negatives.
	Source []int `json:"source"`
	// Target are the rows of the target negatives.
	Target []int `json:"target"`
}

// Names returns the names of the held-out classes, in n.Classes's order,
// looked up in classes (a dataset's or an index's class names); nil for a
// nil n.
func (n *Negatives) Names(classes []string) []string {
	if n == nil {
		return nil
	}
	names := make([]string, len(n.Classes))
	for i, c := range n.Classes {
		names[i] = classes[c]
	}
	return names
}

// PlanNegatives draws the negative pool of the dataset f.
//
// The held-out classes are the classes named (for example CLINC150's
// "oos") when named is not empty, and fraction is then ignored; otherwise
// they are round(C·fraction) classes drawn at random, C being the number of
// classes that have examples (only those are drawn). The examples of the
// held-out classes are pooled, shuffled, and split: round(10%) of them, at
// least one, are target negatives and the rest source negatives. The split
// is of the pooled examples, not of the classes, as in the paper ("merging
// 100 held-out classes … further split into source negative and target
// negative class as 90%+10%"), so a held-out class usually contributes to
// both sides. Everything is drawn from seed: the same seed gives the same
// plan.
//
// It returns an error for a dataset with fewer than two classes with
// examples, an unknown or repeated class name, a fraction outside (0, 1)
// when no classes are named, a fraction that draws no class (saying the
// least that draws one), a pool that leaves no class with examples to
// train a source on, and a pool of fewer than two examples; those about
// the dataset's classes name its folder (f.Dir).
func PlanNegatives(f *dataset.Folder, named []string, fraction float64, seed uint64) (*Negatives, error) {
	if f == nil {
		return nil, errNoFolder
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	counts := f.ClassCounts()
	var candidates []int // the classes with examples
	for c, n := range counts {
		if n > 0 {
			candidates = append(candidates, c)
		}
	}
	if len(candidates) < 2 {
		return nil, fmt.Errorf("source: dataset %s: labels.npy gives examples to %d of the %s of classes.txt; the protocol needs at least 2 classes with examples, one held out as negatives and the others each trained as a source (are the labels right?)", f.Dir, len(candidates), plural.Count(len(f.Classes), "class", "classes"))
	}
	neg := &Negatives{Seed: seed}
	if len(named) > 0 {
		neg.Named = true
		for _, name := range named {
			c, err := f.ClassIndex(name)
			if err != nil {
				return nil, fmt.Errorf("source: negative class: %w", err)
			}
			if slices.Contains(neg.Classes, c) {
				return nil, fmt.Errorf("source: negative class %q named twice", name)
			}
			neg.Classes = append(neg.Classes, c)
		}
	} else {
		if !(fraction > 0 && fraction < 1) {
			return nil, fmt.Errorf("source: negative fraction %v, want a value in (0, 1)", fraction)
		}
		k := int(math.Round(float64(len(candidates)) * fraction))
		if k == 0 {
			// round(n·f) ≥ 1 when f ≥ 0.5/n.
			return nil, fmt.Errorf("source: dataset %s: negative fraction %v of its %d classes with examples holds out no class (it rounds to 0): give a fraction of at least %.3g, or name the negative classes (--negative-classes)", f.Dir, fraction, len(candidates), math.Ceil(0.5/float64(len(candidates))*1000)/1000)
		}
		neg.Fraction = fraction
		for _, p := range rng.Perm(len(candidates))[:k] {
			neg.Classes = append(neg.Classes, candidates[p])
		}
	}
	slices.Sort(neg.Classes)
	if len(neg.SourceClasses(counts)) == 0 {
		return nil, fmt.Errorf("source: dataset %s: the negative pool holds out all its %d classes with examples, leaving no class with examples to train a source on: hold out fewer", f.Dir, len(candidates))
	}
	pool := neg.poolRows(f)
	if len(pool) < 2 {
		return nil, fmt.Errorf("source: the negative pool has %s, want at least 2 (source and target negatives)", plural.Count(len(pool), "example", "examples"))
	}
	rng.Shuffle(len(pool), func(a, b int) { pool[a], pool[b] = pool[b], pool[a] })
	nTarget := max(1, int(math.Round(float64(len(pool))*(1-SourceNegativeShare))))
	neg.Target = slices.Clone(pool[:nTarget])
	neg.Source = slices.Clone(pool[nTarget:])
	slices.Sort(neg.Source)
	slices.Sort(neg.Target)
	return neg, nil
}

// SourceClasses returns, in increasing order, the classes of a dataset
// of class counts counts (dataset.Folder.ClassCounts) that get a source
// under the plan n (TrainAll trains one of each): those with examples
// that n does not hold out.
func (n *Negatives) SourceClasses(counts []int) []int {
	var cs []int
	for c, k := range counts {
		if k > 0 && !n.IsHeldOut(c) {
			cs = append(cs, c)
		}
	}
	return cs
}

// errNoFolder is the error of a function given a nil *dataset.Folder.
var errNoFolder = errors.New("source: no dataset (nil *dataset.Folder)")

// poolRows returns, in increasing order, the rows of the held-out classes.
func (n *Negatives) poolRows(f *dataset.Folder) []int {
	held := make(map[int]bool, len(n.Classes))
	for _, c := range n.Classes {
		held[c] = true
	}
	var rows []int
	for i, l := range f.Labels {
		if held[l] {
			rows = append(rows, i)
		}
	}
	return rows
}

// IsHeldOut reports whether class c is one of the negative classes (of
// which a nil plan has none, as for SourceClasses).
func (n *Negatives) IsHeldOut(c int) bool {
	if n == nil {
		return false
	}
	_, found := slices.BinarySearch(n.Classes, c)
	return found
}

// Check verifies that n is a valid plan for the dataset f, such as one read
// back from a sources index: the classes are distinct, sorted and in range;
// the source and target rows are sorted, disjoint, both non-empty, and
// together exactly the rows of the held-out classes.
func (n *Negatives) Check(f *dataset.Folder) error {
	if n == nil {
		return errors.New("source: nil negative plan")
	}
	if f == nil {
		return errNoFolder
	}
	if len(n.Classes) == 0 {
		return errors.New("source: negative plan has no classes")
	}
	for k, c := range n.Classes {
		if c < 0 || c >= len(f.Classes) {
			return fmt.Errorf("source: negative class %d out of range: the dataset has %d classes", c, len(f.Classes))
		}
		if k > 0 && c <= n.Classes[k-1] {
			return fmt.Errorf("source: negative classes are not sorted and distinct (%d after %d)", c, n.Classes[k-1])
		}
	}
	if len(n.Source) == 0 || len(n.Target) == 0 {
		return fmt.Errorf("source: negative plan has %d source and %d target negatives, want both > 0", len(n.Source), len(n.Target))
	}
	for _, side := range []struct {
		name string
		rows []int
	}{{"source", n.Source}, {"target", n.Target}} {
		if !slices.IsSorted(side.rows) {
			return fmt.Errorf("source: %s negative rows are not sorted", side.name)
		}
	}
	merged := append(slices.Clone(n.Source), n.Target...)
	slices.Sort(merged)
	pool := n.poolRows(f)
	if !slices.Equal(merged, pool) {
		return fmt.Errorf("source: the %d source and %d target negative rows are not a split of the %d rows of the negative classes", len(n.Source), len(n.Target), len(pool))
	}
	return nil
}
