#!/bin/bash
# greedytl on Slurm: the leave-one-class-out grid of one dataset as a job
# array of 8 shards, between a sources job and a dependent merge job.
# README.md in this directory explains the flow.
#
# Run it on the login node, from the directory that holds the data:
#
#   GREEDYTL_DATA=data/coil100/hog GREEDYTL_RESULTS=results bash slurm-array.sh
#
# It submits three jobs and prints their ids:
#   1. greedytl-sources  train-sources into $RESULTS/sources (once, for all shards)
#   2. greedytl-shards   this script again, as the array below (after 1 succeeds):
#                        task i runs shard i of N into $RESULTS/shard-i
#   3. greedytl-merge    merge of the shards into $RESULTS/merged (after 2 ends,
#                        even if some tasks failed: its output lists the missing
#                        cells; resubmitting the failed tasks with
#                        "sbatch --array=<ids> slurm-array.sh" resumes them)
#
# The number of shards N is the size of the array: change --array=0-7 below
# (keep it 0-(N-1); a throttle such as 0-7%4 is fine). Everything is
# resumable: a task that is preempted or requeued continues where it stopped.
#
#SBATCH --job-name=greedytl-shards
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
#SBATCH --mem=3G
#SBATCH --time=04:00:00
#SBATCH --requeue
#SBATCH --output=greedytl-shard-%a.log

set -euo pipefail

DATA=${GREEDYTL_DATA:-data/coil100/hog}
RESULTS=${GREEDYTL_RESULTS:-results}
SEED=${GREEDYTL_SEED:-1}

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  # On the login node: submit the three jobs (the environment, and so the
  # settings above, is passed on to them).
  src=$(sbatch --parsable --job-name=greedytl-sources --cpus-per-task=8 --mem=4G --time=02:00:00 \
    --output=greedytl-sources.log \
    --wrap "greedytl train-sources --data $DATA --seed $SEED --out $RESULTS/sources --quiet")
  arr=$(sbatch --parsable --dependency="afterok:$src" "$0")
  mrg=$(sbatch --parsable --dependency="afterany:$arr" --job-name=greedytl-merge --time=00:30:00 \
    --output=greedytl-merge.log \
    --wrap "greedytl merge $RESULTS/shard-* --out $RESULTS/merged")
  echo "submitted: sources $src, shards $arr, merge $mrg (see greedytl-merge.log)"
  exit 0
fi

# In array task i: shard i of N, N being the array's size.
N=${SLURM_ARRAY_TASK_COUNT:?}
if [ "${SLURM_ARRAY_TASK_MIN:-0}" != 0 ] || [ "${SLURM_ARRAY_TASK_MAX:-$((N - 1))}" != $((N - 1)) ]; then
  echo "slurm-array.sh: submit the array as --array=0-$((N - 1)): shard indices run from 0 to N-1" >&2
  exit 2
fi
export GOMAXPROCS=${SLURM_CPUS_PER_TASK:-1}
exec greedytl experiment --data "$DATA" --sources "$RESULTS/sources" --seed "$SEED" \
  --shard "auto/$N" --out "$RESULTS/shard-$SLURM_ARRAY_TASK_ID" --quiet
