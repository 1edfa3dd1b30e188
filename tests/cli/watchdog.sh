#!/bin/sh
# watchdog.sh -- a plugin that breaks its contract or never returns is a
# finding, never a pass and never a hang of the tool (issue 12, part 1):
#   - check with a policy whose name is NULL and whose build fails exits 1
#     with a shrunk workload that names the plugin and replays;
#   - replay of a workload whose filter's might_match never returns exits 1
#     within the call timeout, naming the plugin file, the method and the
#     key, and removes its temporary database;
#   - a build that never returns, likewise;
#   - a slow plugin (50 ms a call) under a 10 s timeout is no finding;
#   - check --time is a hard limit with a plugin that never returns: it ends
#     by the limit (plus the child's grace) with a finding, whose repro line
#     has --plugin and --call-timeout (once);
#   - ... but a call still running at the limit gets its --call-timeout: a
#     hang in the first trial of a run shorter than the timeout is a finding,
#     not "0 trials, no violation"; and a run in which no trial finished
#     says that nothing was checked;
#   - SIGINT stops check, SIGTERM stops a replay stuck in a plugin, and
#     gen and bench stop too, each at once (not after what it was waiting
#     for, or the rest of its work), leaving nothing in TMPDIR;
#   - a plugin that crashes or aborts is a finding naming the signal, the op
#     and line, and the plugin call.
# Nothing here may depend on how busy the machine is.  The planted hangs
# never end, so the call timeout is the only clock that decides a finding;
# what may be slow is made slow by far less than the timeout it must stay
# under; and a signal is sent only once the process catches it and is at
# work, however long that takes.  The wall-clock bounds below only tell
# "ends" from "waits out what it must not" (the rest of a 60 s run or a
# 50 s call timeout, a long shrink, a 100M-op gen): each is the time the
# command should take plus SLACK, wide enough that load does not reach it.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

build_plugin "$FL_SRCDIR/tests/plugins/hang.c" "$T/hang.so"
build_plugin "$FL_SRCDIR/tests/plugins/misbehave.c" "$T/mis.so"
mkdir "$T/tmp" || fail "mkdir"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# le X Y: X <= Y for decimals
le() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x <= y) }'; }
SLACK=20
# catches PID SIG: process PID has a handler for signal number SIG (its
# SigCgt in /proc); true where /proc cannot say
catches() {
    mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2> /dev/null)
    [ -n "$mask" ] || return 0
    low=${mask#"${mask%????????}"}             # signals 1-32
    [ $(((0x$low >> ($2 - 1)) & 1)) -eq 1 ]
}
# running PID: PID has not ended (a zombie not yet waited for has)
running() {
    kill -0 "$1" 2> /dev/null && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2> /dev/null
}
# at_work PID SIG WHAT TEST: waits until PID catches SIG and `eval TEST`
# holds, however long a busy machine takes (up to 120 s), failing if PID
# ends first
at_work() {
    tries=0
    until catches "$1" "$2" && eval "$4"; do
        running "$1" || fail "$3 ended before it was signalled"
        [ $tries -lt 1200 ] || { kill -KILL "$1"; fail "$3 is not at work after 120 s"; }
        tries=$((tries + 1))
        sleep 0.1
    done
}
empty_tmp() { [ -z "$(ls -A "$T/tmp")" ] || fail "$1 left files behind: $(ls -A "$T/tmp")"; }

# ---- a broken contract fails check, shrunk and replayable -------------------------
TMPDIR=$T/tmp "$FILTERLAB" check --plugin "$T/mis.so" --policy broken --trials 30 --out "$T/out1" \
    > "$T/c1.out" 2> "$T/c1.err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/c1.err" >&2; fail "check with a broken policy: exit $rc, expected 1"; }
grep -q "^check: P10 bad-input after 1 trial" "$T/c1.err" || fail "no P10 finding: $(head -3 "$T/c1.err")"
grep -q "from plugin $T/mis.so broke its contract" "$T/c1.err" || fail "the finding does not name the plugin"
# the shrinker's own runs (pinning flushes, engine only) keep the plugin's
# broken contracts to themselves: the finding says it once
! grep -q "^filterlab: contract violation" "$T/c1.err" ||
    fail "stray contract-violation lines from shrinking: $(grep -c '^filterlab: contract violation' "$T/c1.err")"
file=$(sed -n 's/.*minimized from [0-9]* to [0-9]* ops: //p' "$T/c1.err")
[ -f "$file" ] || fail "no minimized workload"
grep -q "^  replay: filterlab replay $file --plugin $T/mis.so\$" "$T/c1.err" || fail "repro line: $(grep replay: "$T/c1.err")"
"$FILTERLAB" replay "$file" --plugin "$T/mis.so" > /dev/null 2>&1
[ $? -eq 1 ] || fail "the minimized workload does not fail on replay"
empty_tmp "check (broken)"

