#!/usr/bin/env python3
"""Summarise the greedytl-sp γ measurement and the claim-IV comparison.

Usage:
    summarise.py summary RUN...      paired differences from the runs' results*.jsonl
                                     (written to stdout as JSON: paired.json)
    summarise.py tables summary.json paired.json
                                     the Markdown tables of README.md
    summarise.py composition RUN...  the columns greedytl-sp:gamma=G selects: mean numbers of
                                     features and sources (Markdown)
    summarise.py design-table designs.json
                                     the Markdown table of the designs
    summarise.py designs PROBE-RUN... -- RUN...
                                     replays greedytl-auto's selection rule and others on
                                     sub-grids of the probe runs (probe.go), against the
                                     baselines of the RUNs (JSON to stdout: designs.json)

summary.json is the output of `greedytl report RUN... --json`. Only the
standard library is used.
"""
import glob
import json
import math
import os
import sys
from collections import defaultdict

GAMMAS = ["0", "0.1", "0.25", "0.5", "0.75", "1"]
# greedytl-sp's own γ: greedytl-sp:gamma=0.5 is greedytl-sp, and `greedytl
# experiment` refuses to run the two together, so a run holds the γ = 0.5
# records under "greedytl-sp" (the summaries kept here predate that refusal
# and hold both, with the same numbers).
DEFAULT_GAMMA = "0.5"
DATASETS = ["coil100-hog", "coil100-colorhist", "clinc150"]
POSITIVES = [2, 5, 10]
# The pairs compared cell by cell (same target, positives and split).
PAIRS = [
    ("greedytl-sp", "rls-srcfeat"),
    ("greedytl-sp", "no-transfer"),
    ("greedytl-sp", "greedytl"),
    ("greedytl-auto", "greedytl"),
    ("greedytl-auto", "greedytl-sp"),
    ("greedytl-auto", "rls-srcfeat"),
    ("greedytl-auto", "no-transfer"),
]


def records(runs):
    for run in runs:
        for path in sorted(glob.glob(os.path.join(run, "results*.jsonl"))):
            with open(path) as f:
                for line in f:
                    try:
                        r = json.loads(line)
                    except json.JSONDecodeError:
                        continue  # a partial last line
                    if not r.get("error"):
                        yield r


def paired(runs):
    acc = defaultdict(dict)  # (dataset, positives, noise) -> {(target, split, method): accuracy}
    for r in records(runs):
        acc[(r["dataset"], r["positives"], r["noise"])][(r["target_idx"], r["split"], r["method"])] = r["balanced_accuracy"]
    out = []
    for (ds, pos, noise), cells in sorted(acc.items()):
        methods = {m for (_, _, m) in cells}
        for a, b in PAIRS:
            if a not in methods or b not in methods:
                continue
            per_split = defaultdict(list)
            wins = losses = ties = 0
            for (t, s, m), va in cells.items():
                if m != a or (t, s, b) not in cells:
                    continue
                d = va - cells[(t, s, b)]
                per_split[s].append(d)
                wins += d > 0
                losses += d < 0
                ties += d == 0
            means = [sum(v) / len(v) for v in per_split.values()]
            k = len(means)
            mean = sum(means) / k
            se = math.sqrt(sum((x - mean) ** 2 for x in means) / (k - 1) / k) if k > 1 else None
            out.append({"dataset": ds, "positives": pos, "noise": noise, "a": a, "b": b,
                        "mean_diff": mean, "stderr": se, "splits": k,
                        "cells": wins + losses + ties, "wins": wins, "ties": ties, "losses": losses})
    return out


def pct(x):
    """x as a percentage with two decimals; "—" for None, the standard error
    of a row of one split (report --json's "stderr": null, paired's too).

    >>> pct(0.12345), pct(None)
    ('12.35', '—')
    """
    return "—" if x is None else f"{100 * x:.2f}"


