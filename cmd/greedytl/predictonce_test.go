package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
	"gonum.org/v1/gonum/mat"
)

// scoresCounter is a multi-class model that counts the rows its Scores and
// Predict compute.
type scoresCounter struct {
	method.MultiModel
	scored int
}

func (c *scoresCounter) Scores(d method.Data) (*mat.Dense, error) {
	r, _ := d.X.Dims()
	c.scored += r
	return c.MultiModel.Scores(d)
}

func (c *scoresCounter) Predict(d method.Data) ([]int, error) {
	r, _ := d.X.Dims()
	c.scored += r
	return c.MultiModel.Predict(d)
}

// TestPredictMultiScoresOnce checks that predict of a multi-class model
// scores every row once, with and without --scores and --labels: it
// computed Scores and then Predict, which computes them again (twice the
// time, and a second rows × classes matrix: 10,000 rows of a 1,000-class
// greedytl-nway model took 2.7 s and 347 MB, 0.9 s and 125 MB once).
func TestPredictMultiScoresOnce(t *testing.T) {
	const K, per, d = 3, 4, 2
	X := mat.NewDense(K*per, d, nil)
	y := method.ClassLabels{Names: []string{"a", "b", "c"}, Y: make([]int, K*per)}
	var csv, labels strings.Builder
	for i := range K * per {
		k := i % K
		y.Y[i] = k
		X.Set(i, 0, float64(3*k)+0.1*float64(i))
		X.Set(i, 1, float64(-2*k)+0.05*float64(i%5))
		fmt.Fprintf(&csv, "%g,%g\n", X.At(i, 0), X.At(i, 1))
		fmt.Fprintln(&labels, y.Names[k])
	}
	mm, err := method.NewMulti("nearest-mean")
	if err != nil {
		t.Fatal(err)
	}
	model, err := mm.FitMulti(context.Background(), method.Data{X: X}, y, method.Extra{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	features, labelFile := filepath.Join(dir, "x.csv"), filepath.Join(dir, "y.txt")
	if err := os.WriteFile(features, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(labelFile, []byte(labels.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		scores bool
		labels string
	}{{false, ""}, {true, ""}, {false, labelFile}, {true, labelFile}} {
		c := &scoresCounter{MultiModel: model}
		var out, errOut bytes.Buffer
		s := &streams{in: strings.NewReader(""), out: &out, err: &errOut}
		o := &predictOptions{model: "m.json", scores: tc.scores}
		o.data = dataFlags{features: features, labels: tc.labels, labelSettings: &labelSettings{header: "auto"}}
		if err := runPredictMulti(s, o, c, sampleNames{}); err != nil {
			t.Fatalf("--scores %v, --labels %q: %v\n%s", tc.scores, tc.labels, err, errOut.String())
		}
		if c.scored != K*per {
			t.Errorf("--scores %v, --labels %q: %d rows scored for %d rows", tc.scores, tc.labels, c.scored, K*per)
		}
		if out.Len() == 0 {
			t.Errorf("--scores %v, --labels %q: no output", tc.scores, tc.labels)
		}
	}
}