# ---- a hung might_match in replay --------------------------------------------------
printf 'filterlab-workload 1\nopen policies="hang"\nput a 1\nflush\nget a\nget b\n' > "$T/h.wl"
t0=$(now)
TMPDIR=$T/tmp "$FILTERLAB" replay "$T/h.wl" --plugin "$T/hang.so" --call-timeout 1 > "$T/r1.out" 2> "$T/r1.err"
rc=$?
took=$(since "$t0")
[ $rc -eq 1 ] || { cat "$T/r1.err" >&2; fail "replay with a hung might_match: exit $rc, expected 1"; }
grep -q "^P10 bad-input: line [0-9]* [a-z]*.*: plugin $T/hang.so: might_match did not return within 1 s on key " "$T/r1.err" ||
    fail "the hang is not reported as the issue words it: $(head -2 "$T/r1.err")"
grep -q "replay: filterlab replay $T/h.wl --plugin $T/hang.so --call-timeout 1\$" "$T/r1.err" ||
    fail "the repro line lacks --plugin or --call-timeout: $(grep replay: "$T/r1.err")"
le "$took" $((1 + SLACK)) || fail "replay took $took s to report a 1 s hang"
empty_tmp "replay (hung might_match)"

# ---- a hung build ----------------------------------------------------------------------
printf 'filterlab-workload 1\nopen policies="hang(in=build)"\nput a 1\nflush\n' > "$T/b.wl"
TMPDIR=$T/tmp "$FILTERLAB" replay "$T/b.wl" --plugin "$T/hang.so" --call-timeout 1 > /dev/null 2> "$T/r2.err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/r2.err" >&2; fail "replay with a hung build: exit $rc, expected 1"; }
grep -q "plugin $T/hang.so: build did not return within 1 s" "$T/r2.err" || fail "hung build: $(head -2 "$T/r2.err")"
empty_tmp "replay (hung build)"

# ---- a crash and an abort in a plugin call are findings, not the end of filterlab ---
for how in crash:11 abort:6; do
    mode=${how%%:*} sig=${how#*:}
    printf 'filterlab-workload 1\nopen policies="hang(in=%s)"\nput a 1\nflush\nget a\nget b\n' "$mode" > "$T/$mode.wl"
    printf 'earlier results\n' > "$T/$mode.results"
    TMPDIR=$T/tmp "$FILTERLAB" replay "$T/$mode.wl" --plugin "$T/hang.so" --results "$T/$mode.results" \
        > /dev/null 2> "$T/$mode.err"
    rc=$?
    [ $rc -eq 1 ] || { cat "$T/$mode.err" >&2; fail "replay with a plugin that dies ($mode): exit $rc, expected 1"; }
    grep -q "^P10 bad-input: line [0-9]* [a-z]*.*: the run died with signal $sig (.*) in a call of plugin $T/hang.so: might_match" "$T/$mode.err" ||
        fail "the $mode is not reported with the signal, op, line and plugin: $(head -2 "$T/$mode.err")"
    grep -q "replay: filterlab replay $T/$mode.wl --plugin $T/hang.so\$" "$T/$mode.err" || fail "no repro line after the $mode"
    # the results of a run that died are not half written: the file is as it was
    [ "$(cat "$T/$mode.results")" = "earlier results" ] || fail "the $mode left half-written results"
    grep -q "results $T/$mode.results: not written: the run did not go through every op" "$T/$mode.err" ||
        fail "no word of the results not written after the $mode"
    [ -z "$(ls "$T" | grep "$mode.results.tmp")" ] || fail "the $mode left a temporary results file"
    empty_tmp "replay ($mode)"
done

# ---- slow is not hung --------------------------------------------------------------------
# (a call 200 times shorter than the timeout: no load stretches it that far)
printf 'filterlab-workload 1\nopen policies="hang(in=slow)"\nput a 1\nflush\nget a\nget b\nget c\n' > "$T/s.wl"
TMPDIR=$T/tmp "$FILTERLAB" replay "$T/s.wl" --plugin "$T/hang.so" --call-timeout 10 > /dev/null 2> "$T/r3.err" ||
    { cat "$T/r3.err" >&2; fail "a slow (50 ms) plugin under a 10 s timeout was a finding"; }
empty_tmp "replay (slow)"

# hung_check NAME TIME TIMEOUT MOST: check with a plugin whose might_match
# never returns, --time TIME --call-timeout TIMEOUT --shrink-time 3, must
# exit 1 within MOST seconds with the hang as its finding, and a repro line
# that has --plugin and the shrinker's 1 s call timeout (once).  Shrinking
# that finding to the end takes over a minute (each candidate that still
# hangs costs a 1 s call timeout): only --shrink-time, the shrinker's own
# budget apart from --time, ends it.  The first trial enters the hang
# within a fraction of a second, long before TIME however busy the machine.
hung_check() {
    t0=$(now)
    TMPDIR=$T/tmp "$FILTERLAB" check --plugin "$T/hang.so" --policy hang --time "$2" --call-timeout "$3" \
        --shrink-time 3 --out "$T/out-$1" > "$T/$1.out" 2> "$T/$1.err"
    rc=$?
    took=$(since "$t0")
    [ $rc -eq 1 ] || { cat "$T/$1.err" >&2; fail "check --time $2 --call-timeout $3 with a hung plugin: exit $rc, expected 1"; }
    le "$took" "$4" || fail "check --time $2 --call-timeout $3 took $took s"
    grep -q "might_match did not return within $3 s" "$T/$1.err" || fail "no hang finding: $(head -3 "$T/$1.err")"
    grep -q "^  replay: filterlab replay .* --plugin $T/hang.so --call-timeout 1\$" "$T/$1.err" ||
        fail "check's repro line: $(grep replay: "$T/$1.err")"
    empty_tmp "check ($1)"
}

# ---- check --time is a hard limit on the trials, and --shrink-time on shrinking --------
hung_check hung 5 1 $((5 + 3 + SLACK))

# ---- ... and a call running at the limit has its timeout to return ----------------------
hung_check hung-at-the-limit 5 10 $((10 + 3 + SLACK))
# ...and a run in which no trial finished does not say "no violation"
TMPDIR=$T/tmp "$FILTERLAB" check --time 0.001 --out "$T/out2c" > "$T/c2c.out" 2> "$T/c2c.err" ||
    fail "check --time 0.001: exit $?"
grep -q "^check: 0 trials, .*: no trial finished in the time given, so nothing was checked\$" "$T/c2c.out" ||
    fail "check --time 0.001: $(cat "$T/c2c.out")"

# ---- signals --------------------------------------------------------------------------
# stop WHAT SIG CODE WAIT ERR CMD...: starts CMD in the background (TMPDIR
# private), sends SIG after WAIT seconds and once CMD catches SIG and has
# made its scratch (so the test proves something), however long that takes,
# and wants exit CODE, promptly (within SLACK s: left alone, each would run
# for 50 s or more), and nothing left after.
stop() {
    what=$1 sig=$2 code=$3 pause=$4 err=$5
    shift 5
    TMPDIR=$T/tmp "$@" > "$err.out" 2> "$err" &
    pid=$!
    sleep "$pause"
    case $sig in INT) num=2 ;; TERM) num=15 ;; *) fail "stop: no number for SIG$sig" ;; esac
    at_work $pid $num "$what" '[ -n "$(ls -A "$T/tmp")" ]'
    t0=$(now)
    kill -"$sig" $pid
    wait $pid
    rc=$?
    took=$(since "$t0")
    [ $rc -eq "$code" ] || { cat "$err" >&2; fail "$what after SIG$sig: exit $rc, expected $code"; }
    le "$took" $SLACK || fail "$what took $took s to stop after SIG$sig"
    empty_tmp "$what (SIG$sig)"
}

