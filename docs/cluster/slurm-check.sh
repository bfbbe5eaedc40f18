#!/bin/bash
# Runs the Slurm recipe (slurm-array.sh) end to end on a running Slurm
# cluster — in CI the local one of slurm-local.sh — and checks its result:
#
#   bash docs/cluster/slurm-local.sh up
#   bash docs/cluster/slurm-check.sh
#   bash docs/cluster/slurm-local.sh down
#
# It builds greedytl, writes a small synth dataset, submits slurm-array.sh
# with 3 shards (train-sources as an array of 3, the index job, experiment as
# an array of 3, merge, report), waits for the jobs (polling squeue), checks
# that every job completed, and then runs the same settings in one process
# (train-sources, experiment) and checks that the merged records are the
# single-process run's, field by field but for fit_seconds, and that the
# source models are byte-identical. Then it preempts a running experiment
# job ("scontrol requeue": SIGTERM) and checks that greedytl kept its
# finished cells and that the job, started again by Slurm, resumed from
# them and completed the grid. Last it submits slurm-array.sh again into the
# same results directory with other experiment settings: every shard task
# refuses its shard (a run of the first settings), and the check asserts
# that the merge job fails (its experiment --check names the setting that
# differs), that the report job does not run, and that the merged records
# and the report are the first run's, untouched. Exit status 0 when all
# holds.
#
# The work directory is under $TMPDIR (or /tmp) and is removed at the end
# unless GREEDYTL_KEEP=1. GREEDYTL_CHECK_TIMEOUT (seconds, default 600)
# bounds the wait for the jobs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/greedytl-slurm.XXXXXX")
if [ "${GREEDYTL_KEEP:-0}" = 1 ]; then
  echo "slurm-check: work directory $work (kept)"
else
  trap 'rm -rf "$work"' EXIT
fi
say() { echo "slurm-check: $*" >&2; }
fail() {
  say "FAILED: $*"
  for f in "$work"/results/logs/*.log; do
    [ -e "$f" ] && { echo "--- $f"; tail -n 20 "$f"; } >&2
  done
  exit 1
}

command -v sbatch >/dev/null || fail "sbatch not found: start a cluster first (slurm-local.sh up)"
(cd "$repo" && go build -o "$work/bin/greedytl" ./cmd/greedytl)
export PATH="$work/bin:$PATH"
cd "$work"

# The settings, the same for the Slurm jobs and the single process.
greedytl synth --out data --classes 24 --per-class 30 --dims 16 --groups 4 --seed 5 --quiet
export GREEDYTL_DATA=data GREEDYTL_RESULTS=results GREEDYTL_SEED=7 GREEDYTL_SHARDS=3
export GREEDYTL_CPUS=1 GREEDYTL_MEM=500M GREEDYTL_TIME=00:10:00
export GREEDYTL_SOURCES_ARGS="--c-grid 0.1,1,10 --folds 3"
export GREEDYTL_EXPERIMENT_ARGS="--positives 2,5 --splits 2 --methods greedytl,greedytl-59,no-transfer,l1-logistic"

start=$SECONDS
bash "$here/slurm-array.sh"
ids=$(awk '{print $2}' results/jobs.txt | paste -sd, -)
[ -n "$ids" ] || fail "slurm-array.sh wrote no job ids"

# Wait for every job to leave the queue (squeue lists pending and running
# jobs; finished ones drop out). A job whose dependency can no longer be met
# would wait for ever: fail at once.
deadline=$((SECONDS + ${GREEDYTL_CHECK_TIMEOUT:-600}))
while :; do
  queue=$(squeue -h -j "$ids" -o '%i %j %T %r' 2>/dev/null || true)
  [ -n "$queue" ] || break
  if grep -q DependencyNeverSatisfied <<<"$queue"; then
    fail "a job waits for a dependency that failed:"$'\n'"$queue"
  fi
  [ $SECONDS -lt $deadline ] || fail "timed out waiting for the jobs:"$'\n'"$queue"
  sleep 1
done
say "the jobs left the queue after $((SECONDS - start)) s"

# Every job, and every task of the arrays, must have completed.
states=$(for id in ${ids//,/ }; do
  scontrol show job -o "$id" | sed -E 's/.*(JobId=[0-9]+).*(JobName=[^ ]+).*(JobState=[A-Z_]+).*/\1 \2 \3/'
done)
echo "$states" >&2
tasks=$(grep -c 'JobState=' <<<"$states")
done=$(grep -c 'JobState=COMPLETED' <<<"$states")
want=$((3 + 1 + 3 + 1 + 1)) # 3 source tasks, the index, 3 experiment tasks, the merge, the report
[ "$tasks" = "$want" ] && [ "$done" = "$want" ] || fail "$done of $tasks jobs and array tasks completed, want $want"

