package source

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
)

// blobs returns a dataset of classes Gaussian blobs, perClass examples
// each, in d ≥ classes dimensions: class k is centred at sep·e_k with
// noise of standard deviation 0.3, so every class is linearly separable
// from the others when sep is large.
func blobs(seed uint64, classes, perClass, d int, sep float64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, seed))
	n := classes * perClass
	x := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	for i := range n {
		k := i % classes // interleaved, so a class's rows are not contiguous
		labels[i] = k
		for j := range d {
			v := 0.3 * rng.NormFloat64()
			if j == k {
				v += sep
			}
			x.Set(i, j, v)
		}
	}
	return x, labels
}

// writeFolder writes a dataset folder (features.npy, labels.npy,
// classes.txt) to a new temporary directory and loads it back.
func writeFolder(t testing.TB, x *mat.Dense, labels []int, classes []string) *dataset.Folder {
	t.Helper()
	dir := t.TempDir()
	err := atomicfile.Write(filepath.Join(dir, "features.npy"), func(w io.Writer) error { return dataset.WriteNPY(w, x) })
	if err == nil {
		err = atomicfile.Write(filepath.Join(dir, "labels.npy"), func(w io.Writer) error { return dataset.WriteNPYInts(w, labels) })
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "classes.txt"), []byte(strings.Join(classes, "\n")+"\n"), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	f, err := dataset.LoadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// classNames returns "c0", "c1", ...
func classNames(n int) []string {
	names := make([]string, n)
	for k := range names {
		names[k] = fmt.Sprintf("c%d", k)
	}
	return names
}

// blobFolder writes a separable dataset of the given number of classes
// with 20 examples each in as many dimensions.
func blobFolder(t testing.TB, classes int) *dataset.Folder {
	x, labels := blobs(7, classes, 20, classes, 3)
	return writeFolder(t, x, labels, classNames(classes))
}
