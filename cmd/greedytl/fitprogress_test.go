package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fit one class against the rest over 6 classes, its standard error not
// a terminal, writes progressOf's plain lines of the classes, one a class
// with the clock a minute a reading; with -q it writes none.
func TestFitOneVsRestProgressLines(t *testing.T) {
	dir := t.TempDir()
	var xs, ys strings.Builder
	for i := range 12 {
		fmt.Fprintf(&xs, "%g %g\n", float64(i*i)/7, float64(i%6)+0.1*float64(i))
		fmt.Fprintf(&ys, "c%d\n", i%6)
	}
	x, y := filepath.Join(dir, "x.txt"), filepath.Join(dir, "y.txt")
	if err := os.WriteFile(x, []byte(xs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(y, []byte(ys.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	wantProgressLines(t, "classes", func() []string {
		n++
		return []string{"fit", "--method", "no-transfer", "--features", x, "--labels", y, "--out", filepath.Join(dir, fmt.Sprintf("m%d.json", n))}
	})
}

// fit greedytl-auto (2 positives against 4 negatives: its ridge member
// and 5 committees, the whole sample's and 4 subsamples', each weighed by
// its estimated cost in units of work) and greedytl-nway (3 classes of 5
// examples without sources: one member, 5 folds of its choice of C and
// its final fit: 6 units) write progressOf's plain lines of their 6 pieces
// of work on standard error, one a piece with the clock a minute a
// reading, none with -q; with the model on standard output (--out -) the
// lines stay on standard error and the model is the same file as with -q.
func TestFitProgressLinesAutoNWay(t *testing.T) {
	dir := t.TempDir()
	var xs, ys, cs strings.Builder
	for i := range 15 {
		fmt.Fprintf(&xs, "%g %g %g\n", float64(i*i%7), float64(i%5)+0.1*float64(i), float64(i%3)-0.05*float64(i))
		fmt.Fprintf(&cs, "c%d\n", i%3)
		if i < 6 {
			fmt.Fprintf(&ys, "%d\n", map[bool]int{true: 1, false: -1}[i < 2])
		}
	}
	x, y, c := filepath.Join(dir, "x.txt"), filepath.Join(dir, "y.txt"), filepath.Join(dir, "c.txt")
	var x6 strings.Builder
	for _, l := range strings.SplitN(xs.String(), "\n", 7)[:6] {
		x6.WriteString(l + "\n")
	}
	x6p := filepath.Join(dir, "x6.txt")
	for p, text := range map[string]string{x: xs.String(), y: ys.String(), c: cs.String(), x6p: x6.String()} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		method string
		args   []string
	}{
		{"greedytl-auto", []string{"--features", x6p, "--labels", y, "--positive", "1"}},
		{"greedytl-nway", []string{"--features", x, "--labels", c}},
	} {
		n := 0
		args := func() []string {
			n++
			return append([]string{"fit", "--method", tc.method, "--out", filepath.Join(dir, fmt.Sprintf("m%d.json", n))}, tc.args...)
		}
		total := "6"
		if tc.method == "greedytl-auto" {
			total = wantWeightedProgressLines(t, "fitting "+tc.method, 6, args)
		} else {
			wantProgressLines(t, "fitting "+tc.method, args)
		}
		clock := time.Unix(0, 0)
		progressClock = func() time.Time { clock = clock.Add(time.Minute); return clock }
		code, stdout, stderr := cli(t, "", append([]string{"fit", "--method", tc.method, "--out", "-"}, tc.args...)...)
		progressClock = time.Now
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.method, code, stderr)
		}
		if !strings.Contains(stderr, "fitting "+tc.method+": "+total+" of "+total+" done (100%)") {
			t.Errorf("%s --out -: no progress line on standard error:\n%s", tc.method, stderr)
		}
		code, quiet, stderr := cli(t, "", append([]string{"fit", "--method", tc.method, "--out", "-", "-q"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.method, code, stderr)
		}
		if stdout != quiet || strings.Contains(stdout, " done (") {
			t.Errorf("%s --out -: standard output with progress differs from the one with -q:\n%s\nwant\n%s", tc.method, stdout, quiet)
		}
	}
}

// wantWeightedProgressLines checks that the command of args writes, with
// the clock a minute a reading, pieces lines of progressOf's on standard
// error — what: done of total done (p%), k minutes — done increasing to
// total, the same total in each, p the floor of done/total, k = 1, 2, …
// (units of work weighed by cost: a line may count several), and none
// with -q. It returns the total.
func wantWeightedProgressLines(t *testing.T, what string, pieces int, args func() []string) string {
	t.Helper()
	clock := time.Unix(0, 0)
	progressClock = func() time.Time { clock = clock.Add(time.Minute); return clock }
	t.Cleanup(func() { progressClock = time.Now })
	line := regexp.MustCompile(`^` + what + `: (\d+) of (\d+) done \((\d+)%\), (\d+)m0s$`)
	total := ""
	for _, quiet := range []bool{false, true} {
		args := args()
		if quiet {
			args = append(args, "-q")
		}
		code, _, stderr := cli(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		var lines [][]int
		for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if m := line.FindStringSubmatch(l); m != nil {
				var v []int
				for _, f := range m[1:] {
					x, _ := strconv.Atoi(f)
					v = append(v, x)
				}
				lines = append(lines, v)
			}
		}
		if quiet {
			if len(lines) != 0 {
				t.Errorf("%q: %d progress lines, want none; stderr:\n%s", args, len(lines), stderr)
			}
			continue
		}
		if len(lines) != pieces {
			t.Fatalf("%q: %d progress lines, want %d; stderr:\n%s", args, len(lines), pieces, stderr)
		}
		for i, v := range lines {
			done, of, pct, minutes := v[0], v[1], v[2], v[3]
			if of != lines[0][1] || done > of || (i > 0 && done <= lines[i-1][0]) || pct != 100*done/of || minutes != i+1 {
				t.Errorf("%q: progress line %d %v does not follow %v; stderr:\n%s", args, i+1, v, lines[max(i-1, 0)], stderr)
			}
		}
		if last := lines[pieces-1]; last[0] != last[1] {
			t.Errorf("%q: progress ends at %d of %d", args, last[0], last[1])
		}
		total = strconv.Itoa(lines[0][1])
	}
	return total
}
