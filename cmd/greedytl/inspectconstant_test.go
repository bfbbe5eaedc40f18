package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
)

// TestInspectMarksConstantModels: inspect gives the constant-model rule's
// judgement by the weights alone (method.WeightsConstant), as fit warns: a
// no-transfer model of the noise rows (weights ~1e-20, rounding) is marked
// constant to working precision in the table and "constant" in --json; one
// of the same rows with features of 1e200 keeps no column (the rows cancel
// exactly) and is marked constant; a genuine model on the rows with the
// labels following their signs is not marked. Every model fit warned of
// (constant-model) is marked, and only those.
func TestInspectMarksConstantModels(t *testing.T) {
	for _, tc := range []struct {
		name     string
		xScale   float64
		flip     bool
		constant string // the table's note, "" when none
	}{
		{"noise", 1, false, "the model is constant to working precision: its weights on the standardised columns sum to"},
		{"noise, huge features", 1e200, false, "the model is constant: it keeps no column, so its score is the same for every example"},
		{"genuine", 1, true, ""},
	} {
		dir := t.TempDir()
		X, H, y := noiseProblem(t, dir, tc.xScale, tc.flip)
		model := dir + "/m.json"
		code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--features", X, "--source-scores", H, "--labels", y, "--out", model)
		if code != 0 {
			t.Fatalf("%s: fit: exit %d: %s", tc.name, code, stderr)
		}
		warned := strings.Contains(stderr, "greedytl: warning: the no-transfer model ")
		_, out, _ := cli(t, "", "inspect", model)
		_, js, _ := cli(t, "", "inspect", "--json", model)
		var sum struct {
			Constant *bool `json:"constant"`
		}
		if err := json.Unmarshal([]byte(js), &sum); err != nil {
			t.Fatal(err)
		}
		marked := tc.constant != ""
		if got := strings.Contains(out, "the model is constant"); got != marked || (marked && !strings.Contains(out, tc.constant)) {
			t.Errorf("%s: inspect's note: want %q:\n%s", tc.name, tc.constant, out)
		}
		if (sum.Constant != nil && *sum.Constant) != marked || (sum.Constant != nil && !*sum.Constant) {
			t.Errorf("%s: inspect --json's constant %v, want %v (absent when false)", tc.name, sum.Constant, marked)
		}
		if warned != marked {
			t.Errorf("%s: fit warned %v, inspect marks %v", tc.name, warned, marked)
		}
	}
}

// TestInspectMarksConstantClasses: inspect of a model fitted one class
// against the rest marks the classes whose models are constant by their
// weights alone: of the rows of TestConstantClassesOfRoundingNoise, class
// a (weights ~1e-20, which fit warns of), and not b nor c.
func TestInspectMarksConstantClasses(t *testing.T) {
	dir := t.TempDir()
	X, y := roundingNoiseClasses(t, dir)
	model := dir + "/m.json"
	if code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--features", X, "--labels", y, "--out", model); code != 0 || !strings.Contains(stderr, `("a") are constant to working precision`) {
		t.Fatalf("fit: exit %d, want the constant-classes warning of a: %s", code, stderr)
	}
	_, js, _ := cli(t, "", "inspect", "--json", model)
	var sum inspectMultiSummary
	if err := json.Unmarshal([]byte(js), &sum); err != nil {
		t.Fatal(err)
	}
	var got []bool
	for _, pc := range sum.PerClass {
		got = append(got, pc.Constant)
	}
	if want := []bool{true, false, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("inspect --json's per-class constant %v, want %v", got, want)
	}
	_, out, _ := cli(t, "", "inspect", model)
	if n := strings.Count(out, "the class's model is constant to working precision"); n != 1 || !strings.Contains(out, "class \"a\": 3 columns\nthe class's model is constant") {
		t.Errorf("inspect: want a (alone) marked constant:\n%s", out)
	}
}

// TestInspectAutoOneVsRestCommittees: inspect of a greedytl-auto model
// fitted one class against the rest shows each class's committee, as
// inspect of a binary greedytl-auto model does: --json's per-class
// "committee" and "hyperparameters" are the file's class models' own, and
// the table shows each class's members (every GreedyTL member's path, the
// source member, the ridge member), tally and combined model (20 largest
// unless --top is given).
func TestInspectAutoOneVsRestCommittees(t *testing.T) {
	dir := t.TempDir()
	x, h, y, _, _, _ := multiFiles(t, dir)
	model := dir + "/m.json"
	if code, _, stderr := cli(t, "", "fit", "--method", "greedytl-auto", "--features", x, "--source-scores", h, "--labels", y, "--out", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Models []struct {
			Hyperparameters map[string]float64   `json:"hyperparameters"`
			Committee       method.AutoCommittee `json:"committee"`
		} `json:"models"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Models) != 3 {
		t.Fatalf("the file holds %d class models, want 3", len(file.Models))
	}
	_, js, _ := cli(t, "", "inspect", "--json", model)
	var sum inspectMultiSummary
	if err := json.Unmarshal([]byte(js), &sum); err != nil {
		t.Fatal(err)
	}
	_, out, _ := cli(t, "", "inspect", model)
	_, all, _ := cli(t, "", "inspect", "--top", "0", model)
	for k, pc := range sum.PerClass {
		f := file.Models[k]
		if pc.Committee == nil || !reflect.DeepEqual(*pc.Committee, f.Committee) || !reflect.DeepEqual(pc.Hyperparameters, f.Hyperparameters) {
			t.Errorf("class %s: inspect --json's committee %+v and hyperparameters %v, the file's %+v and %v", pc.Class, pc.Committee, pc.Hyperparameters, f.Committee, f.Hyperparameters)
		}
		// The class's part of the table: from its line to the next class's.
		part := out[strings.Index(out, fmt.Sprintf("class %q:", pc.Class)):]
		if k+1 < len(sum.PerClass) {
			part = part[:strings.Index(part, fmt.Sprintf("class %q:", sum.PerClass[k+1].Class))]
		}
		c := f.Committee
		want := []string{fmt.Sprintf("member %d: ridge on every column (7), λ = %g by leave-one-out", len(c.Greedy)+2, c.Ridge.Lambda)}
		for i, g := range c.Greedy {
			want = append(want, fmt.Sprintf("member %d: GreedyTL, γ = %g (λ = %g, δ = %g): %d column", i+1, g.Gamma, f.Hyperparameters["lambda"], f.Hyperparameters["delta"], len(g.Path)))
			for s, st := range g.Path {
				want = append(want, fmt.Sprintf("%d  %s  %d  %.6g  %.6g  %.6g", s+1, st.Column.Kind, st.Column.Index, st.Weight, st.RegError, st.LOOError))
			}
		}
		if c.Source != nil {
			want = append(want, fmt.Sprintf("): source %d, training AUC %.4g;", c.Source.Index, c.Source.AUC))
		}
		want = append(want, fmt.Sprintf("columns chosen over the %g fits", f.Hyperparameters["fits"]), fmt.Sprintf("combined model: %d of the 7 columns", len(pc.Selected)))
		for _, w := range want {
			if !strings.Contains(strings.Join(strings.Fields(part), "  "), strings.Join(strings.Fields(w), "  ")) {
				t.Errorf("class %s: inspect lacks %q:\n%s", pc.Class, w, part)
			}
		}
	}
	if !strings.Contains(all, "member 1: GreedyTL") || strings.Count(out, "member 1: GreedyTL") != 3 {
		t.Errorf("inspect (and --top 0): want each of the 3 classes' members:\n%s", out)
	}
}
