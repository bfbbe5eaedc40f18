package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fit one class against the rest over 6 classes, its standard error not
// a terminal, writes progressOf's plain lines of the classes, one a class
// with the clock a minute a reading; with -q it writes none.
func TestFitOneVsRestProgressLines(t *testing.T) {
	dir := t.TempDir()
	var xs, ys strings.Builder
	for i := range 12 {
		fmt.Fprintf(&xs, "%g %g\n", float64(i*i)/7, float64(i%6)+0.1*float64(i))
		fmt.Fprintf(&ys, "c%d\n", i%6)
	}
	x, y := filepath.Join(dir, "x.txt"), filepath.Join(dir, "y.txt")
	if err := os.WriteFile(x, []byte(xs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(y, []byte(ys.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	wantProgressLines(t, "classes", func() []string {
		n++
		return []string{"fit", "--method", "no-transfer", "--features", x, "--labels", y, "--out", filepath.Join(dir, fmt.Sprintf("m%d.json", n))}
	})
}
