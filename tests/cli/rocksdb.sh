#!/bin/sh
# rocksdb.sh -- `--engine rocksdb` from the command line (SPEC 15; the
# docs/rocksdb.md):
#   1. every shipped workload either replays on RocksDB with no violation,
#      or is refused (exit 2) for a reason docs/rocksdb.md lists (two policies at
#      once, Legacy filters, a compactor with other policies); the ones
#      RocksDB can run give the same result lines as filterlab's engine;
#   2. generated workloads over every extractor mapping, migrations between
#      single-policy configurations and the rocksdb.* settings: no
#      violation, and the same results as filterlab's engine;
#   3. determinism: the same workload twice gives the same --json (but the
#      time), the same --results and the same SST files;
#   4. a plugin extractor (examples/plugins/tenant_extractor.c) runs inside
#      RocksDB as a slice transform and its prefix filter rules SSTs out; a
#      broken one is caught inside RocksDB (P7, and P2 for the wrong
#      results it makes; an n > len answer to RocksDB's own calls counted
#      in contract_violations), and one that hangs in RocksDB's flush
#      thread is a finding of the watchdog (P10) that leaves no database
#      behind;
#   5. bad input is exit 2 naming the option: a plugin policy, an unknown
#      rocksdb.* key, a value RocksDB refuses (its own message), malformed
#      or repeated rocksdb.* keys in the workload;
#   6. filterlab's engine accepts and ignores rocksdb.* options.
# Skipped, saying so, only when filterlab was built without RocksDB.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"
S=$FL_SRCDIR

printf 'filterlab-workload 1\nput a 1\n' > "$T/probe.wl"
if ! "$FILTERLAB" replay "$T/probe.wl" --engine rocksdb > /dev/null 2> "$T/probe.err"; then
    if grep -q "filterlab was built without RocksDB: install librocksdb-dev" "$T/probe.err"; then
        echo "skipped: $(cat "$T/probe.err")"
        exit 0
    fi
    cat "$T/probe.err" >&2
    fail "a one-put workload does not run on RocksDB"
fi

# same_results WL [FLAGS]: replays WL on both engines, which must agree.
same_results() {
    wl=$1
    shift
    "$FILTERLAB" replay "$wl" --engine rocksdb --results "$T/r.rocks" "$@" > "$T/out" 2> "$T/err" ||
        { tail -n 5 "$T/err" >&2; fail "$wl on RocksDB: exit $?"; }
    "$FILTERLAB" replay "$wl" --results "$T/r.fl" "$@" > /dev/null 2>&1 ||
        fail "$wl on filterlab's engine: exit $?"
    cmp -s "$T/r.rocks" "$T/r.fl" ||
        { diff "$T/r.fl" "$T/r.rocks" | head -n 5 >&2; fail "$wl: RocksDB's results differ from filterlab's"; }
}

# ---- 1. the shipped workloads ------------------------------------------------------
# Runs whole on RocksDB (the rest stop at an option RocksDB cannot express):
runs="workloads/basic.wl workloads/tombstones.wl workloads/regress/p9_prefix_only_items.wl
      workloads/regress/p9_small_count.wl workloads/regress/checker_hash_tag_collision.wl
      workloads/rocksdb/extractor_migrations.wl
      workloads/rocksdb/partitioned_filters.wl workloads/rocksdb/set_options.wl workloads/rocksdb/regress_checks.wl
      workloads/scenarios/seeks.wl"
