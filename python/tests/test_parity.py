"""The NumPy scores of a model file equal greedytl predict's, for every
registered method (greedytl version --json lists them), with source scores
given as a matrix and computed from a sources directory."""

import concurrent.futures
import copy
import itertools
import json
import math
import re
import subprocess

import numpy as np
import pytest

import greedytl
from greedytl._sources import SourcesDir

from conftest import run

# Scores agree to this, relative to max(1, |score|): greedytl writes them so
# that they read back exactly, and the NumPy code mirrors the Go code's
# operations; what remains is the summation order of matrix products.
TOL = 1e-12


def _problem(seed, m=24, d=6, n=5, rows=40):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d + n)
    def sample(k):
        X = rng.normal(size=(k, d))
        H = np.column_stack([X[:, j % d] + 0.3 * rng.normal(size=k) for j in range(n)])
        y = np.where(np.hstack([X, H]) @ w + 0.5 * rng.normal(size=k) > 0, 1.0, -1.0)
        # A constant column (scale 0: standardised to 0) and a duplicated one.
        X[:, 1] = 3.0
        H[:, 2] = H[:, 1]
        return X, H, y
    return sample(m), sample(rows)


def _predict(cli, tmp, model, **inputs):
    args = ["predict", "--model", model]
    for flag, path in inputs.items():
        args += ["--" + flag.replace("_", "-"), path]
    out = run(cli, *args, cwd=tmp)
    return np.array([float(v) for v in out.split()])


def _check(got, want):
    assert got.shape == want.shape
    err = np.abs(got - want) / np.maximum(1, np.abs(want))
    assert err.max() <= TOL, "max relative difference {:.3g} at row {}".format(err.max(), int(np.argmax(err)))


def _extra(method, save, Xte, Hte, yte=None, sources=False):
    """The inputs the transductive (dam) and oracle (best-source) methods need."""
    if method.startswith("dam"):
        a = ["--unlabelled-features", save("Xu.npy", Xte)]
        return a if sources else a + ["--unlabelled-source-scores", save("Hu.npy", Hte)]
    if method.startswith("best-source"):
        a = ["--oracle-features", save("Xo.npy", Xte), "--oracle-labels", save("yo.npy", yte)]
        return a if sources else a + ["--oracle-source-scores", save("Ho.npy", Hte)]
    return []


def _saver(tmp):
    def save(name, a):
        np.save(tmp / name, a)
        return tmp / name
    return save


def _check_inspection(cli, scorer, model, names=None):
    """The model's inspection, computed from its file, is what greedytl
    inspect --json prints of it (source columns named as inspect names them
    from the sources directory the file records)."""
    want = json.loads(run(cli, "inspect", "--json", model))
    assert scorer.inspection(names) == want
    # The same once more through JSON: only JSON's types (no NumPy scalars).
    assert json.loads(json.dumps(scorer.inspection(names))) == want


METHOD_VARIANTS = ["greedytl:sample=5,lambda=0.5", "greedytl-sp:gamma=0.25", "greedytl:stop_at_min_loo=true",
                   "greedytl-auto:single_fit=1"]


def _methods(cli):
    return list(cli["methods"]) + METHOD_VARIANTS


def test_every_method_matrix(cli, tmp_path):
    """Source scores as a matrix: every method, features and sources."""
    (Xtr, Htr, ytr), (Xte, Hte, yte) = _problem(1)
    save = _saver(tmp_path)
    files = dict(features=save("X.npy", Xtr), source_scores=save("H.npy", Htr), labels=save("y.npy", ytr))
    tfiles = dict(features=save("Xt.npy", Xte), source_scores=save("Ht.npy", Hte))
    seen = []
    for method in _methods(cli):
        model = tmp_path / (method.replace(":", "_") + ".json")
        run(cli, "fit", "--method", method, "--features", files["features"], "--source-scores",
            files["source_scores"], "--labels", files["labels"], "--seed", 5,
            *_extra(method, save, Xte, Hte, yte), "--out", model)
        scorer = greedytl.read_model(model)
        seen.append(type(scorer).__name__)
        _check(scorer.scores(Xte, Hte), _predict(cli, tmp_path, model, **tfiles))
        _check_inspection(cli, scorer, model)
    # Every kind of file is covered.
    assert {"LinearScorer", "GreedyScorer", "DictionaryScorer"} <= set(seen)


@pytest.mark.parametrize("blocks", ["features", "sources"])
def test_every_method_one_block(cli, tmp_path, blocks):
    """Features only, and sources only: the absent block's members are empty
    (null). A method that needs the other block says so (exit status 2,
    "needs") and is left out; the rest must agree."""
    (Xtr, Htr, ytr), (Xte, Hte, yte) = _problem(2)
    save = _saver(tmp_path)
    flag, tr, te = ("features", Xtr, Xte) if blocks == "features" else ("source-scores", Htr, Hte)
    checked, refused = [], []
    for method in _methods(cli):
        extra = []
        if method.startswith(("dam", "best-source")):
            pre = "--unlabelled-" if method.startswith("dam") else "--oracle-"
            extra = [pre + flag, save("e.npy", te)]
            if method.startswith("best-source"):
                extra += ["--oracle-labels", save("yo.npy", yte)]
        model = tmp_path / (method.replace(":", "_") + ".json")
        p = subprocess.run([cli["path"], "fit", "--method", method, "--" + flag, str(save("tr.npy", tr)),
                            "--labels", str(save("y.npy", ytr))] + [str(a) for a in extra] + ["--out", str(model)],
                           capture_output=True, text=True)
        if p.returncode == 2 and ("needs" in p.stderr or "no target features" in p.stderr or "no source" in p.stderr):
            refused.append(method)
            continue
        assert p.returncode == 0, p.stderr
        scorer = greedytl.read_model(model)
        got = scorer.scores(te, None) if blocks == "features" else scorer.scores(None, te)
        _check(got, _predict(cli, tmp_path, model, **{flag.replace("-", "_"): save("te.npy", te)}))
        _check_inspection(cli, scorer, model)
        checked.append(method)
    assert len(refused) <= 4, "methods refusing {} alone: {}".format(blocks, refused)
    assert {"greedytl", "greedytl-auto", "dictionary"} <= set(checked)


def test_subnormal_columns(multiclass_cli, tmp_path):
    """Columns of subnormal values (docs/design.md: standardised like columns
    near 1, their scales subnormal too): the model files greedytl writes for
    them are read, and score as greedytl predict scores them, for every
    binary method and every multi-class form with scalers.  read_model
    refused every scale below 2**-1022 (a minimum greedytl's scaler no
    longer has), so a TransferClassifier fitted on such features failed."""
    cli = multiclass_cli
    (Xtr, Htr, ytr), (Xte, Hte, yte) = _problem(6)
    Xtr, Xte = 1e-310 * Xtr, 1e-310 * Xte
    save = _saver(tmp_path)
    X, H, Xt, Ht = save("X.npy", Xtr), save("H.npy", Htr), save("Xt.npy", Xte), save("Ht.npy", Hte)
    y3 = save("y3.npy", np.arange(len(ytr)) % 3)
    fits = [(m, save("y.npy", ytr), _extra(m, save, Xte, Hte, yte)) for m in _methods(cli)]
    fits += [(m, y3, []) for m in ("greedytl-nway", "multinomial-logistic", "nearest-neighbour", "simpleshot")]
    forms = set()
    for method, labels, extra in fits:
        model = tmp_path / "m.json"
        run(cli, "fit", "--method", method, "--features", X, "--source-scores", H, "--labels", labels, "--seed", 5,
            *extra, "--out", model)
        scorer = greedytl.read_model(model)
        forms.add(getattr(scorer, "form", type(scorer).__name__))
        if scorer.classes is None:
            _check(scorer.scores(Xte, Hte), _predict(cli, tmp_path, model, features=Xt, source_scores=Ht))
        else:
            _, want = _predict_scores(cli, tmp_path, model, features=Xt, source_scores=Ht)
            _check(scorer.scores(Xte, Hte), want)
    assert {"LinearScorer", "DictionaryScorer", "linear", "ensemble", "nearest-neighbour", "centroid-cosine"} <= forms
    # A subnormal scale is read by both readers, a negative one by neither.
    model = tmp_path / "m.json"
    run(cli, "fit", "--method", "l1-logistic", "--features", X, "--source-scores", H, "--labels", y3, "--out", model)
    doc = json.loads(model.read_text())
    assert 0 < doc["models"][0]["x"]["scale"][0] < 2.0 ** -1022
    for scale, readable in ((5e-324, True), (-1e-310, False), (-1.0, False)):
        doc["models"][0]["x"]["scale"][0] = scale
        (tmp_path / "v.json").write_text(json.dumps(doc))
        assert _both_read(cli, tmp_path / "v.json", scale) == readable, scale


def _linear_doc(mean, scale, wx, b):
    """A linear model file of features only (method/linearmodel.go), as
    json.loads gives it (Python floats)."""
    return {"format": "greedytl-model", "version": 2, "method": "l1-logistic", "hyperparameters": {},
            "x": {"mean": [float(v) for v in mean], "scale": [float(v) for v in scale]}, "h": _NO_SCALER,
            "wx": [float(v) for v in wx], "wh": None, "b": b}


# The scaler of no columns, as greedytl writes it (a null h is refused).
_NO_SCALER = {"mean": [], "scale": []}


def _sequential_scores(doc, X):
    """Linear.Predict's scores by its definition, in Python floats: for
    each row, acc = 0, then acc += w_j·z_j column by column (z_j = 0 for a
    constant column), then b + acc."""
    mean, scale, w = doc["x"]["mean"], doc["x"]["scale"], doc["wx"]
    return np.array([doc["b"] + _sum_ordered(w[j] * (_standardised(v, mean[j], scale[j]) if scale[j] != 0 else 0.0)
                                             for j, v in enumerate(row)) for row in X.tolist()])


def _standardised(v, mean, scale):
    """standardize.Standardise by its definition, in Python floats: (v −
    mean)/scale, recomputed as ((v/2 − mean/2)/scale)·2 when that is ±Inf."""
    z = (v - mean) / scale
    if math.isinf(z):
        z = (v * 0.5 - mean * 0.5) / scale * 2
    return z


def test_standardised_where_the_difference_overflows(cli, tmp_path):
    """A value whose difference from its column's training mean overflows
    while its standardised value does not (−9.5e307 in a column of mean
    9.05e307 and standard deviation 3.45e306: about −53) scores what
    greedytl predict prints, bit for bit, in the two forms that
    standardise column by column (a greedy file's columns, a linear file's
    scaler), not an overflow; so do the ordinary rows beside it."""
    X = np.column_stack([np.arange(85, 97) * 1e306, [1, 0, 3, -1, 2, 1, 1, 0, 3, -1, 2, 1]])
    y = np.tile([1.0, -1.0], 6)
    Xt = np.array([[-9.5e307, 1.0], [9e307, 2.0], [8.6e307, -1.0]])
    save = _saver(tmp_path)
    forms = set()
    for method in ("greedytl", "no-transfer"):
        model = tmp_path / (method + ".json")
        run(cli, "fit", "--method", method, "--features", save("X.npy", X), "--labels", save("y.npy", y),
            "--out", model)
        scorer = greedytl.read_model(model)
        forms.add(type(scorer).__name__)
        want = _predict(cli, tmp_path, model, features=save("Xt.npy", Xt))
        assert np.all(np.isfinite(want)), want
        assert scorer.scores(Xt).tolist() == want.tolist(), method
    assert forms == {"GreedyScorer", "LinearScorer"}


def test_linear_scores_sequential(monkeypatch):
    """A linear file's scores are Linear.Predict's sums, column by column,
    bit for bit (signed zeros too: a row whose terms are all -0.0 with b =
    -0.0 scores 0.0, as 0 + -0.0 + … does), in one block of columns or
    many (the running sums carried), whichever of its two orders of work
    _add_columns takes.  (Their speed is measured by
    python/benchmarks/score_wide.py.)"""
    rng = np.random.default_rng(9)
    d = 300
    mean, scale = rng.normal(size=d), np.abs(rng.normal(size=d))
    scale[::7] = 0.0
    wx = rng.normal(size=d) * (rng.random(d) < 0.5)
    X = rng.normal(size=(50, d)) * 3
    X[0] = mean  # every term w_j·0: -0.0 where w_j < 0
    # one block; 8 blocks of at most 42 columns (of 50 rows); one column at a time
    for block, tall in itertools.product((greedytl._model._BLOCK, 7 * d, 5), (0, 10 ** 9)):
        monkeypatch.setattr(greedytl._model, "_BLOCK", block)
        monkeypatch.setattr(greedytl._model, "_TALL", tall)
        for w, b in ((wx, 0.7), (-np.abs(wx) - 1, -0.0), (np.zeros(d), 0.0)):
            doc = _linear_doc(mean, scale, w, b)
            got, want = greedytl._model.decode(doc).scores(X), _sequential_scores(doc, X)
            assert np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want)), (block, tall)


def test_row_sums_sequential(monkeypatch):
    """The sums of the multi-class forms that compare whole rows — a row's
    sum of squares (method.normaliseRow) and the squared distance of two
    rows (method.distance) — are the Go loops' sums, column by column, bit
    for bit (the distances in one block of rows or many; both in one
    block of columns or many, whichever order of work _add_columns takes).  (Their speed is measured by
    python/benchmarks/score_wide.py.)"""
    from greedytl._model import _sq_dist, _squares
    rng = np.random.default_rng(10)
    Z, R = rng.normal(size=(9, 40)) * 1e150, rng.normal(size=(4, 40)) * 1e150
    Z[0, :] = 0.0
    R[1] = Z[1]
    want_sq = [[_sum_ordered((a - b) * (a - b) for a, b in zip(z, r)) for r in R.tolist()] for z in Z.tolist()]
    want_ss = [_sum_ordered(v * v for v in z) for z in Z.tolist()]
    # one block; one of rows and 5 of 8 columns; blocks of 3 rows of 1 column
    for block, tall in itertools.product((greedytl._model._BLOCK, 2 * R.size, 12), (0, 10 ** 9)):
        monkeypatch.setattr(greedytl._model, "_BLOCK", block)
        monkeypatch.setattr(greedytl._model, "_TALL", tall)
        assert np.array_equal(_sq_dist(Z, R), np.array(want_sq)), (block, tall)
        with np.errstate(over="ignore"):
            assert np.array_equal(_squares(Z), np.array(want_ss)), (block, tall)


