package metric

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"slices"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
)

// sklearnMetricScript reads the cases, JSON, from its standard input and
// prints, per case, scikit-learn's balanced_accuracy_score of the signs of the
// binary scores (positive when s > 0, so a NaN or 0 score is negative;
// labels positive when > 0), and accuracy_score, balanced_accuracy_score
// and confusion_matrix (labels 0 … K−1) of the multi-class predictions.
const sklearnMetricScript = `
import json, sys, warnings
import numpy as np
warnings.filterwarnings("ignore")
from sklearn.metrics import accuracy_score, balanced_accuracy_score, confusion_matrix
cases = json.load(sys.stdin)
out = {"binary": [], "multi": []}
for c in cases["binary"]:
    s = np.array([np.nan if v is None else v for v in c["scores"]], dtype=float)
    y = np.where(np.array(c["y"]) > 0, 1, -1)
    with np.errstate(invalid="ignore"):
        p = np.where(s > 0, 1, -1)
    out["binary"].append(balanced_accuracy_score(y, p))
for c in cases["multi"]:
    y, p = c["y"], c["pred"]
    out["multi"].append({"acc": accuracy_score(y, p), "balanced": balanced_accuracy_score(y, p),
        "conf": confusion_matrix(y, p, labels=list(range(c["K"]))).tolist()})
print(json.dumps(out))
`

// TestAgainstScikitLearn compares BalancedAccuracy and ClassAccuracy with
// scikit-learn's balanced_accuracy_score, accuracy_score and
// confusion_matrix on random cases: both classes or one (scikit-learn then
// averages the recall of the classes present in y_true, as ours does),
// scores with exact zeros and NaN (negative in both), several classes some
// of which are absent from the labels or from the predictions. The
// balanced accuracies must agree within 1e-15, the accuracies and counts
// exactly.
func TestAgainstScikitLearn(t *testing.T) {
	py := peertest.PythonWith(t, "numpy", "sklearn")
	type binaryCase struct {
		Scores []*float64 `json:"scores"` // nil is NaN (JSON has none)
		Y      []float64  `json:"y"`
	}
	type multiCase struct {
		Y    []int `json:"y"`
		Pred []int `json:"pred"`
		K    int   `json:"K"`
	}
	var cases struct {
		Binary []binaryCase `json:"binary"`
		Multi  []multiCase  `json:"multi"`
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for c := range 60 {
		n := 1 + rng.IntN(40)
		pPos := []float64{0, 1, 0.1, 0.5, 0.9}[c%5]
		var bc binaryCase
		for range n {
			var s float64
			switch rng.IntN(6) {
			case 0:
				s = 0
			case 1:
				s = math.NaN()
			default:
				s = rng.NormFloat64()
			}
			if math.IsNaN(s) {
				bc.Scores = append(bc.Scores, nil)
			} else {
				bc.Scores = append(bc.Scores, &s)
			}
			y := []float64{-1, 0}[rng.IntN(2)] // anything not > 0 is negative
			if rng.Float64() < pPos {
				y = 1
			}
			bc.Y = append(bc.Y, y)
		}
		cases.Binary = append(cases.Binary, bc)

		K := 1 + rng.IntN(6)
		mc := multiCase{K: K}
		used := 1 + rng.IntN(K) // the labels use only the first classes
		for range n {
			k := rng.IntN(used)
			p := k
			if rng.IntN(3) > 0 {
				p = rng.IntN(K)
			}
			mc.Y, mc.Pred = append(mc.Y, k), append(mc.Pred, p)
		}
		cases.Multi = append(cases.Multi, mc)
	}
	doc, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", sklearnMetricScript)
	cmd.Stdin = bytes.NewReader(doc)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scikit-learn: %v", err)
	}
	var want struct {
		Binary []float64 `json:"binary"`
		Multi  []struct {
			Acc      float64 `json:"acc"`
			Balanced float64 `json:"balanced"`
			Conf     [][]int `json:"conf"`
		} `json:"multi"`
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("scikit-learn's output: %v\n%s", err, out)
	}
	if len(want.Binary) != len(cases.Binary) || len(want.Multi) != len(cases.Multi) {
		t.Fatalf("scikit-learn answered %d and %d cases, want %d and %d", len(want.Binary), len(want.Multi), len(cases.Binary), len(cases.Multi))
	}
	for c, bc := range cases.Binary {
		scores := make([]float64, len(bc.Scores))
		for i, s := range bc.Scores {
			scores[i] = math.NaN()
			if s != nil {
				scores[i] = *s
			}
		}
		got, err := BalancedAccuracy(scores, bc.Y)
		if err != nil || math.Abs(got-want.Binary[c]) > 1e-15 {
			t.Errorf("binary case %d (scores %v, labels %v): BalancedAccuracy %v, %v; scikit-learn %v", c, scores, bc.Y, got, err, want.Binary[c])
		}
	}
	for c, mc := range cases.Multi {
		acc, bal, _, err := ClassAccuracy(mc.Pred, mc.Y, mc.K)
		conf, cerr := Confusion(mc.Pred, mc.Y, mc.K)
		if err == nil {
			err = cerr
		}
		w := want.Multi[c]
		if err != nil || acc != w.Acc || math.Abs(bal-w.Balanced) > 1e-15 ||
			!slices.EqualFunc(conf, w.Conf, func(a, b []int) bool { return slices.Equal(a, b) }) {
			t.Errorf("multi-class case %d (K = %d, labels %v, predicted %v): ClassAccuracy %v, %v, %v, %v; scikit-learn %v, %v, %v",
				c, mc.K, mc.Y, mc.Pred, acc, bal, conf, err, w.Acc, w.Balanced, w.Conf)
		}
	}
}
