"""TransferClassifier: scikit-learn's contract, the sources' forms, the
CLI's errors, and clean-up when a fit is interrupted or killed."""

import json
import pathlib
import os
import pickle
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import numpy as np
import pytest

import greedytl
from greedytl import TransferClassifier
from greedytl._sources import read_liblinear

from conftest import _require, run

sklearn = pytest.importorskip("sklearn")
from sklearn.base import BaseEstimator, clone  # noqa: E402
from sklearn.exceptions import NotFittedError  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402


def _data(seed=0, m=40, d=8):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=m) > 0, "yes", "no")
    return X, y


@pytest.fixture(scope="module")
def zoo():
    """Fitted source classifiers: two binary, one multi-class (3 columns)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 8))
    a = LogisticRegression().fit(X, X[:, 0] > 0)
    b = LinearSVC(dual=True, random_state=0).fit(X, X[:, 1] + X[:, 2] > 0)
    c = LogisticRegression(max_iter=500).fit(X, np.digitize(X[:, 3], [-0.5, 0.5]))
    return [a, b, c]


def _zoo_scores(zoo, X):
    return np.column_stack([zoo[0].decision_function(X), zoo[1].decision_function(X), zoo[2].decision_function(X)])


def test_binary_fit_predict(cli, zoo, tmp_path):
    """classes_, n_features_in_, the decision values equal greedytl predict's
    on the model file, predict is their sign mapped to classes_."""
    X, y = _data()
    clf = TransferClassifier(sources=greedytl.Sources(zoo), random_state=0).fit(X[:20], y[:20])
    assert list(clf.classes_) == ["no", "yes"] and clf.n_features_in_ == 8 and clf.n_sources_ == 5
    assert len(clf.source_names_) == 5 and clf.method_ == "greedytl-auto"
    f = clf.decision_function(X[20:])
    np.save(tmp_path / "X.npy", X[20:])
    np.save(tmp_path / "H.npy", _zoo_scores(zoo, X[20:]))
    (tmp_path / "m.json").write_text(json.dumps(clf.model_))
    out = run(cli, "predict", "--model", tmp_path / "m.json", "--features", tmp_path / "X.npy",
              "--source-scores", tmp_path / "H.npy")
    want = np.array([float(v) for v in out.split()])
    assert np.max(np.abs(f - want) / np.maximum(1, np.abs(want))) <= 1e-12
    assert list(clf.predict(X[20:])) == list(np.where(f > 0, "yes", "no"))
    # What was selected, named.
    assert clf.selected_ and {"kind", "index", "weight", "name"} <= set(clf.selected_[0])
    assert any(s["kind"] == "source" and s["name"] == clf.source_names_[s["index"]] for s in clf.selected_)


def _label_cases():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(8)
    X = rng.normal(size=(30, 4))
    k2 = (X[:, 0] > 0).astype(int)
    k3 = np.digitize(X[:, 0], [-0.4, 0.4])
    return X, {
        "int": np.array([3, 7])[k2], "int 3 classes": np.array([3, 7, -1])[k3],
        "uint8": np.array([3, 7], dtype=np.uint8)[k2], "bool": k2.astype(bool),
        "float": np.array([0.0, 2.0])[k2], "float 3 classes": np.array([1.0, 2.0, 3.0])[k3],
        "str": np.array(["no", "yes"])[k2], "str 3 classes": np.array(["a", "b", "c"])[k3],
        "object": np.array(["no", "yes"], dtype=object)[k2], "list": list(np.array(["a", "bb", "c"])[k3]),
        "categorical Series": pd.Series(pd.Categorical(np.array(["x", "y", "z"])[k3])),
        "column vector": np.array([3, 7])[k2][:, None],
    }


def test_label_types_as_logistic_regression(cli):
    """Labels of every kind users have (ints, unsigned, bools, floats,
    strings, objects, a list, a categorical Series, a column vector) give
    the classes_ of LogisticRegression, of its dtype, and predict returns
    labels of that dtype; decision_function is (n,) for two classes and
    (n, n_classes) for three, as LogisticRegression's."""
    from sklearn.exceptions import DataConversionWarning
    X, cases = _label_cases()
    for name, y in cases.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DataConversionWarning)  # the column vector, as LogisticRegression
            lr = LogisticRegression().fit(X, y)
            clf = TransferClassifier(random_state=0).fit(X, y)
        assert clf.classes_.dtype == lr.classes_.dtype and list(clf.classes_) == list(lr.classes_), name
        p = clf.predict(X)
        assert p.dtype == lr.predict(X).dtype and set(p) <= set(lr.classes_), name
        assert clf.decision_function(X).shape == lr.decision_function(X).shape, name


def test_inputs_refused_as_scikit_learn(cli):
    """NaN, infinity and no rows in X are refused at fit and at predict
    (dense and sparse) with scikit-learn's own messages, as
    LogisticRegression refuses them; fit takes no sample_weight (greedytl
    takes no per-example weights; greedytl-nway and multinomial-logistic
    balance the classes themselves) and says so as scikit-learn's estimators without
    weights do, by not having the parameter, which meta-estimators check;
    score takes one, as every classifier's; there is no predict_proba
    (greedytl's scores are not probabilities: CalibratedClassifierCV makes
    them, its columns in the order of classes_)."""
    from scipy import sparse
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.metrics import accuracy_score
    from sklearn.utils.validation import has_fit_parameter
    X, y = _data()
    lr = LogisticRegression().fit(X, y)
    clf = TransferClassifier(random_state=0).fit(X, y)
    nan, inf = X.copy(), X.copy()
    nan[3, 2], inf[5, 1] = np.nan, -np.inf
    for bad in (nan, inf, X[:0], sparse.csr_matrix(nan)):
        for call in ("fit", "predict", "decision_function"):
            args = (bad, y[:bad.shape[0]]) if call == "fit" else (bad,)
            with pytest.raises(ValueError) as want:
                getattr(lr, call)(*args)
            with pytest.raises(ValueError) as got:
                getattr(TransferClassifier(random_state=0) if call == "fit" else clf, call)(*args)
            assert str(got.value) == str(want.value).replace("LogisticRegression", "TransferClassifier"), call
    assert has_fit_parameter(lr, "sample_weight") and not has_fit_parameter(clf, "sample_weight")
    with pytest.raises(TypeError, match="sample_weight"):
        TransferClassifier().fit(X, y, sample_weight=np.ones(len(y)))
    w = np.linspace(0, 1, len(y))
    assert clf.score(X, y, sample_weight=w) == accuracy_score(y, clf.predict(X), sample_weight=w)
    assert not hasattr(clf, "predict_proba")
    y3 = np.array(["c", "a", "b"])[np.digitize(X[:, 0], [-0.4, 0.4])]
    cal = CalibratedClassifierCV(TransferClassifier(random_state=0), cv=3).fit(X, y3)
    P = cal.predict_proba(X)
    assert list(cal.classes_) == ["a", "b", "c"] and P.shape == (40, 3)
    np.testing.assert_allclose(P.sum(axis=1), 1)
    assert np.mean(cal.classes_[P.argmax(axis=1)] == y3) > 0.6


def test_fits_as_a_notebook_user_does(multiclass_cli, zoo):
    """What a notebook user tries besides the above, as LogisticRegression
    behaves: a fit on one example per class (two and three classes, with
    and without sources) predicts those classes, decision_function of shape
    (n,) and (n, 3); a refit on other data (a DataFrame of 8 named columns,
    then an array of 3 columns and three classes) is a fresh fit's model
    (the same decision values, no feature_names_in_ left); X of another
    width at predict and decision_function (dense or sparse, also for a
    model of the sources' scores only) is refused with scikit-learn's
    message.  (A guard: nothing here failed.)"""
    pd = pytest.importorskip("pandas")
    from scipy import sparse
    X, y = _data()
    y3 = np.array(["c", "a", "b"])[np.digitize(X[:, 0], [-0.4, 0.4])]
    for labels in (["no", "yes"], ["a", "b", "c"]):
        rows = [int(np.flatnonzero((y if len(labels) == 2 else y3) == c)[0]) for c in labels]
        for sources in (None, greedytl.Sources(zoo)):
            clf = TransferClassifier(sources=sources, random_state=0).fit(X[rows], np.array(labels))
            assert list(clf.classes_) == labels and set(clf.predict(X)) <= set(labels)
            assert clf.decision_function(X).shape == ((len(X),) if len(labels) == 2 else (len(X), 3))
    clf = TransferClassifier(random_state=0).fit(pd.DataFrame(X, columns=["c{}".format(j) for j in range(8)]), y)
    assert clf.fit(X[:, :3], y3) is clf
    fresh = TransferClassifier(random_state=0).fit(X[:, :3], y3)
    assert not hasattr(clf, "feature_names_in_") and clf.n_features_in_ == 3 and list(clf.classes_) == ["a", "b", "c"]
    assert np.array_equal(clf.decision_function(X[:, :3]), fresh.decision_function(X[:, :3]))
    lr = LogisticRegression().fit(X[:, :3], y3)
    only_sources = TransferClassifier(sources=lambda A: _zoo_scores(zoo, np.c_[A, A, A][:, :8]), use_features=False,
                                      random_state=0).fit(X[:, :3], y3)
    for est in (clf, only_sources):
        for wide in (X, sparse.csr_matrix(X[:, :2])):
            for call in ("predict", "decision_function"):
                with pytest.raises(ValueError) as want:
                    getattr(lr, call)(wide)
                with pytest.raises(ValueError) as got:
                    getattr(est, call)(wide)
                assert str(got.value) == str(want.value).replace("LogisticRegression", "TransferClassifier")


def test_nan_refused_under_assume_finite(cli, zoo):
    """scikit-learn's set_config(assume_finite=True) skips its check of NaN
    and infinity, which greedytl cannot take: X and y are still refused
    with the messages scikit-learn gives without that configuration, at
    fit (X, y, X_unlabelled, X_oracle; before the sources score X, whose
    NaN would otherwise be blamed on a source) and at predict and
    decision_function (whose NaN scores were called an overflow), dense
    and sparse."""
    from scipy import sparse
    X, y = _data()
    yf = (y == "yes").astype(float)
    nan, inf, ynan = X.copy(), X.copy(), yf.copy()
    nan[3, 2], inf[5, 1], ynan[4] = np.nan, np.inf, np.nan
    src = greedytl.Sources(zoo)
    fitted = {s: TransferClassifier(sources=s, random_state=0).fit(X, y) for s in (None, src)}

    def message(call):
        with pytest.raises(ValueError) as e:
            call()
        return str(e.value)

    for bad in (nan, inf, sparse.csr_matrix(nan)):
        for s in (None, src):
            calls = {"fit": lambda: TransferClassifier(sources=s, random_state=0).fit(bad, y),
                     "predict": lambda: fitted[s].predict(bad),
                     "decision_function": lambda: fitted[s].decision_function(bad),
                     "dam": lambda: TransferClassifier(method="dam", sources=s, random_state=0).fit(
                         X, y, X_unlabelled=bad)}
            want = {k: message(c) for k, c in calls.items()}
            assert want["fit"].startswith("Input X contains") and want["dam"] == "X_unlabelled: " + want["fit"]
            with sklearn.config_context(assume_finite=True):
                got = {k: message(c) for k, c in calls.items()}
            assert got == want, s
    yobj = y.astype(object)
    yobj[4] = np.nan
    for bad_y, said in ((ynan, "Input y contains NaN."), (yobj, "Input contains NaN")):
        want = message(lambda: TransferClassifier(random_state=0).fit(X, bad_y))
        assert want == said
        with sklearn.config_context(assume_finite=True):
            assert message(lambda: TransferClassifier(random_state=0).fit(X, bad_y)) == want
    with sklearn.config_context(assume_finite=True):
        # The configuration is the user's again afterwards.
        assert sklearn.get_config()["assume_finite"]
        assert list(LogisticRegression().fit(X, y).predict(nan[3:4])) in (["no"], ["yes"])


def test_non_finite_source_score_names_its_source_and_row(cli, zoo):
    """A source score that is not a number (a source classifier or callable
    that gives NaN or infinity on some row) is refused at fit and at
    predict, the message naming the source that gave it (its place in the
    list, its type and the method called; or the callable), the row and
    the input it is a row of (X, X_unlabelled)."""
    import copy
    X, y = _data()
    broken = copy.deepcopy(zoo[1])
    broken.coef_ = broken.coef_.copy()
    broken.coef_[0, 4] = np.inf  # inf·x: ±inf where x[4] ≠ 0
    first = int(np.flatnonzero(X[:, 4] != 0)[0])

    def nan_after_ten(A):
        H = np.asarray(A)[:, :2].copy()
        H[10:, 1] = np.nan
        return H

    good = TransferClassifier(sources=greedytl.Sources(zoo), random_state=0).fit(X, y)
    good.sources_ = [zoo[0], broken]
    fn = TransferClassifier(sources=lambda A: np.asarray(A)[:, :2], random_state=0).fit(X[:10], y[:10])
    fn.sources_ = nan_after_ten
    cases = [
        (lambda: TransferClassifier(sources=[zoo[0], broken], random_state=0).fit(X, y),
         r"sources\[1\] \(LinearSVC\)\.decision_function gives -?inf as the score of row {} of X "
         r"\(source score column 1, '1:LinearSVC'\)".format(first)),
        (lambda: good.predict(X),
         r"sources\[1\] \(LinearSVC\)\.decision_function gives -?inf as the score of row {} of X ".format(first)),
        (lambda: TransferClassifier(method="dam", sources=nan_after_ten, random_state=0).fit(
            X[:10], y[:10], X_unlabelled=X),
         r"the sources callable gives nan as the score of row 10 of X_unlabelled \(source score column 1, '1'\)"),
        (lambda: fn.decision_function(X),
         r"the sources callable gives nan as the score of row 10 of X \(source score column 1, '1'\)"),
    ]
    for call, want in cases:
        with pytest.raises(ValueError, match=want + ".*source scores must be finite"):
            call()


def test_sources_forms_agree(cli, zoo, synth):
    """The same sources as classifiers, as Sources, and as a callable give the
    same model; a sources directory gives the model of its scores as a
    callable."""
    X, y = _data()
    H = lambda A: _zoo_scores(zoo, A)  # noqa: E731
    fits = [TransferClassifier(method="greedytl", sources=s, random_state=0).fit(X[:20], y[:20])
            for s in (zoo, greedytl.Sources(zoo), H)]
    for c in fits[1:]:
        assert [(s["kind"], s["index"], s["weight"]) for s in c.selected_] == \
            [(s["kind"], s["index"], s["weight"]) for s in fits[0].selected_]
        np.testing.assert_array_equal(c.decision_function(X), fits[0].decision_function(X))

    Xs, labels = synth["X"], synth["labels"]
    t = labels.max()
    idx = np.concatenate([np.flatnonzero(labels == t)[:5], np.flatnonzero(labels != t)[::7][:15]])
    ys = labels[idx] == t
    src = greedytl.SourcesDir(synth["sources"])
    by_dir = TransferClassifier(sources=synth["sources"], random_state=0).fit(Xs[idx], ys)
    by_fn = TransferClassifier(sources=src.scores, random_state=0).fit(Xs[idx], ys)
    assert by_dir.model_["sources"]["sha256"] == src.identity
    assert by_dir.source_names_ == src.names
    np.testing.assert_allclose(by_dir.decision_function(Xs), by_fn.decision_function(Xs), rtol=1e-9, atol=1e-9)
    # predict needs nothing but X, also after pickling.
    again = pickle.loads(pickle.dumps(by_dir))
    np.testing.assert_array_equal(again.decision_function(Xs), by_dir.decision_function(Xs))


def test_sources_dir_relative_path(cli, synth, monkeypatch):
    """A sources directory given by a path relative to the working directory
    fits (greedytl fit runs in the fit's private directory: the relative path
    reached it unchanged and named nothing there) and gives the model of the
    same directory given by its absolute path."""
    Xs, labels = synth["X"], synth["labels"]
    ys = labels[:60] == labels[0]
    monkeypatch.chdir(os.path.dirname(synth["sources"]))
    rel = TransferClassifier(sources=os.path.basename(synth["sources"]), random_state=0).fit(Xs[:60], ys)
    absolute = TransferClassifier(sources=synth["sources"], random_state=0).fit(Xs[:60], ys)
    assert rel.model_["sources"] == absolute.model_["sources"]
    np.testing.assert_array_equal(rel.decision_function(Xs), absolute.decision_function(Xs))


def _brute_scores(sources_dir, X):
    """The sources' scores on X by their definition, model by model from the
    liblinear files the index lists: each model's decision value on the
    model's own leading nr_feature columns of X (plus its bias term),
    negated when its first label is the smaller, so that a positive score
    favours the greater label."""
    with open(os.path.join(sources_dir, "sources.json")) as f:
        ix = json.load(f)
    H = np.empty((len(X), len(ix["sources"])))
    for j, e in enumerate(ix["sources"]):
        with open(os.path.join(sources_dir, e["file"]), "rb") as f:
            m = read_liblinear(f.read())
        sign = -1.0 if m.labels[0] < m.labels[1] else 1.0
        for i, x in enumerate(X):
            v = sum(x[k] * m.w[k, 0] for k in range(m.nr_feature))
            if m.bias >= 0:
                v += m.w[m.nr_feature, 0] * m.bias
            H[i, j] = sign * v
    return H


def test_sources_dir_needs_its_datasets_columns(cli, synth, tmp_path):
    """As greedytl fit and predict --sources: features whose column count is
    not num_features of the directory's sources.json are refused before
    greedytl runs (a greedytl_bin that does not exist is never reached),
    naming the directory, the index and both counts — one column wider too,
    which the models would score on their leading columns without a word —
    at fit, with or without the features, and when the directory scores at
    predict; the dataset's own features give the scores of the models'
    definition."""
    Xs, labels = synth["X"], synth["labels"]
    ys = labels[:60] == labels[0]
    m, d = Xs.shape
    index = os.path.join(synth["sources"], "sources.json")
    for A in (np.hstack([Xs, np.ones((m, 1))]), Xs[:, :-1]):
        want = re.escape("X has {} columns but the sources of {} were trained on {} features "
                         "(num_features of {})".format(A.shape[1], synth["sources"], d, index))
        for use_features in (True, False):
            est = TransferClassifier(sources=synth["sources"], use_features=use_features, random_state=0,
                                     greedytl_bin=str(tmp_path / "no-greedytl"))
            with pytest.raises(ValueError, match=want):
                est.fit(A[:60], ys)
        with pytest.raises(ValueError, match=want):
            greedytl.SourcesDir(synth["sources"]).scores(A)

    src = greedytl.SourcesDir(synth["sources"])
    assert src.num_features == d
    np.testing.assert_allclose(src.scores(Xs), _brute_scores(synth["sources"], Xs), rtol=1e-12, atol=1e-12)
    wide = np.hstack([Xs, np.ones((m, 1))])
    for use_features in (True, False):
        clf = TransferClassifier(sources=synth["sources"], use_features=use_features,
                                 random_state=0).fit(Xs[:60], ys)
        by_fn = TransferClassifier(sources=lambda A: _brute_scores(synth["sources"], A), use_features=use_features,
                                   random_state=0).fit(Xs[:60], ys)
        np.testing.assert_allclose(clf.decision_function(Xs), by_fn.decision_function(Xs), rtol=1e-9, atol=1e-9)
        with pytest.raises(ValueError, match="X has {} features".format(d + 1)):
            clf.decision_function(wide)
        with pytest.raises(ValueError, match=re.escape("X has {} columns but the sources of".format(d + 1))):
            clf.sources_.scores(wide)


def _sources_copy(cli, synth, tmp_path):
    """A copy of synth's sources directory (its path), its index (decoded),
    and a function that runs greedytl fit --sources on it, with features
    of its dataset's first 40 rows (synth["X"][:40]), and returns the
    finished process."""
    labels = synth["labels"]
    np.save(tmp_path / "X.npy", synth["X"][:40])
    np.save(tmp_path / "y.npy", np.where(labels[:40] == labels[0], 1.0, -1.0))
    src = tmp_path / "sources"
    shutil.copytree(synth["sources"], src)

    def fit():
        return subprocess.run([cli["path"], "fit", "--features", tmp_path / "X.npy", "--sources", src, "--labels",
                               tmp_path / "y.npy", "--out", tmp_path / "m.json"], capture_output=True, text=True)
    return src, json.loads((src / "sources.json").read_text()), fit


def _index_read_alike(cli, synth, tmp_path, edit):
    """A copy of synth's sources directory whose index edit(ix) changed in
    place, each in turn (edit yields what it changed, to name the case), and
    whether greedytl fit --sources and SourcesDir (and its scores of the
    dataset's features) take it, asserting that they agree."""
    src, ix, fit = _sources_copy(cli, synth, tmp_path)
    for what, doc in edit(ix):
        (src / "sources.json").write_text(json.dumps(doc))
        p = fit()
        try:
            greedytl.SourcesDir(src).scores(synth["X"][:40])
            read = True
        except ValueError:
            read = False
        assert p.returncode in (0, 2) and (p.returncode == 0) == read, (what, p.stderr)
        yield what, read


def test_sources_index_from_a_newer_greedytl(cli, synth, tmp_path):
    """A sources.json member the package does not know — one a newer
    greedytl's train-sources writes — is refused by SourcesDir and by
    greedytl fit --sources alike, each naming the member and where it is,
    saying that a newer greedytl wrote the directory and which to upgrade:
    the Python package (naming its version), greedytl. SourcesDir said
    'unknown field "sources[0].margin"', which said neither why nor what
    to upgrade."""
    src, ix, fit = _sources_copy(cli, synth, tmp_path)
    first = dict(ix["sources"][0], margin=2)
    for doc, member, where in ((dict(ix, writer="x"), "writer", ""),
                               (dict(ix, sources=[first] + ix["sources"][1:]), "margin", " of sources[0]")):
        (src / "sources.json").write_text(json.dumps(doc))
        index = re.escape(str(src / "sources.json"))
        said = 'member "{}"{} is unknown to '.format(member, re.escape(where))
        newer = r": the directory was written by a newer greedytl \(or the file was edited\); upgrade "
        with pytest.raises(ValueError, match="^{}: {}the greedytl Python package {}{}the greedytl Python package "
                                             "to read it$".format(index, said, re.escape(greedytl.__version__),
                                                                  newer)):
            greedytl.SourcesDir(src)
        p = fit()
        assert p.returncode == 2 and re.search("{}: {}this greedytl{}greedytl to read it".format(index, said, newer),
                                               p.stderr), p.stderr


def test_sources_index_num_features_read_as_greedytl_reads_it(cli, synth, tmp_path):
    """The index's num_features is read as greedytl fit --sources reads it,
    into a Go int (is_go_int, the model files' rule): the dataset's count,
    none (missing, 0 or negative: not checked) are taken by both; a number
    with a fraction, a string, a bool, a null, another count and an
    integer beyond an int are refused by both.  SourcesDir took
    -2**63-1, which greedytl cannot read, as "none recorded"."""
    d = synth["X"].shape[1]
    big = 2 ** 63
    taken = (d, "missing", 0, -1, -big)

    def edit(ix):
        for v in taken + (float(d), str(d), True, None, d + 1, big - 1, big, -big - 1):
            doc = dict(ix, num_features=v)
            if v == "missing":
                del doc["num_features"]
            yield v, doc
    for v, read in _index_read_alike(cli, synth, tmp_path, edit):
        assert read == (v in taken and type(v) is not float), v


def test_sources_index_negative_zero_read_as_greedytl_reads_it(cli, synth, tmp_path):
    """The JSON integer -0 in a sources index is read as greedytl reads it
    (encoding/json): into a uint64 (the index's seed, its negatives' seed)
    not at all, so both refuse it, SourcesDir naming the member; into a
    float64 (eps, bias) or an int (folds, a source's positives) as −0 or
    0, so both take it.  SourcesDir took the seeds' -0 as 0 (json.loads
    reads -0 as the integer 0)."""
    src, ix, fit = _sources_copy(cli, synth, tmp_path)
    assert ix["negatives"] is not None
    cases = [(("seed",), False), (("negatives", "seed"), False), (("eps",), True), (("bias",), True),
             (("folds",), True), (("sources", 0, "positives"), True)]
    for path, want in cases:
        doc = json.loads(json.dumps(ix))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        parent[path[-1]] = "-0"
        (src / "sources.json").write_text(json.dumps(doc).replace('"-0"', "-0"))
        p = fit()
        assert p.returncode == (0 if want else 2), (path, p.stderr)
        if want:
            greedytl.SourcesDir(src).scores(synth["X"][:40])
            continue
        with pytest.raises(ValueError, match="^{}: {} is -0; want an integer \\(0 to 2\\*\\*64-1\\)$".format(
                re.escape(str(src / "sources.json")), re.escape(".".join(path)))):
            greedytl.SourcesDir(src)


def test_sources_index_utf16_refused_with_greedytl_message(cli, synth, tmp_path):
    """A sources index saved as UTF-16 (Windows Notepad's "Unicode": a
    byte order mark, little- or big-endian, first) is refused by greedytl
    fit --sources and by SourcesDir, with greedytl's message naming the
    index ("PATH: UTF-16 text (…): save it as UTF-8"), where SourcesDir
    said "PATH: Expecting value: line 1 column 1 (char 0)"."""
    src, ix, fit = _sources_copy(cli, synth, tmp_path)
    text = json.dumps(ix)
    for mark, codec in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        (src / "sources.json").write_bytes(mark + text.encode(codec))
        p = fit()
        assert p.returncode == 2, p.stderr
        with pytest.raises(ValueError) as e:
            greedytl.SourcesDir(src)
        assert str(e.value).startswith("{}: UTF-16 text (".format(src / "sources.json")), str(e.value)
        assert p.stderr.strip().endswith(": " + str(e.value)), (p.stderr, str(e.value))


def test_sources_index_version_and_classes_read_as_greedytl_reads_them(cli, synth, tmp_path):
    """The index's version and each source's class, which greedytl reads
    into an int (is_go_int) and checks (source.Index.check: the index of
    the source's name among the index's classes, each listed once): the
    index as written is taken by greedytl fit --sources and SourcesDir,
    and by both refused a version or a class written with a fraction (1.0),
    a string, a bool, a null, beyond an int, a class out of range, of
    another name, and a source listed twice.  SourcesDir took the version
    1.0 and true, and any class int() took, unchecked."""
    def edit(ix):
        yield "as written", ix
        for v in (1.0, True, "1", None, 2, 2 ** 63):
            yield ("version", v), dict(ix, version=v)
        for j in (0, 1):
            good = ix["sources"][j]["class"]
            other = ix["sources"][1 - j]["class"]
            bools = [good == 1] if good in (0, 1) else []
            for v in [float(good), str(good), None, *bools, -1, len(ix["classes"]), other, 2 ** 63]:
                sources = [dict(e) for e in ix["sources"]]
                sources[j]["class"] = v
                yield ("class", j, v), dict(ix, sources=sources)
        yield "twice", dict(ix, sources=ix["sources"] + ix["sources"][:1])
    cases = list(_index_read_alike(cli, synth, tmp_path, edit))
    assert [what for what, read in cases if read] == ["as written"] and len(cases) > 20
    assert any(what[-1] is False for what, _ in cases if what[0] == "class")


def test_sources_index_members_read_as_greedytl_reads_them(cli, synth, tmp_path):
    """The index is read as greedytl reads it (jsonfile.Decode into
    source.Index, then Index.check): a member names its field exactly or
    ignoring case ("Version", "SOURCES", an entry's "NAME"), a missing
    member is its zero value (then refused by the checks that follow: a
    source "" of another class's name, a file "" not inside the directory),
    a member of another kind, an unknown member, a document that is not an
    object, an index without its negative plan and a source stuck and
    converged at once are refused, a source's score statistics ("scores")
    are optional and refused with a negative std, and a file path is
    cleaned ("x/../m" is "m") before it is read; by greedytl fit --sources and SourcesDir
    alike, SourcesDir with a ValueError naming the index.  SourcesDir
    raised a bare KeyError, TypeError or AttributeError for a missing
    entry member or a value of another kind, took unknown members, a
    data_sha256 or missing of another kind and a null plan, and refused
    the names in another case and the path to clean."""
    def edit(ix):
        def entry(j, **change):
            sources = [dict(e) for e in ix["sources"]]
            sources[j].update(change)
            for k, v in change.items():
                if v is None:
                    del sources[j][k]
            return dict(ix, sources=sources)

        def renamed(d, old, new):
            return {new if k == old else k: v for k, v in d.items()}
        yield "as written", ix
        yield "Version", renamed(ix, "version", "Version")
        yield "SOURCES", renamed(ix, "sources", "SOURCES")
        yield "NAME", dict(ix, sources=[renamed(e, "name", "NAME") for e in ix["sources"]])
        yield "x/../file", entry(0, file="x/../" + ix["sources"][0]["file"])
        yield "an array", [ix]
        for k in ("name", "file", "sha256", "class"):
            yield ("no", k), entry(1, **{k: None})
        yield "entry 3", dict(ix, sources=[3] + ix["sources"][1:])
        yield "sources 5", dict(ix, sources=5)
        yield "sources object", dict(ix, sources={"a": 1})
        yield "file 5", entry(0, file=5)
        yield "name 5", entry(0, name=5)
        yield "missing 5", dict(ix, missing=5)
        yield "data_sha256 5", dict(ix, data_sha256=5)
        yield "unknown in an entry", entry(0, extra=1)
        yield "unknown", dict(ix, bogus=1)
        yield "no plan", dict(ix, negatives=None)
        yield "stuck and converged", entry(0, stuck=True, converged=True)
        yield "outside", entry(0, file="models/../../" + ix["sources"][0]["file"])
        # train-sources records each source's score statistics ("scores"):
        # a directory without them (written before) and a std of 0 are
        # read, a negative std and a member of another kind refused.
        assert all("scores" in e for e in ix["sources"]), ix["sources"][0]
        yield "no scores", entry(0, scores=None)
        yield "scores std 0", entry(0, scores={"mean": 0.5, "std": 0})
        yield "scores std -1", entry(0, scores={"mean": 0.5, "std": -1})
        yield "scores 5", entry(0, scores=5)
        yield "scores mean string", entry(0, scores={"mean": "0.5", "std": 1})
    cases = list(_index_read_alike(cli, synth, tmp_path, edit))
    assert [what for what, read in cases if read] == ["as written", "Version", "SOURCES", "NAME", "x/../file",
                                                      "no scores", "scores std 0"]
    assert len(cases) == 27


def _go_solver_tables():
    """linear/problem.go's tables of solver names, read from the Go source
    of this repository: the names greedytl reads (solverNames) and those of
    liblinear's solvers it refuses (liblinearOnly)."""
    path = pathlib.Path(__file__).resolve().parents[2] / "linear" / "problem.go"
    try:
        text = path.read_text()
    except OSError as e:
        if _require():
            pytest.fail("GREEDYTL_REQUIRE_PEERS=1 but the Go source is not beside the tests: {}".format(e))
        pytest.skip("the Go source is not beside the tests: {}".format(e))

    def table(start):
        body = re.search(re.escape(start) + r"(.*?)\n}\n", text, re.S)
        assert body, "{}: no {!r}".format(path, start)
        return re.findall(r'^\s*\w+:\s*\{?"([^"]*)"', body.group(1), re.M)
    return table("var solverNames = map[Solver]string{"), table("var liblinearOnly = map[Solver]struct")


