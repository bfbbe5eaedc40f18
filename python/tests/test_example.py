"""The README's example runs as is and prints what the README says it
prints, number for number."""

import difflib
import os
import subprocess
import sys

import pytest

pytest.importorskip("sklearn")

HERE = os.path.dirname(__file__)
EXAMPLE = os.path.join(HERE, os.pardir, "examples", "digits.py")
README = os.path.join(HERE, os.pardir, "README.md")


def readme_output(path=README, command="examples/digits.py"):
    """The text of the README's plain ``` block that follows the ```sh block
    running command: what the README says the example prints."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fences = [k for k, l in enumerate(lines) if l.startswith("```")]
    blocks = list(zip(fences[::2], fences[1::2]))  # (opening, closing) line of each block
    i = next(i for i, (a, b) in enumerate(blocks)
             if lines[a].strip() == "```sh" and any(command in l for l in lines[a + 1:b]))
    a, b = blocks[i + 1]
    assert lines[a].strip() == "```", "{}:{}: the block after the command's is not plain text".format(path, a + 1)
    return "\n".join(lines[a + 1:b])


def test_readme_output_parser(tmp_path):
    p = tmp_path / "R.md"
    p.write_text("text `examples/digits.py` named\n\n```sh\npython examples/digits.py   # it prints\n```\n\n"
                 "```\na   1.0\n\nb\n```\n\n```\nnot this\n```\n")
    assert readme_output(str(p)) == "a   1.0\n\nb"


def test_digits_example(multiclass_cli):
    """Every line the README shows, the tables' accuracies and the selected
    columns with their weights, is what the example prints with this
    greedytl (the README's numbers once drifted from the example's while
    this test checked only that they beat chance)."""
    p = subprocess.run([sys.executable, EXAMPLE], capture_output=True, text=True,
                       env=dict(os.environ, GREEDYTL_BIN=multiclass_cli["path"]))
    assert p.returncode == 0, p.stderr
    want = readme_output()
    got = p.stdout.rstrip("\n")
    assert got == want, "python/README.md's digits output differs from what the example prints:\n" + "\n".join(
        difflib.unified_diff(want.split("\n"), got.split("\n"), "README.md", "examples/digits.py", lineterm=""))
