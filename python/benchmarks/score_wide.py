"""What scoring costs in Python for wide model files (many feature columns)
and for tall inputs (many rows).

read_model's scorers sum each row in the Go loops' order (so that scores
equal greedytl predict's bit for bit, with greedytl built for amd64 at the
default GOAMD64: see greedytl._model) with array operations over blocks of
rows.  This measures the least CPU time of --repeat scorings of --rows rows
by a linear file (an l1-logistic model of --features columns) and a
simpleshot (centroid-cosine) file of 3 classes, both built in memory from
random values (no greedytl binary needed):

    PYTHONPATH=python /usr/bin/python3 python/benchmarks/score_wide.py \\
        [--rows 20] [--features 100000] [--repeat 3] [--tall]

--tall also measures the tall shapes: 20,000 rows of 2,000 features (the
linear, simpleshot and nearest-neighbour files, the latter of 3 training
rows), and nearest-neighbour distances of 200 rows to 2,000 training rows
of 500 features.

Measured on the 2-core development machine (load average about 10), 20 rows
of 100,000 features: the linear file 0.026 s of CPU, simpleshot 0.088 s
(column by column in Python, before the array sums: 0.57 s and 0.64 s).
"""

import argparse
import time

import numpy as np

from greedytl import _model


# The scaler of no columns (greedytl refuses a null one, and so does
# read_model).
_NO_SCALER = {"mean": [], "scale": []}


def _linear(rng, d):
    return {"format": "greedytl-model", "version": 2, "method": "l1-logistic", "hyperparameters": {},
            "x": {"mean": rng.normal(size=d).tolist(), "scale": np.abs(rng.normal(size=d)).tolist()},
            "h": _NO_SCALER, "wx": rng.normal(size=d).tolist(), "wh": None, "b": 0.1}


def _native(rng, d, form, method, rows_key):
    K = 3
    doc = {"format": "greedytl-model", "version": 2, "method": method, "hyperparameters": {},
           "classes": [str(k) for k in range(K)], "num_features": d, "num_sources": 0, "form": form,
           "x": {"mean": [0.0] * d, "scale": [1.0] * d}, "h": _NO_SCALER}
    doc.update(rows_key(rng, K, d))
    return doc


def _cpu(scorer, X, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        scorer.scores(X)
        best = min(best, time.process_time() - t)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=20)
    ap.add_argument("--features", type=int, default=100000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tall", action="store_true", help="also the tall shapes")
    a = ap.parse_args()
    rng = np.random.default_rng(1)
    shapes = [(a.rows, a.features, 3)]
    if a.tall:
        shapes += [(20000, 2000, 3), (200, 500, 2000)]
    for rows, d, refs in shapes:
        X = rng.normal(size=(rows, d))
        # Each file is built when it is measured; with many training rows,
        # the nearest-neighbour file alone.
        cases = [] if refs > 3 else [
            ("linear", lambda: _linear(rng, d)),
            ("centroid-cosine (simpleshot)", lambda: _native(
                rng, d, "centroid-cosine", "simpleshot",
                lambda r, K, d: {"centroids": (r.normal(size=(K, d)) / np.sqrt(d)).tolist()}))]
        cases.append(("nearest-neighbour ({} rows)".format(refs), lambda: _native(
            rng, d, "nearest-neighbour", "nearest-neighbour",
            lambda r, K, d: {"rows": r.normal(size=(refs, d)).tolist(), "row_classes": [i % K for i in range(refs)]})))
        for name, build in cases:
            scorer = _model.decode(build())
            print("{:32s} {:8.4f} s of CPU for {} rows of {} features".format(
                name, _cpu(scorer, X, a.repeat), rows, d), flush=True)


if __name__ == "__main__":
    main()
