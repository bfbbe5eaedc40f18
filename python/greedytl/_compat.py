"""scikit-learn when it is installed, a small stand-in when it is not.

The estimator is written against scikit-learn's contract (BaseEstimator,
ClassifierMixin, input validation, NotFittedError).  With scikit-learn
installed (Debian's 1.2.1 is the reference) those are scikit-learn's own;
without it this module provides the few pieces the estimator uses, so that
``import greedytl`` and fitting with NumPy arrays still work.
"""

import inspect

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


class _InvalidParameterError(ValueError, TypeError):
    """A parameter of the wrong type or out of range (scikit-learn's
    InvalidParameterError where it has none)."""


if HAVE_SKLEARN:
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.exceptions import ConvergenceWarning, NotFittedError
    from sklearn.utils import check_random_state
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import check_is_fitted, column_or_1d

    try:  # scikit-learn ≥ 1.2: the error of its estimators' parameter validation
        from sklearn.utils._param_validation import InvalidParameterError
    except ImportError:  # pragma: no cover - older scikit-learn
        InvalidParameterError = _InvalidParameterError

    from sklearn import config_context, get_config
    from sklearn.utils.validation import assert_all_finite

    try:  # scikit-learn ≥ 1.6
        from sklearn.utils.validation import validate_data as _validate_data

        def _validated(est, X, y, reset, kw):
            return _validate_data(est, X, y, reset=reset, **kw)
    except ImportError:  # scikit-learn < 1.6: the estimator's method
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
        if get_config()["assume_finite"]:
            no_y = y is None or isinstance(y, str) and y == "no_validation"
            for what, A in ([("X", out)] if no_y else zip(("X", "y"), out)):
                # Labels of object dtype too: a NaN among strings.
                check_finite(est, A, what)
        return out

    def check_finite(est, A, name):
        """Refuse NaN or infinity in A, the input called name, with
        scikit-learn's own message ("Input NAME contains NaN."), whatever
        the configuration (see validate_data)."""
        with config_context(assume_finite=False):
            assert_all_finite(A, allow_nan=False, estimator_name=type(est).__name__, input_name=name)

else:  # pragma: no cover
    class NotFittedError(ValueError, AttributeError):
        """The estimator is used before fit."""

    class ConvergenceWarning(UserWarning):
        """An iterative solver stopped before it converged."""

    InvalidParameterError = _InvalidParameterError

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

    def validate_data(est, X, y="no_validation", reset=True, accept_sparse=False, **kw):
        X = _check_X(X, accept_sparse)
        if reset:
            est.n_features_in_ = X.shape[1]
        elif X.shape[1] != est.n_features_in_:
            raise ValueError("X has {} features, but {} is expecting {} features as input".format(
                X.shape[1], type(est).__name__, est.n_features_in_))
        if isinstance(y, str) and y == "no_validation":
            return X
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError("Found input variables with inconsistent numbers of samples")
        return X, y

__all__ = ["HAVE_SKLEARN", "BaseEstimator", "ClassifierMixin", "InvalidParameterError", "NotFittedError",
           "check_random_state",
           "check_classification_targets", "check_finite", "check_is_fitted", "column_or_1d", "issparse",
           "validate_data"]
