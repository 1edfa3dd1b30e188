#!/bin/sh
# report_engines.sh -- `filterlab report` with no workload runs the bundled
# report workload (as `make report` does), found beside the binary; and
# `report --engine rocksdb` replays every configuration on RocksDB too and
# draws its curves beside filterlab's: results.csv has an engine column
# with both engines' rows, RocksDB's FP columns are P9's view (probes > 0,
# its measured rate near its expected one), its SSTs-read column counts
# what its prefix filter ruled out, and the plots' scripts draw both.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"
S=$FL_SRCDIR

# 1. no workload: the bundled one, said on stderr
"$FILTERLAB" report -o "$T/def" --bits 10 --modes whole,none --jobs 2 > "$T/def.out" 2> "$T/def.err" ||
    { cat "$T/def.err" >&2; fail "report without a workload failed"; }
grep -q "no workload given: running the bundled report workload .*group_suffix.wl" "$T/def.err" ||
    fail "report without a workload does not say which it runs: $(cat "$T/def.err")"
grep -q "^group_suffix,whole,10,point," "$T/def/results.csv" || fail "no group_suffix rows"
grep -q "^report: $T/def/index.html" "$T/def.out" || fail "no report page named"

# a binary away from any bundled workload says where it looked, exit 2
if [ ! -e /usr/local/share/filterlab/group_suffix.wl ]; then
    mkdir -p "$T/lone/bin"
    cp "$FILTERLAB" "$T/lone/bin/filterlab"
    st=0
    FILTERLAB_DATADIR="$T/nowhere" "$T/lone/bin/filterlab" report -o "$T/x" > /dev/null 2> "$T/lone.err" || st=$?
    [ "$st" = 2 ] || fail "a missing bundled workload: exit $st, wanted 2"
    grep -q "group_suffix.wl is not in $T/nowhere, $T/lone/bin/../share/filterlab" "$T/lone.err" ||
        fail "a missing bundled workload is not explained: $(cat "$T/lone.err")"
    # FILTERLAB_DATADIR finds it
    mkdir -p "$T/data"
    cp "$S/reports/workloads/group_suffix.wl" "$T/data/"
    FILTERLAB_DATADIR="$T/data" "$T/lone/bin/filterlab" report -o "$T/y" --bits 10 --modes none > /dev/null 2>&1 ||
        fail "FILTERLAB_DATADIR does not find the bundled workload"
fi

# 2. --engine rocksdb
printf 'filterlab-workload 1\nput a 1\n' > "$T/probe.wl"
if ! "$FILTERLAB" replay "$T/probe.wl" --engine rocksdb > /dev/null 2> "$T/probe.err"; then
    grep -q "built without RocksDB" "$T/probe.err" || { cat "$T/probe.err" >&2; fail "RocksDB does not run"; }
    st=0
    "$FILTERLAB" report --engine rocksdb -o "$T/r" > /dev/null 2> "$T/r.err" || st=$?
    [ "$st" = 2 ] && grep -q "install librocksdb-dev" "$T/r.err" || fail "report --engine rocksdb without RocksDB: exit $st"
    echo "skipped (RocksDB): $(cat "$T/probe.err")"
    exit 0
fi
"$FILTERLAB" report "$S/reports/workloads/group_suffix.wl" --engine rocksdb -o "$T/r" --bits 4,10 --jobs 2 \
    > "$T/r.out" 2> "$T/r.err" || { cat "$T/r.err" >&2; fail "report --engine rocksdb failed"; }
grep -q "^  rocksdb:" "$T/r.out" || fail "the summary has no rocksdb part"
python3 - "$T/r/results.csv" <<'PY' || fail "report --engine rocksdb: results.csv is off (above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {(r["engine"], r["mode"], r["bits_per_key"], r["kind"]): r for r in rows}
assert {r["engine"] for r in rows} == {"filterlab", "rocksdb"}, {r["engine"] for r in rows}
for eng in ("filterlab", "rocksdb"):
    for mode, kind in (("whole", "point"), ("whole+prefix", "prefix"), ("prefix-only", "prefix")):
        for bits in ("4", "10"):
            r = by[(eng, mode, bits, kind)]
            fp, ex, n = float(r["fp_rate"]), float(r["expected_fp_rate"]), int(r["eligible"])
            print(f"    {eng} {mode} {bits} {kind}: {fp:.4%} vs {ex:.4%} over {n} probes, "
                  f"{r['ssts_read_per_op']} SSTs read per op")
            assert n > 50000 and abs(fp - ex) < 0.15 * ex, r
    none = by[(eng, "none", "10", "prefix")]
    po = by[(eng, "prefix-only", "10", "prefix")]
    assert float(none["ssts_read_per_op"]) > 5 * float(po["ssts_read_per_op"]), (none, po)
    assert int(by[(eng, "whole", "10", "point")]["filter_bytes"]) > 0
PY
grep -q 'strcol("engine") eq e' "$T/r/group_suffix-point-fp.gp" || fail "the plot scripts do not select by engine"
grep -q '"rocksdb", "whole"' "$T/r/group_suffix-point-fp.gp" || fail "the point FP plot does not draw RocksDB"
grep -q '"rocksdb", "none", "prefix", "ssts_read_per_op"' "$T/r/group_suffix-prefix-reads.gp" ||
    fail "the SSTs-read plot does not draw RocksDB"
grep -q "<th class=\"l\">engine</th>" "$T/r/index.html" || fail "the page's tables have no engine column"
echo ok
