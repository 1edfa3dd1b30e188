#!/bin/sh
# mutate.sh -- mutation runs over filterlab: how many one-line bugs planted
# in the engine does `filterlab check` find, and how many planted in the
# checker do the tests find?  Not part of `make check` (an hour for a few
# hundred mutants); run it by hand after `make` (--checker: after the
# builds make check's tests need, `make all asan fuzz-regress-build`), from
# the repository root:
#
#   sh tests/mutate.sh [--checker] [--count N] [--seed S] [--time SEC]
#                      [--jobs J] [--files "read.c keys.c ..."] [--out DIR]
#
# It lists every place in the files where one of these changes applies --
# a comparison flipped or loosened (< <= > >= == !=), && and || swapped, a
# + 1 or - 1 dropped, a `return true` and `return false` swapped, a !
# dropped, ++ made --, or a statement that calls something deleted -- and
# draws N of them (default 100) with the seed S (default 1; a Park-Miller
# generator in awk, so the same draw on mawk and gawk).  Each mutant is the
# one file with that one change, compiled and linked with the plain build's
# other objects (build/obj).
#
# The engine (the default): the engine's files that run for a check trial
# (reads, keys, memtable, SST reading and writing, compaction, bloom,
# extractors, filter calls, the db, the manifest, the envs).  Each mutant is
# run as `filterlab check --seed 1 --time SEC --jobs 1` (default 8 s; it is
# given SEC + 40 s before it is killed: a hang is found at the 10 s call
# timeout).  It is found when check exits non-zero (1: a finding, crashes
# and hangs included; 2: an error; 128+N: the tool itself died); it
# survives on exit 0.  A survivor is a change that check's trials do not
# reach (an error path, a leak, a SIMD kernel this CPU does not run), one
# that changes nothing the properties can see (a tie-break, a cache, a
# faster path), or a hole in the checks: read each one.  A first run of
# this kind (600 mutants, drawn by a prototype of this script) found that
# an engine op that never returned passed check, and that check never made
# a set_options for filterlab's engine.
#
# --checker: the checker's files (properties/: the checker, the probe,
# read and untraced checks, the SST truth, the extractor contract, P9 and
# its item sets, the policy lists).  Each mutant replaces its object in a
# copy of the build (symbolic links, under DIR) from which filterlab and
# the unit tests are linked, and make check's tests run on it, its plain
# half, those that pin the verdicts first: the unit tests,
# tests/cli/engine_mutants.sh (bugs planted in the engine, which check must
# find), mutants.sh and mutants_check.sh (buggy plugins, which replay and
# check must find), watchdog.sh (hangs), then every other tests/cli/*.sh,
# the shipped workloads replayed and a 20 s `check`, each given 300 s.  It
# is found when one of them fails (the result names the first); it
# survives when all pass.  A survivor is a check no test pins -- a change
# to it would go unnoticed -- unless the change is equivalent or only on a
# path no test takes (an error message, out of memory): read each one.
# The ASan build is not rebuilt with the mutant (its tests run the real
# one), so a memory error or a leak that changes nothing else survives.
#
# Both modes first run the unchanged source through the same steps (the
# control), and stop there if it does not pass: then every mutant would
# count as found for a reason of the set-up.
#
# DIR (default build/mutate) gets results.tsv (one line per mutant: name,
# result, file:line, the line before and after), each mutant's source and
# output; the survivors are printed at the end.
set -u
cd "$(dirname "$0")/.." || exit 2
S=$(pwd)

count=100 seed=1 secs=8 jobs=2 out=build/mutate mode=engine files=
engine_files="read.c keys.c memtable.c sst_read.c sst_write.c compact.c bloom.c bloom_bits.c extractors.c
              filter_call.c db.c manifest.c sst_format.c env_fault.c env_mem.c"
checker_files="checker.c probes.c truth.c reads.c untraced.c contract.c fprate.c fpset.c policies.c"
usage() { sed -n '9,10p' "$0" | sed 's/^# *//' >&2; exit 2; }

