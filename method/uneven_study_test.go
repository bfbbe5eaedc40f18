package method

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/clinc150"
	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/shareddata"
	"github.com/greedytl/greedytl/source"
	"gonum.org/v1/gonum/mat"
)

// unevenData is one N-way data set of the uneven-shot study
// (TestUnevenShotsStudy): the rows of the classes with a source, every
// source's scores on them, each source's class, and the rows of each class.
type unevenData struct {
	name     string
	x        *mat.Dense // pool rows
	h        *mat.Dense // every source's score on them
	srcClass []int
	byClass  map[int][]int // class → rows of x
	pool     []int
}

// loadUnevenStudy reads the data set name (clinc150, coil100-hog or
// coil100-colorhist, the N-way data sets of docs/results/README.md) and its
// sources from work/NAME/sources (greedytl train-sources --seed 1, as the
// N-way results' were trained).
func loadUnevenStudy(t *testing.T, work, name string) *unevenData {
	var f *dataset.Folder
	var err error
	switch name {
	case "clinc150":
		f, err = clinc150.Load(clinc150.Options{})
	case "coil100-hog":
		f, err = dataset.OpenFolder(shareddata.Path(t, "coil100/hog"))
	case "coil100-colorhist":
		f, err = dataset.OpenFolder(shareddata.Path(t, "coil100/colorhist"))
	default:
		t.Fatalf("unknown data set %q (clinc150, coil100-hog, coil100-colorhist)", name)
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(work, name, "sources")
	ix, err := source.ReadIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := ix.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	d := &unevenData{name: name, byClass: map[int][]int{}}
	for _, e := range ix.Sources {
		d.srcClass = append(d.srcClass, e.Class)
		if !slices.Contains(d.pool, e.Class) {
			d.pool = append(d.pool, e.Class)
		}
	}
	slices.Sort(d.pool)
	var rows []int
	for _, c := range d.pool {
		for _, r := range f.Rows(c) {
			d.byClass[c] = append(d.byClass[c], len(rows))
			rows = append(rows, r)
		}
	}
	fr, err := f.ReadRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	d.x = mat.NewDense(len(rows), fr.Cols, nil)
	for i := range rows {
		fr.RowTo(d.x.RawRowView(i), i)
	}
	if d.h, err = set.Scores(d.x); err != nil {
		t.Fatal(err)
	}
	return d
}

// shapeShots returns the training examples of each of the ways classes of
// an episode of shape: "AvB" A of the first class and B of each other,
// "eN" N of each, "mixed" each drawn uniformly from 1 … 10 with rng.
func shapeShots(shape string, ways int, rng *rand.Rand) []int {
	s := make([]int, ways)
	switch {
	case shape == "mixed":
		for i := range s {
			s[i] = 1 + rng.IntN(10)
		}
	case strings.HasPrefix(shape, "e"): // equal
		n, _ := strconv.Atoi(shape[1:])
		for i := range s {
			s[i] = n
		}
	case strings.Contains(shape, "v"): // AvB: class 0 A, others B
		p := strings.Split(shape, "v")
		a, _ := strconv.Atoi(p[0])
		b, _ := strconv.Atoi(p[1])
		for i := range s {
			s[i] = b
		}
		s[0] = a
	}
	return s
}

// TestUnevenShotsStudy is the uneven-shot study of docs/results/README.md
// ("Several classes at once", uneven shots), run only when
// GREEDYTL_UNEVEN_WORK names the directory holding NAME/sources for each
// data set; it fails only when a fit or a prediction does. Each episode
// (GREEDYTL_UNEVEN_EPISODES, default 10, a shape) draws its classes among
// those with a source, the training examples of each class by the shape
// (shapeShots; "W/shape" for W ways, 5 by default) and 20 test examples of
// each, with H the scores of the sources of the other classes, as the N-way
// protocol builds its episodes. It prints a line per data set, shape and
// method: the mean balanced accuracy over the episodes and its standard
// error, the mean recall of the classes with the fewest and with the most
// examples (in %), and the number of episodes in which the model predicted
// none of some class's training examples as that class.
// GREEDYTL_UNEVEN_SEED, default 0 (the published episodes), draws other
// episodes: a development seed, on which a change is tried before the
// published episodes are run once.
func TestUnevenShotsStudy(t *testing.T) {
	work := os.Getenv("GREEDYTL_UNEVEN_WORK")
	if work == "" {
		t.Skip("a study: set GREEDYTL_UNEVEN_WORK (see the comment)")
	}
	env := func(name, def string) string {
		if v := os.Getenv(name); v != "" {
			return v
		}
		return def
	}
	episodes, err := strconv.Atoi(env("GREEDYTL_UNEVEN_EPISODES", "10"))
	if err != nil {
		t.Fatal(err)
	}
	devSeed, err := strconv.ParseUint(env("GREEDYTL_UNEVEN_SEED", "0"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	const test = 20
	methods := strings.Split(env("GREEDYTL_UNEVEN_METHODS", "greedytl-nway,multinomial-logistic,nearest-mean,simpleshot,nearest-neighbour"), ",")
	for _, dsName := range strings.Split(env("GREEDYTL_UNEVEN_DATA", "coil100-hog,coil100-colorhist,clinc150"), ",") {
		d := loadUnevenStudy(t, work, dsName)
		for _, shapeW := range strings.Split(env("GREEDYTL_UNEVEN_SHAPES", "1v10,1v5,10v1,mixed,20/mixed"), ",") {
			ways := 5
			shape := shapeW
			if i := strings.Index(shapeW, "/"); i >= 0 {
				ways, _ = strconv.Atoi(shapeW[:i])
				shape = shapeW[i+1:]
			}
			type acc struct {
				bal, small, big []float64
				ignored         int
			}
			res := make([]acc, len(methods))
			for ep := range episodes {
				rng := rand.New(rand.NewPCG(uint64(ep), 0x756e6576+devSeed))
				perm := rng.Perm(len(d.pool))
				shots := shapeShots(shape, ways, rng)
				if slices.Max(shots) > 10 || slices.Min(shots) < 1 {
					t.Fatalf("shape %q: %v examples a class, want 1 … 10 (the test examples follow the first 10)", shapeW, shots)
				}
				minShots := slices.Min(shots)
				maxShots := slices.Max(shots)
				var trainRows, testRows, trainY, testY []int
				var names []string
				classes := make([]int, ways)
				for k := range ways {
					c := d.pool[perm[k]]
					classes[k] = c
					names = append(names, fmt.Sprint(c))
					rows := d.byClass[c]
					rp := rng.Perm(len(rows))
					for i := range shots[k] {
						trainRows = append(trainRows, rows[rp[i]])
						trainY = append(trainY, k)
					}
					for i := range test {
						testRows = append(testRows, rows[rp[10+i]])
						testY = append(testY, k)
					}
				}
				var cols []int
				for j, c := range d.srcClass {
					if !slices.Contains(classes, c) {
						cols = append(cols, j)
					}
				}
				mk := func(rows []int) Data {
					x := rowsOf(d.x, rows)
					h := mat.NewDense(len(rows), len(cols), nil)
					for i, r := range rows {
						for k, j := range cols {
							h.Set(i, k, d.h.At(r, j))
						}
					}
					return Data{X: x, H: h}
				}
				train, tst := mk(trainRows), mk(testRows)
				y := ClassLabels{Names: names, Y: trainY}
				for vi, name := range methods {
					m, err := NewMulti(name)
					if err != nil {
						t.Fatal(err)
					}
					model, err := m.FitMulti(context.Background(), train, y, Extra{Seed: uint64(1000+ep) + 100*devSeed})
					if err != nil {
						t.Fatal(err)
					}
					tp, err := model.Predict(train)
					if err != nil {
						t.Fatal(err)
					}
					seen := make([]bool, ways)
					for i, c := range trainY {
						if tp[i] == c {
							seen[c] = true
						}
					}
					if slices.Contains(seen, false) {
						res[vi].ignored++
					}
					pred, err := model.Predict(tst)
					if err != nil {
						t.Fatal(err)
					}
					hit, tot := make([]float64, ways), make([]float64, ways)
					for i, c := range testY {
						tot[c]++
						if pred[i] == c {
							hit[c]++
						}
					}
					var bal, sm, nsm, bg, nbg float64
					for k := range ways {
						r := hit[k] / tot[k]
						bal += r / float64(ways)
						if shots[k] == minShots {
							sm += r
							nsm++
						}
						if shots[k] == maxShots {
							bg += r
							nbg++
						}
					}
					res[vi].bal = append(res[vi].bal, bal)
					res[vi].small = append(res[vi].small, sm/nsm)
					res[vi].big = append(res[vi].big, bg/nbg)
				}
			}
			for vi, name := range methods {
				mb, sb := meanSE(res[vi].bal)
				ms, _ := meanSE(res[vi].small)
				mg, _ := meanSE(res[vi].big)
				fmt.Printf("%s\t%s\t%s\t%.1f\t%.1f\t%.1f\t%.1f\t%d\n", d.name, shapeW, name, 100*mb, 100*sb, 100*ms, 100*mg, res[vi].ignored)
			}
		}
	}
}

// meanSE returns the mean of v and its standard error.
func meanSE(v []float64) (float64, float64) {
	var s, q float64
	for _, x := range v {
		s += x
	}
	m := s / float64(len(v))
	for _, x := range v {
		q += (x - m) * (x - m)
	}
	if len(v) < 2 {
		return m, 0
	}
	return m, math.Sqrt(q / float64(len(v)-1) / float64(len(v)))
}
