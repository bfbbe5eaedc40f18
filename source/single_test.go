package source

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/datasettest"
)

// TestSingleExampleWarning: the index's singleExampleWarning names the
// sources whose class has a single example (by the dataset's counts, and
// as their entries count their positives), and says how many; a dataset
// whose classes all have two or more examples gets none.
func TestSingleExampleWarning(t *testing.T) {
	counts := []int{20, 1, 20, 2, 1, 30, 30}
	centre := []float64{4, 4, 4, 4, 4, 0, 0}
	f := datasettest.WriteFolder(t, datasettest.Shuffled(5, counts, centre))
	neg, err := PlanNegatives(f, []string{"c5", "c6"}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultTrainConfig()
	cfg.Grid = []float64{0.01, 1, 100}
	dir := t.TempDir()
	res, err := TrainAll(context.Background(), f, neg, dir, cfg, RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, IndexFile)
	var single []string
	for _, e := range res.Index.Sources {
		if counts[e.Class] != e.Positives {
			t.Errorf("source %q: %d positives, want %d", e.Name, e.Positives, counts[e.Class])
		}
		if e.Positives != 1 {
			continue
		}
		single = append(single, e.Name)
	}
	msg, names := res.Index.singleExampleWarning(index)
	if !slices.Equal(names, []string{"c1", "c4"}) || !slices.Equal(names, single) {
		t.Errorf("singleExampleWarning names %v, want [c1 c4]", names)
	}
	for _, want := range []string{`2 of 5 sources`, `single example ("c1", "c4")`, index} {
		if !strings.Contains(msg, want) {
			t.Errorf("warning %q lacks %q", msg, want)
		}
	}
	// Warnings gives it with its code, after the cap's warning when final
	// fits stopped at the cap.
	if got, want := res.Index.Warnings(index), []Warning{{WarnSingleExample, msg, names}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Warnings = %+v, want %+v", got, want)
	}
	capped := *res.Index
	capped.Sources = slices.Clone(capped.Sources)
	capped.Sources[0].Converged = false
	if got, want := capped.Warnings(index), []Warning{{WarnNotConverged, capped.capWarning(index), nil}, {WarnSingleExample, msg, names}}; !reflect.DeepEqual(got, want) || want[0].Message == "" {
		t.Errorf("Warnings with a source at the cap = %+v, want %+v", got, want)
	}

	ok := blobFolder(t, 4)
	neg, err = PlanNegatives(ok, []string{"c3"}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err = TrainAll(context.Background(), ok, neg, t.TempDir(), cfg, RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if msg, names := res.Index.singleExampleWarning(index); msg != "" || names != nil {
		t.Errorf("every class has 20 examples, yet the warning reads %q (%v)", msg, names)
	}
	if slices.ContainsFunc(res.Index.Sources, func(e Entry) bool { return !e.Converged }) {
		t.Fatal("a source stopped at the cap")
	}
	if ws := res.Index.Warnings(index); ws != nil {
		t.Errorf("every source converged on 20 examples, yet Warnings = %+v", ws)
	}
}
