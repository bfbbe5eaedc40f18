package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/plot"

	"github.com/greedytl/greedytl/experiment"
)

func TestAverageLinkageKnown(t *testing.T) {
	// Points on a line at 0, 10, 1, 12, 4. By hand: {0,2} at 1; {1,3} at
	// 2; then 4 joins {0,2} at mean(4, 3) = 3.5; the two clusters join at
	// the mean of the six distances between {0,2,4} and {1,3}: 56/6.
	points := [][]float64{{0}, {10}, {1}, {12}, {4}}
	merges, order := averageLinkage(points)
	want := []merge{{0, 2, 1}, {1, 3, 2}, {4, 5, 3.5}, {6, 7, 56.0 / 6}}
	if len(merges) != len(want) {
		t.Fatalf("merges %v, want %v", merges, want)
	}
	for i := range want {
		if merges[i].a != want[i].a || merges[i].b != want[i].b || math.Abs(merges[i].height-want[i].height) > 1e-12 {
			t.Errorf("merge %d = %v, want %v", i, merges[i], want[i])
		}
	}
	if wantOrder := []int{0, 2, 4, 1, 3}; !slices.Equal(order, wantOrder) {
		t.Errorf("leaf order %v, want %v", order, wantOrder)
	}
}

// TestAverageLinkageDefinition checks, on random points, that every merge
// joins the two closest clusters by the average-linkage distance computed
// from its definition (the mean of all member distances), and that the leaf
// order is a permutation keeping each cluster contiguous.
func TestAverageLinkageDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 5 {
		n := 3 + trial*4
		points := make([][]float64, n)
		for i := range points {
			points[i] = []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		}
		dist := func(i, j int) float64 {
			var s float64
			for k := range points[i] {
				s += (points[i][k] - points[j][k]) * (points[i][k] - points[j][k])
			}
			return math.Sqrt(s)
		}
		avg := func(a, b []int) float64 {
			var s float64
			for _, i := range a {
				for _, j := range b {
					s += dist(i, j)
				}
			}
			return s / float64(len(a)*len(b))
		}
		members := map[int][]int{}
		for i := range n {
			members[i] = []int{i}
		}
		merges, order := averageLinkage(points)
		if len(merges) != n-1 {
			t.Fatalf("n=%d: %d merges", n, len(merges))
		}
		for step, m := range merges {
			want := avg(members[m.a], members[m.b])
			if math.Abs(m.height-want) > 1e-9 {
				t.Errorf("n=%d step %d: height %v, want %v", n, step, m.height, want)
			}
			for x := range members {
				for y := range members {
					if x < y && avg(members[x], members[y]) < m.height-1e-9 {
						t.Errorf("n=%d step %d: clusters %d and %d are closer (%v) than the merge (%v)", n, step, x, y, avg(members[x], members[y]), m.height)
					}
				}
			}
			members[n+step] = append(slices.Clone(members[m.a]), members[m.b]...)
			delete(members, m.a)
			delete(members, m.b)
			// The merged cluster is contiguous in the leaf order.
			pos := make([]int, 0)
			for _, p := range members[n+step] {
				pos = append(pos, slices.Index(order, p))
			}
			if slices.Max(pos)-slices.Min(pos) != len(pos)-1 {
				t.Errorf("n=%d step %d: cluster %v not contiguous in %v", n, step, members[n+step], order)
			}
		}
		sorted := slices.Sorted(slices.Values(order))
		for i, v := range sorted {
			if v != i {
				t.Fatalf("n=%d: order %v is not a permutation", n, order)
			}
		}
	}
}

func TestGroupLayout(t *testing.T) {
	groups := []string{"fruit", "tool", "fruit", "animal", "tool", "negative"}
	// Class 5 is no target; class 3 is only a source.
	l := groupLayout([]int{0, 1, 2, 4}, []int{0, 1, 2, 3, 4}, groups)
	if want := []int{0, 2, 1, 4}; !slices.Equal(l.cols, want) {
		t.Errorf("columns %v, want %v", l.cols, want)
	}
	if want := []int{0, 2, 1, 4, 3}; !slices.Equal(l.rows, want) {
		t.Errorf("rows %v, want %v", l.rows, want)
	}
	if want := []span{{0, 2, "fruit"}, {2, 4, "tool"}}; !slices.Equal(l.colSpans, want) {
		t.Errorf("column groups %v, want %v", l.colSpans, want)
	}
	if want := []span{{0, 2, "fruit"}, {2, 4, "tool"}, {4, 5, "animal"}}; !slices.Equal(l.rowSpans, want) {
		t.Errorf("row groups %v, want %v", l.rowSpans, want)
	}
	if l.clustered {
		t.Error("a grouped layout says it is clustered")
	}
}