def tables(summary, pairs):
    by = {(r["dataset"], r["method"], r["positives"]): r for r in summary if r["noise"] == 0}
    for (d, m, p), r in list(by.items()):
        if m == "greedytl-sp":
            by.setdefault((d, f"greedytl-sp:gamma={DEFAULT_GAMMA}", p), r)
    datasets = [d for d in DATASETS if any(k[0] == d for k in by)]
    cells = [(d, p) for d in datasets for p in POSITIVES]
    print("### γ measurement: balanced accuracy %, mean ± standard error over 10 splits\n")
    gm = [f"greedytl-sp:gamma={g}" for g in GAMMAS]
    print("| dataset | n₊ | " + " | ".join(f"γ = {g}" for g in GAMMAS) + " | rls-srcfeat | no-transfer |")
    print("|---|---:|" + "---:|" * (len(GAMMAS) + 2))
    ranks = defaultdict(float)
    for d, p in cells:
        vals = [by[(d, m, p)]["mean"] for m in gm]
        best = max(vals)
        row = []
        for m, v in zip(gm + ["rls-srcfeat", "no-transfer"], vals + [by[(d, "rls-srcfeat", p)]["mean"], by[(d, "no-transfer", p)]["mean"]]):
            s = f"{pct(v)} ± {pct(by[(d, m, p)]['stderr'])}"
            row.append(f"**{s}**" if m in gm and v == best else s)
        print(f"| {d} | {p} | " + " | ".join(row) + " |")
        # Ranks among the γ values (1 = best), ties sharing the mean rank.
        for g, v in zip(GAMMAS, vals):
            better = sum(1 for w in vals if w > v)
            equal = sum(1 for w in vals if w == v)
            ranks[g] += (better + (equal + 1) / 2) / len(cells)
    print()
    print("| | " + " | ".join(f"γ = {g}" for g in GAMMAS) + " |")
    print("|---|" + "---:|" * len(GAMMAS))
    print("| mean rank over the 9 cells (1 = best) | " + " | ".join(f"{ranks[g]:.2f}" for g in GAMMAS) + " |")
    means = {g: sum(by[(d, f'greedytl-sp:gamma={g}', p)]["mean"] for d, p in cells) / len(cells) for g in GAMMAS}
    print("| mean accuracy over the 9 cells | " + " | ".join(pct(means[g]) for g in GAMMAS) + " |")
    regret = {g: max(max(by[(d, m, p)]["mean"] for m in gm) - by[(d, f'greedytl-sp:gamma={g}', p)]["mean"] for d, p in cells) for g in GAMMAS}
    print("| largest shortfall from the best γ of a cell | " + " | ".join(pct(regret[g]) for g in GAMMAS) + " |")

    methods = ["greedytl", "greedytl-sp", "greedytl-auto", "rls-srcfeat", "no-transfer"]
    if any(k[1] == "greedytl-auto" for k in by):
        print("\n### Claim IV: balanced accuracy %, mean ± standard error over 10 splits\n")
        print("| dataset | n₊ | " + " | ".join(methods) + " |")
        print("|---|---:|" + "---:|" * len(methods))
        for d, p in cells:
            vals = {m: by[(d, m, p)]["mean"] for m in methods if (d, m, p) in by}
            best = max(vals.values())
            row = []
            for m in methods:
                if m not in vals:
                    row.append("—")
                    continue
                s = f"{pct(vals[m])} ± {pct(by[(d, m, p)]['stderr'])}"
                row.append(f"**{s}**" if vals[m] == best else s)
            print(f"| {d} | {p} | " + " | ".join(row) + " |")
    print("\n### Paired differences (percentage points, mean ± standard error over splits; cells won/tied/lost)\n")
    pairs_present = [(a, b) for a, b in PAIRS if any(r["a"] == a and r["b"] == b for r in pairs)]
    print("| dataset | n₊ | " + " | ".join(f"{a} − {b}" for a, b in pairs_present) + " |")
    print("|---|---:|" + "---:|" * len(pairs_present))
    pd = {(r["dataset"], r["positives"], r["a"], r["b"]): r for r in pairs if r["noise"] == 0}
    for d, p in cells:
        row = []
        for a, b in pairs_present:
            r = pd.get((d, p, a, b))
            if r is None:
                row.append("—")
                continue
            row.append(f"{100 * r['mean_diff']:+.2f} ± {pct(r['stderr'])} ({r['wins']}/{r['ties']}/{r['losses']})")
        print(f"| {d} | {p} | " + " | ".join(row) + " |")