stop check INT 130 1.5 "$T/c3.err" "$FILTERLAB" check --plugin "$T/hang.so" --policy hang --time 60 \
    --call-timeout 50 --out "$T/out3"
grep -q "interrupted" "$T/c3.err.out" || fail "check does not report what ran: $(cat "$T/c3.err.out")"
stop replay TERM 143 1 "$T/r4.err" "$FILTERLAB" replay "$T/h.wl" --plugin "$T/hang.so" --call-timeout 50
grep -q "interrupted (signal 15) after [0-9]* of 5 ops" "$T/r4.err" ||
    fail "replay does not say where it stopped: $(cat "$T/r4.err")"
# gen and bench stop too, leaving no temporary output or scratch
stop gen INT 130 1 "$T/g.err" "$FILTERLAB" gen --shape uniform --ops 100000000 -o "$T/tmp/big.wl"
stop bench TERM 143 1.5 "$T/b.err" "$FILTERLAB" bench --only filter --big-keys 50000000 --runs 1

# ---- endless and silent input ------------------------------------------------------------
# An endless stream is refused at the line limit, in bounded memory...
"$FILTERLAB" replay /dev/zero > /dev/null 2> "$T/z.err"
rc=$?
[ $rc -eq 2 ] || fail "replay /dev/zero: exit $rc, expected 2"
grep -q "^/dev/zero:1: the workload is too large: a line may hold at most 64 MiB" "$T/z.err" ||
    fail "replay /dev/zero: $(cat "$T/z.err")"
# ...and a signal stops the reading of a pipe that says nothing (once the
# reader catches it: before that, SIGTERM would end it with no word; the
# writer says nothing for as long as the test may take).
mkfifo "$T/fifo"
sleep 600 > "$T/fifo" &
writer=$!
"$FILTERLAB" replay - < "$T/fifo" > /dev/null 2> "$T/p.err" &
pid=$!
sleep 0.5
at_work $pid 15 "replay of a silent pipe" true
t0=$(now)
kill -TERM $pid
wait $pid
rc=$?
took=$(since "$t0")
kill $writer 2> /dev/null
[ $rc -eq 143 ] || fail "replay of a silent pipe after SIGTERM: exit $rc, expected 143"
le "$took" $SLACK || fail "replay of a silent pipe took $took s to stop"
grep -q "<stdin>: reading stopped by a signal" "$T/p.err" || fail "no word of the stop: $(cat "$T/p.err")"
exit 0
