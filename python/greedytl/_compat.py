"""scikit-learn when it is installed, a small stand-in when it is not.

The estimator is written against scikit-learn's contract (BaseEstimator,
ClassifierMixin, input validation, NotFittedError).  With scikit-learn
installed (Debian's 1.2.1 is the reference) those are scikit-learn's own;
without it this module provides the few pieces the estimator uses, so that
``import greedytl`` and fitting with NumPy arrays still work.

Three of scikit-learn's names used here are private, each only where no
public one does the work in 1.2.1: BaseEstimator._validate_data, used only
before 1.6 (every release without the public validate_data has it),
_get_feature_names (with a fallback for a release that moves it:
scikit-learn 1.2's rule, written here) and InvalidParameterError (with a
fallback: a stand-in of the same name and bases, ValueError and TypeError).
"""

import contextlib
import inspect
import warnings

import numpy as np

try:
    import sklearn  # noqa: F401
    HAVE_SKLEARN = True
except ImportError:  # pragma: no cover - exercised only without scikit-learn
    HAVE_SKLEARN = False


def issparse(X):
    """Whether X is a SciPy sparse matrix or array (False without SciPy)."""
    try:
        from scipy.sparse import issparse as _issparse
    except ImportError:  # pragma: no cover - exercised only without SciPy
        return False
    return _issparse(X)


def feature_names(X):
    """X's column names as the installed scikit-learn's validation reads
    them, the names fit records as feature_names_in_ and predict compares
    with them: its private sklearn.utils.validation._get_feature_names,
    when it can be imported, else _feature_names_1_2 (scikit-learn 1.2's
    rule, written here; also the rule without scikit-learn).  A None when
    X has no names; a TypeError, with scikit-learn's message, for names it
    refuses (str names mixed with others).

    The installed scikit-learn's own function comes first because fit's X
    is read by it (validate_data records feature_names_in_), and
    X_unlabelled and X_oracle must be read by the same rule as X: later
    scikit-learn releases changed it (a pandas DataFrame by its type,
    other frames by their ``__dataframe__().column_names()``), and a rule
    written here would then name columns fit's X left unnamed, or the
    reverse.  Consistency with the scikit-learn installed is what users
    need; the written rule is only the fallback for a scikit-learn that
    moved the private name (or none installed)."""
    try:
        from sklearn.utils.validation import _get_feature_names
    except ImportError:
        return _feature_names_1_2(X)
    return _get_feature_names(X)


def _feature_names_1_2(X):
    """X's column names by scikit-learn 1.2's rule (that of its
    _get_feature_names): for an X with columns (a pandas DataFrame), its
    column names as an object array when every one is of the type str
    itself; None when X has no columns or none of its names is (ints, a
    MultiIndex's tuples, NumPy's str_ and other subclasses of str); a
    TypeError, with scikit-learn's message, when names of the type str
    and of other types are mixed (a str_ or None among them too)."""
    if not hasattr(X, "columns"):
        return None
    names = np.asarray(X.columns, dtype=object)
    if len(names) == 0:
        return None
    types = sorted(t.__qualname__ for t in set(type(v) for v in names))
    if len(types) > 1 and "str" in types:
        raise TypeError(
            "Feature names are only supported if all input features have string names, but your input has {} as "
            "feature name / column name types. If you want feature names to be stored and validated, you must "
            "convert them all to strings, by using X.columns = X.columns.astype(str) for example. Otherwise you "
            "can remove feature / column names from your input data, or convert them all to a non-string data "
            "type.".format(types))
    return names if types == ["str"] else None


class InvalidParameterError(ValueError, TypeError):
    """A parameter of the wrong type or out of range: scikit-learn's
    InvalidParameterError where it can be imported (a private name, see
    below), else this stand-in of the same name and bases."""