def test_solvers_are_greedytls():
    """The package's list of the solvers greedytl reads (SOLVERS, which a
    sources index and its model files are checked against) is the Go
    table's (linear/problem.go's solverNames), so that the two cannot
    drift apart."""
    from greedytl._sources import SOLVERS
    known, refused = _go_solver_tables()
    assert "L2R_LR" in known and "MCSVM_CS" in refused, (known, refused)  # both tables were read
    assert sorted(SOLVERS) == sorted(known), "greedytl's solvers (linear/problem.go) are not _sources.SOLVERS"
    assert not set(SOLVERS) & set(refused)


def _solver_cases():
    """Solver names to try: greedytl's, liblinear's that it refuses, and
    names it does not know (another case, none, an empty one)."""
    known, refused = _go_solver_tables()
    return known + refused + ["l2r_lr", "L2R_LR ", "FOO", ""]


def test_sources_index_solver_read_as_greedytl_reads_it(cli, synth, tmp_path):
    """A sources index's solver is taken by greedytl fit --sources and
    SourcesDir alike: each of greedytl's solvers is, liblinear's others,
    another case, an unknown name, an empty one, a null and a missing one
    are refused by both.  SourcesDir took any name."""
    from greedytl._sources import SOLVERS
    cases = _solver_cases() + [None, "missing"]

    def edit(ix):
        for v in cases:
            doc = dict(ix, solver=v)
            if v == "missing":
                del doc["solver"]
            yield v, doc
    got = dict(_index_read_alike(cli, synth, tmp_path, edit))
    assert got == {v: v in SOLVERS for v in cases}


def test_source_model_files_read_as_greedytl_reads_them(cli, synth, tmp_path):
    """A sources directory's liblinear model files are read as greedytl's
    linear.ReadModel reads them (its digest in the index matching): a key
    without its value, an integer or a number it cannot read, labels of
    another count, repeated or beyond 32 bits, an unknown or repeated key,
    a one-class model, a missing header key, missing, extra or blank weight
    lines and a weight that is not a finite number are refused by greedytl
    fit --sources and SourcesDir alike, SourcesDir with greedytl's message
    (naming the file and the line), and "+2", blank lines after the
    weights, blank header lines and a byte order mark before the file
    (not after its start) are read by both.  SourcesDir raised a
    bare IndexError for a key without its value, int()'s and float()'s
    messages without the file, and UnicodeDecodeError."""
    import hashlib
    src, ix, fit = _sources_copy(cli, synth, tmp_path)
    entry = ix["sources"][0]
    path = src / entry["file"]
    good = path.read_bytes()
    edits = [
        (b"nr_class 2\n", b"nr_class\n", False), (b"nr_class 2\n", b"nr_class x\n", False),
        (b"nr_class 2\n", b"nr_class +2\n", True), (b"\nbias ", b"\nbias\n#", False),
        (b"\nlabel ", b"\nlabel 7\n#", False), (b"\nlabel ", b"\nlabel 3000000000 ", False),
        (b"\nnr_feature ", b"\nnr_feature -", False), (b"\nw\n", b"\nw x\n", False),
        (b"\nw\n", b"\nfoo 1\nw\n", False), (b"\nw\n", b"\nrho 1\nw\n", False),
        (b"\nw\n", b"\n\nw\n", True), (b"nr_class 2\n", b"nr_class 2\nnr_class 2\n", False),
        (b"\nw\n", b"\nw\n\n", False), (b"\nw\n", b"\nw\nnan\n", False), (b"\nw\n", b"\nw\n1e400\n", False),
        (b"\nw\n", b"\nw\n\xff\n", False), (good[-1:], good[-1:] + b"\n\n", True),
        (good[-1:], good[-1:] + b"5\n", False), (b"\nw\n", b"\nw\n1 2\n", False),
        (good[:1], b"\xef\xbb\xbf" + good[:1], True), (good[:1], b"\n\xef\xbb\xbf" + good[:1], False),
    ]
    checked = 0
    for old, new, readable in edits:
        assert old in good, old
        data = good.replace(old, new, 1)
        if old == good[-1:]:
            data = good[:-1] + new
        path.write_bytes(data)
        doc = dict(ix, sources=[dict(entry, sha256=hashlib.sha256(data).hexdigest())] + ix["sources"][1:])
        (src / "sources.json").write_text(json.dumps(doc))
        p = fit()
        assert p.returncode == (0 if readable else 2), (new, p.stderr)
        if readable:
            greedytl.SourcesDir(src).scores(synth["X"][:40])
            continue
        with pytest.raises(ValueError) as e:
            greedytl.SourcesDir(src)
        got = str(e.value)
        assert got.startswith(str(path) + ": line "), got
        if b"\xff" not in new:  # greedytl quotes the invalid byte, the package its U+FFFD
            assert p.stderr.strip().endswith(got[len(str(path)):]), (got, p.stderr)
            checked += 1
    assert checked == 16


def test_source_model_solver_type_read_as_greedytl_reads_it(cli, synth, tmp_path):
    """A source model file's solver_type is read as greedytl's
    linear.ReadModel reads it: each of greedytl's solvers is taken by
    greedytl fit --sources and SourcesDir alike, and liblinear's others,
    another case and unknown names are refused by both, SourcesDir with
    greedytl's message.  SourcesDir took any name."""
    import hashlib
    from greedytl._sources import SOLVERS
    src, ix, fit = _sources_copy(cli, synth, tmp_path)
    entry = ix["sources"][0]
    path = src / entry["file"]
    good = path.read_bytes()
    old = b"solver_type " + ix["solver"].encode() + b"\n"
    assert good.startswith(old)
    for name in [n for n in _solver_cases() if n.strip() == n and n]:
        data = b"solver_type " + name.encode() + b"\n" + good[len(old):]
        path.write_bytes(data)
        doc = dict(ix, sources=[dict(entry, sha256=hashlib.sha256(data).hexdigest())] + ix["sources"][1:])
        (src / "sources.json").write_text(json.dumps(doc))
        p = fit()
        if name in SOLVERS:
            assert p.returncode == 0, (name, p.stderr)
            greedytl.SourcesDir(src).scores(synth["X"][:40])
            continue
        assert p.returncode == 2, (name, p.stderr)
        with pytest.raises(ValueError) as e:
            greedytl.SourcesDir(src)
        got = str(e.value)
        assert got == "{}: line 1: solver_type {} is not a classifier greedytl knows".format(path, json.dumps(name))
        assert p.stderr.strip().endswith(got[len(str(path)):]), (got, p.stderr)


def test_liblinear_weights_read_at_once_as_line_by_line(monkeypatch):
    """A liblinear model file's weights as liblinear writes them (a
    million in a large source) are read at once, not a number a call: a
    file of 3,000 weights calls the careful number parser for its bias
    alone (it made 3,002 calls, four to five times slower on a million
    weights).  And the model read, or the error raised, is the reading
    line by line's (which test_source_model_files_read_as_greedytl_reads_them
    checks against greedytl) for weight blocks of every unusual kind: other
    blanks, signs, exponents, hexadecimal, infinities, NaN, digit
    separators, numbers beyond float64, blank, short, long and extra lines,
    for two classes and for three."""
    import greedytl._sources as src

    calls = []
    parse = src._parse_go_float
    monkeypatch.setattr(src, "_parse_go_float", lambda t: calls.append(t) or parse(t))
    data = ("solver_type L2R_LR\nnr_class 2\nlabel 1 -1\nnr_feature 3000\nbias -1\nw\n"
            + "".join("{!r} \n".format(v) for v in np.random.default_rng(0).normal(size=3000))).encode()
    assert src.read_liblinear(data, "m").w.shape == (3000, 1)
    assert calls == ["-1", "-1"]  # checked, then read
    monkeypatch.undo()

    def model(nr_class, block, bias="-1"):
        labels = " ".join(map(str, range(nr_class)))
        head = "solver_type L2R_LR\nnr_class {}\nlabel {}\nnr_feature 3\nbias {}\nw\n".format(
            nr_class, labels, bias)
        return (head + block).encode()

    def read(data):
        try:
            m = src.read_liblinear(data, "m")
        except ValueError as e:
            return str(e)
        return m.w.tolist(), m.bias

    plain = ["0.5 \n-1.25 \n3e-05 \n", "+1\n1.\n.5\n", "1E+05\t\n-0\r\n2\n\n\n", "1\n2\n3\n \t\n"]
    odd = ["0x1p-2\n1\n2\n", "inf\n1\n2\n", "1\nnan\n2\n", "1_0\n1\n2\n", "1e400\n1\n2\n",
           "-1e400\n1\n2\n", "1\n\n2\n3\n", "1\n2\n", "1\n2\n3\n4\n", "1 2\n3\n4\n", "1\n2\n3",
           "1e\n2\n3\n", ".\n2\n3\n", "1\x1c2\n3\n4\n", "1\xa0\n2\n3\n", "1\u2003\n2\n3\n",
           "1\n2\n3\n\x0b\n", "1\n2\n3\n\n5\n", "1\n2\n3\n+\n", "", "\n", "1\n2\n3\n\n\n\n"]
    three = ["1 2 3\n4 5 6\n7 8 9\n", "1 2 3 \n4\t5 6\n7 8  9\r\n\n", "1 2\n3 4 5 6\n7 8 9\n",
             "1 2 3\n4 5 6\n7 8\n9\n", "1 2 3\n4 5 6\n7 8 9 10\n", "1 2 3\n\n4 5 6\n7 8 9\n"]
    cases = [model(2, b) for b in plain + odd] + [model(3, b) for b in three] + [model(2, "", bias="1")]
    fast = [read(data) for data in cases]
    with monkeypatch.context() as m:
        m.setattr(src, "_plain_weights", lambda *args: None)
        slow = [read(data) for data in cases]
    assert fast == slow
    assert sum(isinstance(r, tuple) for r in fast) == 12 and sum(isinstance(r, str) for r in fast) == 21


def test_sources_dir_model_file_not_readable(cli, synth, tmp_path):
    """An index entry whose file is the directory itself ("."), another
    directory, missing or a name holding a NUL byte (which no file has) is
    refused by greedytl fit --sources and by SourcesDir, with a ValueError
    naming the index, the source and the file, as greedytl names the
    source and the file.  SourcesDir raised IsADirectoryError,
    FileNotFoundError or open's bare ValueError "embedded null byte"."""
    src, ix, fit = _sources_copy(cli, synth, tmp_path)
    (src / "sub").mkdir()
    for file in (".", "sub", "nothing.model", "models/a\x00b"):
        e = dict(ix["sources"][1], file=file)
        (src / "sources.json").write_text(json.dumps(dict(ix, sources=ix["sources"][:1] + [e] + ix["sources"][2:])))
        p = fit()
        assert p.returncode == 2 and 'source "{}": '.format(e["name"]) in p.stderr, (file, p.stderr)
        path = os.path.join(str(src), file)
        with pytest.raises(ValueError, match="^{}: source {}: {}: ".format(
                re.escape(str(src / "sources.json")), re.escape(repr(e["name"])), re.escape(path))):
            greedytl.SourcesDir(src)


def test_sources_index_file_names_read_as_greedytl_reads_them(cli, synth, tmp_path):
    """A source's file name escaping a lone surrogate ("\\ud800") reads as
    greedytl reads it, with U+FFFD in its place: a file of that name is
    read by greedytl fit --sources and SourcesDir alike, a missing one
    refused by both, SourcesDir with a ValueError naming the index, the
    source and the file.  SourcesDir raised UnicodeEncodeError, naming
    neither, opening the file."""
    src = tmp_path / "sources"  # _index_read_alike's copy

    def edit(ix):
        e = ix["sources"][1]
        shutil.copy(src / e["file"], src / "models" / "\ufffd.model")
        for file in ("models/\ud800.model", "models/\udc00\ud800.model"):
            yield file, dict(ix, sources=ix["sources"][:1] + [dict(e, file=file)] + ix["sources"][2:])
    assert [read for _, read in _index_read_alike(cli, synth, tmp_path, edit)] == [True, False]
    path = os.path.join(str(src), "models", "\ufffd\ufffd.model")
    name = json.loads((src / "sources.json").read_text())["sources"][1]["name"]  # the last case's
    with pytest.raises(ValueError, match="^{}: source {}: {}: No such file".format(
            re.escape(str(src / "sources.json")), re.escape(repr(name)), re.escape(path))):
        greedytl.SourcesDir(src)


def test_sources_dir_model_of_fewer_features(cli, synth, tmp_path):
    """A source model whose nr_feature is below num_features (liblinear
    records the last feature with a non-zero value in its training data:
    trailing zero features) is accepted as greedytl fit --sources accepts
    it, on the dataset's num_features columns, and scores those of its
    features."""
    import hashlib
    Xs, labels = synth["X"], synth["labels"]
    ys = labels[:60] == labels[0]
    d = Xs.shape[1]
    src = tmp_path / "sources"
    shutil.copytree(synth["sources"], src)
    ix = json.loads((src / "sources.json").read_text())
    e = ix["sources"][0]
    lines = (src / e["file"]).read_text().split("\n")
    w = lines.index("w")
    assert lines[1 + w + d] and ("nr_feature {}".format(d) in lines), "a model of d features and a bias row"
    lines = [("nr_feature {}".format(d - 1) if ln == "nr_feature {}".format(d) else ln) for ln in lines]
    del lines[w + d]  # the weight of feature d (the last), keeping the bias row after it
    data = "\n".join(lines).encode()
    (src / e["file"]).write_bytes(data)
    e["sha256"] = hashlib.sha256(data).hexdigest()
    (src / "sources.json").write_text(json.dumps(ix))

    loaded = greedytl.SourcesDir(src)
    assert loaded.num_features == d and loaded.d == d
    H = loaded.scores(Xs)
    np.testing.assert_allclose(H, _brute_scores(str(src), Xs), rtol=1e-12, atol=1e-12)
    clf = TransferClassifier(sources=str(src), random_state=0).fit(Xs[:60], ys)  # greedytl computes H itself
    by_fn = TransferClassifier(sources=lambda A: _brute_scores(str(src), A), random_state=0).fit(Xs[:60], ys)
    np.testing.assert_allclose(clf.decision_function(Xs), by_fn.decision_function(Xs), rtol=1e-9, atol=1e-9)


def test_partly_trained_sources_dir_refused(cli, synth, tmp_path):
    """As greedytl fit and predict --sources: a sources directory that a
    sharded train-sources has only partly filled (its index names classes
    with no model yet: the scores would lack their columns) is refused by
    SourcesDir, Sources.resolve and fit (before greedytl runs), naming the
    directory, sources.json and the missing classes; the same job run again
    without --shard finishes it, and it is taken."""
    Xs, labels = synth["X"], synth["labels"]
    ys = labels[:60] == labels[0]
    part = tmp_path / "part"
    data = os.path.join(synth["dir"], "data")
    run(cli, "train-sources", "-q", "--data", data, "--out", part, "--shard", "0/3")
    missing = json.loads((part / "sources.json").read_text()).get("missing")
    assert missing, "a shard leaves the other shards' classes missing"
    want = "{} is incomplete: {} lists {} classes with no model yet ({})".format(
        part, part / "sources.json", len(missing), ", ".join(missing[:5]) + (", …" if len(missing) > 5 else ""))
    for load in (lambda: greedytl.SourcesDir(part), lambda: greedytl.SourcesDir(str(part)),
                 lambda: greedytl.Sources(str(part)).resolve(),
                 lambda: TransferClassifier(sources=str(part), greedytl_bin=str(tmp_path / "no-greedytl")).fit(
                     Xs[:60], ys),
                 lambda: TransferClassifier(sources=str(part), use_features=False,
                                            greedytl_bin=str(tmp_path / "no-greedytl")).fit(Xs[:60], ys)):
        with pytest.raises(ValueError, match=re.escape(want)):
            load()
    run(cli, "train-sources", "-q", "--data", data, "--out", part)
    done = greedytl.SourcesDir(part)
    assert len(done) == len(greedytl.SourcesDir(synth["sources"]))
    TransferClassifier(sources=str(part), random_state=0).fit(Xs[:60], ys)


