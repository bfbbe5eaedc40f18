#!/usr/bin/env bash
# Reproduces docs/results: the paper's protocol on COIL-100 (HOG and colour
# histograms) and CLINC150. Run from the repository root. CLINC150 is embedded
# in the program; the COIL-100 dataset folders are read from
# $GREEDYTL_SHARED_DATA/coil100/{hog,colorhist} (default ../shared/data, beside
# the repository; docs/results/README.md, "Data", says where they come from
# and how to make them). A data set whose folder is absent is skipped, with a
# message, and its report left as it is. WORK holds the large intermediate
# files (sources, JSONL results); docs/results/<dataset>/ receives the reports.
#
#   bash docs/results/run.sh [WORK]
#
# Every step is resumable: rerun the script after an interruption.
# SPLITS (default 10) and NOISE_SPLITS (default 3, as published) set the
# number of random splits of the main grid and of the noise study; report
# reads the two runs side by side.
set -euo pipefail
WORK=${1:-/tmp/greedytl-results}
DATA=${GREEDYTL_SHARED_DATA:-../shared/data}
SPLITS=${SPLITS:-10}
NOISE_SPLITS=${NOISE_SPLITS:-3}
# The noise study compares the feature-selection methods (the paper's Fig. 2).
NOISE_METHODS=greedytl,greedytl-59,forward-reg,rls-srcfeat,l1-logistic,elastic-net,no-transfer
mkdir -p "$WORK"
G=${GREEDYTL_BIN:-}
if [ -z "$G" ]; then
  go build -o "$WORK/greedytl" ./cmd/greedytl
  G="$WORK/greedytl"
fi

# The data sets to run: NAME and DATA of each whose dataset folder exists
# (clinc150 is embedded, always there).
names=() datas=()
dataset() {
  if [ "$2" != clinc150 ] && [ ! -f "$2/features.npy" ]; then
    echo "run.sh: skipping $1: no dataset folder at $2 (set GREEDYTL_SHARED_DATA; see docs/results/README.md, \"Data\")" >&2
    return
  fi
  names+=("$1") datas+=("$2")
}
dataset coil100-hog "$DATA/coil100/hog"
dataset coil100-colorhist "$DATA/coil100/colorhist"
dataset clinc150 clinc150
sets=("${!names[@]}")

# 1. Sources: one linear SVM per class against the source negatives
#    (COIL-100: 20 random held-out classes; CLINC150: its out-of-scope queries).
for k in "${sets[@]}"; do
  "$G" train-sources --data "${datas[k]}" --out "$WORK/${names[k]}/sources" --seed 1 -q
done
# 2. Every method, no noise, 2/5/10 positives.
for k in "${sets[@]}"; do
  "$G" experiment --data "${datas[k]}" --sources "$WORK/${names[k]}/sources" --out "$WORK/${names[k]}/main" \
    --splits "$SPLITS" --seed 1 -q
done
# 3. The noise study: 10, 100 and 1000 N(0,1) dimensions appended.
for k in "${sets[@]}"; do
  "$G" experiment --data "${datas[k]}" --sources "$WORK/${names[k]}/sources" --out "$WORK/${names[k]}/noise" \
    --splits "$NOISE_SPLITS" --noise 10,100,1000 --methods "$NOISE_METHODS" --seed 1 -q
done
# 4. Reports.
for k in "${sets[@]}"; do
  runs=("$WORK/${names[k]}/main")
  [ -f "$WORK/${names[k]}/noise/run.json" ] && runs+=("$WORK/${names[k]}/noise")
  "$G" report "${runs[@]}" --out "docs/results/${names[k]}"
  "$G" report "${runs[@]}" --json > "docs/results/${names[k]}/summary.json"
done

# 5. Opt-in (NWAY=1): the N-way few-shot protocol (issue 15) on the same data
#    and sources: 5 and 20 ways, 1, 2, 5 and 10 shots, EPISODES (default 10)
#    episodes, 15 test examples per class. The native multi-class methods run
#    on every cell; NWAY_OVR (default: the cheap binary methods) run one
#    against the rest in a run of their own, which the report reads beside it.
#    docs/results/nway/ receives the report of the data sets run.
#    NWAY_SLOW (default none; e.g. greedytl-sp,multikt-l2,dictionary,
#    multikt-l1,dam,elastic-net,stacked-logistic,l1-logistic, cheapest first)
#    runs further binary methods one against the rest, each in a part of its
#    own (nway-ovr-METHOD), so that a method that finishes is reported whole
#    while a slower one still runs.
if [ "${NWAY:-0}" = 1 ]; then
  EPISODES=${EPISODES:-10}
  NWAY_NATIVE=greedytl-nway,multinomial-logistic,nearest-mean,simpleshot,nearest-neighbour
  NWAY_OVR=${NWAY_OVR:-no-transfer,rls-srcfeat,greedytl,greedytl-59,forward-reg,average-kt,logme-source}
  nruns=()
  # nway_part K PART METHODS: the methods on data set K into WORK/NAME/nway-PART.
  nway_part() {
    "$G" experiment --data "${datas[$1]}" --name "${names[$1]}" --sources "$WORK/${names[$1]}/sources" \
      --out "$WORK/${names[$1]}/nway-$2" --protocol nway --ways 5,20 --shots 1,2,5,10 \
      --splits "$EPISODES" --methods "$3" --seed 1 -q
    nruns+=("$WORK/${names[$1]}/nway-$2")
  }
  for k in "${sets[@]}"; do
    nway_part "$k" native "$NWAY_NATIVE"
    nway_part "$k" ovr "$NWAY_OVR"
  done
  IFS=, read -r -a slow <<< "${NWAY_SLOW:-}"
  for m in "${slow[@]}"; do
    for k in "${sets[@]}"; do
      nway_part "$k" "ovr-$m" "$m"
    done
  done
  "$G" report "${nruns[@]}" --out docs/results/nway
  "$G" report "${nruns[@]}" --json > docs/results/nway/summary.json
fi