if HAVE_SKLEARN:
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.exceptions import ConvergenceWarning, DataConversionWarning, NotFittedError
    from sklearn.utils import check_array, check_random_state
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import check_is_fitted, column_or_1d

    try:  # scikit-learn ≥ 1.2: the error of its estimators' parameter validation
        from sklearn.utils._param_validation import InvalidParameterError
    except ImportError:  # older scikit-learn, or one that moved the private name: the stand-in
        pass

    from sklearn import config_context, get_config
    from sklearn.utils.metaestimators import available_if
    from sklearn.utils.validation import assert_all_finite

    try:  # scikit-learn ≥ 1.6
        from sklearn.utils.validation import validate_data as _validate_data

        def _validated(est, X, y, reset, kw):
            return _validate_data(est, X, y, reset=reset, **kw)
    except ImportError:  # scikit-learn < 1.6: the estimator's method (every such release has it)
        def _validated(est, X, y, reset, kw):
            return est._validate_data(X, y, reset=reset, **kw)

    def validate_data(est, X, y="no_validation", reset=True, **kw):
        """X (and y) validated by scikit-learn for estimator est, finite
        whatever the configuration: ``set_config(assume_finite=True)``
        (or ``config_context``) makes scikit-learn skip its check of NaN
        and infinity, which greedytl's fit and the model's scores cannot
        take (its NaN would surface as a source's score or an overflow, or
        fit would call NaN labels continuous); the check skipped is made
        here, with scikit-learn's own message."""
        out = _validated(est, X, y, reset, kw)
        no_y = y is None or isinstance(y, str) and y == "no_validation"
        for what, A in ([("X", out)] if no_y else zip(("X", "y"), out)):
            # Labels of object dtype too: a NaN among strings.
            _finite_assumed(est, A, what)
        return out

    def _finite_assumed(est, A, name):
        """check_finite where the configuration makes scikit-learn's checks
        skip it (assume_finite), which checked it already otherwise."""
        if get_config()["assume_finite"]:
            check_finite(est, A, name)

    def check_finite(est, A, name):
        """Refuse NaN or infinity in A, the input called name, with
        scikit-learn's own message ("Input NAME contains NaN."), whatever
        the configuration (see validate_data)."""
        with config_context(assume_finite=False):
            assert_all_finite(A, allow_nan=False, estimator_name=type(est).__name__, input_name=name)

    def _check_array(est, A, accept_sparse):
        """A's values checked as validate_data checks X's (see validate_other)."""
        A = check_array(A, dtype=np.float64, accept_sparse=accept_sparse, estimator=est, input_name="X")
        _finite_assumed(est, A, "X")
        return A

    def _check_names(est, A, name, stacklevel):
        """The column names of A, the input called name, checked against
        those of fit's X (feature_names_in_) as validate_data checks X's at
        predict, its warnings and refusal naming the input (see
        validate_other)."""
        with named(name):
            names = feature_names(A)  # TypeError: str and other column names
        fitted = getattr(est, "feature_names_in_", None)
        here = " (X here is {})".format(name)
        if names is not None and fitted is None:
            warnings.warn("X has feature names, but {} was fitted without feature names{}".format(
                type(est).__name__, here), UserWarning, stacklevel=stacklevel + 1)
        elif names is None and fitted is not None:
            warnings.warn("X does not have valid feature names, but {} was fitted with feature names{}".format(
                type(est).__name__, here), UserWarning, stacklevel=stacklevel + 1)
        elif names is not None and (len(names) != len(fitted) or np.any(names != fitted)):
            unseen = sorted(set(names) - set(fitted))
            missing = sorted(set(fitted) - set(names))
            why = "; ".join(["{} {}".format(what, ns) for what, ns in (
                ("unseen at fit time:", unseen), ("seen at fit time, yet now missing:", missing)) if ns]
                            or ["they must be in the same order as they were in fit"])
            raise ValueError("{}: The feature names should match those that were passed during fit: {}".format(
                name, why))

