package experiment

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMergeNamesARunWithoutID checks that a merge of a run made before
// records carried their run, into a file holding another run's records,
// says so rather than naming the merged run "()".
func TestMergeNamesARunWithoutID(t *testing.T) {
	f := testFolder(t)
	cfg := testConfig(f, t.TempDir(), testSources(t, f), allNegMethod)
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(cfg.Out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "merged.jsonl")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	err = checkReplaced(file, &Manifest{}, &Results{})
	if msg := err.Error(); !errors.Is(err, ErrInput) || strings.Contains(msg, "()") || !strings.Contains(msg, runNamed("")) || !strings.Contains(msg, file+":1") {
		t.Errorf("merging a run without a run id over another run's records: %v; want an input error naming %s:1 and %q, without \"()\"", err, file, runNamed(""))
	}
}