# ---- one mutant of the checker (the jobs call this script back) ----------------------------
if [ "${1:-}" = --one-checker ]; then
    # --one-checker OUT NAME FILE: builds OUT/NAME.c, a changed properties/FILE,
    # into the copy OUT/NAME.tree of the build, and runs the tests on it
    out=$2 name=$3 file=$4
    tree=$out/$name.tree src=$out/$name.src
    rm -rf "$tree" "$src"
    mkdir -p "$tree/build/tests" "$src/properties" || exit 2
    # the mutant at properties/FILE of a source tree whose other folders
    # are the real ones (its includes: "check_internal.h", "../engine/...")
    for d in engine model workloads; do ln -s "$S/$d" "$src/$d"; done
    cp "$out/$name.c" "$src/properties/$file"
    rocksdb=$(sed -n 's/^ROCKSDB_VERSION := //p' "$S/build/config.mk")
    set -- -std=c11 -D_GNU_SOURCE -O2 -w -iquote "$S/properties"
    [ -n "$rocksdb" ] && set -- "$@" -DFL_HAVE_ROCKSDB "-DFL_ROCKSDB_VERSION=\"$rocksdb\""
    if ! ${CC:-cc} "$@" -c "$src/properties/$file" -o "$out/$name.o" 2> "$out/$name.log"; then
        echo "$name	compile" > "$out/$name.rc"
        rm -rf "$tree" "$src"
        exit 0
    fi
    # the copy: every top-level entry of the repository but build/, and a
    # build/ whose objects are links to the real ones but the mutant's
    for e in "$S"/* "$S/.ci"; do [ "${e##*/}" = build ] || ln -s "$e" "$tree/${e##*/}"; done
    cp "$S/build/ldlibs" "$S/build/config.mk" "$tree/build/"
    # the rest of build/ (the ASan build, the fuzz drivers) unchanged: the
    # mutant is in the plain build only
    for e in "$S"/build/*; do
        case ${e##*/} in obj|tests|filterlab|ldlibs|config.mk|mutate*) ;; *) ln -s "$e" "$tree/build/${e##*/}" ;; esac
    done
    (cd "$S/build/obj" && find . -name '*.o') | while read -r o; do
        mkdir -p "$tree/build/obj/${o%/*}" && ln -s "$S/build/obj/$o" "$tree/build/obj/$o"
    done
    mv -f "$out/$name.o" "$tree/build/obj/properties/${file%.c}.o"
    obj=$tree/build/obj
    libs=$(cat "$S/build/ldlibs")
    # shellcheck disable=SC2086
    if ! ${CC:-cc} -O2 -rdynamic $(find "$obj/engine" "$obj/workloads" "$obj/model" "$obj/properties" "$obj/adapters" \
              "$obj/cli" "$obj/bench" "$obj/reports" -name '*.o') -o "$tree/build/filterlab" $libs \
              2>> "$out/$name.log" ||
       ! ${CC:-cc} -O2 -rdynamic $(find "$obj/engine" "$obj/workloads" "$obj/model" "$obj/properties" "$obj/adapters" \
              "$obj/reports" "$obj/tests" -name '*.o') -o "$tree/build/tests/unit" $libs 2>> "$out/$name.log"; then
        echo "$name	link" > "$out/$name.rc"
        rm -rf "$tree" "$src"
        exit 0
    fi
    # The tests in make check's order of what they pin (its plain half):
    # the unit tests, the planted bugs, the hangs, every other
    # tests/cli/*.sh, the shipped workloads replayed, and make check's
    # `check` run; up to the first that fails, whose name is the result.
    # Each test's output is cut at 10 MB (a mutant may make one print
    # without end; the cut fails it).
    tests="unit cli/engine_mutants cli/mutants cli/mutants_check cli/watchdog"
    for t in "$S"/tests/cli/*.sh; do
        t=cli/$(basename "$t" .sh)
        case " $tests " in *" $t "*) ;; *) tests="$tests $t" ;; esac
    done
    tests="$tests workloads check"
    found=
    for t in $tests; do
        case $t in
        unit) set -- build/tests/unit ;;
        cli/*) set -- sh "tests/$t.sh" ;;
        workloads) set -- sh -c 'for w in $(find workloads/ -name "*.wl" -type f ! -path "workloads/gen/*" | sort); do
                                     build/filterlab replay "$w" > /dev/null 2>&1 || { echo "replay $w failed"; exit 1; }
                                 done' ;;
        check) set -- build/filterlab check --seed 1 --time 20 --out "$tree/failures" ;;
        esac
        { (cd "$tree" && FL_SRCDIR=. FILTERLAB=build/filterlab timeout 300 "$@"); echo $? > "$tree.status"; } 2>&1 |
            head -c 10000000 > "$out/$name.log"
        if [ "$(cat "$tree.status")" != 0 ]; then found=$t; break; fi
    done
    rm -f "$tree.status"
    echo "$name	${found:-0}" > "$out/$name.rc"
    rm -rf "$tree" "$src"
    exit 0
fi

# ---- one mutant of the engine (the jobs call this script back) -----------------------------
if [ "${1:-}" = --one ]; then
    # --one OUT SECS NAME FILE: builds and checks OUT/NAME.c, a changed engine/FILE
    out=$2 secs=$3 name=$4 file=$5
    obj=$S/build/obj
    if ! ${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -w -I"$S/engine" -c "$out/$name.c" -o "$out/$name.o" 2> "$out/$name.log"; then
        echo "$name	compile" > "$out/$name.rc"
        exit 0
    fi
    objs=$(find "$obj/engine" "$obj/workloads" "$obj/model" "$obj/properties" "$obj/adapters" "$obj/cli" "$obj/bench" \
                "$obj/reports" -name '*.o' ! -path "$obj/engine/${file%.c}.o")
    # shellcheck disable=SC2086
    if ! ${CC:-cc} -O2 -rdynamic $objs "$out/$name.o" -o "$out/$name" $(cat "$S/build/ldlibs") 2>> "$out/$name.log"; then
        echo "$name	link" > "$out/$name.rc"
        exit 0
    fi
    rm -f "$out/$name.o"
    timeout $((secs + 40)) "$out/$name" check --seed 1 --time "$secs" --jobs 1 --shrink-time 2 \
        --out "$out/$name.found" > "$out/$name.log" 2>&1
    echo "$name	$?" > "$out/$name.rc"
    rm -f "$out/$name"
    exit 0
fi

while [ $# -gt 0 ]; do
    case $1 in
    --count) count=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --time) secs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --checker) mode=checker; shift ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,59p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
    esac
done
[ -f "$S/build/obj/engine/read.o" ] && [ -f "$S/build/ldlibs" ] || { echo "mutate.sh: run make first" >&2; exit 2; }
if [ $mode = checker ] && { [ ! -x "$S/build/asan/filterlab" ] || [ ! -d "$S/build/fuzz-regress" ]; }; then
    echo "mutate.sh: --checker runs make check's tests: run make all asan fuzz-regress-build first" >&2
    exit 2
fi
if [ $mode = checker ]; then dir=properties; files=${files:-$checker_files}
else dir=engine; files=${files:-$engine_files}; fi
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
rm -f "$out"/m*.rc "$out/control.rc" "$out/results.tsv"

# ---- the candidates, and the draw ------------------------------------------------------------
# Each candidate: FILE LINE COL OP (OP: an index into the table below, or
# "del").  The awk programs skip comments and preprocessor lines, and change
# only the code before a trailing comment.
# The changes, as awk reads them ("@" between them): the i-th of OPS_FROM
# becomes the i-th of OPS_TO.
OPS_FROM=' < @ <= @ > @ >= @ == @ != @ && @ || @ + 1@ - 1@return true;@return false;@(!@++'
OPS_TO=' <= @ < @ >= @ > @ != @ == @ || @ && @ @ @return false;@return true;@(@--'
list=$out/candidates
: > "$list"
for f in $files; do
    [ -f "$S/$dir/$f" ] || { echo "mutate.sh: no $dir/$f" >&2; exit 2; }
    awk -v f="$f" -v ops_from="$OPS_FROM" -v ops_to="$OPS_TO" '
        BEGIN { n = split(ops_from, from, "@"); split(ops_to, to, "@") }
        { line = $0; s = line; sub(/^[ \t]+/, "", s) }
        incomment { if (index(s, "*/")) incomment = 0; next }
        s ~ /^\/\*/ { if (!index(s, "*/")) incomment = 1; next }
        s == "" || s ~ /^(\*|#|\/\/)/ { next }
        {
            code = line; c = index(code, "/*"); if (c) code = substr(code, 1, c - 1)
            for (i = 1; i <= n; i++)
                for (at = 1; (p = index(substr(code, at), from[i])) > 0; at += p)
                    print f, NR, at + p - 1, i
            if (s ~ /;$/ && s !~ /^(return|case|static|const|typedef|struct|enum|unsigned|int|uint|size_t|bool|char|double|fl_[a-z_]* )/ &&
                s ~ /\(/ && s !~ /^[^(]*=/ && s !~ /^}/)
                print f, NR, 0, "del"
        }' "$S/$dir/$f" >> "$list"
done
total=$(wc -l < "$list")
# Park-Miller (x = 16807 x mod 2^31 - 1: exact in doubles) shuffles the
# list; the first `count` are the mutants.
awk -v seed="$seed" -v want="$count" '
    { c[NR] = $0 }
    END {
        x = (seed % 2147483646) + 1
        for (i = NR; i > 1; i--) {
            x = (x * 16807) % 2147483647
            j = 1 + int(x / 2147483647 * i); t = c[i]; c[i] = c[j]; c[j] = t
        }
        for (i = 1; i <= want && i <= NR; i++) printf "m%04d %s\n", i, c[i]
    }' "$list" > "$out/drawn"
if [ $mode = checker ]; then how="the tests on each"; else how="check --time $secs each"; fi
echo "mutate.sh: $total places in $dir/ ($(echo $files | wc -w) files); $(wc -l < "$out/drawn") mutants, seed $seed, $how, $jobs at a time"

# ---- the mutants' sources ----------------------------------------------------------------------
while read -r name f line col op; do
    awk -v line="$line" -v col="$col" -v op="$op" -v ops_from="$OPS_FROM" -v ops_to="$OPS_TO" '
        BEGIN { split(ops_from, from, "@"); split(ops_to, to, "@") }
        NR == line {
            old = $0
            if (op == "del") { match($0, /^[ \t]*/); $0 = substr($0, 1, RLENGTH) "; /* deleted */" }
            else $0 = substr($0, 1, col - 1) to[op] substr($0, col + length(from[op]))
            print old > "/dev/stderr"; print $0 > "/dev/stderr"
        }
        { print }' "$S/$dir/$f" > "$out/$name.c" 2> "$out/$name.diff"
done < "$out/drawn"

# ---- the control ---------------------------------------------------------------------------------
# The same steps on the unchanged source first: every test must pass on it
# (check must find nothing), else each mutant would count as found for a
# reason of the set-up (a build missing, such as the ASan one that
# determinism.sh compares with, a test failing as it is).
trap 'echo "mutate.sh: stopped; what ran is in $out" >&2; exit 130' INT TERM
set -- $files
cp "$S/$dir/$1" "$out/control.c"
echo "mutate.sh: the control (the unchanged $dir/$1) first"
if [ $mode = checker ]; then sh "$0" --one-checker "$out" control "$1"
else sh "$0" --one "$out" "$secs" control "$1"; fi
rc=$(cut -f 2 "$out/control.rc")
if [ "$rc" != 0 ]; then
    echo "mutate.sh: the unchanged source does not pass (${rc}): fix that first; its output:" >&2
    tail -n 5 "$out/control.log" >&2
    exit 1
fi

# ---- the runs ------------------------------------------------------------------------------------
if [ $mode = checker ]; then
    awk '{ print $1, $2 }' "$out/drawn" | xargs -n 2 -P "$jobs" sh "$0" --one-checker "$out"
else
    awk '{ print $1, $2 }' "$out/drawn" | xargs -n 2 -P "$jobs" sh "$0" --one "$out" "$secs"
fi

# ---- the results ----------------------------------------------------------------------------------
found=0 survived=0 broken=0
while read -r name f line col op; do
    rc=$(cut -f 2 "$out/$name.rc" 2> /dev/null || echo missing)
    old=$(sed -n 1p "$out/$name.diff" | sed 's/^[ \t]*//')
    new=$(sed -n 2p "$out/$name.diff" | sed 's/^[ \t]*//')
    printf '%s\t%s\t%s:%s\t%s\t%s\n' "$name" "$rc" "$f" "$line" "$old" "$new" >> "$out/results.tsv"
    case $rc in
    0) survived=$((survived + 1)) ;;
    compile|link|missing) broken=$((broken + 1)) ;;
    *) found=$((found + 1)) ;;
    esac
done < "$out/drawn"
echo "survivors:"
awk -F '\t' '$2 == "0" { printf "  %s %s: %s  =>  %s\n", $1, $3, $4, $5 }' "$out/results.tsv"
echo "mutate.sh: $found found, $survived survived, $broken did not build; $out/results.tsv"
