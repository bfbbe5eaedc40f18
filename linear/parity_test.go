package linear

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/shareddata"
	"github.com/greedytl/greedytl/sparse"
)

// The parity tests compare the solvers with the liblinear tools (Debian's
// liblinear-tools, liblinear 2.3): on the same data, C, bias and tolerance,
// both solutions must reach the same primal objective, the same test
// accuracy, and liblinear-predict must predict with our model file exactly
// what Model.Predict predicts. The data and the tools' runners are in
// helpers_test.go.

// accuracy returns the percentage of predicted labels equal to y.
func accuracy(pred []int, y []float64) float64 {
	var right int
	for i, p := range pred {
		if float64(p) == y[i] {
			right++
		}
	}
	return 100 * float64(right) / float64(len(y))
}

// splitRows returns a seeded random split of n rows into a training part of
// the given fraction and the rest.
func splitRows(n int, frac float64, seed uint64) (train, test []int) {
	perm := rand.New(rand.NewPCG(seed, seed)).Perm(n)
	k := int(math.Round(frac * float64(n)))
	return perm[:k], perm[k:]
}

// subset returns the rows of x and y.
func subset(x *sparse.CSR, y []float64, rows []int) (*sparse.CSR, []float64) {
	sy := make([]float64, len(rows))
	for k, i := range rows {
		sy[k] = y[i]
	}
	return x.SelectRows(rows), sy
}

// TestParityLiblinear compares every solver with liblinear-train on
// heart_scale and, unless -short, on a COIL-100 problem of the shared data.
func TestParityLiblinear(t *testing.T) {
	needLiblinear(t)
	hx, hy := readHeartScale(t)
	type dataSet struct {
		name   string
		trainX *sparse.CSR
		trainY []float64
		testX  *sparse.CSR
		testY  []float64
		bias   float64
	}
	tr, te := splitRows(hx.R, 0.7, 1)
	sets := []dataSet{}
	{
		ax, ay := subset(hx, hy, tr)
		bx, by := subset(hx, hy, te)
		sets = append(sets, dataSet{name: "heart_scale", trainX: ax, trainY: ay, testX: bx, testY: by, bias: 1})
	}
	if d := shareddata.Dir(); d != "" && !testing.Short() {
		cx, labels := loadCoil100(t)
		x, y := coilOneVsRest(cx, labels, 0, func(l int) bool { return l >= 1 && l <= 20 })
		tr, te := splitRows(x.R, 0.7, 2)
		ax, ay := subset(x, y, tr)
		bx, by := subset(x, y, te)
		sets = append(sets, dataSet{name: "coil100 0-vs-1..20", trainX: ax, trainY: ay, testX: bx, testY: by, bias: 1})
	} else {
		t.Log("shared data absent or -short: comparing on heart_scale only")
	}
	solversToTest := []struct {
		s   Solver
		eps float64
	}{
		{L2RLR, 1e-4},
		{L2RL2LossSVCDual, 1e-4},
		{L2RL2LossSVC, 1e-4},
		{L2RL1LossSVCDual, 1e-4},
		{L1RL2LossSVC, 1e-4},
		{L1RLR, 1e-4},
		{L2RLRDual, 1e-4},
	}
	var table []string
	for _, ds := range sets {
		dir := t.TempDir()
		trainPath, testPath := filepath.Join(dir, "train.svm"), filepath.Join(dir, "test.svm")
		writeSVMLight(t, trainPath, ds.trainX, ds.trainY)
		writeSVMLight(t, testPath, ds.testX, ds.testY)
		prob := &Problem{X: ds.trainX, Y: ds.trainY, Bias: ds.bias}
		for _, sc := range solversToTest {
			name := fmt.Sprintf("%s/%v", ds.name, sc.s)
			t.Run(name, func(t *testing.T) {
				if _, ok := solvers[sc.s]; !ok {
					t.Skipf("%v is not implemented", sc.s)
				}
				p := Params{Solver: sc.s, C: 1, Eps: sc.eps}
				ours, err := Train(context.Background(), prob, p)
				if err != nil {
					t.Fatal(err)
				}
				theirs := liblinearTrain(t, trainPath, p, ds.bias)
				if fmt.Sprint(ours.Labels) != fmt.Sprint(theirs.Labels) {
					t.Errorf("labels: ours %v, liblinear %v", ours.Labels, theirs.Labels)
				}
				fo := PrimalObjective(prob, p, primalWeights(ours, ds.trainX.C))
				ft := PrimalObjective(prob, p, primalWeights(theirs, ds.trainX.C))
				if fo > ft*(1+1e-3) || math.Abs(fo-ft) > 1e-3*math.Abs(ft) {
					t.Errorf("objective: ours %.10g, liblinear %.10g (relative difference %.2e)", fo, ft, (fo-ft)/ft)
				}
				_, po := ours.Predict(ds.testX)
				_, pt := theirs.Predict(ds.testX)
				ao, at := accuracy(po, ds.testY), accuracy(pt, ds.testY)
				if math.Abs(ao-at) > 0.5 {
					t.Errorf("test accuracy: ours %.2f%%, liblinear %.2f%%", ao, at)
				}
				pl := liblinearPredict(t, testPath, ours)
				for i := range po {
					if pl[i] != po[i] {
						t.Fatalf("row %d: liblinear-predict with our model says %d, Predict says %d", i, pl[i], po[i])
					}
				}
				table = append(table, fmt.Sprintf("%-20s %-20s %14.8g %14.8g %8.2e %7.2f %7.2f", ds.name, sc.s, fo, ft, (fo-ft)/ft, ao, at))
			})
		}
	}
	t.Logf("parity with liblinear-train 2.3 (C=1, -B 1, same -e for both)\n%-20s %-20s %14s %14s %8s %7s %7s\n%s",
		"data", "solver", "objective ours", "liblinear", "rel.diff", "acc.ours", "acc.lib", strings.Join(table, "\n"))
}

