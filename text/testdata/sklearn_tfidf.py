"""Reference TF-IDF from scikit-learn for text/sklearn_test.go.

Reads {"train": [...], "test": [...], "sublinear": bool} (documents already
tokenised by text.Tokenize and joined by single spaces) from the file named
by argv[1]; writes {"vocabulary": [...], "idf": [...], "rows": [[[col, val],
...], ...]} for the test documents to stdout.
"""
import json
import sys

from sklearn.feature_extraction.text import TfidfVectorizer

with open(sys.argv[1], encoding="utf-8") as f:
    spec = json.load(f)
v = TfidfVectorizer(tokenizer=str.split, lowercase=False, token_pattern=None,
                    ngram_range=(1, 2), smooth_idf=True, norm="l2",
                    sublinear_tf=spec["sublinear"])
v.fit(spec["train"])
x = v.transform(spec["test"]).tocsr()
x.sort_indices()
rows = []
for i in range(x.shape[0]):
    lo, hi = x.indptr[i], x.indptr[i + 1]
    rows.append([[int(j), float(val)] for j, val in zip(x.indices[lo:hi], x.data[lo:hi])])
json.dump({"vocabulary": list(v.get_feature_names_out()), "idf": v.idf_.tolist(), "rows": rows}, sys.stdout)
