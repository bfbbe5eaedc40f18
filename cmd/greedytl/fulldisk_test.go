package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/errtest"
	"github.com/greedytl/greedytl/internal/tmpfstest"
)

// fit --out on a full disk named the temporary file ("method: writing
// greedytl-auto model: write DIR/.model.json.tmp-123: no space left on
// device"), where predict and train name the output: the model's writes
// (600 features: more than the write buffer) fail on a file system with
// no page free, and the one line names --out, not the temporary file,
// which is gone.
func TestFitOnAFullDisk(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	X := mat.NewDense(30, 600, nil)
	var y strings.Builder
	for i := range 30 {
		for j := range 600 {
			X.Set(i, j, rng.NormFloat64())
		}
		y.WriteString([]string{"-1\n", "1\n"}[i%2])
	}
	Xf, yf := writeNPY(t, dir, "X.npy", X), writeText(t, dir, "y.txt", y.String())
	full := tmpfstest.Mount(t, os.Getpagesize(), false)
	writeText(t, full, "filler", "x") // the one page taken
	out := filepath.Join(full, "model.json")
	code, stdout, stderr := cli(t, "", "fit", "--features", Xf, "--labels", yf, "--out", out, "--quiet")
	if code != exitFailure || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, out+": no space left on device") || strings.Contains(stderr, ".tmp-") {
		t.Errorf("fit --out on a full disk: exit %d, stdout %q, stderr %q; want exit %d, nothing and one line naming %s, not the temporary file", code, stdout, stderr, exitFailure, out)
	}
	if err := errtest.CommandMessage(strings.TrimSuffix(stderr, "\n")); err != nil {
		t.Error(err)
	}
	if ents, _ := os.ReadDir(full); len(ents) != 1 {
		t.Errorf("the failed fit left %v", ents)
	}
}
