package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeNamesARunWithoutID checks that a merge of a run made before
// records carried their run, into a file holding another run's records,
// says so rather than naming the merged run "()".
func TestMergeNamesARunWithoutID(t *testing.T) {
	b := allNegRecords(t)
	file := filepath.Join(t.TempDir(), "merged.jsonl")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	err := checkReplaced(file, &Manifest{}, &Results{})
	if msg := err.Error(); !errors.Is(err, ErrInput) || strings.Contains(msg, "()") || !strings.Contains(msg, runNamed("")) || !strings.Contains(msg, file+":1") {
		t.Errorf("merging a run without a run id over another run's records: %v; want an input error naming %s:1 and %q, without \"()\"", err, file, runNamed(""))
	}
}

// TestLackingRunJSONNamesItsFile checks that a results file read without
// a run.json beside it, given by a bare name in the current directory, is
// warned of with the file named: the warning said "run.json: not found",
// which named no directory.
func TestLackingRunJSONNamesItsFile(t *testing.T) {
	b := allNegRecords(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "merged.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	res, err := ReadRuns([]string{"merged.jsonl"}, ReadOptions{Tolerant: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range res.Warnings {
		if strings.Contains(w, "not found") {
			found = true
			if !strings.Contains(w, "merged.jsonl") {
				t.Errorf("warning %q does not name merged.jsonl, the file read without it", w)
			}
		}
	}
	if !found {
		t.Errorf("no warning of the missing run.json: %q", res.Warnings)
	}
}

// TestUnknownMethodsNamedTogether checks that a run given several unknown
// methods names them all in one error (it named the first only), for
// either protocol.
func TestUnknownMethodsNamedTogether(t *testing.T) {
	f := testFolder(t)
	for _, p := range []string{ProtocolStandard, ProtocolNWay} {
		cfg := testConfig(f, t.TempDir(), "", "greedytl", "foo", "bar")
		cfg.Protocol = p
		if p == ProtocolNWay {
			cfg.Ways, cfg.TestPerClass, cfg.Noise = []int{2}, 5, []int{0}
		}
		_, err := cfg.check()
		if msg := fmt.Sprint(err); !errors.Is(err, ErrInput) || !strings.Contains(msg, `"foo"`) || !strings.Contains(msg, `"bar"`) {
			t.Errorf("%s: %v; want an input error naming foo and bar", p, err)
		}
	}
}

// allNegRecords runs allNegMethod on the test folder and returns its
// results file's bytes.
func allNegRecords(t *testing.T) []byte {
	t.Helper()
	f := testFolder(t)
	cfg := testConfig(f, t.TempDir(), testSources(t, f), allNegMethod)
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(cfg.Out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
