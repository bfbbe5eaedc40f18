#!/bin/sh
# memory-cost.sh — measure the peak memory and the cost of a train-sources
# shard and an experiment shard on synthetic data of the paper's largest shape
# (docs/cluster/README.md, "Memory and cost"). Opt-in: it writes a 2.1 GB data
# set and takes tens of minutes of CPU; CI does not run it.
#
#   docs/cluster/memory-cost.sh WORKDIR [CLASSES PER_CLASS DIMS]
#
# Defaults: 1000 classes × 130 examples × 4096 dimensions (2.1 GB of float32);
# the smallest shape it accepts is 25 × 105 (checked first, exit 2: see below).
# Needs /usr/bin/time (Debian package "time"). It checks the targets of
# issue 8 and exits 1 when one is missed:
#   train-sources shard: peak RSS ≤ 2 × (float32 bytes of the rows it trains on) + 300 MB
#   experiment shard:    peak RSS ≤ 2 × (float32 bytes of the rows it reads)     + 300 MB
# A measured command that fails stops it (exit 1), naming the command and
# showing its messages.
set -eu

work=${1:?usage: memory-cost.sh WORKDIR [CLASSES PER_CLASS DIMS]}
classes=${2:-1000}
per=${3:-130}
dims=${4:-4096}
# The smallest shape the measurements below run on, checked before the build
# and the data (a smaller one failed only after them, in the experiment: "the
# negative pool leaves 2 target negatives, want more than 10"). The cheap
# sources of step 2 hold out round(CLASSES × 0.02) classes as the negative
# pool (source.PlanNegatives: at least one, so CLASSES ≥ 25), a tenth of whose
# rows, rounded, are the target negatives, of which the experiment needs more
# than 10 (experiment.TrainNegatives): round(CLASSES × 0.02) × PER_CLASS ≥ 105;
# and a target class needs its largest number of positives (10) and one test
# example: PER_CLASS ≥ 11.
for v in "$classes" "$per" "$dims"; do
	case $v in ''|*[!0-9]*) echo "memory-cost.sh: CLASSES, PER_CLASS and DIMS are whole numbers, got '$classes $per $dims'" >&2; exit 2 ;; esac
done
held=$(((classes * 2 + 50) / 100))
if [ "$classes" -lt 25 ] || [ "$per" -lt 11 ] || [ "$dims" -lt 1 ] || [ $((held * per)) -lt 105 ]; then
	echo "memory-cost.sh: the shape $classes classes × $per examples × $dims dimensions is too small: it needs CLASSES ≥ 25, PER_CLASS ≥ 11, DIMS ≥ 1 and round(CLASSES × 0.02) × PER_CLASS ≥ 105 (the experiment's target negatives; e.g. 25 × 105, 50 × 105, 75 × 53, 250 × 21)" >&2
	exit 2
fi
mkdir -p "$work"
bin="$work/greedytl"
go build -o "$bin" ./cmd/greedytl
data="$work/synth-$classes-$per-$dims"
[ -e "$data/features.npy" ] || nice "$bin" synth --out "$data" --classes "$classes" --per-class "$per" --dims "$dims" --groups $((classes / 20 > 0 ? classes / 20 : 1))

# peak FILE: the peak RSS in MB (10⁶ bytes, as the rows' MB below) that
# /usr/bin/time -v wrote to FILE (in kilobytes of 1,024 bytes).
peak() { awk '/Maximum resident/ {printf "%.0f", $6 * 1024 / 1e6}' "$1"; }
# rate FILE N WHAT: the line of FILE's CPU time (user + system seconds) and
# of N WHAT per core-hour; a command too short for /usr/bin/time, which
# counts hundredths of a second, to measure (a toy shape) gets no rate.
rate() {
	awk -v n="$2" -v what="$3" '/User time|System time/ {s += $4}
	END {
		if (s > 0) printf "  CPU %.2f s: %.1f %s per core-hour\n", s, n * 3600 / s, what
		else printf "  CPU under 0.01 s, too little to measure: no rate of %s per core-hour (measure a larger shape)\n", what
	}' "$1"
}
# timed FILE COMMAND...: run COMMAND under /usr/bin/time -v, its standard
# error and the measurements into FILE; when it fails, say so, show its
# messages (FILE up to time's own lines) and stop. A command killed by a
# signal is said to be, by the signal time names ("Command terminated by
# signal 9"), where time's status (137) hid it: SIGKILL is how the kernel's
# out-of-memory killer, and a cluster's memory limit, end a command.
timed() {
	file=$1
	shift
	/usr/bin/time -v "$@" 2>"$file" && return 0
	status=$?
	how="status $status"
	sig=$(awk '/^Command terminated by signal/ {print $NF; exit}' "$file")
	if [ "$sig" = 9 ]; then
		how="killed by signal 9 (SIGKILL: out of memory?)"
	elif [ -n "$sig" ]; then
		how="killed by signal $sig"
	fi
	echo "memory-cost.sh: failed ($how): $*" >&2
	awk '/^Command (exited with|terminated by)|^\tCommand being timed/ {exit} {print}' "$file" >&2
	exit 1
}
fail=0
check() { # what peakMB rowsMB
	limit=$(awk -v r="$3" 'BEGIN {printf "%.0f", 2 * r + 300}')
	if [ "$2" -le "$limit" ]; then verdict=ok; else verdict=MISSED; fail=1; fi
	echo "$1: peak RSS $2 MB; rows $3 MB of float32; target ≤ $limit MB: $verdict"
}

# 1. A train-sources shard of the paper's plan (a fifth of the classes held
#    out as negatives, 90% of their rows the source negatives), C fixed.
src="$work/sources"
timed "$work/train.time" nice "$bin" train-sources --data "$data" --out "$src" --c-grid 1 --shard 0/400 --workers 2 -q
rows=$(/usr/bin/python3 -c "
import json; ix = json.load(open('$src/sources.json'))
print(len(ix['negatives']['source']) + sum(e['positives'] for e in ix['sources']))")
n=$(/usr/bin/python3 -c "import json; print(len(json.load(open('$src/sources.json'))['sources']))")
check "train-sources --shard 0/400 ($n sources)" "$(peak "$work/train.time")" $((rows * dims * 4 / 1000000))
rate "$work/train.time" "$n" sources

# 2. An experiment shard. Its sources are trained cheaply (a small negative
#    pool, one C, 2 folds, a loose tolerance): the memory and the cost of the
#    cells do not depend on how good the sources are.
cheap="$work/sources-cheap"
nice "$bin" train-sources --data "$data" --out "$cheap" --negative-fraction 0.02 --c-grid 1 --folds 2 --eps 10 -q
run="$work/run-shard-0"
rm -rf "$run"
timed "$work/experiment.time" nice "$bin" experiment --data "$data" --sources "$cheap" --out "$run" \
	--methods greedytl,greedytl-59 --shard 0/100
rowsMB=$(awk '/read [0-9]+ rows/ {for (i = 1; i <= NF; i++) if ($i == "(" || $i ~ /^\(/) {gsub(/\(/, "", $i); print int($i); exit}}' "$work/experiment.time")
cells=$(wc -l <"$run/results-shard-0-of-100.jsonl")
check "experiment --shard 0/100 ($cells cells)" "$(peak "$work/experiment.time")" "$rowsMB"
rate "$work/experiment.time" "$cells" cells
exit $fail
