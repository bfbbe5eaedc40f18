package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
)

// TestBinaryPredictStopsBeforeTheNextBlock: a binary predict of a file
// read in blocks of 3 rows, its context already done, stops before the
// first block: the interruption, not the reader's error on a bad line in a
// later block (which it reached when it read on past the stop, to be
// interrupted only at the end).
func TestBinaryPredictStopsBeforeTheNextBlock(t *testing.T) {
	smallBlocks(t, 3)
	dir, model, Xcsv := blockModel(t, 20, "greedytl", false)
	bad, _ := withLine(t, dir, "bad.csv", Xcsv, 15, "1,x,3,4,5")
	if code, _, stderr := cli(t, "", "predict", model, "--features", bad); code != 2 || !strings.Contains(stderr, "bad.csv") {
		t.Fatalf("the bad line: exit %d, %s; want the reader's error", code, stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	s := &streams{in: strings.NewReader(""), out: &out, err: &errOut}
	o := &predictOptions{model: model}
	o.data = dataFlags{features: bad, labelSettings: &labelSettings{header: "auto"}}
	err := runPredict(ctx, s, o)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") || out.Len() != 0 {
		t.Errorf("error %v, %d bytes written; want the interruption, nothing", err, out.Len())
	}
}

// countingBinaryModel counts the rows it is asked to score and cancels its
// context as it scores them.
type countingBinaryModel struct {
	method.Model
	cancel context.CancelFunc
	rows   *int
}

func (c countingBinaryModel) Predict(d method.Data) ([]float64, error) {
	*c.rows += d.Rows()
	c.cancel()
	return c.Model.Predict(d)
}

// TestBinaryPredictReadWholeStopsAtTheNextBlock: a binary model that
// scores each row alone, given a sample read whole (the standard input),
// stops once its context is done at the next block of rows, as it does
// reading a file in blocks: here the context is cancelled as the first
// block (3 rows) is scored, and no other row is scored. It scored every
// row in one pass, the stop held until the pass ended.
func TestBinaryPredictReadWholeStopsAtTheNextBlock(t *testing.T) {
	smallBlocks(t, 3)
	_, model, Xcsv := blockModel(t, 20, "greedytl", false)
	body, err := os.ReadFile(Xcsv)
	if err != nil {
		t.Fatal(err)
	}
	r, closeModel, err := openModel(nil, model)
	if err != nil {
		t.Fatal(err)
	}
	defer closeModel()
	head, err := modelHead(model, r)
	if err != nil {
		t.Fatal(err)
	}
	f, err := readAnyModel(model, r, head)
	if err != nil || f.Model == nil || !method.RowByRow(f.Model) {
		t.Fatalf("%v: not a binary model scored row by row (%v)", model, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	scored := 0
	var out, errOut bytes.Buffer
	s := &streams{in: bytes.NewReader(body), out: &out, err: &errOut}
	o := &predictOptions{model: model}
	o.data = dataFlags{features: stdinName, labelSettings: &labelSettings{header: "auto"}}
	scores, _, err := o.predictBinary(ctx, s, countingBinaryModel{f.Model, cancel, &scored}, true, modelColumnNames(f.Info))
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") || scores != nil || scored > 3 {
		t.Errorf("error %v, %d scores, %d of 20 rows scored; want the interruption after the first block of 3 rows", err, len(scores), scored)
	}
}