[ -s results/merged/results.jsonl ] || fail "no merged results"
[ -s results/report/report.md ] || fail "no report"
grep -q '"shard"' results/shard-0/run.json || fail "shard-0 ran no shard"

# The same settings in one process.
read -r -a sources_args <<<"$GREEDYTL_SOURCES_ARGS"
read -r -a experiment_args <<<"$GREEDYTL_EXPERIMENT_ARGS"
greedytl train-sources --data data --seed "$GREEDYTL_SEED" ${sources_args[@]+"${sources_args[@]}"} --out single/sources --quiet
greedytl experiment --data data --sources single/sources --seed "$GREEDYTL_SEED" ${experiment_args[@]+"${experiment_args[@]}"} \
  --out single/run --quiet

# Compare: the models byte for byte, the records but for fit_seconds.
for m in single/sources/models/*.model; do
  cmp -s "$m" "results/sources/models/$(basename "$m")" || fail "source model $(basename "$m") differs"
done
[ "$(ls results/sources/models/*.model | wc -l)" = "$(ls single/sources/models/*.model | wc -l)" ] ||
  fail "the Slurm run has another number of source models"
normalize() { sed -E 's/"fit_seconds":[^,}]*/"fit_seconds":0/' "$1" | sort; }
cells=$(wc -l <single/run/results.jsonl)
if ! diff <(normalize results/merged/results.jsonl) <(normalize single/run/results.jsonl) >diff.txt; then
  head -n 20 diff.txt >&2
  fail "the merged records differ from the single-process run's"
fi
say "OK: $(ls single/sources/models/*.model | wc -l) sources and $cells cells; the Slurm arrays' merged records equal the single-process run's (all fields but fit_seconds); $((SECONDS - start)) s"

# Preemption: Slurm stops a running experiment job ("scontrol requeue"
# sends SIGTERM, as preemption does); greedytl must keep its finished
# cells and say so, and the job, started again by Slurm, must resume from
# them and complete the grid.
start=$SECONDS
pid=$(sbatch --parsable --job-name=greedytl-preempt --requeue --open-mode=append --cpus-per-task=1 --mem=500M \
  --time=00:10:00 --output=preempt.log \
  --wrap "exec greedytl experiment --data data --sources results/sources --seed $GREEDYTL_SEED --positives 2,5,10 --splits 2 --methods greedytl,l1-logistic,elastic-net,no-transfer --workers 1 --out preempt")
deadline=$((SECONDS + 120))
until [ -s preempt/results.jsonl ]; do
  [ -n "$(squeue -h -j "$pid")" ] || fail "the preemption job ended before it could be stopped"
  [ $SECONDS -lt $deadline ] || fail "the preemption job wrote no cell in 120 s"
  sleep 0.2
done
scontrol requeue "$pid"
deadline=$((SECONDS + ${GREEDYTL_CHECK_TIMEOUT:-600}))
while [ -n "$(squeue -h -j "$pid" 2>/dev/null)" ]; do
  [ $SECONDS -lt $deadline ] || fail "timed out waiting for the requeued job"
  sleep 1
