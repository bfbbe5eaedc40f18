"""Source hypotheses: the scores H of the user's model zoo on X.

:class:`Sources` holds the sources in any of the forms users have and
computes their score matrix (rows × sources) on new X:

* a list of fitted scikit-learn classifiers: their ``decision_function`` on
  X, one column per binary classifier, one per class of a multi-class one;
  for a classifier without ``decision_function``, the log-odds of its
  ``predict_proba`` (:func:`proba_scores`);
* a greedytl sources directory (``greedytl train-sources``): the scores of
  its liblinear models, computed in NumPy as the Go package ``source``
  computes them (``Set.Scores``: H = X[:, :d]·W + b, each model oriented so
  that a positive score favours its greater label); ``greedytl fit
  --sources DIR`` computes the same scores at fit time;
* any callable X → (rows × sources) array (or SciPy sparse matrix).
"""

import errno
import hashlib
import math
import os
import posixpath
import re

import numpy as np

from ._compat import NotFittedError, check_is_fitted, issparse, named
from . import _schema
from ._cli import package_name
from ._model import _GO_SPACE, _go_quote, _parse_go_float, count_of, go_text, read_json

__all__ = ["Sources", "SourcesDir", "read_liblinear", "LiblinearModel", "PROBA_EPS", "proba_scores"]

INDEX_FILE = "sources.json"
#: The version of the sources index this package reads (source.IndexVersion;
#: greedytl version --json's "sources_index_version", which test_parity
#: checks).
INDEX_VERSION = 1

#: How far from 0 and 1 :func:`proba_scores` clips probabilities: 2**-53,
#: the spacing of float64 just below 1, so that 1 - PROBA_EPS is the
#: largest float64 below 1.  No probability float64 tells from 1 is changed
#: at the top, the bottom is clipped alike (so that the score of p is minus
#: that of 1 - p), and no score exceeds 53·ln 2 ≈ 36.74 in magnitude.
PROBA_EPS = 2.0 ** -53


class LiblinearModel:
    """A liblinear model file: ``labels``, ``nr_feature``, ``bias`` and the
    weights ``w`` (rows: features, then the bias feature when bias ≥ 0;
    columns: decision functions)."""

    def __init__(self, solver, labels, nr_feature, bias, w):
        self.solver, self.labels, self.nr_feature, self.bias, self.w = solver, labels, nr_feature, bias, w


#: The liblinear solvers greedytl reads (linear.ParseSolver's names, the
#: table solverNames of linear/problem.go): the solver_type of a source
#: model file and the solver of a sources index must be one of them, in
#: this case.  (greedytl refuses liblinear's other solvers, MCSVM_CS and the
#: regressions, and names it does not know.)
SOLVERS = ("L2R_LR", "L2R_L2LOSS_SVC_DUAL", "L2R_L2LOSS_SVC", "L2R_L1LOSS_SVC_DUAL", "L1R_L2LOSS_SVC", "L1R_LR",
           "L2R_LR_DUAL", "ELASTICNET_LR")

# linear.ReadModel's limits of a model file's nr_class and nr_feature
# (linear.MaxModelClasses and MaxModelFeatures; greedytl version --json
# reports them, and test_parity checks that they are these). The limit of
# nr_feature is that of a 64-bit build: MaxModelFeatures is
# min(2**40, math.MaxInt), 2**31 - 1 in a 32-bit build (GOARCH=386), so
# this reader accepts files of more features that a 32-bit greedytl refuses.
_MAX_CLASSES = 2 ** 20
_MAX_FEATURES = 2 ** 40
# A decimal integer as strconv.Atoi and ParseInt read it: ASCII digits, an
# optional sign.
_GO_INTEGER = re.compile(r"[+-]?[0-9]+\Z")
# What strings.Fields splits a line at (unicode.IsSpace): the ASCII white
# space, U+0085, U+00A0 and the separators (category Z).
_GO_FIELDS = re.compile("[" + re.escape(_GO_SPACE) + "]+")