def test_dataframe_sources(cli):
    """With X a pandas DataFrame, the sources are given a DataFrame of its
    columns (at fit, for X_unlabelled and at predict; float64 as the array
    they were given, so the scores are the same): classifiers fitted on DataFrames
    score it without scikit-learn's "X does not have valid feature names"
    warning, and one that selects its columns by name (a ColumnTransformer)
    works at all (both were given the bare array).  The model is the one of
    the same scores computed from the array; feature_names_in_ is X's
    columns, and other column names at predict are refused as scikit-learn
    refuses them."""
    pd = pytest.importorskip("pandas")
    from sklearn.compose import make_column_transformer
    X, y = _data()
    df = pd.DataFrame(X, columns=["c{}".format(j) for j in range(X.shape[1])], dtype=np.float32)
    X = df.to_numpy(dtype=np.float64)
    lr = LogisticRegression().fit(df, X[:, 0] > 0)
    by_name = make_pipeline(make_column_transformer((StandardScaler(), ["c1", "c2"])),
                            LogisticRegression()).fit(df, X[:, 1] + X[:, 2] > 0)
    zoo = [lr, by_name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = TransferClassifier(method="dam", sources=greedytl.Sources(zoo), random_state=0).fit(
            df[:20], y[:20], X_unlabelled=df[20:])
        D = clf.decision_function(df)
    assert list(clf.feature_names_in_) == list(df.columns)

    def H(A):
        return np.column_stack([c.decision_function(pd.DataFrame(A, columns=df.columns)) for c in zoo])
    ref = TransferClassifier(method="dam", sources=H, random_state=0).fit(X[:20], y[:20], X_unlabelled=X[20:])
    np.testing.assert_array_equal(D, ref.decision_function(X))
    with pytest.raises(ValueError, match="feature names should match"):
        clf.predict(df.rename(columns={"c0": "z"}))


def test_dataframe_sources_not_copied(cli):
    """A DataFrame X of float64 columns (dense, or sparse with 0 as fill
    value) is handed to the sources as the caller gave it, at fit and at
    predict: it holds X's values as the sources are to see them, so it is
    converted once (to the array greedytl reads), not to an array and back
    to a second DataFrame (a copy of the data; for a sparse one, column by
    column).  Another dtype (float32 here) is converted once, to float64,
    and the sources see a DataFrame of X's columns and index."""
    pd = pytest.importorskip("pandas")
    from scipy import sparse
    X, y, S = _sparse_data()
    cols = ["c{}".format(j) for j in range(X.shape[1])]
    idx = pd.RangeIndex(100, 100 + len(X))
    w = np.random.default_rng(2).normal(size=(X.shape[1], 2))
    for df in (pd.DataFrame(X, columns=cols, index=idx),
               pd.DataFrame.sparse.from_spmatrix(S, columns=cols, index=idx)):
        seen = []

        def H(A):
            seen.append(A)
            return (A.sparse.to_dense() if hasattr(A, "sparse") else A).to_numpy() @ w

        clf = TransferClassifier(sources=H, random_state=0).fit(df, y)
        clf.decision_function(df)
        assert len(seen) == 2 and all(A is df for A in seen), [type(A) for A in seen]
    seen = []
    df = pd.DataFrame(X, columns=cols, index=idx, dtype=np.float32)
    clf = TransferClassifier(sources=lambda A: seen.append(A) or A.to_numpy() @ w, random_state=0).fit(df, y)
    (A,) = seen
    assert list(A.columns) == cols and A.index.equals(idx) and set(A.dtypes) == {np.dtype(np.float64)}
    np.testing.assert_array_equal(A.to_numpy(), df.to_numpy(dtype=np.float64))
    assert not sparse.issparse(A)


class _Spy(LogisticRegression):
    """A LogisticRegression that records the type of what it scores."""

    def decision_function(self, X):
        self.seen_.append(type(X).__name__)
        return super().decision_function(X)


def test_dataframe_to_sources_fitted_on_arrays(cli):
    """With X a DataFrame, a source classifier fitted on arrays (it records
    n_features_in_ but no feature_names_in_) is given the array it was
    fitted on, at fit and predict, so scikit-learn does not warn at every
    call that "X has feature names, but LogisticRegression was fitted
    without feature names" (it did, per source and call); a source fitted on
    a DataFrame is still given the DataFrame.  The model is the one of the
    same scores given as a callable on the array."""
    pd = pytest.importorskip("pandas")
    X, y = _data()
    cols = ["c{}".format(j) for j in range(X.shape[1])]
    df = pd.DataFrame(X, columns=cols)
    on_array = _Spy().fit(X, X[:, 0] > 0)
    on_frame = _Spy().fit(df, X[:, 1] > 0)
    on_array.seen_, on_frame.seen_ = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = TransferClassifier(sources=greedytl.Sources([on_array, on_frame]), random_state=0).fit(df[:20], y[:20])
        D = clf.decision_function(df)
    assert clf.sources_[0].seen_ == ["ndarray"] * 2 and clf.sources_[1].seen_ == ["DataFrame"] * 2

    def H(A):
        return np.column_stack([LogisticRegression.decision_function(on_array, A),
                                LogisticRegression.decision_function(on_frame, pd.DataFrame(A, columns=cols))])
    ref = TransferClassifier(sources=H, random_state=0).fit(X[:20], y[:20])
    np.testing.assert_array_equal(D, ref.decision_function(X))


def _log_odds(P):
    """The closed form of a probability-only source's scores: log(p/(1-p)) of
    p clipped to [2**-53, 1 - 2**-53]; two classes: the second's only."""
    P = np.clip(P[:, 1:] if P.shape[1] == 2 else P, 2.0 ** -53, 1 - 2.0 ** -53)
    return np.log(P / (1 - P))


def test_proba_sources(cli):
    """Classifiers with predict_proba but no decision_function (a random
    forest, naive Bayes, nearest neighbours, a Pipeline ending in a forest)
    are sources: their scores are the log-odds of their probabilities — one
    column for two classes (that of classes_[1]), one per class for more,
    named as decision_function's columns — clipped away from 0 and 1, so
    that a forest's probabilities of exactly 0 and 1 give ±53·ln 2, not
    ±inf; the model is the one of those scores given as a callable.  They
    were refused ("has no decision_function").  A classifier with both
    methods is scored by decision_function."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from greedytl._sources import source_scores
    rng = np.random.default_rng(4)
    Xs = rng.normal(size=(200, 8))
    rf = RandomForestClassifier(n_estimators=10, random_state=0).fit(Xs, Xs[:, 0] > 0)
    nb = GaussianNB().fit(Xs, np.digitize(Xs[:, 1], [-0.5, 0.5]))
    knn = KNeighborsClassifier(5).fit(Xs, Xs[:, 2] > 0)
    pipe = make_pipeline(StandardScaler(), RandomForestClassifier(n_estimators=5, random_state=1)).fit(
        Xs, np.digitize(Xs[:, 3], [-1, 0, 1]))
    mlr = LogisticRegression(max_iter=500).fit(Xs, np.digitize(Xs[:, 4], [-0.5, 0.5]))
    zoo = [rf, nb, knn, pipe, mlr]
    assert not any(hasattr(c, "decision_function") for c in zoo[:4])

    def closed(A):
        return np.column_stack([_log_odds(c.predict_proba(A)) for c in zoo[:4]] + [mlr.decision_function(A)])

    X, y = _data()
    P = rf.predict_proba(X)
    assert np.any(P == 0) and np.any(P == 1), "the test needs probabilities of exactly 0 and 1"
    H, names = source_scores(zoo, X)
    assert H.shape == (40, 1 + 3 + 1 + 4 + 3) and np.all(np.isfinite(H))
    assert names[:5] == ["0:RandomForestClassifier", "1:GaussianNB=0", "1:GaussianNB=1", "1:GaussianNB=2",
                         "2:KNeighborsClassifier"]
    np.testing.assert_allclose(H, closed(X), rtol=1e-12, atol=1e-12)
    # A few rows by hand: the forest's first column, 0 and 1 at ±53·ln 2.
    for i in range(5):
        p = P[i, 1]
        want = 53 * np.log(2) if p == 1 else -53 * np.log(2) if p == 0 else np.log(p / (1 - p))
        assert abs(H[i, 0] - want) <= 1e-12 * max(1, abs(want)), (i, p, H[i, 0], want)
    assert set(np.abs(H[P[:, 1] == 1, 0])) == {53 * np.log(2)} and np.all(H[P[:, 1] == 0, 0] < 0)
    np.testing.assert_array_equal(H[:, -3:], mlr.decision_function(X))
    # Fit and predict, as with the scores given as a callable.
    clf = TransferClassifier(sources=greedytl.Sources(zoo), random_state=0).fit(X[:20], y[:20])
    ref = TransferClassifier(sources=closed, random_state=0).fit(X[:20], y[:20])
    assert clf.n_sources_ == 12 and clf.source_names_ == names
    assert [(c["kind"], c["index"]) for c in clf.selected_] == [(c["kind"], c["index"]) for c in ref.selected_]
    np.testing.assert_allclose(clf.decision_function(X), ref.decision_function(X), rtol=1e-9, atol=1e-9)
    assert clf.predict(X[20:]).shape == (20,)
    # One classifier alone is a source too.
    assert TransferClassifier(sources=nb, random_state=0).fit(X[:20], y[:20]).n_sources_ == 3


def test_source_columns_named_one_vs_one(cli):
    """A source whose decision_function has a column per pair of classes
    (SVC(decision_function_shape="ovo"): 6 columns for 4 classes, 3 for 3)
    gets a name per column, the pair as scikit-learn orders them, and the
    sources after it keep theirs: its columns were named by its 4 classes, so
    that the next source's column took the name of the SVC's fifth column
    and the last column had none ("h[6]"), and with 3 classes the pairs
    were named as classes.  A 2-D score of another width is named by
    column index."""
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.svm import SVC
    from greedytl._sources import source_scores

    class Wide(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.unique(y)
            return self

        def decision_function(self, X):
            return np.asarray(X)[:, :3]

    rng = np.random.default_rng(7)
    Xs = rng.normal(size=(80, 8))
    ovo4 = SVC(decision_function_shape="ovo").fit(Xs, np.digitize(Xs[:, 0], [-0.6, 0, 0.6]))
    ovo3 = SVC(decision_function_shape="ovo").fit(Xs, np.array(["p", "q", "r"])[np.digitize(Xs[:, 1], [-0.4, 0.4])])
    lr = LogisticRegression().fit(Xs, Xs[:, 2] > 0)
    zoo = [ovo4, ovo3, Wide().fit(Xs, Xs[:, 3] > 0), lr]
    X, y = _data()
    H, names = source_scores(zoo, X)
    assert H.shape == (40, 6 + 3 + 3 + 1) and len(names) == H.shape[1]
    assert names == ["0:SVC=0 vs 1", "0:SVC=0 vs 2", "0:SVC=0 vs 3", "0:SVC=1 vs 2", "0:SVC=1 vs 3", "0:SVC=2 vs 3",
                     "1:SVC=p vs q", "1:SVC=p vs r", "1:SVC=q vs r",
                     "2:Wide[0]", "2:Wide[1]", "2:Wide[2]", "3:LogisticRegression"]
    np.testing.assert_array_equal(H[:, :6], ovo4.decision_function(X))
    np.testing.assert_array_equal(H[:, -1], lr.decision_function(X))
    clf = TransferClassifier(sources=greedytl.Sources(zoo), use_features=False, random_state=0).fit(X[:20], y[:20])
    assert clf.source_names_ == names and clf.n_sources_ == len(names)
    assert all(c["name"] == names[c["index"]] for c in clf.selected_)


def test_sources_changed_since_fit(cli):
    """Sources that give another number of score columns at predict than at
    fit (a classifier refitted on three classes, a callable changed) are
    refused by a message saying so in the user's terms, the sources and
    their columns by name: it said "H has 3 columns, the model was trained
    with 1", H being nothing the user had given."""
    X, y = _data()
    lr = LogisticRegression().fit(X, X[:, 0] > 0)
    clf = TransferClassifier(sources=greedytl.Sources([lr]), random_state=0).fit(X, y)
    lr.fit(X, np.digitize(X[:, 0], [-0.5, 0.5]))
    with pytest.raises(ValueError, match=r"^the sources give 3 score columns on X, but the model was fitted on 1 "
                       r"\(0:LogisticRegression\): have the sources changed since fit\?"):
        clf.predict(X)
    width = [3]
    clf = TransferClassifier(sources=lambda A: A[:, :width[0]], random_state=0).fit(X, y)
    width[0] = 2
    with pytest.raises(ValueError, match=r"^the sources give 2 score columns on X, but the model was fitted on 3 "
                       r"\(0, 1, 2\)"):
        clf.decision_function(X)


def test_source_without_scores_is_refused(cli):
    """A classifier with neither decision_function nor predict_proba is
    refused by a message naming both."""
    from sklearn.base import BaseEstimator, ClassifierMixin

    class PredictOnly(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.unique(y)
            return self

        def predict(self, X):
            return self.classes_[(np.asarray(X)[:, 0] > 0).astype(int)]

    X, y = _data()
    with pytest.raises(TypeError, match=r"sources\[1\] \(PredictOnly\) has neither decision_function nor "
                       r"predict_proba"):
        TransferClassifier(sources=greedytl.Sources([LogisticRegression().fit(X, y), PredictOnly().fit(X, y)])).fit(X, y)


def test_source_error_names_the_source(cli, zoo):
    """A source classifier that cannot score X (fitted on another number of
    columns) fails the fit with a ValueError naming which of the sources it
    is: scikit-learn's own message ("X has 5 features, but
    LogisticRegression is expecting 8") named neither the source nor that
    it was a source, not the TransferClassifier, that refused X."""
    X, y = _data(d=5)
    with pytest.raises(ValueError, match=r"sources\[0\] \(LogisticRegression\).*X has 5 features") as e:
        TransferClassifier(sources=greedytl.Sources(zoo)).fit(X, y)
    assert "expecting 8 features" in str(e.value.__cause__)


def test_sources_errors_name_the_source_and_input(cli):
    """Scores a sources callable gives that greedytl cannot take (not
    numbers, not one row per row, no column) are refused naming the
    callable and the input it scored (X at fit and predict, X_unlabelled),
    as a non-finite score is; a source classifier that cannot score
    X_unlabelled names it (they said "could not convert string to float:
    'a'", "the sources' scores have shape (3, 2)" and "cannot score X" of
    any input); so are a classifier's TypeError, a callable's own errors and
    complex scores."""
    X, y = _data()
    n = 15  # training rows; X_unlabelled and predict's X, the other m
    m = X.shape[0] - n
    cases = [
        (lambda A: np.array([["a"]] * len(A)),
         "the sources callable gives scores of {name} that are not numbers: could not convert string to float: 'a'"),
        (lambda A: np.asarray(A)[:3, :2],
         "the sources callable's scores of {name} have shape (3, 2), want ({m}, n_sources): one row per row of {name}"),
        (lambda A: np.zeros((len(A), 0)), "the sources callable's scores of {name} have no column"),
    ]
    two = lambda A: np.asarray(A)[:, :2]  # noqa: E731
    for fn, want in cases:
        with pytest.raises(ValueError) as e:
            TransferClassifier(sources=fn, random_state=0).fit(X[:n], y[:n])
        assert str(e.value) == want.format(name="X", m=n)
        fitted = TransferClassifier(sources=two, random_state=0).fit(X[:n], y[:n])
        fitted.sources_ = fn
        with pytest.raises(ValueError) as e:
            fitted.predict(X[n:])
        assert str(e.value) == want.format(name="X", m=m)
        on_unlabelled = lambda A, fn=fn: fn(A) if len(A) == m else two(A)  # noqa: E731
        with pytest.raises(ValueError) as e:
            TransferClassifier(method="dam", sources=on_unlabelled, random_state=0).fit(
                X[:n], y[:n], X_unlabelled=X[n:])
        assert str(e.value) == want.format(name="X_unlabelled", m=m)

    class TrainingRowsOnly(LogisticRegression):
        def decision_function(self, A):
            if len(A) != n:
                raise ValueError("scores the training rows only")
            return super().decision_function(A)

    src = greedytl.Sources([TrainingRowsOnly().fit(X[:n], y[:n])])
    want = r"^sources\[0\] \(TrainingRowsOnly\) cannot score X_unlabelled: scores the training rows only$"
    with pytest.raises(ValueError, match=want):
        TransferClassifier(method="dam", sources=src, random_state=0).fit(X[:n], y[:n], X_unlabelled=X[n:])

    # Scores of a classifier of neither one nor two dimensions name it and
    # the input, as a callable's wrong shape does (they said
    # "sources[0].decision_function returned shape (15, 1, 1)").
    class Cube(LogisticRegression):
        def decision_function(self, A):  # (rows, 1, 1) of the inputs of cube_rows rows
            s = super().decision_function(A)
            return s[:, None, None] if len(A) == self.cube_rows else s

    for kw, name, rows in (({}, "X", n), (dict(X_unlabelled=X[n:]), "X_unlabelled", m)):
        cube = Cube().fit(X[:n], y[:n])
        cube.cube_rows = rows
        with pytest.raises(ValueError) as e:
            TransferClassifier(method="dam" if kw else None, sources=[cube], random_state=0).fit(X[:n], y[:n], **kw)
        assert str(e.value) == "sources[0] (Cube).decision_function gives scores of {} of shape ({}, 1, 1), want " \
            "(n_samples,) or (n_samples, n_columns)".format(name, rows)

    # A classifier's TypeError (GaussianNB given sparse X) and a callable's
    # own errors are named alike, of their kind and chained (they came
    # through bare); complex scores are refused (NumPy kept their real part,
    # with a ComplexWarning).
    from scipy import sparse
    from sklearn.naive_bayes import GaussianNB
    nb = greedytl.Sources([GaussianNB().fit(X[:n], y[:n])])
    for Xfit, kw, name in ((sparse.csr_matrix(X[:n]), {}, "X"),
                           (X[:n], dict(X_unlabelled=sparse.csr_matrix(X[n:])), "X_unlabelled")):
        with pytest.raises(TypeError, match=r"^sources\[0\] \(GaussianNB\) cannot score {}: A sparse matrix was "
                                            r"passed, but dense data is required".format(name)) as e:
            TransferClassifier(method="dam" if kw else None, sources=nb, random_state=0).fit(Xfit, y[:n], **kw)
        assert type(e.value.__cause__) is TypeError

    for kind in (ValueError, TypeError):
        def picky(A, kind=kind):
            if len(A) != n:
                raise kind("scores the training rows only")
            return two(A)
        with pytest.raises(kind) as e:
            TransferClassifier(method="dam", sources=picky, random_state=0).fit(X[:n], y[:n], X_unlabelled=X[n:])
        assert str(e.value) == "the sources callable cannot score X_unlabelled: scores the training rows only"
        assert type(e.value.__cause__) is kind

    class Complex(LogisticRegression):
        def decision_function(self, A):
            return super().decision_function(A) * 1j

    for sources, giver in ((lambda A: two(A) * 1j, "the sources callable"),
                           ([Complex().fit(X[:n], y[:n])], "sources[0] (Complex).decision_function")):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(ValueError) as e:
                TransferClassifier(sources=sources, random_state=0).fit(X[:n], y[:n])
        assert str(e.value) == giver + " gives complex scores of X (complex128): source scores must be real numbers"


def test_standardiser_pickled_before_its_divisor():
    """A Standardiser pickled before it kept _constant and _divisor (py10:
    an estimator pickled by an older package, whose l1-logistic or
    nearest-mean model then failed to predict with AttributeError) is
    unpickled with them made again: it transforms as one made now, bit for
    bit, a constant column's values 0 too."""
    from greedytl._model import Standardiser

    s = Standardiser({"mean": [0.5, -2.0, 3.0], "scale": [1.5, 0.0, 0.3]}, "x")
    old = pickle.loads(pickle.dumps(s))
    del old._constant, old._divisor  # the state an older package pickled
    again = pickle.loads(pickle.dumps(old))
    A = np.random.default_rng(0).normal(size=(5, 3)) * 1e3
    want = s.transform(A)
    assert np.array_equal(again.transform(A), want) and np.array_equal(again.transform(A[:, 1:], 1, 3), want[:, 1:])
    assert (want[:, 1] == 0).all()


def test_unpickled_in_fresh_process(cli, synth, tmp_path):
    """A fitted estimator unpickled in another Python process predicts as
    the original without the greedytl command (not on PATH, GREEDYTL_BIN
    unset), its sources directory (moved away) or the fit's files."""
    import shutil
    Xs, labels = synth["X"], synth["labels"]
    ys = labels[:60] == labels[0]
    src = tmp_path / "sources"
    shutil.copytree(synth["sources"], src)
    clf = TransferClassifier(sources=str(src), random_state=0).fit(Xs[:60], ys)
    (tmp_path / "clf.pkl").write_bytes(pickle.dumps(clf))
    np.save(tmp_path / "X.npy", Xs)
    shutil.rmtree(src)
    _without_greedytl(tmp_path, "import pickle, numpy as np; c = pickle.load(open('clf.pkl', 'rb')); "
                      "np.save('D.npy', c.decision_function(np.load('X.npy')))")
    np.testing.assert_array_equal(np.load(tmp_path / "D.npy"), clf.decision_function(Xs))


def _without_greedytl(cwd, code):
    """Run Python code in another process, in cwd, where the greedytl
    command is neither on PATH nor in GREEDYTL_BIN; fail with its standard
    error if it fails."""
    env = {k: v for k, v in os.environ.items() if k != "GREEDYTL_BIN"}
    env.update(PATH=os.path.dirname(sys.executable), PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_unpickled_multiclass_in_fresh_process(multiclass_cli, zoo, tmp_path):
    """A 3-class estimator on string labels with classifier sources,
    unpickled in another Python process without the greedytl command,
    predicts the labels of the original, of the same dtype, and the same
    decision values, columns in the order of classes_."""
    rng = np.random.default_rng(9)
    k = np.arange(45) % 3
    X = 2 * rng.normal(size=(3, 8))[k] + rng.normal(size=(45, 8))
    y = np.array(["emu", "cat", "dog"])[k]
    clf = TransferClassifier(sources=greedytl.Sources(zoo), random_state=0).fit(X[:30], y[:30])
    (tmp_path / "clf.pkl").write_bytes(pickle.dumps(clf))
    np.save(tmp_path / "X.npy", X)
    _without_greedytl(tmp_path, "import pickle, numpy as np; c = pickle.load(open('clf.pkl', 'rb')); "
                      "X = np.load('X.npy'); np.save('P.npy', c.predict(X)); "
                      "np.save('D.npy', c.decision_function(X)); np.save('C.npy', c.classes_)")
    P, D, C = (np.load(tmp_path / n) for n in ("P.npy", "D.npy", "C.npy"))
    assert C.dtype == clf.classes_.dtype and list(C) == ["cat", "dog", "emu"]
    assert P.dtype == clf.predict(X).dtype and list(P) == list(clf.predict(X))
    np.testing.assert_array_equal(D, clf.decision_function(X))
    assert D.shape == (45, 3) and list(P) == list(C[D.argmax(axis=1)])


def _sparse_data(seed=0, m=40, d=30):
    """X with most values 0 (a TF-IDF matrix's shape), labels, and X as CSR."""
    from scipy import sparse
    X, y = _data(seed, m, d)
    X[np.random.default_rng(seed).uniform(size=X.shape) < 0.7] = 0
    return X, y, sparse.csr_matrix(X)


def _same_model(a, b):
    ma, mb = (dict(c.model_) for c in (a, b))
    ma.pop("build", None)
    mb.pop("build", None)
    assert ma == mb


def test_sparse_X(cli, synth):
    """A SciPy sparse X (CSR, CSC, COO, a sparse array, a pandas DataFrame of
    sparse columns) fits and predicts as its dense form: the same model and
    the same decision values; the sources are given it sparse (CSR, or the
    sparse DataFrame), as scikit-learn's meta-estimators give their
    estimators sparse data, so a source fitted on sparse data (a TF-IDF
    classifier) scores it as it was fitted; X_unlabelled and X_oracle may be
    sparse too.  It was refused ("dense data is required")."""
    from scipy import sparse
    pd = pytest.importorskip("pandas")
    X, y, S = _sparse_data()
    w = np.random.default_rng(1).normal(size=(X.shape[1], 2))
    seen = []

    def H(A):
        seen.append(type(A).__name__ + (":sparse" if hasattr(A, "sparse") else ""))
        # C order, as the dense X's rows: a product's rounding depends on
        # the layout (a DataFrame's to_numpy is in Fortran order), which
        # would make the sparse DataFrame's scores, not the package's
        # handling, differ from the dense X's in the last bits.
        return np.ascontiguousarray(A.toarray() if sparse.issparse(A) else A.sparse.to_dense().to_numpy()
                                    if hasattr(A, "sparse") else np.asarray(A)) @ w

    dense = TransferClassifier(method="dam", sources=H, random_state=0).fit(X[:20], y[:20], X_unlabelled=X[20:])
    D, pred = dense.decision_function(X), list(dense.predict(X))
    assert seen == ["ndarray"] * 4
    cols = ["w{}".format(j) for j in range(X.shape[1])]
    for form, want in ((S, "csr_matrix"), (S.tocsc(), "csr_matrix"), (S.tocoo(), "csr_matrix"),
                       (sparse.csr_array(S), "csr_array"),
                       (pd.DataFrame.sparse.from_spmatrix(S, columns=cols), "DataFrame:sparse")):
        seen.clear()
        rows = ((lambda a, b: form.iloc[a:b]) if hasattr(form, "iloc")
                else (lambda a, b: form.tocsr()[a:b].asformat(form.format)))
        c = TransferClassifier(method="dam", sources=H, random_state=0).fit(rows(0, 20), y[:20],
                                                                          X_unlabelled=rows(20, 40))
        _same_model(c, dense)
        np.testing.assert_array_equal(c.decision_function(form), D)
        assert list(c.predict(form)) == pred
        assert seen == [want] * 4, seen
    # A source fitted on sparse data is given sparse data; its scores are
    # those of the dense rows to rounding.
    lr = LogisticRegression().fit(sparse.csr_matrix(np.vstack([X, -X])), np.r_[X[:, 0] > 0, X[:, 0] <= 0])
    a = TransferClassifier(method="best-source", sources=greedytl.Sources([lr])).fit(
        S[:20], y[:20], X_oracle=S[20:], y_oracle=y[20:])
    b = TransferClassifier(method="best-source", sources=greedytl.Sources([lr])).fit(
        X[:20], y[:20], X_oracle=X[20:], y_oracle=y[20:])
    np.testing.assert_allclose(a.decision_function(S), b.decision_function(X), rtol=1e-12, atol=1e-12)
    # A sources directory scores sparse rows (its scores given as a matrix
    # without the features).
    Xs, labels = synth["X"], synth["labels"]
    ys = labels[:60] == labels[0]
    Xs = np.where(np.abs(Xs) < np.median(np.abs(Xs)), 0, Xs)
    a = TransferClassifier(sources=synth["sources"], use_features=False, random_state=0).fit(
        sparse.csr_matrix(Xs[:60]), ys)
    b = TransferClassifier(sources=synth["sources"], use_features=False, random_state=0).fit(Xs[:60], ys)
    np.testing.assert_allclose(a.decision_function(sparse.csr_matrix(Xs)), b.decision_function(Xs),
                               rtol=1e-9, atol=1e-9)


def test_callable_source_sparse_scores(cli):
    """A callable source handed sparse X may return its scores sparse (a
    column slice of X, a product with a sparse matrix: SciPy keeps them
    sparse): they are the dense scores, as a classifier's decision_function
    on sparse X is dense; the fit and the decision values are those of the
    same callable on the dense X.  np.asarray made them an object array
    ("setting an array element with a sequence")."""
    from scipy import sparse
    X, y, S = _sparse_data()
    for form in (S, sparse.csr_array(S)):
        sliced = TransferClassifier(sources=lambda A: A[:, :2] * 2.0, random_state=0).fit(form[:20], y[:20])
        dense = TransferClassifier(sources=lambda A: A[:, :2] * 2.0, random_state=0).fit(X[:20], y[:20])
        _same_model(sliced, dense)
        np.testing.assert_array_equal(sliced.decision_function(form), dense.decision_function(X))


def test_sparse_X_dense_size(cli):
    """fit refuses a sparse X whose dense form (which greedytl reads) is
    larger than max_dense_mb, saying how large and what to do, before any
    command runs; at the limit it fits, and without the features nothing is
    densified.  predict densifies blocks of rows of at most max_dense_mb
    (the decision values of one block)."""
    X, y, S = _sparse_data()
    need = 40 * 30 * 8 / 2 ** 20  # MiB
    with pytest.raises(ValueError, match=r"X is a sparse matrix of shape \(40, 30\), whose dense form, which "
                       r"greedytl fit reads, takes 40 × 30 × 8 bytes = 9\.4 KiB, more than max_dense_mb=.* MiB: "
                       r"raise max_dense_mb"):
        TransferClassifier(max_dense_mb=need * 0.99, greedytl_bin="/nonexistent/greedytl").fit(S, y)
    with pytest.raises(ValueError, match=r"X_unlabelled is a sparse matrix of shape \(80, 30\)"):
        TransferClassifier(method="dam", max_dense_mb=need * 1.5).fit(S, y, X_unlabelled=sparse_vstack(S, S))
    at_limit = TransferClassifier(random_state=0, max_dense_mb=need).fit(S, y)
    dense = TransferClassifier(random_state=0).fit(X, y)
    _same_model(at_limit, dense)
    TransferClassifier(sources=lambda A: A[:, :3].toarray(), use_features=False, max_dense_mb=need / 100).fit(S, y)
    # Blocks of 3 rows: 13 of them and one of 1 row.
    clf = TransferClassifier(random_state=0).fit(S, y)
    whole = clf.decision_function(X)
    clf.set_params(max_dense_mb=3 * 30 * 8 / 2 ** 20)
    calls = []
    scores = clf._scorer._finite_scores
    clf._scorer._finite_scores = lambda A, H, rows: calls.append(A.shape[0]) or scores(A, H, rows)
    np.testing.assert_allclose(clf.decision_function(S), whole, rtol=1e-12, atol=1e-12)
    assert calls == [3] * 13 + [1]
    assert list(clf.predict(S)) == list(np.array(clf.classes_)[(whole > 0).astype(int)])


def test_dense_size_rule_has_one_owner(cli, monkeypatch):
    """fit's refusal of a sparse X and predict's blocks of rows follow one
    rule, _dense_rows (the most rows whose dense form max_dense_mb holds):
    with that rule replaced, both follow the replacement (predict re-derived
    the rule for itself).  With the real rule, predict's blocks are the
    largest sparse X fit accepts: one more row is refused."""
    X, y, S = _sparse_data(m=13)
    clf = TransferClassifier(random_state=0).fit(S, y)
    calls = []
    scores = clf._scorer._finite_scores
    clf._scorer._finite_scores = lambda A, H, rows: calls.append(A.shape[0]) or scores(A, H, rows)
    for mb in (30 * 8 / 2 ** 20, 2.5 * 30 * 8 / 2 ** 20, 4 * 30 * 8 / 2 ** 20, 0.5 * 30 * 8 / 2 ** 20):
        calls.clear()
        clf.set_params(max_dense_mb=mb).decision_function(S)
        r = calls[0]
        assert calls == [r] * (13 // r) + ([13 % r] if 13 % r else []), (mb, calls)
        probe = TransferClassifier(max_dense_mb=mb)
        if mb >= 30 * 8 / 2 ** 20:
            probe._check_dense(S[:r], "X")
        with pytest.raises(ValueError, match="more than max_dense_mb"):
            probe._check_dense(S[:r + 1], "X")
    monkeypatch.setattr(TransferClassifier, "_dense_rows", lambda self, d: 5)
    calls.clear()
    clf.set_params(max_dense_mb=float("inf")).decision_function(S)
    assert calls == [5, 5, 3]
    TransferClassifier()._check_dense(S[:5], "X")
    with pytest.raises(ValueError, match="more than max_dense_mb"):
        TransferClassifier(max_dense_mb=float("inf"), greedytl_bin="/nonexistent/greedytl").fit(S[:6], y[:6])


def test_predict_validates_once(cli, zoo, synth, monkeypatch):
    """predict and decision_function validate X once, as scikit-learn's
    estimators do (validate_data: float64, finite, fit's columns), and the
    sources' scores once, and give them to the model's scorer as they are:
    Scorer._inputs, the scorer's own check of its inputs (a pass over X
    for non-finite values), is not run again, and the decision values are
    the scorer's public scores of the same inputs, for every form of the
    inputs (features and sources, sources only, a sources directory,
    sparse X).  Every predict checked X twice."""
    from scipy import sparse
    X, y = _data()
    Xs, ys = synth["X"][:60], synth["labels"][:60] == synth["labels"][0]
    H = _zoo_scores(zoo, X)
    cases = [(TransferClassifier(sources=greedytl.Sources(zoo), random_state=0), X, y, X, H),
             (TransferClassifier(sources=greedytl.Sources(zoo), use_features=False, random_state=0), X, y, None, H),
             (TransferClassifier(random_state=0), sparse.csr_matrix(X), y, X, None),
             (TransferClassifier(sources=synth["sources"], random_state=0), Xs, ys, Xs,
              greedytl._sources.SourcesDir(synth["sources"]).scores(Xs))]
    inputs = greedytl._model.Scorer._inputs
    calls = []

    def counted(self, *a):
        calls.append(self)
        return inputs(self, *a)
    for clf, A, labels, Xm, Hm in cases:
        clf.fit(A, labels)
        monkeypatch.setattr(greedytl._model.Scorer, "_inputs", counted)
        D = clf.decision_function(A)
        assert list(clf.predict(A)) == list(clf.classes_[(D > 0).astype(int)])
        assert calls == [], clf
        monkeypatch.undo()
        np.testing.assert_array_equal(D, clf._scorer.scores(Xm, Hm))


def test_model_of_other_columns_refused_at_fit(cli, monkeypatch):
    """A model file whose column counts are not those of the inputs the
    fit gave greedytl (a greedytl that wrote another model) is refused by
    fit, saying so, rather than fitted and given inputs predict does not
    check again (test_predict_validates_once).  fit took it."""
    X, y = _data()
    run_cli = greedytl._cli.run_cli

    def narrower(args, *a, **kw):
        p = args[args.index("--features") + 1]
        np.save(p, np.load(p)[:, :-1])
        return run_cli(args, *a, **kw)
    monkeypatch.setattr(greedytl._cli, "run_cli", narrower)
    with pytest.raises(RuntimeError, match=r"^greedytl wrote a model of 7 features and 0 sources for 8 feature "
                       r"columns and 0 source score columns$"):
        TransferClassifier(random_state=0).fit(X, y)
    monkeypatch.undo()
    TransferClassifier(random_state=0).fit(X, y).predict(X)


def sparse_vstack(*blocks):
    from scipy import sparse
    return sparse.vstack(blocks, format="csr")


def test_use_features_false(cli, zoo, synth):
    """Sources only: no feature is selected; with a directory the scores are
    passed as a matrix."""
    X, y = _data()
    clf = TransferClassifier(sources=greedytl.Sources(zoo), use_features=False, random_state=0).fit(X[:20], y[:20])
    assert all(s["kind"] == "source" for s in clf.selected_)
    assert clf.predict(X).shape == (40,)
    Xs, labels = synth["X"], synth["labels"]
    ys = labels[:60] == labels[0]
    c = TransferClassifier(sources=synth["sources"], use_features=False, random_state=0).fit(Xs[:60], ys)
    assert c.n_sources_ == len(greedytl.SourcesDir(synth["sources"])) and c.predict(Xs).shape == (len(Xs),)
    with pytest.raises(ValueError, match="use_features=False needs sources"):
        TransferClassifier(use_features=False).fit(X, y)


def test_predict_follows_the_fitted_model_not_later_params(cli, zoo):
    """predict and decision_function depend on what was fitted: use_features
    changed by set_params after fit (say while trying settings before the
    next fit) leaves them as they were, as a scikit-learn estimator's
    predictions do not move with its parameters until it is refitted. They
    passed X by the current parameter, and the model refused it ("the model
    was fitted on 8 columns of X, which is not given", "X has 8 columns, the
    model was trained with 0")."""
    X, y = _data()
    for fitted in (True, False):
        clf = TransferClassifier(sources=greedytl.Sources(zoo), use_features=fitted, random_state=0).fit(X[:20], y[:20])
        want, pred = clf.decision_function(X[20:]), clf.predict(X[20:])
        clf.set_params(use_features=not fitted)
        np.testing.assert_array_equal(clf.decision_function(X[20:]), want)
        np.testing.assert_array_equal(clf.predict(X[20:]), pred)


def test_params_pickle_determinism(cli, zoo):
    """get_params/set_params, clone, pickling, the same model under the same
    random_state (the seed of greedytl's random choices)."""
    X, y = _data()
    clf = TransferClassifier(method="greedytl:sample=3", random_state=7)
    assert clf.get_params()["method"] == "greedytl:sample=3"
    assert clf.set_params(random_state=8) is clf and clf.random_state == 8
    a = clf.fit(X[:20], y[:20])
    b = clone(clf).fit(X[:20], y[:20])
    for m in (a, b):
        m.model_.pop("build", None)
    assert a.model_ == b.model_
    p = pickle.loads(pickle.dumps(a))
    np.testing.assert_array_equal(p.decision_function(X), a.decision_function(X))
    # The seed reaches greedytl: some seed gives another random search.
    models = {json.dumps(clone(clf).set_params(random_state=s).fit(X[:20], y[:20]).model_["columns"])
              for s in range(6)}
    assert len(models) > 1


def test_random_state_bool_is_its_int(cli):
    """random_state=True is seed 1 and False seed 0, as in scikit-learn,
    whose parameter validation takes a bool as an int (1.2:
    Interval(Integral, ...); LogisticRegression and SGDClassifier accept
    True) and whose check_random_state(True) is RandomState(1).  True passed
    the validation as an int but was then drawn through check_random_state,
    giving another seed."""
    from sklearn.linear_model import SGDClassifier
    from sklearn.utils import check_random_state
    X, y = _data()
    want = SGDClassifier(random_state=1).fit(X, y).coef_
    np.testing.assert_array_equal(SGDClassifier(random_state=True).fit(X, y).coef_, want)
    assert check_random_state(True).randint(2 ** 31 - 1) == check_random_state(1).randint(2 ** 31 - 1)
    for rs, seed in ((True, 1), (False, 0)):
        a = TransferClassifier(method="greedytl:sample=3", random_state=rs).fit(X[:20], y[:20])
        b = TransferClassifier(method="greedytl:sample=3", random_state=seed).fit(X[:20], y[:20])
        assert a.model_["options"]["seed"] == seed
        np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def test_constant_inputs_refused_saying_what_to_do(cli, zoo):
    """An X whose rows are all alike (every column one value) is one that
    scikit-learn's LogisticRegression fits, to the class prior alone;
    greedytl fit refuses it (cmd/greedytl/fit.go: no method can tell the
    classes apart), as it refuses sources' scores that are all alike with
    use_features=False. The refusal is a ValueError that says so and says
    what a scikit-learn user can do instead; the message said neither what
    to do nor that the prior is all such data holds. The estimator stays
    unfitted."""
    X = np.ones((10, 3))
    y = np.array(["a"] * 6 + ["b"] * 4)
    assert (LogisticRegression().fit(X, y).predict(X) == "a").all()  # the prior, which greedytl does not fit
    Xv, _ = _data(m=10, d=3)
    for est, A in ((TransferClassifier(), X), (TransferClassifier(method="l1-logistic"), X),
                   (TransferClassifier(sources=greedytl.Sources(zoo[:1])), np.ones((10, 8))),
                   (TransferClassifier(sources=greedytl.Sources([_Constant()]), use_features=False), Xv)):
        with pytest.raises(ValueError) as e:
            est.fit(A, y)
        msg = str(e.value)
        assert "holds one value on all 10 training examples: no method can tell the classes apart" in msg, msg
        assert "the class prior" in msg and "sklearn.dummy.DummyClassifier(strategy='prior')" in msg, msg
        with pytest.raises(NotFittedError):
            est.predict(A)


class _Constant:
    """A source whose score is 1 on every example."""

    def decision_function(self, X):
        return np.ones(X.shape[0])


def test_errors(cli, tmp_path):
    """Exit status 2 is a ValueError with greedytl's message; unfitted use is
    NotFittedError; one class is an error naming the class."""
    X, y = _data()
    with pytest.raises(ValueError, match="no-such-method"):
        TransferClassifier(method="no-such-method").fit(X, y)
    with pytest.raises(ValueError, match="lambda"):
        TransferClassifier(method="greedytl:lambda=-1").fit(X, y)
    with pytest.raises(NotFittedError):
        TransferClassifier().predict(X)
    # A first fit that failed (after X was validated, which sets
    # n_features_in_) leaves an estimator that is not fitted, as before it:
    # predict said AttributeError 'sources_'.
    failed = TransferClassifier(method="no-such-method")
    with pytest.raises(ValueError, match="no-such-method"):
        failed.fit(X, y)
    assert failed.n_features_in_ == X.shape[1]
    for call in (failed.predict, failed.decision_function, lambda A: failed.score(A, y)):
        with pytest.raises(NotFittedError, match="This TransferClassifier instance is not fitted yet"):
            call(X)
    with pytest.raises(ValueError, match="class"):
        TransferClassifier().fit(X, np.zeros(len(X)))
    # A non-finite label is refused by name (y by scikit-learn's check; the
    # held-out y_oracle said only that it was not one of y's classes), the
    # held-out y_oracle with scikit-learn's message for y, naming it,
    # whatever the configuration (assume_finite skips scikit-learn's check).
    yf = np.where(y == "yes", 1.0, -1.0)
    for bad, word in ((np.nan, "NaN"), (np.inf, "infinity"), (-np.inf, "infinity")):
        ybad = np.concatenate([yf[:-1], [bad]])
        with pytest.raises(ValueError, match="Input y contains " + word):
            TransferClassifier().fit(X, ybad)
        with pytest.raises(ValueError) as want:
            LogisticRegression().fit(X, ybad)
        for finite in (False, True):
            with sklearn.config_context(assume_finite=finite):
                with pytest.raises(ValueError) as got:
                    TransferClassifier(method="best-source").fit(X[:20], yf[:20], X_oracle=X[20:],
                                                                  y_oracle=ybad[20:])
            assert str(got.value) == str(want.value).replace("Input y ", "Input y_oracle ", 1), finite
    clf = TransferClassifier(random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        clf.predict(X[:, :3])
    # A refit that fails leaves the estimator unfitted too, not the earlier
    # fit's model beside n_features_in_ of the new X (it reported itself
    # fitted and refused X of either width).
    clf.set_params(method="no-such-method")
    with pytest.raises(ValueError, match="no-such-method"):
        clf.fit(X[:, :3], y)
    assert clf.n_features_in_ == 3 and not hasattr(clf, "classes_") and not hasattr(clf, "model_")
    for A in (X, X[:, :3]):
        with pytest.raises(NotFittedError, match="This TransferClassifier instance is not fitted yet"):
            clf.predict(A)


def test_cli_messages_name_the_inputs(cli):
    """greedytl's refusals name its input files, which for a fit from
    Python are the .npy files of the fit's private directory, removed when
    it fails: the message names instead what the user gave (X, the sources'
    scores on X, X_unlabelled, ...), as greedytl names the standard input
    <stdin>.  It said "every column of X = /tmp/greedytl-fit-.../train-X.npy
    holds one value"."""
    X, y = _data()
    flat = np.ones((20, 3))
    with pytest.raises(ValueError, match=r"every column of X = <X given to fit> holds one value on all 20 training") as e:
        TransferClassifier().fit(flat, y[:20])
    assert "greedytl-fit-" not in str(e.value) and ".npy" not in str(e.value)
    with pytest.raises(ValueError, match=r"every column of X = <X given to fit>, H = <the sources' scores on X> "
                       r"holds one value"):
        TransferClassifier(sources=lambda A: A[:, :2]).fit(flat, y[:20])
    with pytest.raises(ValueError, match=r"dam is transductive") as e:
        TransferClassifier(method="dam").fit(X[:20], y[:20])
    assert isinstance(e.value, greedytl.CLIInputError) and e.value.returncode == 2


def test_cli_messages_name_fits_arguments(cli, zoo):
    """A transductive or oracle method fitted without its inputs:
    greedytl's message names them by its
    flags (--unlabelled-features, --oracle-labels, ...), which a Python user
    does not give, so fit's message says which of its arguments they are.
    It named the flags alone."""
    X, y = _data()
    S = greedytl.Sources(zoo)
    unlabelled = r"\(greedytl's --unlabelled-\* inputs are fit's X_unlabelled\)$"
    oracle = r"\(greedytl's --oracle-\* inputs are fit's X_oracle and y_oracle\)$"
    for est, kw, want in (
            (TransferClassifier(method="dam", sources=S), {}, r"dam is transductive: .*" + unlabelled),
            (TransferClassifier(method="dam", sources=S, use_features=False), {}, unlabelled),
            (TransferClassifier(method="best-source", sources=S), {}, r"best-source is an oracle: .*" + oracle)):
        with pytest.raises(ValueError, match=want) as e:
            est.fit(X[:20], y[:20], **kw)
        assert isinstance(e.value, greedytl.CLIInputError)


@pytest.mark.parametrize("param,value,want", [
    ("use_features", "no", "an instance of 'bool'"),
    ("use_features", "False", "an instance of 'bool'"),
    ("use_features", 0, "an instance of 'bool'"),
    ("use_features", None, "an instance of 'bool'"),
    ("method", 3, "None or a method name or spec"),
    ("method", "", "None or a method name or spec"),
    ("random_state", -1, r"an int in the range \[0, 2\*\*64 - 1\]"),
    ("random_state", 2 ** 64, r"an int in the range \[0, 2\*\*64 - 1\]"),
    ("random_state", 1.0, "an int in the range"),
    ("random_state", "3", "an int in the range"),
    ("random_state", np.bool_(True), "an int in the range"),  # not Integral: scikit-learn refuses it too
    ("greedytl_bin", 3, "None or a path"),
    ("greedytl_bin", b"/usr/bin/greedytl", "None or a path"),
    ("max_dense_mb", 0, r"a float in the range \(0, inf\]"),
    ("max_dense_mb", -1.0, r"a float in the range \(0, inf\]"),
    ("max_dense_mb", float("nan"), r"a float in the range \(0, inf\]"),
    ("max_dense_mb", "1024", r"a float in the range \(0, inf\]"),
    ("max_dense_mb", True, r"a float in the range \(0, inf\]"),
    ("verbose", -1, r"an int in the range \[0, inf\) or a bool"),
    ("verbose", 1.0, r"an int in the range \[0, inf\) or a bool"),
    ("verbose", "1", r"an int in the range \[0, inf\) or a bool"),
    ("verbose", None, r"an int in the range \[0, inf\) or a bool"),
])
def test_invalid_parameter(param, value, want):
    """A parameter of the wrong type or out of range is refused at fit, as
    scikit-learn's estimators refuse theirs: a ValueError (scikit-learn's
    InvalidParameterError, also a TypeError) naming the parameter, what it
    must be and the value, before any command runs; use_features="no" was
    taken as true and fitted the features."""
    X, y = _data()
    clf = TransferClassifier(**{param: value})
    with pytest.raises(ValueError, match="The '{}' parameter of TransferClassifier must be {}.* Got {} instead".format(
            param, want, re.escape(repr(value)))) as e:
        clf.fit(X, y)
    assert isinstance(e.value, TypeError)
    assert not hasattr(clf, "classes_")


def test_valid_parameters_of_every_kind(cli):
    """What the parameters take: numpy's bool and integers, a RandomState, a
    seed up to 2**64 - 1 (greedytl fit --seed takes 64 bits), a path object
    for the command."""
    import pathlib
    X, y = _data()
    a = TransferClassifier(method="greedytl", use_features=np.bool_(True), random_state=np.uint64(2 ** 64 - 1),
                           greedytl_bin=pathlib.Path(cli["path"])).fit(X, y)
    b = TransferClassifier(method="greedytl", random_state=2 ** 64 - 1).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    TransferClassifier(random_state=np.random.RandomState(0)).fit(X, y)
    for mb in (np.float32(1), 2, float("inf")):
        TransferClassifier(max_dense_mb=mb).fit(X, y)
    for v in (True, np.bool_(False), np.int64(2), 0):
        TransferClassifier(verbose=v).fit(X, y)


def _progress_wrapper(tmp_path, cli, before_fit):
    """A greedytl command (a shell script) that runs cli's, recording the
    arguments of each fit in tmp_path/"args" and running before_fit (shell
    text, "$@" the arguments) before it."""
    w = tmp_path / "greedytl-wrapper"
    w.write_text(textwrap.dedent("""\
        #!/bin/sh
        if [ "$1" = fit ]; then
            printf '%s\\n' "$*" >> {args}
            {before_fit}
        fi
        exec {real} "$@"
        """).format(args=shlex.quote(str(tmp_path / "args")), real=shlex.quote(cli["path"]), before_fit=before_fit))
    w.chmod(0o755)
    return str(w)


@pytest.mark.parametrize("line", ["classes: 3 of 10 done (30%), 1m0s",
                                  "fitting greedytl-auto: 6 of 12 done (50%), 1m0s"])
def test_verbose_passes_progress_lines_while_fit_runs(cli, tmp_path, monkeypatch, line):
    """verbose=1 passes greedytl fit's progress lines on to sys.stderr as
    greedytl writes them, while it runs: the wrapper writes one, then waits
    until it has reached sys.stderr (a marker file that the test's stderr
    makes on seeing it) before it fits; run_cli reading standard error at
    the end (communicate) would time the wrapper out. Its other lines of
    standard error (a note naming the private model file) are not passed
    on, and the fit is not given -q. verbose=0 gives greedytl -q and passes
    nothing on. The lines are those of a fit one class against the rest
    and of greedytl-auto's committees (cmd/greedytl's lineProgress, with
    fitProgressWhat's phase)."""
    X, y = _data()
    marker = tmp_path / "seen"
    wrapper = _progress_wrapper(tmp_path, cli, textwrap.dedent("""\
        case " $* " in *" -q "*) ;; *)
            echo '{line}' >&2
            i=0
            while [ ! -e {marker} ]; do
                i=$((i+1)); [ $i -gt 600 ] && {{ echo "greedytl: the progress line never arrived" >&2; exit 3; }}
                sleep 0.05
            done;;
        esac""").format(line=line, marker=shlex.quote(str(marker))).replace("\n", "\n    "))

    class Stderr:
        def __init__(self):
            self.text = ""

        def write(self, s):
            self.text += s
            if line in self.text:
                marker.touch()
            return len(s)

        def flush(self):
            pass

    err = Stderr()
    monkeypatch.setattr(sys, "stderr", err)
    TransferClassifier(method="greedytl", random_state=0, verbose=1, greedytl_bin=wrapper).fit(X, y)
    assert re.fullmatch(r"greedytl fit: fitting 'greedytl' on 40 examples of 2 classes\n{}\n"
                        r"greedytl fit: done \(greedytl\), [0-9.]+s\n".format(re.escape(line)), err.text), err.text
    assert " -q" not in (tmp_path / "args").read_text()

    err.text = ""
    (tmp_path / "args").unlink()
    TransferClassifier(method="greedytl", random_state=0, greedytl_bin=wrapper).fit(X, y)
    assert err.text == ""
    assert (tmp_path / "args").read_text().rstrip("\n").endswith(" -q")


def test_verbose_reports_every_fit(multiclass_cli, tmp_path, monkeypatch):
    """verbose reports the progress of every fit, not only of those that
    greedytl writes progress lines of (one class against the rest,
    greedytl-auto, greedytl-nway: here too short for one): a line when the fit starts, one each HEARTBEAT seconds without
    another line while the command runs (here 0.05 s, which the test makes
    pass: the wrapper fits only once such a line reached sys.stderr), and
    one when it is done, naming the method fitted — for greedytl-auto
    (two classes, the default), greedytl-nway (three) and l1-logistic one
    class against the rest. verbose=0 writes nothing."""
    from greedytl import _cli
    monkeypatch.setattr(_cli, "HEARTBEAT", 0.05)
    marker = tmp_path / "seen"
    wrapper = _progress_wrapper(tmp_path, multiclass_cli, textwrap.dedent("""\
            case " $* " in *" -q "*) ;; *)
                i=0
                while [ ! -e {marker} ]; do
                    i=$((i+1)); [ $i -gt 600 ] && {{ echo "greedytl: no heartbeat arrived" >&2; exit 3; }}
                    sleep 0.05
                done;;
            esac""").format(marker=shlex.quote(str(marker))).replace("\n", "\n    "))

    class Stderr:
        def __init__(self):
            self.text = ""

        def write(self, s):
            self.text += s
            if "greedytl fit: still running, " in s:
                marker.touch()
            return len(s)

        def flush(self):
            pass

    rng = np.random.default_rng(5)
    X = rng.normal(size=(30, 4))
    y3 = np.array(["a", "b", "c"])[np.arange(30) % 3]
    for method, y, fitted in ((None, y3 == "a", "greedytl-auto"), (None, y3, "greedytl-nway"),
                              ("l1-logistic", y3, "l1-logistic")):
        err = Stderr()
        monkeypatch.setattr(sys, "stderr", err)
        if marker.exists():
            marker.unlink()
        TransferClassifier(method=method, random_state=0, verbose=1, greedytl_bin=wrapper).fit(X, y)
        start = "greedytl fit: fitting {} on 30 examples of {} classes".format(
            "the default method" if method is None else repr(method), len(np.unique(y)))
        lines = err.text.splitlines()
        assert lines[0] == start, err.text
        assert re.fullmatch(r"greedytl fit: done \({}\), [0-9.]+s".format(re.escape(fitted)), lines[-1]), err.text
        assert lines[1:-1] and all(re.fullmatch(r"greedytl fit: still running, [0-9.]+s", t) for t in lines[1:-1]), \
            err.text
        err.text = ""
        TransferClassifier(method=method, random_state=0, greedytl_bin=wrapper).fit(X, y)
        assert err.text == ""


def test_verbose_progress_lines_not_in_the_error(cli, tmp_path, capsys):
    """A failed fit's message does not repeat the progress lines verbose
    passed on (they are in the exception's stderr)."""
    X, y = _data()
    line = "classes: 1 of 10 done (10%), 1m0s"
    wrapper = _progress_wrapper(tmp_path, cli, "echo '{}' >&2".format(line))
    with pytest.raises(ValueError) as e:
        TransferClassifier(method="greedytl:lambda=-1", verbose=1, greedytl_bin=wrapper).fit(X, y)
    assert line not in str(e.value) and line in e.value.stderr
    # verbose's line at the start of the fit, then greedytl's; none that
    # says it is done.
    assert capsys.readouterr().err == "greedytl fit: fitting 'greedytl:lambda=-1' on 40 examples of 2 classes\n" + \
        line + "\n"


def test_verbose_echo_that_raises_keeps_the_error(tmp_path, monkeypatch):
    """An echo that raises (echo_stderr with sys.stderr None, as under
    pythonw) stops the echoing, not the reading of standard error: a failed
    fit's message still carries greedytl's own words."""
    fake = _fake(tmp_path, "echo 'classes: 1 of 10 done (10%), 1m0s' >&2; sleep 0.2; "
                           "echo 'greedytl: fit: the real reason' >&2; exit 1")
    monkeypatch.setattr(sys, "stderr", None)
    with pytest.raises(greedytl._cli.CLIError) as e:
        greedytl._cli.run_cli(["fit"], fake, echo=greedytl._cli.echo_stderr)
    monkeypatch.undo()
    assert "fit: the real reason" in str(e.value)


def test_verbose_echo_that_raises_keeps_draining(tmp_path):
    """An echo raising ValueError (or RuntimeError) does not stop the
    reading of standard error: a child writing far more than a pipe holds
    after its progress line runs to its end, and run_cli returns."""
    fake = _fake(tmp_path, "echo 'classes: 1 of 10 done (10%), 1m0s' >&2; "
                           "head -c 200000 /dev/zero | tr '\\0' w | fold -w 100 >&2; echo out")
    for exc in (ValueError, RuntimeError):
        def echo(line):
            raise exc("echo failed")
        got = []
        t = threading.Thread(target=lambda: got.append(greedytl._cli.run_cli(["fit"], fake, echo=echo)), daemon=True)
        t.start()
        t.join(60)
        assert not t.is_alive(), "run_cli hung with an echo raising {}".format(exc.__name__)
        assert got == ["out\n"]


def test_verbose_heartbeat_stops_with_the_echo(tmp_path, monkeypatch):
    """Once echo raises, the heartbeat gives it no more lines and does not
    spin: over a command that runs a second with heartbeats due every 0.05 s,
    echo is called once, and the clock is read a handful of times, not
    the thousands of a heartbeat waiting 0 s in a loop."""
    import types
    monkeypatch.setattr(greedytl._cli, "HEARTBEAT", 0.05)
    reads = []

    def monotonic():
        reads.append(1)
        return time.monotonic()
    monkeypatch.setattr(greedytl._cli, "time", types.SimpleNamespace(monotonic=monotonic))
    fake = _fake(tmp_path, "sleep 1; echo out")
    calls = []

    def echo(line):
        calls.append(line)
        raise ValueError("echo failed")
    assert greedytl._cli.run_cli(["fit"], fake, echo=echo) == "out\n"
    assert len(calls) == 1 and calls[0].startswith("greedytl fit: still running, "), calls
    assert len(reads) < 20, len(reads)


def test_verbose_is_a_parameter(cli):
    """verbose is one of get_params, set by set_params and kept by clone
    (scikit-learn's habit: default 0, quiet)."""
    clf = TransferClassifier()
    assert clf.get_params()["verbose"] == 0
    assert clf.set_params(verbose=2) is clf and clf.get_params()["verbose"] == 2
    assert clone(clf).verbose == 2


def test_fit_warnings(multiclass_cli):
    """The warnings greedytl fit prints reach Python as GreedyTLWarning (a
    UserWarning) raised from the caller's line, one per warning, with the
    CLI's code: one against the rest on noise with two examples a class,
    l1-logistic keeps no column for some classes (their scores tie), which
    greedytl warns of exactly when selected_ shows such a class; a clean fit
    (greedytl-nway's models keep their columns) and greedytl's other lines on
    standard error (the model written) raise no warning at all."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 20))
    y = np.repeat(["a x", "b x", "c x"], 2)  # a blank: given to greedytl as indices
    with pytest.warns(greedytl.GreedyTLWarning, match="keep no column") as rec:
        clf = TransferClassifier(method="l1-logistic", random_state=0).fit(X, y)
    empty = sorted(k for k, cols in clf.selected_.items() if not cols)
    assert empty, "the data no longer give a class without columns: the test needs other data"
    (w,) = rec.list
    assert issubclass(w.category, UserWarning) and w.message.code == "constant-classes"
    assert w.filename == __file__
    # greedytl names the classes by their index into classes_; the warning
    # says which they are.
    idx = [list(clf.classes_).index(k) for k in empty]
    msg = str(w.message)
    assert "the l1-logistic models of {} of the 3 classes ({})".format(
        len(idx), ", ".join('"{}"'.format(i) for i in idx)) in msg
    assert all("classes_[{}] = {!r}".format(i, str(clf.classes_[i])) in msg for i in idx), msg
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = TransferClassifier(method="greedytl-nway", random_state=0).fit(X, y)
    assert all(clf.selected_.values())


def test_fit_warns_not_converged(multiclass_cli):
    """A fit whose solver runs stop before their stopping rule held warns
    once, code "not-converged", as GreedyTLConvergenceWarning — a
    GreedyTLWarning and scikit-learn's ConvergenceWarning — from the
    caller's line, naming the solver and the classes concerned: elastic-net
    one against the rest on nearly degenerate columns (one strong common
    factor; the classes 1e-4 apart along directions of their own, the
    problem of the CLI's test).  A fit that converges does not warn of it."""
    rng = np.random.default_rng(2)
    K, per, p = 3, 3, 6
    m = K * per
    k_of = np.repeat(np.arange(K), per)
    L = np.zeros((m, K))
    L[:, 0] = rng.normal(size=m)
    for k in range(1, K):
        L[:, k] = (k_of == k) * 1e-4 + rng.normal(size=m) * 1e-7
    X = L @ rng.normal(size=(K, p)) + rng.normal(size=(m, p)) * 1e-9
    y = np.array(["a", "b", "c"])[k_of]
    with pytest.warns(greedytl.GreedyTLWarning) as rec:
        clf = TransferClassifier(method="elastic-net", random_state=0).fit(X, y)
    nc = [w for w in rec.list if w.message.code == "not-converged"]
    assert len(nc) == 1, [str(w.message) for w in rec.list]
    (w,) = nc
    assert w.category is greedytl.GreedyTLConvergenceWarning and w.filename == __file__
    from sklearn.exceptions import ConvergenceWarning
    assert isinstance(w.message, ConvergenceWarning) and isinstance(w.message, greedytl.GreedyTLWarning)
    msg = str(w.message)
    assert "ELASTICNET_LR" in msg and "stopped before their stopping rule held" in msg, msg
    assert "classes_[" in msg and "against the rest" in msg, msg
    assert clf.predict(X).shape == (m,)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        TransferClassifier(method="greedytl-nway", random_state=0).fit(X, y)


def test_transductive_and_oracle(cli, zoo):
    """dam takes X_unlabelled, best-source X_oracle and y_oracle."""
    X, y = _data()
    S = greedytl.Sources(zoo)
    c = TransferClassifier(method="dam", sources=S, random_state=0).fit(X[:20], y[:20], X_unlabelled=X[20:])
    assert c.predict(X[20:]).shape == (20,)
    c = TransferClassifier(method="best-source", sources=S).fit(X[:20], y[:20], X_oracle=X[20:], y_oracle=y[20:])
    assert [s["kind"] for s in c.selected_] == ["source"]
    with pytest.raises(ValueError, match="dam"):
        TransferClassifier(method="dam", sources=S).fit(X[:20], y[:20])


def test_search_over_methods_with_extra_samples(cli, zoo, tmp_path):
    """A GridSearchCV over method given X_unlabelled (or X_oracle and
    y_oracle) for every candidate, alone and in greedytl.make_pipeline: a
    method that does not use them ignores them (greedytl fit
    --ignore-unused-extra), so every candidate scores; dam still fits on
    X_unlabelled (its scores are greedytl's with --unlabelled-*, and differ
    with another X_unlabelled), best-source on X_oracle. Every candidate but
    the one that used them failed: greedytl refused them ("--unlabelled-*
    inputs are for transductive methods (dam), not greedytl-auto"), and the
    search scored them nan with a FitFailedWarning."""
    X, y = _data(m=60)
    Xu, yu = _data(seed=5, m=45)  # not 60 rows: each fold is given the whole of it
    S = greedytl.Sources(zoo)
    cv = StratifiedKFold(3)
    for methods, fit_kw in ((["dam", None, "greedytl"], {"X_unlabelled": Xu}),
                            (["best-source", None, "greedytl"], {"X_oracle": Xu[:30], "y_oracle": yu[:30]})):
        gs = GridSearchCV(TransferClassifier(sources=S, random_state=0), {"method": methods}, cv=cv,
                          error_score="raise").fit(X, y, **fit_kw)
        scores = gs.cv_results_["mean_test_score"]
        assert np.all(np.isfinite(scores)), (methods, scores)
        # Each candidate is fitted on each fold as it is alone, the one
        # that uses the samples with them, the others without.
        for i, m in enumerate(methods):
            used = fit_kw if m in ("dam", "best-source") else {}
            alone = cross_val_score(TransferClassifier(method=m, sources=S, random_state=0), X, y, cv=cv,
                                    fit_params=used, error_score="raise")
            np.testing.assert_array_equal([gs.cv_results_["split{}_test_score".format(k)][i] for k in range(3)],
                                          alone, err_msg=str(m))
        pipe = greedytl.make_pipeline(StandardScaler(), TransferClassifier(sources=S, random_state=0))
        piped = {"transferclassifier__" + k: v for k, v in fit_kw.items()}
        gp = GridSearchCV(pipe, {"transferclassifier__method": methods}, cv=cv, error_score="raise").fit(X, y, **piped)
        assert np.all(np.isfinite(gp.cv_results_["mean_test_score"])), (methods, gp.cv_results_["mean_test_score"])
    # dam's decision values are greedytl's, fitted with --unlabelled-*.
    dam = TransferClassifier(method="dam", sources=S, random_state=0).fit(X[:40], y[:40], X_unlabelled=Xu)
    np.save(tmp_path / "X.npy", X[:40])
    np.save(tmp_path / "H.npy", _zoo_scores(zoo, X[:40]))
    (tmp_path / "y.txt").write_text("\n".join(y[:40]) + "\n")
    np.save(tmp_path / "Xu.npy", Xu)
    np.save(tmp_path / "Hu.npy", _zoo_scores(zoo, Xu))
    np.save(tmp_path / "Xt.npy", X[40:])
    np.save(tmp_path / "Ht.npy", _zoo_scores(zoo, X[40:]))
    run(cli, "fit", "--method", "dam", "--features", tmp_path / "X.npy", "--source-scores", tmp_path / "H.npy",
        "--labels", tmp_path / "y.txt", "--positive", "yes", "--unlabelled-features", tmp_path / "Xu.npy",
        "--unlabelled-source-scores", tmp_path / "Hu.npy", "--out", tmp_path / "dam.json", "-q")
    out = run(cli, "predict", "--model", tmp_path / "dam.json", "--features", tmp_path / "Xt.npy",
              "--source-scores", tmp_path / "Ht.npy")
    want = np.array([float(v) for v in out.split()])
    f = dam.decision_function(X[40:])
    assert np.max(np.abs(f - want) / np.maximum(1, np.abs(want))) <= 1e-12
    other = TransferClassifier(method="dam", sources=S, random_state=0).fit(X[:40], y[:40], X_unlabelled=Xu[:15])
    assert not np.allclose(other.decision_function(X[40:]), f)
    # A method that does not use X_unlabelled fits the model it fits without.
    for m in (None, "greedytl"):
        with_u = TransferClassifier(method=m, sources=S, random_state=0).fit(X[:40], y[:40], X_unlabelled=Xu)
        assert with_u.model_ == TransferClassifier(method=m, sources=S, random_state=0).fit(X[:40], y[:40]).model_


def test_oracle_dates_in_another_unit(cli, zoo):
    """Labels that are dates (or durations) in y_oracle are y's classes when
    they equal them in another unit (days in y, seconds in y_oracle), as ==
    tells: the dict lookup refused them (equal, they hash apart); a date
    between two classes is still refused, naming it as given."""
    from greedytl._estimator import _positions
    X, y = _data()
    S = greedytl.Sources(zoo)
    days = np.where(y == y[0], np.datetime64("2020-01-01", "D"), np.datetime64("2021-06-30", "D"))
    want = TransferClassifier(method="best-source", sources=S).fit(X[:20], days[:20], X_oracle=X[20:],
                                                                    y_oracle=days[20:])
    got = TransferClassifier(method="best-source", sources=S).fit(X[:20], days[:20], X_oracle=X[20:],
                                                                   y_oracle=days[20:].astype("datetime64[s]"))
    assert got.selected_ == want.selected_ and got.model_ == want.model_
    classes = np.array([1, 3], dtype="timedelta64[D]")
    assert list(_positions(classes, np.array([72, 24], dtype="timedelta64[h]"), 2)) == [1, 0]
    noon = np.array(["2020-01-01T12:00"], dtype="datetime64[s]")
    with pytest.raises(ValueError, match=r"y_oracle\[0\] is numpy.datetime64\('2020-01-01T12:00:00'\)"):
        _positions(np.unique(days), noon, 1)
    # Units with no common unit (months, days) and a finer unit that cannot
    # hold a class (the year 2300 in attoseconds wraps) are refused as any
    # other label, not with NumPy's TypeError or OverflowError, nor matched
    # after a cast that wrapped.
    months = np.array([1, 3], dtype="timedelta64[M]")
    with pytest.raises(ValueError, match=r"y_oracle\[0\] is numpy.timedelta64\(30,'D'\)"):
        _positions(months, np.array([30], dtype="timedelta64[D]"), 1)
    far = np.array(["2300-01-01", "2301-01-01"], dtype="datetime64[D]")
    with pytest.raises(ValueError, match=r"y_oracle\[0\] is "):
        _positions(far, np.array([0], dtype="datetime64[as]"), 1)


def test_unlabelled_and_oracle_inputs_named(tmp_path):
    """X_unlabelled, X_oracle and y_oracle are validated before anything
    runs (here the command is missing, which fit would report first) and a
    refusal names the input: scikit-learn's checks say "Input X contains
    NaN" and "X has 3 features" of any input (the message named X for
    X_unlabelled and X_oracle), so fit prefixes the input's name."""
    X, y = _data()
    absent = str(tmp_path / "no-greedytl")
    bad = X[20:].copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"^X_unlabelled: Input X contains NaN"):
        TransferClassifier(method="dam", greedytl_bin=absent).fit(X[:20], y[:20], X_unlabelled=bad)
    with pytest.raises(ValueError, match=r"^X_oracle: Input X contains infinity"):
        TransferClassifier(method="best-source", greedytl_bin=absent).fit(
            X[:20], y[:20], X_oracle=np.where(np.isnan(bad), np.inf, bad), y_oracle=y[20:])
    with pytest.raises(ValueError, match=r"^X_oracle: X has 3 features, but TransferClassifier is expecting 8"):
        TransferClassifier(method="best-source", greedytl_bin=absent).fit(
            X[:20], y[:20], X_oracle=X[20:, :3], y_oracle=y[20:])
    with pytest.raises(ValueError, match=r"^X_unlabelled: Found array with 0 sample"):
        TransferClassifier(method="dam", greedytl_bin=absent).fit(X[:20], y[:20], X_unlabelled=X[:0])
    with pytest.raises(ValueError, match="y_oracle must hold one label of y's classes per row of X_oracle"):
        TransferClassifier(method="best-source", greedytl_bin=absent).fit(
            X[:20], y[:20], X_oracle=X[20:], y_oracle=np.r_[y[20:-1], ["maybe"]])
    # Labels of another type than y's, or not labels at all (None), are
    # refused alike, naming the first, without NumPy's FutureWarning of a
    # failed comparison (ints against strings) or a TypeError (None
    # against None, which np.searchsorted cannot order).
    yi = (y == "yes").astype(int)
    for yo, first in ((y[20:], "'{}'".format(y[20])), (np.array([None] * 20, dtype=object), "None"),
                      (np.r_[yi[20:-1], [2]], "2")):
        want = r"y_oracle must hold one label of y's classes per row of X_oracle: y_oracle\[\d+\] is {}, " \
               r"not one of \[0, 1\]$".format(first)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(ValueError, match=want):
                TransferClassifier(method="best-source", greedytl_bin=absent).fit(
                    X[:20], yi[:20], X_oracle=X[20:], y_oracle=yo)
    with pytest.raises(greedytl.CommandNotFoundError):
        TransferClassifier(method="best-source", greedytl_bin=absent).fit(
            X[:20], y[:20], X_oracle=X[20:], y_oracle=y[20:])
    with pytest.raises(greedytl.CommandNotFoundError):  # labels of y's classes in another type: the same labels
        TransferClassifier(method="best-source", greedytl_bin=absent).fit(
            X[:20], yi[:20], X_oracle=X[20:], y_oracle=yi[20:].astype(float))


def test_unlabelled_and_oracle_warnings_named(tmp_path):
    """scikit-learn's warnings about X_unlabelled and X_oracle (an array
    where fit's X had column names, or column names where it had none) name
    the input after scikit-learn's text (which a filter matches, see
    test_validation_warnings_filtered_and_threads_alone), as fit's refusals
    of them do: they said X, as of any input."""
    pd = pytest.importorskip("pandas")
    X, y = _data()
    cols = ["c{}".format(j) for j in range(X.shape[1])]
    absent = str(tmp_path / "no-greedytl")  # the warnings come before greedytl runs
    for Xfit, Xother in ((pd.DataFrame(X[:20], columns=cols), X[20:]), (X[:20], pd.DataFrame(X[20:], columns=cols))):
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            LogisticRegression().fit(Xfit, y[:20]).predict(Xother)
        assert len(want) == 1
        for name, method, kw in (("X_unlabelled", "dam", dict(X_unlabelled=Xother)),
                                 ("X_oracle", "best-source", dict(X_oracle=Xother, y_oracle=y[20:]))):
            with warnings.catch_warnings(record=True) as got:
                warnings.simplefilter("always")
                with pytest.raises(greedytl.CommandNotFoundError):
                    TransferClassifier(method=method, greedytl_bin=absent).fit(Xfit, y[:20], **kw)
            assert [(w.category, str(w.message)) for w in got] == [
                (want[0].category, str(want[0].message).replace("LogisticRegression", "TransferClassifier")
                 + " (X here is {})".format(name))]
            assert got[0].filename == __file__  # warned as fit's caller's


def test_y_oracle_column_vector_as_y(tmp_path):
    """A column vector of y_oracle labels (a one-column DataFrame or array)
    is taken as y's is, with scikit-learn's DataConversionWarning, y_oracle
    named after its text (it was refused: "y_oracle has shape (20, 1)"); another 2-D
    y_oracle is refused with scikit-learn's message for y, naming it."""
    from sklearn.exceptions import DataConversionWarning
    X, y = _data()
    absent = str(tmp_path / "no-greedytl")  # validation comes before greedytl runs
    col = y[:, None]
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        LogisticRegression().fit(X, col)
    assert [w.category for w in want] == [DataConversionWarning]
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        with pytest.raises(greedytl.CommandNotFoundError):  # y_oracle passed validation
            TransferClassifier(method="best-source", greedytl_bin=absent).fit(
                X[:20], y[:20], X_oracle=X[20:], y_oracle=col[20:])
    assert [(w.category, str(w.message)) for w in got] == [
        (DataConversionWarning, str(want[0].message) + " (y here is y_oracle)")]
    assert got[0].filename == __file__
    with pytest.raises(ValueError) as want:
        LogisticRegression().fit(X, np.c_[y, y])
    with pytest.raises(ValueError) as got:
        TransferClassifier(method="best-source", greedytl_bin=absent).fit(
            X[:20], y[:20], X_oracle=X[20:], y_oracle=np.c_[y, y][20:])
    assert str(got.value) == "y_oracle: " + str(want.value).replace("(40, 2)", "(20, 2)")


class _Warns:
    """An array-like input (X_unlabelled, X_oracle, y_oracle) whose
    conversion to an array, which validation makes, warns as a library
    would and has another thread warn meanwhile, and records the warning
    state it sees (the functions that show warnings; not the filters, which
    scikit-learn's check_array sets itself for the conversion: an error of
    NumPy's ComplexWarning)."""

    def __init__(self, a, seen):
        self.a, self.seen = a, seen

    def __len__(self):
        return len(self.a)

    def __array__(self, dtype=None):
        self.seen.append((warnings.showwarning, getattr(warnings, "_showwarnmsg_impl", None)))
        warnings.warn("a library's own warning", FutureWarning)
        t = threading.Thread(target=warnings.warn, args=("another thread's warning",))
        t.start()
        t.join()
        return np.asarray(self.a, dtype=dtype)


def test_validation_warnings_filtered_and_threads_alone(tmp_path):
    """Validating X_unlabelled, X_oracle and y_oracle leaves the process's
    warning state alone (it caught scikit-learn's warnings to name the
    input, with catch_warnings: another thread's warning came out as
    "X_unlabelled: another thread's warning", and two fits at once could
    leave the filters and showwarning replaced): a warning of a library or
    of another thread during validation comes out as it was warned, and
    fit's own warnings of the input, whose text starts with
    scikit-learn's, are silenced by a filter on scikit-learn's text as
    scikit-learn's were."""
    pd = pytest.importorskip("pandas")
    X, y = _data()
    absent = str(tmp_path / "no-greedytl")  # validation comes before greedytl runs
    seen = []
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        state = (warnings.showwarning, getattr(warnings, "_showwarnmsg_impl", None))
        with pytest.raises(greedytl.CommandNotFoundError):
            TransferClassifier(method="dam", greedytl_bin=absent).fit(
                X[:20], y[:20], X_unlabelled=_Warns(X[20:], seen))
        with pytest.raises(greedytl.CommandNotFoundError):
            TransferClassifier(method="best-source", greedytl_bin=absent).fit(
                X[:20], y[:20], X_oracle=_Warns(X[20:], seen), y_oracle=_Warns(y[20:], seen))
    assert len(seen) >= 3 and all(s == state for s in seen)
    assert {(w.category, str(w.message)) for w in got} == {
        (FutureWarning, "a library's own warning"), (UserWarning, "another thread's warning")}
    cols = ["c{}".format(j) for j in range(X.shape[1])]
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", message="X does not have valid feature names")
        warnings.filterwarnings("ignore", message="X has feature names")
        warnings.filterwarnings("ignore", message="A column-vector y was passed")
        for Xfit, Xother in ((pd.DataFrame(X[:20], columns=cols), X[20:]),
                             (X[:20], pd.DataFrame(X[20:], columns=cols))):
            with pytest.raises(greedytl.CommandNotFoundError):
                TransferClassifier(method="dam", greedytl_bin=absent).fit(Xfit, y[:20], X_unlabelled=Xother)
            with pytest.raises(greedytl.CommandNotFoundError):
                TransferClassifier(method="best-source", greedytl_bin=absent).fit(
                    Xfit, y[:20], X_oracle=Xother, y_oracle=y[20:, None])
    assert [str(w.message) for w in got] == []


def test_unlabelled_column_names_refused_named(tmp_path):
    """X_unlabelled's column names that scikit-learn refuses (str and int
    names together) or that are not fit's X's are refused naming the
    input: the first was scikit-learn's TypeError, which does not."""
    pd = pytest.importorskip("pandas")
    X, y = _data()
    absent = str(tmp_path / "no-greedytl")
    D = pd.DataFrame(X[:20, :3], columns=["a", "b", "c"])
    with pytest.raises(TypeError, match=r"^X_unlabelled: Feature names are only supported if all input features "
                                        r"have string names, but your input has \['int', 'str'\]") as e:
        TransferClassifier(method="dam", greedytl_bin=absent).fit(
            D, y[:20], X_unlabelled=pd.DataFrame(X[20:, :3], columns=[0, "a", "b"]))
    assert isinstance(e.value.__cause__, TypeError)
    for cols, why in ((["a", "b", "d"], "unseen at fit time: ['d']; seen at fit time, yet now missing: ['c']"),
                      (["c", "b", "a"], "they must be in the same order as they were in fit")):
        with pytest.raises(ValueError) as e:
            TransferClassifier(method="dam", greedytl_bin=absent).fit(
                D, y[:20], X_unlabelled=pd.DataFrame(X[20:, :3], columns=cols))
        assert str(e.value) == "X_unlabelled: The feature names should match those that were passed during fit: " + why


class _Str(str):
    """A str of a subclass: scikit-learn counts only str itself a name."""


def _outcome(f):
    """What f() does about feature names: its warnings (category, text)
    and its TypeError's text (None without one)."""
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        try:
            f()
            err = None
        except TypeError as e:
            err = str(e)
        except greedytl.CommandNotFoundError:  # validation passed
            err = None
    return [(w.category, str(w.message)) for w in got], err


class _Container:
    """An array container that is no pandas DataFrame (check_array reads
    its values by __array__)."""

    def __init__(self, a):
        self.a = a

    def __len__(self):
        return len(self.a)

    @property
    def shape(self):
        return self.a.shape

    def __array__(self, dtype=None):
        return np.asarray(self.a, dtype=dtype)


class _Columns(_Container):
    """An array container with column names (.columns) that is no pandas
    DataFrame: scikit-learn 1.2 reads its names, later releases do not."""

    def __init__(self, a, columns):
        super().__init__(a)
        self.columns = columns


class _Interchange(_Container):
    """An array container whose column names only the dataframe
    interchange protocol gives (``__dataframe__().column_names()``):
    scikit-learn 1.2 reads none, later releases read them."""

    def __init__(self, a, columns):
        super().__init__(a)
        self.names = columns

    def __dataframe__(self, nan_as_null=False, allow_copy=True):
        names = self.names

        class Frame:
            def column_names(self):
                return iter(names)
        return Frame()


@pytest.mark.parametrize("rule", ["installed", "later", "fallback"])
def test_feature_names_as_scikit_learn(tmp_path, monkeypatch, rule):
    """The column names read from X_unlabelled and X_oracle
    (feature_names: the installed scikit-learn's private
    _get_feature_names, scikit-learn 1.2's rule written in the package
    where that cannot be imported) are those LogisticRegression records
    as feature_names_in_ from the same input. With scikit-learn 1.2: str
    names only when every one is a str itself (not ints, bytes, NumPy
    strings, str subclasses, tuples of a MultiIndex, dates), also of a
    container with .columns that is no DataFrame, none for an array or
    an object with only __dataframe__; str names beside other types
    refused with its TypeError (None, NaN, ints, NumPy strings or a str
    subclass among strs). fit's X is read alike (scikit-learn's
    validation, feature_names_in_), and X_unlabelled draws the warnings
    and refusals LogisticRegression's predict draws on the same inputs,
    fitted on named columns and on an array, named.
    rule "installed" is the scikit-learn installed; "later" stands for a
    later release, whose rule is patched into scikit-learn's validation
    (pandas DataFrames by type, other frames by __dataframe__: where the
    package read names by its own written rule, X_unlabelled's
    .columns-only container was named beside an unnamed X, and an
    interchange one the reverse); "fallback" has the import of
    _get_feature_names fail, and compares the written rule with
    scikit-learn 1.2's own function."""
    pd = pytest.importorskip("pandas")
    import sklearn
    import sklearn.base
    import sklearn.utils.validation as validation
    from greedytl._compat import feature_names
    installed = validation._get_feature_names
    if rule == "later":
        def later(X):
            if isinstance(X, pd.DataFrame):
                return installed(X)
            if hasattr(X, "__dataframe__"):
                return installed(_Columns(None, list(X.__dataframe__().column_names())))
            return None
        for module in (validation, sklearn.base):  # 1.2's BaseEstimator reads it from sklearn.base
            monkeypatch.setattr(module, "_get_feature_names", later, raising=module is validation)
    elif rule == "fallback":
        if tuple(int(v) for v in sklearn.__version__.split(".")[:2]) != (1, 2):
            pytest.skip("the written rule is scikit-learn 1.2's, not {}'s".format(sklearn.__version__))
        # The import fails; 1.2's BaseEstimator (LogisticRegression, fit's X)
        # still reads names by its own function, sklearn.base's reference.
        monkeypatch.delattr(validation, "_get_feature_names")
        with pytest.raises(ImportError):
            from sklearn.utils.validation import _get_feature_names  # noqa: F401
        assert sklearn.base._get_feature_names is installed
    X, y = _data(d=3)
    absent = str(tmp_path / "no-greedytl")  # validation comes before greedytl runs
    cases = [["a", "b", "c"], [0, 1, 2], [np.str_("a"), np.str_("b"), np.str_("c")], [0, "a", "b"],
             ["a", np.nan, "c"], [None, "a", "b"], [b"a", b"b", b"c"], [True, False, True], [0, 1.5, 2],
             [_Str("a"), _Str("b"), _Str("c")], ["a", _Str("b"), "c"], ["a", np.str_("b"), "c"],
             pd.MultiIndex.from_tuples([("a", "x"), ("b", "y"), ("c", "z")]), pd.CategoricalIndex(["a", "b", "c"]),
             pd.date_range("2020-01-01", periods=3), pd.RangeIndex(3), pd.Index([0, b"x", 2], dtype=object)]
    frames = [pd.DataFrame(X, columns=c) for c in cases] + [X, _Columns(X, ["a", "b", "c"]),
                                                            _Interchange(X, ["a", "b", "c"])]
    named = 0
    for D in frames:
        try:
            want = getattr(LogisticRegression().fit(D, y), "feature_names_in_", None)
        except TypeError as e:
            with pytest.raises(TypeError) as got:
                feature_names(D)
            assert str(got.value) == str(e)
            with pytest.raises(TypeError) as got:
                TransferClassifier(greedytl_bin=absent).fit(D, y)
            assert str(got.value) == str(e)
            continue
        got = feature_names(D)
        assert (got is None) == (want is None), getattr(D, "columns", D)
        if rule == "fallback":  # the written rule against 1.2's function itself
            assert np.array_equal(got, installed(D)) if want is not None else installed(D) is None
        if want is not None:
            named += 1
            assert got.dtype == want.dtype and np.array_equal(got, want)
        est = TransferClassifier(greedytl_bin=absent)
        with pytest.raises(greedytl.CommandNotFoundError):
            est.fit(D, y)
        assert np.array_equal(getattr(est, "feature_names_in_", None), want)
    assert named == 3  # the str names, the categorical ones, and .columns (1.2) or __dataframe__'s (later)
    # X_unlabelled checked as LogisticRegression's predict checks X.
    kinds = set()
    for fitted in (frames[0], X):
        lr = LogisticRegression().fit(fitted, y)
        for D in frames:
            want_warned, want_err = _outcome(lambda: lr.predict(D))
            got_warned, got_err = _outcome(lambda: TransferClassifier(method="dam", greedytl_bin=absent).fit(
                fitted, y, X_unlabelled=D))
            assert got_warned == [(c, t.replace("LogisticRegression", "TransferClassifier") + " (X here is "
                                   "X_unlabelled)") for c, t in want_warned], getattr(D, "columns", None)
            assert got_err == (None if want_err is None else "X_unlabelled: " + want_err)
            kinds.add((fitted is X, len(want_warned), want_err is not None))
    # Fitted on names and on none: passed, warned and refused each.
    assert kinds == {(f, w, e) for f in (False, True) for w, e in ((0, False), (1, False), (0, True))}


class _Np2Str(np.str_):
    """A NumPy string that reprs as NumPy 2's do (np.str_('a')), so that
    NumPy 1 shows what a message made with repr would print under NumPy 2."""

    def __repr__(self):
        return "np.str_({})".format(str.__repr__(self))


class _Np2Int(np.int64):
    """A NumPy int that reprs as NumPy 2's do (np.int64(3))."""

    def __repr__(self):
        return "np.int64({})".format(int(self))


class _Np2Bytes(np.bytes_):
    """A NumPy bytes string that reprs as NumPy 2's do (np.bytes_(b'a'))."""

    def __repr__(self):
        return "np.bytes_({})".format(bytes.__repr__(self))


def test_labels_shown_as_given(tmp_path):
    """A message that names a class label shows it as the user gave it
    ('a', 3), the same under NumPy 1 and 2, whose repr of a NumPy scalar
    names its type (np.str_('a'), np.int64(3)): the one class of y, a
    y_oracle label that is not one of y's classes and the list of those,
    and the class a fit warning names.  _Np2Str and _Np2Int repr as NumPy
    2's scalars do, so this fails under NumPy 1 too where a message used
    repr; dates are shown as NumPy 1 shows them."""
    from greedytl._estimator import _positions, _shown
    X, _ = _data()
    absent = str(tmp_path / "no-greedytl")  # the refusals come before greedytl runs
    for one in (np.array(["a"] * len(X)), np.array([_Np2Str("a")] * len(X), dtype=object)):
        with pytest.raises(ValueError, match=r"contain only one class: 'a'$"):
            TransferClassifier(greedytl_bin=absent).fit(X, one)
    with pytest.raises(ValueError, match=r"contain only one class: 3$"):
        TransferClassifier(greedytl_bin=absent).fit(X, np.full(len(X), 3, dtype=np.int64))
    for classes, yo, want in (
            (np.array([_Np2Str("a"), _Np2Str("b")], dtype=object), np.array([_Np2Str("z")], dtype=object),
             "'z', not one of ['a', 'b']"),
            (np.array([_Np2Int(1), _Np2Int(3)], dtype=object), np.array([_Np2Int(2)], dtype=object),
             "2, not one of [1, 3]"),
            (np.array(["a", "b"]), np.array(["z"]), "'z', not one of ['a', 'b']"),
            (np.array([1, 3]), np.array([2]), "2, not one of [1, 3]"),
            # bytes as the Python bytes (not np.bytes_(b'z')); a float32 as
            # str() writes it (not 0.10000000149011612, .item()'s float64)
            (np.array([_Np2Bytes(b"a"), _Np2Bytes(b"b")], dtype=object), np.array([_Np2Bytes(b"z")], dtype=object),
             "b'z', not one of [b'a', b'b']"),
            (np.array([1, 3], dtype=np.float32), np.array([0.1], dtype=np.float32), "0.1, not one of [1.0, 3.0]")):
        with pytest.raises(ValueError) as e:
            _positions(classes, yo, 1)
        assert str(e.value).endswith("y_oracle[0] is " + want), str(e.value)
    clf = TransferClassifier()
    clf.classes_ = np.array([_Np2Str("a"), _Np2Str("b"), _Np2Str("c")], dtype=object)
    assert clf._class_namer(3)("2") == "classes_[2] = 'c'"
    clf.classes_ = np.array([_Np2Bytes(b"a"), _Np2Bytes(b"b"), _Np2Bytes(b"c")], dtype=object)
    assert clf._class_namer(3)("2") == "classes_[2] = b'c'"
    clf.classes_ = np.array([0.1, 0.2, 0.3], dtype=np.float32)
    assert clf._class_namer(3)("0") == "classes_[0] = 0.1"
    assert _shown(np.float32(0.1)) == "0.1" and _shown(np.True_) == "True" and _shown(None) == "None"
    assert _shown(np.datetime64("2020-01-02")) == "numpy.datetime64('2020-01-02')"
    assert _shown(np.timedelta64(3, "D")) == "numpy.timedelta64(3,'D')"


def test_pipeline_gridsearch_cross_val(cli, zoo):
    """In a Pipeline, GridSearchCV (over methods) and cross_val_score; a list
    of classifiers is cloned unfitted by scikit-learn, which fit says, and
    Sources keeps them fitted."""
    X, y = _data(m=60)
    pipe = make_pipeline(StandardScaler(), TransferClassifier(random_state=0)).fit(X[:30], y[:30])
    sc = StandardScaler().fit(X[:30])
    alone = TransferClassifier(random_state=0).fit(sc.transform(X[:30]), y[:30])
    np.testing.assert_array_equal(pipe.predict(X[30:]), alone.predict(sc.transform(X[30:])))
    assert pipe.score(X[30:], y[30:]) > 0.6
    # The search in worker processes (the estimator and its sources
    # pickled, two fits at once, each in its private directory) scores
    # greedytl-auto on each fold as cross_val_score does in this process,
    # and cross_val_score in workers as here.
    methods = ["greedytl", "greedytl-auto", "l1-logistic"]
    gs = GridSearchCV(TransferClassifier(sources=greedytl.Sources(zoo), random_state=0), {"method": methods},
                      cv=StratifiedKFold(3), n_jobs=2)
    gs.fit(X, y)
    assert gs.best_params_["method"] in methods
    scores = cross_val_score(TransferClassifier(sources=greedytl.Sources(zoo), random_state=0), X, y, cv=3)
    assert scores.shape == (3,) and scores.mean() > 0.6
    auto = methods.index("greedytl-auto")
    np.testing.assert_array_equal([gs.cv_results_["split{}_test_score".format(i)][auto] for i in range(3)], scores)
    twice = cross_val_score(TransferClassifier(sources=greedytl.Sources(zoo), random_state=0), X, y, cv=3, n_jobs=2)
    np.testing.assert_array_equal(twice, scores)
    plain = TransferClassifier(sources=zoo, random_state=0)
    if hasattr(BaseEstimator, "__sklearn_clone__"):  # scikit-learn >= 1.3: the estimator's own clone
        np.testing.assert_array_equal(cross_val_score(plain, X, y, cv=3, error_score="raise"), scores)
    else:
        with pytest.raises(ValueError, match="greedytl.Sources"):
            cross_val_score(plain, X, y, cv=3, error_score="raise")


def test_sources_as_a_search_value(cli, zoo):
    """A list of classifiers given as a search's parameter value is cloned
    unfitted by scikit-learn itself (not through the estimator), on every
    version: fit says to wrap it in Sources, which the search shares."""
    X, y = _data(m=40)
    with pytest.raises(ValueError, match=r"param_grid.*greedytl\.Sources"):
        GridSearchCV(TransferClassifier(random_state=0), {"sources": [zoo]}, cv=StratifiedKFold(2),
                     error_score="raise").fit(X, y)
    gs = GridSearchCV(TransferClassifier(random_state=0), {"sources": [greedytl.Sources(zoo)]},
                      cv=StratifiedKFold(2), error_score="raise").fit(X, y)
    assert all(a is b for a, b in zip(gs.best_estimator_.sources_, zoo))


def test_sklearn_clone_shares_a_list(cli, zoo):
    """scikit-learn >= 1.3 clones through __sklearn_clone__ (1.2, here, never
    calls it, so it is called as clone would): a list of classifiers as
    sources is shared, the very list and its fitted classifiers, where the
    default would clone them unfitted; the other parameters are cloned and
    equal, the clone is unfitted, and it fits as the original does."""
    X, y = _data(m=40)
    est = TransferClassifier(sources=zoo, method="greedytl", random_state=3)
    est.set_params(max_dense_mb=64)
    c = est.__sklearn_clone__()
    assert type(c) is TransferClassifier and c is not est
    assert c.sources is zoo and all(a is b for a, b in zip(c.sources, zoo))
    got, want = c.get_params(deep=False), est.get_params(deep=False)
    assert got.keys() == want.keys() and all(got[k] == want[k] for k in want)
    assert not hasattr(c, "classes_")
    np.testing.assert_array_equal(c.fit(X, y).decision_function(X), est.fit(X, y).decision_function(X))
    # What scikit-learn's clone carries besides the parameters goes along,
    # copied (set_output's configuration, metadata requests).
    est._sklearn_output_config = {"transform": "default"}
    c2 = est.__sklearn_clone__()
    assert c2._sklearn_output_config == est._sklearn_output_config
    assert c2._sklearn_output_config is not est._sklearn_output_config
    assert est.sources is zoo and est.get_params(deep=False)["sources"] is zoo  # the original's, left as it was


def test_one_classifier_as_sources(cli, zoo):
    """One fitted classifier as sources (a list of one, as fit takes it) is
    shared by the estimator's clone (scikit-learn >= 1.3's hook) as a list
    is, not cloned unfitted; the clone fits as the original does.  Cloned
    unfitted by scikit-learn < 1.3 (or as a search's parameter value), fit
    says so naming it as given, not as a list's sources[0]."""
    X, y = _data(m=40)
    est = TransferClassifier(sources=zoo[2], method="greedytl", random_state=3)
    c = est.__sklearn_clone__()
    assert c.sources is zoo[2] and est.sources is zoo[2]
    want = TransferClassifier(sources=greedytl.Sources([zoo[2]]), method="greedytl", random_state=3)
    np.testing.assert_array_equal(c.fit(X, y).decision_function(X), want.fit(X, y).decision_function(X))
    with pytest.raises(ValueError) as e:
        TransferClassifier(sources=clone(zoo[2])).fit(X, y)
    msg = str(e.value)
    assert msg.startswith("sources (LogisticRegression) is not fitted") and "greedytl.Sources" in msg, msg


def _top_level_source(A):
    return A[:, :2]


def _default_clone(est):
    """scikit-learn's own clone of est, which never asks the estimator's
    hook: sklearn.base._clone_parametrized where clone calls the hook
    (scikit-learn >= 1.3: BaseEstimator has __sklearn_clone__, which is
    that), clone itself before."""
    import sklearn.base
    if hasattr(BaseEstimator, "__sklearn_clone__"):
        return sklearn.base._clone_parametrized(est)
    return sklearn.base.clone(est)


def test_sklearn_clone_hook_every_form(cli, zoo, synth):
    """The hook, called as scikit-learn >= 1.3's clone calls it
    (est.__sklearn_clone__(), on an instance), clones as scikit-learn's own
    clone logic does without the hook (_default_clone) for every form of
    sources but a list or tuple of classifiers, which it shares: a Sources
    (shared either way), None, a function, a directory's path. It raised
    AttributeError on scikit-learn < 1.3 for every form but a list."""
    S = greedytl.Sources(zoo)
    for sources in (None, S, _top_level_source, synth["sources"], zoo, tuple(zoo), zoo[0]):
        est = TransferClassifier(sources=sources, method="greedytl", random_state=2, max_dense_mb=8)
        est._sklearn_output_config = {"transform": "pandas"}
        hook, plain = est.__sklearn_clone__(), _default_clone(est)
        assert type(hook) is TransferClassifier and hook is not est
        got, want = hook.get_params(deep=False), plain.get_params(deep=False)
        assert got.keys() == want.keys()
        assert all(got[k] == want[k] for k in want if k != "sources")
        if isinstance(sources, (list, tuple)):
            assert hook.sources is sources and not all(a is b for a, b in zip(plain.sources, sources))
        elif sources is zoo[0]:
            assert hook.sources is sources and plain.sources is not sources and not hasattr(plain.sources, "coef_")
        elif sources is S:
            assert hook.sources is S and plain.sources is S
        else:
            assert hook.sources == plain.sources
        assert hook._sklearn_output_config == {"transform": "pandas"}
        assert hook._sklearn_output_config is not est._sklearn_output_config
        assert est.sources is sources


class _ZooScores:
    """A callable source holding fitted classifiers (its scores: theirs)."""

    def __init__(self, zoo):
        self.zoo = zoo

    def __call__(self, X):
        return _zoo_scores(self.zoo, X)


def test_clone_shares_sources(cli, zoo):
    """clone shares a Sources, the very object and the fitted classifiers or
    callable it holds, instead of deep-copying the model zoo for every
    candidate and fold (GridSearchCV, cross_val_score); a fit through a
    clone is the original's fit, the user's sources are left as they were,
    get_params/set_params give the same object back, and pickling (what
    process workers, n_jobs=2, are sent) still stores the sources."""
    import copy
    X, y = _data(m=60)
    S = greedytl.Sources(zoo)
    stored = pickle.dumps(zoo)
    assert copy.deepcopy(S) is S and copy.copy(S) is S
    est = TransferClassifier(method="greedytl", sources=S, random_state=0)
    c = clone(est)
    assert c.sources is S and c.sources.sources is zoo
    assert est.get_params()["sources"] is S and TransferClassifier().set_params(**est.get_params()).sources is S
    want = clone(est).fit(X[:30], y[:30]).decision_function(X[30:])
    c.fit(X[:30], y[:30])
    assert all(a is b for a, b in zip(c.sources_, zoo)) and len(c.sources_) == len(zoo)
    np.testing.assert_array_equal(c.decision_function(X[30:]), want)
    # The same estimator fitted on the sources as a plain callable (which
    # clone deep-copies) gives the same scores.
    fn = TransferClassifier(method="greedytl", sources=lambda A: _zoo_scores(zoo, A), random_state=0)
    np.testing.assert_array_equal(fn.fit(X[:30], y[:30]).decision_function(X[30:]), want)

    # Every candidate and fold of a search in this process fits on the
    # user's sources themselves, the refitted best estimator too; so do
    # joblib's threads (n_jobs=2 in the threading backend), with the same
    # scores.
    import joblib
    seen = []

    def scoring(e, Xt, yt):
        seen.append((e.sources, e.sources_))
        return e.score(Xt, yt)

    def search(n_jobs):
        gs = GridSearchCV(est, {"method": ["greedytl", "greedytl-auto"]}, cv=StratifiedKFold(3), scoring=scoring,
                          n_jobs=n_jobs).fit(X, y)
        seen.append((gs.best_estimator_.sources, gs.best_estimator_.sources_))
        return [gs.cv_results_["split{}_test_score".format(i)] for i in range(3)]
    alone = search(1)
    with joblib.parallel_backend("threading"):
        np.testing.assert_array_equal(search(2), alone)
    assert len(seen) == 14
    for s, used in seen:
        assert s is S and len(used) == len(zoo) and all(a is b for a, b in zip(used, zoo))
    assert S.sources is zoo and pickle.dumps(zoo) == stored

    # A callable holding the zoo is shared alike.
    Z = greedytl.Sources(_ZooScores(zoo))
    cz = clone(TransferClassifier(method="greedytl", sources=Z, random_state=0)).fit(X[:30], y[:30])
    assert cz.sources is Z and cz.sources_ is Z.sources and Z.sources.zoo is zoo
    np.testing.assert_array_equal(cz.decision_function(X[30:]), want)

    # Pickled, the estimator carries copies of the sources, fitted, which
    # score as the user's.
    p = pickle.loads(pickle.dumps(est))
    assert isinstance(p.sources, greedytl.Sources) and p.sources is not S
    assert pickle.dumps(p.sources.sources) == stored
    np.testing.assert_array_equal(p.fit(X[:30], y[:30]).decision_function(X[30:]), want)
    q = pickle.loads(pickle.dumps(c))
    assert all(a is b for a, b in zip(q.sources_, q.sources.sources))  # one copy of the zoo, not two
    np.testing.assert_array_equal(q.decision_function(X[30:]), want)


def test_multiclass(multiclass_cli, zoo, tmp_path):
    """Three or more classes: classes_ sorted, decision_function's column k
    is classes_[k] and equals greedytl predict --scores' column of that class
    (the file names classes by their labels, or, labels with a blank, by
    index into classes_), predict equals greedytl predict's class."""
    for tail in ("", " x"):
        _check_multiclass(multiclass_cli, zoo, tmp_path, tail)


def _check_multiclass(cli, zoo, tmp_path, tail):
    rng = np.random.default_rng(5)
    names = np.char.add(["dog", "cat", "emu", "ant", "bee", "fox", "gnu", "hen", "ibis", "jay", "kiwi"], tail)
    k = np.arange(66) % len(names)  # 11 classes: "10" sorts before "2" as text
    X = 2 * rng.normal(size=(len(names), 8))[k] + rng.normal(size=(66, 8))
    y = names[k]
    clf = TransferClassifier(sources=greedytl.Sources(zoo), random_state=0).fit(X[:44], y[:44])
    assert list(clf.classes_) == sorted(names)
    assert clf.method_ == "greedytl-nway"  # greedytl fit's choice without --method
    assert set(clf.selected_) == set(names) and all(
        c["name"] == (clf.source_names_[c["index"]] if c["kind"] == "source" else "x[{}]".format(c["index"]))
        for cols in clf.selected_.values() for c in cols)
    assert any(c["kind"] == "source" for c in clf.selected_["emu" + tail])
    D = clf.decision_function(X[44:])
    assert D.shape == (22, len(names))
    # As scikit-learn's classifiers return it: a C-contiguous float64 array
    # (a column permutation of the file's scores was not), from a sparse X
    # too, with the same values.
    from scipy import sparse
    lr = LogisticRegression(max_iter=1000).fit(X[:44], y[:44]).decision_function(X[44:])
    assert lr.flags["C_CONTIGUOUS"] and lr.dtype == np.float64
    for A in (X[44:], sparse.csr_matrix(X[44:])):
        DA = clf.decision_function(A)
        assert DA.flags["C_CONTIGUOUS"] and DA.dtype == lr.dtype and DA.shape == lr.shape
        if not sparse.issparse(A):
            np.testing.assert_array_equal(DA, D)
            continue
        # The zoo's classifiers score a sparse X with scikit-learn's sparse
        # product, whose sums run in another order than the dense one's
        # (their scores may differ in the last bits, no more: checked here), and
        # greedytl-nway's members that are linear in a narrow block (the
        # zoo's few sources) pass those bits on: equal up to that rounding.
        Hd, Hs = _zoo_scores(zoo, X[44:]), _zoo_scores(zoo, A)
        np.testing.assert_allclose(Hs, Hd, rtol=1e-14, atol=0)
        np.testing.assert_allclose(DA, D, rtol=1e-13, atol=1e-16)
    np.save(tmp_path / "X.npy", X[44:])
    np.save(tmp_path / "H.npy", _zoo_scores(zoo, X[44:]))
    (tmp_path / "m.json").write_text(json.dumps(clf.model_))
    common = ["--model", tmp_path / "m.json", "--features", tmp_path / "X.npy", "--source-scores", tmp_path / "H.npy"]
    lines = run(cli, "predict", "--scores", *common).strip().split("\n")
    header = lines[0].split("\t")
    S = np.array([[float(v) for v in l.split("\t")] for l in lines[1:]])
    column = (lambda k: int(k)) if tail else list(clf.classes_).index
    for j, k in enumerate(header):
        np.testing.assert_allclose(D[:, column(k)], S[:, j], rtol=1e-12, atol=1e-12)
    pred = run(cli, "predict", *common).split("\n")
    assert list(clf.predict(X[44:])) == [clf.classes_[column(k)] for k in pred if k]
    assert clf.score(X[44:], y[44:]) > 0.5  # chance: 1/11


def test_selected_keyed_by_python_labels(multiclass_cli):
    """A multi-class selected_ is keyed by the labels of classes_ as Python
    values (int, float, bool, str), as inspection_ holds JSON's types, so
    that json.dumps takes it as it takes inspection_, and classes_[k] still
    finds its list; it was keyed by NumPy scalars, which json.dumps refuses
    (numpy.int64).  Labels of other kinds (dates) stay as classes_ holds
    them: a date's .item() is not equal to it."""
    X, cases = _label_cases()
    dates = np.array(["2020-01-01", "2021-01-01", "2022-01-01"], dtype="datetime64[D]")
    for name, y, method in (("int 3 classes", cases["int 3 classes"], None),
                            ("float 3 classes", cases["float 3 classes"], None),
                            ("str 3 classes", cases["str 3 classes"], None),
                            ("bool", cases["bool"], "nearest-mean"),
                            ("dates", dates[np.unique(cases["int 3 classes"], return_inverse=True)[1]], None)):
        clf = TransferClassifier(method=method, random_state=0).fit(X, y)
        assert list(clf.selected_) == list(clf.classes_), name
        assert all(clf.selected_[c] is clf.selected_[k] for c, k in zip(clf.classes_, clf.selected_)), name
        if name != "dates":
            assert [type(k) for k in clf.selected_] == [type(v) for v in clf.classes_.tolist()], name
            json.dumps(clf.selected_)


def test_fit_inspects_the_model_file_itself(multiclass_cli, zoo, synth, tmp_path, monkeypatch):
    """fit runs one greedytl command, fit: what it learns of the model
    (inspection_, selected_) it takes from the model file, and it is what
    greedytl inspect --json prints of that file (the peer), for binary and
    multi-class models, with sources as classifiers and as a directory
    (whose columns inspect names from it); selected_ is inspect's columns
    each named by its source or feature. fit ran greedytl inspect --json
    as a second process for it."""
    from greedytl import _cli
    cli = multiclass_cli
    X, labels = synth["X"], synth["labels"]
    rng = np.random.default_rng(7)
    cases = []
    for k in (2, 3):
        classes = np.unique(labels)[-k:]
        tr = np.concatenate([rng.choice(np.flatnonzero(labels == c), 4, replace=False) for c in classes])
        for method in (None, "greedytl", "l1-logistic", "dictionary", "nearest-mean"):
            cases.append((X[tr], labels[tr], method, synth["sources"]))
            cases.append((X[tr], labels[tr], method, greedytl.Sources([LogisticRegression().fit(X, labels == 0)])))
    ran = []
    real = _cli.run_cli
    monkeypatch.setattr(_cli, "run_cli", lambda args, *a, **kw: ran.append(args[0]) or real(args, *a, **kw))
    named_dir = 0
    for Xtr, ytr, method, sources in cases:
        ran.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", greedytl.GreedyTLWarning)
            clf = TransferClassifier(method=method, sources=sources, random_state=1).fit(Xtr, ytr)
        assert ran == ["fit"], "fit ran greedytl {}".format(ran)
        (tmp_path / "m.json").write_text(json.dumps(clf.model_))
        want = json.loads(run(cli, "inspect", "--json", tmp_path / "m.json"))
        assert clf.inspection_ == want, (method, sources)
        # How the file names the classes: by their values (the labels are
        # integers, which fit gives greedytl as they are).
        assert clf.classes_.dtype.kind == "i"
        per_class = {str(c): c for c in clf.classes_}

        def named(cols):
            return [dict(c, name=clf.source_names_[c["index"]] if c["kind"] == "source" else "x[{}]".format(c["index"]))
                    for c in cols]
        if "per_class" in want:
            assert clf.selected_ == {per_class[pc["class"]]: named(pc["selected"]) for pc in want["per_class"]}
        else:
            assert clf.selected_ == named(want["selected"])
        named_dir += any("name" in c for c in want.get("selected", []))
    assert named_dir > 0  # inspect named some source columns from the directory


def test_selected_names_dataframe_columns_as_inspect_names_a_header(multiclass_cli, zoo, tmp_path):
    """Fitted on a DataFrame, selected_ names a feature column by its name
    in feature_names_in_, as greedytl inspect names it when greedytl fit is
    given the same X as a CSV file with that header (selected_ said x[i]),
    binary and multi-class; sources keep their names, and an array X its
    x[i]."""
    pd = pytest.importorskip("pandas")
    X, y = _data()
    cols = ["age", "income", "height", "weight", "x 4", "score", "rank", "zip"]
    y3 = np.array(["c", "a", "b"])[np.digitize(X[:, 0], [-0.4, 0.4])]
    for labels, method, sources in ((y, "greedytl", None), (y, "greedytl", greedytl.Sources(zoo)),
                                    (y3, "greedytl", None)):
        clf = TransferClassifier(method=method, sources=sources, random_state=0).fit(
            pd.DataFrame(X, columns=cols), labels)
        classes, yi = np.unique(labels, return_inverse=True)
        path = tmp_path / "X.csv"
        path.write_text(",".join(cols) + "\n" + "".join(",".join(repr(v) for v in row) + "\n" for row in X))
        np.save(tmp_path / "y.npy", np.where(yi == 1, 1.0, -1.0) if len(classes) == 2 else yi)
        args = ["fit", "--method", method, "--seed", 0, "--features", path, "--labels", tmp_path / "y.npy",
                "--out", tmp_path / "m.json"]
        if sources is not None:
            np.save(tmp_path / "H.npy", _zoo_scores(zoo, X))
            args += ["--source-scores", tmp_path / "H.npy"]
        run(multiclass_cli, *args)
        want = json.loads(run(multiclass_cli, "inspect", "--json", tmp_path / "m.json"))
        if len(classes) == 2:
            got, want = [clf.selected_], [want["selected"]]
        else:
            got = [clf.selected_[classes[int(pc["class"])]] for pc in want["per_class"]]
            want = [pc["selected"] for pc in want["per_class"]]
        assert any(c["kind"] == "feature" for w in want for c in w)
        for g, w in zip(got, want):
            key = [(c["kind"], c["index"], c["weight"]) for c in w]
            assert [(c["kind"], c["index"], c["weight"]) for c in g] == key
            assert [c["name"] for c in g if c["kind"] == "feature"] == [c["name"] for c in w if c["kind"] == "feature"]
            assert [c["name"] for c in g if c["kind"] == "source"] == [clf.source_names_[c["index"]] for c in g
                                                                      if c["kind"] == "source"]
        plain = TransferClassifier(method=method, sources=sources, random_state=0).fit(X, labels)
        first = plain.selected_ if len(classes) == 2 else plain.selected_[classes[0]]
        assert all(c["name"] == "x[{}]".format(c["index"]) for c in first if c["kind"] == "feature")


def test_inspection_names_sources_of_an_index_without_data_digest(cli, synth, tmp_path):
    """A sources index without data_sha256 (train-sources given no data
    digest): greedytl reads the missing member as "" in the index and in
    the model's record of it, so they agree and inspect names the source
    columns; inspection_ is inspect's.  Python read the index's as None,
    which differed from the record's "", and left the names out."""
    src = tmp_path / "sources"
    shutil.copytree(synth["sources"], src)
    ix = json.loads((src / "sources.json").read_text())
    del ix["data_sha256"]
    (src / "sources.json").write_text(json.dumps(ix))
    X, labels = synth["X"], synth["labels"]
    keep = np.isin(labels, np.unique(labels)[:2])
    clf = TransferClassifier(sources=greedytl.Sources(str(src)), random_state=1).fit(X[keep][::3], labels[keep][::3])
    assert clf.model_["sources"]["data_sha256"] == ""
    (tmp_path / "m.json").write_text(json.dumps(clf.model_))
    want = json.loads(run(cli, "inspect", "--json", tmp_path / "m.json"))
    assert any("name" in c for c in want["selected"])
    assert clf.inspection_ == want


def test_multiclass_oracle(multiclass_cli):
    """best-source on three classes: each class's oracle keeps, on the
    held-out labels of that class against the rest, the source trained to
    tell that class apart (greedytl fit refused oracle inputs for more than
    two classes)."""
    rng = np.random.default_rng(3)
    k = np.arange(60) % 3
    X = 3 * rng.normal(size=(3, 6))[k] + rng.normal(size=(60, 6))
    y = np.array(["emu", "cat", "dog"])[k]
    zoo = [LogisticRegression().fit(X[:30], y[:30] == c) for c in ("cat", "dog", "emu")]
    clf = TransferClassifier(method="best-source", sources=greedytl.Sources(zoo)).fit(
        X[:15], y[:15], X_oracle=X[15:45], y_oracle=y[15:45])
    assert {c: [(s["kind"], s["index"]) for s in cols] for c, cols in clf.selected_.items()} == {
        "cat": [("source", 0)], "dog": [("source", 1)], "emu": [("source", 2)]}
    assert clf.score(X[45:], y[45:]) > 0.9



def _three_blobs(labels, seed=3):
    """60 rows of three well-apart classes, labelled labels[0], [1], [2] in
    turn, and sources trained to tell each from the rest."""
    rng = np.random.default_rng(seed)
    k = np.arange(60) % 3
    X = 3 * rng.normal(size=(3, 6))[k] + rng.normal(size=(60, 6))
    y = np.asarray(labels)[k]
    zoo = greedytl.Sources([LogisticRegression().fit(X[:30], k[:30] == c) for c in range(3)])
    return X, y, zoo


def test_fit_errors_name_classes_by_their_labels(multiclass_cli):
    """greedytl's refusal of held-out labels that lack a class names the
    user's class (5, "a5"), not its index among y's classes (class "0",
    which is no class of these labels but is one of digits'): fit gives
    greedytl integer labels and names as they are. Before, it said 'no
    example of the class "0"' (three classes) and 'only the positive class
    "1"' (two)."""
    for labels in ([5, 8, 9], ["a5", "b8", "c9"]):
        X, y, zoo = _three_blobs(labels)
        five, eight = (str(v) for v in labels[:2])
        est = TransferClassifier(method="best-source", sources=zoo, random_state=0)
        tr, ho = np.arange(15), np.arange(15, 45)
        ho = ho[y[ho] != labels[0]]
        with pytest.raises(ValueError) as e:
            est.fit(X[tr], y[tr], X_oracle=X[ho], y_oracle=y[ho])
        msg = str(e.value)
        assert 'holds no example of the class "{0}": its oracle, "{0}" against the rest'.format(five) in msg, msg
        assert '"0"' not in msg, msg
        two = tr[y[tr] != labels[2]]
        ho8 = ho[y[ho] == labels[1]]
        with pytest.raises(ValueError) as e:
            est.fit(X[two], y[two], X_oracle=X[ho8], y_oracle=y[ho8])
        assert 'holds only the positive class "{}"'.format(eight) in str(e.value), str(e.value)


def test_fit_errors_name_classes_given_as_indices(multiclass_cli):
    """Labels fit gives greedytl as class indices (names with a blank,
    non-ASCII names, bytes) name no class of the user's in greedytl's
    errors ('class "0"'): fit --json reports the classes of its error, and
    the message says which of the user's classes they are, as a warning
    does. Before, the message said 'class "0"' alone: a held-out sample
    without a class, of the positive class only, and a class's fit against
    the rest (l1-logistic on a column whose deviations overflow)."""
    for labels in (["a x", "b x", "c x"], ["é", "ü", "ñ"], [b"a", b"b", b"c"]):
        X, y, zoo = _three_blobs(labels)
        est = TransferClassifier(method="best-source", sources=zoo, random_state=0)
        tr, ho = np.arange(15), np.arange(15, 45)
        ho = ho[y[ho] != labels[0]]
        with pytest.raises(ValueError) as e:
            est.fit(X[tr], y[tr], X_oracle=X[ho], y_oracle=y[ho])
        assert str(e.value).endswith(""" (greedytl's class "0" is classes_[0] = {!r})""".format(labels[0])), str(e.value)
        two = tr[y[tr] != labels[2]]
        ho8 = ho[y[ho] == labels[1]]
        with pytest.raises(ValueError) as e:
            est.fit(X[two], y[two], X_oracle=X[ho8], y_oracle=y[ho8])
        assert str(e.value).endswith(""" (greedytl's class "1" is classes_[1] = {!r})""".format(labels[1])), str(e.value)
        huge = np.array([[1, 1.79e308], [2, 1.79e308], [3, 1.79e308], [4, -1.79e308], [5, 1], [6, 2]])
        with pytest.raises(ValueError) as e:
            TransferClassifier(method="l1-logistic").fit(huge, np.asarray(labels * 2))
        msg = str(e.value)
        assert 'l1-logistic, class "0" against the rest' in msg, msg
        assert msg.endswith(""" (greedytl's class "0" is classes_[0] = {!r})""".format(labels[0])), msg


def test_labels_fit_alike_however_given(multiclass_cli):
    """Integer labels and names, which fit gives greedytl as they are (with
    two classes, classes_[1] named positive), fit the model other labels of
    the same order fit (given to greedytl as class indices, ±1 for two:
    names with a blank): the same decision_function, bit for bit, the same
    predictions and selections, for binary, one-vs-rest and native
    multi-class methods; the model file names the classes as given, an
    integer as greedytl spells its value ("1e+06", strconv's 'g' form, which
    _class_finder reads with float, not int)."""
    tr = np.arange(24)
    spelt = {-4: "-4", 5: "5", 9: "9", -10 ** 6: "-1e+06", 10 ** 6: "1e+06", 3 * 10 ** 6: "3e+06"}
    for labels in ((-4, 5, 9), (-10 ** 6, 10 ** 6, 3 * 10 ** 6)):
        X, y, zoo = _three_blobs(labels)
        kinds = {"names": dict(zip(labels, ("Ant", "bee", "cat_2"))), "indices": dict(zip(labels, ("a x", "b x", "c x")))}
        for classes in (labels, labels[1:]):
            _fit_alike_however_given(X, y, zoo, tr[np.isin(y[tr], classes)], classes, kinds, spelt)


def _fit_alike_however_given(X, y, zoo, rows, classes, kinds, spelt):
    """test_labels_fit_alike_however_given's checks of the integer labels y
    of rows (of classes, greedytl's spelling of each spelt) against the
    labels kinds give them."""
    for method in (None, "l1-logistic", "nearest-mean"):
        a = TransferClassifier(method=method, sources=zoo, random_state=0).fit(X[rows], y[rows])
        assert list(a.classes_) == list(classes)
        if isinstance(a.selected_, dict):
            assert a.model_["classes"] == [spelt[c] for c in classes]
        for kind, words in kinds.items():
            b = TransferClassifier(method=method, sources=zoo, random_state=0).fit(
                X[rows], np.array([words[v] for v in y[rows]]))
            assert np.array_equal(a.decision_function(X), b.decision_function(X)), (method, kind)
            assert [words[v] for v in a.predict(X)] == list(b.predict(X))
            if isinstance(a.selected_, dict):
                assert {words[c]: v for c, v in a.selected_.items()} == b.selected_
                assert sorted(b.model_["classes"]) == sorted(
                    [words[c] for c in classes] if kind == "names" else
                    ["-1", "1"] if len(classes) == 2 else ["0", "1", "2"])
            else:
                assert a.selected_ == b.selected_


def test_names_fit_whatever_their_first_line(multiclass_cli, monkeypatch):
    """Names given to greedytl (a .npy array of str, which has no header;
    a text file before, with --labels-header no) are all
    labels, the first line too: y, and y_oracle, whose first label is the
    only example of its class above two classes of two examples or more
    ("owl" above "cat" and "dog"), which greedytl's guess would read as a
    header, fit three classes, as the fit given the class indices does
    (the same decision_function, bit for bit). Without --labels-header no
    the fit failed ('its first line, "owl", was read as a header')."""
    X, y, zoo = _three_blobs(["owl", "cat", "dog"])
    others = np.flatnonzero(y != "owl")
    tr, ho = np.arange(1, 16), np.r_[30, others[20:]]
    fits = ((None, {}, np.r_[0, others[:20]]),
            ("best-source", dict(X_oracle=X[ho], y_oracle=y[ho]), tr))
    assert y[fits[0][2][0]] == y[ho[0]] == "owl" and "owl" not in y[fits[0][2][1:]] and "owl" not in y[ho[1:]]
    assert "owl" in y[tr] and y[tr][0] != "owl"
    for method, kw, rows in fits:
        got = TransferClassifier(method=method, sources=zoo, random_state=0).fit(X[rows], y[rows], **kw)
        with monkeypatch.context() as m:
            m.setattr(TransferClassifier, "_given_labels", staticmethod(lambda classes: None))
            want = TransferClassifier(method=method, sources=zoo, random_state=0).fit(X[rows], y[rows], **kw)
        assert list(got.classes_) == ["cat", "dog", "owl"] and sorted(got.model_["classes"]) == ["cat", "dog", "owl"]
        assert np.array_equal(got.decision_function(X), want.decision_function(X)), method


def test_every_label_type_fits_as_by_indices(multiclass_cli, monkeypatch):
    """For every kind of label (ints, negative ints, floats, bools, str,
    bytes, dates, pandas categories), two classes and three, the fit gives
    the classes_, decision_function (bit for bit) and predictions the fit
    that gives greedytl the class indices (±1 for two) gives, as before
    fit gave greedytl labels as they are."""
    pd = pytest.importorskip("pandas")
    X, k, zoo = _three_blobs([0, 1, 2])
    # The floats are whole: scikit-learn refuses others as labels ("Unknown
    # label type: 'continuous'") before the estimator sees them.
    kinds = [np.array([3, 5, 9]), np.array([-7, -2, 4]), np.array([0.0, 1.0, 2.5e3]), np.array(["Ant", "bee", "cow"]),
             np.array([b"a", b"b", b"c"]), np.array(["2020-01-01", "2020-02-01", "2021-01-01"], dtype="datetime64[D]")]
    cases = [kind[k[:24]] for kind in kinds] + [
        np.array([False, True])[k[:24] % 2],
        pd.Series(pd.Categorical(np.array(["x", "y", "z"])[k[:24]])),
        pd.Series(pd.Categorical(np.array([10, 20, 30])[k[:24]]))]
    for y in cases:
        for rows in (np.arange(24), np.flatnonzero(k[:24] != 2)):
            yr = y.iloc[rows] if hasattr(y, "iloc") else y[rows]
            got = TransferClassifier(method="l1-logistic", sources=zoo, random_state=0).fit(X[rows], yr)
            with monkeypatch.context() as m:
                m.setattr(TransferClassifier, "_given_labels", staticmethod(lambda classes: None))
                want = TransferClassifier(method="l1-logistic", sources=zoo, random_state=0).fit(X[rows], yr)
            assert np.array_equal(got.classes_, want.classes_) and got.classes_.dtype == want.classes_.dtype
            assert np.array_equal(got.decision_function(X), want.decision_function(X)), got.classes_
            assert np.array_equal(got.predict(X), want.predict(X))


def _editing_greedytl(p, cli, edit):
    """A greedytl at p that runs cli's and then, after a fit, replaces the
    model file's document doc by the Python expression edit's value."""
    p.write_text(textwrap.dedent("""\
        #!{python}
        import json, os, subprocess, sys
        # cli's parent is this process (the estimator names its own: GREEDYTL_PARENT_PID).
        r = subprocess.run([{cli!r}] + sys.argv[1:], env=dict(os.environ, {env}=str(os.getpid())))
        if sys.argv[1:2] == ["fit"] and r.returncode == 0:
            out = sys.argv[sys.argv.index("--out") + 1]
            with open(out) as f:
                doc = json.load(f)
            with open(out, "w") as f:
                json.dump({edit}, f)
        sys.exit(r.returncode)
        """).format(python=sys.executable, cli=cli["path"], env=greedytl._cli.PARENT_ENV, edit=edit))
    p.chmod(0o755)
    return str(p)


def test_fit_refuses_a_model_of_other_classes(multiclass_cli, tmp_path):
    """fit refuses (RuntimeError) a model file whose classes are not one of
    each label greedytl was given (_check_classes): a class of no label
    ("7" for 5, 8, 9; "emu" for names), a binary model for three classes,
    and, the file's classes given directly, a class named twice (which
    parse_model refuses in a file) or too few classes. The message names
    the labels as greedytl does ("5", "1e+06"; it said "5.0", "1000000.0")."""
    X, k, zoo = _three_blobs([0, 1, 2])
    two = TransferClassifier(method="l1-logistic", sources=zoo, random_state=0).fit(X[k < 2][:16], k[k < 2][:16])
    assert two.model_.get("classes") is None  # a binary model
    for labels, other in (([5, 8, 9], "7"), (["cat", "dog", "owl"], "emu")):
        y = np.array(labels)[k]
        swap = "dict(doc, classes=doc['classes'][:2] + [{!r}])".format(other)
        for edit, method, said in ((swap, "nearest-mean", r"greedytl wrote classes \[.*'{}'\] for the labels {}$".format(
                                        other, ", ".join(map(str, labels)))),
                                   (repr(two.model_), "greedytl", "greedytl wrote a binary model for 3 classes")):
            bad = _editing_greedytl(tmp_path / "greedytl-{}".format(len(os.listdir(tmp_path))), multiclass_cli, edit)
            with pytest.raises(RuntimeError, match=said):
                TransferClassifier(method=method, sources=zoo, random_state=0, greedytl_bin=bad).fit(X[:24], y[:24])
        # The editing greedytl is a faithful one without an edit.
        ok = _editing_greedytl(tmp_path / "greedytl-{}".format(len(os.listdir(tmp_path))), multiclass_cli, "doc")
        TransferClassifier(method="nearest-mean", sources=zoo, random_state=0, greedytl_bin=ok).fit(X[:24], y[:24])
    from types import SimpleNamespace
    five = np.array([5.0, 8.0, 9.0])
    for classes, n in ((["5", "8", "8"], 2), (["5", "8"], 3), (["5", "8", "7"], 3)):
        with pytest.raises(RuntimeError, match="greedytl wrote classes"):
            TransferClassifier._check_classes(SimpleNamespace(classes=classes), n, five[:n])
    TransferClassifier._check_classes(SimpleNamespace(classes=["9", "5", "8"]), 3, five)
    for values, said in ((None, "0, 1, 2"), (np.array([-1e6, 2.5e7, 2.0 ** 53]), "-1e+06, 2.5e+07, 9.007199254740992e+15"),
                         (np.array([0.0, 100000.0, 123456.0]), "0, 100000, 123456")):
        with pytest.raises(RuntimeError, match=r"for the labels {}$".format(re.escape(said))):
            TransferClassifier._check_classes(SimpleNamespace(classes=["x", "y", "z"]), 3, values)


def test_class_finder():
    """_class_finder maps greedytl's name of a class to its index into
    classes_: a number label by value (Go's spelling, "1e+06", or another
    of the same value), a name by itself, the indices as _encode writes
    them; a name of no class is None (not 0, the first class). A number is
    read as greedytl reads one: not " 5", "1_000_000" or "\u0665" (an
    Arabic-Indic 5), which Python's float reads as 5 and 1e6."""
    def fc(c, k, values):
        return TransferClassifier._class_finder(k, values)(c)
    ints = np.array([-1e6, 5.0, 1e6])
    assert [fc(c, 3, ints) for c in ("-1e+06", "5", "1e+06", "1000000", "5.0")] == [0, 1, 2, 2, 1]
    for c in (" 5", "5 ", "1_000_000", "\u0665", "+5\n"):
        assert fc(c, 3, ints) is None, c
    names = np.array(["cat", "dog"])
    assert [fc(c, 2, names) for c in ("cat", "dog")] == [0, 1]
    assert [fc(c, 2, None) for c in ("-1", "1")] == [0, 1] and [fc(c, 3, None) for c in ("0", "2")] == [0, 2]
    for c, k, values in (("7", 3, ints), ("1e+07", 3, ints), ("x", 3, ints), ("", 3, ints), ("emu", 2, names),
                         ("5", 2, names), ("0", 2, None), ("3", 3, None), ("-1", 3, None)):
        assert fc(c, k, values) is None, (c, k, values)


def test_given_labels():
    """Which labels fit gives greedytl as they are: integers (ints, floats
    of integral value) of at most 2**53 in magnitude, each exact in a
    float64, as their values; str and bools whose text is an ASCII
    identifier and no number, as that text. Not larger integers (2**53 + 1
    would read as 2**53), nor text greedytl reads otherwise or refuses
    (digits, blanks, "nan", "inf", non-ASCII), bytes, objects, nor floats
    that are not whole (which fit never has: scikit-learn refuses them)."""
    assert TransferClassifier._given_labels(np.array([-3, 5])).tolist() == [-3.0, 5.0]
    assert TransferClassifier._given_labels(np.array([1.0, 2.0], dtype=np.float32)).tolist() == [1.0, 2.0]
    assert TransferClassifier._given_labels(np.array([0, 2 ** 53], dtype=np.uint64)).tolist() == [0.0, 2.0 ** 53]
    assert TransferClassifier._given_labels(np.array([False, True])).tolist() == ["False", "True"]
    assert TransferClassifier._given_labels(np.array(["Cat", "_x", "dog2"])).tolist() == ["Cat", "_x", "dog2"]
    assert TransferClassifier._given_labels(np.array(["a", np.str_("b")], dtype=object)).tolist() == ["a", "b"]
    for no in (np.array(["1", "2"]), np.array([0, 2 ** 53 + 1]), np.array([0, 2 ** 64 - 1], dtype=np.uint64),
               np.array([1, 2], dtype=object), np.array(["a", "b c"]), np.array(["a", "nan"]), np.array(["a", "inf"]),
               np.array(["a", "Infinity"]), np.array(["a", "é"]), np.array(["a", "b-c"]), np.array(["a", "#b"]),
               np.array([b"a", b"b"]), np.array(["a", _Np2Str("b")], dtype=object), np.array(["a", ""]),
               np.array([0.0, 2.5]), np.array([-0.5, 1.0]), np.array([0.0, np.inf]), np.array([np.nan, 1.0])):
        assert TransferClassifier._given_labels(no) is None, no


def test_estimator_fitted_on_class_indices_still_predicts(multiclass_cli, monkeypatch):
    """An estimator fitted, pickled, before fit gave greedytl integer labels
    and names as they are (its model file names classes_ by their indices,
    "0", "1", "2", and it has no _label_values) predicts, scores and names a
    warning's class as one fitted now."""
    for labels in ([5, 8, 9], ["a5", "b8", "c9"]):
        X, y, zoo = _three_blobs(labels)
        new = TransferClassifier(method="l1-logistic", sources=zoo, random_state=0).fit(X[:24], y[:24])
        with monkeypatch.context() as m:
            m.setattr(TransferClassifier, "_given_labels", staticmethod(lambda classes: None))
            old = TransferClassifier(method="l1-logistic", sources=zoo, random_state=0).fit(X[:24], y[:24])
        del old._label_values  # as an older package pickled it
        old = pickle.loads(pickle.dumps(old))
        last = str(new.classes_[2])  # 9; "c9"
        assert old.model_["classes"] == ["0", "1", "2"] and sorted(new.model_["classes"]) == sorted(map(str, labels))
        assert np.array_equal(old.decision_function(X), new.decision_function(X))
        assert np.array_equal(old.predict(X), new.predict(X))
        assert old._class_namer(3)("2") == new._class_namer(3)(last) == "classes_[2] = {!r}".format(new.classes_[2].item())


def test_native_multiclass_method_two_classes(multiclass_cli, tmp_path):
    """A native multi-class method fits two classes too (greedytl fit writes
    a model of the two labels, or of -1 and 1 for labels it is not given as
    they are, recording classes_[1] as its positive class): decision_function
    is 1-D, the score of classes_[1] minus that of classes_[0], which
    greedytl predict prints, and predict is classes_[1] where it is
    positive."""
    cli = multiclass_cli
    rng = np.random.default_rng(6)
    k = np.arange(40) % 2
    X = 3 * rng.normal(size=(2, 5))[k] + rng.normal(size=(40, 5))
    # greedytl names the classes by the labels ("no", "yes"), or, labels
    # it is not given as they are (a blank), by -1 and 1.
    for labels, names in ((["no", "yes"], ["no", "yes"]), (["no x", "yes x"], ["-1", "1"])):
        y = np.array(labels)[k]
        for method in ("nearest-mean", "greedytl-nway"):
            clf = TransferClassifier(method=method, random_state=0).fit(X[:20], y[:20])
            assert list(clf.classes_) == labels and set(clf.selected_) <= set(labels)
            D = clf.decision_function(X[20:])
            assert D.shape == (20,)
            assert list(clf.predict(X[20:])) == list(clf.classes_[(D > 0).astype(int)])
            np.save(tmp_path / "X.npy", X[20:])
            (tmp_path / "m.json").write_text(json.dumps(clf.model_))
            common = ["--model", tmp_path / "m.json", "--features", tmp_path / "X.npy"]
            # The file records classes_[1] as its positive class: greedytl
            # predict prints one score a row, as for a binary model.
            assert clf.model_["labels"] == {"positive": names[1], "negative": [names[0]]}
            F = np.array([float(v) for v in run(cli, "predict", *common).split()])
            np.testing.assert_allclose(D, F, rtol=1e-12, atol=1e-12)
            assert list(clf.predict(X[20:])) == list(clf.classes_[(F > 0).astype(int)])
            assert clf.score(X[20:], y[20:]) > 0.9


def test_sources_repr_short():
    """Sources' repr names a few classifiers one by one and a model zoo of
    hundreds by its count and kinds (it printed every name: 4,009
    characters for 200), shown as such in the estimator's repr; clone and
    get_params still share the very Sources."""
    from sklearn.base import clone
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import SVC
    few = greedytl.Sources([LogisticRegression(), SVC()])
    assert repr(few) == "Sources([LogisticRegression, SVC])"
    zoo = greedytl.Sources([LogisticRegression() for _ in range(150)] + [SVC() for _ in range(50)])
    assert repr(zoo) == "Sources([200 classifiers: 150 LogisticRegression, 50 SVC])"
    assert repr(greedytl.Sources([SVC(), LogisticRegression()] * 5)) == \
        "Sources([10 classifiers: 5 SVC, 5 LogisticRegression])"
    est = TransferClassifier(sources=zoo)
    assert repr(est) == "TransferClassifier(sources={!r})".format(zoo)
    assert est.get_params()["sources"] is zoo and clone(est).sources is zoo


def test_sources_repr_limit():
    """Sources' repr names up to 8 classifiers one by one and summarises 9:
    the limit itself, not only lists far from it."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import SVC
    eight = [SVC()] + [LogisticRegression() for _ in range(7)]
    assert repr(greedytl.Sources(eight)) == "Sources([SVC{}])".format(", LogisticRegression" * 7)
    assert repr(greedytl.Sources(eight + [SVC()])) == \
        "Sources([9 classifiers: 2 SVC, 7 LogisticRegression])"


def test_check_estimator(multiclass_cli):
    """scikit-learn's own checks pass, none marked as expected to fail (they
    include multi-class data: they need a greedytl that fits multi-class
    labels)."""
    from sklearn.utils.estimator_checks import check_estimator
    check_estimator(TransferClassifier())


def test_check_estimator_with_probabilities(multiclass_cli):
    """scikit-learn's checks pass with greedytl-nway, whose model has
    predict_proba: its checks of predict_proba (rows summing to 1, argmax
    the prediction, ranked as decision_function with two classes) run."""
    from sklearn.utils.estimator_checks import check_estimator
    check_estimator(TransferClassifier(method="greedytl-nway"))


@pytest.mark.parametrize("method", ["greedytl", "nearest-mean"])
def test_check_estimator_other_model_forms(multiclass_cli, method):
    """scikit-learn's checks pass for the other forms of model fit writes on
    their multi-class data: a binary method fitted one class against the
    rest (greedytl: per-class GreedyTL files) and a native multi-class
    method whose scores are distances (nearest-mean); on their binary data,
    those methods' binary models."""
    from sklearn.utils.estimator_checks import check_estimator
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", greedytl.GreedyTLWarning)
        check_estimator(TransferClassifier(method=method))


def test_predict_proba_where_scores_are_probabilities(multiclass_cli):
    """predict_proba exists (hasattr) only on a model whose scores are class
    probabilities, greedytl-nway's: it is decision_function with three
    classes, and with two its columns' difference is decision_function;
    the other methods (logits, margins, distances) and an unfitted
    estimator have none, the AttributeError saying what to use; and
    cross_val_score takes scoring="neg_log_loss", each fold's score the
    log loss of that fold's predict_proba."""
    from sklearn.base import clone
    from sklearn.metrics import log_loss
    from sklearn.model_selection import KFold, cross_val_score
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 5))
    y = np.array(["c", "a", "b"])[np.argmax(X[:, :3] + 0.5 * rng.normal(size=(60, 3)), axis=1)]
    assert not hasattr(TransferClassifier(), "predict_proba")
    with pytest.raises(AttributeError, match="fit first"):
        TransferClassifier().predict_proba(X)
    clf = TransferClassifier(method="greedytl-nway").fit(X, y)
    P = clf.predict_proba(X)
    assert P.shape == (60, 3) and np.array_equal(P, clf.decision_function(X))
    np.testing.assert_allclose(P.sum(axis=1), 1, rtol=0, atol=1e-12)
    assert np.array_equal(clf.classes_[np.argmax(P, axis=1)], clf.predict(X))
    two = TransferClassifier(method="greedytl-nway").fit(X, y == "a")
    P2 = two.predict_proba(X)
    assert P2.shape == (60, 2) and np.array_equal(P2[:, 1] - P2[:, 0], two.decision_function(X))
    for method, labels in (("multinomial-logistic", y), ("nearest-mean", y), ("simpleshot", y), (None, y == "a")):
        other = TransferClassifier(method=method).fit(X, labels)
        assert not hasattr(other, "predict_proba"), method
        with pytest.raises(AttributeError, match="gives no class probabilities.*use decision_function"):
            other.predict_proba(X)
    cv = KFold(3, shuffle=True, random_state=0)
    est = TransferClassifier(method="greedytl-nway", random_state=0)
    got = cross_val_score(est, X, y, scoring="neg_log_loss", cv=cv)
    want = [-log_loss(y[te], clone(est).fit(X[tr], y[tr]).predict_proba(X[te]),
                      labels=clf.classes_) for tr, te in cv.split(X)]
    assert np.all(np.isfinite(got)) and np.array_equal(got, want)


def test_sklearn_tags_for_new_scikit_learn():
    """scikit-learn >= 1.6 reads tags from __sklearn_tags__ (Tags objects with
    input_tags and target_tags), not _more_tags: the estimator declares the
    same tags there. Tested against a stand-in of those objects, since the
    scikit-learn here is older."""
    from types import SimpleNamespace

    class NewBase:
        def __sklearn_tags__(self):
            return SimpleNamespace(estimator_type=None,
                                   input_tags=SimpleNamespace(sparse=False, two_d_array=True),
                                   target_tags=SimpleNamespace(required=False))

    class Probe(TransferClassifier, NewBase):
        pass

    tags = Probe().__sklearn_tags__()
    old = TransferClassifier()._more_tags()
    assert tags.target_tags.required is old["requires_y"] is True
    assert tags.input_tags.sparse is True and "sparse" in old["X_types"]
    assert tags.input_tags.two_d_array is True


# -- the command: missing, old, failing, interrupted, killed ----------------

def _fake(tmp_path, body, version=None):
    """A fake greedytl: `version --json` prints version (default: a current
    one), anything else runs the shell body."""
    if version is None:
        version = json.dumps({"module": "(fake)", "go": "go", "model_format": "greedytl-model",
                              "model_version": 2, "methods": ["greedytl"], "fit_report": 1})
    p = tmp_path / "greedytl"
    p.write_text("#!/bin/sh\nif [ \"$1\" = version ]; then echo '{}'; exit 0; fi\n{}\n".format(version, body))
    p.chmod(0o755)
    return str(p)


def test_missing_and_old_command(tmp_path, monkeypatch):
    monkeypatch.setenv("GREEDYTL_BIN", str(tmp_path / "nothing"))
    with pytest.raises(greedytl.CommandNotFoundError, match=r"go install \./cmd/greedytl"):
        TransferClassifier().fit(*_data())
    monkeypatch.delenv("GREEDYTL_BIN")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("GOPATH", str(tmp_path / "gopath"))
    with pytest.raises(greedytl.CommandNotFoundError, match=r"not on PATH.*go install \./cmd/greedytl"):
        greedytl.find_greedytl()
    # Installed by go install but not on PATH: the message names it.
    gobin = tmp_path / "gopath" / "bin"
    gobin.mkdir(parents=True)
    (gobin / "greedytl").write_text("#!/bin/sh\n")
    (gobin / "greedytl").chmod(0o755)
    with pytest.raises(greedytl.CommandNotFoundError, match="{}.*not on PATH".format(gobin / "greedytl")):
        greedytl.find_greedytl()
    old = _fake(tmp_path, "exit 0", version=json.dumps({"module": "v0", "go": "go"}))
    with pytest.raises(greedytl.CommandNotFoundError, match="older"):
        TransferClassifier(greedytl_bin=old).fit(*_data())
    # A build whose fit has no --json report (the warnings' channel).
    old = _fake(tmp_path, "exit 0", version=json.dumps({"module": "v0", "go": "go", "model_format": "greedytl-model",
                                                        "model_version": 2, "methods": ["greedytl"]}))
    with pytest.raises(greedytl.CommandNotFoundError, match="report version None.*older"):
        TransferClassifier(greedytl_bin=old).fit(*_data())


def _older(cli, tmp_path, body, drop=("fit_flags",), **change):
    """A greedytl older than this package, wrapping the real one (cli):
    `version --json` prints the real build's without the members drop and
    with those of change (an older build's), and the shell body runs first
    for any other command line ("$@"), the real greedytl after it."""
    info = {k: v for k, v in cli.items() if k != "path" and k not in drop}
    info.update(module="v0.0.9", revision="0123456789abcdef0123", **change)
    info.pop("executable_sha256", None)
    p = tmp_path / "greedytl"
    p.write_text("#!/bin/sh\nif [ \"$1\" = version ]; then echo {}; exit 0; fi\n{}\nexec {} \"$@\"\n".format(
        shlex.quote(json.dumps(info)), body, shlex.quote(cli["path"])))
    p.chmod(0o755)
    return str(p)


def test_older_command_without_ignore_unused_extra(cli, tmp_path):
    """A greedytl older than fit --ignore-unused-extra, which the package
    passes with X_unlabelled or X_oracle, is refused before fit runs with
    one CommandNotFoundError naming the build (path, version, commit), the
    package's version and that greedytl is the one to upgrade — whether
    its version --json lists fit's flags (fit_flags) or, older, does not
    (then fit --help's listing is read). The fit failed with greedytl's
    "unknown flag: --ignore-unused-extra", a ValueError that said neither.
    A build without fit_flags whose fit --help lists the flag fits as
    the current one does; so does any fit without X_unlabelled and
    X_oracle."""
    X, y = _data()
    refuse = ('for a in "$@"; do if [ "$a" = --ignore-unused-extra ]; then echo "greedytl: unknown flag: '
              "--ignore-unused-extra (see 'greedytl fit --help')\" >&2; exit 2; fi; done")
    # fit --help without the flag's line, as an older build lists them.
    help_ = ('if [ "$1" = fit ] && [ "$2" = --help ]; then {} fit --help | grep -v -e --ignore-unused-extra; '
             "exit 0; fi").format(shlex.quote(cli["path"]))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    no_list = _older(cli, tmp_path / "a", help_ + "\n" + refuse)
    flags = sorted(set(cli["fit_flags"]) - {"ignore-unused-extra"})
    listed = _older(cli, tmp_path / "b", refuse, drop=(), fit_flags=flags)
    want = (r"greedytl {}/greedytl \(v0\.0\.9, commit 0123456789ab\) is older than the greedytl Python package "
            r"{}: its fit has no --ignore-unused-extra, which the package passes with X_unlabelled or X_oracle .*"
            r"upgrade greedytl to the version of the Python package")
    for fake, d in ((no_list, tmp_path / "a"), (listed, tmp_path / "b")):
        for kw in ({"X_unlabelled": X}, {"X_oracle": X[:10], "y_oracle": y[:10]}):
            with pytest.raises(greedytl.CommandNotFoundError,
                               match=want.format(re.escape(str(d)), re.escape(greedytl.__version__))):
                TransferClassifier(greedytl_bin=fake, random_state=0).fit(X, y, **kw)
        # Without the extra samples the flag is not passed: the fit runs.
        plain = TransferClassifier(greedytl_bin=fake, random_state=0).fit(X, y)
        np.testing.assert_array_equal(plain.decision_function(X),
                                      TransferClassifier(random_state=0).fit(X, y).decision_function(X))
    # A build older than fit_flags whose fit takes the flag: fit --help
    # lists it, and the fit runs as with the current build.
    (tmp_path / "c").mkdir()
    has_flag = _older(cli, tmp_path / "c", "")
    got = TransferClassifier(greedytl_bin=has_flag, random_state=0).fit(X, y, X_unlabelled=X)
    np.testing.assert_array_equal(got.decision_function(X),
                                  TransferClassifier(random_state=0).fit(X, y, X_unlabelled=X).decision_function(X))


def test_older_command_refusing_newer_sources(cli, synth, tmp_path):
    """A greedytl older than the sources directory it is given (its
    sources.json has the per-source "scores" that train-sources records
    now, and that older builds refused with 'DIR/sources.json: json:
    unknown field "scores"') fails the fit with one CommandNotFoundError
    naming the index, the member, the build (path, version, commit), the
    package's version and that greedytl is the one to upgrade. It was a
    ValueError with the older build's words alone, which said neither why
    nor what to upgrade."""
    Xs, labels = synth["X"], synth["labels"]
    t = labels.max()
    idx = np.concatenate([np.flatnonzero(labels == t)[:5], np.flatnonzero(labels != t)[::7][:15]])
    index = os.path.join(synth["sources"], "sources.json")
    refuse = ('for a in "$@"; do if [ "$a" = --sources ]; then '
              'echo \'greedytl: {}: json: unknown field "scores"\' >&2; exit 2; fi; done').format(index)
    fake = _older(cli, tmp_path, refuse)
    want = (r'greedytl {}/greedytl \(v0\.0\.9, commit 0123456789ab\) cannot read {}: its member "scores" is unknown '
            r"to that greedytl .*written by a newer greedytl .*greedytl Python package {}.*upgrade greedytl").format(
                re.escape(str(tmp_path)), re.escape(index), re.escape(greedytl.__version__))
    with pytest.raises(greedytl.CommandNotFoundError, match=want):
        TransferClassifier(sources=synth["sources"], greedytl_bin=fake, random_state=0).fit(Xs[idx], labels[idx] == t)
    # Another refusal of the older build is its own, an input error.
    (tmp_path / "x").mkdir()
    other = _older(cli, tmp_path / "x",
                   'for a in "$@"; do if [ "$a" = --sources ]; then echo \'greedytl: {}: no negative plan\' >&2; '
                   'exit 2; fi; done'.format(index))
    with pytest.raises(greedytl.CLIInputError, match="no negative plan"):
        TransferClassifier(sources=synth["sources"], greedytl_bin=other, random_state=0).fit(Xs[idx], labels[idx] == t)


def test_command_that_does_not_answer(tmp_path, monkeypatch):
    """A command that does not answer `greedytl version --json` (not a
    greedytl, or a hung one) is a CommandNotFoundError saying so and what to
    do, as one that answers wrong is; it was subprocess.TimeoutExpired."""
    from greedytl import _cli
    monkeypatch.setattr(_cli, "_VERSION_TIMEOUT", 0.5, raising=False)
    p = tmp_path / "greedytl"
    p.write_text("#!/bin/sh\nexec sleep 30\n")
    p.chmod(0o755)
    with pytest.raises(greedytl.CommandNotFoundError, match=r"did not answer .*version --json.* within 0.5 s.*go install"):
        TransferClassifier(greedytl_bin=str(p)).fit(*_data())


def test_exit_status_1_is_runtime_error(tmp_path):
    fake = _fake(tmp_path, "echo 'greedytl: writing model.json: disk full' >&2; exit 1")
    with pytest.raises(RuntimeError, match="disk full") as e:
        TransferClassifier(greedytl_bin=fake).fit(*_data())
    assert not isinstance(e.value, ValueError) and e.value.returncode == 1
    # A fit that succeeds without its --json report (model and warnings) on
    # standard output is a failure too: its warnings would be lost.
    fake = _fake(tmp_path, "echo 'fitting: 100%'; exit 0")
    with pytest.raises(RuntimeError, match="not its report"):
        TransferClassifier(greedytl_bin=fake).fit(*_data())


def test_cli_message_says_greedytl_once(tmp_path):
    """A failure's message names the command once: greedytl prefixes each
    line it prints with "greedytl: ", which the message, already "greedytl
    fit: …", repeated ("greedytl fit: greedytl: every column of X …");
    ``stderr`` keeps the command's own text."""
    fake = _fake(tmp_path, "echo 'greedytl: writing model.json: disk full' >&2; exit 1")
    with pytest.raises(greedytl.CLIError) as e:
        TransferClassifier(greedytl_bin=fake).fit(*_data())
    assert str(e.value) == "greedytl fit failed (exit status 1): writing model.json: disk full"
    assert e.value.stderr == "greedytl: writing model.json: disk full"
    fake = _fake(tmp_path, "echo 'greedytl: warning: odd' >&2; echo 'greedytl: --labels: bad' >&2; exit 2")
    with pytest.raises(greedytl.CLIInputError) as e:
        TransferClassifier(greedytl_bin=fake).fit(*_data())
    assert str(e.value) == "greedytl fit: warning: odd\n--labels: bad"
    assert e.value.stderr == "greedytl: warning: odd\ngreedytl: --labels: bad"


# The fitting process handles SIGINT as an interactive Python does (raises
# KeyboardInterrupt) even when it inherits SIGINT ignored, as every command
# started in the background by a non-interactive shell does (a CI script
# run with `&`): the test is about the fit's clean-up, not that inheritance.
_SLOW_FIT = textwrap.dedent("""
    import signal
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import numpy as np, greedytl
    X = np.arange(20.0).reshape(10, 2); y = np.arange(10) % 2
    greedytl.TransferClassifier(greedytl_bin={fake!r}).fit(X, y)
""")


#: How long the tests below wait for what takes a second or less on an idle
#: machine (a Python process importing numpy and greedytl, a child ending
#: on a signal): an overall deadline, generous because a loaded machine
#: took over 10 s to start Python, never a count of polls.  What they
#: assert holds however long the wait: the slow child sleeps for twice as
#: long, and the demo's stop is told from its end by its report (its
#: standard output is /dev/null: a greedytl left running wrote its table
#: to the killed Python process's pipe at the end and died of SIGPIPE
#: just before the report, passing for one that stopped).
_DEADLINE = 300


def _wait_until(done, what, stop=lambda: None):
    """Waits until done() is true, looking every 0.05 s, for at most
    _DEADLINE seconds; fails the test saying what did not happen when the
    deadline passes, or at once when stop() returns a reason (the process
    that was to do it has ended)."""
    end = time.monotonic() + _DEADLINE
    while not done():
        reason = stop()
        if reason:
            pytest.fail("{}: {}".format(what, reason))
        if time.monotonic() >= end:
            pytest.fail("{} within {} s".format(what, _DEADLINE))
        time.sleep(0.05)


def _start_slow_fit(tmp_path, run="exec sleep {}".format(2 * _DEADLINE)):
    """A Python process fitting with a fake greedytl that records its pid and
    runs the shell command run (by default, sleeps); returns the process,
    the child's pid and the TMPDIR used."""
    pidfile = tmp_path / "child.pid"
    fake = _fake(tmp_path, "echo $$ > {}; {}".format(pidfile, run))
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_FIT.format(fake=fake)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Waits until the child runs, however long the Python process takes to
    # start (importing numpy and greedytl took over 10 s on a loaded
    # machine), or until the Python process ends without starting it.
    _wait_until(lambda: pidfile.exists() and pidfile.read_text().strip(), "the fake greedytl did not start",
                lambda: proc.poll() is not None and "the Python process ended: {}".format(proc.communicate()))
    assert os.listdir(tmpdir), "the fit's private directory exists while it runs"
    return proc, int(pidfile.read_text()), tmpdir


def _gone(pid, timeout=_DEADLINE):
    """Whether process pid ends (or is a zombie) within timeout seconds
    (0: whether it has now): told by the end itself where a pidfd opens
    (Linux 5.3, Python 3.9), by a look at /proc every 0.05 s elsewhere."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        try:
            # Readable once the process has ended (a zombie included).
            return bool(select.select([fd], [], [], timeout)[0])
        finally:
            os.close(fd)
    end = time.monotonic() + timeout
    while True:
        try:
            with open("/proc/{}/stat".format(pid)) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(0.05)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_keyboard_interrupt_cleans_up(tmp_path):
    """Ctrl-C during fit: KeyboardInterrupt, the child stopped, no files."""
    proc, child, tmpdir = _start_slow_fit(tmp_path)
    try:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=_DEADLINE)
        assert b"KeyboardInterrupt" in err
        assert _gone(child), "greedytl still runs after the interrupted fit"
    finally:
        proc.kill()
        if not _gone(child, timeout=0):
            os.kill(child, signal.SIGKILL)
    assert os.listdir(tmpdir) == []


# A Ctrl-C that comes once the child runs but before run_cli waits for it:
# Popen is made to send SIGINT to its own process on return from starting
# the fit's command, so that KeyboardInterrupt was raised inside Popen,
# before run_cli held the child, which was left running.
_LATE_SIGINT = textwrap.dedent("""
    import os, signal, subprocess
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import numpy as np, greedytl

    class Popen(subprocess.Popen):
        def __init__(self, args, *a, **k):
            super().__init__(args, *a, **k)
            if args[1:2] == ["fit"]:
                print(self.pid, flush=True)
                os.kill(os.getpid(), signal.SIGINT)

    subprocess.Popen = Popen
    X = np.arange(20.0).reshape(10, 2); y = np.arange(10) % 2
    greedytl.TransferClassifier(greedytl_bin={fake!r}).fit(X, y)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_keyboard_interrupt_as_the_child_starts_cleans_up(tmp_path):
    """Ctrl-C right as the fit's command starts (before the Popen call that
    started it returned): KeyboardInterrupt, the child stopped, no files."""
    fake = _fake(tmp_path, "exec sleep 60")
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", _LATE_SIGINT.format(fake=fake)], env=env, capture_output=True)
    child = int(p.stdout)
    try:
        assert b"KeyboardInterrupt" in p.stderr, p.stderr
        # The Python process waits for its child before it ends: gone now.
        assert _gone(child, timeout=0), "greedytl still runs after the interrupted fit"
    finally:
        if not _gone(child, timeout=0):
            os.kill(child, signal.SIGKILL)
    assert os.listdir(tmpdir) == []


# A Ctrl-C that comes as the fit's private directory is made: mkdtemp is
# made to send SIGINT to its own process once it made the directory, so
# that KeyboardInterrupt was raised inside private_dir's __enter__, whose
# __exit__ (which removes the directory) then never ran.
_MKDTEMP_SIGINT = textwrap.dedent("""
    import os, signal, tempfile
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import numpy as np, greedytl
    mkdtemp = tempfile.mkdtemp

    def late(*a, **k):
        path = mkdtemp(*a, **k)
        os.kill(os.getpid(), signal.SIGINT)
        return path

    tempfile.mkdtemp = late
    X = np.arange(20.0).reshape(10, 2); y = np.arange(10) % 2
    try:
        greedytl.TransferClassifier(greedytl_bin={fake!r}).fit(X, y)
    except KeyboardInterrupt:
        print(os.listdir({tmpdir!r}))
        raise
""")


@pytest.mark.skipif(os.name != "posix", reason="sends its own process SIGINT")
def test_keyboard_interrupt_as_the_directory_is_made_cleans_up(tmp_path):
    """Ctrl-C as the fit's private directory is made: KeyboardInterrupt
    and no directory left while the Python process lives on."""
    fake = _fake(tmp_path, "exit 1")
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", _MKDTEMP_SIGINT.format(fake=fake, tmpdir=str(tmpdir))], env=env,
                       capture_output=True, text=True)
    assert "KeyboardInterrupt" in p.stderr, p.stderr
    assert p.stdout == "[]\n"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG and /proc are Linux's")
def test_killed_fit_cleans_up(tmp_path, cli):
    """SIGKILL of the Python process during fit: the child is stopped (Linux
    parent-death signal, which greedytl asks for when started by the
    package) and the next fit removes the directory left.  The child is the
    real greedytl running its demo (a minute of work that stops on SIGTERM)
    as the fit's command, started once it runs (its output directory
    exists), so that greedytl has set the signal or will find its parent
    gone."""
    demo = tmp_path / "demo"
    proc, child, tmpdir = _start_slow_fit(tmp_path, "exec {} demo --quiet --out {} >/dev/null".format(
        shlex.quote(cli["path"]), shlex.quote(str(demo))))
    try:
        _wait_until(lambda: (demo / "run").exists(), "greedytl demo did not start its run",
                    lambda: _gone(child, timeout=0) and "greedytl ended")
        proc.kill()
        proc.communicate()
        assert _gone(child), "greedytl still runs after its Python process was killed"
        assert not (demo / "report").exists(), "greedytl finished its demo: its Python process's death did not stop it"
    finally:
        proc.kill()
        if not _gone(child, timeout=0):
            os.kill(child, signal.SIGKILL)
    assert len(os.listdir(tmpdir)) == 1
    fake = _fake(tmp_path, "exit 1")
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, "-c", _SLOW_FIT.format(fake=fake)], env=env, capture_output=True)
    assert os.listdir(tmpdir) == []


