#!/bin/sh
# l0_fp.sh -- writes the L0 false-positive workload: many overlapping L0 SSTs
# probed with absent keys inside their ranges, so every get asks every SST's
# bloom filter and the measured FP rate can be set against SPEC 5's expected rate.
#
# Usage: sh workloads/gen/l0_fp.sh [KEYS] [SSTS] > l0_fp.wl
#        (defaults: KEYS=200000, SSTS=10).  Deterministic: same arguments,
#        same bytes.  POSIX sh and awk only.
#
# Shape: key k (0 <= k < KEYS) is spelled "k" followed by 2*k in 9 zero-padded
# digits, so present keys are even.  SST i holds the keys with k % SSTS == i
# (puts, then an explicit flush; the memtable never fills and compaction
# never triggers), so every SST spans nearly the whole key range.  Then one
# get for every odd number between the present keys (KEYS-1 gets, all absent,
# all inside the range).
set -eu

keys=${1:-200000}
ssts=${2:-10}

case $keys in ''|*[!0-9]*) echo "l0_fp.sh: KEYS must be a positive integer, got '$keys'" >&2; exit 2 ;; esac
case $ssts in ''|*[!0-9]*) echo "l0_fp.sh: SSTS must be a positive integer, got '$ssts'" >&2; exit 2 ;; esac
if [ "$keys" -lt 1 ] || [ "$keys" -gt 499999999 ]; then
    echo "l0_fp.sh: KEYS must be 1..499999999 (9 digits for 2*k), got $keys" >&2; exit 2
fi
if [ "$ssts" -lt 1 ] || [ "$ssts" -gt "$keys" ]; then
    echo "l0_fp.sh: SSTS must be 1..KEYS, got $ssts" >&2; exit 2
fi

awk -v keys="$keys" -v ssts="$ssts" '
# Expected FP rate of the cache-local bloom of SPEC 5 for m hashes at
# 10 bits/key (mb = 10000 millibits, so k = 6 probes).
function expected_fp(m,    lines, x, s) {
    lines = int((m * 10000 + 511999) / 512000)
    if (lines == 0) return 1
    x = m / lines
    s = sqrt(x)
    return (f(x + s) + f(x - s)) / 2
}
function f(x) { return (1 - exp(-6 * x / 512)) ^ 6 }

BEGIN {
    # Each SST holds ceil or floor of keys/ssts keys; average their rates.
    sum = 0
    for (i = 0; i < ssts; i++) sum += expected_fp(int((keys - i + ssts - 1) / ssts))
    printf "# L0 false-positive shape (sh workloads/gen/l0_fp.sh %d %d).\n", keys, ssts
    printf "#\n"
    printf "# Present keys are \"k\" and an even number in 9 digits (k000000000,\n"
    printf "# k000000002, ...), %d of them.  They are written as %d L0 SSTs that\n", keys, ssts
    printf "# all overlap: key number j goes to SST j %% %d, so each SST spans nearly\n", ssts
    printf "# the whole range.  Nothing is compacted (l0_trigger and max_runs are out\n"
    printf "# of reach) and the memtable never fills (explicit flushes only).\n"
    printf "# Then %d gets of absent keys, the odd numbers between the present ones:\n", keys - 1
    printf "# each considers every SST whose range covers it, and any MAYBE verdict\n"
    printf "# is a false positive.\n"
    printf "#\n"
    printf "# bloom(bits=10) is the cache-local bloom of SPEC 5 (k = 6 probes).\n"
    printf "# Expected point FP rate per considered SST, by the SPEC 5 formula for\n"
    printf "# these SST sizes: %.4f%% (about 0.95%% at 10 bits/key for large SSTs).\n", 100 * sum / ssts
    print "filterlab-workload 1"
    print "open policies=\"bloom(bits=10)\" memtable_bytes=1073741824 l0_trigger=1000000 max_runs=1000000"
    for (i = 0; i < ssts; i++) {
        for (k = i; k < keys; k += ssts) printf "put k%09d v\n", 2 * k
        print "flush"
    }
    for (k = 0; k < keys - 1; k++) printf "get k%09d\n", 2 * k + 1
}'
