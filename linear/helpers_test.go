package linear

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/dataset"
	"github.com/greedytl/greedytl/internal/atomicfile"
	"github.com/greedytl/greedytl/internal/peertest"
	"github.com/greedytl/greedytl/internal/shareddata"
	"github.com/greedytl/greedytl/sparse"
)

// The real data of the package's tests and the liblinear tools they
// compare with. The data are read with package dataset.

// heartScale is liblinear's example data set (270 rows, 13 features).
const heartScale = peertest.HeartScale

// readHeartScale returns heart_scale's rows and labels, skipping when the
// file is absent.
func readHeartScale(tb testing.TB) (*sparse.CSR, []float64) {
	tb.Helper()
	x, y, err := dataset.ReadSVMLight(peertest.File(tb, heartScale))
	if err != nil {
		tb.Fatal(err)
	}
	return x, y
}

// scaled returns a copy of x with every value times f.
func scaled(x *sparse.CSR, f float64) *sparse.CSR {
	c := *x
	c.Val = make([]float64, len(x.Val))
	for k, v := range x.Val {
		c.Val[k] = v * f
	}
	return &c
}

// coilFeatures is the number of COIL-100 HOG features.
const coilFeatures = 800

// loadCoil100 returns the COIL-100 HOG features (as sparse rows) and class
// labels from the shared data, skipping when it is absent.
func loadCoil100(tb testing.TB) (x *sparse.CSR, labels []int) {
	tb.Helper()
	feat, err := dataset.ReadNPYMatrix(shareddata.Path(tb, "coil100/hog/features.npy"))
	if err != nil {
		tb.Fatal(err)
	}
	labels, err = dataset.ReadNPYInts(shareddata.Path(tb, "coil100/hog/labels.npy"))
	if err != nil {
		tb.Fatal(err)
	}
	if r, c := feat.Dims(); r != len(labels) || c != coilFeatures {
		tb.Fatalf("coil100: %d×%d features for %d labels, want %d columns", r, c, len(labels), coilFeatures)
	}
	return sparse.FromDense(feat), labels
}

// coilOneVsRest returns the rows of class pos (+1) and of the classes in
// neg (−1), in file order.
func coilOneVsRest(x *sparse.CSR, labels []int, pos int, neg func(int) bool) (*sparse.CSR, []float64) {
	var rows []int
	var y []float64
	for i, l := range labels {
		switch {
		case l == pos:
			rows = append(rows, i)
			y = append(y, 1)
		case neg(l):
			rows = append(rows, i)
			y = append(y, -1)
		}
	}
	return x.SelectRows(rows), y
}

// coilProblem returns COIL-100 HOG class 0 (+1) against classes 1..20
// (−1) with bias 1, skipping when the shared data is absent.
func coilProblem(tb testing.TB) *Problem {
	tb.Helper()
	x, labels := loadCoil100(tb)
	cx, cy := coilOneVsRest(x, labels, 0, func(l int) bool { return l >= 1 && l <= 20 })
	return &Problem{X: cx, Y: cy, Bias: 1}
}

// writeSVMLight writes x and y to path as an svmlight file that liblinear
// reads, with values that round-trip exactly.
func writeSVMLight(tb testing.TB, path string, x *sparse.CSR, y []float64) {
	tb.Helper()
	err := atomicfile.Write(path, func(w io.Writer) error { return dataset.WriteSVMLight(w, x, y) })
	if err != nil {
		tb.Fatal(err)
	}
}

// needLiblinear skips the test when the liblinear tools are not installed
// (fails it under GREEDYTL_REQUIRE_PEERS=1: peertest.Tool).
func needLiblinear(tb testing.TB) {
	tb.Helper()
	for _, tool := range []string{"liblinear-train", "liblinear-predict"} {
		peertest.Tool(tb, tool)
	}
}

// liblinearArgs returns liblinear-train's options for p and bias.
func liblinearArgs(p Params, bias float64) []string {
	p = p.withDefaults()
	args := []string{"-q", "-s", strconv.Itoa(int(p.Solver)), "-c", fmt.Sprint(p.C), "-e", fmt.Sprint(p.Eps)}
	if bias > 0 {
		args = append(args, "-B", fmt.Sprint(bias))
	}
	if p.WeightPos != 1 {
		args = append(args, "-w1", fmt.Sprint(p.WeightPos))
	}
	if p.WeightNeg != 1 {
		args = append(args, "-w-1", fmt.Sprint(p.WeightNeg))
	}
	return args
}

// liblinearTrain runs liblinear-train on the svmlight file data and returns
// the model it wrote.
func liblinearTrain(tb testing.TB, data string, p Params, bias float64) *Model {
	tb.Helper()
	out := filepath.Join(tb.TempDir(), "liblinear.model")
	args := append(liblinearArgs(p, bias), data, out)
	if msg, err := exec.Command("liblinear-train", args...).CombinedOutput(); err != nil {
		tb.Fatalf("liblinear-train %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	m, err := ReadModelFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// liblinearPredict runs liblinear-predict with model m on the svmlight file
// data and returns the predicted labels.
func liblinearPredict(tb testing.TB, data string, m *Model) []int {
	tb.Helper()
	dir := tb.TempDir()
	modelPath, outPath := filepath.Join(dir, "our.model"), filepath.Join(dir, "pred.txt")
	if err := WriteModelFile(modelPath, m); err != nil {
		tb.Fatal(err)
	}
	if msg, err := exec.Command("liblinear-predict", "-q", data, modelPath, outPath).CombinedOutput(); err != nil {
		tb.Fatalf("liblinear-predict: %v\n%s", err, msg)
	}
	f, err := os.Open(outPath)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var labels []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil {
			tb.Fatalf("liblinear-predict output: %v", err)
		}
		labels = append(labels, v)
	}
	return labels
}

// primalWeights returns the weights of the binary model m as a vector for
// PrimalObjective on a problem with cols columns (liblinear's nr_feature is
// the largest index it saw, which may be smaller), oriented so that the
// problem's +1 label is positive.
func primalWeights(m *Model, cols int) []float64 {
	n := cols
	if m.hasBias() {
		n++
	}
	w := make([]float64, n)
	copy(w, m.W[:min(m.NrFeature, cols)])
	if m.hasBias() {
		w[cols] = m.W[m.NrFeature]
	}
	if m.Labels[0] != 1 {
		for j := range w {
			w[j] = -w[j]
		}
	}
	return w
}