done
cat preempt.log >&2
state=$(scontrol show job -o "$pid" | grep -o 'JobState=[A-Z_]* .*Restarts=[0-9]*' | sed -E 's/(JobState=[A-Z_]+).*(Restarts=[0-9]+)/\1 \2/')
[ "$state" = "JobState=COMPLETED Restarts=1" ] || fail "the requeued job: $state, want JobState=COMPLETED Restarts=1"
grep -q 'greedytl: stopped by SIGTERM' preempt.log || fail "greedytl did not say it was stopped by SIGTERM"
kept=$(sed -nE 's/^stopped after ([0-9]+) new cells, kept.*/\1/p' preempt.log)
resumed=$(sed -nE 's/^resuming: ([0-9]+) of [0-9]+ cells already done/\1/p' preempt.log)
[ -n "$kept" ] && [ "$kept" -gt 0 ] && [ "$resumed" = "$kept" ] ||
  fail "stopped with ${kept:-no} cells kept, resumed with ${resumed:-none} done"
greedytl merge preempt --out preempt-merged >&2 || fail "the resumed run is not complete"
say "OK: preempted by Slurm with $kept cells done, requeued, resumed and completed; $((SECONDS - start)) s"

# Other settings, the same results directory: every shard task refuses its
# shard-i (it holds the first run, exit 2), and the merge job, which runs
# after them all the same (afterany), must fail on its check (experiment
# --check) rather than merge the first run's shards, and the report job
# must not run: the merged records and the report stay the first run's.
# (The merge merged them, and the report job reported them as this run.)
start=$SECONDS
before=$(sha256sum results/merged/results.jsonl results/report/report.md)
GREEDYTL_EXPERIMENT_ARGS=${GREEDYTL_EXPERIMENT_ARGS/--splits 2/--splits 3} bash "$here/slurm-array.sh"
ids=$(awk '{print $2}' results/jobs.txt | paste -sd, -)
merge=$(awk '$1 == "greedytl-merge" {print $2}' results/jobs.txt)
report=$(awk '$1 == "greedytl-report" {print $2}' results/jobs.txt)
[ -n "$merge" ] && [ -n "$report" ] || fail "slurm-array.sh wrote no merge or report job id"
# Wait until every job but the report has left the queue, and the report
# is held for ever (or cancelled, where Slurm kills invalid dependencies).
deadline=$((SECONDS + ${GREEDYTL_CHECK_TIMEOUT:-600}))
while :; do
  queue=$(squeue -h -j "$ids" -o '%i %j %T %r' 2>/dev/null || true)
  others=$(grep -v "^$report " <<<"$queue" || true)
  held=$(grep "^$report " <<<"$queue" || true)
  if [ -z "$others" ] && { [ -z "$held" ] || grep -q DependencyNeverSatisfied <<<"$held"; }; then break; fi
  [ $SECONDS -lt $deadline ] || fail "timed out waiting for the resubmitted jobs:"$'\n'"$queue"
  sleep 1
done
mstate=$(scontrol show job -o "$merge" | grep -o 'JobState=[A-Z_]* .*ExitCode=[0-9:]*' | sed -E 's/(JobState=[A-Z_]+).*(ExitCode=[0-9:]+)/\1 \2/')
rstate=$(scontrol show job -o "$report" | grep -o 'JobState=[A-Z_]*')
scancel "$report" 2>/dev/null || true
[ "$mstate" = "JobState=FAILED ExitCode=2:0" ] || fail "the merge of shards of other settings: $mstate, want JobState=FAILED ExitCode=2:0"
case "$rstate" in JobState=PENDING | JobState=CANCELLED) ;; *) fail "the report job after a failed merge: $rstate, want it never run" ;; esac
grep -q 'results/shard-0 holds a run with other settings (splits: 2 vs 3)' results/logs/merge.log ||
  fail "the merge job's log does not say that shard-0 holds a run with other settings (splits: 2 vs 3)"
[ "$(sha256sum results/merged/results.jsonl results/report/report.md)" = "$before" ] ||
  fail "the merged records or the report changed"
say "OK: resubmitted with other settings into the same results, the merge job failed on its check (splits: 2 vs 3) and the report job did not run; $((SECONDS - start)) s"