def _wrapper(tmp_path, cli):
    """A script that runs the real greedytl as its child, without exec (as
    HPC module wrappers, timeout, strace and shell shims do)."""
    p = tmp_path / "wrapped-greedytl"
    p.write_text("#!/bin/sh\n{} \"$@\"\nexit $?\n".format(shlex.quote(cli["path"])))
    p.chmod(0o755)
    return str(p)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death rule is Linux's")
def test_fit_through_a_wrapper(tmp_path, cli):
    """GREEDYTL_BIN naming a wrapper that runs greedytl as a child: the fit
    works (greedytl watches the Python process, an ancestor but not its
    parent, instead of stopping with status 143) and predicts as a fit with
    greedytl itself."""
    X, y = _data()
    wrapped = TransferClassifier(greedytl_bin=_wrapper(tmp_path, cli)).fit(X, y)
    direct = TransferClassifier(greedytl_bin=cli["path"]).fit(X, y)
    np.testing.assert_array_equal(wrapped.decision_function(X), direct.decision_function(X))


def _child_of(pid):
    """The id of a child of process pid, or None."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/{}/stat".format(name)) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        return int(name)
            except (FileNotFoundError, ProcessLookupError):
                pass
    return None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death rule and /proc are Linux's")
def test_killed_fit_through_a_wrapper_stops_greedytl(tmp_path, cli):
    """SIGKILL of the Python process during a fit whose command is a
    wrapper running greedytl as a child: greedytl (its demo, a minute of
    work) stops although its parent, the wrapper, still runs."""
    demo = tmp_path / "demo"
    proc, wrapper, tmpdir = _start_slow_fit(tmp_path, "{} demo --quiet --out {} >/dev/null; exit $?".format(
        shlex.quote(cli["path"]), shlex.quote(str(demo))))
    child = None

    def started():
        nonlocal child
        child = child or _child_of(wrapper)
        return child and (demo / "run").exists()

    try:
        _wait_until(started, "greedytl demo did not start its run under the wrapper",
                    lambda: _gone(child or wrapper, timeout=0) and "greedytl or its wrapper ended")
        proc.kill()
        proc.communicate()
        assert _gone(child), "greedytl still runs after its Python process was killed"
        assert not (demo / "report").exists(), "greedytl finished its demo: its Python process's death did not stop it"
    finally:
        proc.kill()
        for pid in (child, wrapper):
            if pid and not _gone(pid, timeout=0):
                os.kill(pid, signal.SIGKILL)


_IMPORT_ONLY = textwrap.dedent("""
    import os, sys, tempfile
    import greedytl
    assert os.path.isdir(sys.argv[1]), "import removed " + sys.argv[1]
    os.environ["TMPDIR"] = sys.argv[2]
    print(tempfile.gettempdir())