# RocksDB 7.8.3 aborts on it (FixedPrefix's assertion on a key shorter than
# the prefix just past a prefix seek; docs/rocksdb.md):
aborts="workloads/scenarios/prefix_only_no_hashes.wl workloads/regress/slatedb/zero_bit_prefix_bloom.wl"
for wl in $runs; do same_results "$S/$wl"; done
for wl in $(cd "$S" && find workloads -name '*.wl' ! -path 'workloads/gen/*' ! -path 'workloads/regress/rocksdb/*' | sort); do
    case " $(echo $runs) $aborts " in *" $wl "*) continue ;; esac
    "$FILTERLAB" replay "$S/$wl" --engine rocksdb > /dev/null 2> "$T/err"
    rc=$?
    [ $rc -eq 0 ] && continue
    [ $rc -eq 2 ] || { tail -n 5 "$T/err" >&2; fail "$wl on RocksDB: exit $rc (0 or 2 expected)"; }
    grep -Eq "open failed: open: (policies=.*cannot run two policies at once|legacy_filters=1: RocksDB writes no Legacy|compactor=.*cannot run on it)" \
        "$T/err" || { cat "$T/err" >&2; fail "$wl: refused by RocksDB for no listed reason"; }
done

# The abort is a finding of the run (P10), naming the engine's call it died
# in and RocksDB's assertion text from its stderr, and the replay goes on to
# report it (exit 1, not 134).
"$FILTERLAB" replay "$S/workloads/scenarios/prefix_only_no_hashes.wl" --engine rocksdb > /dev/null 2> "$T/err"
rc=$?
[ $rc -eq 1 ] || { tail -n 5 "$T/err" >&2; fail "the RocksDB abort: exit $rc, not 1 (a finding)"; }
grep -q "^P10 bad-input: line [0-9]* scan_prefix abcd: the run died with signal 6 (Aborted) in a call of engine rocksdb: scan_prefix; its last words on stderr: .*slice.cc:57: .*FixedPrefixTransform::Transform.*Assertion .InDomain(src). failed" "$T/err" ||
    { cat "$T/err" >&2; fail "the RocksDB abort is not reported with its assertion"; }

