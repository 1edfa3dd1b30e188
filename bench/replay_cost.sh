#!/bin/sh
# replay_cost.sh -- what checking costs: replays two workloads with the
# checker and with --no-check, RUNS times each (interleaved, so both see the
# same machine), and prints the median times, ops/s and their ratio:
#   mixed  OPS mixed ops (workloads/gen/mixed.sh)
#   l0     the FP shape, 10 overlapping L0 SSTs probed by every get
#          (workloads/gen/l0_fp.sh): the checker's worst case, with ten
#          probe events to verify per get
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

elapsed() {   # the replay's own elapsed_s from --json
    "$FILTERLAB" replay "$wl" --json "$@" > "$wl.t" || { echo "replay failed" >&2; exit 1; }
    sed -n 's/.*"elapsed_s":\([0-9.]*\).*/\1/p' "$wl.t"
}
median() {
    tr ' ' '\n' | grep . | sort -n |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "benchmark,ops,runs,unchecked_s,checked_s,ratio" > "$out/replay_cost.csv"
for shape in mixed l0; do
    if [ "$shape" = mixed ]; then sh workloads/gen/mixed.sh "$ops" 1 > "$wl"
    else sh workloads/gen/l0_fp.sh > "$wl"; fi
    n=$(grep -v '^#' "$wl" | wc -l)
    n=$((n - 1))                       # the header line
    checked="" unchecked=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        unchecked="$unchecked $(elapsed --no-check)"
        checked="$checked $(elapsed)"
        i=$((i + 1))
    done
    mu=$(echo "$unchecked" | median)
    mc=$(echo "$checked" | median)
    awk -v shape="$shape" -v ops="$n" -v mu="$mu" -v mc="$mc" -v runs="$runs" 'BEGIN {
        printf "replay %-5s %7d ops, median of %d: --no-check %6.3f s (%7.0f ops/s), checked %6.3f s (%7.0f ops/s), ratio %.2fx (target <= 3x)\n",
               shape, ops, runs, mu, ops / mu, mc, ops / mc, mc / mu
    }'
    awk -v shape="$shape" -v ops="$n" -v mu="$mu" -v mc="$mc" -v runs="$runs" \
        'BEGIN { printf "replay_cost_%s,%d,%d,%.4f,%.4f,%.3f\n", shape, ops, runs, mu, mc, mc / mu }' \
        >> "$out/replay_cost.csv"
done
