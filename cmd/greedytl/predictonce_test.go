package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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
		if err := runPredictMulti(context.Background(), s, o, c, sampleNames{}); err != nil {
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

// TestPredictMultiHoldsABlockOfScores: predict without --scores of 8,000
// rows by a nearest-mean model of 1,000 classes allocates less than a
// quarter of the rows × classes scores (64 MB): Predict scores a block of
// rows at a time. It computed Scores whole for their argmax (1.6 GB for
// 20,000 rows of 10,000 classes).
func TestPredictMultiHoldsABlockOfScores(t *testing.T) {
	const K, per, d = 1000, 8, 2
	m := K * per
	X := mat.NewDense(m, d, nil)
	y := method.ClassLabels{Names: make([]string, K), Y: make([]int, m)}
	var csv strings.Builder
	for k := range K {
		y.Names[k] = fmt.Sprint("c", k)
	}
	for i := range m {
		k := i % K
		y.Y[i] = k
		X.Set(i, 0, float64(k)+0.01*float64(i/K))
		X.Set(i, 1, float64(k%7)-0.02*float64(i/K))
		fmt.Fprintf(&csv, "%g,%g\n", X.At(i, 0), X.At(i, 1))
	}
	mm, err := method.NewMulti("nearest-mean")
	if err != nil {
		t.Fatal(err)
	}
	model, err := mm.FitMulti(context.Background(), method.Data{X: X}, y, method.Extra{})
	if err != nil {
		t.Fatal(err)
	}
	features := filepath.Join(t.TempDir(), "x.csv")
	if err := os.WriteFile(features, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	s := &streams{in: strings.NewReader(""), out: &out, err: &errOut}
	o := &predictOptions{model: "m.json"}
	o.data = dataFlags{features: features, labelSettings: &labelSettings{header: "auto"}}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err = runPredictMulti(context.Background(), s, o, model, sampleNames{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if lines := strings.Count(out.String(), "\n"); lines != m {
		t.Fatalf("%d lines of predictions, want %d", lines, m)
	}
	if got, whole := after.TotalAlloc-before.TotalAlloc, uint64(m*K*8); got > whole/4 {
		t.Errorf("predict of %d rows of %d classes allocated %d bytes; the whole scores are %d", m, K, got, whole)
	}
}
