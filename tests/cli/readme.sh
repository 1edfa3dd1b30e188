#!/bin/sh
# readme.sh -- every ```sh block of README.md, docs/*.md (sorted by name) and
# examples/plugins/README.md runs, in that order, as written, so the examples
# cannot drift from the tool (a block the README's tour shares with a docs
# page runs twice).  Each block runs with `sh -e` in a
# sandbox that looks like the top of this tree to it (docs/ blocks too: their
# paths are relative to the top of the tree, not to docs/) and must exit 0;
# a failure names the file and the line of the block's ```sh:
#   - build/filterlab is a wrapper of the binary under test that shortens the
#     long runs the examples ask for (a check runs at most 5 trials, whatever
#     its --time) and changes nothing else;
#   - workloads/, fuzz/, examples/, engine/ and adapters/ are this tree's; /tmp/ in a block is a
#     directory of the sandbox; <filterlab> is this tree;
#   - make is a stand-in that asks this tree's Makefile for the block's
#     targets and variables with `make -n` (they must exist; nothing is
#     built or run: make check is running them), and for `all` in a clone
#     links the clone's build/filterlab to the wrapper; the examples' own
#     Makefile (make -C examples/plugins) runs for real, with OUT in the
#     sandbox and FILTERLAB the wrapper;
#   - build/fuzz/HARNESS is a stand-in for the libFuzzer binary: it checks
#     the libFuzzer flags and that every corpus directory and -dict file
#     exists (as libFuzzer does) and runs the same harness, built with the
#     standalone driver, over them with the block's environment;
#   - the plugins the examples name are built from sources of this tree:
#     my.so, mine.so and my_policy.so (from my.c, my_policy.c) are
#     tests/plugins/mine.c (policy "mine", extractor "myex"), ex.so is
#     examples/plugins/tenant_extractor.c, other.so
#     examples/plugins/keyrange_policy.c; my.wl opens
#     policies="bloom(bits=10);mine(x=1)" as docs/plugins.md says;
#   - $FILTERLAB_REPO is this tree (a git clone of it) and $BUILD_NUMBER 1.
# Without RocksDB, a block that uses --engine rocksdb must instead fail
# saying how to get it; so must one that uses --engine slatedb without the
# SlateDB adapter (no cargo), or --engine pebble without the Pebble adapter
# (no go).  A block that cannot run fails the test: there is no
# list of blocks to skip.  Once, with the plain build.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

case $FILTERLAB in */asan/*) exit 0 ;; esac
S=$(cd "$FL_SRCDIR" && pwd)
BIN=$(cd "$(dirname "$FILTERLAB")" && pwd)/$(basename "$FILTERLAB")
REGRESS=$(dirname "$BIN")/fuzz-regress
rocks=$("$BIN" --version | sed -n 's/.*RocksDB \([0-9.]*\)).*/\1/p')
slate=$([ -x "$(dirname "$BIN")/cargo/release/filterlab-slatedb" ] && echo 1)
pebble=$([ -x "$(dirname "$BIN")/go/filterlab-pebble" ] && echo 1)

