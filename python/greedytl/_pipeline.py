"""TransferPipeline: a scikit-learn Pipeline that passes the transductive
and oracle samples of fit through its transformers, as it passes X.

scikit-learn's Pipeline (1.2.1) hands a fit parameter of a step
(``pipe.fit(X, y, transferclassifier__X_unlabelled=Xu)``) to that step as
given: its transformers transform X, not the parameter, so that a
TransferClassifier after a StandardScaler gets X scaled and X_unlabelled
(X_oracle) not, and fits a model on inputs of two scales.  Newer
scikit-learn releases offer Pipeline(transform_input=[...]) with metadata
routing enabled; this class does it on every release for the samples that
have X's columns: X_unlabelled and X_oracle (not y_oracle, labels).
"""

from sklearn.pipeline import Pipeline
from sklearn.pipeline import make_pipeline as _sk_make_pipeline

__all__ = ["TransferPipeline", "make_pipeline", "SAMPLES"]

#: The fit parameters of TransferClassifier that hold rows of X's columns,
#: which TransferPipeline transforms as X.
SAMPLES = ("X_unlabelled", "X_oracle")


class TransferPipeline(Pipeline):
    """A :class:`sklearn.pipeline.Pipeline` whose ``fit`` passes the last
    step's ``X_unlabelled`` and ``X_oracle`` (given as
    ``NAME__X_unlabelled``, NAME the last step's name) through the
    transformers before it, as X is: fitted on X, they transform those rows
    too, so that a scaler or a feature selection before a
    :class:`TransferClassifier` applies to every sample it fits on.  Its
    other parameters, methods and fit parameters are Pipeline's; without
    those two parameters ``fit`` is Pipeline's own.
    """

    def fit(self, X, y=None, **fit_params):
        """Fit the transformers on X, transform X and the last step's
        X_unlabelled and X_oracle with them, and fit the last step on the
        results (and its other fit parameters, y_oracle as given).
        Returns self."""
        name, last = self.steps[-1]
        side = {k: fit_params.pop(name + "__" + k) for k in SAMPLES if name + "__" + k in fit_params}
        if not side or len(self.steps) == 1:
            return super().fit(X, y, **fit_params, **{name + "__" + k: v for k, v in side.items()})
        prefix = name + "__"
        own = {k[len(prefix):]: v for k, v in fit_params.items() if k.startswith(prefix)}
        head = Pipeline(self.steps[:-1], memory=self.memory, verbose=self.verbose)
        Xt = head.fit_transform(X, y, **{k: v for k, v in fit_params.items() if not k.startswith(prefix)})
        # The fitted transformers are this pipeline's (with memory, Pipeline
        # fits clones, which it puts in its steps as Pipeline.fit does).
        self.steps[:-1] = head.steps
        side = {k: None if v is None else head.transform(v) for k, v in side.items()}
        if last is not None and last != "passthrough":
            last.fit(Xt, y, **own, **side)
        return self


def make_pipeline(*steps, memory=None, verbose=False):
    """:func:`sklearn.pipeline.make_pipeline` (the steps named after their
    classes, ``transferclassifier`` for a TransferClassifier), giving a
    :class:`TransferPipeline`."""
    pipe = _sk_make_pipeline(*steps, memory=memory, verbose=verbose)
    return TransferPipeline(pipe.steps, memory=memory, verbose=verbose)