def _go_distance(a, b):
    """method.distance of two rows (Python floats), as the Go loop computes
    it: the squares summed in order; where that sum overflows or falls
    below the normal range, in units of the largest |difference|."""
    s = _sum_ordered((u - v) * (u - v) for u, v in zip(a, b))
    if s != math.inf and s >= 2.0 ** -1022:
        return math.sqrt(s)
    u = max([abs(x - y) for x, y in zip(a, b)], default=0.0)
    if u == 0 or u == math.inf:
        return u
    return u * math.sqrt(_sum_ordered(((x - y) / u) * ((x - y) / u) for x, y in zip(a, b)))


def test_dist_is_go_distance(monkeypatch):
    """_dist is method.distance, pair by pair, bit for bit: rows whose
    squared distances are normal (their roots), overflow (1e160) or fall
    below the normal range (1e-170, equal rows), and differences that
    overflow (+Inf), in one tile or many (tiles of 1 pair to a few, their
    roots taken in place a tile at a time, the last tiles partial),
    whichever order of work _add_columns takes."""
    rng = np.random.default_rng(11)
    p = 7
    Z = np.vstack([rng.normal(size=(3, p)), rng.normal(size=(3, p)) * 1e160, rng.normal(size=(3, p)) * 1e-157,
                   rng.normal(size=(2, p)) * 1e-170, np.zeros((1, p)), np.full((1, p), 1.5e308)])
    R = np.vstack([Z[::2], -Z[-1:], rng.normal(size=(2, p)) * 1e-157, np.zeros((1, p))])
    want = np.array([[_go_distance(z, r) for r in R.tolist()] for z in Z.tolist()])
    # Sums of squares of every kind: normal, overflowing, subnormal (not
    # 0: their roots are not the distances), 0 (of unequal rows too).
    sums = np.array([[_sum_ordered((u - v) * (u - v) for u, v in zip(z, r)) for r in R.tolist()] for z in Z.tolist()])
    assert np.isinf(want).any() and (want == 0).any() and np.isinf(sums[np.isfinite(want)]).any()
    sub = (sums > 0) & (sums < 2.0 ** -1022)
    assert sub.any() and not np.array_equal(np.sqrt(sums[sub]), want[sub])
    assert ((sums == 0) & (want > 0)).any()
    for block, tall in itertools.product((greedytl._model._BLOCK, 2 * p, 5 * p, 24 * p), (0, 10 ** 9)):
        monkeypatch.setattr(greedytl._model, "_BLOCK", block)
        monkeypatch.setattr(greedytl._model, "_TALL", tall)
        with np.errstate(over="ignore"):
            got = greedytl._model._dist(Z, R)
        assert np.array_equal(got, want), (block, tall)


def test_overflow_reported_without_warning(monkeypatch):
    """A score that overflows — a sum to ±Inf, or +Inf from the features
    and -Inf from the sources (NaN), or a distance to +Inf — is the
    ValueError naming its row, with no NumPy RuntimeWarning ("overflow
    encountered in accumulate") before it, whichever order of work the sums
    take; and so is a nearest-neighbour row beyond 2**26 times the largest
    norm of the training rows."""
    import warnings
    big = 1e308
    lin = _linear_doc([0.0, 0.0], [1.0, 1.0], [1.0, 1.0], 0.5)
    lin.update(h={"mean": [0.0, 0.0], "scale": [1.0, 1.0]}, wh=[1.0, 1.0])
    nn = {"format": "greedytl-model", "version": 2, "method": "nearest-neighbour", "hyperparameters": {},
          "classes": ["a", "b"], "num_features": 2, "num_sources": 0, "form": "nearest-neighbour",
          "x": {"mean": [0.0, 0.0], "scale": [1.0, 1.0]}, "h": _NO_SCALER,
          "rows": [[0.0, 0.0], [1.0, 1.0]], "row_classes": [0, 1]}
    # Training rows as large as the query, so that it is not refused as
    # beyond 2**26 times their norm (the last case of nn).
    nn_large = dict(nn, rows=[[0.0, 0.0], [1e301, 1e301]])
    cases = ((lin, [[1, 2], [big, big]], [[0, 0], [0, 0]], 1),
             (lin, [[1, 2], [3, 4], [big, big]], [[0, 0], [0, 0], [-big, -big]], 2),
             (nn_large, [[1, 2], [big, 0]], None, None),
             (nn, [[1, 2], [1.5e308, 1.5e308]], None, 1),
             (nn, [[1, 2], [big, 0]], None, 1))
    for tall in (0, 10 ** 9):
        monkeypatch.setattr(greedytl._model, "_TALL", tall)
        for doc, X, H, row in cases:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                if row is None:  # a squared distance overflows, the distance does not
                    assert np.all(np.isfinite(greedytl._model.decode(doc).scores(np.array(X, float))))
                    continue
                with pytest.raises(ValueError, match="the score of row {} overflows".format(row)):
                    greedytl._model.decode(doc).scores(np.array(X, float), None if H is None else np.array(H, float))


