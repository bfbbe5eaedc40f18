//go:build unix

package main

import (
	"strings"
	"testing"
)

// TestPredictFIFOReadOnce checks that predict reads features from a FIFO
// once, in blocks: its model error (a row of 1e308 whose class score is
// +Inf, in the fourth block of 8) is the one the same text in a regular
// file gives, its row counted in the file, but for the row's line, which
// a FIFO read once is not read again to find. The model's error had the
// FIFO read again whole, and found it empty (a writer that opens it once
// more and writes nothing).
func TestPredictFIFOReadOnce(t *testing.T) {
	smallBlocks(t, 8)
	dir, model, Xcsv := blockModel(t, 50, "multinomial-logistic", true)
	file, content := withLine(t, dir, "inf.csv", Xcsv, 30, "1e308,1e308,1e308,1e308,1e308")
	code, _, want := cli(t, "", "predict", model, "--features", file)
	if code != 2 || !strings.Contains(want, "inf.csv:31 (row 30): the row's score overflows float64") {
		t.Fatalf("from a file: exit %d, stderr %q; want 2, the 30th row's error", code, want)
	}
	fifo, stop := fifoOnce(t, dir, content)
	code, stdout, stderr := cli(t, "", "predict", model, "--features", fifo)
	stop()
	// The FIFO, read once, is not read again for the row's line.
	want = strings.Replace(want, file+":31 (row 30)", file+" row 30", 1)
	if stderr = strings.ReplaceAll(stderr, fifo, file); code != 2 || stdout != "" || stderr != want {
		t.Errorf("from a FIFO: exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, want)
	}
}
