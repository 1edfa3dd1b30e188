#!/bin/sh
# trusted_files.sh -- the files of a --db directory, from the command line
# (issue 14): a directory whose MANIFEST is gone is refused, not taken for a
# new database; a second process opening the same database is refused,
# naming the holder's pid (the LOCK file); --read-only reads without writing
# (the MANIFEST is not rewritten) and refuses writes; SSTs left by a crash
# after the last commit are removed at open.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

db=$T/db
printf 'filterlab-workload 1\nopen\nput a 1\nput b 2\nflush\nput c 3\nflush\n' > "$T/w.wl"
printf 'filterlab-workload 1\nopen\nget a\nget c\nget zz\n' > "$T/r.wl"
printf 'filterlab-workload 1\nopen\nput d 4\n' > "$T/put.wl"
"$FILTERLAB" replay "$T/w.wl" --db "$db" > /dev/null 2>&1 || fail "making the database"
ls "$db/LOCK" > /dev/null || fail "no LOCK file"

# --read-only: the same answers, no write, writes refused
ino=$(ls -i "$db/MANIFEST" | cut -d' ' -f1)
"$FILTERLAB" replay "$T/r.wl" --db "$db" --read-only --results "$T/res" > /dev/null 2>&1 ||
    fail "read-only replay of reads"
printf '3 get a -> 1\n4 get c -> 3\n5 get zz -> none\n' | cmp -s - "$T/res" || fail "read-only results: $(cat "$T/res")"
[ "$(ls -i "$db/MANIFEST" | cut -d' ' -f1)" = "$ino" ] || fail "a read-only run rewrote the MANIFEST"
"$FILTERLAB" replay "$T/put.wl" --db "$db" --read-only > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "put failed: write: the database .* is open read-only (as asked)" "$T/err" ||
    fail "a write under --read-only: $(cat "$T/err")"
"$FILTERLAB" replay "$T/r.wl" --read-only > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q -- "--read-only needs --db DIR" "$T/err" || fail "--read-only without --db: $(cat "$T/err")"
# a read-write run that changes nothing leaves the MANIFEST alone too
"$FILTERLAB" replay "$T/r.wl" --db "$db" > /dev/null 2>&1 || fail "reads"
[ "$(ls -i "$db/MANIFEST" | cut -d' ' -f1)" = "$ino" ] || fail "a run that changed nothing rewrote the MANIFEST"

# a second process: refused, naming the holder (the first holds the
# database open until its watchdog ends the run, a P10 finding: its
# filter's might_match never returns, and the call timeout, 10 s, is the
# only clock).  The second starts once the first holds the lock (its pid is
# in LOCK), however long a busy machine takes to get there, and then has
# the 10 s (a hundred times what it needs, even under ASan) to be refused.
build_plugin "$FL_SRCDIR/tests/plugins/hang.c" "$T/hang.so"
printf 'filterlab-workload 1\nopen policies="hang(in=might_match)"\nput k v\nflush\nget k\n' > "$T/slow.wl"
"$FILTERLAB" replay "$T/slow.wl" --db "$T/db2" --plugin "$T/hang.so" --call-timeout 10 > /dev/null 2>&1 &
holder=$!
tries=0
until [ -s "$T/db2/LOCK" ]; do
    [ $tries -lt 1200 ] || { kill $holder; fail "the first process did not lock the database in 120 s"; }
    tries=$((tries + 1))
    sleep 0.1
done
"$FILTERLAB" replay "$T/r.wl" --db "$T/db2" > /dev/null 2> "$T/err"
rc=$?
wait $holder
[ $? -eq 1 ] || fail "the first process was not ended by the watchdog"
[ $rc -eq 2 ] && grep -q "the database is open in process [0-9]* (.*LOCK is locked); close it there first" "$T/err" ||
    fail "a second open: exit $rc, $(cat "$T/err")"
"$FILTERLAB" replay "$T/r.wl" --db "$T/db2" --no-check --plugin "$T/hang.so" > /dev/null 2>&1 ||
    fail "the database did not open once the first process had ended"

# an SST written after the last commit (a crash) is removed at open
cp "$db/000001.sst" "$db/000099.sst"
"$FILTERLAB" replay "$T/r.wl" --db "$db" > /dev/null 2> "$T/err" || fail "reads after an orphan"
[ ! -e "$db/000099.sst" ] || fail "the uncommitted SST was not removed"
grep -q "r.wl: note: .*removed 1 SST file the MANIFEST never named" "$T/err" ||
    fail "replay did not say it removed the orphan: $(cat "$T/err")"

# no MANIFEST: refused, naming the SSTs
rm "$db/MANIFEST"
"$FILTERLAB" replay "$T/r.wl" --db "$db" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "holds 2 SST files but no MANIFEST; refusing to open it as a new database" "$T/err" ||
    fail "no MANIFEST: $(cat "$T/err")"
[ -e "$db/000001.sst" ] && [ ! -e "$db/MANIFEST" ] || fail "the refused directory was changed"
grep -q "replay --new-db" "$T/err" || fail "the refusal does not say how to create anyway: $(cat "$T/err")"
# ...unless asked: a new database beside them, the files kept and untouched
cksum "$db/000001.sst" > "$T/sum1"
"$FILTERLAB" replay "$T/r.wl" --db "$db" --new-db > /dev/null 2> "$T/err" || fail "--new-db: $(cat "$T/err")"
grep -q "note: .*a new database made beside 2 SST files without a MANIFEST, kept: not part of the tree" "$T/err" ||
    fail "--new-db did not say what it did: $(cat "$T/err")"
[ -e "$db/MANIFEST" ] && cksum "$db/000001.sst" | cmp -s - "$T/sum1" || fail "--new-db changed the old files"
"$FILTERLAB" replay "$T/r.wl" --db "$db" --new-db --read-only > /dev/null 2>&1
[ $? -eq 2 ] || fail "--new-db with --read-only is not refused"
exit 0
