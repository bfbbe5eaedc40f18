package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/source"
)

// blockSample writes a features-only sample: 40 training rows as .npy, with
// two-class (±1) and three-class labels, and m test rows, with such labels,
// as .npy and as CSV with a header (both read in blocks).
func blockSample(t *testing.T, m int) (dir, X, y2, y3, Xt, Xcsv, yt2, yt3 string) {
	t.Helper()
	dir = t.TempDir()
	rng := rand.New(rand.NewPCG(22, 7))
	sample := func(n int) (*mat.Dense, []string, []string) {
		A := mat.NewDense(n, 5, nil)
		two, three := make([]string, n), make([]string, n)
		for i := range n {
			for j := range 5 {
				A.Set(i, j, rng.NormFloat64())
			}
			two[i], three[i] = "-1", "c"
			if A.At(i, 0)+0.5*rng.NormFloat64() > 0 {
				two[i], three[i] = "1", "a"
			} else if A.At(i, 1) > 0 {
				three[i] = "b"
			}
		}
		return A, two, three
	}
	A, two, three := sample(40)
	T, tt, t3 := sample(m)
	var csv strings.Builder
	csv.WriteString("f1,f2,f3,f4,f5\n")
	for i := range m {
		for j := range 5 {
			if j > 0 {
				csv.WriteByte(',')
			}
			csv.WriteString(strconv.FormatFloat(T.At(i, j), 'g', -1, 64))
		}
		csv.WriteByte('\n')
	}
	return dir, writeNPY(t, dir, "X.npy", A),
		writeText(t, dir, "y2.txt", strings.Join(two, "\n")+"\n"),
		writeText(t, dir, "y3.txt", strings.Join(three, "\n")+"\n"),
		writeNPY(t, dir, "Xt.npy", T), writeText(t, dir, "Xt.csv", csv.String()),
		writeText(t, dir, "yt2.txt", strings.Join(tt, "\n")+"\n"),
		writeText(t, dir, "yt3.txt", strings.Join(t3, "\n")+"\n")
}

// smallBlocks sets predictBlock to n for the test.
func smallBlocks(t *testing.T, n int) {
	old := predictBlock
	predictBlock = n
	t.Cleanup(func() { predictBlock = old })
}

// blockModel fits method ("": the default) on blockSample's 40 training
// rows, with its three-class labels when three, else ±1, and returns the
// directory, the model file and the CSV of the m test rows.
func blockModel(t *testing.T, m int, method string, three bool) (dir, model, Xcsv string) {
	t.Helper()
	dir, X, y2, y3, _, Xcsv, _, _ := blockSample(t, m)
	args := []string{"fit", "--features", X, "--labels", y2}
	if three {
		args[4] = y3
	}
	if method != "" {
		args = append(args, "--method", method)
	}
	model = filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", append(args, "--out", model)...); code != 0 {
		t.Fatal(stderr)
	}
	return dir, model, Xcsv
}

// withLine writes to dir/name the text of the file path with its line i
// (0: the first) replaced by line, and returns its path and text.
func withLine(t *testing.T, dir, name, path string, i int, line string) (string, string) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	lines[i] = line
	joined := strings.Join(lines, "\n")
	return writeText(t, dir, name, joined), joined
}

// TestPredictInBlocksSameScores checks that predict scoring a CSV of
// features in blocks (of 3 rows: 17 blocks) prints what it prints for the
// same CSV read whole from standard input and scored in one block (it
// compared with the .npy of the rows, which is read in blocks too now),
// for every method that fits on features alone, binary and three-class,
// scores, classes and evaluation.
func TestPredictInBlocksSameScores(t *testing.T) {
	smallBlocks(t, 3)
	dir, X, y2, y3, _, Xcsv, yt2, yt3 := blockSample(t, 50)
	csvText, err := os.ReadFile(Xcsv)
	if err != nil {
		t.Fatal(err)
	}
	fitted := 0
	for _, k := range []string{"2", "3"} {
		y, yt := y2, yt2
		methods := []string{"greedytl", "greedytl-59", "greedytl-sp", "greedytl-auto", "forward-reg", "no-transfer", "rls-srcfeat", "multikt-l2", "l1-logistic", "elastic-net", "dictionary", "stacked-logistic"}
		if k == "3" {
			y, yt = y3, yt3
			methods = append(methods, "greedytl-nway", "multinomial-logistic", "nearest-mean", "simpleshot", "nearest-neighbour")
		}
		for _, m := range methods {
			model := filepath.Join(dir, m+k+".json")
			if code, _, stderr := cli(t, "", "fit", "--method", m, "--features", X, "--labels", y, "--seed", "3", "--out", model); code != 0 {
				t.Logf("%s, %s classes: not fitted on features alone: %s", m, k, stderr)
				continue
			}
			fitted++
			for _, extra := range [][]string{nil, {"--labels", yt}, {"--scores"}} {
				if k == "2" && len(extra) > 0 && extra[0] == "--scores" {
					continue
				}
				run := func(stdin, features string, block int) string {
					predictBlock = block
					args := append([]string{"predict", model, "--features", features}, extra...)
					code, stdout, stderr := cli(t, stdin, args...)
					if code != 0 {
						t.Fatalf("%s %v: exit %d: %s", m, extra, code, stderr)
					}
					return fmt.Sprintf("%s\n--\n%s", stdout, strings.ReplaceAll(strings.ReplaceAll(stderr, features, "X"), "<stdin>", "X"))
				}
				whole, blocks := run(string(csvText), "-", 1<<20), run("", Xcsv, 3)
				if whole != blocks {
					t.Errorf("%s, %s classes, %v: in blocks\n%s\nwant, read whole,\n%s", m, k, extra, blocks, whole)
				}
			}
		}
	}
	if fitted < 15 {
		t.Errorf("%d models fitted on features alone, want at least 15", fitted)
	}
}