# Sub-grids of the probe's γ × λ grid and selection rules, replayed by
# designs(). "chosen" is greedytl-auto's.
G_ALL = [0, 0.1, 0.25, 0.5, 0.75, 1]
L_ALL = [1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000, 1e4]
GRIDS = [
    ("γ × λ ∈ {1, 10} (chosen)", G_ALL, [1, 10]),
    ("γ × λ ∈ {1, 10, …, 1e4}", G_ALL, [1, 10, 100, 1000, 1e4]),
    ("γ × λ ∈ {1e-4, …, 1e4} (the paper's λ grid)", G_ALL, L_ALL),
    ("γ × λ ∈ {0.1, 1, 10}", G_ALL, [0.1, 1, 10]),
    ("γ only, λ = 1", G_ALL, [1]),
    ("λ only, γ = 1", [1], L_ALL),
]
TIE_TOL = 1e-9  # method.looTieTol


def key(g, l):
    return f"g={g:g}/l={l:g}"


def choose(hp, grid, rule):
    """The (γ, λ) that rule picks among grid, given a probe record's
    hyperparameters hp; None when no setting is usable."""
    best = None
    for g, l in grid:
        k = key(g, l)
        if rule == "oracle":
            v = hp.get("acc/" + k)
            if v is not None and (best is None or v > best[1]):
                best = ((g, l), v)
            continue
        if rule == "path":
            v = hp.get("pathloo/" + k)
            if v is None:
                continue
            if best is None or v < best[1] - TIE_TOL * max(abs(v), abs(best[1])):
                best = ((g, l), v)
            elif abs(v - best[1]) <= TIE_TOL * max(abs(v), abs(best[1])) and (l > best[0][1] or (l == best[0][1] and g > best[0][0])):
                best = ((g, l), v)
            continue
        e, m = hp.get("loo01/" + k), hp.get("loomse/" + k)
        if e is None or m is None:
            continue
        if rule == "mse":
            e = 0.0  # the squared residual alone
        if best is None or better(rule, (g, l), e, m, best):
            best = ((g, l), e, m)
    if best is None:
        return (1, 1) if (1, 1) in grid else None
    return best[0]


def better(rule, s, e, m, best):
    (bs, be, bm) = best
    if e != be:
        return e < be
    if rule == "chosen":
        if bs == (1, 1):
            return False
        if s == (1, 1):
            return True
    tol = TIE_TOL * max(abs(m), abs(bm))
    if m < bm - tol:
        return True
    if m > bm + tol:
        return False
    return s[1] > bs[1] or (s[1] == bs[1] and s[0] > bs[0])


RULES = [
    ("chosen", "0-1 error, then the paper's (1, 1), then squared residual, then larger λ, γ (greedytl-auto)"),
    ("e01", "0-1 error, then squared residual, then larger λ, γ"),
    ("mse", "squared residual, then larger λ, γ"),
    ("path", "GreedyTL's path LOO of the whole-sample fit (no refit), then larger λ, γ"),
    ("oracle", "best test accuracy (an oracle: the upper bound of the grid)"),
]


