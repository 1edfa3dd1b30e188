#!/bin/sh
# engine_protocol.sh -- the engine protocol (docs/protocol.md) end to
# end, with adapter programs as --engine cmd:...:
#   - the minimal adapter (examples/engines/sorted_map.py) gives, on every
#     shipped workload it can express, exit 0 and the results filterlab's own
#     engine gives; the rest stop with exit 2 naming the line and what the
#     adapter cannot do;
#   - the faulty adapters (tests/engines/faulty.py) each give the documented
#     finding or error: a lie is P2 (exit 1); a hang is P10 naming the request
#     (exit 1, within --call-timeout); a death is P10 with the exit status or
#     signal and the stderr tail (exit 1); a garbled reply or an unknown
#     protocol version is exit 2 quoting it; a missing capability is exit 2 at
#     the op's line; a write's error reply names the write;
#   - Ctrl-C leaves no adapter process and no scratch directory behind.
# Every adapter is a process of its own (python3's start alone can take a
# good part of a second on a busy machine): the call timeout is 60 s, but
# for the planted hang, which never ends and waits it out: there it is the
# default 10 s, the only clock.
. "$(dirname "$0")/common.inc"
command -v python3 > /dev/null || { echo "engine_protocol.sh: no python3: skipped"; exit 0; }
MAP="cmd:python3 $FL_SRCDIR/examples/engines/sorted_map.py"
FAULTY="python3 $FL_SRCDIR/tests/engines/faulty.py"

# ---- the minimal adapter on the shipped workloads
ran=0 stopped=0
for w in $(find "$FL_SRCDIR/workloads" -name '*.wl' ! -path '*/gen/*' | sort); do
    n=$(basename "$w" .wl)
    "$FILTERLAB" replay "$w" --call-timeout 60 --engine "$MAP" --results "$T/$n.map" > "$T/out" 2>&1
    rc=$?
    if [ $rc = 2 ]; then
        # stopped at a line, naming what it cannot run
        grep -Eq "\.wl:[0-9]+: .*(cannot run|cannot express|cannot simulate|cannot change)" "$T/out" ||
            { cat "$T/out"; fail "$n: exit 2 without naming the line and what the adapter cannot do"; }
        stopped=$((stopped + 1))
        continue
    fi
    [ $rc = 0 ] || { cat "$T/out"; fail "$n: the sorted map exits $rc"; }
    "$FILTERLAB" replay "$w" --results "$T/$n.own" > /dev/null 2>&1 ||
        fail "$n: filterlab's own engine fails it"
    cmp -s "$T/$n.own" "$T/$n.map" || { diff "$T/$n.own" "$T/$n.map" | head; fail "$n: results differ"; }
    ran=$((ran + 1))
done
[ $ran -ge 5 ] || fail "only $ran shipped workloads ran on the sorted map"
echo "sorted map: $ran workloads with filterlab's results, $stopped stopped at an op it cannot run"

# ---- the faulty adapters
W="$FL_SRCDIR/workloads/basic.wl"
expect() {     # MODE STATUS ERE [CALL-TIMEOUT]
    "$FILTERLAB" replay "$W" --call-timeout "${4:-60}" --engine "cmd:$FAULTY $1" > "$T/$1.out" 2>&1
    rc=$?
    [ $rc = "$2" ] || { cat "$T/$1.out"; fail "$1: exit $rc, not $2"; }
    grep -Eq "$3" "$T/$1.out" || { cat "$T/$1.out"; fail "$1: no line matches: $3"; }
}
expect lie 1 '^P2 results: line [0-9]+ get '
expect hang 1 '^P10 bad-input: line 23 get apple: engine cmd:.*faulty.py hang: get did not return within 10 s' 10
expect die 1 '^P10 bad-input: .*basic.wl:35: get: the adapter .* exited with status 3 during `get apple`; its stderr ended: adapter: panic: the disk is on fire'
expect segv 1 'was killed by signal 11 .*during `get apple`'
expect garble 2 'basic.wl:23: get failed: the adapter .* answered `get apple` with `yes`, not `ok value VALUE` or `ok none`'
expect probe 2 'basic.wl:23: get failed: the adapter .* answered `get apple` with `probe 8 0123456789abcde maybe`, not `probe LEN HASH maybe\|no` \(HASH: 16 hex digits\)'
expect version 2 'basic.wl:9: open failed: .*speaks protocol version 2; this filterlab speaks 1'
expect noprefix 2 'basic.wl:[0-9]+: scan_prefix failed: .*cannot run `scan_prefix`: its adapter does not list it in caps='
expect failput 2 'failed: `put a plain-a`: disk full'
expect checks 1 "^P3 skip-counts: line 23 get apple: the engine's own statistic counts 1 filter check\\(s\\) that said no, but the get's SST filter probes that said no are 0"
expect violation 1 "^P7 extractor-contract: line 23 get apple: extractor \"liar\" of kind 'liar' from plugin /x/liar.so broke its contract in prefix_len: prefix_len returned 9 for a 4-byte target"
for m in lie hang die segv garble probe version noprefix failput violation checks; do
    if grep -q 'replay:' "$T/$m.out"; then
        grep -q "replay: filterlab replay .*--engine 'cmd:python3 .*faulty.py $m'" "$T/$m.out" ||
            fail "$m: the replay line does not name the engine"
    fi
done