// TestPredictBadRowAfterFirstBlock checks that a bad line after the first
// block (rows already scored) fails predict with the reader's error naming
// the file and line, prints no scores and writes no --out file.
func TestPredictBadRowAfterFirstBlock(t *testing.T) {
	smallBlocks(t, 4)
	dir, model, Xcsv := blockModel(t, 20, "", false)
	bad, _ := withLine(t, dir, "bad.csv", Xcsv, 14, "1,2,nan,4,5") // line 15: the 14th row, in the fourth block
	_, want := dataset.ReadMatrix(bad)
	if want == nil || !strings.Contains(want.Error(), "bad.csv:15:") {
		t.Fatalf("the reader's error: %v, want one naming bad.csv:15", want)
	}
	code, stdout, stderr := cli(t, "", "predict", model, "--features", bad)
	if code != 2 || stdout != "" || !strings.Contains(stderr, want.Error()) {
		t.Errorf("to standard output: exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, want)
	}
	out := filepath.Join(dir, "scores.txt")
	code, stdout, stderr = cli(t, "", "predict", model, "--features", bad, "--out", out)
	if _, err := os.Stat(out); code != 2 || stdout != "" || !os.IsNotExist(err) || !strings.Contains(stderr, want.Error()) {
		t.Errorf("--out: exit %d, stdout %q, stderr %q, %s: %v; want 2, nothing, %q, no file", code, stdout, stderr, out, err, want)
	}
}

// TestPredictModelErrorInLaterBlock checks that a model's error on a block
// after the first (a row of 1e308 whose class score is +Inf, the
// 10000th row, in the 157th block of 64) is the error it gives on the file
// read whole: the file's row, not the block's, and no scores.
func TestPredictModelErrorInLaterBlock(t *testing.T) {
	const rows = 20000
	dir, model, Xcsv := blockModel(t, rows, "multinomial-logistic", true)
	inf, _ := withLine(t, dir, "inf.csv", Xcsv, 10000, "1e308,1e308,1e308,1e308,1e308") // after the header: the 10000th row
	run := func(block int) (int, string, string) {
		smallBlocks(t, block)
		return cli(t, "", "predict", model, "--features", inf)
	}
	code, stdout, whole := run(rows + 1)
	if code != 2 || stdout != "" || !strings.Contains(whole, "inf.csv:10001 (row 10000): the row's score overflows float64") {
		t.Fatalf("read whole: exit %d, stdout %d bytes, stderr %q; want 2, nothing, the 10000th row's error", code, len(stdout), whole)
	}
	if code, stdout, stderr := run(64); code != 2 || stdout != "" || stderr != whole {
		t.Errorf("in blocks of 64: exit %d, stdout %d bytes, stderr %q; want 2, nothing, %q", code, len(stdout), stderr, whole)
	}
}

// TestPredictBlocksOnlyFeaturesAlone checks that predict reads the sample
// whole, not in blocks of the features alone, when it is more than a file
// of features: with --source-scores (of other rows) and --sources (a
// directory that is not one), which fail though the model needs neither,
// and with the features on the command's standard input ("-", beside a
// file named "-", which os.Stat finds).
func TestPredictBlocksOnlyFeaturesAlone(t *testing.T) {
	smallBlocks(t, 4)
	dir, model, Xcsv := blockModel(t, 20, "", false)
	one := writeText(t, dir, "one.csv", "0.5\n")
	for _, tc := range []struct {
		name, want string
		args       []string
	}{
		{"--source-scores", "Xt.csv has 20 rows but " + one + " has 1", []string{"--source-scores", one}},
		{"--sources", "sources directory " + filepath.Join(dir, "none"), []string{"--sources", filepath.Join(dir, "none")}},
	} {
		args := append([]string{"predict", model, "--features", Xcsv}, tc.args...)
		if code, stdout, stderr := cli(t, "", args...); code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2, nothing, %q", tc.name, code, stdout, stderr, tc.want)
		}
	}
	code, want, stderr := cli(t, "", "predict", model, "--features", Xcsv)
	if code != 0 || strings.Count(want, "\n") != 20 {
		t.Fatalf("from the file: exit %d, %q: %s", code, want, stderr)
	}
	text, err := os.ReadFile(Xcsv)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	writeText(t, dir, "-", "1,2,3,4,5\n")
	if code, stdout, stderr := cli(t, string(text), "predict", model, "--features", "-"); code != 0 || stdout != want {
		t.Errorf("from standard input, beside a file named -: exit %d, stdout %q, stderr %q; want 0, %q", code, stdout, stderr, want)
	}
}