""")


def test_import_leaves_tempfile_and_directories_alone(tmp_path):
    """Importing greedytl removes no file and leaves tempfile's state as it
    was: a sweep at import (since reverted) removed the directory of a gone
    process of this host, and its tempfile.gettempdir() fixed
    tempfile.tempdir, so a TMPDIR set after the import (the package's own
    later fits included) was not used.  The fit sweeps that directory
    (test_killed_fit_cleans_up)."""
    from greedytl import _cli
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    stale = first / "{}{}-{}-x".format(_cli._DIR_PREFIX, _dead_pid(), _cli._host_tag())
    stale.mkdir()
    env = dict(os.environ, TMPDIR=str(first), PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", _IMPORT_ONLY, str(stale), str(second)], env=env,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == str(second)
    assert os.listdir(first) == [stale.name]


def test_start_sets_no_preexec_fn(cli, monkeypatch):
    """greedytl starts with no code run in the child between fork and exec
    (Python's preexec_fn, which can deadlock the child when other threads
    run: joblib's threading backend, GridSearchCV with threads, Jupyter);
    instead its environment names the Python process (greedytl.PARENT_ENV),
    which greedytl asks the parent-death signal for (test_killed_fit_cleans_up)."""
    from greedytl import _cli
    seen = []

    class Popen(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            seen.append(kwargs)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", Popen)
    assert _cli.run_cli(["version"], cli["path"]).startswith("greedytl ")
    assert len(seen) == 1
    assert seen[0].get("preexec_fn") is None
    assert seen[0]["env"][_cli.PARENT_ENV] == str(os.getpid())
    assert {k: v for k, v in seen[0]["env"].items() if k != _cli.PARENT_ENV} == dict(os.environ)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_child_of_a_dead_parent_does_not_run(tmp_path, cli, monkeypatch):
    """A Python process that dies before greedytl asks for the parent-death
    signal leaves a greedytl that no such signal will stop (the parent is
    already gone): greedytl checks after the request that its parent is
    still the Python process and ends before running the command.  The race
    is made certain by naming another process as the parent (os.getpid,
    patched while the command starts); the command then writes nothing."""
    from greedytl import _cli
    out = tmp_path / "synth"
    args = ["synth", "--out", out, "--classes", "3", "--per-class", "3", "--dims", "2"]
    dead = _dead_pid()
    monkeypatch.setattr(os, "getpid", lambda: dead)
    with pytest.raises(greedytl.CLIError, match="exit status 143.*the process that started greedytl has ended"):
        _cli.run_cli(args, cli["path"])
    monkeypatch.undo()
    assert not out.exists(), "greedytl ran although its parent was gone"
    _cli.run_cli(args, cli["path"])
    assert out.exists()


def _dead_pid():
    """A process id that no process has (the one of a process that ended)."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_sweep_spares_other_hosts(tmp_path, monkeypatch):
    """The sweep of stale fit directories removes those of this host's
    Python processes that are gone, and no other host's: a TMPDIR shared by
    several machines (a cluster's scratch) held the directories of fits
    running elsewhere, whose process ids meant nothing here, and the next
    fit on this machine removed them under the running fits."""
    import socket
    from greedytl import _cli
    dead = _dead_pid()
    monkeypatch.setattr(os, "getpid", lambda: dead)
    monkeypatch.setattr(socket, "gethostname", lambda: "another-host")
    elsewhere = _cli.private_dir(str(tmp_path)).__enter__()
    monkeypatch.undo()
    monkeypatch.setattr(os, "getpid", lambda: dead)
    here = _cli.private_dir(str(tmp_path)).__enter__()
    monkeypatch.undo()
    assert _cli._alive(dead) is False
    with _cli.private_dir(str(tmp_path)) as mine:
        assert sorted(os.listdir(tmp_path)) == sorted(os.path.basename(p) for p in (elsewhere, mine))
    assert os.listdir(tmp_path) == [os.path.basename(elsewhere)]


def test_sweep_leaves_odd_names_alone(tmp_path, monkeypatch):
    """The temporary directory is anyone's: the sweep meets names of its
    prefix that no fit made, and a fit must neither fail on them nor remove
    them.  A pid of 20 digits made os.kill raise OverflowError, "²" (which
    str.isdigit takes) int() raise ValueError, each out of fit; a pid is
    asked about only for this user's directories (the owner is checked
    first), and a file or a symbolic link of such a name is no fit's."""
    from greedytl import _cli
    host = _cli._host_tag()
    dead = _dead_pid()
    odd = ["99999999999999999999-abc", "\u00b2-abc", "\u0663-abc", "2147483648-abc", "0-abc", "00{}-abc".format(dead),
           "{}-{}-\u00b2".format("9" * 30, host), "-{}-x".format(dead), "abc", ""]
    for name in odd:
        (tmp_path / (_cli._DIR_PREFIX + name)).mkdir()
    target = tmp_path / "target"
    target.mkdir()
    (target / "kept").write_text("")
    (tmp_path / "{}{}-{}-link".format(_cli._DIR_PREFIX, dead, host)).symlink_to(target)
    (tmp_path / "{}{}-{}-file".format(_cli._DIR_PREFIX, dead, host)).write_text("")
    theirs = tmp_path / "{}{}-{}-theirs".format(_cli._DIR_PREFIX, os.getppid(), host)
    theirs.mkdir()
    mine = tmp_path / "{}{}-{}-mine".format(_cli._DIR_PREFIX, dead, host)
    mine.mkdir()
    uid = os.getuid()
    real_lstat, asked = os.lstat, []
    def lstat(p, *a, **k):
        st = real_lstat(p, *a, **k)
        if os.path.basename(p) == theirs.name:  # another user's directory
            st = os.stat_result(st[:4] + (uid + 1,) + st[5:])
        return st
    monkeypatch.setattr(os, "lstat", lstat)
    monkeypatch.setattr(_cli, "_alive", lambda pid: asked.append(pid) or False)
    before = sorted(os.listdir(tmp_path))
    _cli._sweep_stale(str(tmp_path), host)
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == sorted(set(before) - {mine.name})
    assert asked == [dead] and os.listdir(target) == ["kept"]  # not theirs: its owner is not this user
    # A fit sweeps alike and succeeds.
    with _cli.private_dir(str(tmp_path)) as d:
        assert sorted(os.listdir(tmp_path)) == sorted(set(before) - {mine.name} | {os.path.basename(d)})


def test_host_tag_once_per_fit(tmp_path, monkeypatch):
    """Entering a fit's private directory asks the host's name (and hashes
    it) once, for the sweep and the directory's name alike: it did twice."""
    import socket
    from greedytl import _cli
    asked = []
    real = socket.gethostname
    monkeypatch.setattr(socket, "gethostname", lambda: asked.append(1) or real())
    with _cli.private_dir(str(tmp_path)) as d:
        assert os.path.basename(d).startswith("greedytl-fit-{}-{}-".format(os.getpid(), _cli._host_tag()))
        assert len(asked) == 2  # the entry's one, and the line above's
    assert os.listdir(tmp_path) == []


def test_sweep_sends_no_signal_on_windows(tmp_path, monkeypatch):
    """Where os.kill cannot ask whether a process exists (Windows: any
    signal but Ctrl-C's ends the process, TerminateProcess), the sweep
    leaves the directories alone instead of calling it: it "asked" with
    os.kill(pid, 0), which on Windows ended the process of that id — a
    sibling worker fitting beside it (cross_val_score with n_jobs=2), or
    whatever process reused the id of one that was killed."""
    from greedytl import _cli
    dead = _dead_pid()
    monkeypatch.setattr(os, "getpid", lambda: dead)
    left = _cli.private_dir(str(tmp_path)).__enter__()
    monkeypatch.undo()
    sent = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: sent.append((pid, sig)))
    monkeypatch.setattr(os, "name", "nt")
    _cli._sweep_stale(str(tmp_path), _cli._host_tag())
    monkeypatch.undo()
    assert sent == [] and os.listdir(tmp_path) == [os.path.basename(left)]


