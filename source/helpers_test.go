package source

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/datasettest"
)

// blobFolder writes a separable dataset of the given number of classes
// with 20 examples each in as many dimensions.
func blobFolder(t testing.TB, classes int) *dataset.Folder {
	return datasettest.WriteFolder(t, datasettest.Blobs(7, classes, 20, classes, 3))
}

// openFloat32Folder writes f as a dataset folder with float32 features
// (its values must be float32 numbers) and opens it with
// dataset.OpenFolder, which reads the rows on demand.
func openFloat32Folder(t *testing.T, f *dataset.Folder) *dataset.Folder {
	t.Helper()
	dir := t.TempDir()
	r, c := f.X.Dims()
	err := atomicfile.Write(filepath.Join(dir, "features.npy"), func(w io.Writer) error {
		nw, err := dataset.NewNPYRowWriter(w, r, c)
		if err != nil {
			return err
		}
		row := make([]float32, c)
		for i := range r {
			for j, v := range f.X.RawRowView(i) {
				row[j] = float32(v)
				if float64(row[j]) != v {
					t.Fatalf("row %d, column %d: %v is not a float32", i, j, v)
				}
			}
			if err := nw.WriteRow(row); err != nil {
				return err
			}
		}
		return nw.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, fill := range map[string]func(io.Writer) error{
		"labels.npy":  func(w io.Writer) error { return dataset.WriteNPYInts(w, f.Labels) },
		"classes.txt": func(w io.Writer) error { _, err := io.WriteString(w, strings.Join(f.Classes, "\n")+"\n"); return err },
	} {
		if err := atomicfile.Write(filepath.Join(dir, name), fill); err != nil {
			t.Fatal(err)
		}
	}
	g, err := dataset.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g.X != nil {
		t.Fatal("OpenFolder read the features into memory")
	}
	t.Cleanup(func() { g.Close() })
	return g
}
