package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSpecList: --methods splits on commas but keeps the settings of a spec
// together ("greedytl:delta=0.001,lambda=10" has two), so that a spec with
// several settings — the form modelfile.ParseSpec and fit --method take —
// can be run by experiment and demo; it was cut into "greedytl:delta=0.001"
// and "lambda=10", refused as a spec without a name. CSV quoting still
// works, and each use of the flag appends.
func TestSpecList(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"greedytl,no-transfer"}, []string{"greedytl", "no-transfer"}},
		{[]string{"greedytl:delta=0.001,lambda=10,no-transfer"}, []string{"greedytl:delta=0.001,lambda=10", "no-transfer"}},
		{[]string{"no-transfer,greedytl-sp:gamma=0.25,delta=0.01,lambda=2,greedytl:lambda=3"}, []string{"no-transfer", "greedytl-sp:gamma=0.25,delta=0.01,lambda=2", "greedytl:lambda=3"}},
		{[]string{`"greedytl:delta=0.001,lambda=10",no-transfer`}, []string{"greedytl:delta=0.001,lambda=10", "no-transfer"}},
		{[]string{"greedytl", "lambda=10"}, []string{"greedytl", "lambda=10"}}, // a setting of no spec: ParseSpec refuses it
		{[]string{"lambda=10,greedytl"}, []string{"lambda=10", "greedytl"}},
		{[]string{""}, nil},
	} {
		var l specList
		for _, a := range tc.args {
			if err := l.Set(a); err != nil {
				t.Fatalf("%q: %v", a, err)
			}
		}
		if !slices.Equal(l, tc.want) {
			t.Errorf("%q: %q, want %q", tc.args, l, tc.want)
		}
	}

	// experiment runs such a spec.
	run := filepath.Join(t.TempDir(), "run")
	code, _, stderr := cli(t, "", "experiment", "--data", experimentFolder(t), "--negative-classes", "n0,n1", "--positives", "2", "--splits", "1",
		"--targets", "c0", "--methods", "greedytl:delta=0.001,lambda=10,no-transfer", "--out", run, "-q")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(run, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct{ Method string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		methods = append(methods, r.Method)
	}
	slices.Sort(methods)
	if want := []string{"greedytl:delta=0.001,lambda=10", "no-transfer"}; !slices.Equal(methods, want) {
		t.Errorf("records of methods %q, want %q", methods, want)
	}
}
