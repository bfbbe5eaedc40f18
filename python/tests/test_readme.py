"""python/README.md's Python code blocks run as written, in order, and do what
they say (the counterpart of cmd/greedytl's TestREADMECommands, which runs
README.md's shell blocks).

The blocks run in one namespace, as a notebook runs its cells, in a temporary
working directory, with small stand-in data of the names the README leaves to
the user (``Xs``, ``ys``, ``source_classes``, ``X``, ``y``, ``X_new``).  A
block that raises, or that warns without catching the warning itself, fails
the test.  Comment lines that end a block (``# …`` at the start of a line)
show what the block prints: its output must match them, ``…`` standing for
any text and line breaks for spaces.  Blocks this test cannot run (data or
time it cannot provide) are listed in SKIP with the reason.
"""

import contextlib
import io
import json
import os
import re
import subprocess
import warnings

import numpy as np
import pytest

import greedytl

pytest.importorskip("sklearn")

README = os.path.join(os.path.dirname(__file__), os.pardir, "README.md")

# The blocks not run: a distinctive line of the block -> why it cannot run
# here.  Keep this short; an entry that names no block fails the test.
SKIP = {}


def readme_blocks(path=README):
    """The Python code blocks of the README: (line of the first code line,
    code).  Fences of other Python dialects fail: the test would not run
    them."""
    blocks, code, start, lang = [], None, 0, None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            stripped = line.strip()
            if stripped.startswith("```"):
                if code is None:
                    lang = stripped[3:].strip()
                    if lang in ("python", "py"):
                        code, start = [], n + 1
                    elif lang.startswith("py"):
                        raise AssertionError("{}:{}: a ```{} block, which this test does not run; use ```python"
                                             .format(path, n, lang))
                    else:
                        code = False  # another language's block: skipped to its end
                elif stripped == "```":
                    if code is not False:
                        blocks.append((start, "".join(code)))
                    code = None
                continue
            if isinstance(code, list):
                code.append(line)
    assert code is None, "{}: a code block is not closed".format(path)
    return blocks


def expected_output(code):
    """What a block prints, from the comment lines that end it: (their text,
    its pattern), or None when the block ends in code."""
    lines = code.rstrip("\n").split("\n")
    trailing = []
    while lines and lines[-1].startswith("#"):
        trailing.insert(0, lines.pop()[1:].strip())
    if not trailing:
        return None
    text = " ".join(trailing)
    return text, r"\s*" + r".*?".join(re.escape(p).replace(r"\ ", r"\s+") for p in text.split("…")) + r"\s*"


def stand_in_data():
    """The data the README's blocks leave to the user: a source task (Xs, ys)
    with classifiers for each of source_classes, and a few-shot target task
    of three classes, two examples each (X, y), with new rows X_new.  Noise:
    with two examples a class, l1-logistic one against the rest keeps no
    column for some classes, the warning the README's warnings example shows;
    the output it shows (which classes) is that of these data."""
    rng = np.random.default_rng(0)
    p = 20
    return {
        "Xs": rng.normal(size=(40, p)),
        "ys": rng.integers(0, 4, 40),
        "source_classes": [0, 1, 2, 3],
        "X": rng.normal(size=(6, p)),
        "y": np.repeat(["a", "b", "c"], 2),
        "X_new": rng.normal(size=(5, p)),
    }


def _no_processes(*args, **kwargs):
    raise AssertionError("a process was started: {!r}".format(args[:1]))


def check_use(ns, monkeypatch):
    """The "Use" block: predict and decision_function run no process and give
    NumPy arrays (classes_'s dtype; a row of class scores); selected_ is, per
    class, a list of dicts with kind, index, weight and name; sources_ holds
    the user's classifiers themselves."""
    clf, X_new, zoo = ns["clf"], ns["X_new"], ns["zoo"]
    with monkeypatch.context() as m:
        m.setattr(subprocess, "Popen", _no_processes)
        m.setattr(os, "fork", _no_processes, raising=False)
        pred = clf.predict(X_new)
        scores = clf.decision_function(X_new)
    assert isinstance(pred, np.ndarray) and pred.dtype == clf.classes_.dtype and pred.shape == (len(X_new),)
    assert isinstance(scores, np.ndarray) and scores.shape == (len(X_new), len(clf.classes_))
    np.testing.assert_array_equal(pred, clf.classes_[np.argmax(scores, axis=1)])
    assert isinstance(clf.selected_, dict) and list(clf.selected_) == list(clf.classes_)
    for cols in clf.selected_.values():
        assert cols and all(set(c) == {"kind", "index", "weight", "name"} for c in cols), cols
    assert all(a is b for a, b in zip(clf.sources_, zoo)) and len(clf.sources_) == len(zoo)
    # The scores are the model's on X_new and the sources' scores recomputed
    # from X_new (one column per binary classifier), as read_model scores
    # the model file.
    with open("model.json", "w") as f:
        json.dump(clf.model_, f)
    H = np.column_stack([s.decision_function(X_new) for s in zoo])
    np.testing.assert_allclose(scores, greedytl.read_model("model.json").scores(X_new, H), rtol=1e-12, atol=0)


