package experiment

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

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
