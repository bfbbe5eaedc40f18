"""Shared fixtures: the greedytl command and small data sets.

The tests need the greedytl command ($GREEDYTL_BIN or PATH). Without it they
skip, saying so, unless GREEDYTL_REQUIRE_PEERS=1 (what CI sets): then they
fail.
"""

import os
import subprocess

import numpy as np
import pytest

import greedytl


def _require():
    return os.environ.get("GREEDYTL_REQUIRE_PEERS") == "1"


@pytest.fixture(scope="session")
def cli():
    """The greedytl command's `version --json` information (with "path")."""
    try:
        return greedytl.cli_info()
    except greedytl.CommandNotFoundError as e:
        if _require():
            pytest.fail("GREEDYTL_REQUIRE_PEERS=1 but {}".format(e))
        pytest.skip(str(e))


def run(cli, *args, cwd=None):
    """Run greedytl, failing the test with its message when it fails."""
    p = subprocess.run([cli["path"]] + [str(a) for a in args], capture_output=True, text=True, cwd=cwd)
    if p.returncode != 0:
        pytest.fail("greedytl {} exited {}: {}".format(" ".join(map(str, args)), p.returncode, p.stderr))
    return p.stdout


@pytest.fixture(scope="session")
def synth(cli, tmp_path_factory):
    """A synthetic dataset folder and a sources directory trained on it
    (greedytl synth, greedytl train-sources)."""
    d = tmp_path_factory.mktemp("synth")
    run(cli, "synth", "--out", d / "data", "--classes", 7, "--per-class", 30, "--dims", 10, "--groups", 2,
        "--seed", 3)
    run(cli, "train-sources", "--data", d / "data", "--out", d / "sources")
    X = np.load(d / "data" / "features.npy").astype(np.float64)
    labels = np.load(d / "data" / "labels.npy")
    return {"dir": d, "sources": str(d / "sources"), "X": X, "labels": labels}


@pytest.fixture(scope="session")
def multiclass_cli(cli, tmp_path_factory):
    """The greedytl command if it fits multi-class labels (issue 15), else
    skip: a 3-class fit is tried once."""
    d = tmp_path_factory.mktemp("mc")
    rng = np.random.default_rng(0)
    np.save(d / "X.npy", rng.normal(size=(9, 3)))
    np.save(d / "y.npy", np.repeat(np.arange(3), 3))
    p = subprocess.run([cli["path"], "fit", "--features", d / "X.npy", "--labels", d / "y.npy", "--out",
                        d / "m.json"], capture_output=True, text=True)
    if p.returncode != 0:
        msg = "this greedytl ({}) does not fit multi-class labels: {}".format(cli["path"], p.stderr.strip())
        if os.environ.get("GREEDYTL_REQUIRE_MULTICLASS") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return cli