else:  # pragma: no cover
    class NotFittedError(ValueError, AttributeError):
        """The estimator is used before fit."""

    class ConvergenceWarning(UserWarning):
        """An iterative solver stopped before it converged."""

    class BaseEstimator:
        """get_params/set_params from __init__'s signature."""

        @classmethod
        def _get_param_names(cls):
            sig = inspect.signature(cls.__init__)
            return sorted(p.name for p in sig.parameters.values() if p.name != "self")

        def get_params(self, deep=True):
            return {k: getattr(self, k) for k in self._get_param_names()}

        def set_params(self, **params):
            valid = self._get_param_names()
            for k, v in params.items():
                if k not in valid:
                    raise ValueError("invalid parameter {!r} for {}".format(k, type(self).__name__))
                setattr(self, k, v)
            return self

        def __repr__(self):
            args = ", ".join("{}={!r}".format(k, v) for k, v in self.get_params().items())
            return "{}({})".format(type(self).__name__, args)

    def available_if(check):
        """scikit-learn's available_if: a method that exists (hasattr)
        only where check(self) is true; a check that raises AttributeError
        says why not."""
        def wrap(fn):
            def get(self):
                if not check(self):
                    raise AttributeError("This {!r} has no attribute {!r}".format(type(self).__name__, fn.__name__))
                return fn.__get__(self)
            return property(get, doc=fn.__doc__)
        return wrap

    class ClassifierMixin:
        _estimator_type = "classifier"

        def score(self, X, y):
            return float(np.mean(self.predict(X) == np.asarray(y)))

    def check_random_state(seed):
        if seed is None or seed is np.random:
            return np.random.mtrand._rand
        if isinstance(seed, (int, np.integer)):
            return np.random.RandomState(seed)
        if isinstance(seed, np.random.RandomState):
            return seed
        raise ValueError("{!r} cannot be used to seed a numpy.random.RandomState instance".format(seed))

    def check_classification_targets(y):
        if np.asarray(y).dtype.kind == "f" and not np.all(np.mod(y, 1) == 0):
            raise ValueError("Unknown label type: continuous labels")

    def check_is_fitted(est, attributes=None):
        if hasattr(est, "__sklearn_is_fitted__"):
            fitted = est.__sklearn_is_fitted__()
        else:
            fitted = any(k.endswith("_") and not k.startswith("__") for k in vars(est))
        if not fitted:
            raise NotFittedError("This {} instance is not fitted yet. Call 'fit' first.".format(type(est).__name__))

    def _check_X(X, accept_sparse=False):
        if issparse(X):
            if not accept_sparse:
                raise TypeError("A sparse matrix was passed, but dense data is required")
            X = X.tocsr().astype(np.float64)
            values = X.data
        else:
            X = values = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError("Expected 2D array, got shape {}".format(X.shape))
        if X.shape[0] < 1 or X.shape[1] < 1:
            raise ValueError("Found array with shape {}: need at least 1 sample and 1 feature".format(X.shape))
        if not np.all(np.isfinite(values)):
            raise ValueError("Input contains NaN or infinity")
        return X

    def column_or_1d(y, warn=False):
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            return y.ravel()
        if y.ndim != 1:
            raise ValueError("y should be a 1d array, got an array of shape {} instead.".format(y.shape))
        return y

    def check_finite(est, A, name):
        A = np.asarray(A)
        if A.dtype.kind in "fc" and not np.all(np.isfinite(A)):
            raise ValueError("Input {} contains {}.".format(name, "NaN" if np.any(np.isnan(A)) else "infinity"))

    class DataConversionWarning(UserWarning):
        """Data converted to the form the estimator takes (a column of labels raveled)."""

    def _check_array(est, A, accept_sparse):
        return _check_X(A, accept_sparse)  # finite

    def _check_names(est, A, name, stacklevel):
        pass  # without scikit-learn, fit records no column names

    def validate_data(est, X, y="no_validation", reset=True, accept_sparse=False, **kw):
        X = _check_X(X, accept_sparse)
        if reset:
            est.n_features_in_ = X.shape[1]
        else:
            check_n_features(est, X)
        if isinstance(y, str) and y == "no_validation":
            return X
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError("Found input variables with inconsistent numbers of samples")
        return X, y


@contextlib.contextmanager
def named(name):
    """A context in which a ValueError or TypeError (of a check made by
    scikit-learn or NumPy, of a source's scoring) is raised again, of the
    same kind and chained, with name before its message: the input checked
    (scikit-learn's checks call every input X or y), the source that could
    not score an input."""
    try:
        yield
    except (ValueError, TypeError) as e:
        raise (ValueError if isinstance(e, ValueError) else TypeError)("{}: {}".format(name, e)) from e


def check_n_features(est, X):
    """Refuse X unless it has the columns of fit's X (n_features_in_), with
    scikit-learn's message."""
    if X.shape[1] != est.n_features_in_:
        raise ValueError("X has {} features, but {} is expecting {} features as input.".format(
            X.shape[1], type(est).__name__, est.n_features_in_))


def validate_other(est, A, name, stacklevel):
    """A further sample of est's fit (X_unlabelled, X_oracle: A, called
    name) validated as validate_data validates X at predict, step by step:
    its column names (those of fit's X, or none as fit's X had none), its
    values (float64, finite; a sparse A as CSR) and its number of columns.
    Errors name the input (scikit-learn's, which say X, prefixed with it);
    a warning about column names is warned here (warnings.warn, stacklevel
    as seen from the caller of validate_other), scikit-learn's text first,
    so that a filter on it still matches, and the input named after it
    ("… fitted with feature names (X here is X_unlabelled)"). Not by
    catching scikit-learn's warnings to name them: catch_warnings changes
    the process's warning state, which other threads (joblib's) share."""
    _check_names(est, A, name, stacklevel + 1)
    with named(name):
        A = _check_array(est, A, "csr")  # finite whatever assume_finite says (see validate_data)
        check_n_features(est, A)
    return A


def labels_1d(y, name, stacklevel):
    """y, the labels called name (y_oracle), as a 1-D array: a column
    vector is raveled with scikit-learn's DataConversionWarning (its text
    first, as validate_data warns it of y, then the input's name; warned
    here, see validate_other), another 2-D y refused with scikit-learn's
    message, named."""
    y = np.asarray(y)
    with named(name):
        out = column_or_1d(y)
    if y.ndim == 2:
        warnings.warn(DataConversionWarning(
            "A column-vector y was passed when a 1d array was expected. Please change the shape of y to "
            "(n_samples, ), for example using ravel(). (y here is {})".format(name)), stacklevel=stacklevel + 1)
    return out


__all__ = ["HAVE_SKLEARN", "BaseEstimator", "ClassifierMixin", "InvalidParameterError", "NotFittedError",
           "check_random_state", "check_classification_targets", "check_finite", "check_is_fitted",
           "check_n_features", "column_or_1d", "feature_names", "issparse", "labels_1d", "named", "validate_data",
           "validate_other"]
