#!/bin/sh
# rocksdb_p9.sh -- P9 on RocksDB (docs/rocksdb.md, "What is checked on
# RocksDB"): the report workload (GroupId||Suffix keys, 42,000 reads of
# absent keys and groups over 2 sorted runs and 8 L0 SSTs) replayed on
# RocksDB with its cache-local bloom at 4, 10 and 16 bits per key, with
# whole-key filtering off, and with its ribbon filter: every run passes,
# P9 judges both kinds over at least 10,000 distinct items, the measured
# rate is within 4 standard deviations of the expectation computed from
# the filters' own bits (read from the SST files), and the expectation is
# near the rate the bits per key promise; the legacy bloom of
# format_version 4 too (its rate summed exactly over the 32-bit hash:
# fl_bloom_legacy_expected_fp).  Filters P9 cannot judge -- partitioned
# filters -- leave it undecided (no p9_* keys) instead of judging them
# wrongly.
# Skipped, saying so, only when filterlab was built without RocksDB.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"
S=$FL_SRCDIR
W=$S/reports/workloads/group_suffix.wl

printf 'filterlab-workload 1\nput a 1\n' > "$T/probe.wl"
if ! "$FILTERLAB" replay "$T/probe.wl" --engine rocksdb > /dev/null 2> "$T/probe.err"; then
    if grep -q "filterlab was built without RocksDB" "$T/probe.err"; then
        echo "skipped: $(cat "$T/probe.err")"
        exit 0
    fi
    cat "$T/probe.err" >&2
    fail "a one-put workload does not run on RocksDB"
fi

# run NAME POLICIES EXTRA: replays the workload with that open line.
run() {
    sed "s/^open policies=\"bloom(bits=10,prefix=fixed:5)\"/open policies=\"$2\" $3/" "$W" > "$T/$1.wl"
    grep -q "^open policies=\"$2\"" "$T/$1.wl" || fail "$1: the open line was not replaced"
    "$FILTERLAB" replay --engine rocksdb "$T/$1.wl" --json > "$T/$1.json" 2> "$T/$1.err" ||
        { cat "$T/$1.err" >&2; fail "$1: replay on RocksDB failed (exit $?)"; }
}

# judged NAME LO HI: both kinds judged, |z| < 4, expected in [LO, HI].
judged() {
    python3 - "$T/$1.json" "$1" "$2" "$3" <<'PY' || fail "$1: P9 on RocksDB is off (above)"
import json, sys
d = json.load(open(sys.argv[1])); name = sys.argv[2]; lo, hi = float(sys.argv[3]), float(sys.argv[4])
ok = True
for k in ("p9_point", "p9_prefix"):
    p = d.get(k)
    if not p:
        print(f"{name}: no {k} in --json", file=sys.stderr); ok = False; continue
    print(f"    {name} {k}: {p['measured']:.5%} measured, {p['expected']:.5%} expected, "
          f"z {p['z']:+.2f}, {p['items']} items, {p['probes']} probes")
    if p["items"] < 10000 and k == "p9_point" or p["items"] < 5000:
        print(f"{name}: {k} has only {p['items']} items", file=sys.stderr); ok = False
    if abs(p["z"]) >= 4:
        print(f"{name}: {k} z = {p['z']}", file=sys.stderr); ok = False
    if not lo <= p["expected"] <= hi:
        print(f"{name}: {k} expected {p['expected']} not in [{lo}, {hi}]", file=sys.stderr); ok = False
sys.exit(0 if ok else 1)
PY
}

run bloom4 "bloom(bits=4,prefix=fixed:5)" ""
judged bloom4 0.12 0.19
run bloom10 "bloom(bits=10,prefix=fixed:5)" ""
judged bloom10 0.008 0.0115
run bloom16 "bloom(bits=16,prefix=fixed:5)" ""
judged bloom16 0.0005 0.0012
run ribbon10 "bloom(bits=10,prefix=fixed:5)" "rocksdb.filter=ribbon"
judged ribbon10 0.007 0.012
run ribbon16 "bloom(bits=16,prefix=fixed:5)" "rocksdb.filter=ribbon"
judged ribbon16 0.0003 0.0012
# the legacy bloom: its strided probes in a line make it a little worse
run legacy10 "bloom(bits=10,prefix=fixed:5)" "rocksdb.format_version=4"
judged legacy10 0.0095 0.012

# whole_key=0: the filters hold only the groups' prefixes (3,000 of them:
# half the rate at the same bits), and gets probe the prefix, so only gets
# in never-written groups count (about 2,400 items)
run prefixonly "bloom(bits=10,prefix=fixed:5,whole_key=0)" ""
python3 - "$T/prefixonly.json" <<'PY' || fail "prefix-only on RocksDB: P9 is off (above)"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("p9_point", "p9_prefix"):
    p = d[k]
    print(f"    prefixonly {k}: {p['measured']:.5%} vs {p['expected']:.5%}, z {p['z']:+.2f}, {p['items']} items")
    assert abs(p["z"]) < 4 and 0.003 <= p["expected"] <= 0.0065, p
assert d["p9_point"]["items"] < 4000     # a get of an absent key in a written group is not eligible
PY

for v in "rocksdb.partition_filters=1"; do
    run unjudged "bloom(bits=10,prefix=fixed:5)" "$v"
    if grep -q '"p9_' "$T/unjudged.json"; then
        fail "$v: P9 judged a filter whose rate it cannot know"
    fi
done
echo "ok"