_NO_SKLEARN = textwrap.dedent("""
    import sys
    sys.modules["sklearn"] = None  # import sklearn fails
    import numpy as np, greedytl
    assert not greedytl._compat.HAVE_SKLEARN
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4)); y = np.where(X[:, 0] > 0, "b", "a")
    clf = greedytl.TransferClassifier(sources=lambda A: A[:, :2] * 2, random_state=1).fit(X[:20], y[:20])
    assert list(clf.classes_) == ["a", "b"] and clf.n_features_in_ == 4
    assert clf.get_params()["random_state"] == 1 and clf.set_params(random_state=2).random_state == 2
    print(clf.score(X[20:], y[20:]))
    from scipy import sparse
    S = sparse.csr_matrix(np.where(np.abs(X) < 0.5, 0, X))
    a = greedytl.TransferClassifier(sources=lambda A: A[:, :2].toarray(), random_state=1).fit(S[:20], y[:20])
    b = greedytl.TransferClassifier(sources=lambda A: A[:, :2], random_state=1).fit(S[:20].toarray(), y[:20])
    assert (a.decision_function(S) == b.decision_function(S.toarray())).all()
    assert not hasattr(clf, "predict_proba")  # the stand-in available_if: margins, no probabilities
    nway = greedytl.TransferClassifier(method="greedytl-nway", random_state=1).fit(X[:20], y[:20])
    P = nway.predict_proba(X)
    assert P.shape == (30, 2) and (P[:, 1] - P[:, 0] == nway.decision_function(X)).all()
    try:
        clf.predict(X[:, :3])
    except ValueError as e:
        assert "features" in str(e)
    else:
        raise AssertionError("3 columns accepted")
    try:
        greedytl.TransferClassifier(method="dam").fit(X[:20], y[:20], X_unlabelled=X[20:, :3])
    except ValueError as e:
        assert str(e) == "X_unlabelled: X has 3 features, but TransferClassifier is expecting 4 features as input.", e
    else:
        raise AssertionError("X_unlabelled of 3 columns accepted")
    import warnings
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        greedytl.TransferClassifier(method="best-source", sources=lambda A: A[:, :2]).fit(
            X[:20], y[:20], X_oracle=X[20:], y_oracle=y[20:, None])
    assert [str(w.message)[-20:] for w in got] == ["(y here is y_oracle)"], [str(w.message) for w in got]
    failed = greedytl.TransferClassifier(method="no-such-method")
    try:
        failed.fit(X, y)
    except ValueError:
        pass
    else:
        raise AssertionError("no-such-method fitted")
    for est in (greedytl.TransferClassifier(), failed):
        try:
            est.predict(X)
        except greedytl._compat.NotFittedError:
            pass
        else:
            raise AssertionError("predict before a fit")
    # A classifier's own word on whether it is fitted (__sklearn_is_fitted__)
    # counts before its attributes ending in "_", as with scikit-learn.
    class Clf:
        def __init__(self, fitted):
            self.fitted, self.offset_ = fitted, 0.0
        def fit(self, X, y):
            return self
        def decision_function(self, A):
            return A[:, 0]
        def __sklearn_is_fitted__(self):
            return self.fitted
    try:
        greedytl.TransferClassifier(sources=Clf(False)).fit(X[:20], y[:20])
    except ValueError as e:
        assert "sources (Clf) is not fitted" in str(e), e
    else:
        raise AssertionError("an unfitted classifier (by __sklearn_is_fitted__) taken")
    greedytl.TransferClassifier(sources=Clf(True)).fit(X[:20], y[:20])
""")


