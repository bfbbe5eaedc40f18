package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
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
