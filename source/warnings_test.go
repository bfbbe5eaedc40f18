package source

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/datasettest"
)

// warningOf returns the warning of ws with the code, and whether there is
// one.
func warningOf(ws []Warning, code string) (Warning, bool) {
	i := slices.IndexFunc(ws, func(w Warning) bool { return w.Code == code })
	if i < 0 {
		return Warning{}, false
	}
	return ws[i], true
}

// TestNoExamplesWarning: classes of classes.txt that no label uses get no
// source, and Warnings names them (not the negative classes, nor, in a
// shard's index, the classes other shards still train); a dataset whose
// classes all have examples gets no such warning.
func TestNoExamplesWarning(t *testing.T) {
	counts := []int{20, 0, 20, 0, 30, 30}
	centre := []float64{4, 4, 4, 4, 0, 0}
	f := datasettest.WriteFolder(t, datasettest.Shuffled(5, counts, centre))
	neg, err := PlanNegatives(f, []string{"c4", "c5"}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultTrainConfig()
	cfg.Grid = []float64{0.01, 1}
	dir := t.TempDir()
	res, err := TrainAll(context.Background(), f, neg, dir, cfg, RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, IndexFile)
	w, ok := warningOf(res.Index.Warnings(index), WarnNoExamples)
	if !ok || !slices.Equal(w.Classes, []string{"c1", "c3"}) {
		t.Fatalf("Warnings give %+v (found %v), want %s naming [c1 c3]", w, ok, WarnNoExamples)
	}
	for _, want := range []string{`2 of the 6 classes`, `("c1", "c3")`, "no source"} {
		if !strings.Contains(w.Message, want) {
			t.Errorf("warning %q lacks %q", w.Message, want)
		}
	}
	shard := *res.Index
	shard.Sources, shard.Missing = shard.Sources[:1], []string{"c2"}
	if w, _ := warningOf(shard.Warnings(index), WarnNoExamples); !slices.Equal(w.Classes, []string{"c1", "c3"}) {
		t.Errorf("a shard's index: %+v, want the warning naming [c1 c3] only", w)
	}

	ok2 := blobFolder(t, 4)
	neg, err = PlanNegatives(ok2, []string{"c3"}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err = TrainAll(context.Background(), ok2, neg, t.TempDir(), cfg, RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w, found := warningOf(res.Index.Warnings(index), WarnNoExamples); found {
		t.Errorf("every class has examples, yet: %+v", w)
	}
}

// TestLeaveOneOutWarning: more folds than a source's examples are as many
// folds as examples (leave-one-out, as liblinear does), and Warnings names
// the sources so trained; the index still records the folds asked for.
// With as many folds as the smallest source's examples there is none.
func TestLeaveOneOutWarning(t *testing.T) {
	f := blobFolder(t, 4)
	neg, err := PlanNegatives(f, []string{"c3"}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultTrainConfig()
	cfg.Grid = []float64{0.01, 1}
	res, err := TrainAll(context.Background(), f, neg, t.TempDir(), cfg, RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	smallest := res.Index.Sources[0].Positives + res.Index.Sources[0].Negatives
	for _, e := range res.Index.Sources {
		smallest = min(smallest, e.Positives+e.Negatives)
	}
	for _, folds := range []int{5, smallest} {
		cfg.Folds = folds
		res, err := TrainAll(context.Background(), f, neg, t.TempDir(), cfg, RunOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if w, found := warningOf(res.Index.Warnings("x"), WarnLeaveOneOut); found {
			t.Errorf("%d folds: %+v", folds, w)
		}
	}
	cfg.Folds = smallest + 1
	res, err = TrainAll(context.Background(), f, neg, t.TempDir(), cfg, RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Index.Folds != smallest+1 {
		t.Errorf("the index records %d folds, want %d", res.Index.Folds, smallest+1)
	}
	w, found := warningOf(res.Index.Warnings("x"), WarnLeaveOneOut)
	if !found || len(w.Classes) == 0 {
		t.Fatalf("%d folds, %d examples: no warning naming the sources (%+v)", smallest+1, smallest, w)
	}
	for _, want := range []string{"leave-one-out", "folds"} {
		if !strings.Contains(w.Message, want) {
			t.Errorf("warning %q lacks %q", w.Message, want)
		}
	}
}

// TestLeaveOneOutWarningNamesTheFewest: of several sources with fewer
// examples than the folds, the warning names them all and gives the
// fewest examples any had, whatever their order.
func TestLeaveOneOutWarningNamesTheFewest(t *testing.T) {
	src := func(name string, pos, neg int) Entry {
		return Entry{Info: Info{Name: name, Positives: pos, Negatives: neg}}
	}
	for _, order := range [][]Entry{
		{src("five", 2, 3), src("three", 1, 2), src("twelve", 4, 8)},
		{src("three", 1, 2), src("five", 2, 3), src("twelve", 4, 8)},
	} {
		ix := &Index{Folds: 10, Sources: order}
		msg, names := ix.leaveOneOutWarning()
		if !strings.Contains(msg, "the fewest 3)") || len(names) != 2 || slices.Contains(names, "twelve") {
			t.Errorf("sources %v: %q naming %q; want the fewest 3, naming five and three", order, msg, names)
		}
	}
}
