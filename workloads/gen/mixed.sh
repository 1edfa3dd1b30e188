#!/bin/sh
# mixed.sh -- a mixed workload for measuring what checking costs:
#   sh workloads/gen/mixed.sh [OPS] [SEED] > mixed.wl      (defaults 1000000, 1)
# GroupId||Suffix keys ("g0123:00042") over 2,000 groups; 45% puts, 5% deletes,
# 0.5% range deletes, 30% gets (half of absent keys), 10% scan_prefix (of
# present and absent groups), 4% short scans, the rest flushes, compactions
# and, every 200,000 ops, a reopen that migrates between a whole-key+prefix
# bloom and a prefix-only bloom.  Deterministic for a given OPS and SEED.
ops=${1:-1000000}
seed=${2:-1}
awk -v ops="$ops" -v seed="$seed" 'BEGIN {
    x = seed * 7919 + 17
    print "# mixed: " ops " ops, seed " seed " (workloads/gen/mixed.sh)"
    print "filterlab-workload 1"
    print "open policies=\"bloom(bits=10,prefix=fixed:5)\" memtable_bytes=262144 sst_bytes=262144 l0_trigger=4 max_runs=3"
    for (i = 1; i < ops; i++) {
        x = (x * 1103515245 + 12345) % 2147483648; r = x % 10000
        x = (x * 1103515245 + 12345) % 2147483648; g = x % 2000
        x = (x * 1103515245 + 12345) % 2147483648; s = x % 100
        key = sprintf("g%04d:%05d", g, s)
        if (i % 200000 == 0) {
            if ((i / 200000) % 2) print "reopen policies=\"bloom(bits=8,prefix=fixed:5,whole_key=0);bloom(bits=10,prefix=fixed:5)\""
            else print "reopen policies=\"bloom(bits=10,prefix=fixed:5)\""
        } else if (r < 4500) printf "put %s v%d\n", key, i
        else if (r < 5000) printf "del %s\n", key
        else if (r < 5050) printf "delrange g%04d: g%04d:\n", g, g + 1
        else if (r < 6500) printf "get %s\n", key
        else if (r < 8000) printf "get g%04d:%05dx\n", g, s
        else if (r < 8500) printf "scan_prefix g%04d:\n", g
        else if (r < 9000) printf "scan_prefix h%04d:\n", g
        else if (r < 9400) printf "scan g%04d: g%04d:%05d\n", g, g, s
        else if (r < 9990) printf "get g%04d:%05d\n", (g + 7) % 2000, s
        else if (r < 9998) print "flush"
        else print "compact"
    }
}'