def read_liblinear(data, name="<model>"):
    """Parse a liblinear model file's bytes as greedytl's linear.ReadModel
    does (linear/modelfile.go): a header of keys (solver_type, nr_class,
    label, nr_feature, bias; in any order, blank lines skipped, each once)
    up to the "w" line, then nr_feature weight lines (one more for a bias
    of 0 or more) of one value each for two classes, else nr_class.  A
    ValueError names the file and the line ("NAME: line 2: key "nr_class"
    wants one value, has 0") for a missing, repeated or unknown key, a
    value that is not what the key wants (integers as Go reads them, nr_class
    from 2 to 2**20, nr_feature from 0 to 2**40, labels as many as the
    classes, distinct 32-bit integers, a finite bias and weights), a
    one-class model ("rho"), a solver_type not in :data:`SOLVERS`, and
    missing or extra weight lines."""
    parts = go_text(data).split("\n")
    if parts[-1] == "":  # the text ends with a line break: no line after it
        parts.pop()
    line = 0

    def fail(what):
        return ValueError("{}: line {}: {}".format(name, line, what))

    def go_int(a, lo, hi):
        v = int(a) if _GO_INTEGER.match(a) else None
        return v if v is not None and lo <= v <= hi else None

    def finite(a):
        v = _parse_go_float(a)
        return v[0] if v is not None and math.isfinite(v[0]) else None

    head = {}
    lines = iter(enumerate(parts))
    for i, text_line in lines:
        line, eof = i + 1, i == len(parts) - 1
        f = [x for x in _GO_FIELDS.split(text_line) if x]  # strings.Fields
        if not f:
            if eof:
                raise fail('file ends before the "w" line')
            continue
        key, args = f[0], f[1:]
        if key in head:
            raise fail("key {} appears twice".format(_go_quote(key)))
        head[key] = args
        if key == "w":
            if args:
                raise fail("unexpected {} after \"w\"".format(_go_quote(" ".join(args))))
            break
        if key == "rho":
            raise fail('one-class models (key "rho") are not supported')
        if key != "label" and len(args) != 1:
            raise fail("key {} wants one value, has {}".format(_go_quote(key), len(args)))
        if key == "solver_type" and args[0] not in SOLVERS:
            raise fail("solver_type {} is not a classifier greedytl knows".format(_go_quote(args[0])))
        elif key == "nr_class" and go_int(args[0], 2, _MAX_CLASSES) is None:
            raise fail("nr_class {}, want an integer in [2, {}]".format(_go_quote(args[0]), _MAX_CLASSES))
        elif key == "label":
            if "nr_class" not in head:
                raise fail('"label" before "nr_class"')
            nr_class = int(head["nr_class"][0])
            if len(args) != nr_class:
                raise fail("{} labels for nr_class {}".format(len(args), nr_class))
            seen = set()
            for a in args:
                v = go_int(a, -2 ** 31, 2 ** 31 - 1)
                if v is None:
                    raise fail("label {} is not a 32-bit integer".format(_go_quote(a)))
                if v in seen:
                    raise fail("label {} appears twice".format(v))
                seen.add(v)
        elif key == "nr_feature" and go_int(args[0], 0, _MAX_FEATURES) is None:
            raise fail("nr_feature {}, want an integer in [0, {}]".format(_go_quote(args[0]), _MAX_FEATURES))
        elif key == "bias" and finite(args[0]) is None:
            raise fail("bias {} is not a finite number".format(_go_quote(args[0])))
        elif key not in ("solver_type", "nr_class", "label", "nr_feature", "bias"):
            raise fail("unknown key {}".format(_go_quote(key)))
        if eof:
            raise fail('file ends before the "w" line')
    else:
        raise fail('file ends before the "w" line')
    for k in ("solver_type", "nr_class", "label", "nr_feature", "bias"):
        if k not in head:
            raise fail("header lacks {}".format(_go_quote(k)))
    nr_class = int(head["nr_class"][0])
    labels = [int(v) for v in head["label"]]
    nr_feature = int(head["nr_feature"][0])
    bias = finite(head["bias"][0])
    nr_w = 1 if nr_class == 2 else nr_class
    rows = nr_feature + (1 if bias >= 0 else 0)
    w = _plain_weights(parts[i + 1:], rows, nr_w)
    if w is not None:
        return LiblinearModel(head["solver_type"][0], labels, nr_feature, bias, w)
    # Something unusual (a token not a plain decimal, a blank line, a
    # line of another count, a number beyond float64's range): read line
    # by line, to name it as greedytl does.
    vals = []
    for i, text_line in lines:
        line, eof = i + 1, i == len(parts) - 1
        f = [x for x in _GO_FIELDS.split(text_line) if x]
        if f and len(vals) == rows * nr_w:
            raise fail("extra data after the {} weight lines".format(rows))
        if f and len(f) != nr_w:
            raise fail("weight line has {} values, want {}".format(len(f), nr_w))
        for a in f:
            v = finite(a)
            if v is None:
                raise fail("weight {} is not a finite number".format(_go_quote(a)))
            vals.append(v)
        if not f and len(vals) < rows * nr_w and not eof:
            raise fail("blank line inside the weights")
    if len(vals) != rows * nr_w:
        raise fail("file ends after {} of {} weight lines".format(len(vals) // nr_w, rows))
    w = np.array(vals, dtype=np.float64).reshape(rows, nr_w)
    return LiblinearModel(head["solver_type"][0], labels, nr_feature, bias, w)


# The text of a weight block that _plain_weights reads at once: ASCII
# digits, signs, points, exponents and blanks (no other white space that
# strings.Fields and str.split would split at differently).
_PLAIN_BLOCK = re.compile(r"[0-9eE+\-. \t\r\n]*\Z")
# A blank line in such a block.
_BLANK_LINE = re.compile(r"(?:\A|\n)[ \t\r]*(?:\n|\Z)")


def _plain_weights(lines, rows, nr_w):
    """The (rows × nr_w) weights of the lines after a liblinear model
    file's "w" line when they are as liblinear writes them, read at once:
    rows lines of nr_w finite decimal numbers each, only blank lines after
    them.  None when anything is otherwise, for read_liblinear's reading
    line by line, which then accepts or refuses as greedytl does; this only
    spares it the work a line in the usual case.  (On these characters
    str.split is strings.Fields, and float reads a token exactly when
    number.Parse does, as a decimal.)"""
    if len(lines) < rows or "".join(lines[rows:]).strip(" \t\r"):
        return None
    block = "\n".join(lines[:rows])
    if not _PLAIN_BLOCK.match(block) or not _PLAIN_BLOCK.match("".join(lines[rows:])):
        return None
    tokens = block.split()
    if len(tokens) != rows * nr_w:
        return None
    if nr_w == 1:
        # rows tokens on rows lines none of which is blank: one a line.
        if _BLANK_LINE.search(block):
            return None
    else:
        # Each line's count of tokens (a token starts where a non-blank
        # follows a blank, a line break or the start), by its line.
        b = np.frombuffer(block.encode("ascii"), np.uint8)
        breaks = b == 10
        token = ~(breaks | (b == 32) | (b == 9) | (b == 13))
        starts = token.copy()
        starts[1:] &= ~token[:-1]
        line_of = np.searchsorted(np.flatnonzero(breaks), np.flatnonzero(starts))
        if not (np.bincount(line_of, minlength=rows) == nr_w).all():
            return None
    try:
        w = np.fromiter(map(float, tokens), np.float64, len(tokens))
    except ValueError:
        return None
    if not np.isfinite(w).all():
        return None
    return w.reshape(rows, nr_w)


class SourcesDir:
    """The sources of a greedytl sources directory, loaded into memory.

    ``path`` is the directory's absolute path (a relative one is taken from
    the working directory when it is loaded: ``greedytl fit --sources``
    runs elsewhere, in the fit's private directory).  ``names`` are the sources in the index's order, ``W`` (d × n) and ``b``
    (n) their oriented weights and intercepts (source.NewSet), ``identity``
    the digest greedytl records in a model fitted with ``--sources`` (the
    SHA-256 of a line "CLASS SHA256" per source, its class index and its
    model file's digest, in the index's order: source.Index.Identity);
    ``data_sha256`` the digest of the data they were trained on ("" when
    the index records none, as greedytl reads it).  Each model file is
    checked against the digest the index records.
    ``num_features`` is the column count of the dataset the sources were
    trained on (the index's; 0 when it records none): :meth:`scores` takes
    features of that many columns only (:meth:`check_columns`).

    As ``greedytl fit`` and ``predict --sources``, it refuses (ValueError) a
    directory that a sharded ``train-sources`` has only partly filled (its
    index names classes with no model yet: the scores would lack their
    columns).
    """

    def __init__(self, path):
        self.path = os.path.abspath(os.fspath(path))
        ipath = os.path.join(self.path, INDEX_FILE)
        try:
            with open(ipath, "rb") as f:
                text = f.read()
        except OSError as e:
            raise ValueError("{} is not a greedytl sources directory: {}".format(self.path, e)) from None
        try:
            # As greedytl reads it (jsonfile.Decode into source.Index): an
            # object whose members are the type's (named ignoring case too),
            # each of the kind its field wants (1.0 and true are no int);
            # a member missing is its zero value.
            ix = _schema.check(_schema.INDEX, read_json(text), complete=False)
        except _schema.UnknownFieldError as e:
            # As greedytl says it of a member it does not know
            # (source.ReadIndex).
            raise ValueError('{}: member "{}"{} is unknown to {}: the directory was written by a newer greedytl (or '
                             "the file was edited); upgrade the greedytl Python package to read it".format(
                                 ipath, e.member, " of " + e.within if e.within else "", package_name())) from None
        except ValueError as e:
            raise ValueError("{}: {}".format(ipath, e)) from None
        if ix.get("version", 0) != INDEX_VERSION:
            raise ValueError("{}: index version {!r}, this package reads version {}".format(
                ipath, ix.get("version", 0), INDEX_VERSION))
        if ix.get("negatives") is None:  # source.Index.check's
            raise ValueError("{}: index has no negative plan".format(ipath))
        if ix.get("solver", "") not in SOLVERS:  # source.Index.check's (Config, linear.ParseSolver)
            raise ValueError("{}: solver {} is not one greedytl knows (it reads {})".format(
                ipath, _go_quote(ix.get("solver", "")), ", ".join(SOLVERS)))
        # As greedytl fit and predict --sources (source.LoadDir):
        # a sharded train-sources's part of the sources loads, but its scores
        # would lack the other shards' columns.
        missing = ix.get("missing") or []
        if missing:
            raise ValueError(
                "{} is incomplete: {} lists {} classes with no model yet ({}): a train-sources --shard whose other "
                "shards have not finished, or a run stopped before the end; finish train-sources first".format(
                    self.path, ipath, len(missing), _some(missing)))
        entries = ix.get("sources") or []
        if not entries:
            raise ValueError("{}: the index lists no sources".format(ipath))
        nf = ix.get("num_features", 0)  # 0 or less: none recorded (check_columns)
        classes = ix.get("classes") or []
        models, self.names, h, seen, files = [], [], hashlib.sha256(), set(), {}
        for e in entries:
            # A member missing is its zero value, as greedytl reads it.
            name, file, digest, cls = (e.get(k, zero) for k, zero in
                                       (("name", ""), ("file", ""), ("sha256", ""), ("class", 0)))
            # As greedytl checks it (source.Index.check): the index of the
            # source's class among the index's classes, once.
            if not 0 <= cls < len(classes):
                raise ValueError("{}: source {!r}: class {} out of range: the index lists {} classes".format(
                    ipath, name, cls, len(classes)))
            if classes[cls] != name:
                raise ValueError("{}: source {!r}: class {} is named {!r}".format(ipath, name, cls, classes[cls]))
            if cls in seen:
                raise ValueError("{}: source {!r} listed twice".format(ipath, name))
            seen.add(cls)
            if e.get("stuck") and e.get("converged"):
                raise ValueError("{}: source {!r}: stuck and converged at once".format(ipath, name))
            st = e.get("scores")
            if st is not None and not (math.isfinite(st.get("mean", 0)) and st.get("std", 0) >= 0
                                       and math.isfinite(st.get("std", 0))):
                raise ValueError("{}: source {}: scores: mean {} and std {}, want finite numbers, the std 0 or "
                                 "more".format(ipath, _go_quote(name), st.get("mean", 0), st.get("std", 0)))
            if not _is_local(file) or "\\" in file:
                raise ValueError("{}: source {!r}: file {!r} is not a path inside the directory".format(ipath, name, file))
            # Two sources of one model file would be one classifier scored
            # twice, under two classes' names (source.Index.check).
            cleaned = posixpath.normpath(file)
            if cleaned in files:
                raise ValueError("{}: source {}: file {} is source {}'s too: each source needs its own model "
                                 "file".format(ipath, _go_quote(name), _go_quote(file), _go_quote(files[cleaned])))
            files[cleaned] = name
            mpath = os.path.join(self.path, *cleaned.split("/"))  # cleaned, as Go joins it
            try:
                if "\0" in mpath:  # Go's open fails with EINVAL, where Python's raises a bare ValueError
                    raise OSError(errno.EINVAL, os.strerror(errno.EINVAL), mpath)
                with open(mpath, "rb") as f:
                    data = f.read()
            except OSError as e:  # missing, a directory ("."), unreadable, a NUL: as greedytl, naming the file
                raise ValueError("{}: source {!r}: {}: {}".format(ipath, name, mpath, e.strerror or e)) from None
            got = hashlib.sha256(data).hexdigest()
            if got != digest:
                raise ValueError("{}: SHA-256 {} differs from the recorded {}: the file was altered".format(
                    mpath, got, digest))
            m = read_liblinear(data, mpath)
            if len(m.labels) != 2:
                raise ValueError("source {!r}: model has {} labels; a source needs a binary model".format(
                    name, len(m.labels)))
            # A model of more features than the index's was trained on other
            # data (one of fewer is liblinear's of trailing zero features).
            if nf > 0 and m.nr_feature > nf:
                raise ValueError("source {}: {} is a model of {}, but the sources were trained on {} (num_features "
                                 "of {}): it was trained on other features".format(
                                     _go_quote(name), mpath, count_of(m.nr_feature, "feature", "features"),
                                     count_of(nf, "feature", "features"), ipath))
            models.append(m)
            self.names.append(name)
            h.update("{:d} {}\n".format(cls, digest).encode("utf-8"))
        self.identity = h.hexdigest()
        self.data_sha256 = ix.get("data_sha256", "")  # as greedytl, which reads a missing member as ""
        self.num_features = nf
        self.d = max(m.nr_feature for m in models)
        n = len(models)
        self.W = np.zeros((self.d, n))
        self.b = np.zeros(n)
        self._nr_feature = [m.nr_feature for m in models]
        for j, m in enumerate(models):
            sign = -1.0 if m.labels[0] < m.labels[1] else 1.0
            self.W[:m.nr_feature, j] = sign * m.w[:m.nr_feature, 0]
            if m.bias >= 0:
                self.b[j] = sign * m.w[m.nr_feature, 0] * m.bias

    def __len__(self):
        return len(self.names)

    def check_columns(self, cols, what="X"):
        """Refuse features of cols columns (the input called what) unless
        they are num_features of the index, the column count of the dataset
        the sources were trained on, as greedytl fit and predict --sources
        do: the models ignore the columns beyond theirs, so features of
        another dataset, wider, would be scored on their leading columns
        without a word.  An index that records no num_features (0) passes;
        scores then needs at least d columns."""
        nf = getattr(self, "num_features", 0)  # 0 too in a SourcesDir pickled before it was recorded
        if nf > 0 and cols != nf:  # as Go, which reads no num_features as 0
            raise ValueError(
                "{} has {} but the sources of {} were trained on {} (num_features of {}): "
                "a sources directory needs the features of its dataset".format(
                    what, count_of(cols, "column", "columns"), self.path, count_of(nf, "feature", "features"),
                    os.path.join(self.path, INDEX_FILE)))

    def scores(self, X):
        """H = X[:, :d]·W + b (rows × sources), as source.Set.Scores; X an
        array or a SciPy sparse matrix (whose product is taken sparse) of
        num_features columns (check_columns)."""
        X = X.tocsr().astype(np.float64, copy=False) if issparse(X) else np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError("source: X has shape {}, want (n_samples, n_features)".format(X.shape))
        self.check_columns(X.shape[1])
        if X.shape[0] == 0:
            raise ValueError("source: no examples to score")
        if X.shape[1] < self.d:
            j = int(np.argmax(np.asarray(self._nr_feature) > X.shape[1]))
            raise ValueError("source {!r}: model has {} but the examples have {}".format(
                self.names[j], count_of(self._nr_feature[j], "feature", "features"), X.shape[1]))
        H = np.asarray(X[:, :self.d] @ self.W) + self.b
        if not np.all(np.isfinite(H)):
            i, j = np.argwhere(~np.isfinite(H))[0]
            raise ValueError("source {!r}: score of example {} is {} (non-finite input?)".format(
                self.names[j], i, H[i, j]))
        return H


def _is_local(file):
    """Whether file, a slash-separated path, names a file inside a directory
    as Go's filepath.IsLocal tells it on Unix: not empty, not absolute, and
    not leaving the directory once cleaned ("a/../b" is local, "a/../.."
    is not)."""
    if file == "" or file.startswith("/"):
        return False
    clean = posixpath.normpath(file)
    return clean != ".." and not clean.startswith("../")


def _some(names, k=5):
    """The first k of names, comma-separated, with "…" when there are more."""
    return ", ".join(str(n) for n in names[:k]) + (", …" if len(names) > k else "")


def _is_path(x):
    return isinstance(x, (str, bytes, os.PathLike))


# The most classifiers Sources' repr names one by one.
_REPR_LISTED = 8


class Sources:
    """The sources of a :class:`~greedytl.TransferClassifier` in one of the
    forms users have: a list (or tuple) of fitted scikit-learn classifiers,
    a greedytl sources directory (a path), or a callable from X to a
    (rows × sources) score matrix.

    A classifier's scores are the columns of its ``decision_function`` on X
    (one for two classes, positive for ``classes_[1]``; else one per class,
    or one per pair of classes for ``SVC(decision_function_shape="ovo")``);
    a classifier without it (a random forest, naive Bayes, nearest
    neighbours, ``CalibratedClassifierCV``, a ``Pipeline`` ending in one)
    gives the log-odds of its ``predict_proba`` instead, log(p / (1 - p)) of
    the same columns' probabilities p, clipped to [2**-53, 1 - 2**-53]
    (:data:`PROBA_EPS`) so that probabilities of 0 and 1 give finite scores.
    ``decision_function`` is used wherever a classifier has both.

    A ``Sources`` holds the sources by reference, as the estimator does:
    refitting one of them after ``fit`` changes what the fitted estimator
    predicts.  Copying it gives the same object (``copy.deepcopy`` and
    ``copy.copy`` return it), so that ``clone`` (which ``GridSearchCV`` and
    ``cross_val_score`` call for every candidate and fold) shares the
    sources, fitted, with the estimator it clones rather than copying the
    whole model zoo each time, as scikit-learn's ``FrozenEstimator``
    (1.6) is shared by its clones.  Pickling stores the sources with it.

    Wrap a list of fitted classifiers in ``Sources`` when the estimator is
    cloned by a scikit-learn before 1.3, which clones the estimators of a
    list parameter as unfitted copies (which ``fit`` refuses, saying so);
    from 1.3 on the estimator's own clone (``__sklearn_clone__``) shares
    the list too.
    """

    def __init__(self, sources):
        if isinstance(sources, Sources):
            sources = sources.sources
        self.sources = sources

    # sklearn.base.clone deep-copies a parameter that is not an estimator
    # (one without get_params), on every version: these make that copy the
    # object itself.  Pickling is not copying and stores the sources.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        # A list of classifiers by their kinds: each in order up to
        # _REPR_LISTED of them, else their count and each kind's count, in
        # order of first appearance, so that a model zoo of hundreds prints
        # in a line (as the estimator's repr, which shows this, shortens
        # long parameters).
        s = self.sources
        if isinstance(s, (list, tuple)):
            kinds = [type(c).__name__ for c in s]
            if len(kinds) <= _REPR_LISTED:
                return "Sources([{}])".format(", ".join(kinds))
            counts = {}
            for k in kinds:
                counts[k] = counts.get(k, 0) + 1
            return "Sources([{} classifiers: {}])".format(
                len(kinds), ", ".join("{} {}".format(n, k) for k, n in counts.items()))
        return "Sources({!r})".format(s)

    def resolve(self):
        """Return the sources in their computing form: a :class:`SourcesDir`
        for a directory, the callable, or the list of classifiers (each
        checked to be fitted and to have ``decision_function`` or
        ``predict_proba``)."""
        s = self.sources
        if _is_path(s):
            return SourcesDir(os.fsdecode(s))
        if isinstance(s, SourcesDir):
            return s
        clfs = classifiers(s)
        if clfs is not None:
            if not clfs:
                raise ValueError("sources is an empty list: give None for no sources")
            one = not isinstance(s, (list, tuple))
            for i, c in enumerate(clfs):
                name = "sources" if one else "sources[{}]".format(i)
                if _scorer_method(c) is None:
                    raise TypeError("{} ({}) has neither decision_function nor predict_proba: give "
                                    "fitted classifiers with one of them, a greedytl sources directory or a "
                                    "callable".format(name, type(c).__name__))
                if not _is_fitted(c):
                    raise ValueError(
                        "{} ({}) is not fitted. scikit-learn clones the classifiers of a "
                        "parameter unfitted where it clones the parameter itself: a list or a classifier "
                        "given as a search's parameter value (GridSearchCV's param_grid), on every version, "
                        "and before 1.3 the sources of an estimator it clones (GridSearchCV, cross_val_score, "
                        "clone): wrap {} as greedytl.Sources({}), which clones share, fitted".format(
                            name, type(c).__name__, "it" if one else "the list", "..." if one else "[...]"))
            return clfs
        if callable(s):
            return s
        raise TypeError("sources must be None, a list of fitted classifiers, a greedytl sources directory "
                        "or a callable X -> (n_samples, n_sources), got {}".format(type(s).__name__))


def classifiers(s):
    """The classifiers of sources s (not a :class:`Sources`) as
    :meth:`Sources.resolve` scores them: a list of those of a list or
    tuple, [s] for one classifier (an object with ``decision_function`` or
    ``predict_proba``), else None (a path, a sources directory, a callable,
    None).  scikit-learn's clone would clone them unfitted."""
    if isinstance(s, (list, tuple)):
        return list(s)
    if _scorer_method(s) is not None:  # a path, Sources or SourcesDir has neither method
        return [s]
    return None


def _is_fitted(est):
    """Whether classifier est is fitted, by check_is_fitted (scikit-learn's,
    or greedytl._compat's stand-in without it: est's __sklearn_is_fitted__
    first, then its attributes ending in "_"); an object that is not an
    estimator (scikit-learn's TypeError) is trusted."""
    try:
        check_is_fitted(est)
    except NotFittedError:
        return False
    except TypeError:
        pass
    return True


def _scorer_method(c):
    """The name of the method whose output gives classifier c's source
    scores: "decision_function" when it has one (preferred), else
    "predict_proba", else None."""
    for m in ("decision_function", "predict_proba"):
        if hasattr(c, m):
            return m
    return None


def proba_scores(P):
    """Source scores from a classifier's class probabilities P (rows ×
    classes, from ``predict_proba``), on the footing of a decision function:
    the log-odds log(p / (1 - p)) of each class's probability p, clipped to
    [PROBA_EPS, 1 - PROBA_EPS] first so that probabilities of exactly 0 or
    1 (a forest's unanimous votes) give finite scores (±36.74).  Two
    classes give the log-odds of the second class, shape (n_samples,)
    (positive favours ``classes_[1]``, as ``decision_function``); more give
    one column per class."""
    P = np.asarray(P, dtype=np.float64)
    if P.ndim != 2 or P.shape[1] < 2:
        raise ValueError("predict_proba returned shape {}, want (n_samples, n_classes ≥ 2)".format(P.shape))
    if P.shape[1] == 2:
        P = P[:, 1]
    P = np.clip(P, PROBA_EPS, 1 - PROBA_EPS)
    return np.log(P) - np.log1p(-P)


def _fitted_on_arrays(c):
    """Whether classifier c was fitted without column names: scikit-learn's
    estimators fitted on arrays record n_features_in_ but no
    feature_names_in_ (and warn when given a DataFrame)."""
    return hasattr(c, "n_features_in_") and not hasattr(c, "feature_names_in_")


def _column_labels(c, method, width):
    """What each of the width columns of classifier c's 2-D scores is about,
    as the suffix of its name: "=k" for each class k of classes_ (a column
    per class), "=a vs b" for each pair of a one-vs-one decision_function
    (SVC's decision_function_shape="ovo", also at the end of a Pipeline:
    the pairs (0, 1), (0, 2), …, (1, 2), … of classes_, as scikit-learn
    orders them), else "[j]", the column's index."""
    classes = list(getattr(c, "classes_", []))
    last = c.steps[-1][1] if isinstance(getattr(c, "steps", None), list) and c.steps else c
    if method == "decision_function" and getattr(last, "decision_function_shape", None) == "ovo":
        pairs = [(a, b) for j, a in enumerate(classes) for b in classes[j + 1:]]
        if len(pairs) == width:
            return ["={} vs {}".format(a, b) for a, b in pairs]
    elif len(classes) == width:
        return ["={}".format(k) for k in classes]
    return ["[{}]".format(j) for j in range(width)]


def _as_scores(S, giver, name):
    """The scores S that giver (a message's name for a source) gave of the
    input called name as a float64 array; scores that are not numbers
    (strings, None) and complex numbers, whose imaginary part NumPy's
    conversion would drop with only a ComplexWarning, are refused naming
    both.  A callable given sparse X may keep its scores sparse (a slice of
    X): they are the dense scores, as decision_function's are."""
    try:
        S = np.asarray(S.toarray() if issparse(S) else S)
        if S.dtype.kind != "c":
            return S.astype(np.float64, copy=False)
    except (TypeError, ValueError) as e:
        raise ValueError("{} gives scores of {} that are not numbers: {}".format(giver, name, e)) from e
    raise ValueError("{} gives complex scores of {} ({}): source scores must be real numbers".format(
        giver, name, S.dtype))


def source_scores(resolved, X, frame=None, name="X"):
    """The score matrix (rows × sources) of resolved sources on X, and the
    names of its columns.  frame, when not None, is X as a pandas DataFrame
    of the caller's columns: the callable and the classifiers are given it,
    but for those fitted on arrays (_fitted_on_arrays), which are given X
    as they were fitted; a sources directory scores X.  A score that is not
    finite is refused, naming the source that gave it and the row of X,
    which the user knows by name (X, X_unlabelled, ...)."""
    if isinstance(resolved, SourcesDir):
        return resolved.scores(X), list(resolved.names)
    if isinstance(resolved, list):
        cols, names, givers = [], [], []
        for i, c in enumerate(resolved):
            method = _scorer_method(c)
            source = "sources[{}] ({})".format(i, type(c).__name__)  # how messages name it
            with named("{} cannot score {}".format(source, name)):
                s = getattr(c, method)(X if frame is None or _fitted_on_arrays(c) else frame)
                if method == "predict_proba":
                    s = proba_scores(s)
            giver = "{}.{}".format(source, method)
            s = _as_scores(s, giver, name)
            if s.ndim == 1:
                s = s[:, None]
                names.append("{}:{}".format(i, type(c).__name__))
            elif s.ndim == 2:
                names.extend("{}:{}{}".format(i, type(c).__name__, k) for k in _column_labels(c, method, s.shape[1]))
            else:
                raise ValueError("{} gives scores of {} of shape {}, want (n_samples,) or (n_samples, "
                                 "n_columns)".format(giver, name, s.shape))
            cols.append(s)
            givers += [giver] * s.shape[1]
        H = np.hstack(cols)
    else:
        with named("the sources callable cannot score {}".format(name)):
            H = resolved(X if frame is None else frame)
        H = _as_scores(H, "the sources callable", name)
        if H.ndim == 1:
            H = H[:, None]
        names = [str(j) for j in range(H.shape[1] if H.ndim == 2 else 0)]
        givers = ["the sources callable"] * len(names)
    whose = "the sources'" if isinstance(resolved, list) else "the sources callable's"
    if H.ndim != 2 or H.shape[0] != np.shape(X)[0]:
        raise ValueError("{} scores of {} have shape {}, want ({}, n_sources): one row per row of {}".format(
            whose, name, H.shape, np.shape(X)[0], name))
    if H.shape[1] == 0:
        raise ValueError("{} scores of {} have no column".format(whose, name))
    if not np.all(np.isfinite(H)):
        i, j = np.argwhere(~np.isfinite(H))[0]
        raise ValueError("{} gives {} as the score of row {} of {} (source score column {}, {!r}): source scores "
                         "must be finite".format(givers[j], H[i, j], i, name, j, names[j]))
    return H, names