def designs(probe_runs, runs):
    base = defaultdict(dict)  # (dataset, positives, target, split) -> {method: accuracy}
    for r in records(runs):
        base[(r["dataset"], r["positives"], r["target_idx"], r["split"])][r["method"]] = r["balanced_accuracy"]
    probe = {}
    for r in records(probe_runs):
        if r["method"] == "probe":
            probe[(r["dataset"], r["positives"], r["target_idx"], r["split"])] = r["hyperparameters"]
    out = []
    for gname, gs, ls in GRIDS:
        grid = [(g, l) for g in gs for l in ls]
        for rule, _ in RULES:
            acc = defaultdict(list)
            agree = disagree = 0
            for k, hp in probe.items():
                s = choose(hp, grid, rule)
                a = hp.get("acc/" + key(*s)) if s else None
                if a is None:
                    continue
                acc[k[:2]].append((k, a))
                if rule == "chosen" and gname.endswith("(chosen)") and "greedytl-auto" in base.get(k, {}):
                    if base[k]["greedytl-auto"] == a:
                        agree += 1
                    else:
                        disagree += 1
            cells = []
            for (ds, pos), vals in sorted(acc.items()):
                mean = sum(a for _, a in vals) / len(vals)
                ref = {m: sum(base[k][m] for k, _ in vals) / len(vals) for m in ("rls-srcfeat", "no-transfer", "greedytl-sp", "greedytl")
                       if all(m in base.get(k, {}) for k, _ in vals)}
                cells.append({"dataset": ds, "positives": pos, "n": len(vals), "mean": mean, "baselines": ref})
            d = {"grid": gname, "rule": rule, "cells": cells}
            if agree + disagree:
                d["replayed_vs_greedytl_auto"] = {"agree": agree, "disagree": disagree}
            out.append(d)
    return out


def design_table(ds):
    order = {d: i for i, d in enumerate(DATASETS)}
    print("| grid | rule | " + " | ".join(f"{c['dataset']} {c['positives']}" for c in sorted(ds[0]["cells"], key=lambda c: (order.get(c["dataset"], 9), c["positives"]))) + " | mean | worst margin |")
    print("|---|---|" + "---:|" * (len(ds[0]["cells"]) + 2))
    for d in ds:
        cells = sorted(d["cells"], key=lambda c: (order.get(c["dataset"], 9), c["positives"]))
        margins = [c["mean"] - max(c["baselines"]["rls-srcfeat"], c["baselines"]["no-transfer"]) for c in cells]
        mean = sum(c["mean"] for c in cells) / len(cells)
        print(f"| {d['grid']} | {d['rule']} | " + " | ".join(pct(c["mean"]) for c in cells) + f" | {pct(mean)} | {100 * min(margins):+.2f} |")


def composition(runs):
    agg = defaultdict(lambda: [0, 0, 0])
    sp = defaultdict(lambda: [0, 0, 0])  # greedytl-sp's own records (γ = DEFAULT_GAMMA)
    for r in records(runs):
        m = r["method"]
        if m == "greedytl-sp":
            a = sp[(r["dataset"], r["positives"], DEFAULT_GAMMA)]
        elif m.startswith("greedytl-sp:gamma="):
            a = agg[(r["dataset"], r["positives"], m.split("=")[1])]
        else:
            continue
        a[0] += 1
        a[1] += r["features"]
        a[2] += len(r.get("sources") or [])
    for k, a in sp.items():
        if k not in agg:
            agg[k] = a
    datasets = [d for d in DATASETS if any(k[0] == d for k in agg)]
    print("| dataset | n₊ | " + " | ".join(f"γ = {g}" for g in GAMMAS) + " |")
    print("|---|---:|" + "---:|" * len(GAMMAS))
    for d in datasets:
        for p in POSITIVES:
            row = []
            for g in GAMMAS:
                n, f, src = agg[(d, p, g)]
                row.append(f"{f / n:.1f} + {src / n:.1f}")
            print(f"| {d} | {p} | " + " | ".join(row) + " |")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "designs" and "--" in sys.argv:
        i = sys.argv.index("--")
        json.dump(designs(sys.argv[2:i], sys.argv[i + 1:]), sys.stdout, indent=1)
        print()
    elif len(sys.argv) >= 3 and sys.argv[1] == "composition":
        composition(sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "design-table":
        with open(sys.argv[2]) as f:
            design_table(json.load(f))
    elif len(sys.argv) >= 3 and sys.argv[1] == "summary":
        json.dump(paired(sys.argv[2:]), sys.stdout, indent=1)
        print()
    elif len(sys.argv) == 4 and sys.argv[1] == "tables":
        with open(sys.argv[2]) as f:
            summary = json.load(f)
        with open(sys.argv[3]) as f:
            pairs = json.load(f)
        tables(summary, pairs)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
