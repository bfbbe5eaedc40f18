package experiment

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/shard"
)

// TestGridOrderBruteForce checks grid.order's verdict on every key around
// a grid — classes, sizes, noise levels, splits and methods in it and just
// outside it (split −1 and Splits among them) — against the cells the
// grid's groups and methods make up, for a binary and an N-way grid.
func TestGridOrderBruteForce(t *testing.T) {
	binary := fuzzManifest()
	binary.Classes = []string{"c0", "c1", "c2", "n0"}
	binary.Targets, binary.Noise, binary.Splits = []string{"c2", "c0"}, []int{0, 7}, 3
	nway := fuzzManifest()
	nway.Protocol, nway.Ways, nway.Targets, nway.Splits, nway.TestPerClass = ProtocolNWay, []int{2, 3}, []string{"c0", "c1"}, 3, 5
	for _, man := range []*Manifest{binary, nway} {
		g := newGrid(man)
		cells := map[Key]bool{}
		for _, gr := range g.groups(shard.Shard{}) {
			for _, m := range g.methods {
				cells[gr.cell(g.dataset, m)] = true
			}
		}
		n := 0
		for _, d := range []string{"d", "e"} {
			for target := range 4 {
				for _, ways := range []int{0, 2, 3, 4} {
					for _, p := range []int{1, 2, 5} {
						for _, noise := range []int{0, 3, 7} {
							for split := -1; split <= man.Splits; split++ {
								for _, m := range []string{"m", "k", "x"} {
									k := Key{Dataset: d, TargetIdx: target, Ways: ways, Positives: p, Noise: noise, Split: split, Method: m}
									pos, ok := g.order(k)
									if ok != cells[k] {
										t.Fatalf("%v (protocol %s): order says %v, the grid's cells %v", k, man.Protocol, ok, cells[k])
									}
									if ok {
										n++
										if want := slices.Index(g.methods, m); pos[4] != want || pos[3] != split {
											t.Errorf("%v: position %v", k, pos)
										}
									}
								}
							}
						}
					}
				}
			}
		}
		if n != len(cells) {
			t.Errorf("protocol %s: %d keys in the grid, want its %d cells", man.Protocol, n, len(cells))
		}
	}
}

// TestExpectedOfOverlappingGrids: the cells of a row in grids that overlap
// (CombineRuns: other splits or noise levels) count the common splits
// once — the largest grid's — whatever the order the grids were read in;
// a row no grid holds is −1. So for the N-way grids' episodes.
func TestExpectedOfOverlappingGrids(t *testing.T) {
	small, large := fuzzManifest(), fuzzManifest()
	small.Splits, large.Splits = 2, 5
	small.Noise = []int{0, 3}
	nsmall, nlarge := fuzzManifest(), fuzzManifest()
	for _, m := range []*Manifest{nsmall, nlarge} {
		m.Protocol, m.Ways, m.TestPerClass = ProtocolNWay, []int{2}, 5
	}
	nsmall.Splits, nlarge.Splits = 3, 4
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		bin := [2]*Manifest{small, large}
		nw := [2]*Manifest{nsmall, nlarge}
		res := &Results{Manifests: map[string][]*Manifest{
			"d": {bin[order[0]], bin[order[1]]},
			"w": {nw[order[0]], nw[order[1]]},
		}}
		for i, tc := range []struct {
			got, want int
		}{
			{res.Expected("d", "m", 2, 0), 2 * 5}, // both grids: the larger's 5 splits of 2 targets
			{res.Expected("d", "m", 2, 3), 2 * 2}, // the small grid alone
			{res.Expected("d", "m", 3, 0), -1},
			{res.Expected("d", "x", 2, 0), -1},
			{res.ExpectedEpisodes("w", "k", 2, 5), 4},
			{res.ExpectedEpisodes("w", "k", 3, 5), -1},
		} {
			if tc.got != tc.want {
				t.Errorf("grids in order %v, row %d: %d cells, want %d", order, i, tc.got, tc.want)
			}
		}
	}
}

// TestShardsPartitionTheNWayGrid: the shards of an N-way grid split its
// episodes between them — each episode in exactly one shard — as they split
// a binary grid's groups.
func TestShardsPartitionTheNWayGrid(t *testing.T) {
	g := &grid{dataset: "d", targets: []int{0, 2, 3, 5, 8}, ways: []int{2, 5}, positives: []int{1, 5}, noise: []int{0}, splits: 30, methods: []string{"a"}}
	all := g.groups(shard.Shard{})
	if len(all) != 2*2*30 {
		t.Fatalf("%d episodes, want 120", len(all))
	}
	for _, n := range []int{2, 3} {
		seen := map[group]int{}
		for i := range n {
			part := g.groups(shard.Shard{I: i, N: n})
			if len(part) == 0 || len(part) == len(all) {
				t.Errorf("shard %d/%d holds %d of %d episodes", i, n, len(part), len(all))
			}
			for _, gr := range part {
				seen[gr]++
			}
		}
		for _, gr := range all {
			if seen[gr] != 1 {
				t.Errorf("%d shards: episode %v in %d of them", n, gr, seen[gr])
			}
		}
	}
}

// TestCoverageComplete: a method's cells are complete when every expected
// cell is present, not one fewer, and never when the grid is unknown.
func TestCoverageComplete(t *testing.T) {
	for _, tc := range []struct {
		c    Coverage
		want bool
	}{
		{Coverage{Present: 5, Expected: 5}, true},
		{Coverage{Present: 4, Expected: 5}, false},
		{Coverage{Present: 0, Expected: 1}, false},
		{Coverage{Present: 0, Expected: 0}, true},
		{Coverage{Present: 3, Expected: -1}, false},
	} {
		if got := tc.c.Complete(); got != tc.want {
			t.Errorf("%+v: complete %v, want %v", tc.c, got, tc.want)
		}
	}
}

// TestMergeReportCounts: a merge's summary counts the records read, the
// failed ones among them, and the grid's cells.
func TestMergeReportCounts(t *testing.T) {
	man := fuzzManifest()
	res := &Results{Records: []Record{{Method: "m"}, {Method: "m", Error: "fit: no"}, {Method: "k"}, {Method: "k", Error: "predict: no"}, {Method: "k", Error: "fit: no"}}}
	rep := mergeReport(res, man)
	if rep.Present != 5 || rep.Failed != 3 || rep.Expected != 2*2*2*1*2 {
		t.Errorf("summary %+v, want 5 present, 3 failed, 16 expected", rep)
	}
}

// TestConflictErrorShowsTen: the conflict error lists the first ten
// conflicting cells, and counts the others only when there are others.
func TestConflictErrorShowsTen(t *testing.T) {
	var at []string
	for k := range 12 {
		at = append(at, fmt.Sprintf("c%d", k))
	}
	for _, tc := range []struct {
		n    int
		more string
	}{{9, ""}, {10, ""}, {11, "; and 1 more"}, {12, "; and 2 more"}} {
		err := conflictError(&Results{ConflictAt: at[:tc.n]})
		list := strings.Join(at[:min(tc.n, 10)], "; ")
		want := fmt.Sprintf("merge: %d cells have different records in different places: %s%s", tc.n, list, tc.more)
		if err == nil || err.Error() != want {
			t.Errorf("%d conflicts: %v, want %q", tc.n, err, want)
		}
	}
}
