#!/bin/bash
# greedytl on Slurm: the sources and the leave-one-class-out grid of one
# dataset, each as a job array of N shards, then the merge and the report.
# README.md in this directory explains the flow; slurm-check.sh runs this
# script on a real (local) Slurm cluster in CI.
#
# Run it on the login node, from the directory that holds the data:
#
#   GREEDYTL_DATA=data/coil100/hog GREEDYTL_RESULTS=results bash slurm-array.sh
#
# It submits five jobs, prints their ids and writes them to
# $RESULTS/jobs.txt ("name id" lines); logs go to $RESULTS/logs/:
#   1. greedytl-sources  array 0-(N-1): task i runs train-sources --shard i/N
#                        into $RESULTS/sources (the tasks share it)
#   2. greedytl-index    after 1 succeeds: train-sources once more, unsharded;
#                        it trains nothing and writes the complete index
#   3. greedytl-shards   array 0-(N-1), after 2 succeeds: task i runs
#                        experiment --shard i/N into $RESULTS/shard-i
#   4. greedytl-merge    after 3 ends, even if some tasks failed: checks that
#                        each $RESULTS/shard-i holds this run (experiment
#                        --check), then merges into $RESULTS/merged; its log
#                        lists any missing cells
#   5. greedytl-report   after 4 succeeds: report into $RESULTS/report
#
# Settings, from the environment (passed on to the jobs):
#   GREEDYTL_DATA     dataset folder                        (data/coil100/hog)
#   GREEDYTL_RESULTS  results directory                     (results)
#   GREEDYTL_SEED     seed of the whole run                 (1)
#   GREEDYTL_SHARDS   N, the number of tasks of each array  (8)
#   GREEDYTL_CPUS     CPUs per task                         (4)
#   GREEDYTL_MEM      memory per task (--mem)                (from the data)
#                     Unset, it is README.md's rule — 2 × the bytes of the
#                     rows a process reads, and of their source scores, +
#                     300 MB — for every row of GREEDYTL_DATA scored by a
#                     source per class: the bound of every task's rows (a
#                     train-sources shard reads its classes' and the
#                     negatives, an experiment shard its cells'), in MiB
#                     rounded up. `bash slurm-array.sh mem` prints it:
#                       COIL-100 HOG (7,200 × 800 float32)       342M
#                         (measured peaks 73 and 101 MB)
#                       clinc150 (embedded: 23,700 × 1,024
#                         float64, 150 sources)                   711M
#                         (measured 490 MB train-sources, 504 MB
#                         an experiment shard)
#                       the paper's ImageNet shape (greedytl synth
#                         --classes 1000 --per-class 130 --dims
#                         4096, float32)                         6333M
#                         (the rule for a train-sources shard of 8
#                         is 1.6 GB; 2,689 MB measured unsharded)
#                     A task over its --mem is killed (out of memory) and
#                     Slurm does not requeue it: set a smaller GREEDYTL_MEM
#                     only from the rule for what each task reads.
#   GREEDYTL_TIME     time limit per task                   (04:00:00)
#   GREEDYTL_SOURCES_ARGS     more train-sources flags, e.g. "--c-grid 0.1,1,10"
#   GREEDYTL_EXPERIMENT_ARGS  more experiment flags, e.g. "--methods greedytl,l1-logistic --splits 5"
#   GREEDYTL_SBATCH_ARGS      more sbatch options for every job, e.g. "--partition=short"
# (the *_ARGS are split on spaces). Keep them the same for a rerun: into a
# RESULTS that holds a run of other settings every shard task refuses to
# resume its shard-i (exit 2), and the merge job fails (see merge below)
# rather than merge the earlier run's shards. Give new settings a new
# GREEDYTL_RESULTS.
#
# Every step resumes: a task that is preempted (SIGTERM: greedytl keeps what
# it finished and exits 143; the jobs are submitted with --requeue) or that
# failed continues where it stopped when it runs again. To rerun some
# experiment tasks, then the merge and the report, with the same settings:
#
#   GREEDYTL_DATA=... bash slurm-array.sh rerun 3,5
set -euo pipefail

