#!/usr/bin/python3
"""Accuracy of greedytl binaries at many training rows on COIL-100 HOG.

For 6 classes without a source (the first 6, or from --first on), fit on m = 1,000 and
2,000 rows (36 of the class's 72 images, the rest other classes' images)
and score 36 held-out images of the class against 2,000 held-out images
of other classes; print test AUC and balanced accuracy per binary.

  /usr/bin/python3 docs/results/manyrows.py --data ../shared/data/coil100/hog \
      --sources RUN/sources BIN_A [BIN_B ...]

--data is the COIL-100 HOG dataset folder (not in the repository: where it
comes from and how to make it is in docs/results/README.md, "Data";
../shared/data/coil100/hog on the development machine). RUN/sources is
train-sources' directory for the data set (docs/results/run.sh trains one
into WORK/coil100-hog/sources). BIN_A … are the greedytl binaries compared.
Needs numpy; writes its files into a temporary directory.
"""
import argparse, json, os, subprocess, tempfile
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument('--data', required=True)
ap.add_argument('--sources', required=True)
ap.add_argument('--method', default='greedytl-auto')
ap.add_argument('--first', type=int, default=0, help='skip this many of the classes without a source')
ap.add_argument('--seed', type=int, default=5)
ap.add_argument('binaries', nargs='+')
a = ap.parse_args()
X = np.load(os.path.join(a.data, 'features.npy'))
y = np.load(os.path.join(a.data, 'labels.npy'))
src = {s['class'] for s in json.load(open(os.path.join(a.sources, 'sources.json')))['sources']}
targets = [c for c in sorted(set(y.tolist())) if c not in src][a.first:a.first + 6]
rng = np.random.default_rng(a.seed)
tmp = tempfile.mkdtemp()
res = {}

def metrics(s, t):
    pos, neg = s[t > 0], s[t < 0]
    auc = ((pos[:, None] > neg[None, :]).sum() + .5 * (pos[:, None] == neg[None, :]).sum()) / (len(pos) * len(neg))
    return auc, ((pos > 0).mean() + (neg <= 0).mean()) / 2

def save(name, rows, t):
    np.save(os.path.join(tmp, name + '.npy'), X[rows])
    with open(os.path.join(tmp, name + '.txt'), 'w') as f:
        f.write(''.join('1\n' if v == t else '-1\n' for v in y[rows]))
    return os.path.join(tmp, name)

for t in targets:
    pos, other = np.where(y == t)[0], np.where(y != t)[0]
    perm = rng.permutation(other)
    te = save(f'test{t}', np.concatenate([pos[1::2], perm[:2000]]), t)
    truth = np.array([float(v) for v in open(te + '.txt')])
    for m in (1000, 2000):
        tr = save(f'train{t}_{m}', np.concatenate([pos[0::2], perm[2000:2000 + m - len(pos[0::2])]]), t)
        for k, b in enumerate(a.binaries):
            model, scores = f'{tr}_{k}.json', f'{tr}_{k}.scores'
            subprocess.run([b, 'fit', '--method', a.method, '--features', tr + '.npy', '--sources', a.sources,
                            '--labels', tr + '.txt', '--out', model], check=True, capture_output=True)
            subprocess.run([b, 'predict', '--model', model, '--features', te + '.npy', '--sources', a.sources,
                            '--out', scores], check=True, capture_output=True)
            s = np.array([float(l.split()[0]) for l in open(scores) if l.strip()])
            res.setdefault((m, k), []).append(metrics(s, truth))
            print(f'class {t} m={m} {b}: AUC {res[(m, k)][-1][0]:.4f}, balanced accuracy {100 * res[(m, k)][-1][1]:.2f}', flush=True)
for (m, k), v in sorted(res.items()):
    auc, bacc = np.mean(v, axis=0)
    print(f'm={m} {a.binaries[k]}: mean AUC {auc:.4f}, mean balanced accuracy {100 * bacc:.2f} ({len(v)} classes)')
