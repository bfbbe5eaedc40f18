package method

import (
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
	"gonum.org/v1/gonum/mat"
)

// sklearnNativeMultiScript computes, from the CSV files argv[1] (training:
// class index first, then the columns of [X, H]) and argv[2] (test, the
// same layout), on the columns standardised by scikit-learn's
// StandardScaler fitted on the training rows:
//
//   - LogisticRegression(multi_class="multinomial", solver="newton-cg") at
//     C = argv[3], to a gradient of infinity norm 1e-8 (at most 1000
//     iterations; n_iter says whether it stopped at the cap): its class
//     probabilities and decision values on the test rows. Not "lbfgs":
//     scikit-learn's L-BFGS also stops on a relative decrease of the
//     objective of 64ε, which at C = 1e-3 left its intercepts 1e-4 from the
//     minimiser (our objective and newton-cg's were lower than its and
//     equal to 17 digits) and its probabilities 4e-5 from ours;
//   - NearestCentroid's and 1-NN KNeighborsClassifier's predictions, and
//     the scores of nearest-mean (‖z‖² − ‖z − μ_k‖²) and nearest-neighbour
//     (minus the distance to the class's nearest training row) in NumPy;
//   - SimpleShot in NumPy: rows L2-normalised, centroids the class means of
//     the normalised training rows, scores minus the Euclidean distance.
//
// It prints them as JSON.
const sklearnNativeMultiScript = `
import json, sys, warnings
import numpy as np
warnings.filterwarnings("ignore")
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.preprocessing import StandardScaler
A = np.loadtxt(sys.argv[1], delimiter=",")
T = np.loadtxt(sys.argv[2], delimiter=",")
y = A[:, 0].astype(int)
sc = StandardScaler().fit(A[:, 1:])
Z, S = sc.transform(A[:, 1:]), sc.transform(T[:, 1:])
K = y.max() + 1
lr = LogisticRegression(multi_class="multinomial", solver="newton-cg", C=float(sys.argv[3]), tol=1e-8, max_iter=1000).fit(Z, y)
mu = np.array([Z[y == k].mean(axis=0) for k in range(K)])
nm = (S ** 2).sum(axis=1)[:, None] - ((S[:, None, :] - mu[None, :, :]) ** 2).sum(axis=2)
D = np.sqrt(((S[:, None, :] - Z[None, :, :]) ** 2).sum(axis=2))
nn = -np.array([D[:, y == k].min(axis=1) for k in range(K)]).T
unit = lambda M: M / np.linalg.norm(M, axis=1, keepdims=True)
Zn, Sn = unit(Z), unit(S)
cen = np.array([Zn[y == k].mean(axis=0) for k in range(K)])
ss = -np.sqrt(((Sn[:, None, :] - cen[None, :, :]) ** 2).sum(axis=2))
print(json.dumps({
    "n_iter": [lr.n_iter_.tolist()],
    "proba": lr.predict_proba(S).tolist(),
    "logits": lr.decision_function(S).tolist(),
    "nearest-mean": nm.tolist(),
    "nearest-neighbour": nn.tolist(),
    "simpleshot": ss.tolist(),
    "nearest-centroid-pred": [NearestCentroid().fit(Z, y).predict(S).tolist()],
    "1nn-pred": [KNeighborsClassifier(n_neighbors=1).fit(Z, y).predict(S).tolist()],
}))
`

// joinBlocks returns d's [X, H] as one Data whose labels are the class
// indices y (as writeProblemCSV writes them).
func joinBlocks(d Data, y []int) Data {
	X, H := dense(d.X), dense(d.H)
	m, dx := X.Dims()
	_, dh := H.Dims()
	J := mat.NewDense(m, dx+dh, nil)
	J.Slice(0, m, 0, dx).(*mat.Dense).Copy(X)
	J.Slice(0, m, dx, dx+dh).(*mat.Dense).Copy(H)
	lab := make([]float64, m)
	for i, k := range y {
		lab[i] = float64(k)
	}
	return Data{X: J, Y: lab}
}

