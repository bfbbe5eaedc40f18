"""Transfer from a model zoo to new classes with a handful of examples.

On scikit-learn's bundled handwritten digits (no download): the sources are
linear classifiers of the digits 0-4, each trained on those digits only; the
targets are the digits 5-9, each learned against the other target digits
from 1, 2, 3 or 5 examples (and 10 examples of the others), then all five
at once (5 classes, 1, 2, 3 or 5 examples each). greedytl (greedytl-auto
for two classes, greedytl-nway for five, on the 64 pixel features and the 5
sources' scores) is compared with scikit-learn's LogisticRegression on the
same features and on the sources' scores. The score is the class-balanced
accuracy (binary) or the accuracy (5 classes) on every remaining example of
the digits 5-9, averaged over the 5 target digits and 10 random draws of
the training examples.

Run it as is:  python examples/digits.py   (needs the greedytl command:
go install ./cmd/greedytl, or GREEDYTL_BIN=/path/to/greedytl)
"""

import numpy as np
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score

import greedytl

SOURCE_DIGITS = [0, 1, 2, 3, 4]
TARGET_DIGITS = [5, 6, 7, 8, 9]
POSITIVES = [1, 2, 3, 5]
NEGATIVES = 10
SPLITS = 10


def main():
    X, digit = load_digits(return_X_y=True)
    X = X / 16.0

    # The model zoo: one linear classifier per source digit (that digit
    # against the other source digits), trained on the source digits only.
    src = np.isin(digit, SOURCE_DIGITS)
    zoo = [LogisticRegression(max_iter=1000).fit(X[src], digit[src] == d) for d in SOURCE_DIGITS]
    sources = greedytl.Sources(zoo)

    def source_scores(A):
        return np.column_stack([c.decision_function(A) for c in zoo])

    methods = {
        "greedytl-auto (features + sources)": lambda: greedytl.TransferClassifier(
            method="greedytl-auto", sources=sources, random_state=0),
        "LogisticRegression (features)": lambda: LogisticRegression(max_iter=1000, class_weight="balanced"),
        "LogisticRegression (source scores)": lambda: _OnScores(source_scores),
    }

    rng = np.random.default_rng(0)
    tgt = np.flatnonzero(np.isin(digit, TARGET_DIGITS))
    acc = {name: {n: [] for n in POSITIVES} for name in methods}
    for n in POSITIVES:
        for t in TARGET_DIGITS:
            pos_pool = tgt[digit[tgt] == t]
            neg_pool = tgt[digit[tgt] != t]
            for _ in range(SPLITS):
                train = np.concatenate([rng.choice(pos_pool, n, replace=False),
                                        rng.choice(neg_pool, NEGATIVES, replace=False)])
                test = np.setdiff1d(tgt, train)
                y_train, y_test = digit[train] == t, digit[test] == t
                for name, make in methods.items():
                    model = make().fit(X[train], y_train)
                    acc[name][n].append(balanced_accuracy_score(y_test, model.predict(X[test])))

    print("class-balanced accuracy %, digits 5-9 each against the others, mean of 5 digits x {} draws".format(SPLITS))
    print("{:38s}".format("positives:") + "".join("{:>8d}".format(n) for n in POSITIVES))
    for name in methods:
        print("{:38s}".format(name) + "".join("{:8.1f}".format(100 * np.mean(acc[name][n])) for n in POSITIVES))

    # The five target digits at once: 5-way classification from 1, 2, 3 or 5
    # examples of each (greedytl fit's multi-class default, greedytl-nway).
    multi = {
        "greedytl (5 classes, features + sources)": lambda: greedytl.TransferClassifier(
            sources=sources, random_state=0),
        "LogisticRegression (features)": lambda: LogisticRegression(max_iter=1000),
        "LogisticRegression (source scores)": lambda: _OnScores(source_scores, balanced=False),
    }
    macc = {name: {n: [] for n in POSITIVES} for name in multi}
    for n in POSITIVES:
        for _ in range(SPLITS):
            train = np.concatenate([rng.choice(tgt[digit[tgt] == t], n, replace=False) for t in TARGET_DIGITS])
            test = np.setdiff1d(tgt, train)
            for name, make in multi.items():
                model = make().fit(X[train], digit[train])
                macc[name][n].append(np.mean(model.predict(X[test]) == digit[test]))
    print("\naccuracy %, the digits 5-9 as 5 classes, n examples of each, mean of {} draws".format(SPLITS))
    print("{:42s}".format("examples per class:") + "".join("{:>8d}".format(n) for n in POSITIVES))
    for name in multi:
        print("{:42s}".format(name) + "".join("{:8.1f}".format(100 * np.mean(macc[name][n])) for n in POSITIVES))

    # What greedytl chose for one task: digit 8 from 3 examples.
    pos = tgt[digit[tgt] == 8][:3]
    neg = tgt[digit[tgt] != 8][:NEGATIVES]
    train = np.concatenate([pos, neg])
    clf = greedytl.TransferClassifier(method="greedytl", sources=sources, random_state=0)
    clf.fit(X[train], digit[train] == 8)
    print("\ngreedytl (the paper's method) on digit 8 from 3 examples selected {} columns; the first 8:".format(
        len(clf.selected_)))
    for s in clf.selected_[:8]:
        what = "source digit {}".format(SOURCE_DIGITS[s["index"]]) if s["kind"] == "source" else \
            "pixel ({}, {})".format(*divmod(s["index"], 8))
        print("  {:16s} weight {:+.3f}".format(what, s["weight"]))


class _OnScores:
    """LogisticRegression on the sources' scores of X."""

    def __init__(self, scores, balanced=True):
        self.scores, self.balanced = scores, balanced

    def fit(self, X, y):
        weight = "balanced" if self.balanced else None
        self.lr = LogisticRegression(max_iter=1000, class_weight=weight).fit(self.scores(X), y)
        return self

    def predict(self, X):
        return self.lr.predict(self.scores(X))


if __name__ == "__main__":
    main()
