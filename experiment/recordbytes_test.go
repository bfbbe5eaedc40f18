package experiment

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// goldenEnv names the environment variable that makes
// TestRecordsAsBefore write its files instead of comparing with them.
const goldenEnv = "GREEDYTL_WRITE_RECORDS_GOLDEN"

// TestRecordsAsBefore: the records of fits whose solvers converged are the
// bytes that greedytl wrote before records could carry not_converged
// (testdata/records-before-not-converged, written by commit e10b957 with
// this test and GREEDYTL_WRITE_RECORDS_GOLDEN=1), but for fit_seconds
// and run_id (the build's version is part of the run's identity): a
// binary run of the methods with iterative solvers that report
// (stacked-logistic, l1-logistic, elastic-net) and one that does not,
// and an N-way run of multinomial-logistic and greedytl-nway.
func TestRecordsAsBefore(t *testing.T) {
	f := testFolder(t)
	src := testSources(t, f)
	binary := testConfig(f, t.TempDir(), src, allNegMethod, "stacked-logistic", "l1-logistic", "elastic-net")
	binary.Targets, binary.Positives, binary.Noise = []string{"c0", "c3"}, []int{2, 5}, []int{0}
	nway := nwayConfig(t.TempDir(), src, "multinomial-logistic", "greedytl-nway")(t)
	nway.Data, nway.Ways, nway.Positives, nway.Splits = f, []int{3}, []int{2}, 2
	for _, tc := range []struct {
		name string
		cfg  Config
	}{{"binary.jsonl", binary}, {"nway.jsonl", nway}} {
		tc.cfg.Workers = 1
		sum, err := Run(context.Background(), tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		got := readText(t, sum.File)
		golden := filepath.Join("testdata", "records-before-not-converged", tc.name)
		if os.Getenv(goldenEnv) != "" {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			writeText(t, golden, got)
			continue
		}
		want := readText(t, golden)
		if strings.Contains(got, "not_converged") {
			t.Errorf("%s: converged fits recorded with not_converged:\n%s", tc.name, got)
		}
		if g, w := maskedLines(got), maskedLines(want); !slices.Equal(g, w) {
			t.Errorf("%s: records differ from those written before not_converged (fit_seconds and run_id masked):\n%s\nwant\n%s",
				tc.name, strings.Join(g, ""), strings.Join(w, ""))
		}
	}
}

var (
	fitSecondsMember = regexp.MustCompile(`"fit_seconds":[^,}]*`)
	runIDMember      = regexp.MustCompile(`"run_id":"[0-9a-f]*"`)
)

// maskedLines returns the lines of a results file with their fit_seconds
// and run_id replaced by placeholders, sorted.
func maskedLines(text string) []string {
	lines := strings.SplitAfter(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		l = fitSecondsMember.ReplaceAllString(l, `"fit_seconds":0`)
		lines[i] = runIDMember.ReplaceAllString(l, `"run_id":"…"`)
	}
	slices.Sort(lines)
	return lines
}