// TestNativeMultiAgainstScikitLearn compares the registered native
// multi-class methods, fitted through FitMulti as the CLI fits them, with
// scikit-learn and NumPy on the same data (standardised by StandardScaler:
// the same population statistics as standardize.Fit on columns that are
// not constant):
//
//   - multinomial-logistic's final fit at the C its cross-validation chose,
//     with more columns than examples (the row-space reduction) and fewer:
//     its class probabilities (the softmax of its scores) against
//     LogisticRegression's predict_proba within 1e-6, and its scores, centred
//     per row, against the centred decision_function within 1e-5 (our L-BFGS
//     stops at a gradient of infinity norm multinomialTol = 1e-7 on the
//     objective divided by C·m; the intercepts, unpenalised, sit in the
//     flattest directions and move most);
//   - nearest-mean, nearest-neighbour and simpleshot: their scores against
//     the NumPy formulas within 1e-9 (relative to the score's magnitude),
//     and nearest-mean's and nearest-neighbour's predictions against
//     NearestCentroid's and the 1-NN KNeighborsClassifier's.
//
// TestMultinomialMatchesSklearn checks the weights of fitMultinomial alone;
// TestNativeMultiBruteForce the predictions against Go definitions.
func TestNativeMultiAgainstScikitLearn(t *testing.T) {
	py := peertest.PythonWith(t, "numpy", "sklearn")
	for _, tc := range []struct {
		name              string
		K, shots, test, d int
	}{
		{"p>m", 4, 3, 6, 30},
		{"p<m", 3, 8, 6, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			train, y, test, ytest := multiProblem(21, tc.K, tc.shots, tc.test, tc.d, tc.K)
			dir := t.TempDir()
			trainCSV, testCSV := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
			writeProblemCSV(t, trainCSV, joinBlocks(train, y.Y))
			writeProblemCSV(t, testCSV, joinBlocks(test, ytest))
			scores := map[string]*mat.Dense{}
			var C float64
			for _, name := range []string{"multinomial-logistic", "nearest-mean", "nearest-neighbour", "simpleshot"} {
				mm, err := NewMulti(name)
				if err != nil {
					t.Fatal(err)
				}
				model, err := mm.FitMulti(context.Background(), train, y, Extra{Seed: 1})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if scores[name], err = model.Scores(test); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if name == "multinomial-logistic" {
					C = model.Hyperparameters()["C"]
				}
			}
			out, err := exec.Command(py, "-c", sklearnNativeMultiScript, trainCSV, testCSV, strconv.FormatFloat(C, 'g', -1, 64)).Output()
			if err != nil {
				t.Fatalf("scikit-learn: %v", err)
			}
			var want map[string][][]float64
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatalf("scikit-learn's output: %v\n%s", err, out)
			}
			if it := want["n_iter"][0][0]; it >= 1000 {
				t.Fatalf("scikit-learn's newton-cg stopped at its cap of %g iterations short of a gradient of 1e-8: no reference", it)
			}
			r, K := scores["multinomial-logistic"].Dims()
			if len(want["proba"]) != r || len(want["proba"][0]) != K {
				t.Fatalf("scikit-learn gave %d × %d probabilities, want %d × %d", len(want["proba"]), len(want["proba"][0]), r, K)
			}

			// multinomial-logistic.
			var worstP, worstL float64
			for i := range r {
				row := scores["multinomial-logistic"].RawRowView(i)
				mx, mean, wmean := math.Inf(-1), 0.0, 0.0
				for k, v := range row {
					mx = math.Max(mx, v)
					mean += v / float64(K)
					wmean += want["logits"][i][k] / float64(K)
				}
				var z float64
				for _, v := range row {
					z += math.Exp(v - mx)
				}
				for k, v := range row {
					worstP = math.Max(worstP, math.Abs(math.Exp(v-mx)/z-want["proba"][i][k]))
					worstL = math.Max(worstL, math.Abs((v-mean)-(want["logits"][i][k]-wmean)))
				}
			}
			t.Logf("multinomial-logistic at C = %g: largest difference from scikit-learn: probabilities %.2g, centred scores %.2g", C, worstP, worstL)
			if worstP > 1e-6 || worstL > 1e-5 {
				t.Errorf("multinomial-logistic at C = %g: probabilities differ from scikit-learn's by %.3g (want ≤ 1e-6), centred scores by %.3g (want ≤ 1e-5)", C, worstP, worstL)
			}

			// The distance-based methods.
			for _, name := range []string{"nearest-mean", "nearest-neighbour", "simpleshot"} {
				var worst float64
				for i := range r {
					for k := range K {
						g, w := scores[name].At(i, k), want[name][i][k]
						worst = math.Max(worst, math.Abs(g-w)/math.Max(1, math.Abs(w)))
					}
				}
				if worst > 1e-9 {
					t.Errorf("%s: scores differ from NumPy's by %.3g (relative), want ≤ 1e-9", name, worst)
				}
			}
			for name, key := range map[string]string{"nearest-mean": "nearest-centroid-pred", "nearest-neighbour": "1nn-pred"} {
				for i, got := range argmaxRows(scores[name]) {
					if w := int(want[key][0][i]); got != w {
						t.Errorf("%s: test row %d predicted class %d, scikit-learn's %s %d", name, i, got, key, w)
					}
				}
			}
		})
	}
}
