package method

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/shareddata"
	"github.com/greedytl/greedytl/linear"
	"github.com/greedytl/greedytl/sparse"
	"gonum.org/v1/gonum/mat"
)

// coilTransfer is one COIL-100 (HOG features) leave-one-class-out task built
// as the protocol builds it (docs/design.md §6), scaled down to keep the test fast:
// 20 negative classes (18 source negatives, 2 target negatives), 30 source
// classes whose linear SVMs (liblinear -s 1 -c 1 -B 1, class vs the source
// negatives) give the source scores, and one target class.
type coilTransfer struct {
	X        *mat.Dense // target-task rows: features
	H        *mat.Dense // target-task rows: source scores
	pos, neg []int      // rows of X and H of the target class and of the target negatives
}

var (
	coilOnce sync.Once
	coilTask *coilTransfer
	coilErr  error
)

// loadCoilTransfer builds the task once per test binary; it skips the test
// when the shared data are absent.
func loadCoilTransfer(t *testing.T) *coilTransfer {
	t.Helper()
	featPath := shareddata.Path(t, "coil100/hog/features.npy")
	labelPath := shareddata.Path(t, "coil100/hog/labels.npy")
	coilOnce.Do(func() { coilTask, coilErr = buildCoilTransfer(featPath, labelPath) })
	if coilErr != nil {
		t.Fatal(coilErr)
	}
	return coilTask
}

func buildCoilTransfer(featPath, labelPath string) (*coilTransfer, error) {
	F, err := dataset.ReadNPYMatrix(featPath)
	if err != nil {
		return nil, err
	}
	labels, err := dataset.ReadNPYInts(labelPath)
	if err != nil {
		return nil, err
	}
	byClass := map[int][]int{}
	for i, c := range labels {
		byClass[c] = append(byClass[c], i)
	}
	rng := rand.New(rand.NewPCG(2014, 2014))
	classes := rng.Perm(len(byClass))
	negClasses, target, sources := classes[:20], classes[20], classes[21:51]
	var srcNeg, tgtNeg []int
	for k, c := range negClasses {
		if k < 18 {
			srcNeg = append(srcNeg, byClass[c]...)
		} else {
			tgtNeg = append(tgtNeg, byClass[c]...)
		}
	}
	task := &coilTransfer{pos: byClass[target], neg: tgtNeg}
	rows := append(append([]int(nil), task.pos...), task.neg...)
	_, d := F.Dims()
	task.X = mat.NewDense(len(rows), d, nil)
	for k, r := range rows {
		dense(task.X).SetRow(k, F.RawRowView(r))
	}
	task.pos = make([]int, len(byClass[target]))
	for k := range task.pos {
		task.pos[k] = k
	}
	task.neg = make([]int, len(tgtNeg))
	for k := range task.neg {
		task.neg[k] = len(task.pos) + k
	}
	task.H = mat.NewDense(len(rows), len(sources), nil)
	for j, c := range sources {
		trainRows := append(append([]int(nil), byClass[c]...), srcNeg...)
		A := mat.NewDense(len(trainRows), d, nil)
		y := make([]float64, len(trainRows))
		for k, r := range trainRows {
			A.SetRow(k, F.RawRowView(r))
			y[k] = -1
			if k < len(byClass[c]) {
				y[k] = 1
			}
		}
		svm, err := linear.Train(context.Background(), &linear.Problem{X: sparse.FromDense(A), Y: y, Bias: 1},
			linear.Params{Solver: linear.L2RL2LossSVCDual, C: 1})
		if err != nil {
			return nil, err
		}
		dense(task.H).SetCol(j, svm.Scores(task.X))
	}
	return task, nil
}

// split draws a protocol split: nPos positives and 10 negatives to train,
// 50 further of each to test.
func (c *coilTransfer) split(nPos int, seed uint64) (train, test Data) {
	rng := rand.New(rand.NewPCG(seed, seed))
	pos, neg := slicesShuffled(rng, c.pos), slicesShuffled(rng, c.neg)
	pick := func(rows []int, y []float64) Data {
		d := Data{X: mat.NewDense(len(rows), dense(c.X).RawMatrix().Cols, nil), H: mat.NewDense(len(rows), dense(c.H).RawMatrix().Cols, nil), Y: y}
		for k, r := range rows {
			dense(d.X).SetRow(k, dense(c.X).RawRowView(r))
			dense(d.H).SetRow(k, dense(c.H).RawRowView(r))
		}
		return d
	}
	nTest := min(50, len(pos)-nPos)
	train = pick(append(append([]int(nil), pos[:nPos]...), neg[:10]...), dataset.SignedLabels(nPos, 10))
	test = pick(append(append([]int(nil), pos[nPos:nPos+nTest]...), neg[10:60]...), dataset.SignedLabels(nTest, 50))
	return train, test
}

func slicesShuffled(rng *rand.Rand, s []int) []int {
	c := append([]int(nil), s...)
	rng.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
	return c
}

// TestCOIL100 fits every registered method on one COIL-100 target class
// with real source scores, for 2, 5 and 10 positives over 5 splits (2 with
// -short), and requires a mean balanced accuracy well above chance (0.5),
// at least 0.7. go test -v
// prints each method's accuracy and mean fit time.
func TestCOIL100(t *testing.T) {
	task := loadCoilTransfer(t)
	splits := 5
	if testing.Short() {
		splits = 2 // the same floor on the mean of the first two splits
	}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			meth, _ := New(name)
			for _, nPos := range []int{2, 5, 10} {
				var acc float64
				var fitTime time.Duration
				for s := range splits {
					train, test := task.split(nPos, uint64(100*nPos+s))
					unl := Data{X: test.X, H: test.H}
					start := time.Now()
					model, err := meth.Fit(context.Background(), train, Extra{Unlabelled: &unl, Oracle: &test, Seed: uint64(s)})
					fitTime += time.Since(start)
					if err != nil {
						t.Fatalf("%d positives, split %d: %v", nPos, s, err)
					}
					acc += balancedAcc(t, mustPredict(t, model, test), test.Y) / float64(splits)
				}
				t.Logf("%-12s n+=%2d  balanced accuracy %.3f  fit %v", name, nPos, acc, fitTime/time.Duration(splits))
				if acc < 0.7 {
					t.Errorf("%d positives: mean balanced accuracy %.3f, want ≥ 0.7", nPos, acc)
				}
			}
		})
	}
}
