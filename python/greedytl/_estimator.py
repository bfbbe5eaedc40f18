"""TransferClassifier: a scikit-learn estimator over the greedytl engine."""

import copy
import math
import numbers
import os
import time

import numpy as np

from . import _cli, _model
from ._compat import (HAVE_SKLEARN, BaseEstimator, ClassifierMixin, InvalidParameterError, available_if,
                      check_classification_targets, check_finite, check_is_fitted, check_random_state, issparse,
                      labels_1d, validate_data, validate_other)
from ._sources import Sources, SourcesDir, classifiers, source_scores

__all__ = ["TransferClassifier"]

# The largest seed handed to greedytl fit --seed from a RandomState.
_SEED_RANGE = 2 ** 31 - 1

# The largest seed greedytl fit --seed takes (64 bits).
_SEED_MAX = 2 ** 64 - 1

# A mebibyte, the unit of max_dense_mb.
_MIB = 2 ** 20

# The largest magnitude up to which every integer is a float64: integer
# labels fit gives greedytl as their values (_given_labels).
_EXACT_INT = 2 ** 53

# The model file fit has greedytl write in its private directory.
_MODEL_FILE = "model.json"

# What greedytl's messages name by the files of the fit's private directory
# (_data_args' and fit's; removed when the fit ends): what the user gave,
# in <>, as greedytl names the standard input <stdin>.
_SHOWN = {
    "train-X.npy": "<X given to fit>",
    "train-H.npy": "<the sources' scores on X>",
    "y.npy": "<y given to fit>",
    "unlabelled-X.npy": "<X_unlabelled>",
    "unlabelled-H.npy": "<the sources' scores on X_unlabelled>",
    "oracle-X.npy": "<X_oracle>",
    "oracle-H.npy": "<the sources' scores on X_oracle>",
    "yo.npy": "<y_oracle>",
    _MODEL_FILE: "<the model file>",
}

# Notes for greedytl's errors (text of the message → note): what they
# call by its flags or its symbols (a transductive or oracle method without
# its inputs, or those inputs for another method; a method without the
# source scores H or the features X it needs), as fit's arguments name
# them; and what a scikit-learn user can do about a refusal their
# LogisticRegression does not make. Training examples all alike (every column of X, or of the
# sources' scores with use_features=False, one value) are refused by every
# method of greedytl fit (cmd/greedytl/fit.go), where LogisticRegression
# fits the class prior: with nothing to tell the classes apart the methods'
# scores are 0 or rounding (their own models are no prior), so the prior is
# not a greedytl model, and fit says where to get it.
_NOTES = {
    "--unlabelled-": "greedytl's --unlabelled-* inputs are fit's X_unlabelled",
    "--oracle-": "greedytl's --oracle-* inputs are fit's X_oracle and y_oracle",
    "needs source scores H": "the source scores H are the scores of sources=: give sources",
    "needs target features X": "the target features X are fit's X, which use_features=False leaves out: "
                               "set use_features=True",
    "no method can tell the classes apart": (
        "the training examples are alike in everything greedytl fits on, so the class prior is all they "
        "tell, which is no greedytl model: give X columns, or sources' scores, that vary over the examples, "
        "or, for predictions of the prior, use sklearn.dummy.DummyClassifier(strategy='prior')"),
}

