package main

import (
	"strings"
	"testing"
)

// TestPredictModelErrorInLaterBlockEveryWay extends
// TestPredictModelErrorInLaterBlock to --scores (which writes each block
// as it is scored, then reads the file again whole) and to the rows read
// from the standard input: the error of a row of 1e308 in a later block
// is the file's row's, the one predict gives reading the file whole
// without --scores (with the input named as the standard input).
func TestPredictModelErrorInLaterBlockEveryWay(t *testing.T) {
	const rows = 20000
	dir, model, Xcsv := blockModel(t, rows, "multinomial-logistic", true)
	inf, text := withLine(t, dir, "inf.csv", Xcsv, 10000, "1e308,1e308,1e308,1e308,1e308")
	smallBlocks(t, rows+1)
	code, _, want := cli(t, "", "predict", model, "--features", inf)
	if code != 2 || !strings.Contains(want, "inf.csv:10001 (row 10000): the row's score overflows float64") {
		t.Fatalf("read whole: exit %d, stderr %q; want 2, the 10000th row's error", code, want)
	}
	// The standard input, read once, names the row without its line.
	stdinWant := strings.Replace(want, inf+":10001 (row 10000)", "<stdin> row 10000", 1)
	for _, c := range []struct {
		name, stdin, want string
		block             int
		args              []string
	}{
		{"--scores, whole", "", want, rows + 1, []string{"--features", inf, "--scores"}},
		{"--scores, in blocks of 64", "", want, 64, []string{"--features", inf, "--scores"}},
		{"standard input", text, stdinWant, 64, []string{"--features", "-"}},
		{"standard input, --scores", text, stdinWant, 64, []string{"--features", "-", "--scores"}},
	} {
		smallBlocks(t, c.block)
		code, _, stderr := cli(t, c.stdin, append([]string{"predict", model}, c.args...)...)
		if code != 2 || stderr != c.want {
			t.Errorf("%s: exit %d, stderr %q; want 2, %q", c.name, code, stderr, c.want)
		}
	}
}