def test_nearest_neighbour_duplicates_memory_bounded(monkeypatch):
    """Pairs of rows recomputed in units of their largest difference (every
    pair of equal rows among them: a query equal to a training row) take
    _BLOCK // p pairs at a time, not all at once: tracemalloc's peak while
    scoring 150 queries equal to 150 training rows of 100 features stays
    under 4 MiB with _BLOCK at 2**14 floats, where the 22,500 pairs'
    differences alone take 17 MiB; the scores are the same bits as in one
    block."""
    import tracemalloc
    p, m = 100, 150
    R = np.zeros((m, p))
    R[m // 2:, 0] = 1.0  # two distinct rows, each repeated
    R[m // 2:m // 2 + 5, 1] = 1e-170  # and pairs whose squares underflow
    doc = {"format": "greedytl-model", "version": 2, "method": "nearest-neighbour", "hyperparameters": {},
           "classes": ["a", "b"], "num_features": p, "num_sources": 0, "form": "nearest-neighbour",
           "x": {"mean": [0.0] * p, "scale": [1.0] * p}, "h": _NO_SCALER,
           "rows": R.tolist(), "row_classes": [0] * (m // 2) + [1] * (m // 2)}
    scorer = greedytl._model.decode(doc)
    Q = R[::-1].copy()
    want = scorer.scores(Q)
    monkeypatch.setattr(greedytl._model, "_BLOCK", 2 ** 14)
    tracemalloc.start()
    try:
        got = scorer.scores(Q)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 2 ** 20, peak
    assert np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))
    assert np.array_equal(np.argmax(got, axis=1), [1] * (m // 2) + [0] * (m // 2))


def test_dist_flagged_pairs_memory_bounded(monkeypatch):
    """_dist finds and recomputes the pairs in units of their largest
    difference a tile at a time, as its docstring says: measured from
    when _sq_dist returns (its peak, with its freed temporaries, left
    out), beyond the distances themselves (rows × |R| floats: _sq_dist's
    squares, whose roots are taken in place), 360,000 pairs of equal rows
    of 2 features take at most _BLOCK floats of differences and _BLOCK //
    p indices (plus 96 KiB) with _BLOCK at 2**14 floats, where np.nonzero
    over all the pairs at once took 16 bytes a pair (5.5 MiB), the roots
    in an array of their own another rows × |R| floats (2.7 MiB), and
    tiles of twice the pairs twice the indices and differences; the
    distances are the same bits as in one block."""
    import tracemalloc
    from greedytl._model import _dist, _sq_dist
    p, m = 2, 600
    Z = np.zeros((m, p))
    Z[::2, 1] = 1e-170  # squares below the normal range, and equal rows
    want = _dist(Z, Z)
    block = 2 ** 14
    monkeypatch.setattr(greedytl._model, "_BLOCK", block)
    calls = []

    def measured(Z, R):  # the peak from here on: _dist's tiles
        out = _sq_dist(Z, R)
        tracemalloc.reset_peak()
        calls.append(out.shape)
        return out
    monkeypatch.setattr(greedytl._model, "_sq_dist", measured)
    tracemalloc.start()
    try:
        got = _dist(Z, Z)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert calls == [(m, m)]
    bound = 8 * m * m + 8 * block + 8 * (block // p) + 96 * 2 ** 10
    assert peak <= bound, (peak, bound)
    assert np.array_equal(got, want)
    assert np.array_equal(got[0, :4], [0.0, 1e-170, 0.0, 1e-170])


def test_nearest_neighbour_any_scale():
    """A nearest-neighbour file's rows and queries times c score c times
    the unscaled scores (to 1e-14 relative), for c whose squared distances
    overflow, underflow or fall below the normal range (1e-160: sums of
    about 1e-319, whose square roots keep a few digits) (method.distance;
    Go's TestNearestNeighbourAnyScale): the same nearest rows, where
    summing squares gave +Inf (an error), 0 or scores off in the fifth
    digit.  Where the sums are normal, however small (c = 1e-150, and
    1e-154 to 5e-155: within a few binades of 2**-1022), the scores are
    the plain sums' square roots bit for bit (a threshold of 2**-900 or
    even 2**-1021 changed some: 2**-900 passed before)."""
    rng = np.random.default_rng(19)
    R, Q = rng.normal(size=(12, 5)) * 2, rng.normal(size=(9, 5)) * 2
    classes = np.arange(12) % 3

    def scores(c):
        doc = {"format": "greedytl-model", "version": 2, "method": "nearest-neighbour", "hyperparameters": {},
               "classes": ["a", "b", "c"], "num_features": 5, "num_sources": 0, "form": "nearest-neighbour",
               "x": {"mean": [0.0] * 5, "scale": [1.0] * 5}, "h": _NO_SCALER,
               "rows": (R * c).tolist(), "row_classes": classes.tolist()}
        return greedytl._model.decode(doc).scores(Q * c)

    want = scores(1.0)
    assert len(set(np.argmax(want, axis=1))) > 1
    for c in (1e-200, 1e-160, 1e200, 1e300):
        got = scores(c) / c
        assert np.array_equal(np.argmax(got, axis=1), np.argmax(want, axis=1)), c
        assert np.all(np.abs(got - want) <= 1e-14 * np.abs(want)), (c, np.max(np.abs(got / want - 1)))
    # Normal sums of squares, however small, are the plain sums' square
    # roots bit for bit: rescaling is for sums below 2**-1022 only.
    checked = 0
    for c in (1e-150, 1e-145, 1e-154, 7e-155, 5e-155):
        Rc, Qc = (R * c).tolist(), (Q * c).tolist()
        got = scores(c)
        for i, q in enumerate(Qc):
            best = [math.inf] * 3
            for r, row in enumerate(Rc):
                best[classes[r]] = min(best[classes[r]], _sum_ordered((a - b) * (a - b) for a, b in zip(q, row)))
            for k in range(3):
                if best[k] < 2.0 ** -1022:
                    continue  # rescaled: checked above, to 1e-14
                assert got[i, k] == -math.sqrt(best[k]), (c, i, k, got[i, k], -math.sqrt(best[k]))
                checked += best[k] < 2.0 ** -1016
    assert checked >= 5, checked


def test_underflow_is_no_error():
    """Scores underflow gradually, as Go's do, also where NumPy is asked to
    raise on underflow (np.seterr(under="raise")): a standardised value
    whose square or product with a weight underflows scored as a
    FloatingPointError."""
    lin = _linear_doc([0.0, 0.0], [1.0, 1.0], [1e-170, 1.0], 0.5)
    cos = {"format": "greedytl-model", "version": 2, "method": "simpleshot", "hyperparameters": {},
           "classes": ["a", "b"], "num_features": 2, "num_sources": 0, "form": "centroid-cosine",
           "x": {"mean": [0.0, 0.0], "scale": [1.0, 1.0]}, "h": _NO_SCALER, "centroids": [[1.0, 0.0], [0.0, 1.0]]}
    X = np.array([[1e-170, 1.0], [1e-170, 1e-170]])
    with np.errstate(all="ignore"):
        want = [greedytl._model.decode(doc).scores(X) for doc in (lin, cos)]
    with np.errstate(under="raise"):
        got = [greedytl._model.decode(doc).scores(X) for doc in (lin, cos)]
    for g, w in zip(got, want):
        assert np.array_equal(g, w)


def test_unused_columns_not_read():
    """A linear file's score skips the columns of weight 0, as
    Linear.Predict does: a value of such a column that standardises to ±Inf
    (MaxFloat64 over a scale of 0.5) gives the score of an ordinary value,
    not the overflow error; a column of non-zero weight so far out is still
    one."""
    big = np.finfo(np.float64).max
    lin = _linear_doc([0.0, 0.0], [0.5, 1.0], [0.0, 2.0], 0.5)
    scorer = greedytl._model.decode(lin)
    want = scorer.scores(np.array([[1.0, 3.0], [-1.0, 1.0]]))
    got = scorer.scores(np.array([[big, 3.0], [-big, 1.0]]))
    assert np.array_equal(got, want) and np.array_equal(want, [6.5, 2.5])
    lin["wx"][0] = 1.0
    with pytest.raises(ValueError, match="the score of row 0 overflows"):
        greedytl._model.decode(lin).scores(np.array([[big, 3.0], [-big, 1.0]]))


def test_input_messages_count_one():
    """The column counts of read_model's input errors are Go's (internal/
    plural): "1 column", not "1 columns"."""
    lin = _linear_doc([0.0, 0.0], [1.0, 1.0], [1.0, 1.0], 0.5)
    with pytest.raises(ValueError, match=r"^X has 1 column, the model was trained with 2$"):
        greedytl._model.decode(lin).scores(np.zeros((3, 1)))
    one = _linear_doc([0.0], [1.0], [1.0], 0.5)
    with pytest.raises(ValueError, match=r"^the model was fitted on 1 column of X, which is not given$"):
        greedytl._model.decode(one).scores(None)


def _sum_ordered(terms):
    """acc = 0; acc += t for each term, in order (Python floats)."""
    acc = 0.0
    for t in terms:
        acc += t
    return acc


def test_every_method_sources_dir(cli, synth, tmp_path):
    """--sources DIR: the NumPy source scores of the directory's liblinear
    models, then the model, equal greedytl predict --sources."""
    X, labels = synth["X"], synth["labels"]
    src = SourcesDir(synth["sources"])
    target = labels.max()  # a class with no source of its own: the last
    pos = np.flatnonzero(labels == target)
    neg = np.flatnonzero(labels != target)
    tr = np.concatenate([pos[:4], neg[::9][:10]])
    te = np.setdiff1d(np.arange(len(labels)), tr)
    y = np.where(labels[tr] == target, 1.0, -1.0)
    save = _saver(tmp_path)
    Xtr, Xte = save("X.npy", X[tr]), save("Xt.npy", X[te])
    yte = np.where(labels[te] == target, 1.0, -1.0)
    for method in _methods(cli):
        model = tmp_path / (method.replace(":", "_") + ".json")
        run(cli, "fit", "--method", method, "--features", Xtr, "--sources", synth["sources"], "--labels",
            save("y.npy", y), *_extra(method, save, X[te], None, yte, sources=True), "--out", model)
        scorer = greedytl.read_model(model)
        assert scorer.doc["sources"]["sha256"] == src.identity
        _check(scorer.scores(X[te], src.scores(X[te])),
               _predict(cli, tmp_path, model, features=Xte, sources=synth["sources"]))
        _check_inspection(cli, scorer, model, src.names)


def test_sources_dir_scores(cli, synth, tmp_path):
    """SourcesDir.scores: column j equals greedytl predict's scores of the
    directory's liblinear model j (which favour its greater label, as
    source.Set orients a source)."""
    X = synth["X"]
    src = SourcesDir(synth["sources"])
    ix = json.load(open(synth["dir"] / "sources" / "sources.json"))
    np.save(tmp_path / "X.npy", X)
    H = src.scores(X)
    for j, e in enumerate(ix["sources"]):
        out = run(cli, "predict", "--model", synth["dir"] / "sources" / e["file"], "--features", tmp_path / "X.npy")
        _check(H[:, j], np.array([float(v) for v in out.split()]))




def _predict_scores(cli, tmp, model, **inputs):
    """greedytl predict --scores: a header of class names, then one row of
    tab-separated scores per example."""
    args = ["predict", "--scores", "--model", model]
    for flag, path in inputs.items():
        args += ["--" + flag.replace("_", "-"), path]
    lines = run(cli, *args, cwd=tmp).strip().split("\n")
    return lines[0].split("\t"), np.array([[float(v) for v in l.split("\t")] for l in lines[1:]])


def test_multiclass_parity(multiclass_cli, synth, tmp_path):
    """Multi-class model files, every form: the NumPy scores equal greedytl
    predict --scores, with sources as a matrix and as a directory."""
    cli = multiclass_cli
    X, labels = synth["X"], synth["labels"]
    src = SourcesDir(synth["sources"])
    rng = np.random.default_rng(4)
    classes = np.unique(labels)[-4:]
    pool = np.flatnonzero(np.isin(labels, classes))
    tr = np.concatenate([rng.choice(pool[labels[pool] == c], 3, replace=False) for c in classes])
    te = np.setdiff1d(pool, tr)
    save = _saver(tmp_path)
    y = np.searchsorted(classes, labels[tr])
    files = dict(X=save("X.npy", X[tr]), H=save("H.npy", src.scores(X[tr])), y=save("y.npy", y),
                 Xt=save("Xt.npy", X[te]), Ht=save("Ht.npy", src.scores(X[te])))
    # The native multi-class methods (greedytl version --json); every binary
    # method is fitted one against the rest too.
    NATIVE_MULTI = cli["multiclass_methods"]
    assert NATIVE_MULTI, "greedytl version --json lists no multi-class method"
    forms = set()
    for method in NATIVE_MULTI + [m for m in cli["methods"] if not m.startswith(("dam", "best-source"))]:
        for how in ("matrix", "dir"):
            if how == "dir" and method not in NATIVE_MULTI + ["greedytl", "greedytl-auto", "dictionary"]:
                continue
            model = tmp_path / "{}-{}.json".format(method, how)
            hx = ["--source-scores", files["H"]] if how == "matrix" else ["--sources", synth["sources"]]
            run(cli, "fit", "--method", method, "--features", files["X"], *hx, "--labels", files["y"], "--seed", 2,
                "--out", model)
            scorer = greedytl.read_model(model)
            forms.add(scorer.form)
            assert scorer.classes == [str(k) for k in range(len(classes))]
            hp = dict(source_scores=files["Ht"]) if how == "matrix" else dict(sources=synth["sources"])
            names, want = _predict_scores(cli, tmp_path, model, features=files["Xt"], **hp)
            assert names == scorer.classes
            _check(scorer.scores(X[te], src.scores(X[te])), want)
            _check_inspection(cli, scorer, model, src.names if how == "dir" else None)
    assert forms == {"linear", "nearest-neighbour", "centroid-cosine", "one-vs-rest", "ensemble"}
    # Rows far outside the training range, whose sums of squares overflow:
    # the models that normalise rows still score their directions, as
    # greedytl does, and predict what they predict at a smaller scale.
    for method in ("simpleshot", "greedytl-nway"):
        scorer = greedytl.read_model(tmp_path / "{}-matrix.json".format(method))
        Xt, Ht = X[te], src.scores(X[te])
        far = dict(Xt=save("Xfar.npy", 1e300 * Xt), Ht=save("Hfar.npy", 1e300 * Ht))
        with np.errstate(over="raise", invalid="raise"):
            got = scorer.scores(1e300 * Xt, 1e300 * Ht)
        _, want = _predict_scores(cli, tmp_path, tmp_path / "{}-matrix.json".format(method), features=far["Xt"],
                                  source_scores=far["Ht"])
        _check(got, want)
        near = scorer.scores(1e100 * Xt, 1e100 * Ht)
        assert len(set(near.argmax(axis=1))) > 1
        assert list(got.argmax(axis=1)) == list(near.argmax(axis=1))
    # A one-vs-rest file matches classes and binary models by position: with
    # its classes or its models reordered (by hand) it is refused, as
    # greedytl refuses it, not read as a model predicting the wrong classes.
    doc = json.loads((tmp_path / "greedytl-matrix.json").read_text())
    for edit in ("classes", "models"):
        bad = json.loads(json.dumps(doc))
        bad[edit][0], bad[edit][1] = bad[edit][1], bad[edit][0]
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        with pytest.raises(greedytl.ModelFileError, match=r"models\[0\] is fitted for labels"):
            greedytl.read_model(tmp_path / "bad.json")
        p = subprocess.run([cli["path"], "predict", "--model", tmp_path / "bad.json", "--features", files["Xt"],
                            "--source-scores", files["Ht"]], capture_output=True, text=True)
        assert p.returncode == 2 and "models[0]: is fitted for" in p.stderr, p.stderr


def test_nearest_neighbour_refuses_far_rows_as_greedytl(multiclass_cli, synth, tmp_path):
    """A nearest-neighbour model refuses rows farther than 2**26 times the
    largest norm of its standardised training rows (their distances too
    close to their norms to rank the rows), as greedytl predict refuses
    them: test rows scaled by growing factors are scored alike by both
    readers while near, and refused by both from the same factor on (some
    factors taken, some refused, so the bound lies among them)."""
    cli = multiclass_cli
    X, labels = synth["X"], synth["labels"]
    rng = np.random.default_rng(5)
    classes = np.unique(labels)[:3]
    pool = np.flatnonzero(np.isin(labels, classes))
    tr = np.concatenate([rng.choice(pool[labels[pool] == c], 3, replace=False) for c in classes])
    te = np.setdiff1d(pool, tr)[:6]
    save = _saver(tmp_path)
    model = tmp_path / "nn.json"
    run(cli, "fit", "--method", "nearest-neighbour", "--features", save("X.npy", X[tr]), "--labels",
        save("y.npy", np.searchsorted(classes, labels[tr])), "--out", model)
    scorer = greedytl.read_model(model)
    taken = refused = 0
    for e in range(4, 14):
        Xt = 10.0 ** e * X[te]
        p = subprocess.run([cli["path"], "predict", "--model", model, "--features", save("Xt.npy", Xt), "--scores"],
                           capture_output=True, text=True)
        if p.returncode == 0:
            taken += 1
            lines = p.stdout.strip().split("\n")
            _check(scorer.scores(Xt), np.array([[float(v) for v in l.split("\t")] for l in lines[1:]]))
        else:
            refused += 1
            assert p.returncode == 2 and "the row's score overflows float64, an input of the row too far outside the training range" in p.stderr, p.stderr
            with pytest.raises(ValueError, match="outside the training range"):
                scorer.scores(Xt)
    assert taken and refused, (taken, refused)


def test_column_counts_read_as_greedytl_reads_them(multiclass_cli, tmp_path):
    """num_features and num_sources, which every GreedyTL and multi-class
    file holds (an ensemble's members too): a JSON integer, which greedytl
    reads into an int; a null, a bool, a string, a number written with a
    fraction (4.0, as Python's json writes a float), a negative one, a
    member missing, and an ensemble's member of other counts than the file
    are refused by both readers (greedytl inspect exits 2; read_model raises
    ModelFileError), and the file as written is read by both; a count
    larger than the model's columns is taken or refused by both alike.
    read_model took 4.0, 4.5, "4" and true, and an ensemble's counts
    unchecked."""
    cli = multiclass_cli
    (Xtr, Htr, ytr), _ = _problem(3)
    save = _saver(tmp_path)
    y3 = np.arange(len(ytr)) % 3
    fits = {"greedytl": save("y.npy", ytr), "greedytl-nway": save("y3.npy", y3),
            "nearest-mean": save("y3.npy", y3), "l1-logistic": save("y3.npy", y3)}
    X, H = save("X.npy", Xtr), save("H.npy", Htr)
    checked = 0
    for method, labels in fits.items():
        model = tmp_path / "m.json"
        run(cli, "fit", "--method", method, "--features", X, "--source-scores", H, "--labels", labels, "--out", model)
        doc = json.loads(model.read_text())
        places = [doc] + [m for m in doc.get("members", [])[:1]]
        for place in places:
            for name in ("num_features", "num_sources"):
                good = place[name]
                for bad in (None, True, str(good), float(good), good + 0.5, -1, good + 1, "missing", *_BEYOND_INT):
                    if bad == "missing":
                        del place[name]
                    else:
                        place[name] = bad
                    (tmp_path / "bad.json").write_text(json.dumps(doc))
                    place[name] = good
                    read = _both_read(cli, tmp_path / "bad.json", (method, name, bad))
                    # A count greater than the model's columns is refused
                    # where the count must match the scalers' or the
                    # members', and taken by a GreedyTL file (whose columns
                    # it bounds): both readers alike.
                    assert read is False or bad in (good + 1, _GO_INT_MAX), (method, name, bad)
                    checked += 1
        (tmp_path / "good.json").write_text(json.dumps(doc))
        assert greedytl.read_model(tmp_path / "good.json").inspection() == \
            json.loads(run(cli, "inspect", "--json", tmp_path / "good.json"))
    assert checked == 11 * 2 * 5


# The greatest Go int, and the integers beyond an int, which greedytl's
# reader refuses ("cannot unmarshal number") and Python's json reads.
_GO_INT_MAX = 2 ** 63 - 1
_BEYOND_INT = (_GO_INT_MAX, _GO_INT_MAX + 1, -_GO_INT_MAX - 2)


def _both_read(cli, path, what):
    """Whether greedytl inspect and read_model read the model file at path,
    asserting that they agree (inspect exits 0 or 2; read_model returns or
    raises ModelFileError); what names the case in the assertions."""
    return _agree(_inspect(cli, path), path, what)


def _inspect(cli, path):
    """The finished greedytl inspect --json of the model file at path."""
    return subprocess.run([cli["path"], "inspect", "--json", path], capture_output=True, text=True)


def _agree(p, path, what):
    """_both_read of the model file at path, given p, its _inspect."""
    assert p.returncode in (0, 2), (what, p.stderr)
    try:
        greedytl.read_model(path)
        read = True
    except greedytl.ModelFileError:
        read = False
    assert (p.returncode == 0) == read, (what, p.stderr)
    return read


def _all_read_alike(cli, cases):
    """_both_read of each (path, what) of cases, in order, the greedytl
    inspect processes run two at a time."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda case: _inspect(cli, case[0]), cases))
    return [_agree(p, path, what) for p, (path, what) in zip(done, cases)]


def test_nested_models_checked_alike(multiclass_cli, tmp_path):
    """A one-vs-rest file's binary models and an ensemble's members (one
    check of both, MultiScorer._parts): one of other column counts than the
    file, a multi-class model among one-vs-rest's (with the labels it
    records: a multi-class file with "labels", as greedytl names it), and a
    member of other classes are refused by both readers, read_model naming
    the member."""
    cli = multiclass_cli
    (Xtr, Htr, ytr), _ = _problem(3)
    save = _saver(tmp_path)
    X, H, y3 = save("X.npy", Xtr), save("H.npy", Htr), save("y3.npy", np.arange(len(ytr)) % 3)
    docs = {}
    for method in ("greedytl-auto", "greedytl-nway"):
        run(cli, "fit", "--method", method, "--features", X, "--source-scores", H, "--labels", y3, "--out",
            tmp_path / "m.json")
        docs[method] = json.loads((tmp_path / "m.json").read_text())
    ovr, ens = docs["greedytl-auto"], docs["greedytl-nway"]
    assert (ovr["form"], ens["form"]) == ("one-vs-rest", "ensemble")
    narrow = json.loads(json.dumps(ovr))
    m = narrow["models"][1]
    m["wx"], m["x"] = m["wx"][:-1], {k: v[:-1] for k, v in m["x"].items()}
    multi = json.loads(json.dumps(ovr))
    multi["models"][1] = dict(ens["members"][0], labels=ovr["models"][1]["labels"])
    other = json.loads(json.dumps(ens))
    other["members"][1]["classes"] = ["0", "2", "1"]
    for doc, want in ((narrow, r"models\[1\] has {} features and".format(len(ovr["models"][1]["wx"]) - 1)),
                      (multi, r'models\[1\]: a multi-class file names its classes in "classes", not "labels"'),
                      (other, r"members\[1\] has classes \['0', '2', '1'\]")):
        (tmp_path / "v.json").write_text(json.dumps(doc))
        assert _both_read(cli, tmp_path / "v.json", want) is False
        with pytest.raises(greedytl.ModelFileError, match=want):
            greedytl.read_model(tmp_path / "v.json")


def test_ensemble_weights_sum_checked_alike(multiclass_cli, tmp_path):
    """A greedytl-nway ensemble whose member weights do not sum to 1 (within
    1e-12, summed in order) is refused by both readers, read_model naming
    the sum; a sum off by less than the bound is read by both."""
    cli = multiclass_cli
    (Xtr, Htr, ytr), _ = _problem(3)
    save = _saver(tmp_path)
    X, H, y3 = save("X.npy", Xtr), save("H.npy", Htr), save("y3.npy", np.arange(len(ytr)) % 3)
    run(cli, "fit", "--method", "greedytl-nway", "--features", X, "--source-scores", H, "--labels", y3, "--out",
        tmp_path / "m.json")
    ens = json.loads((tmp_path / "m.json").read_text())
    assert ens["form"] == "ensemble" and len(ens["weights"]) > 1
    for i, (shift, read) in enumerate(((1e-3, False), (-1e-3, False), (4e-12, False), (2e-13, True))):
        doc = json.loads(json.dumps(ens))
        doc["weights"][0] += shift
        path = tmp_path / "w{}.json".format(i)
        path.write_text(json.dumps(doc))
        assert _both_read(cli, path, shift) is read, shift
        if not read:
            with pytest.raises(greedytl.ModelFileError, match=r"the weights sum to [0-9.e-]+, not 1"):
                greedytl.read_model(path)


def test_nested_models_take_the_inputs_validated_once(multiclass_cli, tmp_path, monkeypatch):
    """A one-vs-rest file's binary models and an ensemble's members score
    the inputs the file validated (Scorer._inputs once a scoring, not once
    more a model), with the same scores: every model validated them again."""
    cli = multiclass_cli
    (Xtr, Htr, ytr), (Xte, Hte, _) = _problem(3)
    save = _saver(tmp_path)
    X, H, y3 = save("X.npy", Xtr), save("H.npy", Htr), save("y3.npy", np.arange(len(ytr)) % 3)
    calls = []
    inputs = greedytl._model.Scorer._inputs
    def counted(self, *a):
        calls.append(self)
        return inputs(self, *a)
    for method, form in (("l1-logistic", "one-vs-rest"), ("greedytl-nway", "ensemble")):
        model = tmp_path / "m.json"
        run(cli, "fit", "--method", method, "--features", X, "--source-scores", H, "--labels", y3, "--out", model)
        scorer = greedytl.read_model(model)
        assert scorer.form == form
        monkeypatch.setattr(greedytl._model.Scorer, "_inputs", counted)
        calls.clear()
        got = scorer.scores(Xte, Hte)
        assert calls == [scorer], method
        monkeypatch.undo()
        _check(got, _predict_scores(cli, tmp_path, model, features=save("Xt.npy", Xte),
                                    source_scores=save("Ht.npy", Hte))[1])


def test_integer_members_read_as_greedytl_reads_them(multiclass_cli, tmp_path):
    """The members greedytl reads into an int as it reads the column
    counts — the file's version, a GreedyTL file's columns[j].index, a
    dictionary file's sparsity and a nearest-neighbour file's
    row_classes[i]: a number written with a fraction (4.0), a string, a
    bool, a null and an integer beyond an int are refused by both readers,
    and a negative or too large one by both (its range checked after
    reading); the file as written, and a sparsity of 1 and of the atoms'
    count, read by both.  read_model took 4.0, "4" and true for an index
    or the sparsity (int()), 2.0 and true (as 1) for the version, 1.0 and
    true for a row's class (NumPy's int64), and raised OverflowError, not
    ModelFileError, for a row's class beyond an int."""
    cli = multiclass_cli
    (Xtr, Htr, ytr), _ = _problem(3)
    save = _saver(tmp_path)
    X, H = save("X.npy", Xtr), save("H.npy", Htr)
    y, y3 = save("y.npy", ytr), save("y3.npy", np.arange(len(ytr)) % 3)
    docs = {}
    for method, labels in (("greedytl", y), ("dictionary", y), ("nearest-neighbour", y3)):
        run(cli, "fit", "--method", method, "--features", X, "--source-scores", H, "--labels", labels, "--out",
            tmp_path / "m.json")
        docs[method] = json.loads((tmp_path / "m.json").read_text())
    atoms = len(docs["dictionary"]["dictionaries"][0])
    places = [(docs["greedytl"], c, "index") for c in docs["greedytl"]["columns"]]
    places.append((docs["greedytl"], docs["greedytl"], "version"))
    places.append((docs["dictionary"], docs["dictionary"], "sparsity"))
    nn = docs["nearest-neighbour"]
    places += [(nn, nn["row_classes"], i) for i in range(4)]
    tried_bool = False
    for doc, place, name in places:
        good = place[name]
        bools = [good == 1] if good in (0, 1) else []
        tried_bool |= bool(bools)
        ok = [1, atoms] if name == "sparsity" else []
        for v in [float(good), str(good), None, -1, *bools, *_BEYOND_INT, -_GO_INT_MAX - 1, good, *ok]:
            place[name] = v
            (tmp_path / "v.json").write_text(json.dumps(doc))
            place[name] = good
            read = _both_read(cli, tmp_path / "v.json", (name, good, v))
            assert read == (type(v) is int and (v == good or v in ok)), (name, good, v)
    assert tried_bool


def _v1_doc():
    """A version 1 GreedyTL file (γ under its old key feature_factor, the
    method named greedytl whatever the options)."""
    return {"format": "greedytl-model", "version": 1, "method": "greedytl",
            "hyperparameters": {"lambda": 1, "delta": 0.0001, "feature_factor": 0.25, "sample": 59},
            "num_features": 2, "num_sources": 1,
            "options": {"lambda": 1, "auto_lambda": False, "delta": 0.0001, "max_k": 0, "sample": 59, "seed": 7,
                        "feature_factor": 0.25, "stop_at_min_loo": False},
            "columns": [{"kind": "source", "index": 0, "weight": 0.5, "mean": 0.1, "scale": 2, "score": 3,
                         "reg_error": 0.4, "loo_error": 0.6}]}


def _member_paths(v, path=()):
    """The path of every member of the decoded JSON value v, at every depth
    (an array's first element standing for all of them), with whether it
    is an object's member (which can be missing) or an array's element."""
    if isinstance(v, dict):
        for k, x in v.items():
            yield path + (k,), True
            yield from _member_paths(x, path + (k,))
    elif isinstance(v, list) and v:
        yield path + (0,), False
        yield from _member_paths(v[0], path + (0,))


def _another_kind(v):
    """A JSON value of another kind than v's."""
    if isinstance(v, str):
        return 1
    if isinstance(v, bool):
        return 0
    if isinstance(v, (int, float)):
        return "1"
    return [] if isinstance(v, dict) else {}


# Where the readers differ, by (method, the member's path without the
# array indices, the change): what greedytl refuses on grounds of
# consistency between members or of their values, which read_model does not
# check (none of them is used to score): greedytl-auto's committee against the model (AutoCommittee.check: its
# GreedyTL members, its source member when the model has sources, the
# tally's counts against them and the hyperparameter "fits").
_NOT_MIRRORED = {
    ("greedytl-auto", p, change) for p, change in (
        (("hyperparameters", "fits"), "missing"), (("committee", "greedy"), None),
        (("committee", "source"), None), (("committee", "source"), "missing"),
        (("committee", "tally", "greedy"), None))}


# The members of the Go types every file shares — modelfile.Header's but
# for hyperparameters (whose keys and checks are each method's), and the
# scalers x and h (standardize.Scaler, whose members are changed in x only)
# — which the test below changes in the first file that has each at its top
# level and in the first that has it in a nested model, not in every file;
# and each other member of a file's type, in the first file of that type at
# each level (_owner_key).
_SHARED = {"format", "version", "method", "build", "sources", "labels", "x", "h"}
# The members every multi-class file has besides (method.multiHeader's),
# shared so too.
_MULTI_HEADER = {"classes", "num_features", "num_sources", "form"}


def _owner_key(doc, path):
    """What the change of the member at path in doc tests: ("top" or
    "nested", m) for a member in m of _SHARED, of the file or of a model
    nested in it (a one-vs-rest file's models, an ensemble's members),
    (level, "multi-class", m) for one in m of a multi-class file's
    _MULTI_HEADER, None for a member of h (whose type, a scaler, is x's),
    else (level, the method's name, the form, the path without the array
    indices) of the file or model it is in, without the method's name in a
    multi-class file but for its hyperparameters."""
    level = "top"
    if len(path) > 2 and path[0] in ("models", "members"):
        level, doc, path = "nested", doc[path[0]][path[1]], path[2:]
    if path[0] == "h" and len(path) > 1:
        return None  # a member of a scaler: x's stand for h's (one Go type)
    if path[0] in _SHARED:
        return level, path[0]
    if "form" in doc and path[0] in _MULTI_HEADER:
        return level, "multi-class", path[0]
    # A multi-class file's type is its form's (multinomial-logistic's and
    # nearest-mean's are one), a binary one's its method's; the
    # hyperparameters are each method's.
    kind = doc["method"].split(":")[0] if "form" not in doc or path[0] == "hyperparameters" else None
    return level, kind, doc.get("form"), tuple(k for k in path if not isinstance(k, int))


def test_members_null_missing_or_of_another_kind_read_alike(multiclass_cli, synth, tmp_path):
    """Every member of a model file of each kind (linear, GreedyTL, version
    1 GreedyTL, dictionary, greedytl-auto's committee, every multi-class
    form, the nested models, the header's build, labels and sources), at
    every depth, made null, left out or given a value of another kind, and
    every object given a member its type lacks, is read or refused by
    read_model as greedytl inspect reads or refuses it
    (but for _NOT_MIRRORED), read_model refusing with greedytl's message
    ("h is null; want an object", "columns[0].weight is missing; want a
    number", 'unknown field "x.foo"').  read_model took unknown members, a
    null h or x of a model without those
    columns, a null or missing member it does not score with (the header's
    build and labels, a GreedyTL file's options, a column's reg_error, the
    committee), a number written as a string or a bool (b "1", mean true),
    and refused a null "columns", which greedytl reads as no column.  The
    members of the types every file shares (_SHARED: the header's but for
    hyperparameters, the scalers, whose members x's stand for) are changed
    in one file at the top level and in one nested model, the others' in
    one file of each type at each level (_owner_key), the version 1 file's
    all; the greedytl inspect processes run two at a time."""
    cli = multiclass_cli
    (Xtr, Htr, ytr), _ = _problem(3)
    save = _saver(tmp_path)
    X, H = save("X.npy", Xtr), save("H.npy", Htr)
    y, y3 = save("y.npy", ytr), save("y3.npy", np.arange(len(ytr)) % 3)
    Xs = save("Xs.npy", synth["X"])
    ys = save("ys.npy", np.where(synth["labels"] == synth["labels"][0], 1.0, -1.0))
    fits = [(m, ["--features", X, "--source-scores", H, "--labels", y]) for m in
            ("l1-logistic", "greedytl", "dictionary", "greedytl-auto")]
    fits += [(m, ["--features", X, "--source-scores", H, "--labels", y3]) for m in
             ("l1-logistic", "greedytl-nway", "nearest-mean", "nearest-neighbour", "simpleshot")]
    fits.append(("greedytl", ["--features", Xs, "--sources", synth["sources"], "--labels", ys]))
    docs = []
    for method, args in fits:
        run(cli, "fit", "--method", method, *args, "--seed", 1, "--out", tmp_path / "m.json")
        docs.append((method, json.loads((tmp_path / "m.json").read_text())))
    docs.append(("greedytl v1", _v1_doc()))
    assert {d.get("form") for _, d in docs} >= {"one-vs-rest", "ensemble", "linear", "nearest-neighbour",
                                                "centroid-cosine"}
    assert all(any(k in d for _, d in docs) for k in ("build", "labels", "sources", "committee", "options"))
    cases = []  # (file, (method, path, change)), inspected at the end

    def case(doc, what):
        cases.append((_write(tmp_path / "v{}.json".format(len(cases)), doc), what))

    owner = {}
    for i, (method, doc) in enumerate(docs):
        # The file's name in the cases: its method's, the second of a method
        # "#2" (a multi-class l1-logistic, a GreedyTL file of sources).
        label = method + " #2" * any(m == method for m, _ in docs[:i])
        doc["unknown_member"] = 1
        case(doc, (label, (), "unknown member"))
        del doc["unknown_member"]
        for path, member in list(_member_paths(doc)):
            key = _owner_key(doc, path)
            if method != "greedytl v1" and (key is None or owner.setdefault(key, i) != i):
                continue
            parent = doc
            for k in path[:-1]:
                parent = parent[k]
            good = parent[path[-1]]
            changes = [None, "missing", "another kind"] if member else [None, "another kind"]
            for change in changes + (["unknown member"] if isinstance(good, dict) else []):
                if (method, tuple(k for k in path if not isinstance(k, int)), change) in _NOT_MIRRORED:
                    continue
                items = list(parent.items()) if member else None
                if change == "missing":
                    del parent[path[-1]]
                elif change == "unknown member":
                    parent[path[-1]] = dict(good, unknown_member=1)
                else:
                    parent[path[-1]] = _another_kind(good) if change else None
                case(doc, (label, path, change))
                if member:  # the members back, in their order
                    parent.clear()
                    parent.update(items)
                else:
                    parent[path[-1]] = good
    refused = {}
    for (path, what), read in zip(cases, _all_read_alike(cli, cases)):
        assert not read or what[1:] != ((), "unknown member"), what
        if not read:
            with pytest.raises(greedytl.ModelFileError) as e:
                greedytl.read_model(path)
            refused[what] = str(e.value)[len(str(path)) + 2:]
    # Every shared member changed at both levels (a nested model records no
    # sources: the file does).
    assert set(owner) >= {(level, k) for level in ("top", "nested") for k in _SHARED} - {("nested", "sources")}
    assert set(owner) >= {(level, "multi-class", k) for level in ("top", "nested") for k in _MULTI_HEADER}
    assert len(cases) == len(set(what for _, what in cases))
    name = "l1-logistic model: "
    assert refused["l1-logistic", ("h",), None] == name + "h is null; want an object"
    assert refused["l1-logistic", ("x", "mean", 0), "another kind"] == name + 'x.mean[0] is "1"; want a number'
    assert refused["greedytl", ("columns", 0, "weight"), "missing"].endswith("columns[0].weight is missing; want a number")
    assert refused["greedytl", ("options",), None].endswith("options is null; want an object")
    assert refused["l1-logistic", ("x",), "unknown member"] == name + 'unknown field "x.unknown_member"'
    assert ("greedytl", ("columns",), None) not in refused
    assert len(refused) > 250, len(refused)
    assert len(cases) < 650, len(cases)  # some 1,185 when every file changed all


def test_numbers_beyond_a_float64_read_alike(cli, tmp_path):
    """A number beyond a float64's range (an integer of 400 digits, which
    json.loads keeps whole, 1e400, which it reads as inf, and 2**1024 −
    2**970, the least integer that rounds to 2**1024) in a member greedytl
    reads into a float64 — a linear file's b, wx[0], x.mean[1] and a
    hyperparameter, a version 1 GreedyTL file's columns[0].weight and
    columns[0].score — is refused by both readers, read_model saying
    greedytl's "cannot unmarshal number" and naming the member; the
    greatest integer that rounds to a finite float64 (2**1024 − 2**970 − 1)
    and 1e-400 (0) are read by both.  read_model raised a bare
    OverflowError for the integers in b or a weight, and took any of them
    in a hyperparameter or a column's score, which it does not score with."""
    lin = _linear_doc([0.0, 1.0], [1.0, 2.0], [0.5, -0.5], 0.25)
    lin["hyperparameters"] = {"c": 1}
    places = [(lin, ("b",)), (lin, ("wx", 0)), (lin, ("x", "mean", 1)), (lin, ("hyperparameters", "c")),
              (_v1_doc(), ("columns", 0, "weight")), (_v1_doc(), ("columns", 0, "score"))]
    beyond = ["9" * 400, "-" + "9" * 400, "1e400", "-1e400", str(2 ** 1024 - 2 ** 970)]
    within = [str(2 ** 1024 - 2 ** 970 - 1), "1e-400"]
    for doc, path in places:
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        good = parent[path[-1]]
        parent[path[-1]] = "@NUMBER@"
        text = json.dumps(doc)
        parent[path[-1]] = good
        for v in beyond + within:
            (tmp_path / "v.json").write_text(text.replace('"@NUMBER@"', v))
            read = _both_read(cli, tmp_path / "v.json", (path, v[:20]))
            assert read == (v in within), (path, v[:20])
            if not read:
                name = "".join("[{}]".format(k) if isinstance(k, int) else "." + k for k in path).lstrip(".")
                with pytest.raises(greedytl.ModelFileError, match=r"cannot unmarshal number .*into {} of type "
                                   r"float64".format(re.escape(name))):
                    greedytl.read_model(tmp_path / "v.json")


# Labels greedytl refuses (dataset.CheckLabel) or takes, as a binary
# file's positive or negative label and as a class name.
_BAD_LABELS = ["NaN", "-nan", "+-NaN", " inf ", "Infinity", "-INF", "1e400", "-0x1p2000", "a\tb", "x\n", "\r"]
# Hidden characters ("\x1b[31mred", a soft hyphen) and white space at either end
# are refused or trimmed by the readers of label files but read in model files,
# which earlier greedytls (or the Go API) wrote with them.
_GOOD_LABELS = ["infinit", "nan(1)", "1_0", "0x10", "1e-400", "-0x1.8p1", "\x1cNaN", "\u0661", "nanny", "−inf",
                "\x1b[31mred", "Ge\u00adwicht", " cat", "cat ", "\u3000a"]


def _refused_alike(cli, path, what):
    """Assert that both readers refuse the model file at path, read_model
    with greedytl's message (the tail of greedytl inspect's after "model:
    "); what names the case."""
    p = subprocess.run([cli["path"], "inspect", "--json", path], capture_output=True, text=True)
    assert p.returncode == 2, (what, p.stdout)
    with pytest.raises(greedytl.ModelFileError) as e:
        greedytl.read_model(path)
    tail = str(e.value)[len(str(path)) + 2:].split(" model: ", 1)[-1]  # after the path and "… model: "
    assert p.stderr.strip().endswith(tail), (what, str(e.value), p.stderr)


def _labelled_docs(cli, tmp_path):
    """Two model documents whose labels the tests edit: a 3-class
    nearest-mean file greedytl fitted (its "classes") and a binary linear
    one (its "labels" to set)."""
    (Xtr, Htr, ytr), _ = _problem(3)
    save = _saver(tmp_path)
    run(cli, "fit", "--method", "nearest-mean", "--features", save("X.npy", Xtr), "--source-scores",
        save("H.npy", Htr), "--labels", save("y3.npy", np.arange(len(ytr)) % 3), "--out", tmp_path / "m.json")
    return json.loads((tmp_path / "m.json").read_text()), _linear_doc([0.0, 1.0], [1.0, 2.0], [0.5, -0.5], 0.25)


def test_labels_checked_as_greedytl_checks_them(multiclass_cli, tmp_path):
    """A binary file's "labels" and a multi-class file's "classes" are
    checked as greedytl checks them (modelfile.LabelNames.Check,
    method.ClassLabels.checkNames, dataset.CheckLabel), refused by both
    readers with greedytl's message: a negative label given twice, empty or
    the positive one; a label or class name holding a tab or a line break
    or reading as a number that is not finite (NaN with a sign too, ±Inf in
    any spelling, a literal beyond float64's range); fewer than two
    classes, an empty one or one given twice.  Labels that do not read so
    (_GOOD_LABELS: "infinit", "1_0", a non-ASCII digit) are read by both.
    And a version 1 GreedyTL file whose options have version 2's "gamma" is
    refused by both.  read_model took all of these but the empty and the
    repeated class names and fewer than two classes (which it refused with
    its own message)."""
    cli = multiclass_cli
    multi, lin = _labelled_docs(cli, tmp_path)
    cases = [(dict(lin, labels={"positive": "yes", "negative": neg}), neg)
             for neg in (["no", "maybe", "no"], ["no", ""], ["no", "yes"])]
    cases += [(dict(lin, labels={"positive": bad, "negative": ["no"]}), bad) for bad in _BAD_LABELS]
    cases += [(dict(lin, labels={"positive": "yes", "negative": ["no", bad]}), bad) for bad in _BAD_LABELS]
    cases += [(dict(multi, classes=["0", bad, "2"]), bad) for bad in _BAD_LABELS]
    cases += [(dict(multi, classes=c), c) for c in (["0", "1", "1"], ["0", "", "2"], ["0"], [])]
    v1 = _v1_doc()
    v1["options"]["gamma"] = 0.25
    cases.append((v1, "version 1 with gamma"))
    for doc, what in cases:
        _refused_alike(cli, _write(tmp_path / "v.json", doc), what)
    for good in _GOOD_LABELS:
        for doc in (dict(lin, labels={"positive": good, "negative": ["no"]}),
                    dict(lin, labels={"positive": "yes", "negative": ["no", good]}),
                    dict(multi, classes=["0", good, "2"])):
            assert _both_read(cli, _write(tmp_path / "v.json", doc), good)


def test_file_type_is_the_methods(multiclass_cli, tmp_path):
    """A file's type is its method's, as greedytl decides it: files whose
    members are those of another method's type — a greedytl-auto file of
    GreedyTL "columns" (as greedytl-auto wrote before its committee), a
    linear file named greedytl, a dictionary file named l1-logistic, a
    nearest-mean file named simpleshot, a binary file with a null
    "classes" — are refused by both readers, and so are a binary file of a
    multi-class method, a multi-class file of an unknown method or of a
    native one with settings, a file of an unknown method, a one-vs-rest
    file one of whose models is another method's, and an ensemble with a
    member of a form other than linear (with greedytl's message, where the
    reason is not a member's kind).  greedytl's method tables are
    read_model's (version --json).  read_model read all of these files but
    the unknown methods' (by their members), and a version 1 GreedyTL file
    without "columns" as a file it cannot score, which greedytl reads (as
    this test's own case shows, read alike)."""
    cli = multiclass_cli
    from greedytl import _model
    assert list(_model._BINARY_SCORERS) == cli["methods"]
    assert list(_model._MULTI_FORMS) == cli["multiclass_methods"]
    (Xtr, Htr, ytr), _ = _problem(3)
    save = _saver(tmp_path)
    X, H = save("X.npy", Xtr), save("H.npy", Htr)
    y, y3 = save("y.npy", ytr), save("y3.npy", np.arange(len(ytr)) % 3)
    docs = {}
    for method, labels in (("greedytl", y), ("l1-logistic", y), ("dictionary", y), ("nearest-mean", y3),
                           ("simpleshot", y3), ("l1-logistic 3", y3), ("greedytl-nway", y3)):
        run(cli, "fit", "--method", method.split()[0], "--features", X, "--source-scores", H, "--labels", labels,
            "--out", tmp_path / "m.json")
        docs[method] = json.loads((tmp_path / "m.json").read_text())
    ovr, ens = docs["l1-logistic 3"], docs["greedytl-nway"]
    other_model = json.loads(json.dumps(ovr))
    other_model["models"][1]["method"] = "elastic-net"
    other_member = json.loads(json.dumps(ens))
    other_member["members"][0] = dict(docs["simpleshot"], hyperparameters=ens["members"][0]["hyperparameters"])
    kinds = [dict(docs["greedytl"], method="greedytl-auto"), dict(docs["l1-logistic"], method="greedytl"),
             dict(docs["dictionary"], method="l1-logistic"), dict(docs["nearest-mean"], method="simpleshot"),
             dict(docs["l1-logistic"], classes=None)]
    for doc in kinds:
        assert not _both_read(cli, _write(tmp_path / "v.json", doc), (doc["method"], "classes" in doc))
    for doc in (dict(docs["l1-logistic"], method="nearest-mean"), dict(docs["nearest-mean"], method="foo"),
                dict(docs["nearest-mean"], method="nearest-mean:k=1"), dict(docs["l1-logistic"], method="foo"),
                other_model, other_member):
        _refused_alike(cli, _write(tmp_path / "v.json", doc), doc["method"])
    v1 = _v1_doc()
    del v1["columns"]
    assert _both_read(cli, _write(tmp_path / "v.json", v1), "version 1 without columns")


def test_method_specs_checked_as_greedytl_checks_them(multiclass_cli, tmp_path):
    """A file's method is a spec, read and checked as greedytl's lookup
    reads and checks it: its syntax (an empty name or key, a missing "=",
    a key with a blank, a colon with nothing after it, a key set twice,
    auto), its values (a number as a setting is read: not a literal beyond
    float64's range or rounding to 0, not NaN nor infinite, no digit
    separator), and the settings its method takes: the GreedyTL methods'
    keys and ranges, greedytl-auto's and l1-logistic's one flag, none for
    the others, in a binary and in a one-vs-rest file.  Both readers refuse
    the same specs with the same message and read the same.  read_model
    read every spec of a binary method by its name alone
    ("greedytl:bogus=1" was a greedytl file)."""
    cli = multiclass_cli
    (Xtr, Htr, ytr), _ = _problem(3)
    save = _saver(tmp_path)
    X, H = save("X.npy", Xtr), save("H.npy", Htr)
    docs = {}
    for method, labels in (("greedytl", ytr), ("greedytl-auto", ytr), ("l1-logistic", ytr),
                           ("l1-logistic ovr", np.arange(len(ytr)) % 3), ("nearest-mean", np.arange(len(ytr)) % 3)):
        run(cli, "fit", "--method", method.split()[0], "--features", X, "--source-scores", H, "--labels",
            save("y.npy", labels), "--out", tmp_path / "m.json")
        docs[method] = json.loads((tmp_path / "m.json").read_text())
    refused = {
        "greedytl": ["greedytl:bogus=1", "greedytl:lambda=-1", "greedytl:lambda=x", "greedytl:lambda=1e400",
                     "greedytl:lambda=1e-400", "greedytl:lambda=0x1p-5000", "greedytl:lambda=nan",
                     "greedytl:lambda=-nan", "greedytl:lambda=Inf", "greedytl:lambda=1_0", "greedytl:lambda= 1",
                     "greedytl:lambda=NAN", "greedytl:lambda=nAn", "greedytl:lambda=+NaN", "greedytl:lambda=nan(1)",
                     "greedytl:delta=-Infinity", "greedytl:delta=+INF", "greedytl:lambda=infinity",
                     "greedytl:lambda=infin",
                     "greedytl:", "greedytl:lambda", "greedytl:=1", "greedytl:la mbda=1", "greedytl:lambda=1,lambda=2",
                     "greedytl:lambda=auto,auto_lambda=1", "greedytl:auto_lambda=AUTO", "greedytl:auto_delta=1",
                     "greedytl:auto_auto_lambda=1", "greedytl:max_k=1.5", "greedytl:sample=3e9",
                     "greedytl:sample=0x1p1", "greedytl:max_k=2.0", "greedytl:sample=1e1", "greedytl:max_k=true",
                     "greedytl:sample=0x1p1,max_k=2.0", "greedytl:max_k=2.0,lambda=x", "greedytl:max_k=2.0,max_k=2",
                     "greedytl:stop_at_min_loo=2", "greedytl:lambda=2,auto_lambda=true", "greedytl:delta=-1e-7",
                     ":lambda=1", "greedytl=1", "greedytl:lambda=1,", "greedytl:\tx=1"],
        "greedytl-auto": ["greedytl-auto:single_fit=2", "greedytl-auto:exact=1", "greedytl-auto:single_fit=0.5"],
        "l1-logistic": ["l1-logistic:C=1", "l1-logistic:exact=-1", "elastic-net:x=1", "no-transfer:exact=1"],
        "l1-logistic ovr": ["l1-logistic:bogus=1", "l1-logistic:exact=3", "l1-logistic:"],
        "nearest-mean": ["nearest-mean:", "nearest-mean:k=x"],
    }
    for kind, specs in refused.items():
        for spec in specs:
            _refused_alike(cli, _write(tmp_path / "v.json", dict(docs[kind], method=spec)), spec)
    read = [("greedytl-auto", "greedytl-auto:single_fit=1"), ("greedytl-auto", "greedytl-auto:single_fit=false"),
            ("l1-logistic", "l1-logistic:exact=1"), ("l1-logistic", "l1-logistic:exact=0x1p0"),
            ("l1-logistic", "l1-logistic:exact=true")]
    for kind, spec in read:
        assert _both_read(cli, _write(tmp_path / "v.json", dict(docs[kind], method=spec)), spec), spec


def test_encoding_and_repeated_members_read_alike(multiclass_cli, tmp_path):
    """A file's bytes as greedytl reads them: a UTF-8 byte order mark
    before the document is skipped; invalid UTF-8 in a string reads as
    U+FFFD a byte (the inspection, a hyperparameter's name, is inspect's),
    outside one it is refused; a number given twice keeps its last value
    and each of its values is checked as the member's type wants ({"b":
    null, "b": 0.25} refused, {"b": 0.5, "b": 0.25} read), at any depth, in
    a nested model too.  read_model refused the byte order mark, raised
    UnicodeDecodeError for invalid UTF-8, and kept the last of a repeated
    member without checking the others."""
    cli = multiclass_cli
    lin = _linear_doc([0.0, 1.0], [1.0, 2.0], [0.5, -0.5], 0.25)
    lin["hyperparameters"] = {"c": 1}
    lin["labels"] = {"positive": "yes", "negative": ["no"]}
    text = json.dumps(lin).encode()
    (Xtr, Htr, ytr), _ = _problem(3)
    save = _saver(tmp_path)
    run(cli, "fit", "--method", "l1-logistic", "--features", save("X.npy", Xtr), "--source-scores",
        save("H.npy", Htr), "--labels", save("y3.npy", np.arange(len(ytr)) % 3), "--out", tmp_path / "m.json")
    ovr = (tmp_path / "m.json").read_bytes()
    b = re.search(rb'"b": ([^,\n]+)', ovr).group(0)  # the first model's b
    cases = [
        (b"\xef\xbb\xbf" + text, True, "byte order mark"),
        (text.replace(b'"yes"', b'"y\xff\xe2\x82s"'), True, "invalid UTF-8 in a label"),
        (text.replace(b'{"c": 1}', b'{"c\xed\xa0\x80": 1}'), True, "invalid UTF-8 in a member's name"),
        (text.replace(b'"b": 0.25', b'"b": 0.25\xff'), False, "invalid UTF-8 outside a string"),
        (text.replace(b'"b": 0.25', b'"b": null, "b": 0.25'), False, "an earlier null"),
        (text.replace(b'"b": 0.25', b'"b": "1", "b": 0.25'), False, "an earlier string"),
        (text.replace(b'"b": 0.25', b'"b": 0.5, "b": 0.25'), True, "an earlier number"),
        (text.replace(b'{"c": 1}', b'{"c": null, "c": 1}'), False, "a hyperparameter's earlier null"),
        (text.replace(b'"x": {', b'"x": {"foo": 1}, "x": {'), False, "an earlier object's unknown member"),
        (text.replace(b'"x": {', b'"x": {"mean": []}, "x": {'), False, "an earlier object's missing member"),
        (ovr.replace(b, b'"b": null, ' + b, 1), False, "a nested model's earlier null"),
        (ovr.replace(b, b + b", " + b, 1), True, "a nested model's member twice"),
    ]
    for data, readable, what in cases:
        (tmp_path / "v.json").write_bytes(data)
        assert _both_read(cli, tmp_path / "v.json", what) is readable, what
    (tmp_path / "v.json").write_bytes(cases[2][0])
    got = greedytl.read_model(tmp_path / "v.json")
    assert got.inspection() == json.loads(run(cli, "inspect", "--json", tmp_path / "v.json"))
    assert list(got.doc["hyperparameters"]) == ["c\ufffd\ufffd\ufffd"]
    (tmp_path / "v.json").write_bytes(cases[1][0])
    assert greedytl.read_model(tmp_path / "v.json").doc["labels"]["positive"] == "y\ufffd\ufffd\ufffds"
    (tmp_path / "v.json").write_bytes(cases[6][0])
    assert greedytl.read_model(tmp_path / "v.json").b == 0.25


def test_lone_surrogates_read_as_greedytl_reads_them(multiclass_cli, tmp_path):
    """An escaped lone surrogate in a string ("\\ud800", "\\udc00", a high
    one not followed by a low one) reads as U+FFFD, as encoding/json reads
    it, and an escaped pair as its one character: class names "\\ud800" and
    "\\udc00", or a high and a low surrogate as a binary file's labels, are
    one name given twice, refused by both readers with greedytl's message;
    a lone surrogate and a pair beside it are read by both, the inspection
    greedytl's.  read_model kept a lone surrogate as it is: it read and
    scored the files greedytl refuses."""
    cli = multiclass_cli
    multi, lin = _labelled_docs(cli, tmp_path)
    refused = [dict(multi, classes=["\ud800", "\udc00", "2"]),
               dict(multi, classes=["0", "\udbff\ud800", "\ufffd\ufffd"]),
               dict(lin, labels={"positive": "\ud800", "negative": ["\udfff"]}),
               dict(lin, labels={"positive": "yes", "negative": ["\udc00x", "\ufffdx"]})]
    for doc in refused:
        path = _write(tmp_path / "v.json", doc)
        assert "\\ud" in path.read_text()  # escaped, as greedytl reads it
        _refused_alike(cli, path, doc.get("classes") or doc["labels"])
    read = [dict(multi, classes=["0", "a\ud800b\ud83d\ude00", "\ud83d\ude00"]),
            dict(lin, labels={"positive": "\udc00\ud800\udc00", "negative": ["\ud800\u0041"]})]
    for doc in read:
        path = _write(tmp_path / "v.json", doc)
        assert _both_read(cli, path, doc.get("classes") or doc["labels"])
        got = greedytl.read_model(path)
        assert got.inspection() == json.loads(run(cli, "inspect", "--json", path))
    assert got.doc["labels"] == {"positive": "\ufffd\U00010000", "negative": ["\ufffdA"]}


def test_member_names_read_ignoring_case(multiclass_cli, tmp_path):
    """A member names its field as encoding/json matches them, as greedytl
    reads a model file: exactly, or else ignoring case, by Unicode's simple
    folding ("B" is "b", "METHOD" is "method", the Kelvin sign is k, the
    long s is s; a dotless ı is no i), at any depth, in the header (a
    "Classes" makes a multi-class file) and in a nested model (a
    one-vs-rest model's "Labels", read as its model's labels); several
    members of one field are each checked, a number's last kept and an
    object's merged (test_repeated_objects_merged_as_greedytl_merges_them).  Both
    readers read the same files, with the same scores.  read_model refused
    every member not named exactly ('unknown field "B"'), and checked a
    one-vs-rest model's labels in the document before the model was read."""
    cli = multiclass_cli
    (Xtr, Htr, ytr), (Xte, Hte, _) = _problem(3)
    save = _saver(tmp_path)
    X, H, Xt, Ht = save("X.npy", Xtr), save("H.npy", Htr), save("Xt.npy", Xte), save("Ht.npy", Hte)
    texts = {}
    for method, labels in (("l1-logistic", ytr), ("greedytl", ytr), ("nearest-neighbour", np.arange(len(ytr)) % 3),
                           ("l1-logistic ovr", np.arange(len(ytr)) % 3)):
        run(cli, "fit", "--method", method.split()[0], "--features", X, "--source-scores", H, "--labels",
            save("y.npy", labels), "--out", tmp_path / "m.json")
        texts[method] = (tmp_path / "m.json").read_text()
    b = re.search(r'"b": ([^,\n]+)', texts["l1-logistic"]).group(1)
    cases = [
        ("l1-logistic", '"b":', '"B":', True),
        ("l1-logistic", '"method":', '"METHOD":', True),
        ("l1-logistic", '"x": {', '"X": {"MEAN": [], "Scale": []}, "x": {', True),
        ("l1-logistic", '"b": ' + b, '"b": 0, "B": ' + b, True),
        ("l1-logistic", '"b": ' + b, '"B": ' + b + ', "b": 0.5', True),
        ("l1-logistic", '"b": ' + b, '"B": null, "b": ' + b, False),
        ("l1-logistic", '"b":', '"bb":', False),
        ("greedytl", '"kind":', '"\\u212aind":', True),
        ("greedytl", '"scale":', '"\\u017fcale":', True),
        ("greedytl", '"index":', '"\\u0131ndex":', False),
        ("greedytl", '"options":', '"Options":', True),
        ("nearest-neighbour", '"classes":', '"Classes":', True),
        ("nearest-neighbour", '"row_classes":', '"ROW_CLASSES":', True),
        ("l1-logistic ovr", '"labels":', '"Labels":', True),
        ("l1-logistic ovr", '"positive":', '"POSITIVE":', True),
        ("l1-logistic ovr", '"labels":', '"Labels": {"positive": "x", "negative": ["y"]}, "labels":', True),
    ]
    paths = []
    for k, (method, old, new, _) in enumerate(cases):
        assert old in texts[method], (method, old)
        path = tmp_path / "v{}.json".format(k)
        path.write_text(texts[method].replace(old, new, 1))
        paths.append((path, (method, new)))
    read = _all_read_alike(cli, paths)
    assert read == [want for *_, want in cases]
    for (path, what), ok in zip(paths, read):
        if ok:
            scorer = greedytl.read_model(path)
            want = (_predict(cli, tmp_path, path, features=Xt, source_scores=Ht) if scorer.classes is None
                    else _predict_scores(cli, tmp_path, path, features=Xt, source_scores=Ht)[1])
            _check(scorer.scores(Xte, Hte), want)
    assert greedytl.read_model(paths[0][0]).doc["b"] == float(b)
    assert greedytl.read_model(paths[3][0]).b == float(b) and greedytl.read_model(paths[4][0]).b == 0.5
    assert greedytl.read_model(paths[11][0]).classes == ["0", "1", "2"]
    ovr = greedytl.read_model(paths[13][0]).doc
    assert ovr["models"][0]["labels"]["positive"] == "0" and "Labels" not in ovr["models"][0]


def test_null_scaler_of_no_columns_refused(cli, tmp_path):
    """A linear file of features only whose "h" (the scaler of no source
    columns) is null, or left out, is refused by both readers with
    greedytl's message; read_model took the null (an empty scaler) and
    the earlier test helpers wrote it."""
    doc = _linear_doc([0.0, 1.0], [1.0, 2.0], [0.5, -0.5], 0.25)
    assert _both_read(cli, _write(tmp_path / "ok.json", doc), "as written")
    for change, want in ((None, "h is null; want an object"), ("missing", "h is missing; want an object")):
        if change:
            del doc["h"]
        else:
            doc["h"] = None
        path = _write(tmp_path / "v.json", doc)
        assert not _both_read(cli, path, change)
        p = subprocess.run([cli["path"], "inspect", path], capture_output=True, text=True)
        assert p.stderr.strip().endswith("reading l1-logistic model: " + want), p.stderr
        with pytest.raises(greedytl.ModelFileError, match=r"v\.json: l1-logistic model: {}$".format(want)):
            greedytl.read_model(path)


def _write(path, doc):
    path.write_text(json.dumps(doc))
    return path


def test_inspection_of_a_version_1_file(cli, tmp_path):
    """A version 1 GreedyTL file (γ under its old key feature_factor, the
    method named greedytl whatever the options): its inspection is
    inspect's but for the method and hyperparameters, which it gives as the
    file names them and inspect by their version 2 names, as documented."""
    v1 = _v1_doc()
    (tmp_path / "v1.json").write_text(json.dumps(v1))
    want = json.loads(run(cli, "inspect", "--json", tmp_path / "v1.json"))
    got = greedytl.read_model(tmp_path / "v1.json").inspection()
    assert (got.pop("method"), got.pop("hyperparameters")) == ("greedytl", v1["hyperparameters"])
    assert (want.pop("method"), want.pop("hyperparameters")) == (
        "greedytl:gamma=0.25,sample=59", {"lambda": 1, "delta": 0.0001, "gamma": 0.25, "sample": 59})
    assert got == want


def test_version_1_file_without_its_path(cli, tmp_path):
    """A version 1 GreedyTL file whose columns lack reg_error and
    loo_error (greedytl reads them as 0) scores, and its inspection is
    inspect's but for the method and hyperparameters (as above): the path
    is read only for the inspection, not required to score."""
    v1 = _v1_doc()
    for c in v1["columns"]:
        del c["reg_error"], c["loo_error"]
    (tmp_path / "v1.json").write_text(json.dumps(v1))
    want = json.loads(run(cli, "inspect", "--json", tmp_path / "v1.json"))
    got = greedytl.read_model(tmp_path / "v1.json").inspection()
    for d in (got, want):
        d.pop("method"), d.pop("hyperparameters")
    assert got == want


def test_repeated_objects_merged_as_greedytl_merges_them(cli, tmp_path):
    """An object member given twice (by names equal ignoring case too) is
    decoded as encoding/json decodes it, into what the earlier one left: a
    struct's, a map's and a slice's elements' members merged, the later
    ones overriding, a null resetting a map.  A version 1 file whose
    options' "gamma" is in an earlier "options" than its "Options" is
    refused by both readers; a hyperparameter only in an earlier object is
    in both inspections; a version 1 file's columns merged into an earlier
    array's (a shorter one's array kept for a longer one after it) score
    alike.  read_model kept the last object alone: it read the first file,
    left out the hyperparameter, and read the columns as the last array
    wrote them (refused: scale 0)."""
    def edit(name, doc, old, new):
        text = json.dumps(doc)
        assert old in text, old
        path = tmp_path / name
        path.write_text(text.replace(old, new, 1))
        return path

    v1 = _v1_doc()
    gamma = edit("gamma.json", v1, '"options": {', '"options": {"gamma": 1}, "Options": {')
    assert not _both_read(cli, gamma, "gamma in an earlier options")
    with pytest.raises(greedytl.ModelFileError, match="options has version 2's \"gamma\""):
        greedytl.read_model(gamma)
    # A version 1 file's header is read as version 2's, each object whole:
    # a "labels" that lacks "negative" is refused before or after one that
    # has it.
    text = json.dumps(v1)[:-1]
    labels = '"labels": {"positive": "a", "negative": ["b"]}'
    for k, extra in enumerate(('"labels": {"positive": "a"}, ' + labels, labels + ', "Labels": {"positive": "c"}')):
        (tmp_path / "labels.json").write_text(text + ", " + extra + "}")
        assert not _both_read(cli, tmp_path / "labels.json", extra)
        with pytest.raises(greedytl.ModelFileError, match=r"[lL]abels\.negative is missing; want an array$"):
            greedytl.read_model(tmp_path / "labels.json")

    lin = _linear_doc([0.0, 1.0], [1.0, 2.0], [0.5, -0.5], 0.25)
    lin["hyperparameters"] = {"c": 1}
    hp = [edit("hp.json", lin, '"hyperparameters": {', '"hyperparameters": {"zz": 1}, "Hyperparameters": {'),
          edit("hpnull.json", lin, '"hyperparameters": {', '"hyperparameters": {"zz": 1}, "hyperparameters": null, '
               '"Hyperparameters": {')]
    for path, want in zip(hp, ({"c": 1, "zz": 1}, {"c": 1})):
        inspected = json.loads(run(cli, "inspect", "--json", path))
        assert inspected["hyperparameters"] == want
        assert greedytl.read_model(path).inspection() == inspected

    v1["num_features"] = 2
    v1["columns"].append({"kind": "feature", "index": 1, "weight": -0.25, "mean": 0.5, "scale": 1.5, "score": 2,
                          "reg_error": 0.3, "loo_error": 0.5})
    cols = [edit("cols.json", v1, '"num_features":', '"columns": [{"weight": 9}], "num_features":')]
    cols.append(edit("merged.json", v1, '"columns": [', '"columns": ['))
    text = cols[1].read_text()
    cols[1].write_text(text[:-1] + ', "Columns": [{"weight": 3}], "columns": [{"weight": 4}, {"mean": 0.75}]}')
    (Xte, Hte, _), _ = _problem(5)
    save = _saver(tmp_path)
    Xt, Ht = save("Xt.npy", Xte[:, :2]), save("Ht.npy", Hte[:, :1])
    for path in cols:
        assert _both_read(cli, path, path.name)
        scorer = greedytl.read_model(path)
        _check(scorer.scores(Xte[:, :2], Hte[:, :1]), _predict(cli, tmp_path, path, features=Xt, source_scores=Ht))
        assert scorer.inspection() == {k: v for k, v in json.loads(run(cli, "inspect", "--json", path)).items()
                                       if k not in ("method", "hyperparameters")} | {
            "method": "greedytl", "hyperparameters": v1["hyperparameters"]}
    assert [(c["weight"], c["mean"]) for c in greedytl.read_model(cols[1]).doc["columns"]] == [(4, 0.1), (-0.25, 0.75)]


def test_greedy_spec_must_match_its_options(cli, tmp_path):
    """A version 2 GreedyTL file whose method spec is not the one its
    options make (greedytl.Options.MethodName: the settings that differ
    from the method's defaults, sorted, shortest floats) is refused by
    both readers, with greedytl's message; one whose spec and options were
    edited alike, and a version 1 file named greedytl whatever its
    options, are read by both.  read_model read every such file."""
    (Xtr, Htr, ytr), _ = _problem(2)
    save = _saver(tmp_path)
    run(cli, "fit", "--method", "greedytl", "--features", save("X.npy", Xtr), "--source-scores",
        save("H.npy", Htr), "--labels", save("y.npy", ytr), "--out", tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["method"] == "greedytl" and doc["options"]["lambda"] == 1

    def variant(k, method, **options):
        d = json.loads(json.dumps(doc))
        d["method"] = method
        d["options"].update(options)
        if d.get("hyperparameters") is not None:
            d["hyperparameters"] = None  # not the check at issue
        return _write(tmp_path / "v{}.json".format(k), d)

    cases = [
        (("greedytl:lambda=2",), "greedytl"),
        (("greedytl-sp:gamma=0.25",), "greedytl-sp:gamma=1"),
        (("greedytl-59",), "greedytl-59:sample=0"),
        (("greedytl:lambda=1",), "greedytl"),
        (("greedytl:gamma=0.25", dict(gamma=0.5)), "greedytl:gamma=0.5"),
        (("greedytl:lambda=2.0", dict(lambda_=2)), "greedytl:lambda=2"),
        (("greedytl:lambda=2", dict(lambda_=2)), None),
        (("greedytl-sp", dict(gamma=0.5)), None),
        (("greedytl-59:delta=1e-07,max_k=30", dict(sample=59, delta=1e-7, max_k=30)), None),
        (("greedytl", dict(auto_lambda=True, lambda_=0.01)), "greedytl:auto_lambda=1"),
        (("greedytl:auto_lambda=1", dict(auto_lambda=True, lambda_=0.01)), None),
    ]
    paths = []
    for k, ((method, *opts), want) in enumerate(cases):
        options = {key.rstrip("_"): v for key, v in (opts[0] if opts else {}).items()}
        paths.append((variant(k, method, **options), method))
    read = _all_read_alike(cli, paths)
    assert read == [want is None for _, want in cases]
    for (path, method), (_, want) in zip(paths, cases):
        if want is None:
            continue
        message = '{} model: method "{}" does not match the options, which make "{}"'.format(method, method, want)
        assert _decoder_refused_alike(cli, path) == message
    # More columns than max_k (greedytl.Model's validate, before the spec):
    # refused by both, with greedytl's message.
    k = len(doc["columns"])
    few = variant("maxk", "greedytl:max_k={}".format(k - 1), max_k=k - 1)
    assert _decoder_refused_alike(cli, few) == \
        "greedytl:max_k={} model: inconsistent model: {} columns, more than its options' max_k = {}".format(k - 1, k, k - 1)
    v1 = _v1_doc()
    v1["options"]["lambda"] = 2
    v1["hyperparameters"]["lambda"] = 2
    assert _both_read(cli, _write(tmp_path / "v1.json", v1), "version 1")


def _decoder_refused_alike(cli, path):
    """Assert that both readers refuse the model file at path with the
    message of a method's decoder, read_model's after the path being
    greedytl inspect's after "reading " (greedytl's "reading METHOD model:
    …", read_model's "METHOD model: …"); return read_model's."""
    p = subprocess.run([cli["path"], "inspect", path], capture_output=True, text=True)
    assert p.returncode == 2, p.stdout
    with pytest.raises(greedytl.ModelFileError) as e:
        greedytl.read_model(path)
    ours = str(e.value)
    assert ours.startswith("{}: ".format(path)), ours
    ours = ours[len(str(path)) + 2:]
    assert re.match(r"\S+ model: ", ours), ours
    assert p.stderr.strip().endswith(": reading " + ours), (ours, p.stderr)
    return ours


def _v2_doc():
    """A version 2 GreedyTL file of the method greedytl, its spec and
    hyperparameters its options'."""
    doc = _v1_doc()
    doc["version"] = 2
    doc["options"]["gamma"] = doc["options"].pop("feature_factor")
    doc["hyperparameters"]["gamma"] = doc["hyperparameters"].pop("feature_factor")
    doc["method"] = "greedytl-59:gamma=0.25"
    return doc


def test_greedy_hyperparameters_must_be_its_options(cli, tmp_path):
    """A GreedyTL file whose "hyperparameters" (when not null) are not
    those of its options (greedytl.Options.Hyperparameters: lambda, delta
    and gamma, sample and max_k when not 0; a version 1 file's
    feature_factor is gamma; its version 2 key gamma is refused) is refused
    by both readers with greedytl's message, its maps written as Go writes
    them; the files whose hyperparameters are their options' are read by
    both.  read_model read every such file."""
    def v2(hp=None, method=None, **options):
        d = _v2_doc()
        d["options"].update(options)
        d["method"] = method or d["method"]
        if hp is not None:
            d["hyperparameters"] = hp
        return d

    def v1(hp):
        d = _v1_doc()
        d["hyperparameters"] = hp
        return d

    agree = {"lambda": 1, "delta": 0.0001, "gamma": 0.25, "sample": 59}
    cases = [  # (the file, greedytl's message (None: read))
        (v2(), None),
        (dict(v2(), hyperparameters=None), None),
        (v2(hp=dict(agree, max_k=0)), "map[delta:0.0001 gamma:0.25 lambda:1 max_k:0 sample:59] disagree with the "
                                      "options (map[delta:0.0001 gamma:0.25 lambda:1 sample:59])"),
        (v2(hp={}), "map[] disagree with the options (map[delta:0.0001 gamma:0.25 lambda:1 sample:59])"),
        (v2(hp=dict(agree, **{"lambda": 1e6, "delta": 1.5e-7, "x y": 123456})),
         "map[delta:1.5e-07 gamma:0.25 lambda:1e+06 sample:59 x y:123456] disagree with the options "
         "(map[delta:0.0001 gamma:0.25 lambda:1 sample:59])"),
        (v2(hp=dict(agree, max_k=3), max_k=3, method="greedytl-59:gamma=0.25,max_k=3"), None),
        (v2(max_k=3, method="greedytl-59:gamma=0.25,max_k=3"), "map[delta:0.0001 gamma:0.25 lambda:1 sample:59] disagree with the options "
                      "(map[delta:0.0001 gamma:0.25 lambda:1 max_k:3 sample:59])"),
        (v1({"lambda": 1, "delta": 0.0001, "feature_factor": 0.25, "sample": 59}), None),
        (v1({"lambda": 1, "delta": 0.0001, "feature_factor": 0.5, "sample": 59}),
         "map[delta:0.0001 gamma:0.5 lambda:1 sample:59] disagree with the options "
         "(map[delta:0.0001 gamma:0.25 lambda:1 sample:59])"),
    ]
    paths = [(_write(tmp_path / "h{}.json".format(k), doc), k) for k, (doc, _) in enumerate(cases)]
    assert _all_read_alike(cli, paths) == [want is None for _, want in cases]
    for (path, k), (doc, want) in zip(paths, cases):
        if want is not None:
            assert _decoder_refused_alike(cli, path) == "{} model: hyperparameters {}".format(doc["method"], want), k
    # Version 2's key gamma among a version 1 file's hyperparameters (which
    # version 1 wrote as feature_factor) is refused as in its options, with
    # or without feature_factor beside it: greedytl took either, as its walk
    # of the map happened to order them.
    for k, hp in enumerate([dict(agree), {"lambda": 1, "delta": 0.0001, "feature_factor": 0.25, "gamma": 2, "sample": 59}]):
        doc = v1(hp)
        path = _write(tmp_path / "g{}.json".format(k), doc)
        assert _decoder_refused_alike(cli, path) == (
            '{} model: version 1 file: hyperparameters has version 2\'s "gamma"; version 1 calls it '
            '"feature_factor"'.format(doc["method"])), k


def test_header_checked_before_the_spec_and_the_body(cli, tmp_path):
    """A GreedyTL file (version 1 or 2) with a problem in its header that
    modelfile.Parse finds (a "sources" without its digest, a label that
    reads as NaN) and another in its method spec (a key greedytl does not
    take) or its body (a column's weight not a number, a version 1 file's
    options holding version 2's "gamma") is refused by both readers for its
    header's, as greedytl parses the header first, with greedytl's message;
    read_model named the body's of a version 1 file, and the spec's and
    the body's of a version 2 file.  The body's alone is the decoder's,
    after the method, as greedytl's is (read_model's named no method for
    the gamma of a version 1 file)."""
    sources = {"dir": "d", "sha256": "", "count": 1, "data_sha256": "x", "seed": 1}
    nan = {"positive": "NaN", "negative": ["b"]}
    cases = []
    for header, want in ((dict(sources=sources), '"sources" has no sha256 digest'),
                         (dict(labels=nan), '"labels": label "NaN" reads as NaN')):
        for make, other in ((_v1_doc, "weight"), (_v1_doc, "gamma"), (_v2_doc, "weight"), (_v2_doc, "spec")):
            doc = dict(make(), **header)
            if other == "weight":
                doc["columns"][0]["weight"] = "x"
            elif other == "gamma":
                doc["options"]["gamma"] = 1
            else:
                doc["method"] += ",bogus=1"
            cases.append((_write(tmp_path / "o{}.json".format(len(cases)), doc), want))
    for path, want in cases:
        p = subprocess.run([cli["path"], "inspect", path], capture_output=True, text=True)
        assert p.returncode == 2 and want in p.stderr, p.stderr
        with pytest.raises(greedytl.ModelFileError) as e:
            greedytl.read_model(path)
        ours = str(e.value)[len(str(path)) + 2:]
        assert ours.startswith(want) and p.stderr.strip().endswith(": reading model: " + ours), (ours, p.stderr)
    # The body's alone: the decoder's, after the method.
    doc = _v1_doc()
    doc["options"]["gamma"] = 1
    assert _decoder_refused_alike(cli, _write(tmp_path / "gamma.json", doc)) == (
        'greedytl model: version 1 file: options has version 2\'s "gamma"; version 1 calls it "feature_factor"')


def test_greedy_model_checked_as_greedytl_validates_it(cli, tmp_path):
    """A GreedyTL file whose options' values, column counts, columns or
    their path greedytl.Model's validate refuses is refused by both
    readers with greedytl's message, the first problem in validate's order
    (the options, the counts, each column, then each column's errors);
    read_model named another problem (its "out of range or repeated" for
    both of validate's, its "weight …, mean …, scale …" for a scale not
    positive, num_features' count for a negative count), or, for an option
    out of range or a negative error, read the file."""
    def edit(doc, f):
        f(doc)
        return doc

    def extra(d, **col):
        d["columns"].append(dict(d["columns"][0], **col))

    cases = [
        (edit(_v2_doc(), lambda d: d["options"].update(delta=-1, gamma=-2)),
         "invalid options: Delta must be ≥ 0 and finite, got -1"),
        (edit(_v2_doc(), lambda d: d["options"].update(gamma=-0.5, max_k=-3)),
         "invalid options: FeatureFactor must be ≥ 0 and finite, got -0.5"),
        (edit(_v2_doc(), lambda d: d["options"].update(sample=-2 ** 63, auto_lambda=True, **{"lambda": 0})),
         "invalid options: Lambda must be positive and finite, got 0 (DefaultOptions uses 1)"),
        (edit(_v2_doc(), lambda d: d["options"].update(max_k=-1, sample=-3)),
         "invalid options: MaxK must be a whole number ≥ 0 and finite, got -1"),
        (edit(_v2_doc(), lambda d: d["options"].update(sample=-2 ** 63)),
         "invalid options: Sample must be a whole number ≥ 0 and finite, got -9.223372036854776e+18"),
        (edit(_v1_doc(), lambda d: d["options"].update(feature_factor=-1)),
         "invalid options: FeatureFactor must be ≥ 0 and finite, got -1"),
        (edit(_v1_doc(), lambda d: d.pop("options")),
         "invalid options: Lambda must be positive and finite, got 0 (DefaultOptions uses 1)"),
        (edit(_v2_doc(), lambda d: d.update(num_features=-1, num_sources=3)),
         "invalid column counts: -1 features, 3 sources"),
        (edit(_v1_doc(), lambda d: (d.pop("num_features"), d.pop("num_sources"))),
         "invalid column counts: 0 features, 0 sources"),
        (edit(_v2_doc(), lambda d: d["columns"][0].update(kind="feature", index=2)),
         "column 0 (feature 2) is out of range: the model has 2 features"),
        (edit(_v2_doc(), lambda d: (extra(d, loo_error=-1), d["columns"][0].update(index=1))),
         "column 0 (source 1) is out of range: the model has 1 sources"),
        (edit(_v2_doc(), lambda d: extra(d, scale=0)), "column 1 (source 0) is selected twice"),
        (edit(_v2_doc(), lambda d: d["columns"][0].update(scale=-1.5e-7)),
         "column 0 (source 0): scale must be positive, got -1.5e-07"),
        (edit(_v2_doc(), lambda d: (d["columns"][0].update(reg_error=-2), extra(d, kind="feature", scale=0))),
         "column 1 (feature 0): scale must be positive, got 0"),
        (edit(_v1_doc(), lambda d: d["columns"][0].update(loo_error=-1e-300)),
         "column 0 (source 0): negative error (reg_error 0.4, loo_error -1e-300)"),
    ]
    paths = [(_write(tmp_path / "m{}.json".format(k), doc), k) for k, (doc, _) in enumerate(cases)]
    assert _all_read_alike(cli, paths) == [False] * len(cases)
    for (path, k), (doc, want) in zip(paths, cases):
        assert _decoder_refused_alike(cli, path) == "{} model: {}".format(doc["method"], want), k


def test_greedy_columns_checked_before_hyperparameters_and_spec(cli, tmp_path):
    """A GreedyTL file with a column out of range and hyperparameters or a
    spec not its options' is refused by both readers for the column, as
    greedytl validates the model (options, counts, columns, path) before
    it compares the hyperparameters and then the spec; read_model named
    the hyperparameters or the spec."""
    for k, edit in enumerate([
            lambda d: d["hyperparameters"].update(delta=5),
            lambda d: d.update(method="greedytl-59:gamma=0.25,lambda=2")]):
        doc = _v2_doc()
        doc["columns"][0]["kind"], doc["columns"][0]["index"] = "source", 99
        edit(doc)
        path = _write(tmp_path / "c{}.json".format(k), doc)
        assert "is out of range" in _decoder_refused_alike(cli, path), k


def _write_negative_zero(path, doc):
    """Write doc to path with each value "-0" written as the JSON integer
    -0, as encoding/json writes a float64 −0 (json.dumps writes -0.0)."""
    path.write_text(json.dumps(doc).replace('"-0"', "-0"))
    return path


def test_negative_zero_read_as_greedytl_reads_it(cli, tmp_path):
    """A GreedyTL file that greedytl wrote before 8cb7b76 for a setting
    given as -0 ("greedytl:delta=-0") names its method by -0 and holds the
    setting as the JSON integer -0 in its hyperparameters and options,
    which greedytl reads into a float64 as −0 (whose spec is "delta=-0"):
    both readers read it, with greedytl predict's scores and greedytl
    inspect's inspection.  read_model refused it (json.loads reads -0 as
    the integer 0: "does not match the options, which make
    "greedytl:delta=0""), and read the file whose spec says 0 where its
    options hold -0, which greedytl refuses.  Elsewhere, -0 is read as
    encoding/json reads it: into a float64 as −0 (greedytl's messages
    print "-0", read_model's printed 0), into an int as 0, into a uint64
    (the seed) not at all (read_model read it as 0)."""
    (Xtr, Htr, ytr), (Xte, Hte, _) = _problem(4)
    save = _saver(tmp_path)
    X, H, y, Xt, Ht = (save(n, a) for n, a in (("X.npy", Xtr), ("H.npy", Htr), ("y.npy", ytr), ("Xt.npy", Xte),
                                                 ("Ht.npy", Hte)))
    for k, spec in enumerate(("greedytl:delta=0", "greedytl-sp:gamma=0", "greedytl-59:delta=0,gamma=0")):
        run(cli, "fit", "--method", spec, "--features", X, "--source-scores", H, "--labels", y, "--out",
            tmp_path / "new.json")
        # The file as the older greedytl wrote it given -0 for 0 (the same
        # bytes but for these, as its fits of these specs showed): the
        # spec, and the setting in the hyperparameters and the options.
        old_spec = spec.replace("=0", "=-0")
        text = (tmp_path / "new.json").read_text().replace('"method": "{}"'.format(spec),
                                                          '"method": "{}"'.format(old_spec))
        keys = re.findall(r"(\w+)=0", spec)
        text, n = re.subn(r'("(?:{})": )0(?=[,\n])'.format("|".join(keys)), r"\g<1>-0", text)
        assert n == 2 * len(keys), text
        old = tmp_path / "old{}.json".format(k)
        old.write_text(text)
        scorer = greedytl.read_model(old)
        assert scorer.method == old_spec
        _check(scorer.scores(Xte, Hte), _predict(cli, tmp_path, old, features=Xt, source_scores=Ht))
        _check_inspection(cli, scorer, old)

    doc = json.loads((tmp_path / "old0.json").read_text())
    doc["options"]["delta"] = doc["hyperparameters"]["delta"] = "-0"
    assert doc["method"] == "greedytl:delta=-0" and doc["options"]["lambda"] == 1

    def variant(name, f):
        d = copy.deepcopy(doc)
        f(d)
        return _write_negative_zero(tmp_path / "{}.json".format(name), d), name

    refused = [  # (the edit, greedytl's message after "reading ")
        (lambda d: d.update(method="greedytl:delta=0"),
         'greedytl:delta=0 model: method "greedytl:delta=0" does not match the options, which make '
         '"greedytl:delta=-0"'),
        (lambda d: d["options"].update({"lambda": "-0"}),
         "greedytl:delta=-0 model: invalid options: Lambda must be positive and finite, got -0 (DefaultOptions "
         "uses 1)"),
        (lambda d: d["hyperparameters"].update({"lambda": "-0"}),
         "greedytl:delta=-0 model: hyperparameters map[delta:-0 gamma:1 lambda:-0] disagree with the options "
         "(map[delta:-0 gamma:1 lambda:1])"),
        (lambda d: d["columns"][0].update(scale="-0"),
         "greedytl:delta=-0 model: column 0 ({kind} {index}): scale must be positive, got -0".format(
             **doc["columns"][0])),
    ]
    others = [  # (the edit, read)
        (lambda d: d["options"].update(max_k="-0", sample="-0"), True),
        (lambda d: d["columns"][0].update(weight="-0", reg_error="-0"), True),
        (lambda d: d["options"].update(seed="-0"), False),
        (lambda d: d["options"].update(max_k=-0.0), False),
    ]
    paths = [variant("r{}".format(k), f) for k, (f, _) in enumerate(refused)]
    paths += [variant("o{}".format(k), f) for k, (f, _) in enumerate(others)]
    assert _all_read_alike(cli, paths) == [False] * len(refused) + [read for _, read in others]
    for (path, _), (_, want) in zip(paths, refused):
        assert _decoder_refused_alike(cli, path) == want


def test_utf16_model_file_refused_with_greedytl_message(cli, tmp_path):
    """A model file saved as UTF-16 (Windows Notepad's "Unicode": a byte
    order mark, little- or big-endian, first) is refused by both readers,
    read_model with greedytl's message naming the file ("PATH: UTF-16 text
    (…): save it as UTF-8"), where it said "not a JSON model file:
    Expecting value: line 1 column 1 (char 0)"."""
    text = json.dumps(_linear_doc([0.0, 1.0], [1.0, 2.0], [0.5, -0.5], 0.25))
    for k, data in enumerate((text.encode("utf-16-le"), text.encode("utf-16-be"))):
        path = tmp_path / "u{}.json".format(k)
        path.write_bytes((b"\xff\xfe", b"\xfe\xff")[k] + data)
        p = _inspect(cli, path)
        assert p.returncode == 2, p.stdout
        with pytest.raises(greedytl.ModelFileError) as e:
            greedytl.read_model(path)
        assert str(e.value).startswith("{}: UTF-16 text (".format(path)), str(e.value)
        assert p.stderr.strip() == "greedytl: " + str(e.value), (p.stderr, str(e.value))


def test_standardise_python_floats_as_numpy_floats():
    """standardise gives Python floats the value it gives float64s: −9.5e307,
    whose difference from the mean 9.05e307 overflows, standardises to the
    same ordinary number (numpy's overflow flag does not see Python's own
    arithmetic, which overflowed silently to −inf)."""
    from greedytl._model import standardise

    want = standardise(np.float64(-9.5e307), np.float64(9.05e307), np.float64(3.6e306))
    assert math.isfinite(want)
    assert standardise(-9.5e307, 9.05e307, 3.6e306) == want
    assert standardise(1.0, 1.5, 0.5) == -1.0


def test_constants_are_greedytls(cli, tmp_path):
    """The package's copies of greedytl's constants are the build's (greedytl
    version --json): the model format and version, the sources index
    version, liblinear model files' limits; and a model file of another
    format is refused with greedytl's message (Go's %q quoting)."""
    from greedytl import _cli, _model, _sources
    assert cli["model_format"] == _cli.MODEL_FORMAT == _model.FORMAT
    assert cli["model_version"] == _cli.MODEL_VERSION == max(_model.VERSIONS)
    assert cli["sources_index_version"] == _sources.INDEX_VERSION
    assert cli["liblinear_max_classes"] == _sources._MAX_CLASSES
    # MaxModelFeatures is min(2**40, Go's int maximum): 2**40 in a 64-bit
    # build, 2**31 - 1 in a 32-bit one; the package's reader keeps 2**40 on
    # every platform (it accepts files a 32-bit greedytl refuses).
    assert cli["liblinear_max_features"] in {min(_sources._MAX_FEATURES, 2 ** (bits - 1) - 1) for bits in (32, 64)}
    doc = {"format": "x\ty", "version": 2, "method": "l1-logistic", "hyperparameters": {}}
    path = tmp_path / "other.json"
    path.write_text(json.dumps(doc))
    p = subprocess.run([cli["path"], "inspect", "--json", str(path)], capture_output=True, text=True)
    assert p.returncode != 0 and 'format is "x\\ty", want "greedytl-model"' in p.stderr, p.stderr
    with pytest.raises(greedytl.ModelFileError) as e:
        _model.decode(doc)
    assert 'format is "x\\ty", want "greedytl-model"' in str(e.value)


def test_two_class_native_file_is_binary(multiclass_cli, tmp_path):
    """A native multi-class method fitted on two labels writes a file that
    records its positive class ("labels"): read_model scores it as greedytl
    predict does, one score a row, the positive class's minus the other's
    (the other's negated with --positive naming the other class), and its
    inspection names that class as greedytl inspect --json does.  A file without
    "labels" (written before) keeps its matrix of class scores."""
    cli = multiclass_cli
    rng = np.random.default_rng(7)
    X = rng.normal(size=(16, 3))
    H = rng.normal(size=(16, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=16) > 0, 1, -1)
    save = _saver(tmp_path)
    files = dict(X=save("X.npy", X), H=save("H.npy", H), y=save("y.npy", y))
    for method in cli["multiclass_methods"]:
        got = {}
        for positive in (None, "-1"):
            model = tmp_path / "{}-{}.json".format(method, positive)
            pos = [] if positive is None else ["--positive", positive]
            run(cli, "fit", "--method", method, "--features", files["X"], "--source-scores", files["H"],
                "--labels", files["y"], "--seed", 2, *pos, "--out", model)
            scorer = greedytl.read_model(model)
            want = np.array([float(v) for v in run(cli, "predict", "--model", model, "--features", files["X"],
                                                   "--source-scores", files["H"]).split()])
            got[positive] = scorer.scores(X, H)
            assert got[positive].shape == (16,)
            _check(got[positive], want)
            _check_inspection(cli, scorer, model)
            assert scorer.inspection()["positive"] == ("1" if positive is None else "-1")
            # As written before: no "labels", the class scores' matrix.
            doc = json.loads(model.read_text())
            del doc["labels"]
            (tmp_path / "old.json").write_text(json.dumps(doc))
            S = greedytl.read_model(tmp_path / "old.json").scores(X, H)
            assert S.shape == (16, 2)
            k = scorer.classes.index("1" if positive is None else "-1")
            assert np.array_equal(S[:, k] - S[:, 1 - k], got[positive])
        assert np.array_equal(got["-1"], -got[None])
