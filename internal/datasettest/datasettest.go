// Package datasettest makes and writes small dataset folders for the tests
// of the packages that read them (source, experiment, the command).
package datasettest

import (
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
)

// Blobs returns a dataset of classes Gaussian blobs named c0, c1, …,
// perClass examples each, in d ≥ classes dimensions, drawn from seed: class
// k is centred at sep·e_k with noise of standard deviation 0.3, so every
// class is linearly separable from the others when sep is large. The
// classes are interleaved (row i is of class i mod classes), so that a
// class's rows are not contiguous. Dir is empty.
func Blobs(seed uint64, classes, perClass, d int, sep float64) *dataset.Folder {
	rng := rand.New(rand.NewPCG(seed, seed))
	n := classes * perClass
	x := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	for i := range n {
		k := i % classes
		labels[i] = k
		for j := range d {
			v := 0.3 * rng.NormFloat64()
			if j == k {
				v += sep
			}
			x.Set(i, j, v)
		}
	}
	return &dataset.Folder{X: x, Labels: labels, Classes: ClassNames(classes)}
}

// Shuffled returns a dataset of counts[k] examples of each class k, named
// c0, c1, …, in random order, in as many dimensions as classes, drawn from
// seed: each value is N(0, 1) noise, plus centre[k] in column k for the
// rows of class k.
func Shuffled(seed uint64, counts []int, centre []float64) *dataset.Folder {
	rng := rand.New(rand.NewPCG(seed, seed))
	var labels []int
	for c, n := range counts {
		for range n {
			labels = append(labels, c)
		}
	}
	rng.Shuffle(len(labels), func(a, b int) { labels[a], labels[b] = labels[b], labels[a] })
	x := mat.NewDense(len(labels), len(counts), nil)
	for i, c := range labels {
		for j := range counts {
			v := rng.NormFloat64()
			if j == c {
				v += centre[c]
			}
			x.Set(i, j, v)
		}
	}
	return &dataset.Folder{X: x, Labels: labels, Classes: ClassNames(len(counts))}
}

// ClassNames returns "c0", "c1", …, "c<n−1>".
func ClassNames(n int) []string {
	names := make([]string, n)
	for k := range names {
		names[k] = fmt.Sprintf("c%d", k)
	}
	return names
}

// WriteFolder writes f as a dataset folder — features.npy, labels.npy,
// classes.txt and, when f.Groups is not nil, groups.txt — into a new
// temporary directory of tb, and returns the folder read back with
// dataset.LoadFolder (its Dir is that directory; f.Dir is ignored). It
// fails tb when a file cannot be written or the folder is invalid.
func WriteFolder(tb testing.TB, f *dataset.Folder) *dataset.Folder {
	tb.Helper()
	dir := tb.TempDir()
	write := func(name string, fill func(io.Writer) error) {
		if err := atomicfile.Write(filepath.Join(dir, name), fill); err != nil {
			tb.Fatal(err)
		}
	}
	write(dataset.FeaturesFile, func(w io.Writer) error { return dataset.WriteNPY(w, f.X) })
	write(dataset.LabelsFile, func(w io.Writer) error { return dataset.WriteNPYInts(w, f.Labels) })
	write(dataset.ClassesFile, func(w io.Writer) error { return dataset.WriteNames(w, "class", f.Classes) })
	if f.Groups != nil {
		write(dataset.GroupsFile, func(w io.Writer) error { return dataset.WriteNames(w, "group", f.Groups) })
	}
	loaded, err := dataset.LoadFolder(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return loaded
}
