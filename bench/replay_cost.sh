#!/bin/sh
# replay_cost.sh -- what checking costs: replays one mixed workload with the
# checker and with --no-check, RUNS times each (interleaved, so both see the
# same machine), and prints the median times, ops/s and their ratio.
#   sh bench/replay_cost.sh [OPS] [RUNS]      (defaults 1000000 and 3)
# Target (issue 3): checked <= 3x unchecked.  Writes bench/out/replay_cost.csv.
set -eu
ops=${1:-1000000}
runs=${2:-3}
FILTERLAB=${FILTERLAB:-build/filterlab}
out=bench/out
mkdir -p "$out"
wl=$(mktemp "${TMPDIR:-/tmp}/fl-bench.XXXXXX")
trap 'rm -f "$wl" "$wl.t"' EXIT
sh workloads/gen/mixed.sh "$ops" 1 > "$wl"

elapsed() {   # the replay's own elapsed_s from --json
    "$FILTERLAB" replay "$wl" --json "$@" > "$wl.t" || { echo "replay failed" >&2; exit 1; }
    sed -n 's/.*"elapsed_s":\([0-9.]*\).*/\1/p' "$wl.t"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

checked="" unchecked=""
i=0
while [ "$i" -lt "$runs" ]; do
    unchecked="$unchecked $(elapsed --no-check)"
    checked="$checked $(elapsed)"
    i=$((i + 1))
done
mu=$(echo "$unchecked" | tr ' ' '\n' | grep . | median)
mc=$(echo "$checked" | tr ' ' '\n' | grep . | median)
awk -v ops="$ops" -v mu="$mu" -v mc="$mc" -v runs="$runs" 'BEGIN {
    printf "replay of %d mixed ops, median of %d runs\n", ops, runs
    printf "  --no-check  %8.3f s  %10.0f ops/s\n", mu, ops / mu
    printf "  checked     %8.3f s  %10.0f ops/s\n", mc, ops / mc
    printf "  ratio       %8.2fx   (target <= 3x)\n", mc / mu
}'
{ echo "benchmark,ops,runs,unchecked_s,checked_s,ratio"
  awk -v ops="$ops" -v mu="$mu" -v mc="$mc" -v runs="$runs" \
      'BEGIN { printf "replay_cost,%d,%d,%.4f,%.4f,%.3f\n", ops, runs, mu, mc, mc / mu }'; } \
    > "$out/replay_cost.csv"
