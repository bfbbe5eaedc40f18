"""What cloning a TransferClassifier costs with a large model zoo as sources.

GridSearchCV and cross_val_score clone the estimator for every candidate
and fold (sklearn.base.clone).  This measures cross_val_score(cv=5) of a
TransferClassifier whose sources are a zoo of fitted classifiers (--kind),
each measurement in a fresh Python process: wall and CPU time (this
process's and its children's: the greedytl fits), the peak resident memory
the cross-validation adds (Linux's VmHWM after it, reset just before it,
less the VmRSS before it), the peak of the Python allocations it makes
(tracemalloc, NumPy's included; a separate run, since tracing slows it),
the time of one clone alone, and the size of one pickled clone (what
n_jobs=2 sends a worker process for each fold: joblib's process workers
are handed each task's estimator pickled); with --n-jobs above 1, the peak
resident memory of each of joblib's worker processes.

    GREEDYTL_BIN=/path/to/greedytl python python/benchmarks/clone_sources.py \\
        [--sources 200] [--features 1000] [--kind logistic|forest|knn] [--source-rows 300] \\
        [--n-jobs 1] [--backend loky|threading] [--repeat 3] [--no-tracemalloc] [--method M] \\
        [--other-package DIR]

--other-package DIR measures the greedytl package under DIR as well (e.g. an
older checkout's python/), alternating the two in each repeat, so that both
see the same load.  The zoo is trained once (seeded) and pickled to a
temporary file each run loads.
"""

import argparse
import os
import pickle
import subprocess
import sys
import tempfile

CHILD = r"""
import os, pickle, sys, time, tracemalloc
import joblib
import numpy as np
import greedytl
from sklearn.base import clone
from sklearn.model_selection import cross_val_score

zoo_path, data_path, n_jobs, trace = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
method, backend = sys.argv[5] or None, sys.argv[6]
with open(zoo_path, "rb") as f:
    zoo = pickle.load(f)
with open(data_path, "rb") as f:
    X, y = pickle.load(f)
est = greedytl.TransferClassifier(sources=greedytl.Sources(zoo), method=method, random_state=0)
clone(est)  # warm up: imports, first allocations

def status(key):  # /proc/self/status's VmRSS (resident now) or VmHWM (its peak), in MiB
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) / 1024 for l in f if l.startswith(key + ":"))

t = time.perf_counter()
for _ in range(5):
    clone(est)
clone_s = (time.perf_counter() - t) / 5

if trace:
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
with open("/proc/self/clear_refs", "w") as f:  # the peak starts again from the present (Linux 4.0)
    f.write("5")
before = status("VmRSS")
t0, c0 = time.perf_counter(), os.times()
with joblib.parallel_backend(backend):
    scores = cross_val_score(est, X, y, cv=5, n_jobs=n_jobs, error_score="raise")
t1, c1 = time.perf_counter(), os.times()
out = {"wall_s": t1 - t0, "cpu_s": c1.user + c1.system - c0.user - c0.system,
       "child_cpu_s": c1.children_user + c1.children_system - c0.children_user - c0.children_system,
       "peak_rss_added_mb": status("VmHWM") - before,
       "clone_ms": clone_s * 1e3, "score": float(np.mean(scores))}
if trace:
    out["traced_peak_added_mb"] = (tracemalloc.get_traced_memory()[1] - base) / 2**20
if n_jobs > 1:  # the peak memory of each of joblib's process workers (loky's, children of this process)
    peaks = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/{}/stat".format(pid)) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open("/proc/{}/cmdline".format(pid), "rb") as f:
                cmd = f.read()
            if ppid == os.getpid() and b"loky" in cmd and b"resource_tracker" not in cmd:
                with open("/proc/{}/status".format(pid)) as f:
                    peaks += [int(l.split()[1]) / 1024 for l in f if l.startswith("VmHWM:")]
        except OSError:  # a process that ended meanwhile
            pass
    out["worker_peak_rss_mb"] = sorted(peaks)
# Last: pickling the zoo raises this process's peak memory.
out["pickled_clone_mb"] = len(pickle.dumps(clone(est), protocol=pickle.HIGHEST_PROTOCOL)) / 2**20
print(repr(out))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sources", type=int, default=200)
    ap.add_argument("--features", type=int, default=1000)
    ap.add_argument("--kind", choices=("logistic", "forest", "knn"), default="logistic",
                    help="the sources: LogisticRegression, RandomForestClassifier (100 trees), or "
                    "KNeighborsClassifier (which store their rows)")
    ap.add_argument("--source-rows", type=int, default=300, help="the rows each source is fitted on")
    ap.add_argument("--n-jobs", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--method", default="", help="the estimator's method (default: greedytl fit's choice)")
    ap.add_argument("--backend", default="loky", help="joblib's backend for n_jobs (loky: processes)")
    ap.add_argument("--no-tracemalloc", action="store_true", help="skip the runs with tracemalloc")
    ap.add_argument("--other-package", help="a second greedytl package directory (holding greedytl/) to measure")
    a = ap.parse_args()

    import numpy as np
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(0)
    d = a.features
    Xs = rng.normal(size=(a.source_rows, d))
    W = rng.normal(size=(d, a.sources))  # each source's concept: the sign of Xs·W[:, j]
    if a.kind == "logistic":
        zoo = [LogisticRegression(max_iter=200).fit(Xs, Xs @ w > 0) for w in W.T]
    elif a.kind == "forest":
        zoo = [RandomForestClassifier(random_state=0).fit(Xs, Xs @ w > 0) for w in W.T]
    else:  # nearest neighbours, which keep their training rows: a heavy zoo
        zoo = [KNeighborsClassifier().fit(Xs, Xs @ w > 0) for w in W.T]
    X = rng.normal(size=(100, d))
    y = np.where(X @ W[:, 0] + X[:, :5].sum(axis=1) > 0, "yes", "no")  # related to source 0

    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
    packages = [("this", os.path.normpath(here))]
    if a.other_package:
        packages.append(("other", os.path.abspath(a.other_package)))
    with tempfile.TemporaryDirectory() as tmp:
        zoo_path, data_path = os.path.join(tmp, "zoo.pkl"), os.path.join(tmp, "data.pkl")
        with open(zoo_path, "wb") as f:
            pickle.dump(zoo, f, protocol=pickle.HIGHEST_PROTOCOL)
        with open(data_path, "wb") as f:
            pickle.dump((X, y), f, protocol=pickle.HIGHEST_PROTOCOL)
        print("zoo: {} {} fitted on {} rows of {} features, {:.1f} MiB pickled; target: {} rows, "
              "cross_val_score(cv=5, n_jobs={}, backend {})".format(
                  a.sources, type(zoo[0]).__name__, a.source_rows, d, os.path.getsize(zoo_path) / 2**20, len(X),
                  a.n_jobs, a.backend))
        for r in range(a.repeat):
            for trace in ("0",) if a.no_tracemalloc else ("0", "1"):
                for name, pkg in packages:
                    env = dict(os.environ, PYTHONPATH=pkg, PYTHONDONTWRITEBYTECODE="1")
                    p = subprocess.run([sys.executable, "-c", CHILD, zoo_path, data_path, str(a.n_jobs), trace,
                                        a.method, a.backend], env=env, capture_output=True, text=True, cwd=tmp)
                    if p.returncode != 0:
                        sys.exit("{} package failed:\n{}".format(name, p.stderr))
                    print("repeat {} {} tracemalloc={}: {}".format(r, name, trace, p.stdout.strip()), flush=True)


if __name__ == "__main__":
    main()
