#!/bin/sh
# report_engines.sh -- `filterlab report` with no workload runs the bundled
# report workload (as `make report` does), found beside the binary; and
# `report --engine rocksdb` replays every configuration on RocksDB too and
# draws its curves beside filterlab's; `--engine filterlab,pebble,...`
# takes several, leaves out one that is not built and skips the
# configurations one cannot express, saying so on the page: results.csv has an engine column
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

# 2. --engine LIST: several engines in one report, a small sweep.  Pebble
# cannot express whole+prefix (its filter holds Split prefixes only): no
# rows for it, and a line on the page saying so.
sh "$S/workloads/gen/group_suffix.sh" 100 > "$T/gs.wl"
list=filterlab,pebble
[ -x "$S/build/go/filterlab-pebble" ] || list=filterlab
"$FILTERLAB" replay "$T/gs.wl" --engine rocksdb > /dev/null 2>&1 && list=$list,rocksdb
[ -x "$S/build/cargo/release/filterlab-slatedb" ] && list=$list,slatedb
"$FILTERLAB" report "$T/gs.wl" --engine "$list" -o "$T/m" --bits 8,10 \
    --modes whole,whole+prefix,prefix-only,none --jobs 2 > "$T/m.out" 2> "$T/m.err" ||
    { cat "$T/m.err" >&2; fail "report --engine $list failed"; }
python3 - "$T/m/results.csv" "$list" <<'PY' || fail "report --engine $list: results.csv is off (above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = sys.argv[2].split(",")
assert sorted({r["engine"] for r in rows}) == sorted(want), ({r["engine"] for r in rows}, want)
for eng in want:
    mine = [r for r in rows if r["engine"] == eng]
    modes = {r["mode"] for r in mine}
    if eng == "pebble":
        assert modes == {"whole", "prefix-only", "none"}, modes
    else:
        assert modes == {"whole", "whole+prefix", "prefix-only", "none"}, (eng, modes)
    for bits in ("8", "10"):
        r = [x for x in mine if x["mode"] == "prefix-only" and x["bits_per_key"] == bits and x["kind"] == "prefix"]
        assert len(r) == 1 and float(r[0]["ssts_read_per_op"]) < 5, (eng, bits, r)
        assert r[0]["expected_fp_rate"] != "", (eng, bits, "no expected rate")
PY
for eng in $(echo "$list" | tr , ' '); do
    grep -q "<td>10</td><td class=\"l\">whole</td><td class=\"l\">$eng</td>" "$T/m/index.html" ||
        fail "the engines table has no row for $eng at 10 bits/key"
    grep -q "<li><b>$eng</b>: " "$T/m/index.html" || fail "the page has no sentence on $eng"
    grep -q "^  $eng:" "$T/m.out" || fail "the summary has no $eng part"
done
case $list in *pebble*)
    grep -q "<li>skipped: <b>pebble</b>, mode whole+prefix at 8, 10 bits/key: Pebble's filter holds" "$T/m/index.html" ||
        fail "the page does not say Pebble skipped whole+prefix, and why" ;;
esac
grep -q "cache-local bloom" "$T/m/index.html" || fail "no sentence on filterlab's bloom"
grep -q 'strcol("engine") eq e' "$T/m/gs-point-fp.gp" || fail "the plot scripts do not select by engine"
for eng in $(echo "$list" | tr , ' '); do
    grep -q "\"$eng\", \"prefix-only\", \"prefix\", \"expected_fp_rate\"" "$T/m/gs-prefix-fp.gp" ||
        fail "the prefix FP plot does not draw $eng's expected curve"
done

# an engine that is not built, of several asked: left out with one line
FILTERLAB_PEBBLE=/nonexistent "$FILTERLAB" report "$T/gs.wl" --engine filterlab,pebble -o "$T/n" \
    --bits 10 --modes whole --jobs 2 > "$T/n.out" 2> "$T/n.err" ||
    { cat "$T/n.err" >&2; fail "report with an engine not built failed"; }
[ "$(grep -c "engine pebble: left out: FILTERLAB_PEBBLE=/nonexistent" "$T/n.err")" = 1 ] ||
    fail "the engine not built is not left out with one line: $(cat "$T/n.err")"
! grep -q ",pebble," "$T/n/results.csv" || fail "an engine left out has rows"
grep -q "left out" "$T/n/index.html" || fail "the page does not say pebble was left out"
# ... but alone it is an error
st=0
FILTERLAB_PEBBLE=/nonexistent "$FILTERLAB" report "$T/gs.wl" --engine pebble -o "$T/n2" --bits 10 \
    --modes whole > /dev/null 2> "$T/n2.err" || st=$?
[ "$st" = 2 ] && grep -q "FILTERLAB_PEBBLE=/nonexistent" "$T/n2.err" || fail "the only engine asked, not built: exit $st"
# a bad list is bad usage
st=0
"$FILTERLAB" report "$T/gs.wl" --engine filterlab,nosuch > /dev/null 2> "$T/bad.err" || st=$?
[ "$st" = 2 ] && grep -q "unknown engine 'nosuch'" "$T/bad.err" || fail "--engine filterlab,nosuch: exit $st"

# 3. --engine rocksdb
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
