#!/usr/bin/python3
"""Generate scikit-learn reference fits for greedytl's sparse logistic solvers.

Run from anywhere with the system Python (it has numpy and scikit-learn):

    /usr/bin/python3 linear/testdata/gen_sklearn_fixtures.py

It writes linear/testdata/sklearn_<name>.json, one file per problem. The Go
tests (linear/elasticnet_test.go) read these files; Python is not needed at
test time.

Conventions (they match greedytl's linear.Problem with Bias = 1):
  * X in a fixture has no bias column; the fits use an explicit constant
    column of value 1 appended to X and fit_intercept=False, so that the bias
    weight is regularised like every other weight (liblinear's -B 1).
  * coef has len(X[0]) + 1 entries, the last one being the bias weight.
  * objective is the primal value
        C * sum_i log(1 + exp(-y_i w.x_i)) + l1_ratio*||w||_1 + (1-l1_ratio)/2*||w||^2
    which is scikit-learn's LogisticRegression objective for
    penalty='elasticnet' (penalty='l1': l1_ratio = 1; penalty='l2':
    l1_ratio = 0).
"""

import json
import os
import sys

import numpy as np
import sklearn
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import LogisticRegression

HERE = os.path.dirname(os.path.abspath(__file__))
HEART = "/usr/share/doc/liblinear-tools/examples/heart_scale"
CS = [0.1, 1.0, 10.0]


def objective(Xb, y, w, C, l1_ratio):
    z = y * (Xb @ w)
    loss = np.logaddexp(0.0, -z).sum()
    return C * loss + l1_ratio * np.abs(w).sum() + (1.0 - l1_ratio) / 2.0 * (w @ w)


def problems():
    rng = np.random.default_rng(20240611)

    # Dense Gaussian features, labels from a sparse logistic model.
    m, d = 60, 8
    X = rng.standard_normal((m, d))
    w_true = np.array([2.0, -1.5, 0, 0, 1.0, 0, 0, 0.5])
    p = 1.0 / (1.0 + np.exp(-(X @ w_true + 0.3)))
    y = np.where(rng.random(m) < p, 1.0, -1.0)
    yield "dense", X, y

    # Strongly correlated columns: a shared factor plus small noise, and a
    # near-duplicate pair, where the L1 solution is delicate.
    m, d = 50, 10
    f = rng.standard_normal((m, 2))
    X = np.empty((m, d))
    for j in range(d):
        X[:, j] = f[:, j % 2] + 0.3 * rng.standard_normal(m)
    X[:, 9] = X[:, 8] + 1e-3 * rng.standard_normal(m)
    y = np.where(f[:, 0] - 0.5 * f[:, 1] + 0.5 * rng.standard_normal(m) > 0, 1.0, -1.0)
    yield "correlated", X, y

    # Sparse features (70% zeros), as from bag-of-words counts.
    m, d = 40, 20
    X = rng.standard_normal((m, d)) * (rng.random((m, d)) < 0.3)
    y = np.where(X[:, :5].sum(axis=1) + 0.5 * rng.standard_normal(m) > 0, 1.0, -1.0)
    yield "sparse", X, y

    # The first 80 rows of liblinear's heart_scale example.
    Xs, ys = load_svmlight_file(HEART, n_features=13)
    yield "heart80", Xs[:80].toarray(), ys[:80].astype(float)


def fit(Xb, y, C, penalty, solver, l1_ratio):
    kw = dict(C=C, penalty=penalty, solver=solver, fit_intercept=False, tol=1e-10, max_iter=100000)
    if penalty == "elasticnet":
        kw["l1_ratio"] = l1_ratio
    if solver == "liblinear":
        kw["max_iter"] = 10000
    clf = LogisticRegression(**kw).fit(Xb, y)
    assert list(clf.classes_) == [-1.0, 1.0]
    return clf.coef_.ravel()


def main():
    for name, X, y in problems():
        Xb = np.hstack([X, np.ones((X.shape[0], 1))])
        fits = []
        for C in CS:
            for penalty, solver, l1_ratio in [
                ("l1", "liblinear", 1.0),
                ("l1", "saga", 1.0),
                ("elasticnet", "saga", 0.5),
                ("elasticnet", "saga", 0.2),
                ("l2", "lbfgs", 0.0),
            ]:
                w = fit(Xb, y, C, penalty, solver, l1_ratio)
                fits.append(dict(
                    penalty=penalty, solver=solver, C=C, l1_ratio=l1_ratio,
                    coef=w.tolist(), objective=float(objective(Xb, y, w, C, l1_ratio)),
                ))
        doc = dict(
            name=name,
            generator="linear/testdata/gen_sklearn_fixtures.py",
            sklearn_version=sklearn.__version__,
            bias=1.0,
            X=X.tolist(),
            y=y.tolist(),
            fits=fits,
        )
        path = os.path.join(HERE, "sklearn_%s.json" % name)
        tmp = path + ".tmp"
        with open(tmp, "w") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
        os.replace(tmp, path)
        print("wrote", path, file=sys.stderr)


if __name__ == "__main__":
    main()
