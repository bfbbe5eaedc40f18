package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
)

// TestEveryMethodFromTheCLI fits every registered method with greedytl fit,
// then predicts and inspects with its model file.
func TestEveryMethodFromTheCLI(t *testing.T) {
	d := newToy(t)
	for _, name := range method.Names() {
		t.Run(name, func(t *testing.T) {
			model := filepath.Join(d.dir, name+".json")
			args := []string{"fit", "--method", name, "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", model}
			m, _ := method.New(name)
			if m.Needs().Unlabelled {
				args = append(args, "--unlabelled-features", d.Xtest, "--unlabelled-source-scores", d.Htest)
			}
			if m.Needs().Oracle {
				args = append(args, "--oracle-features", d.Xtest, "--oracle-source-scores", d.Htest, "--oracle-labels", d.yte)
			}
			if code, _, stderr := cli(t, "", args...); code != 0 {
				t.Fatalf("fit: exit %d: %s", code, stderr)
			}
			code, out, stderr := cli(t, "", "predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--labels", d.yte, "--positive", "cat", "--out", filepath.Join(d.dir, name+".scores"))
			if code != 0 {
				t.Fatalf("predict: exit %d: %s", code, stderr)
			}
			acc, err := strconv.ParseFloat(strings.Fields(strings.TrimPrefix(out, "balanced accuracy: "))[0], 64)
			// no-transfer sees only the (pure-noise) features, and average-kt and
			// dam the mean of 20 sources of which one is informative: they are
			// rightly near chance here, so only the fit/predict/inspect
			// round trip is checked for them.
			chance := name == "no-transfer" || name == "average-kt" || name == "dam"
			if err != nil || (!chance && acc < 0.6) {
				t.Errorf("balanced accuracy %v (%v) on a problem whose source 3 carries the label; want ≥ 0.6", acc, err)
			}
			code, out, stderr = cli(t, "", "inspect", "--json", model)
			if code != 0 {
				t.Fatalf("inspect: exit %d: %s", code, stderr)
			}
			var sum inspectSummary
			if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Method != name {
				t.Fatalf("inspect --json: method %q, err %v", sum.Method, err)
			}
		})
	}
}

// TestGreedyFlagsOutOfRange: GreedyTL's flags out of their range are bad
// usage found before any input is read, and the message names the flag
// (it named the library's field, "FeatureFactor must be ≥ 0", after
// reading the data).
func TestGreedyFlagsOutOfRange(t *testing.T) {
	base := []string{"fit", "--method", "greedytl", "--features", "no-such-X.npy", "--labels", "no-such-y.txt"}
	for _, tc := range []struct {
		flag, value, want string
	}{
		{"--gamma", "-1", "--gamma -1: gamma (the feature factor) must be ≥ 0"},
		{"--gamma", "NaN", "--gamma NaN: gamma must be finite"},
		{"--feature-factor", "-1", "--gamma -1: gamma (the feature factor) must be ≥ 0"},
		{"--delta", "-1", "--delta -1: delta must be ≥ 0"},
		{"--delta", "+Inf", "--delta +Inf: delta must be finite"},
		{"--sample", "-5", "--sample -5: sample must be a whole number"},
		{"--max-k", "-1", "--max-k -1: max_k must be a whole number"},
	} {
		args := append(slices.Clone(base), tc.flag, tc.value)
		code, _, stderr := cli(t, "", args...)
		if code != exitInput || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s %s: exit %d, stderr %q: want %d and %q", tc.flag, tc.value, code, stderr, exitInput, tc.want)
		}
	}
}

