#!/bin/sh
# examples.sh -- the example plugins of examples/plugins/ (the users'
# how-to) keep building and working: builds keyrange_policy.c and
# tenant_extractor.c exactly as the README says (only filter.h, -shared
# -fPIC), replays examples/plugins/example.wl with both loaded, and checks
# exit 0, a few exact result lines (among them reads that only keyrange
# rules out, under range tombstones that must still apply), that keyrange
# did rule SSTs out, and that nothing was a contract violation or a filter
# error.  Also: the examples' own Makefile builds both, and without the
# plugins the workload is refused naming the unknown kind.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

EX="$FL_SRCDIR/examples/plugins"
build_plugin "$EX/keyrange_policy.c" "$T/keyrange.so"
build_plugin "$EX/tenant_extractor.c" "$T/tenant.so"

"$FILTERLAB" replay "$EX/example.wl" --plugin "$T/keyrange.so" --plugin "$T/tenant.so" \
    --results "$T/out" --json > "$T/json" 2> "$T/err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/err" >&2; fail "example.wl with both plugins exited $rc"; }

# Exact lines: LINE op ARGS -> RESULT, with LINE the line in example.wl.
cat > "$T/expected" <<'EXP'
37 get acme:users:1 -> ada
42 get hooli:users:1 -> none
48 scan_prefix acme: -> acme:orders:1=widget acme:orders:2=gadget acme:users:1=ada acme:users:2=bob
53 scan_prefix hooli: ->
64 get hooli:users:1 -> none
71 get acme:users:1 -> ada-v2
72 get acme:orders:1 -> none
74 get acme:pets:1 -> none
75 scan_prefix acme: -> acme:users:1=ada-v2 acme:users:2=bob
76 scan_prefix acme:orders: ->
88 scan_prefix hooli: -> hooli:users:1=gavin
108 scan_prefix "" -> acme:users:1=ada-v2 acme:users:2=bob globex:users:1=hank globex:users:2=nina hooli:users:1=gavin initech:tps:1=report initech:users:1=peter initech:users:2=milton
EXP
while IFS= read -r line; do
    grep -Fxq -- "$line" "$T/out" || {
        grep "^${line%% *} " "$T/out" >&2
        fail "example.wl: expected the result line '$line'"
    }
done < "$T/expected"

# keyrange alone rules out the reads at lines 64, 72-74 (gets) and 65,
# 76, 77 (scan_prefix), so there are at least that many negatives.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p, q = d["point"], d["prefix"]
assert d["violations"] == 0 and d["contract_violations"] == 0 and d["filter_errors"] == 0, d
assert p["negative"] >= 4 and q["negative"] >= 3, "keyrange ruled out too little: %r %r" % (p, q)
' "$T/json" || { cat "$T/json" >&2; fail "example.wl metrics"; }

# The examples' Makefile builds both plugins, warning-free.
${MAKE:-make} -s -C "$EX" OUT="$T/made" > "$T/make.out" 2>&1 ||
    { cat "$T/make.out" >&2; fail "make -C examples/plugins failed"; }
[ -f "$T/made/keyrange.so" ] && [ -f "$T/made/tenant.so" ] ||
    fail "make -C examples/plugins did not build keyrange.so and tenant.so"

# Without the tenant plugin, the extractor kind is unknown: exit 2, naming it.
"$FILTERLAB" replay "$EX/example.wl" --plugin "$T/keyrange.so" > /dev/null 2> "$T/err2"
rc=$?
[ $rc -eq 2 ] || { cat "$T/err2" >&2; fail "example.wl without tenant.so: exit $rc, expected 2"; }
grep -q "tenant" "$T/err2" || { cat "$T/err2" >&2; fail "without tenant.so: the kind is not named"; }
exit 0
