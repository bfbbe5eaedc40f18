package experiment

import (
	"slices"
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