# Checks beyond running a block and matching its output: a distinctive line
# of the block -> the check, given the namespace after it ran.
CHECKS = {
    "clf.fit(X, y)              # a handful of labelled target examples": check_use,
}


def test_readme_parser(tmp_path):
    """readme_blocks takes the python blocks whole (blank lines and comments
    kept), skips other languages' blocks, refuses other Python fences; the
    expected output of a block is its trailing comments."""
    p = tmp_path / "R.md"
    p.write_text("text\n```sh\nls\n```\n```python\na = 1\n\n# c\nprint(a)\n# 1\n```\n```\nplain\n```\n")
    assert readme_blocks(str(p)) == [(6, "a = 1\n\n# c\nprint(a)\n# 1\n")]
    assert expected_output("print(a)\n# one …\n#  two\n")[0] == "one … two"
    assert re.fullmatch(expected_output("print(a)\n# one …\n#  two\n")[1], "one x y\ntwo\n", re.S)
    assert expected_output("print(a)  # not output\n") is None
    p.write_text("```pycon\n>>> 1\n```\n")
    with pytest.raises(AssertionError, match="pycon"):
        readme_blocks(str(p))


def test_readme_python_blocks(multiclass_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREEDYTL_BIN", multiclass_cli["path"])
    blocks = readme_blocks()
    assert len(blocks) >= 2, "python/README.md has {} python blocks; the test expects its examples".format(
        len(blocks))
    for key in list(SKIP) + list(CHECKS):
        assert sum(key in code for _, code in blocks) == 1, "{!r} names no single README block".format(key)
    ns = {"__name__": "__readme__"}
    ns.update(stand_in_data())
    ran = 0
    for line, code in blocks:
        if any(key in code for key in SKIP):
            continue
        out = io.StringIO()
        with warnings.catch_warnings(), contextlib.redirect_stdout(out):
            warnings.simplefilter("error")
            try:
                exec(compile(code, "{}:{}".format(os.path.normpath(README), line), "exec"), ns)
            except Exception as e:
                raise AssertionError("README.md block at line {} raised {}: {}".format(
                    line, type(e).__name__, e)) from e
        want = expected_output(code)
        if want is not None:
            assert re.fullmatch(want[1], out.getvalue(), re.S), (
                "README.md block at line {} printed {!r}; its comments say {!r}".format(line, out.getvalue(), want[0]))
        for key, check in CHECKS.items():
            if key in code:
                check(ns, monkeypatch)
        ran += 1
    assert ran == len(blocks) - len(SKIP)


def test_readme_learned_state_names_every_attribute(cli, monkeypatch):
    """The README's "Learned state" names every attribute a fit sets (it
    left out ``inspection_`` and ``feature_names_in_``), and names none
    that a fit does not set."""
    pd = pytest.importorskip("pandas")
    monkeypatch.setenv("GREEDYTL_BIN", cli["path"])
    with open(README, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^- \*\*Learned state\*\*:(.*?)(?=^\S|^- )", text, re.M | re.S)
    assert m, "python/README.md has no '- **Learned state**:' item"
    named = set(re.findall(r"`([a-z][a-z_]*_)`", m.group(1)))
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(12, 3)), columns=["a", "b", "c"])
    y = np.array([0, 1] * 6)
    clf = greedytl.TransferClassifier(sources=lambda X: np.asarray(X)[:, :1], random_state=0).fit(X, y)
    fitted = {k for k in vars(clf) if k.endswith("_") and not k.startswith("_")}
    assert fitted - named == set(), "set by fit, not in the README's learned state"
    assert named - fitted == set(), "in the README's learned state, not set by fit"