def test_without_sklearn(cli):
    """NumPy only: the estimator fits, predicts and validates without
    scikit-learn (its stand-ins in greedytl._compat), a SciPy sparse X
    included, and a classifier as sources is fitted by its
    __sklearn_is_fitted__ (an attribute ending in "_" was taken for it)."""
    env = dict(os.environ, GREEDYTL_BIN=cli["path"], PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", _NO_SKLEARN], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert float(p.stdout) > 0.7


def test_sources_dir_messages_count_one():
    """SourcesDir's refusals word a count of 1 as Go's (cmd/greedytl's
    --sources check, source.Set.Scores): "1 column", "1 feature", where
    they said "1 columns", "1 features"."""
    src = object.__new__(greedytl.SourcesDir)
    src.path, src.num_features = "srcs", 2
    index = os.path.join("srcs", "sources.json")
    with pytest.raises(ValueError, match=re.escape(
            "X has 1 column but the sources of srcs were trained on 2 features (num_features of {})".format(index))):
        src.check_columns(1)
    src.num_features = 1
    with pytest.raises(ValueError, match=re.escape(
            "X has 2 columns but the sources of srcs were trained on 1 feature (num_features of {})".format(index))):
        src.check_columns(2)
    src.num_features, src.d, src.names, src._nr_feature = 0, 1, ["s"], [1]
    with pytest.raises(ValueError, match=re.escape("source 's': model has 1 feature but the examples have 0")):
        src.scores(np.zeros((1, 0)))


def test_negative_zero_setting_fits(cli, zoo):
    """A GreedyTL setting given as -0 fits a model Python reads back: greedytl
    names it by its value, 0 ("greedytl:delta=0" with delta 0), where it
    wrote "greedytl:delta=-0", which read_model (its JSON reading -0 as the
    integer 0) refused as not the spec of its options, so fit failed."""
    X, y = _data()
    for spec in ("greedytl:delta=-0", "greedytl:gamma=-0", "greedytl-sp:gamma=-0"):
        clf = TransferClassifier(method=spec, sources=greedytl.Sources(zoo), random_state=0).fit(X[:20], y[:20])
        base, _, setting = spec.partition(":")
        assert clf.model_["method"] == base + ":" + setting.replace("-0", "0"), clf.model_["method"]
        ref = TransferClassifier(method=base + ":" + setting.replace("-0", "0"), sources=greedytl.Sources(zoo),
                                 random_state=0).fit(X[:20], y[:20])
        np.testing.assert_array_equal(clf.decision_function(X), ref.decision_function(X))


def test_sources_index_of_one_file_twice_or_more_features_refused_as_greedytl_refuses_it(cli, synth, tmp_path):
    """An index listing one model file for two sources, or a model of more
    features than the index's num_features (its digest recorded anew), is
    refused by greedytl fit --sources and by SourcesDir with greedytl's
    message; SourcesDir loaded both, scoring one classifier under two
    classes' names, or X's columns as other features."""
    import hashlib
    src, ix, fit = _sources_copy(cli, synth, tmp_path)
    first, second = ix["sources"][0], ix["sources"][1]
    twice = dict(ix, sources=[first, dict(second, file=first["file"], sha256=first["sha256"])] + ix["sources"][2:])
    (src / "sources.json").write_text(json.dumps(twice))
    p = fit()
    assert p.returncode == 2, p.stderr
    with pytest.raises(ValueError) as e:
        greedytl.SourcesDir(src)
    assert "file {} is source {}'s too".format(json.dumps(first["file"]), json.dumps(first["name"])) in str(e.value)
    assert p.stderr.strip().endswith(": " + str(e.value)), (p.stderr, str(e.value))

    # A model of one feature more: nr_feature and a weight line added.
    (src / "sources.json").write_text(json.dumps(ix))
    path = src / first["file"]
    lines = path.read_text().split("\n")
    d = synth["X"].shape[1]
    w = lines.index("w")
    lines = [("nr_feature {}".format(d + 1) if ln == "nr_feature {}".format(d) else ln) for ln in lines]
    lines.insert(w + 1 + d, "0.5 ")
    data = "\n".join(lines).encode()
    path.write_bytes(data)
    more = dict(ix, sources=[dict(first, sha256=hashlib.sha256(data).hexdigest())] + ix["sources"][1:])
    (src / "sources.json").write_text(json.dumps(more))
    p = fit()
    assert p.returncode == 2, p.stderr
    with pytest.raises(ValueError) as e:
        greedytl.SourcesDir(src)
    assert "is a model of {} features, but the sources were trained on {} features".format(d + 1, d) in str(e.value)
    assert p.stderr.strip().endswith(": " + str(e.value)), (p.stderr, str(e.value))


def test_inspection_records_committees_left_out(cli, tmp_path):
    """One training value of 1e30 in a column, on an example of the class
    greedytl-auto's subsamples leave out, makes it leave one subsample's
    committee out of its mean: the model file's committee records the
    subsamples fitted and the committee left out ("subsamples",
    "left_out"), the package reads the file, and inspection_ is what
    greedytl inspect --json prints of it."""
    rng = np.random.default_rng(20)
    y = np.array(["cat", "dog"] * 5)
    X = rng.normal(size=(10, 3)) + np.where(y == "dog", 1.0, -1.0)[:, None]
    X[2, 1] = 1e30  # a cat
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", greedytl.GreedyTLWarning)
        clf = TransferClassifier(method="greedytl-auto").fit(X, y)
    committee = clf.model_["committee"]
    assert committee["subsamples"] == 5
    assert [[c["kind"], c["index"]] for c in committee["left_out"][0]["columns"]] == [["feature", 1]]
    (tmp_path / "m.json").write_text(json.dumps(clf.model_))
    assert clf.inspection_ == json.loads(run(cli, "inspect", "--json", tmp_path / "m.json"))


def test_wide_range_warning_names_the_columns(cli):
    """fit --json's wide-range warning gives its columns ("columns": kind
    and index); the wrapper names each by feature_names_in_ when X was a
    DataFrame of named columns, and adds nothing when it was an array
    (greedytl's "feature 1" is then the caller's column 1)."""
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(20)
    y = np.array(["cat", "dog"] * 5)
    X = rng.normal(size=(10, 3)) + np.where(y == "dog", 1.0, -1.0)[:, None]
    X[2, 1] = 1e30  # a cat
    for given, suffix in ((pd.DataFrame(X, columns=["a", "big", "c"]), ' (greedytl\'s feature 1 is "big")'), (X, None)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            TransferClassifier(method="greedytl-auto").fit(given, y)
        wide = [w.message for w in caught if getattr(w.message, "code", None) == "wide-range"]
        assert len(wide) == 1, [str(w.message) for w in caught]
        assert "feature 1 " in str(wide[0])
        if suffix is None:
            assert "greedytl's feature" not in str(wide[0])
        else:
            assert str(wide[0]).endswith(suffix), str(wide[0])


# The probe of test_works_without_sklearns_private_names: the estimator's
# validation of its inputs, each outcome recorded (JSON on standard output).
# With argv[1] == "hide", the private names of scikit-learn that greedytl
# uses with a fallback are removed first (where this release has them), as
# a release that moved them would: _get_feature_names and
# _param_validation.InvalidParameterError.
_PRIVATE_PROBE = textwrap.dedent('''
    import json, sys, warnings
    import numpy as np, pandas as pd
    import sklearn.base, sklearn.utils.validation, sklearn.utils._param_validation
    if sys.argv[1] == "hide":
        for module, name in ((sklearn.utils.validation, "_get_feature_names"),
                             (sklearn.utils._param_validation, "InvalidParameterError")):
            if hasattr(module, name):
                delattr(module, name)
    import greedytl, greedytl._compat
    from greedytl import TransferClassifier

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(30, 4)), columns=["a", "b", "c", "d"])
    y = np.where(X["a"] + 0.3 * rng.normal(size=30) > 0, "yes", "no")
    out = {"stand-in": greedytl._compat.InvalidParameterError.__module__ == "greedytl._compat"}

    def outcome(name, call):
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            try:
                r = call()
                got = r.tolist() if isinstance(r, np.ndarray) else None
            except Exception as e:
                got = [type(e).__name__, isinstance(e, ValueError), isinstance(e, TypeError), str(e)]
        out[name] = {"result": got, "warnings": [[w.category.__name__, str(w.message)] for w in ws]}

    est = TransferClassifier(random_state=0).fit(X, y)
    out["fitted"] = [est.n_features_in_, list(est.feature_names_in_)]
    outcome("predict", lambda: est.predict(X))
    outcome("predict array", lambda: est.predict(X.to_numpy()))
    outcome("predict columns", lambda: est.predict(X.iloc[:, :3]))
    outcome("predict renamed", lambda: est.predict(X.rename(columns={"d": "e"})))
    outcome("predict reordered", lambda: est.predict(X[["b", "a", "c", "d"]]))
    outcome("predict NaN", lambda: est.predict(X.to_numpy() * np.nan))
    plain = TransferClassifier(random_state=0).fit(X.to_numpy(), y)
    out["fitted plain"] = [plain.n_features_in_, hasattr(plain, "feature_names_in_")]
    outcome("predict plain columns", lambda: plain.predict(X.to_numpy()[:, :3]))
    outcome("predict plain frame", lambda: plain.predict(X))
    outcome("fit NaN", lambda: TransferClassifier().fit(X.to_numpy() * np.nan, y))
    outcome("fit 1-D", lambda: TransferClassifier().fit(X["a"].to_numpy(), y))
    outcome("fit rows", lambda: TransferClassifier().fit(X, y[:-1]))
    outcome("fit y column", lambda: TransferClassifier(random_state=0).fit(X.to_numpy(), y[:, None]).predict(
        X.to_numpy()))
    outcome("fit parameter", lambda: TransferClassifier(use_features="yes").fit(X, y))
    print(json.dumps(out))
''')


def test_works_without_sklearns_private_names(cli):
    """greedytl uses private names of scikit-learn where they are the only
    way to validate as its estimators do: _get_feature_names and
    InvalidParameterError each have a fallback (BaseEstimator._validate_data,
    used only before 1.6's public validate_data, needs none). With the two
    gone, as a later release may move them, greedytl still imports and
    validates its inputs the same way — column names recorded and checked,
    column counts, NaN, y's shape and rows, parameters (a ValueError and
    a TypeError) — with the same messages and warnings."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [
        str(pathlib.Path(greedytl.__file__).parent.parent), os.environ.get("PYTHONPATH")])),
        GREEDYTL_BIN=cli["path"])
    got = {}
    for how in ("keep", "hide"):
        p = subprocess.run([sys.executable, "-c", _PRIVATE_PROBE, how], capture_output=True, text=True, env=env)
        assert p.returncode == 0, (how, p.stderr)
        got[how] = json.loads(p.stdout)
    keep, hide = got["keep"], got["hide"]
    assert (keep.pop("stand-in"), hide.pop("stand-in")) == (False, True)  # the fallback ran
    for case in ("predict columns", "predict renamed", "predict reordered"):
        assert keep[case]["result"][:3] == ["ValueError", True, False], keep[case]
        assert "The feature names should match those that were passed during fit" in keep[case]["result"][3]
    assert keep["fitted"] == [4, ["a", "b", "c", "d"]] and keep["fitted plain"] == [4, False]
    assert "X has 3 features, but TransferClassifier is expecting 4" in keep["predict plain columns"]["result"][3]
    assert keep["predict array"]["warnings"] and keep["fit parameter"]["result"][1:3] == [True, True], keep
    assert hide == keep


def test_invalid_parameter_error_is_sklearns():
    """Where scikit-learn has InvalidParameterError (1.2 on), greedytl's
    parameter errors are that class, not the stand-in of the same name,
    so that code catching scikit-learn's error catches greedytl's."""
    _param_validation = pytest.importorskip("sklearn.utils._param_validation")
    if not hasattr(_param_validation, "InvalidParameterError"):
        pytest.skip("this scikit-learn has no InvalidParameterError")
    from greedytl import _compat
    assert _compat.InvalidParameterError is _param_validation.InvalidParameterError
    with pytest.raises(_param_validation.InvalidParameterError):
        greedytl.TransferClassifier(use_features="yes").fit(np.eye(4), [0, 1, 0, 1])


def test_fit_error_says_only_its_cause():
    """The estimator hands random_state to every fit as --seed, and greedytl
    warns on standard error that --seed has no effect for a method that
    draws nothing at random; a failing fit's error (greedytl's standard
    error) began with that warning, which is no part of the failure. It
    said 'greedytl fit: warning: --seed has no effect: greedytl-auto draws
    nothing at random' first."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(8, 3)), [0, 1] * 4
    # best-source leaves X_unlabelled unread, which greedytl notes once a
    # model is written, not before an error.
    for kw, fit_kw, cause in (({"method": "dam"}, {}, "dam is transductive"),
                              ({"method": "best-source", "sources": lambda A: A[:, :2]}, {"X_unlabelled": X},
                               "best-source is an oracle")):
        with pytest.raises(ValueError) as e:
            greedytl.TransferClassifier(random_state=0, **kw).fit(X, y, **fit_kw)
        assert str(e.value).startswith("greedytl fit: " + cause), str(e.value)
        assert "--seed" not in str(e.value), str(e.value)


def test_greedytl_attribute_names_the_build(cli):
    """greedytl_ (the build that fitted the model) keeps what greedytl
    version --json says of it, executable_sha256 (the hash of the binary,
    which tells apart builds that carry no VCS revision) included; it was
    dropped."""
    version = json.loads(subprocess.run([cli["path"], "version", "--json"], capture_output=True, text=True,
                                        check=True).stdout)
    est = greedytl.TransferClassifier(random_state=0).fit(np.random.default_rng(0).normal(size=(8, 3)), [0, 1] * 4)
    for k in ("module", "revision", "modified", "go", "executable_sha256"):
        assert est.greedytl_.get(k) == version.get(k), (k, est.greedytl_, version)
    assert version["executable_sha256"]


def test_missing_input_errors_name_fits_arguments():
    """A method without the inputs it needs is refused in greedytl's terms
    ('needs source scores H', 'needs target features X'); the error also
    says which of fit's arguments gives them (sources=, use_features=True).
    It said greedytl's terms alone."""
    class First:
        def decision_function(self, X):
            return X[:, 0]

    X, y = np.random.default_rng(0).normal(size=(8, 3)), [0, 1] * 4
    for kw, note in (({"method": "logme-source"}, "sources="),
                     ({"method": "best-source", "sources": None}, "sources="),
                     ({"method": "no-transfer", "sources": greedytl.Sources([First()]), "use_features": False},
                      "use_features=True")):
        fit_kw = {"X_oracle": X, "y_oracle": y} if kw["method"] == "best-source" else {}
        with pytest.raises(ValueError) as e:
            greedytl.TransferClassifier(random_state=0, **kw).fit(X, y, **fit_kw)
        assert "needs" in str(e.value) and note in str(e.value), str(e.value)


def test_warnings_name_every_class_they_quote():
    """A warning that quotes classes as greedytl names them ("1" and "-1"
    of a binary fit, "0", "1", "2" of a multi-class one) says which of the
    user's classes each is, every one it quotes: the binary constant-model
    warning named none, and the one-class warning only the class predicted,
    not the others it counts (greedytl fit's JSON carried only those)."""
    def said(est, X, y):
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            est.fit(X, y)
        return [str(w.message) for w in ws if getattr(w.message, "code", None) in ("constant-model", "one-class")]

    got = said(TransferClassifier(method="l1-logistic", random_state=0),
               np.random.default_rng(1).normal(size=(6, 3)), ["a cat", "a dog"] * 3)  # a blank: as indices
    assert len(got) == 1 and '"1" or "-1"' in got[0], got
    assert "\"1\" is classes_[1] = 'a dog', \"-1\" is classes_[0] = 'a cat'" in got[0], got
    # The one-class warning needs a fit that gives every training row one
    # class: greedytl-auto (one class against the rest) with a source, on
    # 28, 1 and 1 examples whose minority rows sit inside the majority's
    # cloud (cmd/greedytl's TestFitWarnsOneClass says why; the multinomial
    # fits, class-balanced, no longer can).
    class Last:
        def decision_function(self, X):
            return X[:, -1]

    X = np.random.default_rng(0).normal(size=(28, 3))
    X = np.vstack([X, X.mean(axis=0) + [[0.1, -0.1, 0.05], [-0.05, 0.05, -0.1]]])
    est = TransferClassifier(method="greedytl-auto", sources=greedytl.Sources([Last()]), random_state=0)
    got = said(est, X, ["a cat"] * 28 + ["a dog", "an emu"])
    assert list(est.predict(X)) == ["a cat"] * 30  # the warning's premise
    assert len(got) == 1 and '("1": 1, "2": 1)' in got[0], got
    assert "\"0\" is classes_[0] = 'a cat', \"1\" is classes_[1] = 'a dog', \"2\" is classes_[2] = 'an emu'" in got[0], got


def _source_scores_0_1(X):
    """Two source score columns for the committee test: X's first two
    columns, one of them noisy (a module-level function, so it pickles)."""
    return np.c_[X[:, 0] + np.sin(7 * X[:, 2]), X[:, 1]]


def _check_tally(committee, fits):
    """The properties a committee's tally has by its definition (how many
    of the fits' committees chose each column, in each member): each column
    once, counts from 0 to the fits, every column counted at least once,
    most chosen first; every column a whole-sample member chose is counted
    at least once for that member (the whole sample's committee is one of
    the fits); with one fit, the tally is exactly those choices."""
    tally = committee["tally"]
    cols = [(t["kind"], t["index"]) for t in tally]
    assert len(set(cols)) == len(cols)
    members = len(committee["greedy"])
    for t in tally:
        assert len(t["greedy"]) == members
        assert all(0 <= n <= fits for n in t["greedy"] + [t["source"]]), t
        assert sum(t["greedy"]) + t["source"] > 0, t
        assert t["source"] == 0 or t["kind"] == "source", t
    totals = [sum(t["greedy"]) + t["source"] for t in tally]
    assert totals == sorted(totals, reverse=True)
    chosen = {}  # column → [count of each GreedyTL member, source member], the whole sample's choices
    for i, g in enumerate(committee["greedy"]):
        for step in g["path"]:
            c = (step["column"]["kind"], step["column"]["index"])
            chosen.setdefault(c, [0] * (members + 1))[i] += 1
    if committee.get("source") is not None:
        chosen.setdefault(("source", committee["source"]["index"]), [0] * (members + 1))[members] += 1
    counted = {(t["kind"], t["index"]): t["greedy"] + [t["source"]] for t in tally}
    for c, ones in chosen.items():
        assert c in counted, c
        assert all(n >= one for n, one in zip(counted[c], ones)), (c, counted[c], ones)
    if fits == 1:
        assert counted == chosen


def test_committee_tallies_agree_with_inspect(multiclass_cli, tmp_path):
    """greedytl-auto's committee records and vote tallies as the estimator
    exposes them — inspection_["committee"] of a binary model; model_, the
    one record of each class of a fit one class against the rest, and
    inspection_["per_class"][k]["committee"] — are what greedytl inspect
    --json prints of the model file (binary; one against the rest, each
    class's "committee" in "per_class") and of each class's model taken out
    as a file of its own (one against the rest; also as greedytl.read_model
    reads that file), and each tally has the properties
    of its definition (_check_tally): with one fit (single_fit=1) it is the
    whole-sample members' choices exactly."""
    cli = multiclass_cli
    rng = np.random.default_rng(11)
    X = rng.normal(size=(36, 5))
    y3 = np.array(["a", "b", "c"])[np.argmax(X[:, :3] + 0.7 * rng.normal(size=(36, 3)), axis=1)]
    src = greedytl.Sources(_source_scores_0_1)
    for method, y in (("greedytl-auto", y3 == "a"), ("greedytl-auto:single_fit=1", y3 == "b"),
                      ("greedytl-auto", y3), ("greedytl-auto:single_fit=1", y3)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", greedytl.GreedyTLWarning)
            clf = TransferClassifier(method=method, sources=src, random_state=3).fit(X, y)
        if len(clf.classes_) == 2:
            path = tmp_path / "m.json"
            path.write_text(json.dumps(clf.model_))
            want = json.loads(run(cli, "inspect", "--json", path))
            assert clf.inspection_["committee"] == want["committee"] == clf.model_["committee"], method
            records = [(clf.inspection_["committee"], clf.hyperparameters_)]
        else:
            assert "committee" not in clf.inspection_
            whole = tmp_path / "multi.json"
            whole.write_text(json.dumps(clf.model_))
            per_class = json.loads(run(cli, "inspect", "--json", whole))["per_class"]
            records = []
            for k, m in enumerate(clf.model_["models"]):
                assert per_class[k]["committee"] == clf.inspection_["per_class"][k]["committee"] == m["committee"], (method, k)
                assert per_class[k]["hyperparameters"] == m["hyperparameters"], (method, k)
                path = tmp_path / "class{}.json".format(k)
                path.write_text(json.dumps(m))
                want = json.loads(run(cli, "inspect", "--json", path))
                assert m["committee"] == want["committee"], (method, k)
                assert greedytl.read_model(path).inspection()["committee"] == want["committee"], (method, k)
                records.append((m["committee"], m["hyperparameters"]))
        assert records
        for committee, hp in records:
            assert committee["tally"], method
            _check_tally(committee, hp.get("fits", 1))
            if "single_fit" in method:
                assert hp.get("fits", 1) == 1


def _source_of_columns_0_1(X):
    """One source score column, of X's first two columns (module level, so
    that it pickles)."""
    return np.c_[X[:, 0] + 0.5 * X[:, 1]]


def test_pipeline_transforms_unlabelled_and_oracle(cli):
    """In scikit-learn's Pipeline (1.2.1) a StandardScaler before the
    estimator scales X but not the fit parameter X_unlabelled (nor X_oracle):
    dam then fits on inputs of two scales, another model than the one of the
    same data scaled alike. greedytl.make_pipeline's TransferPipeline passes
    them through the steps before the estimator as X, fitted on X: its model
    is the estimator's fitted on the scaled X, X_unlabelled and X_oracle
    (y_oracle as given), exactly; a feature selection before it reduces
    them too, where scikit-learn's Pipeline's refusal of X_unlabelled's
    column count now says why; clone and cross_val_score keep it a
    TransferPipeline, each fold's model fitted on the scaled rows."""
    from sklearn.feature_selection import SelectKBest
    from sklearn.model_selection import KFold
    rng = np.random.default_rng(1)
    X = rng.normal(5, 3, size=(30, 4))
    y = X[:, 0] + rng.normal(size=30) > 5
    Xu = rng.normal(6, 2, size=(40, 4))
    yo = Xu[:, 0] > 6
    src = greedytl.Sources(_source_of_columns_0_1)
    sc = StandardScaler().fit(X)
    for method, side, direct in (
            ("dam", {"X_unlabelled": Xu}, {"X_unlabelled": sc.transform(Xu)}),
            ("best-source", {"X_oracle": Xu, "y_oracle": yo}, {"X_oracle": sc.transform(Xu), "y_oracle": yo})):
        params = {"transferclassifier__" + k: v for k, v in side.items()}
        want = TransferClassifier(method=method, sources=src, random_state=0).fit(sc.transform(X), y, **direct)
        pipe = greedytl.make_pipeline(StandardScaler(), TransferClassifier(method=method, sources=src, random_state=0))
        assert isinstance(pipe, greedytl.TransferPipeline)
        assert pipe.fit(X, y, **params) is pipe
        got = pipe[-1]
        assert got.model_ == want.model_, method
        np.testing.assert_array_equal(pipe.decision_function(Xu), want.decision_function(sc.transform(Xu)))
        if method == "dam":
            # scikit-learn's Pipeline: X scaled, X_unlabelled not: another model.
            plain = make_pipeline(StandardScaler(), TransferClassifier(method=method, sources=src, random_state=0))
            plain.fit(X, y, **params)
            assert plain[-1].model_ != want.model_
    sel = greedytl.make_pipeline(SelectKBest(k=2), TransferClassifier(method="dam", sources=src, random_state=0))
    sel.fit(X, y, transferclassifier__X_unlabelled=Xu)
    assert sel[-1].n_features_in_ == 2
    plain = make_pipeline(SelectKBest(k=2), TransferClassifier(method="dam", sources=src, random_state=0))
    with pytest.raises(ValueError, match=r"X_unlabelled: X has 4 features, but TransferClassifier is expecting 2 "
                                         r".*in a scikit-learn Pipeline.*greedytl.make_pipeline transforms both"):
        plain.fit(X, y, transferclassifier__X_unlabelled=Xu)
    pipe = greedytl.make_pipeline(StandardScaler(), TransferClassifier(method="dam", sources=src, random_state=0))
    assert type(clone(pipe)) is greedytl.TransferPipeline
    cv = KFold(3)
    scores = cross_val_score(pipe, X, y, cv=cv, fit_params={"transferclassifier__X_unlabelled": Xu})
    for (tr, te), score in zip(cv.split(X), scores):
        s = StandardScaler().fit(X[tr])
        m = TransferClassifier(method="dam", sources=src, random_state=0).fit(s.transform(X[tr]), y[tr],
                                                                              X_unlabelled=s.transform(Xu))
        assert score == m.score(s.transform(X[te]), y[te])
    # A fitted TransferPipeline pickles, and a search fits its candidates
    # through it (set_params on a clone of it).
    pipe.fit(X, y, transferclassifier__X_unlabelled=Xu)
    again = pickle.loads(pickle.dumps(pipe))
    assert type(again) is greedytl.TransferPipeline
    np.testing.assert_array_equal(again.decision_function(X), pipe.decision_function(X))
    search = GridSearchCV(pipe, {"standardscaler__with_mean": [True, False]}, cv=cv)
    search.fit(X, y, transferclassifier__X_unlabelled=Xu)
    best = search.best_estimator_
    assert type(best) is greedytl.TransferPipeline
    s = best[0]
    want = TransferClassifier(method="dam", sources=src, random_state=0).fit(s.transform(X), y,
                                                                             X_unlabelled=s.transform(Xu))
    assert best[-1].model_ == want.model_


_NO_PROC_PROBE = """
import json, os, sys
import numpy as np
import greedytl
rng = np.random.default_rng(0)
X = rng.normal(size=(30, 4))
y = X[:, 0] > 0
out = {"proc": os.path.exists("/proc/self/stat")}
for how, path in (("binary", sys.argv[1]), ("wrapper", sys.argv[2])):
    try:
        greedytl.TransferClassifier(random_state=0, greedytl_bin=path).fit(X, y)
        out[how] = "fitted"
    except greedytl.CLIError as e:
        out[how] = [e.returncode, str(e)]
print(json.dumps(out))
"""


def test_fit_without_proc(cli, tmp_path):
    """Where /proc cannot be read (here: a mount namespace with an empty
    tmpfs on /proc; skipped where one cannot be made, without root), a
    greedytl that is the Python process's own child fits (its parent watch
    needs no /proc), and one started through a wrapper that runs it as a
    child (not exec) cannot tell that the Python process is its ancestor
    and stops at once (status 143): fit raises CLIError with greedytl's
    message, which names the /proc file it could not read, and says what to
    do (the executable itself, a wrapper that execs it, or /proc readable)."""
    unshare = shutil.which("unshare")
    if unshare is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("needs root and unshare to hide /proc")
    wrapper = tmp_path / "greedytl-child"
    wrapper.write_text("#!/bin/sh\n{} \"$@\"\n".format(shlex.quote(cli["path"])))
    wrapper.chmod(0o755)
    probe = tmp_path / "probe.py"
    probe.write_text(_NO_PROC_PROBE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [
        str(pathlib.Path(greedytl.__file__).parent.parent), os.environ.get("PYTHONPATH")])))
    script = "mount -t tmpfs none /proc && exec {} {} {} {}".format(
        *(shlex.quote(str(a)) for a in (sys.executable, probe, cli["path"], wrapper)))
    p = subprocess.run([unshare, "--mount", "sh", "-c", script], capture_output=True, text=True, env=env)
    if p.returncode != 0 and "mount" in p.stderr and not p.stdout:
        pytest.skip("cannot hide /proc here: " + p.stderr.strip())
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["proc"] is False and got["binary"] == "fitted"
    code, msg = got["wrapper"]
    assert code == 143
    assert re.search(r"failed \(exit status 143\): GREEDYTL_PARENT_PID=[0-9]+: .*could not read /proc/[0-9]+/stat", msg), msg
    assert "give greedytl_bin (or GREEDYTL_BIN) the greedytl executable itself, or a wrapper that execs it" in msg, msg


