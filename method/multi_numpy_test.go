package method

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/greedytl/greedytl/internal/peertest"
	"gonum.org/v1/gonum/mat"
)

// numpyMultiScript computes a multi-class model file's scores on the rows
// of the CSV files argv[2] (X) and argv[3] (H) from docs/design.md's
// "Multi-class model files" alone, in NumPy, and prints them as JSON: the
// reader a Python user writes. One-vs-rest files are read for binary
// models of the linear form ("x", "h", "wx", "wh", "b").
const numpyMultiScript = `
import json, sys
import numpy as np
doc = json.load(open(sys.argv[1]))
X = np.loadtxt(sys.argv[2], delimiter=",", ndmin=2)
H = np.loadtxt(sys.argv[3], delimiter=",", ndmin=2)
def std(A, s):
    mean, scale = np.array(s["mean"]), np.array(s["scale"])
    if mean.size == 0:
        return np.zeros((A.shape[0], 0))
    return np.where(scale > 0, (A - mean) / np.where(scale > 0, scale, 1), 0.0)
def softmax(S):
    E = np.exp(S - S.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)
def scores(doc):
    if doc["form"] == "one-vs-rest":
        cols = []
        for m, s in zip(doc["models"], doc["score_scale"]):
            f = std(X, m["x"]) @ np.array(m["wx"]) + std(H, m["h"]) @ np.array(m["wh"]) + m["b"]
            cols.append(f / s)
        return np.stack(cols, axis=1)
    if doc["form"] == "ensemble":
        return sum(w * softmax(scores(m)) for m, w in zip(doc["members"], doc["weights"]))
    K = len(doc["classes"])
    zx, zh = std(X, doc["x"]), std(H, doc["h"])
    z = np.hstack([zx, zh])
    if doc["form"] == "linear":
        def unit(A):
            n = np.linalg.norm(A, axis=1, keepdims=True)
            return np.where(n > 0, A / np.where(n > 0, n, 1), 0.0)
        if doc.get("normalise") == "rows":
            u = unit(z); zx, zh = u[:, :zx.shape[1]], u[:, zx.shape[1]:]
        elif doc.get("normalise") == "blocks":
            zx, zh = unit(zx), unit(zh)
        wx = np.array(doc["wx"]).reshape(K, -1); wh = np.array(doc["wh"]).reshape(K, -1)
        return zx @ wx.T + zh @ wh.T + np.array(doc["b"])
    if doc["form"] == "nearest-neighbour":
        rows, rc = np.array(doc["rows"]), np.array(doc["row_classes"])
        d = np.sqrt(((z[:, None, :] - rows[None, :, :]) ** 2).sum(axis=2))
        return np.stack([-d[:, rc == k].min(axis=1) for k in range(K)], axis=1)
    if doc["form"] == "centroid-cosine":
        n = np.linalg.norm(z, axis=1, keepdims=True)
        u = np.where(n > 0, z / np.where(n > 0, n, 1), 0.0)
        c = np.array(doc["centroids"])
        return -np.sqrt(((u[:, None, :] - c[None, :, :]) ** 2).sum(axis=2))
    raise SystemExit("unknown form " + doc["form"])
print(json.dumps(scores(doc).tolist()))
`

// TestMultiFileNumPy writes a model of every form and checks that a NumPy
// reader written from the file format's documentation alone computes the
// scores Scores computes.
func TestMultiFileNumPy(t *testing.T) {
	py := peertest.PythonWith(t, "numpy")
	train, y, test, _ := multiProblem(21, 3, 4, 3, 5, 4)
	dir := t.TempDir()
	writeCSV := func(name string, a mat.Matrix) string {
		var b bytes.Buffer
		r, c := a.Dims()
		for i := range r {
			for j := range c {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%.17g", a.At(i, j))
			}
			b.WriteByte('\n')
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	xPath, hPath := writeCSV("x.csv", test.X), writeCSV("h.csv", test.H)
	for _, name := range []string{"greedytl-nway", "multinomial-logistic", "nearest-mean", "nearest-neighbour", "simpleshot", "rls-srcfeat"} {
		t.Run(name, func(t *testing.T) {
			model, file := multiFile(t, name, train, y)
			path := filepath.Join(dir, name+".json")
			if err := os.WriteFile(path, file, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(py, "-c", numpyMultiScript, path, xPath, hPath).CombinedOutput()
			if err != nil {
				t.Fatalf("numpy: %v\n%s", err, out)
			}
			var want [][]float64
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatal(err)
			}
			got, err := model.Scores(test)
			if err != nil {
				t.Fatal(err)
			}
			for i, row := range want {
				for k, w := range row {
					if g := got.At(i, k); math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
						t.Fatalf("row %d class %d: Scores %v, NumPy from the file %v", i, k, g, w)
					}
				}
			}
		})
	}
}
