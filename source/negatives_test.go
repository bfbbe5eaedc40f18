package source

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/datasettest"
)

// memFolder returns an in-memory folder with the given number of examples
// per class (no features needed by the planner).
func memFolder(counts []int) *dataset.Folder {
	f := &dataset.Folder{Dir: "mem", Classes: datasettest.ClassNames(len(counts))}
	for round := 0; ; round++ {
		added := false
		for c, n := range counts {
			if round < n {
				f.Labels = append(f.Labels, c)
				added = true
			}
		}
		if !added {
			return f
		}
	}
}

func TestPlanNegatives(t *testing.T) {
	uniform := memFolder(slices.Repeat([]int{20}, 10))
	withEmpty := memFolder([]int{20, 0, 20, 0, 20, 20, 20, 20, 20, 20, 20, 20})
	for _, tc := range []struct {
		name        string
		f           *dataset.Folder
		named       []string
		fraction    float64
		wantClasses []int // nil: any of the right number
		nClasses    int
		nTarget     int
	}{
		{name: "fifth", f: uniform, fraction: 0.2, nClasses: 2, nTarget: 4},          // 40 pooled: 36 + 4
		{name: "round half up", f: uniform, fraction: 0.25, nClasses: 3, nTarget: 6}, // round(2.5) = 3; round(6.0)
		{name: "named", f: uniform, named: []string{"c7", "c2"}, fraction: 0.9, wantClasses: []int{2, 7}, nClasses: 2, nTarget: 4},
		{name: "skips empty classes", f: withEmpty, fraction: 0.2, nClasses: 2, nTarget: 4}, // 10 non-empty classes
	} {
		t.Run(tc.name, func(t *testing.T) {
			neg, err := PlanNegatives(tc.f, tc.named, tc.fraction, 42)
			if err != nil {
				t.Fatal(err)
			}
			if err := neg.Check(tc.f); err != nil {
				t.Fatalf("the plan fails its own check: %v", err)
			}
			if len(neg.Classes) != tc.nClasses || (tc.wantClasses != nil && !slices.Equal(neg.Classes, tc.wantClasses)) {
				t.Errorf("classes %v, want %d classes %v", neg.Classes, tc.nClasses, tc.wantClasses)
			}
			counts := tc.f.ClassCounts()
			for _, c := range neg.Classes {
				if counts[c] == 0 {
					t.Errorf("class %d without examples was held out", c)
				}
			}
			if len(neg.Target) != tc.nTarget || len(neg.Source) != 20*tc.nClasses-tc.nTarget {
				t.Errorf("%d source and %d target negatives, want %d and %d", len(neg.Source), len(neg.Target), 20*tc.nClasses-tc.nTarget, tc.nTarget)
			}
			for _, rows := range [][]int{neg.Source, neg.Target} {
				for _, i := range rows {
					if !neg.IsHeldOut(tc.f.Labels[i]) {
						t.Fatalf("row %d of class %d is a negative but its class is not held out", i, tc.f.Labels[i])
					}
				}
			}
			if neg.Named != (tc.named != nil) || (neg.Named && neg.Fraction != 0) || neg.Seed != 42 {
				t.Errorf("Named %v, Fraction %v, Seed %d", neg.Named, neg.Fraction, neg.Seed)
			}
			again, err := PlanNegatives(tc.f, tc.named, tc.fraction, 42)
			if err != nil || !reflect.DeepEqual(again, neg) {
				t.Errorf("the same seed gave another plan:\n%+v\n%+v", neg, again)
			}
			other, err := PlanNegatives(tc.f, tc.named, tc.fraction, 43)
			if err != nil || reflect.DeepEqual(other, neg) {
				t.Errorf("seeds 42 and 43 gave the same plan")
			}
		})
	}
}

