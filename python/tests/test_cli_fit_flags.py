"""require_fit_flag of a build whose version --json lists no fit_flags:
the package asks its fit --help. When that fails or times out the package
cannot tell whether fit takes the flag, and says so, naming the build and
what went wrong; it said "its fit has no --ignore-unused-extra", false for a
build that has it. A fit --help that answers without the flag still says
the build is older. No greedytl is needed: the builds are fake.
"""

import stat

import pytest

from greedytl import _cli
from greedytl import CommandNotFoundError

FLAG = "ignore-unused-extra"


def _fake(tmp_path, name, body):
    p = tmp_path / name
    p.write_text("#!/bin/sh\n" + body)
    p.chmod(p.stat().st_mode | stat.S_IXUSR)
    return {"path": str(p), "module": "v0.0.1", "executable_sha256": "ab" * 32}


def _refusal(info):
    with pytest.raises(CommandNotFoundError) as e:
        _cli.require_fit_flag(info, FLAG, "with X_unlabelled")
    return str(e.value)


def test_fit_help_fails(tmp_path):
    info = _fake(tmp_path, "failing", 'echo "greedytl: something broke" >&2\nexit 3\n')
    said = _refusal(info)
    assert info["path"] in said and "fit --help exited 3: greedytl: something broke" in said, said
    assert "could not tell whether its fit takes --" + FLAG in said, said
    assert "has no --" not in said, said


def test_fit_help_times_out(tmp_path, monkeypatch):
    monkeypatch.setattr(_cli, "_VERSION_TIMEOUT", 1)
    info = _fake(tmp_path, "slow", "exec sleep 30\n")
    said = _refusal(info)
    assert info["path"] in said and "fit --help did not answer within 1 s" in said, said
    assert "has no --" not in said, said


def test_fit_help_without_the_flag(tmp_path):
    info = _fake(tmp_path, "old", 'echo "Flags:"\necho "      --features string   target features"\n')
    said = _refusal(info)
    assert "its fit has no --" + FLAG in said and info["path"] in said, said


def test_fit_help_with_the_flag(tmp_path):
    info = _fake(tmp_path, "new", 'echo "Flags:"\necho "      --ignore-unused-extra   ignore"\n')
    _cli.require_fit_flag(info, FLAG, "with X_unlabelled")
    assert FLAG in _cli.fit_flags(info)


def test_fit_help_failure_asked_again(tmp_path):
    """A fit --help that failed is asked again at the next check (the
    failure may have been passing); it was kept for the process, and a build
    that then answered with the flag was still refused."""
    marker = tmp_path / "failed-once"
    info = _fake(tmp_path, "flaky",
                 'if [ ! -e "{m}" ]; then : > "{m}"; echo "greedytl: busy" >&2; exit 1; fi\n'
                 'echo "Flags:"\necho "      --ignore-unused-extra   ignore"\n'.format(m=marker))
    assert "fit --help exited 1: greedytl: busy" in _refusal(info)
    _cli.require_fit_flag(info, FLAG, "with X_unlabelled")