def test_whole_settings_in_digits(tmp_path):
    """A setting of a million or more is written in decimal digits
    (greedytl:max_k=1000000, modelfile.FormatSetting) and read back by
    read_model; a file written before, with max_k=1e+06, reads as the same
    method (modelfile.Parse's upgrade)."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(24, 4))
    y = X[:, 0] + 0.3 * rng.normal(size=24) > 0
    src = greedytl.Sources(_source_scores_0_1)
    clf = TransferClassifier(method="greedytl:max_k=1000000", sources=src).fit(X, y)
    assert clf.model_["method"] == "greedytl:max_k=1000000", clf.model_["method"]
    new = tmp_path / "new.json"
    new.write_text(json.dumps(clf.model_))
    assert greedytl.read_model(new).method == "greedytl:max_k=1000000"
    old_doc = dict(clf.model_, method="greedytl:max_k=1e+06")
    old = tmp_path / "old.json"
    old.write_text(json.dumps(old_doc))
    assert greedytl.read_model(old).method == "greedytl:max_k=1000000"


def test_inspection_marks_constant_models_as_inspect_does(multiclass_cli, tmp_path):
    """The constant-model rule by the weights alone (docs/design.md §9,
    "Constant models"): read_model(...).inspection() marks the models and
    classes greedytl inspect --json marks ("constant": true), and no
    other. Rows that appear once with each label leave least-squares fits
    weights of ~1e-20, rounding (binary, and class "a" of a fit one class
    against the rest whose other classes tell the rows apart); the same
    rows with the labels following their signs make a genuine model."""
    cli = multiclass_cli
    R = [[0.345584192064786, 0.8216181435011584, 0.33043707618338714],
         [-1.303157231604361, 0.9053558666731177, 0.4463745723640113],
         [-0.5369532353602852, 0.5811181041963531, 0.36457239618607573],
         [0.294132496655526, 0.02842224131579679, 0.5467129866124469]]
    S = [[1.1, -0.4, 0.9], [0.7, -1.2, 1.5], [1.6, -0.2, 0.3], [0.2, -0.9, 1.1]]
    cases = {
        "noise": (R + R, ["1"] * 4 + ["-1"] * 4),
        "genuine": (R + [[-v for v in r] for r in R], ["1"] * 4 + ["-1"] * 4),
        "classes": (R + R + S + S, ["a"] * 4 + ["b"] * 4 + ["a"] * 4 + ["c"] * 4),
    }
    marked = {}
    for name, (X, y) in cases.items():
        np.savetxt(tmp_path / "X.csv", np.array(X), delimiter=",", fmt="%r")
        (tmp_path / "y.txt").write_text("\n".join(y) + "\n")
        for method in ("no-transfer", "greedytl"):
            path = tmp_path / "{}-{}.json".format(name, method)
            run(cli, "fit", "--method", method, "--features", tmp_path / "X.csv", "--labels", tmp_path / "y.txt",
                "--out", path)
            want = json.loads(run(cli, "inspect", "--json", path))
            assert greedytl.read_model(path).inspection() == want, (name, method)
            marked[name, method] = (want.get("constant", False) if "per_class" not in want
                                    else [pc.get("constant", False) for pc in want["per_class"]])
    assert marked["noise", "no-transfer"] is True
    assert marked["genuine", "no-transfer"] is False
    assert marked["classes", "no-transfer"] == [True, False, False]
