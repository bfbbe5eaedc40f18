package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// lockstepSample writes a sample of features (5 columns) and source
// scores (3 columns): 40 training rows as .npy with ±1 and three-class
// labels, and m test rows as .npy and as CSV (X with a header of names, H
// under pandas' range header 0,1,2, which makes its first block one row
// short of X's), with ±1 labels.
func lockstepSample(t *testing.T, m int) (dir string, files map[string]string) {
	t.Helper()
	dir = t.TempDir()
	rng := rand.New(rand.NewPCG(23, 8))
	sample := func(n, c int) *mat.Dense {
		A := mat.NewDense(n, c, nil)
		for i := range n {
			for j := range c {
				A.Set(i, j, rng.NormFloat64())
			}
		}
		return A
	}
	labels := func(X, H *mat.Dense) (two, three []string) {
		n, _ := X.Dims()
		two, three = make([]string, n), make([]string, n)
		for i := range n {
			two[i], three[i] = "-1", "c"
			if X.At(i, 0)+H.At(i, 1)+0.3*rng.NormFloat64() > 0 {
				two[i], three[i] = "1", "a"
			} else if H.At(i, 2) > 0 {
				three[i] = "b"
			}
		}
		return two, three
	}
	csv := func(A *mat.Dense, header string) string {
		var b strings.Builder
		b.WriteString(header + "\n")
		r, c := A.Dims()
		for i := range r {
			for j := range c {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.FormatFloat(A.At(i, j), 'g', -1, 64))
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	X, H := sample(40, 5), sample(40, 3)
	two, three := labels(X, H)
	Xt, Ht := sample(m, 5), sample(m, 3)
	tt, _ := labels(Xt, Ht)
	files = map[string]string{
		"X": writeNPY(t, dir, "X.npy", X), "H": writeNPY(t, dir, "H.npy", H),
		"y2":     writeText(t, dir, "y2.txt", strings.Join(two, "\n")+"\n"),
		"y3":     writeText(t, dir, "y3.txt", strings.Join(three, "\n")+"\n"),
		"Xt.npy": writeNPY(t, dir, "Xt.npy", Xt), "Ht.npy": writeNPY(t, dir, "Ht.npy", Ht),
		"Xt.csv": writeText(t, dir, "Xt.csv", csv(Xt, "f1,f2,f3,f4,f5")),
		"Ht.csv": writeText(t, dir, "Ht.csv", csv(Ht, "0,1,2")),
		"yt2":    writeText(t, dir, "yt2.txt", strings.Join(tt, "\n")+"\n"),
	}
	return dir, files
}

// TestPredictSourceScoresInBlocks checks that predict scoring --features
// and --source-scores files in blocks, in lockstep (of 3 rows; H's CSV
// block rows one short of X's), or --source-scores alone, prints what it
// prints for the same files with H read whole from standard input, for
// binary and three-class models, with and without --labels and --scores.
func TestPredictSourceScoresInBlocks(t *testing.T) {
	smallBlocks(t, 3)
	dir, f := lockstepSample(t, 31)
	for _, tc := range []struct {
		method, labels string
		features       bool
	}{
		{"greedytl", f["y2"], true},
		{"greedytl", f["y2"], false},
		{"greedytl-auto", f["y2"], true},
		{"greedytl-nway", f["y3"], true},
		{"multinomial-logistic", f["y3"], true},
	} {
		model := filepath.Join(dir, fmt.Sprintf("%s-%v.json", tc.method, tc.features))
		args := []string{"fit", "--method", tc.method, "--source-scores", f["H"], "--labels", tc.labels, "--seed", "3", "--out", model}
		if tc.features {
			args = append(args, "--features", f["X"])
		}
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("%s: %s", tc.method, stderr)
		}
		extras := [][]string{nil}
		if tc.labels == f["y2"] {
			extras = append(extras, []string{"--labels", f["yt2"]})
		} else {
			extras = append(extras, []string{"--scores"})
		}
		for _, form := range []string{".npy", ".csv"} {
			for _, extra := range extras {
				run := func(stdin, H string) string {
					args := []string{"predict", model, "--source-scores", H}
					if tc.features {
						args = append(args, "--features", f["Xt"+form])
					}
					code, stdout, stderr := cli(t, stdin, append(args, extra...)...)
					if code != 0 {
						t.Fatalf("%s %s %v: exit %d: %s", tc.method, form, extra, code, stderr)
					}
					// H's name, its path or <stdin> (a note names it): "H".
					return stdout + "\n--\n" + strings.NewReplacer("<stdin>", "H", f["Ht"+form], "H").Replace(stderr)
				}
				text, err := os.ReadFile(f["Ht"+form])
				if err != nil {
					t.Fatal(err)
				}
				if blocks, whole := run("", f["Ht"+form]), run(string(text), "-"); blocks != whole {
					t.Errorf("%s, features %v, %s, %v: in blocks\n%s\nwant, read whole,\n%s", tc.method, tc.features, form, extra, blocks, whole)
				}
			}
		}
	}
}

// TestPredictSourceScoresErrorsInBlocks checks that predict reading
// --features and --source-scores in lockstep refuses what it refused
// reading them whole, with the same message: H of fewer or more rows
// than X (found after blocks were scored), a bad line of H after the
// first block, and a bad line of X after H has run out, which is X's
// error, as X is read first.
func TestPredictSourceScoresErrorsInBlocks(t *testing.T) {
	smallBlocks(t, 4)
	dir, f := lockstepSample(t, 20)
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := cli(t, "", "fit", "--features", f["X"], "--source-scores", f["H"], "--labels", f["y2"], "--out", model); code != 0 {
		t.Fatal(stderr)
	}
	lines := func(path string, keep int, bad map[int]string) string {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ls := strings.SplitAfter(string(text), "\n")
		ls = ls[:min(keep, len(ls))]
		for i, l := range bad {
			ls[i] = l + "\n"
		}
		return strings.Join(ls, "")
	}
	Hcsv, Xcsv := f["Ht.csv"], f["Xt.csv"]
	more := writeText(t, dir, "more.csv", lines(Hcsv, 22, nil)+"1,2,3\n1,2,3\n")
	for _, tc := range []struct {
		name, X, H string
	}{
		{"fewer", Xcsv, writeText(t, dir, "fewer.csv", lines(Hcsv, 12, nil))},
		{"more", Xcsv, more},
		{"bad H", Xcsv, writeText(t, dir, "badH.csv", lines(Hcsv, 22, map[int]string{15: "1,x,3"}))},
		{"bad X after H ran out", writeText(t, dir, "badX.csv", lines(Xcsv, 22, map[int]string{18: "1,2,3,4,y"})), writeText(t, dir, "short.csv", lines(Hcsv, 6, nil))},
	} {
		run := func(stdin, H string) (int, string, string) {
			return cli(t, stdin, "predict", model, "--features", tc.X, "--source-scores", H)
		}
		text, err := os.ReadFile(tc.H)
		if err != nil {
			t.Fatal(err)
		}
		wcode, _, want := run(string(text), "-")
		want = strings.ReplaceAll(want, "<stdin>", tc.H)
		if wcode != 2 {
			t.Fatalf("%s, read whole: exit %d: %s", tc.name, wcode, want)
		}
		if code, stdout, stderr := run("", tc.H); code != 2 || stdout != "" || stderr != want {
			t.Errorf("%s: in blocks: exit %d, stdout %q, stderr %q; want 2, nothing, %q", tc.name, code, stdout, stderr, want)
		}
	}
}
