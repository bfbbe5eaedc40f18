package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/method"
	"github.com/greedytl/greedytl/shard"
)

// TestResumeRefusesRecordsItDidNotWrite: resuming a shard whose results
// file holds a cell twice, or a cell of another shard of the run, refuses
// it, naming the file and line, rather than count the cell done (a copied
// line or a file of another shard would otherwise pass for the shard's
// work).
func TestResumeRefusesRecordsItDidNotWrite(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	config := func(out string, s shard.Shard) Config {
		cfg := testConfig(f, out, src, allNegMethod)
		cfg.Noise, cfg.Shard = []int{0}, s
		return cfg
	}
	first, second := shard.Shard{I: 0, N: 2}, shard.Shard{I: 1, N: 2}
	out0, out1 := t.TempDir(), t.TempDir()
	sum0, err := Run(context.Background(), config(out0, first))
	if err != nil {
		t.Fatal(err)
	}
	sum1, err := Run(context.Background(), config(out1, second))
	if err != nil {
		t.Fatal(err)
	}
	lines0, lines1 := fileLines(t, sum0.File), fileLines(t, sum1.File) // the last without its newline
	for _, tc := range []struct {
		name, extra, want string
	}{
		{"a cell twice", lines0[len(lines0)/2], "is recorded twice"},
		{"another shard's cell", lines1[0], "is not in this run's grid"},
	} {
		writeText(t, sum0.File, strings.Join(lines0, "")+"\n"+strings.TrimSuffix(tc.extra, "\n")+"\n")
		_, err := Run(context.Background(), config(out0, first))
		at := fmt.Sprintf("%s:%d: ", sum0.File, len(lines0)+1)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an input error at %s saying it %s", tc.name, err, at, tc.want)
		}
	}
}

// TestResumeWholeSettings: a run whose method specs hold whole values of
// 10⁶ and more (λ = 10⁶, 2³¹ — beyond the digits modelfile.FormatSetting
// writes — and 10³⁰⁰; max_k = 1000000; δ = 10⁷), stopped after its first
// cell, resumes and finishes, and a run with the same specs spelled
// otherwise (1e+06, as a model's name wrote it before; 2.147483648e9)
// finds every cell done: run.json's spec texts are the canonical forms
// (method.CanonicalSpec of each gives it back), which the resumed run's
// compare equal to. (A guard: reported as refused on resume, this did not
// fail at b8c41d6a.)
func TestResumeWholeSettings(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	out := t.TempDir()
	cfg := testConfig(f, out, src, "greedytl:lambda=1e6", "greedytl:max_k=1000000,lambda=2147483648",
		"greedytl:delta=1e7", "greedytl:lambda=1e300")
	cfg.Positives, cfg.Splits, cfg.Noise = []int{2}, 2, []int{0}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := cfg
	stop.Progress = func(done, total int) {
		if done > 0 {
			cancel()
		}
	}
	sum, err := Run(ctx, stop)
	if !errors.Is(err, context.Canceled) || sum == nil || sum.Finished == 0 || sum.Finished == sum.Cells {
		t.Fatalf("stopped run: %v, summary %+v: want it stopped after some of the cells", err, sum)
	}
	man, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"greedytl:lambda=1000000", "greedytl:lambda=2.147483648e+09,max_k=1000000", "greedytl:delta=10000000", "greedytl:lambda=1e+300"}
	if !slices.Equal(man.Methods, want) {
		t.Errorf("run.json methods %q, want %q", man.Methods, want)
	}
	for _, m := range man.Methods {
		if c, err := method.CanonicalSpec(m); err != nil || c != m {
			t.Errorf("run.json method %q reads back as %q (%v)", m, c, err)
		}
	}
	for k, spelled := range [][]string{cfg.Methods, {"greedytl:lambda=1e+06", "greedytl:lambda=2.147483648e9,max_k=1e+06",
		"greedytl:delta=10000000", "greedytl:lambda=1e300"}} {
		again := cfg
		again.Methods = spelled
		sum, err = Run(context.Background(), again)
		if err != nil {
			t.Fatalf("resume %d (%q): %v", k, spelled, err)
		}
		if k == 1 && sum.Finished != 0 {
			t.Errorf("resume %d: %d new cells, want none (every cell done)", k, sum.Finished)
		}
		if sum.Present+sum.Finished != sum.Cells {
			t.Errorf("resume %d: %d cells present and %d finished of %d", k, sum.Present, sum.Finished, sum.Cells)
		}
	}
}

// TestResumeRemovesStaleTemporaryFiles: a resumed run, once it holds its
// run directory, removes the temporary files that a run killed while
// writing there left (run.json's, results.jsonl's); other files stay, and
// so do the temporary files of files another command writes into the
// run directory without the run's lock (report's), which may be live.
func TestResumeRemovesStaleTemporaryFiles(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	out := t.TempDir()
	cfg := testConfig(f, out, src, allNegMethod)
	cfg.Noise = []int{0}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	stale := []string{filepath.Join(out, "."+ManifestFile+".tmp-2024"), filepath.Join(out, "."+resultsName(shard.Shard{})+".tmp-7")}
	other := []string{filepath.Join(out, "notes.txt"), filepath.Join(out, ManifestFile+".tmp-1"), filepath.Join(out, ".report.md.tmp-123"), filepath.Join(out, ".pred.csv.tmp-5")}
	for _, p := range append(stale, other...) {
		writeText(t, p, "half")
	}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	for _, p := range stale {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("the resumed run left %s", p)
		}
	}
	for _, p := range other {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("the resumed run removed %s: %v", p, err)
		}
	}
}
