package report

import (
	"strings"
	"testing"
)

// TestLoadWarnsOfOneSettingTwoSpellings: runs recorded by greedytl before
// and after modelfile.FormatSetting wrote a whole number from 10⁶ on in
// digits name one setting two ways (greedytl:max_k=1e+06 and
// greedytl:max_k=1000000); the report, whose readers key cells by the
// text recorded, shows them as two methods, and a warning now says they
// are one setting, in its canonical text (method.Spec.String). Runs of
// one spelling, and of different settings, get no such warning. The
// report said nothing: two methods of one setting, labelled apart.
func TestLoadWarnsOfOneSettingTwoSpellings(t *testing.T) {
	old := synth{dataset: "one", classes: 5, positives: []int{2, 5}, splits: 2, noise: []int{0}, methods: []string{"greedytl:max_k=1e+06"}, seed: 1}
	now := old
	now.methods = []string{"no-transfer", "greedytl:max_k=1000000"}
	res, err := Load(old.write(t, 1), now.write(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := "methods greedytl:max_k=1e+06 and greedytl:max_k=1000000 are one setting, greedytl:max_k=1000000, written in 2 ways (greedytl wrote a whole number of 1000000 or more as 1e+06 before it wrote digits): the report shows them apart, as the runs recorded them"
	var found int
	for _, w := range res.Warnings {
		if strings.Contains(w, "one setting") {
			found++
			if w != want {
				t.Errorf("warning %q, want %q", w, want)
			}
		}
	}
	if found != 1 {
		t.Errorf("%d warnings of one setting written two ways, want 1: %q", found, res.Warnings)
	}

	other := old
	other.methods = []string{"greedytl:max_k=5", "greedytl"}
	for _, runs := range [][]string{{old.write(t, 1)}, {other.write(t, 1)}} {
		res, err := Load(runs...)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range res.Warnings {
			if strings.Contains(w, "one setting") {
				t.Errorf("runs of one spelling each: warning %q", w)
			}
		}
	}
}
