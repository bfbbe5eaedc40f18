package experiment

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestRunRecordsCanonicalMethods: the manifest and the records name each
// method by its canonical spec (method.CanonicalSpec: settings sorted,
// numbers in Go's shortest form, defaults dropped), as Spec.String says the
// result records do, and as fit's model files do: so that a run listing
// "greedytl:lambda=1" (greedytl's default λ) holds the cells of greedytl,
// which report, merge and a run of plain greedytl know by that name (its
// figures of GreedyTL against GreedyTL-59 and the timing table were left
// out, and two runs of one method were two methods). They named the methods
// as listed.
func TestRunRecordsCanonicalMethods(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	out := t.TempDir()
	cfg := testConfig(f, out, src, "greedytl:lambda=1", "greedytl-sp:lambda=1e1,gamma=.25")
	cfg.Positives, cfg.Splits, cfg.Noise, cfg.Targets = []int{2}, 1, []int{0}, []string{"c1"}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	want := []string{"greedytl", "greedytl-sp:gamma=0.25,lambda=10"}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Methods, want) {
		t.Errorf("run.json methods %q, want %q", m.Methods, want)
	}
	var got []string
	for _, r := range readRecords(t, filepath.Join(out, "results.jsonl")) {
		got = append(got, r.Method)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("records of methods %q, want %q", got, want)
	}
	// The same run resumes under either spelling.
	cfg.Methods = []string{"greedytl", "greedytl-sp:gamma=0.25,lambda=10"}
	if s, err := Run(context.Background(), cfg); err != nil || s.Finished != 0 {
		t.Errorf("rerun under the canonical names: %v, summary %+v", err, s)
	}
}
