"""greedytl from Python: hypothesis transfer learning over the greedytl engine.

:class:`TransferClassifier` is a scikit-learn classifier whose ``fit`` runs
the ``greedytl`` command (the Go engine: GreedyTL, greedytl-auto and every
baseline of the paper) and whose ``predict`` computes the fitted model's
scores in NumPy.  The sources — the user's model zoo — are fitted
scikit-learn classifiers, a greedytl sources directory or any callable
(:class:`Sources`).

The command is found through ``$GREEDYTL_BIN`` or on PATH; install it from
the repository with ``go install ./cmd/greedytl``.  The warnings greedytl
prints about a fitted model reach Python as :class:`GreedyTLWarning` (a
solver that stopped before converging as :class:`GreedyTLConvergenceWarning`,
also scikit-learn's ``ConvergenceWarning``).
"""

from ._cli import (CLIError, CLIInputError, CommandNotFoundError, GreedyTLConvergenceWarning, GreedyTLWarning, cli_info,
                   find_greedytl)
from ._estimator import TransferClassifier
from ._model import ModelFileError, parse_model, read_model
from ._sources import Sources, SourcesDir
from ._compat import HAVE_SKLEARN

__version__ = "0.1.0"

__all__ = [
    "TransferClassifier",
    "Sources",
    "SourcesDir",
    "read_model",
    "parse_model",
    "ModelFileError",
    "find_greedytl",
    "cli_info",
    "CLIError",
    "CLIInputError",
    "CommandNotFoundError",
    "GreedyTLWarning",
    "GreedyTLConvergenceWarning",
]

if HAVE_SKLEARN:
    # A Pipeline that transforms X_unlabelled and X_oracle as X (scikit-learn's
    # passes them on untransformed); it is scikit-learn's Pipeline, so only
    # with scikit-learn.
    from ._pipeline import TransferPipeline, make_pipeline
    __all__ += ["TransferPipeline", "make_pipeline"]
