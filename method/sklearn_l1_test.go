package method

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
	"gonum.org/v1/gonum/mat"
)

// sklearnL1Script fits scikit-learn's standard L1-logistic — a
// StandardScaler and LogisticRegression(penalty="l1", solver="liblinear")
// with its defaults in a Pipeline, so that the scaler is refitted inside
// the leave-one-out, C ∈ {1e-4, …, 1e4} chosen by GridSearchCV with
// LeaveOneOut — on every problem <dir>/<k>-train.csv (label first), for
// random_state 0 … seeds−1, and prints the class-balanced test accuracies
// (JSON: problem name → one per seed).
const sklearnL1Script = `
import glob, json, sys, warnings
import numpy as np
warnings.filterwarnings("ignore")
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import GridSearchCV, LeaveOneOut
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
d, seeds = sys.argv[1], int(sys.argv[2])
out = {}
for tr in sorted(glob.glob(d + "/*-train.csv")):
    A = np.loadtxt(tr, delimiter=","); B = np.loadtxt(tr.replace("-train", "-test"), delimiter=",")
    accs = []
    for r in range(seeds):
        est = make_pipeline(StandardScaler(), LogisticRegression(penalty="l1", solver="liblinear", random_state=r))
        g = GridSearchCV(est, {"logisticregression__C": [10.0**k for k in range(-4, 5)]}, cv=LeaveOneOut()).fit(A[:, 1:], A[:, 0])
        accs.append(balanced_accuracy_score(B[:, 0], np.where(g.decision_function(B[:, 1:]) > 0, 1, -1)))
    out[tr.split("/")[-1][:-len("-train.csv")]] = accs
print(json.dumps(out))
`

// correlatedProblem draws a few-shot problem in the regime of the paper's
// image targets: pos positives and 10 negatives to train on, 50 + 50 to
// test, p columns driven by k shared latent factors (so that they are
// strongly correlated) plus noise, a third of them shifted by the label
// with random strength (normal, standard deviation 0.4).
func correlatedProblem(seed uint64, pos, p, k int) (train, test Data) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	load := mat.NewDense(p, k, nil)
	shift := make([]float64, p)
	for j := range p {
		for f := range k {
			load.Set(j, f, rng.NormFloat64())
		}
		if j%3 == 0 {
			shift[j] = 0.4 * rng.NormFloat64()
		}
	}
	draw := func(npos, nneg int) Data {
		m := npos + nneg
		X := mat.NewDense(m, p, nil)
		y := make([]float64, m)
		u := make([]float64, k)
		for i := range m {
			y[i] = -1
			if i < npos {
				y[i] = 1
			}
			for f := range u {
				u[f] = rng.NormFloat64()
			}
			for j := range p {
				v := 0.7*rng.NormFloat64() + shift[j]*y[i]
				for f := range u {
					v += load.At(j, f) * u[f]
				}
				X.Set(i, j, v)
			}
		}
		return Data{X: X, Y: y}
	}
	return draw(pos, 10), draw(50, 50)
}

// writeProblemCSV writes d (label first, then the columns) to path.
func writeProblemCSV(t *testing.T, path string, d Data) {
	t.Helper()
	var b strings.Builder
	X := dense(d.X)
	for i, y := range d.Y {
		b.WriteString(strconv.FormatFloat(y, 'g', -1, 64))
		for _, v := range X.RawRowView(i) {
			b.WriteByte(',')
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestL1LogisticAgainstScikitLearn: on few-shot problems with many
// correlated columns (2 and 10 positives against 10 negatives), the mean
// class-balanced test accuracy of l1-logistic over four seeds is at least
// that of scikit-learn's standard use over four random_states (the issue's
// bar: every baseline at least as strong as its standard use in
// scikit-learn). The exact L1 solution (l1-logistic:exact=1, what
// l1-logistic fitted before) is reported beside them: with scikit-learn
// 1.2.1 the means were 0.528 / 0.500 / 0.515 with 2 positives and
// 0.872 / 0.849 / 0.782 with 10 (l1-logistic / scikit-learn / exact), so
// the exact solution fails this bar at 10 positives.
func TestL1LogisticAgainstScikitLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("runs scikit-learn's grid search on 12 problems")
	}
	py := peertest.PythonWith(t, "numpy", "sklearn")
	const seeds = 4
	dir := t.TempDir()
	type problem struct {
		name        string
		pos         int
		train, test Data
	}
	var probs []problem
	for _, pos := range []int{2, 10} {
		for r := range 6 {
			train, test := correlatedProblem(uint64(100*pos+r), pos, 400, 8)
			name := fmt.Sprintf("p%02d-%d", pos, r)
			writeProblemCSV(t, filepath.Join(dir, name+"-train.csv"), train)
			writeProblemCSV(t, filepath.Join(dir, name+"-test.csv"), test)
			probs = append(probs, problem{name, pos, train, test})
		}
	}
	out, err := exec.Command(py, "-c", sklearnL1Script, dir, strconv.Itoa(seeds)).Output()
	if err != nil {
		t.Fatalf("scikit-learn: %v", err)
	}
	var skl map[string][]float64
	if err := json.Unmarshal(out, &skl); err != nil {
		t.Fatalf("scikit-learn's output %q: %v", out, err)
	}
	for _, pos := range []int{2, 10} {
		mean := map[string]float64{}
		var count float64
		for _, pr := range probs {
			if pr.pos != pos {
				continue
			}
			if len(skl[pr.name]) != seeds {
				t.Fatalf("scikit-learn: %d accuracies for %s", len(skl[pr.name]), pr.name)
			}
			for s := range seeds {
				mean["scikit-learn"] += skl[pr.name][s]
				for _, spec := range []string{"l1-logistic", "l1-logistic:exact=1"} {
					meth, err := New(spec)
					if err != nil {
						t.Fatal(err)
					}
					model, err := meth.Fit(context.Background(), pr.train, Extra{Seed: uint64(s)})
					if err != nil {
						t.Fatal(err)
					}
					f, err := model.Predict(pr.test)
					if err != nil {
						t.Fatal(err)
					}
					mean[spec] += balancedAcc(t, f, pr.test.Y)
				}
				count++
			}
		}
		for k := range mean {
			mean[k] /= count
		}
		t.Logf("%d positives: l1-logistic %.3f, scikit-learn %.3f, l1-logistic:exact=1 %.3f", pos, mean["l1-logistic"], mean["scikit-learn"], mean["l1-logistic:exact=1"])
		if mean["l1-logistic"] < mean["scikit-learn"] {
			t.Errorf("%d positives: l1-logistic's mean balanced accuracy %.3f is below scikit-learn's standard use's %.3f", pos, mean["l1-logistic"], mean["scikit-learn"])
		}
	}
}