DATA=${GREEDYTL_DATA:-data/coil100/hog}
RESULTS=${GREEDYTL_RESULTS:-results}
SEED=${GREEDYTL_SEED:-1}
N=${GREEDYTL_SHARDS:-8}
CPUS=${GREEDYTL_CPUS:-4}
MEM=${GREEDYTL_MEM:-} # unset: mem_rule, on the login node
TIME=${GREEDYTL_TIME:-04:00:00}
read -r -a SOURCES_ARGS <<<"${GREEDYTL_SOURCES_ARGS:-}"
read -r -a EXPERIMENT_ARGS <<<"${GREEDYTL_EXPERIMENT_ARGS:-}"
read -r -a SBATCH_ARGS <<<"${GREEDYTL_SBATCH_ARGS:-}"

# submit NAME SBATCH-OPTIONS... -- SCRIPT-ARGS...: submit this script as job
# NAME, record it in jobs.txt and print its id. The environment (the
# settings above) goes with it.
submit() {
  local name=$1; shift
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  local id
  id=$(sbatch --parsable --job-name="$name" --export=ALL,GREEDYTL_SHARDS="$N" \
    --cpus-per-task="$CPUS" --mem="$MEM" --time="$TIME" --requeue --open-mode=append \
    ${SBATCH_ARGS[@]+"${SBATCH_ARGS[@]}"} ${opts[@]+"${opts[@]}"} "$SCRIPT" "$@")
  id=${id%%;*}
  echo "$name $id" >>"$RESULTS/jobs.txt"
  echo "$id"
}

# mem_rule prints the --mem of every task when GREEDYTL_MEM is unset (see
# the header): 2 × (the bytes of features.npy + rows × classes × 8 bytes of
# scores) + 300 MB, in MiB rounded up; the embedded clinc150 is 23,700 rows
# of 1,024 float64 values and 150 sources. It fails, saying so, for a
# dataset it cannot size.
mem_rule() {
  local bytes rows classes
  if [ "$DATA" = clinc150 ]; then
    bytes=$((23700 * 1024 * 8)) rows=23700 classes=150
  else
    local f=$DATA/features.npy
    if ! [ -f "$f" ] || ! [ -f "$DATA/classes.txt" ]; then
      echo "slurm-array.sh: $DATA holds no features.npy and classes.txt to size the tasks' memory from: set GREEDYTL_MEM (README.md's memory rule)" >&2
      return 1
    fi
    bytes=$(wc -c <"$f")
    rows=$(head -c 4096 "$f" | LC_ALL=C tr -c '[:print:]' ' ' | sed -n "s/.*'shape': *(\([0-9][0-9]*\).*/\1/p")
    classes=$(grep -c '' "$DATA/classes.txt")
    if [ -z "$rows" ]; then
      echo "slurm-array.sh: $f: no shape in its header to size the tasks' memory from: set GREEDYTL_MEM (README.md's memory rule)" >&2
      return 1
    fi
  fi
  echo "$(((2 * (bytes + rows * classes * 8) + 300000000 + 1048575) / 1048576))M"
}

# submit_experiment TASKS AFTER: the experiment array (its tasks TASKS, after
# job AFTER succeeds when given), then the merge and the report.
submit_experiment() {
  local tasks=$1 after=$2 dep=()
  [ -z "$after" ] || dep=(--dependency="afterok:$after")
  local arr mrg rep
  arr=$(submit greedytl-shards --array="$tasks" ${dep[@]+"${dep[@]}"} --output="$RESULTS/logs/shard-%a.log" -- shard)
  mrg=$(submit greedytl-merge --dependency="afterany:$arr" --output="$RESULTS/logs/merge.log" -- merge)
  rep=$(submit greedytl-report --dependency="afterok:$mrg" --output="$RESULTS/logs/report.log" -- report)
  echo "submitted: shards $arr, merge $mrg, report $rep"
}

