package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFitScaleOverflowSaysWhatToDo: a feature of values near ±MaxFloat64
// that separates the labels, which greedytl-auto's GreedyTL member of
// γ = 0.5 selects and cannot scale (its standard deviation over γ
// overflows), is refused naming the --features file's column, its
// magnitude and to rescale it — not the Go API's FeatureFactor, nor
// "raise γ", which greedytl-auto (its members' γ are its own) does not
// let the user set; greedytl of γ = 0.5, which takes --gamma, is told to
// raise it too.
func TestFitScaleOverflowSaysWhatToDo(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	var xs, hs, ys strings.Builder
	for i := range 20 {
		y := []int{1, -1}[i%2]
		fmt.Fprintf(&xs, "%v,%v,%v\n", rng.NormFloat64(), float64(y)*0.9e308, rng.NormFloat64())
		fmt.Fprintf(&hs, "%v,%v\n", rng.NormFloat64(), rng.NormFloat64())
		fmt.Fprintf(&ys, "%d\n", y)
	}
	dir := t.TempDir()
	X := writeText(t, dir, "big.csv", xs.String())
	H := writeText(t, dir, "h.csv", hs.String())
	y := writeText(t, dir, "y.txt", ys.String())
	code, _, stderr := cli(t, "", "fit", "--features", X, "--source-scores", H, "--labels", y, "--out", dir+"/m.json")
	want := "column 1 of " + X + " holds values of magnitude up to 9e+307: too large for greedytl-auto, which divides a feature's standard deviation by γ = 0.5, overflowing float64: rescale that column (divide it by a power of ten, 1e307 say)"
	if code != exitInput || !strings.Contains(stderr, want) || strings.Contains(stderr, "FeatureFactor") || strings.Contains(stderr, "raise") {
		t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, exitInput, want)
	}
	code, _, stderr = cli(t, "", "fit", "--method", "greedytl", "--gamma", "0.5", "--features", X, "--source-scores", H, "--labels", y, "--out", dir+"/m.json")
	want = "column 1 of " + X + " holds values of magnitude up to 9e+307: too large for greedytl:gamma=0.5, which divides a feature's standard deviation by γ = 0.5, overflowing float64: rescale that column (divide it by a power of ten, 1e307 say), or raise --gamma\n"
	if code != exitInput || !strings.HasSuffix(stderr, want) {
		t.Errorf("greedytl --gamma 0.5: exit %d, stderr %q; want exit %d and %q", code, stderr, exitInput, want)
	}
}