// TestPredictStdinSourcesErrorInLaterBlock checks that predict --sources
// of --features read once from the standard input, in blocks of 8 rows,
// names the row of a source score that overflows (a row of ±1.7e308s, row
// 20 of the input, the fifth of its third block) as the input's row, "row
// 20 (from 0)", not the block's ("row 4" of the block from row 16): the
// same message as the same rows in a file give (read again whole after
// the block failed), but for the input's name, which both give as
// messages name it (the standard input <stdin>, not "-").
func TestPredictStdinSourcesErrorInLaterBlock(t *testing.T) {
	smallBlocks(t, 8)
	st := newSourcesToy(t)
	// The sources' weights times 1000 (their SHA-256 updated where the
	// directory records it), so that a row of finite features can make a
	// score overflow.
	models, err := filepath.Glob(filepath.Join(st.A, "models", "*.model"))
	if err != nil || len(models) == 0 {
		t.Fatalf("no source models in %s: %v", st.A, err)
	}
	for _, path := range models {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(text), "\n")
		w := slices.Index(lines, "w")
		for i := w + 1; w >= 0 && i < len(lines); i++ {
			if v, err := strconv.ParseFloat(strings.TrimSpace(lines[i]), 64); err == nil {
				lines[i] = strconv.FormatFloat(1000*v, 'g', -1, 64) + " "
			}
		}
		scaled := strings.Join(lines, "\n")
		if err := os.WriteFile(path, []byte(scaled), 0o644); err != nil {
			t.Fatal(err)
		}
		old, now := sha256.Sum256(text), sha256.Sum256([]byte(scaled))
		for _, info := range []string{strings.TrimSuffix(path, ".model") + ".json", filepath.Join(st.A, source.IndexFile)} {
			meta, err := os.ReadFile(info)
			if err == nil {
				meta = bytes.ReplaceAll(meta, []byte(hex.EncodeToString(old[:])), []byte(hex.EncodeToString(now[:])))
				err = os.WriteFile(info, meta, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	model := filepath.Join(st.dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--features", st.X, "--sources", st.A, "--labels", st.y, "--positive", "cat", "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	// The signs of a row of ±1.7e308s whose score by some source
	// overflows: the first of the 256 that the sources refuse.
	set, err := source.LoadDir(st.A)
	if err != nil {
		t.Fatal(err)
	}
	huge := -1
	for p := range 256 {
		row := make([]float64, 8)
		for j := range row {
			row[j] = 1.7e308 * float64(1-2*(p>>j&1))
		}
		if _, err := set.Scores(mat.NewDense(1, 8, row)); err != nil {
			huge = p
			break
		}
	}
	if huge < 0 {
		t.Fatal("no row of ±1.7e308s makes a source's score overflow")
	}
	var csv strings.Builder
	for i := range 30 {
		for j := range 8 {
			if j > 0 {
				csv.WriteByte(',')
			}
			v := float64((i*5+j*3)%11)/4 - 1
			if i == 20 {
				v = 1.7e308 * float64(1-2*(huge>>j&1))
			}
			fmt.Fprintf(&csv, "%g", v)
		}
		csv.WriteByte('\n')
	}
	file := writeText(t, st.dir, "x.csv", csv.String())
	code, stdout, fromFile := cli(t, "", "predict", model, "--features", file, "--sources", st.A)
	if code != exitInput || stdout != "" || !strings.Contains(fromFile, "score of row 20 (from 0) ") {
		t.Fatalf("from the file: exit %d, stdout %q, stderr %q; want %d, nothing, the sources' error on row 20", code, stdout, fromFile, exitInput)
	}
	code, stdout, fromStdin := cli(t, csv.String(), "predict", model, "--features", "-", "--sources", st.A)
	want := strings.ReplaceAll(fromFile, file, "<stdin>")
	if code != exitInput || stdout != "" || fromStdin != want {
		t.Errorf("from the standard input: exit %d, stdout %q, stderr %q; want %d, nothing, %q", code, stdout, fromStdin, exitInput, want)
	}
}
