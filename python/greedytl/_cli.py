"""Finding, checking and running the ``greedytl`` command.

The estimator fits through the Go engine: it writes its arrays as ``.npy``
files into a private temporary directory, runs ``greedytl fit`` there and
reads the model file back.  This module owns everything about the child
process: where the command is, whether it is one this package can read the
models of, how its exit status maps to Python exceptions, and that a fit
that is interrupted (``KeyboardInterrupt``) or whose Python process is killed
leaves neither a running child nor files behind.  It also turns the
warnings of a fit that succeeded into Python warnings: ``greedytl fit --json``
reports them on standard output (what ``greedytl: warning:`` lines say on
standard error), so they reach the user as :class:`GreedyTLWarning` without
the command's standard error, whose other lines are for people, being read.
"""

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import warnings

from . import _model
from ._compat import ConvergenceWarning

__all__ = [
    "ENV_VAR",
    "PARENT_ENV",
    "CLIError",
    "CommandNotFoundError",
    "GreedyTLConvergenceWarning",
    "GreedyTLWarning",
    "find_greedytl",
    "cli_info",
    "run_cli",
    "private_dir",
]

#: The environment variable naming the greedytl command (a path), read
#: before the PATH is searched.
ENV_VAR = "GREEDYTL_BIN"

#: The model file format and version this package reads (``greedytl version
#: --json`` reports what a build writes): _model's, the newest version it
#: reads.
MODEL_FORMAT = _model.FORMAT
MODEL_VERSION = max(_model.VERSIONS)

#: The version of ``greedytl fit --json``'s report this package reads
#: (``greedytl version --json`` reports it as ``fit_report``).
FIT_REPORT = 1

#: The prefix of the private directories of fits; stale ones, left by a
#: Python process that was killed, are removed by the next fit on the same
#: host.  The name goes on with the process id, the host's tag and
#: mkdtemp's letters: greedytl-fit-PID-HOST-XXXXXXXX.
_DIR_PREFIX = "greedytl-fit-"

# How greedytl begins each line of its standard error.
_CLI_PREFIX = "greedytl: "

# A progress line of greedytl's long work on a standard error that is not
# a terminal ("classes: 3 of 10 done (30%), 2m0s" of a fit one class
# against the rest, "fitting greedytl-auto: 6 of 12 done (50%), 2m0s" of
# greedytl-auto's committees or greedytl-nway's fits: cmd/greedytl's
# lineProgress, at most one a tenth of the work and a minute), which
# run_cli passes on when asked (echo).  greedytl's other lines of standard
# error are its messages: a fit's warnings, which the package issues from
# the --json report, its errors, which become the exception, and notes
# naming the fit's private files.
_PROGRESS_LINE = re.compile(r"[^:\n]+: [0-9]+ of [0-9]+ done \([0-9]+%\), [0-9hms.]+")

#: Seconds without a line to pass on (echo) after which run_cli passes on
#: one of its own while the command runs, "greedytl fit: still running,
#: 2m0s" (the time since it started): a fit that writes no progress of its
#: own (a method that reports none, or a minute without a tenth more of the
#: work done) still shows, once a minute as greedytl's progress lines at
#: most, that it is working.  A variable so that a test can make the
#: minutes pass.
HEARTBEAT = 60.0

_INSTALL_HINT = (
    "build and install it from the greedytl repository with "
    "`go install ./cmd/greedytl` (it goes to $(go env GOPATH)/bin, which must be "
    "on PATH), or set {env}=/path/to/greedytl".format(env=ENV_VAR)
)


class CommandNotFoundError(RuntimeError):
    """The greedytl command is missing or is not one this package can use."""


