package experiment

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/greedytl/greedytl/internal/parallel"
	"github.com/greedytl/greedytl/internal/plural"
	"github.com/greedytl/greedytl/shard"
	"github.com/greedytl/greedytl/source"
)

// group is the unit of work: one target, number of positives, noise level
// and split, or for ProtocolNWay one episode (Ways > 0; Positives are its
// shots, Split its number, Target and Noise 0). Its data are built once
// and every method runs on them.
type group struct {
	Target, Positives, Noise, Split int // Target is a class index
	Ways                            int
}

// key is the group's key string, whose hash places it in a shard.
func (g group) key() string {
	if g.Ways > 0 {
		return fmt.Sprintf("ways=%d shots=%d episode=%d", g.Ways, g.Positives, g.Split)
	}
	return fmt.Sprintf("target=%d positives=%d noise=%d split=%d", g.Target, g.Positives, g.Noise, g.Split)
}

// cell returns the key of the group's cell for method m.
func (g group) cell(dataset, m string) Key {
	return Key{Dataset: dataset, TargetIdx: g.Target, Ways: g.Ways, Positives: g.Positives, Noise: g.Noise, Split: g.Split, Method: m}
}

// groupOf returns the group of cell k.
func groupOf(k Key) group {
	return group{Target: k.TargetIdx, Ways: k.Ways, Positives: k.Positives, Noise: k.Noise, Split: k.Split}
}

// hash64 returns the 64-bit FNV-1a hash of s.
func hash64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// stream returns a random stream determined by the seed and a label: the
// same (seed, label) always gives the same numbers, whatever else runs.
func stream(seed uint64, label string) *rand.Rand {
	return rand.New(rand.NewPCG(seed, hash64(label)))
}

// grid is the grid of a manifest: its groups in order (targets, positives,
// noise levels and splits in the manifest's order), and the position of
// each method.
type grid struct {
	dataset   string
	targets   []int // class indices, in the manifest's order (an N-way run's pool)
	ways      []int // ProtocolNWay's numbers of ways; nil for the others
	positives []int
	noise     []int
	splits    int
	methods   []string
}

// newGrid returns the grid of m. It panics if a target is not a class (a
// checked manifest has none).
func newGrid(m *Manifest) *grid {
	g := &grid{dataset: m.Dataset.Name, ways: m.Ways, positives: m.Positives, noise: m.Noise, splits: m.Splits, methods: m.Methods}
	for _, t := range m.Targets {
		k := classIndex(m.Classes, t)
		if k < 0 {
			panic("experiment: target " + t + " is not a class")
		}
		g.targets = append(g.targets, k)
	}
	return g
}

// groups returns the groups of shard s, in grid order.
func (g *grid) groups(s shard.Shard) []group {
	var out []group
	for _, w := range g.ways { // an N-way run's episodes
		for _, p := range g.positives {
			for e := range g.splits {
				gr := group{Ways: w, Positives: p, Split: e}
				if s.Contains(hash64(gr.key())) {
					out = append(out, gr)
				}
			}
		}
	}
	if g.ways != nil {
		return out
	}
	for _, t := range g.targets {
		for _, p := range g.positives {
			for _, d := range g.noise {
				for sp := range g.splits {
					gr := group{Target: t, Positives: p, Noise: d, Split: sp}
					if s.Contains(hash64(gr.key())) {
						out = append(out, gr)
					}
				}
			}
		}
	}
	return out
}

// cells returns the number of cells of shard s.
func (g *grid) cells(s shard.Shard) int { return len(g.groups(s)) * len(g.methods) }

