"""The README's example runs as is and prints its table."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("sklearn")

EXAMPLE = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "digits.py")


def test_digits_example(cli):
    p = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True,
                       env=dict(os.environ, GREEDYTL_BIN=cli["path"]))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    rows = [l for l in lines if l.startswith(("greedytl-auto", "LogisticRegression"))]
    assert len(rows) == 3
    for r in rows:
        accs = [float(v) for v in r.split()[-4:]]
        assert all(50 <= a <= 100 for a in accs), r
    assert any("selected" in l for l in lines)