# ---- the blocks ------------------------------------------------------------
mkdir -p "$T/blocks"
: > "$T/blocks/names"
for md in README.md $(cd "$S" && ls docs/*.md | LC_ALL=C sort) examples/plugins/README.md; do
    awk -v dir="$T/blocks" -v md="$md" '
        BEGIN           { while ((getline l < (dir "/names")) > 0) n++ }
        /^```sh[ \t]*$/ { n++; f = sprintf("%s/%02d.sh", dir, n); printf "" > f; inside = 1
                          print md " line " NR >> (dir "/names"); next }
        /^```/          { if (inside) close(f); inside = 0; next }
        inside          { print >> f }' "$S/$md"
done
count=$(wc -l < "$T/blocks/names")
[ "$count" -ge 24 ] || fail "README.md, docs/ and examples/plugins/README.md have $count sh blocks; expected at least 24"

# ---- the sandbox -------------------------------------------------------------
W=$T/w
mkdir -p "$W/build/fuzz" "$W/tmp" "$T/bin"
for d in workloads fuzz examples engine adapters; do ln -s "$S/$d" "$W/$d"; done
cat > "$W/build/filterlab" <<EOF
#!/bin/sh
# the binary under test, with the examples' long runs shortened: a check
# runs at most 5 trials (whatever its --time), so that what it finds does
# not depend on the speed of the machine
n=\$# prev= trials=
for a in "\$@"; do
    case \$prev in
        --trials) trials=1; [ "\$a" -gt 5 ] 2> /dev/null && a=5 ;;
    esac
    set -- "\$@" "\$a"
    prev=\$a
done
shift \$n
[ "\$1" = check ] && [ -z "\$trials" ] && set -- "\$@" --trials 5
echo "filterlab \$*" >> "$T/calls"
exec "$BIN" "\$@"
EOF
chmod +x "$W/build/filterlab"
for h in fuzz_ops fuzz_extractor; do
    cat > "$W/build/fuzz/$h" <<EOF
#!/bin/sh
# stands for the libFuzzer binary: libFuzzer's flags and inputs checked,
# the same harness run over the inputs by the standalone driver
inputs=
for a in "\$@"; do
    case \$a in
        -fork=[0-9]*|-max_total_time=[0-9]*|-runs=[0-9]*|-jobs=[0-9]*|-workers=[0-9]*) ;;
        -dict=*) [ -f "\${a#-dict=}" ] || { echo "ParseDictionaryFile: file does not exist: \${a#-dict=}" >&2; exit 1; } ;;
        -*) echo "$h stand-in: a flag this test does not know: \$a" >&2; exit 1 ;;
        *) [ -e "\$a" ] || { echo "ERROR: The required directory \"\$a\" does not exist" >&2; exit 1; }
           inputs="\$inputs \$a" ;;
    esac
done
[ -n "\$inputs" ] || { echo "$h stand-in: no corpus" >&2; exit 1; }
echo "$h \$*" >> "$T/calls"
exec "$REGRESS/$h" \$inputs > /dev/null
EOF
    chmod +x "$W/build/fuzz/$h"
    [ -x "$REGRESS/$h" ] || fail "$REGRESS/$h is missing: build it with 'make fuzz-regress-build'"
done
REAL_MAKE=$(command -v make) || fail "no make"
cat > "$T/bin/make" <<EOF
#!/bin/sh
# stands for make: the targets and variables must exist in the Makefile
# (make -n); nothing is built.  'all' in a clone links its binary.
dir=$S clone=
prev=
for a in "\$@"; do
    [ "\$prev" = -C ] && { dir=\$a; clone=\$a; }
    prev=\$a
done
case " \$* " in *" -C "*) ;; *) set -- -C "\$dir" "\$@" ;; esac
echo "make \$*" >> "$T/calls"
case \$dir in
    examples/plugins) exec "$REAL_MAKE" "\$@" OUT="$W/build/examples" FILTERLAB="$W/build/filterlab" ;;
esac
"$REAL_MAKE" -n "\$@" > "$T/make.out" 2>&1 || { cat "$T/make.out" >&2; exit 2; }
case " \$* " in
    *" all "*) [ -n "\$clone" ] && mkdir -p "\$clone/build" && ln -sf "$W/build/filterlab" "\$clone/build/filterlab" ;;
esac
exit 0
EOF
chmod +x "$T/bin/make"
if ! git -C "$S" rev-parse --git-dir > /dev/null 2>&1; then
    # not a git tree (a tarball): the clone is a copy
    cat > "$T/bin/git" <<EOF
#!/bin/sh
[ "\$1" = clone ] || { echo "git stand-in: only clone" >&2; exit 2; }
cp -R "\$2" "\$3"
EOF
    chmod +x "$T/bin/git"
fi
cp "$S/tests/plugins/mine.c" "$W/my.c"
cp "$S/tests/plugins/mine.c" "$W/my_policy.c"
build_plugin "$S/tests/plugins/mine.c" "$W/my.so"
cp "$W/my.so" "$W/mine.so"
build_plugin "$S/examples/plugins/tenant_extractor.c" "$W/ex.so"
build_plugin "$S/examples/plugins/keyrange_policy.c" "$W/other.so"
cat > "$W/my.wl" <<'EOF'
filterlab-workload 1
open policies="bloom(bits=10);mine(x=1)"
put apple 1
put banana 2
flush
get apple
get cherry
EOF

# ---- run them ----------------------------------------------------------------
i=1
while [ $i -le "$count" ]; do
    b=$(printf '%s/blocks/%02d.sh' "$T" $i)
    where=$(sed -n "${i}p" "$T/blocks/names")
    # /tmp/ of the text first: the tree itself may live under /tmp
    sed -e "s|/tmp/|$W/tmp/|g" -e "s|<filterlab>|$S|g" "$b" > "$b.run"
    : > "$T/calls"
    (cd "$W" && PATH="$T/bin:$PATH" FILTERLAB_REPO=$S BUILD_NUMBER=1 sh -e "$b.run") \
        > "$T/out.$i" 2> "$T/err.$i"
    rc=$?
    if [ -z "$rocks" ] && grep -q -- "--engine rocksdb" "$b"; then
        [ $rc -ne 0 ] && grep -q "built without RocksDB" "$T/err.$i" ||
            fail "the sh block at $where (built without RocksDB): exit $rc, $(tail -n 3 "$T/err.$i")"
    elif [ -z "$slate" ] && grep -q -- "--engine slatedb" "$b"; then
        [ $rc -ne 0 ] && grep -q "built without the SlateDB adapter" "$T/err.$i" ||
            fail "the sh block at $where (built without the SlateDB adapter): exit $rc, $(tail -n 3 "$T/err.$i")"
    elif [ -z "$pebble" ] && grep -q -- "--engine pebble" "$b"; then
        [ $rc -ne 0 ] && grep -q "built without the Pebble adapter" "$T/err.$i" ||
            fail "the sh block at $where (built without the Pebble adapter): exit $rc, $(tail -n 3 "$T/err.$i")"
    else
        [ $rc -eq 0 ] || { sed 's/^/  | /' "$b" >&2; tail -n 15 "$T/err.$i" >&2;
                           fail "the sh block at $where (above) exits $rc"; }
    fi
    [ -s "$T/calls" ] || { sed 's/^/  | /' "$b" >&2; fail "the sh block at $where ran neither filterlab, make nor a fuzzer"; }
    i=$((i + 1))
done
echo "$count sh blocks of README.md, docs/*.md and examples/plugins/README.md ran"
exit 0