// TestParityLabelOrder checks that Train orders the labels as liblinear
// does (first appearance, but +1 before −1) and that its model, written to
// a file, predicts with liblinear-predict exactly as with Predict.
func TestParityLabelOrder(t *testing.T) {
	needLiblinear(t)
	base := randomProblem(61, 60, 5, 0.8, 1)
	for _, names := range [][2]float64{{-1, 1}, {1, -1}, {2, 1}, {1, 2}, {0, 1}, {5, -3}} {
		// names[0] is the class of the first row, names[1] the other.
		prob := &Problem{X: base.X, Y: make([]float64, len(base.Y)), Bias: 1}
		for i, v := range base.Y {
			prob.Y[i] = names[1]
			if v == base.Y[0] {
				prob.Y[i] = names[0]
			}
		}
		path := filepath.Join(t.TempDir(), "data.svm")
		writeSVMLight(t, path, prob.X, prob.Y)
		p := Params{Solver: L2RL2LossSVCDual, Eps: 1e-6}
		ours, err := Train(context.Background(), prob, p)
		if err != nil {
			t.Fatal(err)
		}
		theirs := liblinearTrain(t, path, p, 1)
		if !slices.Equal(ours.Labels, theirs.Labels) {
			t.Errorf("labels %v: ours %v, liblinear %v", names, ours.Labels, theirs.Labels)
			continue
		}
		for j := range ours.W {
			if math.Abs(ours.W[j]-theirs.W[j]) > 1e-3*(1+math.Abs(theirs.W[j])) {
				t.Errorf("labels %v: w_%d ours %v, liblinear %v", names, j, ours.W[j], theirs.W[j])
			}
		}
		_, pred := ours.Predict(prob.X)
		if lp := liblinearPredict(t, path, ours); !slices.Equal(lp, pred) {
			t.Errorf("labels %v: liblinear-predict with our model disagrees with Predict", names)
		}
	}
}

// TestParityMultiClassPredict checks that a multi-class liblinear model read
// by ReadModel predicts what liblinear-predict predicts with it.
func TestParityMultiClassPredict(t *testing.T) {
	needLiblinear(t)
	data := filepath.Join("testdata", "liblinear", "multiclass.svm")
	x, _, err := dataset.ReadSVMLight(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"multiclass_s1.model", "multiclass_s0_B1.model"} {
		m, err := ReadModelFile(filepath.Join("testdata", "liblinear", name))
		if err != nil {
			t.Fatal(err)
		}
		_, pred := m.Predict(x)
		if lp := liblinearPredict(t, data, m); !slices.Equal(lp, pred) {
			t.Errorf("%s: liblinear-predict %v, Predict %v", name, lp, pred)
		}
	}
}