// order returns the position of k in the grid's order (targets, positives,
// noise levels, splits, methods; for an N-way run ways, shots, 0,
// episodes, methods) and whether k is a cell of the grid.
func (g *grid) order(k Key) (pos [5]int, ok bool) {
	first := slices.Index(g.targets, k.TargetIdx)
	if g.ways != nil || k.Ways != 0 {
		first = slices.Index(g.ways, k.Ways)
		if k.TargetIdx != 0 {
			first = -1
		}
	}
	pos = [5]int{
		first, slices.Index(g.positives, k.Positives),
		slices.Index(g.noise, k.Noise), k.Split, slices.Index(g.methods, k.Method),
	}
	ok = k.Dataset == g.dataset && k.Split >= 0 && k.Split < g.splits
	for _, p := range pos {
		ok = ok && p >= 0
	}
	return pos, ok
}

// split holds the dataset rows of a group's training and test sets.
type split struct {
	trainPos, trainNeg []int
	testPos, testNeg   []int
}

// drawSplit draws group g's sets of sizes sz from the target's rows pos
// and the target negatives' rows neg: trainPos are g.Positives of pos and
// testPos up to sz.testPos further ones (every one left when 0), trainNeg
// are sz.trainNeg of neg and testNeg up to sz.testNeg further ones (every
// one left when 0), all drawn without replacement by a stream of (seed,
// target, positives, split). The noise level is not an input, so every
// noise level (and every method) gets the same examples. It panics if pos
// has no more than g.Positives rows or neg no more than sz.trainNeg (Run
// checks both beforehand).
func drawSplit(seed uint64, g group, pos, neg []int, sz setSizes) split {
	if len(pos) <= g.Positives || len(neg) <= sz.trainNeg {
		panic(fmt.Sprintf("experiment: %d positives and %d negatives cannot make a split with %d positives", len(pos), len(neg), g.Positives))
	}
	rng := stream(seed, fmt.Sprintf("split target=%d positives=%d split=%d", g.Target, g.Positives, g.Split))
	pick := func(rows []int, n, test int) (train, rest []int) {
		perm := rng.Perm(len(rows))
		out := make([]int, splitRows(len(rows), n, test))
		for k := range out {
			out[k] = rows[perm[k]]
		}
		return out[:n], out[n:]
	}
	var s split
	s.trainPos, s.testPos = pick(pos, g.Positives, sz.testPos)
	s.trainNeg, s.testNeg = pick(neg, sz.trainNeg, sz.testNeg)
	return s
}

// splitRows returns how many of have rows drawSplit takes: n for training
// and up to test further ones, or every one left when test is 0.
func splitRows(have, n, test int) int {
	if test > 0 {
		return min(have, n+test)
	}
	return have
}

// episode holds the classes of an N-way episode and the dataset rows of
// their training and test sets: classes[k]'s are train[k] and test[k].
type episode struct {
	classes     []int // class indices
	train, test [][]int
}

// drawEpisode draws episode g (g.Ways classes, g.Positives shots, number
// g.Split) from the pool of classes (indices, in the manifest's order):
// g.Ways distinct classes of the pool, then for each g.Positives training
// rows and test further ones of rowsOf(class), all without replacement, by
// a stream of (seed, ways, shots, episode) alone — not of the methods nor
// of the shard. The classes keep the order they are drawn in. It panics
// when the pool has fewer than g.Ways classes or a class fewer than
// g.Positives + test rows (Run checks both beforehand).
func drawEpisode(seed uint64, g group, pool []int, rowsOf func(class int) []int, test int) episode {
	if g.Ways > len(pool) {
		panic(fmt.Sprintf("experiment: %d ways from a pool of %d classes", g.Ways, len(pool)))
	}
	rng := stream(seed, fmt.Sprintf("episode ways=%d shots=%d episode=%d", g.Ways, g.Positives, g.Split))
	perm := rng.Perm(len(pool))
	e := episode{classes: make([]int, g.Ways), train: make([][]int, g.Ways), test: make([][]int, g.Ways)}
	for k := range g.Ways {
		c := pool[perm[k]]
		rows := rowsOf(c)
		if len(rows) < g.Positives+test {
			panic(fmt.Sprintf("experiment: class %d has %d examples, fewer than %d shots and %d test examples", c, len(rows), g.Positives, test))
		}
		rp := rng.Perm(len(rows))
		pick := make([]int, g.Positives+test)
		for i := range pick {
			pick[i] = rows[rp[i]]
		}
		e.classes[k], e.train[k], e.test[k] = c, pick[:g.Positives], pick[g.Positives:]
	}
	return e
}

