#!/bin/sh
# group_suffix.sh -- writes the report workload: GroupId||Suffix keys (the
# RFC's prefix-bloom case) written group by group over time, so the L0 SSTs
# and the sorted runs all span the whole key range while each group lives in
# one or two SSTs; then many reads of absent keys and absent groups, for
# tight false-positive estimates, and of present ones.
#
# Usage: sh workloads/gen/group_suffix.sh [GROUPS] [SEED] > group_suffix.wl
#        (defaults: GROUPS=3000, SEED=1).  Deterministic: same arguments,
#        same bytes (POSIX sh and awk; the random numbers are Park-Miller,
#        exact in double arithmetic).  The shipped report workload,
#        reports/workloads/group_suffix.wl, is this script's default output
#        (tests/cli/report.sh checks that it still is).
#
# Shape (all counts scale with GROUPS):
#   key    "g" 4 digits (the 5-byte group id, extractor fixed:5), ":", and a
#          5-digit even suffix: g0123:00042.  GROUPS of the 10,000 ids are
#          written, in random order, so every SST spans nearly all of them.
#   writes 24 batches, one L0 flush each: a batch writes the next GROUPS/24
#          groups (12 keys each on average), updates keys of 40 earlier
#          groups and deletes a few earlier keys.  After batches 8 and 16 a
#          `compact` turns L0 into a sorted run (split at sst_bytes), so the
#          final tree is 2 runs of several SSTs and 8 overlapping L0 SSTs.
#   reads  10*GROUPS gets of absent keys (odd suffix) in present groups,
#          GROUPS gets in absent groups, 2*GROUPS gets of written keys,
#          GROUPS scan_prefix of present groups and 3*GROUPS of absent groups.
set -eu

groups=${1:-3000}
seed=${2:-1}
case $groups in ''|*[!0-9]*) echo "group_suffix.sh: GROUPS must be a positive integer, got '$groups'" >&2; exit 2 ;; esac
case $seed in ''|*[!0-9]*) echo "group_suffix.sh: SEED must be a non-negative integer, got '$seed'" >&2; exit 2 ;; esac
if [ "$groups" -lt 24 ] || [ "$groups" -gt 9000 ]; then
    echo "group_suffix.sh: GROUPS must be 24..9000 (of 10,000 group ids), got $groups" >&2; exit 2
fi

awk -v groups="$groups" -v seed="$seed" '
# Park-Miller minimal standard generator: products stay below 2^46.
function rnd(n) { x = (x * 16807) % 2147483647; return x % n }
function gid(i) { return sprintf("g%04d", id[i]) }

BEGIN {
    x = (seed % 2147483646) + 1
    batches = 24
    printf "# group_suffix: GroupId||Suffix keys for the FP-rate report\n"
    printf "# (sh workloads/gen/group_suffix.sh %d %d).\n", groups, seed
    printf "#\n"
    printf "# Keys are a 5-byte group id, \"g\" and 4 digits, then \":\" and a 5-digit\n"
    printf "# even suffix (g0123:00042).  %d of the 10,000 group ids are written,\n", groups
    printf "# group by group in random id order, in 24 batches of one L0 SST each;\n"
    printf "# each batch also updates keys of 40 earlier groups and deletes a few.\n"
    printf "# A compact after batches 8 and 16 leaves 2 sorted runs of several SSTs\n"
    printf "# and 8 L0 SSTs, all spanning the key range, while a group lives in one\n"
    printf "# or two SSTs: a scan_prefix of one group considers every SST, and a\n"
    printf "# prefix filter on the group id lets it skip all but those.\n"
    printf "# Reads: %d gets of absent keys (odd suffix) in written groups, %d in\n", 10 * groups, groups
    printf "# never-written groups, %d of written keys; %d scan_prefix of written\n", 2 * groups, groups
    printf "# groups and %d of never-written ones.\n", 3 * groups
    printf "# extractor: fixed:5\n"
    print "filterlab-workload 1"
    print "open policies=\"bloom(bits=10,prefix=fixed:5)\" memtable_bytes=1073741824 sst_bytes=65536 l0_trigger=1000 max_runs=1000"

    # A random permutation of the 10,000 ids: the first `groups` are written.
    for (i = 0; i < 10000; i++) id[i] = i
    for (i = 9999; i > 0; i--) { j = rnd(i + 1); t = id[i]; id[i] = id[j]; id[j] = t }

    nkeys = 0
    next_group = 0
    for (b = 1; b <= batches; b++) {
        last = int(groups * b / batches)
        for (; next_group < last; next_group++) {
            n = 6 + rnd(13)                       # 6..18 keys, 12 on average
            for (k = 0; k < n; k++) {
                key = sprintf("%s:%05d", gid(next_group), 2 * rnd(50000))
                printf "put %s v%d\n", key, b
                keys[nkeys++] = key
            }
        }
        if (next_group > 40) {
            for (u = 0; u < 40; u++) {             # updates of earlier groups
                key = sprintf("%s:%05d", gid(rnd(next_group - 40)), 2 * rnd(50000))
                printf "put %s u%d\n", key, b
                keys[nkeys++] = key
            }
            for (d = 0; d < 5; d++) printf "del %s\n", keys[rnd(nkeys)]
        }
        print "flush"
        if (b == 8 || b == 16) print "compact"
    }

    # Reads, shuffled together so no kind clusters in time.
    nr = 0
    for (i = 0; i < 10 * groups; i++) r[nr++] = 1      # absent key, written group
    for (i = 0; i < groups; i++)      r[nr++] = 2      # key of an unwritten group
    for (i = 0; i < 2 * groups; i++)  r[nr++] = 3      # written key
    for (i = 0; i < groups; i++)      r[nr++] = 4      # scan_prefix, written group
    for (i = 0; i < 3 * groups; i++)  r[nr++] = 5      # scan_prefix, unwritten group
    for (i = nr - 1; i > 0; i--) { j = rnd(i + 1); t = r[i]; r[i] = r[j]; r[j] = t }
    for (i = 0; i < nr; i++) {
        if (r[i] == 1)      printf "get %s:%05d\n", gid(rnd(groups)), 2 * rnd(50000) + 1
        else if (r[i] == 2) printf "get %s:%05d\n", gid(groups + rnd(10000 - groups)), 2 * rnd(50000)
        else if (r[i] == 3) printf "get %s\n", keys[rnd(nkeys)]
        else if (r[i] == 4) printf "scan_prefix %s\n", gid(rnd(groups))
        else                printf "scan_prefix %s\n", gid(groups + rnd(10000 - groups))
    }
}'
