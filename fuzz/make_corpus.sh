#!/bin/sh
# make_corpus.sh -- regenerates the seed corpora fuzz/corpus/HARNESS/seed-*
# (run by `make fuzz-corpus`, which builds what it needs first; the output
# is committed).  Files not named seed-* -- regression inputs kept from
# fixed findings -- are never touched.
#
# Sources: every workload (workloads/**/*.wl but not the generators in
# workloads/gen/, tests/mutants/*.wl, examples/plugins/*.wl) as text
# (fuzz_workload), encoded as ops (fuzz_ops) and mined for spec strings
# (fuzz_spec); the SST files and MANIFEST of replaying each with `filterlab
# replay --db` (fuzz_sst, fuzz_manifest) and the SSTs' filter blocks and
# sub-filters (fuzz_filter_block);
# plus the hand-written edge cases below.  Files are named by content
# (seed-HASH), so duplicates collapse; SSTs over 16 KiB are left out to
# keep the corpus small.
set -eu
cd "$(dirname "$0")/.."
FILTERLAB=${FILTERLAB:-build/filterlab}
TOOL=build/fuzz/seedtool
C=fuzz/corpus
HARNESSES="fuzz_ops fuzz_filter_block fuzz_sst fuzz_manifest fuzz_workload fuzz_spec fuzz_extractor"
for f in "$FILTERLAB" "$TOOL"; do
    [ -x "$f" ] || { echo "make_corpus.sh: $f is missing: run make fuzz-corpus" >&2; exit 2; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/fl-corpus.XXXXXX")
trap 'rm -rf "$T"' EXIT
for h in $HARNESSES; do
    mkdir -p "$C/$h"
    rm -f "$C/$h"/seed-*
done

# seed HARNESS FILE: adds FILE to the corpus under its content hash.
seed() {
    cp "$2" "$C/$1/seed-$(sha1sum < "$2" | cut -c1-16)"
}
# text HARNESS STRING: a seed holding STRING (printf escapes: \NNN octal).
text() {
    printf "$2" > "$T/text"
    seed "$1" "$T/text"
}

# ---- from the workloads -------------------------------------------------------
wls=$(find workloads tests/mutants examples -name '*.wl' ! -path 'workloads/gen/*' | sort)
n=0
for wl in $wls; do
    n=$((n + 1))
    seed fuzz_workload "$wl"
    "$TOOL" ops "$wl" > "$T/ops" && seed fuzz_ops "$T/ops"
    "$TOOL" specs "$wl" | sort -u > "$T/specs"
    while IFS= read -r spec; do
        printf '%s' "$spec" > "$T/spec"
        seed fuzz_spec "$T/spec"
    done < "$T/specs"
    db="$T/db$n"
    # Workloads that need a plugin do not replay here: they give no SSTs.
    "$FILTERLAB" replay "$wl" --db "$db" > /dev/null 2>&1 || continue
    seed fuzz_manifest "$db/MANIFEST"
    for sst in "$db"/*.sst; do
        [ -f "$sst" ] || continue
        [ "$(wc -c < "$sst")" -le 16384 ] || continue
        seed fuzz_sst "$sst"
        id=$(basename "$sst" .sst)
        rm -f "$T"/blk*
        "$TOOL" blocks "$db" "$id" "$T/blk" || continue
        for b in "$T"/blk*; do [ -f "$b" ] && seed fuzz_filter_block "$b"; done
    done
done

# ---- hand-written edge cases --------------------------------------------------
# fuzz_workload: every op and spelling, and lines the parser must refuse.
text fuzz_workload 'filterlab-workload 1\n'
text fuzz_workload '# d1\n#\n# d3\nfilterlab-workload 1\nopen policies=none compactor="bloom(bits=1.5)" legacy_filters=1\nput "" ""\nput "\\x00\\xff\\n\\t\\\\\\"" v\ndel a\ndelrange a "b c"\nget a ctx=00ff\nscan_prefix "" ctx=\nscan a b\nflush\ncompact\ncompact full\nreopen min_filter_keys=2\n'
text fuzz_workload 'filterlab-workload 2\n'
text fuzz_workload 'filterlab-workload 1\nput a\n'
text fuzz_workload 'filterlab-workload 1\nput "a b\n'
text fuzz_workload 'filterlab-workload 1\nget "\\x4" ctx=0\n'
text fuzz_workload 'filterlab-workload 1\nput a b\nopen policies=none\n'
text fuzz_workload 'filterlab-workload 1\nreopen\n'
text fuzz_workload 'filterlab-workload 1\nreopen bogus=1 bogus=2\n'
text fuzz_workload '\n   # indented comment\n\tfilterlab-workload 1\t\r\nflush\r\n'
# fuzz_spec: the corners of the spec language.
for s in 'none' ' none ' '' ';' 'none;bloom' 'bloom' 'bloom()' ' bloom( bits = 10 , whole_key = 0 ) ' \
         'bloom (bits=1)' 'bloom(bits=1000)' 'bloom(bits=1000.0001)' 'bloom(bits=2.0005)' \
         'bloom(bits=2.00049999)' 'bloom(bits=.5)' 'bloom(bits=5.)' 'bloom(bits=.)' 'bloom(bits=-1)' \
         'bloom(bits=\\x31\\x30)' 'bloom(bits=1\\x00)' 'bloom(whole_key=\\x30)' 'bloom(whole_key=2)' \
         'bloom(bits=10,bits=11)' 'bloom(,)' 'bloom(bits)' 'bloom(prefix=delim:\\x2c)' \
         'bloom(prefix=delim:,)' 'bloom(prefix=delim:))' 'bloom(prefix=delim:()' 'bloom(prefix=delim:\\)' \
         'bloom(prefix=lastdelim:\\x5c)' 'bloom(prefix=capped:65535,whole_key=0)' 'bloom((x))' \
         'bloom(prefix=fixed:3);bloom(prefix=fixed:3,bits=5)' 'bloom;;bloom' 'mine(x=1)' 'bloom)' \
         'fixed:1' 'fixed:65535' 'fixed:65536' 'fixed:0' 'fixed:\\x33' 'fixed:' 'fixed' 'capped:007' \
         'delim:\\x00' 'delim:ab' 'delim:\\' 'delim:\\x3' 'lastdelim: ' 'bogus:1' 'bloom:1' \
         'abcdefghijklmnopqrstuvwxyz0123456789(x=1)'; do
    printf '%s' "$s" > "$T/spec"
    seed fuzz_spec "$T/spec"
done
# fuzz_extractor: [kind][param] then a key, for each kind, both delimiter spellings.
for kp in '\000\002' '\001\002' '\002:' '\003:' '\006\000' '\007\377' '\002\\' '\003/' '\000\017'; do
    for key in 'user:01:name' 'a:b:c' '' '\000\377:' 'ab'; do text fuzz_extractor "$kp$key"; done
done
# fuzz_filter_block: empty composite, empty and bad blooms, bad composites.
text fuzz_filter_block '\000\000'
text fuzz_filter_block '\001\000\000\000\000\000'
text fuzz_filter_block '\001\037\000\000\000\000'
text fuzz_filter_block '\002\006\000\000\000\000'
text fuzz_filter_block '\000\001\000\003_bf\000\000\000\000\000\000\000\006\001\000\000\000\000\000'
text fuzz_filter_block '\000\002\000\001a\000\000\000\000\000\000\000\000\000\001a\000\000\000\000\000\000\000\000'
text fuzz_filter_block '\000\001\000\001a\000\000\000\000\000\000\000\000X'
text fuzz_filter_block '\000\001\000\001a\377\377\377\377\377\377\377\377'
# fuzz_sst: nothing, a bare footer, a truncated SST.
text fuzz_sst ''
text fuzz_sst '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\001FLST'
first=$(ls "$C/fuzz_sst"/seed-* 2> /dev/null | head -n 1)
if [ -n "$first" ]; then head -c $(($(wc -c < "$first") / 2)) "$first" > "$T/half"; seed fuzz_sst "$T/half"; fi
# fuzz_manifest: nothing, an empty tree, a huge count.
text fuzz_manifest ''
text fuzz_manifest 'filterlab-manifest 1\nnext_sst 1\nnext_seq 0\nl0 0\nruns 0\nchecksum 0000000000000000\n'
text fuzz_manifest 'filterlab-manifest 1\nnext_sst 1\nnext_seq 0\nl0 9999999\nsst 1 - - 0 0 0 0\nchecksum 0000000000000000\n'
# fuzz_ops: nothing, options only, every op code once.
text fuzz_ops ''
text fuzz_ops '\360\360\377\377\001\047\020\000\000'
text fuzz_ops '\001\000\000\000\001\047\020\007\003\000\002\000\001\004\002\000\001\005\001\000\001\003\006\001\000\010\001\000\012\001\000\001\001\013\014\015\016\000\000\000\000\000\006\001\000\210\000\000\001'

# fuzz_rocksdb: the same byte format as fuzz_ops; its seeds are fuzz_ops's,
# less those that reach a known RocksDB bug (docs/rocksdb.md):
# make check replays the corpus, and a seed that aborts is a finding, not a
# seed (tests/fuzz/ keeps one that does, for tests/cli/fuzz_findings.sh).
R=build/fuzz-regress/fuzz_rocksdb
if [ -x "$R" ]; then
    mkdir -p "$C/fuzz_rocksdb"
    rm -f "$C/fuzz_rocksdb"/seed-*
    for f in "$C/fuzz_ops"/seed-*; do
        "$R" "$f" > /dev/null 2>&1 && cp "$f" "$C/fuzz_rocksdb/"
    done
    HARNESSES="$HARNESSES fuzz_rocksdb"
fi

for h in $HARNESSES; do
    printf '%-18s %5d files %8d bytes\n' "$h" "$(ls "$C/$h" | wc -l)" "$(cat "$C/$h"/* | wc -c)"
done