func TestGreedyFlagsRejectedForBaselines(t *testing.T) {
	d := newToy(t)
	code, _, stderr := cli(t, "", "fit", "--method", "no-transfer", "--lambda", "3", "--features", d.X, "--labels", d.ytext, "--positive", "cat")
	if code != exitInput || !strings.Contains(stderr, "--lambda") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = cli(t, "", "fit", "--method", "dam", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat")
	if code != exitInput || !strings.Contains(stderr, "transductive") {
		t.Fatalf("dam without unlabelled inputs: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = cli(t, "", "fit", "--method", "nonesuch", "--features", d.X, "--labels", d.ytext, "--positive", "cat")
	if code != exitInput || !strings.Contains(stderr, "nonesuch") {
		t.Fatalf("unknown method: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = cli(t, "", "fit", "--features", d.X)
	if code != exitInput || !strings.Contains(stderr, "labels") {
		t.Fatalf("missing required flag: exit %d, stderr %q", code, stderr)
	}
}

// TestModelFlagsRoundTrip fits with every flag that changes a GreedyTL
// model, alone and combined with specs, writes the model, then inspects
// and predicts with it: no combination may write a file that this version
// cannot read (issue: --sample 59 and greedytl:lambda=10 --lambda 5 wrote
// unreadable models). The file's method is the canonical spec of the
// options actually used.
func TestModelFlagsRoundTrip(t *testing.T) {
	d := newToy(t)
	for i, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--sample", "59", "--seed", "7"}, "greedytl:sample=59"},
		{[]string{"--seed", "7"}, "greedytl"},
		{[]string{"--lambda", "10"}, "greedytl:lambda=10"},
		{[]string{"--lambda", "auto"}, "greedytl:auto_lambda=1"},
		{[]string{"--delta", "0.01"}, "greedytl:delta=0.01"},
		{[]string{"--max-k", "2"}, "greedytl:max_k=2"},
		{[]string{"--gamma", "0.25"}, "greedytl:gamma=0.25"},
		{[]string{"--feature-factor", "0.25"}, "greedytl:gamma=0.25"},
		{[]string{"--stop-at-min-loo"}, "greedytl:stop_at_min_loo=1"},
		{[]string{"--method", "greedytl:lambda=10", "--lambda", "5"}, "greedytl:lambda=5"},
		{[]string{"--method", "greedytl:lambda=10", "--lambda", "auto"}, "greedytl:auto_lambda=1"},
		{[]string{"--method", "greedytl-59", "--sample", "0"}, "greedytl-59:sample=0"},
		{[]string{"--method", "greedytl-59", "--seed", "3"}, "greedytl-59"},
		{[]string{"--method", "greedytl-sp", "--gamma", "1"}, "greedytl-sp:gamma=1"},
		{[]string{"--method", "greedytl-sp:gamma=0.25", "--sample", "5", "--max-k", "3"}, "greedytl-sp:gamma=0.25,max_k=3,sample=5"},
		{[]string{"--method", "greedytl-sp:gamma=0.5"}, "greedytl-sp"},
	} {
		model := filepath.Join(d.dir, fmt.Sprintf("m%d.json", i))
		// fit's default method may change: without --method, the flags
		// are those of greedytl.
		args := []string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", model}
		if !slices.Contains(tc.flags, "--method") {
			args = append(args, "--method", "greedytl")
		}
		args = append(args, tc.flags...)
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Errorf("fit %v: exit %d: %s", tc.flags, code, stderr)
			continue
		}
		code, out, stderr := cli(t, "", "inspect", "--json", model)
		var sum inspectSummary
		if code != 0 || json.Unmarshal([]byte(out), &sum) != nil {
			t.Errorf("fit %v then inspect: exit %d: %s", tc.flags, code, stderr)
			continue
		}
		if sum.Method != tc.want {
			t.Errorf("fit %v: method %q, want %q", tc.flags, sum.Method, tc.want)
		}
		code, _, stderr = cli(t, "", "predict", "--model", model, "--features", d.Xtest, "--source-scores", d.Htest, "--out", filepath.Join(d.dir, "scores.txt"))
		if code != 0 {
			t.Errorf("fit %v then predict: exit %d: %s", tc.flags, code, stderr)
		}
	}
}
