package source

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/errtest"
)

// TestNilArguments: the functions and methods with an error result return
// one for a nil *dataset.Folder or a nil *Index, where they dereferenced
// it; a nil plan holds no class out (as SourceClasses already said), and
// Differences of no record says so.
func TestNilArguments(t *testing.T) {
	f := memFolder(slices.Repeat([]int{10}, 4))
	neg, err := PlanNegatives(f, []string{"c1"}, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	var ix *Index
	ctx := context.Background()
	for _, c := range []struct {
		name, want string
		f          func() error
	}{
		{"DataDigest", "nil *dataset.Folder", func() error { _, err := DataDigest(nil); return err }},
		{"PlanNegatives", "nil *dataset.Folder", func() error { _, err := PlanNegatives(nil, nil, 0.5, 1); return err }},
		{"Negatives.Check", "nil *dataset.Folder", func() error { return neg.Check(nil) }},
		{"TrainOne", "nil *dataset.Folder", func() error { _, _, err := TrainOne(ctx, nil, 0, neg, DefaultTrainConfig()); return err }},
		{"TrainAll", "nil *dataset.Folder", func() error {
			_, err := TrainAll(ctx, nil, neg, t.TempDir(), DefaultTrainConfig(), RunOptions{})
			return err
		}},
		{"Index.CheckData, nil folder", "nil *dataset.Folder", func() error { return (&Index{}).CheckData(nil) }},
		{"Index.CheckDigest, nil folder", "nil *dataset.Folder", func() error { return (&Index{}).CheckDigest(nil, "") }},
		{"Index.Config, nil", "nil *Index", func() error { _, err := ix.Config(); return err }},
		{"Index.CheckData, nil", "nil *Index", func() error { return ix.CheckData(f) }},
		{"Index.CheckDigest, nil", "nil *Index", func() error { return ix.CheckDigest(f, "") }},
		{"Index.Load, nil", "nil *Index", func() error { _, err := ix.Load(t.TempDir()); return err }},
	} {
		errtest.Refuses(t, c.name, c.want, c.f)
	}
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("panic %v", r)
		}
	}()
	var noPlan *Negatives
	if noPlan.IsHeldOut(0) {
		t.Error("a nil plan holds class 0 out")
	}
	if d := (&Index{}).Differences(nil); len(d) != 1 || !strings.Contains(d[0], "no record") {
		t.Errorf("Differences(nil) = %q", d)
	}
}
