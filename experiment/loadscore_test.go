package experiment

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/datasettest"
	"github.com/greedytl/greedytl/source"
)

// TestLoadScoreErrorNamesDataRow: a source's score that is not finite on
// a row of the data set (one whose values are finite but overflow the
// score) fails the run with the error scoring the whole data set gives,
// naming that row of the data set. load scores only the rows the cells
// use, gathered (the target's and the target negatives: about 1,150 of
// 11,192 here), scoreChunk at a time: its error named the row's place in
// the chunk of gathered rows, not the row.
func TestLoadScoreErrorNamesDataRow(t *testing.T) {
	counts := []int{24, 24, 24, 24, 24, 24, 24, 24, 3700, 3700, 3700}
	centre := []float64{8, 8, 8, 8, 8, 8, 8, 8, 0, 0, 0}
	f := datasettest.Shuffled(3, counts, centre)
	copy(f.Classes[testClasses:], testNegativeNames)
	// The last target negative, which trains no source, gathered past
	// the first chunk: its values ±1.7e308 (finite), which overflow the
	// score of a source whose weights' magnitudes sum to more than 1.06.
	neg, err := source.PlanNegatives(f, testNegativeNames, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Max(neg.Target)
	for j := range f.X.RawMatrix().Cols {
		f.X.Set(bad, j, math.Copysign(1.7e308, float64(j%2)-0.5))
	}
	f = datasettest.WriteFolder(t, f)
	tc := source.DefaultTrainConfig()
	tc.Grid = []float64{1e4} // weights large enough to overflow
	src := testSources(t, f, tc)
	set, err := source.LoadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	_, want := set.Scores(f.X)
	var se *source.ScoreError
	if !errors.As(want, &se) || se.Row != bad {
		t.Fatalf("scoring the data set: %v; want a score error on row %d", want, bad)
	}
	cfg := testConfig(f, t.TempDir(), src, allNegMethod)
	cfg.Targets = []string{"c0"}
	cfg.Protocol = ProtocolSkewed // every target negative tested: gathered
	_, err = Run(context.Background(), cfg)
	if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), want.Error()) {
		t.Errorf("run: %v; want an input error holding %q", err, want)
	}
}
