#!/bin/sh
# regress_plugins.sh -- minimized failures that need the example plugins:
# every tests/regress/*.wl is replayed with examples/plugins/*.c built as
# plugins and must exit 0.  (Plugin-free regressions live in
# workloads/regress/, which make check replays directly.)
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

plugins=""
for src in "$FL_SRCDIR"/examples/plugins/*.c; do
    so="$T/$(basename "$src" .c).so"
    build_plugin "$src" "$so"
    plugins="$plugins --plugin $so"
done
n=0
for wl in "$FL_SRCDIR"/tests/regress/*.wl; do
    [ -f "$wl" ] || continue
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$FILTERLAB" replay "$wl" $plugins > "$T/out" 2>&1 || { cat "$T/out" >&2; fail "$wl"; }
done
[ $n -gt 0 ] || fail "no regression workloads in tests/regress"
exit 0