# ---- Ctrl-C: nothing left behind
# The INT goes once the adapter hangs in its get (it makes $T/hanging
# there), however long a busy machine takes to get it there.  Killed, the
# adapter is gone at once, but a busy machine may take a moment to say so:
# it is looked for until it is gone (left running, it would sleep for a
# day), by a command line that names $T, so no other run's is taken for it.
mkdir -p "$T/scratch"
TMPDIR="$T/scratch" "$FILTERLAB" replay "$W" --call-timeout 600 --engine "cmd:$FAULTY hang $T/hanging" \
    > "$T/int.out" 2>&1 &
pid=$!
i=0
until [ -e "$T/hanging" ]; do
    [ $i -lt 1200 ] || { kill $pid; cat "$T/int.out"; fail "Ctrl-C: the adapter did not reach its get in 120 s"; }
    sleep 0.1; i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/int.out"; fail "Ctrl-C: exit $rc, not 130"; }
i=0
while pgrep -f "faulty.py hang $T/hanging" > /dev/null; do
    [ $i -lt 600 ] || fail "Ctrl-C left the adapter running"
    sleep 0.1; i=$((i + 1))
done
[ -z "$(ls "$T/scratch")" ] || fail "Ctrl-C left $(ls "$T/scratch") behind"
echo "engine protocol: ok"

# ---- filterlab's own engine through the protocol (filterlab serve): every
# shipped workload it can run gives filterlab's results with no violation
SERVE="cmd:'$(cd "$(dirname "$FILTERLAB")" && pwd)/$(basename "$FILTERLAB")' serve"
served=0
for w in $(find "$FL_SRCDIR/workloads" -name '*.wl' ! -path '*/gen/*' | sort); do
    n=$(basename "$w" .wl)
    "$FILTERLAB" replay "$w" --call-timeout 60 --engine "$SERVE" --results "$T/$n.served" > "$T/out" 2>&1
    rc=$?
    if [ $rc = 2 ] && grep -Eq "\.wl:[0-9]+: .*(cannot run|cannot simulate)" "$T/out"; then continue; fi
    [ $rc = 0 ] || { cat "$T/out"; fail "$n through filterlab serve: exit $rc"; }
    "$FILTERLAB" replay "$w" --results "$T/$n.own" > /dev/null 2>&1 || fail "$n: filterlab's own engine fails it"
    cmp -s "$T/$n.own" "$T/$n.served" || fail "$n: results through the protocol differ"
    served=$((served + 1))
done
[ $served -ge 25 ] || fail "only $served shipped workloads ran through filterlab serve"
echo "filterlab serve: $served workloads with filterlab's results, no violation"
# the same through the protocol without running ahead (FILTERLAB_AHEAD=0),
# and the same counters either way
for n in basic migration prefix_scans; do
    FILTERLAB_AHEAD=0 "$FILTERLAB" replay "$FL_SRCDIR/workloads/$n.wl" --engine "$SERVE" --results "$T/$n.strict" \
        > "$T/strict.out" 2>&1 || { cat "$T/strict.out"; fail "$n through filterlab serve, one op at a time"; }
    "$FILTERLAB" replay "$FL_SRCDIR/workloads/$n.wl" --engine "$SERVE" > "$T/ahead.out" 2>&1
    cmp -s "$T/$n.own" "$T/$n.strict" || fail "$n: results one op at a time differ"
    [ "$(tail -n +2 "$T/strict.out")" = "$(tail -n +2 "$T/ahead.out")" ] ||
        fail "$n: the counters differ with and without running ahead: $(cat "$T/strict.out" "$T/ahead.out")"
done
"$FILTERLAB" serve --help | grep -q "engine protocol" || fail "serve --help"

# ---- plugins inside an adapter: `plugin PATH`, and each contract a plugin
# breaks there comes back as a `violation` line, reported as in process
build_plugin "$FL_SRCDIR/tests/plugins/misbehave.c" "$T/mis.so"
printf '%s\n' 'filterlab-workload 1' \
    'open policies="broken;bloom(bits=10,prefix=liar)" memtable_bytes=200' \
    'put abc 1' 'put b 3' 'flush' 'get abc' 'get zzz' 'scan_prefix ab' 'compact full' 'get abc' > "$T/mis.wl"
"$FILTERLAB" replay "$T/mis.wl" --plugin "$T/mis.so" --engine "$SERVE" > "$T/mis.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$T/mis.out"; fail "a broken plugin inside filterlab serve: exit $rc, not 1"; }
grep -q "^P7 extractor-contract: line 3 put abc: extractor \"liar\" of kind 'liar' from plugin $T/mis.so broke its contract in prefix_len: prefix_len returned 8 for a key of 3 bytes" "$T/mis.out" ||
    { cat "$T/mis.out"; fail "the liar extractor inside the adapter is not P7"; }
grep -q "^P10 bad-input: line 5 flush: builder of policy of kind 'broken' from plugin $T/mis.so broke its contract in build: build failed" "$T/mis.out" ||
    { cat "$T/mis.out"; fail "the broken policy's build inside the adapter is not P10"; }
grep -q "replay: filterlab replay $T/mis.wl --plugin $T/mis.so --engine " "$T/mis.out" ||
    fail "the replay line does not name the plugin and the engine: $(grep 'replay:' "$T/mis.out")"
printf 'hello 1\nget a\nopen %s/db policies=none\nput a 1\nget a\nquit\n' "$T" | "$FILTERLAB" serve > "$T/serve.out"
grep -q '^ok 1 filterlab ' "$T/serve.out" && grep -q '^err invalid no database is open' "$T/serve.out" &&
    grep -q '^ok value 1$' "$T/serve.out" || { cat "$T/serve.out"; fail "serve: the conversation"; }
echo "engine protocol: all ok"