# ---- 2. generated workloads -----------------------------------------------------------
i=0
for cfg in \
    'uniform|bloom(bits=10)|rocksdb.filter=ribbon' \
    'group-suffix|bloom(bits=10,prefix=fixed:5)|rocksdb.partition_filters=1 rocksdb.metadata_block_size=64' \
    'group-suffix|bloom(bits=10,prefix=fixed:5,whole_key=0)|rocksdb.memtable_prefix_bloom=0.1' \
    'delimited|bloom(bits=10,prefix=delim::)|rocksdb.memtable_prefix_bloom=0.05 rocksdb.memtable_whole_key_filtering=1' \
    'delimited|bloom(bits=8,prefix=lastdelim::,whole_key=0)|rocksdb.format_version=4' \
    'uniform|bloom(bits=10,prefix=capped:4)|rocksdb.optimize_filters_for_hits=1 rocksdb.cache_index_and_filter_blocks=1' \
    'timeseries|bloom(bits=10,prefix=fixed:5)|rocksdb.extractor=wrapped' \
    'zipf|bloom(bits=12,prefix=capped:3,whole_key=0)|rocksdb.extractor=wrapped rocksdb.partition_filters=1'; do
    i=$((i + 1))
    shape=${cfg%%|*}; rest=${cfg#*|}; pol=${rest%%|*}; extra=${rest#*|}
    "$FILTERLAB" gen --shape "$shape" --ops 1500 --seed $i --keys 400 --flush-every 60 \
        --compact-every 500 --reopen-every 500 \
        --open "policies=\"$pol\" memtable_bytes=3000 sst_bytes=3000 block_bytes=256 l0_trigger=3 $extra" \
        --reopen "policies=\"$pol\" rocksdb.partition_filters=0" \
        --reopen 'policies="bloom(bits=10,prefix=fixed:6,whole_key=0)"' \
        --reopen "policies=\"$pol\"" -o "$T/g$i.wl" || fail "gen $cfg"
    same_results "$T/g$i.wl"
done

# The memtable bloom's and the seeks' counters reach --json.
"$FILTERLAB" replay "$S/workloads/rocksdb/set_options.wl" --engine rocksdb --json 2> /dev/null > "$T/so.json" ||
    fail "set_options.wl --json"
grep -Eq '"prefix":\{[^}]*"memtable_positive":[1-9][0-9]*,"memtable_negative":[1-9][0-9]*,"seeks":[1-9]' "$T/so.json" ||
    fail "no memtable or seek counters in --json: $(cat "$T/so.json")"

# ---- 3. determinism ----------------------------------------------------------------------
for n in 1 2; do
    "$FILTERLAB" replay "$T/g2.wl" --engine rocksdb --db "$T/d$n" --json --results "$T/det$n.txt" |
        sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*,//' > "$T/det$n.json" || fail "determinism run $n"
    (cd "$T/d$n" && ls -l *.sst | awk '{ print $5, $9 }') > "$T/det$n.files"
done
cmp -s "$T/det1.json" "$T/det2.json" || { diff "$T/det1.json" "$T/det2.json" >&2; fail "--json differs between two runs"; }
cmp -s "$T/det1.txt" "$T/det2.txt" || fail "--results differ between two runs"
cmp -s "$T/det1.files" "$T/det2.files" || { diff "$T/det1.files" "$T/det2.files" >&2; fail "the SST files differ"; }
[ -s "$T/det1.files" ] || fail "no SST files in the RocksDB database"
grep -q '"flushes":[1-9]' "$T/det1.json" && grep -q '"compactions":[1-9]' "$T/det1.json" ||
    fail "the determinism workload flushed or compacted nothing: $(cat "$T/det1.json")"

# ---- 4. plugin extractors inside RocksDB ---------------------------------------------------
build_plugin "$S/examples/plugins/tenant_extractor.c" "$T/tenant.so"
cat > "$T/tenant.wl" <<'WL'
filterlab-workload 1
open policies="bloom(bits=10,prefix=tenant:2)" memtable_bytes=100000 l0_trigger=10
put acme:users:1 ada
put acme:users:2 bob
flush
put acme:orders:1 widget
put hooli:users:1 gavin
flush
put globex:users:1 hank
flush
scan_prefix acme:users:
scan_prefix acme:pets:
scan_prefix hooli:
scan_prefix hooli:users:
get acme:users:1
get acme:pets:9
WL
same_results "$T/tenant.wl" --plugin "$T/tenant.so"
"$FILTERLAB" replay "$T/tenant.wl" --plugin "$T/tenant.so" --engine rocksdb --db "$T/tdb" --json > "$T/tenant.json" ||
    fail "tenant.wl on RocksDB with --db"
grep -q "^  prefix_extractor=filterlab.tenant2$" "$T"/tdb/OPTIONS-* || fail "RocksDB does not run tenant:2 as its prefix extractor"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
q = d["prefix"]
# 9 prefix probes, a prefix seek probing every L0 SST: acme:pets: (nowhere:
# every maybe is a false positive), acme:users: and hooli:users: (each in
# one SST: a true maybe there); hooli: has no tenant:2 prefix (total order:
# it reads all 3 SSTs unfiltered, which the checker counts)
assert q["considered"] == 12 and q["unfiltered"] == 3 and q["positive"] + q["negative"] == 9, q
assert q["positive"] >= 2 and q["negative"] >= 5, q
assert q["false_positive"] <= q["positive"] - 2, q
' "$T/tenant.json" || { cat "$T/tenant.json" >&2; fail "tenant:2 ruled out too few SSTs inside RocksDB"; }

build_plugin "$S/tests/mutants/prefix_truncates.c" "$T/trunc.so"
"$FILTERLAB" replay "$S/tests/mutants/prefix_truncates.wl" --plugin "$T/trunc.so" --engine rocksdb \
    > /dev/null 2> "$T/trunc.err"
rc=$?
[ $rc -eq 1 ] || fail "a broken extractor inside RocksDB: exit $rc, not 1"
grep -q '^P7 extractor-contract: .*"trunc3"' "$T/trunc.err" || fail "the broken extractor is not reported (P7)"
grep -q '^P2 results: line 2[0-9] scan_prefix' "$T/trunc.err" ||
    fail "RocksDB's wrong results under the broken extractor are not reported (P2)"

# an extractor answering n > len: the wrapper inside RocksDB reports it
# (the database's contract_violations count the calls RocksDB made)
build_plugin "$S/tests/mutants/len_past_end.c" "$T/past.so"
"$FILTERLAB" replay "$S/tests/mutants/len_past_end.wl" --plugin "$T/past.so" --engine rocksdb --json \
    > "$T/past.json" 2> "$T/past.err"
rc=$?
[ $rc -eq 1 ] || fail "an extractor answering n > len inside RocksDB: exit $rc, not 1"
grep -q '^P7 extractor-contract: .*upto/.*must be <= its length' "$T/past.err" || fail "n > len is not reported (P7)"
grep -q '"contract_violations":[1-9]' "$T/past.json" ||
    fail "no contract violation counted by the calls RocksDB made: $(cat "$T/past.json")"

# (the hang never ends, so the call timeout is the only clock; it is the
# default 10 s, not 1 s, because it watches RocksDB's open as well, in a
# replay that takes a fifth of a second under ASan on an idle machine)
build_plugin "$S/tests/plugins/hang.c" "$T/hang.so"
printf 'filterlab-workload 1\nopen policies="bloom(bits=10,prefix=hangx)"\nput a 1\nflush\nget a\n' > "$T/hang.wl"
mkdir -p "$T/tmp"
TMPDIR="$T/tmp" "$FILTERLAB" replay "$T/hang.wl" --plugin "$T/hang.so" --engine rocksdb --no-check \
    --call-timeout 10 > /dev/null 2> "$T/hang.err"
rc=$?
[ $rc -eq 1 ] || fail "an extractor hung in RocksDB's flush: exit $rc, not 1"
grep -q '^P10 bad-input: line 4 flush: plugin .*hang.so: prefix_len did not return within 10 s' "$T/hang.err" ||
    { cat "$T/hang.err" >&2; fail "the hung call inside RocksDB is not named"; }
[ -z "$(ls -A "$T/tmp")" ] || fail "the hung replay left its database behind: $(ls "$T/tmp")"

# ---- 5. bad input --------------------------------------------------------------------------
# expect_refusal TEXT PATTERN [FLAGS]: exit 2 and a message matching PATTERN
expect_refusal() {
    printf 'filterlab-workload 1\n%s\nput a 1\nget a\n' "$1" > "$T/bad.wl"
    pattern=$2
    shift 2
    "$FILTERLAB" replay "$T/bad.wl" --engine rocksdb "$@" > /dev/null 2> "$T/bad.err"
    rc=$?
    [ $rc -eq 2 ] || fail "'$(sed -n 2p "$T/bad.wl")': exit $rc, not 2"
    grep -Eq -- "$pattern" "$T/bad.err" || { cat "$T/bad.err" >&2; fail "'$(sed -n 2p "$T/bad.wl")': no '$pattern'"; }
}
build_plugin "$S/examples/plugins/keyrange_policy.c" "$T/keyrange.so"
expect_refusal 'open policies=keyrange' 'bad.wl:2: open failed: open: policies="keyrange": a plugin filter policy' \
    --plugin "$T/keyrange.so"
expect_refusal 'open rocksdb.bloom_bits=1' 'bad.wl:2: open failed: open: unknown option rocksdb.bloom_bits'
expect_refusal 'open rocksdb.format_version=9' 'RocksDB refused to open .*: Invalid argument: .*format_version'
expect_refusal 'open rocksdb.Filter=bloom' 'bad.wl:2: expected an option key of open'
expect_refusal 'open rocksdb.filter=bloom rocksdb.filter=ribbon' 'bad.wl:2: .*rocksdb.filter twice'
expect_refusal 'open legacy_filters=1' 'legacy_filters=1: RocksDB writes no Legacy'

# set_options: what RocksDB's SetOptions cannot change is its refusal, named;
# a filterlab extractor inside RocksDB cannot be set by name at all.
printf 'filterlab-workload 1\nopen policies="bloom(bits=10,prefix=fixed:2)"\nput aa1 1\nset_options policies="bloom(bits=7,prefix=fixed:2)"\nget aa1\n' > "$T/so1.wl"
"$FILTERLAB" replay "$T/so1.wl" --engine rocksdb > /dev/null 2> "$T/so.err"
rc=$?
[ $rc -eq 2 ] || fail "set_options of the bits: exit $rc, not 2"
grep -q 'so1.wl:4: set_options failed: RocksDB refused SetOptions(block_based_table_factory={filter_policy=bloomfilter:7:false}): Invalid argument: Option not changeable: filter_policy' "$T/so.err" ||
    { cat "$T/so.err" >&2; fail "set_options of the bits: not RocksDB's refusal"; }
printf 'filterlab-workload 1\nopen policies="bloom(bits=10,prefix=delim::)"\nput a:1 1\nset_options policies="bloom(bits=10,prefix=fixed:2)"\nget a:1\n' > "$T/so2.wl"
"$FILTERLAB" replay "$T/so2.wl" --engine rocksdb > /dev/null 2> "$T/so.err"
rc=$?
[ $rc -eq 2 ] || fail "set_options from a wrapped extractor: exit $rc, not 2"
grep -q 'so2.wl:4: set_options failed: policies: the prefix extractor changes from filterlab:delim:: to rocksdb.FixedPrefix.2, but RocksDB.s SetOptions takes an extractor only by name' "$T/so.err" ||
    { cat "$T/so.err" >&2; fail "set_options from a wrapped extractor: no clear refusal"; }
# ...and what it can change, it changes: the newest OPTIONS file says so.
printf 'filterlab-workload 1\nopen policies="bloom(bits=10,prefix=fixed:2)" memtable_bytes=5000\nput aa1 1\nset_options policies="bloom(bits=10,prefix=capped:3)" memtable_bytes=7000 sst_bytes=12345 l0_trigger=7 rocksdb.memtable_prefix_bloom=0.125\nput ab1 2\nseek a n=2\n' > "$T/so3.wl"
"$FILTERLAB" replay "$T/so3.wl" --engine rocksdb --db "$T/so3" > /dev/null 2> "$T/so.err" || { cat "$T/so.err" >&2; fail "set_options on RocksDB"; }
opts=$(ls "$T/so3"/OPTIONS-* | sort | tail -n 1)
for want in 'prefix_extractor=rocksdb.CappedPrefix.3' 'target_file_size_base=12345' \
            'level0_file_num_compaction_trigger=7' 'memtable_prefix_bloom_size_ratio=0.125000' \
            "write_buffer_size=$((8 * 1048576 + 16 * 7000))"; do
    grep -q "^ *$want\$" "$opts" || { grep -E 'prefix_extractor|target_file|level0_file_num|prefix_bloom|write_buffer_size' "$opts" >&2; fail "set_options did not set $want"; }
done

# RocksDB's write buffer holds a full memtable and then the largest entry a
# workload has (a 65535-byte key, a 1 MiB value), its prefix bloom taking a
# quarter of it: RocksDB's results, flushed by the engine alone
big=$(head -c 1048576 /dev/zero | tr '\0' v)
bigkey=$(head -c 65535 /dev/zero | tr '\0' k)
{ printf 'filterlab-workload 1\nopen policies="bloom(bits=10,prefix=fixed:2)" memtable_bytes=65536 rocksdb.memtable_prefix_bloom=0.25\n'
  i=0; while [ $i -lt 2180 ]; do printf 'put k%04d v\n' $i; i=$((i + 1)); done
  printf 'put %s %s\nget %s\nget k0001\nscan_prefix k0\n' "$bigkey" "$big" "$bigkey"; } > "$T/big.wl"
"$FILTERLAB" replay "$T/big.wl" --engine rocksdb --json > "$T/big.json" 2> "$T/big.err" &&
    grep -q '"violations":0' "$T/big.json" && grep -q '"ssts_written":1,' "$T/big.json" ||
    { head -c 600 "$T/big.err"; fail "the largest entry beside a full memtable: $(head -c 600 "$T/big.json")"; }

# ---- 6. RocksDB's own bugs ------------------------------------------------------------------
# Each workloads/regress/rocksdb/*.wl reproduces a RocksDB bug fixed upstream
# in the release its "# fixed-in: X.Y.Z" line names: on an older RocksDB the
# checker must still report it (exit 1 and a P2 or P10 finding); on that
# release or newer it must pass -- and says so.  "# fixed-in: none" is a bug
# open upstream: every RocksDB must still fail it.
rocks=$("$FILTERLAB" --version | sed -n 's/.*RocksDB \([0-9.]*\)).*/\1/p')
[ -n "$rocks" ] || fail "filterlab --version names no RocksDB: $("$FILTERLAB" --version)"
older() {   # older A B: version A < version B
    [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n -k3,3n | head -n 1)" = "$1" ]
}
for wl in "$S"/workloads/regress/rocksdb/*.wl; do
    fixed=$(sed -n 's/^# fixed-in: *//p' "$wl")
    [ -n "$fixed" ] || fail "$wl has no '# fixed-in:' line"
    "$FILTERLAB" replay "$wl" --engine rocksdb > /dev/null 2> "$T/err"
    rc=$?
    if [ "$fixed" = none ] || older "$rocks" "$fixed"; then
        [ $rc -eq 1 ] && grep -Eq '^P(2|10) ' "$T/err" ||
            { tail -n 3 "$T/err" >&2; fail "$(basename "$wl"): RocksDB $rocks has the bug fixed in $fixed, but the checker did not report it (exit $rc)"; }
    else
        [ $rc -eq 0 ] || { tail -n 3 "$T/err" >&2; fail "$(basename "$wl"): RocksDB $rocks is past the fix ($fixed) and still fails"; }
        echo "$(basename "$wl"): RocksDB $rocks has the fix of $fixed: passes"
    fi
    # and filterlab's engine, the same workload without RocksDB, passes
    "$FILTERLAB" replay "$wl" > /dev/null 2>&1 || fail "$(basename "$wl") fails on filterlab's engine"
done

# ---- 7. filterlab's engine ignores rocksdb.* ---------------------------------------------
sed -e 's/^#.*/#/' -e 's/ rocksdb\.[a-z_]*=[^ ]*//g' "$S/workloads/rocksdb/partitioned_filters.wl" > "$T/plain.wl"
! grep -q "rocksdb\." "$T/plain.wl" || fail "could not strip the rocksdb.* options"
for w in "$S/workloads/rocksdb/partitioned_filters.wl" "$T/plain.wl"; do
    "$FILTERLAB" replay "$w" --json --results "$T/ign.txt" | sed 's/"elapsed_s":[0-9.e+-]*,"peak_rss_mib":[0-9.e+-]*,//' > "$T/ign.json" ||
        fail "$w on filterlab's engine"
    if [ "$w" = "$T/plain.wl" ]; then
        cmp -s "$T/ign.json" "$T/ign0.json" && cmp -s "$T/ign.txt" "$T/ign0.txt" ||
            fail "rocksdb.* options changed what filterlab's engine did"
    else
        mv "$T/ign.json" "$T/ign0.json"; mv "$T/ign.txt" "$T/ign0.txt"
    fi
done
exit 0
