package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestFitDefaultMethod checks which method fit uses: greedytl-auto (the
// recommended method) without --method, the paper's greedytl when only
// GreedyTL's flags are given, and --method when it is given.
func TestFitDefaultMethod(t *testing.T) {
	d := newToy(t)
	method := regexp.MustCompile(`"method":\s*"([^"]*)"`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "greedytl-auto"},
		{[]string{"--lambda", "10"}, "greedytl:lambda=10"},
		{[]string{"--sample", "59"}, "greedytl:sample=59"},
		{[]string{"--method", "greedytl-sp"}, "greedytl-sp"},
		{[]string{"--method", "logme-source"}, "logme-source"},
	} {
		model := filepath.Join(d.dir, "model.json")
		args := append([]string{"fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat", "--out", model}, tc.args...)
		if code, _, stderr := cli(t, "", args...); code != 0 {
			t.Fatalf("fit %v: exit %d: %s", tc.args, code, stderr)
		}
		b, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		if m := method.FindSubmatch(b); m == nil || string(m[1]) != tc.want {
			t.Errorf("fit %v wrote a %q model, want %s", tc.args, m, tc.want)
		}
	}
	// --method greedytl-auto with a GreedyTL flag is an error, not a silent
	// switch.
	if code, _, _ := cli(t, "", "fit", "--features", d.X, "--source-scores", d.H, "--labels", d.ytext, "--positive", "cat",
		"--method", "greedytl-auto", "--lambda", "10", "--out", filepath.Join(d.dir, "x.json")); code == 0 {
		t.Error("--method greedytl-auto --lambda 10: exit 0")
	}
}