func TestClusterLayout(t *testing.T) {
	// Targets 0 and 2 use source 1; targets 1 and 3 use source 4; class 4
	// is a source only.
	ref := map[[2]int]float64{
		{1, 0}: 1, {1, 2}: 0.9, {3, 2}: 0.1,
		{4, 1}: 1, {4, 3}: 1, {0, 3}: 0.2,
	}
	l := clusterLayout([]int{0, 1, 2, 3}, []int{0, 1, 2, 3, 4}, ref)
	if want := []int{0, 2, 1, 3}; !slices.Equal(l.cols, want) {
		t.Errorf("columns %v, want %v", l.cols, want)
	}
	if want := []int{0, 2, 1, 3, 4}; !slices.Equal(l.rows, want) {
		t.Errorf("rows %v, want %v (targets' order, then sources only)", l.rows, want)
	}
	if !l.clustered || l.colSpans != nil {
		t.Errorf("layout %+v", l)
	}
}

func TestMeanAbsWeights(t *testing.T) {
	r0 := cell("greedytl", 0, 2, 0, 0, 0.7, 1)
	r0.Sources, r0.Weights = []int{1}, []float64{-0.5}
	r1 := cell("greedytl", 0, 2, 0, 1, 0.7, 1)
	r1.Sources, r1.Weights = []int{1, 2}, []float64{0.3, 1}
	r2 := failed("greedytl", 0, 2, 0, 2)
	r2.Sources, r2.Weights = []int{2}, []float64{100}
	other := cell("greedytl", 0, 5, 0, 0, 0.7, 1) // another size
	other.Sources, other.Weights = []int{2}, []float64{100}
	w := meanAbsWeights([]experiment.Record{r0, r1, r2, other}, rowKey{dataset: "d", method: "greedytl", positives: 2})
	// Over the two successful splits; a source unused in a split counts 0.
	want := map[[2]int]float64{{1, 0}: 0.4, {2, 0}: 0.5}
	if len(w.val) != len(want) {
		t.Fatalf("weights %v, want %v", w.val, want)
	}
	for k, v := range want {
		if math.Abs(w.val[k]-v) > 1e-15 {
			t.Errorf("weight %v = %v, want %v", k, w.val[k], v)
		}
	}
	if meanAbsWeights([]experiment.Record{cell("dam", 0, 2, 0, 0, 0.7, 1)}, rowKey{dataset: "d", method: "dam", positives: 2}) != nil {
		t.Error("weights for a method that records none")
	}
	// Weights whose sum overflows have a finite mean, at most the largest:
	// it was +Inf, and drawing the matrix failed with a nil-pointer panic.
	big := []experiment.Record{r0, r1}
	big[0].Weights, big[1].Weights = []float64{-math.MaxFloat64}, []float64{math.MaxFloat64 / 2, 1}
	w = meanAbsWeights(big, rowKey{dataset: "d", method: "greedytl", positives: 2})
	if got, want := w.val[[2]int{1, 0}], math.MaxFloat64/2+math.MaxFloat64/4; got != want {
		t.Errorf("weight of an overflowing sum = %v, want %v", got, want)
	}
}

func TestAxisTicks(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	labels := func(ts plot.ConstantTicks) (out []string) {
		for _, tk := range ts {
			out = append(out, tk.Label)
		}
		return out
	}
	// Few classes: every class, rows flipped so that the first is on top.
	ts := axisTicks([]int{2, 0, 1}, nil, names, true)
	if got := labels(ts); !slices.Equal(got, []string{"c", "a", "b"}) || ts[0].Value != 2 || ts[2].Value != 0 {
		t.Errorf("ticks %v", ts)
	}
	// Many classes in groups: one label per group, at its centre, and
	// minor ticks at the boundaries.
	cs := make([]int, 50)
	big := make([]string, 50)
	for i := range cs {
		cs[i] = i
	}
	ts = axisTicks(cs, []span{{0, 20, "g1"}, {20, 50, "g2"}}, big, false)
	var labelled []plot.Tick
	for _, tk := range ts {
		if tk.Label != "" {
			labelled = append(labelled, tk)
		}
	}
	if len(labelled) != 2 || labelled[0].Value != 9.5 || labelled[1].Value != 34.5 {
		t.Errorf("group ticks %v", labelled)
	}
	if len(ts) != 5 {
		t.Errorf("%d ticks, want 2 labels + 3 boundaries", len(ts))
	}
	// Many classes without groups: no labels.
	if ts := axisTicks(cs, nil, big, false); len(ts) != 0 {
		t.Errorf("ticks %v, want none", ts)
	}
}