// maxNoiseBytes bounds the memory of the noise of the groups worked on at
// once where the machine's memory cannot be read (usableMemory): some
// two million dimensions on the 120 rows of a standard group, on one
// worker.
const maxNoiseBytes = 4e9

// checkNoise returns an input error when the largest noise level of cfg,
// on the largest group, times the workers that hold a group's draws at
// once would take more memory than the process can have (usableMemory:
// the machine's, or its control groups' limit where smaller; maxNoiseBytes
// where neither can be read), rather than crash with Go's
// out-of-memory error: a group's noise, its N(0,1) columns (noiseColumns)
// and their copy in the features (runner.features), is 16 bytes a row and
// dimension; the largest group is the largest number of positives of the
// target of the run's grid g with the most examples (counts, cfg.Data's
// class counts), its test positives, and the training and test negatives
// of the pool neg — as many rows as drawSplit takes; the workers are
// cfg.Workers (GOMAXPROCS when ≤ 0) but no more than the groups of g in
// cfg.Shard (groups) with noise.
func checkNoise(cfg *Config, g *grid, groups []group, counts []int, neg *source.Negatives) error {
	d := slices.Max(cfg.Noise)
	if d == 0 {
		return nil
	}
	sz, _ := protocolSizes(cfg.Protocol) // checked
	p := slices.Max(cfg.Positives)
	pos := 0
	for _, c := range g.targets {
		pos = max(pos, splitRows(counts[c], p, sz.testPos))
	}
	rows := pos + splitRows(len(neg.Target), sz.trainNeg, sz.testNeg)
	workers := parallel.Count(cfg.Workers)
	noisy := 0
	for _, gr := range groups {
		if gr.Noise > 0 {
			noisy++
		}
	}
	workers = max(1, min(workers, noisy))
	b := 16 * float64(rows) * float64(d)
	mem, there, ok := usableMemory()
	if !ok {
		mem, there = maxNoiseBytes, fmt.Sprintf("the %.0f GB allowed where the machine's memory cannot be read", maxNoiseBytes/1e9)
	}
	if need := b * float64(workers); need > mem {
		return inputErrorf("experiment: %d noise dimensions would take %.3g GB on a group's %d rows (the N(0,1) draws and their copy in the features), %.3g GB on the %s a group's at once, more than %s: give a smaller --noise or fewer --workers",
			d, b/1e9, rows, need/1e9, plural.Count(workers, "worker that holds", "workers that hold"), there)
	}
	return nil
}

// noiseColumns returns g.Noise independent N(0,1) columns for the train
// rows and then the test rows, drawn by a stream of (seed, target,
// positives, split, noise), or nils when g.Noise is 0.
func noiseColumns(seed uint64, g group, train, test int) (*mat.Dense, *mat.Dense) {
	if g.Noise == 0 {
		return nil, nil
	}
	rng := stream(seed, fmt.Sprintf("noise target=%d positives=%d split=%d noise=%d", g.Target, g.Positives, g.Split, g.Noise))
	draw := func(r int) *mat.Dense {
		v := make([]float64, r*g.Noise)
		for k := range v {
			v[k] = rng.NormFloat64()
		}
		return mat.NewDense(r, g.Noise, v)
	}
	a := draw(train)
	return a, draw(test)
}

// methodSeed returns the seed given to method m's fit on group g.
func methodSeed(seed uint64, g group, m string) uint64 {
	return stream(seed, fmt.Sprintf("fit %s method=%s", g.key(), m)).Uint64()
}
