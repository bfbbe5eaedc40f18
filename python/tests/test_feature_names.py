"""Model files record the names of the features they were fitted on
("feature_names", written by greedytl fit from a CSV header): the
package's reader reads them as greedytl does, and refuses what greedytl
refuses (an empty list, a count other than the model's features)."""

import json
import subprocess

import numpy as np
import pytest

import greedytl

from conftest import run


def _linear_doc(**header):
    """A linear model file of two features (method/linearmodel.go) with the
    header members header."""
    doc = {"format": "greedytl-model", "version": 2, "method": "l1-logistic", "hyperparameters": {},
           "x": {"mean": [0.0, 1.0], "scale": [1.0, 2.0]}, "h": {"mean": [], "scale": []},
           "wx": [0.5, -0.5], "wh": None, "b": 0.25}
    doc.update(header)
    return doc


def _write(path, doc):
    path.write_text(json.dumps(doc))
    return path


def test_names_read(tmp_path):
    """A file with "feature_names" (one per feature) is read and scores as
    the same file without them; an empty list, and a list of another
    count, are refused with greedytl's messages (method.Read's)."""
    X = np.array([[1.0, 2.0], [-1.0, 0.5]])
    plain = greedytl.read_model(_write(tmp_path / "plain.json", _linear_doc()))
    named = greedytl.read_model(_write(tmp_path / "named.json", _linear_doc(feature_names=["age", "income"])))
    assert np.array_equal(named.scores(X), plain.scores(X))
    greedytl.read_model(_write(tmp_path / "null.json", _linear_doc(feature_names=None)))
    for names, want in (([], '"feature_names" names no column'),
                        (["age"], '"feature_names" has 1 names but the model has 2 features'),
                        (["a", "b", "c"], '"feature_names" has 3 names but the model has 2 features')):
        with pytest.raises(greedytl.ModelFileError, match=want):
            greedytl.read_model(_write(tmp_path / "bad.json", _linear_doc(feature_names=names)))
    with pytest.raises(greedytl.ModelFileError, match="feature_names"):
        greedytl.read_model(_write(tmp_path / "bad.json", _linear_doc(feature_names=["a", 1])))


def _refused_alike(cli, path):
    """Both readers refuse the model file at path, read_model with the tail
    of greedytl inspect's message."""
    p = subprocess.run([cli["path"], "inspect", "--json", str(path)], capture_output=True, text=True)
    assert p.returncode == 2, p.stdout
    with pytest.raises(greedytl.ModelFileError) as e:
        greedytl.read_model(path)
    tail = str(e.value)[len(str(path)) + 2:].split(" model: ", 1)[-1]
    assert p.stderr.strip().endswith(tail), (str(e.value), p.stderr)


def test_names_written_by_greedytl_read_alike(multiclass_cli, tmp_path):
    """greedytl fit on features under a CSV header records their names, in
    binary and multi-class files (a one-vs-rest file too); read_model reads
    every such file and scores as greedytl predict does, and its
    inspection names the feature columns as greedytl inspect does; edited to an empty
    list or one name too many, both readers refuse it alike."""
    cli = multiclass_cli
    rng = np.random.default_rng(5)
    X, H, Xt, Ht = rng.normal(size=(30, 3)), rng.normal(size=(30, 2)), rng.normal(size=(8, 3)), rng.normal(size=(8, 2))
    names = ["height", "b c", "weight"]
    csv = tmp_path / "X.csv"
    np.savetxt(csv, X, delimiter=",", header=",".join('"{}"'.format(n) for n in names), comments="", fmt="%.17g")
    csvt = tmp_path / "Xt.csv"
    np.savetxt(csvt, Xt, delimiter=",", header=",".join(names), comments="", fmt="%.17g")
    for a, v in (("H.npy", H), ("Ht.npy", Ht), ("y.npy", np.where(X[:, 0] > 0, 1, -1)), ("y3.npy", np.arange(30) % 3)):
        np.save(tmp_path / a, v)
    for method, y in (("greedytl", "y.npy"), ("l1-logistic", "y.npy"), ("nearest-mean", "y3.npy"),
                      ("no-transfer", "y3.npy")):
        model = tmp_path / (method + y + ".json")
        run(cli, "fit", "--method", method, "--features", csv, "--source-scores", tmp_path / "H.npy",
            "--labels", tmp_path / y, "--out", model)
        doc = json.loads(model.read_text())
        assert doc["feature_names"] == names
        scorer = greedytl.read_model(model)
        args = ["predict", "--model", model, "--features", csvt, "--source-scores", tmp_path / "Ht.npy"]
        if scorer.classes is not None:
            lines = run(cli, *args, "--scores").strip().split("\n")
            want = np.array([[float(v) for v in line.split("\t")] for line in lines[1:]])
        else:
            want = np.array([float(v) for v in run(cli, *args).split()])
        got = scorer.scores(Xt, Ht)
        assert got.shape == want.shape and np.abs(got - want).max() <= 1e-12 * max(1, np.abs(want).max())
        # The selected feature columns named as greedytl inspect names them.
        inspected = json.loads(run(cli, "inspect", "--json", model))
        assert scorer.inspection() == inspected
        cols = inspected.get("selected", []) + [c for pc in inspected.get("per_class", []) for c in pc["selected"]]
        if method != "nearest-mean":
            assert [c["name"] for c in cols if c["kind"] == "feature"] == \
                [names[c["index"]] for c in cols if c["kind"] == "feature"] != []
        for bad in ([], names + ["extra"]):
            _refused_alike(cli, _write(tmp_path / "bad.json", dict(doc, feature_names=bad)))


def test_source_names_written_by_greedytl_read_alike(multiclass_cli, tmp_path):
    """greedytl fit on source scores under a CSV header (the user's own
    sources) records their names ("source_names") in binary and
    multi-class files; read_model reads every such file, its inspection
    names the source columns as greedytl inspect does, and both readers
    refuse alike an empty list or one name too many."""
    cli = multiclass_cli
    rng = np.random.default_rng(6)
    X, H = rng.normal(size=(30, 3)), rng.normal(size=(30, 2))
    y = np.where(H[:, 0] + 0.3 * rng.normal(size=30) > 0, 1, -1)
    names = ["cat", "dog"]
    csv = tmp_path / "H.csv"
    np.savetxt(csv, H, delimiter=",", header=",".join(names), comments="", fmt="%.17g")
    for a, v in (("X.npy", X), ("y.npy", y), ("y3.npy", np.arange(30) % 3)):
        np.save(tmp_path / a, v)
    for method, labels in (("greedytl", "y.npy"), ("l1-logistic", "y.npy"), ("no-transfer", "y3.npy"),
                           ("nearest-mean", "y3.npy")):
        model = tmp_path / (method + labels + ".json")
        run(cli, "fit", "--method", method, "--features", tmp_path / "X.npy", "--source-scores", csv,
            "--labels", tmp_path / labels, "--out", model)
        doc = json.loads(model.read_text())
        assert doc["source_names"] == names and "feature_names" not in doc
        inspected = json.loads(run(cli, "inspect", "--json", model))
        assert greedytl.read_model(model).inspection() == inspected
        cols = inspected.get("selected", []) + [c for pc in inspected.get("per_class", []) for c in pc["selected"]]
        assert all(c["name"] == names[c["index"]] for c in cols if c["kind"] == "source")
        if method == "greedytl":
            assert any(c["kind"] == "source" for c in cols)
        for bad in ([], names + ["extra"]):
            _refused_alike(cli, _write(tmp_path / "bad.json", dict(doc, source_names=bad)))
