"""The README's example runs as is and prints its two tables."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("sklearn")

EXAMPLE = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "digits.py")


def _table(lines, title):
    """The rows (name, accuracies) of the table under the line starting with title."""
    i = next(k for k, l in enumerate(lines) if l.startswith(title))
    rows = []
    for l in lines[i + 2:]:
        if not l.strip():
            break
        f = l.split()
        rows.append((" ".join(f[:-4]), [float(v) for v in f[-4:]]))
    return rows


def test_digits_example(multiclass_cli):
    p = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True,
                       env=dict(os.environ, GREEDYTL_BIN=multiclass_cli["path"]))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    # Better than chance: 50% class-balanced for two classes, 20% for five.
    for title, chance in (("class-balanced accuracy", 50), ("accuracy %, the digits 5-9 as 5 classes", 20)):
        rows = _table(lines, title)
        assert [r[0].split()[0] for r in rows] == ["greedytl-auto" if chance == 50 else "greedytl",
                                                   "LogisticRegression", "LogisticRegression"]
        for name, accs in rows:
            assert all(chance < a <= 100 for a in accs), (name, accs)
    assert any("selected" in l for l in lines)
