package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFitWarnsWideRange: greedytl-auto on features one value of which is
// 1e30 (a "cat" row: the subsamples leave out cats, so one of them leaves
// it out) leaves that subsample's committee out of its mean and warns,
// code "wide-range", naming the column by index and by the header's name,
// on stderr and in --json, and writes the model; without the outlier it
// does not warn.
func TestFitWarnsWideRange(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(20, 20))
	var labels strings.Builder
	rows := make([][3]float64, 10)
	for i := range rows {
		sign := float64(2*(i%2) - 1) // dog +1, cat −1
		fmt.Fprintln(&labels, []string{"cat", "dog"}[i%2])
		rows[i] = [3]float64{sign + rng.NormFloat64(), 5 + rng.NormFloat64(), sign + rng.NormFloat64()}
	}
	y := writeText(t, dir, "y.txt", labels.String())
	features := func(name string, big float64, c4 float64) string {
		var b strings.Builder
		b.WriteString("a,big,c\n")
		for i, r := range rows {
			if i == 2 {
				r[1] = big
			}
			if i == 4 && c4 != 0 {
				r[2] = c4
			}
			fmt.Fprintf(&b, "%v,%v,%v\n", r[0], r[1], r[2])
		}
		return writeText(t, dir, name, b.String())
	}
	out := filepath.Join(dir, "m.json")
	fit := func(x string) ([]warning, string) {
		code, stdout, stderr := cli(t, "", "fit", "--features", x, "--labels", y, "--positive", "dog", "--out", out, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", x, code, stderr)
		}
		_, found := fitWarnings(t, stdout, "wide-range")
		return found, stderr
	}
	if found, _ := fit(features("plain.csv", 5.5, 0)); len(found) != 0 {
		t.Errorf("without the outlier: warns %+v", found)
	}
	if b, err := os.ReadFile(out); err != nil || strings.Contains(string(b), "left_out") || strings.Contains(string(b), "subsamples") {
		t.Errorf("without the outlier the file records no committee left out (%v):\n%s", err, b)
	}
	if code, text, _ := cli(t, "", "inspect", out); code != 0 || !strings.Contains(text, "and on 5 subsamples, averaged over the 6 fits.") {
		t.Errorf("inspect without the outlier: exit %d:\n%s", code, text)
	}
	os.Remove(out)
	found, stderr := fit(features("outlier.csv", 1e30, 0))
	if len(found) != 1 {
		t.Fatalf("%d wide-range warnings %+v, want 1; stderr:\n%s", len(found), found, stderr)
	}
	msg := found[0].Message
	if cols := fmt.Sprint(found[0].Columns); cols != "[feature 1]" {
		t.Errorf("warning's columns %s, want feature 1", cols)
	}
	if !strings.HasPrefix(msg, `greedytl-auto: the values of feature 1 ("big") span a huge range`) || !strings.Contains(msg, "1 of the 5 subsample committees") ||
		!strings.Contains(msg, "averages the other 5 committees") || !strings.Contains(stderr, "greedytl: warning: "+msg+"\n") {
		t.Errorf("warning %q: want the column, its name and the committees, on stderr:\n%s", msg, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the model was not written: %v", err)
	}
	// inspect says how many subsamples were fitted, which committee was
	// left out of the mean and why, and over how many fits it averages;
	// --json gives the committee's record of them.
	code, text, stderr := cli(t, "", "inspect", out)
	if want := `fitted on the whole sample and on 5 subsamples, 1 committee left out of the mean (feature 1 (big): wide range); averaged over 5 fits.`; code != 0 || !strings.Contains(text, want) {
		t.Errorf("inspect: exit %d, want %q in:\n%s%s", code, want, text, stderr)
	}
	code, text, stderr = cli(t, "", "inspect", "--json", out)
	var doc struct {
		Committee struct {
			Subsamples int `json:"subsamples"`
			LeftOut    []struct {
				Subsample int `json:"subsample"`
				Columns   []struct {
					Kind  string  `json:"kind"`
					Index int     `json:"index"`
					Ratio float64 `json:"ratio"`
				} `json:"columns"`
			} `json:"left_out"`
		} `json:"committee"`
	}
	if err := json.Unmarshal([]byte(text), &doc); code != 0 || err != nil {
		t.Fatalf("inspect --json: exit %d, %v: %s", code, err, stderr)
	}
	if c := doc.Committee; c.Subsamples != 5 || len(c.LeftOut) != 1 || len(c.LeftOut[0].Columns) != 1 ||
		c.LeftOut[0].Columns[0].Kind != "feature" || c.LeftOut[0].Columns[0].Index != 1 || !(c.LeftOut[0].Columns[0].Ratio > 1<<26) {
		t.Errorf("inspect --json: committee %+v, want 5 subsamples, one left out for feature 1", c)
	}
	// Two columns, each far out on another cat: two committees left out,
	// one warning that lists both and counts each committee once.
	os.Remove(out)
	found, stderr = fit(features("two.csv", 1e30, -1e25))
	if len(found) != 1 {
		t.Fatalf("%d wide-range warnings %+v, want 1; stderr:\n%s", len(found), found, stderr)
	}
	if cols := fmt.Sprint(found[0].Columns); cols != "[feature 1 feature 2]" {
		t.Errorf("warning's columns %s, want features 1 and 2", cols)
	}
	msg = found[0].Message
	for _, want := range []string{`the values of feature 1 ("big") and feature 2 ("c") span`, "2 of the 5 subsample committees weight one of them",
		`feature 1 ("big"): up to `, `feature 2 ("c"): up to `, "in 1 committee)", "averages the other 4 committees (the whole sample's and 3 subsamples')"} {
		if !strings.Contains(msg, want) {
			t.Errorf("warning %q: want %q", msg, want)
		}
	}
}

// TestFitWarnsWideRangePerClass: greedytl-auto one class against the rest
// warns for each class whose subsamples leave the outlier out — the
// classes it is not in — naming the class; the class it is in, whose
// subsamples leave out the rest's rows, has nothing to report.
func TestFitWarnsWideRangePerClass(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 3))
	var x, labels strings.Builder
	x.WriteString("f0,f1,f2,big\n")
	for i := range 15 {
		fmt.Fprintln(&labels, []string{"a", "b", "c"}[i%3])
		big := 5 + rng.NormFloat64()
		if i == 4 { // a "b"
			big = 1e30
		}
		for k := range 3 {
			v := rng.NormFloat64()
			if i%3 == k {
				v += 2
			}
			fmt.Fprintf(&x, "%v,", v)
		}
		fmt.Fprintf(&x, "%v\n", big)
	}
	out := filepath.Join(dir, "m.json")
	code, stdout, stderr := cli(t, "", "fit", "--method", "greedytl-auto", "--features", writeText(t, dir, "x.csv", x.String()),
		"--labels", writeText(t, dir, "y.txt", labels.String()), "--out", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, found := fitWarnings(t, stdout, "wide-range")
	var classes []string
	for _, w := range found {
		if len(w.Classes) != 1 || !strings.HasPrefix(w.Message, fmt.Sprintf(`greedytl-auto (%q against the rest): the values of feature 3 ("big")`, w.Classes[0])) {
			t.Errorf("warning %+v: want one class, named in the message with the column", w)
			continue
		}
		classes = append(classes, w.Classes[0])
	}
	if strings.Join(classes, ",") != "a,c" {
		t.Errorf("wide-range warnings for classes %v, want a and c; stderr:\n%s", classes, stderr)
	}
}
