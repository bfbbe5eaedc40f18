package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
	"gonum.org/v1/gonum/mat"
)

// TestPredictScoresReadAgainWritesNoRowTwice: predict --scores of a file
// whose row 5000 (in its third block of 2,000 rows), of 1e200s, overflows a
// nearest-neighbour model of 700 classes (its squared distances; scored in
// blocks of 1,472 rows, which do not divide 2,000) writes, before the error, the rows
// the file read whole writes, each once and in order (a prefix of the
// lines of the same file without the bad row): the file's first
// two blocks, then from the sample read again whole the rest of the rows
// up to the block that fails — skipping a block wholly written (1,472
// rows) and the written part of the block across row 4,000. The standard
// input, read once in blocks too, is not read again: it writes its first
// two blocks, each row once, and stops at the third.
func TestPredictScoresReadAgainWritesNoRowTwice(t *testing.T) {
	smallBlocks(t, 2000)
	const K, d, rows, bad = 700, 5, 6000, 5000
	train := mat.NewDense(2*K, d, nil)
	y := make([]int, 2*K)
	names := make([]string, K)
	for i := range 2 * K {
		y[i] = i % K
		for j := range d {
			train.Set(i, j, float64((i*31+j*17)%97)/10)
		}
	}
	for k := range K {
		names[k] = fmt.Sprintf("c%d", k)
	}
	mm, err := method.NewMulti("nearest-neighbour")
	if err != nil {
		t.Fatal(err)
	}
	model, err := mm.FitMulti(context.Background(), method.Data{X: train}, method.ClassLabels{Names: names, Y: y}, method.Extra{})
	if err != nil {
		t.Fatal(err)
	}
	text := func(badRow bool) string {
		var csv strings.Builder
		for i := range rows {
			for j := range d {
				if j > 0 {
					csv.WriteByte(',')
				}
				if i == bad && badRow {
					csv.WriteString("1e200")
				} else {
					fmt.Fprintf(&csv, "%g", float64((i*7+j*3)%89)/9)
				}
			}
			csv.WriteByte('\n')
		}
		return csv.String()
	}
	dir := t.TempDir()
	features, good := writeText(t, dir, "x.csv", text(true)), writeText(t, dir, "good.csv", text(false))
	predict := func(from string) (string, error) {
		var out, errOut bytes.Buffer
		s := &streams{in: strings.NewReader(text(true)), out: &out, err: &errOut}
		o := &predictOptions{model: "m.json", scores: true}
		o.data = dataFlags{features: from, labelSettings: &labelSettings{header: "auto"}}
		err := runPredictMulti(context.Background(), s, o, model, sampleNames{})
		return out.String(), err
	}
	all, err := predict(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		from        string
		want        string // the row the error names
		least, most int    // the lines written, header included
	}{
		{features, fmt.Sprintf("x.csv:%d (row %d)", bad+1, bad+1), 4001 + 1, bad + 1},
		{stdinName, fmt.Sprintf("<stdin> row %d", bad+1), 4001, 4001},
	} {
		got, err := predict(tc.from)
		want := tc.want + ": the row's score overflows float64"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("from %s: error %v, want the model's error on row %d (from 0): %q", tc.from, err, bad, want)
		}
		n := strings.Count(got, "\n")
		if n < tc.least || n > tc.most {
			t.Errorf("from %s: %d lines written, want %d to %d", tc.from, n, tc.least, tc.most)
		}
		if !strings.HasPrefix(all, got) || !strings.HasSuffix(got, "\n") {
			t.Errorf("from %s: the %d lines written are not the first lines of the scores", tc.from, n)
		}
	}
}

// failAfter is a standard output that takes n writes, then fails.
type failAfter struct {
	n, writes int
}

var errStdout = errors.New("standard output closed")

func (w *failAfter) Write(p []byte) (int, error) {
	w.writes++
	if w.writes > w.n {
		return 0, errStdout
	}
	return len(p), nil
}

// TestPredictScoresOutputFailsAfterTheHeader: predict --scores whose
// standard output fails once the header is written (with the first
// block's rows: standard output is buffered and flushed a block at a time,
// blocks of 100 rows here) fails with that error, a failure of the work
// (exit 1), not the model's error on the inputs (exit 2), and does not
// read and score the rows again (no write after the failed one), from a
// file read in blocks or from the standard input.
func TestPredictScoresOutputFailsAfterTheHeader(t *testing.T) {
	defer func(v int) { predictBlock = v }(predictBlock)
	predictBlock = 100
	model, features := streamProblem(t)
	body, err := os.ReadFile(features)
	if err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{features, stdinName} {
		w := &failAfter{n: 1}
		var errOut bytes.Buffer
		s := &streams{in: bytes.NewReader(body), out: w, err: &errOut}
		o := &predictOptions{model: "m.json", scores: true}
		o.data = dataFlags{features: from, labelSettings: &labelSettings{header: "auto"}}
		err := runPredictMulti(context.Background(), s, o, model, sampleNames{})
		if !errors.Is(err, errStdout) || exitCode(err) != 1 || w.writes != 2 {
			t.Errorf("from %s: error %v (exit %d) after %d writes; want %v, exit 1, 2 writes", from, err, exitCode(err), w.writes, errStdout)
		}
	}
}