class TransferClassifier(ClassifierMixin, BaseEstimator):
    """Hypothesis transfer learning with greedytl, as a scikit-learn classifier.

    ``fit`` runs ``greedytl fit`` (the Go engine) on the features X and the
    sources' scores H on X; ``predict`` and ``decision_function`` compute
    the fitted model's scores in NumPy from its model file, with the same
    result as ``greedytl predict`` (to rounding; bit for bit but for matrix
    products with a greedytl built for amd64, see greedytl._model), without
    starting a process.

    Parameters
    ----------
    method : str or None, default=None
        The method and its settings, as ``greedytl fit --method`` takes them
        (``greedytl help fit`` lists them): ``"greedytl-auto"``,
        ``"greedytl"`` (the paper's), ``"greedytl:lambda=0.1,sample=59"``,
        ``"l1-logistic"``, … With three or more classes in y, a native
        multi-class method (``"greedytl-nway"``, ``"nearest-mean"``, …) or
        any binary method, fitted one class against the rest; a native
        multi-class method fits two classes too. None: what
        ``greedytl fit`` chooses without ``--method``, the recommended
        method — greedytl-auto for two classes, greedytl-nway for more.
    sources : None, fitted classifier or list of them, path or callable, default=None
        The source hypotheses: fitted scikit-learn classifiers (the columns of
        their ``decision_function`` on X are the source scores; for one that
        has only ``predict_proba``, the log-odds of its probabilities, see
        :class:`greedytl.Sources`), a greedytl
        sources directory (``greedytl train-sources``; greedytl computes its
        scores; X must have the columns of the dataset its sources were
        trained on, and a directory a sharded ``train-sources`` has only
        partly filled is refused), a callable X → (n_samples, n_sources), or a
        :class:`greedytl.Sources` holding any of these (needed for a list of
        classifiers when the estimator is cloned: ``GridSearchCV``,
        ``cross_val_score``).  None: the features alone.  The sources are
        held by reference, not copied: refitting a source classifier after
        ``fit`` changes what the estimator predicts.  ``clone`` shares a
        ``Sources`` (the same object, with the fitted classifiers or the
        callable it holds) rather than copying the model zoo for every
        candidate and fold; before scikit-learn 1.3 it clones the classifiers
        of a plain list, or a classifier, unfitted (``fit`` refuses them);
        on every version it deep-copies a callable object or bound method,
        with what it holds.  Pickling stores the sources with the estimator.  The classifiers
        and the callable are given X in float64, as a pandas DataFrame with
        the columns and index of X when X is one (so that classifiers fitted
        on DataFrames see their column names; a scikit-learn classifier
        fitted on arrays, without ``feature_names_in_``, is given the array
        instead, as it was fitted), else as an array.
    use_features : bool, default=True
        Pass X's columns to greedytl as candidate features; False uses the
        sources' scores only (sources must then be given).
    random_state : None, int or numpy.random.RandomState, default=None
        Seed of every random choice of the fit (``greedytl fit --seed``): an
        int (0 to 2**64 − 1) gives the same model on every fit (a bool is an
        int, True seed 1, as in scikit-learn); None draws a seed from NumPy's
        global random state, as scikit-learn's estimators do.
    greedytl_bin : None or str, default=None
        The greedytl command; None looks at ``$GREEDYTL_BIN``, then PATH.
    max_dense_mb : float, default=1024
        The largest dense copy (in MiB, 2**20 bytes) of a sparse X that the
        estimator makes; it has no effect on dense X.  ``greedytl fit``
        reads dense matrices, so ``fit`` densifies a sparse X (and
        ``X_unlabelled``, ``X_oracle``) and refuses one whose dense form,
        n_samples × n_features float64 values, is larger, saying how large
        it is; raise it if the memory allows (``float("inf")``: no limit).
        ``predict`` and ``decision_function`` densify a sparse X in blocks
        of rows of at most this size (at least one row), so they take any
        number of rows.  1024 MiB is scikit-learn's default
        ``working_memory``.
    verbose : int, default=0
        0: ``fit`` prints nothing.  Greater: every ``fit`` reports its
        progress on standard error (a notebook's), so that a long fit shows
        it is working: a line when it starts (``greedytl fit: fitting the
        default method on 40 examples of 2 classes``), greedytl's progress
        lines as greedytl writes them — one when a tenth more of the work is
        done and a minute has passed since the last: of the classes of a fit
        one class against the rest (a binary method on three or more
        classes: ``classes: 30 of 100 done (30%), 2m0s``), of greedytl-auto's
        committees (``fitting greedytl-auto: 6 of 12 done (50%), 1m0s``), of
        greedytl-nway's fits (``fitting greedytl-nway: …``) — and, after a
        minute without another line, ``greedytl fit: still running, 1m0s``
        (for every method, each minute), then a line when it is done, naming
        the method fitted and the time (``greedytl fit: done
        (greedytl-auto), 2.5s``).  (greedytl's warnings reach the user as
        :class:`GreedyTLWarning` whatever ``verbose`` is.)

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted; with two classes ``classes_[1]`` is the
        positive class (a positive decision value).
    n_features_in_ : int
        The number of columns of X.
    feature_names_in_ : ndarray of str
        X's column names, when X was a DataFrame whose column names are all
        of Python's str itself (not NumPy's str_ or other subclasses), as
        scikit-learn records them (fit refuses str names mixed with names
        of other types, with scikit-learn's TypeError; X_unlabelled and
        X_oracle, whose names are checked against these, are read by the
        installed scikit-learn's rule alike).
    method_ : str
        The method the model file records (a canonical spec).
    hyperparameters_ : dict
        The hyperparameters the fit chose or used.
    selected_ : list of dict, or dict of lists
        The columns the model uses, as ``greedytl inspect --json`` lists
        them: ``kind`` ("feature" or "source"), ``index`` (into X's columns
        or the sources' score columns), ``weight`` (of the standardised
        column), for the greedy methods in selection order with the errors
        after each step, else by decreasing |weight|; each with ``name``
        (a source's name; a feature's, its column name in
        ``feature_names_in_`` when X was a DataFrame of string column names,
        else ``"x[i]"``): the names ``greedytl inspect`` gives when
        ``greedytl fit`` reads that X from a CSV file with that header,
        which it records in the model file (``feature_names``). The model
        file this fit writes records none (greedytl is given X as an
        array): ``model_`` and ``inspection_``, and ``greedytl inspect`` of
        ``model_`` saved to a file, give a feature no name.
        For a multi-class model (three or
        more classes, or a native multi-class method), a dict from each class
        of ``classes_`` (a Python int, float, bool or str for labels of those
        kinds) to its list (empty for the models without per-column weights:
        nearest neighbour, centroids).
    inspection_ : dict
        All that ``greedytl inspect --json`` prints of the model (computed
        from the model file, as inspect computes it).
    source_names_ : list of str
        The names of the source score columns.
    n_sources_ : int
        The number of source score columns (0 without sources).
    sources_ : object
        The sources as used to compute scores at predict (a loaded sources
        directory, or the user's classifiers or callable themselves, not
        copies), or None.
    model_ : dict
        The model file, decoded (JSON). Its classes (and those of
        ``inspection_``) are the labels fit gave greedytl, as greedytl names
        them, which its messages name too: integer labels (of at most 2**53
        in magnitude; not bools) by their values ("5"), names (str, bools)
        whose text is an ASCII identifier and no number by that text
        ("cat", "True"); other labels by their index into ``classes_``
        ("0", "1", …; "-1" and "1" for two classes).
    greedytl_ : dict
        The greedytl that fitted the model (``greedytl version --json``: module,
        revision, modified, go, executable_sha256) and its path.
    """

    # The labels fit gave greedytl (_given_labels), or None when it gave
    # the class indices (_encode): what an estimator pickled before fit
    # gave the labels' values, which has no _label_values, gave too.
    _label_values = None

    def __init__(self, method=None, sources=None, use_features=True, random_state=None,
                 greedytl_bin=None, max_dense_mb=1024, verbose=0):
        self.method = method
        self.sources = sources
        self.use_features = use_features
        self.random_state = random_state
        self.greedytl_bin = greedytl_bin
        self.max_dense_mb = max_dense_mb
        self.verbose = verbose

    # -- fit -------------------------------------------------------------

    def fit(self, X, y, *, X_unlabelled=None, X_oracle=None, y_oracle=None):
        """Fit the model with ``greedytl fit``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            A sparse X is densified for ``greedytl fit`` (see
            ``max_dense_mb``); the sources' classifiers and callable are
            given it sparse (CSR).
        y : array-like of shape (n_samples,)
            Two classes (binary) or more (multi-class, as ``greedytl fit``).
        X_unlabelled : array-like, optional
            Unlabelled target examples, used by the transductive method
            ``dam``; other methods ignore it, so one search (a GridSearchCV
            over ``method``) can compare them.
        X_oracle, y_oracle : array-like, optional
            Held-out labelled examples, used by the oracle ``best-source``:
            labels of y's classes (with three or more, every class, each
            class's source chosen on them one against the rest); other
            methods ignore them, as X_unlabelled.

            X_unlabelled and X_oracle have the columns of X as this fit is
            given it.  **In a scikit-learn Pipeline they are not
            transformed**: ``make_pipeline(StandardScaler(), est).fit(X, y,
            transferclassifier__X_unlabelled=Xu)`` gives this fit X scaled
            and Xu as it was (scikit-learn hands a step's fit parameters on
            untouched), so the model is fitted on inputs of two scales.
            Use :func:`greedytl.make_pipeline` (a
            :class:`greedytl.TransferPipeline`), which transforms them with
            the steps fitted on X, as X is.

        Returns
        -------
        self

        Warns
        -----
        greedytl.GreedyTLWarning
            For each warning greedytl printed about the model it fitted (a
            ``UserWarning``; ``code`` names its kind), e.g. per-class models
            that keep no column, whose tied scores send most rows to one
            class.
        UserWarning, DataConversionWarning
            scikit-learn's warnings of X at predict and of y at fit, for
            X_unlabelled and X_oracle (column names where fit's X had none,
            or none where it had some) and y_oracle (a column vector): its
            text, which a filter on it matches (``message="X does not have
            valid feature names"``), then the input's name ("(X here is
            X_unlabelled)"); they are warned by greedytl (a filter on
            ``module="sklearn"`` does not match them).

        Raises
        ------
        ValueError
            Invalid input or parameter (a parameter of the wrong type or out
            of range: scikit-learn's ``InvalidParameterError``, naming it), or
            greedytl rejected the input (exit status 2; the message is
            greedytl's).
        RuntimeError
            greedytl failed otherwise (exit status 1) or is missing.
        """
        self._check_params()
        self._forget_fit()
        given = X
        X, y = validate_data(self, X, y, reset=True, dtype=np.float64, accept_sparse="csr")
        self._check_dense(X, "X")
        check_classification_targets(y)
        classes, yi = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            raise ValueError("greedytl needs samples of at least 2 classes in the data, but the data "
                             "contain only one class: {}".format(_shown(classes[0])))
        if self.sources is None and not self.use_features:
            raise ValueError("use_features=False needs sources: give sources, or use the features")
        Xu = None if X_unlabelled is None else self._validate_other(X_unlabelled, "X_unlabelled")
        if X_oracle is not None or y_oracle is not None:
            if X_oracle is None or y_oracle is None:
                raise ValueError("give both X_oracle and y_oracle")
            Xo = self._validate_other(X_oracle, "X_oracle")
            # A column vector is y_oracle's labels, as it is y's (with
            # scikit-learn's DataConversionWarning).
            yo = labels_1d(y_oracle, "y_oracle", stacklevel=2)
            if yo.dtype.kind in "fc":
                # Numbers as scikit-learn checks y; other labels (a NaN
                # among strings) are refused by _positions, which names
                # the row, where scikit-learn's message would not name
                # the input.
                check_finite(self, yo, "y_oracle")
            pos = _positions(classes, yo, Xo.shape[0])
        resolved = None if self.sources is None else Sources(self.sources).resolve()
        if isinstance(resolved, SourcesDir):
            # Before greedytl runs (which refuses it too, naming its own
            # files): a sources directory scores the features of its dataset
            # only; X_unlabelled and X_oracle have X's columns (validated).
            resolved.check_columns(X.shape[1], "X")
        info = _cli.cli_info(self.greedytl_bin)
        seed = self._seed()

        with _cli.private_dir() as tmp:
            def save(name, a):
                assert name in _SHOWN, name  # each file the fit saves has its name for messages
                p = os.path.join(tmp, name)
                np.save(p, np.ascontiguousarray(a))  # names (_given_labels) too: NumPy's str, '<U n'
                return p

            args = ["fit", "--seed", str(seed)]
            if self.method is not None:
                args += ["--method", self.method]
            args += self._data_args(save, "", X, resolved, given)
            binary = len(classes) == 2
            values = self._given_labels(classes)
            args += ["--labels", save("y.npy", self._encode(yi, binary, values))]
            if binary and values is not None:
                # classes_[1] is the positive class (+1), as with ±1 labels.
                args += ["--positive", self._class_names(2, values)[1]]
            if X_unlabelled is not None:
                args += self._data_args(save, "unlabelled-", Xu, resolved, X_unlabelled)
            if X_oracle is not None:
                args += self._data_args(save, "oracle-", Xo, resolved, X_oracle)
                args += ["--oracle-labels", save("yo.npy", self._encode(pos, binary, values))]
            if X_unlabelled is not None or X_oracle is not None:
                # A method that does not use them leaves them unread (the
                # method registry of greedytl knows which do, for any
                # spec), so that one search compares methods that do with
                # methods that do not.
                _cli.require_fit_flag(info, "ignore-unused-extra", "with X_unlabelled or X_oracle (so that a method "
                                      "that does not use them leaves them unread)")
                args += ["--ignore-unused-extra"]
            model_path = os.path.join(tmp, _MODEL_FILE)
            args += ["--out", model_path, "--json"]
            if not self.verbose:
                args += ["-q"]
            shown = {os.path.join(tmp, name): what for name, what in _SHOWN.items()}
            namer = self._namer(classes, values)  # names greedytl's classes in its errors and warnings
            with _cli.naming_inputs(shown, _NOTES, namer):
                echo = _cli.echo_stderr if self.verbose else None
                started = time.monotonic()
                if echo is not None:
                    echo("greedytl fit: fitting {} on {} of {} classes".format(
                        repr(self.method) if self.method is not None else "the default method",
                        _model.count_of(X.shape[0], "example", "examples"), len(classes)))
                report = _cli.fit_report(_cli.run_cli(args, info["path"], cwd=tmp, echo=echo))
                with open(model_path, "rb") as f:
                    text = f.read()

        scorer = _model.parse_model(text)
        doc = scorer.doc
        if resolved is None:
            names = []
        elif isinstance(resolved, SourcesDir):
            names = list(resolved.names)
        else:
            names = self._source_names
        recorded = None  # the source names greedytl inspect reads from the directory the file records
        if isinstance(resolved, SourcesDir) and self.use_features:
            rec = doc.get("sources") or {}
            if rec.get("sha256") != resolved.identity:
                raise RuntimeError("the model records sources {} but {} holds {}: the directory changed "
                                   "during the fit".format(rec.get("sha256"), resolved.path, resolved.identity))
            if rec.get("data_sha256", "") == resolved.data_sha256:  # missing: "", as greedytl reads it
                recorded = names
        index = self._check_classes(scorer, len(classes), values)
        self._check_columns(scorer, X.shape[1] if self.use_features else 0, len(names))
        inspection = scorer.inspection(recorded)
        self.classes_ = classes
        self._label_values = values
        self.sources_ = resolved
        self.source_names_ = names
        self.n_sources_ = scorer.num_sources
        self.model_ = doc
        self.method_ = doc["method"]
        self.hyperparameters_ = dict(doc.get("hyperparameters") or {})
        def named(cols):
            return [dict(c, name=self._column_name(c, names)) for c in (cols or [])]
        if "per_class" in inspection:  # multi-class: the file names classes by their labels as given
            self.selected_ = {_key(classes[index[pc["class"]]]): named(pc.get("selected"))
                              for pc in inspection["per_class"]}
        else:
            self.selected_ = named(inspection.get("selected"))
        self.inspection_ = inspection
        self.greedytl_ = {k: info[k] for k in ("module", "revision", "modified", "go", "executable_sha256", "path")
                          if k in info}
        self._scorer = scorer
        if echo is not None:
            echo("greedytl fit: done ({}), {}".format(self.method_, _cli.elapsed(time.monotonic() - started)))
        # random_state goes to every fit as --seed, as scikit-learn's
        # estimators take it whether or not they draw at random: greedytl's
        # warning that the method draws nothing at random (seed-unused) is
        # not the caller's to act on.
        _cli.warn([w for w in report["warnings"] if w.get("code") != "seed-unused"],
                  namer, stacklevel=2,
                  name_column=lambda c: self._given_name(c, names))
        return self

    def _forget_fit(self):
        """Drop what an earlier fit left (the attributes ending in "_" and
        the scorer), as a refit starts: one that fails leaves the estimator
        unfitted, not n_features_in_ of the new X beside the old model."""
        for k in list(vars(self)):
            if (k.endswith("_") and not k.startswith("_")) or k in ("_scorer", "_source_names", "_label_values"):
                delattr(self, k)

    def _check_params(self):
        """Refuse a parameter of the wrong type or out of range before
        anything runs, as scikit-learn's estimators do: an
        InvalidParameterError (a ValueError and a TypeError) naming it, what
        it must be and its value.  (sources is checked as it is resolved.)"""
        def refuse(name, what):
            raise InvalidParameterError("The {!r} parameter of {} must be {}. Got {!r} instead.".format(
                name, type(self).__name__, what, getattr(self, name)))

        if self.method is not None and (not isinstance(self.method, str) or not self.method):
            refuse("method", "None or a method name or spec (a non-empty str)")
        if not isinstance(self.use_features, (bool, np.bool_)):
            refuse("use_features", "an instance of 'bool'")
        rs = self.random_state
        if not (rs is None or isinstance(rs, np.random.RandomState)
                or (isinstance(rs, numbers.Integral) and 0 <= rs <= _SEED_MAX)):
            refuse("random_state", "an int in the range [0, 2**64 - 1], an instance of 'numpy.random.RandomState' "
                   "or None")
        b = self.greedytl_bin
        if not (b is None or isinstance(b, str) or (isinstance(b, os.PathLike) and isinstance(os.fspath(b), str))):
            refuse("greedytl_bin", "None or a path (a str or os.PathLike) of the greedytl command")
        mb = self.max_dense_mb
        if not (isinstance(mb, numbers.Real) and not isinstance(mb, (bool, np.bool_)) and mb > 0):
            refuse("max_dense_mb", "a float in the range (0, inf] (MiB)")
        v = self.verbose
        if not (isinstance(v, (numbers.Integral, np.bool_)) and v >= 0):
            refuse("verbose", "an int in the range [0, inf) or a bool")

    def _validate_other(self, A, name):
        """A further sample of fit (X_unlabelled, X_oracle) validated as X is
        at predict, named (see validate_other)."""
        try:
            A = validate_other(self, A, name, stacklevel=3)
        except ValueError as e:
            shape = getattr(A, "shape", None)
            if HAVE_SKLEARN and shape is not None and len(shape) == 2 and shape[1] != self.n_features_in_ and e.args:
                # The likeliest cause: a Pipeline, whose steps transformed X
                # and not this fit parameter (without scikit-learn, there is
                # no Pipeline).
                e.args = ("{} ({} has X's columns as given to the estimator: in a scikit-learn Pipeline, the "
                          "steps before the estimator transform X but not {}; greedytl.make_pipeline "
                          "transforms both)".format(e.args[0], name, name),) + e.args[1:]
            raise
        self._check_dense(A, name)
        return A

    def _check_dense(self, X, name):
        """Refuse a sparse X (the input called name) whose dense form, which
        fit writes for greedytl when it uses the features, is larger than
        max_dense_mb, naming that size; dense X and fits without features
        pass."""
        if not issparse(X) or not self.use_features:
            return
        m, d = X.shape
        rows = self._dense_rows(d)
        if rows is not None and m > rows:
            need = m * d * 8
            raise ValueError(
                "{} is a sparse matrix of shape {}, whose dense form, which greedytl fit reads, takes "
                "{} × {} × 8 bytes = {}, more than max_dense_mb={!r} MiB: raise max_dense_mb if the memory "
                "allows, or reduce the columns first (e.g. scikit-learn's TruncatedSVD or SelectKBest in a "
                "Pipeline)".format(name, (m, d), m, d, _bytes(need), self.max_dense_mb))

    def _dense_rows(self, d):
        """The most rows of d columns whose dense form, rows × d × 8 bytes,
        max_dense_mb holds (0 when not one row), or None when it holds any
        number (max_dense_mb infinite): the one rule of fit's refusal of a
        sparse X and of predict's blocks."""
        limit = self.max_dense_mb * _MIB
        if limit == math.inf:
            return None
        return int(limit // (8 * d))

    def _seed(self):
        """The seed handed to greedytl fit --seed: an int random_state itself
        (a bool too, as scikit-learn takes it: True is seed 1, since its
        validation admits bools as ints and check_random_state(True) is
        RandomState(1)), else one drawn from the RandomState (None: NumPy's
        global one)."""
        rs = self.random_state
        if isinstance(rs, numbers.Integral):
            return int(rs)
        return int(check_random_state(rs).randint(_SEED_RANGE))

    @staticmethod
    def _given_labels(classes):
        """The labels fit gives greedytl for classes (y's, sorted), which
        greedytl then names each class by in its messages ("holds no
        example of the class "5"") and its model file, or None, when greedytl
        is given the class indices (_encode), which name no label:
        integers of at most 2**53 in magnitude (ints, floats of integral
        value; not bools) as their values, float64, which holds each
        exactly; names (str, bools) whose text is an ASCII identifier that
        is no number ("cat", "True"; not "nan" or "inf"), as that text, an
        array of str, which greedytl reads from a .npy file (NumPy's
        '<U n') as written (it holds no blank, hidden character or other
        text greedytl's label files refuse, and names the class in
        messages as the user wrote it)."""
        kind = classes.dtype.kind
        if kind in "iuf":
            # A defence: fit's classes are never other floats (scikit-learn
            # refuses them first, check_classification_targets' "Unknown
            # label type: 'continuous'", and NaN and infinity), but only a
            # whole finite float is a value greedytl reads as given.
            if kind == "f" and not np.all(np.isfinite(classes) & (classes == np.floor(classes))):
                return None
            if any(abs(int(c)) > _EXACT_INT for c in classes):
                return None
            return classes.astype(np.float64)
        if not (kind in "Ub" or kind == "O" and all(type(c) in (str, np.str_) for c in classes)):
            return None
        names = [str(bool(c)) if kind == "b" else str.__str__(c) for c in classes]
        if not all(n.isascii() and n.isidentifier() and _model._parse_go_float(n) is None for n in names):
            return None
        return np.array(names, dtype=str)

    @staticmethod
    def _encode(yi, binary, values):
        """The labels greedytl reads for the class indices yi: the classes'
        labels (_given_labels; with two classes fit names classes_[1] the
        positive class, --positive), else ±1 for two classes (classes_[1]
        is +1) and the class indices for more."""
        if values is not None:
            return values[yi]
        if binary:
            return np.where(yi == 1, 1.0, -1.0)
        return yi.astype(np.int64)

    @staticmethod
    def _class_names(k, values):
        """The names greedytl gives the classes of the labels _encode writes
        (k classes; values: _given_labels), in the order of classes_: a
        name by itself, a number by Go's spelling of its value ("5",
        "1e+06"); without values (the indices), "-1" and "1" for two, else
        the class indices."""
        if values is None:
            return ["-1", "1"] if k == 2 else [str(i) for i in range(k)]
        if values.dtype.kind == "U":
            return list(values)
        return [_model._go_float(float(v)) for v in values]

    @staticmethod
    def _class_finder(k, values):
        """A function of c giving the index into classes_ (k classes, of
        the labels greedytl was given, _given_labels, or None: the indices,
        _encode) of the class greedytl names c (a class of the model file,
        or of a warning), or None when c names none: greedytl names a name
        label by itself, a number label by its value ("5", "1e+06"), read
        as greedytl reads a number (_model._parse_go_float: not " 5", "1_0"
        or "\u0665", which Python's float takes), exactly for integers of
        at most 2**53. It finds c in one dict built here (greedytl's name of
        each class, or each number label's value, to the first class of
        it): a fit's k names are found in O(k), not O(k**2)."""
        index = {}
        if values is None or values.dtype.kind == "U":
            for i, name in enumerate(TransferClassifier._class_names(k, values)):
                index.setdefault(name, i)
            return lambda c: index.get(c) if isinstance(c, str) else None
        for i, v in enumerate(values.tolist()):
            index.setdefault(v, i)

        def find(c):
            parsed = _model._parse_go_float(c) if isinstance(c, str) else None
            return None if parsed is None else index.get(parsed[0])
        return find

    def _data_args(self, save, prefix, X, resolved, given):
        """The --PREFIXfeatures/--PREFIXsource-scores (or --sources) arguments
        of one sample, its arrays saved as .npy; X is the sample validated
        (densified for greedytl when sparse: _check_dense has passed it),
        given as the caller gave it (see _frame)."""
        tag = prefix.rstrip("-") or "train"
        args = []
        if self.use_features:
            args += ["--" + prefix + "features", save(tag + "-X.npy", X.toarray() if issparse(X) else X)]
        if resolved is None:
            return args
        if isinstance(resolved, SourcesDir):
            if not self.use_features:
                # greedytl computes the scores from the features: give the
                # scores (computed as greedytl does) instead.
                args += ["--" + prefix + "source-scores", save(tag + "-H.npy", resolved.scores(X))]
            elif prefix == "":
                args += ["--sources", resolved.path]
            return args
        H, names = source_scores(resolved, X, _frame(given, X), "X_" + tag if prefix else "X")
        if prefix == "":
            self._source_names = names
        args += ["--" + prefix + "source-scores", save(tag + "-H.npy", H)]
        return args

    @staticmethod
    def _class_index(file_classes, k, values):
        """The index into classes_ of each class name of a multi-class model
        file: the labels greedytl was given (_encode: values, or the indices
        when None; -1 and 1 for two classes, which a native multi-class
        method fits as two classes), as _class_finder reads them."""
        find = TransferClassifier._class_finder(k, values)
        return {c: find(c) for c in file_classes}

    def _class_namer(self, k):
        """How a warning names a class of the labels greedytl was given
        (_encode): its index into classes_ and its label (_namer), as fit's
        messages name it (fit builds that namer once, before classes_)."""
        return self._namer(self.classes_[:k], self._label_values)

    @staticmethod
    def _namer(classes, values):
        """How a message names a class c of the labels greedytl was given
        for classes (y's, sorted; values: _given_labels): its index into
        classes and its label, or repr(c) when it names none."""
        find = TransferClassifier._class_finder(len(classes), values)

        def name(c):
            i = find(c)
            if i is None:
                return repr(c)
            return "classes_[{}] = {}".format(i, _shown(classes[i]))
        return name

    @staticmethod
    def _check_classes(scorer, k, values):
        """Refuse a model whose classes are not one of each class of the
        labels greedytl was given (k classes; values: _given_labels). The
        message names the labels as greedytl does: an integer by Go's
        spelling of its value ("5", "1e+06"), as _class_finder reads it.
        Returns the model's _class_index (None for a binary model)."""
        if scorer.classes is None:
            if k != 2:
                raise RuntimeError("greedytl wrote a binary model for {} classes".format(k))
            return None
        index = TransferClassifier._class_index(scorer.classes, k, values)
        # The k names (index holds at most k) find all of 0, …, k-1 (None,
        # no class, is none of them): each class of the labels, once.
        if len(scorer.classes) != k or set(index.values()) != set(range(k)):
            raise RuntimeError("greedytl wrote classes {!r} for the labels {}".format(
                scorer.classes, ", ".join(TransferClassifier._class_names(k, values))))
        return index

    @staticmethod
    def _check_columns(scorer, d, n):
        """Refuse a model of other column counts than the fit gave greedytl
        (d feature columns, 0 without the features; n source score columns):
        predict gives the scorer inputs of those counts, validated once
        (_file_scores), without the scorer's own checks of them."""
        if (scorer.num_features, scorer.num_sources) != (d, n):
            raise RuntimeError("greedytl wrote a model of {} features and {} sources for {} and {}".format(
                scorer.num_features, scorer.num_sources, _model.count_of(d, "feature column", "feature columns"),
                _model.count_of(n, "source score column", "source score columns")))

    def _given_name(self, c, names):
        """The name the caller gave the column c ({"kind", "index"}) of the
        model: _column_name's when it is a name (a source's, or X's column
        name), None when it would be x[i] (h[i])."""
        i = c.get("index", -1)
        if c.get("kind") == "source" and 0 <= i < len(names):
            return names[i]
        features = getattr(self, "feature_names_in_", ())
        if c.get("kind") == "feature" and 0 <= i < len(features):
            return str(features[i])
        return None

    def _column_name(self, c, names):
        """The name of a column of the model (an entry of inspect's
        selection): a source's, from names; a feature's, X's column name
        when X was a DataFrame of string column names (feature_names_in_),
        which the model file does not record; else x[i] (h[i])."""
        given = self._given_name(c, names)
        if given is not None:
            return given
        return "{}[{}]".format("x" if c.get("kind") == "feature" else "h", c.get("index"))

    # -- predict ---------------------------------------------------------

    def _inputs(self, X):
        """X validated as scikit-learn validates it (float64, finite, the
        columns and names of fit's X; a sparse X as CSR) and the sources'
        scores on it (finite, the columns of fit's): the model's inputs,
        checked here once."""
        check_is_fitted(self)
        given = X
        X = validate_data(self, X, reset=False, dtype=np.float64, accept_sparse="csr")
        H = None
        if self.sources_ is not None:
            if isinstance(self.sources_, SourcesDir):
                H = self.sources_.scores(X)
            else:
                H, _ = source_scores(self.sources_, X, _frame(given, X))
                if H.shape[1] != self.n_sources_:
                    raise ValueError("the sources give {} score columns on X, but the model was fitted on {} ({}): "
                                     "have the sources changed since fit?".format(
                                         H.shape[1], self.n_sources_, ", ".join(self.source_names_)))
        return X, H

    def _file_scores(self, X):
        """The model file's scores of the rows of X, computed from the
        inputs _inputs validated, which the scorer is given as they are
        (Scorer._finite_scores, not Scorer.scores, which would check them
        again: fit checked that the model's column counts are those
        inputs')."""
        X, H = self._inputs(X)
        score = self._scorer._finite_scores
        # Whether the model takes X's columns is the fitted model's (its
        # file's num_features), not use_features', which set_params may
        # have changed since fit.
        if not self._scorer.num_features:
            return score(None, H, H.shape[0])
        if not issparse(X):
            return score(X, H, X.shape[0])
        # A sparse X is densified in blocks of rows of at most max_dense_mb
        # (one block when the whole fits): each row's scores depend on that
        # row alone.
        m, d = X.shape
        rows = self._dense_rows(d)
        rows = m if rows is None else max(1, min(m, rows))
        return np.concatenate([score(X[a:a + rows].toarray(), None if H is None else H[a:a + rows], min(rows, m - a))
                               for a in range(0, m, rows)])

    def decision_function(self, X):
        """The model's scores of the rows of X, computed in NumPy from the
        model file as ``greedytl predict`` computes them.

        Returns an array of shape (n_samples,) for two classes (positive:
        ``classes_[1]``; with a native multi-class method, the score of
        ``classes_[1]`` minus that of ``classes_[0]``), else (n_samples,
        n_classes), column k for ``classes_[k]``.  X may be sparse: it is
        densified in blocks of rows of at most ``max_dense_mb``.
        """
        S = self._file_scores(X)
        if S.ndim == 1:
            return S
        # take, not S[:, order]: a C-contiguous array, as scikit-learn's
        # classifiers return theirs (fancy indexing of columns is not).
        S = S.take(self._file_order(), axis=1)
        if len(self.classes_) == 2:
            return S[:, 1] - S[:, 0]
        return S

    def _has_probabilities(self):
        # predict_proba's condition (available_if): a fitted model whose
        # scores are class probabilities (Scorer.probabilities), else an
        # AttributeError saying why there is no predict_proba, so that
        # hasattr(est, "predict_proba") is False.
        if not hasattr(self, "_scorer"):
            raise AttributeError(
                "predict_proba exists once fit chose a method whose scores are class probabilities "
                "(greedytl-nway): fit first")
        if not self._scorer.probabilities:
            raise AttributeError(
                "{} gives no class probabilities (its scores are margins, logits or distances): use "
                "decision_function, or fit method='greedytl-nway', whose scores are probabilities".format(
                    self.method_))
        return True

    @available_if(_has_probabilities)
    def predict_proba(self, X):
        """The class probabilities of the rows of X: shape (n_samples,
        n_classes), column k for ``classes_[k]``, each row summing to 1 up
        to rounding.  Only where the fitted model's scores are class
        probabilities, the scores ``greedytl predict`` computes (a
        greedytl-nway model: the weighted mean of its members' softmax):
        ``hasattr(est, "predict_proba")`` is False for the other methods,
        whose scores are margins, logits or distances (decision_function),
        and before fit.  With more than two classes they are
        decision_function's rows; with two, decision_function gives the
        second column minus the first.
        """
        return self._file_scores(X).take(self._file_order(), axis=1)

    def predict(self, X):
        """The predicted class of each row of X: ``classes_[1]`` where the
        decision value is positive for two classes; else the class of the
        largest score (the first in the model file's class order on ties, as
        greedytl)."""
        S = self._file_scores(X)
        if S.ndim == 1:
            return self.classes_[(S > 0).astype(np.intp)]
        idx = self._file_index()
        return self.classes_[idx[np.argmax(S, axis=1)]]

    def _file_index(self):
        """The index into classes_ of each class of the model file, in its order."""
        index = self._class_index(self._scorer.classes, len(self.classes_), self._label_values)
        return np.array([index[c] for c in self._scorer.classes])

    def _file_order(self):
        """Column permutation: file column of each of classes_."""
        idx = self._file_index()
        order = np.empty(len(idx), dtype=np.intp)
        order[idx] = np.arange(len(idx))
        return order

    def _more_tags(self):
        # scikit-learn < 1.6 reads tags here (Debian's 1.2.1). Every check of
        # check_estimator applies and passes, multi-class ones included (with
        # a greedytl that fits multi-class labels), so "_xfail_checks" names
        # none; the tests run check_estimator to keep it so.
        # X_types: dense arrays and SciPy sparse matrices (densified for
        # greedytl, see max_dense_mb), as TfidfTransformer declares it.
        return {"requires_y": True, "X_types": ["2darray", "sparse"], "_xfail_checks": {}}

    def __sklearn_clone__(self):
        # scikit-learn >= 1.3 clones an estimator through this hook (older
        # versions never call it). Its default clones the estimators of a
        # parameter unfitted, which fit refuses: classifiers as sources (a
        # list, a tuple or one classifier) are set aside instead (on a
        # shallow copy, so that clones made at once in threads do not race),
        # the copy is cloned by scikit-learn's own logic (every other
        # parameter, the metadata requests, set_output's configuration) and
        # the clone given the very sources, fitted. A Sources is shared by
        # that logic itself (its __deepcopy__). Without the hook in the base
        # class (scikit-learn < 1.3), clone is that logic.
        est = self
        if classifiers(self.sources) is not None:
            est = copy.copy(self)
            est.sources = None
        default = getattr(super(TransferClassifier, est), "__sklearn_clone__", None)
        if default is not None:
            new = default()
        else:
            from sklearn.base import clone
            new = clone(est)
        if est is not self:
            new.sources = self.sources
        return new

    def __sklearn_is_fitted__(self):
        # check_is_fitted asks this before it looks for attributes ending in
        # "_": a fit that failed after validating X (n_features_in_ set) —
        # greedytl refused the method, the command is missing — leaves the
        # estimator unfitted, so predict raises NotFittedError, not
        # AttributeError.  _scorer is the fit's last product.
        return hasattr(self, "_scorer")

    def __sklearn_tags__(self):
        # scikit-learn >= 1.6 reads tags here (its Tags dataclasses) and no
        # longer _more_tags: the same two tags, y required and sparse X
        # accepted. Older versions never call it (their BaseEstimator has
        # no __sklearn_tags__).
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.sparse = True
        return tags


def _frame(given, X):
    """X validated (float64; a sparse X as a CSR matrix) as a pandas
    DataFrame with the columns and index of the one the caller gave, for the
    sources that score DataFrames (see source_scores); None when the caller
    gave no DataFrame.  A sparse one stays sparse.

    A DataFrame whose columns are all float64 already (dense, or sparse
    with fill value 0, the form of X) is the one given: it holds X's values.
    Another is converted once, to the DataFrame of X (a view of the dense
    X; a sparse one is rebuilt from it)."""
    if not (hasattr(given, "columns") and hasattr(given, "iloc")):
        return None
    import pandas
    want = pandas.SparseDtype(np.float64, 0.0) if issparse(X) else np.dtype(np.float64)
    if all(dt == want for dt in given.dtypes):
        return given
    if issparse(X):
        return pandas.DataFrame.sparse.from_spmatrix(X, index=given.index, columns=given.columns)
    return pandas.DataFrame(X, columns=given.columns, index=given.index, copy=False)


def _same_times(a, b):
    """Whether two datetime64 (or timedelta64) arrays of one unit hold the
    same values, NaT matching NaT."""
    return np.array_equal(a, b, equal_nan=True)


def _positions(classes, yo, rows):
    """The index into classes (y's, sorted) of each label of y_oracle (yo,
    an array), which must hold one of them for each of the rows of
    X_oracle: a label equal to a class (as == tells, 1.0 and True are the
    class 1) is that class; any other (a string among int classes, None, a
    label y lacks) is refused, naming the first."""
    what = "y_oracle must hold one label of y's classes per row of X_oracle"
    if yo.shape != (rows,):
        raise ValueError("{}: y_oracle has shape {}, X_oracle {} rows".format(what, yo.shape, rows))
    keys, yo_keys = classes, yo
    if yo.dtype.kind in "mM" and classes.dtype.kind == yo.dtype.kind and yo.dtype != classes.dtype:
        # Dates (or durations) in another unit than y's (days against
        # seconds) are equal but hash apart: both in the finer unit, so that
        # a label equal to a class finds it and no other does.
        # Units with no common one (months against days) or a finer unit
        # that cannot hold a label (a cast that wraps) keep their own: the
        # refusal below then names the label.
        try:
            common = np.promote_types(classes.dtype, yo.dtype)
            k2, y2 = classes.astype(common), yo.astype(common)
        except (TypeError, OverflowError):
            pass
        else:
            if _same_times(k2.astype(classes.dtype), classes) and _same_times(y2.astype(yo.dtype), yo):
                keys, yo_keys = k2, y2
    # One lookup for every kind of label (not np.searchsorted on the sorted
    # classes: on dates of two units NumPy 1.24 falls back to comparing
    # Python objects, TypeError for days against attoseconds, and it
    # refuses mixed kinds, a str among int classes, that the dict names).
    index = {c: i for i, c in enumerate(keys)}
    pos = np.empty(rows, dtype=np.intp)
    for k, v in enumerate(yo_keys):
        try:
            pos[k] = index[v]
        except (KeyError, TypeError):  # TypeError: unhashable, no label
            raise ValueError("{}: y_oracle[{}] is {}, not one of [{}]".format(
                what, k, _shown(yo[k]), ", ".join(_shown(c) for c in classes))) from None
    return pos


def _key(label):
    """A label of classes_ as a Python value (bool, int, float, str) where
    it is a NumPy scalar of those kinds, which hashes and compares as that
    value (so a dict keyed by it is found by classes_[k] too) and which
    json.dumps takes, unlike numpy.int64; another label as it is (a
    numpy.datetime64, whose .item() would no longer equal it)."""
    if isinstance(label, np.generic) and label.dtype.kind in "biufU":
        return label.item()
    return label


def _shown(label):
    """A label as a message shows it, as the user gave it and the same under
    NumPy 1 and 2 (whose repr of a NumPy scalar names its type,
    np.str_('a')): a NumPy string as the Python str it holds ('a'), a NumPy
    bool or number as str() writes it (3, True, 0.1 for a float32 0.1, not
    the float64 of .item()); a date or duration as NumPy 1 writes it
    (numpy.datetime64('2020-01-01'), where NumPy 2 writes np.); anything
    else (a Python label) by its repr."""
    if isinstance(label, np.generic):
        kind = label.dtype.kind
        if kind in "US":
            return repr(label.item())
        if kind in "biufc":
            return str(label)
        if kind in "mM":
            r = repr(label)
            return "numpy." + r[len("np."):] if r.startswith("np.") else r
    return repr(label)


def _bytes(n):
    """n bytes for people: in the largest binary unit it reaches."""
    for unit in ("TiB", "GiB", "MiB", "KiB"):
        scale = 1024 ** ("KMGT".index(unit[0]) + 1)
        if n >= scale:
            return "{:.1f} {}".format(n / scale, unit)
    return "{} bytes".format(n)