// glibcRand replays the C library's rand() of glibc (the default TYPE_3
// additive feedback generator, seeded as by srand(seed)), which
// liblinear-train's solvers draw their visiting orders from.
type glibcRand struct {
	r []int32
}

func newGlibcRand(seed int32) *glibcRand {
	g := &glibcRand{r: make([]int32, 34, 1024)}
	g.r[0] = seed
	for i := 1; i < 31; i++ {
		// r[i] = 16807·r[i−1] mod (2³¹ − 1), by Schrage's method.
		hi, lo := g.r[i-1]/127773, g.r[i-1]%127773
		v := 16807*lo - 2836*hi
		if v < 0 {
			v += 2147483647
		}
		g.r[i] = v
	}
	for i := 31; i < 34; i++ {
		g.r[i] = g.r[i-31]
	}
	for range 310 {
		g.next()
	}
	return g
}

func (g *glibcRand) next() uint32 {
	n := len(g.r)
	v := uint32(g.r[n-31]) + uint32(g.r[n-3])
	g.r = append(g.r, int32(v))
	if len(g.r) == cap(g.r) {
		g.r = append(g.r[:0], g.r[len(g.r)-34:]...)
	}
	return v
}

// IntN returns rand() % n, as liblinear draws.
func (g *glibcRand) IntN(n int) int { return int(g.next()>>1) % n }

func TestGlibcRand(t *testing.T) {
	// The first values of rand() after srand(1) (glibc).
	want := []int{1804289383, 846930886, 1681692777, 1714636915, 1957747793}
	g := newGlibcRand(1)
	for i, w := range want {
		if got := int(g.next() >> 1); got != w {
			t.Fatalf("value %d: %d, want %d", i, got, w)
		}
	}
}

// TestParityReplicatesLiblinear replays liblinear-train's random visiting
// order (glibc's rand(), which liblinear-train never seeds) in the dual
// solvers: they must then reproduce liblinear's weights, which shows that
// they are liblinear's algorithms step for step. liblinear groups the rows
// by class, +1 first, so the data are given in that order.
func TestParityReplicatesLiblinear(t *testing.T) {
	needLiblinear(t)
	hx, hy := readHeartScale(t)
	var rows []int
	for _, sign := range []float64{1, -1} {
		for i, v := range hy {
			if v == sign {
				rows = append(rows, i)
			}
		}
	}
	x, y := subset(hx, hy, rows)
	path := filepath.Join(t.TempDir(), "heart_sorted.svm")
	writeSVMLight(t, path, x, y)
	for _, c := range []struct {
		s          Solver
		c, bias    float64
		eps        float64
		wpos, wneg float64
	}{
		{L2RL2LossSVCDual, 1, 0, 0.1, 1, 1},
		{L2RL2LossSVCDual, 0.5, 1, 0.01, 2, 1},
		{L2RL1LossSVCDual, 1, 1, 0.1, 1, 1},
		{L2RL1LossSVCDual, 4, 0, 0.5, 1, 0.5},
		{L2RLRDual, 1, 1, 0.1, 1, 1},
		{L2RLRDual, 0.1, 0, 0.01, 1, 3},
		{L2RLRDual, 1, 0, 0.001, 1, 3},
	} {
		p := Params{Solver: c.s, C: c.c, Eps: c.eps, WeightPos: c.wpos, WeightNeg: c.wneg}.withDefaults()
		theirs := liblinearTrain(t, path, p, c.bias)
		prob := &Problem{X: x, Y: y, Bias: c.bias}
		var w []float64
		if c.s == L2RLRDual {
			w, _, _ = lrDual(prob, p, nil, newGlibcRand(1))
		} else {
			w, _, _ = dualSVM(prob, p, nil, newGlibcRand(1))
		}
		// The SVM solvers agree to rounding. The logistic one takes
		// logarithms, and Go's math.Log differs from glibc's in the last
		// bit for about 1% of arguments, which moves its inner Newton
		// loops' exits slightly (observed differences: up to 3e-9).
		tol := 1e-12
		if c.s == L2RLRDual {
			tol = 1e-7
		}
		for j := range w {
			if math.Abs(w[j]-theirs.W[j]) > tol*(1+math.Abs(theirs.W[j])) {
				t.Errorf("%v %+v: w_%d = %.17g, liblinear %.17g", c.s, c, j, w[j], theirs.W[j])
			}
		}
	}
}
