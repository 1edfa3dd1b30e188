#!/bin/sh
# replay_errors.sh -- bad input and bad usage exit 2 with a message that says
# where (SPEC 11): a malformed workload names FILE:LINE; a bad policy spec or
# option in open/reopen names FILE:LINE and nothing is run (no database, no
# results file); a missing file, an unknown flag, a missing argument and an
# unloadable plugin are usage errors; --help exits 0.  Also the top-level
# dispatch: help, --version, unknown and not-yet-implemented commands.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

# expect CODE NEEDLE ARGS...: runs filterlab ARGS, wants exit CODE and, if
# NEEDLE is not empty, NEEDLE in stdout or stderr.
expect() {
    code=$1 needle=$2
    shift 2
    "$FILTERLAB" "$@" > "$T/out" 2> "$T/err"
    rc=$?
    if [ $rc -ne "$code" ]; then
        cat "$T/out" "$T/err" >&2
        fail "filterlab $*: exit $rc, expected $code"
    fi
    if [ -n "$needle" ] && ! grep -qF -- "$needle" "$T/out" "$T/err"; then
        cat "$T/out" "$T/err" >&2
        fail "filterlab $*: output lacks '$needle'"
    fi
}

# A malformed line: FILE:LINE, exit 2.
printf 'filterlab-workload 1\nput a 1\nput onlykey\n' > "$T/bad.wl"
expect 2 "bad.wl:3" replay "$T/bad.wl"
printf 'filterlab-workload 7\n' > "$T/version.wl"
expect 2 "version.wl:1" replay "$T/version.wl"

# A bad policy spec in open: FILE:LINE, exit 2, nothing run.
cat > "$T/spec.wl" <<'WL'
# a bad spec on line 3
filterlab-workload 1
open policies="bloom(bits=zz)"
put a 1
get a
WL
expect 2 "spec.wl:3" replay "$T/spec.wl" --db "$T/db1" --results "$T/r1"
[ -e "$T/db1" ] && fail "a bad spec created the database: something was run"
[ -e "$T/r1" ] && fail "a bad spec created the results file: something was run"

# An unknown kind in a later reopen: still caught before anything runs.
cat > "$T/reopen.wl" <<'WL'
filterlab-workload 1
open policies="bloom(bits=10)"
put a 1
flush
reopen policies="bloom(bits=10);nosuchkind(x=1)"
get a
WL
expect 2 "reopen.wl:5" replay "$T/reopen.wl" --db "$T/db2"
grep -q bloom "$T/err" || fail "an unknown kind's message does not list the known kinds"
[ -e "$T/db2" ] && fail "a bad reopen spec let earlier ops run"

# A bad compactor list and a bad option value.
printf 'filterlab-workload 1\nopen compactor="bloom(bits=10,prefix=nosuch:1)"\n' > "$T/comp.wl"
expect 2 "comp.wl:2" replay "$T/comp.wl"
printf 'filterlab-workload 1\nopen memtable_bytes=lots\n' > "$T/opt.wl"
expect 2 "opt.wl:2" replay "$T/opt.wl"

# Missing file, bad usage, plugins that cannot load.
expect 2 "" replay "$T/does-not-exist.wl"
printf 'filterlab-workload 1\nput a 1\n' > "$T/ok.wl"
expect 0 "" replay "$T/ok.wl"
expect 2 "usage:" replay "$T/ok.wl" --bogus
expect 2 "usage:" replay
expect 2 "usage:" replay "$T/ok.wl" --results
expect 2 "usage:" replay "$T/ok.wl" --db
expect 2 "usage:" replay "$T/ok.wl" --plugin
expect 2 "usage:" replay "$T/ok.wl" "$T/ok.wl"
expect 2 "" replay "$T/ok.wl" --plugin "$T/no-such-plugin.so"
echo "not a shared object" > "$T/junk.so"
expect 2 "junk.so" replay "$T/ok.wl" --plugin "$T/junk.so"
expect 2 "" replay "$T/ok.wl" --results "$T/no/such/dir/results"
expect 0 "usage: filterlab replay" replay --help
expect 0 "usage: filterlab replay" help replay

# The top-level command.
expect 2 "usage:"
expect 2 "usage:" ""
expect 2 "usage:" nosuchcommand
for c in replay gen check report bench; do
    expect 0 "$c" --help
    # a user has no tracker: help texts cite none
    ! "$FILTERLAB" "$c" --help 2>&1 | grep -Eiq "issue [0-9]" || fail "$c --help cites a tracker issue"
done
expect 0 "usage:" -h
expect 0 "usage:" help
expect 0 "filterlab" --version
expect 2 "unknown argument" bench --bogus
expect 2 "unknown argument" check --bogus
expect 2 "--shard needs I/N" check --shard 3/2
# a summary that cannot be written is an error, not a silent exit 0
"$FILTERLAB" check --trials 2 --out "$T/chk" > /dev/full 2> "$T/full.err"
rc=$?
[ $rc -eq 2 ] && grep -q "write error on stdout" "$T/full.err" || fail "check > /dev/full: exit $rc: $(cat "$T/full.err")"
exit 0