case "${1:-submit}" in
submit | rerun)
  # On the login node.
  case "$N" in '' | *[!0-9]* | 0) echo "slurm-array.sh: GREEDYTL_SHARDS=$N, want a positive number" >&2; exit 2 ;; esac
  SCRIPT=$(readlink -f "$0")
  [ -n "$MEM" ] || MEM=$(mem_rule) || exit 2
  echo "memory per task: $MEM"
  mkdir -p "$RESULTS/logs"
  if [ "${1:-submit}" = rerun ]; then
    submit_experiment "${2:?usage: slurm-array.sh rerun TASKS (e.g. 3,5)}" ""
    exit 0
  fi
  : >"$RESULTS/jobs.txt"
  src=$(submit greedytl-sources --array="0-$((N - 1))" --output="$RESULTS/logs/sources-%a.log" -- sources)
  idx=$(submit greedytl-index --dependency="afterok:$src" --output="$RESULTS/logs/index.log" -- index)
  echo "submitted: sources $src, index $idx"
  submit_experiment "0-$((N - 1))" "$idx"
  ;;

mem)
  # The --mem the jobs get (GREEDYTL_MEM, or mem_rule's from the data).
  [ -n "$MEM" ] || MEM=$(mem_rule) || exit 2
  echo "$MEM"
  ;;

# In the jobs. --shard auto/N reads the task's index from SLURM_ARRAY_TASK_ID.
sources)
  export GOMAXPROCS=${SLURM_CPUS_PER_TASK:-1}
  exec greedytl train-sources --data "$DATA" --seed "$SEED" ${SOURCES_ARGS[@]+"${SOURCES_ARGS[@]}"} \
    --shard "auto/$N" --out "$RESULTS/sources"
  ;;
index)
  exec greedytl train-sources --data "$DATA" --seed "$SEED" ${SOURCES_ARGS[@]+"${SOURCES_ARGS[@]}"} --out "$RESULTS/sources"
  ;;
shard)
  export GOMAXPROCS=${SLURM_CPUS_PER_TASK:-1}
  exec greedytl experiment --data "$DATA" --sources "$RESULTS/sources" --seed "$SEED" ${EXPERIMENT_ARGS[@]+"${EXPERIMENT_ARGS[@]}"} \
    --shard "auto/$N" --out "$RESULTS/shard-$SLURM_ARRAY_TASK_ID"
  ;;
merge)
  # The merge runs after the shard tasks end, failed or not (afterany), so
  # that its log lists what is missing. But a task that found its shard-i
  # holding a run of other settings (a resubmission into this RESULTS with
  # other GREEDYTL_EXPERIMENT_ARGS, say) refused it and left the earlier
  # run's shard there: merged, it would give the earlier run, and the
  # report job its report. So first ask greedytl, which owns the
  # comparison of settings, whether the first shard directory that holds a
  # run holds this one, with that shard task's own command line (experiment
  # --check: it runs and writes nothing); a refusal (exit 2, naming the
  # setting that differs) fails this job, and the report job does not run.
  # One check is enough: merge refuses shards that are not one run (exit
  # 2), so a shard of this run beside an earlier run's fails it too; and
  # each check reads the dataset, which one check reads once.
  for ((i = 0; i < N; i++)); do
    if [[ -e "$RESULTS/shard-$i/run.json" ]]; then
      greedytl experiment --data "$DATA" --sources "$RESULTS/sources" --seed "$SEED" ${EXPERIMENT_ARGS[@]+"${EXPERIMENT_ARGS[@]}"} \
        --shard "$i/$N" --out "$RESULTS/shard-$i" --check
      break
    fi
  done
  exec greedytl merge "$RESULTS"/shard-* --out "$RESULTS/merged"
  ;;
report)
  exec greedytl report "$RESULTS/merged" --out "$RESULTS/report"
  ;;
*)
  echo "usage: slurm-array.sh [submit | rerun TASKS | mem]" >&2
  exit 2
  ;;
esac