class CLIError(RuntimeError):
    """greedytl failed for a reason other than its input (exit status 1, a
    signal).  ``args[0]`` is the message, ``stderr`` the command's standard
    error, ``stdout`` its standard output (``greedytl fit --json``'s report
    of the error) and ``returncode`` its exit status."""

    def __init__(self, message, returncode=None, stderr="", stdout=""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr
        self.stdout = stdout


class GreedyTLWarning(UserWarning):
    """A warning of a greedytl fit that succeeded, about its model (e.g.
    per-class models that keep no column, so that one class takes most
    rows).  ``code`` names its kind as greedytl does (``"constant-classes"``),
    a word that stays when the message is reworded."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class GreedyTLConvergenceWarning(GreedyTLWarning, ConvergenceWarning):
    """A :class:`GreedyTLWarning` of code ``"not-converged"``: runs of an
    iterative solver of the fit stopped before their stopping rule held (at
    their iteration cap, or unable to progress), so that the model is where
    the solver stopped.  It is also scikit-learn's
    ``sklearn.exceptions.ConvergenceWarning`` (a stand-in when scikit-learn
    is absent), which filters written for scikit-learn's estimators catch."""


class CLIInputError(ValueError):
    """greedytl rejected its input (exit status 2): a ``ValueError`` carrying
    the command's message (``stderr``) and standard output (``stdout``)."""

    def __init__(self, message, returncode=2, stderr="", stdout=""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr
        self.stdout = stdout


def find_greedytl(path=None):
    """Return the path of the greedytl command.

    ``path`` (if given), else the environment variable ``GREEDYTL_BIN``, else
    ``greedytl`` on PATH.  Raises :class:`CommandNotFoundError` saying what
    to do when there is none.
    """
    if path is None:
        path = os.environ.get(ENV_VAR) or None
        origin = ENV_VAR if path else None
    else:
        origin = "the greedytl_bin argument"
    if path is not None:
        path = os.fspath(path)
        found = shutil.which(path) if os.sep not in path else path
        if found is None or not os.path.isfile(found) or not os.access(found, os.X_OK):
            raise CommandNotFoundError(
                "{origin} names {path!r}, which is not an executable file: {hint}".format(
                    origin=origin, path=path, hint=_INSTALL_HINT))
        return os.path.abspath(found)
    found = shutil.which("greedytl")
    if found is not None:
        return found
    hint = _INSTALL_HINT
    gobin = _go_bin_candidate()
    if gobin is not None:
        hint = ("{gobin} exists but its directory is not on PATH: add {dir} to PATH "
                "or set {env}={gobin}").format(gobin=gobin, dir=os.path.dirname(gobin), env=ENV_VAR)
    raise CommandNotFoundError("the greedytl command is not on PATH and {env} is not set: {hint}".format(
        env=ENV_VAR, hint=hint))


def _go_bin_candidate():
    """Where ``go install`` would have put greedytl, if it is there."""
    dirs = []
    if os.environ.get("GOBIN"):
        dirs.append(os.environ["GOBIN"])
    gopath = os.environ.get("GOPATH") or os.path.join(os.path.expanduser("~"), "go")
    dirs.extend(os.path.join(p, "bin") for p in gopath.split(os.pathsep) if p)
    for d in dirs:
        p = os.path.join(d, "greedytl")
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


_info_cache = {}

#: Seconds cli_info waits for ``greedytl version --json``.
_VERSION_TIMEOUT = 60


def cli_info(path=None):
    """Return what ``greedytl version --json`` reports of the command at
    ``path`` (see :func:`find_greedytl`) as a dict with its ``"path"``:
    ``module``, ``go``, ``revision`` (a build from a commit; ``modified``:
    true when its tree was modified), ``executable_sha256`` (a build that no
    commit identifies), ``model_format``, ``model_version``, ``methods`` and
    ``multiclass_methods`` (the binary and the native multi-class methods
    ``fit --method`` accepts) and ``fit_report``.

    Raises :class:`CommandNotFoundError` when the command is missing, does
    not run, or is too old or too new for this package (it must report the
    model file format and version this package reads).
    """
    path = find_greedytl(path)
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size)
    if key in _info_cache:
        return dict(_info_cache[key])
    try:
        proc = subprocess.run([path, "version", "--json"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=_VERSION_TIMEOUT)
    except OSError as e:
        raise CommandNotFoundError("{path} does not run ({e}): {hint}".format(path=path, e=e, hint=_INSTALL_HINT))
    except subprocess.TimeoutExpired:
        raise CommandNotFoundError("{path} did not answer `greedytl version --json` within {t:g} s (stopped): it is "
                                   "not a greedytl this package can drive: {hint}".format(
                                       path=path, t=_VERSION_TIMEOUT, hint=_INSTALL_HINT)) from None
    try:
        info = json.loads(proc.stdout) if proc.returncode == 0 else None
    except ValueError:
        info = None
    if not isinstance(info, dict) or "model_version" not in info or "methods" not in info:
        raise CommandNotFoundError(
            "{path} is not a greedytl this package can drive: `greedytl version --json` "
            "(exit status {rc}) does not report the model file version and the methods "
            "(a build older than the Python package?): {hint}".format(
                path=path, rc=proc.returncode, hint=_INSTALL_HINT))
    if info.get("model_format") != MODEL_FORMAT or info.get("model_version") != MODEL_VERSION:
        raise CommandNotFoundError(
            "{path} writes model files {fmt!r} version {v}, this package reads {want!r} version {wv}: "
            "install the greedytl and the Python package of the same repository ({hint})".format(
                path=path, fmt=info.get("model_format"), v=info.get("model_version"),
                want=MODEL_FORMAT, wv=MODEL_VERSION, hint=_INSTALL_HINT))
    if info.get("fit_report") != FIT_REPORT:
        raise CommandNotFoundError(
            "{path} reports fit's --json report version {v}, this package reads version {want} "
            "(a build older than the Python package?): install the greedytl and the Python "
            "package of the same repository ({hint})".format(
                path=path, v=info.get("fit_report"), want=FIT_REPORT, hint=_INSTALL_HINT))
    info["path"] = path
    _info_cache[key] = info
    return dict(info)


def build_name(info):
    """How messages name the greedytl build that ``info`` (:func:`cli_info`'s)
    describes: its path, module version and commit (or, for a build that no
    commit identifies, its executable's digest), as ``greedytl version``
    names them."""
    what = [str(info.get("module") or "unknown version")]
    if info.get("revision"):
        what.append("commit {}{}".format(info["revision"][:12], ", modified" if info.get("modified") else ""))
    elif info.get("executable_sha256"):
        what.append("sha256:{}".format(info["executable_sha256"][:16]))
    return "greedytl {} ({})".format(info["path"], ", ".join(what))


def package_name():
    """How messages name this Python package and its version."""
    from . import __version__
    return "the greedytl Python package {}".format(__version__)


_flags_cache = {}

# A flag of cobra's listing of a command's flags ("  -o, --out string   …",
# "      --ignore-unused-extra   …"): its long name.
_HELP_FLAG = re.compile(r"^\s+(?:-\w, )?--([A-Za-z0-9][A-Za-z0-9-]*)", re.M)


def _fit_flags(info):
    """The long names of the flags ``greedytl fit`` of the build ``info``
    describes takes, and None; or, when it could not list them (a build
    without ``fit_flags`` whose ``fit --help`` failed, timed out or could
    not run), an empty set and what went wrong."""
    flags = info.get("fit_flags")
    if isinstance(flags, list):
        return frozenset(f for f in flags if isinstance(f, str)), None
    path = info["path"]
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size)
    if key in _flags_cache:
        return _flags_cache[key]
    failed = None
    text = ""
    # An answer, or no answer in time (not waited for again), is kept for
    # the build; a failure to run or a failing exit is asked again next time
    # (it may have been passing: a full disk, a missing library since fixed).
    keep = True
    try:
        proc = subprocess.run([path, "fit", "--help"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=_VERSION_TIMEOUT)
        if proc.returncode == 0:
            text = proc.stdout
        else:
            said = proc.stderr.strip().rsplit("\n", 1)[-1]
            failed, keep = "exited {}{}".format(proc.returncode, ": " + said if said else ""), False
    except subprocess.TimeoutExpired:
        failed = "did not answer within {} s".format(_VERSION_TIMEOUT)
    except OSError as e:
        failed, keep = "could not run: {}".format(e), False
    got = (frozenset(_HELP_FLAG.findall(text)), failed)
    if keep:
        _flags_cache[key] = got
    return got


def fit_flags(info):
    """The long names of the flags ``greedytl fit`` takes, of the build
    ``info`` describes (:func:`cli_info`'s): the ``fit_flags`` that ``greedytl
    version --json`` lists, or, for a build older than that list, those
    ``greedytl fit --help`` lists (an empty set when it does not answer:
    :func:`require_fit_flag` then says so)."""
    return _fit_flags(info)[0]


def require_fit_flag(info, flag, why):
    """Raise :class:`CommandNotFoundError` unless ``greedytl fit`` of the
    build ``info`` describes takes ``--flag`` (:func:`fit_flags`), which the
    package passes for the reason ``why``: the message names both versions
    and says that greedytl is the one to upgrade.  An older greedytl
    refused the flag as unknown, which said neither.  When the flags could
    not be listed (``fit --help`` of a build without ``fit_flags`` failed or
    timed out) the message says that, naming the build, not that its fit
    lacks the flag."""
    flags, failed = _fit_flags(info)
    if flag in flags:
        return
    if failed is not None:
        raise CommandNotFoundError(
            "{build} lists no fit_flags in its version --json, and its fit --help {failed}: the package could not "
            "tell whether its fit takes --{flag}, which it passes {why}; check that this greedytl runs, or upgrade it "
            "to the version of {pkg} ({hint})".format(
                build=build_name(info), failed=failed, flag=flag, why=why, pkg=package_name(), hint=_INSTALL_HINT))
    raise CommandNotFoundError(
        "{build} is older than {pkg}: its fit has no --{flag}, which the package passes {why}; upgrade greedytl to "
        "the version of the Python package ({hint})".format(
            build=build_name(info), pkg=package_name(), flag=flag, why=why, hint=_INSTALL_HINT))


# The refusal, by a greedytl older than the directory, of a sources
# directory's index holding a member it does not know: builds before
# source.ReadIndex named the member and the cause said only
# 'DIR/sources.json: json: unknown field "scores"' (their words, which
# they keep).  Newer builds say which member and that a newer greedytl
# wrote the directory.
_OLD_INDEX_REFUSAL = re.compile(r'(.*sources\.json): json: unknown field "((?:[^"\\]|\\.)*)"')


def _older_than_sources(info, said):
    """The :class:`CommandNotFoundError` of an older greedytl's refusal
    (``said``, its message, whose last line is the error) of a sources
    directory written by a newer one (_OLD_INDEX_REFUSAL), or None for any
    other message."""
    said = said.rsplit("\n", 1)[-1]
    m = _OLD_INDEX_REFUSAL.fullmatch(said)
    if m is None:
        return None
    return CommandNotFoundError(
        '{build} cannot read {index}: its member "{member}" is unknown to that greedytl (it said: {said}): the '
        "sources directory was written by a newer greedytl (train-sources), as {pkg} expects; upgrade greedytl to "
        "the version of the Python package ({hint})".format(
            build=build_name(info), index=m.group(1), member=m.group(2), said=said, pkg=package_name(),
            hint=_INSTALL_HINT))


#: The environment variable through which the Python process asks greedytl
#: to stop when the Python process dies, even by SIGKILL: its value is the
#: Python process's id.  greedytl (on Linux) asks the kernel for SIGTERM
#: when its parent dies (Linux sends it when the thread that started
#: greedytl ends; run_cli's thread waits for the command); started through
#: a wrapper that runs it as a child (GREEDYTL_BIN naming a shell shim, an
#: HPC module wrapper, timeout) it watches the Python process, its ancestor
#: (a pidfd; where none opens, a look at its ancestors in /proc every
#: second), and stops when it ends; it ends at once if the Python process
#: is none of its ancestors (it died before the request).  The rule's owner
#: is the command (cmd/greedytl/parent.go, parentEnv).
#:
#: Where /proc cannot be read (not mounted, or mounted with hidepid): a
#: greedytl that is the Python process's own child needs no /proc (the
#: kernel's parent-death signal), so fits run and a killed Python process
#: still stops its command; one started through a wrapper cannot tell that
#: the Python process is its ancestor, and refuses to run: it exits at once
#: with status 143, and fit raises :class:`CLIError` with greedytl's message
#: (naming the /proc file it could not read) and what to do (_PARENT_NOTE).
#: A Python process that died before its command asked for the signal
#: leaves no command running either way (greedytl, handed to another parent,
#: does not find it among its ancestors, or cannot tell, and stops).  With
#: /proc readable at the start but not later, a command watching its
#: ancestor by looking at /proc stops.
#:
#: The child is started without code between fork and exec
#: (no ``preexec_fn``, which is unsafe when other threads run: joblib's
#: threading backend, Jupyter).  On other systems greedytl ignores the
#: variable: a killed Python process leaves its command running.
PARENT_ENV = "GREEDYTL_PARENT_PID"

# The exit status with which greedytl stops when it cannot see the Python
# process among its ancestors (128 + SIGTERM, as the signal would end it),
# and what run_cli adds to its message, which begins with PARENT_ENV.
_PARENT_STOP = 143
_PARENT_NOTE = (
    "greedytl runs only while it sees the Python process that started it among its ancestors, which, "
    "started through a wrapper that runs it as a child, it reads in /proc: give greedytl_bin (or "
    "{env}) the greedytl executable itself, or a wrapper that execs it, or make /proc readable".format(env=ENV_VAR))


def run_cli(args, path=None, cwd=None, echo=None):
    """Run ``greedytl ARGS`` and return its standard output (text).

    ``echo``, if not None, is a function of one line of text (without its
    newline) that is given greedytl's progress lines (_PROGRESS_LINE) as
    greedytl writes them, while it runs, so that a long fit shows that it
    is working (the estimator's ``verbose``), and, when :data:`HEARTBEAT`
    seconds pass without one, a line of run_cli's own saying how long the
    command has run (``greedytl fit: still running, 1m0s``); greedytl's
    lines are left out of the messages of the exceptions (not of their
    ``stderr``).

    Exit status 2 (bad usage or input) raises ``ValueError`` (a
    :class:`CLIInputError`), any other failure :class:`CLIError` (a
    ``RuntimeError``), each carrying greedytl's message.  On any exception
    in the waiting Python process (``KeyboardInterrupt`` included) the child
    is stopped (SIGTERM, then SIGKILL) and waited for before the exception
    propagates; on Linux the child is also stopped when the Python process
    is killed (:data:`PARENT_ENV`).
    """
    info = cli_info(path)
    exe = info["path"]
    env = dict(os.environ)
    env[PARENT_ENV] = str(os.getpid())
    # A KeyboardInterrupt raised once the child runs but before the try
    # below (inside Popen, after its exec, or between Popen's return and the
    # try) would leave the child running with no one to stop it: a Ctrl-C
    # meeting that window, which a loaded machine widens, is held until the
    # try is entered (_HeldSigint).
    held = _HeldSigint()
    try:
        proc = subprocess.Popen([exe] + [os.fspath(a) for a in args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except BaseException:
        held.release()
        raise
    try:
        held.release()
        if echo is None:
            out, err = proc.communicate()
        else:
            out, err = _communicate_echoing(proc, echo, "greedytl " + (args[0] if args else ""))
    except BaseException:
        _stop(proc)
        raise
    out = out.decode("utf-8", "replace")
    err = err.decode("utf-8", "replace").strip()
    if proc.returncode == 0:
        return out
    cmd = "greedytl " + (args[0] if args else "")
    # The message names the command once: without the "greedytl: " that
    # greedytl begins each line of its standard error with; progress lines
    # are no part of it.
    said = "\n".join(line[len(_CLI_PREFIX):] if line.startswith(_CLI_PREFIX) else line
                     for line in err.split("\n") if not _PROGRESS_LINE.fullmatch(line))
    if proc.returncode == 2 and "--sources" in args:
        older = _older_than_sources(info, said)
        if older is not None:
            raise older
    if proc.returncode == 2:
        raise CLIInputError("{cmd}: {said}".format(cmd=cmd, said=said or "invalid input (exit status 2)"), 2, err, out)
    if proc.returncode < 0:
        what = "was killed by signal {}".format(-proc.returncode)
    else:
        what = "failed (exit status {})".format(proc.returncode)
    if proc.returncode == _PARENT_STOP and said.startswith(PARENT_ENV + "="):
        said += " ({})".format(_PARENT_NOTE)
    raise CLIError("{cmd} {what}{sep}{said}".format(cmd=cmd, what=what, sep=": " if said else "", said=said),
                   proc.returncode, err, out)


@contextlib.contextmanager
def naming_inputs(shown, notes=None, name_class=None):
    """A ``with`` block whose CLIError or CLIInputError (a failure of
    :func:`run_cli`) has each path of ``shown`` (path → name) in its message
    replaced by the name: greedytl names its input files, which may be
    files the caller made for it (a fit's .npy files) and that the user
    knows by other names.  ``name_class`` (as :func:`warn`'s) adds, when
    ``greedytl fit --json`` reported classes of the error (``stdout``:
    :func:`error_classes`), which classes of the caller's they are.
    ``notes`` (text → note) adds, after a message that holds the text (a
    flag of greedytl's, such as ``--oracle-``), the note in parentheses:
    what the caller calls that input.  ``stderr`` stays the command's."""
    try:
        yield
    except (CLIError, CLIInputError) as e:
        if e.args and isinstance(e.args[0], str):
            msg = e.args[0]
            for path in sorted(shown, key=len, reverse=True):
                msg = msg.replace(path, shown[path])
            if name_class is not None:
                msg += _class_note(error_classes(e.stdout), name_class)
            added = [note for text, note in (notes or {}).items() if text in msg]
            if added:
                msg += " ({})".format("; ".join(added))
            e.args = (msg,) + e.args[1:]
        raise


def fit_report(out):
    """The report ``greedytl fit --json`` printed (``out``, its standard
    output): a dict with ``"model"`` and ``"warnings"``, a list of dicts with
    ``"code"``, ``"message"`` and, when the warning is about some classes,
    ``"classes"`` (as the labels given to greedytl name them).  Raises
    :class:`CLIError` when ``out`` is not such a report."""
    try:
        rep = json.loads(out)
    except ValueError:
        rep = None
    ok = (isinstance(rep, dict) and isinstance(rep.get("warnings"), list)
          and all(isinstance(w, dict) and isinstance(w.get("message"), str) for w in rep["warnings"]))
    if not ok:
        raise CLIError("greedytl fit --json printed {!r}, not its report (model and warnings)".format(out[:200]))
    return rep


def error_classes(out):
    """The classes ``greedytl fit --json`` reported of the error of a fit
    that failed (``out``, its standard output: ``{"error": {"message",
    "classes"}, …}``), as the labels given to greedytl name them: [] when
    it names none or ``out`` is no such report (a greedytl older than the
    report of errors, a failure before fit read its flags)."""
    try:
        rep = json.loads(out)
    except ValueError:
        return []
    err = rep.get("error") if isinstance(rep, dict) else None
    classes = err.get("classes") if isinstance(err, dict) else None
    if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes):
        return []
    return classes


def _class_note(classes, name_class):
    """What a message about greedytl's classes adds to say which classes of
    the caller's they are (name_class maps greedytl's name to the
    caller's): " (greedytl's class "0" is classes_[0] = 'a b')", or ""
    without classes."""
    if not classes:
        return ""
    return " (greedytl's class {})".format(", ".join(
        "{} is {}".format(json.dumps(c), name_class(c)) for c in classes))


def warn(report_warnings, name_class=None, stacklevel=2, name_column=None):
    """Issue each warning of a fit's report (:func:`fit_report`) as a
    :class:`GreedyTLWarning`, in order.  ``name_class`` maps a class as
    greedytl names it to the caller's name for it; a warning about classes
    then says which they are.  ``name_column`` maps a column of the report
    (``{"kind": "feature" or "source", "index": j}``) to the caller's name
    for it, or None when it has none; a warning about named columns then
    says which they are.  ``stacklevel`` is that of
    :func:`warnings.warn` as seen from the caller of this function."""
    for w in report_warnings:
        msg = "greedytl fit: " + w["message"]
        if name_class is not None:
            msg += _class_note(w.get("classes") or [], name_class)
        named = [(c, name_column(c)) for c in (w.get("columns") or [])] if name_column is not None else []
        named = [(c, n) for c, n in named if n is not None]
        if named:
            msg += " (greedytl's {})".format(", ".join(
                "{} {} is {}".format(c.get("kind"), c.get("index"), json.dumps(n)) for c, n in named))
        cls = GreedyTLConvergenceWarning if w.get("code") == "not-converged" else GreedyTLWarning
        warnings.warn(cls(msg, w.get("code")), stacklevel=stacklevel + 1)


def _communicate_echoing(proc, echo, cmd):
    """What ``proc.communicate()`` returns (standard output and error, as
    bytes), standard error being read line by line as the child writes it
    by a thread that gives each progress line (_PROGRESS_LINE) to echo,
    and another thread giving echo ``CMD: still running, ELAPSED`` when
    HEARTBEAT seconds pass without a line (cmd names the command); once
    echo raises, no more lines are given to it, and the reading goes on."""
    err = []
    lock = threading.Lock()  # one echo at a time, and the state below
    state = {"echoing": True, "last": time.monotonic()}
    start = state["last"]
    done = threading.Event()

    def say(line):
        with lock:
            if not state["echoing"]:
                return
            state["last"] = time.monotonic()
            try:
                echo(line)
            except Exception:
                # An echo that fails (sys.stderr None under pythonw, a
                # closed stream) ends the echoing, not the reading: the
                # child must not block on a full pipe, and its error
                # text is the message of a failed fit.
                state["echoing"] = False

    def read_err():
        while True:
            try:
                raw = proc.stderr.readline()
            except (OSError, ValueError):  # closed by _stop: the exception that stopped the child is the one raised
                return
            if not raw:
                return
            err.append(raw)
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if _PROGRESS_LINE.fullmatch(line):
                say(line)

    def beat():
        every = HEARTBEAT
        while state["echoing"] and not done.wait(max(0.0, state["last"] + every - time.monotonic())):
            if time.monotonic() - state["last"] >= every:
                say("{}: still running, {}".format(cmd, elapsed(time.monotonic() - start)))

    reader = threading.Thread(target=read_err, name="greedytl-stderr", daemon=True)
    reader.start()
    beater = threading.Thread(target=beat, name="greedytl-heartbeat", daemon=True)
    beater.start()
    try:
        out = proc.stdout.read()
        proc.wait()
    finally:
        done.set()
    beater.join()
    reader.join()
    proc.stdout.close()
    proc.stderr.close()
    return out, b"".join(err)


def elapsed(seconds):
    """A duration for people, as Go writes a time.Duration: under a minute
    to a tenth of a second ("0.3s", "45.0s"), else rounded to the second
    as greedytl's progress lines write it ("2m0s", "1h0m5s")."""
    if round(seconds, 1) < 60:
        return "{:.1f}s".format(seconds)
    s = int(round(seconds))
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    if h:
        return "{}h{}m{}s".format(h, m, s)
    if m:
        return "{}m{}s".format(m, s)
    return "{}s".format(s)


def echo_stderr(line):
    """Write line and a newline on the Python process's standard error as
    it is when called (a notebook's, pytest's capture), and flush it."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


class _HeldSigint:
    """SIGINT held from construction to :meth:`release`: a SIGINT that
    comes meanwhile is given to the handler it would have run (raising
    KeyboardInterrupt, by default) when release is called, so that the
    caller can start a child and enter the ``try`` that stops it on any
    exception before a Ctrl-C can interrupt it.  Python runs signal handlers
    in the main thread only, so in other threads (and where SIGINT's
    handler is not a Python function: ignored, the default action) nothing
    is held."""

    def __init__(self):
        self.old = None
        self.pending = None
        if threading.current_thread() is threading.main_thread():
            old = signal.getsignal(signal.SIGINT)
            if callable(old):
                self.old = old
                signal.signal(signal.SIGINT, self._hold)

    def _hold(self, signum, frame):
        self.pending = (signum, frame)

    def release(self):
        """Restore SIGINT's handler and give it a SIGINT held meanwhile."""
        old, self.old = self.old, None
        if old is None:
            return
        signal.signal(signal.SIGINT, old)
        if self.pending is not None:
            pending, self.pending = self.pending, None
            old(*pending)


def _stop(proc):
    """Stop the child: SIGTERM (greedytl stops cleanly on it), then SIGKILL."""
    if proc.poll() is not None:
        return
    try:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    finally:
        for f in (proc.stdout, proc.stderr):
            if f is not None:
                f.close()


class private_dir:
    """A private temporary directory (mode 0700) for one fit's files,
    removed on exit from the ``with`` block whatever happens.

    Its name records the Python process's id and its host (_host_tag);
    entering one first removes the directories of this prefix and host whose
    process no longer exists (left by a Python process that was killed), so
    files outlive a killed fit only until the next fit on that host.  Those
    of other hosts (a TMPDIR shared by machines) are left alone: their
    process ids mean nothing here.
    """

    def __init__(self, base=None):
        self.base = base
        self.path = None

    def __enter__(self):
        host = _host_tag()
        _sweep_stale(self.base, host)
        # A KeyboardInterrupt raised inside mkdtemp once it made the
        # directory would leave it (__exit__ runs only once __enter__
        # returned) for as long as this process lives: SIGINT is held until
        # the path is known, and the directory removed if a held one raises.
        held = _HeldSigint()
        try:
            self.path = tempfile.mkdtemp(prefix="{}{}-{}-".format(_DIR_PREFIX, os.getpid(), host), dir=self.base)
        except BaseException:
            held.release()
            raise
        try:
            held.release()
        except BaseException:
            shutil.rmtree(self.path, ignore_errors=True)
            raise
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)
        return False


def _host_tag():
    """This host in fit directories' names: 12 hex digits of the SHA-256 of
    its name (no "-", which separates the name's parts)."""
    return hashlib.sha256(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:12]


def _sweep_stale(base, host):
    """Remove this user's fit directories of this host (host: its
    _host_tag) in base (None: the temporary directory) whose Python process
    is gone (and those of an older package, whose names record no host);
    none on Windows (see _alive).  Other names of the prefix, which anyone
    may make in a shared directory, are left alone without an error: one
    that records no pid a process could have (_pid_of), a file or a
    symbolic link, another user's directory (the owner is checked before
    the pid is asked about)."""
    base = base or tempfile.gettempdir()
    try:
        names = os.listdir(base)
    except OSError:
        return
    uid = os.getuid() if hasattr(os, "getuid") else None
    for name in names:
        if not name.startswith(_DIR_PREFIX):
            continue
        parts = name[len(_DIR_PREFIX):].split("-")
        pid = _pid_of(parts[0])
        if pid is None or pid == os.getpid() or len(parts) > 2 and parts[1] != host:
            continue
        p = os.path.join(base, name)
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or uid is not None and st.st_uid != uid:
            continue
        if not _alive(pid):
            shutil.rmtree(p, ignore_errors=True)


# The greatest process id of any system this runs on: pid_t is a C int
# (Linux's PID_MAX_LIMIT is 2**22, macOS's 99998).
_PID_MAX = 2 ** 31 - 1


def _pid_of(text):
    """The process id a fit directory's name records (text: its part after
    the prefix), or None when it is not one that os.getpid() formats: a
    positive decimal of ASCII digits, no leading zero, that fits a pid_t.
    Anyone may name a directory in a shared /tmp: str.isdigit() takes other
    digits ("²", which int() refuses; "٣", which it reads as 3), and
    os.kill raises OverflowError for a number beyond a C long."""
    if not 0 < len(text) <= len(str(_PID_MAX)) or not text.isascii() or not text.isdigit() or text[0] == "0":
        return None
    pid = int(text)
    return pid if pid <= _PID_MAX else None


def _alive(pid):
    """Whether a process of this id exists; assumed so where signal 0 does
    not ask it (Windows, where os.kill(pid, 0) ends the process), so that
    the sweep leaves fit directories alone there."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return True
    return True