// TestPlanNegativesCoversClasses checks that the random draw can hold out
// every class: over 200 seeds each of 10 classes is drawn, and about as
// often as the others (2 of 10 a draw: 40 expected).
func TestPlanNegativesCoversClasses(t *testing.T) {
	f := memFolder(slices.Repeat([]int{5}, 10))
	drawn := make([]int, 10)
	for seed := range uint64(200) {
		neg, err := PlanNegatives(f, nil, 0.2, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range neg.Classes {
			drawn[c]++
		}
	}
	for c, n := range drawn {
		if n < 20 || n > 60 {
			t.Errorf("class %d held out %d times in 200 draws, want about 40", c, n)
		}
	}
}

func TestPlanNegativesErrors(t *testing.T) {
	f := memFolder([]int{20, 20, 20, 1, 20})
	for _, tc := range []struct {
		name     string
		named    []string
		fraction float64
		want     string
	}{
		{"unknown class", []string{"nope"}, 0, `no class named "nope"`},
		{"named twice", []string{"c1", "c1"}, 0, `"c1" named twice`},
		{"zero fraction", nil, 0, "want a value in (0, 1)"},
		{"whole fraction", nil, 1, "want a value in (0, 1)"},
		{"NaN fraction", nil, math.NaN(), "want a value in (0, 1)"},
		{"fraction too small", nil, 0.05, "holds out no class"},
		{"all held out", []string{"c0", "c1", "c2", "c3", "c4"}, 0, "no class with examples"},
		{"pool too small", []string{"c3"}, 0, "has 1 example,"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PlanNegatives(f, tc.named, tc.fraction, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestNegativesCheck(t *testing.T) {
	f := memFolder(slices.Repeat([]int{10}, 6))
	good, err := PlanNegatives(f, []string{"c1", "c4"}, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(n *Negatives)
		want   string
	}{
		{"class out of range", func(n *Negatives) { n.Classes = []int{1, 6} }, "out of range"},
		{"classes unsorted", func(n *Negatives) { n.Classes = []int{4, 1} }, "not sorted"},
		{"no target", func(n *Negatives) { n.Target = nil }, "want both > 0"},
		{"overlap", func(n *Negatives) { n.Target = append(n.Target, n.Source[0]); slices.Sort(n.Target) }, "not a split"},
		{"row missing", func(n *Negatives) { n.Source = n.Source[1:] }, "not a split"},
		{"foreign row", func(n *Negatives) { n.Source[0] = 0 }, "not a split"},
		{"unsorted rows", func(n *Negatives) { n.Source[0], n.Source[1] = n.Source[1], n.Source[0] }, "not sorted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := &Negatives{Classes: slices.Clone(good.Classes), Source: slices.Clone(good.Source), Target: slices.Clone(good.Target)}
			tc.change(n)
			err := n.Check(f)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestPlanNegativesTooFewClasses: a fraction that rounds to no class is
// refused with a message naming the dataset folder and the least fraction
// that holds one out — which, given, does hold out one class, while a
// fraction just below it still holds out none; a dataset whose labels
// give examples to one class only is refused whatever the plan, naming the
// folder and the count of classes with examples and in classes.txt.
func TestPlanNegativesTooFewClasses(t *testing.T) {
	for _, counts := range [][]int{{20, 20, 20, 20}, {20, 0, 20, 20, 0}, slices.Repeat([]int{5}, 7), slices.Repeat([]int{5}, 30)} {
		f := memFolder(counts)
		f.Dir = "data/few"
		_, err := PlanNegatives(f, nil, 0.01, 1)
		if err == nil {
			t.Fatalf("counts %v: fraction 0.01 held out a class", counts)
		}
		msg := err.Error()
		var least float64
		i := strings.Index(msg, "at least ")
		if i < 0 || !strings.Contains(msg, "dataset data/few:") || !strings.Contains(msg, "holds out no class") {
			t.Fatalf("counts %v: error %q names no folder or no least fraction", counts, msg)
		}
		if _, err := fmt.Sscanf(msg[i:], "at least %g,", &least); err != nil {
			t.Fatalf("counts %v: %q: %v", counts, msg, err)
		}
		neg, err := PlanNegatives(f, nil, least, 1)
		if err != nil || len(neg.Classes) != 1 {
			t.Errorf("counts %v: the suggested fraction %v: %v, %v; want one class held out", counts, least, neg, err)
		}
		if _, err := PlanNegatives(f, nil, least-0.001, 1); err == nil {
			t.Errorf("counts %v: fraction %v, below the suggested %v, held out a class", counts, least-0.001, least)
		}
	}
	f := memFolder([]int{0, 30, 0})
	f.Dir = "data/one"
	for _, named := range [][]string{nil, {"c1"}} {
		_, err := PlanNegatives(f, named, 0.2, 1)
		want := "dataset data/one: labels.npy gives examples to 1 of the 3 classes of classes.txt"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("one class with examples (named %v): error %v, want one containing %q", named, err, want)
		}
	}
	// classes.txt of a single class: "of the 1 class", not "1 classes".
	f = memFolder([]int{30})
	f.Dir = "data/single"
	want := "dataset data/single: labels.npy gives examples to 1 of the 1 class of classes.txt"
	if _, err := PlanNegatives(f, nil, 0.2, 1); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a single class: error %v, want one containing %q", err, want)
	}
}

// TestNegativesNames: the held-out classes' names, in the pool's order
// (not sorted), from the class names given; none for a nil pool.
func TestNegativesNames(t *testing.T) {
	n := &Negatives{Classes: []int{2, 0}}
	if got := n.Names([]string{"a", "b", "oos"}); !slices.Equal(got, []string{"oos", "a"}) {
		t.Errorf("Names = %q, want [oos a]", got)
	}
	if got := (&Negatives{}).Names([]string{"a"}); got == nil || len(got) != 0 {
		t.Errorf("Names of no class = %#v, want an empty list", got)
	}
	var none *Negatives
	if got := none.Names([]string{"a"}); got != nil {
		t.Errorf("Names of a nil pool = %q, want nil", got)
	}
}
